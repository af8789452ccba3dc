//! Symmetric keys derived from HPKE, for protocols that key their own AEAD from an export:
//! Oblivious HTTP's responses (RFC 9458 §4.4), chunked OHTTP, MLS, JOSE and COSE key
//! encryption.
//!
//! - [`Prk`]: a two-stage KDF's `Extract` and `Expand` (RFC 9180 §4, RFC 5869 §2), without
//!   HPKE's labels: `Prk::<F>::extract(salt, ikm)`, then [`Prk::expand`] as often as needed.
//!   Only the HKDF KDFs have the two stages ([`TwoStageKdf`]); the one-stage KDFs of
//!   draft-ietf-hpke-hpke do not implement it, so asking for them is a compile error.
//! - [`Sealer`] and [`Opener`]: an AEAD keyed once from a key and a base nonce, which seals
//!   (or opens) messages in order under RFC 9180 §5.2's `ComputeNonce(seq)`, exactly as an HPKE
//!   context does, on the same code: the nonce of message `i` is `base_nonce XOR I2OSP(i, Nn)`,
//!   a failed operation leaves the sequence number where it was, and the last sequence number
//!   is refused ([`Error::MessageLimitReached`]). No method takes a nonce, and neither type is
//!   `Clone`, so no nonce can be used twice by one value. One side seals, the other opens: a
//!   [`Sealer`] cannot open and an [`Opener`] cannot seal, so one key and base nonce serve one
//!   direction. [`Sealer::from_prk`] and [`Opener::from_prk`] expand the key and base nonce
//!   inside the crate, so the key is never in the caller's memory; a sealer consumes the PRK
//!   it is keyed from, so one PRK cannot key two sealers that would repeat each other's nonces.
//!
//! All of it runs on the backend in use (with `aws-lc-rs`, aws-lc's AES-GCM and
//! ChaCha20-Poly1305), and every secret is wiped on drop. The runtime counterparts, chosen by
//! `kdf_id` and `aead_id`, are [`crate::suite::Prk`], [`crate::suite::Sealer`] and
//! [`crate::suite::Opener`].
//!
//! RFC 9458 §4.4's response key, typed:
//!
//! ```
//! # #[cfg(feature = "aes-gcm")] {
//! use typed_hpke::aead::Aes128Gcm;
//! use typed_hpke::kdf::HkdfSha256;
//! use typed_hpke::symmetric::{Opener, Prk, Sealer};
//!
//! # let (secret, enc, response_nonce) = ([7u8; 16], [1u8; 32], [2u8; 16]);
//! // salt = concat(enc, response_nonce); prk = Extract(salt, secret)
//! let prk = Prk::<HkdfSha256>::extract(&[&enc[..], &response_nonce[..]].concat(), &[&secret]);
//! // aead_key = Expand(prk, "key", Nk); aead_nonce = Expand(prk, "nonce", Nn)
//! let mut client = Opener::<Aes128Gcm>::from_prk(&prk, b"key", b"nonce")?;
//! let mut gateway = Sealer::<Aes128Gcm>::from_prk(prk, b"key", b"nonce")?;
//! let ct = gateway.seal(b"", b"response")?;
//! assert_eq!(client.open(b"", &ct)?, b"response");
//! # }
//! # Ok::<(), typed_hpke::Error>(())
//! ```

use core::fmt;

use hybrid_array::Array;
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::{SealingAead, Tag};
use crate::context::AeadState;
use crate::kdf::TwoStageKdf;
use crate::sealed::TwoStageEngine as _;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// A pseudorandom key of the two-stage KDF `F`: the output of `Extract(salt, ikm)`, kept keyed
/// for `Expand`. Wiped on drop; `Debug` shows the KDF only.
pub struct Prk<F: TwoStageKdf> {
    prk: F::Prk,
}

impl<F: TwoStageKdf> Prk<F> {
    /// `Extract(salt, ikm)` (RFC 5869 §2.2), with `ikm` given as pieces to be concatenated. An
    /// empty `salt` is HKDF's default, `Nh` zero bytes.
    pub fn extract(salt: &[u8], ikm: &[&[u8]]) -> Self {
        Self {
            prk: F::TwoStageEngine::extract(salt, ikm),
        }
    }

    /// `Expand(prk, info, L)` (RFC 5869 §2.3) with `L = out.len()` and `info` given as pieces
    /// to be concatenated.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `L` exceeds 255·Nh; `out` is then left as it was.
    pub fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
        F::TwoStageEngine::expand(&self.prk, info, out)
    }
}

