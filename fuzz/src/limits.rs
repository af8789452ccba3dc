//! `limits`: large structured messages for the JOSE and COSE decryptors, built from the input
//! up to past each limit, with the outcome each limit and rule decides (each crate's README,
//! "Limits"): header buckets of up to twice `MAX_HEADER_LABELS` labels, duplicates among them
//! or not; up to `MAX_RECIPIENTS + 8` recipients of four kinds (another algorithm with an
//! integer or a text `alg`, another key of this key's algorithm without a `kid`, one under
//! another `kid`) around this key's own or without it; a shared JOSE header of up to 64 KiB.
//! Arbitrary bytes rarely get past a parser's first rules; these reach the limits.

use std::collections::HashSet;
use std::sync::OnceLock;

use ciborium::Value;

use crate::Input;

/// The recipients' kinds, from an input byte.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    ForeignText,
    ForeignInt,
    /// Another key of this key's algorithm, no `kid`: an HPKE open each.
    SameAlgorithm,
    /// Another key of this key's algorithm under another `kid`: passed over without an open.
    OtherKid,
}

fn kind(b: u8) -> Kind {
    match b % 4 {
        0 => Kind::ForeignText,
        1 => Kind::ForeignInt,
        2 => Kind::SameAlgorithm,
        _ => Kind::OtherKid,
    }
}

/// What decrypting a message of `kinds` (this key's recipient at `ours`, if any) must give:
/// `Ok` for this key's, else the limit or the most specific error.
fn expected_outcome(kinds: &[Kind], ours: Option<usize>, max_recipients: usize) -> Outcome {
    if kinds.len() + usize::from(ours.is_some()) > max_recipients {
        return Outcome::TooLarge;
    }
    let opens = |ks: &[Kind]| ks.iter().filter(|&&k| k == Kind::SameAlgorithm).count();
    match ours {
        Some(at) if opens(&kinds[..at]) < typed_hpke_cose::MAX_TRIAL_OPENS => Outcome::Ok,
        Some(_) => Outcome::TooLarge,
        None if opens(kinds) > typed_hpke_cose::MAX_TRIAL_OPENS => Outcome::TooLarge,
        None if opens(kinds) > 0 => Outcome::Decrypt,
        None => Outcome::NoRecipient,
    }
}

/// A decryption's outcome against the expected one; a plaintext must be this key's.
fn check(result: Result<Vec<u8>, Outcome>, expected: Outcome, kinds: &[Kind], ours: Option<usize>) {
    let outcome = result.map_or_else(
        |e| e,
        |plaintext| {
            assert_eq!(plaintext, b"mine");
            Outcome::Ok
        },
    );
    assert_eq!(
        outcome,
        expected,
        "{} recipients, ours at {ours:?}",
        kinds.len()
    );
}

#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Ok,
    TooLarge,
    Decrypt,
    NoRecipient,
}

/// The recipients' kinds and where this key's goes, from the input: up to `max + 8` in all.
fn recipients(input: &mut Input<'_>, max: usize) -> (Vec<Kind>, Option<usize>) {
    let count = usize::from(input.u16()) % (max + 9);
    let kinds: Vec<Kind> = (0..count).map(|_| kind(input.byte())).collect();
    let ours = input.byte();
    let ours = (!ours.is_multiple_of(4)).then(|| usize::from(input.u16()) % (kinds.len() + 1));
    (kinds, ours)
}

fn rng(data: &[u8]) -> rand_chacha::ChaCha20Rng {
    use rand_chacha::rand_core::SeedableRng;
    rand_chacha::ChaCha20Rng::seed_from_u64(crate::seed_of(data))
}

/// This key and another of the same algorithm (X25519), derived once per process.
fn pair() -> &'static (typed_hpke::suite::PrivateKey, typed_hpke::suite::PrivateKey) {
    static PAIR: OnceLock<(typed_hpke::suite::PrivateKey, typed_hpke::suite::PrivateKey)> =
        OnceLock::new();
    PAIR.get_or_init(|| {
        let kem = typed_hpke::suite::AnyKem::new(0x0020).unwrap();
        (
            kem.derive_key_pair(b"limits: this key").unwrap().0,
            kem.derive_key_pair(b"limits: another").unwrap().0,
        )
    })
}

pub fn limits(data: &[u8]) {
    let mut input = Input(data);
    match input.byte() % 3 {
        0 => cose_labels(&mut input, data),
        1 => cose_recipients(&mut input, data),
        _ => jose_recipients(&mut input, data),
    }
}

fn cbor(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::ser::into_writer(v, &mut out).unwrap();
    out
}

