//! DHKEM(P-256, HKDF-SHA256) 0x0010, DHKEM(P-384, HKDF-SHA384) 0x0011 and
//! DHKEM(P-521, HKDF-SHA512) 0x0012 (RFC 9180 §7.1).

use hybrid_array::typenum::{U32, U48, U64};

use super::dhkem::DhKem;
use super::weierstrass::WeierstrassKem;

macro_rules! nist_kem {
    ($(#[$gdoc:meta])* $group:ident, $(#[$kdoc:meta])* $kem:ident,
     $curve:ty, $id:literal, $mask:literal, $hash:ty, $nsecret:ty) => {
        $(#[$gdoc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $group;

        $(#[$kdoc])*
        pub type $kem = DhKem<$group>;

        impl crate::sealed::Sealed for $group {}

        impl WeierstrassKem for $group {
            type Curve = $curve;
            const KEM_ID: u16 = $id;
            const BITMASK: u8 = $mask;
            type Hash = $hash;
            type NSecret = $nsecret;
            runtime_keys!(DhKem<$group>, $group);
        }
    };
}

nist_kem!(
    /// The NIST P-256 group. The KEM is [`DhKemP256HkdfSha256`].
    P256,
    /// DHKEM(P-256, HKDF-SHA256), `kem_id` 0x0010: Nsecret 32, Nenc 65, Npk 65, Nsk 32.
    DhKemP256HkdfSha256, p256::NistP256, 0x0010, 0xff, sha2::Sha256, U32
);
nist_kem!(
    /// The NIST P-384 group. The KEM is [`DhKemP384HkdfSha384`].
    P384,
    /// DHKEM(P-384, HKDF-SHA384), `kem_id` 0x0011: Nsecret 48, Nenc 97, Npk 97, Nsk 48.
    DhKemP384HkdfSha384, p384::NistP384, 0x0011, 0xff, sha2::Sha384, U48
);
nist_kem!(
    /// The NIST P-521 group. The KEM is [`DhKemP521HkdfSha512`].
    P521,
    /// DHKEM(P-521, HKDF-SHA512), `kem_id` 0x0012: Nsecret 64, Nenc 133, Npk 133, Nsk 66.
    DhKemP521HkdfSha512, p521::NistP521, 0x0012, 0x01, sha2::Sha512, U64
);
