// ML-KEM has no AuthEncap: the auth modes do not exist for it.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = MlKem768::generate(&mut rng).unwrap();
    let _ = Hpke::<MlKem768, HkdfSha256, Aes128Gcm>::seal_auth(&mut rng, &pk, b"", b"", b"", &sk);
}
