//! `typed-hpke-pkcs11` against a real token: SoftHSM2, with a token made in a temporary
//! directory for this run.
//!
//! This binary (`harness = false`) runs itself again beside a token made for the run
//! (`typed_hpke_pkcs11::softhsm`). The module is `$PKCS11_MODULE`, or SoftHSM2 where Debian,
//! Fedora and Homebrew put it; without one the run fails (`.ci/run` installs Debian's
//! `softhsm2`).
//!
//! Checked, for DHKEM(P-256), DHKEM(P-384) and DHKEM(P-521):
//! - a key imported into the token opens, in every mode, typed and runtime, set up and
//!   single-shot, what the same key in process opens, with the same exports; as an Auth
//!   sender's static key it seals what the in-process receiver opens; a key generated on the
//!   token round-trips;
//! - a wrong key opens nothing; a key without `CKA_DERIVE`, a key destroyed under its handle
//!   and a finalized module are the token's errors, handed back, never a panic;
//! - one key serves four threads at once, on one session and on a pool of four;
//! - a key is the pair the token made: a public key object planted without the PIN, before or
//!   after generation, is never the key returned; a label used twice is refused (and
//!   `replace_key` rotates); two private keys under one label are `Ambiguous`; a public object
//!   swapped in under the pair's label and id is `PublicKeyMismatch`; a pair made by another
//!   tool (no id, public object not private) is found through the planted objects beside it;
//!   `destroy_key` removes that pair and nothing else;
//! - no freed heap block holds a Diffie-Hellman value the token computed, in every mode, the
//!   Auth sender's too (this binary's allocator scans every block it frees while armed).

use std::path::Path;
use std::process::ExitCode;

use cryptoki::context::Pkcs11;
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, KeyType, ObjectClass};
use cryptoki::session::{Session, UserType};
use cryptoki::types::AuthPin;

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, ExternalDh, HeldKeyError,
};
use typed_hpke::suite::{self, AnyKem, ReceiverMode, SenderMode, Suite};
use typed_hpke::{Hpke, OsRng, Psk, PublicKey};
use typed_hpke_pkcs11::{Error, Token, softhsm};

mod common;
use common::{AAD, INFO, LABEL, PIN, PT, Recording, curve, imported, opens};

/// secp256r1's OID, DER (`CKA_EC_PARAMS`).
const P256_OID: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

