//! What the test files share; each uses part of it.

#![allow(dead_code)]

use std::convert::Infallible;

use typed_hpke_ohttp::rand_core::{TryCryptoRng, TryRng};

/// Every KEM typed-hpke has, by id: the library's list (`AnyKem::all`).
pub fn kems() -> Vec<u16> {
    typed_hpke::suite::AnyKem::all()
        .map(|kem| kem.id())
        .collect()
}

/// A generator that hands out the bytes it was given, in order, and fails the test if asked
/// for more: a published ephemeral key or response nonce, replayed.
pub struct Replay(pub Vec<u8>);

impl TryRng for Replay {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        assert!(dst.len() <= self.0.len(), "the test's generator ran out");
        dst.copy_from_slice(&self.0[..dst.len()]);
        self.0.drain(..dst.len());
        Ok(())
    }
}

impl TryCryptoRng for Replay {}
