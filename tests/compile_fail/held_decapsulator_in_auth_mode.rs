// A key whose holder decapsulates whole cannot open an Auth message: `AuthDecap` needs the
// Diffie-Hellman values (RFC 9180 §5.1.3), so only `ExternalDh` (or a private key) is an
// `AuthDecapKey`. The mode is the function called; no key turns Auth into Base.
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DecapHolder, DhKemX25519HkdfSha256 as X25519, EncappedKey, ExternalDecap};
use typed_hpke::{Hpke, PublicKey};

struct Kms;

impl DecapHolder<X25519> for Kms {
    type Error = ();
    fn decapsulate(&self, _: &EncappedKey<X25519>, _: &mut [u8]) -> Result<(), ()> {
        Ok(())
    }
}

fn open(enc: &EncappedKey<X25519>, pk_s: &PublicKey<X25519>) {
    type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
    let _ = S::setup_receiver_auth(enc, &ExternalDecap(Kms), b"info", pk_s);
}

fn main() {}
