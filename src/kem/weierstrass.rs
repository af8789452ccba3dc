//! DH-KEMs over prime-order short Weierstrass curves (P-256, P-384, P-521, secp256k1):
//! RFC 9180 §7.1.1 (uncompressed SEC1 keys), §7.1.2, §7.1.3 (rejection sampling), §7.1.4.

use crate::labeled::Expander;
use elliptic_curve::group::{Curve as _, Group as _};
use elliptic_curve::point::AffineCoordinates;
use elliptic_curve::sec1::{FromSec1Point, ModulusSize, ToSec1Point, UncompressedPointSize};
use elliptic_curve::{
    AffinePoint, CurveArithmetic, FieldBytes, FieldBytesSize, NonZeroScalar, PrimeField,
    ProjectivePoint,
};
use hkdf::hmac::EagerHash;
use hybrid_array::typenum::Unsigned as _;
use hybrid_array::{Array, ArraySize};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::dhkem::{DhGroup, expand_candidate};
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
    /// The assembly backend of the curve's multiplications (graviola's P-256 and P-384 under
    /// the `graviola` feature), or [`Portable`]: RustCrypto's arithmetic alone.
    type Accel: Accel<Self::Curve>;
}

/// A backend that computes a curve's public keys and Diffie-Hellman outputs in place of
/// RustCrypto's arithmetic, on the CPUs where it can run. Everything else (sampling,
/// derivation, range checks, public key validation) stays RustCrypto's, so the keys, the errors
/// and the outputs are the same with it and without it.
#[doc(hidden)]
// Public for `Prepared`'s bound, which only an `alloc` build has: Rust 1.94 reports the trait
// unreachable without it (later versions do not).
#[cfg_attr(not(feature = "alloc"), allow(unreachable_pub))]
pub trait Accel<C: CurveArithmetic> {
    /// `false` for [`Portable`]: the calls below are then never made, nor their inputs built.
    const ENABLED: bool;
    /// Whether `public_point` is worth calling: `false` where RustCrypto's precomputed
    /// base-point tables are faster than the backend's base-point multiplication (graviola's
    /// P-384).
    const PUBLIC: bool;
    /// The backend's parsed public key, with whatever it precomputes for multiplying it.
    type Parsed: Clone + Send + Sync;
    /// `pk(sk)` as an uncompressed SEC1 point into `out`, for a scalar in `[1, n)`; `false` if
    /// the backend cannot run on this CPU (then `out` is as it was).
    fn public_point(sk: &FieldBytes<C>, out: &mut [u8]) -> bool;
    /// Parses a point already validated by RustCrypto; `None` if the backend cannot run on
    /// this CPU.
    fn parse(uncompressed: &[u8]) -> Option<Self::Parsed>;
    /// `DH(sk, pk)`, the x-coordinate of `sk·pk`, into `out`, and whether it was computed.
    fn agree(sk: &FieldBytes<C>, pk: &Self::Parsed, out: &mut FieldBytes<C>) -> Choice;
}

/// No assembly backend: RustCrypto's arithmetic computes everything.
#[doc(hidden)]
#[derive(Debug)]
#[cfg_attr(
    all(feature = "aws-lc-rs", not(feature = "secp256k1")),
    allow(dead_code, unreachable_pub, reason = "aws-lc computes the NIST curves")
)]
pub struct Portable;

impl<C: CurveArithmetic> Accel<C> for Portable {
    const ENABLED: bool = false;
    const PUBLIC: bool = false;
    type Parsed = core::convert::Infallible;
    fn public_point(_: &FieldBytes<C>, _: &mut [u8]) -> bool {
        false
    }
    fn parse(_: &[u8]) -> Option<Self::Parsed> {
        None
    }
    fn agree(_: &FieldBytes<C>, pk: &Self::Parsed, _: &mut FieldBytes<C>) -> Choice {
        match *pk {}
    }
}

