//! Shared helpers for the fuzz targets: each target is a few lines over these. Panics,
//! aborts and sanitizer reports are bugs; `Err` results (bad encodings, failed
//! authentication, over-long requests) are the expected outcomes.

mod context;
#[cfg(feature = "differential")]
pub mod differential;
pub mod held;
pub mod integrations;
pub mod jose_cose;
mod kem;
pub mod limits;
pub mod ohttp;
mod open;
mod prepared;
mod serde_keys;
mod suite;
pub mod targets;

pub use context::{context, export, key_schedule};
pub use kem::{
    auth_decap, decap, derive_key_pair, derive_key_pair_auth, encapped_key, private_key, public_key,
};
pub use open::{open, open_all_modes};
pub use prepared::{prepared, prepared_auth, prepared_pq};
pub use serde_keys::serde_keys;
pub use suite::suite;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kem::Kem;
use typed_hpke::{PrivateKey, PublicKey};

/// Calls `$f::<K>(rest)` for the KEM the first input byte selects (all 12 are reachable), so
/// each execution does one KEM's work and the slow curves do not dominate every input.
#[macro_export]
macro_rules! for_each_kem {
    ($f:ident, $data:expr) => {
        $crate::for_each_kem_family!($f, $f, $data)
    };
}

/// As `for_each_kem!`, calling `$dh::<K>` for the DH-KEMs (all modes) and `$pq::<K>` for the
/// post-quantum and hybrid KEMs.
#[macro_export]
macro_rules! for_each_kem_family {
    ($dh:ident, $pq:ident, $data:expr) => {{
        let data: &[u8] = $data;
        let (selector, rest) = data.split_first().unwrap_or((&0, &[]));
        match selector % 12 {
            0 => $dh::<typed_hpke::kem::DhKemX25519HkdfSha256>(rest),
            1 => $dh::<typed_hpke::kem::DhKemX448HkdfSha512>(rest),
            2 => $dh::<typed_hpke::kem::DhKemP256HkdfSha256>(rest),
            3 => $dh::<typed_hpke::kem::DhKemP384HkdfSha384>(rest),
            4 => $dh::<typed_hpke::kem::DhKemP521HkdfSha512>(rest),
            5 => $dh::<typed_hpke::kem::DhKemSecp256k1HkdfSha256>(rest),
            6 => $pq::<typed_hpke::kem::MlKem512>(rest),
            7 => $pq::<typed_hpke::kem::MlKem768>(rest),
            8 => $pq::<typed_hpke::kem::MlKem1024>(rest),
            9 => $pq::<typed_hpke::kem::XWing>(rest),
            10 => $pq::<typed_hpke::kem::MlKem768P256>(rest),
            _ => $pq::<typed_hpke::kem::MlKem1024P384>(rest),
        }
    }};
}

/// Fixed key pairs per KEM: the recipient's and the sender's, derived once per process (key
/// derivation per input would make the slow curves dominate every run).
pub struct Keys<K: Kem> {
    pub sk_r: PrivateKey<K>,
    pub pk_r: PublicKey<K>,
    pub sk_s: PrivateKey<K>,
    pub pk_s: PublicKey<K>,
}

pub fn keys<K: Kem>() -> &'static Keys<K>
where
    Keys<K>: Send + Sync,
{
    static CACHE: OnceLock<Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>> =
        OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    let entry = cache.entry(TypeId::of::<K>()).or_insert_with(|| {
        let (sk_r, pk_r) = K::derive_key_pair(b"typed-hpke fuzz recipient").expect("derive");
        let (sk_s, pk_s) = K::derive_key_pair(b"typed-hpke fuzz sender").expect("derive");
        Box::leak(Box::new(Keys {
            sk_r,
            pk_r,
            sk_s,
            pk_s,
        }))
    });
    entry
        .downcast_ref::<Keys<K>>()
        .expect("one entry per KEM type")
}

pub(crate) fn nenc<K: Kem>() -> usize {
    K::NEnc::USIZE
}

/// A little cursor over the fuzz input.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }
    /// The next `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }
    /// A length-prefixed slice (one length byte).
    pub fn slice(&mut self) -> &'a [u8] {
        let n = usize::from(self.byte());
        self.take(n)
    }
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.0.len())
    }
}

/// Lowercase hex, as the crate's `Debug` output writes bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A generator seed from the input, so that a run is reproducible from its input alone.
pub(crate) fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(crate) const PSK: &[u8; 32] = b"typed-hpke fuzz pre-shared key!!";

/// A generator of zeros: the fuzz targets need determinism, not secrecy.
pub struct Zeros;

impl typed_hpke::rand_core::TryRng for Zeros {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(7)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(7)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.fill(7);
        Ok(())
    }
}

impl typed_hpke::rand_core::TryCryptoRng for Zeros {}

/// A deterministic generator that does not repeat (SplitMix64): rejection sampling (P-521
/// scalars) never ends on a constant stream like `Zeros`'.
pub struct Counter(pub u64);

impl typed_hpke::rand_core::TryRng for Counter {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Ok(z ^ (z >> 31))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl typed_hpke::rand_core::TryCryptoRng for Counter {}
