//! The announcement's minimal program on typed-hpke: generate a key, seal, open
//! (X25519, HKDF-SHA256, ChaCha20-Poly1305).
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem};
use typed_hpke::{Hpke, OsRng};

type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = OsRng::default();
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let (enc, ct) = H::seal_base(&mut rng, &pk, b"info", b"aad", b"hello, world").unwrap();
    let pt = H::open_base(&enc, &sk, b"info", b"aad", &ct).unwrap();
    assert_eq!(pt, b"hello, world");
}
