#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

pub mod chunked;
mod client;
mod config;
mod error;
mod gateway;
mod response;

pub use client::{Client, ClientResponse};
pub use config::{KeyConfig, SymmetricSuite};
pub use error::Error;
pub use gateway::{Gateway, GatewayKey, GatewayResponse};
pub use typed_hpke::OsRng;
/// The `rand_core` traits `encapsulate` takes (`CryptoRng`), re-exported so callers need not
/// depend on the crate or match its version.
pub use typed_hpke::rand_core;

/// The HPKE `info` label of a request (RFC 9458 §4.3).
const REQUEST_LABEL: &[u8] = b"message/bhttp request";
/// The exporter label a response is keyed from (RFC 9458 §4.4).
const RESPONSE_LABEL: &[u8] = b"message/bhttp response";

/// The request header: key identifier, KEM, KDF and AEAD ids.
const HEADER_LEN: usize = 7;
/// The longest `info`: a label (the chunked one is the longest, 29 bytes), a zero byte and the
/// header.
const INFO_MAX: usize = 29 + 1 + HEADER_LEN;

/// `hdr = concat(encode(1, key_id), encode(2, kem_id), encode(2, kdf_id), encode(2, aead_id))`
/// (RFC 9458 §4.3).
fn header(key_id: u8, kem_id: u16, symmetric: SymmetricSuite) -> [u8; HEADER_LEN] {
    let [k0, k1] = kem_id.to_be_bytes();
    let [f0, f1] = symmetric.kdf_id.to_be_bytes();
    let [a0, a1] = symmetric.aead_id.to_be_bytes();
    [key_id, k0, k1, f0, f1, a0, a1]
}

/// `info = concat(encode_str(label), encode(1, 0), hdr)` (RFC 9458 §4.3), in `buf`.
fn info<'a>(label: &[u8], hdr: &[u8; HEADER_LEN], buf: &'a mut [u8; INFO_MAX]) -> &'a [u8] {
    let len = label.len() + 1 + HEADER_LEN;
    buf[..label.len()].copy_from_slice(label);
    buf[label.len()] = 0;
    buf[label.len() + 1..len].copy_from_slice(hdr);
    &buf[..len]
}
