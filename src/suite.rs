//! Runtime suite selection: from the `kem_id`, `kdf_id` and `aead_id` a protocol carries on
//! the wire (an ECH config, an OHTTP key configuration, an MLS cipher suite) to the typed API.
//!
//! [`Suite::new`] checks the three ids once. Then either
//! - hand a *visitor* to [`Suite::visit`] (or its sealing / auth variants): its one generic
//!   method runs as `visit::<K, F, A>()` with the suite's types, so everything inside is the
//!   typed API, monomorphised, with no trait objects; or
//! - call the byte-slice conveniences ([`Suite::seal`], [`Suite::open`],
//!   [`Suite::send_export`], [`Suite::receive_export`], [`Suite::derive_key_pair`], ...), which
//!   are such visitors.
//!
//! Operations a suite cannot do are errors, not panics: the auth modes on a KEM without
//! authenticated encapsulation and sealing with ExportOnly return
//! [`Error::UnsupportedOperation`]; unknown ids, or ids of algorithms this build leaves out,
//! return [`Error::UnsupportedSuite`].
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

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "alloc")]
use rand_core::CryptoRng;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::{Aead, ExportOnly, SealingAead};
use crate::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use crate::kem::{AuthKem, Kem};
#[cfg(feature = "alloc")]
use crate::{EncappedKey, Hpke, PrivateKey, Psk, PublicKey};

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

