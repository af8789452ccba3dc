//! `LabeledExtract` and `LabeledExpand` (RFC 9180 §4), the domain-separated HKDF calls every
//! other part of HPKE is built from, and `LabeledDerive` (draft-ietf-hpke-hpke §4), their
//! one-stage counterpart over an extendable-output function.
//!
//! Nothing here allocates: the labeled input is fed to HMAC piece by piece instead of being
//! concatenated into a buffer.

use hkdf::hmac::digest::{ExtendableOutput, Update, XofReader};

use hkdf::hmac::block_api::HmacCore;
use hkdf::hmac::digest::block_api::CoreProxy;
use hkdf::hmac::{EagerHash, Hmac, KeyInit, Mac, digest::Output};
use zeroize::Zeroizing;

use crate::Error;

/// The version label every labeled call starts with (RFC 9180 §4).
const HPKE_VERSION: &[u8] = b"HPKE-v1";

/// Every label RFC 9180 uses, in one place, spelled as the RFC spells them.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    not(all(
        any(feature = "x25519", feature = "x448"),
        any(feature = "nist", feature = "secp256k1")
    )),
    allow(
        dead_code,
        reason = "each DeriveKeyPair label is used by its curve family only"
    )
)]
pub(crate) enum Label {
    /// §7.1.3 DeriveKeyPair
    DkpPrk,
    /// §7.1.3 DeriveKeyPair (X25519, X448)
    Sk,
    /// §7.1.3 DeriveKeyPair (NIST curves, secp256k1)
    Candidate,
    /// §4.1 ExtractAndExpand
    EaePrk,
    /// §4.1 ExtractAndExpand
    SharedSecret,
    /// §5.1 KeySchedule
    PskIdHash,
    /// §5.1 KeySchedule
    InfoHash,
    /// §5.1 KeySchedule
    Secret,
    /// §5.1 KeySchedule
    Key,
    /// §5.1 KeySchedule
    BaseNonce,
    /// §5.1 KeySchedule
    Exp,
    /// §5.3 Export
    Sec,
    /// draft-ietf-hpke-pq §3, §4: DeriveKeyPair of the post-quantum and hybrid KEMs
    #[cfg_attr(
        not(feature = "pq"),
        allow(
            dead_code,
            reason = "the post-quantum KEMs' label, in a build without them"
        )
    )]
    DeriveKeyPair,
}

impl Label {
    pub(crate) const fn as_bytes(self) -> &'static [u8] {
        match self {
            Self::DkpPrk => b"dkp_prk",
            Self::Sk => b"sk",
            Self::Candidate => b"candidate",
            Self::EaePrk => b"eae_prk",
            Self::SharedSecret => b"shared_secret",
            Self::PskIdHash => b"psk_id_hash",
            Self::InfoHash => b"info_hash",
            Self::Secret => b"secret",
            Self::Key => b"key",
            Self::BaseNonce => b"base_nonce",
            Self::Exp => b"exp",
            Self::Sec => b"sec",
            Self::DeriveKeyPair => b"DeriveKeyPair",
        }
    }
}

/// A pseudorandom key: the output of `LabeledExtract`, wiped on drop.
pub(crate) type Prk<H> = Zeroizing<Output<Hmac<H>>>;

/// `LabeledExtract(salt, label, ikm)`, with `ikm` given as pieces to be concatenated:
///
/// ```text
/// labeled_ikm = concat("HPKE-v1", suite_id, label, ikm)
/// return Extract(salt, labeled_ikm)
/// ```
pub(crate) fn labeled_extract<H: EagerHash>(
    salt: &[u8],
    suite_id: &[u8],
    label: Label,
    ikm: &[&[u8]],
) -> Prk<H> {
    extract::<H>(salt, &[HPKE_VERSION, suite_id, label.as_bytes()], ikm)
}

/// `HKDF-Extract(salt, concat(prefix, ikm))` (RFC 5869 §2.2): the labeled form above, and with
/// no prefix the plain `Extract` of `kdf::hkdf` (`symmetric::Prk`). HKDF-Extract(salt, IKM) =
/// HMAC-Hash(salt, IKM); an empty salt is the all-zero key, which is what HMAC's zero padding
/// of an empty key gives.
pub(crate) fn extract<H: EagerHash>(salt: &[u8], prefix: &[&[u8]], ikm: &[&[u8]]) -> Prk<H> {
    let mut mac =
        <Hmac<H> as KeyInit>::new_from_slice(salt).expect("HMAC accepts keys of any length");
    for piece in prefix.iter().chain(ikm) {
        Mac::update(&mut mac, piece);
    }
    Zeroizing::new(mac.finalize().into_bytes())
}

