// A generic function that seals, given ExportOnly: the bound's own message says why
// (`#[diagnostic::on_unimplemented]` on `SealingAead`).
use typed_hpke::aead::{ExportOnly, SealingAead};

fn needs_seal<A: SealingAead>() {}

fn main() {
    needs_seal::<ExportOnly>();
}
