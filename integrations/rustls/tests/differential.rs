//! typed-hpke's rustls provider against rustls' own aws-lc-rs HPKE, through the same
//! `&dyn Hpke` trait objects, on every suite both have: each side seals (single-shot and through
//! a sealer context), the other opens; tampering, a wrong `info` and a wrong `aad` fail on both.

use rustls::Error;
use rustls::crypto::aws_lc_rs::hpke::ALL_SUPPORTED_SUITES as AWS_LC_RS;
use rustls::crypto::hpke::{EncapsulatedSecret, Hpke, HpkePrivateKey, HpkePublicKey};
use typed_hpke_rustls::find;

const INFO: &[u8] = b"tls ech\0 differential";
const MESSAGES: usize = 5;

fn aad(i: usize) -> Vec<u8> {
    format!("aad {i}").into_bytes()
}

fn plaintext(i: usize) -> Vec<u8> {
    // Lengths 0, 1, 17, ..., crossing block and tag boundaries.
    (0..(i * i * 17).min(600))
        .map(|b| (b * 31 + i) as u8)
        .collect()
}

/// Every change an honest peer would not make fails on `opener`'s side; typed-hpke calls a
/// ciphertext that does not authenticate `DecryptError`.
fn assert_tampering_fails(
    opener: &dyn Hpke,
    enc: &EncapsulatedSecret,
    ct: &[u8],
    sk: &HpkePrivateKey,
) {
    let mut flipped = ct.to_vec();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x01;
    let tampered = opener.open(enc, INFO, b"aad", &flipped, sk);
    if is_typed(opener) {
        assert_eq!(tampered.unwrap_err(), Error::DecryptError);
    } else {
        assert!(tampered.is_err());
    }
    assert!(opener.open(enc, b"other info", b"aad", ct, sk).is_err());
    assert!(opener.open(enc, INFO, b"other aad", ct, sk).is_err());
    assert!(
        opener
            .open(enc, INFO, b"aad", &ct[..ct.len() - 1], sk)
            .is_err()
    );
    assert!(
        opener.open(enc, INFO, b"aad", ct, sk).is_ok(),
        "the untampered one opens"
    );
}

fn is_typed(hpke: &dyn Hpke) -> bool {
    format!("{hpke:?}").starts_with("TypedHpke")
}

/// `sender` seals to `receiver`'s key pair (made by `keygen`), single-shot and with contexts.
fn one_way(sender: &dyn Hpke, receiver: &dyn Hpke, keygen: &dyn Hpke) {
    let (pk, sk) = keygen.generate_key_pair().unwrap();

    // Single-shot (RFC 9180 §6.1).
    for i in 0..MESSAGES {
        let (enc, ct) = sender.seal(INFO, &aad(i), &plaintext(i), &pk).unwrap();
        assert_eq!(
            receiver.open(&enc, INFO, &aad(i), &ct, &sk).unwrap(),
            plaintext(i)
        );
    }
    let (enc, ct) = sender.seal(INFO, b"aad", b"hello", &pk).unwrap();
    assert_tampering_fails(receiver, &enc, &ct, &sk);

    // Contexts (RFC 9180 §5.2): the nonces of both sides advance in step.
    let (enc, mut sealer) = sender.setup_sealer(INFO, &pk).unwrap();
    let mut opener = receiver.setup_opener(&enc, INFO, &sk).unwrap();
    let mut cts = Vec::new();
    for i in 0..MESSAGES {
        let ct = sealer.seal(&aad(i), &plaintext(i)).unwrap();
        assert_eq!(opener.open(&aad(i), &ct).unwrap(), plaintext(i));
        cts.push(ct);
    }
    // A replayed ciphertext is out of sequence, and a fresh opener cannot skip ahead.
    assert!(opener.open(&aad(0), &cts[0]).is_err());
    let mut fresh = receiver.setup_opener(&enc, INFO, &sk).unwrap();
    assert!(fresh.open(&aad(1), &cts[1]).is_err());
    // A wrong info gives another key schedule: the first message fails.
    let mut wrong = receiver.setup_opener(&enc, b"other info", &sk).unwrap();
    assert!(wrong.open(&aad(0), &cts[0]).is_err());
}

#[test]
fn every_rustls_suite_is_served() {
    assert_eq!(AWS_LC_RS.len(), 12);
    for theirs in AWS_LC_RS {
        let ours = find(theirs.suite()).unwrap_or_else(|| panic!("{:?}", theirs.suite()));
        assert_eq!(ours.suite(), theirs.suite());
        assert!(!ours.fips());
    }
}

#[test]
fn both_directions_on_every_common_suite() {
    for theirs in AWS_LC_RS.iter().copied() {
        let ours = find(theirs.suite()).unwrap();
        // Keys from either side, sealed from either side.
        for keygen in [ours, theirs] {
            one_way(ours, theirs, keygen);
            one_way(theirs, ours, keygen);
        }
    }
}

#[test]
fn typed_failures_to_open_are_decrypt_errors() {
    for theirs in AWS_LC_RS {
        let ours = find(theirs.suite()).unwrap();
        let (pk, sk) = theirs.generate_key_pair().unwrap();
        let (enc, mut ct) = theirs.seal(INFO, b"", b"hi", &pk).unwrap();
        ct[0] ^= 0x80;
        assert_eq!(
            ours.open(&enc, INFO, b"", &ct, &sk).unwrap_err(),
            Error::DecryptError
        );
    }
}

#[test]
fn public_keys_from_the_wire_are_validated_like_rustls_does() {
    // Bytes a peer could send as a key: wrong lengths, an off-curve or identity point.
    for theirs in AWS_LC_RS {
        let ours = find(theirs.suite()).unwrap();
        let (pk, _) = theirs.generate_key_pair().unwrap();
        let n = pk.0.len();
        let mut bad: Vec<Vec<u8>> = vec![vec![], vec![0; n - 1], vec![0; n + 1]];
        if n == 32 {
            // X25519: the zero point makes an all-zero shared secret (RFC 9180 §7.1.4).
            bad.push(vec![0; n]);
        } else {
            // The Weierstrass curves: 0x04 || zeros is not on the curve; the identity is 0x00.
            let mut off = vec![0; n];
            off[0] = 0x04;
            bad.push(off);
            bad.push(vec![0; n]);
        }
        for key in bad {
            let key = HpkePublicKey(key);
            assert!(theirs.seal(INFO, b"", b"x", &key).is_err(), "{key:?}");
            assert!(ours.seal(INFO, b"", b"x", &key).is_err(), "{key:?}");
            assert!(ours.setup_sealer(INFO, &key).is_err(), "{key:?}");
        }
    }
}
