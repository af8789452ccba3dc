//! ChaCha20-Poly1305 (RFC 9180 §7.3, `aead_id` 0x0003).

use hybrid_array::typenum::{U12, U16, U32};

super::rustcrypto_aead!(
    /// ChaCha20-Poly1305, `aead_id` 0x0003: Nk = 32, Nn = 12, Nt = 16.
    ChaCha20Poly1305, ::chacha20poly1305::ChaCha20Poly1305, CHACHA20_POLY1305, 0x0003, U32, U12, U16,
    // RFC 8439 §2.8: the 32-bit block counter starts at 1 for the plaintext, so at most
    // 2^32 - 1 blocks of 64 bytes; the associated data's length is a 64-bit count.
    max_plaintext: (1 << 38) - 64, max_aad: u64::MAX
);
