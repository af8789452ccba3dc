#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

use std::sync::Arc;

use rustls::crypto::hpke::{
    EncapsulatedSecret, Hpke, HpkeOpener, HpkePrivateKey, HpkePublicKey, HpkeSealer, HpkeSuite,
};
use rustls::internal::msgs::enums::{HpkeAead, HpkeKdf, HpkeKem};
use rustls::internal::msgs::handshake::HpkeSymmetricCipherSuite;
use rustls::{Error, OtherError};
use typed_hpke::OsRng;
use typed_hpke::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};

/// One HPKE ciphersuite as a rustls [`Hpke`]: Base mode (RFC 9180 §5.1.1), single-shot seal and
/// open (§6.1) and multi-message contexts, on typed-hpke's runtime [`Suite`].
///
/// The statics of this crate are the ready instances; [`TypedHpke::new`] makes one for any
/// other suite typed-hpke supports (the one-stage KDFs of draft-ietf-hpke-pq, say), to be
/// leaked into the `&'static dyn Hpke` rustls takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedHpke {
    suite: Suite,
}

impl TypedHpke {
    /// The suite of the typed API's `Hpke<K, F, A>`. Only AEADs that seal: rustls has no use
    /// for ExportOnly.
    pub const fn of<K: Kem, F: Kdf, A: SealingAead>() -> Self {
        Self {
            suite: Suite::of::<K, F, A>(),
        }
    }

    /// The suite rustls names `suite`.
    ///
    /// # Errors
    /// [`Error::Other`] holding [`typed_hpke::Error::UnsupportedSuite`] for an id typed-hpke
    /// does not know, or ExportOnly (which has no tag, so rustls cannot seal with it).
    pub fn new(suite: HpkeSuite) -> Result<Self, Error> {
        let suite = Suite::new(
            u16::from(suite.kem),
            u16::from(suite.sym.kdf_id),
            u16::from(suite.sym.aead_id),
        )
        .map_err(error)?;
        if !suite.supports_seal() {
            return Err(error(typed_hpke::Error::UnsupportedSuite));
        }
        Ok(Self { suite })
    }

    /// The typed-hpke [`Suite`] underneath.
    pub const fn typed_suite(&self) -> Suite {
        self.suite
    }
}

impl Hpke for TypedHpke {
    fn seal(
        &self,
        info: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        pub_key: &HpkePublicKey,
    ) -> Result<(EncapsulatedSecret, Vec<u8>), Error> {
        // Seal(pkR, info, aad, pt) = SetupBaseS(pkR, info), then ctx.Seal(aad, pt) (RFC 9180 §6.1)
        let (enc, ct) = self
            .suite
            .seal(
                &mut OsRng::default(),
                pub_key.0.as_slice(),
                info,
                aad,
                plaintext,
                SenderMode::Base,
            )
            .map_err(error)?;
        Ok((EncapsulatedSecret(enc), ct))
    }

    fn setup_sealer(
        &self,
        info: &[u8],
        pub_key: &HpkePublicKey,
    ) -> Result<(EncapsulatedSecret, Box<dyn HpkeSealer + 'static>), Error> {
        // SetupBaseS(pkR, info) (RFC 9180 §5.1.1)
        let (enc, ctx) = self
            .suite
            .setup_sender(
                &mut OsRng::default(),
                pub_key.0.as_slice(),
                info,
                SenderMode::Base,
            )
            .map_err(error)?;
        Ok((
            EncapsulatedSecret(enc.as_bytes().to_vec()),
            Box::new(Sealer(ctx)),
        ))
    }

    fn open(
        &self,
        enc: &EncapsulatedSecret,
        info: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        secret_key: &HpkePrivateKey,
    ) -> Result<Vec<u8>, Error> {
        // Open(enc, skR, info, aad, ct) = SetupBaseR(enc, skR, info), then ctx.Open(aad, ct)
        // (RFC 9180 §6.1)
        self.suite
            .open(
                &enc.0,
                secret_key.secret_bytes(),
                info,
                aad,
                ciphertext,
                ReceiverMode::Base,
            )
            .map_err(error)
    }

