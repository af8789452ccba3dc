// ExportOnly has no open either.
use typed_hpke::aead::ExportOnly;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X, Kem};
use typed_hpke::{EncappedKey, Hpke};

fn main() {
    let (sk, _) = X::derive_key_pair(&[1; 32]).unwrap();
    let enc = EncappedKey::<X>::from_bytes(&[9; 32]).unwrap();
    let _ = Hpke::<X, HkdfSha256, ExportOnly>::open_base(&enc, &sk, b"", b"", b"");
}
