//! Which implementation computes the classical groups and the AEADs: [`backend`].

/// The implementation behind X25519, the NIST curves and the AEADs in this build, on this CPU
/// ([`backend`]). Every backend gives the same outputs and the same errors for the same inputs
/// (seeded generators included); they differ in speed, in what they need to build, and in what
/// they run on. The README's "Backends and features" compares them; `BENCHMARKS.md` measures
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Pure Rust (the default): curve25519-dalek, RustCrypto's P-curves, AES-GCM and
    /// ChaCha20-Poly1305. Also what a `graviola` build runs on a CPU graviola does not support.
    RustCrypto,
    /// aws-lc-rs (feature `aws-lc-rs`): X25519, P-256, P-384, P-521 and the AEADs. With both
    /// backend features on, this one. Given `OsRng`, a NIST key (`generate`, and the ephemeral
    /// key of every encapsulation) comes from aws-lc's own key generation, which is seeded from
    /// the operating system as `OsRng` is; any other generator is drawn from, so a seeded one
    /// gives the same keys as on every backend. The opens into a caller's buffer stay on the
    /// pure-Rust AEADs: aws-lc decrypts before it checks the tag, and those calls promise to leave
    /// the buffer as it was on a bad tag. A KEM step makes aws-lc-rs's own heap allocations.
    AwsLcRs,
    /// graviola (feature `graviola`, on a CPU with the instructions it needs): X25519 and P-256
    /// public keys and Diffie-Hellman, P-384 Diffie-Hellman, AES-GCM and ChaCha20-Poly1305.
    /// X25519 against a prepared key stays on curve25519-dalek's table and P-384 public keys on
    /// RustCrypto's precomputed tables (both measured faster), P-521 on RustCrypto (graviola has
    /// none), and the opens into a caller's buffer on RustCrypto's AEADs (graviola clears the
    /// buffer on a bad tag; those calls promise to leave it as it was). Debug builds of graviola
    /// read an environment variable on every call (its test switch): set
    /// `[profile.dev.package.graviola] debug-assertions = false` if that matters to yours.
    Graviola,
}

/// The backend this build runs on this CPU. ML-KEM (libcrux, with its own AVX2 / NEON
/// detection), X448, secp256k1 and the KDFs are the same in every build.
///
/// ```
/// // Under the `graviola` feature, `RustCrypto` here means the CPU lacks an instruction
/// // graviola needs, and the pure-Rust code runs instead.
/// println!("typed-hpke backend: {:?}", typed_hpke::backend());
/// ```
#[must_use]
pub fn backend() -> Backend {
    #[cfg(feature = "aws-lc-rs")]
    return Backend::AwsLcRs;
    #[cfg(all(feature = "graviola", not(feature = "aws-lc-rs")))]
    if graviola::available() {
        return Backend::Graviola;
    }
    #[cfg(not(feature = "aws-lc-rs"))]
    Backend::RustCrypto
}

#[cfg(all(
    feature = "graviola",
    not(any(target_arch = "x86_64", target_arch = "aarch64"))
))]
compile_error!(
    "typed-hpke's `graviola` backend runs on x86_64 and aarch64 only (graviola's assembly); \
     build for this target without the feature"
);

// The backends' code, one folder each: what a backend feature touches is what its folder holds.
// The algorithms (`kem/`, `aead/`) call into them; the engine traits stay the one door.

/// aws-lc-rs (feature `aws-lc-rs`): X25519 and the NIST curves' keys and Diffie-Hellman, the AEADs.
#[cfg(all(
    feature = "aws-lc-rs",
    any(
        feature = "x25519",
        feature = "nist",
        feature = "aes-gcm",
        feature = "chacha20poly1305"
    )
))]
pub(crate) mod aws_lc;
/// graviola (feature `graviola`, without `aws-lc-rs`): its CPU check, X25519, P-256 and P-384,
/// the AEADs.
#[cfg(all(feature = "graviola", not(feature = "aws-lc-rs")))]
pub(crate) mod graviola;
/// libcrux: ML-KEM, alone and in the hybrids (feature `pq`).
#[cfg(feature = "pq")]
pub(crate) mod libcrux;
/// The pure-Rust default: RustCrypto's AEAD states, and X25519 on curve25519-dalek.
#[cfg(any(
    feature = "aes-gcm",
    feature = "chacha20poly1305",
    all(feature = "x25519", not(feature = "aws-lc-rs"))
))]
pub(crate) mod rustcrypto;

/// graviola against the pure-Rust code it stands in for, in one build: every public key, `DH`
/// (plain and prepared) and AEAD output must be the same whether graviola or the fallback
/// computes it, and each side must open the other's ciphertexts and refuse a forged tag.
#[cfg(all(test, feature = "graviola", not(feature = "aws-lc-rs")))]
mod tests {
    use hybrid_array::Array;

