//! The runtime counterparts of [`crate::symmetric`]: `Extract` / `Expand` chosen by `kdf_id`,
//! and the sequence-numbered AEAD chosen by `aead_id`, over the same typed code.

use core::fmt;

use zeroize::Zeroizing;

use crate::Error;
use crate::aead::{Aead, ExportOnly};
use crate::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use crate::layout::{Fill, lead, size_align, tail, total};
use crate::suite::any::{AnyAead, take_as};
use crate::symmetric::{self as typed_symmetric, TwoStageKdf};

/// `AnyPrk`, one variant per two-stage KDF, in `any::lead`'s layout: no byte of it is padding,
/// so none keeps what the stack held where the value was built.
macro_rules! any_prk {
    ($($v:ident),*) => {
        /// The size of every variant of [`AnyPrk`].
        const PRK_TOTAL: usize = total(&[$(size_align!(typed_symmetric::Prk<$v>)),*], 1);

        /// The pseudorandom key of whichever two-stage KDF.
        #[repr(u8)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        enum AnyPrk {
            $($v(
                Fill<{ lead(core::mem::align_of::<typed_symmetric::Prk<$v>>()) }>,
                typed_symmetric::Prk<$v>,
                Fill<{
                    tail(
                        PRK_TOTAL,
                        core::mem::size_of::<typed_symmetric::Prk<$v>>(),
                        core::mem::align_of::<typed_symmetric::Prk<$v>>(),
                    )
                }>,
            ),)*
        }

        const _: () = assert!(core::mem::size_of::<AnyPrk>() == PRK_TOTAL);

        impl AnyPrk {
            /// The variant of `F` (by its id), holding `prk` (proven by its type: `take_as`).
            fn new<F: TwoStageKdf>(prk: typed_symmetric::Prk<F>) -> Self {
                let slot = &mut Some(prk);
                let any = match F::ID {
                    $(<$v as Kdf>::ID => {
                        take_as(slot).map(|p| Self::$v(Fill::ZERO, p, Fill::ZERO))
                    })*
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every two-stage KDF has a variant"))
            }
        }
    };
}

any_prk!(HkdfSha256, HkdfSha384, HkdfSha512);

/// A pseudorandom key of a two-stage KDF chosen at run time by its `kdf_id`: the output of
/// `Extract(salt, ikm)`, kept keyed for `Expand`. See [`crate::symmetric::Prk`]. Wiped on drop;
/// `Debug` shows the KDF only.
pub struct Prk(AnyPrk);

macro_rules! with_prk {
    ($prk:expr, $p:ident => $body:expr) => {
        match $prk {
            AnyPrk::HkdfSha256(_, $p, _) => $body,
            AnyPrk::HkdfSha384(_, $p, _) => $body,
            AnyPrk::HkdfSha512(_, $p, _) => $body,
        }
    };
}

impl Prk {
    /// `Extract(salt, concat(ikm))` (RFC 5869 §2.2) with the KDF `kdf_id`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for a one-stage KDF (SHAKE, TurboSHAKE), which has no
    /// `Extract`; [`Error::UnsupportedSuite`] for an unknown id.
    pub fn extract(kdf_id: u16, salt: &[u8], ikm: &[&[u8]]) -> Result<Self, Error> {
        use typed_symmetric::Prk as P;
        Ok(Self(match kdf_id {
            HkdfSha256::ID => AnyPrk::new(P::<HkdfSha256>::extract(salt, ikm)),
            HkdfSha384::ID => AnyPrk::new(P::<HkdfSha384>::extract(salt, ikm)),
            HkdfSha512::ID => AnyPrk::new(P::<HkdfSha512>::extract(salt, ikm)),
            // The one-stage KDFs of draft-ietf-hpke-hpke have no separate Extract and Expand.
            Shake128::ID | Shake256::ID | TurboShake128::ID | TurboShake256::ID => {
                return Err(Error::UnsupportedOperation);
            }
            _ => return Err(Error::UnsupportedSuite),
        }))
    }