    fn setup_opener(
        &self,
        enc: &EncapsulatedSecret,
        info: &[u8],
        secret_key: &HpkePrivateKey,
    ) -> Result<Box<dyn HpkeOpener + 'static>, Error> {
        // SetupBaseR(enc, skR, info) (RFC 9180 §5.1.1)
        let ctx = self
            .suite
            .setup_receiver(&enc.0, secret_key.secret_bytes(), info, ReceiverMode::Base)
            .map_err(error)?;
        Ok(Box::new(Opener(ctx)))
    }

    fn generate_key_pair(&self) -> Result<(HpkePublicKey, HpkePrivateKey), Error> {
        // GenerateKeyPair() (RFC 9180 §4), serialized as SerializePublicKey /
        // SerializePrivateKey give them (§7.1.1, §7.1.2; draft-ietf-hpke-pq for the others).
        let (sk, pk) = self
            .suite
            .generate_key_pair(&mut OsRng::default())
            .map_err(error)?;
        let mut sk_bytes = sk.to_bytes();
        // Moved out, not copied: the only copy of the bytes goes to rustls, which wipes it.
        let sk_bytes = core::mem::take(&mut *sk_bytes);
        Ok((
            HpkePublicKey(pk.as_bytes().to_vec()),
            HpkePrivateKey::from(sk_bytes),
        ))
    }

    /// Never: typed-hpke is not a FIPS 140 validated module.
    fn fips(&self) -> bool {
        false
    }

    fn suite(&self) -> HpkeSuite {
        // From<u16> gives the named variant where rustls has one and `Unknown(id)` otherwise,
        // exactly what rustls' parser gives for an ECHConfig's ids, so `==` matches.
        HpkeSuite {
            kem: HpkeKem::from(self.suite.kem_id()),
            sym: HpkeSymmetricCipherSuite {
                kdf_id: HpkeKdf::from(self.suite.kdf_id()),
                aead_id: HpkeAead::from(self.suite.aead_id()),
            },
        }
    }
}

/// A sender context (RFC 9180 §5.2) behind rustls' [`HpkeSealer`].
#[derive(Debug)]
struct Sealer(suite::SenderContext);

impl HpkeSealer for Sealer {
    fn seal(&mut self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.seal(aad, plaintext).map_err(error)
    }
}

/// A receiver context (RFC 9180 §5.2) behind rustls' [`HpkeOpener`].
#[derive(Debug)]
struct Opener(suite::ReceiverContext);

impl HpkeOpener for Opener {
    fn open(&mut self, aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.open(aad, ciphertext).map_err(error)
    }
}

/// A typed-hpke error as rustls' error: a ciphertext that does not authenticate is
/// [`Error::DecryptError`]; anything else (bad key or `enc` bytes, unsupported suite, exhausted
/// sequence number) is [`Error::Other`] holding the typed-hpke error, which carries no secret
/// and no peer data.
pub fn error(e: typed_hpke::Error) -> Error {
    match e {
        typed_hpke::Error::Open => Error::DecryptError,
        other => Error::Other(OtherError(Arc::new(other))),
    }
}

/// The suite in [`ALL_SUPPORTED_SUITES`] that rustls names `suite`, if any.
pub fn find(suite: HpkeSuite) -> Option<&'static dyn Hpke> {
    ALL_SUPPORTED_SUITES
        .iter()
        .copied()
        .find(|hpke| hpke.suite() == suite)
}

macro_rules! suites {
    ($($kem:ident $kem_name:literal => [$($name:ident = $kdf:ident, $aead:ident;)*])*) => {
        $($(
            #[doc = concat!(
                "KEM ", $kem_name, ", KDF `", stringify!($kdf), "`, AEAD `", stringify!($aead), "`."
            )]
            pub static $name: &TypedHpke = &TypedHpke::of::<$kem, $kdf, $aead>();
        )*)*

        /// Every suite: the 12 KEMs typed-hpke implements (the RFC 9180 DH-KEMs, secp256k1,
        /// ML-KEM-512/768/1024, MLKEM768-P256, MLKEM1024-P384 and X-Wing) with HKDF-SHA256/384/512
        /// and AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305: 108 suites. Hand it to
        /// `rustls::client::EchConfig::new`; rustls picks the first ECHConfig one of them serves.
        pub static ALL_SUPPORTED_SUITES: &[&dyn Hpke] = &[$($($name,)*)*];
    };
}

