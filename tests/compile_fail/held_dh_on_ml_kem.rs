// ML-KEM has no Diffie-Hellman for a holder to compute: `DhHolder` is for the DH-KEMs, and an
// ML-KEM key held elsewhere is a `DecapHolder`.
use typed_hpke::kem::{DhHolder, MlKem768, PublicKey};

struct Kms;

impl DhHolder<MlKem768> for Kms {
    type Error = ();
    fn public_key(&self) -> &PublicKey<MlKem768> {
        unimplemented!()
    }
    fn dh(&self, _: &PublicKey<MlKem768>, _: &mut [u8]) -> Result<(), ()> {
        Ok(())
    }
}

fn main() {}
