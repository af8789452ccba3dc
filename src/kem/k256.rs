//! DHKEM(secp256k1, HKDF-SHA256), `kem_id` 0x0016 (draft-wahby-cfrg-hpke-kem-secp256k1),
//! built exactly like the NIST DH-KEMs of RFC 9180 §7.1.

use hybrid_array::typenum::U32;

use super::dhkem::DhKem;
use super::weierstrass::WeierstrassKem;

/// The secp256k1 group. The KEM is [`DhKemSecp256k1HkdfSha256`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Secp256k1;

/// DHKEM(secp256k1, HKDF-SHA256), `kem_id` 0x0016: Nsecret 32, Nenc 65, Npk 65, Nsk 32.
pub type DhKemSecp256k1HkdfSha256 = DhKem<Secp256k1>;

impl crate::sealed::Sealed for Secp256k1 {}

impl WeierstrassKem for Secp256k1 {
    type Curve = k256::Secp256k1;
    const KEM_ID: u16 = 0x0016;
    const BITMASK: u8 = 0xff;
    type Hash = sha2::Sha256;
    type NSecret = U32;
    type Accel = super::weierstrass::Portable;
}
