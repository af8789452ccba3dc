// Without the `hazmat` feature there is no door at all: no `hazmat` module, no deterministic
// setup, no sequence-number control.
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{Hpke, aead::ChaCha20Poly1305, kdf::HkdfSha256};

fn main() {
    let (_, pk) = X25519::derive_key_pair(&[1; 32]).unwrap();
    let _ = typed_hpke::hazmat::encap_deterministic::<X25519>(&[0; 32], &pk);
    let (_, mut ctx) =
        Hpke::<X25519, HkdfSha256, ChaCha20Poly1305>::setup_sender_base_deterministic_for_testing_only(
            &[0; 32], &pk, b"",
        )
        .unwrap();
    ctx.set_sequence_number_for_testing_only(7);
}
