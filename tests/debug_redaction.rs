//! No `Debug` output shows a secret. Every public type that can hold secret bytes is formatted
//! with `{:?}` and `{:#?}`, and the output is searched for the secret in every form a derived or
//! careless `Debug` would print it: lowercase or uppercase hex, or the bytes as a decimal list
//! (the `[u8]` / array form, in its one-line and its pretty, one-per-line layout).
//!
//! The types: `PrivateKey<K>` and `SharedSecret<K>` for all twelve KEMs, `Psk`,
//! `suite::SenderMode` (every variant) and `suite::ReceiverMode`, `SenderContext` and
//! `ReceiverContext`, typed and runtime (whose key, base nonce and exporter secret the `hazmat`
//! key schedule reveals to the test), the `hazmat` key-schedule values themselves, and the symmetric
//! surface's PRKs, sealers and openers, typed and runtime.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use core::fmt::Debug;

use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::{HkdfSha256, Shake256};
use typed_hpke::kem::*;
use typed_hpke::suite::{ReceiverMode, SenderMode};
use typed_hpke::{Hpke, Psk};

/// The forms in which `secret` could appear in a `Debug` string.
fn forms(secret: &[u8]) -> Vec<String> {
    // Eight bytes are enough to be unmistakable and short enough to catch a partial print.
    let head = &secret[..secret.len().min(8)];
    let decimal: Vec<String> = head.iter().map(u8::to_string).collect();
    vec![
        hex::encode(head),
        hex::encode_upper(head),
        // `[12, 34, ...]` and the pretty form `[\n    12,\n    34,`, whitespace removed below.
        decimal.join(","),
    ]
}

/// Asserts that neither `{:?}` nor `{:#?}` of `value` shows `secret`.
#[track_caller]
fn assert_redacted(what: &str, value: &impl Debug, secret: &[u8]) {
    assert!(
        secret.len() >= 8,
        "{what}: test secrets are at least 8 bytes"
    );
    for out in [format!("{value:?}"), format!("{value:#?}")] {
        let squeezed: String = out.chars().filter(|c| !c.is_whitespace()).collect();
        for form in forms(secret) {
            assert!(
                !squeezed.contains(&form),
                "{what}: Debug output shows the secret ({form}): {out}"
            );
        }
    }
}

/// A `Debug` that prints the string as it is (a `String`'s own `Debug` would quote and escape it).
struct Raw<'a>(&'a str);

impl Debug for Raw<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

/// The helper itself must catch a leak, or the tests below would hold by construction.
#[test]
fn the_check_catches_each_form() {
    let secret = [0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04];
    for leaky in [
        format!("{:?}", &secret[..]),
        format!("{:#?}", secret),
        hex::encode(secret),
        hex::encode_upper(secret),
    ] {
        let caught = std::panic::catch_unwind(|| assert_redacted("leaky", &Raw(&leaky), &secret));
        assert!(caught.is_err(), "the check missed {leaky}");
    }
}

fn kem_secrets<K: Kem>() {
    let (sk, pk) = K::derive_key_pair(b"debug redaction test input keying material").unwrap();
    let name = format!("kem {:#06x}", K::ID);
    assert_redacted(&format!("PrivateKey, {name}"), &sk, &sk.to_bytes());
    let (ss, enc) = K::encap(&mut typed_hpke::OsRng::default(), &pk).unwrap();
    assert_redacted(&format!("SharedSecret, {name}"), &ss, ss.as_bytes());
    // And the decapsulated copy, which the recipient holds.
    let ss_r = K::decap(&enc, &sk).unwrap();
    assert_redacted(
        &format!("SharedSecret (decap), {name}"),
        &ss_r,
        ss_r.as_bytes(),
    );
}

#[test]
fn private_keys_and_shared_secrets() {
    for_each_kem!(kem_secrets);
}

const PSK: &[u8] = b"a pre-shared key of thirty-two bytes or more";

#[test]
fn psk_and_modes() {
    let psk = Psk::new(PSK, b"psk id").unwrap();
    assert_redacted("Psk", &psk, PSK);
    // What is not secret is shown: the type and the identifier, which protocols send.
    let shown = format!("{psk:?}");
    assert!(
        shown.starts_with("Psk {") && shown.contains(&format!("{:?}", &b"psk id"[..])),
        "{shown}"
    );
    let (sk, _) = DhKemX25519HkdfSha256::derive_key_pair(&[7; 32]).unwrap();
    let sk_bytes = sk.to_bytes();
    let runtime_sk = typed_hpke::suite::PrivateKey::from(sk.clone());
    assert_redacted("suite::PrivateKey", &runtime_sk, &sk_bytes);
    let runtime_pk = runtime_sk.public_key();
    for mode in [
        SenderMode::Psk(&psk),
        SenderMode::Auth(&runtime_sk),
        SenderMode::AuthPsk(&psk, &runtime_sk),
    ] {
        assert_redacted("SenderMode (PSK)", &mode, PSK);
        assert_redacted("SenderMode (sender's private key)", &mode, &sk_bytes);
    }
    for mode in [
        ReceiverMode::Psk(&psk),
        ReceiverMode::AuthPsk(&psk, &runtime_pk),
    ] {
        assert_redacted("ReceiverMode", &mode, PSK);
    }
}

