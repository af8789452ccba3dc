//! Bad input of every kind: each must be an `Error`, never a panic, never a silent success.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, MAX_ONE_STAGE_INPUT_LEN, Shake128, Shake256,
    TurboShake128, TurboShake256,
};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem768P256, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, Error, Hpke, MIN_PSK_LEN, PrivateKey, Psk, PublicKey};

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x6e65_6761_7469_7665)
}

fn sizes<K: Kem>() -> (usize, usize, usize) {
    use typed_hpke::hybrid_array::typenum::Unsigned;
    (K::NPk::USIZE, K::NSk::USIZE, K::NEnc::USIZE)
}

/// Wrong lengths are rejected by every parser of `K`, with the parser's own error.
fn wrong_lengths<K: Kem>() {
    let (npk, nsk, nenc) = sizes::<K>();
    let (sk, pk) = K::generate(&mut rng()).unwrap();
    for len in [0, 1, npk - 1, npk + 1, 2 * npk] {
        let mut bytes = pk.as_bytes().to_vec();
        bytes.resize(len, 0x04);
        assert_eq!(
            PublicKey::<K>::from_bytes(&bytes).unwrap_err(),
            Error::InvalidPublicKey,
            "pk len {len}"
        );
    }
    for len in [0, 1, nsk - 1, nsk + 1] {
        let mut bytes = sk.to_bytes().to_vec();
        bytes.resize(len, 0x01);
        assert_eq!(
            PrivateKey::<K>::from_bytes(&bytes).unwrap_err(),
            Error::InvalidPrivateKey,
            "sk len {len}"
        );
    }
    for len in [0, 1, nenc - 1, nenc + 1] {
        assert_eq!(
            EncappedKey::<K>::from_bytes(&vec![4u8; len]).unwrap_err(),
            Error::InvalidEncappedKey
        );
    }
    // And the right lengths round-trip.
    assert_eq!(PublicKey::<K>::from_bytes(pk.as_bytes()).unwrap(), pk);
    assert_eq!(PrivateKey::<K>::from_bytes(&sk.to_bytes()).unwrap(), sk);
}

#[test]
fn every_parser_rejects_wrong_lengths() {
    for_each_kem!(wrong_lengths);
}

/// Off-curve points, the identity, compressed and hybrid SEC1 forms: all rejected as public
/// keys, and as encapsulated keys at decapsulation (with the one opaque decap error).
fn weierstrass_points<K: Kem>() {
    let mut rng = rng();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let good = pk.as_bytes().to_vec();
    let n = good.len();
    let coord = (n - 1) / 2;

    let mut off_curve = good.clone();
    off_curve[n - 1] ^= 1; // y + 1 (or - 1): off the curve
    let identity_padded = {
        let mut b = vec![0u8; n];
        b[0] = 0x04;
        b
    };
    let mut compressed = vec![0x02 | (good[n - 1] & 1)];
    compressed.extend_from_slice(&good[1..=coord]);
    let mut hybrid = good.clone();
    hybrid[0] = 0x06 | (good[n - 1] & 1);
    let mut bad_tag = good.clone();
    bad_tag[0] = 0x05;
    let mut x_too_big = good.clone();
    x_too_big[1..=coord].fill(0xff); // x >= p

    let cases: [(&str, Vec<u8>); 7] = [
        ("off-curve", off_curve),
        ("all-zero uncompressed", identity_padded),
        ("SEC1 identity", vec![0x00]),
        ("compressed", compressed),
        ("hybrid", hybrid),
        ("bad tag", bad_tag),
        ("x >= p", x_too_big),
    ];
    for (what, bytes) in &cases {
        assert_eq!(
            PublicKey::<K>::from_bytes(bytes).unwrap_err(),
            Error::InvalidPublicKey,
            "{what}"
        );
        if bytes.len() == n {
            let enc = EncappedKey::<K>::from_bytes(bytes).unwrap();
            assert_eq!(
                K::decap(&enc, &sk).unwrap_err(),
                Error::Decap,
                "decap of {what}"
            );
        }
    }
}

