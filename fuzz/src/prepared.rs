//! The `prepared` target: encapsulation through a `PreparedPublicKey` against the plain key.

use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kem::{AuthKem, Kem};
use typed_hpke::{EncappedKey, Error, PublicKey};

use crate::{Input, keys};

/// The recipient key of a `prepared` input: parsed from its first `Npk` bytes (any 32 bytes are
/// an X25519 key, edge points included), else derived from them.
fn recipient_of<K: Kem>(key: &[u8]) -> Option<PublicKey<K>> {
    PublicKey::<K>::from_bytes(key)
        .ok()
        .or_else(|| K::derive_key_pair(key).ok().map(|(_, pk)| pk))
}

type Encapped = Result<(Vec<u8>, Vec<u8>), Error>;

fn bytes_of<K: Kem>(r: Result<(typed_hpke::SharedSecret<K>, EncappedKey<K>), Error>) -> Encapped {
    r.map(|(ss, enc)| (ss.as_bytes().to_vec(), enc.as_bytes().to_vec()))
}

/// `prepared`: encapsulation through a prepared key gives what the plain key gives (the same
/// shared secret and `enc`, or the same error), for the ephemeral fixed by the rest of the
/// input; for the DH-KEMs `AuthEncap` too, from the fixed sender key.
pub fn prepared<K: Kem>(
    data: &[u8],
) -> Option<(PublicKey<K>, typed_hpke::kem::PreparedPublicKey<K>, &[u8])> {
    let mut input = Input(data);
    let pk = recipient_of::<K>(input.take(K::NPk::USIZE))?;
    let prepared = typed_hpke::kem::PreparedPublicKey::new(&pk);
    let ikm_e = input.rest();
    let plain = bytes_of(typed_hpke::hazmat::encap_deterministic::<K>(ikm_e, &pk));
    let through = bytes_of(typed_hpke::hazmat::encap_deterministic::<K>(
        ikm_e, &prepared,
    ));
    assert_eq!(plain, through);
    Some((pk, prepared, ikm_e))
}

/// `prepared` for a DH-KEM: the above, then `AuthEncap`.
pub fn prepared_auth<K: AuthKem>(data: &[u8]) {
    if let Some((pk, prepared, ikm_e)) = prepared::<K>(data) {
        let sk_s = &keys::<K>().sk_s;
        let plain = typed_hpke::hazmat::auth_encap_deterministic::<K>(ikm_e, &pk, sk_s);
        let through = typed_hpke::hazmat::auth_encap_deterministic::<K>(ikm_e, &prepared, sk_s);
        assert_eq!(bytes_of(plain), bytes_of(through));
    }
}

/// `prepared` for the KEMs without the authenticated modes.
pub fn prepared_pq<K: Kem>(data: &[u8]) {
    let _ = prepared::<K>(data);
}
