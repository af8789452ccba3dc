//! What the test files share.

use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};

/// Every KEM typed-hpke has, by id.
pub const KEMS: [u16; 12] = [
    DhKemX25519HkdfSha256::ID,
    DhKemX448HkdfSha512::ID,
    DhKemP256HkdfSha256::ID,
    DhKemP384HkdfSha384::ID,
    DhKemP521HkdfSha512::ID,
    DhKemSecp256k1HkdfSha256::ID,
    MlKem512::ID,
    MlKem768::ID,
    MlKem1024::ID,
    XWing::ID,
    MlKem768P256::ID,
    MlKem1024P384::ID,
];
