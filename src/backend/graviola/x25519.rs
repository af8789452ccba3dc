//! X25519 on graviola (s2n-bignum), for the pure-Rust backend's X25519
//! (`crate::backend::rustcrypto::x25519`) to call when [`super::available`] says the CPU can.

use hybrid_array::Array;
use hybrid_array::typenum::U32;
use subtle::Choice;

use crate::kem::dhkem::is_all_zero;

/// s2n-bignum's fixed-base X25519. graviola wipes its copy of the key on drop.
pub(crate) fn public(sk: &[u8; 32]) -> [u8; 32] {
    ::graviola::key_agreement::x25519::StaticPrivateKey::from_array(sk)
        .public_key()
        .as_bytes()
}

/// s2n-bignum's ladder (RFC 7748 §5, clamping inside). graviola refuses the all-zero output
/// itself (§7.1.4 of RFC 9180); the check is made here all the same, on what it returns. Its key
/// copy and its shared secret wipe themselves on drop.
pub(crate) fn dh(sk: &[u8; 32], pk: &[u8; 32], out: &mut Array<u8, U32>) -> Choice {
    use ::graviola::key_agreement::x25519::{PublicKey, StaticPrivateKey};
    match StaticPrivateKey::from_array(sk).diffie_hellman(&PublicKey::from_array(pk)) {
        Ok(shared) => {
            out.copy_from_slice(&shared.0);
            !is_all_zero(&out.0)
        }
        Err(_) => Choice::from(0),
    }
}
