//! Runtime suite selection: from the `kem_id`, `kdf_id` and `aead_id` a protocol carries on
//! the wire (an ECH config, an OHTTP key configuration, an MLS cipher suite) to HPKE.
//!
//! [`Suite::new`] checks the three ids once. Then either
//! - use the runtime API, which mirrors the typed one: keys parsed once
//!   ([`Suite::private_key_from_bytes`], [`Suite::public_key_from_bytes`],
//!   [`Suite::generate_key_pair`], [`Suite::derive_key_pair`]), contexts in every mode
//!   ([`Suite::setup_sender`], [`Suite::setup_receiver`] give a [`SenderContext`] /
//!   [`ReceiverContext`]), and the single-shot [`Suite::seal`], [`Suite::open`],
//!   [`Suite::send_export`], [`Suite::receive_export`]. The contexts are enums over the typed
//!   states, not boxes: `no_std` without `alloc` has them, and each operation is one `match`
//!   from the typed code that does the work; or
//! - hand a *visitor* to [`Suite::visit`]: its one generic method runs as
//!   `visit::<K, F, A>()` with the suite's types, so everything inside is the typed API,
//!   monomorphised, with no trait objects. One visitor serves every suite: `From` turns a
//!   typed context of any AEAD (ExportOnly included) into a runtime one, whose seal is an
//!   error only for ExportOnly. ([`Suite::visit_sealing`], [`Suite::visit_auth`] and
//!   [`Suite::visit_auth_sealing`] remain for code that wants those bounds at compile time.)
//!
//! Operations a suite cannot do are errors, not panics: the auth modes on a KEM without
//! authenticated encapsulation and sealing with ExportOnly return
//! [`Error::UnsupportedOperation`]; unknown ids, or ids of algorithms this build leaves out,
//! return [`Error::UnsupportedSuite`]; a runtime key of another KEM is
//! [`Error::InvalidPrivateKey`] / [`Error::InvalidPublicKey`].
//!
//! One visitor for every suite, here a sender that also reports its suite's `Nh`:
//!
//! ```
//! # #[cfg(all(feature = "x25519", feature = "chacha20poly1305", feature = "getrandom"))] {
//! use typed_hpke::hybrid_array::typenum::Unsigned;
//! use typed_hpke::suite::{self, Suite, Visitor};
//! use typed_hpke::{aead::Aead, kdf::Kdf, kem::Kem, Error, Hpke, OsRng, PublicKey};
//!
//! struct Sender<'a>(&'a [u8]);
//! impl Visitor for Sender<'_> {
//!     type Output = Result<(Vec<u8>, suite::SenderContext, usize), Error>;
//!     fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
//!         let pk = PublicKey::<K>::from_bytes(self.0)?;
//!         let (enc, ctx) = Hpke::<K, F, A>::setup_sender_base(&mut OsRng::default(), &pk, b"info")?;
//!         Ok((enc.as_bytes().to_vec(), ctx.into(), F::Nh::USIZE))
//!     }
//! }
//!
//! for aead in [0x0003, 0xffff] {
//!     let suite = Suite::new(0x0020, 0x0001, aead)?;
//!     let (_, pk) = suite.generate_key_pair(&mut OsRng::default())?;
//!     let (_enc, mut ctx, nh) = suite.visit(Sender(pk.as_bytes()))??;
//!     assert_eq!(nh, 32);
//!     let sealed = ctx.seal(b"", b"hello");
//!     assert_eq!(sealed.is_ok(), suite.supports_seal()); // ExportOnly: UnsupportedOperation
//!     ctx.export(b"context", &mut [0u8; 32])?;
//! }
//! # }
//! # Ok::<(), typed_hpke::Error>(())
//! ```
//!
//! The byte-slice conveniences:
//!
//! ```
//! # #[cfg(all(feature = "x25519", feature = "chacha20poly1305", feature = "getrandom"))] {
//! use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
//!
//! // DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305, as read off the wire.
//! let suite = Suite::new(0x0020, 0x0001, 0x0003)?;
//! let (sk, pk) = suite.generate_key_pair(&mut typed_hpke::OsRng::default())?;
//! let (enc, ct) = suite.seal(&mut typed_hpke::OsRng::default(), &pk, b"info", b"aad", b"hello", SenderMode::Base)?;
//! let pt = suite.open(&enc, &sk, b"info", b"aad", &ct, ReceiverMode::Base)?;
//! assert_eq!(pt, b"hello");
//! # }
//! # Ok::<(), typed_hpke::Error>(())
//! ```

#[macro_use]
mod table;
#[macro_use]
mod any;
#[cfg(feature = "serde")]
pub(crate) use any::MAX_KEY_LEN;
#[macro_use]
mod context;
mod held;
mod keys;
mod steps;
mod symmetric;
mod visitors;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

