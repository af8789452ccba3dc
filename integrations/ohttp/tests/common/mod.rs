//! What the test files share; each uses part of it.

#![allow(dead_code)]

use std::convert::Infallible;

use typed_hpke_ohttp::rand_core::{TryCryptoRng, TryRng};

use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};

/// Every KEM typed-hpke has, by id.
pub const KEMS: [u16; 12] = [
    DhKemX25519HkdfSha256::ID,
    DhKemX448HkdfSha512::ID,
    DhKemP256HkdfSha256::ID,
    DhKemP384HkdfSha384::ID,
    DhKemP521HkdfSha512::ID,
    DhKemSecp256k1HkdfSha256::ID,
    MlKem512::ID,
    MlKem768::ID,
    MlKem1024::ID,
    XWing::ID,
    MlKem768P256::ID,
    MlKem1024P384::ID,
];

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
