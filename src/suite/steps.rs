//! The runtime API's work, dispatched one component at a time: the KEM step (keys,
//! encapsulation, decapsulation) on the KEM id alone, the key schedule and the context on the
//! KDF and AEAD ids. A setup runs one KEM step, which hands its shared secret to one schedule
//! step, so the library compiles each KEM's code once and each (KDF, AEAD) pair's once: 12 + 28
//! instantiations in a full build, where dispatching the whole typed setup on all three ids
//! compiled 336 (and a user's program carried them all, whichever suite it used).
//!
//! The KEM enters the key schedule only through `suite_id` and the shared secret (RFC 9180
//! §5.1), so a setup composed of the two steps is the typed setup: `tests/suite.rs` checks
//! every suite, in every mode, against the typed API from the same randomness.

// A build without any KEM feature leaves the KEM dispatchers without arms.
#![allow(unreachable_code, unused_variables)]
// A build without a DH-KEM (ML-KEM and the hybrids alone) leaves `by_auth_kem` without arms:
// the auth steps' fields and `AuthKemStep::run` are then never used.
#![cfg_attr(
    not(any(
        feature = "x25519",
        feature = "x448",
        feature = "nist",
        feature = "secp256k1"
    )),
    allow(dead_code)
)]

use rand_core::CryptoRng;

use super::context::State;
use super::held::Ask;
use super::keys::{KeyArg, recipient, with_pk, with_sk};
use super::{EncappedKey, Lengths, PrivateKey, PublicKey, Suite, TAG_LEN, typed};
use crate::aead::{Aead, ExportOnly, SealingAead};
use crate::kdf::{Kdf, TwoStageKdf};
use crate::kem::{self, AuthKem, Kem};
use crate::key_schedule::{Mode, key_schedule_for_suite};
use crate::{Error, Psk};

/// Work generic over the KEM alone.
pub(super) trait KemStep {
    type Output;
    fn run<K: Kem>(self) -> Self::Output;
}

/// Work that needs authenticated encapsulation: the DH-KEMs only.
pub(super) trait AuthKemStep {
    type Output;
    fn run<K: AuthKem>(self) -> Self::Output;
}

/// Work generic over the KDF and the AEAD.
pub(super) trait ScheduleStep {
    type Output;
    fn run<F: Kdf, A: Aead>(self) -> Self::Output;
}

/// Work generic over a KDF with `Extract` and `Expand` (`suite::Prk`).
pub(super) trait TwoStageStep {
    type Output;
    fn run<F: TwoStageKdf>(self) -> Self::Output;
}

/// Work generic over an AEAD that seals (`suite::Sealer`, `suite::Opener`).
pub(super) trait SealingStep {
    type Output;
    fn run<A: SealingAead>(self) -> Self::Output;
}

