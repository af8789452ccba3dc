// A private key is not a public key: encrypting to one does not compile.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, _) = X25519::generate(&mut rng).unwrap();
    let _ = Suite::seal_base(&mut rng, &sk, b"", b"", b"");
}
