//! The `serde` target: every key type of every KEM through JSON and CBOR.

use typed_hpke::kem::Kem;
use typed_hpke::suite::WithKemId;
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};

use crate::Input;

/// Reads a `T` from JSON text; what reads writes back to JSON that reads equal.
fn json<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq>(data: &[u8]) -> Option<T> {
    let value: T = serde_json::from_slice(data).ok()?;
    let text = serde_json::to_vec(&value).expect("a parsed key serializes");
    let back: T = serde_json::from_slice(&text).expect("what we write reads back");
    assert!(back == value);
    Some(value)
}

/// Reads a `T` from CBOR (a byte string, or an array of small integers); what reads writes
/// back to CBOR that reads equal.
fn cbor<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq>(data: &[u8]) -> Option<T> {
    let value: T = ciborium::from_reader(data).ok()?;
    let mut out = Vec::new();
    ciborium::into_writer(&value, &mut out).expect("a parsed key serializes");
    let back: T = ciborium::from_reader(&out[..]).expect("what we write reads back");
    assert!(back == value);
    Some(value)
}

/// A runtime key in its tagged form (`WithKemId`) reads back equal from JSON and from CBOR.
fn tagged_round_trip<T>(key: T)
where
    T: PartialEq,
    WithKemId<T>: serde::Serialize + serde::de::DeserializeOwned,
{
    let key = WithKemId(key);
    let text = serde_json::to_vec(&key).expect("a tagged key serializes");
    let back: WithKemId<T> = serde_json::from_slice(&text).expect("a tagged key reads back");
    assert!(back == key);
    let mut out = Vec::new();
    ciborium::into_writer(&key, &mut out).expect("a tagged key serializes");
    let back: WithKemId<T> = ciborium::from_reader(&out[..]).expect("a tagged key reads back");
    assert!(back == key);
}

/// `serde`: arbitrary JSON text or CBOR into every key type of `K` (the first byte picks the
/// format and the type). Bad input is an error; what reads round-trips, and a private or
/// public key's runtime form serializes exactly as the typed one and round-trips in its tagged
/// form (`WithKemId`), which the third arm also reads from the arbitrary input.
pub fn serde_keys<K: Kem>(data: &[u8]) {
    let mut input = Input(data);
    let how = input.byte();
    let data = input.rest();
    match (how >> 1) % 3 {
        0 => {
            let sk: Option<PrivateKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
            if let Some(sk) = sk {
                let runtime = typed_hpke::suite::PrivateKey::from(sk.clone());
                assert_eq!(
                    serde_json::to_string(&runtime).expect("json"),
                    serde_json::to_string(&sk).expect("json")
                );
                tagged_round_trip(runtime);
            }
        }
        1 => {
            let pk: Option<PublicKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
            if let Some(pk) = pk {
                let runtime = typed_hpke::suite::PublicKey::from(pk.clone());
                assert_eq!(
                    serde_json::to_string(&runtime).expect("json"),
                    serde_json::to_string(&pk).expect("json")
                );
                tagged_round_trip(runtime);
            }
        }
        _ => {
            let _: Option<EncappedKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
            if how & 1 == 0 {
                let _: Option<WithKemId<typed_hpke::suite::PrivateKey>> = json(data);
                let _: Option<WithKemId<typed_hpke::suite::PublicKey>> = json(data);
            } else {
                let _: Option<WithKemId<typed_hpke::suite::PrivateKey>> = cbor(data);
                let _: Option<WithKemId<typed_hpke::suite::PublicKey>> = cbor(data);
            }
        }
    }
}
