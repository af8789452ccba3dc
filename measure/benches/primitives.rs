//! The candidate primitives for typed-hpke's backends, called bare, in paired rounds (the
//! comparative bench's driver: `typed_hpke_support::driver`), each against aws-lc-rs in the same round.
//!
//! ```text
//! cargo bench -p typed-hpke-measure --ignore-rust-version --bench primitives [-- FILTER ...]
//! ```
//!
//! Rows (issue 45, step 1): for X25519, P-256 and P-384 the public key of a scalar (what key
//! generation and every encapsulation compute; on P-256 and P-384 also aws-lc-rs generating a
//! key of its own, which skips importing a scalar), `DH` with the peer's point parsed from its bytes
//! (a decapsulation's, or an encapsulation's to a key given as bytes), and `DH` with the point
//! parsed beforehand (a prepared encapsulation: for dalek, its Edwards table); for AES-128-GCM,
//! AES-256-GCM and ChaCha20-Poly1305, sealing and opening 64 B to 64 KiB in place (each open
//! first copies the ciphertext into the buffer it opens, the same copy for every candidate).
//! Candidates: RustCrypto and dalek (typed-hpke's default backend; X25519 both as typed-hpke
//! computes it, through the Edwards lift, and as x25519-dalek's ladder), libcrux-curve25519,
//! libcrux-p256 and libcrux-chacha20poly1305 (HACL*, pure Rust), graviola 0.4 (s2n-bignum's assembly) and aws-lc-rs.
//!
//! Printed per row and candidate: the median time per operation, and its time relative to
//! aws-lc-rs's in the same rounds (median of the per-round ratios, with the distribution-free 95%
//! interval the comparative bench uses). `COMPARE_ROUNDS` (default 15) and `COMPARE_BATCH_MS`
//! (default 20) as there; the output is tab-separated for BENCHMARKS.md.

// The comparative bench's driver, from this member's library (its timing half; the library's
// counting allocator comes with it).
use typed_hpke_measure::compare::driver;

use std::hint::black_box;

use aes_gcm::aead::{self, AeadInOut, KeyInit};
use aws_lc_rs::agreement::{self, ParsedPublicKey, PrivateKey, UnparsedPublicKey};
use driver::{Config, Job, timed};

