// X-Wing has no AuthEncap: no auth_psk mode either.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = XWing::generate(&mut rng).unwrap();
    let psk = typed_hpke::Psk::new(&[0; 32], b"id").unwrap();
    let _ = Hpke::<XWing, Shake256, ChaCha20Poly1305>::setup_sender_auth_psk(&mut rng, &pk, b"", &psk, &sk);
}
