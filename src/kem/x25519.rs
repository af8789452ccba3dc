//! DHKEM(X25519, HKDF-SHA256), `kem_id` 0x0020 (RFC 9180 §7.1, RFC 7748).

use crate::labeled::Expander;
use hybrid_array::Array;
use hybrid_array::typenum::U32;
use rand_core::CryptoRng;
use subtle::Choice;
use zeroize::Zeroizing;

use super::dhkem::{DhGroup, DhKem, expand_candidate};
use crate::Error;
use crate::labeled::Label;
use crate::sealed::DhEngine;
#[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
use curve25519_dalek::edwards::EdwardsBasepointTable;
#[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
use curve25519_dalek::traits::BasepointTable as _;

/// The X25519 group (RFC 7748). The KEM is [`DhKemX25519HkdfSha256`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct X25519;

/// DHKEM(X25519, HKDF-SHA256), `kem_id` 0x0020: Nsecret 32, Nenc 32, Npk 32, Nsk 32.
pub type DhKemX25519HkdfSha256 = DhKem<X25519>;

impl crate::sealed::Sealed for X25519 {}

/// `X25519(k, u)` (RFC 7748 §5), the same function as the Montgomery ladder computes, but
/// faster where it can be: a `u` on the curve (every honest public key and encapsulated key)
/// is lifted to Edwards form and multiplied there, where dalek's vectorised backend is faster
/// than the ladder (the comparative bench's X25519 rows measure it); the result's u-coordinate is the same for either lift, as
/// `u([k]P) = u([k](-P))`. A `u` on the twist falls back to the ladder. The branch depends only
/// on the public `u`; both paths are constant time in `k`.
///
/// Without the `precomputed-tables` feature it is the ladder alone, which keeps the Edwards
/// arithmetic out of a size-bound build.
#[cfg_attr(
    feature = "aws-lc-rs",
    allow(
        dead_code,
        reason = "aws-lc computes DH; the tests still check this against the ladder"
    )
)]
pub(crate) fn x25519(k: &[u8; 32], u: &[u8; 32]) -> Zeroizing<[u8; 32]> {
    #[cfg(not(feature = "precomputed-tables"))]
    return Zeroizing::new(x25519_dalek::x25519(*k, *u));
    // The dalek functions take the scalar by value; what they copy they do not hand back. The
    // Edwards product and its Montgomery form are wiped here, as on the prepared path.
    #[cfg(feature = "precomputed-tables")]
    match curve25519_dalek::MontgomeryPoint(*u).to_edwards(0) {
        Some(point) => {
            let product = Zeroizing::new(point.mul_clamped(*k));
            let u = Zeroizing::new(product.to_montgomery());
            Zeroizing::new(u.to_bytes())
        }
        None => Zeroizing::new(x25519_dalek::x25519(*k, *u)),
    }
}

// A private key is kept as its 32 bytes, as given: RFC 7748 §5 clamps the scalar inside the
// X25519 function, and every multiplication here clamps (dalek's `*_clamped`, `x25519`,
// aws-lc's X25519), so the key serializes as the bytes it was made from (draft-ietf-hpke-hpke
// §7.1.2, where RFC 9180 §7.1.2 clamped on (de)serialization; the DH results are the same).

/// The backend's scalar and point, and the two operations that differ between backends.
type Scalar = <X25519 as DhGroup>::Scalar;
type Point = <X25519 as DhGroup>::Point;

// The backend: the scalar's and the point's types, and the operations that differ between
// backends (`crate::backend`).
#[cfg(feature = "aws-lc-rs")]
use crate::backend::aws_lc::x25519 as backend;
#[cfg(not(feature = "aws-lc-rs"))]
use crate::backend::rustcrypto::x25519 as backend;

impl DhGroup for X25519 {
    const KEM_ID: u16 = 0x0020;
    type Hash = sha2::Sha256;
    type NSecret = U32;
    type NPk = U32;
    type NSk = U32;
    type NDh = U32;
    type Scalar = backend::Scalar;
    type Point = backend::Point;
    /// The Edwards lift's radix-16 table; `None` for a `u` on the twist, which has no lift.
    #[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
    type Table = Option<alloc::boxed::Box<EdwardsBasepointTable>>;
    #[cfg(not(all(feature = "alloc", feature = "precomputed-tables")))]
    type Table = ();
    type Engine = Self;
}

