//! Encryption contexts (RFC 9180 §5.2) and secret export (§5.3).
//!
//! A [`SenderContext`] seals and exports; a [`ReceiverContext`] opens and exports. Neither is
//! `Clone`: two copies of a context would reuse nonces. The AEAD key schedule is computed once,
//! when the context is made.

use core::fmt;
use core::marker::PhantomData;

use hybrid_array::Array;
use hybrid_array::typenum::Unsigned;
use zeroize::Zeroize;

use crate::Error;
use crate::aead::{Aead, SealingAead, Tag};
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::key_schedule::{Schedule, hpke_suite_id};
use crate::sealed::{AeadEngine as _, KdfEngine as _, SealingAeadEngine as _};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// A context's AEAD half (RFC 9180 §5.2): the keyed cipher, `base_nonce` and the sequence
/// number. The typed contexts run on it, and so do the runtime ones built over them, so the
/// nonce and sequence rules live in this one place.
#[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
pub(crate) struct AeadState<A: Aead> {
    cipher: A::Cipher,
    seq: u64,
    /// `base_nonce` in its first `Nn` bytes (12, or 0 for ExportOnly), zeros after: 24 bytes,
    /// so that with `seq` they fill 32 and the state has no padding on any AEAD and backend
    /// (checked in [`Self::new`]). Padding is never written when a value is built or moved: it
    /// keeps what the stack held there, which could be a secret's copy, and no `Drop` can
    /// reach it (`tests/zeroize_observed.rs`, `no_stale_bytes`).
    base_nonce: [u8; NONCE_SLOT],
}

/// The room for `base_nonce` in an [`AeadState`].
const NONCE_SLOT: usize = 24;

impl<A: Aead> AeadState<A> {
    pub(crate) fn new(key: &Array<u8, A::Nk>, base_nonce: Array<u8, A::Nn>) -> Self {
        const {
            assert!(A::Nn::USIZE <= NONCE_SLOT);
            // No padding: every byte of the state is a field's.
            assert!(
                core::mem::size_of::<Self>() == core::mem::size_of::<A::Cipher>() + 8 + NONCE_SLOT
            );
        };
        let mut slot = [0u8; NONCE_SLOT];
        slot[..A::Nn::USIZE].copy_from_slice(&base_nonce);
        Self {
            cipher: A::Engine::new_cipher(key),
            seq: 0,
            base_nonce: slot,
        }
    }

    pub(crate) fn seq(&self) -> u64 {
        self.seq
    }

    #[cfg(feature = "hazmat")]
    pub(crate) fn set_seq(&mut self, seq: u64) {
        self.seq = seq;
    }

    /// `ComputeNonce(seq)`: `xor(base_nonce, I2OSP(seq, Nn))`.
    #[inline]
    fn compute_nonce(&self) -> Array<u8, A::Nn> {
        let mut nonce = Array::<u8, A::Nn>::default();
        nonce.copy_from_slice(&self.base_nonce[..A::Nn::USIZE]);
        // I2OSP(seq, Nn) is seq right-aligned in Nn bytes, zeros before it: only the last 8
        // bytes change, XORed as one big-endian word. Nn is 12 for every sealing AEAD here (RFC
        // 9180 §7.3); below 8 the u64 sequence limit would be wrong too, hence the check.
        const { assert!(A::Nn::USIZE >= 8, "the sequence number is a u64") };
        let (_, tail) = nonce.split_at_mut(A::Nn::USIZE - 8);
        if let Ok(tail) = <&mut [u8; 8]>::try_from(tail) {
            *tail = (u64::from_be_bytes(*tail) ^ self.seq).to_be_bytes();
        }
        nonce
    }
}

