//! The dispatchers that turn a [`Suite`]'s ids into a caller's `visit::<K, F, A>()`, and the id
//! checks of [`Suite::new`], both generated from the table (`table.rs`). The dispatchers are
//! generic over the visitor, so they are compiled only in a crate that calls
//! [`Suite::visit`] (and its three siblings) with a visitor of its own; the runtime API's own
//! functions dispatch one component at a time (`steps.rs`).

// A build without any KEM feature makes the key types uninhabited, and leaves parts of the
// dispatchers unused.
#![allow(unreachable_code, unused_variables)]

use super::{AuthSealingVisitor, AuthVisitor, SealingVisitor, Suite, Visitor};
use crate::Error;
use crate::aead::{Aead, ExportOnly};
use crate::kdf::Kdf;
use crate::kem::{AuthKem, Kem};

/// Generates one dispatcher: `kem_id` -> `kdf_id` -> `aead_id` -> `visitor.visit::<K, F, A>()`.
/// The KEM and AEAD lists are the ones the visitor's bounds admit (`$kbound` is the KEM's);
/// everything else is
/// `UnsupportedOperation` (the ids were validated by `Suite::new`).
macro_rules! dispatcher {
    (
        $name:ident, $visitor:ident, $kbound:path,
        kems: [$($(#[$kcfg:meta])* $k:ty),* $(,)?],
        kdfs: [$($f:ty),* $(,)?],
        aeads: [$($(#[$acfg:meta])* $a:ty),* $(,)?]
    ) => {
        #[allow(dead_code)]
        pub(super) fn $name<V: $visitor>(suite: &Suite, v: V) -> Result<V::Output, Error> {
            #[allow(dead_code)]
            #[inline(never)] // see `by_kdf`
            fn by_aead<K: $kbound, F: Kdf, V: $visitor>(aead: u16, v: V) -> Result<V::Output, Error> {
                match aead {
                    $($(#[$acfg])* <$a as Aead>::ID => Ok(v.visit::<K, F, $a>()),)*
                    _ => Err(Error::UnsupportedOperation),
                }
            }
            #[allow(dead_code)]
            // `inline(never)` here and on `by_aead`: a frame holds one suite's locals (at most
            // five visits, one per AEAD), not all of them. Inlined into one function, the 420
            // suites' key buffers took more than the 8 MiB main-thread stack under
            // AddressSanitizer, which gives every local its own slot (no stack colouring).
            #[inline(never)]
            fn by_kdf<K: $kbound, V: $visitor>(kdf: u16, aead: u16, v: V) -> Result<V::Output, Error> {
                match kdf {
                    $(<$f as Kdf>::ID => by_aead::<K, $f, V>(aead, v),)*
                    _ => Err(Error::UnsupportedSuite),
                }
            }
            match suite.kem_id() {
                $($(#[$kcfg])* <$k as Kem>::ID => by_kdf::<$k, V>(suite.kdf_id(), suite.aead_id(), v),)*
                _ => Err(Error::UnsupportedOperation),
            }
        }
    };
}

/// The four dispatchers and the three id checks, from the table.
macro_rules! dispatchers {
    (
        dh_kems: [$($(#[$dcfg:meta])* $dv:ident: $dk:ty),* $(,)?],
        other_kems: [$($(#[$ocfg:meta])* $ov:ident: $ok:ty),* $(,)?],
        two_stage_kdfs: [$($fv:ident: $f:ty),* $(,)?],
        one_stage_kdfs: [$($f1v:ident: $f1:ty),* $(,)?],
        sealing_aeads: [$($(#[$scfg:meta])* $sv:ident: $sa:ty),* $(,)?] $(,)?
    ) => {
        dispatcher!(dispatch_all, Visitor, Kem,
            kems: [$($(#[$dcfg])* $dk,)* $($(#[$ocfg])* $ok,)*],
            kdfs: [$($f,)* $($f1,)*],
            aeads: [$($(#[$scfg])* $sa,)* ExportOnly]);
        dispatcher!(dispatch_sealing, SealingVisitor, Kem,
            kems: [$($(#[$dcfg])* $dk,)* $($(#[$ocfg])* $ok,)*],
            kdfs: [$($f,)* $($f1,)*],
            aeads: [$($(#[$scfg])* $sa,)*]);
        dispatcher!(dispatch_auth, AuthVisitor, AuthKem,
            kems: [$($(#[$dcfg])* $dk,)*],
            kdfs: [$($f,)* $($f1,)*],
            aeads: [$($(#[$scfg])* $sa,)* ExportOnly]);
        dispatcher!(dispatch_auth_sealing, AuthSealingVisitor, AuthKem,
            kems: [$($(#[$dcfg])* $dk,)*],
            kdfs: [$($f,)* $($f1,)*],
            aeads: [$($(#[$scfg])* $sa,)*]);

        /// Whether this build has the KEM, the KDF and the AEAD.
        pub(super) fn supported(kem_id: u16, kdf_id: u16, aead_id: u16) -> bool {
            let kem = match kem_id {
                $($(#[$dcfg])* <$dk as Kem>::ID => true,)*
                $($(#[$ocfg])* <$ok as Kem>::ID => true,)*
                _ => false,
            };
            let kdf = match kdf_id {
                $(<$f as Kdf>::ID => true,)*
                $(<$f1 as Kdf>::ID => true,)*
                _ => false,
            };
            let aead = match aead_id {
                $($(#[$scfg])* <$sa as Aead>::ID => true,)*
                ExportOnly::ID => true,
                _ => false,
            };
            kem && kdf && aead
        }
    };
}

suite_table!(dispatchers);
