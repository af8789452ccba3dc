//! Through the `age` crate's own API: files its tagged recipients make open with this crate's
//! identities; files this crate's recipients make, with several recipients of mixed types,
//! armored and binary, empty and of several chunks, open with each identity; the labels keep
//! post-quantum and classical recipients apart; malformed stanzas and recipients are refused
//! before any key is asked.

mod common;

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use age::{DecryptError, EncryptError};
use age_core::format::{FileKey, Stanza};
use age_core::secrecy::ExposeSecret as _;
use common::{decrypt, encrypt};
use typed_hpke::kem::{DecapHolder, DhKemP256HkdfSha256, Kem, MlKem768P256};
use typed_hpke::{EncappedKey, PrivateKey};
use typed_hpke_age::tag::{
    MlKem768P256TagIdentity, MlKem768P256TagRecipient, P256TagIdentity, P256TagRecipient,
    TagIdentity, TagKem, TagRecipient,
};
use typed_hpke_age::{MAX_STANZAS, MAX_TAGGED_STANZAS, pq};

/// 64 KiB, age's payload chunk.
const CHUNK: usize = 64 * 1024;

fn plaintext(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 % 251) as u8).collect()
}

#[test]
fn files_of_the_age_crates_tagged_recipients_open_here() {
    let p256 = P256TagIdentity::generate();
    let theirs = age::tag::Recipient::from_str(&p256.to_public().to_string()).unwrap();
    // The same key prints the same recipient in both crates.
    assert_eq!(theirs.to_string(), p256.to_public().to_string());
    let pq = MlKem768P256TagIdentity::generate();
    let theirs_pq = age::tagpq::Recipient::from_str(&pq.to_public().to_string()).unwrap();
    assert_eq!(theirs_pq.to_string(), pq.to_public().to_string());
    for len in [0, 1, CHUNK + 1] {
        let pt = plaintext(len);
        let file = encrypt(&[&theirs], &pt, false);
        assert_eq!(decrypt(&file, &p256).unwrap(), pt);
        // Another identity of the type passes the stanza over: its tag is not its own.
        let other = P256TagIdentity::generate();
        assert!(matches!(
            decrypt(&file, &other),
            Err(DecryptError::NoMatchingKeys)
        ));
        let file = encrypt(&[&theirs_pq], &pt, true);
        assert_eq!(decrypt(&file, &pq).unwrap(), pt);
        let other = MlKem768P256TagIdentity::generate();
        assert!(matches!(
            decrypt(&file, &other),
            Err(DecryptError::NoMatchingKeys)
        ));
    }
}

#[test]
fn mixed_recipients_round_trip() {
    let pq_id = pq::Identity::generate();
    let tagpq_id = MlKem768P256TagIdentity::generate();
    let pq_only: [&dyn age::Recipient; 3] = [
        &pq_id.to_public(),
        &tagpq_id.to_public(),
        &pq::Identity::generate().to_public(),
    ];
    let p256_id = P256TagIdentity::generate();
    let x25519_id = age::x25519::Identity::generate();
    let classical: [&dyn age::Recipient; 2] = [&p256_id.to_public(), &x25519_id.to_public()];
    for len in [0, 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
        let pt = plaintext(len);
        for armor in [false, true] {
            let file = encrypt(&pq_only, &pt, armor);
            assert_eq!(decrypt(&file, &pq_id).unwrap(), pt, "pq, {len}, {armor}");
            assert_eq!(
                decrypt(&file, &tagpq_id).unwrap(),
                pt,
                "tagpq, {len}, {armor}"
            );
            let file = encrypt(&classical, &pt, armor);
            assert_eq!(decrypt(&file, &p256_id).unwrap(), pt, "tag, {len}, {armor}");
            assert_eq!(
                decrypt(&file, &x25519_id).unwrap(),
                pt,
                "x25519, {len}, {armor}"
            );
            assert!(matches!(
                decrypt(&file, &pq_id),
                Err(DecryptError::NoMatchingKeys)
            ));
        }
    }
}