fn items(v: &mut Value) -> &mut Vec<Value> {
    match v {
        Value::Tag(_, inner) => items(inner),
        Value::Array(a) => a,
        _ => unreachable!("a COSE message is an array"),
    }
}

/// A COSE_Encrypt0 to this key with labels added to both buckets: refused past
/// `MAX_HEADER_LABELS` in either, refused for a label twice (in a bucket or across the two),
/// failing to open with a protected label added (it is authenticated), decrypted otherwise (the
/// labels added are none the draft defines).
fn cose_labels(input: &mut Input<'_>, data: &[u8]) {
    use typed_hpke_cose::{
        Algorithm, Decryptor, Encryptor, Error, MAX_HEADER_LABELS, PrivateCoseKey,
    };
    let key = PrivateCoseKey::new(pair().0.clone())
        .with_alg(Algorithm::HPKE_3)
        .unwrap();
    let message = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())
        .unwrap()
        .encrypt(&mut rng(data), b"labels")
        .unwrap();
    let mut value: Value = ciborium::de::from_reader(&message[..]).unwrap();
    let (mut protected, mut unprotected) = {
        let parts = items(&mut value);
        let Value::Bytes(p) = &parts[0] else {
            unreachable!()
        };
        let Value::Map(p) = ciborium::de::from_reader::<Value, _>(&p[..]).unwrap() else {
            unreachable!()
        };
        let Value::Map(u) = parts[1].clone() else {
            unreachable!()
        };
        (p, u)
    };
    // Each bucket's labels as (text?, value): the message has alg (1) protected and ek (-4)
    // unprotected; a bucket's duplicates, and the labels both buckets have.
    let mut labels: [HashSet<(bool, i64)>; 2] =
        [HashSet::from([(false, 1)]), HashSet::from([(false, -4)])];
    let mut repeated = [false; 2];
    let mut counts = [protected.len(), unprotected.len()];
    let protected_before = counts[0];
    for (bucket, n) in [(0usize, input.byte()), (1, input.byte())] {
        let n = usize::from(n) % (2 * MAX_HEADER_LABELS + 2);
        for _ in 0..n {
            // Integer labels from 1000 or text labels, either picked from a small range so that
            // duplicates happen.
            let b = input.byte();
            let (is_text, id) = (b & 0x80 != 0, 1000 + i64::from(b & 0x7f));
            let label = if is_text {
                Value::Text(format!("x{id}"))
            } else {
                Value::from(id)
            };
            repeated[bucket] |= !labels[bucket].insert((is_text, id));
            let map = if bucket == 0 {
                &mut protected
            } else {
                &mut unprotected
            };
            map.push((label, Value::Null));
            counts[bucket] += 1;
        }
    }
    let across = labels[0].intersection(&labels[1]).next().is_some();
    let parts = items(&mut value);
    parts[0] = Value::Bytes(cbor(&Value::Map(protected)));
    parts[1] = Value::Map(unprotected);
    let bytes = cbor(&value);
    let result = Decryptor::new(&key).decrypt(&bytes);
    // The protected bucket is read whole (its count, then its labels) before the unprotected
    // one, and the two are compared with each other last.
    let expected = if counts[0] > MAX_HEADER_LABELS {
        Err(Error::TooLarge)
    } else if repeated[0] {
        Err(Error::DuplicateLabel)
    } else if counts[1] > MAX_HEADER_LABELS {
        Err(Error::TooLarge)
    } else if repeated[1] || across {
        Err(Error::DuplicateLabel)
    } else if counts[0] > protected_before {
        // The protected bucket is in the Enc_structure the sender authenticated.
        Err(Error::Decrypt)
    } else {
        Ok(b"labels".to_vec())
    };
    assert_eq!(result, expected, "{counts:?} labels");
}

