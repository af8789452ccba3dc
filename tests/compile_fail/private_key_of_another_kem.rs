// A private key of another KEM is a different type.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, _) = DhKemP256HkdfSha256::generate(&mut rng).unwrap();
    let (_, pk) = X25519::generate(&mut rng).unwrap();
    let (enc, ct) = Suite::seal_base(&mut rng, &pk, b"", b"", b"").unwrap();
    let _ = Suite::open_base(&enc, &sk, b"", b"", &ct);
}