#[test]
fn post_quantum_recipients_do_not_mix_with_classical_ones() {
    let pq = pq::Identity::generate().to_public();
    let tagpq = MlKem768P256TagIdentity::generate().to_public();
    let tag = P256TagIdentity::generate().to_public();
    let x25519 = age::x25519::Identity::generate().to_public();
    for pair in [
        [&pq as &dyn age::Recipient, &x25519],
        [&pq, &tag],
        [&tagpq, &x25519],
        [&tagpq, &tag],
    ] {
        assert!(matches!(
            age::Encryptor::with_recipients(pair.into_iter()),
            Err(EncryptError::IncompatibleRecipients { .. })
        ));
    }
    assert!(
        age::Encryptor::with_recipients([&pq as &dyn age::Recipient, &tagpq].into_iter()).is_ok()
    );
    assert!(
        age::Encryptor::with_recipients([&tag as &dyn age::Recipient, &x25519].into_iter()).is_ok()
    );
}

/// Sets the first ML-KEM coefficient of an encoded key to 4095, above q = 3329.
fn unreduce(mut key: Vec<u8>) -> Vec<u8> {
    key[0] = 0xff;
    key[1] |= 0x0f;
    key
}

#[test]
fn an_unreduced_ml_kem_coefficient_is_refused() {
    let bech32 = |hrp: &str, data: &[u8]| {
        age_core::primitives::bech32_encode(bech32::Hrp::parse(hrp).unwrap(), data)
    };
    let tagpq = MlKem768P256TagIdentity::generate();
    let bad = bech32(
        "age1tagpq",
        &unreduce(tagpq.to_public().public_key().as_bytes().to_vec()),
    );
    assert!(bad.parse::<MlKem768P256TagRecipient>().is_err());
    // The trap the issue names: the `age` crate's own tagpq recipient takes it.
    assert!(age::tagpq::Recipient::from_str(&bad).is_ok());
    let pq = pq::Identity::generate();
    let bad = bech32(
        "age1pq",
        &unreduce(pq.to_public().public_key().as_bytes().to_vec()),
    );
    assert!(bad.parse::<pq::Recipient>().is_err());
}

/// A whole-KEM holder over a key in this process that counts what it is asked.
struct Counting<K: Kem> {
    sk: PrivateKey<K>,
    asked: AtomicUsize,
}

#[derive(Debug)]
struct Never;
impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}
impl std::error::Error for Never {}

impl<K: Kem> DecapHolder<K> for Counting<K> {
    type Error = Never;
    fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), Never> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        out.copy_from_slice(K::decap(enc, &self.sk).unwrap().as_bytes());
        Ok(())
    }
}

fn wrap<K: TagKem>(recipient: &TagRecipient<K>) -> Stanza {
    let file_key = FileKey::new(Box::new([7; 16]));
    let (mut stanzas, _) = age::Recipient::wrap_file_key(recipient, &file_key).unwrap();
    stanzas.pop().unwrap()
}

