// A private key cannot be zeroized in place and then used: there is no public `zeroize()`.
// It is wiped when dropped, after which it cannot be named.
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X, Kem};
use zeroize::Zeroize;

fn main() {
    let (mut sk, _) = X::derive_key_pair(&[1; 32]).unwrap();
    sk.zeroize();
}
