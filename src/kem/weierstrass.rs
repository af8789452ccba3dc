//! DH-KEMs over prime-order short Weierstrass curves (P-256, P-384, P-521, secp256k1):
//! RFC 9180 §7.1.1 (uncompressed SEC1 keys), §7.1.2, §7.1.3 (rejection sampling), §7.1.4.

use elliptic_curve::group::{Curve as _, Group as _};
use elliptic_curve::point::AffineCoordinates;
use elliptic_curve::sec1::{FromSec1Point, ModulusSize, ToSec1Point, UncompressedPointSize};
use elliptic_curve::{
    AffinePoint, CurveArithmetic, FieldBytesSize, NonZeroScalar, PrimeField, ProjectivePoint,
};
use hkdf::Hkdf;
use hkdf::hmac::EagerHash;
use hybrid_array::{Array, ArraySize};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::dhkem::{DhGroup, DhKem, expand_candidate};
use crate::Error;
use crate::labeled::Label;
use crate::sealed::DhEngine;

/// SEC1 tag of an uncompressed point, the only form RFC 9180 §7.1.1 allows.
const SEC1_UNCOMPRESSED: u8 = 0x04;

/// What distinguishes one Weierstrass DH-KEM from another.
#[doc(hidden)]
pub trait WeierstrassKem: crate::sealed::Sealed + Sized + 'static {
    type Curve: CurveArithmetic;
    const KEM_ID: u16;
    /// The `bitmask` of §7.1.3: 0xff, or 0x01 for P-521.
    const BITMASK: u8;
    type Hash: EagerHash;
    type NSecret: ArraySize;

    // The runtime key conversions of `DhEngine`, per curve (each names its enum variant).
    fn into_runtime_sk(sk: crate::PrivateKey<DhKem<Self>>) -> crate::suite::AnySk
    where
        Self: DhGroup;
    fn into_runtime_pk(pk: crate::PublicKey<DhKem<Self>>) -> crate::suite::AnyPk
    where
        Self: DhGroup;
    fn runtime_sk(sk: &crate::suite::AnySk) -> Option<&crate::PrivateKey<DhKem<Self>>>
    where
        Self: DhGroup;
    fn runtime_pk(pk: &crate::suite::AnyPk) -> Option<&crate::PublicKey<DhKem<Self>>>
    where
        Self: DhGroup;
}

impl<W> DhGroup for W
where
    W: WeierstrassKem,
    FieldBytesSize<W::Curve>: ModulusSize,
    AffinePoint<W::Curve>: FromSec1Point<W::Curve> + ToSec1Point<W::Curve>,
{
    const KEM_ID: u16 = W::KEM_ID;
    type Hash = W::Hash;
    type NSecret = W::NSecret;
    type NPk = UncompressedPointSize<W::Curve>;
    type NSk = FieldBytesSize<W::Curve>;
    type NDh = FieldBytesSize<W::Curve>;
    type Scalar = NonZeroScalar<W::Curve>;
    type Point = AffinePoint<W::Curve>;
    type Engine = Self;
}

