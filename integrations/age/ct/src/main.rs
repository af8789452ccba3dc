//! typed-hpke-age's secret paths under valgrind memcheck, with every secret marked undefined:
//! memcheck reports any branch or memory address that depends on one (`../ct-run` runs it, and
//! fails on any report; the repository's `ct/run` calls that).
//!
//! - `AGE-SECRET-KEY-PQ-1…` printed from a secret seed and parsed back from a secret string;
//! - a stanza of each type decrypted by its identity into a secret file key: the checks of
//!   form, the tag (public), HPKE `OpenBase` into age's `FileKey`.
//!
//! The marking is the repository's (`typed_hpke_support::memcheck`, the same requests).
//! `canary` as the only argument branches on a secret on purpose: `../ct-run` checks that
//! memcheck reports it.

use std::str::FromStr;

use age::Identity as _;
use age_core::format::{FileKey, Stanza};
use age_core::secrecy::ExposeSecret as _;
use typed_hpke::kem::{DecapHolder, DhKemP256HkdfSha256, Kem, MlKem768P256, XWing};
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};
use typed_hpke_age::pq;
use typed_hpke_age::tag::{TagIdentity, TagKem, TagRecipient};
use typed_hpke_support::memcheck::{self, public, secret};

static STEPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The reports since the last step, printed with the step's name.
fn step(reported: &mut usize, what: &str) {
    let now = memcheck::errors();
    if now > *reported {
        println!("{what}: {} new report(s)", now - *reported);
    }
    *reported = now;
    STEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

fn secret_array<const N: usize>(tag: u8) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(29) ^ tag.wrapping_mul(151);
    }
    secret(&mut out);
    out
}

fn declassified(bytes: &[u8]) -> Vec<u8> {
    let v = bytes.to_vec();
    public(&v);
    v
}

fn declassified_string(s: &str) -> String {
    String::from_utf8(declassified(s.as_bytes())).expect("ASCII")
}

/// A stanza as a peer receives it: every field public.
fn received(mut stanzas: Vec<Stanza>) -> Stanza {
    let s = stanzas.pop().expect("one stanza");
    Stanza {
        tag: declassified_string(&s.tag),
        args: s.args.iter().map(|a| declassified_string(a)).collect(),
        body: declassified(&s.body),
    }
}

fn file_key(tag: u8) -> FileKey {
    FileKey::new(Box::new(secret_array::<16>(tag)))
}

fn same(a: &[u8], b: &[u8]) -> bool {
    declassified(a) == declassified(b)
}

fn pq(reported: &mut usize) {
    let sk = PrivateKey::<XWing>::from_bytes(&secret_array::<32>(1)).expect("seed");
    let identity = pq::Identity::from_private_key(sk);
    let printed = identity.to_string();
    step(reported, "pq: identity printed");
    let mut text = printed.expose_secret().to_owned();
    // SAFETY: marking changes no byte; the string stays the valid UTF-8 it was.
    secret(unsafe { text.as_bytes_mut() });
    let parsed = pq::Identity::from_str(&text).expect("parse");
    step(reported, "pq: identity parsed");
    let pk =
        PublicKey::<XWing>::from_bytes(&declassified(parsed.to_public().public_key().as_bytes()))
            .unwrap();
    let recipient = pq::Recipient::from_public_key(pk);
    let key = file_key(2);
    let stanza = received(age::Recipient::wrap_file_key(&recipient, &key).unwrap().0);
    let opened = parsed.unwrap_stanza(&stanza).expect("ours").expect("opens");
    step(reported, "pq: stanza decrypted");
    assert!(same(opened.expose_secret(), key.expose_secret()));
}

/// The key in process behind a whole-KEM holder, with the recipient a peer knows (public):
/// a key derived from a secret seed carries the mark into its public half, which the identity
/// would then compare and hash as if secret.
struct InProcess<K: Kem>(PrivateKey<K>);

impl<K: Kem> DecapHolder<K> for InProcess<K> {
    type Error = std::io::Error;
    fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), std::io::Error> {
        out.copy_from_slice(
            K::decap(enc, &self.0)
                .map_err(std::io::Error::other)?
                .as_bytes(),
        );
        Ok(())
    }
}

fn tagged<K: TagKem>(reported: &mut usize, name: &str, seed: &[u8]) {
    let sk = PrivateKey::<K>::from_bytes(seed).expect("key");
    let pk = PublicKey::<K>::from_bytes(&declassified(sk.public_key().as_bytes())).unwrap();
    let recipient = TagRecipient::from_public_key(pk);
    let identity = TagIdentity::held_decap(InProcess(sk), recipient.clone());
    step(reported, &format!("{name}: identity from its key"));
    let key = file_key(3);
    let stanza = received(age::Recipient::wrap_file_key(&recipient, &key).unwrap().0);
    let opened = identity
        .unwrap_stanza(&stanza)
        .expect("ours")
        .expect("opens");
    step(reported, &format!("{name}: stanza decrypted"));
    assert!(same(opened.expose_secret(), key.expose_secret()));
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("canary") {
        let mut b = [0x5a_u8];
        secret(&mut b);
        if std::hint::black_box(b[0]) & 1 == 1 {
            println!("canary: odd");
        } else {
            println!("canary: even");
        }
        return;
    }
    let mut reported = memcheck::errors();
    pq(&mut reported);
    // A P-256 scalar below the order: the pattern's top byte is small.
    let mut p256 = secret_array::<32>(4);
    p256[0] = 0x10;
    secret(&mut p256);
    tagged::<DhKemP256HkdfSha256>(&mut reported, "p256tag", &p256);
    tagged::<MlKem768P256>(&mut reported, "mlkem768p256tag", &secret_array::<32>(5));
    let steps = STEPS.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "typed-hpke-age-ct: {steps} steps run, {} reports",
        memcheck::errors()
    );
}
