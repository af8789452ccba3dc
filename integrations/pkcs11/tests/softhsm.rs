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
//! - one key serves four threads at once.

use std::path::Path;
use std::process::ExitCode;

use typed_hpke::aead::{Aead, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512};
use typed_hpke::kem::{
    AuthKem, DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, ExternalDh,
    HeldKeyError,
};
use typed_hpke::suite::{self, AnyKem, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Hpke, OsRng, PrivateKey, Psk, PublicKey};
use typed_hpke_pkcs11::{Error, Token, TokenKey, softhsm};

const LABEL: &str = "typed-hpke";
const PIN: &str = "1234";
const INFO: &[u8] = b"pkcs11";
const AAD: &[u8] = b"aad";
const PT: &[u8] = b"opened by a key in the token";

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
    let tests: [Test; 5] = [
        ("every curve in every mode", every_curve_in_every_mode),
        ("a key generated on the token", generated_on_the_token),
        ("refusals", refusals),
        ("four threads, one key", four_threads_one_key),
        ("the OHTTP gateway", ohttp_gateway),
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

/// A key of `K` made in process and imported into the token under `label`.
fn imported<K: AuthKem>(token: &Token, label: &str) -> (PrivateKey<K>, TokenKey) {
    let (sk, _) = K::generate(&mut OsRng::default()).unwrap();
    let key = token
        .import_key(&suite::PrivateKey::from(sk.clone()), label)
        .unwrap();
    assert_eq!(key.public_key().as_bytes(), sk.public_key().as_bytes());
    (sk, key)
}

/// Every mode of `Hpke<K, F, ChaCha20Poly1305>` with the receiver's key in the token, typed and
/// runtime, against the same key in process; then the token's key as an Auth sender.
fn curve<K: AuthKem, F: typed_hpke::kdf::Kdf>(token: &Token) {
    type A = ChaCha20Poly1305;
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = OsRng::default();
    let (sk_r, token_r) = imported::<K>(token, &format!("receiver {name}"));
    let (sk_s, token_s) = imported::<K>(token, &format!("sender {name}"));
    let (pk_r, pk_s) = (sk_r.public_key(), sk_s.public_key());
    let typed_r = ExternalDh(token_r.typed::<K>().unwrap());
    let runtime_r = ExternalDh(token_r.clone());
    let runtime = Suite::new(K::ID, F::ID, A::ID).unwrap();
    let rt_pk_s = suite::PublicKey::from(pk_s.clone());
    let psk_bytes = [9u8; 32];
    let psk = Psk::new(&psk_bytes, b"psk id").unwrap();
    type S<K, F> = Hpke<K, F, ChaCha20Poly1305>;
    for mode in ["base", "psk", "auth", "auth_psk"] {
        let (enc, ct) = match mode {
            "base" => S::<K, F>::seal_base(&mut rng, &pk_r, INFO, AAD, PT),
            "psk" => S::<K, F>::seal_psk(&mut rng, &pk_r, INFO, AAD, PT, &psk),
            "auth" => S::<K, F>::seal_auth(&mut rng, &pk_r, INFO, AAD, PT, &sk_s),
            _ => S::<K, F>::seal_auth_psk(&mut rng, &pk_r, INFO, AAD, PT, &psk, &sk_s),
        }
        .unwrap();
        // Typed: a context from each key, and the single-shot open with the token's.
        let (mut in_process, mut held, opened) = match mode {
            "base" => (
                S::<K, F>::setup_receiver_base(&enc, &sk_r, INFO).unwrap(),
                S::<K, F>::setup_receiver_base(&enc, &typed_r, INFO).unwrap(),
                S::<K, F>::open_base(&enc, &typed_r, INFO, AAD, &ct).unwrap(),
            ),
            "psk" => (
                S::<K, F>::setup_receiver_psk(&enc, &sk_r, INFO, &psk).unwrap(),
                S::<K, F>::setup_receiver_psk(&enc, &typed_r, INFO, &psk).unwrap(),
                S::<K, F>::open_psk(&enc, &typed_r, INFO, AAD, &ct, &psk).unwrap(),
            ),
            "auth" => (
                S::<K, F>::setup_receiver_auth(&enc, &sk_r, INFO, &pk_s).unwrap(),
                S::<K, F>::setup_receiver_auth(&enc, &typed_r, INFO, &pk_s).unwrap(),
                S::<K, F>::open_auth(&enc, &typed_r, INFO, AAD, &ct, &pk_s).unwrap(),
            ),
            _ => (
                S::<K, F>::setup_receiver_auth_psk(&enc, &sk_r, INFO, &psk, &pk_s).unwrap(),
                S::<K, F>::setup_receiver_auth_psk(&enc, &typed_r, INFO, &psk, &pk_s).unwrap(),
                S::<K, F>::open_auth_psk(&enc, &typed_r, INFO, AAD, &ct, &psk, &pk_s).unwrap(),
            ),
        };
        assert_eq!(opened, PT, "{name} {mode}");
        let (mut a, mut b, mut c) = ([0u8; 32], [0u8; 32], [0u8; 32]);
        in_process.export(b"x", &mut a).unwrap();
        held.export(b"x", &mut b).unwrap();
        assert_eq!(a, b, "{name} {mode}: typed exports");
        assert_eq!(
            held.open(AAD, &ct).unwrap(),
            in_process.open(AAD, &ct).unwrap()
        );

        // Runtime: the same mode as a value.
        let rt_mode = match mode {
            "base" => ReceiverMode::Base,
            "psk" => ReceiverMode::Psk(&psk),
            "auth" => ReceiverMode::Auth(&rt_pk_s),
            _ => ReceiverMode::AuthPsk(&psk, &rt_pk_s),
        };
        runtime
            .receive_export(enc.as_bytes(), &runtime_r, INFO, b"x", &mut c, rt_mode)
            .unwrap();
        assert_eq!(a, c, "{name} {mode}: runtime export");
        let rt = runtime.open(enc.as_bytes(), &runtime_r, INFO, AAD, &ct, rt_mode);
        assert_eq!(rt.unwrap(), PT, "{name} {mode}: runtime open");
    }

    // The token's key as the Auth sender's static key, typed and runtime.
    let typed_s = ExternalDh(token_s.typed::<K>().unwrap());
    let (enc, ct) = S::<K, F>::seal_auth(&mut rng, &pk_r, INFO, AAD, PT, &typed_s).unwrap();
    let opened = S::<K, F>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s).unwrap();
    assert_eq!(opened, PT, "{name}: typed sender");
    let held_s = ExternalDh(token_s.clone());
    for rt_mode in [
        SenderMode::Auth(&held_s),
        SenderMode::AuthPsk(&psk, &held_s),
    ] {
        let rt_pk_r = suite::PublicKey::from(pk_r.clone());
        let (enc, ct) = runtime
            .seal(&mut rng, &rt_pk_r, INFO, AAD, PT, rt_mode)
            .unwrap();
        let enc = EncappedKey::<K>::from_bytes(&enc).unwrap();
        let opened = match rt_mode {
            SenderMode::Auth(_) => S::<K, F>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s),
            _ => S::<K, F>::open_auth_psk(&enc, &sk_r, INFO, AAD, &ct, &psk, &pk_s),
        };
        assert_eq!(opened.unwrap(), PT, "{name}: runtime sender");
    }
    token.destroy_key(&format!("receiver {name}")).unwrap();
    token.destroy_key(&format!("sender {name}")).unwrap();
}

fn every_curve_in_every_mode(token: &Token) {
    curve::<DhKemP256HkdfSha256, HkdfSha256>(token);
    curve::<DhKemP384HkdfSha384, HkdfSha384>(token);
    curve::<DhKemP521HkdfSha512, HkdfSha512>(token);
}

fn generated_on_the_token(token: &Token) {
    for kem in [0x0010, 0x0011, 0x0012] {
        let key = token
            .generate_key(kem, &format!("generated {kem}"))
            .unwrap();
        // Found again by its label, with the same public key.
        let again = token.key(&format!("generated {kem}")).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        let suite = Suite::new(kem, 1, 3).unwrap();
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
        let held = ExternalDh(&again);
        let pt = suite.open(&enc, &held, INFO, AAD, &ct, ReceiverMode::Base);
        assert_eq!(pt.unwrap(), PT, "generated {kem:#06x}");
        token.destroy_key(&format!("generated {kem}")).unwrap();
    }
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
    assert!(matches!(
        token.generate_key(0x0020, "x25519"),
        Err(Error::UnsupportedKem)
    ));
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
    token.destroy_key("threads").unwrap();
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
