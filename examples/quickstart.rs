//! Generate a key, seal, open, export: `cargo run --release --example quickstart`.

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{Hpke, OsRng};

type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;

fn main() -> Result<(), typed_hpke::Error> {
    let mut rng = OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng);
    println!("recipient public key: {} bytes", pk.as_bytes().len());

    let (enc, ct) = Suite::seal_base(&mut rng, &pk, b"quickstart", b"header", b"hello, HPKE")?;
    println!(
        "enc: {} bytes, ciphertext: {} bytes",
        enc.as_bytes().len(),
        ct.len()
    );

    let pt = Suite::open_base(&enc, &sk, b"quickstart", b"header", &ct)?;
    assert_eq!(pt, b"hello, HPKE");
    println!("opened: {}", String::from_utf8_lossy(&pt));

    let (enc, sender) = Suite::setup_sender_base(&mut rng, &pk, b"quickstart")?;
    let receiver = Suite::setup_receiver_base(&enc, &sk, b"quickstart")?;
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    sender.export(b"session key", &mut a)?;
    receiver.export(b"session key", &mut b)?;
    assert_eq!(a, b);
    println!("both sides exported the same 32-byte secret");
    Ok(())
}
