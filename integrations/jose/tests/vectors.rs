//! Every vector of draft-ietf-jose-hpke-encrypt-20 (Appendix A) and of
//! draft-ietf-jose-hpke-pq-pqt, flattened and compact: the JWK read and written back, the JWE
//! decrypted to the generator's plaintext, and a JWE of ours to the vector's key decrypted.
//! The vectors of the two algorithms -22 withdrew (HPKE-4-KE, HPKE-6-KE) are expected
//! refusals.

use serde_json::Value;
use sha2::{Digest, Sha256};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Error, Jwe, PrivateJwk, PublicJwk,
    Recipient,
};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/");
const AAD: &[u8] = b"The Fellowship of the Ring";
const FRODO: &str = "You can trust us to stick with you through thick and thin-to the bitter end. And you can trust us to keep any secret of yours-closer than you keep it yourself. But you cannot trust us to let you face trouble alone, and go off without a word. We are your friends, Frodo.";

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap_or_else(|e| panic!("{DIR}{name}: {e}"))
}

#[test]
fn files_match_readme_sha256() {
    let readme = String::from_utf8(read("README.md")).unwrap();
    let mut seen = 0;
    for line in readme.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (name, sum) = (cells[1].trim_matches('`'), cells[2].trim_matches('`'));
        assert_eq!(hex::encode(Sha256::digest(read(name))), sum, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 2);
}

/// The key-encryption algorithms draft-ietf-jose-hpke-encrypt-22 withdrew; -20's vectors
/// of them are kept as expected refusals.
const WITHDRAWN: [&str; 2] = ["HPKE-4-KE", "HPKE-6-KE"];

/// A vector of a withdrawn algorithm: its JWK is refused as it stands (its `alg` is unknown),
/// and its JWEs, opened with the same key read without `alg`, are refused as unsupported.
fn check_withdrawn(v: &Value) {
    let name = v["alg"].as_str().unwrap();
    assert_eq!(Algorithm::from_name(name), None, "{name}");
    let jwk_text = v["jwk"].to_string();
    assert_eq!(
        PrivateJwk::from_json(&jwk_text).map(drop),
        Err(Error::InvalidKey),
        "{name}"
    );
    let mut jwk = v["jwk"].clone();
    jwk.as_object_mut().unwrap().remove("alg");
    let key = PrivateJwk::from_json(&jwk.to_string()).unwrap();
    for jwe in [
        v["flattened"].to_string(),
        v["compact"].as_str().unwrap().into(),
    ] {
        let jwe = Jwe::parse(&jwe).unwrap();
        assert_eq!(
            Decryptor::new(&key).decrypt(&jwe),
            Err(Error::UnsupportedAlgorithm),
            "{name}"
        );
    }
}

