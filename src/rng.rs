//! The per-recipient generator of the multi-recipient seal: 32 bytes drawn from the caller's
//! generator, expanded with SHAKE256. Drawing every recipient's seed first, in order, makes the
//! output independent of how the recipients are spread over threads.

use core::convert::Infallible;

use hkdf::hmac::digest::{ExtendableOutput, Update, XofReader};
use rand_core::{TryCryptoRng, TryRng};

/// SHAKE256 of a 32-byte seed, read as a stream. Its state is wiped on drop (the `shake`
/// crate's `zeroize` feature).
pub(crate) struct XofRng(shake::Shake256Reader);

impl XofRng {
    pub(crate) fn new(seed: &[u8; 32]) -> Self {
        let mut xof = shake::Shake256::default();
        xof.update(b"typed-hpke seal_base_many");
        xof.update(seed);
        Self(xof.finalize_xof())
    }
}

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
