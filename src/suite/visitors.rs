//! The visitors: the dispatchers that turn a [`Suite`]'s ids into `visit::<K, F, A>()`, with
//! the id checks of [`Suite::new`], both generated from the table (`table.rs`); and the
//! visitors behind the runtime API's functions, each of which resolves its keys for `K` (a
//! parsed key is borrowed, bytes are parsed), runs the typed API and hands back runtime values.

// A build without any KEM feature makes the key types uninhabited, and leaves parts of the
// dispatchers unused.
#![allow(unreachable_code, unused_variables)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use rand_core::CryptoRng;

use super::{
    AuthSealingVisitor, AuthVisitor, EncappedKey, Lengths, PrivateKey, PublicKey, ReceiverContext,
    SealingVisitor, SenderContext, Suite, TAG_LEN, Visitor,
};
#[cfg(feature = "alloc")]
use crate::aead::SealingAead;
use crate::aead::{Aead, ExportOnly};
use crate::kdf::Kdf;
use crate::kem::{AuthKem, Kem};
use crate::suite::keys::{KeyArg, recipient, resolve_pk, resolve_sk};
use crate::suite::typed;
use crate::{Error, Hpke, Psk};

/// Generates one dispatcher: `kem_id` -> `kdf_id` -> `aead_id` -> `visitor.visit::<K, F, A>()`.
/// The KEM and AEAD lists are the ones the visitor's bounds admit (`$kbound` is the KEM's);
/// everything else is
/// `UnsupportedOperation` (the ids were validated by `Suite::new`).
macro_rules! dispatcher {
    (
        $name:ident, $visitor:ident, $kbound:path,
        kems: [$($(#[$kcfg:meta])* $k:ty),* $(,)?],
        kdfs: [$($f:ty),* $(,)?],
        aeads: [$($(#[$acfg:meta])* $a:ty),* $(,)?]
    ) => {
        #[allow(dead_code)]
        pub(super) fn $name<V: $visitor>(suite: &Suite, v: V) -> Result<V::Output, Error> {
            #[allow(dead_code)]
            #[inline(never)] // see `by_kdf`
            fn by_aead<K: $kbound, F: Kdf, V: $visitor>(aead: u16, v: V) -> Result<V::Output, Error> {
                match aead {
                    $($(#[$acfg])* <$a as Aead>::ID => Ok(v.visit::<K, F, $a>()),)*
                    _ => Err(Error::UnsupportedOperation),
                }
            }
            #[allow(dead_code)]
            // `inline(never)` here and on `by_aead`: a frame holds one suite's locals (at most
            // five visits, one per AEAD), not all of them. Inlined into one function, the 420
            // suites' key buffers took more than the 8 MiB main-thread stack under
            // AddressSanitizer, which gives every local its own slot (no stack colouring).
            #[inline(never)]
            fn by_kdf<K: $kbound, V: $visitor>(kdf: u16, aead: u16, v: V) -> Result<V::Output, Error> {
                match kdf {
                    $(<$f as Kdf>::ID => by_aead::<K, $f, V>(aead, v),)*
                    _ => Err(Error::UnsupportedSuite),
                }
            }
            match suite.kem_id() {
                $($(#[$kcfg])* <$k as Kem>::ID => by_kdf::<$k, V>(suite.kdf_id(), suite.aead_id(), v),)*
                _ => Err(Error::UnsupportedOperation),
            }
        }
    };
}

/// The four dispatchers and the three id checks, from the table.
macro_rules! dispatchers {
    (
        dh_kems: [$($(#[$dcfg:meta])* $dv:ident: $dk:ty),* $(,)?],
        other_kems: [$($(#[$ocfg:meta])* $ov:ident: $ok:ty),* $(,)?],
        kdfs: [$($fv:ident: $f:ty),* $(,)?],
        sealing_aeads: [$($(#[$scfg:meta])* $sv:ident: $sa:ty),* $(,)?] $(,)?
    ) => {
        dispatcher!(dispatch_all, Visitor, Kem,
            kems: [$($(#[$dcfg])* $dk,)* $($(#[$ocfg])* $ok,)*],
            kdfs: [$($f,)*],
            aeads: [$($(#[$scfg])* $sa,)* ExportOnly]);
        dispatcher!(dispatch_sealing, SealingVisitor, Kem,
            kems: [$($(#[$dcfg])* $dk,)* $($(#[$ocfg])* $ok,)*],
            kdfs: [$($f,)*],
            aeads: [$($(#[$scfg])* $sa,)*]);
        dispatcher!(dispatch_auth, AuthVisitor, AuthKem,
            kems: [$($(#[$dcfg])* $dk,)*],
            kdfs: [$($f,)*],
            aeads: [$($(#[$scfg])* $sa,)* ExportOnly]);
        dispatcher!(dispatch_auth_sealing, AuthSealingVisitor, AuthKem,
            kems: [$($(#[$dcfg])* $dk,)*],
            kdfs: [$($f,)*],
            aeads: [$($(#[$scfg])* $sa,)*]);

        /// Whether this build has the KEM, the KDF and the AEAD.
        pub(super) fn supported(kem_id: u16, kdf_id: u16, aead_id: u16) -> bool {
            let kem = match kem_id {
                $($(#[$dcfg])* <$dk as Kem>::ID => true,)*
                $($(#[$ocfg])* <$ok as Kem>::ID => true,)*
                _ => false,
            };
            let kdf = match kdf_id {
                $(<$f as Kdf>::ID => true,)*
                _ => false,
            };
            let aead = match aead_id {
                $($(#[$scfg])* <$sa as Aead>::ID => true,)*
                ExportOnly::ID => true,
                _ => false,
            };
            kem && kdf && aead
        }
    };
}

suite_table!(dispatchers);

/// Answers whether a suite's KEM authenticates ([`Suite::supports_auth`]).
pub(super) struct Nothing;

impl AuthVisitor for Nothing {
    type Output = ();
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) {}
}

/// The lengths of a suite's wire values ([`Suite::lengths`]).
pub(super) struct LengthsV;

impl Visitor for LengthsV {
    type Output = Lengths;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Lengths {
        use hybrid_array::typenum::Unsigned;
        Lengths {
            enc: K::NEnc::USIZE,
            public_key: K::NPk::USIZE,
            private_key: K::NSk::USIZE,
            // Every sealing AEAD of RFC 9180 has a 16-byte tag; ExportOnly has none.
            tag: if A::ID == ExportOnly::ID { 0 } else { TAG_LEN },
        }
    }
}

pub(super) struct ParseSk<'a>(pub &'a [u8]);
impl Visitor for ParseSk<'_> {
    type Output = Result<PrivateKey, Error>;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
        Ok(typed::PrivateKey::<K>::from_bytes(self.0)?.into())
    }
}

pub(super) struct ParsePk<'a>(pub &'a [u8]);
impl Visitor for ParsePk<'_> {
    type Output = Result<PublicKey, Error>;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
        Ok(typed::PublicKey::<K>::from_bytes(self.0)?.into())
    }
}

pub(super) struct Derive<'a>(pub &'a [u8]);
impl Visitor for Derive<'_> {
    type Output = Result<(PrivateKey, PublicKey), Error>;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
        let (sk, pk) = K::derive_key_pair(self.0)?;
        Ok((sk.into(), pk.into()))
    }
}

pub(super) struct Generate<'a, R: ?Sized>(pub &'a mut R);
impl<R: CryptoRng + ?Sized> Visitor for Generate<'_, R> {
    type Output = Result<(PrivateKey, PublicKey), Error>;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
        let (sk, pk) = K::generate(self.0)?;
        Ok((sk.into(), pk.into()))
    }
}

/// `SetupS` in any mode: `psk` for the PSK modes, `sk_s` for the auth modes.
pub(super) struct SetupSender<'a, R: ?Sized> {
    pub rng: &'a mut R,
    pub pk_r: KeyArg<'a, PublicKey>,
    pub info: &'a [u8],
    pub psk: Option<&'a Psk<'a>>,
    pub sk_s: Option<&'a PrivateKey>,
}

type Sender = Result<(EncappedKey, SenderContext), Error>;

fn sender<K: Kem, F: Kdf, A: Aead>(
    (enc, ctx): (typed::EncappedKey<K>, typed::SenderContext<K, F, A>),
) -> Sender {
    Ok((EncappedKey::from_typed(&enc)?, SenderContext::from(ctx)))
}

impl<R: CryptoRng + ?Sized> Visitor for SetupSender<'_, R> {
    type Output = Sender;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Sender {
        let pk = resolve_pk::<K>(self.pk_r)?;
        let pk_r = recipient(&pk, self.pk_r);
        sender(match self.psk {
            None => Hpke::<K, F, A>::setup_sender_base(self.rng, &pk_r, self.info)?,
            Some(psk) => Hpke::<K, F, A>::setup_sender_psk(self.rng, &pk_r, self.info, psk)?,
        })
    }
}

impl<R: CryptoRng + ?Sized> AuthVisitor for SetupSender<'_, R> {
    type Output = Sender;
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Sender {
        let pk = resolve_pk::<K>(self.pk_r)?;
        let pk_r = recipient(&pk, self.pk_r);
        let sk_s = self.sk_s.ok_or(Error::InvalidPrivateKey)?;
        let sk_s = resolve_sk::<K>(KeyArg::Parsed(sk_s))?;
        let (rng, info) = (self.rng, self.info);
        sender(match self.psk {
            None => Hpke::<K, F, A>::setup_sender_auth(rng, &pk_r, info, &sk_s)?,
            Some(psk) => Hpke::<K, F, A>::setup_sender_auth_psk(rng, &pk_r, info, psk, &sk_s)?,
        })
    }
}

/// `seal_base_many` over the runtime keys, each resolved to the typed key and its table.
#[cfg(feature = "alloc")]
pub(super) struct SealMany<'a, R: ?Sized> {
    pub rng: &'a mut R,
    pub recipients: &'a [KeyArg<'a, PublicKey>],
    pub info: &'a [u8],
    pub aad: &'a [u8],
    pub plaintexts: &'a [&'a [u8]],
}

#[cfg(feature = "alloc")]
impl<R: CryptoRng + ?Sized> SealingVisitor for SealMany<'_, R> {
    type Output = Result<Vec<(Vec<u8>, Vec<u8>)>, Error>;
    fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Self::Output {
        let keys = self
            .recipients
            .iter()
            .map(|&p| resolve_pk::<K>(p))
            .collect::<Result<Vec<_>, _>>()?;
        let to: Vec<_> = keys
            .iter()
            .zip(self.recipients)
            .map(|(pk, &p)| recipient(pk, p))
            .collect();
        let sealed =
            Hpke::<K, F, A>::seal_base_many(self.rng, &to, self.info, self.aad, self.plaintexts)?;
        Ok(sealed
            .into_iter()
            .map(|(enc, ct)| (enc.as_bytes().to_vec(), ct))
            .collect())
    }
}

/// `SetupR` in any mode: `psk` for the PSK modes, `pk_s` for the auth modes.
pub(super) struct SetupReceiver<'a> {
    pub enc: &'a [u8],
    pub sk_r: KeyArg<'a, PrivateKey>,
    pub info: &'a [u8],
    pub psk: Option<&'a Psk<'a>>,
    pub pk_s: Option<&'a PublicKey>,
}

type Receiver = Result<ReceiverContext, Error>;

impl Visitor for SetupReceiver<'_> {
    type Output = Receiver;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Receiver {
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        let sk_r = resolve_sk::<K>(self.sk_r)?;
        let ctx = match self.psk {
            None => Hpke::<K, F, A>::setup_receiver_base(&enc, &sk_r, self.info)?,
            Some(psk) => Hpke::<K, F, A>::setup_receiver_psk(&enc, &sk_r, self.info, psk)?,
        };
        Ok(ctx.into())
    }
}

impl AuthVisitor for SetupReceiver<'_> {
    type Output = Receiver;
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Receiver {
        let enc = typed::EncappedKey::<K>::from_bytes(self.enc)?;
        let sk_r = resolve_sk::<K>(self.sk_r)?;
        let pk_s = self.pk_s.ok_or(Error::InvalidPublicKey)?;
        let pk_s = resolve_pk::<K>(KeyArg::Parsed(pk_s))?;
        let info = self.info;
        let ctx = match self.psk {
            None => Hpke::<K, F, A>::setup_receiver_auth(&enc, &sk_r, info, &pk_s)?,
            Some(psk) => Hpke::<K, F, A>::setup_receiver_auth_psk(&enc, &sk_r, info, psk, &pk_s)?,
        };
        Ok(ctx.into())
    }
}