fn main() -> ExitCode {
    if !softhsm::in_token_process() {
        return softhsm::run_with_token(LABEL, PIN);
    }
    let module = softhsm::module();
    println!("module: {}", module.display());
    // The wrong PIN, before anything logs in (the login is the whole application's).
    match Token::open(&module, LABEL, "0000") {
        Err(Error::Pkcs11(e)) => println!("  wrong PIN: {e}"),
        other => panic!("a wrong PIN gave {other:?}"),
    }
    let token = Token::open(&module, LABEL, PIN).expect("open the token");
    type Test = (&'static str, fn(&Token));
    let tests: [Test; 10] = [
        ("every curve in every mode", every_curve_in_every_mode),
        ("a key generated on the token", generated_on_the_token),
        ("refusals", refusals),
        ("four threads, one key", four_threads_one_key),
        ("the OHTTP gateway", ohttp_gateway),
        ("planted public keys", planted_public_keys),
        ("a label used twice", label_used_twice),
        ("a public key swapped after the fact", swapped_public_key),
        ("a pair made by another tool", pair_without_id),
        ("no DH value in freed memory", no_dh_value_in_freed_memory),
    ];
    for (name, test) in tests {
        test(&token);
        println!("ok: {name}");
    }
    // Last: the module finalized under the keys (a token that is gone).
    token_gone(&module);
    println!("ok: a finalized module");
    ExitCode::SUCCESS
}

fn every_curve_in_every_mode(token: &Token) {
    curve::<DhKemP256HkdfSha256, HkdfSha256>(token);
    curve::<DhKemP384HkdfSha384, HkdfSha384>(token);
    curve::<DhKemP521HkdfSha512, HkdfSha512>(token);
}

fn generated_on_the_token(token: &Token) {
    common::generated(token, &[0x0010, 0x0011, 0x0012]);
}

fn refusals(token: &Token) {
    type K = DhKemP256HkdfSha256;
    type S = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = OsRng::default();
    let (_, right) = imported::<K>(token, "right");
    let (sk_wrong, wrong) = imported::<K>(token, "wrong");
    let (enc, ct) = S::seal_base(
        &mut rng,
        &PublicKey::from_bytes(right.public_key().as_bytes()).unwrap(),
        INFO,
        AAD,
        PT,
    )
    .unwrap();

    // A wrong key: the token computes, the context opens nothing.
    let held = ExternalDh(wrong.typed::<K>().unwrap());
    let err = S::open_base(&enc, &held, INFO, AAD, &ct).unwrap_err();
    assert_eq!(err.to_string(), typed_hpke::Error::Open.to_string());
    assert!(matches!(err, HeldKeyError::Hpke(typed_hpke::Error::Open)));
    // The same wrong key's public key with the right key's object is just as wrong.
    drop(sk_wrong);

    // A key of another KEM than the suite's: refused before the token is asked.
    let suite = Suite::new(0x0011, 2, 3).unwrap();
    let err = suite
        .setup_receiver(&[4u8; 97], &ExternalDh(&right), INFO, ReceiverMode::Base)
        .unwrap_err();
    assert!(matches!(
        err,
        HeldKeyError::Hpke(typed_hpke::Error::InvalidPrivateKey)
    ));
    assert!(matches!(
        right.typed::<DhKemP384HkdfSha384>(),
        Err(Error::UnsupportedKem)
    ));
    // secp256k1 is kept in no token by this crate; X25519 and ML-KEM are, but SoftHSM 2.6 has
    // neither mechanism: its error, and nothing left under the label.
    assert!(matches!(
        token.generate_key(0x0016, "k256"),
        Err(Error::UnsupportedKem)
    ));
    for kem in [0x0020, 0x0041, 0x647a] {
        match token.generate_key(kem, "not here") {
            Err(Error::Pkcs11(e)) => println!("  kem {kem:#06x}: {e}"),
            other => panic!("kem {kem:#06x} on SoftHSM gave {other:?}"),
        }
        assert!(matches!(token.key("not here"), Err(Error::NotFound)));
    }
    assert!(matches!(token.key("no such key"), Err(Error::NotFound)));

    // A key without the derive permission: the token's error, handed back.
    let no_derive = token.generate(0x0010, "no derive", false).unwrap();
    let suite = Suite::new(0x0010, 1, 3).unwrap();
    let (enc2, ct2) = suite
        .seal(
            &mut rng,
            no_derive.public_key(),
            INFO,
            AAD,
            PT,
            SenderMode::Base,
        )
        .unwrap();
    let err = suite
        .open(
            &enc2,
            &ExternalDh(&no_derive),
            INFO,
            AAD,
            &ct2,
            ReceiverMode::Base,
        )
        .unwrap_err();
    match err {
        HeldKeyError::Holder(Error::Pkcs11(e)) => println!("  no CKA_DERIVE: {e}"),
        other => panic!("no CKA_DERIVE gave {other:?}"),
    }

    // A key destroyed under its handle.
    token.destroy_key("right").unwrap();
    let err = S::open_base(
        &enc,
        &ExternalDh(right.typed::<K>().unwrap()),
        INFO,
        AAD,
        &ct,
    )
    .unwrap_err();
    match err {
        HeldKeyError::Holder(Error::Pkcs11(e)) => println!("  destroyed key: {e}"),
        other => panic!("a destroyed key gave {other:?}"),
    }
    assert!(matches!(
        Token::open(softhsm::module(), "no such token", PIN),
        Err(Error::NotFound)
    ));
    token.destroy_key("wrong").unwrap();
    token.destroy_key("no derive").unwrap();
}

fn four_threads_one_key(token: &Token) {
    type K = DhKemP256HkdfSha256;
    type S = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    let (sk, key) = imported::<K>(token, "threads");
    let pk = sk.public_key();
    let pool = key.with_sessions(4).unwrap();
    assert!(format!("{pool:?}").contains("sessions: 4"), "{pool:?}");
    assert_eq!(pool.public_key(), key.public_key());
    for key in [&key, &pool] {
        let typed = ExternalDh(key.typed::<K>().unwrap());
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let mut rng = OsRng::default();
                    for _ in 0..10 {
                        let (enc, ct) = S::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
                        assert_eq!(S::open_base(&enc, &typed, INFO, AAD, &ct).unwrap(), PT);
                    }
                });
            }
        });
    }
    token.destroy_key("threads").unwrap();
}

