//! The fuzz targets' bodies (`fuzz/fuzz_targets/stanzas.rs`, `fuzz/fuzz_targets/recipients.rs`),
//! here so that `tests/fuzz_corpus.rs` replays the kept corpora through the same code in the
//! ordinary test build. Not API.

use age::Identity as _;
use age_core::format::Stanza;
use typed_hpke::kem::{DhKemP256HkdfSha256, Kem, MlKem768P256, XWing};

use crate::pq;
use crate::tag::{MlKem768P256TagRecipient, P256TagRecipient, TagIdentity};

/// Key strings, stanzas and whole headers from `data`; panics only on a broken property:
/// - every string parser refuses or accepts without panicking, and what it accepts prints back
///   to the same string (lowercased for identities, which print in upper case);
/// - a stanza of this crate's types is refused, passed over or opened, never a panic, and a
///   tagged identity's key is asked about only stanzas of its type whose tag is its own;
/// - a header through `age::Decryptor` with these identities ends in a result.
pub fn stanzas(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => strings(rest),
        1 => stanza(rest),
        _ => header(rest),
    }
}

fn strings(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = s.parse::<pq::Recipient>() {
        assert_eq!(r.to_string(), s.to_lowercase());
    }
    if let Ok(i) = s.parse::<pq::Identity>() {
        use age_core::secrecy::ExposeSecret as _;
        assert_eq!(i.to_string().expose_secret(), &s.to_uppercase());
    }
    if let Ok(r) = s.parse::<P256TagRecipient>() {
        assert_eq!(r.to_string(), s.to_lowercase());
    }
    if let Ok(r) = s.parse::<MlKem768P256TagRecipient>() {
        assert_eq!(r.to_string(), s.to_lowercase());
    }
}

/// The fixed identities the stanzas are tried against.
struct Keys {
    pq: pq::Identity,
    tag: TagIdentity<DhKemP256HkdfSha256, typed_hpke::PrivateKey<DhKemP256HkdfSha256>>,
    tagpq: TagIdentity<MlKem768P256, typed_hpke::PrivateKey<MlKem768P256>>,
}

fn keys() -> &'static Keys {
    static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| Keys {
        pq: pq::Identity::from_private_key(XWing::derive_key_pair(b"fuzz pq").unwrap().0),
        tag: TagIdentity::from_private_key(
            DhKemP256HkdfSha256::derive_key_pair(b"fuzz tag").unwrap().0,
        ),
        tagpq: TagIdentity::from_private_key(
            MlKem768P256::derive_key_pair(b"fuzz tagpq").unwrap().0,
        ),
    })
}

/// A stanza from `data`: a type among this crate's (or another), up to three arguments (lines
/// of text before the first 0xff byte), and the bytes after it as the body.
fn stanza(data: &[u8]) {
    let Some((&shape, rest)) = data.split_first() else {
        return;
    };
    let tag = ["mlkem768x25519", "p256tag", "mlkem768p256tag", "X25519"][usize::from(shape & 3)];
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (text, body) = rest.split_at(split);
    let text = String::from_utf8_lossy(text);
    let args: Vec<String> = text
        .split('\n')
        .take(usize::from(shape >> 2 & 3))
        .map(str::to_owned)
        .collect();
    let s = Stanza {
        tag: tag.to_owned(),
        args,
        body: body.get(1..).unwrap_or_default().to_vec(),
    };
    let k = keys();
    for result in [
        k.pq.unwrap_stanza(&s),
        k.tag.unwrap_stanza(&s),
        k.tagpq.unwrap_stanza(&s),
    ]
    .into_iter()
    .flatten()
    {
        // Opening a fuzzed stanza needs the recipient's key and 2^-128 luck: an opened file key
        // would mean a check is missing.
        assert!(result.is_err(), "a fuzzed stanza opened");
    }
}

fn header(data: &[u8]) {
    let k = keys();
    let Ok(decryptor) = crate::decryptor(data) else {
        return;
    };
    let ids: [&dyn age::Identity; 3] = [&k.pq, &k.tag, &k.tagpq];
    if let Ok(mut reader) = decryptor.decrypt(ids.into_iter()) {
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut reader, &mut sink);
    }
}

/// Recipients from `data`, then a file encrypted to each; panics only on a broken property,
/// "an error or a file that opens, never a panic":
/// - a recipient string (`age1pq1…`, `age1tag1…`, `age1tagpq1…`) that parses is one a file
///   can be encrypted to (parsing refuses what cannot be encapsulated to);
/// - an X-Wing public key from raw bytes, given to `from_public_key` unchecked, encrypts or
///   fails with the `age` crate's error, and encrypts exactly when its string parses;
/// - the recipient of an identity derived from the bytes gets a file that its identity opens.
pub fn recipients(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => {
            let Ok(s) = std::str::from_utf8(rest) else {
                return;
            };
            if let Ok(r) = s.parse::<pq::Recipient>() {
                assert!(encrypt_to(&r).is_ok(), "a parsed age1pq1 recipient refused");
            }
            if let Ok(r) = s.parse::<P256TagRecipient>() {
                assert!(
                    encrypt_to(&r).is_ok(),
                    "a parsed age1tag1 recipient refused"
                );
            }
            if let Ok(r) = s.parse::<MlKem768P256TagRecipient>() {
                assert!(
                    encrypt_to(&r).is_ok(),
                    "a parsed age1tagpq1 recipient refused"
                );
            }
        }
        1 => {
            // The bytes laid over a valid key, so the ML-KEM half mostly passes and the X25519
            // half is what varies.
            let mut pk = keys().pq.to_public().public_key().as_bytes().to_vec();
            let start = pk.len().saturating_sub(rest.len());
            for (b, &r) in pk[start..].iter_mut().zip(rest) {
                *b = r;
            }
            let Ok(pk) = typed_hpke::PublicKey::<XWing>::from_bytes(&pk) else {
                return;
            };
            let r = pq::Recipient::from_public_key(pk);
            let encrypted = encrypt_to(&r).is_ok();
            let parses = r.to_string().parse::<pq::Recipient>().is_ok();
            assert_eq!(
                encrypted, parses,
                "encrypting and parsing disagree on {r:?}"
            );
        }
        _ => {
            let id = pq::Identity::from_private_key(match XWing::derive_key_pair(rest) {
                Ok((sk, _)) => sk,
                Err(_) => return,
            });
            let file = encrypt_to(&id.to_public()).expect("a derived recipient refused");
            let decryptor = crate::decryptor(&file[..]).expect("our own header");
            let mut reader = decryptor
                .decrypt(std::iter::once(&id as &dyn age::Identity))
                .expect("a file to this identity");
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut reader, &mut out).expect("the payload");
            assert_eq!(out, b"fuzz");
        }
    }
}

/// A short file encrypted to `r` alone.
fn encrypt_to(r: &dyn age::Recipient) -> Result<Vec<u8>, age::EncryptError> {
    let encryptor = age::Encryptor::with_recipients(std::iter::once(r))?;
    let mut file = Vec::new();
    let mut writer = encryptor.wrap_output(&mut file)?;
    std::io::Write::write_all(&mut writer, b"fuzz")?;
    writer.finish()?;
    Ok(file)
}
