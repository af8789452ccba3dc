//! The aws-lc-rs backend for the classical Diffie-Hellman groups (feature `aws-lc-rs`).
//!
//! With the feature on, X25519, P-256, P-384 and P-521 key generation and `DH` run on aws-lc-rs.
//! What makes the KEM correct stays in this crate and does not lean on aws-lc: the scalars are
//! drawn, derived (RFC 9180 §7.1.3, rejection sampling included) and range-checked here
//! and then imported (one exception: given [`crate::OsRng`], a NIST scalar is made by aws-lc's
//! own key generation and then range-checked here, see [`is_os_rng`]); public keys are
//! validated here before aws-lc parses them (§7.1.1 encoding, §7.1.4 validation); the X25519
//! all-zero check (§7.1.4) is made here on aws-lc's output. Every error is therefore the one
//! the pure-Rust backend gives for the same input (`tests/backend_errors.rs` pins that under both
//! backends).
//!
//! Secrets: a [`Scalar`] keeps its bytes in a wiped buffer beside aws-lc's key; aws-lc frees its
//! keys with `OPENSSL_free`, which cleanses the memory; the shared secret aws-lc-rs hands over
//! lives in a `Zeroizing` buffer of its own and is copied once into the caller's wiped buffer.

use core::fmt;
use core::mem::{align_of, size_of};

use aws_lc_rs::agreement::{self, Algorithm, ParsedPublicKey, PrivateKey, UnparsedPublicKey};
use hybrid_array::{Array, ArraySize};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::layout::{Fill, lead};

use crate::Error;

/// A secret scalar: its bytes (the serialized private key: as given for X25519, which aws-lc
/// clamps inside; big-endian and in `[1, n)` for the NIST curves) and the same scalar imported
/// into aws-lc-rs.
#[doc(hidden)]
pub struct Scalar<N: ArraySize> {
    bytes: Zeroizing<Array<u8, N>>,
    /// `None` once wiped: a wiped scalar agrees on nothing.
    key: Option<PrivateKey>,
}

/// A clone imports the scalar again (aws-lc-rs keys are not `Clone`); cloning a private key is
/// rare, and sharing one aws-lc key between clones would cost an allocation on every key made.
impl<N: ArraySize> Clone for Scalar<N> {
    fn clone(&self) -> Self {
        match &self.key {
            Some(key) => Self::import(key.algorithm(), self.bytes.clone()),
            None => Self {
                bytes: self.bytes.clone(),
                key: None,
            },
        }
    }
}

impl<N: ArraySize> fmt::Debug for Scalar<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Scalar(<redacted>)")
    }
}

impl<N: ArraySize> Zeroize for Scalar<N> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
        self.key = None;
    }
}

impl<N: ArraySize> Scalar<N> {
    /// Imports `bytes`, a scalar the caller has already checked (any X25519 string, or in
    /// `[1, n)`).
    pub(crate) fn import(alg: &'static Algorithm, bytes: Zeroizing<Array<u8, N>>) -> Self {
        // aws-lc-rs refuses only a wrong length or a scalar outside [1, n), both excluded by
        // the caller; what remains is aws-lc failing to allocate, where Rust's own allocator
        // would abort as well.
        let key = PrivateKey::from_private_key(alg, &bytes[..])
            .expect("aws-lc-rs imports every checked scalar of the right length");
        Self {
            bytes,
            key: Some(key),
        }
    }

    /// The serialized scalar.
    pub(crate) fn bytes(&self) -> &Array<u8, N> {
        &self.bytes
    }

