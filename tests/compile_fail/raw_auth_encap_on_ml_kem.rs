// The raw KEM has no auth_encap when the KEM is not an AuthKem.
use typed_hpke::kem::*;
fn main() {
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = MlKem512::generate(&mut rng).unwrap();
    let _ = MlKem512::auth_encap(&mut rng, &pk, &sk);
}
