//! Recipient selection (draft-ietf-cose-hpke-27 §3.3) and the limits a message meets before
//! the work they bound (README, "Limits"): a recipient that is not the key's is passed over,
//! whatever the order of the recipients, and the error when none opens is the most specific.

use ciborium::Value;
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, MAX_HEADER_LABELS, MAX_TRIAL_OPENS,
    PrivateCoseKey, Recipient,
};

fn rng() -> typed_hpke_cose::OsRng {
    typed_hpke_cose::OsRng::default()
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
        _ => panic!("not a COSE message"),
    }
}

fn recipients(v: &mut Value) -> &mut Vec<Value> {
    match &mut items(v)[3] {
        Value::Array(rs) => rs,
        _ => panic!("no recipients"),
    }
}

const PSK: [u8; 32] = [7; 32];

/// Every order of three recipients.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// K1 in PSK mode, K2 in base mode (both X25519, no `kid`), and a recipient of another
/// algorithm whose `alg` is a text string (RFC 9052 types it `int / tstr`), in every order:
/// each key's decryptor finds its own recipient, and the errors say how far the best got.
#[test]
fn mixed_recipients_in_every_order() {
    let k1 = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let k2 = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let stranger = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let message = Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
        .recipient(
            Recipient::new(Algorithm::HPKE_3_KE, k1.public_key())
                .unwrap()
                .psk(&PSK, b"psk-1")
                .unwrap(),
        )
        .unwrap()
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, k2.public_key()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"to both")
        .unwrap();
    let mut value = decode(&message);
    let foreign_protected = encode(&Value::Map(vec![(
        Value::from(1),
        Value::Text("A128KW".into()),
    )]));
    recipients(&mut value).push(Value::Array(vec![
        Value::Bytes(foreign_protected),
        Value::Map(vec![]),
        Value::Bytes(vec![0; 24]),
    ]));
    let original = recipients(&mut value).clone();
    for order in ORDERS {
        *recipients(&mut value) = order.iter().map(|&i| original[i].clone()).collect();
        let m = encode(&value);
        assert_eq!(
            Decryptor::new(&k2).decrypt(&m).as_deref(),
            Ok(&b"to both"[..]),
            "{order:?}"
        );
        assert_eq!(
            Decryptor::new(&k1)
                .psk(&PSK, b"psk-1")
                .unwrap()
                .decrypt(&m)
                .as_deref(),
            Ok(&b"to both"[..]),
            "{order:?}"
        );
        // K1 without its PSK tries K2's recipient, the only base-mode one, and fails there.
        assert_eq!(Decryptor::new(&k1).decrypt(&m), Err(Error::Decrypt));
        // Another PSK identifier: K1's recipient is passed over, K2's is not in PSK mode.
        assert_eq!(
            Decryptor::new(&k1).psk(&PSK, b"psk-2").unwrap().decrypt(&m),
            Err(Error::Psk),
            "{order:?}"
        );
        assert_eq!(Decryptor::new(&stranger).decrypt(&m), Err(Error::Decrypt));
    }
    // Only K1's recipient and the foreign one: K1 without a PSK is told it is the PSK.
    *recipients(&mut value) = vec![original[0].clone(), original[2].clone()];
    assert_eq!(
        Decryptor::new(&k1).decrypt(&encode(&value)),
        Err(Error::Psk)
    );
    // Only the foreign one: no recipient.
    *recipients(&mut value) = vec![original[2].clone()];
    assert_eq!(
        Decryptor::new(&k1).decrypt(&encode(&value)),
        Err(Error::NoRecipient)
    );
}

