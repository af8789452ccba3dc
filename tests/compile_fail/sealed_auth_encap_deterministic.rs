// Deterministic authenticated encapsulation is sealed, through a bound and through the engine.
use typed_hpke::kem::{AuthKem, DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{PrivateKey, PublicKey};

fn through_a_bound<K: AuthKem>(pk: &PublicKey<K>, sk: &PrivateKey<K>) {
    let _ = K::auth_encap_deterministic(&[0; 32], pk, sk);
}

fn through_the_engine<K: AuthKem>(pk: &PublicKey<K>, sk: &PrivateKey<K>) {
    let _ = K::AuthEngine::auth_encap_deterministic(&[0; 32], pk, sk);
}

fn main() {
    let (sk, pk) = X25519::derive_key_pair(&[1; 32]).unwrap();
    let _ = X25519::auth_encap_deterministic(&[0; 32], &pk, &sk);
}