/// The test's own handle on the module and the token's slot, beside the crate's.
fn raw(module: &Path) -> (Pkcs11, cryptoki::slot::Slot) {
    let pkcs11 = Pkcs11::new(module).unwrap();
    let slot = pkcs11
        .get_slots_with_token()
        .unwrap()
        .into_iter()
        .find(|s| pkcs11.get_token_info(*s).unwrap().label() == LABEL)
        .unwrap();
    (pkcs11, slot)
}

/// A P-256 public key object for `point` under `label`, made by a session that is not logged
/// in (the whole application logged out first, as a process without the PIN is): PKCS#11
/// lets such a session create public token objects. The application logs in again after.
fn plant(label: &str, id: &[u8], point: &[u8]) {
    let (pkcs11, slot) = raw(&softhsm::module());
    let session = pkcs11.open_rw_session(slot).unwrap();
    let _ = session.logout();
    // Without the PIN, a session sees no private object: not the pair's public key either.
    let visible = session
        .find_objects(&[Attribute::Label(label.as_bytes().to_vec())])
        .unwrap();
    let mut der = vec![0x04, point.len() as u8];
    der.extend_from_slice(point);
    session
        .create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::Private(false),
            Attribute::EcParams(P256_OID.to_vec()),
            Attribute::EcPoint(der),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Id(id.to_vec()),
        ])
        .unwrap();
    for object in visible {
        let private = session.get_attributes(object, &[cryptoki::object::AttributeType::Private]);
        assert!(
            !matches!(private.unwrap()[..], [Attribute::Private(true)]),
            "a private object was visible without the PIN"
        );
    }
    login(&session);
}

/// A whole P-256 pair under `label`, its private key `sk`, made by a session without the PIN
/// (not `CKA_PRIVATE`: only the PIN's sessions make private objects).
fn plant_pair(label: &str, sk: &suite::PrivateKey) {
    let (pkcs11, slot) = raw(&softhsm::module());
    let session = pkcs11.open_rw_session(slot).unwrap();
    let _ = session.logout();
    let mut der = vec![0x04, 65];
    der.extend_from_slice(sk.public_key().as_bytes());
    for mut template in [
        vec![
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::EcPoint(der),
        ],
        vec![
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::Derive(true),
            Attribute::Value(sk.to_bytes().to_vec()),
        ],
    ] {
        template.extend([
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::Private(false),
            Attribute::EcParams(P256_OID.to_vec()),
            Attribute::Label(label.as_bytes().to_vec()),
        ]);
        session.create_object(&template).unwrap();
    }
    login(&session);
}

/// A P-256 pair under `label` made by another program with the PIN, as this crate used to make
/// them: no `CKA_ID`, its public object's `CKA_PRIVATE` as `public_private` (the token's
/// default if `None`). The logged-in session and the pair's handles.
fn foreign_pair(
    label: &str,
    public_private: Option<bool>,
) -> (
    Session,
    cryptoki::object::ObjectHandle,
    cryptoki::object::ObjectHandle,
) {
    let (pkcs11, slot) = raw(&softhsm::module());
    let session = pkcs11.open_rw_session(slot).unwrap();
    login(&session);
    let l = label.as_bytes().to_vec();
    let mut public = vec![
        Attribute::Token(true),
        Attribute::EcParams(P256_OID.to_vec()),
        Attribute::Label(l.clone()),
    ];
    public.extend(public_private.map(Attribute::Private));
    let private = [
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Derive(true),
        Attribute::Label(l),
    ];
    let (public, private) = session
        .generate_key_pair(&Mechanism::EccKeyPairGen, &public, &private)
        .unwrap();
    (session, public, private)
}

fn login(session: &Session) {
    match session.login(UserType::User, Some(&AuthPin::new(PIN.into()))) {
        Ok(())
        | Err(cryptoki::error::Error::Pkcs11(cryptoki::error::RvError::UserAlreadyLoggedIn, _)) => {
        }
        Err(e) => panic!("login: {e}"),
    }
}

