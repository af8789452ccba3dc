//! The announcement's minimal program on rust-hpke (`hpke`): generate a key, seal, open
//! (X25519, HKDF-SHA256, ChaCha20-Poly1305).
use hpke::aead::ChaCha20Poly1305;
use hpke::kdf::HkdfSha256;
use hpke::kem::X25519HkdfSha256;
use hpke::{Kem, OpModeR, OpModeS};

fn main() {
    let (sk, pk) = X25519HkdfSha256::gen_keypair();
    let (enc, ct) = hpke::single_shot_seal::<ChaCha20Poly1305, HkdfSha256, X25519HkdfSha256>(
        &OpModeS::Base, &pk, b"info", b"hello, world", b"aad",
    )
    .unwrap();
    let pt = hpke::single_shot_open::<ChaCha20Poly1305, HkdfSha256, X25519HkdfSha256>(
        &OpModeR::Base, &sk, &enc, b"info", &ct, b"aad",
    )
    .unwrap();
    assert_eq!(pt, b"hello, world");
}
