//! The provider's HPKE against the stock provider's (hpke-rs 0.7) through `OpenMlsCrypto`, on
//! every HPKE configuration OpenMLS can name: each side seals and exports to the other's
//! derived keys, and DeriveKeyPair agrees where the two follow the same specification.

use openmls_rust_crypto::RustCrypto;
use openmls_traits::crypto::OpenMlsCrypto;
use openmls_traits::types::{
    CryptoError, HpkeAeadType, HpkeCiphertext, HpkeConfig, HpkeKdfType, HpkeKemType,
};
use typed_hpke_openmls::{PqKeyDerivation, TypedHpkeCrypto, suite};

const KEMS: [HpkeKemType; 8] = [
    HpkeKemType::DhKemP256,
    HpkeKemType::DhKemP384,
    HpkeKemType::DhKemP521,
    HpkeKemType::DhKem25519,
    HpkeKemType::DhKem448,
    HpkeKemType::MlKem768,
    HpkeKemType::MlKem1024,
    HpkeKemType::XWingKemDraft6,
];
const KDFS: [HpkeKdfType; 3] = [
    HpkeKdfType::HkdfSha256,
    HpkeKdfType::HkdfSha384,
    HpkeKdfType::HkdfSha512,
];
const AEADS: [HpkeAeadType; 3] = [
    HpkeAeadType::AesGcm128,
    HpkeAeadType::AesGcm256,
    HpkeAeadType::ChaCha20Poly1305,
];

fn configs() -> impl Iterator<Item = HpkeConfig> {
    KEMS.into_iter().flat_map(|kem| {
        KDFS.into_iter().flat_map(move |kdf| {
            AEADS
                .into_iter()
                .map(move |aead| HpkeConfig(kem, kdf, aead))
        })
    })
}

fn copy(c: &HpkeConfig) -> HpkeConfig {
    HpkeConfig(c.0, c.1, c.2)
}

fn is_post_quantum(kem: HpkeKemType) -> bool {
    matches!(
        kem,
        HpkeKemType::MlKem768 | HpkeKemType::MlKem1024 | HpkeKemType::XWingKemDraft6
    )
}

fn typed(derivation: PqKeyDerivation) -> TypedHpkeCrypto {
    TypedHpkeCrypto::new(RustCrypto::default(), derivation)
}

#[test]
fn every_openmls_configuration_maps_to_a_typed_hpke_suite() {
    for config in configs() {
        let s = suite(&config).unwrap();
        let kem = match config.0 {
            HpkeKemType::XWingKemDraft6 => 0x647a,
            kem => kem as u16,
        };
        assert_eq!(
            (s.kem_id(), s.kdf_id(), s.aead_id()),
            (kem, config.1 as u16, config.2 as u16)
        );
    }
}

/// `sender` seals and exports to a key pair `receiver` derived; `receiver` opens and exports.
fn one_way(sender: &Side, receiver: &Side, config: &HpkeConfig) -> Option<()> {
    let keys = receiver.derive(copy(config), &[7; 32])?;
    let what = format!("{config:?} {} -> {}", sender.name, receiver.name);
    for (info, aad, pt) in [
        (&b""[..], &b""[..], &b""[..]),
        (b"info", b"aad", &[9; 100][..]),
    ] {
        let ct = sender
            .crypto
            .hpke_seal(copy(config), &keys.public, info, aad, pt)
            .expect(&what);
        let opened = receiver
            .crypto
            .hpke_open(copy(config), &ct, &keys.private, info, aad)
            .expect(&what);
        assert_eq!(opened, pt, "{what}");
        // Tampered, and the wrong aad.
        let mut bad = ct.ciphertext.as_slice().to_vec();
        bad[0] ^= 1;
        let bad = HpkeCiphertext {
            kem_output: ct.kem_output.clone(),
            ciphertext: bad.into(),
        };
        for (ct, aad) in [(&bad, aad), (&ct, b"other aad")] {
            assert_eq!(
                receiver
                    .crypto
                    .hpke_open(copy(config), ct, &keys.private, info, aad)
                    .unwrap_err(),
                CryptoError::HpkeDecryptionError,
                "{what}"
            );
        }
    }
    let (enc, secret) = sender
        .crypto
        .hpke_setup_sender_and_export(copy(config), &keys.public, b"info", b"context", 42)
        .expect(&what);
    let received = receiver
        .crypto
        .hpke_setup_receiver_and_export(copy(config), &enc, &keys.private, b"info", b"context", 42)
        .expect(&what);
    assert_eq!(&*secret, &*received, "{what}");
    assert_eq!(secret.len(), 42);
    Some(())
}

struct Keys {
    public: Vec<u8>,
    private: Vec<u8>,
}

/// One of the two providers, as the tests use it.
struct Side {
    name: &'static str,
    crypto: Box<dyn OpenMlsCrypto>,
}

impl Side {
    /// DeriveKeyPair, or `None` where the provider does not implement the KEM.
    fn derive(&self, config: HpkeConfig, ikm: &[u8]) -> Option<Keys> {
        let kp = self.crypto.derive_hpke_keypair(config, ikm).ok()?;
        Some(Keys {
            public: kp.public,
            private: kp.private.to_vec(),
        })
    }
}