fn check_file(name: &str, plaintext: &[u8], expected_algs: usize) {
    let vectors: Vec<Value> = serde_json::from_slice(&read(name)).unwrap();
    assert_eq!(vectors.len(), expected_algs, "{name}");
    let mut rng = typed_hpke_jose::OsRng::default();
    for v in &vectors {
        let name = v["alg"].as_str().unwrap();
        if WITHDRAWN.contains(&name) {
            check_withdrawn(v);
            continue;
        }
        let alg = Algorithm::from_name(name).unwrap_or_else(|| panic!("{name} is in the table"));
        let jwk_text = v["jwk"].to_string();
        let key = PrivateJwk::from_json(&jwk_text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(key.alg(), Some(alg), "{name}");
        assert_eq!(key.kid(), v["jwk"]["kid"].as_str());
        // Written back: every member the crate knows, with the same values.
        let written: Value = serde_json::from_str(&key.to_json().unwrap()).unwrap();
        for member in ["kty", "crv", "x", "y", "d", "pub", "priv", "alg", "kid"] {
            assert_eq!(
                written.get(member),
                v["jwk"].get(member),
                "{name}: {member}"
            );
        }
        let public = PublicJwk::from_json(&jwk_text).unwrap();
        assert_eq!(&public, key.public_jwk());

        let flattened =
            Jwe::parse(&v["flattened"].to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(flattened.aad().as_deref(), Some(AAD), "{name}");
        let compact = Jwe::parse(v["compact"].as_str().unwrap()).unwrap();
        for jwe in [&flattened, &compact] {
            assert_eq!(jwe.protected_header()["alg"], name);
            let out = Decryptor::new(&key)
                .decrypt(jwe)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out, plaintext, "{name}");
        }
        // The compact vector is what our compact writer writes for it, byte for byte.
        assert_eq!(
            compact.to_compact().unwrap(),
            v["compact"].as_str().unwrap(),
            "{name}"
        );

        // Ours, to the vector's public key, in the vector's shape.
        let ours = if alg.is_key_encryption() {
            let enc = if alg.aead_id() == 0x0001 {
                ContentEncryption::A128Gcm
            } else {
                ContentEncryption::A256Gcm
            };
            Encryptor::key_encryption(enc)
                .recipient(Recipient::new(alg, &public).unwrap())
                .unwrap()
        } else {
            Encryptor::integrated(alg, &public).unwrap()
        };
        let jwe = ours.aad(AAD).encrypt(&mut rng, plaintext).unwrap();
        let again = Jwe::parse(&jwe.to_flattened().unwrap()).unwrap();
        assert_eq!(
            Decryptor::new(&key).decrypt(&again).unwrap(),
            plaintext,
            "{name}"
        );
    }
}

#[test]
fn jose_hpke_encrypt_20() {
    check_file(
        "jose-hpke-encrypt-20.jose-vectors.json",
        FRODO.as_bytes(),
        16,
    );
}

#[test]
fn jose_hpke_pq_pqt() {
    let en_dash = FRODO.replace('-', "\u{2013}");
    check_file(
        "jose-hpke-pq-pqt-9a69cb2.jose-vectors.json",
        en_dash.as_bytes(),
        10,
    );
}

/// Every algorithm of the table appears in a vector file, and every vector's algorithm is in
/// the table but those -22 withdrew (HPKE-11 is COSE's only).
#[test]
fn table_is_the_drafts() {
    let mut names: Vec<String> = Vec::new();
    for file in [
        "jose-hpke-encrypt-20.jose-vectors.json",
        "jose-hpke-pq-pqt-9a69cb2.jose-vectors.json",
    ] {
        let vectors: Vec<Value> = serde_json::from_slice(&read(file)).unwrap();
        names.extend(
            vectors
                .iter()
                .map(|v| v["alg"].as_str().unwrap().to_string()),
        );
    }
    let table: Vec<String> = Algorithm::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    let mut sorted: Vec<String> = names
        .iter()
        .filter(|n| !WITHDRAWN.contains(&n.as_str()))
        .cloned()
        .collect();
    sorted.sort();
    let mut t = table.clone();
    t.sort();
    assert_eq!(sorted, t);
}

/// The §6.1.1 example of the Recipient_structure, through a recipient whose extra info is
/// empty: checked by opening with the example's bytes as HPKE info directly.
#[test]
fn recipient_structure_example() {
    let expected = hex::decode("4a4f53452d48504b452072637074ff4131323847434dff").unwrap();
    let mut rng = typed_hpke_jose::OsRng::default();
    let key = PrivateJwk::generate(Algorithm::HPKE_0_KE, &mut rng).unwrap();
    let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_0_KE, key.public_jwk()).unwrap())
        .unwrap()
        .encrypt(&mut rng, b"x")
        .unwrap();
    let header = jwe.protected_header();
    let ek = base64_decode(header["ek"].as_str().unwrap());
    let suite = typed_hpke::suite::Suite::new(0x0010, 0x0001, 0x0001).unwrap();
    let cek = suite
        .open(
            &ek,
            key.key(),
            &expected,
            b"",
            jwe.recipients()[0].encrypted_key(),
            typed_hpke::suite::ReceiverMode::Base,
        )
        .unwrap();
    assert_eq!(cek.len(), 16);
}

fn base64_decode(s: &str) -> Vec<u8> {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in s.bytes() {
        bits = (bits << 6) | alphabet.iter().position(|&a| a == c).unwrap() as u32;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

/// OpenID4VP 1.1 "Encryption using HPKE": the two published `session_info` examples.
#[test]
fn openid4vp_session_info() {
    use typed_hpke_jose::openid4vp::{session_info, session_info_dc_api};
    let nonce = "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA";
    assert_eq!(
        hex::encode(
            session_info(
                "x509_san_dns:example.com",
                nonce,
                "https://example.com/response"
            )
            .unwrap()
        ),
        "4f70656e49443456502d7369ff783530395f73616e5f646e733a6578616d706c652e636f6dff6578633767426b786a7831726463397564527276654b7653734a4971383061766c58654c48684777717441ff68747470733a2f2f6578616d706c652e636f6d2f726573706f6e7365"
    );
    assert_eq!(
        hex::encode(session_info_dc_api("https://example.com", nonce).unwrap()),
        "4f70656e494434565044434150492d7369ff68747470733a2f2f6578616d706c652e636f6dff6578633767426b786a7831726463397564527276654b7653734a4971383061766c58654c48684777717441"
    );
    assert!(session_info("caf\u{e9}", nonce, "https://example.com").is_err());
    assert!(session_info_dc_api("origin:https://example.com", nonce).is_err());
}