/// The review's reproduction: a public key planted under the label an application will use,
/// without the PIN, before and after the key is generated, is never the key returned.
fn planted_public_keys(token: &Token) {
    let suite = Suite::new(0x0010, 1, 3).unwrap();
    let (attacker_sk, attacker) = suite.generate_key_pair(&mut OsRng::default()).unwrap();
    let label = "planted";
    // A whole pair planted without the PIN, its private key one the attacker knows: not the
    // label's key, before the label is provisioned or after.
    plant_pair(label, &attacker_sk);
    assert!(matches!(token.key(label), Err(Error::NotFound)));
    // Before: under the label, with no id and with the id a careless tool would use.
    plant(label, b"", attacker.as_bytes());
    plant(label, b"\x01", attacker.as_bytes());
    let key = token.generate_key(0x0010, label).unwrap();
    assert_ne!(key.public_key(), &attacker);
    // 16 random bytes, "hpke" and the KEM's id.
    assert_eq!(key.id().len(), 22);
    assert_eq!(&key.id()[16..], b"hpke\x00\x10");
    opens(&key);
    let found = token.key(label).unwrap();
    assert_eq!(found.public_key(), key.public_key());
    opens(&found);
    // After: the same, and one more that copies nothing it cannot see.
    plant(label, b"", attacker.as_bytes());
    plant_pair(label, &attacker_sk);
    let found = token.key(label).unwrap();
    assert_eq!(found.public_key(), key.public_key());
    let by_id = token.key_by_id(key.id()).unwrap();
    assert_eq!(by_id.public_key(), key.public_key());
    opens(&by_id);
    // The planted objects are not the pair's: destroying the key leaves them.
    token.destroy_key(label).unwrap();
    assert!(matches!(token.key(label), Err(Error::NotFound)));
    let (pkcs11, slot) = raw(&softhsm::module());
    let session = pkcs11.open_rw_session(slot).unwrap();
    let left = session
        .find_objects(&[Attribute::Label(label.as_bytes().to_vec())])
        .unwrap();
    assert_eq!(
        left.len(),
        7,
        "destroy_key removed an object not of the pair"
    );
    for object in left {
        session.destroy_object(object).unwrap();
    }
}

/// A label in use is refused; `replace_key` rotates; two private keys under one label (made
/// behind the crate's back) are ambiguous, never the first found.
fn label_used_twice(token: &Token) {
    let label = "twice";
    let first = token.generate_key(0x0010, label).unwrap();
    assert!(matches!(
        token.generate_key(0x0011, label),
        Err(Error::LabelInUse)
    ));
    let (sk, _) = Suite::new(0x0010, 1, 3)
        .unwrap()
        .generate_key_pair(&mut OsRng::default())
        .unwrap();
    assert!(matches!(
        token.import_key(&sk, label),
        Err(Error::LabelInUse)
    ));
    assert_eq!(token.key(label).unwrap().public_key(), first.public_key());
    // Rotated: the label names the new pair, the old one is gone from the token.
    let second = token.replace_key(0x0010, label).unwrap();
    assert_ne!(second.public_key(), first.public_key());
    assert_eq!(token.key(label).unwrap().public_key(), second.public_key());
    let suite = Suite::new(0x0010, 1, 3).unwrap();
    let (enc, ct) = suite
        .seal(
            &mut OsRng::default(),
            first.public_key(),
            INFO,
            AAD,
            PT,
            SenderMode::Base,
        )
        .unwrap();
    let err = suite
        .open(
            &enc,
            &ExternalDh(&first),
            INFO,
            AAD,
            &ct,
            ReceiverMode::Base,
        )
        .unwrap_err();
    assert!(
        matches!(err, HeldKeyError::Holder(Error::Pkcs11(_))),
        "{err:?}"
    );
    // A second private key under the label, made with the PIN by another program.
    let (session, public, private) = foreign_pair(label, None);
    assert!(matches!(token.key(label), Err(Error::Ambiguous)));
    assert!(matches!(token.destroy_key(label), Err(Error::Ambiguous)));
    assert!(matches!(
        token.replace_key(0x0010, label),
        Err(Error::Ambiguous)
    ));
    assert!(matches!(
        token.generate_key(0x0010, label),
        Err(Error::LabelInUse)
    ));
    // By its id the crate's own pair is still found, and the other removed by its (empty) id.
    assert_eq!(
        token.key_by_id(second.id()).unwrap().public_key(),
        second.public_key()
    );
    token.destroy_key_by_id(b"").unwrap();
    assert!(
        session
            .get_attributes(private, &[cryptoki::object::AttributeType::Label])
            .is_err()
    );
    assert!(
        session
            .get_attributes(public, &[cryptoki::object::AttributeType::Label])
            .is_err()
    );
    assert_eq!(token.key(label).unwrap().public_key(), second.public_key());
    token.destroy_key(label).unwrap();
    assert!(matches!(token.key(label), Err(Error::NotFound)));
}