/// A prepared public key: the backend's parsed key where it runs, else the fixed-window table
/// over RustCrypto's arithmetic.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub enum Prepared<C: CurveArithmetic, A: Accel<C>> {
    Accel(alloc::boxed::Box<A::Parsed>),
    Table(table::Table<C>),
}

#[cfg(feature = "alloc")]
impl<C: CurveArithmetic, A: Accel<C>> core::fmt::Debug for Prepared<C, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Accel(_) => f.write_str("Prepared::Accel"),
            Self::Table(table) => f.debug_tuple("Prepared::Table").field(table).finish(),
        }
    }
}

#[cfg(feature = "alloc")]
impl<C: CurveArithmetic, A: Accel<C>> Clone for Prepared<C, A> {
    fn clone(&self) -> Self {
        match self {
            Self::Accel(parsed) => Self::Accel(parsed.clone()),
            Self::Table(table) => Self::Table(table.clone()),
        }
    }
}

/// SerializePublicKey (§7.1.1) of a point that is not the identity: 0x04 || x || y. Written
/// from the coordinates rather than through `to_sec1_point`, whose tag byte is chosen in
/// constant time between the identity's and a point's and then branched on to find the length.
fn uncompressed<C: CurveArithmetic>(point: &AffinePoint<C>) -> Array<u8, UncompressedPointSize<C>>
where
    FieldBytesSize<C>: ModulusSize,
{
    let (x, y) = (point.x(), point.y());
    Array::from_fn(|i| match i {
        0 => SEC1_UNCOMPRESSED,
        i if i <= x.len() => x[i - 1],
        i => y[i - 1 - x.len()],
    })
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
    #[cfg(feature = "alloc")]
    type Table = Prepared<W::Curve, W::Accel>;
    #[cfg(not(feature = "alloc"))]
    type Table = ();
    type Engine = Self;
}

