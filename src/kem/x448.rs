//! DHKEM(X448, HKDF-SHA512), `kem_id` 0x0021 (RFC 9180 §7.1, RFC 7748).

use crate::labeled::Expander;
use hybrid_array::Array;
use hybrid_array::typenum::{U56, U64};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::dhkem::{DhGroup, DhKem, expand_candidate, is_all_zero};
use crate::Error;
use crate::labeled::Label;
use crate::sealed::DhEngine;

/// The X448 group (RFC 7748). The KEM is [`DhKemX448HkdfSha512`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct X448;

/// DHKEM(X448, HKDF-SHA512), `kem_id` 0x0021: Nsecret 64, Nenc 56, Npk 56, Nsk 56.
pub type DhKemX448HkdfSha512 = DhKem<X448>;

impl crate::sealed::Sealed for X448 {}

// A private key is kept as its 56 bytes, as given: `x448_unchecked` clamps the scalar inside
// (RFC 7748 §5), so the key serializes as the bytes it was made from (draft-ietf-hpke-hpke
// §7.1.2, where RFC 9180 §7.1.2 clamped on (de)serialization; the DH results are the same).
// The bytes are moved out of their wiped buffer once, into the key.

impl DhGroup for X448 {
    const KEM_ID: u16 = 0x0021;
    type Hash = sha2::Sha512;
    type NSecret = U64;
    type NPk = U56;
    type NSk = U56;
    type NDh = U56;
    type Scalar = [u8; 56];
    type Point = [u8; 56];
    // The `x448` crate has the Montgomery ladder only: no table to build.
    type Table = ();
    type Engine = Self;
}

impl DhEngine<X448> for X448 {
    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Option<[u8; 56]> {
        // Every 56-byte string is a valid key (§7.1.3): never `None`.
        let mut k = Zeroizing::new([0u8; 56]);
        rng.fill_bytes(&mut k[..]);
        Some(*k)
    }

    fn derive_scalar(suite_id: &[u8], dkp_prk: &Expander<sha2::Sha512>) -> Result<[u8; 56], Error> {
        // sk = LabeledExpand(dkp_prk, "sk", "", Nsk)
        let sk = expand_candidate::<_, U56>(dkp_prk, suite_id, Label::Sk, &[])?;
        Ok(sk.0)
    }

    fn scalar_from_bytes(bytes: &[u8]) -> Result<[u8; 56], Error> {
        // Any 56 bytes are a key, kept as given; the ladder clamps.
        <[u8; 56]>::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)
    }

    fn scalar_to_bytes(sk: &[u8; 56]) -> Zeroizing<Array<u8, U56>> {
        // The bytes the key was made from (draft-ietf-hpke-hpke §7.1.2).
        Zeroizing::new(Array(*sk))
    }

    fn scalar_ct_eq(a: &[u8; 56], b: &[u8; 56]) -> Choice {
        a.ct_eq(b)
    }

    fn public(sk: &[u8; 56]) -> ([u8; 56], Array<u8, U56>) {
        let pk = x448::x448_unchecked(*sk, x448::X448_BASEPOINT_BYTES);
        (pk, Array(pk))
    }

    fn point_from_bytes(bytes: &[u8]) -> Result<[u8; 56], Error> {
        bytes.try_into().map_err(|_| Error::InvalidPublicKey)
    }

    fn dh(sk: &[u8; 56], pk: &[u8; 56], out: &mut Array<u8, U56>) -> Choice {
        // The unchecked ladder, then our own constant-time all-zero check (§7.1.4): the crate's
        // low-order check does not catch non-canonical encodings such as u = p.
        let shared = Zeroizing::new(x448::x448_unchecked(*sk, *pk));
        out.copy_from_slice(&shared[..]);
        !is_all_zero(&out.0)
    }

    fn prepare(_: &[u8; 56]) {}

    fn table_heap_size(_: &()) -> usize {
        0
    }

    fn dh_prepared(sk: &[u8; 56], pk: &[u8; 56], _: &(), out: &mut Array<u8, U56>) -> Choice {
        Self::dh(sk, pk, out)
    }
}
