//! Keys through serde: hex strings in JSON, validated on the way in exactly as `from_bytes`.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::kem::{DhKemP256HkdfSha256, Kem, MlKem1024P384};
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};

fn round_trip<K: Kem>() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5e5d);
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (_, enc) = K::encap(&mut rng, &pk).unwrap();

    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let pk_json = serde_json::to_string(&pk).unwrap();
    assert_eq!(pk_json, format!("\"{}\"", hex(pk.as_bytes())));
    assert_eq!(serde_json::from_str::<PublicKey<K>>(&pk_json).unwrap(), pk);

    let sk_json = serde_json::to_string(&sk).unwrap();
    assert_eq!(sk_json, format!("\"{}\"", hex(&sk.to_bytes())));
    assert_eq!(serde_json::from_str::<PrivateKey<K>>(&sk_json).unwrap(), sk);

    let enc_json = serde_json::to_string(&enc).unwrap();
    assert_eq!(
        serde_json::from_str::<EncappedKey<K>>(&enc_json).unwrap(),
        enc
    );

    // Upper-case hex is read too; odd lengths, bad digits and wrong lengths are errors.
    let upper = pk_json.to_uppercase();
    assert_eq!(serde_json::from_str::<PublicKey<K>>(&upper).unwrap(), pk);
    assert!(serde_json::from_str::<PublicKey<K>>("\"abc\"").is_err());
    assert!(serde_json::from_str::<PublicKey<K>>("\"zz\"").is_err());
    assert!(serde_json::from_str::<PublicKey<K>>("\"00\"").is_err());
    assert!(serde_json::from_str::<EncappedKey<K>>("\"\"").is_err());
    assert!(serde_json::from_str::<PrivateKey<K>>("17").is_err());
    let too_long = format!("\"{}\"", "00".repeat(5000));
    assert!(serde_json::from_str::<PublicKey<K>>(&too_long).is_err());

    // Runtime keys serialize exactly as the typed ones, and come back through their suite.
    let suite = typed_hpke::suite::Suite::new(K::ID, 0x0001, 0x0001).unwrap();
    let (rt_sk, rt_pk) = (
        typed_hpke::suite::PrivateKey::from(sk.clone()),
        typed_hpke::suite::PublicKey::from(pk.clone()),
    );
    assert_eq!(serde_json::to_string(&rt_sk).unwrap(), sk_json);
    assert_eq!(serde_json::to_string(&rt_pk).unwrap(), pk_json);
    let mut de = serde_json::Deserializer::from_str(&sk_json);
    assert_eq!(suite.deserialize_private_key(&mut de).unwrap(), rt_sk);
    let mut de = serde_json::Deserializer::from_str(&pk_json);
    assert_eq!(suite.deserialize_public_key(&mut de).unwrap(), rt_pk);
    let mut de = serde_json::Deserializer::from_str("\"00\"");
    assert!(suite.deserialize_public_key(&mut de).is_err());
    // A key of another KEM, by length, is refused.
    let other =
        typed_hpke::suite::Suite::new(if K::ID == 0x0020 { 0x0010 } else { 0x0020 }, 1, 1).unwrap();
    let mut de = serde_json::Deserializer::from_str(&pk_json);
    assert!(other.deserialize_public_key(&mut de).is_err());
    tagged_round_trip::<K>(&rt_sk, &rt_pk, &sk_json, &pk_json);
    // The runtime `enc` too.
    let (rt_enc, _) = suite
        .setup_sender(&mut rng, &rt_pk, b"", typed_hpke::suite::SenderMode::Base)
        .unwrap();
    let typed_enc = EncappedKey::<K>::from_bytes(rt_enc.as_bytes()).unwrap();
    assert_eq!(
        serde_json::to_string(&rt_enc).unwrap(),
        serde_json::to_string(&typed_enc).unwrap()
    );
}

