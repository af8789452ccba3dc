//! Prepared recipient keys give, from the same randomness, exactly what the plain key gives:
//! the same `enc`, shared secret, ciphertexts and exports, in every mode, on every KEM; on
//! random keys, on X25519's edge points (small order, mixed order, the twist, non-canonical
//! encodings) and through the runtime API. The published vectors are checked through prepared
//! keys in `tests/kat.rs`; the tables' scalar edge cases in the crate's unit tests.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::Aes128Gcm;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::RecipientKey;
use typed_hpke::kem::{AuthKem, DhKemX25519HkdfSha256 as X25519, Kem, PreparedPublicKey};
use typed_hpke::suite::{SenderMode, Suite};
use typed_hpke::{Error, Hpke, PrivateKey, Psk, PublicKey};

type F = HkdfSha256;
type A = Aes128Gcm;
type Sender<K> = (
    typed_hpke::EncappedKey<K>,
    typed_hpke::SenderContext<K, F, A>,
);

const INFO: &[u8] = b"prepared info";
const AAD: &[u8] = b"aad";
const PT: &[u8] = b"a plaintext of a few bytes";
const PSK: &[u8] = b"a pre-shared key of thirty-two bytes at least";

/// Everything the sender-side functions of the non-authenticated modes produce from `seed`,
/// in one list: each `enc`, ciphertext and export, or the error.
fn outputs<K: Kem>(
    seed: u64,
    pk_r: &(impl RecipientKey<K> + ?Sized),
) -> Vec<Result<Vec<u8>, Error>> {
    type H<K> = Hpke<K, F, A>;
    let psk = Psk::new(PSK, b"id").unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut context = |r: Result<Sender<K>, Error>| match r {
        Ok((enc, mut ctx)) => {
            out.push(Ok(enc.to_bytes().to_vec()));
            out.push(ctx.seal(AAD, PT));
            let mut e = [0u8; 32];
            out.push(ctx.export(b"ctx", &mut e).map(|()| e.to_vec()));
        }
        Err(e) => out.push(Err(e)),
    };
    context(H::<K>::setup_sender_base(&mut rng, pk_r, INFO));
    context(H::<K>::setup_sender_psk(&mut rng, pk_r, INFO, &psk));
    let mut out2 = Vec::new();
    let mut pair = |r: Result<(typed_hpke::EncappedKey<K>, Vec<u8>), Error>| match r {
        Ok((enc, ct)) => {
            out2.push(Ok(enc.to_bytes().to_vec()));
            out2.push(Ok(ct));
        }
        Err(e) => out2.push(Err(e)),
    };
    pair(H::<K>::seal_base(&mut rng, pk_r, INFO, AAD, PT));
    pair(H::<K>::seal_psk(&mut rng, pk_r, INFO, AAD, PT, &psk));
    let mut buf = [0u8; 64];
    let r = H::<K>::seal_base_into(&mut rng, pk_r, INFO, AAD, PT, &mut buf);
    out2.push(r.map(|(enc, n)| [enc.as_bytes(), &buf[..n]].concat()));
    let mut e = [0u8; 48];
    let r = H::<K>::send_export_base(&mut rng, pk_r, INFO, b"ctx", &mut e);
    out2.push(r.map(|enc| [enc.as_bytes(), &e].concat()));
    let r = H::<K>::send_export_psk(&mut rng, pk_r, INFO, b"ctx", &mut e, &psk);
    out2.push(r.map(|enc| [enc.as_bytes(), &e].concat()));
    out.extend(out2);
    out
}

/// The same for the authenticated modes.
fn auth_outputs<K: AuthKem>(
    seed: u64,
    pk_r: &(impl RecipientKey<K> + ?Sized),
    sk_s: &PrivateKey<K>,
) -> Vec<Result<Vec<u8>, Error>> {
    type H<K> = Hpke<K, F, A>;
    let psk = Psk::new(PSK, b"id").unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for r in [
        H::<K>::seal_auth(&mut rng, pk_r, INFO, AAD, PT, sk_s),
        H::<K>::seal_auth_psk(&mut rng, pk_r, INFO, AAD, PT, &psk, sk_s),
    ] {
        out.push(r.map(|(enc, ct)| [enc.as_bytes(), &ct].concat()));
    }
    let mut e = [0u8; 40];
    let r = H::<K>::send_export_auth(&mut rng, pk_r, INFO, b"ctx", &mut e, sk_s);
    out.push(r.map(|enc| [enc.as_bytes(), &e].concat()));
    let r = H::<K>::setup_sender_auth_psk(&mut rng, pk_r, INFO, &psk, sk_s);
    out.push(r.and_then(|(enc, mut ctx)| Ok([enc.as_bytes(), &ctx.seal(AAD, PT)?].concat())));
    out
}

