//! The key schedule (RFC 9180 §5.1): modes, `suite_id`, `VerifyPSKInputs`, and the step that
//! turns a KEM shared secret into a context.
//!
//! The KDF-specific part (two-stage HKDF or one-stage `LabeledDerive`) lives behind
//! the KDF's sealed engine; this module holds what every KDF shares.

use hybrid_array::Array;
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::Aead;
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::psk::Psk;
use crate::sealed::{KdfEngine as _, ScheduleObserver};

/// The four HPKE modes (RFC 9180 §5, Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    Base = 0x00,
    Psk = 0x01,
    Auth = 0x02,
    AuthPsk = 0x03,
}

impl Mode {
    /// The mode of a setup given its optional inputs: the PSK, and the sender's key of the
    /// authenticated modes (its private key on the sender's side, public on the receiver's).
    pub(crate) fn of<T>(psk: Option<&Psk<'_>>, sender_key: Option<T>) -> Self {
        match (psk.is_some(), sender_key.is_some()) {
            (false, false) => Self::Base,
            (true, false) => Self::Psk,
            (false, true) => Self::Auth,
            (true, true) => Self::AuthPsk,
        }
    }
}

/// The suite's `suite_id` (§5.1), from its three type parameters.
pub(crate) const fn hpke_suite_id<K: Kem, F: Kdf, A: Aead>() -> [u8; 10] {
    crate::util::hpke_suite_id(K::ID, F::ID, A::ID)
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
    observer: &mut impl ScheduleObserver,
) -> Result<Schedule<F, A>, Error> {
    key_schedule_for_suite::<F, A>(
        &hpke_suite_id::<K, F, A>(),
        mode,
        shared_secret,
        info,
        psk,
        observer,
    )
}

/// [`key_schedule`] with `suite_id` given, not made from a KEM type: the KEM enters the key
/// schedule only through `suite_id` and the shared secret, so the runtime API runs this once
/// per (KDF, AEAD) pair for all twelve KEMs.
pub(crate) fn key_schedule_for_suite<F: Kdf, A: Aead>(
    suite_id: &[u8; 10],
    mode: Mode,
    shared_secret: &[u8],
    info: &[u8],
    psk: Option<&Psk<'_>>,
    observer: &mut impl ScheduleObserver,
) -> Result<Schedule<F, A>, Error> {
    debug_assert_eq!(
        psk.is_some(),
        matches!(mode, Mode::Psk | Mode::AuthPsk),
        "VerifyPSKInputs: the PSK modes and only they carry a PSK"
    );
    let (psk, psk_id) = psk.map_or((&[][..], &[][..]), |p| (p.psk(), p.psk_id()));
    let mut key = Zeroizing::new(Array::<u8, A::Nk>::default());
    let mut base_nonce = Array::<u8, A::Nn>::default();
    let exporter = F::Engine::key_schedule(
        suite_id,
        mode as u8,
        shared_secret,
        info,
        psk,
        psk_id,
        &mut key,
        &mut base_nonce,
        observer,
    )?;
    Ok(Schedule {
        key,
        base_nonce,
        exporter,
    })
}
