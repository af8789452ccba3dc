//! Every refusal rule, each with a message that only that rule refuses.

use ciborium::Value;
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, PrivateCoseKey, PublicCoseKey,
    Recipient,
};

/// A CBOR map's entries.
type Entries = Vec<(Value, Value)>;
/// A named edit of a COSE_Key.
type Edit = Box<dyn Fn(&mut Entries)>;

fn rng() -> typed_hpke_cose::OsRng {
    typed_hpke_cose::OsRng::default()
}

fn key(alg: Algorithm) -> PrivateCoseKey {
    PrivateCoseKey::generate(alg, &mut rng())
        .unwrap()
        .with_kid(alg.name().as_bytes().to_vec())
}

fn encrypt0(key: &PrivateCoseKey) -> Vec<u8> {
    Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())
        .unwrap()
        .encrypt(&mut rng(), b"secret")
        .unwrap()
}

fn encrypt(key: &PrivateCoseKey) -> Vec<u8> {
    Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, key.public_key()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"secret")
        .unwrap()
}

fn decode(bytes: &[u8]) -> Value {
    ciborium::de::from_reader(bytes).unwrap()
}

fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::ser::into_writer(v, &mut out).unwrap();
    out
}

/// The message's array (inside its tag).
fn items(v: &mut Value) -> &mut Vec<Value> {
    match v {
        Value::Tag(_, inner) => items(inner),
        Value::Array(a) => a,
        _ => panic!(),
    }
}

fn map(v: &mut Value) -> &mut Vec<(Value, Value)> {
    match v {
        Value::Map(m) => m,
        _ => panic!(),
    }
}

/// Edits a protected bucket (a serialized map in a byte string).
fn edit_protected(slot: &mut Value, f: impl FnOnce(&mut Vec<(Value, Value)>)) {
    let Value::Bytes(b) = slot else { panic!() };
    let mut m = if b.is_empty() {
        Value::Map(vec![])
    } else {
        decode(b)
    };
    f(map(&mut m));
    *slot = Value::Bytes(encode(&m));
}

fn edited(message: &[u8], f: impl FnOnce(&mut Vec<Value>)) -> Vec<u8> {
    let mut v = decode(message);
    f(items(&mut v));
    encode(&v)
}

fn take(m: &mut Vec<(Value, Value)>, label: i64) -> Value {
    let i = m
        .iter()
        .position(|(l, _)| *l == Value::from(label))
        .unwrap();
    m.remove(i).1
}

#[test]
fn baseline_messages_decrypt() {
    let (k, ke) = (key(Algorithm::HPKE_3), key(Algorithm::HPKE_3_KE));
    assert_eq!(
        Decryptor::new(&k).decrypt(&encrypt0(&k)).unwrap(),
        b"secret"
    );
    assert_eq!(
        Decryptor::new(&ke).decrypt(&encrypt(&ke)).unwrap(),
        b"secret"
    );
}

#[test]
fn cbor_shape() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let d = Decryptor::new(&k);
    assert!(matches!(
        d.decrypt(&[m.clone(), vec![0]].concat()),
        Err(Error::Malformed(_))
    ));
    assert!(matches!(
        d.decrypt(&m[..m.len() - 1]),
        Err(Error::Malformed(_))
    ));
    assert!(matches!(d.decrypt(&[0xff]), Err(Error::Malformed(_))));
    // Another tag, and the wrong tag for the shape.
    let mut v = decode(&m);
    if let Value::Tag(t, _) = &mut v {
        *t = 17;
    }
    assert!(matches!(d.decrypt(&encode(&v)), Err(Error::Malformed(_))));
    let mut v = decode(&m);
    if let Value::Tag(t, _) = &mut v {
        *t = 96;
    }
    assert!(matches!(d.decrypt(&encode(&v)), Err(Error::Malformed(_))));
    // Untagged is a COSE_Encrypt0 still.
    let Value::Tag(_, inner) = decode(&m) else {
        panic!()
    };
    assert_eq!(d.decrypt(&encode(&inner)).unwrap(), b"secret");
    // A header that is not a map, a label that is neither int nor text.
    let bad = edited(&m, |i| i[1] = Value::Array(vec![]));
    assert!(matches!(d.decrypt(&bad), Err(Error::Malformed(_))));
    let bad = edited(&m, |i| {
        map(&mut i[1]).push((Value::Bytes(vec![1]), Value::from(1)))
    });
    assert!(matches!(d.decrypt(&bad), Err(Error::Malformed(_))));
}

