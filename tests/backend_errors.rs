//! The same bad input gives the same `Error` whichever backend runs the group: `.ci/run` runs
//! this file on the pure-Rust backend and again with the `aws-lc-rs` feature, where X25519,
//! P-256, P-384 and P-521 (alone and inside the hybrids) run on aws-lc-rs. The cases sit at the
//! edges where two implementations could disagree: coordinates and scalars at and just past the
//! field prime and the group order, each SEC1 form, P-521's unused top bits, the X25519 points
//! whose DH output is all zeros, non-canonical u-coordinates, and every private-key length.
//! `tests/negative.rs` (also run under both backends) covers the wider set of bad inputs.

use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX25519HkdfSha256,
    EncappedKey, Kem, MlKem768P256, MlKem1024P384, PrivateKey, PublicKey, XWing,
};
use typed_hpke::{Error, OsRng};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// `a + b` on big-endian numbers of one length (no carry out of the top byte in the uses here).
fn add(a: &[u8], b: u64) -> Vec<u8> {
    let mut out = a.to_vec();
    let mut carry = u128::from(b);
    for byte in out.iter_mut().rev() {
        let sum = u128::from(*byte) + (carry & 0xff);
        *byte = sum as u8;
        carry = (carry >> 8) + (sum >> 8);
    }
    out
}

/// One Weierstrass curve's constants: the field prime `p` and the group order `n`, big-endian
/// in `Nsk` bytes.
struct Curve {
    p: &'static str,
    n: &'static str,
}

const P256: Curve = Curve {
    p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
};
const P384: Curve = Curve {
    p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
    n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
};
const P521: Curve = Curve {
    p: "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    n: "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
};

/// Public keys and encapsulated keys: every bad form is `InvalidPublicKey` as a key and
/// `Decap` at decapsulation; the negated point (same x, p - y) is a good key.
fn weierstrass_points<K: Kem>(curve: &Curve) {
    let (sk, pk) = K::generate(&mut OsRng::default()).unwrap();
    let good = pk.as_bytes().to_vec();
    let len = (good.len() - 1) / 2;
    let (x, y) = (&good[1..=len], &good[1 + len..]);
    let p = hex(curve.p);
    let point = |x: &[u8], y: &[u8]| [&[0x04][..], x, y].concat();

    let mut bad: Vec<(&str, Vec<u8>)> = vec![
        ("x = p", point(&p, y)),
        ("x = p + 1", point(&add(&p, 1), y)),
        ("y = p", point(x, &p)),
        ("x = y = 0", point(&vec![0; len], &vec![0; len])),
        ("y off the curve", point(x, &add(y, 1))),
        ("compressed, right length", {
            let mut b = vec![0x02 | (y[len - 1] & 1)];
            b.extend_from_slice(x);
            b.resize(good.len(), 0);
            b
        }),
        (
            "hybrid form",
            [&[0x06 | (y[len - 1] & 1)][..], x, y].concat(),
        ),
        ("one byte short", good[..good.len() - 1].to_vec()),
        ("one byte long", [&good[..], &[0]].concat()),
        ("empty", Vec::new()),
    ];
    if len == 66 {
        // P-521: a coordinate uses 521 of its 528 bits; any of the 7 above set is out of range.
        let mut top = x.to_vec();
        top[0] |= 0x02;
        bad.push(("P-521 x with bit 521 set", point(&top, y)));
        let mut top = y.to_vec();
        top[0] |= 0x80;
        bad.push(("P-521 y with bit 527 set", point(x, &top)));
    }
    for (what, bytes) in &bad {
        assert_eq!(
            PublicKey::<K>::from_bytes(bytes).unwrap_err(),
            Error::InvalidPublicKey,
            "public key, {what}"
        );
        if bytes.len() == good.len() {
            let enc = EncappedKey::<K>::from_bytes(bytes).unwrap();
            assert_eq!(
                K::decap(&enc, &sk).unwrap_err(),
                Error::Decap,
                "decap, {what}"
            );
        } else {
            assert_eq!(
                EncappedKey::<K>::from_bytes(bytes).unwrap_err(),
                Error::InvalidEncappedKey,
                "encapsulated key, {what}"
            );
        }
    }

    // The negation of a good point is a good point, and both backends multiply it.
    let mut neg_y = vec![0u8; len];
    let mut borrow = 0i32;
    for i in (0..len).rev() {
        let d = i32::from(p[i]) - i32::from(y[i]) - borrow;
        neg_y[i] = d.rem_euclid(256) as u8;
        borrow = i32::from(d < 0);
    }
    let negated = PublicKey::<K>::from_bytes(&point(x, &neg_y)).unwrap();
    assert!(K::encap(&mut OsRng::default(), &negated).is_ok());
}

