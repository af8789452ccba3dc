//! One error type for every refusal.

use core::fmt;

/// Why a JWE, a JWK or a request to encrypt was refused.
///
/// Every parser of this crate returns one of these for bad input; none panics. Decryption
/// failures are opaque on purpose: [`Error::Decrypt`] does not say whether the key, the `ek`,
/// the PSK, the `info` or the ciphertext was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Not JSON, not a JSON object where one is required, a member of the wrong type, or a
    /// compact serialization without five parts.
    Malformed(&'static str),
    /// A JSON object with one member name twice (RFC 7515 §4 and RFC 7516 §7.2.1: a parser
    /// must reject it or take the last; taking the last hides what a signer or sender saw).
    DuplicateMember,
    /// A value that is not unpadded, canonical base64url (RFC 7515 §2).
    Base64,
    /// A header, an input or a count beyond this crate's limits ([`crate::MAX_HEADER_LEN`],
    /// [`crate::MAX_RECIPIENTS`]).
    TooLarge,
    /// A header parameter the mode forbids (`enc` or `ek` in integrated encryption, `psk_id`
    /// unprotected there, a non-empty IV or tag), one it requires and lacks, one in two of
    /// the three header locations (RFC 7516 §7.2.1), or `zip`.
    Header(&'static str),
    /// A `crit` header naming a parameter this decryptor was not told it understands, or a
    /// malformed `crit` (RFC 7515 §4.1.11).
    Critical,
    /// An `alg` or `enc` this crate does not implement, or one of the wrong mode.
    UnsupportedAlgorithm,
    /// A JWK that is malformed, of the wrong type or curve for the algorithm, whose
    /// coordinates are not a valid public key, whose private part does not match its public
    /// part, or whose `alg` or `use` is not for HPKE encryption.
    InvalidKey,
    /// A serialization that cannot carry this JWE: compact with a JWE AAD, an unprotected
    /// header or several recipients (draft-ietf-jose-hpke-encrypt-20 §4), flattened with
    /// several recipients.
    Serialization,
    /// The message's PSK mode and the decryptor's disagree: a `psk_id` without a PSK given,
    /// a PSK given for a message without `psk_id`, or another `psk_id`.
    Psk,
    /// No recipient of the JWE is for the decryptor's key: none has an HPKE `alg` of its KEM
    /// (and its JWK's `alg`), or every one names another `kid`.
    NoRecipient,
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
            Self::Malformed(what) => write!(f, "malformed JWE or JWK: {what}"),
            Self::DuplicateMember => f.write_str("duplicate JSON member"),
            Self::Base64 => f.write_str("invalid base64url"),
            Self::TooLarge => f.write_str("input beyond the crate's limits"),
            Self::Header(what) => write!(f, "header refused: {what}"),
            Self::Critical => f.write_str("unsupported critical header parameter"),
            Self::UnsupportedAlgorithm => f.write_str("unsupported algorithm"),
            Self::InvalidKey => f.write_str("invalid key"),
            Self::Serialization => f.write_str("the serialization cannot carry this JWE"),
            Self::Psk => f.write_str("PSK mode mismatch"),
            Self::NoRecipient => f.write_str("no recipient for this key"),
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