impl<A: SealingAead> AeadState<A> {
    /// Runs one seal or open of a `len`-byte plaintext with `aad_len` bytes of associated data
    /// under the current nonce, then advances the sequence number; a failed operation leaves it
    /// unchanged, and one over the AEAD's limits fails with `too_long`. Every seal and open of
    /// a context, of a single-shot call and of the symmetric surface passes here, so its two
    /// checks hold on every backend, before any backend is called. `#[inline]`: a few
    /// instructions around every seal and open, which the runtime API's contexts (compiled in
    /// this crate with many more callers of it) otherwise call out of line.
    #[inline]
    fn with_next_nonce<T>(
        &mut self,
        aad_len: usize,
        len: usize,
        too_long: Error,
        op: impl FnOnce(&mut A::Cipher, &Array<u8, A::Nn>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        // IncrementSeq(): "if self.seq >= (1 << (8*Nn)) - 1: raise MessageLimitReachedError".
        // The counter is a u64, so its last value is the limit; checking before the operation
        // means no nonce is ever computed for an exhausted sequence.
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        // The AEAD's own limits ([`SealingAead::MAX_PLAINTEXT_LEN`], `MAX_AAD_LEN`): no backend
        // is handed a message its block counter would wrap on (graviola checks no length).
        if !within_limits::<A>(aad_len, len) {
            return Err(too_long);
        }
        let nonce = self.compute_nonce();
        let out = op(&mut self.cipher, &nonce)?;
        self.seq += 1;
        Ok(out)
    }

    /// `Context.Seal(aad, pt)` in place.
    pub(crate) fn seal_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag<A>, Error> {
        let mut tag = Tag::<A>::default();
        self.with_next_nonce(aad.len(), buffer.len(), Error::Seal, |cipher, nonce| {
            A::SealingEngine::seal_in_place(cipher, nonce, aad, buffer, &mut tag)
        })?;
        Ok(tag)
    }

    /// `Context.Seal(aad, pt)`, writing `ct || tag` to the front of `out`.
    pub(crate) fn seal_into(
        &mut self,
        aad: &[u8],
        pt: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let total = pt
            .len()
            .checked_add(tag_len::<A>())
            .ok_or(Error::InvalidLength)?;
        let out = out.get_mut(..total).ok_or(Error::InvalidLength)?;
        let (ct, tag) = out.split_at_mut(pt.len());
        let tag = <&mut Tag<A>>::try_from(tag).map_err(|_| Error::InvalidLength)?;
        self.with_next_nonce(aad.len(), pt.len(), Error::Seal, |cipher, nonce| {
            A::SealingEngine::seal_to(cipher, nonce, aad, pt, ct, tag)
        })?;
        Ok(total)
    }

    /// `Context.Open(aad, ct)` in place, with the tag apart.
    pub(crate) fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error> {
        self.with_next_nonce(aad.len(), buffer.len(), Error::Open, |cipher, nonce| {
            A::SealingEngine::open_in_place(cipher, nonce, aad, buffer, tag)
        })
    }

    /// `Context.Open(aad, ct)` of `ciphertext || tag`, the plaintext to the front of `out`.
    pub(crate) fn open_into(
        &mut self,
        aad: &[u8],
        ct: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let (ciphertext, tag) = split_tag::<A>(ct)?;
        let out = out
            .get_mut(..ciphertext.len())
            .ok_or(Error::InvalidLength)?;
        self.with_next_nonce(aad.len(), ciphertext.len(), Error::Open, |cipher, nonce| {
            A::SealingEngine::open_to(cipher, nonce, aad, ciphertext, out, &tag)
        })?;
        Ok(ciphertext.len())
    }

    /// `Context.Seal(aad, pt)` into a new `Vec`: `ct || tag`, sealed in place in the `Vec` with
    /// the tag written straight into its end.
    #[cfg(feature = "alloc")]
    pub(crate) fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        let len = pt.len().checked_add(tag_len::<A>()).ok_or(Error::Seal)?;
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(pt);
        out.resize(len, 0);
        let (ct, tag) = out.split_at_mut(pt.len());
        let tag = <&mut Tag<A>>::try_from(tag).map_err(|_| Error::Seal)?;
        self.with_next_nonce(aad.len(), ct.len(), Error::Seal, |cipher, nonce| {
            A::SealingEngine::seal_in_place(cipher, nonce, aad, ct, tag)
        })?;
        Ok(out)
    }

    /// `Context.Open(aad, ct)` of `ciphertext || tag` into a new `Vec`: from the engine's
    /// switch length decrypted into it out of place (one pass over the message instead of a
    /// copy and a pass in place), below it copied and decrypted there. Nobody else sees the
    /// `Vec`, and it is dropped on failure, so the engine may decrypt before it checks the tag.
    #[cfg(feature = "alloc")]
    pub(crate) fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        let (ciphertext, tag) = split_tag::<A>(ct)?;
        self.with_next_nonce(aad.len(), ciphertext.len(), Error::Open, |cipher, nonce| {
            if ciphertext.len() < A::SealingEngine::OPEN_OUT_OF_PLACE_FROM {
                let mut out = ciphertext.to_vec();
                A::SealingEngine::open_private_in_place(cipher, nonce, aad, &mut out, &tag)?;
                Ok(out)
            } else {
                let mut out = alloc::vec![0u8; ciphertext.len()];
                A::SealingEngine::open_private_to(cipher, nonce, aad, ciphertext, &mut out, &tag)?;
                Ok(out)
            }
        })
    }
}

/// Whether a message of `len` plaintext bytes with `aad_len` bytes of associated data is within
/// the AEAD's limits. The lengths are public.
fn within_limits<A: SealingAead>(aad_len: usize, len: usize) -> bool {
    let fits = |n: usize, max: u64| u64::try_from(n).is_ok_and(|n| n <= max);
    fits(len, A::MAX_PLAINTEXT_LEN) && fits(aad_len, A::MAX_AAD_LEN)
}

