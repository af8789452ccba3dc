//! The generators: [`OsRng`], the operating system's, and the per-recipient generator of the
//! multi-recipient seal (32 bytes drawn from the caller's generator, expanded with SHAKE256;
//! drawing every recipient's seed first, in order, makes the output independent of how the
//! recipients are spread over threads).

use core::convert::Infallible;

#[cfg(feature = "alloc")]
use hkdf::hmac::digest::{ExtendableOutput, Update, XofReader};
use rand_core::{TryCryptoRng, TryRng};

/// The operating system's generator, infallible: a ready `&mut OsRng` for every `rng` argument.
/// Panics only if the operating system cannot supply randomness at all.
///
/// With the `aws-lc-rs` feature, a P-256, P-384 or P-521 key made with this generator (by
/// [`Kem::generate`](crate::kem::Kem::generate) and as the ephemeral key of every
/// encapsulation, sender setup and single-shot seal, typed or runtime, prepared or not) comes
/// from aws-lc's own key generation, which draws from aws-lc's generator (seeded from the
/// operating system as well) and not from this one: one base-point multiplication, where a
/// scalar drawn from `rng` costs two to import into aws-lc. That holds however the generator is
/// passed (`&mut OsRng`, `&mut &mut OsRng`, a `&mut dyn CryptoRng`) and for a wrapper that hands
/// its requests to an `OsRng`, since their bytes are this generator's. Any other generator, a
/// seeded one in particular, is drawn from as without the feature, so it gives the same keys and
/// `enc` under both backends. (To tell, the backend asks the generator for zero bytes once per
/// NIST key; rand_core's generators answer that by drawing nothing.)
///
/// ```
/// # #[cfg(feature = "x25519")] {
/// use typed_hpke::{OsRng, kem::{DhKemX25519HkdfSha256 as X25519, Kem}};
/// let (sk, pk) = X25519::generate(&mut OsRng::default())?;
/// assert_eq!(sk.public_key(), pk);
/// # }
/// # Ok::<(), typed_hpke::Error>(())
/// ```
#[cfg(feature = "getrandom")]
#[derive(Clone, Copy, Debug, Default)]
pub struct OsRng(());

#[cfg(feature = "getrandom")]
impl TryRng for OsRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        rand_core::UnwrapErr(getrandom::SysRng).try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        rand_core::UnwrapErr(getrandom::SysRng).try_next_u64()
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        // An empty request is how the aws-lc-rs backend asks whether a generator is this one
        // (`backend::aws_lc::dh::is_os_rng`): it draws nothing either way.
        #[cfg(all(feature = "aws-lc-rs", feature = "nist"))]
        if dst.is_empty() {
            crate::backend::aws_lc::dh::os_rng_asked();
        }
        rand_core::UnwrapErr(getrandom::SysRng).try_fill_bytes(dst)
    }
}

#[cfg(feature = "getrandom")]
impl TryCryptoRng for OsRng {}

/// SHAKE256 of a 32-byte seed, read as a stream. Its state is wiped on drop (the `shake`
/// crate's `zeroize` feature).
#[cfg(feature = "alloc")]
pub(crate) struct XofRng(shake::Shake256Reader);

#[cfg(feature = "alloc")]
impl XofRng {
    pub(crate) fn new(seed: &[u8; 32]) -> Self {
        let mut xof = shake::Shake256::default();
        xof.update(b"typed-hpke seal_base_many");
        xof.update(seed);
        Self(xof.finalize_xof())
    }
}

#[cfg(feature = "alloc")]
impl TryRng for XofRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.0.read(&mut b);
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.0.read(&mut b);
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.read(dst);
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl TryCryptoRng for XofRng {}

/// The body of both `seal_base_many`s (typed and runtime): checks that `plaintexts` holds one
/// plaintext or one per recipient, draws every recipient's 32-byte seed from `rng` in order,
/// then runs `seal_one(i, generator, plaintext)` for each recipient `i`, over rayon's thread
/// pool with the `rayon` feature. The results come back in recipient order.
#[cfg(feature = "alloc")]
pub(crate) fn seal_many<R, T, F>(
    rng: &mut R,
    recipients: usize,
    plaintexts: &[&[u8]],
    seal_one: F,
) -> Result<alloc::vec::Vec<T>, crate::Error>
where
    R: rand_core::CryptoRng + ?Sized,
    T: Send,
    F: Fn(usize, &mut XofRng, &[u8]) -> Result<T, crate::Error> + Sync,
{
    let same = match plaintexts.len() {
        1 => true,
        n if n == recipients => false,
        _ => return Err(crate::Error::InvalidLength),
    };
    let mut seeds = zeroize::Zeroizing::new(alloc::vec![[0u8; 32]; recipients]);
    for seed in seeds.iter_mut() {
        rng.fill_bytes(seed);
    }
    let one = |(i, seed): (usize, &[u8; 32])| {
        let pt = plaintexts[if same { 0 } else { i }];
        seal_one(i, &mut XofRng::new(seed), pt)
    };
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        seeds.par_iter().enumerate().map(one).collect()
    }
    #[cfg(not(feature = "rayon"))]
    seeds.iter().enumerate().map(one).collect()
}
