//! The pure-Rust default: RustCrypto's AEADs (which the other backends keep for what they do not
//! take over), and X25519 on curve25519-dalek (under `aws-lc-rs`, aws-lc's X25519 instead).

#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
pub(crate) mod aead;
#[cfg(all(feature = "x25519", not(feature = "aws-lc-rs")))]
pub(crate) mod x25519;