#[test]
fn seal_open_and_export_both_ways() {
    let typed = Side {
        name: "typed-hpke",
        crypto: Box::new(typed(PqKeyDerivation::DraftIetfHpkePq)),
    };
    let stock = Side {
        name: "stock",
        crypto: Box::new(RustCrypto::default()),
    };
    let mut both = 0;
    for config in configs() {
        // typed-hpke with itself, always: it derives keys for every KEM OpenMLS names.
        one_way(&typed, &typed, &config).unwrap();
        // With the stock provider where it has the KEM.
        if one_way(&typed, &stock, &config).is_some() {
            one_way(&stock, &typed, &config).unwrap();
            both += 1;
        }
    }
    // X25519, P-256, P-384 (hpke-rs 0.7's RustCrypto provider has no P-521 or X448), X-Wing,
    // ML-KEM-768 and ML-KEM-1024, each with 3 KDFs and 3 AEADs.
    assert_eq!(both, 6 * 9);
}

#[test]
fn derive_key_pair_agrees_with_stock_where_the_specifications_agree() {
    let standard = typed(PqKeyDerivation::DraftIetfHpkePq);
    let legacy = typed(PqKeyDerivation::HpkeRs07);
    let stock = RustCrypto::default();
    for kem in KEMS {
        let config = HpkeConfig(kem, HpkeKdfType::HkdfSha256, HpkeAeadType::AesGcm128);
        for ikm in [&[0u8; 32][..], &[0x5a; 64], b"short"] {
            let Ok(theirs) = stock.derive_hpke_keypair(copy(&config), ikm) else {
                continue;
            };
            let ours = standard.derive_hpke_keypair(copy(&config), ikm).unwrap();
            let old = legacy.derive_hpke_keypair(copy(&config), ikm).unwrap();
            // RFC 9180 §7.1.3 for the DH-KEMs either way; the post-quantum KEMs differ unless
            // asked to derive as hpke-rs 0.7 does.
            assert_eq!(
                ours.public == theirs.public,
                !is_post_quantum(kem),
                "{kem:?}"
            );
            assert_eq!(old.public, theirs.public, "{kem:?}");
        }
    }
}

#[test]
fn bad_bytes_are_errors() {
    let crypto = typed(PqKeyDerivation::DraftIetfHpkePq);
    for config in configs() {
        let keys = crypto.derive_hpke_keypair(copy(&config), b"ikm").unwrap();
        let ct = crypto
            .hpke_seal(copy(&config), &keys.public, b"", b"", b"m")
            .unwrap();
        let pk_len = keys.public.len();
        for pk in [vec![], vec![4; pk_len - 1], vec![4; pk_len + 1]] {
            assert_eq!(
                crypto
                    .hpke_seal(copy(&config), &pk, b"", b"", b"m")
                    .unwrap_err(),
                CryptoError::InvalidPublicKey
            );
            assert_eq!(
                crypto
                    .hpke_setup_sender_and_export(copy(&config), &pk, b"", b"", 32)
                    .unwrap_err(),
                CryptoError::InvalidPublicKey
            );
        }
        let enc_len = ct.kem_output.as_slice().len();
        for enc in [vec![], vec![4; enc_len - 1], vec![4; enc_len + 1]] {
            let bad = HpkeCiphertext {
                kem_output: enc.clone().into(),
                ciphertext: ct.ciphertext.clone(),
            };
            assert_eq!(
                crypto
                    .hpke_open(copy(&config), &bad, &keys.private, b"", b"")
                    .unwrap_err(),
                CryptoError::HpkeDecryptionError
            );
            assert_eq!(
                crypto
                    .hpke_setup_receiver_and_export(
                        copy(&config),
                        &enc,
                        &keys.private,
                        b"",
                        b"",
                        32
                    )
                    .unwrap_err(),
                CryptoError::ReceiverSetupError
            );
        }
        // A private key of the wrong length.
        assert_eq!(
            crypto
                .hpke_open(copy(&config), &ct, &[1; 3], b"", b"")
                .unwrap_err(),
            CryptoError::HpkeDecryptionError
        );
        // More than 255 * Nh bytes of export (RFC 9180 §5.3), and a length no allocation
        // could hold.
        for len in [255 * 64 + 1, usize::MAX] {
            assert_eq!(
                crypto
                    .hpke_setup_sender_and_export(copy(&config), &keys.public, b"", b"", len)
                    .unwrap_err(),
                CryptoError::ExporterError
            );
            assert_eq!(
                crypto
                    .hpke_setup_receiver_and_export(
                        copy(&config),
                        ct.kem_output.as_slice(),
                        &keys.private,
                        b"",
                        b"",
                        len
                    )
                    .unwrap_err(),
                CryptoError::ExporterError
            );
        }
    }
    // ExportOnly cannot seal, but exports.
    let config = HpkeConfig(
        HpkeKemType::DhKem25519,
        HpkeKdfType::HkdfSha256,
        HpkeAeadType::Export,
    );
    let keys = crypto.derive_hpke_keypair(copy(&config), b"ikm").unwrap();
    assert!(
        crypto
            .hpke_seal(copy(&config), &keys.public, b"", b"", b"m")
            .is_err()
    );
    let (enc, _) = crypto
        .hpke_setup_sender_and_export(copy(&config), &keys.public, b"", b"", 32)
        .unwrap();
    assert!(
        crypto
            .hpke_setup_receiver_and_export(config, &enc, &keys.private, b"", b"", 32)
            .is_ok()
    );
}
