//! The post-quantum KEMs against reference implementations used directly, on 200 random seeds
//! each: key generation, encapsulation with the same randomness, and decapsulation (of honest
//! and of random ciphertexts) agree byte for byte.
//!
//! X-Wing is checked against the `x-wing` crate, ML-KEM against `ml-kem`. No crate implements
//! MLKEM768-P256 or MLKEM1024-P384, so those are checked against their definition computed here
//! from `ml-kem`, `p256` / `p384`, SHAKE256 and SHA3-256 directly.

use ml_kem::kem::{Decapsulate, KeyExport};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use sha3::Digest;
use shake::digest::{ExtendableOutput, Update, XofReader};
use typed_hpke::kem::{Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024, MlKem1024P384, XWing};
use typed_hpke::{EncappedKey, PrivateKey};

const SEEDS: usize = 200;

fn rng(label: &str) -> ChaCha20Rng {
    ChaCha20Rng::from_seed(sha3::Sha3_256::digest(label.as_bytes()).into())
}

fn random<const N: usize>(rng: &mut ChaCha20Rng) -> [u8; N] {
    let mut out = [0u8; N];
    rng.fill_bytes(&mut out);
    out
}

#[test]
fn xwing_matches_the_x_wing_crate() {
    let mut rng = rng("x-wing");
    for i in 0..SEEDS {
        let seed: [u8; 32] = random(&mut rng);
        let theirs = x_wing::DecapsulationKey::from(seed);
        let ours = PrivateKey::<XWing>::from_bytes(&seed).unwrap();
        let their_ek = ml_kem::kem::Decapsulator::encapsulation_key(&theirs);
        let pk = ours.public_key();
        assert_eq!(pk.as_bytes(), &their_ek.to_bytes()[..], "#{i} pk");

        let eseed: [u8; 64] = random(&mut rng);
        let (their_ct, their_ss) = their_ek.encapsulate_deterministic(&eseed.into());
        let (our_ss, our_ct) =
            typed_hpke::hazmat::encap_deterministic::<XWing>(&eseed, &pk).unwrap();
        assert_eq!(our_ct.as_bytes(), &their_ct[..], "#{i} ct");
        assert_eq!(our_ss.as_bytes(), &their_ss[..], "#{i} ss");
        assert_eq!(
            XWing::decap(&our_ct, &ours).unwrap().as_bytes(),
            &their_ss[..]
        );

        // A random ciphertext: both implicit-reject (ML-KEM) and agree on the result.
        let junk: [u8; 1120] = std::array::from_fn(|_| rng.next_u32() as u8);
        let ours_junk = XWing::decap(&EncappedKey::from_bytes(&junk).unwrap(), &ours).unwrap();
        assert_eq!(
            ours_junk.as_bytes(),
            &theirs.decapsulate(&junk.into())[..],
            "#{i} junk"
        );
    }
}

