//! The HPKE `info` OpenID for Verifiable Presentations 1.1 defines for encrypted responses
//! (openid/OpenID4VP `1.1/openid-4-verifiable-presentations-1_1.md` at `46f6965b`, "Encryption
//! using HPKE"): the `session_info` structure, which binds a wallet's response to the request
//! it answers, so that decryption fails closed on another session.
//!
//! It is the HPKE `info` of integrated encryption ([`crate::Encryptor::info`],
//! [`crate::Decryptor::info`]), or the `recipient_extra_info` of key encryption
//! ([`crate::Recipient::extra_info`], [`crate::Decryptor::extra_info`]).

use alloc::vec::Vec;

use crate::Error;

/// Joins ASCII fields with the 0xFF separator; 0xFF cannot occur in ASCII, so the fields
/// cannot be shifted between one another.
fn join(fields: &[&str]) -> Result<Vec<u8>, Error> {
    if !fields.iter().all(|f| f.is_ascii()) {
        return Err(Error::Malformed("session_info fields are ASCII"));
    }
    let mut out = Vec::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(0xff);
        }
        out.extend_from_slice(field.as_bytes());
    }
    Ok(out)
}

/// `session_info` for redirect-based response modes such as `direct_post.jwt`:
/// `ASCII("OpenID4VP-si") || 0xFF || ASCII(client_id) || 0xFF || ASCII(nonce) || 0xFF ||
/// ASCII(response_uri)`, where `response_uri` is the request's `redirect_uri` or
/// `response_uri`, whichever the response mode uses.
///
/// # Errors
/// [`Error::Malformed`] if a field is not ASCII.
pub fn session_info(client_id: &str, nonce: &str, response_uri: &str) -> Result<Vec<u8>, Error> {
    join(&["OpenID4VP-si", client_id, nonce, response_uri])
}

/// `session_info` for the `dc_api.jwt` response mode (the Digital Credentials API):
/// `ASCII("OpenID4VPDCAPI-si") || 0xFF || ASCII(origin) || 0xFF || ASCII(nonce)`, with the
/// origin not prefixed with `origin:`.
///
/// # Errors
/// [`Error::Malformed`] if a field is not ASCII, or `origin` starts with `origin:`.
pub fn session_info_dc_api(origin: &str, nonce: &str) -> Result<Vec<u8>, Error> {
    if origin.starts_with("origin:") {
        return Err(Error::Malformed("the origin without its origin: prefix"));
    }
    join(&["OpenID4VPDCAPI-si", origin, nonce])
}