use core::fmt;

use rand_core::CryptoRng;

use crate::aead::{Aead, ExportOnly, SealingAead};
use crate::kdf::Kdf;
use crate::kem::{AuthKem, Kem};
use crate::key_schedule::Mode;
use crate::{Error, Psk};

/// The typed API's items, by one name: inside `suite/`, `typed::PrivateKey<K>` is the typed key
/// and a bare `PrivateKey` the runtime one of this module.
mod typed {
    pub(crate) use crate::kem::RecipientRef;
    #[cfg(feature = "alloc")]
    pub(crate) use crate::kem::{PreparedPublicKey, RecipientKey};
    pub(crate) use crate::{EncappedKey, PrivateKey, PublicKey};
}

pub use self::context::{EncappedKey, MAX_ENC_LEN, ReceiverContext, SenderContext, TAG_LEN};
pub use self::held::NotAnswered;
#[cfg(feature = "alloc")]
pub use self::held::{Answers, BoxedHolderError, HeldKey, SenderAnswers};
pub use self::held::{DecapHolder, DhHolder, SenderKeyInput};
use self::keys::KeyArg;
pub use self::keys::{PrivateKey, PrivateKeyInput, PublicKey, PublicKeyInput};
pub use self::steps::{AEAD_IDS, KDF_IDS, KEM_IDS};
pub use self::symmetric::{Opener, Prk, Sealer};
pub use crate::kem::{ExternalDecap, ExternalDh, HeldKeyError};
#[cfg(feature = "serde")]
pub use crate::serde_impls::WithKemId;

/// The generator a runtime function was given, as the one type the runtime dispatch is compiled
/// for. Each public function generic over the caller's generator (`R`) or key input (`P`, `S`)
/// is a thin wrapper: it turns the generator into an `Rng` (`rng_of`) and the key into a
/// `KeyArg`, then calls a function that is not generic. The dispatch below it (every suite of
/// the table, each with its typed setup) is so compiled once, in this crate, instead of again
/// in every crate and test binary that calls the runtime API with a generator type of its own.
/// The generator is called a few times per setup, so the indirect call costs nothing
/// measurable. (Under aws-lc-rs, `OsRng` is recognised behind the `dyn` as well:
/// `backend::aws_lc::dh::is_os_rng`.)
type Rng<'a> = &'a mut dyn CryptoRng;

/// `rng` as an [`Rng`]: a `&mut R` is sized, so it coerces whatever `R` is.
fn rng_of<'a, R: CryptoRng + ?Sized>(rng: &'a mut &mut R) -> Rng<'a> {
    rng
}

/// A ciphersuite chosen at run time: three ids this build supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Suite {
    kem: u16,
    kdf: u16,
    aead: u16,
}

/// Code generic over a ciphersuite, for [`Suite::visit`]. Every suite qualifies.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Runs with the suite's KEM, KDF and AEAD types.
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output;
}

/// Code that seals or opens, for [`Suite::visit_sealing`]: every suite but ExportOnly ones.
pub trait SealingVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the suite's KEM, KDF and AEAD types.
    fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Self::Output;
}

/// Code that uses an authenticated mode, for [`Suite::visit_auth`]: DH-KEM suites only.
pub trait AuthVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the suite's KEM, KDF and AEAD types.
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Self::Output;
}

/// Code that seals or opens in an authenticated mode, for [`Suite::visit_auth_sealing`].
pub trait AuthSealingVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the suite's KEM, KDF and AEAD types.
    fn visit<K: AuthKem, F: Kdf, A: SealingAead>(self) -> Self::Output;
}

pub use crate::kem::{AuthKemVisitor, KemVisitor};

impl<V: KemVisitor> steps::KemStep for V {
    type Output = V::Output;
    fn run<K: Kem>(self) -> V::Output {
        self.visit::<K>()
    }
}

impl<V: AuthKemVisitor> steps::AuthKemStep for V {
    type Output = V::Output;
    fn run<K: AuthKem>(self) -> V::Output {
        self.visit::<K>()
    }
}

impl Suite {
    /// Every suite this build has: each KEM with each KDF and each AEAD (ExportOnly included),
    /// in the order of [`AnyKem::all`], then the KDFs', then the AEADs'. For tests and tools
    /// that cover every suite without a list of their own.
    pub fn all() -> impl Iterator<Item = Self> {
        KEM_IDS.iter().flat_map(|&kem| {
            KDF_IDS
                .iter()
                .flat_map(move |&kdf| AEAD_IDS.iter().map(move |&aead| Self { kem, kdf, aead }))
        })
    }