/// Private keys: zero, the order and past it, all-ones, every wrong length; `n - 1` is good.
fn weierstrass_scalars<K: Kem>(curve: &Curve) {
    let n = hex(curve.n);
    let len = n.len();
    let mut bad: Vec<(&str, Vec<u8>)> = vec![
        ("zero", vec![0u8; len]),
        ("n", n.clone()),
        ("n + 1", add(&n, 1)),
        ("all ones", vec![0xff; len]),
        ("one byte short", vec![1u8; len - 1]),
        ("one byte long", vec![1u8; len + 1]),
        ("empty", Vec::new()),
    ];
    if len == 66 {
        let mut top = vec![0u8; len];
        top[0] = 0x02; // 2^521, past the order
        bad.push(("2^521", top));
    }
    for (what, bytes) in &bad {
        assert_eq!(
            PrivateKey::<K>::from_bytes(bytes).unwrap_err(),
            Error::InvalidPrivateKey,
            "private key, {what}"
        );
    }
    let mut largest = n.clone();
    *largest.last_mut().unwrap() -= 1;
    let sk = PrivateKey::<K>::from_bytes(&largest).unwrap();
    assert_eq!(&sk.to_bytes()[..], &largest[..]);
    let one = add(&vec![0u8; len], 1);
    let sk = PrivateKey::<K>::from_bytes(&one).unwrap();
    assert_eq!(&sk.to_bytes()[..], &one[..]);
}

#[test]
fn p256() {
    weierstrass_points::<DhKemP256HkdfSha256>(&P256);
    weierstrass_scalars::<DhKemP256HkdfSha256>(&P256);
}

#[test]
fn p384() {
    weierstrass_points::<DhKemP384HkdfSha384>(&P384);
    weierstrass_scalars::<DhKemP384HkdfSha384>(&P384);
}

#[test]
fn p521() {
    weierstrass_points::<DhKemP521HkdfSha512>(&P521);
    weierstrass_scalars::<DhKemP521HkdfSha512>(&P521);
}

/// X25519: any 32 bytes are a private key, kept as given (draft-ietf-hpke-hpke §7.1.2) and the
/// same key as its clamped form (RFC 7748 §5 clamps inside), and any 32 bytes are a public key;
/// the eight points whose DH output is all zeros, in canonical and non-canonical forms, are
/// `Encap` and `Decap` errors; a non-canonical u (p + 9) and u with the top bit set are accepted.
#[test]
fn x25519() {
    type K = DhKemX25519HkdfSha256;
    for (what, bytes) in [
        ("all zeros", [0u8; 32]),
        ("all ones", [0xff; 32]),
        ("one", {
            let mut b = [0u8; 32];
            b[0] = 1;
            b
        }),
    ] {
        let sk = PrivateKey::<K>::from_bytes(&bytes).unwrap();
        assert_eq!(&sk.to_bytes()[..], &bytes[..], "private key {what}");
        let mut clamped = bytes;
        clamped[0] &= 248;
        clamped[31] = (clamped[31] & 127) | 64;
        let clamped = PrivateKey::<K>::from_bytes(&clamped).unwrap();
        assert_eq!(clamped.public_key(), sk.public_key(), "public key {what}");
        assert_ne!(clamped, sk, "private keys are their bytes: {what}");
    }
    for len in [0, 31, 33] {
        assert_eq!(
            PrivateKey::<K>::from_bytes(&vec![1; len]).unwrap_err(),
            Error::InvalidPrivateKey
        );
        assert_eq!(
            PublicKey::<K>::from_bytes(&vec![9; len]).unwrap_err(),
            Error::InvalidPublicKey
        );
    }

    // The small-order points, little-endian, and u + p for those that fit in 255 bits; with
    // the top bit set as well (RFC 7748 §5 masks it).
    let le = |hex_be: &str| {
        let mut b = hex(hex_be);
        b.reverse();
        b.resize(32, 0);
        b
    };
    let p = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed";
    let mut zero_output = vec![
        le("00"),
        le("01"),
        le("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec"), // p - 1
        le(p),                                                                  // p = 0
        le("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee"), // p + 1 = 1
        hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
        hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
    ];
    let with_top_bit: Vec<Vec<u8>> = zero_output
        .iter()
        .map(|u| {
            let mut u = u.clone();
            u[31] |= 0x80;
            u
        })
        .collect();
    zero_output.extend(with_top_bit);
    let (sk, _) = K::generate(&mut OsRng::default()).unwrap();
    for u in &zero_output {
        let pk = PublicKey::<K>::from_bytes(u).unwrap();
        assert_eq!(
            K::encap(&mut OsRng::default(), &pk).unwrap_err(),
            Error::Encap,
            "encap to {u:02x?}"
        );
        let enc = EncappedKey::<K>::from_bytes(u).unwrap();
        assert_eq!(
            K::decap(&enc, &sk).unwrap_err(),
            Error::Decap,
            "decap of {u:02x?}"
        );
    }

    // u = 9, u = p + 9 and 9 with the top bit set are one point.
    let nine = le("09");
    let p_plus_nine = le("7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff6");
    let mut nine_top = nine.clone();
    nine_top[31] |= 0x80;
    let sk = PrivateKey::<K>::from_bytes(&[0x42; 32]).unwrap();
    let secrets: Vec<_> = [&nine, &p_plus_nine, &nine_top]
        .iter()
        .map(|u| {
            let enc = EncappedKey::<K>::from_bytes(u).unwrap();
            K::decap(&enc, &sk).map(|_| ())
        })
        .collect();
    // The shared secret hashes `enc` too, so the three differ; each must decapsulate.
    assert!(secrets.iter().all(Result::is_ok), "{secrets:?}");
}