/// `ct` as `ciphertext || tag`; [`Error::Open`] if it is shorter than a tag.
fn split_tag<A: SealingAead>(ct: &[u8]) -> Result<(&[u8], Tag<A>), Error> {
    let pt_len = ct.len().checked_sub(tag_len::<A>()).ok_or(Error::Open)?;
    let (ciphertext, tag) = ct.split_at(pt_len);
    let tag = Tag::<A>::try_from(tag).map_err(|_| Error::Open)?;
    Ok((ciphertext, tag))
}

impl<A: Aead> Drop for AeadState<A> {
    fn drop(&mut self) {
        // The cipher wipes itself; the nonce is not secret but costs nothing.
        self.base_nonce.zeroize();
    }
}

/// `Context.Export(exporter_context, L)` (§5.3) under `suite_id`, `L = out.len()`.
pub(crate) fn export<F: Kdf>(
    suite_id: &[u8],
    exporter: &F::Exporter,
    exporter_context: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    if out.len() > F::MAX_EXPORT_LEN {
        return Err(Error::ExportTooLong);
    }
    F::Engine::export(suite_id, exporter, exporter_context, out)
}

/// What sender and receiver contexts share. No `Drop` of its own (the AEAD state and the
/// exporter wipe themselves), so a layer above can take it apart.
pub(crate) struct Context<K: Kem, F: Kdf, A: Aead> {
    pub(crate) aead: AeadState<A>,
    pub(crate) exporter: F::Exporter,
    kem: PhantomData<fn() -> K>,
}

impl<K: Kem, F: Kdf, A: Aead> Context<K, F, A> {
    fn new(schedule: Schedule<F, A>) -> Self {
        Self {
            aead: AeadState::new(&schedule.key, schedule.base_nonce.clone()),
            exporter: schedule.exporter,
            kem: PhantomData,
        }
    }

    /// `Context.Export(exporter_context, L)` (§5.3).
    fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        export::<F>(
            &hpke_suite_id::<K, F, A>(),
            &self.exporter,
            exporter_context,
            out,
        )
    }
}

/// The sender's side of an HPKE context: seal messages in order, export secrets.
pub struct SenderContext<K: Kem, F: Kdf, A: Aead> {
    ctx: Context<K, F, A>,
}

/// The receiver's side of an HPKE context: open messages in order, export secrets.
pub struct ReceiverContext<K: Kem, F: Kdf, A: Aead> {
    ctx: Context<K, F, A>,
}

/// Methods both context roles have.
macro_rules! common_methods {
    ($ty:ident) => {
        impl<K: Kem, F: Kdf, A: Aead> $ty<K, F, A> {
            pub(crate) fn new(schedule: Schedule<F, A>) -> Self {
                Self {
                    ctx: Context::new(schedule),
                }
            }

            /// The shared state, for the runtime contexts built over this one.
            pub(crate) fn into_inner(self) -> Context<K, F, A> {
                self.ctx
            }

            /// `Context.Export(exporter_context, L)` (RFC 9180 §5.3), writing `L = out.len()`
            /// bytes into `out`.
            ///
            /// # Errors
            /// [`Error::ExportTooLong`] if `out` is longer than [`Kdf::MAX_EXPORT_LEN`]; the
            /// output is never truncated.
            pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
                self.ctx.export(exporter_context, out)
            }

            /// The sequence number of the next message.
            pub fn sequence_number(&self) -> u64 {
                self.ctx.aead.seq()
            }

            /// Sets the sequence number of the next message. Reusing a sequence number
            /// reuses a nonce: only for tests.
            #[cfg(feature = "hazmat")]
            #[doc(hidden)]
            pub fn set_sequence_number_for_testing_only(&mut self, seq: u64) {
                self.ctx.aead.set_seq(seq);
            }
        }

        impl<K: Kem, F: Kdf, A: Aead> fmt::Debug for $ty<K, F, A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("suite_id", &crate::util::Hex(&hpke_suite_id::<K, F, A>()))
                    .field("seq", &self.ctx.aead.seq())
                    .finish_non_exhaustive()
            }
        }
    };
}

common_methods!(SenderContext);
common_methods!(ReceiverContext);

fn tag_len<A: SealingAead>() -> usize {
    A::Nt::USIZE
}

impl<K: Kem, F: Kdf, A: SealingAead> SenderContext<K, F, A> {
    /// `Context.Seal(aad, pt)` (§5.2) in place: encrypts `buffer` and returns the tag.
    /// Allocates nothing.
    ///
    /// # Errors
    /// [`Error::MessageLimitReached`] when the sequence is exhausted (checked before a nonce is
    /// computed); [`Error::Seal`] if the AEAD refuses the input (too long).
    pub fn seal_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag<A>, Error> {
        self.ctx.aead.seal_in_place_detached(aad, buffer)
    }

