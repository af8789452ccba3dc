//! Key derivation functions (RFC 9180 §7.2).
//!
//! A [`Kdf`] runs the whole key schedule and the secret export, so that two-stage KDFs
//! (HKDF: `LabeledExtract` then `LabeledExpand`) and one-stage KDFs (`LabeledDerive`) sit behind
//! the same call sites in [`Hpke`](crate::Hpke).

use hybrid_array::ArraySize;

use crate::Error;
use crate::key_schedule::Trace;

mod hkdf;
mod shake;

pub use self::hkdf::{HkdfSha256, HkdfSha384, HkdfSha512};
pub use self::shake::{MAX_ONE_STAGE_INPUT_LEN, Shake128, Shake256, TurboShake128, TurboShake256};

/// A KDF usable in the HPKE key schedule.
///
/// This trait is sealed: the KDFs are the ones this crate defines.
pub trait Kdf: crate::sealed::Sealed + Sized + 'static {
    /// The IANA `kdf_id`.
    const ID: u16;
    /// `Nh`, the size of the exporter secret in bytes.
    type Nh: ArraySize;
    /// The longest export this KDF allows: 255·Nh for HKDF (RFC 9180 §5.3), 65535 for the
    /// one-stage KDFs (draft-ietf-hpke-hpke).
    const MAX_EXPORT_LEN: usize;

    /// The exporter secret in the form `export` wants it (for HKDF, the keyed HMAC state).
    #[doc(hidden)]
    type Exporter;

    /// `KeySchedule` (RFC 9180 §5.1) after `VerifyPSKInputs`: fills `key` and `base_nonce`
    /// (each possibly empty) and returns the exporter secret.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn key_schedule(
        suite_id: &[u8],
        mode: u8,
        shared_secret: &[u8],
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        key: &mut [u8],
        base_nonce: &mut [u8],
        trace: Option<&mut Trace>,
    ) -> Result<Self::Exporter, Error>;

    /// `Export(exporter_context, L)` (RFC 9180 §5.3) with `L = out.len()`, which the caller has
    /// already checked against [`Kdf::MAX_EXPORT_LEN`].
    #[doc(hidden)]
    fn export(
        suite_id: &[u8],
        exporter: &Self::Exporter,
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error>;
}
