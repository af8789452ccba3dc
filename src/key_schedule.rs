//! The key schedule (RFC 9180 §5.1): modes, `suite_id`, `VerifyPSKInputs`, and the step that
//! turns a KEM shared secret into a context.
//!
//! The KDF-specific part (two-stage HKDF or one-stage `LabeledDerive`) lives behind
//! [`Kdf::key_schedule`](crate::kdf::Kdf); this module holds what every KDF shares.

use hybrid_array::Array;
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::Aead;
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::psk::Psk;

/// The four HPKE modes (RFC 9180 §5, Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    Base = 0x00,
    Psk = 0x01,
    Auth = 0x02,
    AuthPsk = 0x03,
}

/// `suite_id = concat("HPKE", I2OSP(kem_id, 2), I2OSP(kdf_id, 2), I2OSP(aead_id, 2))` (§5.1).
pub(crate) const fn hpke_suite_id<K: Kem, F: Kdf, A: Aead>() -> [u8; 10] {
    let k = K::ID.to_be_bytes();
    let f = F::ID.to_be_bytes();
    let a = A::ID.to_be_bytes();
    [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
}

/// `suite_id = concat("KEM", I2OSP(kem_id, 2))` (§4.1).
pub(crate) const fn kem_suite_id(kem_id: u16) -> [u8; 5] {
    let k = kem_id.to_be_bytes();
    [b'K', b'E', b'M', k[0], k[1]]
}

/// What the key schedule hands to a context.
pub(crate) struct Schedule<F: Kdf, A: Aead> {
    pub(crate) key: Zeroizing<Array<u8, A::Nk>>,
    pub(crate) base_nonce: Array<u8, A::Nn>,
    pub(crate) exporter: F::Exporter,
}

/// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)` (§5.1).
///
/// `VerifyPSKInputs` holds by construction: a [`Psk`] is non-empty in both parts, and only the
/// PSK modes pass one; the other modes use the default empty `psk` and `psk_id`.
pub(crate) fn key_schedule<K: Kem, F: Kdf, A: Aead>(
    mode: Mode,
    shared_secret: &[u8],
    info: &[u8],
    psk: Option<&Psk<'_>>,
    trace: Option<&mut Trace>,
) -> Result<Schedule<F, A>, Error> {
    debug_assert_eq!(
        psk.is_some(),
        matches!(mode, Mode::Psk | Mode::AuthPsk),
        "VerifyPSKInputs: the PSK modes and only they carry a PSK"
    );
    let (psk, psk_id) = psk.map_or((&[][..], &[][..]), |p| (p.psk(), p.psk_id()));
    let mut key = Zeroizing::new(Array::<u8, A::Nk>::default());
    let mut base_nonce = Array::<u8, A::Nn>::default();
    let exporter = F::key_schedule(
        &hpke_suite_id::<K, F, A>(),
        mode as u8,
        shared_secret,
        info,
        psk,
        psk_id,
        &mut key,
        &mut base_nonce,
        trace,
    )?;
    Ok(Schedule {
        key,
        base_nonce,
        exporter,
    })
}

/// Intermediate values of one key schedule run, recorded for known-answer tests.
#[doc(hidden)]
pub struct Trace {
    pub(crate) key_schedule_context: [u8; 1 + 2 * 64],
    pub(crate) key_schedule_context_len: usize,
    pub(crate) secret: Zeroizing<[u8; 64]>,
    pub(crate) secret_len: usize,
    pub(crate) exporter_secret: Zeroizing<[u8; 64]>,
    pub(crate) exporter_secret_len: usize,
    pub(crate) two_stage: bool,
}

impl core::fmt::Debug for Trace {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Trace(<redacted>)")
    }
}

impl Default for Trace {
    fn default() -> Self {
        Self {
            key_schedule_context: [0; 1 + 2 * 64],
            key_schedule_context_len: 0,
            secret: Zeroizing::new([0; 64]),
            secret_len: 0,
            exporter_secret: Zeroizing::new([0; 64]),
            exporter_secret_len: 0,
            two_stage: false,
        }
    }
}