#[test]
fn duplicate_labels() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let d = Decryptor::new(&k);
    // Twice in the unprotected bucket, twice in the protected one, in both.
    let bad = edited(&m, |i| {
        map(&mut i[1]).push((Value::from(4), Value::Bytes(b"x".to_vec())))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::DuplicateLabel));
    let bad = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p.push((Value::from(1), Value::from(41))))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::DuplicateLabel));
    let bad = edited(&m, |i| {
        map(&mut i[1]).push((Value::from(1), Value::from(41)))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::DuplicateLabel));
    // In a COSE_Key.
    let mut key_value = decode(&k.to_cbor().unwrap());
    map(&mut key_value).push((Value::from(1), Value::from(1)));
    assert_eq!(
        PrivateCoseKey::from_cbor(&encode(&key_value)).unwrap_err(),
        Error::DuplicateLabel
    );
}

#[test]
fn encrypt0_header_rules() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let d = Decryptor::new(&k);
    let header = |bad: &[u8]| matches!(d.decrypt(bad), Err(Error::Header(_)));
    // alg unprotected.
    assert!(header(&edited(&m, |i| {
        let mut alg = Value::Null;
        edit_protected(&mut i[0], |p| alg = take(p, 1));
        map(&mut i[1]).push((Value::from(1), alg));
    })));
    // ek protected, ek missing.
    assert!(header(&edited(&m, |i| {
        let ek = take(map(&mut i[1]), -4);
        edit_protected(&mut i[0], |p| p.push((Value::from(-4), ek)));
    })));
    assert!(header(&edited(&m, |i| {
        take(map(&mut i[1]), -4);
    })));
    // psk_id unprotected; an IV.
    assert!(header(&edited(&m, |i| map(&mut i[1])
        .push((Value::from(-5), Value::Bytes(b"id".to_vec()))))));
    assert!(header(&edited(&m, |i| map(&mut i[1])
        .push((Value::from(5), Value::Bytes(vec![0; 12]))))));
    // A key-encryption algorithm in COSE_Encrypt0.
    let ke = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p[0].1 = Value::from(49))
    });
    assert_eq!(d.decrypt(&ke), Err(Error::UnsupportedAlgorithm));
    let unknown = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p[0].1 = Value::from(-7))
    });
    assert_eq!(d.decrypt(&unknown), Err(Error::UnsupportedAlgorithm));
    // The protected header is authenticated: a label added after sealing.
    let added = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p.push((Value::from(3), Value::from(0))))
    });
    assert_eq!(d.decrypt(&added), Err(Error::Decrypt));
}