macro_rules! all_dispatchers {
    (
        dh: [$($(#[$dcfg:meta])* $did:literal => $dk:ty),* $(,)?],
        other: [$($(#[$ocfg:meta])* $oid:literal => $ok:ty),* $(,)?],
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
        #[cfg(feature = "nist")] 0x0010 => crate::kem::DhKemP256HkdfSha256,
        #[cfg(feature = "nist")] 0x0011 => crate::kem::DhKemP384HkdfSha384,
        #[cfg(feature = "nist")] 0x0012 => crate::kem::DhKemP521HkdfSha512,
        #[cfg(feature = "secp256k1")] 0x0016 => crate::kem::DhKemSecp256k1HkdfSha256,
        #[cfg(feature = "x25519")] 0x0020 => crate::kem::DhKemX25519HkdfSha256,
        #[cfg(feature = "x448")] 0x0021 => crate::kem::DhKemX448HkdfSha512,
    ],
    other: [
        #[cfg(feature = "pq")] 0x0040 => crate::kem::MlKem512,
        #[cfg(feature = "pq")] 0x0041 => crate::kem::MlKem768,
        #[cfg(feature = "pq")] 0x0042 => crate::kem::MlKem1024,
        #[cfg(all(feature = "pq", feature = "nist"))] 0x0050 => crate::kem::MlKem768P256,
        #[cfg(all(feature = "pq", feature = "nist"))] 0x0051 => crate::kem::MlKem1024P384,
        #[cfg(all(feature = "pq", feature = "x25519"))] 0x647a => crate::kem::XWing,
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
    pub fn of<K: Kem, F: Kdf, A: Aead>() -> Self {
        Self {
            kem: K::ID,
            kdf: F::ID,
            aead: A::ID,
        }
    }

    /// `kem_id`.
    pub fn kem_id(&self) -> u16 {
        self.kem
    }

    /// `kdf_id`.
    pub fn kdf_id(&self) -> u16 {
        self.kdf
    }

    /// `aead_id`.
    pub fn aead_id(&self) -> u16 {
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

/// The sender's side of a mode, with byte-slice keys. `Debug` redacts the PSK and the
/// sender's private key.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy)]
pub enum SenderMode<'a> {
    /// `mode_base`.
    Base,
    /// `mode_psk`.
    Psk(&'a Psk<'a>),
    /// `mode_auth`, with the sender's serialized private key.
    Auth(&'a [u8]),
    /// `mode_auth_psk`, with the PSK and the sender's serialized private key.
    AuthPsk(&'a Psk<'a>, &'a [u8]),
}

#[cfg(feature = "alloc")]
impl core::fmt::Debug for SenderMode<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const REDACTED: &str = "<redacted private key>";
        match self {
            Self::Base => f.write_str("Base"),
            Self::Psk(psk) => f.debug_tuple("Psk").field(psk).finish(),
            Self::Auth(_) => f.debug_tuple("Auth").field(&REDACTED).finish(),
            Self::AuthPsk(psk, _) => f
                .debug_tuple("AuthPsk")
                .field(psk)
                .field(&REDACTED)
                .finish(),
        }
    }
}

/// The recipient's side of a mode, with byte-slice keys. `Debug` redacts the PSK (the sender's
/// public key is not secret).
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug)]
pub enum ReceiverMode<'a> {
    /// `mode_base`.
    Base,
    /// `mode_psk`.
    Psk(&'a Psk<'a>),
    /// `mode_auth`, with the sender's serialized public key.
    Auth(&'a [u8]),
    /// `mode_auth_psk`, with the PSK and the sender's serialized public key.
    AuthPsk(&'a Psk<'a>, &'a [u8]),
}

#[cfg(feature = "alloc")]
mod bytes {
    use super::*;

    pub(super) struct DeriveV<'a>(pub &'a [u8]);
    impl Visitor for DeriveV<'_> {
        type Output = Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            let (sk, pk) = K::derive_key_pair(self.0)?;
            Ok((
                Zeroizing::new(sk.to_bytes().to_vec()),
                pk.as_bytes().to_vec(),
            ))
        }
    }

    pub(super) struct GenerateV<'a, R: ?Sized>(pub &'a mut R);
    impl<R: CryptoRng + ?Sized> Visitor for GenerateV<'_, R> {
        type Output = (Zeroizing<Vec<u8>>, Vec<u8>);
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            let (sk, pk) = K::generate(self.0);
            (
                Zeroizing::new(sk.to_bytes().to_vec()),
                pk.as_bytes().to_vec(),
            )
        }
    }

    /// Inputs shared by the sealing visitors.
    pub(super) struct Send<'a, R: ?Sized> {
        pub rng: &'a mut R,
        pub pk_r: &'a [u8],
        pub info: &'a [u8],
        pub aad: &'a [u8],
        pub data: &'a [u8],
        pub psk: Option<&'a Psk<'a>>,
        pub sk_s: &'a [u8],
    }

    /// Inputs shared by the opening visitors.
    pub(super) struct Receive<'a> {
        pub enc: &'a [u8],
        pub sk_r: &'a [u8],
        pub info: &'a [u8],
        pub aad: &'a [u8],
        pub data: &'a [u8],
        pub psk: Option<&'a Psk<'a>>,
        pub pk_s: &'a [u8],
    }

    type Sealed = Result<(Vec<u8>, Vec<u8>), Error>;

    impl<R: CryptoRng + ?Sized> SealingVisitor for Send<'_, R> {
        type Output = Sealed;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Sealed {
            let pk_r = PublicKey::<K>::from_bytes(self.pk_r)?;
            let (enc, ct) = match self.psk {
                None => {
                    Hpke::<K, F, A>::seal_base(self.rng, &pk_r, self.info, self.aad, self.data)?
                }
                Some(psk) => {
                    Hpke::<K, F, A>::seal_psk(self.rng, &pk_r, self.info, self.aad, self.data, psk)?
                }
            };
            Ok((enc.as_bytes().to_vec(), ct))
        }
    }

    impl<R: CryptoRng + ?Sized> AuthSealingVisitor for Send<'_, R> {
        type Output = Sealed;
        fn visit<K: AuthKem, F: Kdf, A: SealingAead>(self) -> Sealed {
            let pk_r = PublicKey::<K>::from_bytes(self.pk_r)?;
            let sk_s = PrivateKey::<K>::from_bytes(self.sk_s)?;
            let (r, info, aad, pt) = (self.rng, self.info, self.aad, self.data);
            let (enc, ct) = match self.psk {
                None => Hpke::<K, F, A>::seal_auth(r, &pk_r, info, aad, pt, &sk_s)?,
                Some(psk) => Hpke::<K, F, A>::seal_auth_psk(r, &pk_r, info, aad, pt, psk, &sk_s)?,
            };
            Ok((enc.as_bytes().to_vec(), ct))
        }
    }

    impl SealingVisitor for Receive<'_> {
        type Output = Result<Vec<u8>, Error>;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Self::Output {
            let enc = EncappedKey::<K>::from_bytes(self.enc)?;
            let sk_r = PrivateKey::<K>::from_bytes(self.sk_r)?;
            match self.psk {
                None => Hpke::<K, F, A>::open_base(&enc, &sk_r, self.info, self.aad, self.data),
                Some(psk) => {
                    Hpke::<K, F, A>::open_psk(&enc, &sk_r, self.info, self.aad, self.data, psk)
                }
            }
        }
    }

    impl AuthSealingVisitor for Receive<'_> {
        type Output = Result<Vec<u8>, Error>;
        fn visit<K: AuthKem, F: Kdf, A: SealingAead>(self) -> Self::Output {
            let enc = EncappedKey::<K>::from_bytes(self.enc)?;
            let sk_r = PrivateKey::<K>::from_bytes(self.sk_r)?;
            let pk_s = PublicKey::<K>::from_bytes(self.pk_s)?;
            let (info, aad, ct) = (self.info, self.aad, self.data);
            match self.psk {
                None => Hpke::<K, F, A>::open_auth(&enc, &sk_r, info, aad, ct, &pk_s),
                Some(psk) => Hpke::<K, F, A>::open_auth_psk(&enc, &sk_r, info, aad, ct, psk, &pk_s),
            }
        }
    }

    /// SendExport: `data` is the exporter context, the output goes to `out`.
    pub(super) struct SendExport<'a, R: ?Sized> {
        pub send: Send<'a, R>,
        pub out: &'a mut [u8],
    }

    impl<R: CryptoRng + ?Sized> Visitor for SendExport<'_, R> {
        type Output = Result<Vec<u8>, Error>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            let s = self.send;
            let pk_r = PublicKey::<K>::from_bytes(s.pk_r)?;
            let enc = match s.psk {
                None => Hpke::<K, F, A>::send_export_base(s.rng, &pk_r, s.info, s.data, self.out)?,
                Some(psk) => {
                    Hpke::<K, F, A>::send_export_psk(s.rng, &pk_r, s.info, s.data, self.out, psk)?
                }
            };
            Ok(enc.as_bytes().to_vec())
        }
    }

    impl<R: CryptoRng + ?Sized> AuthVisitor for SendExport<'_, R> {
        type Output = Result<Vec<u8>, Error>;
        fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Self::Output {
            let s = self.send;
            let pk_r = PublicKey::<K>::from_bytes(s.pk_r)?;
            let sk_s = PrivateKey::<K>::from_bytes(s.sk_s)?;
            let (r, info, ctx, out) = (s.rng, s.info, s.data, self.out);
            let enc = match s.psk {
                None => Hpke::<K, F, A>::send_export_auth(r, &pk_r, info, ctx, out, &sk_s)?,
                Some(psk) => {
                    Hpke::<K, F, A>::send_export_auth_psk(r, &pk_r, info, ctx, out, psk, &sk_s)?
                }
            };
            Ok(enc.as_bytes().to_vec())
        }
    }

    /// ReceiveExport: `data` is the exporter context.
    pub(super) struct ReceiveExport<'a> {
        pub receive: Receive<'a>,
        pub out: &'a mut [u8],
    }

    impl Visitor for ReceiveExport<'_> {
        type Output = Result<(), Error>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Self::Output {
            let r = self.receive;
            let enc = EncappedKey::<K>::from_bytes(r.enc)?;
            let sk_r = PrivateKey::<K>::from_bytes(r.sk_r)?;
            match r.psk {
                None => Hpke::<K, F, A>::receive_export_base(&enc, &sk_r, r.info, r.data, self.out),
                Some(psk) => {
                    Hpke::<K, F, A>::receive_export_psk(&enc, &sk_r, r.info, r.data, self.out, psk)
                }
            }
        }
    }

    impl AuthVisitor for ReceiveExport<'_> {
        type Output = Result<(), Error>;
        fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Self::Output {
            let r = self.receive;
            let enc = EncappedKey::<K>::from_bytes(r.enc)?;
            let sk_r = PrivateKey::<K>::from_bytes(r.sk_r)?;
            let pk_s = PublicKey::<K>::from_bytes(r.pk_s)?;
            let (info, ctx, out) = (r.info, r.data, self.out);
            match r.psk {
                None => Hpke::<K, F, A>::receive_export_auth(&enc, &sk_r, info, ctx, out, &pk_s),
                Some(psk) => Hpke::<K, F, A>::receive_export_auth_psk(
                    &enc, &sk_r, info, ctx, out, psk, &pk_s,
                ),
            }
        }
    }
}