#[test]
fn weierstrass_public_keys_are_validated() {
    weierstrass_points::<DhKemP256HkdfSha256>();
    weierstrass_points::<DhKemP384HkdfSha384>();
    weierstrass_points::<DhKemP521HkdfSha512>();
    weierstrass_points::<DhKemSecp256k1HkdfSha256>();
}

/// Scalars that are zero or not below the group order are not private keys.
#[test]
fn out_of_range_scalars() {
    fn reject<K: Kem>(bytes: &[u8]) {
        assert_eq!(
            PrivateKey::<K>::from_bytes(bytes).unwrap_err(),
            Error::InvalidPrivateKey,
            "{bytes:02x?}"
        );
    }
    let p256_order =
        hex::decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551").unwrap();
    let k256_order =
        hex::decode("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141").unwrap();
    reject::<DhKemP256HkdfSha256>(&[0; 32]);
    reject::<DhKemP256HkdfSha256>(&p256_order);
    reject::<DhKemP256HkdfSha256>(&[0xff; 32]);
    reject::<DhKemSecp256k1HkdfSha256>(&[0; 32]);
    reject::<DhKemSecp256k1HkdfSha256>(&k256_order);
    reject::<DhKemP384HkdfSha384>(&[0; 48]);
    reject::<DhKemP384HkdfSha384>(&[0xff; 48]);
    reject::<DhKemP521HkdfSha512>(&[0; 66]);
    let mut p521_too_big = vec![0u8; 66];
    p521_too_big[0] = 0x02; // above 2^521
    reject::<DhKemP521HkdfSha512>(&p521_too_big);
    // order - 1 is the largest valid scalar.
    let mut p256_max = p256_order.clone();
    p256_max[31] -= 1;
    assert!(PrivateKey::<DhKemP256HkdfSha256>::from_bytes(&p256_max).is_ok());
}

/// Low-order and non-canonical Montgomery u-coordinates whose DH output is all zeros
/// (RFC 9180 §7.1.4): encapsulation to them and decapsulation of them must fail.
fn low_order<K: Kem>(points: &[Vec<u8>]) {
    let mut rng = rng();
    let (sk, _) = K::generate(&mut rng).unwrap();
    for u in points {
        let enc = EncappedKey::<K>::from_bytes(u).unwrap();
        assert_eq!(
            K::decap(&enc, &sk).unwrap_err(),
            Error::Decap,
            "decap of u = {u:02x?}"
        );
        let pk = PublicKey::<K>::from_bytes(u).unwrap();
        assert_eq!(
            K::encap(&mut rng, &pk).unwrap_err(),
            Error::Encap,
            "encap to u = {u:02x?}"
        );
        type H<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        assert_eq!(
            H::<K>::setup_receiver_base(&enc, &sk, b"").unwrap_err(),
            Error::Decap
        );
    }
}

fn le(hex_be: &str, len: usize) -> Vec<u8> {
    let mut b = hex::decode(hex_be).unwrap();
    b.reverse();
    b.resize(len, 0);
    b
}

#[test]
fn x25519_low_order_points_fail() {
    let p = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed";
    let points = vec![
        le("00", 32),
        le("01", 32),
        hex::decode("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800").unwrap(),
        hex::decode("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157").unwrap(),
        le(
            "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec",
            32,
        ), // p - 1
        le(p, 32), // p (= 0)
        le(
            "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee",
            32,
        ), // p + 1 (= 1)
    ];
    low_order::<DhKemX25519HkdfSha256>(&points);
}

#[test]
fn x448_low_order_and_non_canonical_points_fail() {
    // p = 2^448 - 2^224 - 1, little-endian.
    let mut p = vec![0xffu8; 56];
    p[28] = 0xfe;
    let mut p_minus_1 = p.clone();
    p_minus_1[0] = 0xfe;
    let mut p_plus_1 = vec![0u8; 56];
    p_plus_1[28..].fill(0xff);
    let points = vec![le("00", 56), le("01", 56), p_minus_1, p, p_plus_1];
    low_order::<DhKemX448HkdfSha512>(&points);
}

