//! The algorithm table: draft-ietf-cose-hpke-27 §4 and §7.2 (HPKE-0 … HPKE-7, values 35 … 53)
//! and draft-reddy-cose-hpke-pq-pqt (HPKE-8 … HPKE-13, values 54 … 65). Every value is the
//! drafts' "TBD (Assumed: n)": when IANA assigns the final ones, each changes in one place,
//! the `algorithms!` rows below.

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake256};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::suite::Suite;

use crate::Error;

/// What a COSE_Key of an algorithm looks like (§3.4; the PQ draft's "COSE_Key
/// Representation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KeyType {
    /// kty EC2 (2) with this `crv` (1 P-256, 2 P-384, 3 P-521).
    Ec2(i64),
    /// kty OKP (1) with this `crv` (4 X25519, 5 X448).
    Okp(i64),
    /// kty AKP (7): `pub` (-1) and `priv` (-2) are the KEM's serialized keys.
    Akp,
}

/// An HPKE algorithm of COSE: a KEM, a KDF, an AEAD and a mode (integrated, COSE_Encrypt0; or
/// key encryption, a COSE_Recipient of COSE_Encrypt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Algorithm {
    name: &'static str,
    value: i64,
    kem_id: u16,
    kdf_id: u16,
    aead_id: u16,
    key_encryption: bool,
    key_type: KeyType,
}

const P256: KeyType = KeyType::Ec2(1);
const P384: KeyType = KeyType::Ec2(2);
const P521: KeyType = KeyType::Ec2(3);
const X25519: KeyType = KeyType::Okp(4);
const X448: KeyType = KeyType::Okp(5);
const AKP: KeyType = KeyType::Akp;

macro_rules! algorithms {
    ($($int:ident $int_value:literal $ke:ident $ke_value:literal $name:literal $kem:ident $kdf:ident $aead:ident $kty:ident;)*) => {
        impl Algorithm {
            $(
                #[doc = concat!("`", $name, "` (assumed value ", stringify!($int_value),
                    "): integrated encryption with KEM ", stringify!($kem), ", KDF ",
                    stringify!($kdf), ", AEAD ", stringify!($aead), ".")]
                pub const $int: Self = Self::row($name, $int_value, <$kem as Kem>::ID, <$kdf as Kdf>::ID, <$aead as Aead>::ID, false, $kty);
                #[doc = concat!("`", $name, "-KE` (assumed value ", stringify!($ke_value),
                    "): key encryption with KEM ", stringify!($kem), ", KDF ",
                    stringify!($kdf), ", AEAD ", stringify!($aead), ".")]
                pub const $ke: Self = Self::row(concat!($name, "-KE"), $ke_value, <$kem as Kem>::ID, <$kdf as Kdf>::ID, <$aead as Aead>::ID, true, $kty);
            )*
            /// Every algorithm of the table, integrated before key encryption for each suite.
            pub const ALL: &'static [Self] = &[$(Self::$int, Self::$ke),*];
        }
    };
}

algorithms! {
    HPKE_0 35 HPKE_0_KE 46 "HPKE-0" DhKemP256HkdfSha256 HkdfSha256 Aes128Gcm P256;
    HPKE_1 37 HPKE_1_KE 47 "HPKE-1" DhKemP384HkdfSha384 HkdfSha384 Aes256Gcm P384;
    HPKE_2 39 HPKE_2_KE 48 "HPKE-2" DhKemP521HkdfSha512 HkdfSha512 Aes256Gcm P521;
    HPKE_3 41 HPKE_3_KE 49 "HPKE-3" DhKemX25519HkdfSha256 HkdfSha256 Aes128Gcm X25519;
    HPKE_4 42 HPKE_4_KE 50 "HPKE-4" DhKemX25519HkdfSha256 HkdfSha256 ChaCha20Poly1305 X25519;
    HPKE_5 43 HPKE_5_KE 51 "HPKE-5" DhKemX448HkdfSha512 HkdfSha512 Aes256Gcm X448;
    HPKE_6 44 HPKE_6_KE 52 "HPKE-6" DhKemX448HkdfSha512 HkdfSha512 ChaCha20Poly1305 X448;
    HPKE_7 45 HPKE_7_KE 53 "HPKE-7" DhKemP256HkdfSha256 HkdfSha256 Aes256Gcm P256;
    // draft-reddy-cose-hpke-pq-pqt: MLKEM768-P256, X-Wing, MLKEM1024-P384, ML-KEM-512,
    // ML-KEM-768, ML-KEM-1024, each with SHAKE256.
    HPKE_8 54 HPKE_8_KE 55 "HPKE-8" MlKem768P256 Shake256 Aes256Gcm AKP;
    HPKE_9 56 HPKE_9_KE 57 "HPKE-9" XWing Shake256 Aes256Gcm AKP;
    HPKE_10 58 HPKE_10_KE 59 "HPKE-10" MlKem1024P384 Shake256 Aes256Gcm AKP;
    HPKE_11 60 HPKE_11_KE 61 "HPKE-11" MlKem512 Shake256 Aes128Gcm AKP;
    HPKE_12 62 HPKE_12_KE 63 "HPKE-12" MlKem768 Shake256 Aes256Gcm AKP;
    HPKE_13 64 HPKE_13_KE 65 "HPKE-13" MlKem1024 Shake256 Aes256Gcm AKP;
}