#[cfg(feature = "alloc")]
fn sender_parts<'a>(mode: SenderMode<'a>) -> (bool, Option<&'a Psk<'a>>, &'a [u8]) {
    match mode {
        SenderMode::Base => (false, None, &[]),
        SenderMode::Psk(psk) => (false, Some(psk), &[]),
        SenderMode::Auth(sk_s) => (true, None, sk_s),
        SenderMode::AuthPsk(psk, sk_s) => (true, Some(psk), sk_s),
    }
}

#[cfg(feature = "alloc")]
fn receiver_parts<'a>(mode: ReceiverMode<'a>) -> (bool, Option<&'a Psk<'a>>, &'a [u8]) {
    match mode {
        ReceiverMode::Base => (false, None, &[]),
        ReceiverMode::Psk(psk) => (false, Some(psk), &[]),
        ReceiverMode::Auth(pk_s) => (true, None, pk_s),
        ReceiverMode::AuthPsk(psk, pk_s) => (true, Some(psk), pk_s),
    }
}

#[cfg(feature = "alloc")]
impl Suite {
    /// `DeriveKeyPair(ikm)`: the serialized private key (wiped on drop) and public key.
    ///
    /// # Errors
    /// As the KEM's `derive_key_pair`.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
        self.visit(bytes::DeriveV(ikm))?
    }

    /// `GenerateKeyPair()`: the serialized private key (wiped on drop) and public key.
    ///
    /// # Errors
    /// Never for a suite made by [`Suite::new`].
    pub fn generate_key_pair<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
        self.visit(bytes::GenerateV(rng))
    }

    /// Single-shot `Seal` (RFC 9180 §6.1) to the serialized public key `pk_r`: `(enc, ct)`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for ExportOnly, or an auth mode on a KEM without one;
    /// key parsing and sealing errors as in the typed API.
    #[allow(clippy::too_many_arguments)]
    pub fn seal<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &[u8],
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        mode: SenderMode<'_>,
    ) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let (auth, psk, sk_s) = sender_parts(mode);
        let send = bytes::Send {
            rng,
            pk_r,
            info,
            aad,
            data: pt,
            psk,
            sk_s,
        };
        if auth {
            self.visit_auth_sealing(send)?
        } else {
            self.visit_sealing(send)?
        }
    }

    /// Single-shot `Open` (RFC 9180 §6.1) with the serialized private key `sk_r`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] as for [`Suite::seal`]; [`Error::Open`] if the
    /// ciphertext does not authenticate; key parsing errors as in the typed API.
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        &self,
        enc: &[u8],
        sk_r: &[u8],
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        mode: ReceiverMode<'_>,
    ) -> Result<Vec<u8>, Error> {
        let (auth, psk, pk_s) = receiver_parts(mode);
        let receive = bytes::Receive {
            enc,
            sk_r,
            info,
            aad,
            data: ct,
            psk,
            pk_s,
        };
        if auth {
            self.visit_auth_sealing(receive)?
        } else {
            self.visit_sealing(receive)?
        }
    }

    /// Single-shot `SendExport` (RFC 9180 §6.2): fills `out` and returns `enc`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for an auth mode on a KEM without one;
    /// [`Error::ExportTooLong`]; key parsing errors as in the typed API.
    #[allow(clippy::too_many_arguments)]
    pub fn send_export<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        mode: SenderMode<'_>,
    ) -> Result<Vec<u8>, Error> {
        let (auth, psk, sk_s) = sender_parts(mode);
        let send = bytes::Send {
            rng,
            pk_r,
            info,
            aad: &[],
            data: exporter_context,
            psk,
            sk_s,
        };
        let v = bytes::SendExport { send, out };
        if auth {
            self.visit_auth(v)?
        } else {
            self.visit(v)?
        }
    }

    /// Single-shot `ReceiveExport` (RFC 9180 §6.2) into `out`.
    ///
    /// # Errors
    /// As [`Suite::send_export`], and decapsulation errors.
    #[allow(clippy::too_many_arguments)]
    pub fn receive_export(
        &self,
        enc: &[u8],
        sk_r: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        mode: ReceiverMode<'_>,
    ) -> Result<(), Error> {
        let (auth, psk, pk_s) = receiver_parts(mode);
        let receive = bytes::Receive {
            enc,
            sk_r,
            info,
            aad: &[],
            data: exporter_context,
            psk,
            pk_s,
        };
        let v = bytes::ReceiveExport { receive, out };
        if auth {
            self.visit_auth(v)?
        } else {
            self.visit(v)?
        }
    }
}