#[test]
fn encrypt_header_rules() {
    let k = key(Algorithm::HPKE_3_KE);
    let m = encrypt(&k);
    let d = Decryptor::new(&k);
    fn rcpt(i: &mut [Value]) -> &mut Vec<Value> {
        let Value::Array(rs) = &mut i[3] else {
            panic!()
        };
        let Value::Array(r) = &mut rs[0] else {
            panic!()
        };
        r
    }
    // A recipient's alg unprotected.
    let bad = edited(&m, |i| {
        let r = rcpt(i);
        let mut alg = Value::Null;
        edit_protected(&mut r[0], |p| alg = take(p, 1));
        map(&mut r[1]).push((Value::from(1), alg));
    });
    assert!(matches!(d.decrypt(&bad), Err(Error::Header(_))));
    // An integrated algorithm in a recipient.
    let bad = edited(&m, |i| {
        edit_protected(&mut rcpt(i)[0], |p| p[0].1 = Value::from(41))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::UnsupportedAlgorithm));
    // ek missing.
    let bad = edited(&m, |i| {
        take(map(&mut rcpt(i)[1]), -4);
    });
    assert!(matches!(d.decrypt(&bad), Err(Error::Header(_))));
    // Layer 0: an unknown algorithm, an IV missing, 16 bytes, a Partial IV.
    let bad = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p[0].1 = Value::from(2))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::UnsupportedAlgorithm));
    let bad = edited(&m, |i| {
        take(map(&mut i[1]), 5);
    });
    assert!(matches!(d.decrypt(&bad), Err(Error::Header(_))));
    let bad = edited(&m, |i| map(&mut i[1])[0].1 = Value::Bytes(vec![0; 16]));
    assert_eq!(d.decrypt(&bad), Err(Error::UnsupportedIv));
    let bad = edited(&m, |i| {
        map(&mut i[1]).push((Value::from(6), Value::Bytes(vec![1])))
    });
    assert!(matches!(d.decrypt(&bad), Err(Error::Header(_))));
    // Layer 0's algorithm swapped: next_layer_alg binds it (§3.3.3), the CEK does not open.
    let bad = edited(&m, |i| {
        edit_protected(&mut i[0], |p| p[0].1 = Value::from(3))
    });
    assert_eq!(d.decrypt(&bad), Err(Error::Decrypt));
    // No recipients; a recipient of four items with an HPKE alg.
    let bad = edited(&m, |i| i[3] = Value::Array(vec![]));
    assert!(matches!(d.decrypt(&bad), Err(Error::Malformed(_))));
    let bad = edited(&m, |i| rcpt(i).push(Value::Array(vec![])));
    assert!(matches!(d.decrypt(&bad), Err(Error::Malformed(_))));
    // Too many recipients.
    let bad = edited(&m, |i| {
        let Value::Array(rs) = &mut i[3] else {
            panic!()
        };
        let r = rs[0].clone();
        rs.resize(typed_hpke_cose::MAX_RECIPIENTS + 1, r);
    });
    assert_eq!(d.decrypt(&bad), Err(Error::TooLarge));
}

#[test]
fn critical_labels() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let crit = |labels: Value, extra: bool| {
        edited(&m, |i| {
            edit_protected(&mut i[0], |p| {
                p.push((Value::from(2), labels));
                if extra {
                    p.push((Value::from(-70000), Value::from(1)));
                }
            })
        })
    };
    let listed = crit(Value::Array(vec![Value::from(-70000)]), true);
    assert_eq!(Decryptor::new(&k).decrypt(&listed), Err(Error::Critical));
    // Understood: the header rules pass and the (changed) protected header fails to open.
    assert_eq!(
        Decryptor::new(&k).understand(&[-70000]).decrypt(&listed),
        Err(Error::Decrypt)
    );
    for bad in [
        crit(Value::Array(vec![]), true),
        crit(Value::Array(vec![Value::from(-70000)]), false),
        crit(Value::from(1), true),
    ] {
        assert_eq!(
            Decryptor::new(&k).understand(&[-70000]).decrypt(&bad),
            Err(Error::Critical)
        );
    }
    let unprotected = edited(&m, |i| {
        map(&mut i[1]).push((Value::from(2), Value::Array(vec![Value::from(4)])))
    });
    assert_eq!(
        Decryptor::new(&k).understand(&[4]).decrypt(&unprotected),
        Err(Error::Critical)
    );
    // A `crit` list longer than a layer's two buckets can hold (2 * MAX_HEADER_LABELS) is
    // refused before its labels are looked up; one at that length is looked up, passes the
    // header rules, and the changed protected header then fails to open.
    let limit = 2 * typed_hpke_cose::MAX_HEADER_LABELS;
    let listed = |n: usize| crit(Value::Array(vec![Value::from(-70000); n]), true);
    for n in [limit, limit + 1] {
        assert_eq!(
            Decryptor::new(&k).understand(&[-70000]).decrypt(&listed(n)),
            if n == limit {
                Err(Error::Decrypt)
            } else {
                Err(Error::Critical)
            },
            "{n}"
        );
    }
}

