//! The JOSE and COSE crates' parsers and decryptors: arbitrary text as a JWE and as JWKs,
//! arbitrary bytes as a COSE message and as COSE_Keys, against fixed keys of both modes; and
//! real messages with input bytes XORed in, which must decrypt exactly when nothing changed.

use std::sync::OnceLock;

use crate::Input;

/// Fixed keys: integrated and key encryption, X25519 and X-Wing, derived once per process.
struct Keys<J, C> {
    jose: Vec<J>,
    cose: Vec<C>,
}

type Fixture = Keys<typed_hpke_jose::PrivateJwk, typed_hpke_cose::PrivateCoseKey>;

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        use typed_hpke::suite::AnyKem;
        let pair = |kem: u16, seed: u8| {
            AnyKem::new(kem)
                .unwrap()
                .derive_key_pair(&[seed; 32])
                .unwrap()
                .0
        };
        let jose = [
            (typed_hpke_jose::Algorithm::HPKE_3, 0x0020),
            (typed_hpke_jose::Algorithm::HPKE_3_KE, 0x0020),
            (typed_hpke_jose::Algorithm::HPKE_9_KE, 0x647a),
        ]
        .iter()
        .enumerate()
        .map(|(i, &(alg, kem))| {
            typed_hpke_jose::PrivateJwk::new(pair(kem, i as u8))
                .with_alg(alg)
                .unwrap()
        })
        .collect();
        let cose = [
            (typed_hpke_cose::Algorithm::HPKE_3, 0x0020),
            (typed_hpke_cose::Algorithm::HPKE_3_KE, 0x0020),
            (typed_hpke_cose::Algorithm::HPKE_9, 0x647a),
        ]
        .iter()
        .enumerate()
        .map(|(i, &(alg, kem))| {
            typed_hpke_cose::PrivateCoseKey::new(pair(kem, i as u8))
                .with_alg(alg)
                .unwrap()
        })
        .collect();
        Keys { jose, cose }
    })
}

fn rng(data: &[u8]) -> rand_chacha::ChaCha20Rng {
    use rand_chacha::rand_core::SeedableRng;
    rand_chacha::ChaCha20Rng::seed_from_u64(crate::seed_of(data))
}

/// XORs `mask` into `bytes`; whether anything changed.
fn xor(bytes: &mut [u8], mask: &[u8]) -> bool {
    mask.iter().zip(bytes.iter_mut()).fold(false, |c, (m, b)| {
        *b ^= m;
        c | (*m != 0)
    })
}

/// `jose`: the first byte picks what the rest feeds.
pub fn jose(data: &[u8]) {
    use typed_hpke_jose::{
        ContentEncryption, Decryptor, Encryptor, Jwe, PrivateJwk, PublicJwk, Recipient,
    };
    let keys = &fixture().jose;
    let mut input = Input(data);
    let how = input.byte();
    let key = &keys[usize::from(input.byte()) % keys.len()];
    match how % 3 {
        // Arbitrary text as a JWE: what parses writes back to a JWE that parses equal, and
        // decrypts to nothing (or an error) under every key.
        0 => {
            let Ok(text) = std::str::from_utf8(input.rest()) else {
                return;
            };
            if let Ok(jwe) = Jwe::parse(text) {
                assert_eq!(Jwe::parse(&jwe.to_general()).as_ref(), Ok(&jwe));
                if let Ok(flat) = jwe.to_flattened() {
                    assert_eq!(Jwe::parse(&flat).as_ref(), Ok(&jwe));
                }
                for key in keys {
                    assert!(
                        Decryptor::new(key).decrypt(&jwe).is_err(),
                        "arbitrary text decrypted"
                    );
                }
            }
        }
        // Arbitrary text as JWKs: what reads writes back and reads equal.
        1 => {
            let Ok(text) = std::str::from_utf8(input.rest()) else {
                return;
            };
            if let Ok(k) = PublicJwk::from_json(text)
                && let Ok(json) = k.to_json()
            {
                assert_eq!(PublicJwk::from_json(&json).as_ref(), Ok(&k));
            }
            if let Ok(k) = PrivateJwk::from_json(text) {
                let json = k.to_json().expect("a read key writes");
                let again = PrivateJwk::from_json(&json).expect("a written key reads");
                assert_eq!(again.public_jwk(), k.public_jwk());
            }
        }
        // A real JWE to `key`, its flattened text changed by the input: decrypts exactly when
        // nothing changed (a change the parser normalizes away is no change).
        _ => {
            let mut rng = rng(data);
            let alg = key.alg().expect("fixture keys name their alg");
            let plaintext = input.slice();
            let e = if alg.is_key_encryption() {
                Encryptor::key_encryption(ContentEncryption::A128Gcm)
                    .recipient(Recipient::new(alg, key.public_jwk()).unwrap())
                    .unwrap()
            } else {
                Encryptor::integrated(alg, key.public_jwk()).unwrap()
            };
            let jwe = e.aad(b"aad").encrypt(&mut rng, plaintext).expect("encrypt");
            let mut text = jwe.to_flattened().unwrap().into_bytes();
            let changed = xor(&mut text, input.rest());
            let Ok(text) = String::from_utf8(text) else {
                return;
            };
            match Jwe::parse(&text) {
                Ok(parsed) => {
                    let result = Decryptor::new(key).decrypt(&parsed);
                    if parsed == jwe {
                        assert_eq!(result.as_deref(), Ok(plaintext));
                    } else {
                        assert!(result.is_err(), "a changed JWE decrypted");
                    }
                }
                Err(_) => assert!(changed),
            }
        }
    }
}

