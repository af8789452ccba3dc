// A sender context cannot open.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (_, pk) = X25519::generate(&mut rng).unwrap();
    let (_, mut ctx) = Suite::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let _ = ctx.open(b"", b"");
}
