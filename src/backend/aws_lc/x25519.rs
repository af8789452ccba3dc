//! X25519 on the aws-lc-rs backend (feature `aws-lc-rs`): the bytes beside aws-lc's key and
//! parsed point.

use aws_lc_rs::agreement::X25519;
use hybrid_array::Array;
use hybrid_array::typenum::U32;
use subtle::Choice;
use zeroize::Zeroizing;

use crate::kem::dhkem::is_all_zero;

pub(crate) type Scalar = super::dh::Scalar<U32>;
pub(crate) type Point = super::dh::Point<U32>;

pub(crate) fn scalar(k: Zeroizing<[u8; 32]>) -> Scalar {
    Scalar::import(&X25519, Zeroizing::new(Array(*k)))
}

pub(crate) fn scalar_bytes(sk: &Scalar) -> &[u8; 32] {
    &sk.bytes().0
}

pub(crate) fn scalar_ct_eq(a: &Scalar, b: &Scalar) -> Choice {
    a.ct_eq(b)
}

/// A prepared key's table is made from the point's bytes.
#[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
pub(crate) fn point_bytes(pk: &Point) -> &[u8; 32] {
    &pk.bytes().0
}

pub(crate) fn public(sk: &Scalar) -> (Point, Array<u8, U32>) {
    sk.public(&X25519)
}

pub(crate) fn point(bytes: &[u8]) -> Option<Point> {
    // aws-lc takes any 32 bytes as a u-coordinate, as RFC 7748 does.
    Point::parse(&X25519, bytes).ok()
}

pub(crate) fn dh(sk: &Scalar, pk: &Point, out: &mut Array<u8, U32>) -> Choice {
    // aws-lc refuses an all-zero output itself; the check of §7.1.4 is made here all the same,
    // on what it returns.
    sk.agree(pk, out) & !is_all_zero(&out.0)
}
