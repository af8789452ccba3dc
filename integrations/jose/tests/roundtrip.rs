//! Every algorithm, in base and PSK mode, through every serialization that can carry it;
//! several recipients of mixed algorithms; keys through their JWKs.

use serde_json::{Value, json};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Error, Jwe, PrivateJwk, PublicJwk,
    Recipient,
};

const PSK: [u8; 32] = [9; 32];

#[test]
fn every_algorithm_mode_and_serialization() {
    let mut rng = typed_hpke_jose::OsRng::default();
    let mut count = 0;
    for &alg in Algorithm::ALL {
        // The key through its JWKs, private and public.
        let key = PrivateJwk::generate(alg, &mut rng)
            .unwrap()
            .with_kid(alg.name());
        let key = PrivateJwk::from_json(&key.to_json().unwrap()).unwrap();
        let public = PublicJwk::from_json(&key.public_jwk().to_json().unwrap()).unwrap();
        assert_eq!(&public, key.public_jwk());
        for psk in [false, true] {
            for aad in [None, Some(b"aad".as_slice())] {
                let plaintext = format!("{} {psk} {aad:?}", alg.name()).into_bytes();
                let e = if alg.is_key_encryption() {
                    let mut r = Recipient::new(alg, &public).unwrap().extra_info(b"extra");
                    if psk {
                        r = r.psk(&PSK, b"id").unwrap();
                    }
                    Encryptor::key_encryption(ContentEncryption::A256Gcm)
                        .recipient(r)
                        .unwrap()
                } else {
                    let e = Encryptor::integrated(alg, &public)
                        .unwrap()
                        .info(b"info")
                        .unwrap();
                    if psk { e.psk(&PSK, b"id").unwrap() } else { e }
                };
                let e = match aad {
                    Some(a) => e.aad(a),
                    None => e,
                };
                let jwe = e.encrypt(&mut rng, &plaintext).unwrap();
                let mut texts = vec![jwe.to_flattened().unwrap(), jwe.to_general()];
                match jwe.to_compact() {
                    Ok(c) => texts.push(c),
                    Err(e) => assert!(aad.is_some(), "{e}"),
                }
                for text in texts {
                    let parsed = Jwe::parse(&text).unwrap();
                    let mut d = Decryptor::new(&key);
                    d = if alg.is_key_encryption() {
                        d.extra_info(b"extra")
                    } else {
                        d.info(b"info")
                    };
                    if psk {
                        d = d.psk(&PSK, b"id").unwrap();
                    }
                    assert_eq!(d.decrypt(&parsed).unwrap(), plaintext, "{}", alg.name());
                    count += 1;
                }
            }
        }
    }
    // 24 algorithms (draft-ietf-jose-hpke-encrypt-22's 14 and the post-quantum draft's 10)
    // x 2 modes x (2 without AAD: 3 serializations; with: 2).
    assert_eq!(Algorithm::ALL.len(), 24);
    assert_eq!(count, 24 * 2 * 5);
}

#[test]
fn several_recipients_each_decrypts() {
    let mut rng = typed_hpke_jose::OsRng::default();
    let algs = [
        Algorithm::HPKE_9_KE,
        Algorithm::HPKE_0_KE,
        Algorithm::HPKE_5_KE,
        Algorithm::HPKE_13_KE,
    ];
    let keys: Vec<PrivateJwk> = algs
        .iter()
        .map(|&a| {
            PrivateJwk::generate(a, &mut rng)
                .unwrap()
                .with_kid(a.name())
        })
        .collect();
    let mut e = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .header("typ", json!("oauth-authz-req+jwt"))
        .unwrap();
    for (alg, key) in algs.iter().zip(&keys) {
        e = e
            .recipient(Recipient::new(*alg, key.public_jwk()).unwrap())
            .unwrap();
    }
    let jwe = e.aad(b"shared").encrypt(&mut rng, b"to all").unwrap();
    let mut value: Value = serde_json::from_str(&jwe.to_general()).unwrap();
    // A recipient of another algorithm beside them (§6: ECDH-ES, RSA-OAEP) is passed over.
    value["recipients"].as_array_mut().unwrap().insert(
        0,
        json!({"header": {"alg": "ECDH-ES+A128KW", "kid": "x"}, "encrypted_key": "AAAA"}),
    );
    let parsed = Jwe::parse(&value.to_string()).unwrap();
    assert_eq!(parsed.recipients().len(), 5);
    assert_eq!(parsed.protected_header()["typ"], "oauth-authz-req+jwt");
    for key in &keys {
        assert_eq!(Decryptor::new(key).decrypt(&parsed).unwrap(), b"to all");
    }
    // A key none of them is for.
    let stranger = PrivateJwk::generate(Algorithm::HPKE_3_KE, &mut rng)
        .unwrap()
        .with_kid("stranger");
    assert_eq!(
        Decryptor::new(&stranger).decrypt(&parsed),
        Err(Error::NoRecipient)
    );
    // Without a kid, a key of a recipient's KEM is tried on each and fails.
    let anonymous = PrivateJwk::generate(Algorithm::HPKE_0_KE, &mut rng).unwrap();
    assert_eq!(
        Decryptor::new(&anonymous).decrypt(&parsed),
        Err(Error::Decrypt)
    );
}

#[test]
fn parsed_jwes_serialize_back() {
    let mut rng = typed_hpke_jose::OsRng::default();
    let key = PrivateJwk::generate(Algorithm::HPKE_3_KE, &mut rng).unwrap();
    let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, key.public_jwk()).unwrap())
        .unwrap()
        .encrypt(&mut rng, b"x")
        .unwrap();
    let compact = jwe.to_compact().unwrap();
    assert_eq!(Jwe::parse(&compact).unwrap().to_compact().unwrap(), compact);
    let flattened = jwe.to_flattened().unwrap();
    assert_eq!(Jwe::parse(&flattened).unwrap(), jwe);
}
