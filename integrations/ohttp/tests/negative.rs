//! Every malformed input gets its error, never a panic: key configurations and lists,
//! requests, responses, gateway and client construction; and each error's HTTP status.

use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemX25519HkdfSha256, Kem, MlKem768, XWing};
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, KeyConfig, OsRng, SymmetricSuite};

const AES128: SymmetricSuite = SymmetricSuite::HKDF_SHA256_AES_128_GCM;
const CHACHA: SymmetricSuite = SymmetricSuite::HKDF_SHA256_CHACHA20_POLY1305;

fn pair(kem: u16, key_id: u8) -> (Client, Gateway) {
    let key =
        GatewayKey::generate(key_id, kem, vec![AES128, CHACHA], &mut OsRng::default()).unwrap();
    (
        Client::new(key.config()).unwrap(),
        Gateway::new([key]).unwrap(),
    )
}

#[test]
fn key_config_truncated_or_padded() {
    for kem in [DhKemX25519HkdfSha256::ID, XWing::ID] {
        let (_, gateway) = pair(kem, 4);
        let good = gateway.keys()[0].config().encode();
        for len in 0..good.len() {
            assert_eq!(
                KeyConfig::decode(&good[..len]).unwrap_err(),
                Error::InvalidKeyConfig,
                "kem {kem:#06x}, {len} of {} bytes",
                good.len()
            );
        }
        let mut long = good.clone();
        long.push(0);
        assert_eq!(
            KeyConfig::decode(&long).unwrap_err(),
            Error::InvalidKeyConfig
        );
        // The symmetric list: empty, or not whole (KDF, AEAD) pairs.
        let at = good.len() - 2 - 8;
        for bad_len in [0u16, 2, 6] {
            let mut bad = good[..at].to_vec();
            bad.extend_from_slice(&bad_len.to_be_bytes());
            bad.extend_from_slice(&good[at + 2..at + 2 + usize::from(bad_len)]);
            assert_eq!(
                KeyConfig::decode(&bad).unwrap_err(),
                Error::InvalidKeyConfig
            );
        }
    }
}

#[test]
fn key_config_unknown_kem_and_bad_key() {
    let (_, gateway) = pair(DhKemP256HkdfSha256::ID, 4);
    let good = gateway.keys()[0].config().encode();
    let mut unknown = good.clone();
    unknown[1..3].copy_from_slice(&0x1234u16.to_be_bytes());
    assert_eq!(
        KeyConfig::decode(&unknown).unwrap_err(),
        Error::UnsupportedSuite
    );
    // A P-256 point that is not on the curve.
    let mut off_curve = good.clone();
    off_curve[3 + 64] ^= 1;
    assert_eq!(
        KeyConfig::decode(&off_curve).unwrap_err(),
        Error::InvalidKey
    );
}

#[test]
fn key_config_lists() {
    let (_, a) = pair(DhKemX25519HkdfSha256::ID, 1);
    let (_, b) = pair(MlKem768::ID, 2);
    let one = a.keys()[0].config().encode();
    let two = b.keys()[0].config().encode();
    let framed = |c: &[u8]| [&(c.len() as u16).to_be_bytes()[..], c].concat();
    let list = [framed(&one), framed(&two)].concat();
    assert_eq!(KeyConfig::decode_list(&list).unwrap().len(), 2);
    assert!(KeyConfig::decode_list(&[]).unwrap().is_empty());
    // A length that runs past the end, a lone length byte, a stray byte.
    assert_eq!(
        KeyConfig::decode_list(&list[..list.len() - 1]).unwrap_err(),
        Error::InvalidKeyConfig
    );
    assert_eq!(
        KeyConfig::decode_list(&[0]).unwrap_err(),
        Error::InvalidKeyConfig
    );
    assert_eq!(
        KeyConfig::decode_list(&[&list[..], &[0]].concat()).unwrap_err(),
        Error::InvalidKeyConfig
    );
    // A configuration of an unknown KEM is passed over; a malformed one fails the list.
    let mut unknown = one.clone();
    unknown[1..3].copy_from_slice(&0x7777u16.to_be_bytes());
    let list = [framed(&unknown), framed(&two)].concat();
    let configs = KeyConfig::decode_list(&list).unwrap();
    assert_eq!(configs.len(), 1);
    assert_eq!(configs[0].key_id(), 2);
    assert_eq!(Client::from_key_configs(&list).unwrap().key_id(), 2);
    let list = [framed(&one[..one.len() - 1]), framed(&two)].concat();
    assert_eq!(
        KeyConfig::decode_list(&list).unwrap_err(),
        Error::InvalidKeyConfig
    );
    assert_eq!(
        Client::from_key_configs(&framed(&unknown)).unwrap_err(),
        Error::UnsupportedSuite
    );
}

