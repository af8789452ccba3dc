//! One error type for every refusal.

use core::fmt;

/// Why a COSE message, a COSE_Key or a request to encrypt was refused.
///
/// Every parser of this crate returns one of these for bad input; none panics. Decryption
/// failures are opaque on purpose: [`Error::Decrypt`] does not say whether the key, `ek`, the
/// PSK, the `info` or the ciphertext was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Not CBOR, bytes after the item, a structure of the wrong shape or type (RFC 9052 §3,
    /// §5.1, §7).
    Malformed(&'static str),
    /// A map with one label twice, or a label in both the protected and the unprotected
    /// bucket (RFC 9052 §3).
    DuplicateLabel,
    /// A header, an input or a count beyond this crate's limits ([`crate::MAX_HEADER_LEN`],
    /// [`crate::MAX_RECIPIENTS`]).
    TooLarge,
    /// A header parameter the mode forbids or requires: `alg` or `psk_id` unprotected, `ek`
    /// missing or protected, an IV in COSE_Encrypt0's integrated mode, a Partial IV.
    Header(&'static str),
    /// A `crit` header naming a label this decryptor was not told it understands, or a
    /// malformed or unprotected `crit` (RFC 9052 §3.1).
    Critical,
    /// An `alg` this crate does not implement, or one of the wrong mode or layer.
    UnsupportedAlgorithm,
    /// A layer-0 IV of a length other than the 96 bits RFC 9053 §4.1 and §4.3 give AES-GCM and
    /// ChaCha20-Poly1305; see the README's "IVs" for the draft's vectors that carry them and
    /// [`crate::Decryptor::unwrap_cek`].
    UnsupportedIv,
    /// A COSE_Key that is malformed, of the wrong type or curve for the algorithm, whose
    /// coordinates are not a valid public key, whose private part does not match its public
    /// part, or whose `alg` or `key_ops` is not for HPKE (draft-ietf-cose-hpke-27 §3.4).
    InvalidKey,
    /// The message's PSK mode and the decryptor's disagree: a `psk_id` without a PSK given,
    /// a PSK given for a message without `psk_id`, or another `psk_id`.
    Psk,
    /// No recipient of the message is for the decryptor's key.
    NoRecipient,
    /// A detached ciphertext (nil) without one given, or one given for an attached message.
    Detached,
    /// HPKE or the content decryption failed.
    Decrypt,
    /// An error of typed-hpke other than a decryption failure: an invalid PSK, an input too
    /// long for the KDF, an encapsulation failure.
    Hpke(typed_hpke::Error),
    /// The holder of a key held outside the process ([`crate::Decryptor::external`]) failed:
    /// a token that is gone, a KMS that refused. The search ends there, since no other
    /// recipient would fare better; the holder's own error is the holder's to report.
    KeyHolder,
}

impl Error {
    /// A runtime key held elsewhere failed: typed-hpke's refusal as any other, the holder's as
    /// [`Error::KeyHolder`].
    pub(crate) fn from_held<E>(e: typed_hpke::kem::HeldKeyError<E>) -> Self {
        match e {
            typed_hpke::kem::HeldKeyError::Hpke(e) => e.into(),
            typed_hpke::kem::HeldKeyError::Holder(_) => Self::KeyHolder,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(what) => write!(f, "malformed COSE structure: {what}"),
            Self::DuplicateLabel => f.write_str("duplicate header label"),
            Self::TooLarge => f.write_str("input beyond the crate's limits"),
            Self::Header(what) => write!(f, "header refused: {what}"),
            Self::Critical => f.write_str("unsupported critical header parameter"),
            Self::UnsupportedAlgorithm => f.write_str("unsupported algorithm"),
            Self::UnsupportedIv => f.write_str("IV length other than 96 bits"),
            Self::InvalidKey => f.write_str("invalid key"),
            Self::Psk => f.write_str("PSK mode mismatch"),
            Self::NoRecipient => f.write_str("no recipient for this key"),
            Self::Detached => f.write_str("detached ciphertext mismatch"),
            Self::Decrypt => f.write_str("decryption failed"),
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
            Self::KeyHolder => f.write_str("the key's holder failed"),
        }
    }
}

impl std::error::Error for Error {}

impl From<typed_hpke::Error> for Error {
    fn from(e: typed_hpke::Error) -> Self {
        match e {
            typed_hpke::Error::Open
            | typed_hpke::Error::Decap
            | typed_hpke::Error::InvalidEncappedKey => Self::Decrypt,
            typed_hpke::Error::InvalidPublicKey | typed_hpke::Error::InvalidPrivateKey => {
                Self::InvalidKey
            }
            typed_hpke::Error::UnsupportedSuite | typed_hpke::Error::UnsupportedOperation => {
                Self::UnsupportedAlgorithm
            }
            other => Self::Hpke(other),
        }
    }
}
