//! Every algorithm in base and PSK mode, tagged and untagged; COSE_Encrypt to several
//! recipients of mixed algorithms beside a non-HPKE one; keys through their COSE_Keys.

use ciborium::Value;
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, PrivateCoseKey, PublicCoseKey,
    Recipient,
};

const PSK: [u8; 32] = [9; 32];

#[test]
fn every_algorithm_and_mode() {
    let mut rng = typed_hpke_cose::OsRng::default();
    let mut count = 0;
    for &alg in Algorithm::ALL {
        let key = PrivateCoseKey::generate(alg, &mut rng)
            .unwrap()
            .with_kid(alg.name().as_bytes().to_vec());
        let key = PrivateCoseKey::from_cbor(&key.to_cbor().unwrap()).unwrap();
        let public = PublicCoseKey::from_cbor(&key.public_key().to_cbor().unwrap()).unwrap();
        assert_eq!(&public, key.public_key());
        for psk in [false, true] {
            for tagged in [true, false] {
                let plaintext = format!("{} {psk} {tagged}", alg.name()).into_bytes();
                let e = if alg.is_key_encryption() {
                    let mut r = Recipient::new(alg, &public)
                        .unwrap()
                        .extra_info(b"extra")
                        .hpke_aad(b"hpke aad");
                    if psk {
                        r = r.psk(&PSK, b"id").unwrap();
                    }
                    let content = [
                        ContentAlgorithm::A128Gcm,
                        ContentAlgorithm::A256Gcm,
                        ContentAlgorithm::ChaCha20Poly1305,
                    ][count % 3];
                    Encryptor::key_encryption(content).recipient(r).unwrap()
                } else {
                    let e = Encryptor::encrypt0(alg, &public)
                        .unwrap()
                        .info(b"info")
                        .unwrap();
                    if psk { e.psk(&PSK, b"id").unwrap() } else { e }
                };
                let e = e.external_aad(b"external");
                let message = if tagged {
                    e.encrypt(&mut rng, &plaintext)
                } else {
                    e.untagged().encrypt(&mut rng, &plaintext)
                }
                .unwrap();
                let is_tagged = matches!(
                    ciborium::de::from_reader::<Value, _>(&message[..]).unwrap(),
                    Value::Tag(..)
                );
                assert_eq!(is_tagged, tagged);
                let mut d = Decryptor::new(&key).external_aad(b"external");
                d = if alg.is_key_encryption() {
                    d.extra_info(b"extra").hpke_aad(b"hpke aad")
                } else {
                    d.info(b"info")
                };
                if psk {
                    d = d.psk(&PSK, b"id").unwrap();
                }
                assert_eq!(d.decrypt(&message).unwrap(), plaintext, "{}", alg.name());
                count += 1;
            }
        }
    }
    assert_eq!(count, 28 * 4);
}

/// Several recipients of one suite family each (draft-ietf-cose-hpke-pq-pqt §5 keeps
/// post-quantum and traditional recipients apart), each decrypts.
#[test]
fn several_recipients_each_decrypts() {
    several_recipients(&[
        Algorithm::HPKE_0_KE,
        Algorithm::HPKE_6_KE,
        Algorithm::HPKE_3_KE,
    ]);
    several_recipients(&[Algorithm::HPKE_9_KE, Algorithm::HPKE_11_KE]);
}

fn several_recipients(algs: &[Algorithm]) {
    let mut rng = typed_hpke_cose::OsRng::default();
    let keys: Vec<PrivateCoseKey> = algs
        .iter()
        .map(|&a| {
            PrivateCoseKey::generate(a, &mut rng)
                .unwrap()
                .with_kid(a.name().as_bytes().to_vec())
        })
        .collect();
    let mut e = Encryptor::key_encryption(ContentAlgorithm::A256Gcm);
    for (alg, key) in algs.iter().zip(&keys) {
        e = e
            .recipient(Recipient::new(*alg, key.public_key()).unwrap())
            .unwrap();
    }
    let message = e.encrypt(&mut rng, b"to all").unwrap();
    // A recipient of another algorithm (ECDH-ES + HKDF-256, -25) first: passed over.
    let Value::Tag(96, mut inner) = ciborium::de::from_reader::<Value, _>(&message[..]).unwrap()
    else {
        panic!()
    };
    let Value::Array(items) = &mut *inner else {
        panic!()
    };
    let Value::Array(recipients) = &mut items[3] else {
        panic!()
    };
    let mut protected = Vec::new();
    ciborium::ser::into_writer(
        &Value::Map(vec![(Value::from(1), Value::from(-25))]),
        &mut protected,
    )
    .unwrap();
    recipients.insert(
        0,
        Value::Array(vec![
            Value::Bytes(protected),
            Value::Map(vec![]),
            Value::Bytes(vec![]),
        ]),
    );
    let mut message = Vec::new();
    ciborium::ser::into_writer(&Value::Tag(96, inner), &mut message).unwrap();
    for key in &keys {
        assert_eq!(Decryptor::new(key).decrypt(&message).unwrap(), b"to all");
    }
    let stranger = PrivateCoseKey::generate(Algorithm::HPKE_5_KE, &mut rng)
        .unwrap()
        .with_kid(*b"stranger");
    assert_eq!(
        Decryptor::new(&stranger).decrypt(&message),
        Err(Error::NoRecipient)
    );
}

/// Layer-0 algorithms by name and by value, as RFC 9053's registry lists them, the way
/// `typed_hpke_jose::ContentEncryption` names JOSE's `enc`.
#[test]
fn content_algorithms_by_name_and_value() {
    let registry = [
        ("A128GCM", 1, ContentAlgorithm::A128Gcm),
        ("A256GCM", 3, ContentAlgorithm::A256Gcm),
        ("ChaCha20/Poly1305", 24, ContentAlgorithm::ChaCha20Poly1305),
    ];
    assert_eq!(ContentAlgorithm::ALL.len(), registry.len());
    for (name, value, alg) in registry {
        assert_eq!(alg.name(), name);
        assert_eq!(alg.value(), value);
        assert_eq!(ContentAlgorithm::from_name(name), Some(alg));
        assert_eq!(ContentAlgorithm::from_value(value), Some(alg));
    }
    assert_eq!(ContentAlgorithm::from_name("A192GCM"), None);
    assert_eq!(ContentAlgorithm::from_value(2), None);
}
