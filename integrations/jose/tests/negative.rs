//! Every refusal rule, each with a message that only that rule refuses.

use base64ct::{Base64UrlUnpadded as B64, Encoding};
use serde_json::{Value, json};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Error, Jwe, PrivateJwk, PublicJwk,
    Recipient,
};

/// A named edit of a JSON value.
type Edit = Box<dyn Fn(&mut Value)>;

fn rng() -> typed_hpke_jose::OsRng {
    typed_hpke_jose::OsRng::default()
}

fn key(alg: Algorithm) -> PrivateJwk {
    PrivateJwk::generate(alg, &mut rng())
        .unwrap()
        .with_kid(format!("kid-{}", alg.name()))
}

fn integrated(key: &PrivateJwk) -> Value {
    let jwe = Encryptor::integrated(Algorithm::HPKE_3, key.public_jwk())
        .unwrap()
        .aad(b"aad")
        .encrypt(&mut rng(), b"secret")
        .unwrap();
    serde_json::from_str(&jwe.to_flattened().unwrap()).unwrap()
}

fn key_encryption(key: &PrivateJwk) -> Value {
    let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, key.public_jwk()).unwrap())
        .unwrap()
        .aad(b"aad")
        .encrypt(&mut rng(), b"secret")
        .unwrap();
    serde_json::from_str(&jwe.to_flattened().unwrap()).unwrap()
}

fn header(jwe: &Value) -> Value {
    serde_json::from_slice(&B64::decode_vec(jwe["protected"].as_str().unwrap()).unwrap()).unwrap()
}

fn with_header(mut jwe: Value, edit: impl FnOnce(&mut Value)) -> Value {
    let mut h = header(&jwe);
    edit(&mut h);
    jwe["protected"] = B64::encode_string(h.to_string().as_bytes()).into();
    jwe
}

fn decrypt(key: &PrivateJwk, jwe: &Value) -> Result<Vec<u8>, Error> {
    Decryptor::new(key).decrypt(&Jwe::parse(&jwe.to_string())?)
}

#[test]
fn baseline_messages_decrypt() {
    let (k, ke) = (key(Algorithm::HPKE_3), key(Algorithm::HPKE_3_KE));
    assert_eq!(decrypt(&k, &integrated(&k)).unwrap(), b"secret");
    assert_eq!(decrypt(&ke, &key_encryption(&ke)).unwrap(), b"secret");
}