suites! {
    DhKemP256HkdfSha256 "DHKEM(P-256, HKDF-SHA256)" => [
        DH_KEM_P256_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_P256_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_P256_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_P256_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_P256_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_P256_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_P256_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_P256_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_P256_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    DhKemP384HkdfSha384 "DHKEM(P-384, HKDF-SHA384)" => [
        DH_KEM_P384_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_P384_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_P384_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_P384_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_P384_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_P384_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_P384_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_P384_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_P384_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    DhKemP521HkdfSha512 "DHKEM(P-521, HKDF-SHA512)" => [
        DH_KEM_P521_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_P521_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_P521_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_P521_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_P521_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_P521_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_P521_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_P521_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_P521_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    DhKemSecp256k1HkdfSha256 "DHKEM(secp256k1, HKDF-SHA256)" => [
        DH_KEM_SECP256K1_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_SECP256K1_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_SECP256K1_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_SECP256K1_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_SECP256K1_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_SECP256K1_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_SECP256K1_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_SECP256K1_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_SECP256K1_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    DhKemX25519HkdfSha256 "DHKEM(X25519, HKDF-SHA256)" => [
        DH_KEM_X25519_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_X25519_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_X25519_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_X25519_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_X25519_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_X25519_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_X25519_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_X25519_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_X25519_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    DhKemX448HkdfSha512 "DHKEM(X448, HKDF-SHA512)" => [
        DH_KEM_X448_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        DH_KEM_X448_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        DH_KEM_X448_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        DH_KEM_X448_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        DH_KEM_X448_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        DH_KEM_X448_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        DH_KEM_X448_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        DH_KEM_X448_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        DH_KEM_X448_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    MlKem512 "ML-KEM-512" => [
        ML_KEM_512_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        ML_KEM_512_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        ML_KEM_512_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        ML_KEM_512_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        ML_KEM_512_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        ML_KEM_512_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        ML_KEM_512_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        ML_KEM_512_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        ML_KEM_512_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    MlKem768 "ML-KEM-768" => [
        ML_KEM_768_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        ML_KEM_768_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        ML_KEM_768_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        ML_KEM_768_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        ML_KEM_768_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        ML_KEM_768_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        ML_KEM_768_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        ML_KEM_768_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        ML_KEM_768_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    MlKem1024 "ML-KEM-1024" => [
        ML_KEM_1024_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        ML_KEM_1024_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        ML_KEM_1024_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        ML_KEM_1024_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        ML_KEM_1024_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        ML_KEM_1024_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        ML_KEM_1024_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        ML_KEM_1024_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        ML_KEM_1024_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    MlKem768P256 "MLKEM768-P256" => [
        MLKEM768_P256_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        MLKEM768_P256_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        MLKEM768_P256_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        MLKEM768_P256_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        MLKEM768_P256_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        MLKEM768_P256_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        MLKEM768_P256_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        MLKEM768_P256_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        MLKEM768_P256_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    MlKem1024P384 "MLKEM1024-P384" => [
        MLKEM1024_P384_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        MLKEM1024_P384_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        MLKEM1024_P384_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        MLKEM1024_P384_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        MLKEM1024_P384_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        MLKEM1024_P384_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        MLKEM1024_P384_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        MLKEM1024_P384_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        MLKEM1024_P384_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
    XWing "X-Wing" => [
        X_WING_HKDF_SHA256_AES_128 = HkdfSha256, Aes128Gcm;
        X_WING_HKDF_SHA256_AES_256 = HkdfSha256, Aes256Gcm;
        X_WING_HKDF_SHA256_CHACHA20_POLY1305 = HkdfSha256, ChaCha20Poly1305;
        X_WING_HKDF_SHA384_AES_128 = HkdfSha384, Aes128Gcm;
        X_WING_HKDF_SHA384_AES_256 = HkdfSha384, Aes256Gcm;
        X_WING_HKDF_SHA384_CHACHA20_POLY1305 = HkdfSha384, ChaCha20Poly1305;
        X_WING_HKDF_SHA512_AES_128 = HkdfSha512, Aes128Gcm;
        X_WING_HKDF_SHA512_AES_256 = HkdfSha512, Aes256Gcm;
        X_WING_HKDF_SHA512_CHACHA20_POLY1305 = HkdfSha512, ChaCha20Poly1305;
    ]
}
