//! The one-stage KDFs SHAKE128, SHAKE256, TurboSHAKE128 and TurboSHAKE256
//! (draft-ietf-hpke-pq §5) and the one-stage key schedule and export of draft-ietf-hpke-hpke.

use hkdf::hmac::digest::{ExtendableOutput, Update};
use hybrid_array::ArraySize;
use hybrid_array::typenum::{U32, U64};

use crate::Error;
use crate::labeled::{Label, Prefix, labeled_derive, labeled_derive_finish};
use crate::sealed::ScheduleObserver;

/// The longest `psk`, `psk_id`, `info` or `exporter_context` a one-stage KDF takes: each is
/// length-prefixed with two bytes (draft-ietf-hpke-hpke, "Input Length Restrictions").
pub const MAX_ONE_STAGE_INPUT_LEN: usize = 65_535;

/// The largest `Nk + Nn + Nh` of any suite: 32 + 12 + 64.
const MAX_SECRET_LEN: usize = 32 + 12 + 64;

/// `lengthPrefixed(x) = concat(I2OSP(len(x), 2), x)`, as the 2-byte prefix.
fn length_prefix(x: &[u8]) -> Result<[u8; 2], Error> {
    u16::try_from(x.len())
        .map(u16::to_be_bytes)
        .map_err(|_| Error::InputTooLong)
}

/// `CombineSecrets_OneStage(mode, shared_secret, info, psk, psk_id)`; returns the exporter:
/// the bytes every `Export` absorbs before its context, `concat(exporter_secret, "HPKE-v1",
/// suite_id, lengthPrefixed("sec"))` (`N = Nh + 22` of them). Not the XOF state after them: an
/// XOF's block buffer is `MaybeUninit` past what it has absorbed, and would carry whatever the
/// stack held where it was built (`labeled::Prefix`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn one_stage_key_schedule<
    X: Default + Update + ExtendableOutput,
    Nh: ArraySize,
    const N: usize,
>(
    suite_id: &[u8],
    mode: u8,
    shared_secret: &[u8],
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
    key: &mut [u8],
    base_nonce: &mut [u8],
    observer: &mut impl ScheduleObserver,
) -> Result<Prefix<N>, Error> {
    // secrets = concat(lengthPrefixed(psk), lengthPrefixed(shared_secret))
    let secrets: [&[u8]; 4] = [
        &length_prefix(psk)?,
        psk,
        &length_prefix(shared_secret)?,
        shared_secret,
    ];
    // context = concat(mode, lengthPrefixed(psk_id), lengthPrefixed(info))
    let context: [&[u8]; 5] = [
        &[mode],
        &length_prefix(psk_id)?,
        psk_id,
        &length_prefix(info)?,
        info,
    ];
    // secret = LabeledDerive(secrets, "secret", context, Nk + Nn + Nh)
    let (nk, nn, nh) = (key.len(), base_nonce.len(), Nh::USIZE);
    let mut secret = zeroize::Zeroizing::new([0u8; MAX_SECRET_LEN]);
    let secret = secret.get_mut(..nk + nn + nh).ok_or(Error::InvalidLength)?;
    labeled_derive::<X>(&secrets, suite_id, Label::Secret, &context, secret)?;

    // key = secret[:Nk]; base_nonce = secret[Nk:(Nk + Nn)]; exporter_secret = secret[(Nk + Nn):]
    let (k, rest) = secret.split_at(nk);
    let (n, exporter_secret) = rest.split_at(nn);
    key.copy_from_slice(k);
    base_nonce.copy_from_slice(n);
    observer.one_stage(exporter_secret);
    Prefix::new(&[exporter_secret], suite_id, Label::Sec).ok_or(Error::InvalidLength)
}

/// `Context.Export_OneStage(exporter_context, L)`:
/// `LabeledDerive(exporter_secret, "sec", exporter_context, L)`, from the kept prefix.
pub(crate) fn one_stage_export<X: Default + Update + ExtendableOutput, const N: usize>(
    exporter: &Prefix<N>,
    exporter_context: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    if exporter_context.len() > MAX_ONE_STAGE_INPUT_LEN {
        return Err(Error::InputTooLong);
    }
    labeled_derive_finish(exporter.start::<X>(), &[exporter_context], out)
}

macro_rules! one_stage_kdf {
    ($(#[$doc:meta])* $name:ident, $xof:ty, $id:literal, $nh:ty, prefix: $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl super::Kdf for $name {
            const ID: u16 = $id;
            type Nh = $nh;
            /// `L` is encoded in two bytes by `LabeledDerive`.
            const MAX_EXPORT_LEN: usize = 65_535;
            type Exporter = Prefix<$prefix>;

            type Engine = Self;
        }

        impl crate::sealed::KdfEngine<$name> for $name {
            fn key_schedule<O: crate::sealed::ScheduleObserver>(
                suite_id: &[u8],
                mode: u8,
                shared_secret: &[u8],
                info: &[u8],
                psk: &[u8],
                psk_id: &[u8],
                key: &mut [u8],
                base_nonce: &mut [u8],
                observer: &mut O,
            ) -> Result<<Self as super::Kdf>::Exporter, Error> {
                one_stage_key_schedule::<$xof, $nh, $prefix>(
                    suite_id,
                    mode,
                    shared_secret,
                    info,
                    psk,
                    psk_id,
                    key,
                    base_nonce,
                    observer,
                )
            }

            fn export(
                _suite_id: &[u8],
                exporter: &<Self as super::Kdf>::Exporter,
                exporter_context: &[u8],
                out: &mut [u8],
            ) -> Result<(), Error> {
                one_stage_export::<$xof, $prefix>(exporter, exporter_context, out)
            }
        }
    };
}

one_stage_kdf!(
    /// SHAKE128 as a one-stage KDF, `kdf_id` 0x0010 (Nh = 32).
    Shake128, shake::Shake128, 0x0010, U32, prefix: 54
);
one_stage_kdf!(
    /// SHAKE256 as a one-stage KDF, `kdf_id` 0x0011 (Nh = 64).
    Shake256, shake::Shake256, 0x0011, U64, prefix: 86
);
one_stage_kdf!(
    /// TurboSHAKE128 (domain byte 0x1F) as a one-stage KDF, `kdf_id` 0x0012 (Nh = 32).
    TurboShake128, turboshake::TurboShake128, 0x0012, U32, prefix: 54
);
one_stage_kdf!(
    /// TurboSHAKE256 (domain byte 0x1F) as a one-stage KDF, `kdf_id` 0x0013 (Nh = 64).
    TurboShake256, turboshake::TurboShake256, 0x0013, U64, prefix: 86
);