#[test]
fn psk_rules() {
    assert_eq!(
        Psk::new(&[7; MIN_PSK_LEN - 1], b"id").unwrap_err(),
        Error::InvalidPsk
    );
    assert_eq!(Psk::new(&[7; 32], b"").unwrap_err(), Error::InvalidPsk);
    assert_eq!(Psk::new(&[], b"id").unwrap_err(), Error::InvalidPsk);
    assert_eq!(
        Psk::new_allowing_short_psk(&[], b"id").unwrap_err(),
        Error::InvalidPsk
    );
    assert_eq!(
        Psk::new_allowing_short_psk(&[7; 4], b"").unwrap_err(),
        Error::InvalidPsk
    );
    assert!(Psk::new(&[7; MIN_PSK_LEN], b"id").is_ok());
    // The named opt-out works end to end.
    type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>;
    let mut rng = rng();
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let short = Psk::new_allowing_short_psk(b"tiny", b"id").unwrap();
    let (enc, ct) = H::seal_psk(&mut rng, &pk, b"", b"", b"pt", &short).unwrap();
    assert_eq!(
        H::open_psk(&enc, &sk, b"", b"", &ct, &short).unwrap(),
        b"pt"
    );
    // VerifyPSKInputs through the key schedule: a PSK only in the PSK modes.
    let psk = Psk::new(&[7; 32], b"id").unwrap();
    for (mode, psk) in [
        (0u8, Some(&psk)),
        (1, None),
        (2, Some(&psk)),
        (3, None),
        (4, None),
    ] {
        assert_eq!(
            H::key_schedule_for_testing_only(mode, &[0; 32], b"", psk).unwrap_err(),
            Error::InvalidPsk,
            "mode {mode}"
        );
    }
}

fn export_limit<F: Kdf>() {
    type H<F> = Hpke<DhKemX25519HkdfSha256, F, ExportOnly>;
    let mut rng = rng();
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let (enc, sender) = H::<F>::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let receiver = H::<F>::setup_receiver_base(&enc, &sk, b"").unwrap();
    let max = F::MAX_EXPORT_LEN;
    let (mut a, mut b) = (vec![0u8; max], vec![0u8; max]);
    sender.export(b"ctx", &mut a).unwrap();
    receiver.export(b"ctx", &mut b).unwrap();
    assert_eq!(a, b);
    // One byte more is an error, and nothing is written: no truncated output.
    let mut over = vec![0xaau8; max + 1];
    assert_eq!(
        sender.export(b"ctx", &mut over).unwrap_err(),
        Error::ExportTooLong
    );
    assert!(over.iter().all(|&x| x == 0xaa));
    let mut huge = vec![0u8; 70_000];
    assert_eq!(
        receiver.export(b"ctx", &mut huge).unwrap_err(),
        Error::ExportTooLong
    );
    assert_eq!(
        H::<F>::receive_export_base(&enc, &sk, b"", b"ctx", &mut over).unwrap_err(),
        Error::ExportTooLong
    );
}

#[test]
fn export_length_limit() {
    assert_eq!(HkdfSha256::MAX_EXPORT_LEN, 255 * 32);
    assert_eq!(HkdfSha384::MAX_EXPORT_LEN, 255 * 48);
    assert_eq!(HkdfSha512::MAX_EXPORT_LEN, 255 * 64);
    export_limit::<HkdfSha256>();
    export_limit::<HkdfSha384>();
    export_limit::<HkdfSha512>();
}