    /// `Context.Seal(aad, pt)` into a caller buffer: writes `ct || tag` (`pt.len() + Nt` bytes)
    /// to the front of `out` and returns that length. Allocates nothing.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `out` is shorter than `pt.len() + Nt`; otherwise as
    /// [`SenderContext::seal_in_place_detached`].
    pub fn seal_into(&mut self, aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.aead.seal_into(aad, pt, out)
    }

    /// `Context.Seal(aad, pt)` (§5.2): returns `ct || tag`.
    ///
    /// # Errors
    /// As [`SenderContext::seal_in_place_detached`].
    #[cfg(feature = "alloc")]
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.aead.seal(aad, pt)
    }
}

impl<K: Kem, F: Kdf, A: SealingAead> ReceiverContext<K, F, A> {
    /// `Context.Open(aad, ct)` (§5.2) in place: checks `tag`, then decrypts `buffer`.
    /// Allocates nothing. On failure `buffer` and the sequence number are left unchanged.
    ///
    /// # Errors
    /// [`Error::Open`] if authentication fails; [`Error::MessageLimitReached`] when the
    /// sequence is exhausted.
    pub fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error> {
        self.ctx.aead.open_in_place_detached(aad, buffer, tag)
    }

    /// `Context.Open(aad, ct)` into a caller buffer: `ct` is `ciphertext || tag`; writes the
    /// plaintext (`ct.len() - Nt` bytes) to the front of `out` and returns its length.
    /// Allocates nothing.
    ///
    /// # Errors
    /// [`Error::Open`] if `ct` is shorter than a tag or fails to authenticate;
    /// [`Error::InvalidLength`] if `out` is too short; [`Error::MessageLimitReached`].
    pub fn open_into(&mut self, aad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.aead.open_into(aad, ct, out)
    }

    /// `Context.Open(aad, ct)` (§5.2): `ct` is `ciphertext || tag`; returns the plaintext.
    ///
    /// # Errors
    /// As [`ReceiverContext::open_into`].
    #[cfg(feature = "alloc")]
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.aead.open(aad, ct)
    }
}

#[cfg(test)]
mod tests {
    use super::AeadState;
    use crate::Error;
    use crate::aead::SealingAead;

    /// The gate every seal and open passes: a message one byte over the AEAD's limit (or its
    /// associated data) is refused before the backend is called and leaves the sequence
    /// number where it was; one at the limit reaches the backend. The lengths are numbers
    /// here, so the test reaches a 64 GiB limit without 64 GiB of memory; every public seal
    /// and open hands this gate its own buffer's length. Before the gate, graviola's
    /// AES-GCM and ChaCha20-Poly1305 were handed any length and wrapped their 32-bit counters.
    fn limits_refused_before_the_backend<A: SealingAead>() {
        let mut state = AeadState::<A>::new(&Default::default(), Default::default());
        let max = usize::try_from(A::MAX_PLAINTEXT_LEN).expect("a 64-bit target");
        for too_long in [Error::Seal, Error::Open] {
            let over = state.with_next_nonce(0, max + 1, too_long, |_, _| -> Result<(), _> {
                panic!("the backend was handed a message over the AEAD's limit")
            });
            assert_eq!(over, Err(too_long));
            assert_eq!(state.seq(), 0);
        }
        // AES-GCM's associated-data limit is below usize::MAX; ChaCha20-Poly1305's is not.
        if let Some(over) = usize::try_from(A::MAX_AAD_LEN)
            .ok()
            .and_then(|max| max.checked_add(1))
        {
            let refused = state.with_next_nonce(over, 0, Error::Seal, |_, _| -> Result<(), _> {
                panic!("the backend was handed associated data over the AEAD's limit")
            });
            assert_eq!(refused, Err(Error::Seal));
        }
        let mut reached = false;
        let at = state.with_next_nonce(0, max, Error::Seal, |_, _| {
            reached = true;
            Ok(())
        });
        assert_eq!(at, Ok(()));
        assert!(reached);
        assert_eq!(state.seq(), 1);
    }

    #[cfg(feature = "aes-gcm")]
    #[test]
    fn aes_gcm_limits() {
        assert_eq!(crate::aead::Aes128Gcm::MAX_PLAINTEXT_LEN, 68_719_476_704);
        limits_refused_before_the_backend::<crate::aead::Aes128Gcm>();
        limits_refused_before_the_backend::<crate::aead::Aes256Gcm>();
    }

    #[cfg(feature = "chacha20poly1305")]
    #[test]
    fn chacha20poly1305_limits() {
        assert_eq!(
            crate::aead::ChaCha20Poly1305::MAX_PLAINTEXT_LEN,
            274_877_906_880
        );
        limits_refused_before_the_backend::<crate::aead::ChaCha20Poly1305>();
    }
}
