//! The runtime API's one table: every KEM, KDF and AEAD it dispatches to, by type, with the
//! cargo feature each needs. The ids are the types' own (`Kem::ID`, `Kdf::ID`, `Aead::ID`),
//! written once where each algorithm is defined. What lists the algorithms (the dispatchers
//! and id checks in `visitors.rs`, the runtime enums and their matches in `any.rs`) is
//! generated from this table, so none can leave one out.

/// Calls `$callback! { $($prefix)* <the table> }`. The prefix lets a callback that defines a
/// macro receive a `$` to write it with (`suite_table!(any_types, $)`).
macro_rules! suite_table {
    ($callback:ident $(, $prefix:tt)*) => {
        $callback! {
            $($prefix)*
            // Every mode, authenticated encapsulation included.
            dh_kems: [
                #[cfg(feature = "nist")] P256: crate::kem::DhKemP256HkdfSha256,
                #[cfg(feature = "nist")] P384: crate::kem::DhKemP384HkdfSha384,
                #[cfg(feature = "nist")] P521: crate::kem::DhKemP521HkdfSha512,
                #[cfg(feature = "secp256k1")] Secp256k1: crate::kem::DhKemSecp256k1HkdfSha256,
                #[cfg(feature = "x25519")] X25519: crate::kem::DhKemX25519HkdfSha256,
                #[cfg(feature = "x448")] X448: crate::kem::DhKemX448HkdfSha512,
            ],
            // Base and PSK modes only.
            other_kems: [
                #[cfg(feature = "pq")] MlKem512: crate::kem::MlKem512,
                #[cfg(feature = "pq")] MlKem768: crate::kem::MlKem768,
                #[cfg(feature = "pq")] MlKem1024: crate::kem::MlKem1024,
                #[cfg(all(feature = "pq", feature = "nist"))] MlKem768P256: crate::kem::MlKem768P256,
                #[cfg(all(feature = "pq", feature = "nist"))] MlKem1024P384: crate::kem::MlKem1024P384,
                #[cfg(all(feature = "pq", feature = "x25519"))] XWing: crate::kem::XWing,
            ],
            // HKDF: `Extract` and `Expand` (`kdf::TwoStageKdf`), which `suite::Prk` offers too.
            two_stage_kdfs: [
                HkdfSha256: crate::kdf::HkdfSha256,
                HkdfSha384: crate::kdf::HkdfSha384,
                HkdfSha512: crate::kdf::HkdfSha512,
            ],
            // draft-ietf-hpke-hpke's `LabeledDerive` KDFs.
            one_stage_kdfs: [
                Shake128: crate::kdf::Shake128,
                Shake256: crate::kdf::Shake256,
                TurboShake128: crate::kdf::TurboShake128,
                TurboShake256: crate::kdf::TurboShake256,
            ],
            // The AEADs that seal. ExportOnly, always built and never sealing, is the one more.
            sealing_aeads: [
                #[cfg(feature = "aes-gcm")] Aes128Gcm: crate::aead::Aes128Gcm,
                #[cfg(feature = "aes-gcm")] Aes256Gcm: crate::aead::Aes256Gcm,
                #[cfg(feature = "chacha20poly1305")] ChaCha20Poly1305: crate::aead::ChaCha20Poly1305,
            ],
        }
    };
}
