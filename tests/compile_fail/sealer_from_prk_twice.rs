// Two sealers keyed from one PRK with the same labels would seal under the same nonces: a
// sealer consumes the PRK it is keyed from, typed and at run time.
use typed_hpke::aead::Aes128Gcm;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::symmetric::{Prk, Sealer};

fn main() {
    let prk = Prk::<HkdfSha256>::extract(b"salt", &[b"secret"]);
    let first = Sealer::<Aes128Gcm>::from_prk(prk, b"key", b"nonce");
    let second = Sealer::<Aes128Gcm>::from_prk(prk, b"key", b"nonce");

    let runtime = typed_hpke::suite::Prk::extract(0x0001, b"salt", &[b"secret"]).unwrap();
    let third = typed_hpke::suite::Sealer::from_prk(0x0001, runtime, b"key", b"nonce");
    let fourth = typed_hpke::suite::Sealer::from_prk(0x0001, runtime, b"key", b"nonce");
    let _ = (first, second, third, fourth);
}
