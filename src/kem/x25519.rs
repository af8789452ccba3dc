//! DHKEM(X25519, HKDF-SHA256), `kem_id` 0x0020 (RFC 9180 §7.1, RFC 7748).

use hkdf::Hkdf;
use hybrid_array::Array;
use hybrid_array::typenum::U32;
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::dhkem::{DhGroup, DhKem, expand_candidate, is_all_zero};
use crate::Error;
use crate::labeled::Label;
use crate::sealed::DhEngine;
#[cfg(feature = "alloc")]
use curve25519_dalek::edwards::EdwardsBasepointTable;
#[cfg(feature = "alloc")]
use curve25519_dalek::traits::BasepointTable as _;

/// The X25519 group (RFC 7748). The KEM is [`DhKemX25519HkdfSha256`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct X25519;

/// DHKEM(X25519, HKDF-SHA256), `kem_id` 0x0020: Nsecret 32, Nenc 32, Npk 32, Nsk 32.
pub type DhKemX25519HkdfSha256 = DhKem<X25519>;

impl crate::sealed::Sealed for X25519 {}

/// `X25519(k, u)` (RFC 7748 §5), the same function as the Montgomery ladder computes, but
/// faster where it can be: a `u` on the curve (every honest public key and encapsulated key)
/// is lifted to Edwards form and multiplied there, where dalek's vectorised backend runs about
/// 40% faster than the ladder here; the result's u-coordinate is the same for either lift, as
/// `u([k]P) = u([k](-P))`. A `u` on the twist falls back to the ladder. The branch depends only
/// on the public `u`; both paths are constant time in `k`.
pub(crate) fn x25519(k: &[u8; 32], u: &[u8; 32]) -> Zeroizing<[u8; 32]> {
    // The dalek functions take the scalar by value; what they copy they do not hand back, and
    // the product is wiped here.
    Zeroizing::new(match curve25519_dalek::MontgomeryPoint(*u).to_edwards(0) {
        Some(point) => point.mul_clamped(*k).to_montgomery().to_bytes(),
        None => x25519_dalek::x25519(*k, *u),
    })
}

/// RFC 7748 §5 clamping, which RFC 9180 §7.1.2 applies on (de)serialization.
/// The scalar is held in a wiped buffer; the one copy returned is the key itself.
fn clamped(mut k: Zeroizing<[u8; 32]>) -> [u8; 32] {
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    *k
}

impl DhGroup for X25519 {
    const KEM_ID: u16 = 0x0020;
    type Hash = sha2::Sha256;
    type NSecret = U32;
    type NPk = U32;
    type NSk = U32;
    type NDh = U32;
    type Scalar = [u8; 32];
    type Point = [u8; 32];
    /// The Edwards lift's radix-16 table; `None` for a `u` on the twist, which has no lift.
    #[cfg(feature = "alloc")]
    type Table = Option<alloc::boxed::Box<EdwardsBasepointTable>>;
    #[cfg(not(feature = "alloc"))]
    type Table = ();
    type Engine = Self;
}

impl DhEngine<X25519> for X25519 {
    runtime_keys!(DhKem<X25519>, X25519);

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> [u8; 32] {
        let mut k = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut k[..]);
        clamped(k)
    }

    fn derive_scalar(suite_id: &[u8], dkp_prk: &Hkdf<sha2::Sha256>) -> Result<[u8; 32], Error> {
        // sk = LabeledExpand(dkp_prk, "sk", "", Nsk)
        let sk = expand_candidate::<_, U32>(dkp_prk, suite_id, Label::Sk, &[])?;
        Ok(clamped(Zeroizing::new(sk.0)))
    }

    fn scalar_from_bytes(bytes: &[u8]) -> Result<[u8; 32], Error> {
        // DeserializePrivateKey MUST clamp its input (§7.1.2).
        Ok(clamped(Zeroizing::new(
            <[u8; 32]>::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)?,
        )))
    }

    fn scalar_to_bytes(sk: &[u8; 32]) -> Zeroizing<Array<u8, U32>> {
        // Stored clamped, so SerializePrivateKey's clamping is already done (§7.1.2).
        Zeroizing::new(Array(*sk))
    }

    fn scalar_ct_eq(a: &[u8; 32], b: &[u8; 32]) -> Choice {
        a.ct_eq(b)
    }

    fn public(sk: &[u8; 32]) -> ([u8; 32], Array<u8, U32>) {
        // The fixed-base multiplication with dalek's precomputed tables.
        let secret = x25519_dalek::StaticSecret::from(*sk);
        let pk = x25519_dalek::PublicKey::from(&secret).to_bytes();
        (pk, Array(pk))
    }

    fn point_from_bytes(bytes: &[u8]) -> Result<[u8; 32], Error> {
        // Any 32 bytes are a u-coordinate (RFC 7748 §5); bad points are caught by the all-zero
        // check on the DH output (§7.1.4).
        bytes.try_into().map_err(|_| Error::InvalidPublicKey)
    }

    fn dh(sk: &[u8; 32], pk: &[u8; 32], out: &mut Array<u8, U32>) -> Choice {
        out.copy_from_slice(&x25519(sk, pk)[..]);
        // §7.1.4: abort if the DH output is the all-zero value.
        !is_all_zero(&out.0)
    }

    #[cfg(feature = "alloc")]
    fn prepare(pk: &[u8; 32]) -> <Self as DhGroup>::Table {
        // The lift is the one `x25519` multiplies; a twist point keeps the ladder.
        curve25519_dalek::MontgomeryPoint(*pk)
            .to_edwards(0)
            .map(|point| alloc::boxed::Box::new(EdwardsBasepointTable::create(&point)))
    }

    #[cfg(not(feature = "alloc"))]
    fn prepare(_: &[u8; 32]) -> <Self as DhGroup>::Table {}

    #[cfg(feature = "alloc")]
    fn table_heap_size(table: &<Self as DhGroup>::Table) -> usize {
        table
            .as_ref()
            .map_or(0, |_| core::mem::size_of::<EdwardsBasepointTable>())
    }

    #[cfg(not(feature = "alloc"))]
    fn table_heap_size(_: &<Self as DhGroup>::Table) -> usize {
        0
    }

    fn dh_prepared(
        sk: &[u8; 32],
        pk: &[u8; 32],
        table: &<Self as DhGroup>::Table,
        out: &mut Array<u8, U32>,
    ) -> Choice {
        #[cfg(feature = "alloc")]
        if let Some(table) = table {
            // [k]P for the clamped k taken whole (below 2^255, not reduced mod the group
            // order), so a small-order component of P is multiplied as the ladder multiplies
            // it; the table's lookups are constant time. Product and output are wiped.
            let product = Zeroizing::new(table.mul_base_clamped(*sk));
            let u = Zeroizing::new(product.to_montgomery().to_bytes());
            out.copy_from_slice(&u[..]);
            return !is_all_zero(&out.0);
        }
        #[cfg(not(feature = "alloc"))]
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