#[test]
fn duplicate_members_anywhere() {
    let k = key(Algorithm::HPKE_3);
    let jwe = integrated(&k);
    let p = jwe["protected"].as_str().unwrap();
    // Top level.
    let text = format!(r#"{{"protected":"{p}","ciphertext":"AA","ciphertext":"AA"}}"#);
    assert_eq!(Jwe::parse(&text), Err(Error::DuplicateMember));
    // Inside the protected header.
    let dup = B64::encode_string(br#"{"alg":"HPKE-3","alg":"HPKE-3"}"#);
    let text = format!(r#"{{"protected":"{dup}","ciphertext":"AA"}}"#);
    assert_eq!(Jwe::parse(&text), Err(Error::DuplicateMember));
    // Nested in an unprotected header.
    let text =
        format!(r#"{{"protected":"{p}","unprotected":{{"x":{{"a":1,"a":2}}}},"ciphertext":"AA"}}"#);
    assert_eq!(Jwe::parse(&text), Err(Error::DuplicateMember));
    // In a JWK.
    let jwk: Value = serde_json::from_str(&k.public_jwk().to_json().unwrap()).unwrap();
    let x = jwk["x"].as_str().unwrap();
    let text = format!(r#"{{"kty":"OKP","crv":"X25519","x":"{x}","x":"{x}"}}"#);
    assert_eq!(
        PublicJwk::from_json(&text).unwrap_err(),
        Error::DuplicateMember
    );
}

#[test]
fn base64_must_be_canonical_and_unpadded() {
    let k = key(Algorithm::HPKE_3);
    let jwe = integrated(&k);
    for bad in ["AA==", "AB", "A", "A+", "A/", "A A"] {
        let mut j = jwe.clone();
        j["ciphertext"] = bad.into();
        assert_eq!(Jwe::parse(&j.to_string()), Err(Error::Base64), "{bad}");
    }
}

#[test]
fn compact_has_five_parts() {
    let k = key(Algorithm::HPKE_3);
    let compact = Jwe::parse(&integrated(&k).to_string()).unwrap();
    let mut c = compact.clone();
    // Compact cannot carry the JWE AAD.
    assert_eq!(c.to_compact(), Err(Error::Serialization));
    let text = Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap()
        .to_compact()
        .unwrap();
    for bad in [
        format!("{text}."),
        text.rsplit_once('.').unwrap().0.to_string(),
        format!(".{}", text.split_once('.').unwrap().1),
    ] {
        assert!(
            matches!(Jwe::parse(&bad), Err(Error::Malformed(_))),
            "{bad}"
        );
    }
    c = Jwe::parse(&text).unwrap();
    assert_eq!(Decryptor::new(&k).decrypt(&c).unwrap(), b"x");
    // A compact JWE with the newline of the file or line it was read from parses, as a JSON
    // one does (before, it was refused: its tag part ended in "\n"); `from_compact` takes the
    // five parts alone.
    for spaced in [
        format!("{text}\n"),
        format!("{text}\r\n"),
        format!(" {text} "),
    ] {
        let parsed = Jwe::parse(&spaced).unwrap();
        assert_eq!(Decryptor::new(&k).decrypt(&parsed).unwrap(), b"x");
        assert!(Jwe::from_compact(&spaced).is_err());
    }
    let json = integrated(&k).to_string();
    assert!(Jwe::parse(&format!("{json}\n")).is_ok());
}

#[test]
fn integrated_header_rules() {
    let k = key(Algorithm::HPKE_3);
    let jwe = integrated(&k);
    let cases: [(&str, Edit); 3] = [
        ("enc", Box::new(|h| h["enc"] = "A128GCM".into())),
        ("ek", Box::new(|h| h["ek"] = "AAAA".into())),
        ("zip", Box::new(|h| h["zip"] = "DEF".into())),
    ];
    for (what, edit) in cases {
        assert!(
            matches!(
                decrypt(&k, &with_header(jwe.clone(), edit)),
                Err(Error::Header(_))
            ),
            "{what}"
        );
    }
    // psk_id unprotected.
    let mut j = jwe.clone();
    j["unprotected"] = json!({"psk_id": "cHNr"});
    assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))));
    // alg unprotected only.
    let mut j = with_header(jwe.clone(), |h| {
        h.as_object_mut().unwrap().remove("alg");
    });
    j["unprotected"] = json!({"alg": "HPKE-3"});
    assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))));
    // A non-empty IV or tag.
    for member in ["iv", "tag"] {
        let mut j = jwe.clone();
        j[member] = "AAAAAAAAAAAAAAAA".into();
        assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))), "{member}");
    }
    // Two recipients.
    let mut j = jwe.clone();
    let r = json!({"encrypted_key": j["encrypted_key"].clone()});
    j.as_object_mut().unwrap().remove("encrypted_key");
    j["recipients"] = json!([r.clone(), r]);
    assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))));
    // One parameter in two locations.
    let mut j = jwe.clone();
    j["unprotected"] = json!({"kid": "kid-HPKE-3"});
    assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))));
}