    /// Whether `kdf_id` is a two-stage KDF this build has, which [`Prk::extract`] takes.
    pub fn supports(kdf_id: u16) -> bool {
        matches!(kdf_id, HkdfSha256::ID | HkdfSha384::ID | HkdfSha512::ID)
    }

    /// The KDF's id.
    pub fn kdf_id(&self) -> u16 {
        fn id<F: TwoStageKdf>(_: &typed_symmetric::Prk<F>) -> u16 {
            F::ID
        }
        with_prk!(&self.0, p => id(p))
    }

    /// `Expand(prk, concat(info), L)` (RFC 5869 §2.3), `L = out.len()`.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `L` exceeds 255·Nh.
    pub fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
        with_prk!(&self.0, p => p.expand(info, out))
    }
}

impl<F: TwoStageKdf> From<typed_symmetric::Prk<F>> for Prk {
    fn from(prk: typed_symmetric::Prk<F>) -> Self {
        Self(AnyPrk::new(prk))
    }
}

impl fmt::Debug for Prk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prk")
            .field("kdf_id", &crate::util::Hex(&self.kdf_id().to_be_bytes()))
            .finish_non_exhaustive()
    }
}

/// The AEAD state of `aead_id`, keyed from byte slices: generated from the table's sealing
/// AEADs, each state made in its variant.
macro_rules! keyed_state {
    (
        dh_kems: [$($dk:tt)*],
        other_kems: [$($ok:tt)*],
        kdfs: [$($fk:tt)*],
        sealing_aeads: [$($(#[$scfg:meta])* $sv:ident: $sa:ty),* $(,)?] $(,)?
    ) => {
        /// `(Nk, Nn)` of a sealing AEAD.
        pub(super) fn aead_sizes(aead_id: u16) -> Result<(usize, usize), Error> {
            match aead_id {
                $($(#[$scfg])* <$sa as Aead>::ID => Ok((
                    <<$sa as Aead>::Nk as hybrid_array::typenum::Unsigned>::USIZE,
                    <<$sa as Aead>::Nn as hybrid_array::typenum::Unsigned>::USIZE,
                )),)*
                ExportOnly::ID => Err(Error::UnsupportedOperation),
                _ => Err(Error::UnsupportedSuite),
            }
        }

        #[allow(unused_variables)]
        fn keyed(aead_id: u16, key: &[u8], base_nonce: &[u8]) -> Result<AnyAead, Error> {
            aead_sizes(aead_id)?;
            match aead_id {
                $($(#[$scfg])* <$sa as Aead>::ID => {
                    let key = hybrid_array::Array::try_from(key).map_err(|_| Error::InvalidLength)?;
                    let key = Zeroizing::new(key);
                    let nonce = hybrid_array::Array::try_from(base_nonce).map_err(|_| Error::InvalidLength)?;
                    Ok(AnyAead::from_typed(crate::context::AeadState::<$sa>::new(&key, nonce)))
                })*
                _ => Err(Error::UnsupportedSuite),
            }
        }
    };
}

suite_table!(keyed_state);

/// The longest `Nk` and `Nn` of the sealing AEADs.
const MAX_KEY_LEN: usize = 32;
const MAX_NONCE_LEN: usize = 12;

fn keyed_from_prk(
    aead_id: u16,
    prk: &Prk,
    key_info: &[u8],
    nonce_info: &[u8],
) -> Result<AnyAead, Error> {
    let (nk, nn) = aead_sizes(aead_id)?;
    let mut key = Zeroizing::new([0u8; MAX_KEY_LEN]);
    let mut nonce = [0u8; MAX_NONCE_LEN];
    let key = key.get_mut(..nk).ok_or(Error::UnsupportedSuite)?;
    let nonce = nonce.get_mut(..nn).ok_or(Error::UnsupportedSuite)?;
    prk.expand(&[key_info], key)?;
    prk.expand(&[nonce_info], nonce)?;
    keyed(aead_id, key, nonce)
}

/// The sealing side of an AEAD chosen at run time by its `aead_id`, keyed once, with RFC 9180
/// §5.2's nonce sequence. See [`crate::symmetric::Sealer`]; ExportOnly has no such AEAD.
pub struct Sealer(AnyAead);

/// The opening side of an AEAD chosen at run time, keyed once, with RFC 9180 §5.2's nonce
/// sequence. See [`crate::symmetric::Opener`].
pub struct Opener(AnyAead);

macro_rules! common {
    ($ty:ident) => {
        impl $ty {
            /// Keys the AEAD `aead_id` with `key` (`Nk` bytes) and `base_nonce` (`Nn` bytes).
            ///
            /// # Errors
            /// [`Error::UnsupportedOperation`] for ExportOnly; [`Error::UnsupportedSuite`] for
            /// an unknown id or one this build leaves out; [`Error::InvalidLength`] if `key` or
            /// `base_nonce` has the wrong length.
            pub fn new(aead_id: u16, key: &[u8], base_nonce: &[u8]) -> Result<Self, Error> {
                keyed(aead_id, key, base_nonce).map(Self)
            }

            /// Whether `aead_id` is a sealing AEAD this build has, which [`Self::new`] takes.
            pub fn supports(aead_id: u16) -> bool {
                aead_sizes(aead_id).is_ok()
            }

            /// The AEAD's id.
            pub fn aead_id(&self) -> u16 {
                self.0.id()
            }

            /// The sequence number of the next message.
            pub fn sequence_number(&self) -> u64 {
                self.0.seq()
            }

            /// Sets the sequence number of the next message. Reusing a sequence number
            /// reuses a nonce: only for tests.
            #[cfg(feature = "hazmat")]
            #[doc(hidden)]
            pub fn set_sequence_number_for_testing_only(&mut self, seq: u64) {
                self.0.set_seq(seq);
            }
        }

        impl<A: crate::aead::SealingAead> From<typed_symmetric::$ty<A>> for $ty {
            fn from(typed: typed_symmetric::$ty<A>) -> Self {
                Self(AnyAead::from_typed(typed.into_state()))
            }
        }

        impl fmt::Debug for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("aead_id", &crate::util::Hex(&self.aead_id().to_be_bytes()))
                    .field("seq", &self.sequence_number())
                    .finish_non_exhaustive()
            }
        }
    };
}