/// Prepared equals plain on `pk`, and what was sealed opens with `sk`.
fn same_as_plain<K: Kem>(seed: u64, sk: &PrivateKey<K>, pk: &PublicKey<K>) {
    let prepared = PreparedPublicKey::new(pk);
    let plain = outputs::<K>(seed, pk);
    assert_eq!(plain, outputs::<K>(seed, &prepared), "kem {:#06x}", K::ID);
    // Not two equal failures: the first context's ciphertext opens.
    let enc = typed_hpke::EncappedKey::<K>::from_bytes(plain[0].as_ref().unwrap()).unwrap();
    let mut ctx = Hpke::<K, F, A>::setup_receiver_base(&enc, sk, INFO).unwrap();
    assert_eq!(ctx.open(AAD, plain[1].as_ref().unwrap()).unwrap(), PT);
}

fn every_mode_on_random_keys<K: Kem>() {
    let mut rng = ChaCha20Rng::seed_from_u64(u64::from(K::ID));
    for seed in 0..4 {
        let (sk, pk) = K::generate(&mut rng).unwrap();
        same_as_plain::<K>(seed, &sk, &pk);
    }
}

#[test]
fn prepared_equals_plain_on_every_kem() {
    for_each_kem!(every_mode_on_random_keys);
}

fn auth_modes<K: AuthKem>() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for seed in 0..3 {
        let (_, pk_r) = K::generate(&mut rng).unwrap();
        let (sk_s, _) = K::generate(&mut rng).unwrap();
        let prepared = PreparedPublicKey::from(pk_r.clone());
        let plain = auth_outputs::<K>(seed, &pk_r, &sk_s);
        assert!(plain.iter().all(Result::is_ok));
        assert_eq!(
            plain,
            auth_outputs::<K>(seed, &prepared, &sk_s),
            "kem {:#06x}",
            K::ID
        );
    }
}

#[test]
fn prepared_equals_plain_in_the_auth_modes() {
    for_each_dh_kem!(auth_modes);
}

/// `u` of a point given in Edwards form.
fn u_of(p: curve25519_dalek::EdwardsPoint) -> [u8; 32] {
    p.to_montgomery().to_bytes()
}

/// The edge cases of X25519 public keys, which RFC 9180 lets in (any 32 bytes are a key) and
/// the all-zero check of §7.1.4 sorts out: prepared and plain must agree on every one,
/// success or `Error::Encap`.
#[test]
fn x25519_edge_points() {
    use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
    use curve25519_dalek::{EdwardsPoint, MontgomeryPoint, Scalar};

    let mut small_order = Vec::new();
    let mut mixed_order = Vec::new();
    for (i, t) in EIGHT_TORSION.iter().enumerate() {
        small_order.push(u_of(*t));
        let a = Scalar::from(1000 + i as u64);
        mixed_order.push(u_of(ED25519_BASEPOINT_POINT * a + t));
    }
    // Non-canonical encodings: u + p for the small u's, and the ignored top bit set.
    let mut non_canonical = Vec::new();
    for u in [0u8, 1] {
        let mut b = [0xffu8; 32];
        b[0] = 0xed + u; // p + u, p = 2^255 - 19
        b[31] = 0x7f;
        non_canonical.push(b);
    }
    for u in small_order.iter().chain(&mixed_order).take(10) {
        let mut b = *u;
        b[31] |= 0x80;
        non_canonical.push(b);
    }
    let mut twist = Vec::new();
    let mut rng = ChaCha20Rng::seed_from_u64(25519);
    while twist.len() < 8 {
        let mut b = [0u8; 32];
        rand_chacha::rand_core::Rng::fill_bytes(&mut rng, &mut b);
        if MontgomeryPoint(b).to_edwards(0).is_none() {
            twist.push(b);
        }
    }
    let base = size_of::<PreparedPublicKey<X25519>>();
    let mut failures = 0;
    for (class, points) in [
        ("small order", &small_order),
        ("mixed order", &mixed_order),
        ("non-canonical", &non_canonical),
        ("twist", &twist),
    ] {
        for (seed, u) in points.iter().enumerate() {
            let pk = PublicKey::<X25519>::from_bytes(u).unwrap();
            let prepared = PreparedPublicKey::new(&pk);
            // Only a twist point goes without a table (and every point, in a build without
            // `precomputed-tables`).
            let lifted = MontgomeryPoint(*u).to_edwards(0).is_some();
            assert_eq!(lifted, class != "twist");
            let tabled = lifted && cfg!(feature = "precomputed-tables");
            assert_eq!(prepared.memory_size() > base, tabled, "{class} {u:02x?}");
            let plain = outputs::<X25519>(seed as u64, &pk);
            assert_eq!(
                plain,
                outputs::<X25519>(seed as u64, &prepared),
                "{class} {u:02x?}"
            );
            if class == "small order" {
                assert!(plain.iter().all(|r| *r == Err(Error::Encap)), "{u:02x?}");
            }
            if class == "mixed order" || class == "twist" {
                assert!(plain.iter().all(Result::is_ok), "{class} {u:02x?}");
            }
            failures += plain.iter().filter(|r| r.is_err()).count();
        }
    }
    assert!(failures > 0);
    // The mixed-order points really have a torsion component.
    let t = EdwardsPoint::mul_base(&Scalar::from(1000u64));
    assert_ne!(u_of(t), mixed_order[1]);
}