#[test]
fn request_truncated_at_every_length() {
    for kem in [DhKemX25519HkdfSha256::ID, XWing::ID] {
        let (client, gateway) = pair(kem, 9);
        let (enc_request, _) = client
            .encapsulate(&mut OsRng::default(), b"request")
            .unwrap();
        for len in 0..enc_request.len() {
            let err = gateway.decapsulate(&enc_request[..len]).unwrap_err();
            // Short of the header, enc and a tag: truncated. Beyond: the tag does not verify.
            let fixed = enc_request.len() - b"request".len();
            let want = if len < fixed {
                Error::Truncated
            } else {
                Error::Decrypt
            };
            assert_eq!(
                err,
                want,
                "kem {kem:#06x}, {len} of {} bytes",
                enc_request.len()
            );
        }
    }
}

#[test]
fn request_header_mismatches() {
    let (client, gateway) = pair(DhKemX25519HkdfSha256::ID, 9);
    let (good, _) = client
        .encapsulate(&mut OsRng::default(), b"request")
        .unwrap();
    let with = |at: usize, bytes: &[u8]| {
        let mut r = good.clone();
        r[at..at + bytes.len()].copy_from_slice(bytes);
        gateway.decapsulate(&r).unwrap_err()
    };
    assert_eq!(with(0, &[10]), Error::UnknownKeyId);
    // Another KEM, KDF or AEAD than the configuration lists.
    assert_eq!(with(1, &0x0010u16.to_be_bytes()), Error::SuiteNotOffered);
    assert_eq!(with(3, &0x0002u16.to_be_bytes()), Error::SuiteNotOffered);
    assert_eq!(with(5, &0x0002u16.to_be_bytes()), Error::SuiteNotOffered);
    assert_eq!(with(5, &0xffffu16.to_be_bytes()), Error::SuiteNotOffered);
    // A listed pair other than the one the request was made with: the info differs.
    assert_eq!(with(5, &0x0003u16.to_be_bytes()), Error::Decrypt);
}

#[test]
fn request_and_response_bytes_changed() {
    let mut rng = OsRng::default();
    let (client, gateway) = pair(XWing::ID, 5);
    let (good, _) = client.encapsulate(&mut rng, b"request").unwrap();
    for at in 7..good.len() {
        let mut r = good.clone();
        r[at] ^= 0x80;
        assert_eq!(
            gateway.decapsulate(&r).unwrap_err(),
            Error::Decrypt,
            "byte {at}"
        );
    }
    // A fresh exchange per changed byte: each response is opened by its own request's state.
    let mut exchange = || {
        let (req, client_response) = client.encapsulate(&mut rng, b"request").unwrap();
        let (_, gateway_response) = gateway.decapsulate(&req).unwrap();
        let res = gateway_response
            .encapsulate(&mut OsRng::default(), b"response")
            .unwrap();
        (client_response, res)
    };
    let (client_response, res) = exchange();
    assert_eq!(client_response.decapsulate(&res).unwrap(), b"response");
    for at in 0..res.len() {
        let (client_response, mut res) = exchange();
        res[at] ^= 1;
        assert_eq!(
            client_response.decapsulate(&res).unwrap_err(),
            Error::Decrypt,
            "byte {at}"
        );
    }
    // Too short for the nonce (16 bytes for AES-128-GCM) and a tag.
    for len in 0..32 {
        let (client_response, res) = exchange();
        assert_eq!(
            client_response.decapsulate(&res[..len]).unwrap_err(),
            Error::Truncated
        );
    }
    // The response to one request does not open as the response to another.
    let (_, res) = exchange();
    let (other, _) = exchange();
    assert_eq!(other.decapsulate(&res).unwrap_err(), Error::Decrypt);
}