/// The five dispatchers, from the table (`table.rs`). The ids were checked by `Suite::new`;
/// an id the dispatcher has no arm for is `UnsupportedSuite`, except a KEM without
/// authenticated encapsulation in `by_auth_kem`, which is `UnsupportedOperation`.
macro_rules! step_dispatchers {
    (
        dh_kems: [$($(#[$dcfg:meta])* $dv:ident: $dk:ty),* $(,)?],
        other_kems: [$($(#[$ocfg:meta])* $ov:ident: $ok:ty),* $(,)?],
        two_stage_kdfs: [$($fv:ident: $f:ty),* $(,)?],
        one_stage_kdfs: [$($f1v:ident: $f1:ty),* $(,)?],
        sealing_aeads: [$($(#[$scfg:meta])* $sv:ident: $sa:ty),* $(,)?] $(,)?
    ) => {
        /// The ids of this build's KEMs, in the table's order: the DH-KEMs (which have the
        /// Auth modes) first, by id, then ML-KEM and the hybrids. [`AnyKem::all`]'s order.
        ///
        /// [`AnyKem::all`]: crate::suite::AnyKem::all
        pub const KEM_IDS: &[u16] = &[
            $($(#[$dcfg])* <$dk as Kem>::ID,)*
            $($(#[$ocfg])* <$ok as Kem>::ID,)*
        ];
        /// The ids of the KDFs, in the table's order: HKDF (two-stage) first, then the
        /// one-stage KDFs.
        pub const KDF_IDS: &[u16] = &[$(<$f as Kdf>::ID,)* $(<$f1 as Kdf>::ID,)*];
        /// The ids of this build's AEADs, in the table's order, ExportOnly (`0xFFFF`) last.
        pub const AEAD_IDS: &[u16] = &[$($(#[$scfg])* <$sa as Aead>::ID,)* ExportOnly::ID];

        /// `step.run::<K>()` with the KEM of `kem_id`.
        pub(super) fn by_kem<S: KemStep>(kem_id: u16, step: S) -> Result<S::Output, Error> {
            // Each arm is a call whose result is this function's (see `run_ok`).
            match kem_id {
                $($(#[$dcfg])* <$dk as Kem>::ID => run_ok::<S, $dk>(step),)*
                $($(#[$ocfg])* <$ok as Kem>::ID => run_ok::<S, $ok>(step),)*
                _ => Err(Error::UnsupportedSuite),
            }
        }

        /// [`by_kem`] for a step that can fail: its result, or `UnsupportedSuite`, with no
        /// `Result` around a `Result`. A step that makes a runtime key returns it through here:
        /// each `?` on the nested form was another copy of the key (as large as the build's
        /// largest) in a debug build's frame.
        pub(super) fn by_kem_flat<S, T>(kem_id: u16, step: S) -> Result<T, Error>
        where
            S: KemStep<Output = Result<T, Error>>,
        {
            match kem_id {
                $($(#[$dcfg])* <$dk as Kem>::ID => step.run::<$dk>(),)*
                $($(#[$ocfg])* <$ok as Kem>::ID => step.run::<$ok>(),)*
                _ => Err(Error::UnsupportedSuite),
            }
        }

        /// `step.run::<K>()` with the KEM of `kem_id`, which must authenticate.
        pub(super) fn by_auth_kem<S: AuthKemStep>(kem_id: u16, step: S) -> Result<S::Output, Error> {
            match kem_id {
                $($(#[$dcfg])* <$dk as Kem>::ID => Ok(step.run::<$dk>()),)*
                _ => Err(Error::UnsupportedOperation),
            }
        }

        /// `step.run::<F>()` with the two-stage KDF of `kdf_id`: a one-stage KDF, which has no
        /// separate `Extract` and `Expand`, is `UnsupportedOperation`.
        pub(super) fn by_two_stage_kdf<S: TwoStageStep>(kdf_id: u16, step: S) -> Result<S::Output, Error> {
            match kdf_id {
                $(<$f as Kdf>::ID => Ok(step.run::<$f>()),)*
                $(<$f1 as Kdf>::ID => Err(Error::UnsupportedOperation),)*
                _ => Err(Error::UnsupportedSuite),
            }
        }

        /// `step.run::<A>()` with the sealing AEAD of `aead_id`: ExportOnly is
        /// `UnsupportedOperation`.
        pub(super) fn by_sealing_aead<S: SealingStep>(aead_id: u16, step: S) -> Result<S::Output, Error> {
            match aead_id {
                $($(#[$scfg])* <$sa as Aead>::ID => Ok(step.run::<$sa>()),)*
                ExportOnly::ID => Err(Error::UnsupportedOperation),
                _ => Err(Error::UnsupportedSuite),
            }
        }

        /// `step.run::<F, A>()` with the KDF of `kdf_id` and the AEAD of `aead_id`.
        pub(super) fn by_schedule<S: ScheduleStep>(
            kdf_id: u16,
            aead_id: u16,
            step: S,
        ) -> Result<S::Output, Error> {
            fn by_aead<F: Kdf, S: ScheduleStep>(aead_id: u16, step: S) -> Result<S::Output, Error> {
                match aead_id {
                    $($(#[$scfg])* <$sa as Aead>::ID => Ok(step.run::<F, $sa>()),)*
                    ExportOnly::ID => Ok(step.run::<F, ExportOnly>()),
                    _ => Err(Error::UnsupportedSuite),
                }
            }
            match kdf_id {
                $(<$f as Kdf>::ID => by_aead::<$f, S>(aead_id, step),)*
                $(<$f1 as Kdf>::ID => by_aead::<$f1, S>(aead_id, step),)*
                _ => Err(Error::UnsupportedSuite),
            }
        }
    };
}

suite_table!(step_dispatchers);

/// `Ok(step.run::<K>())` in a frame of its own. A debug build inlines nothing and gives every
/// temporary of a function its own stack slot, so a `match` whose arms each wrapped the step's
/// output held one output per KEM at once: a runtime key pair is about 37 KB with every KEM,
/// and `by_kem` alone took 443 KB of a 2 MiB thread's stack for `Suite::derive_key_pair`.
/// A call in an arm writes straight into the caller's result. (An optimised build inlines it.)
fn run_ok<S: KemStep, K: Kem>(step: S) -> Result<S::Output, Error> {
    Ok(step.run::<K>())
}

/// Whether a KEM is in the build ([`AnyKem::new`](super::AnyKem::new)) or authenticates
/// ([`Suite::supports_auth`]), a KDF has two stages, an AEAD seals (`suite::Prk::supports`,
/// `suite::Sealer::supports`).
pub(super) struct Nothing;

impl KemStep for Nothing {
    type Output = ();
    fn run<K: Kem>(self) {}
}

impl AuthKemStep for Nothing {
    type Output = ();
    fn run<K: AuthKem>(self) {}
}

impl TwoStageStep for Nothing {
    type Output = ();
    fn run<F: TwoStageKdf>(self) {}
}

impl SealingStep for Nothing {
    type Output = ();
    fn run<A: SealingAead>(self) {}
}

/// The KEM's lengths; the tag's is the AEAD's ([`Suite::lengths`]).
pub(super) struct KemLengths {
    pub tag: usize,
    pub aead_key: usize,
    pub aead_nonce: usize,
}

impl KemStep for KemLengths {
    type Output = Lengths;
    fn run<K: Kem>(self) -> Lengths {
        use hybrid_array::typenum::Unsigned;
        Lengths {
            enc: K::NEnc::USIZE,
            public_key: K::NPk::USIZE,
            private_key: K::NSk::USIZE,
            tag: self.tag,
            aead_key: self.aead_key,
            aead_nonce: self.aead_nonce,
        }
    }
}

/// The tag length of an AEAD id: every sealing AEAD of RFC 9180 has a 16-byte tag,
/// ExportOnly none.
pub(super) fn tag_len(aead_id: u16) -> usize {
    if aead_id == ExportOnly::ID {
        0
    } else {
        TAG_LEN
    }
}

pub(super) struct ParseSk<'a>(pub &'a [u8]);

impl KemStep for ParseSk<'_> {
    type Output = Result<PrivateKey, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        runtime_key(typed::PrivateKey::<K>::from_bytes(self.0))
    }
}

pub(super) struct ParseSkWithPk<'a>(pub &'a [u8], pub &'a [u8]);

impl KemStep for ParseSkWithPk<'_> {
    type Output = Result<PrivateKey, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        runtime_key(typed::PrivateKey::<K>::from_bytes_and_public_bytes(
            self.0, self.1,
        ))
    }
}

pub(super) struct ParsePk<'a>(pub &'a [u8]);

impl KemStep for ParsePk<'_> {
    type Output = Result<PublicKey, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        runtime_key(typed::PublicKey::<K>::from_bytes(self.0))
    }
}

/// A typed key pair, or its error, as runtime keys. The steps that make keys hand their typed
/// result straight to this rather than take it apart with `?` or `Result::map`: in a debug
/// build each `?`, binding and closure call held another copy of the pair (about 37 KB for
/// MLKEM1024-P384) in a frame of its own, and `Suite::derive_key_pair` took 1.3 MiB of stack.
fn runtime_pair<K: Kem>(
    typed: Result<(typed::PrivateKey<K>, typed::PublicKey<K>), Error>,
) -> Result<(PrivateKey, PublicKey), Error> {
    match typed {
        Ok((sk, pk)) => Ok((sk.into(), pk.into())),
        Err(e) => Err(e),
    }
}

/// A typed key, or its error, as a runtime key, as [`runtime_pair`].
fn runtime_key<T, U: From<T>>(typed: Result<T, Error>) -> Result<U, Error> {
    match typed {
        Ok(key) => Ok(key.into()),
        Err(e) => Err(e),
    }
}

pub(super) struct Derive<'a>(pub &'a [u8]);

impl KemStep for Derive<'_> {
    type Output = Result<(PrivateKey, PublicKey), Error>;
    fn run<K: Kem>(self) -> Self::Output {
        runtime_pair(K::derive_key_pair(self.0))
    }
}

/// A key pair serialized: the private key wiped on drop, and the public key.
#[cfg(feature = "alloc")]
pub(super) type KeyPairBytes = (zeroize::Zeroizing<alloc::vec::Vec<u8>>, alloc::vec::Vec<u8>);

/// A typed key pair's serializations.
#[cfg(feature = "alloc")]
fn serialized<K: Kem>((sk, pk): (typed::PrivateKey<K>, typed::PublicKey<K>)) -> KeyPairBytes {
    (
        zeroize::Zeroizing::new(sk.to_bytes().to_vec()),
        pk.as_bytes().to_vec(),
    )
}

/// `DeriveKeyPair(ikm)` serialized in the typed KEM's frame, never built as runtime keys (a
/// runtime `PrivateKey` is as large as the largest key of the build, and writing it costs
/// more than an X25519 key's serialization).
#[cfg(feature = "alloc")]
pub(super) struct DeriveBytes<'a>(pub &'a [u8]);

#[cfg(feature = "alloc")]
impl KemStep for DeriveBytes<'_> {
    type Output = Result<KeyPairBytes, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        K::derive_key_pair(self.0).map(serialized)
    }
}

/// `GenerateKeyPair()` serialized, as [`DeriveBytes`].
#[cfg(feature = "alloc")]
pub(super) struct GenerateBytes<'a, R: ?Sized>(pub &'a mut R);

#[cfg(feature = "alloc")]
impl<R: CryptoRng + ?Sized> KemStep for GenerateBytes<'_, R> {
    type Output = Result<KeyPairBytes, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        K::generate(self.0).map(serialized)
    }
}

pub(super) struct Generate<'a, R: ?Sized>(pub &'a mut R);

impl<R: CryptoRng + ?Sized> KemStep for Generate<'_, R> {
    type Output = Result<(PrivateKey, PublicKey), Error>;
    fn run<K: Kem>(self) -> Self::Output {
        runtime_pair(K::generate(self.0))
    }
}

/// What a KEM step hands its shared secret to: the schedule step, run while the typed shared
/// secret is still in the KEM step's frame, which wipes it when the step returns. The secret
/// is never copied into a buffer of the runtime layer.
pub(super) type Then<'a> = &'a mut dyn FnMut(&[u8]) -> Result<(), Error>;

/// `Encap(pkR)` (§4), or `AuthEncap(pkR, skS)` (§5.1.3) when `sk_s` is given, then `then` on
/// the shared secret; returns `enc`.
pub(super) struct Encap<'a, R: ?Sized> {
    pub rng: &'a mut R,
    pub pk_r: KeyArg<'a, PublicKey>,
    pub sk_s: Option<&'a PrivateKey>,
    pub then: Then<'a>,
}

impl<R: CryptoRng + ?Sized> KemStep for Encap<'_, R> {
    type Output = Result<EncappedKey, Error>;
    fn run<K: Kem>(self) -> Self::Output {
        with_pk::<K, _>(self.pk_r, |pk| {
            let (shared_secret, enc) = crate::kem::encap_to(self.rng, &recipient(pk, self.pk_r))?;
            (self.then)(shared_secret.as_bytes())?;
            EncappedKey::from_typed(&enc)
        })
    }
}

impl<R: CryptoRng + ?Sized> AuthKemStep for Encap<'_, R> {
    type Output = Result<EncappedKey, Error>;
    fn run<K: AuthKem>(self) -> Self::Output {
        with_pk::<K, _>(self.pk_r, |pk| {
            let sk_s = self.sk_s.and_then(PrivateKey::as_typed::<K>);
            let sk_s = sk_s.ok_or(Error::InvalidPrivateKey)?;
            let to = recipient(pk, self.pk_r);
            let (shared_secret, enc) = crate::kem::auth_encap_to(self.rng, &to, sk_s)?;
            (self.then)(shared_secret.as_bytes())?;
            EncappedKey::from_typed(&enc)
        })
    }
}

/// `Decap(enc, skR)` (§4), or `AuthDecap(enc, skR, pkS)` (§5.1.3) when `pk_s` is given, then
/// `then` on the shared secret.
pub(super) struct Decap<'a> {
    pub enc: &'a [u8],
    pub sk_r: KeyArg<'a, PrivateKey>,
    pub pk_s: Option<&'a PublicKey>,
    pub then: Then<'a>,
}

impl KemStep for Decap<'_> {
    type Output = Result<(), Error>;
    fn run<K: Kem>(self) -> Self::Output {
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        with_sk::<K, _>(self.sk_r, |sk_r| {
            (self.then)(K::decap(&enc, sk_r)?.as_bytes())
        })
    }
}

impl AuthKemStep for Decap<'_> {
    type Output = Result<(), Error>;
    fn run<K: AuthKem>(self) -> Self::Output {
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        with_sk::<K, _>(self.sk_r, |sk_r| {
            let pk_s = self.pk_s.and_then(PublicKey::as_typed::<K>);
            let pk_s = pk_s.ok_or(Error::InvalidPublicKey)?;
            (self.then)(K::auth_decap(&enc, sk_r, pk_s)?.as_bytes())
        })
    }
}

/// A runtime holder seen as the typed holder of `K`: its public key, typed, and the call.
struct Asked<'a, K: Kem> {
    pk: &'a typed::PublicKey<K>,
    ask: Ask<'a>,
}

impl<'a, K: Kem> Asked<'a, K> {
    /// The holder of `pk`, which must be a key of `K` ([`Error::InvalidPrivateKey`] if not).
    fn new(pk: &'a PublicKey, ask: Ask<'a>) -> Result<Self, Error> {
        let pk = pk.as_typed::<K>().ok_or(Error::InvalidPrivateKey)?;
        Ok(Self { pk, ask })
    }
}

impl<K: AuthKem> kem::DhHolder<K> for Asked<'_, K> {
    type Error = Error;
    fn public_key(&self) -> &typed::PublicKey<K> {
        self.pk
    }
    fn dh(&self, peer: &typed::PublicKey<K>, out: &mut [u8]) -> Result<(), Error> {
        (self.ask)(peer.as_bytes(), out)
    }
}

impl<K: Kem> kem::DecapHolder<K> for Asked<'_, K> {
    type Error = Error;
    fn decapsulate(&self, enc: &typed::EncappedKey<K>, out: &mut [u8]) -> Result<(), Error> {
        (self.ask)(enc.as_bytes(), out)
    }
}

/// The typed error of a runtime holder: the holder's own is kept by the runtime caller.
fn flat(e: kem::HeldKeyError<Error>) -> Error {
    match e {
        kem::HeldKeyError::Hpke(e) | kem::HeldKeyError::Holder(e) => e,
    }
}

/// `Decap` / `AuthDecap` (when `pk_s` is given) with the receiver's key held by a
/// [`DhHolder`](super::DhHolder), then `then`.
pub(super) struct DecapHeld<'a> {
    pub enc: &'a [u8],
    pub pk: &'a PublicKey,
    pub ask: Ask<'a>,
    pub pk_s: Option<&'a PublicKey>,
    pub then: Then<'a>,
}

impl AuthKemStep for DecapHeld<'_> {
    type Output = Result<(), Error>;
    fn run<K: AuthKem>(self) -> Self::Output {
        use kem::{AuthDecapKey as _, DecapKey as _};
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        let key = kem::ExternalDh(Asked::<K>::new(self.pk, self.ask)?);
        let shared_secret = match self.pk_s {
            None => key.decap_for(&enc).map_err(flat)?,
            Some(pk_s) => {
                let pk_s = pk_s.as_typed::<K>().ok_or(Error::InvalidPublicKey)?;
                key.auth_decap_for(&enc, pk_s).map_err(flat)?
            }
        };
        (self.then)(shared_secret.as_bytes())
    }
}

/// `Decap` with the receiver's key held by a [`DecapHolder`](super::DecapHolder), then `then`.
pub(super) struct DecapWhole<'a> {
    pub enc: &'a [u8],
    pub pk: &'a PublicKey,
    pub ask: Ask<'a>,
    pub then: Then<'a>,
}

