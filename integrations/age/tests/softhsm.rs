//! A `p256tag` identity whose key is in a PKCS#11 token: SoftHSM2, with a token made for the
//! run (`typed_hpke_pkcs11::softhsm`; `.ci/run` installs Debian's `softhsm2`). `harness = false`:
//! the binary runs itself again beside the token.
//!
//! Checked:
//! - a file the `age` crate's own `p256tag` recipient makes to the token key's recipient, and
//!   one this crate makes to it among other recipients, armored and binary, open with the
//!   identity; the token is asked once per file, for its own stanza only;
//! - a key made on the token and a key imported into it both serve;
//! - a `mlkem768p256tag` identity with its P-256 half in the token and its ML-KEM half in
//!   process opens the `age` crate's `tagpq` files and ours;
//! - a key the token no longer has fails the file with the token's error as the source, not a
//!   panic and not "no match".

mod common;

use std::process::ExitCode;
use std::str::FromStr;

use age::DecryptError;
use common::{decrypt, encrypt};
use typed_hpke::kem::{DhHolder, DhKemP256HkdfSha256, Kem, MlKem768};
use typed_hpke::{OsRng, PublicKey};
use typed_hpke_age::pq;
use typed_hpke_age::tag::{MlKem768P256TagIdentity, P256TagIdentity, TagIdentity};
use typed_hpke_pkcs11::{Token, TypedTokenKey, softhsm};

const LABEL: &str = "typed-hpke-age";
const PIN: &str = "1234";

/// The token's key, counting the DH computations it is asked for.
struct Counted {
    key: TypedTokenKey<DhKemP256HkdfSha256>,
    asked: std::sync::atomic::AtomicUsize,
}

impl DhHolder<DhKemP256HkdfSha256> for &Counted {
    type Error = typed_hpke_pkcs11::Error;
    fn public_key(&self) -> &PublicKey<DhKemP256HkdfSha256> {
        self.key.public_key()
    }
    fn dh(&self, peer: &PublicKey<DhKemP256HkdfSha256>, out: &mut [u8]) -> Result<(), Self::Error> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.key.dh(peer, out)
    }
}

fn opens_files(token: &Token, key_label: &str) {
    let key = token.key(key_label).expect("the key");
    let counted = Counted {
        key: key.typed::<DhKemP256HkdfSha256>().expect("a P-256 key"),
        asked: Default::default(),
    };
    let identity: P256TagIdentity<_> = TagIdentity::held_dh(&counted);
    let recipient = identity.to_public().to_string();
    let theirs = age::tag::Recipient::from_str(&recipient).unwrap();
    let pt: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();

    let file = encrypt(&[&theirs], &pt, false);
    assert_eq!(decrypt(&file, &identity).unwrap(), pt);
    // Ours, among two other p256tag recipients and an X25519 one, armored.
    let others = [P256TagIdentity::generate(), P256TagIdentity::generate()];
    let x25519 = age::x25519::Identity::generate().to_public();
    let file = encrypt(
        &[
            &others[0].to_public(),
            &x25519,
            &identity.to_public(),
            &others[1].to_public(),
        ],
        &pt,
        true,
    );
    assert_eq!(decrypt(&file, &identity).unwrap(), pt);
    // One DH per file: the other stanzas' tags kept them from the token.
    assert_eq!(counted.asked.load(std::sync::atomic::Ordering::Relaxed), 2);
    // Not addressed to the token: never asked.
    let file = encrypt(&[&others[0].to_public()], &pt, false);
    assert!(matches!(
        decrypt(&file, &identity),
        Err(DecryptError::NoMatchingKeys)
    ));
    assert_eq!(counted.asked.load(std::sync::atomic::Ordering::Relaxed), 2);
    // A post-quantum file has no stanza of this type.
    let file = encrypt(&[&pq::Identity::generate().to_public()], &pt, false);
    assert!(matches!(
        decrypt(&file, &identity),
        Err(DecryptError::NoMatchingKeys)
    ));
}

fn main() -> ExitCode {
    if !softhsm::in_token_process() {
        return softhsm::run_with_token(LABEL, PIN);
    }
    let token = Token::open(softhsm::module(), LABEL, PIN).expect("open the token");

    // A key generated on the token.
    token
        .generate_key(DhKemP256HkdfSha256::ID, "generated")
        .expect("generate");
    opens_files(&token, "generated");
    println!("ok: a key generated on the token");

    // A key imported into it.
    let (sk, _) = DhKemP256HkdfSha256::generate(&mut OsRng::default()).unwrap();
    token
        .import_key(&typed_hpke::suite::PrivateKey::from(sk), "imported")
        .expect("import");
    opens_files(&token, "imported");
    println!("ok: a key imported into the token");

    // mlkem768p256tag: the ML-KEM half in process, the P-256 half in the token; files of the
    // age crate's own tagpq recipient and of ours open, the token asked once per file.
    let key = token.key("generated").unwrap();
    let counted = Counted {
        key: key.typed::<DhKemP256HkdfSha256>().unwrap(),
        asked: Default::default(),
    };
    let (ml_kem, _) = MlKem768::generate(&mut OsRng::default()).unwrap();
    let identity = TagIdentity::held_split(ml_kem, &counted);
    let theirs = age::tagpq::Recipient::from_str(&identity.to_public().to_string()).unwrap();
    let pt: Vec<u8> = (0..70_000u32).map(|i| (i * 7) as u8).collect();
    let file = encrypt(&[&theirs], &pt, true);
    assert_eq!(decrypt(&file, &identity).unwrap(), pt);
    let other = MlKem768P256TagIdentity::generate();
    let file = encrypt(&[&other.to_public(), &identity.to_public()], &pt, false);
    assert_eq!(decrypt(&file, &identity).unwrap(), pt);
    assert_eq!(counted.asked.load(std::sync::atomic::Ordering::Relaxed), 2);
    println!("ok: mlkem768p256tag with its P-256 half in the token");

    // The key destroyed under the identity: the token's error, kept as the source.
    let key = token.key("imported").unwrap();
    let identity = TagIdentity::held_dh(key.typed::<DhKemP256HkdfSha256>().unwrap());
    let file = encrypt(&[&identity.to_public()], b"x", false);
    token.destroy_key("imported").unwrap();
    match decrypt(&file, &identity) {
        Err(DecryptError::Io(e)) => {
            let source = e.into_inner().expect("the token's error");
            assert!(source.is::<typed_hpke_pkcs11::Error>(), "{source:?}");
            println!("ok: a destroyed key: {source}");
        }
        other => panic!("a destroyed key gave {other:?}"),
    }
    ExitCode::SUCCESS
}