/// `Extract(salt, ikm)` (RFC 5869 §2.2) returned as bytes, with `ikm` given as pieces to be
/// concatenated: for values computed from public inputs only, such as the recipient tags of
/// age's tagged stanzas (c2sp.org/age, "p256tag recipient stanza":
/// `HKDF-Extract-SHA-256(ikm = enc || SHA-256(recipient)[:4], salt)[:4]`). The output is not
/// wiped; a secret `ikm` belongs in [`Prk::extract`], which keeps the PRK keyed and out of the
/// caller's memory.
///
/// ```
/// use typed_hpke::{kdf::HkdfSha256, symmetric::extract_public};
/// // RFC 5869 A.1: IKM = 22 bytes of 0x0b, salt = 0x00..0x0c.
/// let salt: Vec<u8> = (0u8..=0x0c).collect();
/// let prk = extract_public::<HkdfSha256>(&salt, &[&[0x0b; 22]]);
/// assert_eq!(prk[..4], [0x07, 0x77, 0x09, 0x36]);
/// ```
pub fn extract_public<F: TwoStageKdf>(salt: &[u8], ikm: &[&[u8]]) -> Array<u8, F::Nh> {
    F::TwoStageEngine::extract_public(salt, ikm)
}

/// The hash of the two-stage KDF `F` (SHA-256 for HKDF-SHA256) over `concat(pieces)`, for
/// public values: an identifier of a key, a hash a protocol prints. Not wiped.
///
/// ```
/// use typed_hpke::{kdf::HkdfSha256, symmetric::hash};
/// // FIPS 180-2 appendix B.1: SHA-256("abc").
/// assert_eq!(hash::<HkdfSha256>(&[b"ab", b"c"])[..4], [0xba, 0x78, 0x16, 0xbf]);
/// ```
pub fn hash<F: TwoStageKdf>(pieces: &[&[u8]]) -> Array<u8, F::Nh> {
    F::TwoStageEngine::hash(pieces)
}

impl<F: TwoStageKdf> fmt::Debug for Prk<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prk")
            .field("kdf_id", &crate::util::Hex(&F::ID.to_be_bytes()))
            .finish_non_exhaustive()
    }
}

/// `Expand(prk, key_info, Nk)` and `Expand(prk, nonce_info, Nn)`: the key wiped on drop.
fn expand_key_and_nonce<F: TwoStageKdf, A: SealingAead>(
    prk: &Prk<F>,
    key_info: &[u8],
    nonce_info: &[u8],
) -> Result<AeadState<A>, Error> {
    let mut key = Zeroizing::new(Array::<u8, A::Nk>::default());
    let mut base_nonce = Array::<u8, A::Nn>::default();
    prk.expand(&[key_info], &mut key)?;
    prk.expand(&[nonce_info], &mut base_nonce)?;
    Ok(AeadState::new(&key, base_nonce))
}

/// The sealing side of an AEAD keyed once, with RFC 9180 §5.2's nonce sequence: message `i`
/// is sealed under `base_nonce XOR I2OSP(i, Nn)`. See the [module documentation](self).
pub struct Sealer<A: SealingAead> {
    state: AeadState<A>,
}

/// The opening side of an AEAD keyed once, with RFC 9180 §5.2's nonce sequence. See the
/// [module documentation](self).
pub struct Opener<A: SealingAead> {
    state: AeadState<A>,
}

/// What both sides have.
macro_rules! common {
    ($ty:ident) => {
        impl<A: SealingAead> $ty<A> {
            /// Keys the AEAD with `key` and `base_nonce`; the first message has sequence
            /// number 0. The caller owns (and wipes) its copy of `key`; [`Self::from_prk`]
            /// leaves none.
            pub fn new(key: &Array<u8, A::Nk>, base_nonce: &Array<u8, A::Nn>) -> Self {
                Self {
                    state: AeadState::new(key, base_nonce.clone()),
                }
            }

            /// The sequence number of the next message.
            pub fn sequence_number(&self) -> u64 {
                self.state.seq()
            }

            /// Sets the sequence number of the next message. Reusing a sequence number
            /// reuses a nonce: only for tests.
            #[cfg(feature = "hazmat")]
            #[doc(hidden)]
            pub fn set_sequence_number_for_testing_only(&mut self, seq: u64) {
                self.state.set_seq(seq);
            }

            pub(crate) fn into_state(self) -> AeadState<A> {
                self.state
            }
        }

        impl<A: SealingAead> fmt::Debug for $ty<A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("aead_id", &crate::util::Hex(&A::ID.to_be_bytes()))
                    .field("seq", &self.state.seq())
                    .finish_non_exhaustive()
            }
        }
    };
}