#[test]
fn psk_mode_must_agree() {
    let k = key(Algorithm::HPKE_3);
    let psk = [7u8; 32];
    let m = Encryptor::encrypt0(Algorithm::HPKE_3, k.public_key())
        .unwrap()
        .psk(&psk, b"id")
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap();
    assert_eq!(Decryptor::new(&k).decrypt(&m), Err(Error::Psk));
    assert_eq!(
        Decryptor::new(&k).psk(&psk, b"other").unwrap().decrypt(&m),
        Err(Error::Psk)
    );
    assert_eq!(
        Decryptor::new(&k)
            .psk(&[8u8; 32], b"id")
            .unwrap()
            .decrypt(&m),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k)
            .psk(&psk, b"id")
            .unwrap()
            .decrypt(&m)
            .unwrap(),
        b"x"
    );
    assert_eq!(
        Decryptor::new(&k)
            .psk(&psk, b"id")
            .unwrap()
            .decrypt(&encrypt0(&k)),
        Err(Error::Psk)
    );
    assert!(Decryptor::new(&k).psk(&[1u8; 16], b"id").is_err());
    // The decryptor's Debug names the PSK's identifier, never the PSK.
    let debug = format!("{:?}", Decryptor::new(&k).psk(&psk, b"id").unwrap());
    assert!(
        debug.contains("redacted") && !debug.contains("7, 7, 7"),
        "{debug}"
    );
}

#[test]
fn detached_ciphertexts() {
    let k = key(Algorithm::HPKE_3_KE);
    let (m, ct) = Encryptor::key_encryption(ContentAlgorithm::ChaCha20Poly1305)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, k.public_key()).unwrap())
        .unwrap()
        .encrypt_detached(&mut rng(), b"detached")
        .unwrap();
    assert_eq!(Decryptor::new(&k).decrypt(&m), Err(Error::Detached));
    assert_eq!(
        Decryptor::new(&k).detached(&ct).decrypt(&m).unwrap(),
        b"detached"
    );
    assert_eq!(
        Decryptor::new(&k).detached(&ct).decrypt(&encrypt(&k)),
        Err(Error::Detached)
    );
    let k0 = key(Algorithm::HPKE_3);
    let (m, ct) = Encryptor::encrypt0(Algorithm::HPKE_3, k0.public_key())
        .unwrap()
        .encrypt_detached(&mut rng(), b"d0")
        .unwrap();
    assert_eq!(
        Decryptor::new(&k0).detached(&ct).decrypt(&m).unwrap(),
        b"d0"
    );
}

#[test]
fn keys_and_recipients() {
    let k = key(Algorithm::HPKE_3_KE);
    let m = encrypt(&k);
    let other = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    assert_eq!(Decryptor::new(&other).decrypt(&m), Err(Error::Decrypt));
    assert_eq!(
        Decryptor::new(&other.clone().with_kid(*b"someone")).decrypt(&m),
        Err(Error::NoRecipient)
    );
    assert_eq!(
        Decryptor::new(&key(Algorithm::HPKE_0_KE)).decrypt(&m),
        Err(Error::NoRecipient)
    );
    // Mode confusion.
    assert!(matches!(
        Decryptor::new(&k).info(b"x").decrypt(&m),
        Err(Error::Header(_))
    ));
    let k0 = key(Algorithm::HPKE_3);
    assert!(matches!(
        Decryptor::new(&k0).extra_info(b"x").decrypt(&encrypt0(&k0)),
        Err(Error::Header(_))
    ));
    assert!(matches!(
        Decryptor::new(&k0).hpke_aad(b"x").decrypt(&encrypt0(&k0)),
        Err(Error::Header(_))
    ));
    // Wrong inputs.
    assert_eq!(
        Decryptor::new(&k).extra_info(b"x").decrypt(&m),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k).hpke_aad(b"x").decrypt(&m),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k).external_aad(b"x").decrypt(&m),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k0).info(b"x").decrypt(&encrypt0(&k0)),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k0)
            .external_aad(b"x")
            .decrypt(&encrypt0(&k0)),
        Err(Error::Decrypt)
    );
}

