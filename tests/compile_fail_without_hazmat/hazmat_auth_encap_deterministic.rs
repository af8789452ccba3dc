// Without the `hazmat` feature this module does not exist: the `use` of it fails, and only it
// (the call through the unresolved name reports nothing more). A `use` rather than a path in
// the call, because Rust 1.94 and later versions word a failed path differently.
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{Hpke, OsRng, Psk, aead::ChaCha20Poly1305, kdf::HkdfSha256};

type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() -> Result<(), typed_hpke::Error> {
    let mut rng = OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng)?;
    let psk = Psk::new(&[7; 32], b"id")?;
    let _ = (&psk, &mut rng);
    use typed_hpke::hazmat::auth_encap_deterministic;
    let _ = auth_encap_deterministic::<X25519>(&[0; 32], &pk, &sk);
    Ok(())
}