/// HKDF-Expand's state for one PRK (RFC 5869 §2.3): HMAC keyed with the PRK, kept as the two
/// hash states HMAC keys (after `PRK ^ ipad` and `PRK ^ opad`), so the key schedule is done
/// once for several expansions of the same secret. Without the block buffer of `hmac::Hmac`
/// (and so of `hkdf::Hkdf`): that buffer is `MaybeUninit` until data arrives (`block-buffer`
/// 0.12), so a keyed `Hmac` held in a context or a PRK carried up to a block, less one byte,
/// of whatever the stack held where it was built (`tests/zeroize_observed.rs`,
/// `no_stale_bytes`). The hash states are written whole; each expansion puts a copy of them
/// with an empty buffer on the stack, wiped when dropped (the hash cores wipe themselves).
// `pub`, in a private module, because the KDFs' hidden associated types name it.
#[allow(unreachable_pub)]
pub struct Expander<H: EagerHash>(HmacCore<H>);

impl<H: EagerHash> core::fmt::Debug for Expander<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Expander { .. }")
    }
}

impl<H: EagerHash> Clone for Expander<H> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// Turns a PRK into the HKDF-Expand state.
pub(crate) fn expander<H: EagerHash>(prk: &[u8]) -> Expander<H> {
    let mac = <Hmac<H> as KeyInit>::new_from_slice(prk).expect("HMAC accepts keys of any length");
    Expander(mac.decompose().0)
}

impl<H: EagerHash> Expander<H> {
    /// `HKDF-Expand(PRK, concat(info), L)` with `L = out.len()` (RFC 5869 §2.3):
    ///
    /// ```text
    /// T(0) = empty; T(i) = HMAC-Hash(PRK, T(i-1) || info || i); OKM = first L bytes of T(1) || T(2) || ...
    /// ```
    ///
    /// # Errors
    /// `Err(())` if `L` exceeds 255·Nh; `out` is then left as it was.
    pub(crate) fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), ()> {
        let nh = <Output<Hmac<H>> as Default>::default().len();
        if out.len() > 255 * nh {
            return Err(());
        }
        let mut previous = Zeroizing::new(Output::<Hmac<H>>::default());
        for (i, chunk) in out.chunks_mut(nh).enumerate() {
            let mut mac = <Hmac<H> as CoreProxy>::compose(self.0.clone(), Default::default());
            if i > 0 {
                Mac::update(&mut mac, &previous[..]);
            }
            for piece in info {
                Mac::update(&mut mac, piece);
            }
            // i < 255, checked above.
            Mac::update(&mut mac, &[(i + 1) as u8]);
            *previous = mac.finalize().into_bytes();
            chunk.copy_from_slice(&previous[..chunk.len()]);
        }
        Ok(())
    }
}

/// `LabeledExpand(prk, label, info, L)` with `L = out.len()`:
///
/// ```text
/// labeled_info = concat(I2OSP(L, 2), "HPKE-v1", suite_id, label, info)
/// return Expand(prk, labeled_info, L)
/// ```
///
/// # Errors
/// [`Error::ExportTooLong`] if `L` exceeds 255·Nh (HKDF's limit, RFC 5869 §2.3) or 65535.
pub(crate) fn labeled_expand<H: EagerHash>(
    hkdf: &Expander<H>,
    suite_id: &[u8],
    label: Label,
    info: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let len = u16::try_from(out.len()).map_err(|_| Error::ExportTooLong)?;
    let len = len.to_be_bytes();
    // At most 4 info pieces are ever passed (mode || psk_id_hash || info_hash is 3).
    let mut pieces: [&[u8]; 8] = [&[]; 8];
    pieces[0] = &len;
    pieces[1] = HPKE_VERSION;
    pieces[2] = suite_id;
    pieces[3] = label.as_bytes();
    let n = 4 + info.len();
    let slots = pieces.get_mut(4..n).ok_or(Error::InputTooLong)?;
    slots.copy_from_slice(info);
    hkdf.expand(&pieces[..n], out)
        .map_err(|()| Error::ExportTooLong)
}

/// The absorbing prefix of `LabeledDerive(ikm, label, context, L)` up to and including the
/// label: `concat(ikm, "HPKE-v1", suite_id, lengthPrefixed(label))`. What follows is
/// `concat(I2OSP(L, 2), context)`, see [`labeled_derive_finish`].
pub(crate) fn labeled_derive_start<X: Default + Update>(
    ikm: &[&[u8]],
    suite_id: &[u8],
    label: Label,
) -> X {
    let mut xof = X::default();
    absorb_labeled_prefix(&mut xof, ikm, suite_id, label);
    xof
}

