//! The aws-lc-rs AEAD backend (feature `aws-lc-rs`): AES-128-GCM, AES-256-GCM and
//! ChaCha20-Poly1305 on aws-lc-rs for every seal, and for every open whose output is a buffer
//! the crate allocates (the `Vec`-returning `open`s).
//!
//! The opens into a caller's memory (`open_in_place_detached`, `open_into`) stay on RustCrypto.
//! Their contract is that a failed open leaves the caller's buffer as it was (a server trying
//! several keys on one ciphertext relies on it), and aws-lc decrypts before it checks the tag
//! and then zeroes the output; RustCrypto checks the tag first and writes nothing on failure.
//! The context keys both at setup; RustCrypto's key schedule costs well under a microsecond.

use aead::{AeadInOut, Key, KeyInit, Nonce, Tag};
use aws_lc_rs::aead::{Aad, Algorithm, LessSafeKey, Nonce as AwsNonce, UnboundKey};

use crate::Error;

/// A keyed cipher: aws-lc's (its context is freed, and cleansed, with the key) and RustCrypto's
/// for opening in place.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
pub struct Keyed<C> {
    aws: LessSafeKey,
    rustcrypto: crate::backend::rustcrypto::aead::Keyed<C>,
}

/// RustCrypto's cipher wipes its key schedule on drop; aws-lc frees its context with
/// `OPENSSL_free`, which cleanses the memory first.
impl<C: zeroize::ZeroizeOnDrop> zeroize::ZeroizeOnDrop for Keyed<C> where
    crate::backend::rustcrypto::aead::Keyed<C>: zeroize::ZeroizeOnDrop
{
}

/// aws-lc's nonce from a context's: every sealing AEAD here has `Nn = 12`.
fn nonce<C: AeadInOut>(nonce: &Nonce<C>) -> Result<AwsNonce, Error> {
    AwsNonce::try_assume_unique_for_key(nonce.as_slice()).map_err(|_| Error::InvalidLength)
}

impl<C: AeadInOut + KeyInit> Keyed<C> {
    pub(crate) const OPEN_OUT_OF_PLACE_FROM: usize = crate::aead::OPEN_OUT_OF_PLACE_FROM;

    pub(crate) fn new(key: &Key<C>, alg: &'static Algorithm) -> Self {
        let aws = UnboundKey::new(alg, key.as_slice())
            .expect("the key is Nk bytes, the length aws-lc-rs's algorithm takes");
        Self {
            aws: LessSafeKey::new(aws),
            rustcrypto: crate::backend::rustcrypto::aead::Keyed::new(key, ()),
        }
    }

    pub(crate) fn seal_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        let aws_tag = self
            .aws
            .seal_in_place_separate_tag(self::nonce::<C>(nonce)?, Aad::from(aad), buffer)
            .map_err(|_| Error::Seal)?;
        *tag = Tag::<C>::try_from(aws_tag.as_ref()).map_err(|_| Error::Seal)?;
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
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        self.aws
            .seal_out_of_place_scatter(
                self::nonce::<C>(nonce)?,
                Aad::from(aad),
                input,
                output,
                &[],
                tag,
            )
            .map_err(|_| Error::Seal)
    }

    /// RustCrypto's, which checks the tag before decrypting: on failure `buffer` is as it was.
    pub(crate) fn open_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.rustcrypto.open_in_place(nonce, aad, buffer, tag)
    }

    /// RustCrypto's, for the same reason: on failure `output` (a caller's buffer) is as it was.
    pub(crate) fn open_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.rustcrypto.open_to(nonce, aad, input, output, tag)
    }

    /// aws-lc's, in memory nobody else sees: it decrypts first and zeroes what it wrote on a
    /// bad tag.
    pub(crate) fn open_private_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        crate::aead::opened(
            self.aws
                .open_in_place_separate_tag(self::nonce::<C>(nonce)?, Aad::from(aad), tag, buffer)
                .map(|_| ()),
        )
    }

    /// The same, out of place.
    pub(crate) fn open_private_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        crate::aead::opened(self.aws.open_separate_gather(
            self::nonce::<C>(nonce)?,
            Aad::from(aad),
            input,
            tag,
            output,
        ))
    }
}
