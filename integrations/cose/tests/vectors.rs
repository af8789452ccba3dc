//! Every vector of draft-ietf-cose-hpke-27 (Appendix C, the §5 examples), of python-cwt and of
//! draft-reddy-cose-hpke-pq-pqt: the COSE_Key read and written back byte for byte, the message
//! decrypted to the generator's plaintext, and each of ours to the vector's key decrypted.

use aes_gcm::aead::consts::{U16, U32};
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::aes::{Aes128, Aes256};
use aes_gcm::{AesGcm, Nonce};
use ciborium::Value;
use sha2::{Digest, Sha256};
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, PrivateCoseKey, Recipient,
};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/");
const PSK: &str = "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82";
const PSK_ID: &[u8] = b"Ennyn Durin aran Moria";

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
    assert_eq!(seen, 4);
}

/// Opens layer 0 of a COSE_Encrypt with a non-96-bit IV with the reference AES-GCM.
fn open_long_iv(message: &[u8], content: i64, cek: &[u8], external_aad: &[u8]) -> Vec<u8> {
    let Value::Tag(96, inner) = ciborium::de::from_reader::<Value, _>(message).unwrap() else {
        panic!()
    };
    let Value::Array(items) = *inner else {
        panic!()
    };
    let Value::Bytes(protected) = &items[0] else {
        panic!()
    };
    let Value::Map(unprotected) = &items[1] else {
        panic!()
    };
    let iv = unprotected
        .iter()
        .find(|(l, _)| *l == Value::from(5))
        .and_then(|(_, v)| v.as_bytes())
        .unwrap();
    let Value::Bytes(ct) = &items[2] else {
        panic!()
    };
    let mut aad = Vec::new();
    let structure = Value::Array(vec![
        Value::Text("Encrypt".into()),
        Value::Bytes(protected.clone()),
        Value::Bytes(external_aad.to_vec()),
    ]);
    ciborium::ser::into_writer(&structure, &mut aad).unwrap();
    let payload = Payload { msg: ct, aad: &aad };
    match (content, iv.len()) {
        (1, 16) => AesGcm::<Aes128, U16>::new_from_slice(cek)
            .unwrap()
            .decrypt(&Nonce::<U16>::try_from(&iv[..]).unwrap(), payload),
        (3, 32) => AesGcm::<Aes256, U32>::new_from_slice(cek)
            .unwrap()
            .decrypt(&Nonce::<U32>::try_from(&iv[..]).unwrap(), payload),
        other => panic!("layer 0 {other:?}"),
    }
    .expect("the reference AES-GCM opens layer 0 with the recovered CEK")
}