#[test]
fn construction_errors() {
    let mut rng = OsRng::default();
    let key = GatewayKey::generate(1, XWing::ID, vec![AES128], &mut rng).unwrap();
    assert_eq!(
        Gateway::new([key.clone(), key.clone()]).unwrap_err(),
        Error::DuplicateKeyId
    );
    // A one-stage KDF (SHAKE256, 0x0011) and ExportOnly cannot carry OHTTP; an unknown KEM.
    for bad in [
        SymmetricSuite::new(0x0011, 0x0001),
        SymmetricSuite::new(0x0001, 0xffff),
    ] {
        assert!(!bad.is_supported());
        assert_eq!(
            GatewayKey::generate(1, XWing::ID, vec![AES128, bad], &mut rng).unwrap_err(),
            Error::UnsupportedSuite
        );
    }
    assert_eq!(
        GatewayKey::generate(1, XWing::ID, vec![], &mut rng).unwrap_err(),
        Error::InvalidKeyConfig
    );
    assert_eq!(
        GatewayKey::generate(1, 0x0999, vec![AES128], &mut rng).unwrap_err(),
        Error::UnsupportedSuite
    );
    // A client of a configuration offering only what it cannot use, or asked for an unlisted pair.
    let only_shake = KeyConfig::new(
        1,
        key.config().public_key().clone(),
        vec![SymmetricSuite::new(0x0011, 0x0001)],
    )
    .unwrap();
    assert_eq!(
        Client::new(&only_shake).unwrap_err(),
        Error::UnsupportedSuite
    );
    assert_eq!(
        Client::with_symmetric(key.config(), CHACHA).unwrap_err(),
        Error::SuiteNotOffered
    );
    assert_eq!(
        KeyConfig::new(1, key.config().public_key().clone(), vec![]).unwrap_err(),
        Error::InvalidKeyConfig
    );
    // The list's length is a 16-bit count of 4-byte pairs: 16,383 pairs fit, one more does not.
    let most = vec![AES128; 0xfffc / 4];
    let full = KeyConfig::new(1, key.config().public_key().clone(), most.clone()).unwrap();
    assert_eq!(
        full.encode().len(),
        1 + 2 + key.config().public_key().as_bytes().len() + 2 + 0xfffc
    );
    let over = [most, vec![AES128]].concat();
    assert_eq!(
        KeyConfig::new(1, key.config().public_key().clone(), over).unwrap_err(),
        Error::InvalidKeyConfig
    );
}

#[test]
fn http_status_of_each_request_error() {
    for (e, status, key_problem) in [
        (Error::UnknownKeyId, Some(400), true),
        (Error::SuiteNotOffered, Some(400), true),
        (Error::UnsupportedSuite, Some(400), true),
        (Error::Truncated, Some(400), false),
        (Error::Decrypt, Some(400), false),
        (Error::MissingFinalChunk, Some(400), false),
        (Error::ChunkTooLarge, Some(413), false),
        (Error::InvalidKeyConfig, None, false),
        (Error::DuplicateKeyId, None, false),
    ] {
        assert_eq!(e.http_status(), status, "{e}");
        assert_eq!(e.is_key_config_problem(), key_problem, "{e}");
    }
}

#[test]
fn debug_shows_no_secret() {
    let mut rng = OsRng::default();
    let key = GatewayKey::derive(1, DhKemX25519HkdfSha256::ID, vec![AES128], &[7; 32]).unwrap();
    let sk = key.private_key().unwrap().to_bytes();
    let hex_sk: String = sk.iter().map(|b| format!("{b:02x}")).collect();
    let client = Client::new(key.config()).unwrap();
    let gateway = Gateway::new([key.clone()]).unwrap();
    let (req, client_response) = client.encapsulate(&mut rng, b"x").unwrap();
    let (_, gateway_response) = gateway.decapsulate(&req).unwrap();
    for shown in [
        format!("{key:?}"),
        format!("{gateway:?}"),
        format!("{client_response:?}"),
        format!("{gateway_response:?}"),
    ] {
        assert!(!shown.contains(&hex_sk), "{shown}");
        assert!(!shown.contains(&format!("{:?}", &sk[..8])), "{shown}");
    }
}