impl<W> DhEngine<W> for W
where
    W: WeierstrassKem,
    FieldBytesSize<W::Curve>: ModulusSize,
    AffinePoint<W::Curve>: FromSec1Point<W::Curve> + ToSec1Point<W::Curve>,
{
    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Option<<Self as DhGroup>::Scalar> {
        sample_scalar::<W::Curve, _, _>(rng, W::BITMASK, nonzero_scalar::<W::Curve>)
    }

    fn derive_scalar(
        suite_id: &[u8],
        dkp_prk: &Expander<W::Hash>,
    ) -> Result<<Self as DhGroup>::Scalar, Error> {
        derive_scalar::<W::Curve, _, _>(suite_id, dkp_prk, W::BITMASK, nonzero_scalar::<W::Curve>)
    }

    fn scalar_from_bytes(bytes: &[u8]) -> Result<<Self as DhGroup>::Scalar, Error> {
        let repr = Array::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)?;
        nonzero_scalar::<W::Curve>(&repr).ok_or(Error::InvalidPrivateKey)
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
        if W::Accel::PUBLIC {
            let mut bytes = Array::<u8, UncompressedPointSize<W::Curve>>::default();
            if W::Accel::public_point(&Zeroizing::new(sk.to_repr()), &mut bytes) {
                // The backend's point, read into RustCrypto's form and checked on the curve in
                // constant time (its coordinates are as secret as the key until published);
                // were it refused, the portable code below computes it again.
                bytes[0] = SEC1_UNCOMPRESSED;
                let n = FieldBytesSize::<W::Curve>::USIZE;
                let (x, y) = (&bytes[1..=n], &bytes[1 + n..]);
                let (x, y) = (
                    FieldBytes::<W::Curve>::try_from(x).unwrap_or_default(),
                    FieldBytes::<W::Curve>::try_from(y).unwrap_or_default(),
                );
                let sec1 = elliptic_curve::sec1::Sec1Point::<W::Curve>::from_affine_coordinates(
                    &x, &y, false,
                );
                let point = AffinePoint::<W::Curve>::from_sec1_point(&sec1);
                let valid = Choice::from(u8::from(bool::from(point.is_some())));
                let point = point.unwrap_or(AffinePoint::<W::Curve>::default());
                if crate::declassify::computed_point_valid(valid) {
                    return (point, bytes);
                }
            }
        }
        let point = ProjectivePoint::<W::Curve>::mul_by_generator(sk).to_affine();
        // SerializePublicKey (§7.1.1); the point is never the identity (sk is in [1, n)).
        let bytes = uncompressed::<W::Curve>(&point);
        (point, bytes)
    }

    fn point_from_bytes(bytes: &[u8]) -> Result<<Self as DhGroup>::Point, Error> {
        if !is_uncompressed::<<Self as DhGroup>::NPk>(bytes) {
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
        if W::Accel::ENABLED
            && let Some(parsed) = W::Accel::parse(&uncompressed::<W::Curve>(pk))
        {
            return W::Accel::agree(&Zeroizing::new(sk.to_repr()), &parsed, out);
        }
        // DH(sk, pk) is the x-coordinate of sk·pk, Ndh bytes. The product is as secret as the
        // DH output and is wiped.
        // The scalar is borrowed, not copied out of its `NonZeroScalar`.
        let shared = Zeroizing::new(ProjectivePoint::<W::Curve>::from(*pk) * sk.as_ref());
        x_coordinate::<W::Curve>(&shared, out)
    }

    #[cfg(feature = "alloc")]
    fn prepare(pk: &<Self as DhGroup>::Point) -> <Self as DhGroup>::Table {
        if W::Accel::ENABLED
            && let Some(parsed) = W::Accel::parse(&uncompressed::<W::Curve>(pk))
        {
            return Prepared::Accel(alloc::boxed::Box::new(parsed));
        }
        Prepared::Table(table::Table::new(pk))
    }

    #[cfg(not(feature = "alloc"))]
    fn prepare(_: &<Self as DhGroup>::Point) -> <Self as DhGroup>::Table {}

    #[cfg(feature = "alloc")]
    fn table_heap_size(table: &<Self as DhGroup>::Table) -> usize {
        match table {
            Prepared::Accel(_) => core::mem::size_of::<<W::Accel as Accel<W::Curve>>::Parsed>(),
            Prepared::Table(table) => table.heap_size(),
        }
    }

    #[cfg(not(feature = "alloc"))]
    fn table_heap_size(_: &<Self as DhGroup>::Table) -> usize {
        0
    }

    fn dh_prepared(
        sk: &<Self as DhGroup>::Scalar,
        pk: &<Self as DhGroup>::Point,
        table: &<Self as DhGroup>::Table,
        out: &mut Array<u8, <Self as DhGroup>::NDh>,
    ) -> Choice {
        #[cfg(feature = "alloc")]
        {
            // The same x-coordinate as `dh`, from the backend's parsed key or with the product
            // summed from the table.
            let _ = pk;
            match table {
                Prepared::Accel(parsed) => {
                    W::Accel::agree(&Zeroizing::new(sk.to_repr()), parsed, out)
                }
                Prepared::Table(table) => x_coordinate::<W::Curve>(&table.mul(sk), out),
            }
        }
        #[cfg(not(feature = "alloc"))]
        {
            let () = table;
            Self::dh(sk, pk, out)
        }
    }
}

/// How many candidates [`sample_scalar`] draws before it gives up. A working generator is
/// refused with probability below 2^-32 per draw (P-256, whose order is closest to a power of
/// two above its top byte's mask), so only a broken one (all zeros, all ones, a constant) ever
/// reaches the bound; without it such a generator would hang `generate` and `encap` forever.
pub(super) const MAX_DRAWS: u32 = 10_000;