impl<W> DhEngine<W> for W
where
    W: WeierstrassKem,
    FieldBytesSize<W::Curve>: ModulusSize,
    AffinePoint<W::Curve>: FromSec1Point<W::Curve> + ToSec1Point<W::Curve>,
{
    fn into_runtime_sk(sk: crate::PrivateKey<DhKem<W>>) -> crate::suite::AnySk {
        W::into_runtime_sk(sk)
    }

    fn into_runtime_pk(pk: crate::PublicKey<DhKem<W>>) -> crate::suite::AnyPk {
        W::into_runtime_pk(pk)
    }

    fn runtime_sk(sk: &crate::suite::AnySk) -> Option<&crate::PrivateKey<DhKem<W>>> {
        W::runtime_sk(sk)
    }

    fn runtime_pk(pk: &crate::suite::AnyPk) -> Option<&crate::PublicKey<DhKem<W>>> {
        W::runtime_pk(pk)
    }

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> <Self as DhGroup>::Scalar {
        // GenerateKeyPair (RFC 9180 §4): a uniform scalar in [1, n), by rejection sampling
        // over Nsk random bytes with the top byte masked as §7.1.3 masks DeriveKeyPair's
        // candidates. With the mask every curve accepts a candidate with probability close to
        // 1; without it P-521 (521 bits in 66 bytes) accepts 1 in 128, which cost about 30 us
        // per key in `elliptic_curve`'s `NonZeroScalar::generate_from_rng` (measured). A
        // rejected candidate is independent of the accepted one, so the loop leaks nothing.
        let mut bytes = Zeroizing::new(Array::<u8, <Self as DhGroup>::NSk>::default());
        loop {
            rng.fill_bytes(&mut bytes[..]);
            if let Some(first) = bytes.first_mut() {
                *first &= W::BITMASK;
            }
            if let Some(sk) = NonZeroScalar::<W::Curve>::from_repr(*bytes).into_option() {
                return sk;
            }
        }
    }

    fn derive_scalar(
        suite_id: &[u8],
        dkp_prk: &Hkdf<W::Hash>,
    ) -> Result<<Self as DhGroup>::Scalar, Error> {
        // while sk == 0 or sk >= order:
        //   if counter > 255: raise DeriveKeyPairError
        //   bytes = LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), Nsk)
        //   bytes[0] = bytes[0] & bitmask
        //   sk = OS2IP(bytes)
        for counter in 0..=u8::MAX {
            let mut bytes = expand_candidate::<_, <Self as DhGroup>::NSk>(
                dkp_prk,
                suite_id,
                Label::Candidate,
                &[counter],
            )?;
            if let Some(first) = bytes.first_mut() {
                *first &= W::BITMASK;
            }
            if let Some(sk) = NonZeroScalar::<W::Curve>::from_repr(*bytes).into_option() {
                return Ok(sk);
            }
        }
        Err(Error::DeriveKeyPair)
    }

    fn scalar_from_bytes(bytes: &[u8]) -> Result<<Self as DhGroup>::Scalar, Error> {
        let repr = Array::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)?;
        NonZeroScalar::<W::Curve>::from_repr(repr)
            .into_option()
            .ok_or(Error::InvalidPrivateKey)
    }

    fn scalar_to_bytes(
        sk: &<Self as DhGroup>::Scalar,
    ) -> Zeroizing<Array<u8, <Self as DhGroup>::NSk>> {
        Zeroizing::new(sk.to_repr())
    }

    fn scalar_ct_eq(a: &<Self as DhGroup>::Scalar, b: &<Self as DhGroup>::Scalar) -> Choice {
        let (a, b) = (Zeroizing::new(a.to_repr()), Zeroizing::new(b.to_repr()));
        a.as_slice().ct_eq(b.as_slice())
    }

    fn public(
        sk: &<Self as DhGroup>::Scalar,
    ) -> (<Self as DhGroup>::Point, Array<u8, <Self as DhGroup>::NPk>) {
        let point = ProjectivePoint::<W::Curve>::mul_by_generator(sk).to_affine();
        let encoded = point.to_sec1_point(false);
        let bytes = Array::try_from(encoded.as_bytes())
            .expect("an uncompressed SEC1 point of a non-identity point is Npk bytes");
        (point, bytes)
    }

    fn point_from_bytes(bytes: &[u8]) -> Result<<Self as DhGroup>::Point, Error> {
        // Exactly Npk bytes with the uncompressed tag: `from_sec1_bytes` alone would also take
        // compressed points and the identity encoding.
        if bytes.len() != <<Self as DhGroup>::NPk as hybrid_array::typenum::Unsigned>::USIZE
            || bytes.first() != Some(&SEC1_UNCOMPRESSED)
        {
            return Err(Error::InvalidPublicKey);
        }
        // On the curve, and not the identity (§7.1.4 public key validation).
        let point =
            AffinePoint::<W::Curve>::from_sec1_bytes(bytes).map_err(|_| Error::InvalidPublicKey)?;
        if bool::from(ProjectivePoint::<W::Curve>::from(point).is_identity()) {
            return Err(Error::InvalidPublicKey);
        }
        Ok(point)
    }

    fn dh(
        sk: &<Self as DhGroup>::Scalar,
        pk: &<Self as DhGroup>::Point,
        out: &mut Array<u8, <Self as DhGroup>::NDh>,
    ) -> Choice {
        // DH(sk, pk) is the x-coordinate of sk·pk (SEC1 §3.3.1), Ndh bytes.
        // The product and its affine form are as secret as the DH output: both are wiped.
        // The scalar is borrowed, not copied out of its `NonZeroScalar`.
        let shared = Zeroizing::new(ProjectivePoint::<W::Curve>::from(*pk) * sk.as_ref());
        let affine = Zeroizing::new(shared.to_affine());
        *out = affine.x();
        // `group`'s Choice is not `subtle`'s; converted without branching on the secret.
        !Choice::from(u8::from(bool::from(shared.is_identity())))
    }
}
