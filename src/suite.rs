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

mod context;
mod keys;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use rand_core::CryptoRng;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

use crate::aead::{Aead, ExportOnly, SealingAead};
use crate::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use crate::kem::{AuthKem, Kem};
use crate::{Error, Hpke, Psk};

pub use self::context::{EncappedKey, MAX_ENC_LEN, ReceiverContext, SenderContext, TAG_LEN};
pub use self::keys::{PrivateKey, PrivateKeyInput, PublicKey, PublicKeyInput};

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

/// Generates one dispatcher: `kem_id` -> `kdf_id` -> `aead_id` -> `visitor.visit::<K, F, A>()`.
/// The KEM and AEAD lists are the ones the visitor's bounds admit; everything else is
/// `UnsupportedOperation` (the ids were validated by `Suite::new`).
macro_rules! dispatcher {
    (
        $name:ident, $visitor:ident, $kbound:path, $abound:path,
        kems: [$($(#[$kcfg:meta])* $kid:literal => $k:ty),* $(,)?],
        aeads: [$($(#[$acfg:meta])* $aid:literal => $a:ty),* $(,)?]
    ) => {
        // A build without any KEM or sealing AEAD feature leaves parts of this unused.
        #[allow(unused_variables, dead_code)]
        fn $name<V: $visitor>(suite: &Suite, v: V) -> Result<V::Output, Error> {
            #[allow(unused_variables, dead_code)]
            fn by_aead<K: $kbound, F: Kdf, V: $visitor>(aead: u16, v: V) -> Result<V::Output, Error> {
                match aead {
                    $($(#[$acfg])* $aid => Ok(v.visit::<K, F, $a>()),)*
                    _ => Err(Error::UnsupportedOperation),
                }
            }
            #[allow(unused_variables, dead_code)]
            fn by_kdf<K: $kbound, V: $visitor>(kdf: u16, aead: u16, v: V) -> Result<V::Output, Error> {
                match kdf {
                    0x0001 => by_aead::<K, HkdfSha256, V>(aead, v),
                    0x0002 => by_aead::<K, HkdfSha384, V>(aead, v),
                    0x0003 => by_aead::<K, HkdfSha512, V>(aead, v),
                    0x0010 => by_aead::<K, Shake128, V>(aead, v),
                    0x0011 => by_aead::<K, Shake256, V>(aead, v),
                    0x0012 => by_aead::<K, TurboShake128, V>(aead, v),
                    0x0013 => by_aead::<K, TurboShake256, V>(aead, v),
                    _ => Err(Error::UnsupportedSuite),
                }
            }
            match suite.kem {
                $($(#[$kcfg])* $kid => by_kdf::<$k, V>(suite.kdf, suite.aead, v),)*
                _ => Err(Error::UnsupportedOperation),
            }
        }
    };
}

/// `*slot` taken out as a `T`, if `slot` holds an `Option<T>` (`None` otherwise, and `*slot` is
/// left alone). This is how `suite/` puts a value of a type parameter (`PrivateKey<K>`,
/// `AeadState<A>`, ...) into the enum variant of its type, without the primitives naming the
/// runtime types: no allocation, no `unsafe`. The type ids are constants, so once the type
/// parameter is known the compiler keeps only the one move that succeeds.
fn take_as<T: 'static>(slot: &mut dyn core::any::Any) -> Option<T> {
    slot.downcast_mut::<Option<T>>().and_then(Option::take)
}

/// The conversions between a runtime key enum (`AnySk`, `AnyPk`) and the typed keys it holds
/// (`crate::PrivateKey<K>`, `crate::PublicKey<K>`), here because the primitives do not know the
/// runtime enums: the variant is chosen by the KEM's id and the key moved into it only if its
/// type is the variant's (`take_as`). With no KEM feature the enums are empty and nothing here
/// is instantiated.
macro_rules! typed_conversions {
    ($enum:ident, $typed:ident, $($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
        #[allow(unreachable_code, unused_variables)]
        impl $enum {
            /// The variant of `K` (by its id), holding `key` (proven by its type).
            pub(crate) fn from_typed<K: Kem>(key: crate::$typed<K>) -> Self {
                let slot = &mut Some(key);
                let any = match K::ID {
                    $($(#[$cfg])* <$k as Kem>::ID => take_as(slot).map(Self::$v),)*
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every KEM has a variant of its own type"))
            }

            /// The typed key inside, if it is a key of `K`.
            pub(crate) fn typed<K: Kem>(&self) -> Option<&crate::$typed<K>> {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => (k as &dyn core::any::Any).downcast_ref(),)*
                }
            }
        }
    };
}

/// The runtime key enums: one variant per KEM of the table, holding the typed key.
macro_rules! any_keys {
    ($($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
      pub(crate) use self::any::{AnyPk, AnySk};

      /// Private, so the enums cannot be named outside the crate.
      mod any {
        #[allow(unused_imports)] // a build without any KEM feature
        use super::*;

        /// A typed private key of whichever KEM.
        // Inline, not boxed, so that no_std builds without an allocator have runtime keys:
        // the size is the largest typed key's, as `suite::PrivateKey` documents.
        #[derive(Clone, Debug)] // the typed keys' `Debug` is redacted
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnySk {
            $($(#[$cfg])* $v(crate::PrivateKey<$k>),)*
        }

        /// A typed public key of whichever KEM.
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnyPk {
            $($(#[$cfg])* $v(crate::PublicKey<$k>),)*
        }

        typed_conversions!(AnySk, PrivateKey, $($(#[$cfg])* $v: $k,)*);
        typed_conversions!(AnyPk, PublicKey, $($(#[$cfg])* $v: $k,)*);

        // With no KEM feature the enums are empty and every match below has no arm; with one,
        // the catch-all of `ct_eq` is unreachable.
        #[allow(unreachable_code, unreachable_patterns, unused_variables, clippy::needless_return)]
        impl AnySk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(_) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn public_key(&self) -> AnyPk {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => AnyPk::$v(k.public_key()),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => Zeroizing::new(k.to_bytes().to_vec()),)*
                }
            }

            /// Runs `f` on `SerializePrivateKey`'s bytes, held on the stack and wiped after.
            #[cfg(feature = "serde")]
            pub(crate) fn with_bytes<T>(&self, f: impl FnOnce(&[u8]) -> T) -> T {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => f(&k.to_bytes()),)*
                }
            }

            pub(crate) fn ct_eq(&self, other: &Self) -> subtle::Choice {
                match (self, other) {
                    $($(#[$cfg])* (Self::$v(a), Self::$v(b)) => subtle::ConstantTimeEq::ct_eq(a, b),)*
                    // Keys of two KEMs: the KEM is public, so this branch leaks nothing.
                    _ => subtle::Choice::from(0),
                }
            }
        }

        #[allow(unreachable_code, unused_variables, clippy::needless_return)]
        impl AnyPk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(_) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn as_bytes(&self) -> &[u8] {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => k.as_bytes(),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn prepare(&self) -> crate::suite::keys::Prepared {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => crate::suite::keys::Prepared::new(k),)*
                }
            }
        }
      }

    };
}

macro_rules! all_dispatchers {
    (
        dh: [$($(#[$dcfg:meta])* $did:literal => $dv:ident: $dk:ty),* $(,)?],
        other: [$($(#[$ocfg:meta])* $oid:literal => $ov:ident: $ok:ty),* $(,)?],
        sealing: [$($(#[$scfg:meta])* $sid:literal => $sa:ty),* $(,)?]
    ) => {
        dispatcher!(dispatch_all, Visitor, Kem, Aead,
            kems: [$($(#[$dcfg])* $did => $dk,)* $($(#[$ocfg])* $oid => $ok,)*],
            aeads: [$($(#[$scfg])* $sid => $sa,)* 0xFFFF => ExportOnly]);
        dispatcher!(dispatch_sealing, SealingVisitor, Kem, SealingAead,
            kems: [$($(#[$dcfg])* $did => $dk,)* $($(#[$ocfg])* $oid => $ok,)*],
            aeads: [$($(#[$scfg])* $sid => $sa,)*]);
        dispatcher!(dispatch_auth, AuthVisitor, AuthKem, Aead,
            kems: [$($(#[$dcfg])* $did => $dk,)*],
            aeads: [$($(#[$scfg])* $sid => $sa,)* 0xFFFF => ExportOnly]);
        dispatcher!(dispatch_auth_sealing, AuthSealingVisitor, AuthKem, SealingAead,
            kems: [$($(#[$dcfg])* $did => $dk,)*],
            aeads: [$($(#[$scfg])* $sid => $sa,)*]);

        any_keys!($($(#[$dcfg])* $dv: $dk,)* $($(#[$ocfg])* $ov: $ok,)*);

        /// Whether this build has the KEM.
        fn kem_supported(id: u16) -> bool {
            match id {
                $($(#[$dcfg])* $did => true,)*
                $($(#[$ocfg])* $oid => true,)*
                _ => false,
            }
        }

        /// Whether this build has the AEAD.
        fn aead_supported(id: u16) -> bool {
            match id {
                $($(#[$scfg])* $sid => true,)*
                0xFFFF => true,
                _ => false,
            }
        }
    };
}

all_dispatchers! {
    dh: [
        #[cfg(feature = "nist")] 0x0010 => P256: crate::kem::DhKemP256HkdfSha256,
        #[cfg(feature = "nist")] 0x0011 => P384: crate::kem::DhKemP384HkdfSha384,
        #[cfg(feature = "nist")] 0x0012 => P521: crate::kem::DhKemP521HkdfSha512,
        #[cfg(feature = "secp256k1")] 0x0016 => Secp256k1: crate::kem::DhKemSecp256k1HkdfSha256,
        #[cfg(feature = "x25519")] 0x0020 => X25519: crate::kem::DhKemX25519HkdfSha256,
        #[cfg(feature = "x448")] 0x0021 => X448: crate::kem::DhKemX448HkdfSha512,
    ],
    other: [
        #[cfg(feature = "pq")] 0x0040 => MlKem512: crate::kem::MlKem512,
        #[cfg(feature = "pq")] 0x0041 => MlKem768: crate::kem::MlKem768,
        #[cfg(feature = "pq")] 0x0042 => MlKem1024: crate::kem::MlKem1024,
        #[cfg(all(feature = "pq", feature = "nist"))] 0x0050 => MlKem768P256: crate::kem::MlKem768P256,
        #[cfg(all(feature = "pq", feature = "nist"))] 0x0051 => MlKem1024P384: crate::kem::MlKem1024P384,
        #[cfg(all(feature = "pq", feature = "x25519"))] 0x647a => XWing: crate::kem::XWing,
    ],
    sealing: [
        #[cfg(feature = "aes-gcm")] 0x0001 => crate::aead::Aes128Gcm,
        #[cfg(feature = "aes-gcm")] 0x0002 => crate::aead::Aes256Gcm,
        #[cfg(feature = "chacha20poly1305")] 0x0003 => crate::aead::ChaCha20Poly1305,
    ]
}

impl Suite {
    /// The suite with these ids (RFC 9180 §7 and draft-ietf-hpke-pq registries).
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] if an id is unknown, or names an algorithm whose cargo
    /// feature this build leaves out.
    pub fn new(kem_id: u16, kdf_id: u16, aead_id: u16) -> Result<Self, Error> {
        let kdf_ok = matches!(kdf_id, 0x0001..=0x0003 | 0x0010..=0x0013);
        if kem_supported(kem_id) && kdf_ok && aead_supported(aead_id) {
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
        self.visit_auth(Nothing).is_ok()
    }

    /// Whether the AEAD can seal and open (it is not ExportOnly).
    pub fn supports_seal(&self) -> bool {
        self.aead != 0xFFFF
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types.
    ///
    /// # Errors
    /// Never for a suite made by [`Suite::new`]; the `Result` is for symmetry with the others.
    pub fn visit<V: Visitor>(&self, v: V) -> Result<V::Output, Error> {
        dispatch_all(self, v)
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types, which must be able to seal.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the AEAD is ExportOnly.
    pub fn visit_sealing<V: SealingVisitor>(&self, v: V) -> Result<V::Output, Error> {
        dispatch_sealing(self, v)
    }

    /// Runs `v.visit::<K, F, A>()` with this suite's types, whose KEM must authenticate.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the KEM has no authenticated encapsulation.
    pub fn visit_auth<V: AuthVisitor>(&self, v: V) -> Result<V::Output, Error> {
        dispatch_auth(self, v)
    }

    /// Runs `v.visit::<K, F, A>()`; the KEM must authenticate and the AEAD seal.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] if the KEM has no authenticated encapsulation or the
    /// AEAD is ExportOnly.
    pub fn visit_auth_sealing<V: AuthSealingVisitor>(&self, v: V) -> Result<V::Output, Error> {
        dispatch_auth_sealing(self, v)
    }
}

struct Nothing;

impl AuthVisitor for Nothing {
    type Output = ();
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) {}
}

/// Lengths of the suite's wire values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths {
    /// `Nenc`: the encapsulated key.
    pub enc: usize,
    /// `Npk`: a serialized public key.
    pub public_key: usize,
    /// `Nsk`: a serialized private key.
    pub private_key: usize,
    /// `Nt`: the AEAD tag a ciphertext adds (0 for ExportOnly).
    pub tag: usize,
}

struct LengthsV;

impl Visitor for LengthsV {
    type Output = Lengths;
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Lengths {
        use hybrid_array::typenum::Unsigned;
        Lengths {
            enc: K::NEnc::USIZE,
            public_key: K::NPk::USIZE,
            private_key: K::NSk::USIZE,
            // Every sealing AEAD of RFC 9180 has a 16-byte tag; ExportOnly has none.
            tag: if A::ID == ExportOnly::ID { 0 } else { 16 },
        }
    }
}

impl Suite {
    /// The lengths of this suite's encapsulated keys, keys and tags.
    pub fn lengths(&self) -> Lengths {
        // `Suite::new` admits only suites `dispatch_all` covers.
        self.visit(LengthsV).unwrap_or(Lengths {
            enc: 0,
            public_key: 0,
            private_key: 0,
            tag: 0,
        })
    }
}

/// The sender's side of a mode. The auth modes take the sender's parsed private key
/// ([`Suite::private_key_from_bytes`]); its `Debug` is redacted, as is the PSK's.
#[derive(Clone, Copy, Debug)]
pub enum SenderMode<'a> {
    /// `mode_base`.
    Base,
    /// `mode_psk`.
    Psk(&'a Psk<'a>),
    /// `mode_auth`, with the sender's private key.
    Auth(&'a PrivateKey),
    /// `mode_auth_psk`, with the PSK and the sender's private key.
    AuthPsk(&'a Psk<'a>, &'a PrivateKey),
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
    fn parts(self) -> (Option<&'a Psk<'a>>, Option<&'a PrivateKey>) {
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

/// The visitors behind the runtime API. Each resolves its keys for `K` (a parsed key is
/// borrowed, bytes are parsed), runs the typed API, and hands back runtime values.
// A build without any KEM feature makes the key types uninhabited.
#[allow(unreachable_code, unused_variables)]
mod visitors {
    use super::*;
    use crate::suite::keys::{KeyArg, recipient, resolve_pk, resolve_sk};

    pub(super) struct ParseSk<'a>(pub &'a [u8]);
    impl Visitor for ParseSk<'_> {
        type Output = Result<PrivateKey, Error>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            Ok(crate::PrivateKey::<K>::from_bytes(self.0)?.into())
        }
    }

    pub(super) struct ParsePk<'a>(pub &'a [u8]);
    impl Visitor for ParsePk<'_> {
        type Output = Result<PublicKey, Error>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            Ok(crate::PublicKey::<K>::from_bytes(self.0)?.into())
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
        (enc, ctx): (crate::EncappedKey<K>, crate::SenderContext<K, F, A>),
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
    pub(super) struct SealMany<'a, R: ?Sized, P> {
        pub rng: &'a mut R,
        pub recipients: &'a [P],
        pub info: &'a [u8],
        pub aad: &'a [u8],
        pub plaintexts: &'a [&'a [u8]],
    }

    #[cfg(feature = "alloc")]
    impl<R: CryptoRng + ?Sized, P: PublicKeyInput> SealingVisitor for SealMany<'_, R, P> {
        type Output = Result<Vec<(Vec<u8>, Vec<u8>)>, Error>;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Self::Output {
            let keys = self
                .recipients
                .iter()
                .map(|p| resolve_pk::<K>(p.public_key_arg()))
                .collect::<Result<Vec<_>, _>>()?;
            let to: Vec<_> = keys
                .iter()
                .zip(self.recipients)
                .map(|(pk, p)| recipient(pk, p.public_key_arg()))
                .collect();
            let sealed = Hpke::<K, F, A>::seal_base_many(
                self.rng,
                &to,
                self.info,
                self.aad,
                self.plaintexts,
            )?;
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
            let enc = crate::EncappedKey::<K>::from_bytes(self.enc)?;
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
            let enc = crate::EncappedKey::<K>::from_bytes(self.enc)?;
            let sk_r = resolve_sk::<K>(self.sk_r)?;
            let pk_s = self.pk_s.ok_or(Error::InvalidPublicKey)?;
            let pk_s = resolve_pk::<K>(KeyArg::Parsed(pk_s))?;
            let info = self.info;
            let ctx = match self.psk {
                None => Hpke::<K, F, A>::setup_receiver_auth(&enc, &sk_r, info, &pk_s)?,
                Some(psk) => {
                    Hpke::<K, F, A>::setup_receiver_auth_psk(&enc, &sk_r, info, psk, &pk_s)?
                }
            };
            Ok(ctx.into())
        }
    }
}

/// Keys.
impl Suite {
    /// `DeserializePrivateKey` for this suite's KEM: parse once, use many times.
    ///
    /// # Errors
    /// [`Error::InvalidPrivateKey`] as the typed `PrivateKey::from_bytes` gives it.
    pub fn private_key_from_bytes(&self, bytes: &[u8]) -> Result<PrivateKey, Error> {
        self.visit(visitors::ParseSk(bytes))?
    }

    /// `DeserializePublicKey` for this suite's KEM, with the validation the typed
    /// `PublicKey::from_bytes` does.
    ///
    /// # Errors
    /// [`Error::InvalidPublicKey`] as the typed API gives it.
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<PublicKey, Error> {
        self.visit(visitors::ParsePk(bytes))?
    }

    /// `DeriveKeyPair(ikm)` (RFC 9180 §7.1.3).
    ///
    /// # Errors
    /// As the KEM's `derive_key_pair`.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(PrivateKey, PublicKey), Error> {
        self.visit(visitors::Derive(ikm))?
    }

    /// `GenerateKeyPair()`.
    ///
    /// # Errors
    /// As the KEM's `generate`: [`Error::DeriveKeyPair`] only for a broken `rng`.
    pub fn generate_key_pair<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(PrivateKey, PublicKey), Error> {
        self.visit(visitors::Generate(rng))?
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
        let (psk, sk_s) = mode.parts();
        let v = visitors::SetupSender {
            rng,
            pk_r: pk_r.public_key_arg(),
            info,
            psk,
            sk_s,
        };
        if sk_s.is_some() {
            self.visit_auth(v)?
        } else {
            self.visit(v)?
        }
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
    ) -> Result<ReceiverContext, Error> {
        let (psk, pk_s) = mode.parts();
        let v = visitors::SetupReceiver {
            enc,
            sk_r: sk_r.private_key_arg(),
            info,
            psk,
            pk_s,
        };
        if pk_s.is_some() {
            self.visit_auth(v)?
        } else {
            self.visit(v)?
        }
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

    /// [`Hpke::seal_base_many`] for this suite: Base-mode `Seal` to every key of `recipients`
    /// (parsed, prepared or bytes), one `(enc, ct)` per recipient in order; `plaintexts` holds
    /// one plaintext for all or one per recipient.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for ExportOnly; [`Error::InvalidLength`] as
    /// [`Hpke::seal_base_many`]; [`Error::InvalidPublicKey`] if any key is not one of this
    /// suite's KEM; otherwise the first error of sealing.
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
        self.visit_sealing(visitors::SealMany {
            rng,
            recipients,
            info,
            aad,
            plaintexts,
        })?
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
    ) -> Result<Vec<u8>, Error> {
        self.require_seal()?;
        self.setup_receiver(enc, sk_r, info, mode)?.open(aad, ct)
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
    ) -> Result<(), Error> {
        self.setup_receiver(enc, sk_r, info, mode)?
            .export(exporter_context, out)
    }
}
