//! The provider's HPKE and KEM methods against mls-rs' stock RustCrypto provider, whose HPKE
//! is an independent implementation (`mls-rs-crypto-hpke`), on every suite: `kem_derive` gives
//! the same key pairs for `ikm` of any length; what either side seals (single-shot, with and
//! without a PSK and an aad, and through `hpke_setup_s`) the other opens, and both export the
//! same secrets; both refuse the same malformed public keys; a tampered message does not open.

#![cfg(not(mls_build_async))]

use mls_rs_core::crypto::{
    CipherSuiteProvider, CryptoProvider, HpkeContextR, HpkeContextS, HpkePsk, HpkePublicKey,
};
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeCipherSuite, TypedHpkeProvider};

fn check<B: CipherSuiteProvider>(
    a: &TypedHpkeCipherSuite<impl CipherSuiteProvider + Clone>,
    b: &B,
    label: &str,
    kem: u16,
) {
    let psk_value = [0x42u8; 32];
    let psk = HpkePsk::new(b"psk id", &psk_value);
    for ikm_len in [0usize, 1, 31, 32, 33, 64, 200] {
        let ikm: Vec<u8> = (0..ikm_len).map(|i| (i * 7 + ikm_len) as u8).collect();
        let (sk_a, pk_a) = a.kem_derive(&ikm).unwrap();
        let (sk_b, pk_b) = b.kem_derive(&ikm).unwrap();
        assert_eq!(pk_a, pk_b, "{label}: DeriveKeyPair of {ikm_len} bytes");
        assert_eq!(sk_a, sk_b, "{label}: DeriveKeyPair of {ikm_len} bytes");
        for aad in [None, Some(&b"aad"[..])] {
            let ct = a.hpke_seal(&pk_b, b"info", aad, b"to b").unwrap();
            assert_eq!(
                &*b.hpke_open(&ct, &sk_b, &pk_b, b"info", aad).unwrap(),
                b"to b"
            );
            let ct = b.hpke_seal(&pk_a, b"info", aad, b"to a").unwrap();
            assert_eq!(
                &*a.hpke_open(&ct, &sk_a, &pk_a, b"info", aad).unwrap(),
                b"to a"
            );
            let ct = a
                .hpke_seal_psk(&pk_b, b"info", aad, b"psk", psk.clone())
                .unwrap();
            let pt = b.hpke_open_psk(&ct, &sk_b, &pk_b, b"info", aad, psk.clone());
            assert_eq!(&*pt.unwrap(), b"psk");
            let ct = b
                .hpke_seal_psk(&pk_a, b"info", aad, b"psk", psk.clone())
                .unwrap();
            let pt = a.hpke_open_psk(&ct, &sk_a, &pk_a, b"info", aad, psk.clone());
            assert_eq!(&*pt.unwrap(), b"psk");
            // Tampered: neither opens, and the other info does not open either.
            let mut bad = a.hpke_seal(&pk_b, b"info", aad, b"x").unwrap();
            let last = bad.ciphertext.len() - 1;
            bad.ciphertext[last] ^= 1;
            assert!(b.hpke_open(&bad, &sk_b, &pk_b, b"info", aad).is_err());
            // typed-hpke's refusal, not the inner provider's: the HPKE ran on typed-hpke.
            assert!(matches!(
                a.hpke_open(&bad, &sk_a, &pk_a, b"info", aad),
                Err(typed_hpke_mls_rs::Error::Hpke(typed_hpke::Error::Open))
            ));
            let ct = b.hpke_seal(&pk_a, b"info", aad, b"x").unwrap();
            assert!(a.hpke_open(&ct, &sk_a, &pk_a, b"other", aad).is_err());
        }
        // Contexts: seal several messages and export, both ways.
        let (enc, mut s) = a.hpke_setup_s(&pk_b, b"ctx").unwrap();
        let mut r = b.hpke_setup_r(&enc, &sk_b, &pk_b, b"ctx").unwrap();
        for i in 0..3u8 {
            let ct = s.seal(Some(&[i]), &[i; 5]).unwrap();
            assert_eq!(&*r.open(Some(&[i]), &ct).unwrap(), &[i; 5]);
        }
        assert_eq!(s.export(b"exp", 42).unwrap(), r.export(b"exp", 42).unwrap());
        let (enc, s) = b.hpke_setup_s(&pk_a, b"ctx").unwrap();
        let r = a.hpke_setup_r(&enc, &sk_a, &pk_a, b"ctx").unwrap();
        assert_eq!(s.export(b"exp", 7).unwrap(), r.export(b"exp", 7).unwrap());
    }
    // Generated keys serve the other side.
    let (sk, pk) = a.kem_generate().unwrap();
    let ct = b.hpke_seal(&pk, b"", None, b"gen").unwrap();
    assert_eq!(&*a.hpke_open(&ct, &sk, &pk, b"", None).unwrap(), b"gen");
    b.kem_public_key_validate(&pk).unwrap();
    a.kem_public_key_validate(&pk).unwrap();
    // Malformed public keys: a byte short, a byte long; all zeros, which is no SEC 1 point
    // (NIST curves) but is an X25519 u-coordinate that RFC 9180 §7.1.1 deserializes (its
    // low order is refused at DH, RFC 9180 §7.1.4): both providers agree on each.
    let good = pk.as_ref().to_vec();
    for bad in [
        good[..good.len() - 1].to_vec(),
        [good.clone(), vec![0]].concat(),
    ] {
        let bad = HpkePublicKey::from(bad);
        assert!(
            a.kem_public_key_validate(&bad).is_err(),
            "{label}: a wrong length"
        );
        assert!(
            b.kem_public_key_validate(&bad).is_err(),
            "{label}: stock, a wrong length"
        );
    }
    let zeros = HpkePublicKey::from(vec![0u8; good.len()]);
    let x25519 = kem == 0x0020 || kem == 0x0021;
    assert_eq!(
        a.kem_public_key_validate(&zeros).is_ok(),
        x25519,
        "{label}: all zeros"
    );
    assert_eq!(
        b.kem_public_key_validate(&zeros).is_ok(),
        x25519,
        "{label}: stock, all zeros"
    );
}

#[test]
fn hpke_against_the_stock_provider() {
    let ours = TypedHpkeProvider::new(RustCryptoProvider::default());
    let stock = RustCryptoProvider::default();
    let suites = ours.supported_cipher_suites();
    assert!(!suites.is_empty());
    for cs in suites {
        let a = ours.cipher_suite_provider(cs).unwrap();
        let b = stock.cipher_suite_provider(cs).unwrap();
        assert_eq!(a.cipher_suite(), cs);
        let (kem, _, _) = typed_hpke_mls_rs::hpke_ids(cs).unwrap();
        check(&a, &b, &format!("{cs:?}"), kem);
    }
}