    use super::graviola::{available, without};
    use crate::kem::DhGroup;
    use crate::sealed::DhEngine;

    /// Deterministic bytes for the keys.
    fn bytes(seed: &mut u64, out: &mut [u8]) {
        for b in out {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *b = (*seed >> 24) as u8;
        }
    }

    fn group<G: DhGroup + DhEngine<G>>(runs: usize) {
        assert!(available(), "this test needs a CPU graviola supports");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(G::KEM_ID);
        let mut keys = 0;
        for _ in 0..runs {
            let mut a = Array::<u8, G::NSk>::default();
            let mut b = Array::<u8, G::NSk>::default();
            bytes(&mut seed, &mut a);
            bytes(&mut seed, &mut b);
            if a.len() == 66 {
                // P-521: a 521-bit scalar in 66 bytes (§7.1.3's bitmask).
                (a[0], b[0]) = (a[0] & 1, b[0] & 1);
            }
            // Out-of-range NIST scalars are refused alike with or without graviola.
            let (Ok(a), Ok(b)) = (G::scalar_from_bytes(&a), G::scalar_from_bytes(&b)) else {
                continue;
            };
            keys += 1;
            let (pa, pa_bytes) = G::public(&a);
            let (pb, pb_bytes) = without(|| G::public(&b));
            assert_eq!(without(|| G::public(&a)).1, pa_bytes);
            assert_eq!(G::public(&b).1, pb_bytes);
            let (mut ab, mut ba) = (Array::default(), Array::default());
            assert!(bool::from(G::dh(&a, &pb, &mut ab)));
            assert!(bool::from(without(|| G::dh(&b, &pa, &mut ba))));
            assert_eq!(ab, ba);
            // Prepared: graviola's parsed key (P-256, P-384) or dalek's table (X25519) against
            // the fallback's table.
            let (fast, portable) = (G::prepare(&pb), without(|| G::prepare(&pb)));
            let (mut x, mut y) = (Array::default(), Array::default());
            assert!(bool::from(G::dh_prepared(&a, &pb, &fast, &mut x)));
            assert!(bool::from(without(|| G::dh_prepared(
                &a, &pb, &portable, &mut y
            ))));
            assert_eq!((x, y), (ab.clone(), ab));
        }
        assert!(keys * 2 > runs, "{keys} of {runs} scalars in range");
    }

    #[test]
    #[cfg(feature = "x25519")]
    fn x25519_same_with_and_without_graviola() {
        group::<crate::kem::X25519>(64);
        // The all-zero output of a low-order point is refused on both paths.
        let sk = crate::kem::X25519::scalar_from_bytes(&[7u8; 32]).unwrap();
        let zero = crate::kem::X25519::point_from_bytes(&[0u8; 32]).unwrap();
        let mut out = Array::default();
        assert!(!bool::from(crate::kem::X25519::dh(&sk, &zero, &mut out)));
        assert!(!bool::from(without(|| crate::kem::X25519::dh(
            &sk, &zero, &mut out
        ))));
    }