const AWS: &str = "aws-lc-rs";
const NONCE: [u8; 12] = [7; 12];
const AAD: &[u8] = b"candidate primitives aad";

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let config = Config {
        rounds: driver::env("COMPARE_ROUNDS", 15),
        batch_ns: driver::env("COMPARE_BATCH_MS", 20.0) * 1e6,
        filter: filter.clone(),
    };
    println!("# machine: {}", driver::machine());
    println!("# load at start: {}", driver::load());
    println!("# rounds: {}", config.rounds);
    println!("row\tcandidate\tns\tx aws-lc-rs\tlo\thi");
    let mut rows: Vec<(String, Vec<(&'static str, Job)>)> = Vec::new();
    x25519_rows(&mut rows);
    p256_rows(&mut rows);
    p384_rows(&mut rows);
    aead_rows(&mut rows);
    for (name, jobs) in rows {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        for o in driver::run_paired(&config, &name, jobs) {
            // The driver's ratio is aws-lc-rs / candidate; printed as candidate / aws-lc-rs.
            println!(
                "{}\t{}\t{:.0}\t{:.2}\t{:.2}\t{:.2}",
                o.row,
                o.who,
                o.ns,
                1.0 / o.median,
                1.0 / o.hi,
                1.0 / o.lo
            );
        }
    }
}

/// A fixed scalar for each curve (a valid private key of all three), and a second one for the
/// peer.
const SK: [u8; 32] = [
    0x3a, 0x41, 0x5e, 0x11, 0x9c, 0x27, 0x6b, 0x80, 0x15, 0xd2, 0x4f, 0x63, 0x0e, 0x9a, 0x71, 0x28,
    0x55, 0xc3, 0x19, 0x6e, 0x7b, 0x02, 0x8f, 0x34, 0xa6, 0x5d, 0x91, 0x4c, 0x23, 0xe8, 0x07, 0x6f,
];
const PEER: [u8; 32] = [
    0x12, 0x9f, 0x40, 0x77, 0x3c, 0xe1, 0x58, 0x0a, 0x66, 0xb4, 0x2d, 0x93, 0x7e, 0x05, 0xc8, 0x31,
    0x4a, 0x8d, 0x16, 0xf2, 0x69, 0x3b, 0xa0, 0x57, 0x0c, 0xde, 0x24, 0x85, 0x1f, 0x70, 0xb9, 0x46,
];

fn aws_public(alg: &'static agreement::Algorithm, sk: &[u8]) -> Vec<u8> {
    PrivateKey::from_private_key(alg, sk)
        .unwrap()
        .compute_public_key()
        .unwrap()
        .as_ref()
        .to_vec()
}

/// aws-lc-rs's three jobs on a curve: public key, DH parsing the peer, DH prepared. Returns
/// the shared secret too, which every candidate must reproduce.
fn aws_jobs(alg: &'static agreement::Algorithm, sk: &[u8], peer_pk: &[u8]) -> [Job; 3] {
    let agree = |key: &PrivateKey, peer: &UnparsedPublicKey<Vec<u8>>| {
        agreement::agree(key, peer, (), |dh| Ok(dh.to_vec())).unwrap()
    };
    let sk1 = sk.to_vec();
    let public: Job = timed(move || aws_public(alg, &sk1));
    // The private key imported before the clock starts: aws-lc computes the public key when it
    // imports one (a base-point multiplication), which no DH pays in HPKE (a receiver's key is
    // imported once; an encapsulation generates its ephemeral key, the public key rows above).
    let (key2, pk2) = (
        PrivateKey::from_private_key(alg, sk).unwrap(),
        peer_pk.to_vec(),
    );
    let dh: Job = timed(move || agree(&key2, &UnparsedPublicKey::new(alg, pk2.clone())));
    let key = PrivateKey::from_private_key(alg, sk).unwrap();
    let parsed = ParsedPublicKey::try_from(&UnparsedPublicKey::new(alg, peer_pk)).unwrap();
    let prepared: Job =
        timed(move || agreement::agree(&key, parsed.clone(), (), |dh| Ok(dh.to_vec())).unwrap());
    [public, dh, prepared]
}

fn push(
    rows: &mut Vec<(String, Vec<(&'static str, Job)>)>,
    names: [&str; 3],
    aws: [Job; 3],
    others: Vec<(&'static str, [Option<Job>; 3])>,
) {
    let mut per_row: Vec<Vec<(&'static str, Job)>> =
        aws.into_iter().map(|j| vec![(AWS, j)]).collect();
    for (who, jobs) in others {
        for (i, job) in jobs.into_iter().enumerate() {
            if let Some(job) = job {
                per_row[i].push((who, job));
            }
        }
    }
    for (name, jobs) in names.into_iter().zip(per_row) {
        rows.push((name.to_string(), jobs));
    }
}

fn x25519_rows(rows: &mut Vec<(String, Vec<(&'static str, Job)>)>) {
    use curve25519_dalek::MontgomeryPoint;
    use curve25519_dalek::edwards::EdwardsBasepointTable;
    use curve25519_dalek::traits::BasepointTable as _;

    let alg = &agreement::X25519;
    let peer: [u8; 32] = aws_public(alg, &PEER).try_into().unwrap();
    let expected = x25519_dalek::x25519(SK, peer);
    // Every candidate's DH and public key checked once against x25519-dalek.
    let lift = |k: [u8; 32], u: [u8; 32]| match MontgomeryPoint(u).to_edwards(0) {
        Some(p) => p.mul_clamped(k).to_montgomery().to_bytes(),
        None => x25519_dalek::x25519(k, u),
    };
    assert_eq!(lift(SK, peer), expected);
    let mut out = [0u8; 32];
    libcrux_curve25519::ecdh(&mut out, &peer, &SK).ok().unwrap();
    assert_eq!(out, expected);
    let g = |k: &[u8; 32], u: &[u8; 32]| {
        graviola::key_agreement::x25519::StaticPrivateKey::from_array(k)
            .diffie_hellman(&graviola::key_agreement::x25519::PublicKey::from_array(u))
            .unwrap()
            .0
    };
    assert_eq!(g(&SK, &peer), expected);
    let dalek_public = |k: [u8; 32]| {
        x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(k)).to_bytes()
    };
    let mut lc = [0u8; 32];
    libcrux_curve25519::secret_to_public(&mut lc, &PEER);
    assert_eq!(lc, peer);
    assert_eq!(dalek_public(PEER), peer);
    let gp = |k: &[u8; 32]| {
        graviola::key_agreement::x25519::StaticPrivateKey::from_array(k)
            .public_key()
            .as_bytes()
    };
    assert_eq!(gp(&PEER), peer);

    let table = EdwardsBasepointTable::create(&MontgomeryPoint(peer).to_edwards(0).unwrap());
    assert_eq!(
        table.mul_base_clamped(SK).to_montgomery().to_bytes(),
        expected
    );
    let others: Vec<(&'static str, [Option<Job>; 3])> = vec![
        (
            "dalek (typed-hpke default)",
            [
                Some(timed(move || dalek_public(black_box(SK)))),
                Some(timed(move || lift(black_box(SK), black_box(peer)))),
                Some(timed(move || {
                    table
                        .mul_base_clamped(black_box(SK))
                        .to_montgomery()
                        .to_bytes()
                })),
            ],
        ),
        (
            "x25519-dalek ladder",
            [
                None,
                Some(timed(move || {
                    x25519_dalek::x25519(black_box(SK), black_box(peer))
                })),
                None,
            ],
        ),
        (
            "libcrux-curve25519",
            [
                Some(timed(|| {
                    let mut pk = [0u8; 32];
                    libcrux_curve25519::secret_to_public(&mut pk, black_box(&SK));
                    pk
                })),
                Some(timed(move || {
                    let mut ss = [0u8; 32];
                    libcrux_curve25519::ecdh(&mut ss, black_box(&peer), black_box(&SK)).ok();
                    ss
                })),
                None,
            ],
        ),
        (
            "graviola",
            [
                Some(timed(move || gp(black_box(&SK)))),
                Some(timed(move || g(black_box(&SK), black_box(&peer)))),
                None,
            ],
        ),
    ];
    push(
        rows,
        ["X25519 public key", "X25519 DH", "X25519 DH prepared"],
        aws_jobs(alg, &SK, &peer),
        others,
    );
}

macro_rules! nist_rows {
    ($fn:ident, $name:literal, $aws:ident, $rc:ident, $gv:ident, $len:literal) => {
        fn $fn(rows: &mut Vec<(String, Vec<(&'static str, Job)>)>) {
            use ::$rc::elliptic_curve::point::AffineCoordinates;
            use ::$rc::elliptic_curve::sec1::{FromSec1Point, ToSec1Point};

            let alg = &agreement::$aws;
            let mut sk = [0u8; $len];
            let mut peer_sk = [0u8; $len];
            sk[$len - 32..].copy_from_slice(&SK);
            peer_sk[$len - 32..].copy_from_slice(&PEER);
            let peer = aws_public(alg, &peer_sk);
            let expected = agreement::agree(
                &PrivateKey::from_private_key(alg, &sk).unwrap(),
                &UnparsedPublicKey::new(alg, &peer),
                (),
                |dh| Ok(dh.to_vec()),
            )
            .unwrap();

            // RustCrypto, as typed-hpke's default backend: parse (on the curve), multiply, x.
            use ::$rc::elliptic_curve::group::Group as _;
            let scalar = ::$rc::NonZeroScalar::from_repr(sk.into()).unwrap();
            let rc_public = move |s: &::$rc::NonZeroScalar| {
                // typed-hpke's: the precomputed base-point tables (RustCrypto's
                // `precomputed-tables`, which typed-hpke's `std` turns on).
                ::$rc::ProjectivePoint::mul_by_generator(s)
                    .to_affine()
                    .to_sec1_point(false)
            };
            assert_eq!(
                rc_public(&::$rc::NonZeroScalar::from_repr(peer_sk.into()).unwrap()).as_bytes(),
                &peer[..]
            );
            let rc_dh = move |s: &::$rc::NonZeroScalar, p: &::$rc::AffinePoint| {
                (::$rc::ProjectivePoint::from(*p) * s.as_ref())
                    .to_affine()
                    .x()
            };
            let parse = |b: &[u8]| ::$rc::AffinePoint::from_sec1_bytes(b).unwrap();
            assert_eq!(&rc_dh(&scalar, &parse(&peer))[..], &expected[..]);
            let parsed = parse(&peer);
            let (peer1, peer2) = (peer.clone(), peer.clone());

            // graviola.
            use graviola::key_agreement::$gv as gv;
            let g_sk = gv::StaticPrivateKey::from_bytes(&sk).unwrap();
            let g_pk = gv::PublicKey::from_x962_uncompressed(&peer).unwrap();
            assert_eq!(&g_sk.diffie_hellman(&g_pk).unwrap().0[..], &expected[..]);
            let (peer3, g_pk2) = (peer.clone(), g_pk.clone());

            let mut others: Vec<(&'static str, [Option<Job>; 3])> = vec![
                (
                    "RustCrypto (typed-hpke default)",
                    [
                        Some(timed(move || rc_public(black_box(&scalar)))),
                        Some(timed(move || {
                            rc_dh(black_box(&scalar), &parse(black_box(&peer1)))
                        })),
                        Some(timed(move || rc_dh(black_box(&scalar), black_box(&parsed)))),
                    ],
                ),
                (
                    "graviola",
                    [
                        Some(timed(move || {
                            gv::StaticPrivateKey::from_bytes(black_box(&sk))
                                .unwrap()
                                .public_key_uncompressed()
                        })),
                        Some(timed(move || {
                            let k = gv::StaticPrivateKey::from_bytes(black_box(&sk)).unwrap();
                            let p =
                                gv::PublicKey::from_x962_uncompressed(black_box(&peer3)).unwrap();
                            k.diffie_hellman(&p).unwrap().0
                        })),
                        Some(timed(move || {
                            let k = gv::StaticPrivateKey::from_bytes(black_box(&sk)).unwrap();
                            k.diffie_hellman(black_box(&g_pk2)).unwrap().0
                        })),
                    ],
                ),
            ];
            // aws-lc-rs making its own key, as its key generation (rustls' HPKE, the comparative
            // bench's limit) does: one base-point multiplication on a scalar it draws, where the
            // aws-lc-rs column imports the given scalar first. Its output is a random key, so it
            // is checked for being a point on the curve, not against the others.
            let own = || {
                PrivateKey::generate(alg)
                    .unwrap()
                    .compute_public_key()
                    .unwrap()
                    .as_ref()
                    .to_vec()
            };
            assert!(::$rc::AffinePoint::from_sec1_bytes(&own()).is_ok());
            others.push((
                "aws-lc-rs, generating its own key",
                [Some(timed(own)), None, None],
            ));
            libcrux_candidate($len, &sk, &peer2, &expected, &mut others);
            push(
                rows,
                [
                    concat!($name, " public key"),
                    concat!($name, " DH"),
                    concat!($name, " DH prepared"),
                ],
                aws_jobs(alg, &sk, &peer),
                others,
            );
        }
    };
}

nist_rows!(p256_rows, "P-256", ECDH_P256, p256, p256, 32);
nist_rows!(p384_rows, "P-384", ECDH_P384, p384, p384, 48);

/// libcrux's P-256 (libcrux-p256) and P-384 (libcrux-p384, fiat-crypto field arithmetic):
/// public key from the scalar, DH on the peer's point (validated by libcrux itself).
fn libcrux_candidate(
    len: usize,
    sk: &[u8],
    peer: &[u8],
    expected: &[u8],
    others: &mut Vec<(&'static str, [Option<Job>; 3])>,
) {
    if len == 48 {
        let key = libcrux_p384::PrivateKey::try_from(sk).ok().unwrap();
        let shared = libcrux_p384::PublicKey::from_uncompressed(peer)
            .ok()
            .unwrap()
            .ecdh(&key);
        assert_eq!(&shared.as_ref()[..], expected);
        let (sk, peer) = (sk.to_vec(), peer.to_vec());
        let sk2 = sk.clone();
        others.push((
            "libcrux-p384",
            [
                Some(timed(move || {
                    let key = libcrux_p384::PrivateKey::try_from(black_box(&sk[..]))
                        .ok()
                        .unwrap();
                    let mut pk = [0u8; 97];
                    libcrux_p384::PublicKey::from(&key).to_uncompressed(&mut pk);
                    pk
                })),
                Some(timed(move || {
                    let key = libcrux_p384::PrivateKey::try_from(black_box(&sk2[..]))
                        .ok()
                        .unwrap();
                    let p = libcrux_p384::PublicKey::from_uncompressed(black_box(&peer))
                        .ok()
                        .unwrap();
                    *p.ecdh(&key).as_ref()
                })),
                None,
            ],
        ));
        return;
    }
    if len != 32 {
        return;
    }
    let sk: [u8; 32] = sk.try_into().unwrap();
    let mut raw = [0u8; 64];
    assert!(libcrux_p256::uncompressed_to_raw(peer, &mut raw));
    let mut ss = [0u8; 64];
    assert!(libcrux_p256::dh_responder(&mut ss, &raw, &sk));
    assert_eq!(&ss[..32], expected);
    let peer = peer.to_vec();
    others.push((
        "libcrux-p256",
        [
            Some(timed(move || {
                let mut pk = [0u8; 64];
                assert!(libcrux_p256::dh_initiator(&mut pk, black_box(&sk)));
                pk
            })),
            Some(timed(move || {
                let mut raw = [0u8; 64];
                let mut ss = [0u8; 64];
                assert!(libcrux_p256::uncompressed_to_raw(
                    black_box(&peer),
                    &mut raw
                ));
                assert!(libcrux_p256::dh_responder(&mut ss, &raw, black_box(&sk)));
                ss
            })),
            None,
        ],
    ));
}

const SIZES: [usize; 4] = [64, 1024, 16384, 65536];

/// One AEAD's candidates: `(name, seal, open)`, each a function of a buffer (and the tag).
type Seal = Box<dyn Fn(&mut [u8]) -> [u8; 16]>;
type Open = Box<dyn Fn(&mut [u8], &[u8; 16]) -> bool>;

fn aead_rows(rows: &mut Vec<(String, Vec<(&'static str, Job)>)>) {
    use aws_lc_rs::aead::{self as aws, Aad, LessSafeKey, Nonce, UnboundKey};

    for (name, key_len) in [
        ("AES-128-GCM", 16),
        ("AES-256-GCM", 32),
        ("ChaCha20-Poly1305", 32),
    ] {
        let key = vec![0x5au8; key_len];
        let alg = match name {
            "AES-128-GCM" => &aws::AES_128_GCM,
            "AES-256-GCM" => &aws::AES_256_GCM,
            _ => &aws::CHACHA20_POLY1305,
        };
        let candidates = || -> Vec<(&'static str, Seal, Open)> {
            let k = LessSafeKey::new(UnboundKey::new(alg, &key).unwrap());
            let k2 = LessSafeKey::new(UnboundKey::new(alg, &key).unwrap());
            let aws_seal: Seal = Box::new(move |buf| {
                let tag = k
                    .seal_in_place_separate_tag(
                        Nonce::assume_unique_for_key(NONCE),
                        Aad::from(AAD),
                        buf,
                    )
                    .unwrap();
                tag.as_ref().try_into().unwrap()
            });
            let aws_open: Open = Box::new(move |buf, tag| {
                k2.open_in_place_separate_tag(
                    Nonce::assume_unique_for_key(NONCE),
                    Aad::from(AAD),
                    aead_tag(tag),
                    buf,
                )
                .is_ok()
            });
            let (rc_seal, rc_open): (Seal, Open) = match name {
                "AES-128-GCM" => rustcrypto::<aes_gcm::Aes128Gcm>(&key),
                "AES-256-GCM" => rustcrypto::<aes_gcm::Aes256Gcm>(&key),
                _ => rustcrypto::<chacha20poly1305::ChaCha20Poly1305>(&key),
            };
            let (g_seal, g_open): (Seal, Open) = if name == "ChaCha20-Poly1305" {
                let k = graviola::aead::ChaCha20Poly1305::new(key.clone().try_into().unwrap());
                let k = std::rc::Rc::new(k);
                let k2 = std::rc::Rc::clone(&k);
                (
                    Box::new(move |buf| {
                        let mut tag = [0u8; 16];
                        k.encrypt(&NONCE, AAD, buf, &mut tag);
                        tag
                    }),
                    Box::new(move |buf, tag| k2.decrypt(&NONCE, AAD, buf, tag).is_ok()),
                )
            } else {
                let k = std::rc::Rc::new(graviola::aead::AesGcm::new(&key));
                let k2 = std::rc::Rc::clone(&k);
                (
                    Box::new(move |buf| {
                        let mut tag = [0u8; 16];
                        k.encrypt(&NONCE, AAD, buf, &mut tag);
                        tag
                    }),
                    Box::new(move |buf, tag| k2.decrypt(&NONCE, AAD, buf, tag).is_ok()),
                )
            };
            let mut candidates: Vec<(&'static str, Seal, Open)> = vec![(AWS, aws_seal, aws_open)];
            if name == "ChaCha20-Poly1305" {
                let (lc_seal, lc_open) = libcrux_chacha(&key);
                candidates.push((
                    "RustCrypto (typed-hpke default above 1.5 KiB)",
                    rc_seal,
                    rc_open,
                ));
                candidates.push(("libcrux (typed-hpke default to 1.5 KiB)", lc_seal, lc_open));
            } else {
                candidates.push(("RustCrypto (typed-hpke default)", rc_seal, rc_open));
            }
            candidates.push(("graviola", g_seal, g_open));
            candidates
        };
        // ChaCha20-Poly1305 also at 2 KiB: the default backend switches between libcrux's and
        // RustCrypto's at 1.5 KiB (typed-hpke's `src/aead/chacha20poly1305.rs`).
        let sizes: &[usize] = if name == "ChaCha20-Poly1305" {
            &[64, 1024, 2048, 16384, 65536]
        } else {
            &SIZES
        };
        for &size in sizes {
            // Every candidate seals the same bytes to the same ciphertext and opens aws-lc-rs's.
            let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
            let mut reference: Option<(Vec<u8>, [u8; 16])> = None;
            for (who, seal, open) in candidates() {
                let mut buf = pt.clone();
                let tag = seal(&mut buf);
                match &reference {
                    None => reference = Some((buf.clone(), tag)),
                    Some((ct, t)) => assert!(*ct == buf && *t == tag, "{who} {name} {size}"),
                }
                assert!(open(&mut buf, &tag) && buf == pt, "{who} {name} {size}");
            }
            let (ct, tag) = reference.unwrap();
            let mut seal_jobs = Vec::new();
            let mut open_jobs = Vec::new();
            for (who, seal, open) in candidates() {
                let mut buf = pt.clone();
                seal_jobs.push((who, timed(move || seal(black_box(&mut buf)))));
                let (ct, mut buf) = (ct.clone(), vec![0u8; size]);
                open_jobs.push((
                    who,
                    timed(move || {
                        buf.copy_from_slice(&ct);
                        open(black_box(&mut buf), &tag)
                    }),
                ));
            }
            rows.push((format!("{name} seal {size} B"), seal_jobs));
            rows.push((format!("{name} open {size} B"), open_jobs));
            rows.push((
                format!("{name} open into a new Vec {size} B"),
                fresh_open_jobs(name, &key, alg, &ct, tag, &pt),
            ));
        }
    }
}

/// What typed-hpke's `Vec`-returning `open` can do, per backend: decrypt out of place into a
/// zeroed `Vec` (`vec![0; n]`, as rust-hpke does), or copy the ciphertext into a new `Vec` and
/// decrypt in place there. Each job returns the `Vec`; every variant is checked first.
fn fresh_open_jobs(
    name: &str,
    key: &[u8],
    alg: &'static aws_lc_rs::aead::Algorithm,
    ct: &[u8],
    tag: [u8; 16],
    pt: &[u8],
) -> Vec<(&'static str, Job)> {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    type Fresh = Box<dyn Fn(&[u8], &[u8; 16]) -> Vec<u8>>;
    let aws = |gather: bool| -> Fresh {
        let k = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
        Box::new(move |ct, tag| {
            let nonce = Nonce::assume_unique_for_key(NONCE);
            if gather {
                let mut out = vec![0u8; ct.len()];
                k.open_separate_gather(nonce, Aad::from(AAD), ct, tag, &mut out)
                    .unwrap();
                out
            } else {
                let mut out = ct.to_vec();
                k.open_in_place_separate_tag(nonce, Aad::from(AAD), tag, &mut out)
                    .unwrap();
                out
            }
        })
    };
    fn rc<C: AeadInOut + KeyInit + 'static>(key: &[u8], out_of_place: bool) -> Fresh {
        let c = C::new_from_slice(key).unwrap();
        let nonce = aead::Nonce::<C>::try_from(&NONCE[..]).unwrap();
        Box::new(move |ct, tag| {
            let tag = aead::Tag::<C>::try_from(&tag[..]).unwrap();
            if out_of_place {
                let mut out = vec![0u8; ct.len()];
                let buf = aead::inout::InOutBuf::new(ct, &mut out).unwrap();
                c.decrypt_inout_detached(&nonce, AAD, buf, &tag).unwrap();
                out
            } else {
                let mut out = ct.to_vec();
                c.decrypt_inout_detached(&nonce, AAD, out.as_mut_slice().into(), &tag)
                    .unwrap();
                out
            }
        })
    }
    let rc = |out_of_place: bool| -> Fresh {
        match name {
            "AES-128-GCM" => rc::<aes_gcm::Aes128Gcm>(key, out_of_place),
            "AES-256-GCM" => rc::<aes_gcm::Aes256Gcm>(key, out_of_place),
            _ => rc::<chacha20poly1305::ChaCha20Poly1305>(key, out_of_place),
        }
    };
    let graviola: Fresh = if name == "ChaCha20-Poly1305" {
        let k = graviola::aead::ChaCha20Poly1305::new(key.try_into().unwrap());
        Box::new(move |ct, tag| {
            let mut out = ct.to_vec();
            k.decrypt(&NONCE, AAD, &mut out, tag).unwrap();
            out
        })
    } else {
        let k = graviola::aead::AesGcm::new(key);
        Box::new(move |ct, tag| {
            let mut out = ct.to_vec();
            k.decrypt(&NONCE, AAD, &mut out, tag).unwrap();
            out
        })
    };
    let variants: Vec<(&'static str, Fresh)> = vec![
        ("aws-lc-rs, out of place", aws(true)),
        ("aws-lc-rs, copy and in place", aws(false)),
        ("RustCrypto, out of place", rc(true)),
        ("RustCrypto, copy and in place", rc(false)),
        ("graviola, copy and in place", graviola),
    ];
    variants
        .into_iter()
        .map(|(who, open)| {
            assert_eq!(open(ct, &tag), pt, "{who} {name}");
            let ct = ct.to_vec();
            (who, timed(move || open(black_box(&ct), &tag)))
        })
        .collect()
}

fn aead_tag(tag: &[u8; 16]) -> &[u8] {
    tag
}

/// libcrux's ChaCha20-Poly1305 as typed-hpke calls it in place: it encrypts from one slice into
/// another, so the seal encrypts into a scratch buffer and copies the ciphertext back, and the
/// open copies the ciphertext aside and decrypts into the buffer.
fn libcrux_chacha(key: &[u8]) -> (Seal, Open) {
    let key: [u8; 32] = key.try_into().unwrap();
    // Scratch kept across calls, as typed-hpke's is a stack array: no allocation is timed.
    let seal_scratch = std::cell::RefCell::new(Vec::new());
    let open_scratch = std::cell::RefCell::new(Vec::new());
    (
        Box::new(move |buf| {
            let mut scratch = seal_scratch.borrow_mut();
            scratch.resize(buf.len(), 0);
            let mut tag = [0u8; 16];
            libcrux_chacha20poly1305::encrypt_detached(
                &key,
                buf,
                &mut scratch,
                &mut tag,
                AAD,
                &NONCE,
            )
            .map_err(|_| ())
            .unwrap();
            buf.copy_from_slice(&scratch);
            tag
        }),
        Box::new(move |buf, tag| {
            let mut scratch = open_scratch.borrow_mut();
            scratch.clear();
            scratch.extend_from_slice(buf);
            libcrux_chacha20poly1305::decrypt_detached(&key, buf, &scratch, tag, AAD, &NONCE)
                .is_ok()
        }),
    )
}

fn rustcrypto<C: AeadInOut + KeyInit + 'static>(key: &[u8]) -> (Seal, Open) {
    let c = std::rc::Rc::new(C::new_from_slice(key).unwrap());
    let c2 = std::rc::Rc::clone(&c);
    let nonce = aead::Nonce::<C>::try_from(&NONCE[..]).unwrap();
    let nonce2 = nonce.clone();
    (
        Box::new(move |buf| {
            let tag = c.encrypt_inout_detached(&nonce, AAD, buf.into()).unwrap();
            tag.as_slice().try_into().unwrap()
        }),
        Box::new(move |buf, tag| {
            let tag = aead::Tag::<C>::try_from(&tag[..]).unwrap();
            c2.decrypt_inout_detached(&nonce2, AAD, buf.into(), &tag)
                .is_ok()
        }),
    )
}
