// Sealing into a second buffer under a caller's nonce is sealed too.
use typed_hpke::aead::{Aead, Aes256Gcm, SealingAead};
use typed_hpke::hybrid_array::Array;

fn through_a_bound<A: SealingAead>(cipher: &A::Cipher) {
    let _ = A::seal_to(cipher, &Array::default(), b"", b"pt", &mut [0u8; 2]);
}

fn through_the_engine<A: SealingAead>(cipher: &A::Cipher) {
    let _ = A::SealingEngine::seal_to(cipher, &Array::default(), b"", b"pt", &mut [0u8; 2]);
}

fn on_the_type(cipher: &<Aes256Gcm as Aead>::Cipher) {
    let _ = Aes256Gcm::seal_to(cipher, &Array::default(), b"", b"pt", &mut [0u8; 2]);
}

fn main() {}
