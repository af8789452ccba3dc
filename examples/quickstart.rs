//! The first thing to run: `cargo run --release --example quickstart`.
//!
//! For the default suite (X25519, HKDF-SHA256, ChaCha20-Poly1305) and one post-quantum suite
//! (X-Wing, HKDF-SHA256, ChaCha20-Poly1305): generate a recipient key, seal a message, open it,
//! export a shared secret on both sides, and print what happened and how big everything is.

use typed_hpke::aead::{Aead, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{HkdfSha256, Kdf};
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem, XWing};
use typed_hpke::{Error, Hpke, OsRng, PrivateKey, SenderContext};

fn demo<K: Kem, F: Kdf, A: SealingAead>(name: &str) -> Result<(), Error> {
    println!(
        "== {name} (kem {:#06x}, kdf {:#06x}, aead {:#06x})",
        K::ID,
        F::ID,
        A::ID
    );
    let mut rng = OsRng::default();

    // The recipient makes a key pair and publishes the public key.
    let (sk, pk) = K::generate(&mut rng)?;
    println!(
        "recipient key pair: public key {} bytes, private key {} bytes serialized ({} in memory)",
        pk.as_bytes().len(),
        sk.to_bytes().len(),
        size_of::<PrivateKey<K>>()
    );

    // Single-shot: one message, no state kept.
    let msg = b"hello, HPKE";
    let (enc, ct) = Hpke::<K, F, A>::seal_base(&mut rng, &pk, b"quickstart", b"header", msg)?;
    println!(
        "sealed {} bytes: enc {} bytes + ciphertext {} bytes",
        msg.len(),
        enc.as_bytes().len(),
        ct.len()
    );
    let pt = Hpke::<K, F, A>::open_base(&enc, &sk, b"quickstart", b"header", &ct)?;
    assert_eq!(pt, msg);
    println!("opened: {:?}", String::from_utf8_lossy(&pt));

    // A tampered ciphertext does not open.
    let mut bad = ct.clone();
    bad[0] ^= 1;
    assert_eq!(
        Hpke::<K, F, A>::open_base(&enc, &sk, b"quickstart", b"header", &bad),
        Err(Error::Open)
    );
    println!("a ciphertext with one bit flipped is rejected");

    // Contexts: several messages in order, and exported secrets.
    let (enc, mut sender) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &pk, b"quickstart")?;
    let mut receiver = Hpke::<K, F, A>::setup_receiver_base(&enc, &sk, b"quickstart")?;
    for i in 0..3u8 {
        let ct = sender.seal(b"", &[i; 16])?;
        assert_eq!(receiver.open(b"", &ct)?, [i; 16]);
    }
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    sender.export(b"session key", &mut a)?;
    receiver.export(b"session key", &mut b)?;
    assert_eq!(a, b);
    println!(
        "3 messages through a context ({} bytes); both sides exported the same 32-byte secret",
        size_of::<SenderContext<K, F, A>>()
    );
    println!();
    Ok(())
}

fn main() -> Result<(), Error> {
    demo::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(
        "X25519 + HKDF-SHA256 + ChaCha20-Poly1305",
    )?;
    demo::<XWing, HkdfSha256, ChaCha20Poly1305>(
        "X-Wing (ML-KEM-768 + X25519) + HKDF-SHA256 + ChaCha20-Poly1305",
    )?;
    println!(
        "`Hpke<K, F, A>` itself is {} bytes: the suite lives in the type.",
        size_of::<Hpke<XWing, HkdfSha256, ChaCha20Poly1305>>()
    );
    let _ = <ChaCha20Poly1305 as Aead>::ID;
    Ok(())
}
