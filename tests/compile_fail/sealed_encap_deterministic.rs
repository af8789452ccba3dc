// Deterministic encapsulation is sealed: not through the KEM, not through a generic bound, not
// through the hidden engine. (With `hazmat`, `typed_hpke::hazmat::encap_deterministic` is the one
// named door.)
use typed_hpke::PublicKey;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};

fn through_a_bound<K: Kem>(pk: &PublicKey<K>) {
    let _ = K::encap_deterministic(&[0; 32], pk);
}

fn through_the_engine<K: Kem>(pk: &PublicKey<K>) {
    let _ = K::Engine::encap_deterministic(&[0; 32], pk);
}

fn main() {
    let (_, pk) = X25519::derive_key_pair(&[1; 32]).unwrap();
    let _ = X25519::encap_deterministic(&[0; 32], &pk);
}