    /// The suite with these ids (RFC 9180 §7 and draft-ietf-hpke-pq registries).
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] if an id is unknown, or names an algorithm whose cargo
    /// feature this build leaves out.
    pub fn new(kem_id: u16, kdf_id: u16, aead_id: u16) -> Result<Self, Error> {
        if visitors::supported(kem_id, kdf_id, aead_id) {
            Ok(Self {
                kem: kem_id,
                kdf: kdf_id,
                aead: aead_id,
            })
        } else {
            Err(Error::UnsupportedSuite)
        }
    }

    /// The suite of the typed API's `Hpke<K, F, A>`.
    pub const fn of<K: Kem, F: Kdf, A: Aead>() -> Self {
        Self {
            kem: K::ID,
            kdf: F::ID,
            aead: A::ID,
        }
    }

    /// `kem_id`.
    pub const fn kem_id(&self) -> u16 {
        self.kem
    }

    /// `kdf_id`.
    pub const fn kdf_id(&self) -> u16 {
        self.kdf
    }

    /// `aead_id`.
    pub const fn aead_id(&self) -> u16 {
        self.aead
    }

    /// Whether the KEM has authenticated encapsulation (the Auth and AuthPSK modes).
    pub fn supports_auth(&self) -> bool {
        steps::by_auth_kem(self.kem, steps::Nothing).is_ok()
    }

    /// Whether the AEAD can seal and open (it is not ExportOnly).
    pub fn supports_seal(&self) -> bool {
        self.aead != ExportOnly::ID
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types.
    ///
    /// # Errors
    /// Never for a suite made by [`Suite::new`]; the `Result` is for symmetry with the others.
    pub fn visit<V: Visitor>(&self, v: V) -> Result<V::Output, Error> {
        visitors::dispatch_all(self, v)
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types, which must be able to seal.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the AEAD is ExportOnly.
    pub fn visit_sealing<V: SealingVisitor>(&self, v: V) -> Result<V::Output, Error> {
        visitors::dispatch_sealing(self, v)
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types, whose KEM must authenticate.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the KEM has no authenticated encapsulation.
    pub fn visit_auth<V: AuthVisitor>(&self, v: V) -> Result<V::Output, Error> {
        visitors::dispatch_auth(self, v)
    }

    /// Runs `v.visit::<K, F, A>()`; the KEM must authenticate and the AEAD seal.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the KEM has no authenticated encapsulation or the
    /// AEAD is ExportOnly.
    pub fn visit_auth_sealing<V: AuthSealingVisitor>(&self, v: V) -> Result<V::Output, Error> {
        visitors::dispatch_auth_sealing(self, v)
    }
}

/// Lengths of the suite's wire values and of its AEAD's key and nonce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lengths {
    /// `Nenc`: the encapsulated key.
    pub enc: usize,
    /// `Npk`: a serialized public key.
    pub public_key: usize,
    /// `Nsk`: a serialized private key.
    pub private_key: usize,
    /// `Nt`: the AEAD tag a ciphertext adds (0 for ExportOnly).
    pub tag: usize,
    /// `Nk`: the AEAD key (0 for ExportOnly).
    pub aead_key: usize,
    /// `Nn`: the AEAD nonce (0 for ExportOnly).
    pub aead_nonce: usize,
}

impl Suite {
    /// The lengths of this suite's encapsulated keys, keys and tags.
    pub fn lengths(&self) -> Lengths {
        // `Suite::new` admits only KEMs `by_kem` covers.
        let tag = steps::tag_len(self.aead);
        let (aead_key, aead_nonce) = symmetric::aead_sizes(self.aead).unwrap_or((0, 0));
        let kem = steps::KemLengths {
            tag,
            aead_key,
            aead_nonce,
        };
        steps::by_kem(self.kem, kem).unwrap_or(Lengths {
            enc: 0,
            public_key: 0,
            private_key: 0,
            tag: 0,
            aead_key: 0,
            aead_nonce: 0,
        })
    }
}

/// The sender's side of a mode. The auth modes take the sender's static private key: a parsed
/// runtime key ([`Suite::private_key_from_bytes`]) or one held elsewhere
/// ([`ExternalDh`] over a [`DhHolder`]); its `Debug` is redacted, as is the PSK's.
#[derive(Clone, Copy)]
pub enum SenderMode<'a> {
    /// `mode_base`.
    Base,
    /// `mode_psk`.
    Psk(&'a Psk<'a>),
    /// `mode_auth`, with the sender's private key.
    Auth(&'a dyn SenderKeyInput),
    /// `mode_auth_psk`, with the PSK and the sender's private key.
    AuthPsk(&'a Psk<'a>, &'a dyn SenderKeyInput),
}

impl fmt::Debug for SenderMode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use self::held::SenderKeyDebug as Key;
        match *self {
            Self::Base => f.write_str("Base"),
            Self::Psk(psk) => f.debug_tuple("Psk").field(psk).finish(),
            Self::Auth(sk) => f.debug_tuple("Auth").field(&Key(sk)).finish(),
            Self::AuthPsk(psk, sk) => f.debug_tuple("AuthPsk").field(psk).field(&Key(sk)).finish(),
        }
    }
}

