//! The Rust half of the interoperability test with a JWE-HPKE peer written on pyhpke
//! (`interop/pyhpke_peer.py`), run by `.ci/run`:
//!
//! - `jose_interop emit OUT`: a fresh key per algorithm of draft-ietf-jose-hpke-encrypt-20, a JWE
//!   to each in base and in PSK mode, compact, flattened and general (two recipients of one
//!   content key), with `info` / `recipient_extra_info` and a JWE AAD, written as JSON cases;
//! - `jose_interop check IN`: decrypts the peer's JWEs to the same keys and fails on any difference.

use serde_json::{Value, json};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Jwe, PrivateJwk, Recipient,
};

const PSK: [u8; 32] = [0x42; 32];
const PSK_ID: &[u8] = b"psk-id";

fn h(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

fn unh(case: &Value, name: &str) -> Vec<u8> {
    hex::decode(case[name].as_str().unwrap_or_else(|| panic!("{name}"))).unwrap()
}

fn content(alg: Algorithm) -> ContentEncryption {
    if alg.aead_id() == 0x0001 {
        ContentEncryption::A128Gcm
    } else {
        ContentEncryption::A256Gcm
    }
}

fn case(
    alg: Algorithm,
    key: &PrivateJwk,
    jwe: String,
    info: &[u8],
    psk: bool,
    plaintext: &[u8],
    group: Option<u32>,
) -> Value {
    json!({
        "alg": alg.name(),
        "jwk": key.to_json().unwrap().as_str(),
        "jwe": jwe,
        "info": h(if alg.is_key_encryption() { b"" } else { info }),
        "extra_info": h(if alg.is_key_encryption() { info } else { b"" }),
        "psk": if psk { h(&PSK) } else { String::new() },
        "psk_id": if psk { h(PSK_ID) } else { String::new() },
        "plaintext": h(plaintext),
        "group": group,
    })
}

fn emit(out: &str) {
    let mut rng = typed_hpke_jose::OsRng::default();
    let mut cases = Vec::new();
    let info = b"mutually known".as_slice();
    // pyhpke implements the traditional KEMs; the post-quantum algorithms are covered by the
    // PQ draft's vectors (tests/vectors.rs).
    let traditional = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.kem_id() < 0x0040);
    let mut keys = Vec::new();
    for alg in traditional {
        let key = PrivateJwk::generate(alg, &mut rng)
            .unwrap()
            .with_kid(format!("kid-{}", alg.name()));
        for psk in [false, true] {
            let plaintext =
                format!("typed-hpke-jose to pyhpke, {}, psk {psk}", alg.name()).into_bytes();
            let public = key.public_jwk();
            let jwe = if alg.is_key_encryption() {
                let mut r = Recipient::new(alg, public).unwrap().extra_info(info);
                if psk {
                    r = r.psk(&PSK, PSK_ID).unwrap();
                }
                let e = Encryptor::key_encryption(content(alg))
                    .recipient(r)
                    .unwrap();
                // Base mode compact (no JWE AAD), PSK mode flattened with one.
                if psk {
                    e.aad(b"jwe aad")
                        .encrypt(&mut rng, &plaintext)
                        .unwrap()
                        .to_flattened()
                        .unwrap()
                } else {
                    e.encrypt(&mut rng, &plaintext)
                        .unwrap()
                        .to_compact()
                        .unwrap()
                }
            } else {
                let mut e = Encryptor::integrated(alg, public)
                    .unwrap()
                    .info(info)
                    .unwrap();
                if psk {
                    e = e.psk(&PSK, PSK_ID).unwrap();
                    e.encrypt(&mut rng, &plaintext)
                        .unwrap()
                        .to_compact()
                        .unwrap()
                } else {
                    e.aad(b"jwe aad")
                        .encrypt(&mut rng, &plaintext)
                        .unwrap()
                        .to_flattened()
                        .unwrap()
                }
            };
            cases.push(case(alg, &key, jwe, info, psk, &plaintext, None));
        }
        keys.push((alg, key));
    }
    // The general serialization: one content key sealed to an X25519 and a P-256 recipient.
    let (x, p) = (&keys[7], &keys[1]); // HPKE-3-KE, HPKE-0-KE
    assert_eq!((x.0, p.0), (Algorithm::HPKE_3_KE, Algorithm::HPKE_0_KE));
    let plaintext = b"typed-hpke-jose to pyhpke, two recipients";
    let jwe = Encryptor::key_encryption(ContentEncryption::A128Gcm)
        .recipient(
            Recipient::new(x.0, x.1.public_jwk())
                .unwrap()
                .extra_info(info),
        )
        .unwrap()
        .recipient(
            Recipient::new(p.0, p.1.public_jwk())
                .unwrap()
                .extra_info(info),
        )
        .unwrap()
        .aad(b"jwe aad")
        .encrypt(&mut rng, plaintext)
        .unwrap()
        .to_general();
    for (alg, key) in [x, p] {
        cases.push(case(
            *alg,
            key,
            jwe.clone(),
            info,
            false,
            plaintext,
            Some(1),
        ));
    }
    std::fs::write(out, serde_json::to_string_pretty(&cases).unwrap()).unwrap();
    println!("{} cases written to {out}", cases.len());
}

fn check(input: &str) {
    let cases: Vec<Value> = serde_json::from_slice(&std::fs::read(input).unwrap()).unwrap();
    let traditional = Algorithm::ALL
        .iter()
        .filter(|a| a.kem_id() < 0x0040)
        .count();
    assert_eq!(
        cases.len(),
        2 * traditional + 2,
        "base and PSK per algorithm, and two recipients of one JWE"
    );
    let mut serializations = std::collections::BTreeSet::new();
    for case in &cases {
        let key = PrivateJwk::from_json(case["jwk"].as_str().unwrap()).unwrap();
        let (info, extra_info, psk, psk_id) = (
            unh(case, "info"),
            unh(case, "extra_info"),
            unh(case, "psk"),
            unh(case, "psk_id"),
        );
        let mut d = Decryptor::new(&key).info(&info).extra_info(&extra_info);
        if !psk.is_empty() {
            d = d.psk(&psk, &psk_id).unwrap();
        }
        let text = case["jwe"].as_str().unwrap();
        let jwe = Jwe::parse(text).unwrap_or_else(|e| panic!("{}: {e}", case["alg"]));
        serializations.insert(match (text.starts_with('{'), jwe.recipients().len()) {
            (false, _) => "compact",
            (true, 1) if !text.contains("\"recipients\"") => "flattened",
            _ => "general",
        });
        let out = d
            .decrypt(&jwe)
            .unwrap_or_else(|e| panic!("{}: {e}", case["alg"]));
        assert_eq!(out, unh(case, "plaintext"), "{}", case["alg"]);
    }
    assert_eq!(serializations.len(), 3, "{serializations:?}");
    println!("{} pyhpke JWEs decrypted", cases.len());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1..).unwrap_or_default() {
        [cmd, path] if cmd == "emit" => emit(path),
        [cmd, path] if cmd == "check" => check(path),
        _ => {
            // Run bare, a round trip through both halves without the peer.
            let path = std::env::temp_dir().join(format!(
                "typed-hpke-jose-interop-{}.json",
                std::process::id()
            ));
            let path = path.to_str().unwrap();
            emit(path);
            check(path);
            std::fs::remove_file(path).unwrap();
        }
    }
}