#[test]
fn sequence_limit() {
    type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = rng();
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let (enc, mut sender) = H::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let mut receiver = H::setup_receiver_base(&enc, &sk, b"").unwrap();
    sender.set_sequence_number_for_testing_only(u64::MAX - 1);
    receiver.set_sequence_number_for_testing_only(u64::MAX - 1);

    // The last sequence number works on both sides...
    let ct = sender.seal(b"", b"last").unwrap();
    assert_eq!(receiver.open(b"", &ct).unwrap(), b"last");
    assert_eq!(sender.sequence_number(), u64::MAX);

    // ...and then every path refuses, before touching the buffer.
    assert_eq!(
        sender.seal(b"", b"one more").unwrap_err(),
        Error::MessageLimitReached
    );
    let mut buf = *b"in place";
    assert_eq!(
        sender.seal_in_place_detached(b"", &mut buf).unwrap_err(),
        Error::MessageLimitReached
    );
    assert_eq!(&buf, b"in place");
    let mut out = [0u8; 64];
    assert_eq!(
        sender.seal_into(b"", b"x", &mut out).unwrap_err(),
        Error::MessageLimitReached
    );
    assert_eq!(
        receiver.open(b"", &ct).unwrap_err(),
        Error::MessageLimitReached
    );
    assert_eq!(sender.sequence_number(), u64::MAX);
    // Export still works: it does not use the sequence.
    let mut x = [0u8; 16];
    sender.export(b"", &mut x).unwrap();
}