/// The recipient's side of a mode. The auth modes take the sender's parsed public key
/// ([`Suite::public_key_from_bytes`]).
#[derive(Clone, Copy, Debug)]
pub enum ReceiverMode<'a> {
    /// `mode_base`.
    Base,
    /// `mode_psk`.
    Psk(&'a Psk<'a>),
    /// `mode_auth`, with the sender's public key.
    Auth(&'a PublicKey),
    /// `mode_auth_psk`, with the PSK and the sender's public key.
    AuthPsk(&'a Psk<'a>, &'a PublicKey),
}

impl<'a> SenderMode<'a> {
    fn parts(self) -> (Option<&'a Psk<'a>>, Option<&'a dyn SenderKeyInput>) {
        match self {
            Self::Base => (None, None),
            Self::Psk(psk) => (Some(psk), None),
            Self::Auth(sk_s) => (None, Some(sk_s)),
            Self::AuthPsk(psk, sk_s) => (Some(psk), Some(sk_s)),
        }
    }
}

impl<'a> ReceiverMode<'a> {
    fn parts(self) -> (Option<&'a Psk<'a>>, Option<&'a PublicKey>) {
        match self {
            Self::Base => (None, None),
            Self::Psk(psk) => (Some(psk), None),
            Self::Auth(pk_s) => (None, Some(pk_s)),
            Self::AuthPsk(psk, pk_s) => (Some(psk), Some(pk_s)),
        }
    }
}

/// A KEM chosen at run time by its `kem_id` alone, for code that handles keys before (or
/// without) a whole suite: a gateway loading its key, a key configuration parsed before its
/// symmetric pairs are known. [`Suite::kem`] gives a suite's.
///
/// ```
/// # #[cfg(all(feature = "x25519", feature = "getrandom"))] {
/// use typed_hpke::suite::AnyKem;
/// let kem = AnyKem::new(0x0020)?; // DHKEM(X25519, HKDF-SHA256)
/// let (sk, pk) = kem.generate_key_pair(&mut typed_hpke::OsRng::default())?;
/// assert_eq!(kem.private_key_from_bytes(&sk.to_bytes())?.public_key(), pk);
/// # }
/// # Ok::<(), typed_hpke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnyKem {
    id: u16,
}

