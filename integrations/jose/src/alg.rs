//! The algorithm table: draft-ietf-jose-hpke-encrypt-22 (integrated HPKE-0 … HPKE-7, key
//! encryption for HPKE-0, 1, 2, 3, 5 and 7) and
//! draft-ietf-jose-hpke-pq-pqt (HPKE-8 … HPKE-13, without HPKE-11, which JOSE leaves to COSE).
//! One row per `alg`: a newer revision that drops or adds an algorithm changes one line here.

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake256};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768, MlKem768P256, MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::suite::Suite;

use crate::Error;

/// What a JWK of an algorithm looks like (draft-ietf-jose-hpke-encrypt-20 §9; the PQ draft's
/// "JSON Web Key Representation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KeyType {
    /// `kty: "EC"` with this `crv`.
    Ec(&'static str),
    /// `kty: "OKP"` with this `crv`.
    Okp(&'static str),
    /// `kty: "AKP"` (RFC 9964 §3): `pub` / `priv` are the KEM's serialized keys.
    Akp,
}

/// An HPKE `alg` of JOSE: a KEM, a KDF, an AEAD and a mode (integrated or key encryption).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Algorithm {
    name: &'static str,
    kem_id: u16,
    kdf_id: u16,
    aead_id: u16,
    key_encryption: bool,
    key_type: KeyType,
}

const P256: KeyType = KeyType::Ec("P-256");
const P384: KeyType = KeyType::Ec("P-384");
const P521: KeyType = KeyType::Ec("P-521");
const X25519: KeyType = KeyType::Okp("X25519");
const X448: KeyType = KeyType::Okp("X448");
const AKP: KeyType = KeyType::Akp;

macro_rules! algorithms {
    ($($int:ident [$($ke:ident)?] $name:literal $kem:ident $kdf:ident $aead:ident $kty:ident;)*) => {
        impl Algorithm {
            $(
                #[doc = concat!("`", $name, "`: integrated encryption with KEM ", stringify!($kem),
                    ", KDF ", stringify!($kdf), ", AEAD ", stringify!($aead), ".")]
                pub const $int: Self = Self::row($name, <$kem as Kem>::ID, <$kdf as Kdf>::ID, <$aead as Aead>::ID, false, $kty);
                $(
                    #[doc = concat!("`", $name, "-KE`: key encryption with KEM ", stringify!($kem),
                        ", KDF ", stringify!($kdf), ", AEAD ", stringify!($aead), ".")]
                    pub const $ke: Self = Self::row(concat!($name, "-KE"), <$kem as Kem>::ID, <$kdf as Kdf>::ID, <$aead as Aead>::ID, true, $kty);
                )?
            )*
            /// Every algorithm of the table, integrated before key encryption for each suite.
            pub const ALL: &'static [Self] = &[$(Self::$int, $(Self::$ke,)?)*];
        }
    };
}

// A row is `integrated [key encryption]`; `[]` where the draft defines no key-encryption
// algorithm for the suite.
algorithms! {
    HPKE_0 [HPKE_0_KE] "HPKE-0" DhKemP256HkdfSha256 HkdfSha256 Aes128Gcm P256;
    HPKE_1 [HPKE_1_KE] "HPKE-1" DhKemP384HkdfSha384 HkdfSha384 Aes256Gcm P384;
    HPKE_2 [HPKE_2_KE] "HPKE-2" DhKemP521HkdfSha512 HkdfSha512 Aes256Gcm P521;
    HPKE_3 [HPKE_3_KE] "HPKE-3" DhKemX25519HkdfSha256 HkdfSha256 Aes128Gcm X25519;
    // -22 withdrew HPKE-4-KE and HPKE-6-KE (`WITHDRAWN`).
    HPKE_4 [] "HPKE-4" DhKemX25519HkdfSha256 HkdfSha256 ChaCha20Poly1305 X25519;
    HPKE_5 [HPKE_5_KE] "HPKE-5" DhKemX448HkdfSha512 HkdfSha512 Aes256Gcm X448;
    HPKE_6 [] "HPKE-6" DhKemX448HkdfSha512 HkdfSha512 ChaCha20Poly1305 X448;
    HPKE_7 [HPKE_7_KE] "HPKE-7" DhKemP256HkdfSha256 HkdfSha256 Aes256Gcm P256;
    // draft-ietf-jose-hpke-pq-pqt: MLKEM768-P256, X-Wing, MLKEM1024-P384, ML-KEM-768 and
    // ML-KEM-1024, each with SHAKE256 and AES-256-GCM.
    HPKE_8 [HPKE_8_KE] "HPKE-8" MlKem768P256 Shake256 Aes256Gcm AKP;
    HPKE_9 [HPKE_9_KE] "HPKE-9" XWing Shake256 Aes256Gcm AKP;
    HPKE_10 [HPKE_10_KE] "HPKE-10" MlKem1024P384 Shake256 Aes256Gcm AKP;
    HPKE_12 [HPKE_12_KE] "HPKE-12" MlKem768 Shake256 Aes256Gcm AKP;
    HPKE_13 [HPKE_13_KE] "HPKE-13" MlKem1024 Shake256 Aes256Gcm AKP;
}

