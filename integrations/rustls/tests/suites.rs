//! The provider's own suites, the post-quantum ones included (rustls' aws-lc-rs HPKE has none
//! of them, so `differential.rs` cannot reach them): ids, round trips through the trait
//! objects, and errors, never panics, for bytes a peer or a config could carry.

use std::collections::HashSet;

use rustls::Error;
use rustls::crypto::hpke::{EncapsulatedSecret, Hpke, HpkePrivateKey, HpkePublicKey, HpkeSuite};
use rustls::internal::msgs::enums::{HpkeAead, HpkeKdf, HpkeKem};
use rustls::internal::msgs::handshake::HpkeSymmetricCipherSuite;
use typed_hpke_rustls::{ALL_SUPPORTED_SUITES, TypedHpke, X_WING_HKDF_SHA256_AES_128, find};

const KEMS: [u16; 12] = [
    0x0010, 0x0011, 0x0012, 0x0016, 0x0020, 0x0021, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a,
];

fn suite(kem: u16, kdf: u16, aead: u16) -> HpkeSuite {
    HpkeSuite {
        kem: HpkeKem::from(kem),
        sym: HpkeSymmetricCipherSuite {
            kdf_id: HpkeKdf::from(kdf),
            aead_id: HpkeAead::from(aead),
        },
    }
}

#[test]
fn the_suite_list_is_the_full_cross_product() {
    let mut seen = HashSet::new();
    for hpke in ALL_SUPPORTED_SUITES {
        let s = hpke.suite();
        let ids = (
            u16::from(s.kem),
            u16::from(s.sym.kdf_id),
            u16::from(s.sym.aead_id),
        );
        assert!(seen.insert(ids), "{ids:x?} twice");
        assert_eq!(TypedHpke::new(s).unwrap().typed_suite().kem_id(), ids.0);
    }
    let mut expected = HashSet::new();
    for kem in KEMS {
        for kdf in 1..=3 {
            for aead in 1..=3 {
                expected.insert((kem, kdf, aead));
            }
        }
    }
    assert_eq!(seen, expected);
    // The names rustls has are the ones it parses ECHConfigs into, so `==` must hold on them.
    assert_eq!(
        find(suite(0x0020, 1, 1)).unwrap().suite().kem,
        HpkeKem::DHKEM_X25519_HKDF_SHA256
    );
    assert_eq!(
        X_WING_HKDF_SHA256_AES_128.suite().kem,
        HpkeKem::Unknown(0x647a)
    );
}

#[test]
fn unsupported_suites_are_errors() {
    // ExportOnly cannot seal; 0x0099 and 0x0004 are no registered ids.
    for s in [
        suite(0x0020, 1, 0xffff),
        suite(0x0099, 1, 1),
        suite(0x0020, 0x0004, 1),
    ] {
        assert!(TypedHpke::new(s).is_err(), "{s:?}");
        assert!(find(s).is_none());
    }
    // One-stage KDFs are supported, just not in the ready list.
    let shake = suite(0x647a, 0x0011, 3);
    assert!(find(shake).is_none());
    let hpke: &'static TypedHpke = Box::leak(Box::new(TypedHpke::new(shake).unwrap()));
    assert_eq!(hpke.suite(), shake);
    round_trip(hpke);
}

fn round_trip(hpke: &dyn Hpke) {
    let (pk, sk) = hpke.generate_key_pair().unwrap();
    let (enc, ct) = hpke.seal(b"info", b"aad", b"plaintext", &pk).unwrap();
    assert_eq!(
        hpke.open(&enc, b"info", b"aad", &ct, &sk).unwrap(),
        b"plaintext"
    );
    let (enc, mut sealer) = hpke.setup_sealer(b"info", &pk).unwrap();
    let mut opener = hpke.setup_opener(&enc, b"info", &sk).unwrap();
    for i in 0..3u8 {
        let ct = sealer.seal(&[i], &[i; 40]).unwrap();
        assert_eq!(opener.open(&[i], &ct).unwrap(), [i; 40]);
    }
    // Another key pair of the same suite cannot open.
    let (_, other) = hpke.generate_key_pair().unwrap();
    assert_eq!(
        hpke.open(&enc, b"info", b"aad", &ct, &other).unwrap_err(),
        Error::DecryptError
    );
}

#[test]
fn every_suite_round_trips() {
    for hpke in ALL_SUPPORTED_SUITES.iter().copied() {
        round_trip(hpke);
    }
}

fn typed_error(e: Error) -> typed_hpke::Error {
    match e {
        Error::Other(other) => *(&*other.0 as &dyn std::error::Error)
            .downcast_ref::<typed_hpke::Error>()
            .expect("a typed-hpke error inside"),
        Error::DecryptError => typed_hpke::Error::Open,
        e => panic!("unexpected {e:?}"),
    }
}

#[test]
fn bad_peer_bytes_are_errors_on_every_kem() {
    use typed_hpke::Error as E;
    for kem in KEMS {
        let hpke = find(suite(kem, 1, 3)).unwrap();
        let (pk, sk) = hpke.generate_key_pair().unwrap();
        let (enc, ct) = hpke.seal(b"", b"", b"m", &pk).unwrap();

        // Encapsulated keys of the wrong length.
        for len in [0, enc.0.len() - 1, enc.0.len() + 1] {
            let bad = EncapsulatedSecret(vec![0x42; len]);
            assert_eq!(
                typed_error(hpke.open(&bad, b"", b"", &ct, &sk).unwrap_err()),
                E::InvalidEncappedKey,
                "{kem:#x} enc of {len} bytes"
            );
            assert!(hpke.setup_opener(&bad, b"", &sk).is_err());
        }
        // Private keys of the wrong length.
        for len in [0, sk.secret_bytes().len() - 1, sk.secret_bytes().len() + 1] {
            let bad = HpkePrivateKey::from(vec![1; len]);
            assert_eq!(
                typed_error(hpke.open(&enc, b"", b"", &ct, &bad).unwrap_err()),
                E::InvalidPrivateKey,
                "{kem:#x} private key of {len} bytes"
            );
        }
        // Public keys: wrong lengths, and all-0xff of the right length, which is no point on
        // a Weierstrass curve and has ML-KEM coefficients >= q (FIPS 203 §7.2's modulus check).
        // X25519 and X448 take any bytes of the right length.
        let mut bad = vec![vec![], vec![4; pk.0.len() - 1], vec![4; pk.0.len() + 1]];
        if !matches!(kem, 0x0020 | 0x0021) {
            bad.push(vec![0xff; pk.0.len()]);
        }
        for key in bad {
            let len = key.len();
            let key = HpkePublicKey(key);
            assert_eq!(
                typed_error(hpke.seal(b"", b"", b"m", &key).unwrap_err()),
                E::InvalidPublicKey,
                "{kem:#x} public key of {len} bytes"
            );
            assert!(hpke.setup_sealer(b"", &key).is_err());
        }
    }
}
