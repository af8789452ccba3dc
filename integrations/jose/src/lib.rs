#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

extern crate alloc;

mod alg;
mod b64;
mod decrypt;
mod encrypt;
mod error;
mod json;
mod jwe;
mod jwk;
pub mod openid4vp;

pub use alg::{Algorithm, ContentEncryption};
pub use decrypt::Decryptor;
pub use encrypt::{Encryptor, Recipient};
pub use error::Error;
pub use jwe::{Jwe, JweRecipient};
pub use jwk::{PrivateJwk, PublicJwk};
pub use serde_json;
pub use typed_hpke::OsRng;
/// The `rand_core` traits the encryptor takes (`CryptoRng`), re-exported so callers need not
/// depend on the crate or match its version.
pub use typed_hpke::rand_core;

/// The longest protected header this crate writes or reads, in bytes of JSON. The largest
/// header it writes, a post-quantum key-encryption recipient's with `ek`, is under 2.5 KiB.
pub const MAX_HEADER_LEN: usize = 16 * 1024;

/// The most recipients a JWE may have here.
pub const MAX_RECIPIENTS: usize = 256;

/// The most HPKE opens one JWE may cost a [`Decryptor`]: recipients of its key's algorithm and
/// PSK mode whose `kid` does not rule them out (each an HPKE decapsulation, or a round trip to
/// a key held elsewhere). A JWE that would need more is refused with [`Error::TooLarge`] before
/// the open past the limit.
pub const MAX_TRIAL_OPENS: usize = 16;

/// The Recipient_structure of draft-ietf-jose-hpke-encrypt-20 §6.1:
/// `ASCII("JOSE-HPKE rcpt") || BYTE(255) || ASCII(enc) || BYTE(255) || recipient_extra_info`.
pub(crate) fn recipient_structure(enc: &str, extra_info: &[u8]) -> alloc::vec::Vec<u8> {
    [
        b"JOSE-HPKE rcpt".as_slice(),
        &[0xff],
        enc.as_bytes(),
        &[0xff],
        extra_info,
    ]
    .concat()
}
