// Without the `hazmat` feature this entry point does not exist: the last line fails, and only it.
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{Hpke, OsRng, Psk, aead::ChaCha20Poly1305, kdf::HkdfSha256};

type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() -> Result<(), typed_hpke::Error> {
    let mut rng = OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng)?;
    let psk = Psk::new(&[7; 32], b"id")?;
    let _ = (&sk, &mut rng);
    let _ = Suite::setup_sender_psk_deterministic_for_testing_only(&[0; 32], &pk, b"", &psk);
    Ok(())
}
