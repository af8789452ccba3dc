// A private key is wiped when dropped, and a dropped key cannot be used.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng).unwrap();
    let (_, enc) = X25519::encap(&mut rng, &pk).unwrap();
    drop(sk);
    let _ = X25519::decap(&enc, &sk);
}
