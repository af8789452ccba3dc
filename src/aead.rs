//! AEADs (RFC 9180 §7.3): AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305 and the export-only
//! pseudo-AEAD.
//!
//! [`Aead`] is what every suite needs (ids, key and nonce sizes); [`SealingAead`] adds
//! encryption. [`ExportOnly`] implements only the first, so a suite built on it has no
//! `seal` or `open` at all: calling one is a compile error, not a runtime panic.

use hybrid_array::{Array, ArraySize};

#[cfg(feature = "aes-gcm")]
mod aes_gcm;
#[cfg(feature = "chacha20poly1305")]
pub(crate) mod chacha20poly1305;
mod export_only;

#[cfg(feature = "aes-gcm")]
pub use self::aes_gcm::{Aes128Gcm, Aes256Gcm};
#[cfg(feature = "chacha20poly1305")]
pub use self::chacha20poly1305::ChaCha20Poly1305;
pub use self::export_only::ExportOnly;

/// An HPKE AEAD identifier with its sizes.
///
/// This trait is sealed: the AEADs are the ones this crate defines.
pub trait Aead: crate::sealed::Sealed + Sized + 'static {
    /// The IANA `aead_id`.
    const ID: u16;
    /// `Nk`, the key length in bytes (0 for [`ExportOnly`]).
    type Nk: ArraySize;
    /// `Nn`, the nonce length in bytes (0 for [`ExportOnly`]).
    type Nn: ArraySize;
    /// The keyed cipher, with its key schedule (AES round keys, GHASH key) computed once.
    #[doc(hidden)]
    type Cipher;
    /// The engine that keys the cipher (sealed).
    #[doc(hidden)]
    type Engine: crate::sealed::AeadEngine<Self>;
}

/// An AEAD that can seal and open: every [`Aead`] but [`ExportOnly`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot seal or open: the suite only exports secrets",
    label = "an export-only AEAD",
    note = "with `ExportOnly` (RFC 9180 §5.3) use `export` on a context or the \
            `send_export_*` / `receive_export_*` functions; to encrypt, pick a sealing AEAD"
)]
pub trait SealingAead: Aead {
    /// `Nt`, the tag length in bytes.
    type Nt: ArraySize;
    /// The longest plaintext one message may have, in bytes: the AEAD's own limit, past which
    /// its counter would wrap and reuse keystream (AES-GCM: 2^36 - 32, NIST SP 800-38D §5.2.1.1;
    /// ChaCha20-Poly1305: 2^38 - 64, RFC 8439 §2.8). RFC 9180 §7.3 takes the AEADs as their
    /// specifications define them, limits included. A longer message is refused before any
    /// backend sees it, on every backend alike: sealing with [`Error::Seal`], opening (whose
    /// ciphertext is then longer than any sealed one) with [`Error::Open`].
    ///
    /// [`Error::Seal`]: crate::Error::Seal
    /// [`Error::Open`]: crate::Error::Open
    const MAX_PLAINTEXT_LEN: u64;
    /// The longest associated data one message may have, in bytes (AES-GCM: 2^61 - 1,
    /// NIST SP 800-38D §5.2.1.1; ChaCha20-Poly1305: 2^64 - 1, RFC 8439 §2.8), refused alike.
    const MAX_AAD_LEN: u64;

    /// The engine that seals and opens under a context's nonce (sealed).
    #[doc(hidden)]
    type SealingEngine: crate::sealed::SealingAeadEngine<Self>;
}

/// An authentication tag of the AEAD `A`.
pub type Tag<A> = Array<u8, <A as SealingAead>::Nt>;

/// RustCrypto's and aws-lc-rs's [`SealingAeadEngine::OPEN_OUT_OF_PLACE_FROM`]: from this
/// length the `Vec`-returning `open` decrypts out of place into a zeroed `Vec`, below it on a
/// copy in place. Measured both ways (`measure/benches/primitives.rs`, "open into a new Vec",
/// two runs): on aws-lc-rs the copy and in-place pass is 0.87x out of place at 1 KiB and
/// 1.14-1.16x at 64 KiB (0.95-1.02x at 64 B and 16 KiB); on RustCrypto the two are within 4% of
/// each other at every size, either way. In the comparative bench the switch took
/// `context_open` at 16 and 64 KiB from 1.06-1.09x rust-hpke's time (which decrypts out of
/// place) to 0.96-1.02x, and kept 1 KiB at 0.89-0.91x. The switch sits between the measured
/// 1 KiB and 16 KiB. graviola decrypts in place only: its engine always copies.
///
/// [`SealingAeadEngine::OPEN_OUT_OF_PLACE_FROM`]: crate::sealed::SealingAeadEngine::OPEN_OUT_OF_PLACE_FROM
#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // as the engine's constant (src/sealed.rs)
pub(crate) const OPEN_OUT_OF_PLACE_FROM: usize = 4096;

