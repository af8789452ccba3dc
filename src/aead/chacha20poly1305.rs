//! ChaCha20-Poly1305 (RFC 9180 §7.3, `aead_id` 0x0003).

use hybrid_array::typenum::{U12, U16, U32};

super::rustcrypto_aead!(
    /// ChaCha20-Poly1305, `aead_id` 0x0003: Nk = 32, Nn = 12, Nt = 16.
    ChaCha20Poly1305, ::chacha20poly1305::ChaCha20Poly1305, CHACHA20_POLY1305, 0x0003, U32, U12, U16
);