/// A message for this key's algorithm with more recipients than [`MAX_TRIAL_OPENS`] that the
/// key cannot rule out is refused before the open past the limit; at the limit, every one is
/// tried.
#[test]
fn trial_opens_are_bounded() {
    let mine = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let others: Vec<_> = (0..=MAX_TRIAL_OPENS)
        .map(|_| PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap())
        .collect();
    let to = |n: usize, last: &PrivateCoseKey| {
        let mut e = Encryptor::key_encryption(ContentAlgorithm::A128Gcm);
        for k in &others[..n] {
            e = e
                .recipient(Recipient::new(Algorithm::HPKE_3_KE, k.public_key()).unwrap())
                .unwrap();
        }
        e.recipient(Recipient::new(Algorithm::HPKE_3_KE, last.public_key()).unwrap())
            .unwrap()
            .encrypt(&mut rng(), b"m")
            .unwrap()
    };
    // The limit-th open is this key's: decrypted.
    let at = to(MAX_TRIAL_OPENS - 1, &mine);
    assert_eq!(Decryptor::new(&mine).decrypt(&at).unwrap(), b"m");
    // One more recipient before it: refused before that open.
    let over = to(MAX_TRIAL_OPENS, &mine);
    assert_eq!(Decryptor::new(&mine).decrypt(&over), Err(Error::TooLarge));
    // With a kid, the others are ruled out without an open.
    let named = mine.clone().with_kid(*b"me");
    let publics: Vec<_> = others
        .iter()
        .map(|k| k.public_key().clone().with_kid(*b"x"))
        .collect();
    let mut e = Encryptor::key_encryption(ContentAlgorithm::A128Gcm);
    for public in &publics {
        e = e
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, public).unwrap())
            .unwrap();
    }
    let m = e
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, named.public_key()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    assert_eq!(Decryptor::new(&named).decrypt(&m).unwrap(), b"m");
}

/// A header bucket with one label more than [`MAX_HEADER_LABELS`] is refused; at the limit it
/// is read (and the message then fails on its own merits).
#[test]
fn header_labels_are_bounded() {
    let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng()).unwrap();
    let message = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())
        .unwrap()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    let with_labels = |n: usize| {
        let mut value = decode(&message);
        let Value::Map(unprotected) = &mut items(&mut value)[1] else {
            panic!("unprotected")
        };
        let have = unprotected.len();
        for i in have..n {
            unprotected.push((Value::from(1000 + i as i64), Value::Null));
        }
        encode(&value)
    };
    assert_eq!(
        Decryptor::new(&key)
            .decrypt(&with_labels(MAX_HEADER_LABELS))
            .unwrap(),
        b"m"
    );
    assert_eq!(
        Decryptor::new(&key).decrypt(&with_labels(MAX_HEADER_LABELS + 1)),
        Err(Error::TooLarge)
    );
    // The review's message: about 0.5 MB, 131,072 distinct labels in the unprotected bucket.
    // Refused on the count, before a label is compared (bench `parse`, "labels").
    let big = with_labels(131_072);
    assert!(big.len() > 500_000, "{}", big.len());
    assert_eq!(Decryptor::new(&key).decrypt(&big), Err(Error::TooLarge));
}

/// draft-ietf-cose-hpke-pq-pqt §5: the recipients of a message with a post-quantum
/// key-encryption recipient are all quantum-resistant; one traditional recipient beside one
/// post-quantum, in either order, is refused as it is added.
#[test]
fn post_quantum_recipients_are_not_mixed_with_traditional_ones() {
    let pq = PrivateCoseKey::generate(Algorithm::HPKE_9_KE, &mut rng()).unwrap();
    let pq2 = PrivateCoseKey::generate(Algorithm::HPKE_12_KE, &mut rng()).unwrap();
    let classic = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    fn to(alg: Algorithm, key: &PrivateCoseKey) -> Recipient<'_> {
        Recipient::new(alg, key.public_key()).unwrap()
    }
    let with = |first: Recipient<'_>, second: Recipient<'_>| {
        Encryptor::key_encryption(ContentAlgorithm::A256Gcm)
            .recipient(first)
            .unwrap()
            .recipient(second)
            .map(drop)
    };
    assert_eq!(
        with(
            to(Algorithm::HPKE_9_KE, &pq),
            to(Algorithm::HPKE_3_KE, &classic)
        ),
        Err(Error::UnsupportedAlgorithm)
    );
    assert_eq!(
        with(
            to(Algorithm::HPKE_3_KE, &classic),
            to(Algorithm::HPKE_9_KE, &pq)
        ),
        Err(Error::UnsupportedAlgorithm)
    );
    assert_eq!(
        with(
            to(Algorithm::HPKE_9_KE, &pq),
            to(Algorithm::HPKE_12_KE, &pq2)
        ),
        Ok(())
    );
}