/// `cose`: the first byte picks what the rest feeds.
pub fn cose(data: &[u8]) {
    use typed_hpke_cose::{
        ContentAlgorithm, Decryptor, Encryptor, PrivateCoseKey, PublicCoseKey, Recipient,
    };
    let keys = &fixture().cose;
    let mut input = Input(data);
    let how = input.byte();
    let key = &keys[usize::from(input.byte()) % keys.len()];
    match how % 3 {
        // Arbitrary bytes as a message: an error under every key (never a panic, never a
        // plaintext), with or without a detached ciphertext.
        0 => {
            let bytes = input.rest();
            for key in keys {
                assert!(Decryptor::new(key).decrypt(bytes).is_err());
                assert!(
                    Decryptor::new(key)
                        .detached(b"0123456789abcdef")
                        .decrypt(bytes)
                        .is_err()
                );
                let _ = Decryptor::new(key).unwrap_cek(bytes);
            }
        }
        // Arbitrary bytes as COSE_Keys: what reads writes back and reads equal.
        1 => {
            let bytes = input.rest();
            if let Ok(k) = PublicCoseKey::from_cbor(bytes)
                && let Ok(out) = k.to_cbor()
            {
                assert_eq!(PublicCoseKey::from_cbor(&out).as_ref(), Ok(&k));
            }
            if let Ok(k) = PrivateCoseKey::from_cbor(bytes) {
                let out = k.to_cbor().expect("a read key writes");
                let again = PrivateCoseKey::from_cbor(&out).expect("a written key reads");
                assert_eq!(again.public_key(), k.public_key());
            }
        }
        // A real message to `key`, changed by the input: decrypts exactly when nothing changed.
        _ => {
            let mut rng = rng(data);
            let alg = key.alg().expect("fixture keys name their alg");
            let plaintext = input.slice();
            let e = if alg.is_key_encryption() {
                Encryptor::key_encryption(ContentAlgorithm::ChaCha20Poly1305)
                    .recipient(Recipient::new(alg, key.public_key()).unwrap())
                    .unwrap()
            } else {
                Encryptor::encrypt0(alg, key.public_key()).unwrap()
            };
            let mut message = e
                .external_aad(b"aad")
                .encrypt(&mut rng, plaintext)
                .expect("encrypt");
            let changed = xor(&mut message, input.rest());
            let result = Decryptor::new(key).external_aad(b"aad").decrypt(&message);
            assert_eq!(result.is_ok(), !changed, "changed {changed}: {result:?}");
            if let Ok(out) = result {
                assert_eq!(out, plaintext);
            }
        }
    }
}