/// A runtime key prepared in place gives what the unprepared one gives.
#[test]
fn runtime_prepare_equals_plain() {
    for kem_id in [
        0x0020u16, 0x0010, 0x0011, 0x0012, 0x0016, 0x0021, 0x647a, 0x0050, 0x0041,
    ] {
        let suite = Suite::new(kem_id, 0x0001, 0x0001).unwrap();
        let (sk, pk) = suite.derive_key_pair(&[kem_id as u8; 64]).unwrap();
        let mut prepared = pk.clone();
        assert!(!prepared.is_prepared());
        prepared.prepare();
        prepared.prepare();
        assert!(prepared.is_prepared() && prepared.clone().is_prepared());
        assert_eq!(prepared, pk);
        let run = |pk: &typed_hpke::suite::PublicKey| {
            let mut rng = ChaCha20Rng::seed_from_u64(9);
            let (enc, mut ctx) = suite
                .setup_sender(&mut rng, pk, INFO, SenderMode::Base)
                .unwrap();
            let ct = suite
                .seal(&mut rng, pk, INFO, AAD, PT, SenderMode::Base)
                .unwrap();
            (enc.as_bytes().to_vec(), ctx.seal(AAD, PT).unwrap(), ct)
        };
        let plain = run(&pk);
        assert_eq!(plain, run(&prepared), "kem {kem_id:#06x}");
        let mut r = suite
            .setup_receiver(&plain.0, &sk, INFO, typed_hpke::suite::ReceiverMode::Base)
            .unwrap();
        assert_eq!(r.open(AAD, &plain.1).unwrap(), PT);
    }
}

fn property<K: Kem>(ikm: &[u8], seed: u64) -> Result<(), TestCaseError> {
    let (_, pk) = K::derive_key_pair(ikm).unwrap();
    let prepared = PreparedPublicKey::new(&pk);
    let plain = outputs::<K>(seed, &pk);
    prop_assert!(plain.iter().all(Result::is_ok));
    prop_assert_eq!(plain, outputs::<K>(seed, &prepared));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn prepared_equals_plain_on_random_keys_and_randomness(
        ikm in proptest::collection::vec(any::<u8>(), 32..64),
        seed in any::<u64>(),
        kem in 0usize..5,
    ) {
        use typed_hpke::kem::*;
        match kem {
            0 => property::<DhKemX25519HkdfSha256>(&ikm, seed)?,
            1 => property::<DhKemP256HkdfSha256>(&ikm, seed)?,
            2 => property::<DhKemSecp256k1HkdfSha256>(&ikm, seed)?,
            3 => property::<XWing>(&ikm, seed)?,
            _ => property::<MlKem768P256>(&ikm, seed)?,
        }
    }
}

