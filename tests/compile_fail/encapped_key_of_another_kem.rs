// An encapsulated key of another KEM is a different type.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, _) = X25519::generate(&mut rng).unwrap();
    let enc = EncappedKey::<DhKemX448HkdfSha512>::from_bytes(&[0; 56]).unwrap();
    let _ = Suite::open_base(&enc, &sk, b"", b"", b"");
}
use typed_hpke::EncappedKey;