#[test]
fn cose_key_validation() {
    let k = key(Algorithm::HPKE_0);
    let bytes = k.to_cbor().unwrap();
    let edit = |f: &dyn Fn(&mut Entries)| {
        let mut v = decode(&bytes);
        f(map(&mut v));
        PrivateCoseKey::from_cbor(&encode(&v)).map(|_| ())
    };
    assert_eq!(edit(&|_| {}), Ok(()));
    let set = |label: i64, value: Value| {
        move |m: &mut Vec<(Value, Value)>| {
            if let Some(e) = m.iter_mut().find(|(l, _)| *l == Value::from(label)) {
                e.1 = value.clone();
            } else {
                m.push((Value::from(label), value.clone()));
            }
        }
    };
    let cases: Vec<(&str, Edit)> = vec![
        ("short x", Box::new(set(-2, Value::Bytes(vec![1; 31])))),
        (
            "off the curve",
            Box::new(set(-3, Value::Bytes(vec![1; 32]))),
        ),
        ("compressed y", Box::new(set(-3, Value::Bool(true)))),
        ("another d", Box::new(set(-4, Value::Bytes(vec![1; 32])))),
        (
            "key_ops sign",
            Box::new(set(4, Value::Array(vec![Value::from(1)]))),
        ),
        (
            "key_ops empty for a private key",
            Box::new(set(4, Value::Array(vec![]))),
        ),
        ("alg of another curve", Box::new(set(3, Value::from(41)))),
        ("unknown alg", Box::new(set(3, Value::from(-7)))),
        ("unknown curve", Box::new(set(-1, Value::from(8)))),
        ("okp with y", Box::new(set(1, Value::from(1)))),
        ("kty symmetric", Box::new(set(1, Value::from(4)))),
        ("kid a number", Box::new(set(2, Value::from(1)))),
    ];
    for (what, f) in cases {
        assert!(edit(&*f).is_err(), "{what}");
    }
    assert_eq!(edit(&set(4, Value::Array(vec![Value::from(8)]))), Ok(()));
    // A public key's key_ops must be empty (§3.4).
    let mut v = decode(&k.public_key().to_cbor().unwrap());
    map(&mut v).push((Value::from(4), Value::Array(vec![Value::from(8)])));
    assert_eq!(
        PublicCoseKey::from_cbor(&encode(&v)).unwrap_err(),
        Error::InvalidKey
    );
    // AKP without alg; no private key.
    let pq = key(Algorithm::HPKE_9);
    let mut v = decode(&pq.to_cbor().unwrap());
    take(map(&mut v), 3);
    assert_eq!(
        PrivateCoseKey::from_cbor(&encode(&v)).unwrap_err(),
        Error::InvalidKey
    );
    assert_eq!(
        PrivateCoseKey::from_cbor(&k.public_key().to_cbor().unwrap()).unwrap_err(),
        Error::InvalidKey
    );
    // Encryptor refusals.
    assert_eq!(
        Encryptor::encrypt0(Algorithm::HPKE_3, k.public_key()).unwrap_err(),
        Error::InvalidKey
    );
    assert_eq!(
        Encryptor::encrypt0(Algorithm::HPKE_0_KE, k.public_key()).unwrap_err(),
        Error::UnsupportedAlgorithm
    );
    assert!(
        Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
            .encrypt(&mut rng(), b"x")
            .is_err()
    );
}

