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
use std::cell::RefCell;
use std::collections::HashMap;

use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kem::Kem;
use typed_hpke::suite::{AnyKem, KEM_IDS};
use typed_hpke::{PrivateKey, PublicKey};

/// The KEM the first input byte selects, and the rest of the input: the byte, modulo their
/// number, indexes the library's list (`suite::KEM_IDS`), so every KEM of the build is
/// reachable (a KEM added to the library is fuzzed with no line here changed) and each
/// execution does one KEM's work, so the slow curves do not dominate every input.
pub fn select_kem(data: &[u8]) -> (AnyKem, &[u8]) {
    let (selector, rest) = data.split_first().unwrap_or((&0, &[]));
    (kem_at(*selector), rest)
}

/// The KEM selector byte `selector` picks (see [`select_kem`]).
pub fn kem_at(selector: u8) -> AnyKem {
    AnyKem::new(pick(KEM_IDS, selector)).expect("the library's own id")
}

/// The id of `ids` (one of the library's lists, `suite::KEM_IDS`, `KDF_IDS`, `AEAD_IDS`) that
/// the byte `selector` picks: its place, modulo their number.
pub(crate) fn pick(ids: &[u16], selector: u8) -> u16 {
    ids[usize::from(selector) % ids.len()]
}

/// A selector byte for the KEM `kem_id`, if the build has it: the inverse of [`kem_at`], for
/// the seed corpora.
pub fn selector_of(kem_id: u16) -> Option<u8> {
    KEM_IDS
        .iter()
        .position(|&id| id == kem_id)
        .and_then(|place| u8::try_from(place).ok())
}

/// Calls `$f::<K>(rest)` for the KEM the first input byte selects ([`select_kem`]).
#[macro_export]
macro_rules! for_each_kem {
    ($f:ident, $data:expr) => {
        $crate::for_each_kem_family!($f, $f, $data)
    };
}

/// As `for_each_kem!`, calling `$dh::<K>` for the DH-KEMs (all modes) and `$pq::<K>` for the
/// post-quantum and hybrid KEMs (those without the Auth modes).
#[macro_export]
macro_rules! for_each_kem_family {
    ($dh:ident, $pq:ident, $data:expr) => {{
        struct Dh<'a>(&'a [u8]);
        impl typed_hpke::suite::AuthKemVisitor for Dh<'_> {
            type Output = ();
            fn visit<K: typed_hpke::kem::AuthKem>(self) {
                $dh::<K>(self.0)
            }
        }
        struct Pq<'a>(&'a [u8]);
        impl typed_hpke::suite::KemVisitor for Pq<'_> {
            type Output = ();
            fn visit<K: typed_hpke::kem::Kem>(self) {
                $pq::<K>(self.0)
            }
        }
        // One dispatch: `visit_auth` refuses a KEM without the Auth modes.
        let (kem, rest) = $crate::select_kem($data);
        if kem.visit_auth(Dh(rest)).is_err() {
            kem.visit(Pq(rest))
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

/// Per thread (the corpora's replay runs targets on several), so a key of any KEM type can be
/// kept without the type proving `Send + Sync`.
pub fn keys<K: Kem>() -> &'static Keys<K> {
    thread_local! {
        static CACHE: RefCell<HashMap<TypeId, &'static dyn Any>> = RefCell::default();
    }
    CACHE.with_borrow_mut(|cache| {
        let entry = *cache.entry(TypeId::of::<K>()).or_insert_with(|| {
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
    })
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
