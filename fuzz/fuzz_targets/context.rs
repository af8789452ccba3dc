#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, Shake256};
use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemX25519HkdfSha256, XWing};
use typed_hpke_fuzz::context;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the suite: two-stage and one-stage KDF, both AEAD families.
    let (sel, rest) = data.split_first().unwrap_or((&0, &[]));
    match sel % 4 {
        0 => context::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(rest),
        1 => context::<DhKemX25519HkdfSha256, Shake256, Aes128Gcm>(rest),
        2 => context::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(rest),
        _ => context::<XWing, Shake256, ChaCha20Poly1305>(rest),
    }
});