/// A COSE_Encrypt with recipients of every kind around this key's (or without it).
fn cose_recipients(input: &mut Input<'_>, data: &[u8]) {
    use typed_hpke_cose::{
        Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, MAX_RECIPIENTS, PrivateCoseKey,
        Recipient,
    };
    let (kinds, ours) = recipients(input, MAX_RECIPIENTS);
    let mut rng = rng(data);
    let key = PrivateCoseKey::new(pair().0.clone())
        .with_alg(Algorithm::HPKE_3_KE)
        .unwrap()
        .with_kid(*b"me");
    let other = PrivateCoseKey::new(pair().1.clone())
        .with_alg(Algorithm::HPKE_3_KE)
        .unwrap();
    let other_kid = other.public_key().clone().with_kid(*b"them");
    let to = |public| {
        Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, public).unwrap())
            .unwrap()
    };
    // One message to this key, and the recipients of the others taken from messages to them.
    let mut message: Value =
        ciborium::de::from_reader(&to(key.public_key()).encrypt(&mut rng, b"mine").unwrap()[..])
            .unwrap();
    let recipient_of = |m: Vec<u8>| -> Value {
        let mut v: Value = ciborium::de::from_reader(&m[..]).unwrap();
        let Value::Array(r) = &mut items(&mut v)[3] else {
            unreachable!()
        };
        r.remove(0)
    };
    let same = recipient_of(to(other.public_key()).encrypt(&mut rng, b"x").unwrap());
    let named = recipient_of(to(&other_kid).encrypt(&mut rng, b"x").unwrap());
    let foreign = |alg: Value| {
        Value::Array(vec![
            Value::Bytes(cbor(&Value::Map(vec![(Value::from(1), alg)]))),
            Value::Map(vec![]),
            Value::Bytes(vec![0; 24]),
        ])
    };
    let parts = items(&mut message);
    let Value::Array(list) = &mut parts[3] else {
        unreachable!()
    };
    let mine = list.remove(0);
    for k in &kinds {
        list.push(match k {
            Kind::ForeignText => foreign(Value::Text("A128KW".into())),
            Kind::ForeignInt => foreign(Value::from(-3)),
            Kind::SameAlgorithm => same.clone(),
            Kind::OtherKid => named.clone(),
        });
    }
    if let Some(at) = ours {
        list.insert(at, mine);
    }
    if list.is_empty() {
        return; // a COSE_Encrypt has at least one recipient (`Malformed` otherwise)
    }
    let result = Decryptor::new(&key)
        .decrypt(&cbor(&message))
        .map_err(|e| match e {
            Error::TooLarge => Outcome::TooLarge,
            Error::Decrypt => Outcome::Decrypt,
            Error::NoRecipient => Outcome::NoRecipient,
            e => panic!("unexpected {e:?}"),
        });
    check(
        result,
        expected_outcome(&kinds, ours, MAX_RECIPIENTS),
        &kinds,
        ours,
    );
}

/// A JWE (general serialization) with recipients of every kind around this key's, and a shared
/// unprotected header of up to 64 KiB.
fn jose_recipients(input: &mut Input<'_>, data: &[u8]) {
    use typed_hpke_jose::{
        Algorithm, ContentEncryption, Decryptor, Encryptor, Error, Jwe, MAX_RECIPIENTS, PrivateJwk,
        Recipient,
    };
    let (kinds, ours) = recipients(input, MAX_RECIPIENTS);
    let shared = usize::from(input.byte()) * 256;
    let mut rng = rng(data);
    let key = PrivateJwk::new(pair().0.clone())
        .with_alg(Algorithm::HPKE_3_KE)
        .unwrap()
        .with_kid("me");
    let other = PrivateJwk::new(pair().1.clone())
        .with_alg(Algorithm::HPKE_3_KE)
        .unwrap();
    let other_kid = other.public_jwk().clone().with_kid("them");
    let mut general = |public| -> serde_json::Value {
        let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, public).unwrap())
            .unwrap()
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, public).unwrap())
            .unwrap()
            .encrypt(&mut rng, b"mine")
            .unwrap();
        serde_json::from_str(&jwe.to_general()).unwrap()
    };
    let mut message = general(key.public_jwk());
    let first = |v: serde_json::Value| v["recipients"][0].clone();
    let mine = first(message.clone());
    let same = first(general(other.public_jwk()));
    let named = first(general(&other_kid));
    let foreign = |alg: &str| serde_json::json!({"header": {"alg": alg}, "encrypted_key": "AAAA"});
    let mut list: Vec<serde_json::Value> = kinds
        .iter()
        .map(|k| match k {
            Kind::ForeignText => foreign("ECDH-ES+A128KW"),
            Kind::ForeignInt => foreign("RSA-OAEP-256"),
            Kind::SameAlgorithm => same.clone(),
            Kind::OtherKid => named.clone(),
        })
        .collect();
    if let Some(at) = ours {
        list.insert(at, mine);
    }
    if list.is_empty() {
        return; // a JWE has at least one recipient
    }
    message["recipients"] = serde_json::Value::Array(list);
    if shared > 0 {
        message["unprotected"] = serde_json::json!({ "x-note": "n".repeat(shared) });
    }
    let result = Jwe::parse(&message.to_string())
        .and_then(|jwe| Decryptor::new(&key).decrypt(&jwe))
        .map_err(|e| match e {
            Error::TooLarge => Outcome::TooLarge,
            Error::Decrypt => Outcome::Decrypt,
            Error::NoRecipient => Outcome::NoRecipient,
            e => panic!("unexpected {e:?}"),
        });
    check(
        result,
        expected_outcome(&kinds, ours, MAX_RECIPIENTS),
        &kinds,
        ours,
    );
}
