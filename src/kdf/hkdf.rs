//! HKDF-SHA256, HKDF-SHA384 and HKDF-SHA512 (RFC 9180 §7.2, RFC 5869): the two-stage key
//! schedule of RFC 9180 §5.1.

use crate::labeled::Expander;
use hkdf::hmac::EagerHash;
use hkdf::hmac::digest::Output;
use hybrid_array::typenum::{U32, U48, U64};
use zeroize::Zeroizing;

use crate::Error;
use crate::labeled::{Label, expander, labeled_expand, labeled_extract};
use crate::sealed::ScheduleObserver;

/// RFC 9180 §5.1 `KeySchedule` for a two-stage KDF built on the hash `H`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn two_stage_key_schedule<H: EagerHash>(
    suite_id: &[u8],
    mode: u8,
    shared_secret: &[u8],
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
    key: &mut [u8],
    base_nonce: &mut [u8],
    observer: &mut impl ScheduleObserver,
) -> Result<Expander<H>, Error> {
    // psk_id_hash = LabeledExtract("", "psk_id_hash", psk_id)
    let psk_id_hash = labeled_extract::<H>(&[], suite_id, Label::PskIdHash, &[psk_id]);
    // info_hash = LabeledExtract("", "info_hash", info)
    let info_hash = labeled_extract::<H>(&[], suite_id, Label::InfoHash, &[info]);
    // key_schedule_context = concat(mode, psk_id_hash, info_hash)
    let mode = [mode];
    let key_schedule_context: [&[u8]; 3] = [&mode, &psk_id_hash, &info_hash];

    // secret = LabeledExtract(shared_secret, "secret", psk)
    let secret = labeled_extract::<H>(shared_secret, suite_id, Label::Secret, &[psk]);
    let secret_hkdf = expander::<H>(&secret);

    // key = LabeledExpand(secret, "key", key_schedule_context, Nk)
    if !key.is_empty() {
        labeled_expand(
            &secret_hkdf,
            suite_id,
            Label::Key,
            &key_schedule_context,
            key,
        )?;
    }
    // base_nonce = LabeledExpand(secret, "base_nonce", key_schedule_context, Nn)
    if !base_nonce.is_empty() {
        labeled_expand(
            &secret_hkdf,
            suite_id,
            Label::BaseNonce,
            &key_schedule_context,
            base_nonce,
        )?;
    }
    // exporter_secret = LabeledExpand(secret, "exp", key_schedule_context, Nh)
    let mut exporter_secret = Zeroizing::new(Output::<H>::default());
    labeled_expand(
        &secret_hkdf,
        suite_id,
        Label::Exp,
        &key_schedule_context,
        &mut exporter_secret,
    )?;

    observer.two_stage(&key_schedule_context, &secret, &exporter_secret);
    Ok(expander::<H>(&exporter_secret))
}

/// `Extract(salt, concat(ikm))` (RFC 5869 §2.2), kept keyed for `Expand`: HMAC-Hash keyed
/// with `salt` (an empty salt is the all-zero key HMAC's padding gives) over the pieces.
pub(crate) fn extract<H: EagerHash>(salt: &[u8], ikm: &[&[u8]]) -> Expander<H> {
    expander::<H>(&crate::labeled::extract::<H>(salt, &[], ikm))
}

/// `Expand(prk, concat(info), L)` (RFC 5869 §2.3) with `L = out.len()`.
pub(crate) fn expand<H: EagerHash>(
    prk: &Expander<H>,
    info: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    prk.expand(info, out).map_err(|()| Error::InvalidLength)
}

macro_rules! hkdf_kdf {
    ($(#[$doc:meta])* $name:ident, $hash:ty, $id:literal, $nh:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl super::Kdf for $name {
            const ID: u16 = $id;
            type Nh = $nh;
            const MAX_EXPORT_LEN: usize = 255 * <$nh as hybrid_array::typenum::Unsigned>::USIZE;
            type Exporter = Expander<$hash>;

            type Engine = Self;
        }

        impl super::TwoStageKdf for $name {
            type Prk = Expander<$hash>;
            type TwoStageEngine = Self;
        }

        impl crate::sealed::TwoStageEngine<$name> for $name {
            fn extract(salt: &[u8], ikm: &[&[u8]]) -> Expander<$hash> {
                extract::<$hash>(salt, ikm)
            }

            fn expand(prk: &Expander<$hash>, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
                expand::<$hash>(prk, info, out)
            }

            fn extract_public(salt: &[u8], ikm: &[&[u8]]) -> Output<$hash> {
                // HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM) (RFC 5869 §2.2).
                (*crate::labeled::extract::<$hash>(salt, &[], ikm)).clone()
            }

            fn hash(pieces: &[&[u8]]) -> Output<$hash> {
                use hkdf::hmac::digest::Digest as _;
                let mut h = <$hash>::new();
                for piece in pieces {
                    h.update(piece);
                }
                h.finalize()
            }
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
                two_stage_key_schedule::<$hash>(
                    suite_id, mode, shared_secret, info, psk, psk_id, key, base_nonce, observer,
                )
            }

            fn export(
                suite_id: &[u8],
                exporter: &<Self as super::Kdf>::Exporter,
                exporter_context: &[u8],
                out: &mut [u8],
            ) -> Result<(), Error> {
                // return LabeledExpand(exporter_secret, "sec", exporter_context, L)
                labeled_expand(exporter, suite_id, Label::Sec, &[exporter_context], out)
            }
        }
    };
}

hkdf_kdf!(
    /// HKDF-SHA256, `kdf_id` 0x0001.
    HkdfSha256, sha2::Sha256, 0x0001, U32
);
hkdf_kdf!(
    /// HKDF-SHA384, `kdf_id` 0x0002.
    HkdfSha384, sha2::Sha384, 0x0002, U48
);
hkdf_kdf!(
    /// HKDF-SHA512, `kdf_id` 0x0003.
    HkdfSha512, sha2::Sha512, 0x0003, U64
);