/// The key-encryption algorithms draft-ietf-jose-hpke-encrypt-22 withdrew (the
/// ChaCha20-Poly1305 suites; -20 registered them): not in the table, so no key or encryptor
/// can name them, and a JWE whose only recipients use them is refused with
/// [`Error::UnsupportedAlgorithm`] rather than passed over as another algorithm's.
pub(crate) const WITHDRAWN: &[&str] = &["HPKE-4-KE", "HPKE-6-KE"];

impl Algorithm {
    const fn row(
        name: &'static str,
        kem_id: u16,
        kdf_id: u16,
        aead_id: u16,
        key_encryption: bool,
        key_type: KeyType,
    ) -> Self {
        Self {
            name,
            kem_id,
            kdf_id,
            aead_id,
            key_encryption,
            key_type,
        }
    }

    /// The algorithm named `name` (the JOSE `alg` value), if the table has it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.name == name)
    }

    /// The `alg` value.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The HPKE KEM's id.
    pub fn kem_id(&self) -> u16 {
        self.kem_id
    }

    /// The HPKE KDF's id.
    pub fn kdf_id(&self) -> u16 {
        self.kdf_id
    }

    /// The HPKE AEAD's id.
    pub fn aead_id(&self) -> u16 {
        self.aead_id
    }

    /// Key encryption (`HPKE-n-KE`, §6) rather than integrated encryption (`HPKE-n`, §5).
    pub fn is_key_encryption(&self) -> bool {
        self.key_encryption
    }

    pub(crate) fn key_type(&self) -> KeyType {
        self.key_type
    }

    pub(crate) fn suite(&self) -> Result<Suite, Error> {
        Suite::new(self.kem_id, self.kdf_id, self.aead_id).map_err(Error::from)
    }
}

/// A content encryption algorithm (`enc`) for key encryption: the AES-GCM algorithms of
/// RFC 7518 §5.3 that typed-hpke's AEADs implement (A192GCM has no HPKE AEAD).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContentEncryption {
    /// `A128GCM`.
    A128Gcm,
    /// `A256GCM`.
    A256Gcm,
}

impl ContentEncryption {
    /// The `enc` value.
    pub fn name(self) -> &'static str {
        match self {
            Self::A128Gcm => "A128GCM",
            Self::A256Gcm => "A256GCM",
        }
    }

    /// The `enc` named `name`, if this crate implements it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "A128GCM" => Some(Self::A128Gcm),
            "A256GCM" => Some(Self::A256Gcm),
            _ => None,
        }
    }

    /// The HPKE AEAD of the same cipher, whose `Seal` is this `enc`'s with a 96-bit IV.
    pub(crate) fn aead_id(self) -> u16 {
        match self {
            Self::A128Gcm => <Aes128Gcm as Aead>::ID,
            Self::A256Gcm => <Aes256Gcm as Aead>::ID,
        }
    }

    /// The CEK's length in bytes.
    pub fn key_len(self) -> usize {
        match self {
            Self::A128Gcm => 16,
            Self::A256Gcm => 32,
        }
    }
}

/// The IV of RFC 7518 §5.3: 96 bits.
pub(crate) const IV_LEN: usize = 12;
