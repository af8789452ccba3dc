//! The places where a value computed from a secret becomes public.
//!
//! Everything else that touches a secret runs in time independent of it: no branch and no
//! memory address depends on it (`ct/` checks this under valgrind on every path). A few
//! outcomes are public by the specification: whether a Diffie-Hellman output is valid, whether
//! a derivation candidate or a parsed scalar is in range, whether a tag verified. Each is
//! decided here, in a function of its own that `ct/valgrind.supp` names with the reason, and
//! nowhere else. What leaves these functions is an ordinary `bool`: code after them may branch
//! on it, and nothing that flows from the secret itself comes out.

use subtle::Choice;

/// The branch on a secret-derived `Choice`, written into each function below (`inline(always)`)
/// so that the branch stands in the frame whose name says why the value is public. Each arm
/// returns through `black_box`, so that the compiler keeps a jump rather than a conditional
/// move, which would carry the secret's taint on into the caller. `WHY` differs between the
/// functions so that their code differs: identical functions would be folded into one symbol,
/// and a report could then be filed under another function's reason.
#[inline(always)]
fn reveal<const WHY: u8>(choice: Choice) -> bool {
    if core::hint::black_box(choice.unwrap_u8() ^ WHY) == 1 ^ WHY {
        core::hint::black_box(true)
    } else {
        core::hint::black_box(false)
    }
}

/// Whether `DH(sk, pk)` is valid: not all zero (X25519, X448; RFC 9180 §7.1.4) and not the
/// point at infinity (the Weierstrass curves). The specification requires the abort; a peer
/// learns only that `pk` has low order, which it chose.
#[inline(never)]
pub(crate) fn dh_output_valid(valid: Choice) -> bool {
    reveal::<0x10>(valid)
}

/// Whether a candidate scalar is in `[1, n)`: in `DeriveKeyPair` (§7.1.3) and
/// `GenerateKeyPair`'s rejection sampling, where a rejected candidate is independent of the
/// accepted one, so only the number of draws is revealed; and when a private key is parsed
/// (§7.1.2), where the outcome is whether the caller's bytes are a key at all.
#[cfg(any(feature = "nist", feature = "secp256k1"))]
#[inline(never)]
pub(crate) fn scalar_in_range(in_range: Choice) -> bool {
    reveal::<0x20>(in_range)
}

/// Whether an AEAD tag verified (§5.2 `Open`): the receiver tells the sender's peer as much by
/// answering or not.
#[inline(never)]
#[cfg_attr(
    not(any(feature = "aes-gcm", feature = "chacha20poly1305")),
    allow(dead_code, reason = "no sealing AEAD in this build")
)]
pub(crate) fn tag_verified(verified: Choice) -> bool {
    reveal::<0x30>(verified)
}

/// Whether the public key given with a private key (`PrivateKey::from_bytes_and_public`) is the
/// one the private key's parse computed (ML-KEM, the hybrids). Both are public: the key pair's
/// public key is published, and the given one is the caller's copy of it; so is the answer (a
/// mismatched pair is refused).
#[inline(never)]
pub(crate) fn public_key_matches(matches: Choice) -> bool {
    reveal::<0x50>(matches)
}

/// Whether a point an assembly backend computed from a secret scalar (a public key, graviola's
/// `pk(sk)`) is on the curve, as RustCrypto checks it on the way in. It always is (the check is
/// against a fault); the point is the public key, published by every caller.
/// Reached only with an assembly backend for the curve; the generic code names it for all.
#[cfg(any(feature = "nist", feature = "secp256k1"))]
#[inline(never)]
pub(crate) fn computed_point_valid(valid: Choice) -> bool {
    reveal::<0x40>(valid)
}
