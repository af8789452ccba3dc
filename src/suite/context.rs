//! Runtime contexts: a typed context taken apart into an enum over the AEAD states and an
//! enum over the KDF exporter secrets (`any.rs`). No allocation, no trait object; every
//! operation is one `match` away from the typed code, which does the work.

use core::fmt;

use crate::Error;
use crate::aead::{Aead, SealingAead};
use crate::context::{AeadState, Context};
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::key_schedule::Schedule;
use crate::layout::Fill;
use crate::suite::Suite;
use crate::suite::any::{AnyAead, AnyExporter, OnSealing};
use crate::suite::typed;
use crate::util::Hex;

/// The length of every sealing AEAD's tag in RFC 9180 (`Nt`).
pub const TAG_LEN: usize = 16;

/// What both runtime contexts hold, in `repr(C)` order with zeros after the suite up to the
/// struct's size: no byte of it is padding (`any::lead` says why that matters).
#[repr(C)]
pub(super) struct State {
    aead: AnyAead,
    exporter: AnyExporter,
    suite: Suite,
    fill: Fill<STATE_FILL>,
}

/// The zeros after [`State`]'s fields, to a multiple of its alignment.
const STATE_FILL: usize = {
    use core::mem::{align_of, size_of};
    let used = size_of::<AnyAead>() + size_of::<AnyExporter>() + size_of::<Suite>();
    let mut align = align_of::<AnyAead>();
    if align_of::<AnyExporter>() > align {
        align = align_of::<AnyExporter>();
    }
    used.div_ceil(align) * align - used
};

const _: () = assert!(
    core::mem::size_of::<State>()
        == core::mem::size_of::<AnyAead>()
            + core::mem::size_of::<AnyExporter>()
            + core::mem::size_of::<Suite>()
            + STATE_FILL
);

impl State {
    fn from_typed<K: Kem, F: Kdf, A: Aead>(ctx: Context<K, F, A>) -> Self {
        let Context { aead, exporter, .. } = ctx;
        Self {
            suite: Suite::of::<K, F, A>(),
            aead: AnyAead::from_typed(aead),
            exporter: AnyExporter::from_typed::<F>(exporter),
            fill: Fill::ZERO,
        }
    }

    /// The state of a context of `suite`, from its key schedule (RFC 9180 §5.1): the AEAD
    /// keyed once, the exporter secret kept.
    pub(super) fn from_schedule<F: Kdf, A: Aead>(suite: Suite, schedule: Schedule<F, A>) -> Self {
        let Schedule {
            key,
            base_nonce,
            exporter,
        } = schedule;
        Self {
            suite,
            aead: AnyAead::from_typed(AeadState::<A>::new(&key, base_nonce)),
            exporter: AnyExporter::from_typed::<F>(exporter),
            fill: Fill::ZERO,
        }
    }

    fn seq(&self) -> u64 {
        self.aead.seq()
    }

    #[cfg(feature = "hazmat")]
    fn set_seq(&mut self, seq: u64) {
        self.aead.set_seq(seq);
    }

    fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let id = self.suite.hpke_suite_id();
        self.exporter.export(&id, exporter_context, out)
    }

    fn fmt(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name)
            .field("suite", &self.suite)
            .field("seq", &self.seq())
            .finish_non_exhaustive()
    }
}

/// The sender's side of an HPKE context (RFC 9180 §5.2) for a suite chosen at run time: seal
/// messages in order, export secrets.
///
/// Made by [`Suite::setup_sender`], or from a typed [`crate::SenderContext`] with `From`.
/// It holds the AEAD's keyed state and the KDF's exporter secret in enums, not boxes, so it
/// needs no allocator. Its size is the largest typed context's (AES-256-GCM's key schedule
/// with HKDF-SHA512's keyed HMAC) plus the suite ids and enum tags: `tests/suite.rs`
/// (`runtime_context_sizes`) holds it within 64 bytes of the typed one. With an ExportOnly
/// suite, `export` works and the seal methods return [`Error::UnsupportedOperation`]. Secrets
/// are wiped on drop; `Debug` shows the suite and the sequence number only.
pub struct SenderContext(pub(super) State);

/// The receiver's side of an HPKE context for a suite chosen at run time: open messages in
/// order, export secrets. The counterpart of [`SenderContext`].
pub struct ReceiverContext(pub(super) State);