    /// `ct_eq` on the serialized scalars.
    pub(crate) fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.as_slice().ct_eq(other.bytes.as_slice())
    }

    /// `pk(sk)`: the public point (parsed by aws-lc on first use) and its serialization.
    pub(crate) fn public<M: ArraySize>(&self, alg: &'static Algorithm) -> (Point<M>, Array<u8, M>) {
        let key = self
            .key
            .as_ref()
            .expect("public keys are computed from fresh scalars, never from wiped ones");
        // aws-lc computed the public key when the scalar was imported; this serializes it.
        let public = key
            .compute_public_key()
            .expect("aws-lc-rs serializes the public key it holds");
        let bytes = Array::try_from(public.as_ref())
            .expect("aws-lc-rs serializes a public key in Npk bytes (uncompressed SEC1 or X25519)");
        // Not parsed: this point stays in the private key, whose `DH` never takes it as the
        // peer; a public key made from it is parsed as it is made (`Point::clone`).
        let point = Point {
            alg,
            bytes: bytes.clone(),
            parsed: Parsed::NO,
        };
        (point, bytes)
    }

    /// `DH(sk, pk)` into `out`: whether aws-lc computed it (it refuses an all-zero X25519
    /// output and, on the NIST curves, the point at infinity). `out` is left as it was when
    /// it did not.
    pub(crate) fn agree<M: ArraySize, D: ArraySize>(
        &self,
        pk: &Point<M>,
        out: &mut Array<u8, D>,
    ) -> Choice {
        let (Some(key), Some(peer)) = (self.key.as_ref(), pk.parsed()) else {
            return Choice::from(0);
        };
        let done = agreement::agree(key, peer, (), |dh| {
            if dh.len() != out.len() {
                return Err(());
            }
            out.copy_from_slice(dh);
            Ok(())
        });
        Choice::from(u8::from(done.is_ok()))
    }
}

/// A public point: its serialization, validated, and aws-lc's parsed form of it, made when the
/// bytes are deserialized or when a public key is made from a private key's (a clone of the
/// point that private key keeps, which is never parsed: see [`Parsed`]).
#[doc(hidden)]
pub struct Point<M: ArraySize> {
    alg: &'static Algorithm,
    bytes: Array<u8, M>,
    parsed: Parsed,
}

/// aws-lc's parsed key, or zeros where it would be: every byte is written whichever the variant
/// (`crate::layout`). It was a `OnceLock`, filled on the first `DH`; an empty `OnceLock`'s slot
/// is `MaybeUninit`, and the private key's own point, never taken as a `DH` peer, carried 32
/// bytes of whatever the stack held where the key was built, an X25519 scalar's copy among them
/// (`tests/zeroize_observed.rs`, `dh_private_keys` and `no_stale_bytes`).
#[repr(u8)]
#[allow(dead_code, reason = "the fill is written, never read")]
enum Parsed {
    No(Fill<PARSED_LEAD>, Fill<PARSED_SIZE>),
    Yes(Fill<PARSED_LEAD>, ParsedPublicKey),
}

const PARSED_LEAD: usize = lead(align_of::<ParsedPublicKey>());
const PARSED_SIZE: usize = size_of::<ParsedPublicKey>();
const _: () = assert!(size_of::<Parsed>() == 1 + PARSED_LEAD + PARSED_SIZE);

impl Parsed {
    const NO: Self = Self::No(Fill::ZERO, Fill::ZERO);

    /// aws-lc's parse of `bytes`; `No` only if aws-lc refuses a key it serialized itself, which
    /// it does not (a `DH` with it then fails as the parse does).
    fn of(alg: &'static Algorithm, bytes: &[u8]) -> Self {
        match parse(alg, bytes) {
            Some(parsed) => Self::Yes(Fill::ZERO, parsed),
            None => Self::NO,
        }
    }
}

/// aws-lc's parse of a public key's serialization (its own checks: the point on the curve).
fn parse(alg: &'static Algorithm, bytes: &[u8]) -> Option<ParsedPublicKey> {
    ParsedPublicKey::try_from(&UnparsedPublicKey::new(alg, bytes)).ok()
}

/// A clone of a point that is not parsed (a private key's own, for the public key made from
/// it) is parsed here, once for the public key's life.
impl<M: ArraySize> Clone for Point<M> {
    fn clone(&self) -> Self {
        let parsed = match &self.parsed {
            Parsed::Yes(_, parsed) => Parsed::Yes(Fill::ZERO, parsed.clone()),
            Parsed::No(..) => Parsed::of(self.alg, &self.bytes[..]),
        };
        Self {
            alg: self.alg,
            bytes: self.bytes.clone(),
            parsed,
        }
    }
}

