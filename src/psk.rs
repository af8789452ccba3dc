//! Pre-shared keys for the PSK and AuthPSK modes (RFC 9180 §5.1.2), validated once.

use core::fmt;

use crate::Error;

/// The smallest PSK accepted by [`Psk::new`]: RFC 9180 §9.5 asks for at least 32 bytes of
/// entropy, since a PSK-mode ciphertext lets an attacker test guesses offline.
pub const MIN_PSK_LEN: usize = 32;

/// A pre-shared key and its identifier, for the `*_psk` and `*_auth_psk` functions.
///
/// Modes without a PSK take no `Psk` argument at all, so `VerifyPSKInputs` (RFC 9180 §5.1)
/// is enforced by the function signatures; what remains to check at run time is done here:
/// neither value may be empty, and the PSK must be at least [`MIN_PSK_LEN`] bytes unless the
/// caller opts out with [`Psk::new_allowing_short_psk`].
#[derive(Clone, Copy)]
pub struct Psk<'a> {
    psk: &'a [u8],
    psk_id: &'a [u8],
}

impl<'a> Psk<'a> {
    /// A PSK of at least 32 bytes with a non-empty identifier.
    ///
    /// # Errors
    /// [`Error::InvalidPsk`] if `psk` is shorter than [`MIN_PSK_LEN`] or `psk_id` is empty.
    pub fn new(psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        if psk.len() < MIN_PSK_LEN {
            return Err(Error::InvalidPsk);
        }
        Self::new_allowing_short_psk(psk, psk_id)
    }

    /// Like [`Psk::new`], but accepts any non-empty PSK. Only for interoperating with peers
    /// that provision short PSKs: a low-entropy PSK is open to offline guessing (RFC 9180 §9.5).
    ///
    /// # Errors
    /// [`Error::InvalidPsk`] if `psk` or `psk_id` is empty (RFC 9180 §5.1, `VerifyPSKInputs`).
    pub fn new_allowing_short_psk(psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        if psk.is_empty() || psk_id.is_empty() {
            return Err(Error::InvalidPsk);
        }
        Ok(Self { psk, psk_id })
    }

    pub(crate) fn psk(&self) -> &'a [u8] {
        self.psk
    }

    /// The identifier, which is not secret: protocols send it beside their messages (JOSE's
    /// and COSE's `psk_id`) so the recipient can pick the PSK.
    pub fn psk_id(&self) -> &'a [u8] {
        self.psk_id
    }
}

impl fmt::Debug for Psk<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Psk")
            .field("psk", &"<redacted>")
            .field("psk_id", &self.psk_id)
            .finish()
    }
}
