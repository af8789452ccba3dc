//! The aws-lc-rs backend (feature `aws-lc-rs`): with both backend features on, this one.

#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
pub(crate) mod aead;
#[cfg(any(feature = "x25519", feature = "nist"))]
pub(crate) mod dh;
#[cfg(feature = "x25519")]
pub(crate) mod x25519;