impl Algorithm {
    const fn row(
        name: &'static str,
        value: i64,
        kem_id: u16,
        kdf_id: u16,
        aead_id: u16,
        key_encryption: bool,
        key_type: KeyType,
    ) -> Self {
        Self {
            name,
            value,
            kem_id,
            kdf_id,
            aead_id,
            key_encryption,
            key_type,
        }
    }

    /// The algorithm of COSE value `value`, if the table has it.
    pub fn from_value(value: i64) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.value == value)
    }

    /// The algorithm named `name` (`HPKE-0`, `HPKE-0-KE`, …).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.name == name)
    }

    /// The name the drafts give it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The COSE algorithm value (assumed until IANA assigns it).
    pub fn value(&self) -> i64 {
        self.value
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

    /// Key encryption (`HPKE-n-KE`, §3.3) rather than integrated encryption (§3.2).
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

/// A layer-0 content encryption algorithm of COSE_Encrypt (RFC 9053 §4.1, §4.3), each run
/// by the HPKE AEAD of the same cipher. A192GCM has no HPKE AEAD and is not offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContentAlgorithm {
    /// A128GCM (1).
    A128Gcm,
    /// A256GCM (3).
    A256Gcm,
    /// ChaCha20/Poly1305 (24).
    ChaCha20Poly1305,
}

impl ContentAlgorithm {
    /// Every content algorithm this crate runs, in the order of their values.
    pub const ALL: &'static [Self] = &[Self::A128Gcm, Self::A256Gcm, Self::ChaCha20Poly1305];

    /// The algorithm's facts, written once: its name and value in the COSE Algorithms registry
    /// (RFC 9053 §4.1, §4.3), the HPKE AEAD that runs it, and its key length in bytes.
    const fn row(self) -> (&'static str, i64, u16, usize) {
        match self {
            Self::A128Gcm => ("A128GCM", 1, <Aes128Gcm as Aead>::ID, 16),
            Self::A256Gcm => ("A256GCM", 3, <Aes256Gcm as Aead>::ID, 32),
            Self::ChaCha20Poly1305 => ("ChaCha20/Poly1305", 24, <ChaCha20Poly1305 as Aead>::ID, 32),
        }
    }

    /// The registry's name (`A128GCM`, `A256GCM`, `ChaCha20/Poly1305`), as
    /// `typed_hpke_jose::ContentEncryption::name` gives JOSE's `enc`.
    pub fn name(self) -> &'static str {
        self.row().0
    }

    /// The algorithm named `name` in the registry, if this crate implements it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.name() == name)
    }

    /// The COSE algorithm value.
    pub fn value(self) -> i64 {
        self.row().1
    }

    /// The algorithm of COSE value `value`, if this crate implements it.
    pub fn from_value(value: i64) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.value() == value)
    }

    pub(crate) fn aead_id(self) -> u16 {
        self.row().2
    }

    /// The CEK's length in bytes.
    pub fn key_len(self) -> usize {
        self.row().3
    }
}

/// The IV of every layer-0 algorithm here: 96 bits (RFC 9053 §4.1, §4.3).
pub(crate) const IV_LEN: usize = 12;
