// `RecipientKey` is sealed: a caller cannot make its own type a recipient key and so step
// around the public key's validation.
use typed_hpke::PublicKey;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem, RecipientKey};

struct Mine(PublicKey<X25519>);

impl RecipientKey<X25519> for Mine {
    fn public_key(&self) -> &PublicKey<X25519> {
        &self.0
    }

    fn precomputed(&self) -> Option<&<X25519 as Kem>::Prepared> {
        None
    }
}

fn main() {}
