//! Secrets are wiped on drop, shown through the types: every secret-holding type, or the
//! primitive state it is made of, implements `ZeroizeOnDrop`. `tests/zeroize_observed.rs`
//! watches the memory itself, through a global allocator, and fails if any of the crate's own
//! `Drop` impls for secrets is removed. The crate's own markers carry real bounds (a
//! private key is `ZeroizeOnDrop` only if its ML-KEM decapsulation key is): removing a
//! dependency's `zeroize` feature makes the marker false, and then the crate and this test no
//! longer build. That a wiped private key cannot be used at all is
//! shown at compile time: a dropped key cannot be named again
//! (`tests/compile_fail/private_key_used_after_drop.rs`), and `PrivateKey` has no public
//! `zeroize()` that would leave a usable all-zero key behind
//! (`tests/compile_fail/zeroize_private_key.rs`), unlike hpke-ng, whose zeroized key still
//! decapsulates.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{Kdf, Shake128, Shake256, TurboShake128, TurboShake256};
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem};
use typed_hpke::{PrivateKey, SharedSecret};
use zeroize::ZeroizeOnDrop;

fn wiped_on_drop<T: ZeroizeOnDrop>() {}

fn kem_secrets<K: Kem>() {
    wiped_on_drop::<PrivateKey<K>>();
    wiped_on_drop::<SharedSecret<K>>();
}

#[test]
fn private_keys_and_shared_secrets() {
    for_each_kem!(kem_secrets);
}

/// A context holds the keyed AEAD (the key), the base nonce (wiped by the context's own
/// `Drop`) and the exporter. The keyed AEADs wipe their key schedules.
#[test]
fn context_keys() {
    wiped_on_drop::<<Aes128Gcm as Aead>::Cipher>();
    wiped_on_drop::<<Aes256Gcm as Aead>::Cipher>();
    wiped_on_drop::<<ChaCha20Poly1305 as Aead>::Cipher>();
}

/// The exporter secret lives on as the exporter's state: for the one-stage KDFs an absorbed
/// XOF, for HKDF the keyed HMAC, whose state is two SHA-2 compression states (wiped on drop;
/// the `hkdf` wrapper itself carries no marker, so the test names the states it holds).
#[test]
fn exporter_secrets() {
    wiped_on_drop::<<Shake128 as Kdf>::Exporter>();
    wiped_on_drop::<<Shake256 as Kdf>::Exporter>();
    wiped_on_drop::<<TurboShake128 as Kdf>::Exporter>();
    wiped_on_drop::<<TurboShake256 as Kdf>::Exporter>();
    wiped_on_drop::<sha2::block_api::Sha256VarCore>();
    wiped_on_drop::<sha2::block_api::Sha512VarCore>();
}

/// Key schedule intermediates (`psk_id_hash`, `info_hash`, `secret`, the PRKs) are
/// `Zeroizing` buffers inside the crate; what leaves it is a `SharedSecret` or a context.
/// `to_bytes` of a private key is `Zeroizing` too.
#[test]
fn serialized_private_keys() {
    let (sk, _) = DhKemX25519HkdfSha256::derive_key_pair(&[1; 32]).unwrap();
    let bytes: zeroize::Zeroizing<_> = sk.to_bytes();
    assert_eq!(bytes.len(), 32);
}