/// Someone with the PIN swaps the pair's public object for one of their own key, under the
/// same label and id: the lookup refuses it rather than publish it.
fn swapped_public_key(token: &Token) {
    let label = "swapped";
    let key = token.generate_key(0x0010, label).unwrap();
    let (_, attacker) = Suite::new(0x0010, 1, 3)
        .unwrap()
        .generate_key_pair(&mut OsRng::default())
        .unwrap();
    let (pkcs11, slot) = raw(&softhsm::module());
    let session = pkcs11.open_rw_session(slot).unwrap();
    login(&session);
    let l = label.as_bytes().to_vec();
    let ours = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::Label(l.clone()),
        ])
        .unwrap();
    assert_eq!(ours.len(), 1);
    session.destroy_object(ours[0]).unwrap();
    let mut der = vec![0x04, 65];
    der.extend_from_slice(attacker.as_bytes());
    let swapped = session
        .create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::EcParams(P256_OID.to_vec()),
            Attribute::EcPoint(der),
            Attribute::Label(l),
            Attribute::Id(key.id().to_vec()),
        ])
        .unwrap();
    assert!(matches!(token.key(label), Err(Error::PublicKeyMismatch)));
    assert!(matches!(
        token.key_by_id(key.id()),
        Err(Error::PublicKeyMismatch)
    ));
    // The key already held is unchanged and still the token's.
    opens(&key);
    session.destroy_object(swapped).unwrap();
    assert!(matches!(token.key(label), Err(Error::NotFound)));
    token.destroy_key(label).unwrap();
}

/// A pair another tool made as this crate used to (no id, its public object readable without
/// the PIN), with public keys planted beside it under its label: the one that matches is its.
fn pair_without_id(token: &Token) {
    let label = "older";
    let (session, public, _) = foreign_pair(label, Some(false));
    let (_, attacker) = Suite::new(0x0010, 1, 3)
        .unwrap()
        .generate_key_pair(&mut OsRng::default())
        .unwrap();
    plant(label, b"", attacker.as_bytes());
    let key = token.key(label).unwrap();
    assert_ne!(key.public_key(), &attacker);
    assert!(key.id().is_empty());
    opens(&key);
    plant(label, b"", attacker.as_bytes());
    assert_eq!(token.key(label).unwrap().public_key(), key.public_key());
    token.destroy_key(label).unwrap();
    assert!(
        session
            .get_attributes(public, &[cryptoki::object::AttributeType::Label])
            .is_err()
    );
    // The planted objects stay; they are not this crate's to remove.
    let left = session
        .find_objects(&[Attribute::Label(label.as_bytes().to_vec())])
        .unwrap();
    assert_eq!(left.len(), 2);
    for object in left {
        session.destroy_object(object).unwrap();
    }
}