common!(Sealer);
common!(Opener);

impl<A: SealingAead> Sealer<A> {
    /// Keys the AEAD with `key = Expand(prk, key_info, Nk)` and
    /// `base_nonce = Expand(prk, nonce_info, Nn)`, as RFC 9458 §4.4 derives a response's key,
    /// and consumes `prk`: two sealers keyed from one PRK with the same labels would seal under
    /// the same nonces, so a PRK keys one sealer (`tests/compile_fail/sealer_from_prk_twice.rs`).
    /// Expand anything else first; make the [`Opener`]s of the PRK first too.
    ///
    /// # Errors
    /// None for the KDFs and AEADs of RFC 9180 (`Nk` and `Nn` are far below 255·Nh); the
    /// `Result` is `Expand`'s.
    pub fn from_prk<F: TwoStageKdf>(
        prk: Prk<F>,
        key_info: &[u8],
        nonce_info: &[u8],
    ) -> Result<Self, Error> {
        Ok(Self {
            state: expand_key_and_nonce::<F, A>(&prk, key_info, nonce_info)?,
        })
    }

    /// Seals `buffer` in place under the next nonce and returns the tag. Allocates nothing.
    ///
    /// # Errors
    /// [`Error::MessageLimitReached`] when the sequence is exhausted; [`Error::Seal`] if the
    /// AEAD refuses the input (too long).
    pub fn seal_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag<A>, Error> {
        self.state.seal_in_place_detached(aad, buffer)
    }

    /// Seals `pt` into `out`: writes `ct || tag` (`pt.len() + Nt` bytes) to its front and
    /// returns that length. Allocates nothing.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `out` is too short; otherwise as
    /// [`Sealer::seal_in_place_detached`].
    pub fn seal_into(&mut self, aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.state.seal_into(aad, pt, out)
    }

    /// Seals `pt`: returns `ct || tag`.
    ///
    /// # Errors
    /// As [`Sealer::seal_in_place_detached`].
    #[cfg(feature = "alloc")]
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        self.state.seal(aad, pt)
    }
}

impl<A: SealingAead> Opener<A> {
    /// Keys the AEAD with `key = Expand(prk, key_info, Nk)` and
    /// `base_nonce = Expand(prk, nonce_info, Nn)`, as RFC 9458 §4.4 derives a response's key.
    /// An opener seals nothing, so `prk` stays the caller's.
    ///
    /// # Errors
    /// None for the KDFs and AEADs of RFC 9180; the `Result` is `Expand`'s.
    pub fn from_prk<F: TwoStageKdf>(
        prk: &Prk<F>,
        key_info: &[u8],
        nonce_info: &[u8],
    ) -> Result<Self, Error> {
        Ok(Self {
            state: expand_key_and_nonce::<F, A>(prk, key_info, nonce_info)?,
        })
    }

    /// Opens `buffer` in place under the next nonce after checking `tag`. Allocates nothing.
    /// On failure `buffer` and the sequence number are left unchanged.
    ///
    /// # Errors
    /// [`Error::Open`] if authentication fails; [`Error::MessageLimitReached`].
    pub fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error> {
        self.state.open_in_place_detached(aad, buffer, tag)
    }

    /// Opens `ct` (`ciphertext || tag`) into `out`: writes the plaintext (`ct.len() - Nt`
    /// bytes) to its front and returns its length. Allocates nothing. On failure `out` and the
    /// sequence number are left unchanged.
    ///
    /// # Errors
    /// [`Error::Open`] if `ct` is shorter than a tag or fails to authenticate;
    /// [`Error::InvalidLength`] if `out` is too short; [`Error::MessageLimitReached`].
    pub fn open_into(&mut self, aad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.state.open_into(aad, ct, out)
    }

    /// Opens `ct` (`ciphertext || tag`): returns the plaintext.
    ///
    /// # Errors
    /// As [`Opener::open_into`].
    #[cfg(feature = "alloc")]
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        self.state.open(aad, ct)
    }
}