    /// graviola's X25519 against dalek's (the reference crate, which the fallback runs) on the
    /// inputs a peer chooses: the low-order points (all-zero output, refused on both paths),
    /// non-canonical encodings (`u >= p`, and the high bit set, which RFC 7748 §5 masks), and
    /// points on the twist. Same refusal, and the same output where there is one.
    #[test]
    #[cfg(feature = "x25519")]
    fn x25519_special_points_same_as_dalek() {
        use crate::kem::X25519;
        let hex = |s: &str| -> [u8; 32] {
            let mut out = [0u8; 32];
            for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks(2)) {
                *o = u8::from_str_radix(core::str::from_utf8(pair).unwrap(), 16).unwrap();
            }
            out
        };
        // u = p - 1 + k for k = 0..=19 (p - 1, p, p + 1, ... 2^255 - 1), little-endian.
        let near_p = (0u8..=19).map(|k| {
            let mut u = [0xffu8; 32];
            u[0] = 0xec + k;
            u[31] = 0x7f;
            u
        });
        let mut points: alloc::vec::Vec<[u8; 32]> = alloc::vec![
            [0; 32],
            hex("0100000000000000000000000000000000000000000000000000000000000000"),
            // The two points of order 8 (RFC 7748 §7's low-order list).
            hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
            hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
        ];
        points.extend(near_p);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..32 {
            // Arbitrary u: about half lie on the twist; every other one has the high bit set.
            let mut u = [0u8; 32];
            bytes(&mut seed, &mut u);
            points.push(u);
        }
        let low_order = 4;
        for (i, u) in points.iter().enumerate() {
            let pk = X25519::point_from_bytes(u).unwrap();
            for k in 1..4u8 {
                let sk = X25519::scalar_from_bytes(&[k * 37; 32]).unwrap();
                let (mut fast, mut reference) = (Array::default(), Array::default());
                let ok_fast = bool::from(X25519::dh(&sk, &pk, &mut fast));
                let ok_reference = bool::from(without(|| X25519::dh(&sk, &pk, &mut reference)));
                assert_eq!(ok_fast, ok_reference, "point {i}");
                if ok_fast {
                    assert_eq!(fast, reference, "point {i}");
                }
                if i < low_order {
                    assert!(!ok_fast, "low-order point {i} refused");
                }
            }
        }
    }

    #[test]
    #[cfg(feature = "nist")]
    fn p256_p384_same_with_and_without_graviola() {
        group::<crate::kem::P256>(64);
        group::<crate::kem::P384>(32);
        // P-521 has no graviola code: the same either way, through the same generic backend.
        group::<crate::kem::P521>(4);
    }

    #[test]
    #[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
    fn aeads_same_with_and_without_graviola() {
        use crate::aead::Tag;
        use crate::sealed::{AeadEngine, SealingAeadEngine};

        fn one<A: crate::aead::SealingAead<Nn = hybrid_array::typenum::U12>>() {
            let key = Array::<u8, A::Nk>::from_fn(|i| i as u8 ^ 0x5c);
            let nonce = Array::<u8, A::Nn>::from_fn(|i| i as u8);
            let (mut fast, mut portable) = (
                A::Engine::new_cipher(&key),
                without(|| A::Engine::new_cipher(&key)),
            );
            // The first length takes an AES-GCM context past the 16 KiB before which it runs
            // RustCrypto's cipher (`backend::graviola::aead::AES_GCM_GRAVIOLA_FROM`): every later
            // operation of `fast` is graviola's.
            for len in [20_000usize, 0, 1, 15, 16, 17, 64, 255, 1024, 4099] {
                let pt: std::vec::Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
                let mut c1 = pt.clone();
                let mut c2 = pt.clone();
                let (mut t1, mut t2, mut t3) = <[Tag<A>; 3]>::default().into();
                A::SealingEngine::seal_in_place(&mut fast, &nonce, b"aad", &mut c1, &mut t1)
                    .unwrap();
                A::SealingEngine::seal_in_place(&mut portable, &nonce, b"aad", &mut c2, &mut t2)
                    .unwrap();
                assert_eq!((&c1, &t1), (&c2, &t2), "{} seal {len}", A::ID);
                let mut out = std::vec![0u8; len];
                A::SealingEngine::seal_to(&mut fast, &nonce, b"aad", &pt, &mut out, &mut t3)
                    .unwrap();
                assert_eq!((&out, &t3), (&c1, &t1));
                // Each opens the other's, on both private paths (a `Vec`-returning open's).
                let mut o = c2.clone();
                A::SealingEngine::open_private_in_place(&mut fast, &nonce, b"aad", &mut o, &t2)
                    .unwrap();
                assert_eq!(o, pt);
                let mut o = std::vec![0u8; len];
                A::SealingEngine::open_private_to(&mut fast, &nonce, b"aad", &c2, &mut o, &t2)
                    .unwrap();
                assert_eq!(o, pt);
                let mut o = c1.clone();
                A::SealingEngine::open_private_in_place(&mut portable, &nonce, b"aad", &mut o, &t1)
                    .unwrap();
                assert_eq!(o, pt);
                // A forged tag: refused; a caller's buffer is left as it was.
                let mut bad: Tag<A> = t1.clone();
                bad[0] ^= 1;
                let mut o = c1.clone();
                assert!(
                    A::SealingEngine::open_private_in_place(
                        &mut fast, &nonce, b"aad", &mut o, &bad
                    )
                    .is_err()
                );
                let mut o = c1.clone();
                assert!(
                    A::SealingEngine::open_in_place(&fast, &nonce, b"aad", &mut o, &bad).is_err()
                );
                assert_eq!(o, c1);
            }
        }
        #[cfg(feature = "aes-gcm")]
        one::<crate::aead::Aes128Gcm>();
        #[cfg(feature = "aes-gcm")]
        one::<crate::aead::Aes256Gcm>();
        #[cfg(feature = "chacha20poly1305")]
        one::<crate::aead::ChaCha20Poly1305>();
    }

    #[test]
    fn reports_graviola() {
        assert_eq!(super::backend(), super::Backend::Graviola);
        assert_eq!(without(super::backend), super::Backend::RustCrypto);
    }
}