impl<M: ArraySize> fmt::Debug for Point<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Point")
            .field(&crate::util::Hex(&self.bytes))
            .finish()
    }
}

impl<M: ArraySize> Point<M> {
    /// Parses `bytes`, which the caller has validated as the pure-Rust backend does; aws-lc's own
    /// checks (the point on the curve) must agree, and a refusal is
    /// [`Error::InvalidPublicKey`] either way.
    pub(crate) fn parse(alg: &'static Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        let bytes = Array::try_from(bytes).map_err(|_| Error::InvalidPublicKey)?;
        let parsed = parse(alg, &bytes[..]).ok_or(Error::InvalidPublicKey)?;
        Ok(Self {
            alg,
            bytes,
            parsed: Parsed::Yes(Fill::ZERO, parsed),
        })
    }

    /// The serialization.
    #[cfg_attr(
        not(all(feature = "x25519", feature = "alloc", feature = "precomputed-tables")),
        allow(dead_code, reason = "X25519's prepared table")
    )]
    pub(crate) fn bytes(&self) -> &Array<u8, M> {
        &self.bytes
    }

    /// aws-lc's parsed key, by value as `agree` takes it (a reference count and a copy of the
    /// public bytes); parsed here for a point that was not. `None` only if aws-lc refuses a key
    /// it serialized itself, which it does not.
    fn parsed(&self) -> Option<ParsedPublicKey> {
        match &self.parsed {
            Parsed::Yes(_, parsed) => Some(parsed.clone()),
            Parsed::No(..) => parse(self.alg, &self.bytes[..]),
        }
    }
}

/// Whether `rng` is [`crate::OsRng`], the operating system's generator (or hands its requests
/// to one). For it the NIST curves make a fresh scalar with aws-lc's own key generation
/// ([`generate_in_range`]) instead of drawing one from `rng` and importing it
/// ([`import_in_range`]): aws-lc's generator is seeded from the operating system as well, and the
/// import costs a second base-point multiplication (aws-lc-rs runs aws-lc's pairwise check on
/// every imported key), so a sender setup is about a third faster. Any other generator, seeded
/// ones in particular, keeps the drawn-and-imported path, so what it produces is the same under
/// both backends.
///
/// The generator is asked, not named: an empty request, which draws nothing from any generator,
/// reaches `OsRng`'s `try_fill_bytes` only through `OsRng` itself, a reference to it, a `dyn`
/// of it or a wrapper that forwards to it, and `OsRng` notes it on this thread
/// ([`os_rng_asked`]). So no type name is compared and no type need be `'static`.
#[cfg(all(feature = "nist", feature = "getrandom"))]
pub(crate) fn is_os_rng<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> bool {
    OS_RNG_ASKED.set(false);
    rng.fill_bytes(&mut []);
    OS_RNG_ASKED.replace(false)
}

/// Without the `getrandom` feature there is no [`crate::OsRng`]: every scalar is drawn.
#[cfg(all(feature = "nist", not(feature = "getrandom")))]
pub(crate) fn is_os_rng<R: rand_core::CryptoRng + ?Sized>(_: &mut R) -> bool {
    false
}

