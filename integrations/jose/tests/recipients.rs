//! Recipient selection (draft-ietf-jose-hpke-encrypt §7.2) and the trial-open limit (README,
//! "Limits"): a recipient that is not the key's is passed over, whatever the order of the
//! recipients, and the error when none opens is the most specific.

use serde_json::{Value, json};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Error, Jwe, MAX_TRIAL_OPENS, PrivateJwk,
    Recipient,
};

fn rng() -> typed_hpke_jose::OsRng {
    typed_hpke_jose::OsRng::default()
}

fn generate() -> PrivateJwk {
    PrivateJwk::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap()
}

const PSK: [u8; 32] = [7; 32];

/// Every order of three recipients.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

fn decrypt(d: &Decryptor<'_>, jwe: &Value) -> Result<Vec<u8>, Error> {
    d.decrypt(&Jwe::parse(&jwe.to_string())?)
}

/// K1 in PSK mode, K2 in base mode (both X25519, no `kid`), and an ECDH-ES recipient, in every
/// order: each key's decryptor finds its own recipient, and the errors say how far the best
/// got. Before, K1's recipient first ended K2's search with `Error::Psk`.
#[test]
fn mixed_recipients_in_every_order() {
    let (k1, k2, stranger) = (generate(), generate(), generate());
    let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(
            Recipient::new(Algorithm::HPKE_3_KE, k1.public_jwk())
                .unwrap()
                .psk(&PSK, b"psk-1")
                .unwrap(),
        )
        .unwrap()
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, k2.public_jwk()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"to both")
        .unwrap();
    let mut value: Value = serde_json::from_str(&jwe.to_general()).unwrap();
    let mut original = value["recipients"].as_array().unwrap().clone();
    original.push(json!({"header": {"alg": "ECDH-ES+A128KW"}, "encrypted_key": "AAAA"}));
    let with_psk = |id: &'static [u8]| Decryptor::new(&k1).psk(&PSK, id).unwrap();
    for order in ORDERS {
        value["recipients"] = order.iter().map(|&i| original[i].clone()).collect();
        assert_eq!(
            decrypt(&Decryptor::new(&k2), &value).as_deref(),
            Ok(&b"to both"[..]),
            "{order:?}"
        );
        assert_eq!(
            decrypt(&with_psk(b"psk-1"), &value).as_deref(),
            Ok(&b"to both"[..]),
            "{order:?}"
        );
        // K1 without its PSK tries K2's recipient, the only base-mode one, and fails there.
        assert_eq!(decrypt(&Decryptor::new(&k1), &value), Err(Error::Decrypt));
        // Another PSK identifier: K1's recipient is passed over, K2's is not in PSK mode.
        assert_eq!(decrypt(&with_psk(b"psk-2"), &value), Err(Error::Psk));
        assert_eq!(
            decrypt(&Decryptor::new(&stranger), &value),
            Err(Error::Decrypt)
        );
    }
    value["recipients"] = json!([original[0], original[2]]);
    assert_eq!(decrypt(&Decryptor::new(&k1), &value), Err(Error::Psk));
    value["recipients"] = json!([original[2]]);
    assert_eq!(
        decrypt(&Decryptor::new(&k1), &value),
        Err(Error::NoRecipient)
    );
}

/// A JWE for this key's algorithm with more recipients than [`MAX_TRIAL_OPENS`] that the key
/// cannot rule out is refused before the open past the limit; at the limit, every one is tried;
/// a `kid` rules the others out without an open.
#[test]
fn trial_opens_are_bounded() {
    let mine = generate();
    let others: Vec<_> = (0..=MAX_TRIAL_OPENS).map(|_| generate()).collect();
    let to = |n: usize, kid: Option<&str>, last: &PrivateJwk| {
        let publics: Vec<_> = others[..n]
            .iter()
            .map(|k| match kid {
                Some(kid) => k.public_jwk().clone().with_kid(kid),
                None => k.public_jwk().clone(),
            })
            .collect();
        let mut e = Encryptor::key_encryption(ContentEncryption::A128Gcm);
        for public in &publics {
            e = e
                .recipient(Recipient::new(Algorithm::HPKE_3_KE, public).unwrap())
                .unwrap();
        }
        let jwe = e
            .recipient(Recipient::new(Algorithm::HPKE_3_KE, last.public_jwk()).unwrap())
            .unwrap()
            .encrypt(&mut rng(), b"m")
            .unwrap();
        Jwe::parse(&jwe.to_general()).unwrap()
    };
    let d = Decryptor::new(&mine);
    assert_eq!(
        d.decrypt(&to(MAX_TRIAL_OPENS - 1, None, &mine)).unwrap(),
        b"m"
    );
    assert_eq!(
        d.decrypt(&to(MAX_TRIAL_OPENS, None, &mine)),
        Err(Error::TooLarge)
    );
    let named = mine.clone().with_kid("me");
    assert_eq!(
        Decryptor::new(&named)
            .decrypt(&to(MAX_TRIAL_OPENS + 1, Some("x"), &named))
            .unwrap(),
        b"m"
    );
}
