//! The runtime counterparts of [`crate::symmetric`]: `Extract` / `Expand` chosen by `kdf_id`,
//! and the sequence-numbered AEAD chosen by `aead_id`, over the same typed code. The table
//! generates `AnyPrk` and its `match`es; the work is generic Rust, dispatched by `steps.rs`.

use core::fmt;

use zeroize::Zeroizing;

use super::steps::{SealingStep, TwoStageStep, by_sealing_aead, by_two_stage_kdf};
use crate::Error;
use crate::aead::SealingAead;
use crate::context::AeadState;
use crate::kdf::{Kdf, TwoStageKdf};
use crate::layout::{Fill, lead, size_align, tail, total};
use crate::suite::any::{AnyAead, take_as};
use crate::symmetric as typed_symmetric;

/// Work on the typed PRK inside an [`AnyPrk`], generic over its KDF.
trait OnPrk {
    type Output;
    fn run<F: TwoStageKdf>(self, prk: &typed_symmetric::Prk<F>) -> Self::Output;
}

/// `AnyPrk`, one variant per two-stage KDF of the table, in `any::lead`'s layout (no byte of
/// it is padding, so none keeps what the stack held where the value was built), and its
/// `match`es.
macro_rules! any_prk {
    (
        dh_kems: [$($dk:tt)*],
        other_kems: [$($ok:tt)*],
        two_stage_kdfs: [$($v:ident: $f:ty),* $(,)?],
        one_stage_kdfs: [$($f1:tt)*],
        sealing_aeads: [$($sa:tt)*] $(,)?
    ) => {
        /// The size of every variant of [`AnyPrk`].
        const PRK_TOTAL: usize = total(&[$(size_align!(typed_symmetric::Prk<$f>)),*], 1);

        /// The pseudorandom key of whichever two-stage KDF.
        #[repr(u8)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        enum AnyPrk {
            $($v(
                Fill<{ lead(core::mem::align_of::<typed_symmetric::Prk<$f>>()) }>,
                typed_symmetric::Prk<$f>,
                Fill<{
                    tail(
                        PRK_TOTAL,
                        core::mem::size_of::<typed_symmetric::Prk<$f>>(),
                        core::mem::align_of::<typed_symmetric::Prk<$f>>(),
                    )
                }>,
            ),)*
        }

        impl AnyPrk {
            /// The variant of the KDF `id`, holding the PRK in `slot` if its type is that
            /// variant's ([`take_as`]).
            #[inline(always)]
            fn from_slot(id: u16, slot: &mut dyn core::any::Any) -> Option<Self> {
                match id {
                    $(<$f as Kdf>::ID => take_as(slot).map(|p| Self::$v(Fill::ZERO, p, Fill::ZERO)),)*
                    _ => None,
                }
            }

            /// `work` on the PRK inside.
            fn visit<W: OnPrk>(&self, work: W) -> W::Output {
                match self {
                    $(Self::$v(_, p, _) => work.run(p),)*
                }
            }
        }
    };
}

suite_table!(any_prk);

const _: () = assert!(core::mem::size_of::<AnyPrk>() == PRK_TOTAL);

impl AnyPrk {
    /// The variant of `F` (by its id), holding `prk` (proven by its type: `take_as`).
    fn new<F: TwoStageKdf>(prk: typed_symmetric::Prk<F>) -> Self {
        Self::from_slot(F::ID, &mut Some(prk))
            .unwrap_or_else(|| unreachable!("every two-stage KDF has a variant"))
    }
}

/// A pseudorandom key of a two-stage KDF chosen at run time by its `kdf_id`: the output of
/// `Extract(salt, ikm)`, kept keyed for `Expand`. See [`crate::symmetric::Prk`]. Wiped on drop;
/// `Debug` shows the KDF only.
pub struct Prk(AnyPrk);