impl AnyKem {
    /// The KEM with this id (RFC 9180 §7.1 and draft-ietf-hpke-pq registries).
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] if the id is unknown or names a KEM this build leaves out.
    pub fn new(kem_id: u16) -> Result<Self, Error> {
        steps::by_kem(kem_id, steps::Nothing)?;
        Ok(Self { id: kem_id })
    }

    /// Every KEM this build has: the DH-KEMs (which have the Auth modes) first, in the order of
    /// their ids, then ML-KEM and the hybrids.
    pub fn all() -> impl Iterator<Item = Self> {
        KEM_IDS.iter().map(|&id| Self { id })
    }

    /// Runs `v.visit::<K>()` with this KEM's type.
    pub fn visit<V: KemVisitor>(&self, v: V) -> V::Output {
        steps::by_kem(self.id, v).unwrap_or_else(|_| unreachable!("an AnyKem's id is the build's"))
    }

    /// Runs `v.visit::<K>()` with this KEM's type, if it has authenticated encapsulation.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for a KEM without it (ML-KEM and the hybrids).
    pub fn visit_auth<V: AuthKemVisitor>(&self, v: V) -> Result<V::Output, Error> {
        steps::by_auth_kem(self.id, v)
    }

    /// The KEM of a key, whose id is one this build has.
    pub(crate) const fn of_key(kem_id: u16) -> Self {
        Self { id: kem_id }
    }

    /// `kem_id`.
    pub const fn id(&self) -> u16 {
        self.id
    }

    /// Whether the KEM has authenticated encapsulation (the Auth and AuthPSK modes).
    pub fn supports_auth(&self) -> bool {
        steps::by_auth_kem(self.id, steps::Nothing).is_ok()
    }

    /// `(Nenc, Npk, Nsk)`: the lengths of an encapsulated key, a serialized public key and a
    /// serialized private key.
    pub fn lengths(&self) -> (usize, usize, usize) {
        let kem = steps::KemLengths {
            tag: 0,
            aead_key: 0,
            aead_nonce: 0,
        };
        steps::by_kem(self.id, kem)
            .map(|l| (l.enc, l.public_key, l.private_key))
            .unwrap_or((0, 0, 0))
    }

    /// `DeserializePrivateKey`: parse once, use many times.
    ///
    /// # Errors
    /// [`Error::InvalidPrivateKey`] as the typed `PrivateKey::from_bytes` gives it.
    pub fn private_key_from_bytes(&self, bytes: &[u8]) -> Result<PrivateKey, Error> {
        PrivateKey::from_kem_id_and_bytes(self.id, bytes)
    }

    /// `DeserializePrivateKey` for a key stored with its serialized public key `pk`, as the
    /// typed [`PrivateKey::from_bytes_and_public`](crate::PrivateKey::from_bytes_and_public):
    /// for the DH-KEMs `pk` is deserialized, validated and taken as given, saving the
    /// base-point multiplication; for ML-KEM and the hybrids it must be the bytes of the key's
    /// own public key (compared, not parsed).
    ///
    /// # Errors
    /// [`Error::InvalidPublicKey`] if a DH-KEM's `pk` does not deserialize;
    /// [`Error::InvalidPrivateKey`] as the typed `from_bytes_and_public` gives it.
    pub fn private_key_from_bytes_and_public(
        &self,
        bytes: &[u8],
        pk: &[u8],
    ) -> Result<PrivateKey, Error> {
        steps::by_kem_flat(self.id, steps::ParseSkWithPk(bytes, pk))
    }

    /// `DeserializePublicKey`, with the validation the typed `PublicKey::from_bytes` does.
    ///
    /// # Errors
    /// [`Error::InvalidPublicKey`] as the typed API gives it.
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<PublicKey, Error> {
        PublicKey::from_kem_id_and_bytes(self.id, bytes)
    }

    /// `DeriveKeyPair(ikm)` (RFC 9180 §7.1.3).
    ///
    /// # Errors
    /// As the KEM's `derive_key_pair`.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(PrivateKey, PublicKey), Error> {
        steps::by_kem_flat(self.id, steps::Derive(ikm))
    }

    /// `GenerateKeyPair()`.
    ///
    /// # Errors
    /// As the KEM's `generate`: [`Error::DeriveKeyPair`] only for a broken `rng`.
    pub fn generate_key_pair<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(PrivateKey, PublicKey), Error> {
        self.generate_key_pair_in(rng_of(&mut &mut *rng))
    }

    fn generate_key_pair_in(&self, rng: Rng<'_>) -> Result<(PrivateKey, PublicKey), Error> {
        steps::by_kem_flat(self.id, steps::Generate(rng))
    }

    /// [`Self::derive_key_pair`] serialized: `(SerializePrivateKey(sk), SerializePublicKey(pk))`,
    /// the private key wiped on drop. For protocols that store key pairs as bytes (MLS'
    /// providers): it skips building the runtime keys, which are as large as the largest key of
    /// the build.
    ///
    /// # Errors
    /// As the KEM's `derive_key_pair`.
    #[cfg(feature = "alloc")]
    pub fn derive_key_pair_bytes(
        &self,
        ikm: &[u8],
    ) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
        steps::by_kem_flat(self.id, steps::DeriveBytes(ikm))
    }

    /// [`Self::generate_key_pair`] serialized, as [`Self::derive_key_pair_bytes`].
    ///
    /// # Errors
    /// As the KEM's `generate`: [`Error::DeriveKeyPair`] only for a broken `rng`.
    #[cfg(feature = "alloc")]
    pub fn generate_key_pair_bytes<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
        steps::by_kem_flat(self.id, steps::GenerateBytes(rng_of(&mut &mut *rng)))
    }
}

/// Keys: the suite's KEM's ([`AnyKem`]).
impl Suite {
    /// The suite's KEM.
    pub const fn kem(&self) -> AnyKem {
        AnyKem { id: self.kem }
    }

    /// `DeserializePrivateKey` for this suite's KEM: parse once, use many times.
    ///
    /// # Errors
    /// [`Error::InvalidPrivateKey`] as the typed `PrivateKey::from_bytes` gives it.
    pub fn private_key_from_bytes(&self, bytes: &[u8]) -> Result<PrivateKey, Error> {
        self.kem().private_key_from_bytes(bytes)
    }

    /// `DeserializePublicKey` for this suite's KEM, with the validation the typed
    /// `PublicKey::from_bytes` does.
    ///
    /// # Errors
    /// [`Error::InvalidPublicKey`] as the typed API gives it.
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<PublicKey, Error> {
        self.kem().public_key_from_bytes(bytes)
    }

    /// `DeriveKeyPair(ikm)` (RFC 9180 §7.1.3).
    ///
    /// # Errors
    /// As the KEM's `derive_key_pair`.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(PrivateKey, PublicKey), Error> {
        self.kem().derive_key_pair(ikm)
    }

    /// `GenerateKeyPair()`.
    ///
    /// # Errors
    /// As the KEM's `generate`: [`Error::DeriveKeyPair`] only for a broken `rng`.
    pub fn generate_key_pair<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(PrivateKey, PublicKey), Error> {
        self.kem().generate_key_pair(rng)
    }
}