impl Trace {
    pub(crate) fn record_two_stage(
        &mut self,
        key_schedule_context: &[&[u8]],
        secret: &[u8],
        exporter_secret: &[u8],
    ) {
        self.two_stage = true;
        let mut at = 0;
        for piece in key_schedule_context {
            let end = at + piece.len();
            if let Some(dst) = self.key_schedule_context.get_mut(at..end) {
                dst.copy_from_slice(piece);
            }
            at = end;
        }
        self.key_schedule_context_len = at;
        self.record_secret(secret);
        self.record_exporter_secret(exporter_secret);
    }

    pub(crate) fn record_secret(&mut self, secret: &[u8]) {
        copy_prefix(&mut self.secret[..], secret, &mut self.secret_len);
    }

    pub(crate) fn record_exporter_secret(&mut self, exporter_secret: &[u8]) {
        copy_prefix(
            &mut self.exporter_secret[..],
            exporter_secret,
            &mut self.exporter_secret_len,
        );
    }
}

fn copy_prefix(dst: &mut [u8], src: &[u8], len: &mut usize) {
    if let Some(d) = dst.get_mut(..src.len()) {
        d.copy_from_slice(src);
        *len = src.len();
    }
}

/// The values of one key schedule run, for known-answer tests (`hazmat` only).
#[cfg(feature = "hazmat")]
#[doc(hidden)]
#[derive(Debug)]
pub struct KeyScheduleValuesForTestingOnly {
    /// `key`
    pub key: alloc_free::Bytes,
    /// `base_nonce`
    pub base_nonce: alloc_free::Bytes,
    /// `exporter_secret`
    pub exporter_secret: alloc_free::Bytes,
    /// `key_schedule_context` (two-stage KDFs only)
    pub key_schedule_context: Option<alloc_free::Bytes>,
    /// `secret` (two-stage KDFs only)
    pub secret: Option<alloc_free::Bytes>,
}

#[cfg(feature = "hazmat")]
pub(crate) mod alloc_free {
    /// A short byte string held inline.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Bytes {
        buf: [u8; 129],
        len: usize,
    }

    impl Bytes {
        pub(crate) fn new(src: &[u8]) -> Self {
            let mut buf = [0u8; 129];
            let len = src.len().min(buf.len());
            buf[..len].copy_from_slice(&src[..len]);
            Self { buf, len }
        }

        /// The bytes.
        pub fn as_slice(&self) -> &[u8] {
            &self.buf[..self.len]
        }
    }

    impl core::fmt::Debug for Bytes {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            for b in self.as_slice() {
                write!(f, "{b:02x}")?;
            }
            Ok(())
        }
    }
}

/// Runs the key schedule and reports its intermediate values (`hazmat` only).
#[cfg(feature = "hazmat")]
pub(crate) fn key_schedule_values<K: Kem, F: Kdf, A: Aead>(
    mode: Mode,
    shared_secret: &[u8],
    info: &[u8],
    psk: Option<&Psk<'_>>,
) -> Result<KeyScheduleValuesForTestingOnly, Error> {
    let mut trace = Trace::default();
    let schedule = key_schedule::<K, F, A>(mode, shared_secret, info, psk, Some(&mut trace))?;
    Ok(KeyScheduleValuesForTestingOnly {
        key: alloc_free::Bytes::new(&schedule.key),
        base_nonce: alloc_free::Bytes::new(&schedule.base_nonce),
        exporter_secret: alloc_free::Bytes::new(
            &trace.exporter_secret[..trace.exporter_secret_len],
        ),
        key_schedule_context: trace.two_stage.then(|| {
            alloc_free::Bytes::new(&trace.key_schedule_context[..trace.key_schedule_context_len])
        }),
        secret: trace
            .two_stage
            .then(|| alloc_free::Bytes::new(&trace.secret[..trace.secret_len])),
    })
}