/// `kty` and `alg` agree: an AKP key only with a post-quantum algorithm, an EC2 or OKP key
/// only with its curve's. Before, `{kty: AKP, alg: HPKE-0}` was read as a P-256 key and
/// written back as EC2.
#[test]
fn key_type_and_algorithm_agree() {
    let p256 = key(Algorithm::HPKE_0);
    let point = p256.public_key().key().as_bytes().to_vec();
    for alg in [35, 46] {
        let akp = encode(&Value::Map(vec![
            (Value::from(1), Value::from(7)),
            (Value::from(3), Value::from(alg)),
            (Value::from(-1), Value::Bytes(point.clone())),
        ]));
        assert_eq!(
            PublicCoseKey::from_cbor(&akp).map(|_| ()),
            Err(Error::InvalidKey),
            "{alg}"
        );
    }
    // The reverse: an X-Wing algorithm on an OKP key.
    let x25519 = key(Algorithm::HPKE_3).public_key().to_cbor().unwrap();
    let mut v = decode(&x25519);
    for entry in map(&mut v).iter_mut() {
        if entry.0 == Value::from(3) {
            entry.1 = Value::from(56);
        }
    }
    assert_eq!(
        PublicCoseKey::from_cbor(&encode(&v)).map(|_| ()),
        Err(Error::InvalidKey)
    );
    // A real AKP key reads and writes back as AKP.
    let pq = key(Algorithm::HPKE_9);
    let bytes = pq.public_key().to_cbor().unwrap();
    assert_eq!(
        PublicCoseKey::from_cbor(&bytes).unwrap().to_cbor().unwrap(),
        bytes
    );
}

/// The decryptor's `Debug` shows none of `info`, extra info, the AADs or a detached
/// ciphertext (before, it printed each byte).
#[test]
fn decryptor_debug_redacts_the_inputs() {
    let k = key(Algorithm::HPKE_3);
    let secret = b"session-transcript".to_vec();
    let d = Decryptor::new(&k)
        .info(&secret)
        .extra_info(&secret)
        .hpke_aad(&secret)
        .external_aad(&secret)
        .detached(&secret);
    let debug = format!("{d:?}");
    let bytes = format!("{:?}", &secret[..4]);
    let bytes = bytes.trim_end_matches(']');
    assert!(!debug.contains(bytes), "{debug}");
    assert!(!debug.contains("session"), "{debug}");
    assert!(debug.contains("<redacted>"), "{debug}");
}

/// The protected-bucket limit to the byte: a bucket of exactly `MAX_HEADER_LEN` bytes is read
/// (and then fails to decrypt, since the edit changed authenticated bytes), one byte more is
/// `TooLarge`.
#[test]
fn protected_header_limit_to_the_byte() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let d = Decryptor::new(&k);
    let padded = |len: usize| {
        edited(&m, |i| {
            let Value::Bytes(bare) = &i[0] else { panic!() };
            // A byte string of 256 to 65,535 bytes has a 3-byte head, and the text label 4.
            let pad = len - bare.len() - 3 - 4;
            edit_protected(&mut i[0], |p| {
                p.push((Value::Text("pad".into()), Value::Bytes(vec![0; pad])))
            });
            let Value::Bytes(bucket) = &i[0] else {
                panic!()
            };
            assert_eq!(bucket.len(), len);
        })
    };
    let max = typed_hpke_cose::MAX_HEADER_LEN;
    assert_eq!(d.decrypt(&padded(max)), Err(Error::Decrypt));
    assert_eq!(d.decrypt(&padded(max + 1)), Err(Error::TooLarge));
}

/// Text labels are labels (RFC 9052 §3): one is read beside the integer ones, and the same
/// one twice is a duplicate.
#[test]
fn text_labels() {
    let k = key(Algorithm::HPKE_3);
    let m = encrypt0(&k);
    let d = Decryptor::new(&k);
    let text = |i: &mut Vec<Value>| map(&mut i[1]).push((Value::Text("x".into()), Value::from(1)));
    assert_eq!(d.decrypt(&edited(&m, text)).unwrap(), b"secret");
    let twice = edited(&m, |i| {
        text(i);
        text(i);
    });
    assert_eq!(d.decrypt(&twice), Err(Error::DuplicateLabel));
}

