//! P-256 and P-384 on graviola (feature `graviola`): P-256's public keys and `DH`, and P-384's
//! `DH`, in s2n-bignum's formally verified assembly, inside the generic Weierstrass backend
//! (`super::weierstrass::Accel`).
//!
//! Only these multiplications move. The scalars are still drawn, derived (RFC 9180 §7.1.3)
//! and range-checked by RustCrypto, public keys are still validated by RustCrypto (§7.1.1,
//! §7.1.4) before graviola sees them, and what graviola computes is read back through the same
//! types: the keys, the errors and the outputs are those of the pure-Rust backend
//! (`tests/backend_errors.rs`, the known-answer tests and the seeded round trips check that
//! under this feature). Every call is behind `crate::backend::graviola::available()`: on a CPU
//! graviola does not support, `public` and `parse` answer that they did not run and the
//! pure-Rust code computes instead.
//!
//! Secrets: graviola's private key type wipes its scalar on drop, and its shared secret type
//! wipes itself on drop; the scalar bytes handed to it are in a wiped buffer of the caller's.
//! graviola's own secret marking for valgrind exists only in its own test builds; ct/run marks
//! this crate's secrets, and graviola's code runs under it like any other.

use elliptic_curve::FieldBytes;
use subtle::Choice;

use super::available;
use crate::kem::weierstrass::Accel;

macro_rules! graviola_curve {
    ($(#[$doc:meta])* $name:ident, $curve:ty, $module:ident, public: $public:literal) => {
        $(#[$doc])*
        #[doc(hidden)]
        #[derive(Debug)]
        pub struct $name;

        impl Accel<$curve> for $name {
            const ENABLED: bool = true;
            const PUBLIC: bool = $public;
            /// graviola's public key: the affine point in Montgomery form and its table of
            /// multiples for the 5-bit window (what a prepared key keeps, boxed).
            type Parsed = ::graviola::key_agreement::$module::PublicKey;

            fn public_point(sk: &FieldBytes<$curve>, out: &mut [u8]) -> bool {
                if !available() {
                    return false;
                }
                let Ok(key) = ::graviola::key_agreement::$module::StaticPrivateKey::from_bytes(sk)
                else {
                    // Not reached: the scalar is in [1, n), which is all graviola checks.
                    return false;
                };
                let public = key.public_key_uncompressed();
                if public.len() != out.len() {
                    return false;
                }
                out.copy_from_slice(&public);
                true
            }

            fn parse(uncompressed: &[u8]) -> Option<Self::Parsed> {
                if !available() {
                    return None;
                }
                ::graviola::key_agreement::$module::PublicKey::from_x962_uncompressed(uncompressed)
                    .ok()
            }

            fn agree(
                sk: &FieldBytes<$curve>,
                pk: &Self::Parsed,
                out: &mut FieldBytes<$curve>,
            ) -> Choice {
                let Ok(key) = ::graviola::key_agreement::$module::StaticPrivateKey::from_bytes(sk)
                else {
                    return Choice::from(0);
                };
                // The x-coordinate of sk·pk, big-endian, Ndh bytes; graviola refuses a result
                // off the curve (a fault), which is then this crate's DH failure.
                match key.diffie_hellman(pk) {
                    Ok(shared) if shared.0.len() == out.len() => {
                        out.copy_from_slice(&shared.0);
                        Choice::from(1)
                    }
                    _ => Choice::from(0),
                }
            }
        }
    };
}

graviola_curve!(
    /// P-256 on graviola: public keys and `DH`.
    P256,
    p256::NistP256,
    p256,
    public: true
);
graviola_curve!(
    /// P-384 on graviola: `DH` only. graviola's P-384 base-point multiplication has no
    /// precomputed table and measured slower than RustCrypto's with its tables (key
    /// generation 171 µs against 141 µs; BENCHMARKS.md), so public keys stay RustCrypto's.
    P384,
    p384::NistP384,
    p384,
    public: false
);