/// `seal_base_many`: every entry opens with its recipient's key to its plaintext; one
/// plaintext for all or one each; the same generator state gives the same output whether the
/// recipients are plain or prepared; a wrong number of plaintexts is an error.
fn seal_many<K: Kem>() {
    type H<K> = Hpke<K, F, A>;
    let mut rng = ChaCha20Rng::seed_from_u64(42);
    let keys: Vec<_> = (0..5).map(|_| K::generate(&mut rng).unwrap()).collect();
    let plain: Vec<PublicKey<K>> = keys.iter().map(|(_, pk)| pk.clone()).collect();
    let prepared: Vec<_> = plain.iter().map(PreparedPublicKey::new).collect();
    let each: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 10 + usize::from(i)]).collect();
    let each: Vec<&[u8]> = each.iter().map(Vec::as_slice).collect();

    for plaintexts in [&[PT][..], &each[..]] {
        let run = |recipients: &dyn Fn(&mut ChaCha20Rng) -> Vec<_>| {
            let mut rng = ChaCha20Rng::seed_from_u64(7);
            recipients(&mut rng)
        };
        let a = run(&|rng| H::<K>::seal_base_many(rng, &plain, INFO, AAD, plaintexts).unwrap());
        let b = run(&|rng| H::<K>::seal_base_many(rng, &prepared, INFO, AAD, plaintexts).unwrap());
        let refs: Vec<&PublicKey<K>> = plain.iter().collect();
        let c = run(&|rng| H::<K>::seal_base_many(rng, &refs, INFO, AAD, plaintexts).unwrap());
        assert!(a == b && a == c, "kem {:#06x}", K::ID);
        assert_eq!(a.len(), keys.len());
        for (i, ((enc, ct), (sk, _))) in a.iter().zip(&keys).enumerate() {
            let pt = plaintexts[if plaintexts.len() == 1 { 0 } else { i }];
            assert_eq!(H::<K>::open_base(enc, sk, INFO, AAD, ct).unwrap(), pt);
            // Fresh randomness per recipient: no two encapsulations alike.
            assert!(a[..i].iter().all(|(e, _)| e != enc));
        }
    }
    let two: [&[u8]; 2] = [b"a", b"b"];
    assert_eq!(
        H::<K>::seal_base_many(&mut rng, &plain, INFO, AAD, &two).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        H::<K>::seal_base_many(&mut rng, &plain, INFO, AAD, &[]).unwrap_err(),
        Error::InvalidLength
    );
    let none: [PublicKey<K>; 0] = [];
    assert!(
        H::<K>::seal_base_many(&mut rng, &none, INFO, AAD, &[PT])
            .unwrap()
            .is_empty()
    );
}

#[test]
fn seal_base_many_on_every_kem() {
    for_each_kem!(seal_many);
}

/// The runtime `seal_base_many`: parsed, prepared and byte keys give the same output, which
/// opens; a key of another KEM and an export-only suite are refused.
#[test]
fn runtime_seal_base_many() {
    use typed_hpke::suite::ReceiverMode;
    let suite = Suite::new(0x0020, 0x0001, 0x0003).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let keys: Vec<_> = (0..4)
        .map(|_| suite.generate_key_pair(&mut rng).unwrap())
        .collect();
    let parsed: Vec<_> = keys.iter().map(|(_, pk)| pk.clone()).collect();
    let mut prepared = parsed.clone();
    prepared
        .iter_mut()
        .for_each(typed_hpke::suite::PublicKey::prepare);
    let bytes: Vec<Vec<u8>> = parsed.iter().map(|pk| pk.as_bytes().to_vec()).collect();
    let seal = |rng: &mut ChaCha20Rng, which: u8| match which {
        0 => suite.seal_base_many(rng, &parsed, INFO, AAD, &[PT]),
        1 => suite.seal_base_many(rng, &prepared, INFO, AAD, &[PT]),
        _ => suite.seal_base_many(rng, &bytes, INFO, AAD, &[PT]),
    };
    let out: Vec<_> = (0..3)
        .map(|which| seal(&mut ChaCha20Rng::seed_from_u64(11), which).unwrap())
        .collect();
    assert!(out[0] == out[1] && out[1] == out[2]);
    for ((enc, ct), (sk, _)) in out[0].iter().zip(&keys) {
        assert_eq!(
            suite
                .open(enc, sk, INFO, AAD, ct, ReceiverMode::Base)
                .unwrap(),
            PT
        );
    }
    let other = Suite::new(0x0010, 0x0001, 0x0003).unwrap();
    assert_eq!(
        other
            .seal_base_many(&mut rng, &parsed, INFO, AAD, &[PT])
            .unwrap_err(),
        Error::InvalidPublicKey
    );
    let export_only = Suite::new(0x0020, 0x0001, 0xffff).unwrap();
    assert_eq!(
        export_only
            .seal_base_many(&mut rng, &parsed, INFO, AAD, &[PT])
            .unwrap_err(),
        Error::UnsupportedOperation
    );
}

/// With `rayon`, spreading the recipients over threads changes nothing: the default pool and
/// a one-thread pool give the same output from the same generator state.
#[cfg(feature = "rayon")]
#[test]
fn seal_base_many_is_the_same_on_any_number_of_threads() {
    type H = Hpke<X25519, F, A>;
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let keys: Vec<_> = (0..64)
        .map(|_| X25519::generate(&mut rng).unwrap().1)
        .collect();
    let seal = || {
        let mut rng = ChaCha20Rng::seed_from_u64(6);
        H::seal_base_many(&mut rng, &keys, INFO, AAD, &[PT]).unwrap()
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let many = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    assert_eq!(one.install(seal), many.install(seal));
}
