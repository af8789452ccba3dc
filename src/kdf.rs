//! Key derivation functions (RFC 9180 §7.2).
//!
//! A [`Kdf`] runs the whole key schedule and the secret export, so that two-stage KDFs
//! (HKDF: `LabeledExtract` then `LabeledExpand`) and one-stage KDFs (`LabeledDerive`) sit behind
//! the same call sites in [`Hpke`](crate::Hpke).

use hybrid_array::ArraySize;

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

    /// The engine behind the key schedule and export (sealed).
    #[doc(hidden)]
    type Engine: crate::sealed::KdfEngine<Self>;
}

/// A KDF with separate `Extract` and `Expand` stages: HKDF-SHA256, HKDF-SHA384, HKDF-SHA512
/// (RFC 9180 §7.2).
///
/// This trait is sealed.
pub trait TwoStageKdf: Kdf {
    /// The pseudorandom key in the form `Expand` wants it (the keyed HMAC state).
    #[doc(hidden)]
    type Prk;
    /// The engine behind `Extract` and `Expand` (sealed).
    #[doc(hidden)]
    type TwoStageEngine: crate::sealed::TwoStageEngine<Self>;
}
