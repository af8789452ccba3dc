//! Key types: what a user can and cannot see or do with them.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn key_behaviour<K: Kem>() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x6b657973);
    let (sk, pk) = K::generate(&mut rng);
    let (other_sk, other_pk) = K::generate(&mut rng);

    // Debug never shows the secret, but does show the public key.
    let secret_hex = hex(&sk.to_bytes());
    let shown = format!("{sk:?}");
    assert!(!shown.contains(&secret_hex), "{shown}");
    assert!(shown.contains("redacted"));
    assert!(shown.contains(&hex(pk.as_bytes())));
    let (ss, enc) = K::encap(&mut rng, &pk).unwrap();
    let shown = format!("{ss:?}");
    assert!(!shown.contains(&hex(ss.as_bytes())) && shown.contains("redacted"));

    // public_key() is the cached public key; equality and clones behave.
    assert_eq!(sk.public_key(), pk);
    assert_eq!(sk.clone(), sk);
    assert_ne!(sk, other_sk);
    assert_ne!(pk, other_pk);
    assert_eq!(pk.to_bytes().as_slice(), pk.as_bytes());

    // Serialization round trips for every key type.
    let sk2 = PrivateKey::<K>::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(sk2, sk);
    assert_eq!(sk2.public_key(), pk);
    assert_eq!(PublicKey::<K>::from_bytes(pk.as_bytes()).unwrap(), pk);
    let enc2 = EncappedKey::<K>::from_bytes(enc.as_bytes()).unwrap();
    assert_eq!(enc2, enc);
    assert_eq!(K::decap(&enc2, &sk2).unwrap(), ss);

    // A deterministic derivation is deterministic, and depends on every byte of the ikm.
    let (a, _) = K::derive_key_pair(b"some input keying material 32 b.").unwrap();
    let (b, _) = K::derive_key_pair(b"some input keying material 32 b.").unwrap();
    let (c, _) = K::derive_key_pair(b"some input keying material 32 c.").unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn keys_redact_compare_and_round_trip() {
    key_behaviour::<DhKemX25519HkdfSha256>();
    key_behaviour::<DhKemX448HkdfSha512>();
    key_behaviour::<DhKemP256HkdfSha256>();
    key_behaviour::<DhKemP521HkdfSha512>();
    key_behaviour::<DhKemSecp256k1HkdfSha256>();
    key_behaviour::<MlKem768>();
    key_behaviour::<XWing>();
    key_behaviour::<MlKem1024P384>();
}

#[test]
fn sizes_are_fixed_and_small() {
    use std::mem::size_of;
    use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305};
    use typed_hpke::kdf::HkdfSha256;
    type X = DhKemX25519HkdfSha256;
    assert_eq!(
        size_of::<typed_hpke::Hpke<X, HkdfSha256, ChaCha20Poly1305>>(),
        0
    );
    // Fixed-size, stack-held keys: a private key is its secret, its cached public key and the
    // parsed point, nothing on the heap.
    assert!(
        size_of::<PrivateKey<X>>() <= 128,
        "{}",
        size_of::<PrivateKey<X>>()
    );
    assert!(size_of::<EncappedKey<X>>() == 32);
    // A context holds the keyed cipher, the nonce, the sequence number and the exporter state.
    let chacha = size_of::<typed_hpke::SenderContext<X, HkdfSha256, ChaCha20Poly1305>>();
    let aes = size_of::<typed_hpke::SenderContext<X, HkdfSha256, Aes128Gcm>>();
    assert!(chacha < aes, "{chacha} {aes}");
}
