//! Unpadded base64url (RFC 7515 §2), canonical only, in constant time (base64ct).

use alloc::string::String;
use alloc::vec::Vec;
use base64ct::{Base64UrlUnpadded, Encoding};
use zeroize::Zeroizing;

use crate::Error;

pub(crate) fn encode(bytes: &[u8]) -> String {
    Base64UrlUnpadded::encode_string(bytes)
}

/// Decodes and refuses every other spelling of the same bytes (padding, whitespace, non-zero
/// trailing bits), so one JWE has one encoding.
pub(crate) fn decode(s: &str) -> Result<Vec<u8>, Error> {
    let bytes = Base64UrlUnpadded::decode_vec(s).map_err(|_| Error::Base64)?;
    // base64ct refuses non-zero trailing bits; the length check covers a stray character
    // count (a remainder of one character).
    if Base64UrlUnpadded::encoded_len(&bytes) != s.len() {
        return Err(Error::Base64);
    }
    Ok(bytes)
}

/// As [`decode`], for secrets: decoded into a buffer that is wiped when dropped, on the error
/// paths too (a non-canonical spelling is refused after the bytes are decoded).
pub(crate) fn decode_secret(s: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut bytes = Zeroizing::new(alloc::vec![0u8; s.len() / 4 * 3 + 3]);
    let len = Base64UrlUnpadded::decode(s, &mut bytes)
        .map_err(|_| Error::Base64)?
        .len();
    bytes.truncate(len);
    if Base64UrlUnpadded::encoded_len(&bytes) != s.len() {
        return Err(Error::Base64);
    }
    Ok(bytes)
}
