// The NIST hybrids have no AuthDecap either.
use typed_hpke::{Hpke, aead::*, kdf::*, kem::*};
fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = MlKem1024P384::generate(&mut rng).unwrap();
    let (_, enc) = MlKem1024P384::encap(&mut rng, &pk).unwrap();
    let _ = Hpke::<MlKem1024P384, HkdfSha384, Aes256Gcm>::setup_receiver_auth(&enc, &sk, b"", &pk);
}
