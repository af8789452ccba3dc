//! AES-128-GCM and AES-256-GCM (RFC 9180 §7.3, `aead_id` 0x0001 and 0x0002).

use hybrid_array::typenum::{U12, U16, U32};

/// NIST SP 800-38D §5.2.1.1: len(P) <= 2^39 - 256 bits, len(A) <= 2^64 - 1 bits. GCM's 32-bit
/// block counter starts at 2 for the first block of plaintext: 2^32 - 2 blocks of 16 bytes.
const MAX_PLAINTEXT: u64 = (1 << 36) - 32;
const MAX_AAD: u64 = (1 << 61) - 1;

super::rustcrypto_aead!(
    /// AES-128-GCM, `aead_id` 0x0001: Nk = 16, Nn = 12, Nt = 16.
    Aes128Gcm, ::aes_gcm::Aes128Gcm, AES_128_GCM, 0x0001, U16, U12, U16,
    max_plaintext: MAX_PLAINTEXT, max_aad: MAX_AAD
);
super::rustcrypto_aead!(
    /// AES-256-GCM, `aead_id` 0x0002: Nk = 32, Nn = 12, Nt = 16.
    Aes256Gcm, ::aes_gcm::Aes256Gcm, AES_256_GCM, 0x0002, U32, U12, U16,
    max_plaintext: MAX_PLAINTEXT, max_aad: MAX_AAD
);
