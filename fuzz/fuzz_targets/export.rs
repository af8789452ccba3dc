#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke::aead::{ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::{HkdfSha256, HkdfSha512, Shake128, TurboShake256};
use typed_hpke_fuzz::export;

fuzz_target!(|data: &[u8]| {
    let (sel, rest) = data.split_first().unwrap_or((&0, &[]));
    match sel % 4 {
        0 => export::<HkdfSha256, ChaCha20Poly1305>(rest),
        1 => export::<HkdfSha512, ExportOnly>(rest),
        2 => export::<Shake128, ChaCha20Poly1305>(rest),
        _ => export::<TurboShake256, ExportOnly>(rest),
    }
});
