#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

extern crate alloc;

mod alg;
mod cbor;
mod decrypt;
mod encrypt;
mod error;
mod key;
mod message;

pub use alg::{Algorithm, ContentAlgorithm};
pub use decrypt::{Decryptor, Message, RecipientInfo};
pub use encrypt::{Encryptor, Recipient};
pub use error::Error;
pub use key::{PrivateCoseKey, PublicCoseKey};
pub use typed_hpke::OsRng;
/// The `rand_core` traits the encryptor takes (`CryptoRng`), re-exported so callers need not
/// depend on the crate or match its version.
pub use typed_hpke::rand_core;

/// The longest serialized protected header this crate reads, in bytes. §3.3.4 expects
/// implementations to support HPKE `info` up to 16,384 bytes, which bounds a recipient's
/// protected header with its extra info.
pub const MAX_HEADER_LEN: usize = 16 * 1024;

/// The most labels one header bucket (protected or unprotected, of any layer or COSE_Key) may
/// have here, checked before the labels are compared. Every header the drafts define has fewer
/// than ten.
pub const MAX_HEADER_LABELS: usize = 64;

/// The most recipients a COSE_Encrypt may have here.
pub const MAX_RECIPIENTS: usize = 256;

/// The most HPKE opens one message may cost a [`Decryptor`]: recipients of its key's
/// algorithm and PSK mode whose `kid` does not rule them out (each an HPKE decapsulation, or a
/// round trip to a key held elsewhere). A message that would need more is refused with
/// [`Error::TooLarge`] before the next open.
pub const MAX_TRIAL_OPENS: usize = 16;
