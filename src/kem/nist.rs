//! DHKEM(P-256, HKDF-SHA256) 0x0010, DHKEM(P-384, HKDF-SHA384) 0x0011 and
//! DHKEM(P-521, HKDF-SHA512) 0x0012 (RFC 9180 §7.1).
//!
//! The pure-Rust backend is the generic Weierstrass one (`super::weierstrass`). With the feature
//! `aws-lc-rs` the three curves run on aws-lc-rs instead (`crate::backend::aws_lc::dh`), with the same
//! sampling, derivation and validation code in front of it. With the feature `graviola`,
//! P-256's and P-384's multiplications run on graviola (`crate::backend::graviola::nist`) inside the generic
//! backend, which keeps everything else.

use hybrid_array::typenum::{U32, U48, U64};

use super::dhkem::DhKem;

#[cfg(not(feature = "aws-lc-rs"))]
macro_rules! backend {
    ($group:ident, $curve:ty, $alg:ident, $id:literal, $mask:literal, $hash:ty, $nsecret:ty) => {
        impl super::weierstrass::WeierstrassKem for $group {
            type Curve = $curve;
            const KEM_ID: u16 = $id;
            const BITMASK: u8 = $mask;
            type Hash = $hash;
            type NSecret = $nsecret;
            type Accel = accel!($alg);
        }
    };
}

/// The assembly backend of a curve: graviola's P-256 and P-384 under the `graviola` feature
/// (`crate::backend::graviola::nist`), RustCrypto's arithmetic alone otherwise and for P-521.
#[cfg(all(not(feature = "aws-lc-rs"), feature = "graviola"))]
macro_rules! accel {
    (ECDH_P256) => {
        crate::backend::graviola::nist::P256
    };
    (ECDH_P384) => {
        crate::backend::graviola::nist::P384
    };
    ($alg:ident) => {
        super::weierstrass::Portable
    };
}
#[cfg(all(not(feature = "aws-lc-rs"), not(feature = "graviola")))]
macro_rules! accel {
    ($alg:ident) => {
        super::weierstrass::Portable
    };
}

/// The group on aws-lc-rs: its scalar and point hold the bytes beside aws-lc's key and parsed
/// point. The candidates are drawn, derived and range-checked by the same functions as the
/// pure-Rust backend's, with RustCrypto's constant-time check against the group order, and only
/// then imported (except that for [`crate::OsRng`] aws-lc generates the key, which is then
/// range-checked the same way: `backend::aws_lc::dh::is_os_rng`); points are checked for the uncompressed
/// encoding here before aws-lc checks that they lie on the curve. There is no prepared table:
/// on these curves aws-lc's variable-base multiplication was measured faster than this crate's
/// table over RustCrypto arithmetic, so a prepared key multiplies as a plain one does.
#[cfg(feature = "aws-lc-rs")]
macro_rules! backend {
    ($group:ident, $curve:ty, $alg:ident, $id:literal, $mask:literal, $hash:ty, $nsecret:ty) => {
        // In a block of its own, for the size aliases.
        const _: () = {
            use hybrid_array::Array;
            use subtle::Choice;
            use zeroize::Zeroizing;

            use super::dhkem::DhGroup;
            use super::weierstrass::{derive_scalar, is_uncompressed, sample_scalar};
            use crate::Error;
            use crate::backend::aws_lc::dh::{
                Point, Scalar, generate_in_range, import_in_range, is_os_rng,
            };

            type NSk = elliptic_curve::FieldBytesSize<$curve>;
            type NPk = elliptic_curve::sec1::UncompressedPointSize<$curve>;

            impl DhGroup for $group {
                const KEM_ID: u16 = $id;
                type Hash = $hash;
                type NSecret = $nsecret;
                type NPk = elliptic_curve::sec1::UncompressedPointSize<$curve>;
                type NSk = elliptic_curve::FieldBytesSize<$curve>;
                type NDh = elliptic_curve::FieldBytesSize<$curve>;
                type Scalar = Scalar<NSk>;
                type Point = Point<NPk>;
                type Table = ();
                type Engine = Self;
            }

            impl crate::sealed::DhEngine<$group> for $group {
                fn random_scalar<R: rand_core::CryptoRng + ?Sized>(
                    rng: &mut R,
                ) -> Option<Scalar<NSk>> {
                    // The operating system's generator lets aws-lc make the key itself, in one
                    // base-point multiplication instead of two (`backend::aws_lc::dh::is_os_rng`).
                    if is_os_rng(rng) {
                        return generate_in_range::<$curve>(&aws_lc_rs::agreement::$alg);
                    }
                    sample_scalar::<$curve, _, _>(rng, $mask, |bytes| {
                        import_in_range::<$curve>(&aws_lc_rs::agreement::$alg, bytes)
                    })
                }

                fn derive_scalar(
                    suite_id: &[u8],
                    dkp_prk: &crate::labeled::Expander<$hash>,
                ) -> Result<Scalar<NSk>, Error> {
                    derive_scalar::<$curve, _, _>(suite_id, dkp_prk, $mask, |bytes| {
                        import_in_range::<$curve>(&aws_lc_rs::agreement::$alg, bytes)
                    })
                }

                fn scalar_from_bytes(bytes: &[u8]) -> Result<Scalar<NSk>, Error> {
                    let bytes = hybrid_array::Array::try_from(bytes)
                        .map_err(|_| Error::InvalidPrivateKey)?;
                    import_in_range::<$curve>(&aws_lc_rs::agreement::$alg, &bytes)
                        .ok_or(Error::InvalidPrivateKey)
                }

                fn scalar_to_bytes(sk: &Scalar<NSk>) -> Zeroizing<Array<u8, NSk>> {
                    Zeroizing::new(sk.bytes().clone())
                }

                fn scalar_ct_eq(a: &Scalar<NSk>, b: &Scalar<NSk>) -> Choice {
                    a.ct_eq(b)
                }

                fn public(sk: &Scalar<NSk>) -> (Point<NPk>, Array<u8, NPk>) {
                    sk.public(&aws_lc_rs::agreement::$alg)
                }

                fn point_from_bytes(bytes: &[u8]) -> Result<Point<NPk>, Error> {
                    // Uncompressed, Npk bytes (§7.1.1); aws-lc then checks the point is on the
                    // curve (an uncompressed encoding is never the identity, §7.1.4).
                    if !is_uncompressed::<NPk>(bytes) {
                        return Err(Error::InvalidPublicKey);
                    }
                    Point::parse(&aws_lc_rs::agreement::$alg, bytes)
                }

                fn dh(sk: &Scalar<NSk>, pk: &Point<NPk>, out: &mut Array<u8, NSk>) -> Choice {
                    // The x-coordinate of sk·pk, Ndh bytes (aws-lc pads it as SEC1 §3.3.1 does).
                    sk.agree(pk, out)
                }

                fn prepare(_: &Point<NPk>) {}

                fn table_heap_size((): &()) -> usize {
                    0
                }

                fn dh_prepared(
                    sk: &Scalar<NSk>,
                    pk: &Point<NPk>,
                    (): &(),
                    out: &mut Array<u8, NSk>,
                ) -> Choice {
                    Self::dh(sk, pk, out)
                }
            }
        };
    };
}

