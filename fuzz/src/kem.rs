//! The KEM-level targets: key parsing (`public_key`, `private_key`, `encapped_key`),
//! `derive_key_pair` and `decap`.

use typed_hpke::kem::{AuthKem, Kem};
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};

use crate::{Counter, hex, keys, nenc, seed_of};

/// `public_key`: whatever parses re-serializes to the same bytes.
pub fn public_key<K: Kem>(data: &[u8]) {
    if let Ok(pk) = PublicKey::<K>::from_bytes(data) {
        assert_eq!(pk.as_bytes(), data);
        assert_eq!(&pk.to_bytes()[..], data);
    }
}

/// `private_key`: whatever parses re-serializes to bytes that parse to the same key, whose
/// public key parses too.
pub fn private_key<K: Kem>(data: &[u8]) {
    if let Ok(sk) = PrivateKey::<K>::from_bytes(data) {
        let again = PrivateKey::<K>::from_bytes(&sk.to_bytes()).expect("re-parse");
        assert!(again == sk);
        let pk = sk.public_key();
        assert!(PublicKey::<K>::from_bytes(pk.as_bytes()).expect("public key") == pk);
    }
}

/// `encapped_key`: whatever parses re-serializes to the same bytes.
pub fn encapped_key<K: Kem>(data: &[u8]) {
    if let Ok(enc) = EncappedKey::<K>::from_bytes(data) {
        assert_eq!(enc.as_bytes(), data);
    }
}

/// `derive_key_pair`: any ikm; a derived pair is consistent and round-trips. Then the rest of
/// the key API on it: `Debug` shows the public bytes and never the secret ones; encapsulation
/// to the pair, plain and through a `PreparedPublicKey`, decapsulates to the same secret;
/// `generate` from a generator seeded by the ikm gives a consistent pair.
pub fn derive_key_pair<K: Kem>(data: &[u8]) {
    derive_checked::<K>(data);
}

/// `derive_key_pair` for the DH-KEMs, adding `AuthEncap` from the derived key (plain and
/// prepared) to a fixed recipient, which `AuthDecap` must match.
pub fn derive_key_pair_auth<K: AuthKem>(data: &[u8]) {
    let Some((sk, pk)) = derive_checked::<K>(data) else {
        return;
    };
    let k = keys::<K>();
    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed_of(data) ^ 1));
    let (ss, enc) = K::auth_encap(&mut rng, &k.pk_r, &sk).expect("auth_encap");
    assert!(K::auth_decap(&enc, &k.sk_r, &pk).expect("auth_decap") == ss);
    let prepared = typed_hpke::kem::PreparedPublicKey::new(&k.pk_r);
    let (ss, enc) = prepared
        .auth_encap(&mut rng, &sk)
        .expect("prepared auth_encap");
    assert!(K::auth_decap(&enc, &k.sk_r, &pk).expect("auth_decap") == ss);
}

fn derive_checked<K: Kem>(data: &[u8]) -> Option<(PrivateKey<K>, PublicKey<K>)> {
    let (sk, pk) = K::derive_key_pair(data).ok()?;
    assert!(sk.public_key() == pk);
    let bytes = sk.to_bytes();
    assert!(PrivateKey::<K>::from_bytes(&bytes).expect("re-parse") == sk);
    let shown = format!("{sk:?}");
    assert!(
        !shown.contains(&hex(&bytes)),
        "Debug shows the private key: {shown}"
    );
    assert!(format!("{pk:?}").contains(&hex(pk.as_bytes())));

    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed_of(data)));
    let (ss, enc) = K::encap(&mut rng, &pk).expect("encap to a derived key");
    assert!(K::decap(&enc, &sk).expect("decap") == ss);
    let shown = format!("{ss:?}");
    assert!(
        !shown.contains(&hex(ss.as_bytes())),
        "Debug shows the shared secret"
    );
    assert!(enc.clone() == enc);
    assert!(format!("{enc:?}").contains(&hex(enc.as_bytes())));

    let prepared = typed_hpke::kem::PreparedPublicKey::new(&pk);
    assert!(prepared.public_key() == &pk);
    assert!(prepared.clone() == prepared);
    assert!(prepared.memory_size() >= core::mem::size_of_val(&prepared));
    assert!(format!("{prepared:?}").contains(&hex(pk.as_bytes())));
    let (ss, enc) = prepared.encap(&mut rng).expect("prepared encap");
    assert!(K::decap(&enc, &sk).expect("decap") == ss);

    let (sk_g, pk_g) = K::generate(&mut rng).expect("generate from a working generator");
    assert!(sk_g.public_key() == pk_g);
    Some((sk, pk))
}

/// `decap`: arbitrary encapsulated keys (cut or zero-padded to Nenc) against a fixed key.
pub fn decap<K: Kem>(data: &[u8]) {
    let mut enc = data.to_vec();
    enc.resize(nenc::<K>(), 0);
    let enc = EncappedKey::<K>::from_bytes(&enc).expect("Nenc bytes");
    let _ = K::decap(&enc, &keys::<K>().sk_r);
}

/// `decap` in the authenticated mode, for the DH-KEMs.
pub fn auth_decap<K: AuthKem>(data: &[u8]) {
    decap::<K>(data);
    let mut enc = data.to_vec();
    enc.resize(nenc::<K>(), 0);
    let enc = EncappedKey::<K>::from_bytes(&enc).expect("Nenc bytes");
    let k = keys::<K>();
    let _ = K::auth_decap(&enc, &k.sk_r, &k.pk_s);
}