/// The context holds the AEAD key (inside the keyed cipher), the base nonce and the exporter
/// secret; the hazmat key schedule says what they are for a known shared secret.
fn contexts<F: typed_hpke::kdf::Kdf, A: typed_hpke::aead::Aead>() {
    type K = DhKemX25519HkdfSha256;
    let (sk, pk) = K::derive_key_pair(&[3; 32]).unwrap();
    let ikm_e = [9u8; 32];
    let (ss, enc) = typed_hpke::hazmat::encap_deterministic::<K>(&ikm_e, &pk).unwrap();
    let values =
        typed_hpke::hazmat::key_schedule_values::<K, F, A>(0, ss.as_bytes(), b"info", None)
            .unwrap();
    let (enc2, sender) =
        Hpke::<K, F, A>::setup_sender_base_deterministic_for_testing_only(&ikm_e, &pk, b"info")
            .unwrap();
    assert_eq!(enc, enc2);
    let receiver = Hpke::<K, F, A>::setup_receiver_base(&enc, &sk, b"info").unwrap();
    let mut secrets = vec![(
        "exporter_secret",
        values.exporter_secret.as_slice().to_vec(),
    )];
    if !values.key.as_slice().is_empty() {
        secrets.push(("key", values.key.as_slice().to_vec()));
        secrets.push(("base_nonce", values.base_nonce.as_slice().to_vec()));
    }
    if let Some(secret) = &values.secret {
        secrets.push(("secret", secret.as_slice().to_vec()));
    }
    for (what, secret) in &secrets {
        assert_redacted(&format!("SenderContext {what}"), &sender, secret);
        assert_redacted(&format!("ReceiverContext {what}"), &receiver, secret);
        assert_redacted(
            &format!("hazmat::KeyScheduleValues {what}"),
            &values,
            secret,
        );
    }
    // The runtime contexts they convert to show the suite and the sequence number, nothing else.
    let sender = typed_hpke::suite::SenderContext::from(sender);
    let receiver = typed_hpke::suite::ReceiverContext::from(receiver);
    let suite = format!("{:?}", sender.suite());
    for (name, shown) in [
        ("SenderContext", format!("{sender:?}")),
        ("ReceiverContext", format!("{receiver:?}")),
    ] {
        assert!(
            shown.starts_with(&format!("{name} {{ suite: {suite}, seq: 0"))
                && shown.ends_with(", .. }"),
            "{shown}"
        );
    }
    for (what, secret) in &secrets {
        assert_redacted(&format!("suite::SenderContext {what}"), &sender, secret);
        assert_redacted(&format!("suite::ReceiverContext {what}"), &receiver, secret);
    }
    assert_redacted("shared secret in KeyScheduleValues", &values, ss.as_bytes());
}

#[test]
fn contexts_and_key_schedule_values() {
    contexts::<HkdfSha256, Aes128Gcm>();
    contexts::<HkdfSha256, ChaCha20Poly1305>();
    contexts::<Shake256, ChaCha20Poly1305>();
    contexts::<HkdfSha256, ExportOnly>();
}

/// A PRK (`symmetric::Prk`, `suite::Prk`) and the sealer and opener keyed from it show their
/// type and algorithm, never the PRK, whose bytes `extract_public` computes from the same inputs.
#[test]
fn symmetric_surface() {
    use typed_hpke::symmetric::{self, Opener, Prk, Sealer};
    let (salt, ikm) = (&b"debug salt"[..], &[&b"a secret input key"[..]][..]);
    let secret = symmetric::extract_public::<HkdfSha256>(salt, ikm);
    let typed = Prk::<HkdfSha256>::extract(salt, ikm);
    let runtime =
        typed_hpke::suite::Prk::extract(<HkdfSha256 as typed_hpke::kdf::Kdf>::ID, salt, ikm)
            .unwrap();
    for (what, shown) in [
        ("symmetric::Prk", format!("{typed:?}")),
        ("suite::Prk", format!("{runtime:?}")),
    ] {
        assert!(
            shown.starts_with("Prk {") && shown.contains("kdf_id: 0001"),
            "{what}: {shown}"
        );
    }
    assert_redacted("symmetric::Prk", &typed, &secret);
    assert_redacted("suite::Prk", &runtime, &secret);
    let opener = Opener::<Aes128Gcm>::from_prk(&typed, b"key", b"nonce").unwrap();
    let sealer = Sealer::<Aes128Gcm>::from_prk(typed, b"key", b"nonce").unwrap();
    for (what, shown) in [
        ("Sealer", format!("{sealer:?}")),
        ("Opener", format!("{opener:?}")),
    ] {
        assert!(
            shown.starts_with(&format!("{what} {{")) && shown.contains("aead_id: 0001"),
            "{shown}"
        );
    }
    assert_redacted("Sealer", &sealer, &secret);
    assert_redacted("Opener", &opener, &secret);
}
