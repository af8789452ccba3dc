//! One error type for every failure, each with the HTTP status a gateway answers it with.

use core::fmt;

/// Why a key configuration, a request, a response or a chunk was refused.
///
/// Every parser of this crate returns one of these for bad bytes; none panics. A gateway turns
/// a request's error into an unencapsulated HTTP response with [`Error::http_status`] (RFC 9458
/// §5.2: errors found before the response is encapsulated are reported in the clear) and, for
/// the errors [`Error::is_key_config_problem`] names, the `ohttp-key` problem type of §5.3, which
/// tells the client to fetch the gateway's key configurations again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A key configuration or an `application/ohttp-keys` list that does not follow RFC 9458
    /// §3: a length that runs past the end, bytes left over, a symmetric algorithm list that is
    /// empty or not made of whole (KDF, AEAD) pairs, a public key of the wrong length.
    InvalidKeyConfig,
    /// A public or private key that the configuration's KEM refuses.
    InvalidKey,
    /// A KEM, KDF or AEAD this crate cannot use for Oblivious HTTP: unknown, left out of this
    /// build, a one-stage KDF (RFC 9458 §4.4 needs `Extract` and `Expand`) or ExportOnly (no
    /// AEAD to seal with).
    UnsupportedSuite,
    /// A request whose (KDF, AEAD) pair its key configuration does not list, or whose KEM is not
    /// the configuration's (RFC 9458 §4.3: the gateway rejects it).
    SuiteNotOffered,
    /// A request for a key identifier the gateway does not hold.
    UnknownKeyId,
    /// Two gateway keys with one key identifier.
    DuplicateKeyId,
    /// A message shorter than its fixed parts: the request header and encapsulated key, the
    /// response nonce, or an AEAD tag.
    Truncated,
    /// Decapsulation or authenticated decryption failed: the request or response (or a chunk of
    /// it) was not made for this key or context, or was changed on the way.
    Decrypt,
    /// Encapsulation to the configuration's key, or making a key pair, failed: the generator
    /// gave nothing usable, or the public key gave an all-zero Diffie-Hellman output (RFC 9180
    /// §7.1.4).
    Encapsulation,
    /// A chunk whose length exceeds the decoder's limit.
    ChunkTooLarge,
    /// The gateway has not yet read a chunked request's header and `enc`, so there is no
    /// response to start.
    NotReady,
    /// A chunked message that ended without its final chunk (it was truncated).
    MissingFinalChunk,
    /// A chunked response started a second time for one request: a second response would
    /// reuse the first one's keys if its nonce repeated, and a request has one response.
    ResponseStarted,
    /// A message too long for the AEAD, or more chunks than one key can seal (the nonce counter
    /// would repeat).
    MessageLimit,
    /// The holder of a gateway key held outside the process ([`crate::GatewayKey::held`])
    /// failed: a token that is gone, a KMS that refused. The gateway's fault, not the
    /// request's; the holder's own error is the holder's to report.
    KeyHolder,
}

impl Error {
    /// The HTTP status code a gateway answers a request that failed with this error (RFC 9458
    /// §5.2 and §5.3), or `None` for the errors that only a client or a key holder meets.
    ///
    /// - 400 (Bad Request) for a request that is malformed, truncated, names an unknown key
    ///   identifier or a suite the configuration does not offer, or does not decrypt. For the
    ///   key and suite mismatches, send the `ohttp-key` problem type as well
    ///   ([`Error::is_key_config_problem`]).
    /// - 413 (Content Too Large) for a chunk beyond the gateway's limit.
    /// - 500 (Internal Server Error) when the holder of a key held elsewhere fails.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Self::UnknownKeyId
            | Self::SuiteNotOffered
            | Self::UnsupportedSuite
            | Self::Truncated
            | Self::Decrypt
            | Self::MissingFinalChunk
            | Self::MessageLimit => Some(400),
            Self::ChunkTooLarge => Some(413),
            Self::KeyHolder => Some(500),
            Self::InvalidKeyConfig
            | Self::InvalidKey
            | Self::DuplicateKeyId
            | Self::NotReady
            | Self::ResponseStarted
            | Self::Encapsulation => None,
        }
    }

    /// Whether the request failed because the client holds a stale or wrong key configuration
    /// (an unknown key identifier, or a suite the configuration does not offer): the case for
    /// the problem type `https://iana.org/assignments/http-problem-types#ohttp-key` (RFC 9458
    /// §5.3), on which a client fetches the configurations again.
    pub fn is_key_config_problem(&self) -> bool {
        matches!(
            self,
            Self::UnknownKeyId | Self::SuiteNotOffered | Self::UnsupportedSuite
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidKeyConfig => "malformed key configuration",
            Self::InvalidKey => "invalid key for the configuration's KEM",
            Self::UnsupportedSuite => "KEM, KDF or AEAD not usable for Oblivious HTTP",
            Self::SuiteNotOffered => "suite not offered by the key configuration",
            Self::UnknownKeyId => "unknown key identifier",
            Self::DuplicateKeyId => "two keys with one key identifier",
            Self::Truncated => "message truncated",
            Self::Decrypt => "decryption failed",
            Self::Encapsulation => "encapsulation or key generation failed",
            Self::ChunkTooLarge => "chunk larger than the limit",
            Self::MissingFinalChunk => "chunked message without its final chunk",
            Self::NotReady => "the request's header has not been read yet",
            Self::ResponseStarted => "the chunked response was already started",
            Self::MessageLimit => "message too long or too many chunks",
            Self::KeyHolder => "the gateway key's holder failed",
        })
    }
}

impl std::error::Error for Error {}

/// The crate's view of a typed-hpke error met while parsing keys or opening a request.
pub(crate) fn from_hpke(e: typed_hpke::Error) -> Error {
    use typed_hpke::Error as H;
    match e {
        H::UnsupportedSuite | H::UnsupportedOperation => Error::UnsupportedSuite,
        H::InvalidPublicKey | H::InvalidPrivateKey => Error::InvalidKey,
        H::MessageLimitReached | H::Seal => Error::MessageLimit,
        H::Encap | H::DeriveKeyPair => Error::Encapsulation,
        _ => Error::Decrypt,
    }
}