#[cfg(all(feature = "nist", feature = "getrandom"))]
std::thread_local! {
    /// Set by [`crate::OsRng`] when it is asked for no bytes, read by [`is_os_rng`].
    static OS_RNG_ASKED: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// [`crate::OsRng`] was asked for no bytes ([`is_os_rng`]).
#[cfg(all(feature = "nist", feature = "getrandom"))]
pub(crate) fn os_rng_asked() {
    OS_RNG_ASKED.set(true);
}

/// A fresh NIST scalar from aws-lc's own key generation (`PrivateKey::generate`: one base-point
/// multiplication, no pairwise check), for [`crate::OsRng`] only (see [`is_os_rng`]). Its bytes
/// are read back from aws-lc (a buffer aws-lc-rs wipes on drop) into the scalar's wiped buffer
/// and pass the same range check as every drawn or derived scalar, so nothing this crate hands
/// out rests on aws-lc alone. `None` if aws-lc fails, which it does only when it cannot allocate.
#[cfg(feature = "nist")]
pub(crate) fn generate_in_range<C: elliptic_curve::CurveArithmetic>(
    alg: &'static Algorithm,
) -> Option<Scalar<elliptic_curve::FieldBytesSize<C>>> {
    use aws_lc_rs::encoding::{AsBigEndian, EcPrivateKeyBin};

    let key = PrivateKey::generate(alg).ok()?;
    let exported: EcPrivateKeyBin<'static> = key.as_be_bytes().ok()?;
    let mut bytes = Zeroizing::new(elliptic_curve::FieldBytes::<C>::default());
    if exported.as_ref().len() != bytes.len() {
        return None;
    }
    bytes.copy_from_slice(exported.as_ref());
    drop(exported);
    in_range::<C>(&bytes).then(|| Scalar {
        bytes,
        key: Some(key),
    })
}

/// A NIST scalar from `bytes` if they are in `[1, n)`: the range check is RustCrypto's, in
/// constant time, the one the pure-Rust backend makes; only a scalar in range reaches aws-lc.
#[cfg(feature = "nist")]
pub(crate) fn import_in_range<C: elliptic_curve::CurveArithmetic>(
    alg: &'static Algorithm,
    bytes: &elliptic_curve::FieldBytes<C>,
) -> Option<Scalar<elliptic_curve::FieldBytesSize<C>>> {
    in_range::<C>(bytes).then(|| Scalar::import(alg, Zeroizing::new(*bytes)))
}

/// Whether `bytes` is a scalar in `[1, n)`: RustCrypto's constant-time check, then the one
/// declassified bit (whether to use the scalar or draw or derive again).
#[cfg(feature = "nist")]
fn in_range<C: elliptic_curve::CurveArithmetic>(bytes: &elliptic_curve::FieldBytes<C>) -> bool {
    let in_range = elliptic_curve::NonZeroScalar::<C>::from_repr(*bytes).is_some();
    crate::declassify::scalar_in_range(in_range)
}

#[cfg(all(test, feature = "nist", feature = "getrandom"))]
mod tests {
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::SeedableRng;
    use rand_core::CryptoRng;

    use super::is_os_rng;
    use crate::OsRng;

    /// The operating system's generator lets aws-lc draw however it is passed, and so does a
    /// wrapper that forwards to it; a seeded generator, the multi-recipient seal's and a
    /// wrapper that keeps its requests are drawn from.
    #[test]
    fn only_os_rng_lets_aws_lc_draw() {
        use rand_core::{TryCryptoRng, TryRng};

        /// Draws from `OsRng`; hands it an empty request too if `.1`, answers it itself if not.
        struct Wrapper(OsRng, bool);
        impl TryRng for Wrapper {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                self.0.try_next_u32()
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                self.0.try_next_u64()
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                if dst.is_empty() && !self.1 {
                    return Ok(());
                }
                self.0.try_fill_bytes(dst)
            }
        }
        impl TryCryptoRng for Wrapper {}

        assert!(is_os_rng(&mut OsRng::default()));
        assert!(is_os_rng(&mut &mut OsRng::default()));
        assert!(is_os_rng(&mut OsRng::default() as &mut dyn CryptoRng));
        assert!(is_os_rng(&mut Wrapper(OsRng::default(), true)));
        assert!(!is_os_rng(&mut Wrapper(OsRng::default(), false)));
        assert!(!is_os_rng(&mut ChaCha20Rng::from_seed([7; 32])));
        assert!(!is_os_rng(&mut crate::rng::XofRng::new(&[7; 32])));
        assert!(!is_os_rng(&mut rand_core::UnwrapErr(getrandom::SysRng)));
        // The note does not outlive the question.
        assert!(is_os_rng(&mut OsRng::default()));
        assert!(!is_os_rng(&mut ChaCha20Rng::from_seed([7; 32])));
    }
}