/// `GenerateKeyPair`'s scalar (RFC 9180 §4): a uniform scalar in `[1, n)`, by rejection sampling
/// over `Nsk` random bytes with the top byte masked as §7.1.3 masks `DeriveKeyPair`'s candidates;
/// `accept` makes the scalar from bytes in range and refuses the others. With the mask every curve
/// accepts a candidate with probability close to 1; without it P-521 (521 bits in 66 bytes)
/// would accept 1 in 128 (as `elliptic_curve`'s `NonZeroScalar::generate_from_rng` does). A
/// rejected candidate is independent of the accepted one, so the loop leaks nothing. `None`
/// after [`MAX_DRAWS`] refused candidates.
pub(super) fn sample_scalar<C: CurveArithmetic, R: CryptoRng + ?Sized, T>(
    rng: &mut R,
    bitmask: u8,
    mut accept: impl FnMut(&FieldBytes<C>) -> Option<T>,
) -> Option<T> {
    let mut bytes = Zeroizing::new(FieldBytes::<C>::default());
    (0..MAX_DRAWS).find_map(|_| {
        rng.fill_bytes(&mut bytes[..]);
        if let Some(first) = bytes.first_mut() {
            *first &= bitmask;
        }
        accept(&bytes)
    })
}

/// `DeriveKeyPair`'s scalar after `dkp_prk` (RFC 9180 §7.1.3); `accept` makes the scalar from a
/// candidate in range and refuses the others.
pub(super) fn derive_scalar<C: CurveArithmetic, H: EagerHash, T>(
    suite_id: &[u8],
    dkp_prk: &Expander<H>,
    bitmask: u8,
    mut accept: impl FnMut(&FieldBytes<C>) -> Option<T>,
) -> Result<T, Error> {
    // while sk == 0 or sk >= order:
    //   if counter > 255: raise DeriveKeyPairError
    //   bytes = LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), Nsk)
    //   bytes[0] = bytes[0] & bitmask
    //   sk = OS2IP(bytes)
    for counter in 0..=u8::MAX {
        let mut bytes = expand_candidate::<_, FieldBytesSize<C>>(
            dkp_prk,
            suite_id,
            Label::Candidate,
            &[counter],
        )?;
        if let Some(first) = bytes.first_mut() {
            *first &= bitmask;
        }
        if let Some(sk) = accept(&bytes) {
            return Ok(sk);
        }
    }
    Err(Error::DeriveKeyPair)
}

/// The scalar `bytes` encode if it is in `[1, n)`. Whether it is becomes public at
/// [`crate::declassify::scalar_in_range`]; the scalar itself is taken out of the `CtOption`
/// with a constant-time select, never a branch on the secret flag.
pub(super) fn nonzero_scalar<C: CurveArithmetic>(
    bytes: &FieldBytes<C>,
) -> Option<NonZeroScalar<C>> {
    let candidate = NonZeroScalar::<C>::from_repr(*bytes);
    // One, a public constant, stands in for an out-of-range candidate inside the select.
    let one = NonZeroScalar::<C>::new(<C::Scalar as elliptic_curve::Field>::ONE).into_option()?;
    crate::declassify::scalar_in_range(candidate.is_some()).then(|| candidate.unwrap_or(one))
}

/// `DeserializePublicKey`'s first check (§7.1.1): exactly `Npk` bytes with the uncompressed tag
/// (a SEC1 parser alone would also take compressed points and the identity encoding).
pub(super) fn is_uncompressed<NPk: hybrid_array::typenum::Unsigned>(bytes: &[u8]) -> bool {
    bytes.len() == NPk::USIZE && bytes.first() == Some(&SEC1_UNCOMPRESSED)
}

/// `DH(sk, pk)`'s output from the product `shared = sk·pk`: its x-coordinate (SEC1 §3.3.1),
/// `Ndh` bytes, into `out`, and whether the product is not the identity. The affine form is as
/// secret as the output and is wiped.
fn x_coordinate<C: CurveArithmetic>(
    shared: &ProjectivePoint<C>,
    out: &mut FieldBytes<C>,
) -> Choice {
    let affine = Zeroizing::new(shared.to_affine());
    *out = affine.x();
    // `group`'s Choice is not `subtle`'s; converted without branching on the secret.
    !Choice::from(u8::from(bool::from(shared.is_identity())))
}

