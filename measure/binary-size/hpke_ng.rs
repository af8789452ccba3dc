//! The announcement's minimal program on hpke-ng: generate a key, seal, open
//! (X25519, HKDF-SHA256, ChaCha20-Poly1305).
use hpke_ng::{ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256, Hpke, Kem};
use rand_core::UnwrapErr;

type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let (enc, ct) = H::seal_base(&mut rng, &pk, b"info", b"aad", b"hello, world").unwrap();
    let pt = H::open_base(&enc, &sk, b"info", b"aad", &ct).unwrap();
    assert_eq!(pt, b"hello, world");
}