impl DhEngine<X25519> for X25519 {
    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Option<Scalar> {
        // Every 32-byte string is a valid key (§7.1.3): never `None`.
        let mut k = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut k[..]);
        Some(backend::scalar(k))
    }

    fn derive_scalar(suite_id: &[u8], dkp_prk: &Expander<sha2::Sha256>) -> Result<Scalar, Error> {
        // sk = LabeledExpand(dkp_prk, "sk", "", Nsk)
        let sk = expand_candidate::<_, U32>(dkp_prk, suite_id, Label::Sk, &[])?;
        Ok(backend::scalar(Zeroizing::new(sk.0)))
    }

    fn scalar_from_bytes(bytes: &[u8]) -> Result<Scalar, Error> {
        // Any 32 bytes are a key, kept as given; the multiplications clamp.
        Ok(backend::scalar(Zeroizing::new(
            <[u8; 32]>::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)?,
        )))
    }

    fn scalar_to_bytes(sk: &Scalar) -> Zeroizing<Array<u8, U32>> {
        // The bytes the key was made from (draft-ietf-hpke-hpke §7.1.2).
        Zeroizing::new(Array(*backend::scalar_bytes(sk)))
    }

    fn scalar_ct_eq(a: &Scalar, b: &Scalar) -> Choice {
        backend::scalar_ct_eq(a, b)
    }

    fn public(sk: &Scalar) -> (Point, Array<u8, U32>) {
        backend::public(sk)
    }

    fn point_from_bytes(bytes: &[u8]) -> Result<Point, Error> {
        // Any 32 bytes are a u-coordinate (RFC 7748 §5); bad points are caught by the all-zero
        // check on the DH output (§7.1.4).
        backend::point(bytes).ok_or(Error::InvalidPublicKey)
    }

    fn dh(sk: &Scalar, pk: &Point, out: &mut Array<u8, U32>) -> Choice {
        backend::dh(sk, pk, out)
    }

    #[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
    fn prepare(pk: &Point) -> <Self as DhGroup>::Table {
        // The lift is the one `x25519` multiplies; a twist point keeps the ladder.
        curve25519_dalek::MontgomeryPoint(*backend::point_bytes(pk))
            .to_edwards(0)
            .map(|point| alloc::boxed::Box::new(EdwardsBasepointTable::create(&point)))
    }

    #[cfg(not(all(feature = "alloc", feature = "precomputed-tables")))]
    fn prepare(_: &Point) -> <Self as DhGroup>::Table {}

    #[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
    fn table_heap_size(table: &<Self as DhGroup>::Table) -> usize {
        table
            .as_ref()
            .map_or(0, |_| core::mem::size_of::<EdwardsBasepointTable>())
    }

    #[cfg(not(all(feature = "alloc", feature = "precomputed-tables")))]
    fn table_heap_size(_: &<Self as DhGroup>::Table) -> usize {
        0
    }

    fn dh_prepared(
        sk: &Scalar,
        pk: &Point,
        table: &<Self as DhGroup>::Table,
        out: &mut Array<u8, U32>,
    ) -> Choice {
        #[cfg(all(feature = "alloc", feature = "precomputed-tables"))]
        if let Some(table) = table {
            // [k]P for k clamped (RFC 7748 §5) and taken whole (below 2^255, not reduced mod
            // the group order), so a small-order component of P is multiplied as the ladder
            // multiplies it; the table's lookups are constant time. Product and output are
            // wiped.
            let product = Zeroizing::new(table.mul_base_clamped(*backend::scalar_bytes(sk)));
            let u = Zeroizing::new(product.to_montgomery().to_bytes());
            out.copy_from_slice(&u[..]);
            return !super::dhkem::is_all_zero(&out.0);
        }
        #[cfg(not(all(feature = "alloc", feature = "precomputed-tables")))]
        let () = table;
        Self::dh(sk, pk, out)
    }
}

#[cfg(test)]
mod tests {
    use super::x25519;

    /// The Edwards shortcut equals the ladder on every kind of input: random points on the
    /// curve and on the twist, low-order points, non-canonical encodings, the top bit set.
    #[test]
    fn edwards_path_equals_the_ladder() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut bytes = || {
            let mut b = [0u8; 32];
            for chunk in b.chunks_mut(8) {
                chunk.copy_from_slice(&next().to_le_bytes());
            }
            b
        };
        let mut special: [[u8; 32]; 6] = [[0; 32], [0; 32], [0xff; 32], [0; 32], [0; 32], [0; 32]];
        special[1][0] = 1;
        special[3] = [0xff; 32];
        special[3][0] = 0xec; // p - 1 with the top bit set
        special[3][31] = 0x7f;
        special[4] = special[3];
        special[4][0] = 0xed; // p
        special[5][0] = 9;
        let (mut on_curve, mut on_twist) = (0, 0);
        for i in 0..400 {
            let k = bytes();
            let u = if i < special.len() {
                special[i]
            } else {
                bytes()
            };
            if curve25519_dalek::MontgomeryPoint(u).to_edwards(0).is_some() {
                on_curve += 1;
            } else {
                on_twist += 1;
            }
            assert_eq!(*x25519(&k, &u), x25519_dalek::x25519(k, u), "u = {u:02x?}");
        }
        assert!(on_curve > 100 && on_twist > 100);
    }
}
