//! Property tests (proptest): for suites drawn from the matrix and arbitrary inputs,
//! open(seal(x)) = x, a single flipped bit anywhere in enc, ciphertext, aad or info makes open
//! fail, and both sides export the same secrets.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake256};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, Hpke};

#[derive(Debug, Clone)]
struct Case {
    seed: u64,
    info: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    exporter_context: Vec<u8>,
    export_len: usize,
    /// Which bit to flip, reduced modulo the length of what is flipped.
    flip: usize,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<u64>(),
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::collection::vec(any::<u8>(), 0..1024),
        proptest::collection::vec(any::<u8>(), 0..64),
        1usize..=255,
        any::<usize>(),
    )
        .prop_map(
            |(seed, info, aad, pt, exporter_context, export_len, flip)| Case {
                seed,
                info,
                aad,
                pt,
                exporter_context,
                export_len,
                flip,
            },
        )
}

fn flip(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut v = bytes.to_vec();
    let bit = bit % (v.len() * 8);
    v[bit / 8] ^= 1 << (bit % 8);
    v
}

fn check<K: Kem, F: Kdf, A: SealingAead>(c: &Case) -> Result<(), TestCaseError> {
    type H<K, F, A> = Hpke<K, F, A>;
    let mut rng = ChaCha20Rng::seed_from_u64(c.seed);
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (enc, ct) = H::<K, F, A>::seal_base(&mut rng, &pk, &c.info, &c.aad, &c.pt).unwrap();
    let open = |enc: &EncappedKey<K>, info: &[u8], aad: &[u8], ct: &[u8]| {
        H::<K, F, A>::open_base(enc, &sk, info, aad, ct)
    };
    prop_assert_eq!(open(&enc, &c.info, &c.aad, &ct).unwrap(), c.pt.clone());

    // One flipped bit anywhere makes open fail.
    prop_assert!(open(&enc, &c.info, &c.aad, &flip(&ct, c.flip)).is_err());
    if let Ok(bad_enc) = EncappedKey::<K>::from_bytes(&flip(enc.as_bytes(), c.flip)) {
        prop_assert!(open(&bad_enc, &c.info, &c.aad, &ct).is_err());
    }
    if !c.aad.is_empty() {
        prop_assert!(open(&enc, &c.info, &flip(&c.aad, c.flip), &ct).is_err());
    }
    if !c.info.is_empty() {
        prop_assert!(open(&enc, &flip(&c.info, c.flip), &c.aad, &ct).is_err());
    }

    // Exports agree.
    let (enc, sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, &c.info).unwrap();
    let receiver = H::<K, F, A>::setup_receiver_base(&enc, &sk, &c.info).unwrap();
    let (mut a, mut b) = (vec![0u8; c.export_len], vec![0u8; c.export_len]);
    sender.export(&c.exporter_context, &mut a).unwrap();
    receiver.export(&c.exporter_context, &mut b).unwrap();
    prop_assert_eq!(a, b);
    Ok(())
}

type Check = fn(&Case) -> Result<(), TestCaseError>;

/// Suites drawn from the matrix: every KEM family, both KDF kinds, every sealing AEAD.
const SUITES: &[(&str, Check)] = &[
    (
        "x25519/hkdf-sha256/chacha20",
        check::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>,
    ),
    (
        "x25519/shake128/aes128",
        check::<DhKemX25519HkdfSha256, Shake128, Aes128Gcm>,
    ),
    (
        "x448/hkdf-sha512/aes256",
        check::<DhKemX448HkdfSha512, HkdfSha512, Aes256Gcm>,
    ),
    (
        "p256/hkdf-sha256/aes128",
        check::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>,
    ),
    (
        "p384/hkdf-sha384/aes256",
        check::<DhKemP384HkdfSha384, HkdfSha384, Aes256Gcm>,
    ),
    (
        "secp256k1/hkdf-sha256/chacha20",
        check::<DhKemSecp256k1HkdfSha256, HkdfSha256, ChaCha20Poly1305>,
    ),
    (
        "mlkem512/turboshake256/aes128",
        check::<MlKem512, TurboShake256, Aes128Gcm>,
    ),
    (
        "mlkem768/hkdf-sha256/chacha20",
        check::<MlKem768, HkdfSha256, ChaCha20Poly1305>,
    ),
    (
        "xwing/shake256/chacha20",
        check::<XWing, Shake256, ChaCha20Poly1305>,
    ),
    (
        "mlkem768p256/hkdf-sha256/aes128",
        check::<MlKem768P256, HkdfSha256, Aes128Gcm>,
    ),
    (
        "mlkem1024p384/hkdf-sha384/aes256",
        check::<MlKem1024P384, HkdfSha384, Aes256Gcm>,
    ),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn seal_open_tamper_export(suite in 0..SUITES.len(), c in case()) {
        let (name, check) = SUITES[suite];
        check(&c).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    }
}