#[test]
fn key_encryption_header_rules() {
    let k = key(Algorithm::HPKE_3_KE);
    let jwe = key_encryption(&k);
    let drop = |name: &'static str| {
        move |h: &mut Value| {
            h.as_object_mut().unwrap().remove(name);
        }
    };
    assert!(matches!(
        decrypt(&k, &with_header(jwe.clone(), drop("ek"))),
        Err(Error::Header(_))
    ));
    assert!(matches!(
        decrypt(&k, &with_header(jwe.clone(), drop("enc"))),
        Err(Error::Header(_))
    ));
    let a192 = with_header(jwe.clone(), |h| h["enc"] = "A192GCM".into());
    assert_eq!(decrypt(&k, &a192), Err(Error::UnsupportedAlgorithm));
    let mut j = jwe.clone();
    j["iv"] = B64::encode_string(&[0u8; 16]).into();
    assert!(matches!(decrypt(&k, &j), Err(Error::Header(_))));
    // Another ek (a valid key, not the sender's): the CEK does not open.
    let other = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, k.public_jwk()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap();
    let ek = other.protected_header()["ek"].clone();
    assert_eq!(
        decrypt(&k, &with_header(jwe.clone(), |h| h["ek"] = ek)),
        Err(Error::Decrypt)
    );
    // An enc that names another content encryption: the Recipient_structure differs.
    let a256 = with_header(jwe.clone(), |h| h["enc"] = "A256GCM".into());
    assert_eq!(decrypt(&k, &a256), Err(Error::Decrypt));
}

#[test]
fn critical_parameters() {
    let k = key(Algorithm::HPKE_3);
    let jwe = integrated(&k);
    let understood = |jwe: &Value, names: &[&str]| {
        Decryptor::new(&k)
            .understand(names)
            .decrypt(&Jwe::parse(&jwe.to_string()).unwrap())
    };
    // The sender marks "exp" critical: refused unless understood; understood, it decrypts
    // only with the header as sent (the protected header is authenticated).
    let sealed = Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
        .unwrap()
        .header("exp", json!(1))
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap();
    let with_crit: Value = serde_json::from_str(&sealed.to_flattened().unwrap()).unwrap();
    let with_crit = with_header(with_crit, |h| h["crit"] = json!(["exp"]));
    assert_eq!(understood(&with_crit, &[]), Err(Error::Critical));
    assert_eq!(understood(&with_crit, &["exp"]), Err(Error::Decrypt)); // header changed after sealing
    for crit in [
        json!([]),
        json!(["alg"]),
        json!(["absent"]),
        json!("exp"),
        json!([1]),
    ] {
        let j = with_header(jwe.clone(), |h| {
            h["exp"] = json!(1);
            h["crit"] = crit.clone();
        });
        assert_eq!(
            understood(&j, &["exp", "absent"]),
            Err(Error::Critical),
            "{crit}"
        );
    }
    let mut j = jwe.clone();
    j["unprotected"] = json!({"crit": ["exp"], "exp": 1});
    assert_eq!(understood(&j, &["exp"]), Err(Error::Critical));
}

#[test]
fn psk_mode_must_agree() {
    let k = key(Algorithm::HPKE_3);
    let psk = [7u8; 32];
    let jwe = Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
        .unwrap()
        .psk(&psk, b"id")
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap();
    assert_eq!(Decryptor::new(&k).decrypt(&jwe), Err(Error::Psk));
    assert_eq!(
        Decryptor::new(&k)
            .psk(&psk, b"other")
            .unwrap()
            .decrypt(&jwe),
        Err(Error::Psk)
    );
    assert_eq!(
        Decryptor::new(&k)
            .psk(&[8u8; 32], b"id")
            .unwrap()
            .decrypt(&jwe),
        Err(Error::Decrypt)
    );
    assert_eq!(
        Decryptor::new(&k)
            .psk(&psk, b"id")
            .unwrap()
            .decrypt(&jwe)
            .unwrap(),
        b"x"
    );
    // A base-mode message is refused when a PSK is expected (no stripping).
    let base = Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
        .unwrap()
        .encrypt(&mut rng(), b"x")
        .unwrap();
    assert_eq!(
        Decryptor::new(&k).psk(&psk, b"id").unwrap().decrypt(&base),
        Err(Error::Psk)
    );
    // Short PSKs are refused on both sides.
    assert_eq!(
        Decryptor::new(&k).psk(&[1u8; 16], b"id").unwrap_err(),
        Error::Hpke(typed_hpke::Error::InvalidPsk)
    );
    assert!(
        Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
            .unwrap()
            .psk(&[1u8; 16], b"id")
            .is_err()
    );
    // The decryptor's Debug names the PSK's identifier, never the PSK.
    let debug = format!("{:?}", Decryptor::new(&k).psk(&psk, b"id").unwrap());
    assert!(
        debug.contains("redacted") && !debug.contains("7, 7, 7"),
        "{debug}"
    );
}

