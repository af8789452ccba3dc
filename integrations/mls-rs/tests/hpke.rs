//! The provider's HPKE and KEM methods against mls-rs' stock RustCrypto provider, whose HPKE
//! is an independent implementation (`mls-rs-crypto-hpke`), on every suite: `kem_derive` gives
//! the same key pairs for `ikm` of any length; what either side seals (single-shot, with and
//! without a PSK and an aad, and through `hpke_setup_s`) the other opens, and both export the
//! same secrets; both refuse the same malformed public keys; a tampered message does not open.
//! The draft-ietf-mls-pq-ciphersuites suites, which the stock provider lacks, between two
//! instances of this provider (their HPKE is checked against draft-ietf-hpke-pq's vectors in
//! typed-hpke itself).
//!
//! Built synchronous and asynchronous (`--cfg mls_build_async`), as mls-rs is.

#[macro_use]
mod common;

use common::PQ_CODE_POINTS;
use mls_rs_core::crypto::{
    CipherSuiteProvider, CryptoProvider, HpkeContextR, HpkeContextS, HpkePsk, HpkePublicKey,
};
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeCipherSuite, TypedHpkeProvider};

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn check<B: CipherSuiteProvider>(
    a: &TypedHpkeCipherSuite<impl CipherSuiteProvider + Clone>,
    b: &B,
    label: &str,
) {
    let kem = a.hpke().kem_id();
    let psk_value = [0x42u8; 32];
    let psk = HpkePsk::new(b"psk id", &psk_value);
    for ikm_len in [0usize, 1, 31, 32, 33, 64, 200] {
        let ikm: Vec<u8> = (0..ikm_len).map(|i| (i * 7 + ikm_len) as u8).collect();
        let (sk_a, pk_a) = a.kem_derive(&ikm).await.unwrap();
        let (sk_b, pk_b) = b.kem_derive(&ikm).await.unwrap();
        assert_eq!(pk_a, pk_b, "{label}: DeriveKeyPair of {ikm_len} bytes");
        assert_eq!(sk_a, sk_b, "{label}: DeriveKeyPair of {ikm_len} bytes");
        for aad in [None, Some(&b"aad"[..])] {
            let ct = a.hpke_seal(&pk_b, b"info", aad, b"to b").await.unwrap();
            let pt = b.hpke_open(&ct, &sk_b, &pk_b, b"info", aad).await.unwrap();
            assert_eq!(&*pt, b"to b");
            let ct = b.hpke_seal(&pk_a, b"info", aad, b"to a").await.unwrap();
            let pt = a.hpke_open(&ct, &sk_a, &pk_a, b"info", aad).await.unwrap();
            assert_eq!(&*pt, b"to a");
            let ct = a
                .hpke_seal_psk(&pk_b, b"info", aad, b"psk", psk.clone())
                .await
                .unwrap();
            let pt = b
                .hpke_open_psk(&ct, &sk_b, &pk_b, b"info", aad, psk.clone())
                .await;
            assert_eq!(&*pt.unwrap(), b"psk");
            let ct = b
                .hpke_seal_psk(&pk_a, b"info", aad, b"psk", psk.clone())
                .await
                .unwrap();
            let pt = a
                .hpke_open_psk(&ct, &sk_a, &pk_a, b"info", aad, psk.clone())
                .await;
            assert_eq!(&*pt.unwrap(), b"psk");
            // Tampered: neither opens, and the other info does not open either.
            let mut bad = a.hpke_seal(&pk_b, b"info", aad, b"x").await.unwrap();
            let last = bad.ciphertext.len() - 1;
            bad.ciphertext[last] ^= 1;
            let stock = b.hpke_open(&bad, &sk_b, &pk_b, b"info", aad).await;
            assert!(stock.is_err());
            // typed-hpke's refusal, not the inner provider's: the HPKE ran on typed-hpke.
            let ours = a.hpke_open(&bad, &sk_a, &pk_a, b"info", aad).await;
            assert!(matches!(
                ours,
                Err(typed_hpke_mls_rs::Error::Hpke(typed_hpke::Error::Open))
            ));
            let ct = b.hpke_seal(&pk_a, b"info", aad, b"x").await.unwrap();
            let other_info = a.hpke_open(&ct, &sk_a, &pk_a, b"other", aad).await;
            assert!(other_info.is_err());
        }
        // Contexts: seal several messages and export, both ways.
        let (enc, mut s) = a.hpke_setup_s(&pk_b, b"ctx").await.unwrap();
        let mut r = b.hpke_setup_r(&enc, &sk_b, &pk_b, b"ctx").await.unwrap();
        for i in 0..3u8 {
            let ct = s.seal(Some(&[i]), &[i; 5]).await.unwrap();
            let pt = r.open(Some(&[i]), &ct).await.unwrap();
            assert_eq!(&*pt, &[i; 5]);
        }
        let (x, y) = (s.export(b"exp", 42).await, r.export(b"exp", 42).await);
        assert_eq!(x.unwrap(), y.unwrap());
        let (enc, s) = b.hpke_setup_s(&pk_a, b"ctx").await.unwrap();
        let r = a.hpke_setup_r(&enc, &sk_a, &pk_a, b"ctx").await.unwrap();
        let (x, y) = (s.export(b"exp", 7).await, r.export(b"exp", 7).await);
        assert_eq!(x.unwrap(), y.unwrap());
    }
    // Generated keys serve the other side.
    let (sk, pk) = a.kem_generate().await.unwrap();
    let ct = b.hpke_seal(&pk, b"", None, b"gen").await.unwrap();
    let pt = a.hpke_open(&ct, &sk, &pk, b"", None).await.unwrap();
    assert_eq!(&*pt, b"gen");
    b.kem_public_key_validate(&pk).unwrap();
    a.kem_public_key_validate(&pk).unwrap();
    // `hpke_open` and `hpke_setup_r` use the public key they are given: with another key's,
    // a DH-KEM's `kem_context` is wrong and nothing opens; ML-KEM and the hybrids refuse the
    // pair. (The stock provider uses it too, without checking.)
    let (_, other) = a.kem_generate().await.unwrap();
    let wrong = a.hpke_open(&ct, &sk, &other, b"", None).await;
    let expected = if kem < 0x0040 {
        typed_hpke::Error::Open
    } else {
        typed_hpke::Error::InvalidPrivateKey
    };
    assert!(
        matches!(wrong, Err(typed_hpke_mls_rs::Error::Hpke(e)) if e == expected),
        "{label}: {wrong:?}"
    );
    let (enc, _) = b.hpke_setup_s(&pk, b"").await.unwrap();
    let wrong = a.hpke_setup_r(&enc, &sk, &other, b"").await;
    assert!(
        wrong.is_err() == (kem >= 0x0040),
        "{label}: setup_r with another public key"
    );
    // Malformed public keys: a byte short, a byte long; all zeros, which is no SEC 1 point
    // (NIST curves, and the hybrids' P-256 and P-384 halves) but is an X25519 u-coordinate that
    // RFC 9180 §7.1.1 deserializes (its low order is refused at DH, RFC 9180 §7.1.4) and an
    // ML-KEM key whose coefficients are all reduced: both providers agree on each.
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
    let valid = matches!(kem, 0x0020 | 0x0021 | 0x0040..=0x0042 | 0x647a);
    assert_eq!(
        a.kem_public_key_validate(&zeros).is_ok(),
        valid,
        "{label}: all zeros"
    );
    assert_eq!(
        b.kem_public_key_validate(&zeros).is_ok(),
        valid,
        "{label}: the other side, all zeros"
    );
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn against_the_stock_provider() {
    let ours = TypedHpkeProvider::new(RustCryptoProvider::default());
    let stock = RustCryptoProvider::default();
    let suites = ours.supported_cipher_suites();
    assert_eq!(suites, stock.supported_cipher_suites());
    for cs in suites {
        let a = ours.cipher_suite_provider(cs).unwrap();
        let b = stock.cipher_suite_provider(cs).unwrap();
        assert_eq!(a.cipher_suite(), cs);
        let (kem, kdf, aead) = typed_hpke_mls_rs::hpke_ids(cs).unwrap();
        assert_eq!(
            (a.hpke().kem_id(), a.hpke().kdf_id(), a.hpke().aead_id()),
            (kem, kdf, aead)
        );
        check(&a, &b, &format!("{cs:?}")).await;
    }
}

#[test]
fn hpke_against_the_stock_provider() {
    run!(against_the_stock_provider());
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn draft_pq_suites() {
    let ours = common::with_pq(TypedHpkeProvider::new(RustCryptoProvider::default()));
    let other = common::with_pq(TypedHpkeProvider::new(RustCryptoProvider::default()));
    for (cs, suite) in PQ_CODE_POINTS {
        let a = ours.cipher_suite_provider(cs).unwrap();
        let b = other.cipher_suite_provider(cs).unwrap();
        assert_eq!(a.cipher_suite(), cs);
        let (kem, kdf, aead) = suite.hpke_ids();
        assert_eq!(
            (a.hpke().kem_id(), a.hpke().kdf_id(), a.hpke().aead_id()),
            (kem, kdf, aead)
        );
        check(&a, &b, &format!("{suite:?}")).await;
    }
}

#[test]
fn hpke_on_the_draft_pq_suites() {
    run!(draft_pq_suites());
}

/// The code points a draft suite may not take: reserved ones, RFC 9420's, mls-rs' own
/// post-quantum ones (another construction), and one already taken.
#[test]
fn draft_pq_code_points() {
    use mls_rs_core::crypto::CipherSuite;
    use typed_hpke_mls_rs::{DraftPqSuite, Error, MLS_RS_PRIVATE_PQ_CODE_POINTS};
    let suite = DraftPqSuite::MlKem768X25519Aes128GcmSha256Ed25519;
    let fresh = || TypedHpkeProvider::new(RustCryptoProvider::default());
    let refused = [0u16, 1, 2, 3, 4, 5, 6, 7, 0x0a0a, 0x1a1a, 0xeaea]
        .into_iter()
        .chain(MLS_RS_PRIVATE_PQ_CODE_POINTS);
    for value in refused {
        assert!(
            matches!(
                fresh().with_draft_pq_suite(CipherSuite::new(value), suite),
                Err(Error::CodePoint(v)) if v == value
            ),
            "{value:#06x}"
        );
    }
    let taken = fresh()
        .with_draft_pq_suite(CipherSuite::new(0xf0a1), suite)
        .unwrap();
    assert!(
        taken
            .clone()
            .with_draft_pq_suite(
                CipherSuite::new(0xf0a1),
                DraftPqSuite::MlKem1024Aes256GcmSha384P384
            )
            .is_err()
    );
    // 0x0a0b is no GREASE value: accepted.
    let two = taken
        .with_draft_pq_suite(
            CipherSuite::new(0x0a0b),
            DraftPqSuite::MlKem1024Aes256GcmSha384P384,
        )
        .unwrap();
    assert_eq!(
        two.draft_pq_suite(CipherSuite::new(0x0a0b)),
        Some(DraftPqSuite::MlKem1024Aes256GcmSha384P384)
    );
    // A draft suite whose RFC 9420 counterpart the inner provider lacks is not offered.
    let inner =
        RustCryptoProvider::with_enabled_cipher_suites(vec![CipherSuite::CURVE25519_AES128]);
    let one = TypedHpkeProvider::new(inner)
        .with_draft_pq_suite(CipherSuite::new(0xf0a1), suite)
        .unwrap()
        .with_draft_pq_suite(
            CipherSuite::new(0xf0a8),
            DraftPqSuite::MlKem1024Aes256GcmSha384P384,
        )
        .unwrap();
    assert_eq!(
        one.supported_cipher_suites(),
        [CipherSuite::CURVE25519_AES128, CipherSuite::new(0xf0a1)]
    );
    assert!(
        one.cipher_suite_provider(CipherSuite::new(0xf0a8))
            .is_none()
    );
    // OpenMLS' code points: X-Wing at 0x004F, ML-KEM-1024 at 0x0042, once.
    let openmls = fresh().with_openmls_pq_suites().unwrap();
    assert_eq!(
        openmls.draft_pq_suite(CipherSuite::new(0x004f)),
        Some(DraftPqSuite::MlKem768X25519Aes128GcmSha256Ed25519)
    );
    assert_eq!(
        openmls.draft_pq_suite(CipherSuite::new(0x0042)),
        Some(DraftPqSuite::MlKem1024Aes256GcmSha384P384)
    );
    assert!(matches!(
        openmls.with_openmls_pq_suites(),
        Err(Error::CodePoint(0x004f))
    ));
    // The outside review: OpenMLS' other post-quantum values, and these two with another
    // suite, were accepted, so one value could mean two suites in a mixed group.
    for value in typed_hpke_mls_rs::OPENMLS_PQ_VALUES {
        for suite in DraftPqSuite::ALL {
            let taken = fresh().with_draft_pq_suite(CipherSuite::new(value), suite);
            let openmls_own = typed_hpke_mls_rs::OPENMLS_PQ_CODE_POINTS
                .contains(&(CipherSuite::new(value), suite));
            assert_eq!(taken.is_ok(), openmls_own, "{value:#06x} as {suite:?}");
        }
    }
}