/// A receiver reads a message's `kid` and `psk_id` before it chooses a key and a PSK
/// (`Message`), and a COSE_Encrypt0's `kid` can be protected, where the Enc_structure
/// authenticates it.
#[test]
fn message_read_before_choosing_a_key() {
    use typed_hpke_cose::Message;
    let mine = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng())
        .unwrap()
        .with_kid(*b"me");
    let bytes = Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
        .recipient(
            Recipient::new(Algorithm::HPKE_3_KE, mine.public_key())
                .unwrap()
                .psk(&PSK, b"psk-1")
                .unwrap(),
        )
        .unwrap()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    let mut value = decode(&bytes);
    let foreign = encode(&Value::Map(vec![(
        Value::from(1),
        Value::Text("A128KW".into()),
    )]));
    recipients(&mut value).push(Value::Array(vec![
        Value::Bytes(foreign),
        Value::Map(vec![]),
        Value::Bytes(vec![0; 24]),
    ]));
    let message = Message::parse(&encode(&value)).unwrap();
    assert!(!message.is_encrypt0());
    let [first, second] = message.recipients() else {
        panic!("two recipients")
    };
    assert_eq!(first.alg(), Some(Algorithm::HPKE_3_KE));
    assert_eq!(first.kid(), Some(&b"me"[..]));
    assert_eq!(first.psk_id(), Some(&b"psk-1"[..]));
    assert_eq!((second.alg(), second.kid()), (None, None));
    // The same limits as decryption: one recipient over MAX_RECIPIENTS.
    let over: Vec<Value> =
        vec![recipients(&mut value)[0].clone(); typed_hpke_cose::MAX_RECIPIENTS + 1];
    *recipients(&mut value) = over;
    assert_eq!(Message::parse(&encode(&value)), Err(Error::TooLarge));

    // COSE_Encrypt0, kid protected: read, authenticated, and decrypted.
    let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng())
        .unwrap()
        .with_kid(*b"device");
    let bytes = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())
        .unwrap()
        .protected_kid()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    let message = Message::parse(&bytes).unwrap();
    assert!(message.is_encrypt0());
    assert_eq!(message.recipients()[0].kid(), Some(&b"device"[..]));
    assert_eq!(Decryptor::new(&key).decrypt(&bytes).unwrap(), b"m");
    let mut value = decode(&bytes);
    let Value::Bytes(protected) = &items(&mut value)[0] else {
        panic!("protected bucket")
    };
    let protected = decode(protected);
    assert!(
        matches!(&protected, Value::Map(m) if m.iter().any(|(l, _)| *l == Value::from(4))),
        "kid in the protected bucket"
    );
    let Value::Map(unprotected) = &items(&mut value)[1] else {
        panic!("unprotected bucket")
    };
    assert!(!unprotected.iter().any(|(l, _)| *l == Value::from(4)));
    // A protected kid changed: the message no longer opens (a renamed key does not match).
    let renamed = key.clone().with_kid(*b"devicf");
    let mut changed = bytes.clone();
    let at = changed.windows(6).position(|w| w == b"device").unwrap();
    changed[at + 5] = b'f';
    assert_eq!(
        Decryptor::new(&renamed).decrypt(&changed),
        Err(Error::Decrypt)
    );
}