/// X25519 u-coordinates whose product with any clamped scalar is all zero: 0 and 1 (the points
/// of order 1 and 4), and their non-canonical encodings p and p + 1 (X25519 reduces mod p).
fn low_order_x25519() -> [[u8; 32]; 4] {
    let mut one = [0u8; 32];
    one[0] = 1;
    let mut p = [0xff_u8; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut p_plus_one = p;
    p_plus_one[0] = 0xee;
    [[0u8; 32], one, p, p_plus_one]
}

/// An `enc` whose X25519 share has low order (its DH output is all zero) is refused, as the
/// `x-wing` crate's rejecting key and Go's crypto/hpke refuse it; X-Wing's accepting key
/// computes a secret from it, so the refusal is the check's, not a malformed input's. And a
/// recipient key whose X25519 half has low order cannot be encapsulated to.
#[test]
fn xwing_refuses_a_low_order_x25519_share() {
    use x_wing::TryDecapsulate;
    let mut rng = rng("x-wing low order");
    for (i, ct_t) in low_order_x25519().iter().enumerate() {
        let seed: [u8; 32] = random(&mut rng);
        let ours = PrivateKey::<XWing>::from_bytes(&seed).unwrap();
        let eseed: [u8; 64] = random(&mut rng);
        let (_, honest) =
            typed_hpke::hazmat::encap_deterministic::<XWing>(&eseed, &ours.public_key()).unwrap();
        let mut enc: [u8; 1120] = honest.as_bytes()[..].try_into().unwrap();
        enc[1088..].copy_from_slice(ct_t);

        let accepting = x_wing::DecapsulationKey::from(seed);
        let rejecting = x_wing::DecapsulationKeyRejectNonContrib::from(seed);
        let _secret = accepting.decapsulate(&enc.into());
        assert!(
            rejecting.try_decapsulate(&enc.into()).is_err(),
            "#{i} x-wing"
        );
        assert_eq!(
            XWing::decap(&EncappedKey::from_bytes(&enc).unwrap(), &ours).err(),
            Some(typed_hpke::Error::Decap),
            "#{i} decap"
        );

        let mut pk = ours.public_key().as_bytes().to_vec();
        let len = pk.len();
        pk[len - 32..].copy_from_slice(ct_t);
        let pk = typed_hpke::PublicKey::<XWing>::from_bytes(&pk).unwrap();
        assert_eq!(
            typed_hpke::hazmat::encap_deterministic::<XWing>(&eseed, &pk).err(),
            Some(typed_hpke::Error::Encap),
            "#{i} encap"
        );
    }
}

macro_rules! ml_kem_matches {
    ($test:ident, $ours:ty, $theirs:ty, $nct:literal) => {
        #[test]
        fn $test() {
            let mut rng = rng(stringify!($test));
            for i in 0..SEEDS {
                let seed: [u8; 64] = random(&mut rng);
                let theirs = ml_kem::DecapsulationKey::<$theirs>::from_seed(seed.into());
                let ours = PrivateKey::<$ours>::from_bytes(&seed).unwrap();
                let their_ek = theirs.encapsulation_key();
                let pk = ours.public_key();
                assert_eq!(pk.as_bytes(), &their_ek.to_bytes()[..], "#{i} pk");

                let m: [u8; 32] = random(&mut rng);
                let (their_ct, their_ss) = their_ek.encapsulate_deterministic(&m.into());
                let (our_ss, our_ct) =
                    typed_hpke::hazmat::encap_deterministic::<$ours>(&m, &pk).unwrap();
                assert_eq!(our_ct.as_bytes(), &their_ct[..], "#{i} ct");
                assert_eq!(our_ss.as_bytes(), &their_ss[..], "#{i} ss");
                assert_eq!(
                    <$ours>::decap(&our_ct, &ours).unwrap().as_bytes(),
                    &their_ss[..]
                );

                let junk: [u8; $nct] = std::array::from_fn(|_| rng.next_u32() as u8);
                let enc = EncappedKey::<$ours>::from_bytes(&junk).unwrap();
                assert_eq!(
                    <$ours>::decap(&enc, &ours).unwrap().as_bytes(),
                    &theirs.decapsulate(&junk.into())[..],
                    "#{i} junk"
                );
            }
        }
    };
}

ml_kem_matches!(ml_kem_512_matches_ml_kem, MlKem512, ml_kem::MlKem512, 768);
ml_kem_matches!(ml_kem_768_matches_ml_kem, MlKem768, ml_kem::MlKem768, 1088);
ml_kem_matches!(
    ml_kem_1024_matches_ml_kem,
    MlKem1024,
    ml_kem::MlKem1024,
    1568
);

/// MLKEM768-P256 and MLKEM1024-P384 from their definition (draft-irtf-cfrg-hybrid-kems as
/// draft-ietf-hpke-pq §4 instantiates it), written out here over the reference crates.
macro_rules! nist_hybrid_matches {
    ($test:ident, $ours:ty, $params:ty, $curve:ident, $nscalar:literal, $nct_m:literal, $label:literal) => {
        #[test]
        fn $test() {
            use $curve::elliptic_curve::point::AffineCoordinates;
            use $curve::elliptic_curve::sec1::{FromSec1Point, ToSec1Point};
            use $curve::{AffinePoint, NonZeroScalar, ProjectivePoint};

            fn valid_scalar(bytes: &[u8]) -> Option<NonZeroScalar> {
                NonZeroScalar::from_repr(bytes.try_into().ok()?).into_option()
            }

            let mut rng = rng(stringify!($test));
            for i in 0..SEEDS {
                // Key generation: SHAKE256(seed) = d || z || candidate || candidate ...
                let seed: [u8; 32] = random(&mut rng);
                let mut xof = shake::Shake256::default();
                xof.update(&seed);
                let mut reader = xof.finalize_xof();
                let mut dz = [0u8; 64];
                reader.read(&mut dz);
                let sk_t = loop {
                    let mut c = [0u8; $nscalar];
                    reader.read(&mut c);
                    if let Some(s) = valid_scalar(&c) {
                        break s;
                    }
                };
                let dk_m = ml_kem::DecapsulationKey::<$params>::from_seed(dz.into());
                let pk_t = (ProjectivePoint::GENERATOR * *sk_t)
                    .to_affine()
                    .to_sec1_point(false);
                let mut pk = dk_m.encapsulation_key().to_bytes().to_vec();
                pk.extend_from_slice(pk_t.as_bytes());

                let ours = PrivateKey::<$ours>::from_bytes(&seed).unwrap();
                let our_pk = ours.public_key();
                assert_eq!(our_pk.as_bytes(), &pk[..], "#{i} pk");

                // Encapsulation: m, then the ephemeral scalar candidates.
                let m: [u8; 32] = random(&mut rng);
                let sk_e = loop {
                    let c: [u8; $nscalar] = std::array::from_fn(|_| rng.next_u32() as u8);
                    if valid_scalar(&c).is_some() {
                        break c;
                    }
                };
                let e = valid_scalar(&sk_e).unwrap();
                let (ct_m, ss_m) = dk_m
                    .encapsulation_key()
                    .encapsulate_deterministic(&m.into());
                let ct_t = (ProjectivePoint::GENERATOR * *e)
                    .to_affine()
                    .to_sec1_point(false);
                let pk_t_point = AffinePoint::from_sec1_point(&pk_t).unwrap();
                let ss_t = (ProjectivePoint::from(pk_t_point) * *e).to_affine().x();
                let ss = sha3::Sha3_256::new()
                    .chain_update(ss_m)
                    .chain_update(ss_t)
                    .chain_update(ct_t.as_bytes())
                    .chain_update(pk_t.as_bytes())
                    .chain_update($label)
                    .finalize();
                let mut ct = ct_m.to_vec();
                ct.extend_from_slice(ct_t.as_bytes());

                let mut ikm_e = m.to_vec();
                ikm_e.extend_from_slice(&sk_e);
                let (our_ss, our_ct) =
                    typed_hpke::hazmat::encap_deterministic::<$ours>(&ikm_e, &our_pk).unwrap();
                assert_eq!(our_ct.as_bytes(), &ct[..], "#{i} ct");
                assert_eq!(our_ss.as_bytes(), &ss[..], "#{i} ss");
                assert_eq!(
                    <$ours>::decap(&our_ct, &ours).unwrap().as_bytes(),
                    &ss[..],
                    "#{i} decap"
                );

                // A random ML-KEM ciphertext beside an honest ct_T: ML-KEM rejects implicitly,
                // and both sides hash the same pseudorandom ss_PQ.
                let mut junk = ct.clone();
                rng.fill_bytes(&mut junk[..ct_m.len()]);
                let junk_m: [u8; $nct_m] = junk[..ct_m.len()].try_into().unwrap();
                let ss_t_r = (ProjectivePoint::from(AffinePoint::from_sec1_point(&ct_t).unwrap())
                    * *sk_t)
                    .to_affine()
                    .x();
                let expected = sha3::Sha3_256::new()
                    .chain_update(dk_m.decapsulate(&junk_m.into()))
                    .chain_update(ss_t_r)
                    .chain_update(ct_t.as_bytes())
                    .chain_update(pk_t.as_bytes())
                    .chain_update($label)
                    .finalize();
                let enc = EncappedKey::<$ours>::from_bytes(&junk).unwrap();
                assert_eq!(
                    <$ours>::decap(&enc, &ours).unwrap().as_bytes(),
                    &expected[..],
                    "#{i} junk"
                );
            }
        }
    };
}

nist_hybrid_matches!(
    mlkem768_p256_matches_its_definition,
    MlKem768P256,
    ml_kem::MlKem768,
    p256,
    32,
    1088,
    b"MLKEM768-P256"
);
nist_hybrid_matches!(
    mlkem1024_p384_matches_its_definition,
    MlKem1024P384,
    ml_kem::MlKem1024,
    p384,
    48,
    1568,
    b"MLKEM1024-P384"
);

/// Public-key validation (the FIPS 203 §7.2 modulus check) accepts exactly what `ml-kem`
/// accepts: honest keys, and keys with one coefficient of `t` pushed to or past `q`.
macro_rules! ml_kem_key_check_matches {
    ($test:ident, $ours:ty, $theirs:ty, $npk:literal) => {
        #[test]
        fn $test() {
            use typed_hpke::PublicKey;
            let mut rng = rng(stringify!($test));
            let mut rejected = 0;
            for i in 0..SEEDS {
                let seed: [u8; 64] = random(&mut rng);
                let ours = PrivateKey::<$ours>::from_bytes(&seed).unwrap();
                let mut pk: [u8; $npk] = ours.public_key().as_bytes()[..].try_into().unwrap();
                // Overwrite one random 12-bit coefficient of t (the bytes before rho): with
                // even odds a value below q = 3329 or one in [q, 4095].
                let coefficients = ($npk - 32) * 2 / 3;
                let index = rng.next_u32() as usize % coefficients;
                let value = if rng.next_u32() % 2 == 0 {
                    (rng.next_u32() % 3329) as u16
                } else {
                    3329 + (rng.next_u32() % 767) as u16
                };
                let at = index / 2 * 3;
                if index % 2 == 0 {
                    pk[at] = value as u8;
                    pk[at + 1] = (pk[at + 1] & 0xf0) | (value >> 8) as u8;
                } else {
                    pk[at + 1] = (pk[at + 1] & 0x0f) | ((value & 0x0f) << 4) as u8;
                    pk[at + 2] = (value >> 4) as u8;
                }
                let theirs = ml_kem::EncapsulationKey::<$theirs>::new(&pk.into()).is_ok();
                let accepted = PublicKey::<$ours>::from_bytes(&pk).is_ok();
                assert_eq!(accepted, theirs, "#{i}: coefficient {index} = {value}");
                assert_eq!(
                    accepted,
                    value < 3329,
                    "#{i}: coefficient {index} = {value}"
                );
                rejected += usize::from(!accepted);
            }
            assert!(
                rejected > SEEDS / 4 && rejected < SEEDS * 3 / 4,
                "{rejected} rejected"
            );
        }
    };
}

ml_kem_key_check_matches!(
    ml_kem_512_key_check_matches_ml_kem,
    MlKem512,
    ml_kem::MlKem512,
    800
);
ml_kem_key_check_matches!(
    ml_kem_768_key_check_matches_ml_kem,
    MlKem768,
    ml_kem::MlKem768,
    1184
);
ml_kem_key_check_matches!(
    ml_kem_1024_key_check_matches_ml_kem,
    MlKem1024,
    ml_kem::MlKem1024,
    1568
);

/// `hazmat::force_portable_ml_kem`: keys made while it is set run libcrux's portable code, and
/// give what the CPU's SIMD code gives: the same derived keys, and each side's `enc` opened by
/// a key of the other kind, for the three ML-KEMs and X-Wing.
#[test]
fn forced_portable_ml_kem_agrees_with_simd() {
    use typed_hpke::hazmat::force_portable_ml_kem;
    fn check<K: Kem>() {
        force_portable_ml_kem(true);
        let (sk_p, pk_p) = K::derive_key_pair(b"portable").unwrap();
        let (ss_p, enc_p) = K::encap(&mut rng("portable encap"), &pk_p).unwrap();
        force_portable_ml_kem(false);
        let (sk_s, pk_s) = K::derive_key_pair(b"portable").unwrap();
        assert_eq!(pk_p.as_bytes(), pk_s.as_bytes());
        assert_eq!(sk_p.to_bytes(), sk_s.to_bytes());
        let (ss_s, enc_s) = K::encap(&mut rng("portable encap"), &pk_s).unwrap();
        assert_eq!(
            enc_p.as_bytes(),
            enc_s.as_bytes(),
            "same randomness, same enc"
        );
        assert_eq!(K::decap(&enc_p, &sk_s).unwrap().as_bytes(), ss_p.as_bytes());
        assert_eq!(K::decap(&enc_s, &sk_p).unwrap().as_bytes(), ss_s.as_bytes());
    }
    check::<MlKem512>();
    check::<MlKem768>();
    check::<MlKem1024>();
    check::<XWing>();
}

/// SEC 1 compressed keys (`PublicKey::from_sec1_compressed` / `to_sec1_compressed`) against
/// the `p256` and `p384` crates' encoders and decoders, on random keys; every other length and
/// first byte, and an x-coordinate with no point, are refused.
macro_rules! compressed_matches {
    ($test:ident, $kem:ty, $curve:ident) => {
        #[test]
        fn $test() {
            use $curve::elliptic_curve::sec1::ToSec1Point;
            let mut rng = rng(stringify!($test));
            let mut refused_x = 0;
            for _ in 0..SEEDS {
                let (_, pk) = <$kem>::generate(&mut rng).unwrap();
                let theirs = $curve::PublicKey::from_sec1_bytes(pk.as_bytes()).unwrap();
                let compressed = theirs.to_sec1_point(true);
                assert_eq!(&pk.to_sec1_compressed()[..], compressed.as_bytes());
                let back =
                    typed_hpke::PublicKey::<$kem>::from_sec1_compressed(compressed.as_bytes());
                assert_eq!(back.unwrap(), pk);
                // The uncompressed form, a wrong parity byte 0x04, a byte short or long.
                for bad in [
                    pk.as_bytes().to_vec(),
                    [&[0x04], &compressed.as_bytes()[1..]].concat(),
                    compressed.as_bytes()[..compressed.len() - 1].to_vec(),
                    [compressed.as_bytes(), &[0]].concat(),
                ] {
                    assert_eq!(
                        typed_hpke::PublicKey::<$kem>::from_sec1_compressed(&bad).unwrap_err(),
                        typed_hpke::Error::InvalidPublicKey
                    );
                }
                // A random x-coordinate: about half have no point; those are refused, as the
                // reference crate refuses them.
                let mut x = compressed.as_bytes().to_vec();
                rng.fill_bytes(&mut x[1..]);
                let ours = typed_hpke::PublicKey::<$kem>::from_sec1_compressed(&x);
                let reference = $curve::PublicKey::from_sec1_bytes(&x);
                assert_eq!(ours.is_ok(), reference.is_ok());
                refused_x += usize::from(ours.is_err());
            }
            assert!(
                refused_x > SEEDS / 4,
                "{refused_x} of {SEEDS} random x refused"
            );
        }
    };
}

compressed_matches!(
    p256_compressed_matches_p256,
    typed_hpke::kem::DhKemP256HkdfSha256,
    p256
);
compressed_matches!(
    p384_compressed_matches_p384,
    typed_hpke::kem::DhKemP384HkdfSha384,
    p384
);