/// An engine's open result as this crate's: [`Error::Open`] unless the tag verified. Whether
/// it did is public (§5.2), and becomes so at [`crate::declassify::tag_verified`]; an engine's
/// own `Result` may carry the comparison's taint in its discriminant.
#[cfg_attr(
    not(any(feature = "aes-gcm", feature = "chacha20poly1305")),
    allow(dead_code, reason = "no sealing AEAD in this build")
)]
pub(crate) fn opened<E>(result: Result<(), E>) -> Result<(), crate::Error> {
    let verified = subtle::Choice::from(u8::from(result.is_ok()));
    if crate::declassify::tag_verified(verified) {
        Ok(())
    } else {
        Err(crate::Error::Open)
    }
}

/// Implements [`Aead`] and [`SealingAead`] for a cipher RustCrypto implements as `$cipher` and
/// aws-lc-rs as `aws_lc_rs::aead::$aws`; the engine's [`Keyed`] decides which runs.
#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
macro_rules! rustcrypto_aead {
    (
        $(#[$doc:meta])* $name:ident, $cipher:ty, $aws:ident, $id:literal, $nk:ty, $nn:ty, $nt:ty,
        max_plaintext: $p_max:expr, max_aad: $a_max:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl crate::aead::Aead for $name {
            const ID: u16 = $id;
            type Nk = $nk;
            type Nn = $nn;
            type Cipher = crate::aead::Keyed<$cipher>;
            type Engine = Self;
        }

        impl crate::sealed::AeadEngine<$name> for $name {
            fn new_cipher(key: &hybrid_array::Array<u8, $nk>) -> crate::aead::Keyed<$cipher> {
                crate::aead::Keyed::new(key, crate::aead::aws_alg!($aws))
            }
        }

        impl crate::aead::SealingAead for $name {
            type Nt = $nt;
            const MAX_PLAINTEXT_LEN: u64 = $p_max;
            const MAX_AAD_LEN: u64 = $a_max;
            type SealingEngine = Self;
        }

        impl crate::sealed::SealingAeadEngine<$name> for $name {
            const OPEN_OUT_OF_PLACE_FROM: usize = crate::aead::Keyed::<$cipher>::OPEN_OUT_OF_PLACE_FROM;

            fn seal_in_place(
                cipher: &mut crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                buffer: &mut [u8],
                tag: &mut crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.seal_in_place(nonce, aad, buffer, tag)
            }

            fn seal_to(
                cipher: &mut crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                input: &[u8],
                output: &mut [u8],
                tag: &mut crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.seal_to(nonce, aad, input, output, tag)
            }

            fn open_in_place(
                cipher: &crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                buffer: &mut [u8],
                tag: &crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.open_in_place(nonce, aad, buffer, tag)
            }

            fn open_to(
                cipher: &crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                input: &[u8],
                output: &mut [u8],
                tag: &crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.open_to(nonce, aad, input, output, tag)
            }

            fn open_private_in_place(
                cipher: &mut crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                buffer: &mut [u8],
                tag: &crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.open_private_in_place(nonce, aad, buffer, tag)
            }

            fn open_private_to(
                cipher: &mut crate::aead::Keyed<$cipher>,
                nonce: &hybrid_array::Array<u8, $nn>,
                aad: &[u8],
                input: &[u8],
                output: &mut [u8],
                tag: &crate::aead::Tag<Self>,
            ) -> Result<(), crate::Error> {
                cipher.open_private_to(nonce, aad, input, output, tag)
            }
        }
    };
}
#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
pub(crate) use rustcrypto_aead;

/// The aws-lc-rs algorithm of a cipher, or `()` without the aws-lc-rs backend.
#[cfg(all(
    feature = "aws-lc-rs",
    any(feature = "aes-gcm", feature = "chacha20poly1305")
))]
macro_rules! aws_alg {
    ($aws:ident) => {
        &aws_lc_rs::aead::$aws
    };
}
#[cfg(all(
    not(feature = "aws-lc-rs"),
    any(feature = "aes-gcm", feature = "chacha20poly1305")
))]
macro_rules! aws_alg {
    ($aws:ident) => {
        ()
    };
}
#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
pub(crate) use aws_alg;

// The keyed AEAD state of the backend in use (`crate::backend`).
#[cfg(all(
    feature = "aws-lc-rs",
    any(feature = "aes-gcm", feature = "chacha20poly1305")
))]
pub use crate::backend::aws_lc::aead::Keyed;
#[cfg(all(
    feature = "graviola",
    not(feature = "aws-lc-rs"),
    any(feature = "aes-gcm", feature = "chacha20poly1305")
))]
pub use crate::backend::graviola::aead::Keyed;
#[cfg(all(
    not(feature = "aws-lc-rs"),
    not(feature = "graviola"),
    any(feature = "aes-gcm", feature = "chacha20poly1305")
))]
pub use crate::backend::rustcrypto::aead::Keyed;