/// Every refusal of the tagged stanza section, and the tag's filter, with a holder that counts:
/// nothing malformed and nothing addressed elsewhere reaches the key.
fn tagged_checks<K: TagKem>() {
    use age::Identity as _;
    let sk = K::generate(&mut typed_hpke::OsRng::default()).unwrap().0;
    let recipient = TagRecipient::<K>::from_public_key(sk.public_key());
    let counting = Counting {
        sk,
        asked: AtomicUsize::new(0),
    };
    let identity = TagIdentity::held_decap(&counting, recipient.clone());
    let asked = || counting.asked.load(Ordering::Relaxed);

    let good = wrap(&recipient);
    let key = identity.unwrap_stanza(&good).unwrap().unwrap();
    assert_eq!(key.expose_secret(), &[7; 16]);
    assert_eq!(asked(), 1);

    let refused = |s: &Stanza| {
        matches!(
            identity.unwrap_stanza(s),
            Some(Err(DecryptError::InvalidHeader))
        )
    };
    let mut s = wrap(&recipient);
    s.body.push(0);
    assert!(refused(&s), "a 33-byte body");
    s.body.truncate(31);
    assert!(refused(&s), "a 31-byte body");
    let mut s = wrap(&recipient);
    s.args.push("x".into());
    assert!(refused(&s), "an extra argument");
    s.args.truncate(1);
    assert!(refused(&s), "a missing argument");
    let mut s = wrap(&recipient);
    s.args[0].push('A');
    assert!(refused(&s), "a 5-character tag");
    let mut s = wrap(&recipient);
    s.args[1].push('=');
    assert!(refused(&s), "padding on enc");
    let mut s = wrap(&recipient);
    // The last character of the canonical encoding of Nenc bytes carries unused bits: setting
    // one gives a non-canonical encoding of the same bytes.
    let last = s.args[1].pop().unwrap();
    let value = base64_value(last);
    s.args[1].push(base64_char(value | 1));
    assert!(value & 1 == 0 && refused(&s), "non-canonical enc");
    assert_eq!(asked(), 1, "a malformed stanza reached the key");

    // Another recipient's stanza, or a wrong tag: passed over, the key not asked.
    let other = wrap(&TagRecipient::<K>::from_public_key(
        K::generate(&mut typed_hpke::OsRng::default()).unwrap().1,
    ));
    assert!(identity.unwrap_stanza(&other).is_none());
    let mut s = wrap(&recipient);
    s.args[0] = if s.args[0] == "AAAAAA" {
        "AAAAAQ".into()
    } else {
        "AAAAAA".into()
    };
    assert!(identity.unwrap_stanza(&s).is_none());
    assert_eq!(asked(), 1, "a stanza of another tag reached the key");
    // Another type entirely is ignored.
    let mut s = wrap(&recipient);
    s.tag = s.tag.to_uppercase();
    assert!(identity.unwrap_stanza(&s).is_none());

    // A stanza with the right tag that does not open: the key is asked, the search goes on.
    let mut s = wrap(&recipient);
    s.body[0] ^= 1;
    assert!(identity.unwrap_stanza(&s).is_none());
    assert_eq!(asked(), 2);

    // The key-work bound counts the stanzas of this tag: a file to 257 recipients, one of
    // them this one (a team file to 257 hardware keys), opens with one key asked, as Go's age
    // opens it. It used to count every stanza of the type and refuse the file.
    let mut stanzas: Vec<Stanza> = (0..MAX_STANZAS).map(|_| other.clone_stanza()).collect();
    stanzas.push(wrap(&recipient));
    assert!(matches!(identity.unwrap_stanzas(&stanzas), Some(Ok(_))));
    assert_eq!(asked(), 3);
    // MAX_STANZAS of this tag are tried; one more refuses the header before any is.
    let mut dud = wrap(&recipient);
    dud.body[0] ^= 1;
    let mut stanzas: Vec<Stanza> = (0..MAX_STANZAS - 1).map(|_| dud.clone_stanza()).collect();
    stanzas.push(wrap(&recipient));
    assert!(matches!(identity.unwrap_stanzas(&stanzas), Some(Ok(_))));
    assert_eq!(asked(), 3 + MAX_STANZAS);
    stanzas.insert(0, dud.clone_stanza());
    assert!(matches!(
        identity.unwrap_stanzas(&stanzas),
        Some(Err(DecryptError::InvalidHeader))
    ));
    assert_eq!(
        asked(),
        3 + MAX_STANZAS,
        "the bound was checked after a key was asked"
    );
    // The parse bound: MAX_TAGGED_STANZAS of the type are read, one more refuses the header.
    let mut stanzas: Vec<Stanza> = (0..MAX_TAGGED_STANZAS - 1)
        .map(|_| other.clone_stanza())
        .collect();
    stanzas.push(wrap(&recipient));
    assert!(matches!(identity.unwrap_stanzas(&stanzas), Some(Ok(_))));
    stanzas.insert(0, other.clone_stanza());
    assert!(matches!(
        identity.unwrap_stanzas(&stanzas),
        Some(Err(DecryptError::InvalidHeader))
    ));
    assert_eq!(asked(), 4 + MAX_STANZAS);

    // A malformed stanza of the type fails the file wherever it is, even after the stanza that
    // opens (c2sp.org/age-plugin: no stanza of a file with a structurally invalid one is
    // unwrapped), and before any key is asked. It used to be reached only if no stanza opened.
    let mut bad = wrap(&recipient);
    bad.args.pop();
    for stanzas in [
        vec![wrap(&recipient), bad.clone_stanza()],
        vec![other.clone_stanza(), bad.clone_stanza(), wrap(&recipient)],
    ] {
        assert!(matches!(
            identity.unwrap_stanzas(&stanzas),
            Some(Err(DecryptError::InvalidHeader))
        ));
    }
    assert_eq!(
        asked(),
        4 + MAX_STANZAS,
        "a key was asked about a malformed file"
    );
}

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
fn base64_value(c: char) -> u8 {
    ALPHABET.iter().position(|&a| a == c as u8).unwrap() as u8
}
fn base64_char(v: u8) -> char {
    ALPHABET[v as usize] as char
}