/// What [`labeled_derive_start`] absorbs, into any `Update` (an XOF, or [`Prefix`]).
fn absorb_labeled_prefix(sink: &mut impl Update, ikm: &[&[u8]], suite_id: &[u8], label: Label) {
    for piece in ikm {
        sink.update(piece);
    }
    sink.update(HPKE_VERSION);
    sink.update(suite_id);
    let label = label.as_bytes();
    // Labels are short constants; lengthPrefixed(label) = concat(I2OSP(len(label), 2), label).
    sink.update(&(label.len() as u16).to_be_bytes());
    sink.update(label);
}

/// The bytes of [`labeled_derive_start`]'s prefix, `N` of them exactly, written whole: what a
/// one-stage exporter keeps, so that each `Export` starts an XOF from it (one copy into the
/// XOF's buffer) instead of holding an XOF state, whose block buffer is `MaybeUninit` past what
/// it has absorbed. Wiped on drop.
#[derive(zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
// `pub`, in a private module, because the one-stage KDFs' hidden `Exporter` names it.
#[allow(unreachable_pub)]
pub struct Prefix<const N: usize>([u8; N]);

impl<const N: usize> core::fmt::Debug for Prefix<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Prefix { .. }")
    }
}

impl<const N: usize> Prefix<N> {
    /// The prefix of `LabeledDerive(ikm, label, ..)`; `None` unless it is exactly `N` bytes.
    pub(crate) fn new(ikm: &[&[u8]], suite_id: &[u8], label: Label) -> Option<Self> {
        /// Appends to a fixed buffer, counting what would not fit.
        struct Writer<'a> {
            buf: &'a mut [u8],
            at: usize,
        }
        impl Update for Writer<'_> {
            fn update(&mut self, data: &[u8]) {
                let end = self.at.saturating_add(data.len());
                if let Some(dst) = self.buf.get_mut(self.at..end) {
                    dst.copy_from_slice(data);
                }
                self.at = end;
            }
        }
        let mut prefix = Self([0; N]);
        let mut writer = Writer {
            buf: &mut prefix.0,
            at: 0,
        };
        absorb_labeled_prefix(&mut writer, ikm, suite_id, label);
        (writer.at == N).then_some(prefix)
    }

    /// An XOF that has absorbed the prefix.
    pub(crate) fn start<X: Default + Update>(&self) -> X {
        let mut xof = X::default();
        xof.update(&self.0);
        xof
    }
}

/// Completes `LabeledDerive`: absorbs `concat(I2OSP(L, 2), context)` and squeezes `L = out.len()`
/// bytes: `Derive(labeled_ikm, L)`.
///
/// # Errors
/// [`Error::ExportTooLong`] if `L` exceeds 65535, which `I2OSP(L, 2)` cannot encode.
pub(crate) fn labeled_derive_finish<X: Update + ExtendableOutput>(
    mut xof: X,
    context: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let len = u16::try_from(out.len()).map_err(|_| Error::ExportTooLong)?;
    xof.update(&len.to_be_bytes());
    for piece in context {
        xof.update(piece);
    }
    xof.finalize_xof().read(out);
    Ok(())
}

/// `LabeledDerive(ikm, label, context, L)` with `L = out.len()`:
///
/// ```text
/// labeled_ikm = concat(ikm, "HPKE-v1", suite_id, lengthPrefixed(label), I2OSP(L, 2), context)
/// return Derive(labeled_ikm, L)
/// ```
///
/// # Errors
/// [`Error::ExportTooLong`] if `L` exceeds 65535.
pub(crate) fn labeled_derive<X: Default + Update + ExtendableOutput>(
    ikm: &[&[u8]],
    suite_id: &[u8],
    label: Label,
    context: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    labeled_derive_finish(
        labeled_derive_start::<X>(ikm, suite_id, label),
        context,
        out,
    )
}

#[cfg(test)]
mod tests {
    use super::{Label, Prefix, expander};

    /// The keyed states name their type in `Debug` and show nothing of what they hold.
    #[test]
    fn debug_names_the_type_and_nothing_else() {
        let expander = expander::<sha2::Sha256>(&[7; 32]);
        assert_eq!(std::format!("{expander:?}"), "Expander { .. }");
        // ikm (4) || "HPKE-v1" (7) || suite_id (1) || I2OSP(3, 2) || "sec" (3): 17 bytes.
        let prefix = Prefix::<17>::new(&[&[7; 4]], b"s", Label::Sec).expect("17 bytes");
        assert_eq!(std::format!("{prefix:?}"), "Prefix { .. }");
    }
}
