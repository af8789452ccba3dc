// The NIST hybrids have no authenticated encapsulation: no auth modes.
use typed_hpke::aead::Aes256Gcm;
use typed_hpke::kdf::HkdfSha384;
use typed_hpke::kem::{Kem, MlKem1024P384 as K};
use typed_hpke::{Hpke, OsRng};

fn main() {
    let (sk, pk) = K::derive_key_pair(&[1; 32]).unwrap();
    let _ = Hpke::<K, HkdfSha384, Aes256Gcm>::seal_auth(&mut OsRng::default(), &pk, b"", b"", b"", &sk);
}