impl Prk {
    /// `Extract(salt, concat(ikm))` (RFC 5869 §2.2) with the KDF `kdf_id`.
    ///
    /// # Errors
    /// [`Error::UnsupportedOperation`] for a one-stage KDF (SHAKE, TurboSHAKE), which has no
    /// `Extract`; [`Error::UnsupportedSuite`] for an unknown id.
    pub fn extract(kdf_id: u16, salt: &[u8], ikm: &[&[u8]]) -> Result<Self, Error> {
        struct Extract<'a> {
            salt: &'a [u8],
            ikm: &'a [&'a [u8]],
        }
        impl TwoStageStep for Extract<'_> {
            type Output = AnyPrk;
            fn run<F: TwoStageKdf>(self) -> AnyPrk {
                AnyPrk::new(typed_symmetric::Prk::<F>::extract(self.salt, self.ikm))
            }
        }
        by_two_stage_kdf(kdf_id, Extract { salt, ikm }).map(Self)
    }

    /// Whether `kdf_id` is a two-stage KDF this build has, which [`Prk::extract`] takes.
    pub fn supports(kdf_id: u16) -> bool {
        by_two_stage_kdf(kdf_id, super::steps::Nothing).is_ok()
    }

    /// The KDF's id.
    pub fn kdf_id(&self) -> u16 {
        struct Id;
        impl OnPrk for Id {
            type Output = u16;
            fn run<F: TwoStageKdf>(self, _: &typed_symmetric::Prk<F>) -> u16 {
                F::ID
            }
        }
        self.0.visit(Id)
    }

    /// `Expand(prk, concat(info), L)` (RFC 5869 §2.3), `L = out.len()`.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `L` exceeds 255·Nh.
    pub fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
        struct Expand<'a> {
            info: &'a [&'a [u8]],
            out: &'a mut [u8],
        }
        impl OnPrk for Expand<'_> {
            type Output = Result<(), Error>;
            fn run<F: TwoStageKdf>(self, prk: &typed_symmetric::Prk<F>) -> Self::Output {
                prk.expand(self.info, self.out)
            }
        }
        self.0.visit(Expand { info, out })
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

/// `(Nk, Nn)` of the sealing AEAD `aead_id`.
pub(super) fn aead_sizes(aead_id: u16) -> Result<(usize, usize), Error> {
    struct Sizes;
    impl SealingStep for Sizes {
        type Output = (usize, usize);
        fn run<A: SealingAead>(self) -> (usize, usize) {
            use hybrid_array::typenum::Unsigned;
            (A::Nk::USIZE, A::Nn::USIZE)
        }
    }
    by_sealing_aead(aead_id, Sizes)
}

/// The AEAD state of `aead_id`, keyed with `key` and `base_nonce` (RFC 9180 §5.2's key and
/// base nonce), each of the AEAD's own length.
fn keyed(aead_id: u16, key: &[u8], base_nonce: &[u8]) -> Result<AnyAead, Error> {
    struct Keyed<'a> {
        key: &'a [u8],
        base_nonce: &'a [u8],
    }
    impl SealingStep for Keyed<'_> {
        type Output = Result<AnyAead, Error>;
        fn run<A: SealingAead>(self) -> Self::Output {
            let key = Zeroizing::new(
                hybrid_array::Array::try_from(self.key).map_err(|_| Error::InvalidLength)?,
            );
            let nonce =
                hybrid_array::Array::try_from(self.base_nonce).map_err(|_| Error::InvalidLength)?;
            Ok(AnyAead::from_typed(AeadState::<A>::new(&key, nonce)))
        }
    }
    by_sealing_aead(aead_id, Keyed { key, base_nonce })?
}

/// The AEAD state of `aead_id`, keyed with `key = Expand(prk, key_info, Nk)` and
/// `base_nonce = Expand(prk, nonce_info, Nn)`, each expanded to the AEAD's own length.
fn keyed_from_prk(
    aead_id: u16,
    prk: &Prk,
    key_info: &[u8],
    nonce_info: &[u8],
) -> Result<AnyAead, Error> {
    struct FromPrk<'a> {
        prk: &'a Prk,
        key_info: &'a [u8],
        nonce_info: &'a [u8],
    }
    impl SealingStep for FromPrk<'_> {
        type Output = Result<AnyAead, Error>;
        fn run<A: SealingAead>(self) -> Self::Output {
            let mut key = Zeroizing::new(hybrid_array::Array::<u8, A::Nk>::default());
            let mut nonce = hybrid_array::Array::<u8, A::Nn>::default();
            self.prk.expand(&[self.key_info], &mut key)?;
            self.prk.expand(&[self.nonce_info], &mut nonce)?;
            Ok(AnyAead::from_typed(AeadState::<A>::new(&key, nonce)))
        }
    }
    let from_prk = FromPrk {
        prk,
        key_info,
        nonce_info,
    };
    by_sealing_aead(aead_id, from_prk)?
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
                by_sealing_aead(aead_id, super::steps::Nothing).is_ok()
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
