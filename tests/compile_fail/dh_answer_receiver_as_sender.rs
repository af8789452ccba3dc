// The answers a receiver's holder gave for `AuthDecap` include `DH(skR, pkS)`, which is also
// what `AuthEncap(pkS, skR)` needs. A receiver's `DhAnswer` is not an `AuthEncapKey`, so a
// worker handed answers to decrypt cannot send messages authenticated as the receiver.
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, DhRequest, EncappedKey};
use typed_hpke::{Hpke, OsRng, PublicKey};

fn send_as_receiver(
    enc: &EncappedKey<X25519>,
    pk_r: &PublicKey<X25519>,
    pk_s: &PublicKey<X25519>,
    dh: &[&[u8]],
) {
    type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
    let answer = DhRequest::auth_decap(enc, pk_r, pk_s).unwrap().answer(dh).unwrap();
    let _ = S::seal_auth(&mut OsRng::default(), pk_s, b"info", b"", b"forged", &answer);
}

fn main() {}
