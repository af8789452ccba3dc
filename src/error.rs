//! The crate's single error type.

use core::fmt;

/// Everything that can go wrong in this crate.
///
/// Small, `Copy`, and free of payloads: an error never carries secret material or
/// attacker-controlled data. Decryption failures of any cause are [`Error::Open`], and
/// decapsulation failures of any cause are [`Error::Decap`], so that a caller (or an
/// attacker watching the caller) cannot tell one cause from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A private key's encoding has the wrong length or is not a valid scalar (RFC 9180 §7.1.2).
    InvalidPrivateKey,
    /// A public key's encoding has the wrong length, is not on the curve, is the identity,
    /// or is not in the uncompressed form RFC 9180 §7.1.1 requires.
    InvalidPublicKey,
    /// An encapsulated key has the wrong length for its KEM.
    InvalidEncappedKey,
    /// `DeriveKeyPair` found no valid scalar in 256 candidates (RFC 9180 §7.1.3), or its input
    /// keying material was unusable.
    DeriveKeyPair,
    /// Encapsulation failed: the recipient's (or sender's) public key produced an all-zero
    /// Diffie-Hellman output (RFC 9180 §7.1.4).
    Encap,
    /// Decapsulation failed, whatever the cause.
    Decap,
    /// The AEAD refused to encrypt, e.g. a plaintext beyond the AEAD's length limit.
    Seal,
    /// Decryption failed: wrong key, nonce, associated data or ciphertext. Opaque on purpose.
    Open,
    /// The context's sequence number is exhausted; no further message can be sealed or opened
    /// (RFC 9180 §5.2).
    MessageLimitReached,
    /// An export was asked for more bytes than the KDF allows (255·Nh for HKDF, RFC 9180 §5.3).
    ExportTooLong,
    /// The pre-shared key or its identifier is empty, or the PSK is shorter than 32 bytes
    /// without the explicit opt-out (RFC 9180 §5.1.2, §9.5).
    InvalidPsk,
    /// An input is longer than the KDF accepts.
    InputTooLong,
    /// A caller-supplied output buffer or tag has the wrong length.
    InvalidLength,
    /// The `kem_id`, `kdf_id` or `aead_id` is unknown, or names an algorithm this build's
    /// cargo features leave out ([`crate::suite::Suite::new`]).
    UnsupportedSuite,
    /// The suite cannot do this: an authenticated mode on a KEM without authenticated
    /// encapsulation, or seal / open with ExportOnly ([`crate::suite`]).
    UnsupportedOperation,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidPrivateKey => "invalid private key",
            Self::InvalidPublicKey => "invalid public key",
            Self::InvalidEncappedKey => "invalid encapsulated key",
            Self::DeriveKeyPair => "key pair derivation failed",
            Self::Encap => "encapsulation failed",
            Self::Decap => "decapsulation failed",
            Self::Seal => "encryption failed",
            Self::Open => "decryption failed",
            Self::MessageLimitReached => "message limit reached",
            Self::ExportTooLong => "requested export length is too long",
            Self::InvalidPsk => "invalid pre-shared key or identifier",
            Self::InputTooLong => "input too long",
            Self::InvalidLength => "buffer has the wrong length",
            Self::UnsupportedSuite => "unsupported ciphersuite",
            Self::UnsupportedOperation => "operation not supported by this ciphersuite",
        })
    }
}

impl core::error::Error for Error {}