#[test]
fn keys_and_recipients() {
    let k = key(Algorithm::HPKE_3);
    let jwe = integrated(&k);
    // Another key of the algorithm, without a kid: tried, fails.
    let other = PrivateJwk::generate(Algorithm::HPKE_3, &mut rng()).unwrap();
    assert_eq!(decrypt(&other, &jwe), Err(Error::Decrypt));
    // With another kid, or of another KEM, or bound to another alg: not this key's.
    assert_eq!(
        decrypt(&other.clone().with_kid("someone"), &jwe),
        Err(Error::NoRecipient)
    );
    assert_eq!(
        decrypt(&key(Algorithm::HPKE_0), &jwe),
        Err(Error::NoRecipient)
    );
    assert_eq!(
        decrypt(&k.clone().with_alg(Algorithm::HPKE_4).unwrap(), &jwe),
        Err(Error::NoRecipient)
    );
    // Mode confusion: the inputs of one mode given for a message of the other.
    let parsed = Jwe::parse(&jwe.to_string()).unwrap();
    assert!(matches!(
        Decryptor::new(&k).extra_info(b"x").decrypt(&parsed),
        Err(Error::Header(_))
    ));
    let ke = key(Algorithm::HPKE_3_KE);
    let parsed = Jwe::parse(&key_encryption(&ke).to_string()).unwrap();
    assert!(matches!(
        Decryptor::new(&ke).info(b"x").decrypt(&parsed),
        Err(Error::Header(_))
    ));
    // Wrong info / extra info.
    assert_eq!(
        Decryptor::new(&ke).extra_info(b"x").decrypt(&parsed),
        Err(Error::Decrypt)
    );
}

#[test]
fn tampering_is_detected() {
    for (k, jwe) in [
        (key(Algorithm::HPKE_3), None),
        (key(Algorithm::HPKE_3_KE), Some(())),
    ] {
        let jwe = if jwe.is_some() {
            key_encryption(&k)
        } else {
            integrated(&k)
        };
        let mut j = jwe.clone();
        j["aad"] = B64::encode_string(b"AAD").into();
        assert_eq!(decrypt(&k, &j), Err(Error::Decrypt));
        let mut j = jwe.clone();
        let mut ct = B64::decode_vec(j["ciphertext"].as_str().unwrap()).unwrap();
        ct[0] ^= 1;
        j["ciphertext"] = B64::encode_string(&ct).into();
        assert_eq!(decrypt(&k, &j), Err(Error::Decrypt));
        let j = with_header(jwe.clone(), |h| h["typ"] = "x".into());
        assert_eq!(decrypt(&k, &j), Err(Error::Decrypt));
        let mut j = jwe.clone();
        j.as_object_mut().unwrap().remove("aad");
        assert_eq!(decrypt(&k, &j), Err(Error::Decrypt));
    }
}