impl KemStep for DecapWhole<'_> {
    type Output = Result<(), Error>;
    fn run<K: Kem>(self) -> Self::Output {
        use kem::DecapKey as _;
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        let key = kem::ExternalDecap(Asked::<K>::new(self.pk, self.ask)?);
        let shared_secret = key.decap_for(&enc).map_err(flat)?;
        (self.then)(shared_secret.as_bytes())
    }
}

/// `AuthEncap` with the sender's static key held by a [`DhHolder`](super::DhHolder), then
/// `then`; returns `enc`.
pub(super) struct AuthEncapHeld<'a, R: ?Sized> {
    pub rng: &'a mut R,
    pub pk_r: KeyArg<'a, PublicKey>,
    pub pk_s: &'a PublicKey,
    pub ask: Ask<'a>,
    pub then: Then<'a>,
}

impl<R: CryptoRng + ?Sized> AuthKemStep for AuthEncapHeld<'_, R> {
    type Output = Result<EncappedKey, Error>;
    fn run<K: AuthKem>(self) -> Self::Output {
        with_pk::<K, _>(self.pk_r, |pk| {
            let sk_s = kem::ExternalDh(Asked::<K>::new(self.pk_s, self.ask)?);
            let to = recipient(pk, self.pk_r);
            let (shared_secret, enc) =
                crate::kem::auth_encap_to(self.rng, &to, &sk_s).map_err(flat)?;
            (self.then)(shared_secret.as_bytes())?;
            EncappedKey::from_typed(&enc)
        })
    }
}

/// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)` (§5.1) under the suite's
/// `suite_id`, and the context's state from it.
pub(super) struct Schedule<'a> {
    pub suite: Suite,
    pub mode: Mode,
    pub shared_secret: &'a [u8],
    pub info: &'a [u8],
    pub psk: Option<&'a Psk<'a>>,
}

impl ScheduleStep for Schedule<'_> {
    type Output = Result<State, Error>;
    fn run<F: Kdf, A: Aead>(self) -> Self::Output {
        let schedule = key_schedule_for_suite::<F, A>(
            &self.suite.hpke_suite_id(),
            self.mode,
            self.shared_secret,
            self.info,
            self.psk,
            &mut (),
        )?;
        Ok(State::from_schedule(self.suite, schedule))
    }
}
