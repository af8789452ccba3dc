//! The Rust half of the interoperability test with python-cwt (`interop/cwt_peer.py`), run by
//! `.ci/run`:
//!
//! - `cose_interop emit OUT`: a fresh key per algorithm of draft-ietf-cose-hpke-27 and, to each, a
//!   COSE_Encrypt0 or COSE_Encrypt in base mode and in PSK mode, with every input non-empty
//!   (external_aad, info or recipient_extra_info, HPKE aad), written as JSON cases;
//! - `cose_interop check IN`: decrypts the peer's cases (its messages to the same keys) and fails
//!   on any difference.

use serde_json::{Value, json};
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, PrivateCoseKey, Recipient,
};

const PSK: [u8; 32] = [0x42; 32];

fn h(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

fn unh(case: &Value, name: &str) -> Vec<u8> {
    hex::decode(case[name].as_str().unwrap_or_else(|| panic!("{name}"))).unwrap()
}

fn emit(out: &str) {
    let mut rng = typed_hpke_cose::OsRng::default();
    let mut cases = Vec::new();
    // python-cwt 3.3.0 implements the traditional algorithms; the post-quantum ones are
    // covered by the PQ draft's vectors (tests/vectors.rs).
    for &alg in Algorithm::ALL.iter().filter(|a| a.value() <= 53) {
        let kid = format!("kid-{}", alg.name()).into_bytes();
        let key = PrivateCoseKey::generate(alg, &mut rng)
            .unwrap()
            .with_kid(kid);
        for psk in [false, true] {
            let plaintext =
                format!("typed-hpke-cose to python-cwt, {}, psk {psk}", alg.name()).into_bytes();
            let (external_aad, info, hpke_aad) = (
                b"ext-aad".as_slice(),
                b"ext-info".as_slice(),
                b"hpke-aad".as_slice(),
            );
            let psk_id = b"psk-id".as_slice();
            let (message, content) = if alg.is_key_encryption() {
                let content = match alg.aead_id() {
                    0x0001 => ContentAlgorithm::A128Gcm,
                    0x0003 => ContentAlgorithm::ChaCha20Poly1305,
                    _ => ContentAlgorithm::A256Gcm,
                };
                let mut r = Recipient::new(alg, key.public_key())
                    .unwrap()
                    .extra_info(info)
                    .hpke_aad(hpke_aad);
                if psk {
                    r = r.psk(&PSK, psk_id).unwrap();
                }
                let e = Encryptor::key_encryption(content)
                    .recipient(r)
                    .unwrap()
                    .external_aad(external_aad);
                (e.encrypt(&mut rng, &plaintext).unwrap(), Some(content))
            } else {
                let mut e = Encryptor::encrypt0(alg, key.public_key())
                    .unwrap()
                    .info(info)
                    .unwrap();
                if psk {
                    e = e.psk(&PSK, psk_id).unwrap();
                }
                (
                    e.external_aad(external_aad)
                        .encrypt(&mut rng, &plaintext)
                        .unwrap(),
                    None,
                )
            };
            cases.push(json!({
                "alg": alg.name(),
                "alg_value": alg.value(),
                "key_encryption": alg.is_key_encryption(),
                "content_alg": content.map(|c| c.value()),
                "key": h(&key.to_cbor().unwrap()),
                "public_key": h(&key.public_key().to_cbor().unwrap()),
                "message": h(&message),
                "external_aad": h(external_aad),
                "info": h(if alg.is_key_encryption() { b"" } else { info }),
                "extra_info": h(if alg.is_key_encryption() { info } else { b"" }),
                "hpke_aad": h(if alg.is_key_encryption() { hpke_aad } else { b"" }),
                "psk": if psk { h(&PSK) } else { String::new() },
                "psk_id": if psk { h(psk_id) } else { String::new() },
                "plaintext": h(&plaintext),
            }));
        }
    }
    std::fs::write(out, serde_json::to_string_pretty(&cases).unwrap()).unwrap();
    println!("{} cases written to {out}", cases.len());
}

fn check(input: &str) {
    let cases: Vec<Value> = serde_json::from_slice(&std::fs::read(input).unwrap()).unwrap();
    assert_eq!(cases.len(), 32, "one base and one PSK case per algorithm");
    let mut psk_cases = 0;
    for case in &cases {
        let key = PrivateCoseKey::from_cbor(&unh(case, "key")).unwrap();
        let (external_aad, info, extra_info, hpke_aad) = (
            unh(case, "external_aad"),
            unh(case, "info"),
            unh(case, "extra_info"),
            unh(case, "hpke_aad"),
        );
        let (psk, psk_id) = (unh(case, "psk"), unh(case, "psk_id"));
        let mut d = Decryptor::new(&key)
            .external_aad(&external_aad)
            .info(&info)
            .extra_info(&extra_info)
            .hpke_aad(&hpke_aad);
        if !psk.is_empty() {
            d = d.psk(&psk, &psk_id).unwrap();
            psk_cases += 1;
        }
        let out = d
            .decrypt(&unh(case, "message"))
            .unwrap_or_else(|e| panic!("{}: {e}", case["alg"]));
        assert_eq!(out, unh(case, "plaintext"), "{}", case["alg"]);
    }
    assert_eq!(psk_cases, 16);
    println!("{} python-cwt messages decrypted", cases.len());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1..).unwrap_or_default() {
        [cmd, path] if cmd == "emit" => emit(path),
        [cmd, path] if cmd == "check" => check(path),
        _ => {
            // Run bare (as `cargo test` builds examples), a round trip through both halves.
            let path = std::env::temp_dir().join(format!(
                "typed-hpke-cose-interop-{}.json",
                std::process::id()
            ));
            let path = path.to_str().unwrap();
            emit(path);
            check(path);
            std::fs::remove_file(path).unwrap();
        }
    }
}
