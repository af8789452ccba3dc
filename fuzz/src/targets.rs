//! One function per fuzz target, taking the input libFuzzer hands the target. The binaries in
//! `fuzz_targets/` are one line over these, and `tests/corpora.rs` replays every kept corpus
//! through the same functions as an ordinary test, so CI checks the corpora in the debug build
//! the rest of the workspace's tests share, with no sanitizer build.

use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::{HkdfSha256, HkdfSha512, Shake128, Shake256, TurboShake256};
use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemX25519HkdfSha256, XWing};

use crate::{
    auth_decap, decap as decap_k, derive_key_pair as derive, derive_key_pair_auth,
    encapped_key as enc, export as exp, for_each_kem, for_each_kem_family, open as open_k,
    open_all_modes, prepared_auth, prepared_pq, private_key as sk, public_key as pk, serde_keys,
};

/// A target's function: it takes libFuzzer's input and panics only on a bug.
pub type Target = fn(&[u8]);

/// Every target: its name (the binary's, and the directory of its corpus) and its function.
pub const TARGETS: &[(&str, Target)] = &[
    ("public_key", public_key),
    ("private_key", private_key),
    ("encapped_key", encapped_key),
    ("derive_key_pair", derive_key_pair),
    ("decap", decap),
    ("open", open),
    ("context", context),
    ("key_schedule", key_schedule),
    ("export", export),
    ("suite", suite),
    ("prepared", prepared),
    ("serde", serde),
    ("rustls_provider", rustls_provider),
    ("openmls_provider", openmls_provider),
    ("mls_rs_provider", mls_rs_provider),
    #[cfg(feature = "differential")]
    ("differential", differential),
    ("ohttp", ohttp),
    ("jose", jose),
    ("cose", cose),
    ("limits", limits),
    ("held", crate::held::held),
];

pub fn public_key(data: &[u8]) {
    for_each_kem!(pk, data)
}

pub fn private_key(data: &[u8]) {
    for_each_kem!(sk, data)
}

pub fn encapped_key(data: &[u8]) {
    for_each_kem!(enc, data)
}

pub fn derive_key_pair(data: &[u8]) {
    for_each_kem_family!(derive_key_pair_auth, derive, data)
}

pub fn decap(data: &[u8]) {
    for_each_kem_family!(auth_decap, decap_k, data)
}

pub fn open(data: &[u8]) {
    for_each_kem_family!(open_all_modes, open_k, data)
}

/// The first byte picks the suite: two-stage and one-stage KDF, both AEAD families.
pub fn context(data: &[u8]) {
    let (sel, rest) = data.split_first().unwrap_or((&0, &[]));
    match sel % 4 {
        0 => crate::context::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(rest),
        1 => crate::context::<DhKemX25519HkdfSha256, Shake256, Aes128Gcm>(rest),
        2 => crate::context::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(rest),
        _ => crate::context::<XWing, Shake256, ChaCha20Poly1305>(rest),
    }
}

pub fn key_schedule(data: &[u8]) {
    crate::key_schedule(data)
}

/// The first byte picks the KDF (two-stage and one-stage) and whether the AEAD seals.
pub fn export(data: &[u8]) {
    let (sel, rest) = data.split_first().unwrap_or((&0, &[]));
    match sel % 4 {
        0 => exp::<HkdfSha256, ChaCha20Poly1305>(rest),
        1 => exp::<HkdfSha512, ExportOnly>(rest),
        2 => exp::<Shake128, ChaCha20Poly1305>(rest),
        _ => exp::<TurboShake256, ExportOnly>(rest),
    }
}

pub fn suite(data: &[u8]) {
    crate::suite(data)
}

pub fn prepared(data: &[u8]) {
    for_each_kem_family!(prepared_auth, prepared_pq, data)
}

pub fn serde(data: &[u8]) {
    for_each_kem!(serde_keys, data)
}

pub fn rustls_provider(data: &[u8]) {
    crate::integrations::rustls(data)
}

pub fn openmls_provider(data: &[u8]) {
    crate::integrations::openmls(data)
}

pub fn mls_rs_provider(data: &[u8]) {
    crate::integrations::mls_rs(data)
}

#[cfg(feature = "differential")]
pub fn differential(data: &[u8]) {
    crate::differential::differential(data)
}

pub fn ohttp(data: &[u8]) {
    crate::ohttp::ohttp(data)
}

pub fn jose(data: &[u8]) {
    crate::jose_cose::jose(data)
}

pub fn cose(data: &[u8]) {
    crate::jose_cose::cose(data)
}

pub fn limits(data: &[u8]) {
    crate::limits::limits(data)
}