macro_rules! common {
    ($rt:ident, $typed:ident) => {
        impl<K: Kem, F: Kdf, A: crate::aead::Aead> From<crate::$typed<K, F, A>> for $rt {
            fn from(ctx: crate::$typed<K, F, A>) -> Self {
                Self(State::from_typed(ctx.into_inner()))
            }
        }

        impl $rt {
            /// The context's suite.
            pub fn suite(&self) -> Suite {
                self.0.suite
            }

            /// The sequence number of the next message (0 for ExportOnly, which has none).
            pub fn sequence_number(&self) -> u64 {
                self.0.seq()
            }

            /// `Context.Export(exporter_context, L)` (RFC 9180 §5.3), `L = out.len()`.
            ///
            /// # Errors
            /// [`Error::ExportTooLong`] beyond the KDF's limit; [`Error::InputTooLong`] for an
            /// exporter context a one-stage KDF cannot encode.
            pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
                self.0.export(exporter_context, out)
            }

            /// Sets the sequence number of the next message. Reusing a sequence number
            /// reuses a nonce: only for tests.
            #[cfg(feature = "hazmat")]
            #[doc(hidden)]
            pub fn set_sequence_number_for_testing_only(&mut self, seq: u64) {
                self.0.set_seq(seq);
            }
        }

        impl fmt::Debug for $rt {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(stringify!($rt), f)
            }
        }
    };
}

common!(SenderContext, SenderContext);
common!(ReceiverContext, ReceiverContext);

/// The seal methods of a runtime type whose AEAD state `$aead` gives (`&mut AnyAead`): the
/// runtime contexts and `suite::Sealer`. `$what` names the typed counterpart, whose errors are
/// these but for `UnsupportedOperation` (an ExportOnly context's).
macro_rules! seal_methods {
    ($ty:ident, $what:path, |$this:ident| $aead:expr) => {
        // Without a sealing AEAD in the build every seal is `UnsupportedOperation`.
        #[cfg_attr(
            not(any(feature = "aes-gcm", feature = "chacha20poly1305")),
            allow(unused_variables)
        )]
        impl $ty {
            /// `Seal(aad, pt)` under the next nonce (RFC 9180 §5.2) in place: encrypts
            /// `buffer` and returns the tag. Allocates nothing.
            ///
            /// # Errors
            /// [`Error::UnsupportedOperation`] for an ExportOnly context; otherwise as
            #[doc = concat!("[`", stringify!($what), "::seal_in_place_detached`].")]
            pub fn seal_in_place_detached(
                &mut self,
                aad: &[u8],
                buffer: &mut [u8],
            ) -> Result<[u8; $crate::suite::TAG_LEN], Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::SealInPlace { aad, buffer })
            }

            /// `Seal(aad, pt)` into a caller buffer: writes `ct || tag` (`pt.len() + 16`
            /// bytes) to the front of `out` and returns that length. Allocates nothing.
            ///
            /// # Errors
            /// [`Error::UnsupportedOperation`] for an ExportOnly context; otherwise as
            #[doc = concat!("[`", stringify!($what), "::seal_into`].")]
            pub fn seal_into(
                &mut self,
                aad: &[u8],
                pt: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::SealInto { aad, pt, out })
            }

            /// `Seal(aad, pt)`: returns `ct || tag`.
            ///
            /// # Errors
            #[doc = concat!("As [`", stringify!($ty), "::seal_into`].")]
            #[cfg(feature = "alloc")]
            pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::Seal { aad, pt })
            }
        }
    };
}

/// The open methods of a runtime type whose AEAD state `$aead` gives: the runtime receiver
/// context and `suite::Opener`.
macro_rules! open_methods {
    ($ty:ident, $what:path, |$this:ident| $aead:expr) => {
        // Without a sealing AEAD in the build every open is `UnsupportedOperation`.
        #[cfg_attr(
            not(any(feature = "aes-gcm", feature = "chacha20poly1305")),
            allow(unused_variables)
        )]
        impl $ty {
            /// `Open(aad, ct)` under the next nonce (RFC 9180 §5.2) in place: checks `tag`,
            /// then decrypts `buffer`. Allocates nothing. On failure `buffer` and the sequence
            /// number are left unchanged.
            ///
            /// # Errors
            /// [`Error::UnsupportedOperation`] for an ExportOnly context;
            /// [`Error::InvalidLength`] if `tag` is not 16 bytes; otherwise as
            #[doc = concat!("[`", stringify!($what), "::open_in_place_detached`].")]
            pub fn open_in_place_detached(
                &mut self,
                aad: &[u8],
                buffer: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::OpenInPlace { aad, buffer, tag })
            }

            /// `Open(aad, ct)` into a caller buffer: `ct` is `ciphertext || tag`; writes the
            /// plaintext to the front of `out` and returns its length. Allocates nothing.
            ///
            /// # Errors
            /// [`Error::UnsupportedOperation`] for an ExportOnly context; otherwise as
            #[doc = concat!("[`", stringify!($what), "::open_into`].")]
            pub fn open_into(
                &mut self,
                aad: &[u8],
                ct: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::OpenInto { aad, ct, out })
            }

            /// `Open(aad, ct)`: `ct` is `ciphertext || tag`; returns the plaintext.
            ///
            /// # Errors
            #[doc = concat!("As [`", stringify!($ty), "::open_into`].")]
            #[cfg(feature = "alloc")]
            pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
                let $this = self;
                $aead.visit_sealing($crate::suite::context::Open { aad, ct })
            }
        }
    };
}

