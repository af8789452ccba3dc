// Keying an AEAD outside a context is sealed: a bare cipher would take any nonce.
use typed_hpke::aead::{Aead, Aes128Gcm};
use typed_hpke::hybrid_array::Array;

fn through_a_bound<A: Aead>() {
    let _ = A::new_cipher(&Array::default());
}

fn through_the_engine<A: Aead>() {
    let _ = A::Engine::new_cipher(&Array::default());
}

fn main() {
    let _ = Aes128Gcm::new_cipher(&Array::default());
}
