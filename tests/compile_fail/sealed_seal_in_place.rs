// Sealing under a caller's nonce is sealed: two calls with one nonce would give
// ct1 xor ct2 = pt1 xor pt2.
use typed_hpke::aead::{Aead, ChaCha20Poly1305, SealingAead};
use typed_hpke::hybrid_array::Array;

fn through_a_bound<A: SealingAead>(cipher: &A::Cipher) {
    let _ = A::seal_in_place(cipher, &Array::default(), b"", &mut [0u8; 16]);
}

fn through_the_engine<A: SealingAead>(cipher: &A::Cipher) {
    let _ = A::SealingEngine::seal_in_place(cipher, &Array::default(), b"", &mut [0u8; 16]);
}

fn on_the_type(cipher: &<ChaCha20Poly1305 as Aead>::Cipher) {
    let _ = ChaCha20Poly1305::seal_in_place(cipher, &Array::default(), b"", &mut [0u8; 16]);
}

fn main() {}