#[test]
fn p256tag_stanza_checks() {
    tagged_checks::<DhKemP256HkdfSha256>();
}

#[test]
fn mlkem768p256tag_stanza_checks() {
    tagged_checks::<MlKem768P256>();
}

#[test]
fn mlkem768x25519_stanza_checks_and_bound() {
    use age::Identity as _;
    let identity = pq::Identity::generate();
    let file_key = FileKey::new(Box::new([9; 16]));
    let wrap = |r: &pq::Recipient| {
        age::Recipient::wrap_file_key(r, &file_key)
            .unwrap()
            .0
            .pop()
            .unwrap()
    };
    let good = wrap(&identity.to_public());
    assert_eq!(good.args.len(), 1);
    assert_eq!(
        identity
            .unwrap_stanza(&good)
            .unwrap()
            .unwrap()
            .expose_secret(),
        &[9; 16]
    );
    let refused = |s: &Stanza| {
        matches!(
            identity.unwrap_stanza(s),
            Some(Err(DecryptError::InvalidHeader))
        )
    };
    let mut s = good.clone_stanza();
    s.body.pop();
    assert!(refused(&s));
    let mut s = good.clone_stanza();
    s.args.push("x".into());
    assert!(refused(&s));
    let mut s = good.clone_stanza();
    s.args[0].pop();
    assert!(refused(&s));
    // A low-order X25519 share (all zeros) does not decapsulate: a header failure, as the
    // kit's hybrid_low_order has it.
    let mut s = good.clone_stanza();
    let mut enc = base64_decode(&s.args[0]);
    enc[1088..].fill(0);
    s.args[0] = base64_encode(&enc);
    assert!(refused(&s));
    // Another recipient's stanza does not open: passed over.
    let other = wrap(&pq::Identity::generate().to_public());
    assert!(identity.unwrap_stanza(&other).is_none());
    let mut stanzas: Vec<Stanza> = (0..MAX_STANZAS).map(|_| other.clone_stanza()).collect();
    assert!(identity.unwrap_stanzas(&stanzas).is_none());
    stanzas.push(good.clone_stanza());
    assert!(matches!(
        identity.unwrap_stanzas(&stanzas),
        Some(Err(DecryptError::InvalidHeader))
    ));
    // A malformed stanza after the one that opens still fails the file (it used to open).
    let mut bad = good.clone_stanza();
    bad.args.clear();
    assert_eq!(pq::is_well_formed(&bad), Some(false));
    assert_eq!(pq::is_well_formed(&good), Some(true));
    assert!(matches!(
        identity.unwrap_stanzas(&[good.clone_stanza(), bad]),
        Some(Err(DecryptError::InvalidHeader))
    ));
}