/// A key parsed for a KEM named by its id alone: a suite's parsers and the tagged serde form
/// (`WithKemId`) share these.
impl PrivateKey {
    pub(crate) fn from_kem_id_and_bytes(kem_id: u16, bytes: &[u8]) -> Result<Self, Error> {
        steps::by_kem_flat(kem_id, steps::ParseSk(bytes))
    }
}

impl PublicKey {
    pub(crate) fn from_kem_id_and_bytes(kem_id: u16, bytes: &[u8]) -> Result<Self, Error> {
        steps::by_kem_flat(kem_id, steps::ParsePk(bytes))
    }
}

/// Contexts.
impl Suite {
    /// `SetupS` (RFC 9180 §5.1.1-§5.1.4) in the mode `mode`: the encapsulated key and a
    /// runtime [`SenderContext`]. Allocates nothing. `pk_r` is a parsed [`PublicKey`] or
    /// its bytes.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for an auth mode on a KEM without one;
    /// [`Error::InvalidPublicKey`] / [`Error::InvalidPrivateKey`] for a key that does not
    /// parse or belongs to another KEM; encapsulation and key schedule errors as in the
    /// typed API.
    pub fn setup_sender<R: CryptoRng + ?Sized, P: PublicKeyInput + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &P,
        info: &[u8],
        mode: SenderMode<'_>,
    ) -> Result<(EncappedKey, SenderContext), Error> {
        self.setup_sender_in(rng_of(&mut &mut *rng), pk_r.public_key_arg(), info, mode)
    }

    fn setup_sender_in(
        &self,
        rng: Rng<'_>,
        pk_r: KeyArg<'_, PublicKey>,
        info: &[u8],
        mode: SenderMode<'_>,
    ) -> Result<(EncappedKey, SenderContext), Error> {
        let (psk, sk_s) = mode.parts();
        let mut state = None;
        let mode = Mode::of(psk, sk_s);
        let then = &mut |shared_secret: &[u8]| {
            state = Some(self.schedule(mode, shared_secret, info, psk)?);
            Ok(())
        };
        let enc = match sk_s {
            None => steps::by_kem(
                self.kem,
                steps::Encap {
                    rng,
                    pk_r,
                    sk_s: None,
                    then,
                },
            )??,
            Some(sk_s) => {
                let mut enc = None;
                sk_s.with_sender_key(&mut |key| {
                    enc = Some(match key {
                        held::SenderKeyArg::Key(sk) => {
                            let step = steps::Encap {
                                rng: &mut *rng,
                                pk_r,
                                sk_s: Some(sk),
                                then: &mut *then,
                            };
                            steps::by_auth_kem(self.kem, step)??
                        }
                        held::SenderKeyArg::Dh(pk_s, ask) => {
                            let step = steps::AuthEncapHeld {
                                rng: &mut *rng,
                                pk_r,
                                pk_s,
                                ask,
                                then: &mut *then,
                            };
                            steps::by_auth_kem(self.kem, step)??
                        }
                    });
                    Ok(())
                })?;
                enc.ok_or(Error::Encap)?
            }
        };
        // The KEM step succeeded, so it ran the schedule step.
        let state = state.ok_or(Error::Encap)?;
        Ok((enc, SenderContext(state)))
    }

    /// `SetupR` (RFC 9180 §5.1.1-§5.1.4) in the mode `mode`: a runtime [`ReceiverContext`].
    /// Allocates nothing. `sk_r` is a parsed [`PrivateKey`] (parsed once: the choice for a
    /// key that opens many messages) or its bytes.
    ///
    /// # Errors
    /// As [`Suite::setup_sender`]; [`Error::InvalidEncappedKey`] and [`Error::Decap`] as the
    /// typed API gives them.
    pub fn setup_receiver<S: PrivateKeyInput + ?Sized>(
        &self,
        enc: &[u8],
        sk_r: &S,
        info: &[u8],
        mode: ReceiverMode<'_>,
    ) -> Result<ReceiverContext, S::Error> {
        sk_r.with_key(|sk_r| self.setup_receiver_in(enc, sk_r, info, mode))
    }

    fn setup_receiver_in(
        &self,
        enc: &[u8],
        sk_r: held::SkArg<'_>,
        info: &[u8],
        mode: ReceiverMode<'_>,
    ) -> Result<ReceiverContext, Error> {
        self.receiver(info, mode, |pk_s, then| match sk_r {
            held::SkArg::Key(sk_r) => {
                let step = steps::Decap {
                    enc,
                    sk_r,
                    pk_s,
                    then,
                };
                if pk_s.is_some() {
                    steps::by_auth_kem(self.kem, step)?
                } else {
                    steps::by_kem(self.kem, step)?
                }
            }
            held::SkArg::Dh(pk, ask) => {
                let step = steps::DecapHeld {
                    enc,
                    pk,
                    ask,
                    pk_s,
                    then,
                };
                steps::by_auth_kem(self.kem, step)?
            }
            // `AuthDecap` needs the Diffie-Hellman values, which this holder does not give.
            held::SkArg::Decap(..) if pk_s.is_some() => Err(Error::UnsupportedOperation),
            held::SkArg::Decap(pk, ask) => {
                let step = steps::DecapWhole { enc, pk, ask, then };
                steps::by_kem(self.kem, step)?
            }
        })
    }

    /// A receiver's setup: `decap` runs the KEM step in the mode's form (given `pkS` in the
    /// auth modes) and hands its shared secret to the schedule step, whose state becomes the
    /// context.
    fn receiver<'m>(
        &self,
        info: &[u8],
        mode: ReceiverMode<'m>,
        decap: impl FnOnce(Option<&'m PublicKey>, steps::Then<'_>) -> Result<(), Error>,
    ) -> Result<ReceiverContext, Error> {
        let (psk, pk_s) = mode.parts();
        let mut state = None;
        decap(pk_s, &mut |shared_secret: &[u8]| {
            state = Some(self.schedule(Mode::of(psk, pk_s), shared_secret, info, psk)?);
            Ok(())
        })?;
        // The KEM step succeeded, so it ran the schedule step.
        let state = state.ok_or(Error::Decap)?;
        Ok(ReceiverContext(state))
    }

    /// The public keys whose `DH(skR, ·)` a receiver's key held elsewhere must compute to
    /// set up `mode` with `enc` (RFC 9180 §4.1, §5.1.3): `enc` (as `pkE`), then the sender's
    /// key in the auth modes. `enc` is validated first, as the runtime setup validates it
    /// before a [`DhHolder`] is asked. The first step of a setup with [`Answers`].
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for a KEM that is not a DH-KEM; [`Error::Decap`] for an
    /// `enc` that is not a public key of the KEM; [`Error::InvalidPublicKey`] for a sender's
    /// key of another KEM.
    pub fn dh_peers<'a>(
        &self,
        enc: &'a [u8],
        mode: ReceiverMode<'a>,
    ) -> Result<impl Iterator<Item = &'a [u8]>, Error> {
        if !self.supports_auth() {
            return Err(Error::UnsupportedOperation);
        }
        self.public_key_from_bytes(enc).map_err(|_| Error::Decap)?;
        let (_, pk_s) = mode.parts();
        if pk_s.is_some_and(|pk| pk.kem_id() != self.kem) {
            return Err(Error::InvalidPublicKey);
        }
        Ok(core::iter::once(enc).chain(pk_s.map(PublicKey::as_bytes)))
    }

    /// The key schedule (RFC 9180 §5.1) on a KEM step's shared secret: the context's state.
    fn schedule(
        &self,
        mode: Mode,
        shared_secret: &[u8],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<context::State, Error> {
        let step = steps::Schedule {
            suite: *self,
            mode,
            shared_secret,
            info,
            psk,
        };
        steps::by_schedule(self.kdf, self.aead, step)?
    }

    /// `suite_id` of the key schedule (RFC 9180 §5.1).
    pub(crate) fn hpke_suite_id(&self) -> [u8; 10] {
        crate::util::hpke_suite_id(self.kem, self.kdf, self.aead)
    }

    #[cfg(feature = "alloc")]
    fn require_seal(&self) -> Result<(), Error> {
        if self.supports_seal() {
            Ok(())
        } else {
            Err(Error::UnsupportedOperation)
        }
    }
}