/// Exactly `MAX_RECIPIENTS` recipients are read (one more is refused in
/// `encrypt_header_rules`); a recipient of another algorithm, `alg` unprotected as RFC 9052
/// allows it there, is passed over, with recipients of its own or not; a recipient of one,
/// two or five items is malformed.
#[test]
fn recipients_at_the_limit_of_other_algorithms_and_of_other_shapes() {
    let k = key(Algorithm::HPKE_3_KE);
    let m = encrypt(&k);
    let d = Decryptor::new(&k);
    let with_recipients = |f: &dyn Fn(&mut Vec<Value>)| {
        edited(&m, |i| {
            let Value::Array(rs) = &mut i[3] else {
                panic!()
            };
            f(rs);
        })
    };
    let at_limit = with_recipients(&|rs| {
        let r = rs[0].clone();
        rs.resize(typed_hpke_cose::MAX_RECIPIENTS, r);
    });
    assert_eq!(d.decrypt(&at_limit).unwrap(), b"secret");
    let ecdh_es = Value::Array(vec![
        Value::Bytes(vec![]),
        Value::Map(vec![(Value::from(1), Value::from(-25))]),
        Value::Bytes(vec![0; 32]),
    ]);
    let beside = with_recipients(&|rs| rs.insert(0, ecdh_es.clone()));
    assert_eq!(d.decrypt(&beside).unwrap(), b"secret");
    // Of another algorithm with recipients of its own (four items): passed over too. With one,
    // two or five items, malformed, whatever the algorithm.
    let nested = with_recipients(&|rs| {
        let mut other = ecdh_es.clone();
        let Value::Array(r) = &mut other else {
            panic!()
        };
        r.push(Value::Array(vec![ecdh_es.clone()]));
        rs.insert(0, other);
    });
    assert_eq!(d.decrypt(&nested).unwrap(), b"secret");
    for len in [1, 2, 5] {
        for which in [0, 1] {
            let shape = with_recipients(&|rs| {
                rs.insert(0, ecdh_es.clone());
                let Value::Array(r) = &mut rs[which] else {
                    panic!()
                };
                r.resize(len, Value::Bytes(vec![]));
            });
            assert!(
                matches!(d.decrypt(&shape), Err(Error::Malformed(_))),
                "{len} items, recipient {which}"
            );
        }
    }
}

/// A COSE_Key's `alg` names its key's KEM: an algorithm of another KEM with the same key type
/// (P-256 and P-384 are both EC2, X25519 and X448 both OKP) is refused, and so is an AKP key
/// with no `alg`, which alone says what KEM its bytes are for. An EC2 key without `alg` is
/// read, with none.
#[test]
fn cose_key_alg_names_the_keys_kem() {
    let public = |alg: Algorithm| decode(&key(alg).public_key().to_cbor().unwrap());
    let set_alg = |v: &mut Value, alg: Option<i64>| {
        let m = map(v);
        m.retain(|(l, _)| *l != Value::from(3));
        if let Some(alg) = alg {
            m.push((Value::from(3), Value::from(alg)));
        }
    };
    for (alg, other) in [
        (Algorithm::HPKE_0, Algorithm::HPKE_1),
        (Algorithm::HPKE_3, Algorithm::HPKE_5),
    ] {
        let mut v = public(alg);
        assert_eq!(
            PublicCoseKey::from_cbor(&encode(&v)).unwrap().alg(),
            Some(alg)
        );
        set_alg(&mut v, Some(other.value()));
        assert_eq!(
            PublicCoseKey::from_cbor(&encode(&v)).map(|_| ()),
            Err(Error::InvalidKey),
            "{}",
            other.name()
        );
    }
    let mut akp = public(Algorithm::HPKE_9);
    set_alg(&mut akp, None);
    assert_eq!(
        PublicCoseKey::from_cbor(&encode(&akp)).map(|_| ()),
        Err(Error::InvalidKey)
    );
    let mut ec2 = public(Algorithm::HPKE_0);
    set_alg(&mut ec2, None);
    assert_eq!(PublicCoseKey::from_cbor(&encode(&ec2)).unwrap().alg(), None);
}