#[test]
fn jwk_validation() {
    let k = key(Algorithm::HPKE_0);
    let jwk: Value = serde_json::from_str(&k.to_json().unwrap()).unwrap();
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut j = jwk.clone();
        f(&mut j);
        PrivateJwk::from_json(&j.to_string()).map(|_| ())
    };
    assert_eq!(edit(&|_| {}), Ok(()));
    let short = B64::encode_string(&[1u8; 31]);
    let cases: Vec<(&str, Edit)> = vec![
        ("short x", Box::new(move |j| j["x"] = short.clone().into())),
        (
            "off the curve",
            Box::new(|j| j["y"] = B64::encode_string(&[1u8; 32]).into()),
        ),
        (
            "another d",
            Box::new(|j| j["d"] = B64::encode_string(&[1u8; 32]).into()),
        ),
        (
            "no d",
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("d");
            }),
        ),
        ("use sig", Box::new(|j| j["use"] = "sig".into())),
        (
            "alg of another curve",
            Box::new(|j| j["alg"] = "HPKE-3".into()),
        ),
        ("unknown alg", Box::new(|j| j["alg"] = "ECDH-ES".into())),
        ("unknown curve", Box::new(|j| j["crv"] = "secp256k1".into())),
        ("okp with y", Box::new(|j| j["kty"] = "OKP".into())),
        (
            "AKP without alg",
            Box::new(|j| {
                j["kty"] = "AKP".into();
                j.as_object_mut().unwrap().remove("alg");
            }),
        ),
        (
            "kty missing",
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("kty");
            }),
        ),
        ("x a number", Box::new(|j| j["x"] = 1.into())),
    ];
    for (what, f) in cases {
        assert!(edit(&*f).is_err(), "{what}");
    }
    assert_eq!(
        PublicJwk::from_json("[]").unwrap_err(),
        Error::Malformed("not a JSON object")
    );
    // A P-256 key with an X25519 algorithm refuses to encrypt.
    assert_eq!(
        Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk()).unwrap_err(),
        Error::InvalidKey
    );
    assert_eq!(
        Encryptor::integrated(Algorithm::HPKE_0_KE, k.public_jwk()).unwrap_err(),
        Error::UnsupportedAlgorithm
    );
    assert!(
        Encryptor::integrated(Algorithm::HPKE_0, k.public_jwk())
            .unwrap()
            .header("alg", json!("x"))
            .is_err()
    );
}

#[test]
fn limits() {
    let k = key(Algorithm::HPKE_3_KE);
    let jwe = key_encryption(&k);
    let mut j = jwe.clone();
    let r = json!({"header": {"alg": "ECDH-ES"}, "encrypted_key": "AA"});
    j.as_object_mut().unwrap().remove("encrypted_key");
    j["recipients"] = Value::Array(vec![r; typed_hpke_jose::MAX_RECIPIENTS + 1]);
    assert_eq!(Jwe::parse(&j.to_string()), Err(Error::TooLarge));
    let big = with_header(jwe.clone(), |h| {
        h["pad"] = "x".repeat(typed_hpke_jose::MAX_HEADER_LEN).into()
    });
    assert_eq!(Jwe::parse(&big.to_string()), Err(Error::TooLarge));
    assert_eq!(
        Encryptor::integrated(Algorithm::HPKE_3, key(Algorithm::HPKE_3).public_jwk())
            .unwrap()
            .header("pad", "x".repeat(typed_hpke_jose::MAX_HEADER_LEN).into())
            .unwrap()
            .encrypt(&mut rng(), b"x")
            .unwrap_err(),
        Error::TooLarge
    );
    let many = Jwe::parse(
        &Encryptor::key_encryption(ContentEncryption::A128Gcm)
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, k.public_jwk()).unwrap())
            .unwrap()
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, k.public_jwk()).unwrap())
            .unwrap()
            .encrypt(&mut rng(), b"x")
            .unwrap()
            .to_general(),
    )
    .unwrap();
    assert_eq!(many.to_compact(), Err(Error::Serialization));
    assert_eq!(many.to_flattened(), Err(Error::Serialization));
    assert!(
        Encryptor::key_encryption(ContentEncryption::A128Gcm)
            .encrypt(&mut rng(), b"x")
            .is_err()
    );
}