fn no_dh_value_in_freed_memory(token: &Token) {
    let mut rng = OsRng::default();
    for (kem, kdf) in [(0x0010u16, 1u16), (0x0011, 2), (0x0012, 3)] {
        let suite = Suite::new(kem, kdf, 3).unwrap();
        let (sk_r, _) = suite.generate_key_pair(&mut rng).unwrap();
        let (sk_s, pk_s) = suite.generate_key_pair(&mut rng).unwrap();
        let receiver = token.import_key(&sk_r, "scan receiver").unwrap();
        let sender = token.import_key(&sk_s, "scan sender").unwrap();
        let pk_r = receiver.public_key().clone();
        let psk = Psk::new(&[5u8; 32], b"id").unwrap();
        for mode in ["base", "psk", "auth", "auth_psk", "sender"] {
            let (r_mode, s_mode) = match mode {
                "base" => (ReceiverMode::Base, SenderMode::Base),
                "psk" => (ReceiverMode::Psk(&psk), SenderMode::Psk(&psk)),
                "auth" | "sender" => (ReceiverMode::Auth(&pk_s), SenderMode::Auth(&sk_s)),
                _ => (
                    ReceiverMode::AuthPsk(&psk, &pk_s),
                    SenderMode::AuthPsk(&psk, &sk_s),
                ),
            };
            let (enc, ct) = suite.seal(&mut rng, &pk_r, INFO, AAD, PT, s_mode).unwrap();
            // Pass 1: the values, recorded.
            let holder = if mode == "sender" { &sender } else { &receiver };
            let recording = Recording(holder, Default::default());
            if mode == "sender" {
                suite
                    .seal(
                        &mut rng,
                        &pk_r,
                        INFO,
                        AAD,
                        PT,
                        SenderMode::Auth(&ExternalDh(&recording)),
                    )
                    .unwrap();
            } else {
                suite
                    .open(&enc, &ExternalDh(&recording), INFO, AAD, &ct, r_mode)
                    .unwrap();
            }
            let values: Vec<Vec<u8>> = recording.1.borrow().clone();
            assert!(!values.is_empty());
            for v in recording.1.borrow_mut().iter_mut() {
                v.fill(0);
            }
            drop(recording);
            // Pass 2: the same values computed again by the token, the scan armed.
            let needles: Vec<&[u8]> = values.iter().map(|v| &v[..]).collect();
            let hits = common::freed_blocks_holding(&needles, || {
                if mode == "sender" {
                    let held = ExternalDh(&sender);
                    suite
                        .seal(&mut rng, &pk_r, INFO, AAD, PT, SenderMode::Auth(&held))
                        .unwrap();
                } else {
                    let pt = suite.open(&enc, &ExternalDh(&receiver), INFO, AAD, &ct, r_mode);
                    assert_eq!(pt.unwrap(), PT);
                }
            });
            println!("  kem {kem:#06x} {mode}: {hits} freed blocks held a DH value");
            assert_eq!(hits, 0, "kem {kem:#06x} {mode}");
        }
        token.destroy_key("scan receiver").unwrap();
        token.destroy_key("scan sender").unwrap();
    }
}

/// The OHTTP gateway with its key in the token, against this crate's client.
fn ohttp_gateway(token: &Token) {
    use typed_hpke_ohttp::{Client, Gateway, GatewayKey, SymmetricSuite};
    let key = token.generate_key(0x0010, "ohttp").unwrap();
    let gateway_key =
        GatewayKey::held(1, ExternalDh(key), vec![SymmetricSuite::new(1, 1)]).unwrap();
    let client = Client::new(gateway_key.config()).unwrap();
    let gateway = Gateway::new([gateway_key]).unwrap();
    let mut rng = OsRng::default();
    let (request, client_response) = client.encapsulate(&mut rng, b"GET /").unwrap();
    let (opened, gateway_response) = gateway.decapsulate(&request).unwrap();
    assert_eq!(opened, b"GET /");
    let response = gateway_response.encapsulate(&mut rng, b"200").unwrap();
    assert_eq!(client_response.decapsulate(&response).unwrap(), b"200");
    token.destroy_key("ohttp").unwrap();
}

/// The module finalized under a key found on it: every call is the token's error.
fn token_gone(module: &Path) {
    let pkcs11 = cryptoki::context::Pkcs11::new(module).unwrap();
    let token = Token::with_module(pkcs11.clone(), LABEL, PIN).unwrap();
    let key = token.generate_key(0x0010, "gone").unwrap();
    let suite = Suite::new(0x0010, 1, 3).unwrap();
    let (enc, ct) = suite
        .seal(
            &mut OsRng::default(),
            key.public_key(),
            INFO,
            AAD,
            PT,
            SenderMode::Base,
        )
        .unwrap();
    pkcs11.finalize().unwrap();
    let err = suite
        .open(&enc, &ExternalDh(&key), INFO, AAD, &ct, ReceiverMode::Base)
        .unwrap_err();
    match err {
        HeldKeyError::Holder(Error::Pkcs11(e)) => println!("  finalized: {e}"),
        other => panic!("a finalized module gave {other:?}"),
    }
    assert!(AnyKem::new(0x0010).is_ok());
}