/// Single-shot APIs (RFC 9180 §6): a context set up, used once, dropped.
#[cfg(feature = "alloc")]
impl Suite {
    /// Single-shot `Seal` (RFC 9180 §6.1) to `pk_r` (parsed, or bytes): `(enc, ct)`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for ExportOnly (before any encapsulation), or an auth
    /// mode on a KEM without one; otherwise as [`Suite::setup_sender`] and sealing.
    #[allow(clippy::too_many_arguments)]
    pub fn seal<R: CryptoRng + ?Sized, P: PublicKeyInput + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &P,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        mode: SenderMode<'_>,
    ) -> Result<(Vec<u8>, Vec<u8>), Error> {
        self.require_seal()?;
        let (enc, mut ctx) = self.setup_sender(rng, pk_r, info, mode)?;
        Ok((enc.as_bytes().to_vec(), ctx.seal(aad, pt)?))
    }

    /// [`Hpke::seal_base_many`](crate::Hpke::seal_base_many) for this suite: Base-mode `Seal`
    /// to every key of `recipients` (parsed, prepared or bytes), one `(enc, ct)` per recipient
    /// in order; `plaintexts` holds one plaintext for all or one per recipient.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for ExportOnly; [`Error::InvalidLength`] as
    /// [`Hpke::seal_base_many`](crate::Hpke::seal_base_many); [`Error::InvalidPublicKey`] if
    /// any key is not one of this suite's KEM; otherwise the first error of sealing.
    #[allow(clippy::type_complexity)] // one `(enc, ct)` per recipient
    pub fn seal_base_many<R: CryptoRng + ?Sized, P: PublicKeyInput>(
        &self,
        rng: &mut R,
        recipients: &[P],
        info: &[u8],
        aad: &[u8],
        plaintexts: &[&[u8]],
    ) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Error> {
        self.require_seal()?;
        let recipients: Vec<_> = recipients.iter().map(|p| p.public_key_arg()).collect();
        self.seal_base_many_in(rng_of(&mut &mut *rng), &recipients, info, aad, plaintexts)
    }

    #[allow(clippy::type_complexity)]
    fn seal_base_many_in(
        &self,
        rng: Rng<'_>,
        recipients: &[KeyArg<'_, PublicKey>],
        info: &[u8],
        aad: &[u8],
        plaintexts: &[&[u8]],
    ) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Error> {
        // Every key is checked against this suite's KEM (bytes parsed once) before any
        // randomness is drawn, as the typed `seal_base_many` is given keys of its KEM. A plain
        // loop into a sized `Vec`: collected through `Result` and `Option` adapters, each
        // runtime key (12 KiB with every KEM) was copied through their frames in a debug
        // build, 285 KiB of stack for an X25519 suite (tests/stack.rs).
        let mut parsed: Vec<Option<PublicKey>> = Vec::with_capacity(recipients.len());
        for &p in recipients {
            match p {
                KeyArg::Bytes(b) => parsed.push(Some(self.public_key_from_bytes(b)?)),
                KeyArg::Parsed(k) if k.kem_id() == self.kem => parsed.push(None),
                KeyArg::Parsed(_) => return Err(Error::InvalidPublicKey),
            }
        }
        let keys: Vec<_> = recipients
            .iter()
            .zip(&parsed)
            .map(|(&p, parsed)| parsed.as_ref().map_or(p, KeyArg::Parsed))
            .collect();
        crate::rng::seal_many(rng, keys.len(), plaintexts, |i, rng, pt| {
            let (enc, mut ctx) = self.setup_sender_in(rng, keys[i], info, SenderMode::Base)?;
            Ok((enc.as_bytes().to_vec(), ctx.seal(aad, pt)?))
        })
    }

    /// Single-shot `Open` (RFC 9180 §6.1) with `sk_r` (parsed, or bytes).
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] as for [`Suite::seal`]; [`Error::Open`] if the
    /// ciphertext does not authenticate; otherwise as [`Suite::setup_receiver`].
    #[allow(clippy::too_many_arguments)]
    pub fn open<S: PrivateKeyInput + ?Sized>(
        &self,
        enc: &[u8],
        sk_r: &S,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        mode: ReceiverMode<'_>,
    ) -> Result<Vec<u8>, S::Error> {
        self.require_seal()?;
        Ok(self.setup_receiver(enc, sk_r, info, mode)?.open(aad, ct)?)
    }

    /// Single-shot `SendExport` (RFC 9180 §6.2): fills `out` and returns `enc`.
    ///
    /// # Errors
    /// As [`Suite::setup_sender`], and [`Error::ExportTooLong`].
    #[allow(clippy::too_many_arguments)]
    pub fn send_export<R: CryptoRng + ?Sized, P: PublicKeyInput + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &P,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        mode: SenderMode<'_>,
    ) -> Result<Vec<u8>, Error> {
        let (enc, ctx) = self.setup_sender(rng, pk_r, info, mode)?;
        ctx.export(exporter_context, out)?;
        Ok(enc.as_bytes().to_vec())
    }

    /// Single-shot `ReceiveExport` (RFC 9180 §6.2) into `out`.
    ///
    /// # Errors
    /// As [`Suite::setup_receiver`], and [`Error::ExportTooLong`].
    #[allow(clippy::too_many_arguments)]
    pub fn receive_export<S: PrivateKeyInput + ?Sized>(
        &self,
        enc: &[u8],
        sk_r: &S,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        mode: ReceiverMode<'_>,
    ) -> Result<(), S::Error> {
        Ok(self
            .setup_receiver(enc, sk_r, info, mode)?
            .export(exporter_context, out)?)
    }
}