/// `kty` and `alg` agree: an AKP key only with a post-quantum algorithm. Before,
/// `{"kty":"AKP","alg":"HPKE-0"}` was read as a P-256 key and written back as `"kty":"EC"`.
#[test]
fn key_type_and_algorithm_agree() {
    let p256 = key(Algorithm::HPKE_0);
    let point = B64::encode_string(p256.public_jwk().key().as_bytes());
    for alg in ["HPKE-0", "HPKE-0-KE", "HPKE-3"] {
        let akp = json!({"kty": "AKP", "alg": alg, "pub": point}).to_string();
        assert_eq!(
            PublicJwk::from_json(&akp).map(|_| ()),
            Err(Error::InvalidKey),
            "{alg}"
        );
    }
    // A real AKP key reads and writes back as AKP.
    let pq = key(Algorithm::HPKE_9);
    let json = pq.public_jwk().to_json().unwrap();
    let back = PublicJwk::from_json(&json).unwrap().to_json().unwrap();
    assert_eq!(back, json);
    assert!(back.contains(r#""kty":"AKP""#), "{back}");
}

/// The decryptor's `Debug` shows neither `info` nor the recipient extra info (before, it
/// printed each byte).
#[test]
fn decryptor_debug_redacts_the_inputs() {
    let k = key(Algorithm::HPKE_3);
    let secret = b"session-transcript".to_vec();
    let d = Decryptor::new(&k).info(&secret).extra_info(&secret);
    let debug = format!("{d:?}");
    let bytes = format!("{:?}", &secret[..4]);
    let bytes = bytes.trim_end_matches(']');
    assert!(!debug.contains(bytes), "{debug}");
    assert!(debug.contains("<redacted>"), "{debug}");
}

/// The header limit to the byte: a protected header of exactly `MAX_HEADER_LEN` bytes of JSON
/// is read, one byte more is `TooLarge`, before its base64 is decoded. Before, the check on the
/// encoded length let headers of up to two bytes more through.
#[test]
fn header_limit_to_the_byte() {
    let header = |len: usize| {
        let bare = r#"{"alg":"HPKE-3","pad":""}"#;
        let mut h = bare.to_owned();
        h.insert_str(bare.len() - 2, &"x".repeat(len - bare.len()));
        assert_eq!(h.len(), len);
        B64::encode_string(h.as_bytes())
    };
    let max = typed_hpke_jose::MAX_HEADER_LEN;
    let at = Jwe::parse(&format!("{}.AA.AA.AA.AA", header(max))).unwrap();
    assert_eq!(
        at.protected_header()["pad"].as_str().unwrap().len(),
        max - 25
    );
    for over in [max + 1, max + 2, max + 3] {
        let compact = format!("{}.AA.AA.AA.AA", header(over));
        assert_eq!(Jwe::parse(&compact).err(), Some(Error::TooLarge), "{over}");
        let json = json!({"protected": header(over), "ciphertext": "AA"});
        assert_eq!(
            Jwe::parse(&json.to_string()).err(),
            Some(Error::TooLarge),
            "{over}"
        );
    }
}

/// Exactly `MAX_RECIPIENTS` recipients are read (one more is refused in `limits`); `recipients`
/// beside either flattened member alone is refused.
#[test]
fn recipients_at_the_limit_and_beside_flattened_members() {
    let k = key(Algorithm::HPKE_3_KE);
    let mut j = key_encryption(&k);
    let object = j.as_object_mut().unwrap();
    let mut recipient = json!({"encrypted_key": object.remove("encrypted_key").unwrap()});
    if let Some(header) = object.remove("header") {
        recipient["header"] = header;
    }
    j["recipients"] = Value::Array(vec![recipient; typed_hpke_jose::MAX_RECIPIENTS]);
    let jwe = Jwe::parse(&j.to_string()).unwrap();
    assert_eq!(jwe.recipients().len(), typed_hpke_jose::MAX_RECIPIENTS);
    assert_eq!(decrypt(&k, &j).unwrap(), b"secret");
    for member in ["header", "encrypted_key"] {
        let mut beside = j.clone();
        beside[member] = if member == "header" {
            json!({})
        } else {
            json!("AA")
        };
        assert_eq!(
            Jwe::parse(&beside.to_string()),
            Err(Error::Malformed("recipients beside flattened members")),
            "{member}"
        );
    }
}

/// The compact serialization refuses each member it cannot carry, each alone: a JWE AAD, a
/// shared unprotected header, a recipient's header, an empty protected header. The headers
/// read are the ones given.
#[test]
fn compact_refuses_each_json_only_member() {
    let k = key(Algorithm::HPKE_3);
    let jwe = Encryptor::integrated(Algorithm::HPKE_3, k.public_jwk())
        .unwrap()
        .encrypt(&mut rng(), b"secret")
        .unwrap();
    let plain: Value = serde_json::from_str(&jwe.to_flattened().unwrap()).unwrap();
    let read = |edit: &dyn Fn(&mut Value)| {
        let mut j = plain.clone();
        edit(&mut j);
        Jwe::parse(&j.to_string()).unwrap()
    };
    let base = read(&|_| {});
    assert!(base.to_compact().is_ok());
    assert_eq!(base.unprotected_header(), None);
    assert_eq!(base.recipients()[0].header(), None);
    let extra = json!({"x": 1});
    let unprotected = read(&|j| j["unprotected"] = extra.clone());
    assert_eq!(unprotected.unprotected_header(), extra.as_object());
    let recipient_header = read(&|j| j["header"] = extra.clone());
    assert_eq!(recipient_header.recipients()[0].header(), extra.as_object());
    let with_aad = read(&|j| j["aad"] = "AA".into());
    let no_protected = read(&|j| j["protected"] = "".into());
    for (what, jwe) in [
        ("aad", with_aad),
        ("unprotected", unprotected),
        ("header", recipient_header),
        ("empty protected", no_protected),
    ] {
        assert_eq!(jwe.to_compact(), Err(Error::Serialization), "{what}");
    }
}

/// A JWK's `alg` names its key's KEM: an algorithm of another KEM with the same key type (P-256
/// and P-384 are both `EC`, X25519 and X448 both `OKP`) is refused, and so is an `AKP` key with
/// no `alg`, which alone says what KEM its bytes are for. An `EC` key without `alg` is read,
/// with none.
#[test]
fn jwk_alg_names_the_keys_kem() {
    let public = |alg: Algorithm| -> Value {
        serde_json::from_str(&key(alg).public_jwk().to_json().unwrap()).unwrap()
    };
    for (alg, other) in [(Algorithm::HPKE_0, "HPKE-1"), (Algorithm::HPKE_3, "HPKE-5")] {
        let mut jwk = public(alg);
        assert_eq!(
            PublicJwk::from_json(&jwk.to_string()).unwrap().alg(),
            Some(alg)
        );
        jwk["alg"] = other.into();
        assert_eq!(
            PublicJwk::from_json(&jwk.to_string()).map(|_| ()),
            Err(Error::InvalidKey),
            "{other}"
        );
    }
    let mut akp = public(Algorithm::HPKE_9);
    akp.as_object_mut().unwrap().remove("alg");
    assert_eq!(
        PublicJwk::from_json(&akp.to_string()).map(|_| ()),
        Err(Error::InvalidKey)
    );
    let mut ec = public(Algorithm::HPKE_0);
    ec.as_object_mut().unwrap().remove("alg");
    assert_eq!(PublicJwk::from_json(&ec.to_string()).unwrap().alg(), None);
}

/// The JWKs' `Debug` shows the KEM, `alg` and `kid`, and no key bytes.
#[test]
fn jwk_debug_shows_what_identifies_the_key() {
    let k = key(Algorithm::HPKE_0);
    let public = r#"PublicJwk { kem_id: 16, alg: Some("HPKE-0"), kid: Some("kid-HPKE-0"), .. }"#;
    assert_eq!(format!("{:?}", k.public_jwk()), public);
    assert_eq!(
        format!("{k:?}"),
        format!("PrivateJwk {{ public: {public}, .. }}")
    );
}

/// `with_alg` refuses an algorithm of another KEM with the same key type: among the AKP
/// algorithms only the key's own KEM's is taken.
#[test]
fn with_alg_refuses_another_kem_of_the_key_type() {
    let xwing = key(Algorithm::HPKE_9);
    let public = PublicJwk::new(xwing.public_jwk().key().clone());
    assert_eq!(
        public.clone().with_alg(Algorithm::HPKE_12).map(|_| ()),
        Err(Error::InvalidKey)
    );
    assert_eq!(
        public.with_alg(Algorithm::HPKE_9_KE).unwrap().alg(),
        Some(Algorithm::HPKE_9_KE)
    );
    assert_eq!(
        xwing.with_alg(Algorithm::HPKE_13).map(|_| ()),
        Err(Error::InvalidKey)
    );
}
