//! AES-128-GCM and AES-256-GCM (RFC 9180 §7.3, `aead_id` 0x0001 and 0x0002).

use hybrid_array::typenum::{U12, U16, U32};

super::rustcrypto_aead!(
    /// AES-128-GCM, `aead_id` 0x0001: Nk = 16, Nn = 12, Nt = 16.
    Aes128Gcm, ::aes_gcm::Aes128Gcm, AES_128_GCM, 0x0001, U16, U12, U16
);
super::rustcrypto_aead!(
    /// AES-256-GCM, `aead_id` 0x0002: Nk = 32, Nn = 12, Nt = 16.
    Aes256Gcm, ::aes_gcm::Aes256Gcm, AES_256_GCM, 0x0002, U32, U12, U16
);
