// Raw Diffie-Hellman on a group (no all-zero check, no key schedule) is sealed.
use typed_hpke::kem::{DhGroup, X25519};

fn through_a_bound<G: DhGroup>(sk: &G::Scalar, pk: &G::Point) {
    let _ = G::public(sk);
    let _ = G::Engine::dh(sk, pk, &mut Default::default());
}

fn main() {
    let _ = X25519::scalar_from_bytes(&[1; 32]);
}