/// The hybrids carry a traditional point after the ML-KEM part: a bad one is
/// `InvalidPublicKey` in a public key and `Decap` in an encapsulated key.
fn hybrid<K: Kem>(npk_t: usize, p: Option<&str>) {
    let (sk, pk) = K::generate(&mut OsRng::default()).unwrap();
    let (_, enc) = K::encap(&mut OsRng::default(), &pk).unwrap();
    let pk = pk.as_bytes().to_vec();
    let enc = enc.as_bytes().to_vec();
    // The traditional part is the tail of both (X-Wing's public key ends with pk_X; its
    // ciphertext ends with ct_X).
    type Spoil = Box<dyn Fn(&mut [u8])>;
    let mut spoil: Vec<(&str, Spoil)> = Vec::new();
    match p {
        Some(p) => {
            let p = hex(p);
            spoil.push((
                "x = p",
                Box::new(move |t: &mut [u8]| t[1..=p.len()].copy_from_slice(&p)),
            ));
            spoil.push(("compressed tag", Box::new(|t: &mut [u8]| t[0] = 0x02)));
            spoil.push((
                "off the curve",
                Box::new(|t: &mut [u8]| *t.last_mut().unwrap() ^= 1),
            ));
        }
        None => {
            // X-Wing: X25519 takes any 32 bytes, so a zero point parses, as a key and in an
            // `enc`; its all-zero DH output is refused, as Go's crypto/hpke and the `x-wing`
            // crate's rejecting key refuse it (tests/reference_crates.rs).
            let mut bytes = enc.clone();
            let n = bytes.len();
            bytes[n - npk_t..].fill(0);
            let e = EncappedKey::<K>::from_bytes(&bytes).unwrap();
            assert_eq!(K::decap(&e, &sk).unwrap_err(), Error::Decap);
            return;
        }
    }
    for (what, f) in &spoil {
        let mut bad_pk = pk.clone();
        let n = bad_pk.len();
        f(&mut bad_pk[n - npk_t..]);
        assert_eq!(
            PublicKey::<K>::from_bytes(&bad_pk).unwrap_err(),
            Error::InvalidPublicKey,
            "public key, {what}"
        );
        let mut bad_enc = enc.clone();
        let n = bad_enc.len();
        f(&mut bad_enc[n - npk_t..]);
        let e = EncappedKey::<K>::from_bytes(&bad_enc).unwrap();
        assert_eq!(
            K::decap(&e, &sk).unwrap_err(),
            Error::Decap,
            "decap, {what}"
        );
    }
}

#[test]
fn hybrids() {
    hybrid::<XWing>(32, None);
    hybrid::<MlKem768P256>(65, Some(P256.p));
    hybrid::<MlKem1024P384>(97, Some(P384.p));
}
