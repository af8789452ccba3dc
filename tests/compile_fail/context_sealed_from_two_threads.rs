// Sealing takes the context `&mut`: two threads cannot seal on one context at once, so they
// cannot both read the same sequence number and seal under the same nonce (the race hpke-js
// shipped, CVE-2025-64767). The runtime context's `seal` takes `&mut self` too.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (_, pk) = X25519::generate(&mut rng).unwrap();
    let (_, mut ctx) = Suite::setup_sender_base(&mut rng, &pk, b"").unwrap();
    std::thread::scope(|s| {
        s.spawn(|| ctx.seal(b"", b"one"));
        s.spawn(|| ctx.seal(b"", b"two"));
    });
}