#[test]
fn short_ciphertexts_and_buffers() {
    type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>;
    let mut rng = rng();
    let (sk, pk) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    let (enc, mut sender) = H::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let mut receiver = H::setup_receiver_base(&enc, &sk, b"").unwrap();
    for len in 0..16 {
        assert_eq!(
            receiver.open(b"", &vec![0u8; len]).unwrap_err(),
            Error::Open,
            "ct of {len} bytes"
        );
    }
    let mut small = [0u8; 20];
    assert_eq!(
        sender.seal_into(b"", &[1; 5], &mut small).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        sender.sequence_number(),
        0,
        "a refused seal does not consume a nonce"
    );
    let ct = sender.seal(b"", &[1; 10]).unwrap();
    let mut tiny = [0u8; 9];
    assert_eq!(
        receiver.open_into(b"", &ct, &mut tiny).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(receiver.sequence_number(), 0);
    let mut enough = [0u8; 10];
    assert_eq!(receiver.open_into(b"", &ct, &mut enough).unwrap(), 10);
    // Wrong-length input to the single-shot open.
    assert_eq!(
        H::open_base(&enc, &sk, b"", b"", &[0; 3]).unwrap_err(),
        Error::Open
    );
}

#[test]
fn derive_key_pair_accepts_any_ikm_length() {
    // RFC 9180 §7.1.3 asks for at least Nsk bytes of entropy but fixes no length; every
    // length, including empty, must derive without panicking.
    for len in [0usize, 1, 31, 32, 66, 1000] {
        let ikm = vec![0x11u8; len];
        assert!(DhKemP521HkdfSha512::derive_key_pair(&ikm).is_ok());
        assert!(DhKemX448HkdfSha512::derive_key_pair(&ikm).is_ok());
    }
}

/// An ML-KEM encapsulation key with a coefficient of 4095 (>= q = 3329) fails the FIPS 203
/// modulus check, alone or as the first half of a hybrid key.
fn ml_kem_modulus_check<K: Kem>() {
    let (_, pk) = K::generate(&mut rng()).unwrap();
    let mut bytes = pk.as_bytes().to_vec();
    // The first 12-bit coefficient is bytes[0] | (bytes[1] & 0x0f) << 8.
    bytes[0] = 0xff;
    bytes[1] |= 0x0f;
    assert_eq!(
        PublicKey::<K>::from_bytes(&bytes).unwrap_err(),
        Error::InvalidPublicKey
    );
}

#[test]
fn malformed_encapsulation_keys() {
    for_each_ml_kem!(ml_kem_modulus_check);

    // The traditional half of the NIST hybrids is validated like a DH-KEM key: off the curve,
    // it is refused as a public key and fails decapsulation as a ciphertext.
    fn nist_half<K: Kem>() {
        let mut rng = rng();
        let (sk, pk) = K::generate(&mut rng).unwrap();
        let mut bytes = pk.as_bytes().to_vec();
        *bytes.last_mut().unwrap() ^= 1;
        assert_eq!(
            PublicKey::<K>::from_bytes(&bytes).unwrap_err(),
            Error::InvalidPublicKey
        );
        let (_, enc) = K::encap(&mut rng, &pk).unwrap();
        let mut enc = enc.as_bytes().to_vec();
        *enc.last_mut().unwrap() ^= 1;
        let enc = EncappedKey::<K>::from_bytes(&enc).unwrap();
        assert_eq!(K::decap(&enc, &sk).unwrap_err(), Error::Decap);
    }
    nist_half::<MlKem768P256>();
    nist_half::<MlKem1024P384>();
}

/// ML-KEM's implicit rejection: a tampered ciphertext decapsulates, to another secret, and the
/// message then fails to open.
fn implicit_rejection<K: Kem>() {
    type H<K> = Hpke<K, HkdfSha256, Aes128Gcm>;
    let mut rng = rng();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (ss, enc) = K::encap(&mut rng, &pk).unwrap();
    assert_eq!(K::decap(&enc, &sk).unwrap(), ss);
    let mut tampered = enc.as_bytes().to_vec();
    tampered[5] ^= 0x10;
    let tampered = EncappedKey::<K>::from_bytes(&tampered).unwrap();
    let other = K::decap(&tampered, &sk).expect("implicit rejection yields a secret");
    assert_ne!(other, ss);

    let (enc, ct) = H::<K>::seal_base(&mut rng, &pk, b"info", b"aad", b"message").unwrap();
    let mut tampered = enc.as_bytes().to_vec();
    tampered[0] ^= 1;
    let tampered = EncappedKey::<K>::from_bytes(&tampered).unwrap();
    assert_eq!(
        H::<K>::open_base(&tampered, &sk, b"info", b"aad", &ct),
        Err(Error::Open)
    );
    assert_eq!(
        H::<K>::open_base(&enc, &sk, b"info", b"aad", &ct).unwrap(),
        b"message"
    );
}

#[test]
fn tampered_pq_ciphertexts_fail_to_open() {
    for_each_ml_kem!(implicit_rejection);
}

/// One-stage KDFs length-prefix `psk`, `psk_id`, `info` and `exporter_context` with two bytes:
/// 65535 bytes is the most each can be, and one more is an error, never a truncation.
fn one_stage_limits<F: Kdf>() {
    type H<F> = Hpke<XWing, F, ChaCha20Poly1305>;
    let mut rng = rng();
    let (sk, pk) = XWing::generate(&mut rng).unwrap();
    let max = vec![0x61u8; MAX_ONE_STAGE_INPUT_LEN];
    let over = vec![0x61u8; MAX_ONE_STAGE_INPUT_LEN + 1];

    // The longest inputs work end to end.
    let psk = Psk::new(&max, &max).unwrap();
    let (enc, ct) = H::<F>::seal_psk(&mut rng, &pk, &max, b"", b"pt", &psk).unwrap();
    assert_eq!(
        H::<F>::open_psk(&enc, &sk, &max, b"", &ct, &psk).unwrap(),
        b"pt"
    );
    let (enc, ctx) = H::<F>::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let mut out = vec![0u8; F::MAX_EXPORT_LEN];
    ctx.export(&max, &mut out).unwrap();

    // One byte more anywhere is refused.
    assert_eq!(
        H::<F>::setup_sender_base(&mut rng, &pk, &over).unwrap_err(),
        Error::InputTooLong
    );
    assert_eq!(
        H::<F>::setup_receiver_base(&enc, &sk, &over).unwrap_err(),
        Error::InputTooLong
    );
    let long_psk = Psk::new(&over, b"id").unwrap();
    assert_eq!(
        H::<F>::setup_sender_psk(&mut rng, &pk, b"", &long_psk).unwrap_err(),
        Error::InputTooLong
    );
    let long_id = Psk::new(&[1; 32], &over).unwrap();
    assert_eq!(
        H::<F>::setup_receiver_psk(&enc, &sk, b"", &long_id).unwrap_err(),
        Error::InputTooLong
    );
    let mut small = [0xaau8; 16];
    assert_eq!(
        ctx.export(&over, &mut small).unwrap_err(),
        Error::InputTooLong
    );
    assert_eq!(small, [0xaa; 16]);
    let mut too_long = vec![0u8; F::MAX_EXPORT_LEN + 1];
    assert_eq!(
        ctx.export(b"", &mut too_long).unwrap_err(),
        Error::ExportTooLong
    );
}

#[test]
fn one_stage_input_limits() {
    assert_eq!(MAX_ONE_STAGE_INPUT_LEN, 65_535);
    one_stage_limits::<Shake128>();
    one_stage_limits::<Shake256>();
    one_stage_limits::<TurboShake128>();
    one_stage_limits::<TurboShake256>();
}

/// `Group.RandomScalar` (draft-irtf-cfrg-concrete-hybrid-kems §3.1) takes the first valid
/// `Nscalar`-byte candidate of its seed and fails when none is valid; the KEM's own seed is
/// `Group.Nseed` bytes: four P-256 candidates, one P-384 candidate. Driven through the
/// deterministic encapsulation, whose `ikm_e` is `m || seed_T`.
#[test]
fn hybrid_random_scalar_candidate_count() {
    use typed_hpke::hazmat::encap_deterministic;

    /// `m || candidates`; the ephemeral public key is the tail of `enc`.
    fn ikm(candidates: &[&[u8]]) -> Vec<u8> {
        let mut out = vec![0x42; 32];
        for c in candidates {
            out.extend_from_slice(c);
        }
        out
    }
    /// The public key of a valid scalar, as the traditional half of `enc` must show it.
    fn ct_t<K: Kem>(scalar: &[u8]) -> Vec<u8> {
        PrivateKey::<K>::from_bytes(scalar)
            .unwrap()
            .public_key()
            .as_bytes()
            .to_vec()
    }

    // P-256: a candidate at or above the order (all 0xff), or zero, is skipped.
    let (_, pk) = MlKem768P256::derive_key_pair(&[1; 32]).unwrap();
    let bad = [0xff_u8; 32];
    let zero = [0_u8; 32];
    let good = [0x11_u8; 32];
    for (candidates, used) in [
        (vec![&good[..]], 0),
        (vec![&bad[..], &good[..]], 1),
        (vec![&bad[..], &zero[..], &bad[..], &good[..]], 3),
    ] {
        let (_, enc) = encap_deterministic::<MlKem768P256>(&ikm(&candidates), &pk).unwrap();
        assert_eq!(
            &enc.as_bytes()[1088..],
            &ct_t::<DhKemP256HkdfSha256>(candidates[used])[..],
            "P-256 candidate {used} is the ephemeral scalar"
        );
    }
    // Four rejected candidates: "Rejection sampling failed".
    assert_eq!(
        encap_deterministic::<MlKem768P256>(&ikm(&[&bad, &zero, &bad, &bad]), &pk).unwrap_err(),
        Error::Encap
    );
    // A fifth candidate is beyond Group.Nseed (128 bytes) and is not read: an error, not a
    // fifth try.
    assert_eq!(
        encap_deterministic::<MlKem768P256>(&ikm(&[&bad, &bad, &bad, &bad, &good]), &pk)
            .unwrap_err(),
        Error::Encap
    );
    // A seed that is not a whole number of candidates, or empty, is an error.
    assert!(encap_deterministic::<MlKem768P256>(&ikm(&[&good[..31]]), &pk).is_err());
    assert!(encap_deterministic::<MlKem768P256>(&ikm(&[]), &pk).is_err());

    // P-384: Group.Nseed = Nscalar = 48, one candidate and no second try.
    let (_, pk) = MlKem1024P384::derive_key_pair(&[2; 32]).unwrap();
    let bad = [0xff_u8; 48];
    let good = [0x22_u8; 48];
    let (_, enc) = encap_deterministic::<MlKem1024P384>(&ikm(&[&good]), &pk).unwrap();
    assert_eq!(
        &enc.as_bytes()[1568..],
        &ct_t::<DhKemP384HkdfSha384>(&good)[..]
    );
    assert_eq!(
        encap_deterministic::<MlKem1024P384>(&ikm(&[&bad]), &pk).unwrap_err(),
        Error::Encap
    );
    assert_eq!(
        encap_deterministic::<MlKem1024P384>(&ikm(&[&bad, &good]), &pk).unwrap_err(),
        Error::Encap
    );

    // X25519 (X-Wing): RandomScalar is the identity on exactly 32 bytes.
    let (_, pk) = XWing::derive_key_pair(&[3; 32]).unwrap();
    assert!(encap_deterministic::<XWing>(&ikm(&[&[0xff; 32]]), &pk).is_ok());
    assert!(encap_deterministic::<XWing>(&ikm(&[&[0xff; 32], &[0; 32]]), &pk).is_err());
}

/// `typed_hpke::symmetric` and `suite::{Prk, Sealer, Opener, AnyKem}`: every bad id, length and
/// state is an error; a failed open changes neither the buffer nor the sequence number; the
/// last sequence number is refused before any nonce is computed, and stays refused.
#[test]
fn symmetric_surface_rules() {
    use typed_hpke::aead::Aead;
    use typed_hpke::suite::{self, AnyKem};
    use typed_hpke::symmetric::{Opener, Prk, Sealer};

    // Extract exists for the two-stage KDFs only; unknown ids are unknown.
    for id in [
        Shake128::ID,
        Shake256::ID,
        TurboShake128::ID,
        TurboShake256::ID,
    ] {
        assert_eq!(
            suite::Prk::extract(id, b"", &[]).err(),
            Some(Error::UnsupportedOperation)
        );
    }
    for id in [0x0000, 0x0004, 0xffff] {
        assert_eq!(
            suite::Prk::extract(id, b"", &[]).err(),
            Some(Error::UnsupportedSuite)
        );
    }
    // Expand: at most 255·Nh, for each HKDF; over it, an error and `out` untouched.
    for (id, nh) in [
        (HkdfSha256::ID, 32),
        (HkdfSha384::ID, 48),
        (HkdfSha512::ID, 64),
    ] {
        let prk = suite::Prk::extract(id, b"salt", &[b"ikm"]).unwrap();
        prk.expand(&[b"info"], &mut vec![0; 255 * nh]).unwrap();
        let mut out = vec![0xa5; 255 * nh + 1];
        assert_eq!(
            prk.expand(&[b"info"], &mut out).err(),
            Some(Error::InvalidLength)
        );
        assert!(out.iter().all(|&b| b == 0xa5));
        // The pieces are concatenated: ikm and info split anywhere give the same output.
        let split = suite::Prk::extract(id, b"salt", &[b"i", b"", b"km"]).unwrap();
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        prk.expand(&[b"in", b"fo"], &mut a).unwrap();
        split.expand(&[b"info"], &mut b).unwrap();
        assert_eq!(a, b);
    }
    let typed = Prk::<HkdfSha256>::extract(b"salt", &[b"ikm"]);
    let mut too_long = [0u8; 255 * 32 + 1];
    assert_eq!(
        typed.expand(&[], &mut too_long).err(),
        Some(Error::InvalidLength)
    );

    // AEAD ids and key / nonce lengths.
    let (key, nonce) = ([7u8; 16], [9u8; 12]);
    assert_eq!(
        suite::Sealer::new(ExportOnly::ID, &key, &nonce).err(),
        Some(Error::UnsupportedOperation)
    );
    assert_eq!(
        suite::Opener::new(0x0004, &key, &nonce).err(),
        Some(Error::UnsupportedSuite)
    );
    assert_eq!(
        suite::Sealer::new(0x0001, &key[..15], &nonce).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        suite::Sealer::new(0x0002, &key, &nonce).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        suite::Opener::new(0x0003, &[7u8; 32], &nonce[..11]).err(),
        Some(Error::InvalidLength)
    );
    let prk = || suite::Prk::extract(HkdfSha256::ID, b"", &[b"secret"]).unwrap();
    assert_eq!(
        suite::Sealer::from_prk(ExportOnly::ID, prk(), b"key", b"nonce").err(),
        Some(Error::UnsupportedOperation)
    );

    // Runtime and typed, keyed from the same PRK, are the same AEAD.
    let mut runtime = suite::Sealer::from_prk(Aes128Gcm::ID, prk(), b"key", b"nonce").unwrap();
    let typed_prk = Prk::<HkdfSha256>::extract(b"", &[b"secret"]);
    let mut opener = Opener::<Aes128Gcm>::from_prk(&typed_prk, b"key", b"nonce").unwrap();
    let mut ct = runtime.seal(b"aad", b"hello").unwrap();
    // A failed open: buffer and sequence number as they were; then the right one opens.
    let mut tampered = ct.clone();
    tampered[0] ^= 1;
    let mut out = [0x5a; 5];
    assert_eq!(
        opener.open_into(b"aad", &tampered, &mut out).err(),
        Some(Error::Open)
    );
    assert_eq!((out, opener.sequence_number()), ([0x5a; 5], 0));
    assert_eq!(
        opener.open(b"aad", &ct[..15]).err(),
        Some(Error::Open),
        "shorter than a tag"
    );
    assert_eq!(
        opener.open_into(b"aad", &ct, &mut [0u8; 4]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(opener.open(b"aad", &ct).unwrap(), b"hello");
    assert_eq!(opener.sequence_number(), 1);
    // Replaying the first message under the second nonce fails.
    assert_eq!(opener.open(b"aad", &ct).err(), Some(Error::Open));
    ct = runtime.seal(b"aad", b"world").unwrap();
    assert_eq!(opener.open(b"aad", &ct).unwrap(), b"world");

    // The wrap rule: sequence number u64::MAX is never used, on either side, typed or runtime.
    let mut sealer = Sealer::<ChaCha20Poly1305>::new(&[1u8; 32].into(), &[2u8; 12].into());
    sealer.set_sequence_number_for_testing_only(u64::MAX - 1);
    sealer.seal(b"", b"last").unwrap();
    for _ in 0..2 {
        assert_eq!(
            sealer.seal(b"", b"x").err(),
            Some(Error::MessageLimitReached)
        );
        assert_eq!(
            sealer.seal_into(b"", b"x", &mut [0u8; 17]).err(),
            Some(Error::MessageLimitReached)
        );
        assert_eq!(sealer.sequence_number(), u64::MAX);
    }
    let mut runtime: suite::Opener =
        Opener::<ChaCha20Poly1305>::new(&[1u8; 32].into(), &[2u8; 12].into()).into();
    runtime.set_sequence_number_for_testing_only(u64::MAX);
    assert_eq!(
        runtime.open(b"", &[0u8; 16]).err(),
        Some(Error::MessageLimitReached)
    );
    assert_eq!(
        runtime
            .open_in_place_detached(b"", &mut [], &[0u8; 15])
            .err(),
        Some(Error::InvalidLength)
    );

    // `AnyKem`: a KEM from its id alone, with the suite's parsers.
    assert_eq!(AnyKem::new(0x0000).err(), Some(Error::UnsupportedSuite));
    assert_eq!(AnyKem::new(0x0021).unwrap().id(), DhKemX448HkdfSha512::ID);
    assert!(!AnyKem::new(XWing::ID).unwrap().supports_auth());
    let kem = AnyKem::new(DhKemP256HkdfSha256::ID).unwrap();
    assert!(kem.supports_auth());
    assert_eq!(
        kem.public_key_from_bytes(&[4u8; 65]).err(),
        Some(Error::InvalidPublicKey)
    );
    assert_eq!(
        kem.private_key_from_bytes(&[0u8; 32]).err(),
        Some(Error::InvalidPrivateKey)
    );
    let (sk, pk) = kem.derive_key_pair(b"any kem").unwrap();
    let suite = suite::Suite::new(DhKemP256HkdfSha256::ID, 1, 1).unwrap();
    assert_eq!(suite.kem(), kem);
    assert_eq!(suite.derive_key_pair(b"any kem").unwrap().1, pk);
    assert_eq!(kem.private_key_from_bytes(&sk.to_bytes()).unwrap(), sk);
    let (sk2, pk2) = kem.generate_key_pair(&mut rng()).unwrap();
    assert_eq!((sk2.kem_id(), pk2.kem_id()), (kem.id(), kem.id()));
}
