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