seal_methods!(SenderContext, crate::SenderContext, |this| &mut this.0.aead);
open_methods!(ReceiverContext, crate::ReceiverContext, |this| &mut this
    .0
    .aead);

pub use super::any::MAX_ENC_LEN;

// The seal and open methods' work on the typed AEAD state (`any::OnSealing`).

pub(super) struct SealInPlace<'a> {
    pub(super) aad: &'a [u8],
    pub(super) buffer: &'a mut [u8],
}

impl OnSealing for SealInPlace<'_> {
    type Output = [u8; TAG_LEN];
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<[u8; TAG_LEN], Error> {
        let tag = state.seal_in_place_detached(self.aad, self.buffer)?;
        <[u8; TAG_LEN]>::try_from(&tag[..]).map_err(|_| Error::InvalidLength)
    }
}

pub(super) struct SealInto<'a> {
    pub(super) aad: &'a [u8],
    pub(super) pt: &'a [u8],
    pub(super) out: &'a mut [u8],
}

impl OnSealing for SealInto<'_> {
    type Output = usize;
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<usize, Error> {
        state.seal_into(self.aad, self.pt, self.out)
    }
}

#[cfg(feature = "alloc")]
pub(super) struct Seal<'a> {
    pub(super) aad: &'a [u8],
    pub(super) pt: &'a [u8],
}

#[cfg(feature = "alloc")]
impl OnSealing for Seal<'_> {
    type Output = alloc::vec::Vec<u8>;
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<Self::Output, Error> {
        state.seal(self.aad, self.pt)
    }
}

pub(super) struct OpenInPlace<'a> {
    pub(super) aad: &'a [u8],
    pub(super) buffer: &'a mut [u8],
    pub(super) tag: &'a [u8],
}

impl OnSealing for OpenInPlace<'_> {
    type Output = ();
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<(), Error> {
        let tag = self.tag.try_into().map_err(|_| Error::InvalidLength)?;
        state.open_in_place_detached(self.aad, self.buffer, &tag)
    }
}

pub(super) struct OpenInto<'a> {
    pub(super) aad: &'a [u8],
    pub(super) ct: &'a [u8],
    pub(super) out: &'a mut [u8],
}

impl OnSealing for OpenInto<'_> {
    type Output = usize;
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<usize, Error> {
        state.open_into(self.aad, self.ct, self.out)
    }
}

#[cfg(feature = "alloc")]
pub(super) struct Open<'a> {
    pub(super) aad: &'a [u8],
    pub(super) ct: &'a [u8],
}

#[cfg(feature = "alloc")]
impl OnSealing for Open<'_> {
    type Output = alloc::vec::Vec<u8>;
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<Self::Output, Error> {
        state.open(self.aad, self.ct)
    }
}

/// An encapsulated key (`enc`) of a suite chosen at run time, held inline (no allocation).
#[derive(Clone)]
pub struct EncappedKey {
    bytes: [u8; MAX_ENC_LEN],
    len: usize,
}

impl EncappedKey {
    pub(crate) fn from_typed<K: Kem>(enc: &typed::EncappedKey<K>) -> Result<Self, Error> {
        let src = enc.as_bytes();
        let mut bytes = [0u8; MAX_ENC_LEN];
        bytes
            .get_mut(..src.len())
            .ok_or(Error::InvalidEncappedKey)?
            .copy_from_slice(src);
        Ok(Self {
            bytes,
            len: src.len(),
        })
    }

    /// The serialized `enc`, `Nenc` bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }
}

impl AsRef<[u8]> for EncappedKey {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for EncappedKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for EncappedKey {}

impl fmt::Debug for EncappedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("EncappedKey")
            .field(&Hex(self.as_bytes()))
            .finish()
    }
}