/// Decrypts one message and returns whether it was refused for its IV (and then opened with
/// the reference AES-GCM).
fn check(
    message: &[u8],
    d: Decryptor<'_>,
    external_aad: &[u8],
    plaintext: &[u8],
    what: &str,
) -> bool {
    match d.decrypt(message) {
        Ok(out) => {
            assert_eq!(out, plaintext, "{what}");
            false
        }
        Err(Error::UnsupportedIv) => {
            let (content, cek) = d
                .unwrap_cek(message)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                open_long_iv(message, content, &cek, external_aad),
                plaintext,
                "{what}"
            );
            true
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Reads a file of the draft's Appendix C format and checks every vector; returns how many
/// were refused for their IV.
fn appendix_c(file: &str) -> usize {
    let text = String::from_utf8(read(file)).unwrap();
    let psk = hex::decode(PSK).unwrap();
    let mut keys: Vec<(String, PrivateCoseKey, Vec<u8>)> = Vec::new();
    let (mut label, mut vectors, mut refused) = (String::new(), 0, 0);
    let mut rng = typed_hpke_cose::OsRng::default();
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some((name, hex_key)) = line.split_once(" COSE_Key:") {
            let bytes = hex::decode(hex_key.trim_start_matches(':').trim()).unwrap();
            let key = PrivateCoseKey::from_cbor(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(*key.to_cbor().unwrap(), bytes, "{name}: written back");
            assert_eq!(key.alg().map(|a| a.name()), Some(name), "{name}");
            keys.retain(|(n, _, _)| n != name);
            keys.push((name.to_string(), key, bytes));
        } else if let Some(hex_ct) = line.strip_prefix("Ciphertext: ") {
            let message = hex::decode(hex_ct).unwrap();
            let name = label.split(' ').next().unwrap();
            let (_, key, _) = keys
                .iter()
                .find(|(n, _, _)| n == name)
                .unwrap_or_else(|| panic!("{label}"));
            let alg = Algorithm::from_name(name).unwrap();
            let external_aad: &[u8] = if label.contains("external aad") {
                b"external-aad"
            } else {
                b""
            };
            let info: &[u8] = if label.contains("external info") {
                b"external-info"
            } else {
                b""
            };
            let hpke_aad: &[u8] = if label.contains("external hpke aad") {
                b"external-hpke-aad"
            } else {
                b""
            };
            let mut d = Decryptor::new(key)
                .external_aad(external_aad)
                .hpke_aad(hpke_aad);
            d = if alg.is_key_encryption() {
                d.extra_info(info)
            } else {
                d.info(info)
            };
            if label.contains("PSK") {
                d = d.psk(&psk, PSK_ID).unwrap();
            }
            if check(&message, d, external_aad, b"hpke test payload", &label) {
                refused += 1;
            }
            // Without the PSK the message is refused for its psk_id, not decrypted.
            if label.contains("PSK") {
                assert_eq!(
                    Decryptor::new(key)
                        .external_aad(external_aad)
                        .decrypt(&message),
                    Err(Error::Psk),
                    "{label}"
                );
            }
            vectors += 1;

            // Ours, to the vector's key, with the same inputs.
            let public = key.public_key();
            let ours = if alg.is_key_encryption() {
                let content = if alg.aead_id() == 0x0001 {
                    ContentAlgorithm::A128Gcm
                } else {
                    ContentAlgorithm::A256Gcm
                };
                let mut r = Recipient::new(alg, public)
                    .unwrap()
                    .extra_info(info)
                    .hpke_aad(hpke_aad);
                if label.contains("PSK") {
                    r = r.psk(&psk, PSK_ID).unwrap();
                }
                Encryptor::key_encryption(content).recipient(r).unwrap()
            } else {
                let mut e = Encryptor::encrypt0(alg, public)
                    .unwrap()
                    .info(info)
                    .unwrap();
                if label.contains("PSK") {
                    e = e.psk(&psk, PSK_ID).unwrap();
                }
                e
            };
            let ours = ours
                .external_aad(external_aad)
                .encrypt(&mut rng, b"hpke test payload")
                .unwrap();
            let mut d = Decryptor::new(key)
                .external_aad(external_aad)
                .hpke_aad(hpke_aad);
            d = if alg.is_key_encryption() {
                d.extra_info(info)
            } else {
                d.info(info)
            };
            if label.contains("PSK") {
                d = d.psk(&psk, PSK_ID).unwrap();
            }
            assert_eq!(
                d.decrypt(&ours).unwrap(),
                b"hpke test payload",
                "ours, {label}"
            );
        } else {
            label = line.to_string();
        }
    }
    assert_eq!(vectors, 192, "{file}");
    refused
}

#[test]
fn cose_hpke_appendix_c() {
    assert_eq!(appendix_c("cose-hpke-25.testvectors.txt"), 56);
}

#[test]
fn python_cwt() {
    assert_eq!(appendix_c("python-cwt-421cee29.testvectors.txt"), 0);
}

#[test]
fn cose_hpke_section_5() {
    let file: serde_json::Value =
        serde_json::from_slice(&read("cose-hpke-27.section5-examples.json")).unwrap();
    let plaintext = hex::decode(file["plaintext_hex"].as_str().unwrap()).unwrap();
    assert_eq!(plaintext, b"This is the content.\n");
    let mut refused = 0;
    for example in file["examples"].as_array().unwrap() {
        let key_bytes = hex::decode(example["cose_key_hex"].as_str().unwrap()).unwrap();
        let key = PrivateCoseKey::from_cbor(&key_bytes).unwrap();
        assert_eq!(*key.to_cbor().unwrap(), key_bytes);
        assert_eq!(key.kid(), Some(&b"bob"[..]));
        let message = hex::decode(example["ciphertext_hex"].as_str().unwrap()).unwrap();
        if check(
            &message,
            Decryptor::new(&key),
            b"",
            &plaintext,
            example["section"].as_str().unwrap(),
        ) {
            refused += 1;
        }
    }
    assert_eq!(refused, 1, "§5.2's 16-byte IV");
}

#[test]
fn cose_hpke_pq_pqt() {
    let vectors: Vec<serde_json::Value> =
        serde_json::from_slice(&read("cose-hpke-pq-pqt-ace9166.cose-vectors.json")).unwrap();
    assert_eq!(vectors.len(), 12);
    let frodo = "You can trust us to stick with you through thick and thin\u{2013}to the bitter end. And you can trust us to keep any secret of yours\u{2013}closer than you keep it yourself. But you cannot trust us to let you face trouble alone, and go off without a word. We are your friends, Frodo.";
    let aad = b"The Fellowship of the Ring";
    for v in &vectors {
        let name = v["alg"].as_str().unwrap();
        let key_bytes = hex::decode(v["key"].as_str().unwrap()).unwrap();
        let key = PrivateCoseKey::from_cbor(&key_bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(*key.to_cbor().unwrap(), key_bytes, "{name}: written back");
        assert_eq!(key.alg().map(|a| a.name()), Some(name));
        let message = hex::decode(v["hex"].as_str().unwrap()).unwrap();
        let out = Decryptor::new(&key)
            .external_aad(aad)
            .decrypt(&message)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(out, frodo.as_bytes(), "{name}");
    }
}

/// Every algorithm of the table is in a vector file.
#[test]
fn table_is_the_drafts() {
    let vectors: Vec<serde_json::Value> =
        serde_json::from_slice(&read("cose-hpke-pq-pqt-ace9166.cose-vectors.json")).unwrap();
    let text = String::from_utf8(read("cose-hpke-25.testvectors.txt")).unwrap();
    let mut names: Vec<String> = vectors
        .iter()
        .map(|v| v["alg"].as_str().unwrap().to_string())
        .collect();
    for line in text.lines() {
        if let Some((name, _)) = line.split_once(" COSE_Key:")
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names.sort();
    let mut table: Vec<String> = Algorithm::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    table.sort();
    assert_eq!(names, table);
}
