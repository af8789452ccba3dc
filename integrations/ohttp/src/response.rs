//! The response half of Oblivious HTTP (RFC 9458 §4.4), on typed-hpke's symmetric surface: the
//! response key and nonce are `Extract` and `Expand` of the suite's KDF over the request's
//! exported secret, and the AEAD keyed with them is typed-hpke's, with its nonce sequence
//! (RFC 9180 §5.2 `ComputeNonce`). Chunked responses (draft-ietf-ohai-chunked-ohttp-08 §6.2)
//! seal chunk `i` under `aead_nonce XOR i`, which is that sequence. No key, nonce or counter is
//! handled here: the backends, typed-hpke's `ct/` check and its zeroization tests cover all of
//! it.

use typed_hpke::suite::{self, MAX_ENC_LEN, Suite};
use zeroize::Zeroizing;

use crate::Error;
use crate::error::from_hpke;

/// `Nt` of every AEAD Oblivious HTTP can use.
pub(crate) const TAG_LEN: usize = suite::TAG_LEN;
/// The largest `max(Nn, Nk)`: the exporter secret and response nonce of a 32-byte-key AEAD.
const MAX_SECRET_LEN: usize = 32;

/// `max(Nn, Nk)` of the suite's AEAD: the length of the exported secret and of the response
/// nonce.
pub(crate) fn secret_len(suite: Suite) -> usize {
    let lengths = suite.lengths();
    lengths.aead_key.max(lengths.aead_nonce)
}

/// The exporter secret of one request, `Export("message/bhttp response", max(Nn, Nk))` (or the
/// chunked label), kept until the response is sealed or opened. Wiped on drop.
pub(crate) struct Secret {
    bytes: Zeroizing<[u8; MAX_SECRET_LEN]>,
    len: usize,
}

impl Secret {
    /// The secret `export` writes into a buffer of the suite's `max(Nn, Nk)` bytes.
    pub(crate) fn export(
        suite: Suite,
        export: impl FnOnce(&mut [u8]) -> Result<(), typed_hpke::Error>,
    ) -> Result<Self, Error> {
        let mut bytes = Zeroizing::new([0u8; MAX_SECRET_LEN]);
        let len = secret_len(suite);
        let buf = bytes.get_mut(..len).ok_or(Error::UnsupportedSuite)?;
        export(buf).map_err(from_hpke)?;
        Ok(Self { bytes, len })
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// RFC 9458 §4.4:
///
/// ```text
/// salt = concat(enc, response_nonce)
/// prk = Extract(salt, secret)
/// ```
fn prk(
    suite: Suite,
    secret: &Secret,
    enc: &[u8],
    response_nonce: &[u8],
) -> Result<suite::Prk, Error> {
    // The salt is public (it travels in the clear): a stack buffer, no wipe.
    let mut salt = [0u8; MAX_ENC_LEN + MAX_SECRET_LEN];
    let salt = salt
        .get_mut(..enc.len() + response_nonce.len())
        .ok_or(Error::Truncated)?;
    let (e, n) = salt.split_at_mut(enc.len());
    e.copy_from_slice(enc);
    n.copy_from_slice(response_nonce);
    suite::Prk::extract(suite.kdf_id(), salt, &[secret.as_slice()]).map_err(from_hpke)
}

/// The gateway's response AEAD: `aead_key = Expand(prk, "key", Nk)`,
/// `aead_nonce = Expand(prk, "nonce", Nn)`, sealing.
pub(crate) fn sealer(
    suite: Suite,
    secret: &Secret,
    enc: &[u8],
    response_nonce: &[u8],
) -> Result<suite::Sealer, Error> {
    let prk = prk(suite, secret, enc, response_nonce)?;
    suite::Sealer::from_prk(suite.aead_id(), prk, b"key", b"nonce").map_err(from_hpke)
}

/// The client's response AEAD, as [`sealer`] derives it, opening.
pub(crate) fn opener(
    suite: Suite,
    secret: &Secret,
    enc: &[u8],
    response_nonce: &[u8],
) -> Result<suite::Opener, Error> {
    let prk = prk(suite, secret, enc, response_nonce)?;
    suite::Opener::from_prk(suite.aead_id(), &prk, b"key", b"nonce").map_err(from_hpke)
}
