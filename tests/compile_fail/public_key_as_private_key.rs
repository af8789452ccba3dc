// The auth-mode sender must present its private key, not a public one.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (_, pk_r) = X25519::generate(&mut rng).unwrap();
    let (_, pk_s) = X25519::generate(&mut rng).unwrap();
    let _ = Suite::seal_auth(&mut rng, &pk_r, b"", b"", b"", &pk_s);
}
