// An X25519 key is not an X-Wing key, even though X-Wing contains X25519.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (_, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let _ = Hpke::<XWing, HkdfSha256, ChaCha20Poly1305>::seal_base(&mut rng, &pk, b"", b"", b"");
}
