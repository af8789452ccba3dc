//! Every KEM of the crate, for tests that run one generic function over all of them.

/// Calls `$f::<K>()` for each of the six DH-KEMs, the KEMs with the authenticated modes.
#[allow(unused_macros)]
macro_rules! for_each_dh_kem {
    ($f:ident) => {{
        use typed_hpke::kem::*;
        $f::<DhKemX25519HkdfSha256>();
        $f::<DhKemX448HkdfSha512>();
        $f::<DhKemP256HkdfSha256>();
        $f::<DhKemP384HkdfSha384>();
        $f::<DhKemP521HkdfSha512>();
        $f::<DhKemSecp256k1HkdfSha256>();
    }};
}

/// Calls `$f::<K>()` for each of the twelve KEMs, in `kem_id` order of family.
macro_rules! for_each_kem {
    ($f:ident) => {{
        for_each_dh_kem!($f);
        use typed_hpke::kem::*;
        $f::<MlKem512>();
        $f::<MlKem768>();
        $f::<MlKem1024>();
        $f::<XWing>();
        $f::<MlKem768P256>();
        $f::<MlKem1024P384>();
    }};
}
