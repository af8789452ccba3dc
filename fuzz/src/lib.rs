//! Shared helpers for the fuzz targets: each target is a few lines over these.

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::Kem;
use typed_hpke::{EncappedKey, Hpke, PrivateKey, PublicKey};

/// Calls `$f::<K>(data)` for every KEM of the crate.
#[macro_export]
macro_rules! for_each_kem {
    ($f:ident, $data:expr) => {{
        $f::<typed_hpke::kem::DhKemX25519HkdfSha256>($data);
        $f::<typed_hpke::kem::DhKemX448HkdfSha512>($data);
        $f::<typed_hpke::kem::DhKemP256HkdfSha256>($data);
        $f::<typed_hpke::kem::DhKemP384HkdfSha384>($data);
        $f::<typed_hpke::kem::DhKemP521HkdfSha512>($data);
        $f::<typed_hpke::kem::DhKemSecp256k1HkdfSha256>($data);
        $f::<typed_hpke::kem::MlKem512>($data);
        $f::<typed_hpke::kem::MlKem768>($data);
        $f::<typed_hpke::kem::MlKem1024>($data);
        $f::<typed_hpke::kem::XWing>($data);
        $f::<typed_hpke::kem::MlKem768P256>($data);
        $f::<typed_hpke::kem::MlKem1024P384>($data);
    }};
}

/// Whatever parses as a key re-serializes to the same bytes (private keys modulo clamping).
pub fn parse_keys<K: Kem>(data: &[u8]) {
    if let Ok(pk) = PublicKey::<K>::from_bytes(data) {
        assert_eq!(pk.as_bytes(), data);
    }
    if let Ok(sk) = PrivateKey::<K>::from_bytes(data) {
        let again = PrivateKey::<K>::from_bytes(&sk.to_bytes()).expect("re-parse");
        assert!(again == sk);
    }
    if let Ok(enc) = EncappedKey::<K>::from_bytes(data) {
        assert_eq!(enc.as_bytes(), data);
    }
}

/// A fixed recipient key per KEM.
pub fn recipient<K: Kem>() -> PrivateKey<K> {
    K::derive_key_pair(b"typed-hpke fuzz recipient").expect("derive").0
}

/// Decapsulation of arbitrary bytes (padded or cut to Nenc) never panics.
pub fn decap<K: Kem>(data: &[u8]) {
    let sk = recipient::<K>();
    let mut enc = data.to_vec();
    enc.resize(<K::NEnc as typed_hpke::hybrid_array::typenum::Unsigned>::USIZE, 0);
    let enc = EncappedKey::<K>::from_bytes(&enc).expect("Nenc bytes");
    let _ = K::decap(&enc, &sk);
}

/// Single-shot open of arbitrary input split into enc, ciphertext, aad and info.
pub fn open<K: Kem>(data: &[u8]) {
    let nenc = <K::NEnc as typed_hpke::hybrid_array::typenum::Unsigned>::USIZE;
    let (enc, rest) = data.split_at(nenc.min(data.len()));
    let Ok(enc) = EncappedKey::<K>::from_bytes(enc) else { return };
    let split = rest.first().map_or(0, |&b| usize::from(b)).min(rest.len());
    let (aad, rest) = rest.split_at(split);
    let (info, ct) = rest.split_at(rest.len() / 3);
    let sk = recipient::<K>();
    let _ = Hpke::<K, HkdfSha256, ChaCha20Poly1305>::open_base(&enc, &sk, info, aad, ct);
}
