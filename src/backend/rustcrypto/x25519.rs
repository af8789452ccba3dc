//! X25519 on the pure-Rust backend: the scalar and the point are their bytes. With the
//! `graviola` feature, on a CPU graviola supports, the public key and `DH` run on graviola
//! instead (`crate::backend::graviola::x25519`); a prepared key keeps dalek's table, which
//! measured faster than graviola's variable-base ladder (BENCHMARKS.md, "Candidate primitives").

use hybrid_array::Array;
use hybrid_array::typenum::U32;
use subtle::Choice;
use zeroize::Zeroizing;

use crate::kem::dhkem::is_all_zero;

pub(crate) type Scalar = [u8; 32];
pub(crate) type Point = [u8; 32];

pub(crate) fn scalar(k: Zeroizing<[u8; 32]>) -> Scalar {
    *k
}

pub(crate) fn scalar_bytes(sk: &Scalar) -> &[u8; 32] {
    sk
}

pub(crate) fn scalar_ct_eq(a: &Scalar, b: &Scalar) -> Choice {
    subtle::ConstantTimeEq::ct_eq(&a[..], &b[..])
}

/// A prepared key's table is made from the point's bytes.
#[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
pub(crate) fn point_bytes(pk: &Point) -> &[u8; 32] {
    pk
}

pub(crate) fn public(sk: &Scalar) -> (Point, Array<u8, U32>) {
    #[cfg(feature = "graviola")]
    if crate::backend::graviola::available() {
        let pk = crate::backend::graviola::x25519::public(sk);
        return (pk, Array(pk));
    }
    // The fixed-base multiplication with dalek's precomputed tables; without them, the ladder
    // on the base point (RFC 7748 §6.1).
    #[cfg(feature = "precomputed-tables")]
    let pk = x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(*sk)).to_bytes();
    #[cfg(not(feature = "precomputed-tables"))]
    let pk = x25519_dalek::x25519(*sk, x25519_dalek::X25519_BASEPOINT_BYTES);
    (pk, Array(pk))
}

pub(crate) fn point(bytes: &[u8]) -> Option<Point> {
    bytes.try_into().ok()
}

pub(crate) fn dh(sk: &Scalar, pk: &Point, out: &mut Array<u8, U32>) -> Choice {
    #[cfg(feature = "graviola")]
    if crate::backend::graviola::available() {
        return crate::backend::graviola::x25519::dh(sk, pk, out);
    }
    out.copy_from_slice(&crate::kem::x25519::x25519(sk, pk)[..]);
    // §7.1.4: abort if the DH output is the all-zero value.
    !is_all_zero(&out.0)
}
