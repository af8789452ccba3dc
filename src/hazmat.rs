//! Deterministic encapsulation and key-schedule inspection, for known-answer tests only
//! (feature `hazmat`).
//!
//! Nothing here is needed to use HPKE, and everything here can break it: a repeated `ikm_e`
//! repeats the ephemeral key, and with it every key of the context. The sealed engine traits
//! that do the work are not reachable from outside the crate at all; this module is the one,
//! named, door to the part of them the known-answer tests need.

use crate::Error;
use crate::aead::Aead;
use crate::kdf::Kdf;
use crate::kem::{AuthKem, EncappedKey, Kem, PrivateKey, RecipientKey, SharedSecret};
use crate::key_schedule::{Mode, key_schedule};
use crate::psk::Psk;
use crate::sealed::ScheduleObserver;

/// `Encap(pkR)` with its randomness fixed by `ikm_e`: for the DH-KEMs the ephemeral key pair is
/// `DeriveKeyPair(ikm_e)` (RFC 9180 Appendix A); for ML-KEM `ikm_e` is the 32-byte `m` of
/// `Encaps_internal`; for the hybrids it is `m` followed by the traditional group's
/// `RandomScalar` seed (at most `Group.Nseed` bytes), as in the draft-ietf-hpke-pq vectors.
/// `pk_r` is a [`PublicKey`](crate::PublicKey) or a [`PreparedPublicKey`](crate::kem::PreparedPublicKey).
///
/// # Errors
/// [`Error::Encap`] if `ikm_e` has the wrong shape for the KEM or the DH output is unusable;
/// [`Error::DeriveKeyPair`] as `DeriveKeyPair` gives it.
pub fn encap_deterministic<K: Kem>(
    ikm_e: &[u8],
    pk_r: &(impl RecipientKey<K> + ?Sized),
) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
    crate::kem::encap_deterministic_to(ikm_e, pk_r)
}

/// `AuthEncap(pkR, skS)` with the ephemeral key pair `DeriveKeyPair(ikm_e)`.
///
/// # Errors
/// As [`encap_deterministic`].
pub fn auth_encap_deterministic<K: AuthKem>(
    ikm_e: &[u8],
    pk_r: &(impl RecipientKey<K> + ?Sized),
    sk_s: &PrivateKey<K>,
) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
    crate::kem::auth_encap_deterministic_to(ikm_e, pk_r, sk_s)
}

/// Makes every ML-KEM key made from now on (generated, derived, parsed; the hybrids' ML-KEM
/// halves too) use libcrux's portable code instead of the SIMD code the CPU would select, or,
/// with `false`, returns to the CPU's choice. For tests that must reach the portable path on a
/// machine with AVX2 or NEON: the `ct/` harness runs it under valgrind. Outputs are the same
/// either way. Process-wide; keys made before keep their implementation.
#[cfg(feature = "pq")]
pub fn force_portable_ml_kem(on: bool) {
    crate::kem::libcrux_force_portable(on);
}

/// The values of one key schedule run (RFC 9180 §5.1), as the vector files print them.
///
/// `Debug` prints lengths only: these are a context's secrets.
pub struct KeyScheduleValues {
    /// `key`
    pub key: Bytes,
    /// `base_nonce`
    pub base_nonce: Bytes,
    /// `exporter_secret`
    pub exporter_secret: Bytes,
    /// `key_schedule_context` (two-stage KDFs only)
    pub key_schedule_context: Option<Bytes>,
    /// `secret` (two-stage KDFs only)
    pub secret: Option<Bytes>,
}

impl core::fmt::Debug for KeyScheduleValues {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyScheduleValues")
            .field("key", &self.key)
            .field("base_nonce", &self.base_nonce)
            .field("exporter_secret", &self.exporter_secret)
            .field("key_schedule_context", &self.key_schedule_context)
            .field("secret", &self.secret)
            .finish()
    }
}

/// A short byte string held inline (no allocation), wiped on drop; `Debug` shows its length.
#[derive(Clone, PartialEq, Eq)]
pub struct Bytes {
    buf: [u8; Self::CAPACITY],
    len: usize,
}

impl Bytes {
    /// Longer than any value the key schedule produces (`key_schedule_context` is at most
    /// 1 + 2 * 64 bytes).
    const CAPACITY: usize = 129;

    fn new(src: &[u8]) -> Self {
        let mut buf = [0u8; Self::CAPACITY];
        let len = src.len().min(Self::CAPACITY);
        buf[..len].copy_from_slice(&src[..len]);
        Self { buf, len }
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.buf);
    }
}

impl zeroize::ZeroizeOnDrop for Bytes {}

impl core::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Bytes(<{} bytes redacted>)", self.len)
    }
}

/// Records what the key schedule shows its observer.
#[derive(Default)]
struct Recorder {
    key_schedule_context: Option<Bytes>,
    secret: Option<Bytes>,
    exporter_secret: Option<Bytes>,
}

impl ScheduleObserver for Recorder {
    fn two_stage(&mut self, key_schedule_context: &[&[u8]], secret: &[u8], exporter: &[u8]) {
        let mut context = [0u8; Bytes::CAPACITY];
        let mut at = 0;
        for piece in key_schedule_context {
            let end = (at + piece.len()).min(context.len());
            context[at..end].copy_from_slice(&piece[..end - at]);
            at = end;
        }
        self.key_schedule_context = Some(Bytes::new(&context[..at]));
        self.secret = Some(Bytes::new(secret));
        self.exporter_secret = Some(Bytes::new(exporter));
    }

    fn one_stage(&mut self, exporter_secret: &[u8]) {
        self.exporter_secret = Some(Bytes::new(exporter_secret));
    }
}

/// Runs the key schedule of the suite `(K, F, A)` on a given shared secret and reports its
/// outputs and (two-stage KDFs) intermediates. `mode` is the RFC mode byte; `psk` must be given
/// exactly for modes 1 and 3.
///
/// # Errors
/// [`Error::InvalidPsk`] if `mode` and `psk` disagree or `mode` is not 0..=3; otherwise as the
/// key schedule.
pub fn key_schedule_values<K: Kem, F: Kdf, A: Aead>(
    mode: u8,
    shared_secret: &[u8],
    info: &[u8],
    psk: Option<&Psk<'_>>,
) -> Result<KeyScheduleValues, Error> {
    let mode = match (mode, psk.is_some()) {
        (0, false) => Mode::Base,
        (1, true) => Mode::Psk,
        (2, false) => Mode::Auth,
        (3, true) => Mode::AuthPsk,
        _ => return Err(Error::InvalidPsk),
    };
    let mut recorder = Recorder::default();
    let schedule = key_schedule::<K, F, A>(mode, shared_secret, info, psk, &mut recorder)?;
    Ok(KeyScheduleValues {
        key: Bytes::new(&schedule.key),
        base_nonce: Bytes::new(&schedule.base_nonce),
        exporter_secret: recorder.exporter_secret.ok_or(Error::InvalidLength)?,
        key_schedule_context: recorder.key_schedule_context,
        secret: recorder.secret,
    })
}