/// `WithKemId`: `{"kem_id": id, "key": <the key's own form>}`, back to the same key through
/// the id alone, from a map in either order and from a sequence.
fn tagged_round_trip<K: Kem>(
    rt_sk: &typed_hpke::suite::PrivateKey,
    rt_pk: &typed_hpke::suite::PublicKey,
    sk_json: &str,
    pk_json: &str,
) {
    use typed_hpke::suite::{PrivateKey as RtSk, PublicKey as RtPk, WithKemId};
    let id = K::ID;
    let sk_text = serde_json::to_string(&WithKemId(rt_sk.clone())).unwrap();
    assert_eq!(sk_text, format!(r#"{{"kem_id":{id},"key":{sk_json}}}"#));
    let pk_text = serde_json::to_string(&WithKemId(rt_pk.clone())).unwrap();
    assert_eq!(pk_text, format!(r#"{{"kem_id":{id},"key":{pk_json}}}"#));
    let sk_back: WithKemId<RtSk> = serde_json::from_str(&sk_text).unwrap();
    assert_eq!(&sk_back.0, rt_sk);
    let pk_back: WithKemId<RtPk> = serde_json::from_str(&pk_text).unwrap();
    assert_eq!(&pk_back.0, rt_pk);
    // Fields in the other order, and the sequence form.
    let swapped = format!(r#"{{"key":{pk_json},"kem_id":{id}}}"#);
    assert_eq!(
        &serde_json::from_str::<WithKemId<RtPk>>(&swapped).unwrap().0,
        rt_pk
    );
    let seq = format!("[{id},{sk_json}]");
    assert_eq!(
        &serde_json::from_str::<WithKemId<RtSk>>(&seq).unwrap().0,
        rt_sk
    );
    // Refused: an unknown KEM id; another KEM's id (the key's length or encoding does not fit
    // it); a missing, repeated or unknown field; a third element.
    let bad = [
        format!(r#"{{"kem_id":4660,"key":{pk_json}}}"#),
        format!(
            r#"{{"kem_id":{},"key":{pk_json}}}"#,
            if id == 0x0020 { 0x0010 } else { 0x0020 }
        ),
        format!(r#"{{"key":{pk_json}}}"#),
        format!(r#"{{"kem_id":{id}}}"#),
        format!(r#"{{"kem_id":{id},"kem_id":{id},"key":{pk_json}}}"#),
        format!(r#"{{"kem_id":{id},"key":{pk_json},"key":{pk_json}}}"#),
        format!(r#"{{"kem_id":{id},"key":{pk_json},"extra":1}}"#),
        format!("[{id},{pk_json},1]"),
        format!("[{id}]"),
    ];
    for text in &bad {
        assert!(
            serde_json::from_str::<WithKemId<RtPk>>(text).is_err(),
            "{text}"
        );
    }
    assert!(
        serde_json::from_str::<WithKemId<RtSk>>(&format!(r#"{{"kem_id":4660,"key":{sk_json}}}"#))
            .is_err()
    );
}

#[test]
fn keys_round_trip_through_json() {
    for_each_kem!(round_trip);
}

#[test]
fn deserialization_validates() {
    // A P-256 public key that is not on the curve is refused, as from_bytes refuses it.
    let mut bad = vec![0x04u8];
    bad.extend_from_slice(&[0x11; 64]);
    let json = format!(
        "\"{}\"",
        bad.iter().map(|x| format!("{x:02x}")).collect::<String>()
    );
    assert!(serde_json::from_str::<PublicKey<DhKemP256HkdfSha256>>(&json).is_err());
    // A zero P-256 scalar is not a private key.
    let zero = format!("\"{}\"", "00".repeat(32));
    assert!(serde_json::from_str::<PrivateKey<DhKemP256HkdfSha256>>(&zero).is_err());
}

/// The hex text of every key equals an independent encoder's (the `hex` crate), and every byte
/// value and both cases decode back: the constant-time codec is the same codec.
#[test]
fn hex_text_matches_an_independent_codec() {
    // 256 distinct byte values across a few ML-KEM seeds cover every digit pair.
    for i in 0..8u8 {
        let mut ikm = [0u8; 32];
        ikm[0] = i;
        let (sk, pk) = MlKem1024P384::derive_key_pair(&ikm).unwrap();
        let text = serde_json::to_string(&sk).unwrap();
        assert_eq!(
            text,
            format!("\"{}\"", hex::encode(sk.to_bytes().as_slice()))
        );
        let text = serde_json::to_string(&pk).unwrap();
        assert_eq!(text, format!("\"{}\"", hex::encode(pk.as_bytes())));
    }
    let every_byte: Vec<u8> = (0..=255u8).collect();
    for text in [hex::encode(&every_byte), hex::encode_upper(&every_byte)] {
        // 256 bytes is no key; decode through a 64-byte ML-KEM seed at a time.
        for chunk in text.as_bytes().chunks(128) {
            let json = format!("\"{}\"", core::str::from_utf8(chunk).unwrap());
            let sk: PrivateKey<typed_hpke::kem::MlKem768> = serde_json::from_str(&json).unwrap();
            assert_eq!(
                hex::encode(sk.to_bytes().as_slice()),
                chunk
                    .to_ascii_lowercase()
                    .iter()
                    .map(|&c| c as char)
                    .collect::<String>()
            );
        }
    }
    // Non-hex digits, at any position, are refused.
    for bad in ["g0", "0g", "zz", " 0", "0 ", "+1", "-1"] {
        let json = format!("\"{}{}\"", "00".repeat(63), bad);
        assert!(
            serde_json::from_str::<PrivateKey<typed_hpke::kem::MlKem768>>(&json).is_err(),
            "{bad}"
        );
    }
}
