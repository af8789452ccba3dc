// The raw key schedule is sealed: it would skip VerifyPSKInputs (an empty PSK in PSK mode).
use typed_hpke::kdf::{HkdfSha256, Kdf};

fn through_a_bound<F: Kdf>() {
    let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
    let _ = F::key_schedule(b"HPKE", 1, &[0; 32], b"", b"", b"", &mut key, &mut nonce, None);
}

fn through_the_engine<F: Kdf>() {
    let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
    let _ = F::Engine::key_schedule(b"HPKE", 1, &[0; 32], b"", b"", b"", &mut key, &mut nonce, &mut ());
}

fn main() {
    let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
    let _ = HkdfSha256::key_schedule(b"HPKE", 1, &[0; 32], b"", b"", b"", &mut key, &mut nonce, None);
}
