//! Every KEM of the build, for tests that run one generic function over all of them: the
//! library's own list (`suite::AnyKem::all`), not a copy of it.

/// Calls `$f::<K>()` for each DH-KEM of the build, the KEMs with the authenticated modes.
#[allow(unused_macros)]
macro_rules! for_each_dh_kem {
    ($f:ident) => {{
        struct Each;
        impl typed_hpke::suite::AuthKemVisitor for Each {
            type Output = ();
            fn visit<K: typed_hpke::kem::AuthKem>(self) {
                $f::<K>();
            }
        }
        let mut count = 0;
        for kem in typed_hpke::suite::AnyKem::all().filter(|k| k.supports_auth()) {
            kem.visit_auth(Each).unwrap();
            count += 1;
        }
        assert!(count > 0, "no DH-KEM in this build");
    }};
}

/// Calls `$f::<K>()` for each KEM of the build, in the order of `AnyKem::all`; with `where`,
/// for each KEM that `$keep` keeps, of which there must be one.
#[allow(unused_macros)]
macro_rules! for_each_kem {
    ($f:ident) => {
        for_each_kem!($f where |_| true)
    };
    ($f:ident where $keep:expr) => {{
        struct Each;
        impl typed_hpke::suite::KemVisitor for Each {
            type Output = ();
            fn visit<K: typed_hpke::kem::Kem>(self) {
                $f::<K>();
            }
        }
        let keep: fn(&typed_hpke::suite::AnyKem) -> bool = $keep;
        let mut count = 0;
        for kem in typed_hpke::suite::AnyKem::all().filter(keep) {
            kem.visit(Each);
            count += 1;
        }
        assert!(count > 0, "no KEM of this kind in this build");
    }};
}

/// Calls `$f::<K>()` for each KEM of the build without the authenticated modes: ML-KEM and the
/// hybrids, the KEMs with an ML-KEM inside (every KEM of the library is a DH-KEM or one of
/// these).
#[allow(unused_macros)]
macro_rules! for_each_ml_kem {
    ($f:ident) => {
        for_each_kem!($f where |kem| !kem.supports_auth())
    };
}
