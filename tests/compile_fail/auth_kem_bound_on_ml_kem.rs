// A generic function that needs the authenticated modes, given ML-KEM: the bound's own message
// says why (`#[diagnostic::on_unimplemented]` on `AuthKem`).
use typed_hpke::kem::{AuthKem, MlKem768};

fn needs_auth<K: AuthKem>() {}

fn main() {
    needs_auth::<MlKem768>();
}