/// The public part of a private COSE_Key is read with the private key's `key_ops`
/// (`derive_bits`), for a key with `d` (EC2, OKP) and an AKP key with `priv` alike.
#[test]
fn public_part_of_a_private_key_with_its_key_ops() {
    for alg in [Algorithm::HPKE_0, Algorithm::HPKE_3, Algorithm::HPKE_9] {
        let k = key(alg);
        let mut v = decode(&k.to_cbor().unwrap());
        let m = map(&mut v);
        m.retain(|(l, _)| *l != Value::from(4));
        m.push((Value::from(4), Value::Array(vec![Value::from(8)])));
        let public = PublicCoseKey::from_cbor(&encode(&v)).unwrap();
        assert_eq!(public.key(), k.public_key().key(), "{}", alg.name());
    }
}

/// The keys' `Debug` shows the KEM, `alg` and `kid`, and no key bytes; the decryptor's shows
/// its key so.
#[test]
fn key_debug_shows_what_identifies_the_key() {
    let k = key(Algorithm::HPKE_0);
    let public = r#"PublicCoseKey { kem_id: 16, alg: Some("HPKE-0"), kid: Some([72, 80, 75, 69, 45, 48]), .. }"#;
    assert_eq!(format!("{:?}", k.public_key()), public);
    let private = format!("PrivateCoseKey {{ public: {public}, .. }}");
    assert_eq!(format!("{k:?}"), private);
    assert!(format!("{:?}", Decryptor::new(&k)).contains(&private));
}

/// `with_alg` refuses an algorithm of another KEM with the same key type: among the AKP
/// algorithms only the key's own KEM's is taken.
#[test]
fn with_alg_refuses_another_kem_of_the_key_type() {
    let xwing = key(Algorithm::HPKE_9);
    let public = PublicCoseKey::new(xwing.public_key().key().clone());
    assert_eq!(
        public.clone().with_alg(Algorithm::HPKE_12).map(|_| ()),
        Err(Error::InvalidKey)
    );
    assert_eq!(
        public.with_alg(Algorithm::HPKE_9_KE).unwrap().alg(),
        Some(Algorithm::HPKE_9_KE)
    );
    assert_eq!(
        xwing.with_alg(Algorithm::HPKE_13).map(|_| ()),
        Err(Error::InvalidKey)
    );
}

/// The decryptor's message-size cap, to the byte: a message of exactly the cap decrypts, one
/// byte more is `TooLarge` before any decoding (a garbage tail past the cap is never read),
/// for COSE_Encrypt0, COSE_Encrypt and `unwrap_cek`; without a cap the same message decrypts.
#[test]
fn message_size_cap_to_the_byte() {
    let (k0, ke) = (key(Algorithm::HPKE_3), key(Algorithm::HPKE_3_KE));
    for (k, m) in [(&k0, encrypt0(&k0)), (&ke, encrypt(&ke))] {
        let exact = Decryptor::new(k).max_message_len(m.len());
        assert_eq!(exact.decrypt(&m).unwrap(), b"secret");
        let under = Decryptor::new(k).max_message_len(m.len() - 1);
        assert_eq!(under.decrypt(&m), Err(Error::TooLarge));
        assert!(format!("{under:?}").contains(&format!("max_message_len: {}", m.len() - 1)));
        assert_eq!(Decryptor::new(k).decrypt(&m).unwrap(), b"secret");
    }
    let m = encrypt(&ke);
    let under = Decryptor::new(&ke).max_message_len(m.len() - 1);
    assert_eq!(under.unwrap_cek(&m).map(|_| ()), Err(Error::TooLarge));
    assert!(
        Decryptor::new(&ke)
            .max_message_len(m.len())
            .unwrap_cek(&m)
            .is_ok()
    );
}