/// The fixed-window table of a prepared Weierstrass public key.
#[cfg(feature = "alloc")]
mod table {
    use alloc::vec::Vec;

    use elliptic_curve::group::{Curve as _, CurveAffine, Group as _};
    use elliptic_curve::{AffinePoint, CurveArithmetic, FieldBytesSize, NonZeroScalar, PrimeField};
    use elliptic_curve::{ProjectivePoint, sec1::ModulusSize};
    use hybrid_array::typenum::Unsigned;
    use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
    use zeroize::Zeroizing;

    /// Entries per window: the multiples 1..=8 of the window's base (signed digits reach ±8).
    const ENTRIES: usize = 8;

    /// `[m · 16^j] P` for `m` in 1..=8, one window `j` per signed radix-16 digit of a scalar
    /// (`2·Nsk + 1` windows: two nibbles per byte and the final carry). `[k] P` is then the sum
    /// of one selected entry per window: no doublings, one mixed addition per digit.
    #[doc(hidden)]
    pub struct Table<C: CurveArithmetic> {
        windows: Vec<[AffinePoint<C>; ENTRIES]>,
    }

    impl<C: CurveArithmetic> core::fmt::Debug for Table<C> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("Table")
                .field("windows", &self.windows.len())
                .finish_non_exhaustive()
        }
    }

    impl<C: CurveArithmetic> Clone for Table<C> {
        fn clone(&self) -> Self {
            Self {
                windows: self.windows.clone(),
            }
        }
    }

    impl<C: CurveArithmetic> Table<C>
    where
        FieldBytesSize<C>: ModulusSize,
    {
        /// Builds the table of the public point `p` (nothing here is secret).
        pub(super) fn new(p: &AffinePoint<C>) -> Self {
            let count = 2 * FieldBytesSize::<C>::USIZE + 1;
            let mut projective = Vec::with_capacity(count * ENTRIES);
            let mut base = ProjectivePoint::<C>::from(*p);
            for _ in 0..count {
                let mut multiple = base;
                projective.push(multiple);
                for _ in 1..ENTRIES {
                    multiple += base;
                    projective.push(multiple);
                }
                // 16 · base = 2 · (8 · base)
                base = multiple.double();
            }
            // One field inversion for the whole table.
            let mut affine = alloc::vec![AffinePoint::<C>::default(); projective.len()];
            ProjectivePoint::<C>::batch_normalize(&projective, &mut affine);
            let windows = affine
                .chunks_exact(ENTRIES)
                .map(|w| core::array::from_fn(|m| w[m]))
                .collect();
            Self { windows }
        }

        /// The heap bytes the windows occupy.
        pub(super) fn heap_size(&self) -> usize {
            self.windows.len() * core::mem::size_of::<[AffinePoint<C>; ENTRIES]>()
        }

        /// `[k] P` in constant time: every window read whole, every entry selected by a mask.
        pub(super) fn mul(&self, k: &NonZeroScalar<C>) -> Zeroizing<ProjectivePoint<C>> {
            let repr = Zeroizing::new(k.to_repr());
            let mut acc = Zeroizing::new(ProjectivePoint::<C>::identity());
            let mut windows = self.windows.iter();
            // Signed digits in [-8, 8), least significant first, with the carry moved up.
            let mut carry = 0i8;
            let mut add = |window: Option<&[AffinePoint<C>; ENTRIES]>, digit: i8| {
                if let Some(window) = window {
                    let entry = select::<C>(window, digit);
                    *acc += &*entry;
                }
            };
            for byte in repr.iter().rev() {
                for nibble in [byte & 0x0f, byte >> 4] {
                    // `nibble + carry` is in 0..=16; at 8 and above it becomes
                    // `nibble + carry - 16` with a carry of one.
                    #[allow(clippy::cast_possible_wrap)]
                    let value = nibble as i8 + carry;
                    carry = (value + 8) >> 4;
                    add(windows.next(), value - (carry << 4));
                }
            }
            add(windows.next(), carry);
            acc
        }
    }

    /// `[digit] · window[0]` for `digit` in -8..=8, in constant time: every entry is read and
    /// the match is kept by a mask; the sign is applied by a conditional negation.
    fn select<C: CurveArithmetic>(
        window: &[AffinePoint<C>; ENTRIES],
        digit: i8,
    ) -> Zeroizing<AffinePoint<C>> {
        let sign = digit >> 7; // 0 or -1
        #[allow(clippy::cast_sign_loss)]
        let magnitude = ((digit ^ sign) - sign) as u8;
        let mut point = Zeroizing::new(<AffinePoint<C> as CurveAffine>::identity());
        for (m, entry) in (1u8..).zip(window) {
            point.conditional_assign(entry, magnitude.ct_eq(&m));
        }
        let negated = Zeroizing::new(-*point);
        #[allow(clippy::cast_sign_loss)]
        point.conditional_assign(&negated, Choice::from((sign & 1) as u8));
        point
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use elliptic_curve::Field as _;
    use elliptic_curve::group::{Curve as _, Group as _};
    use elliptic_curve::ops::Reduce;
    use elliptic_curve::sec1::ModulusSize;
    use elliptic_curve::{
        AffinePoint, CurveArithmetic, FieldBytes, FieldBytesSize, NonZeroScalar, ProjectivePoint,
        Scalar,
    };

    use super::table::Table;

    /// The table's sum equals the plain multiplication for scalars at the edges of the signed
    /// recoding: the smallest, the largest (n - 1 and below, whose top digits carry), every
    /// nibble 7, 8 or 15 (each digit at its bound, with and without carries), single bits, and
    /// pseudo-random ones; on the generator and on another point.
    fn edges<C: CurveArithmetic>()
    where
        FieldBytesSize<C>: ModulusSize,
        Scalar<C>: Reduce<FieldBytes<C>>,
    {
        let g = ProjectivePoint::<C>::generator();
        let points = [g, g * Scalar::<C>::from(0x1234_5678u64)];
        let mut scalars: alloc::vec::Vec<Scalar<C>> = alloc::vec::Vec::new();
        for i in 1..=17u64 {
            scalars.push(Scalar::<C>::from(i));
            scalars.push(-Scalar::<C>::from(i));
        }
        for byte in [0x77u8, 0x78, 0x88, 0x87, 0xff, 0x80, 0x08, 0xf8] {
            let repr = FieldBytes::<C>::from_fn(|_| byte);
            scalars.push(<Scalar<C> as Reduce<FieldBytes<C>>>::reduce(&repr));
        }
        let mut bit = Scalar::<C>::from(1u64);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..64 {
            scalars.push(bit);
            bit = bit.double();
            for _ in 0..3 {
                bit = bit.double();
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let repr = FieldBytes::<C>::from_fn(|i| (x >> ((i % 8) * 8)) as u8 ^ i as u8);
            scalars.push(<Scalar<C> as Reduce<FieldBytes<C>>>::reduce(&repr));
        }
        for p in points {
            let table = Table::<C>::new(&p.to_affine());
            for k in &scalars {
                let Some(nz) = NonZeroScalar::<C>::new(*k).into_option() else {
                    continue;
                };
                let expected: AffinePoint<C> = (p * *k).to_affine();
                assert_eq!(table.mul(&nz).to_affine(), expected);
            }
        }
    }

    #[cfg(feature = "nist")]
    #[test]
    fn table_edges_nist() {
        edges::<p256::NistP256>();
        edges::<p384::NistP384>();
        edges::<p521::NistP521>();
    }

    #[cfg(feature = "secp256k1")]
    #[test]
    fn table_edges_secp256k1() {
        edges::<k256::Secp256k1>();
    }
}