macro_rules! nist_kem {
    ($(#[$gdoc:meta])* $group:ident, $(#[$kdoc:meta])* $kem:ident,
     $curve:ty, $alg:ident, $id:literal, $mask:literal, $hash:ty, $nsecret:ty) => {
        $(#[$gdoc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $group;

        $(#[$kdoc])*
        pub type $kem = DhKem<$group>;

        impl crate::sealed::Sealed for $group {}

        backend!($group, $curve, $alg, $id, $mask, $hash, $nsecret);

        impl crate::PublicKey<$kem> {
            /// A public key from SEC 1 §2.3.3's *compressed* encoding (`0x02` or `0x03`, then
            /// the x-coordinate): decompressed (SEC 1 §2.3.4), then validated exactly as
            /// [`Self::from_bytes`] validates the uncompressed form RFC 9180 §7.1.1 uses.
            /// Formats that print keys compressed (age's `age1tag` recipients) come in here.
            ///
            /// # Errors
            /// [`crate::Error::InvalidPublicKey`] for any other length or first byte, or an
            /// x-coordinate with no point on the curve.
            pub fn from_sec1_compressed(bytes: &[u8]) -> Result<Self, crate::Error> {
                use elliptic_curve::sec1::{CompressedPointSize, ToSec1Point as _};
                let compressed_len =
                    <CompressedPointSize<$curve> as hybrid_array::typenum::Unsigned>::USIZE;
                if bytes.len() != compressed_len || !matches!(bytes[0], 0x02 | 0x03) {
                    return Err(crate::Error::InvalidPublicKey);
                }
                let point = elliptic_curve::PublicKey::<$curve>::from_sec1_bytes(bytes)
                    .map_err(|_| crate::Error::InvalidPublicKey)?;
                Self::from_bytes(point.to_sec1_point(false).as_bytes())
            }

            /// The key in SEC 1 §2.3.3's compressed encoding: the parity byte and the
            /// x-coordinate.
            pub fn to_sec1_compressed(
                &self,
            ) -> hybrid_array::Array<u8, elliptic_curve::sec1::CompressedPointSize<$curve>> {
                let uncompressed = self.as_bytes();
                let (x, y) = uncompressed[1..].split_at((uncompressed.len() - 1) / 2);
                let mut out = hybrid_array::Array::<
                    u8,
                    elliptic_curve::sec1::CompressedPointSize<$curve>,
                >::default();
                out[0] = 0x02 | (y[y.len() - 1] & 1);
                out[1..].copy_from_slice(x);
                out
            }
        }
    };
}

nist_kem!(
    /// The NIST P-256 group. The KEM is [`DhKemP256HkdfSha256`].
    P256,
    /// DHKEM(P-256, HKDF-SHA256), `kem_id` 0x0010: Nsecret 32, Nenc 65, Npk 65, Nsk 32.
    DhKemP256HkdfSha256, p256::NistP256, ECDH_P256, 0x0010, 0xff, sha2::Sha256, U32
);
nist_kem!(
    /// The NIST P-384 group. The KEM is [`DhKemP384HkdfSha384`].
    P384,
    /// DHKEM(P-384, HKDF-SHA384), `kem_id` 0x0011: Nsecret 48, Nenc 97, Npk 97, Nsk 48.
    DhKemP384HkdfSha384, p384::NistP384, ECDH_P384, 0x0011, 0xff, sha2::Sha384, U48
);
nist_kem!(
    /// The NIST P-521 group. The KEM is [`DhKemP521HkdfSha512`].
    P521,
    /// DHKEM(P-521, HKDF-SHA512), `kem_id` 0x0012: Nsecret 64, Nenc 133, Npk 133, Nsk 66.
    DhKemP521HkdfSha512, p521::NistP521, ECDH_P521, 0x0012, 0x01, sha2::Sha512, U64
);
