// The primitive traits are sealed: no outside type can pose as an AEAD.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
type X25519 = DhKemX25519HkdfSha256;
type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

struct MyAead;
impl Aead for MyAead {
    const ID: u16 = 0x1234;
    type Nk = typed_hpke::hybrid_array::typenum::U16;
    type Nn = typed_hpke::hybrid_array::typenum::U12;
    type Cipher = ();
    fn new_cipher(_: &typed_hpke::hybrid_array::Array<u8, Self::Nk>) {}
}
fn main() {}