common!(Sealer);
common!(Opener);

impl Sealer {
    /// Keys the AEAD `aead_id` with `key = Expand(prk, key_info, Nk)` and
    /// `base_nonce = Expand(prk, nonce_info, Nn)` (RFC 9458 §4.4), consuming `prk`: one PRK
    /// keys one sealer, as [`crate::symmetric::Sealer::from_prk`] explains.
    ///
    /// # Errors
    /// As [`Self::new`] for `aead_id`.
    pub fn from_prk(
        aead_id: u16,
        prk: Prk,
        key_info: &[u8],
        nonce_info: &[u8],
    ) -> Result<Self, Error> {
        keyed_from_prk(aead_id, &prk, key_info, nonce_info).map(Self)
    }
}

impl Opener {
    /// Keys the AEAD `aead_id` with `key = Expand(prk, key_info, Nk)` and
    /// `base_nonce = Expand(prk, nonce_info, Nn)` (RFC 9458 §4.4); `prk` stays the caller's:
    /// an opener seals nothing.
    ///
    /// # Errors
    /// As [`Self::new`] for `aead_id`.
    pub fn from_prk(
        aead_id: u16,
        prk: &Prk,
        key_info: &[u8],
        nonce_info: &[u8],
    ) -> Result<Self, Error> {
        keyed_from_prk(aead_id, prk, key_info, nonce_info).map(Self)
    }
}

seal_methods!(Sealer, crate::symmetric::Sealer, |this| &mut this.0);
open_methods!(Opener, crate::symmetric::Opener, |this| &mut this.0);
