//! The pure-Rust AEAD backend: RustCrypto's `aes-gcm` and `chacha20poly1305`.

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit, Nonce, Tag};

use crate::Error;
use crate::aead::opened;

/// A keyed cipher: the key schedule (AES round keys and GHASH key, or the ChaCha20 key),
/// computed once per context.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
pub struct Keyed<C>(C);

/// RustCrypto's ciphers wipe their key schedule on drop (feature `zeroize`).
impl<C: zeroize::ZeroizeOnDrop> zeroize::ZeroizeOnDrop for Keyed<C> {}

#[cfg_attr(
    any(feature = "aws-lc-rs", feature = "graviola"),
    allow(
        dead_code,
        reason = "under aws-lc-rs only the opens into a caller's buffer run here (under \
                  graviola, and on CPUs graviola does not support, everything but the \
                  private opens)"
    )
)]
impl<C: AeadInOut + KeyInit> Keyed<C> {
    /// RustCrypto checks the tag before it decrypts, in place or out of place alike; out of place
    /// from the measured switch (`super::OPEN_OUT_OF_PLACE_FROM`).
    pub(crate) const OPEN_OUT_OF_PLACE_FROM: usize = crate::aead::OPEN_OUT_OF_PLACE_FROM;

    pub(crate) fn new(key: &aead::Key<C>, (): ()) -> Self {
        Self(C::new(key))
    }

    pub(crate) fn seal_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        *tag = self
            .0
            .encrypt_inout_detached(nonce, aad, buffer.into())
            .map_err(|_| Error::Seal)?;
        Ok(())
    }

    pub(crate) fn seal_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        let buf = InOutBuf::new(input, output).map_err(|_| Error::InvalidLength)?;
        *tag = self
            .0
            .encrypt_inout_detached(nonce, aad, buf)
            .map_err(|_| Error::Seal)?;
        Ok(())
    }

    /// The tag is checked before anything is decrypted: on failure `buffer` is as it was.
    pub(crate) fn open_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        opened(
            self.0
                .decrypt_inout_detached(nonce, aad, buffer.into(), tag),
        )
    }

    pub(crate) fn open_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        let buf = InOutBuf::new(input, output).map_err(|_| Error::InvalidLength)?;
        opened(self.0.decrypt_inout_detached(nonce, aad, buf, tag))
    }

    /// The same as the caller's-buffer opens: nothing is decrypted before the tag is checked.
    pub(crate) fn open_private_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.open_in_place(nonce, aad, buffer, tag)
    }

    pub(crate) fn open_private_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.open_to(nonce, aad, input, output, tag)
    }
}