fn base64_decode(s: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::prelude::BASE64_STANDARD_NO_PAD.decode(s).unwrap()
}

fn base64_encode(b: &[u8]) -> String {
    use base64::Engine as _;
    base64::prelude::BASE64_STANDARD_NO_PAD.encode(b)
}

trait CloneStanza {
    fn clone_stanza(&self) -> Stanza;
}
impl CloneStanza for Stanza {
    fn clone_stanza(&self) -> Stanza {
        Stanza {
            tag: self.tag.clone(),
            args: self.args.clone(),
            body: self.body.clone(),
        }
    }
}

#[test]
fn debug_shows_public_keys_only() {
    let pq = pq::Identity::generate();
    let seed = pq.private_key().to_bytes();
    let shown = format!("{pq:?}");
    assert!(shown.contains(&pq.to_public().to_string()));
    assert!(!shown.contains(pq.to_string().expose_secret()));
    let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
    assert!(!shown.contains(&hex));
    let tag = P256TagIdentity::generate();
    let sk: String = tag
        .key()
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let shown = format!("{tag:?}");
    assert!(shown.contains(&tag.to_public().to_string()) && !shown.contains(&sk));
    let r: P256TagRecipient = tag.to_public().to_string().parse().unwrap();
    assert_eq!(r, tag.to_public());
}

/// An `age1pq1…` recipient whose X25519 half is of low order (u = 0, 1, the two points of
/// order 8, p-1, p, p+1, and 0 and 1 with the ignored top bit set): refused when parsed, as Go's
/// age refuses it ("low order point"), and, given unchecked to `from_public_key`, refused by
/// the `age` crate's error when a file is encrypted to it. Encrypting to such a string used to
/// panic (`expect` on typed-hpke's `Encap` error).
#[test]
fn low_order_age1pq1_recipients_are_refused() {
    use typed_hpke::kem::XWing;
    let p: [u8; 32] = {
        let mut p = [0xffu8; 32];
        p[0] = 0xed;
        p[31] = 0x7f;
        p
    };
    let plus = |mut x: [u8; 32], d: i16| {
        let v = i16::from(x[0]) + d;
        x[0] = v as u8;
        x
    };
    let le = |hex: &str| -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    };
    let mut zero_top = [0u8; 32];
    zero_top[31] = 0x80;
    let mut one_top = zero_top;
    one_top[0] = 1;
    let low_order: [[u8; 32]; 9] = [
        [0; 32],
        {
            let mut one = [0u8; 32];
            one[0] = 1;
            one
        },
        le("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
        le("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
        plus(p, -1),
        p,
        plus(p, 1),
        zero_top,
        one_top,
    ];
    let good = pq::Identity::generate().to_public();
    let good_bytes = good.public_key().as_bytes().to_vec();
    let hrp = bech32::Hrp::parse("age1pq").unwrap();
    for u in low_order {
        let mut bytes = good_bytes.clone();
        let n = bytes.len();
        bytes[n - 32..].copy_from_slice(&u);
        let s = age_core::primitives::bech32_encode(hrp, &bytes);
        assert_eq!(
            s.parse::<pq::Recipient>().unwrap_err(),
            "invalid X-Wing public key: X25519 share of low order",
            "{u:02x?}"
        );
        let unchecked = pq::Recipient::from_public_key(
            typed_hpke::PublicKey::<XWing>::from_bytes(&bytes).unwrap(),
        );
        let file_key = FileKey::new(Box::new([9; 16]));
        match age::Recipient::wrap_file_key(&unchecked, &file_key) {
            Err(age::EncryptError::Io(e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput)
            }
            other => panic!("{u:02x?}: {:?}", other.map(|_| ())),
        }
    }
    // The valid key's own string still parses and takes a file.
    assert_eq!(good.to_string().parse::<pq::Recipient>().unwrap(), good);
}
