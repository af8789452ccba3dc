//! RFC 9458 Appendix A, byte for byte: the gateway's key configuration, the client's
//! encapsulated request (from the published ephemeral key) and the gateway's encapsulated
//! response (from the published response nonce), each made here and compared with the RFC's
//! bytes, and each of the RFC's messages opened by the other side.

use typed_hpke::suite::Suite;
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, KeyConfig, SymmetricSuite};

mod common;
use common::Replay;

/// The values of RFC 9458 Appendix A.
const SK_R: &str = "3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a";
const KEY_CONFIG: &str =
    "01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e79815500080001000100010003";
const REQUEST: &str = "00034745540568747470730b6578616d706c652e636f6d012f";
const SK_E: &str = "bc51d5e930bda26589890ac7032f70ad12e4ecb37abb1b65b1256c9c48999c73";
const ENC_REQUEST: &str = "010020000100014b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b4726374e469135906992e1268c594d2a10c695d858c40a026e7965e7d86b83dd440b2c0185204b4d63525";
const RESPONSE: &str = "0140c8";
const RESPONSE_NONCE: &str = "c789e7151fcba46158ca84b04464910d";
const ENC_RESPONSE: &str = "c789e7151fcba46158ca84b04464910d86f9013e404feea014e7be4a441f234f857fbd";

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn gateway() -> Gateway {
    let suite = Suite::new(0x0020, 0x0001, 0x0001).unwrap();
    let sk = suite.private_key_from_bytes(&h(SK_R)).unwrap();
    let key = GatewayKey::new(
        1,
        sk,
        vec![
            SymmetricSuite::HKDF_SHA256_AES_128_GCM,
            SymmetricSuite::HKDF_SHA256_CHACHA20_POLY1305,
        ],
    )
    .unwrap();
    Gateway::new([key]).unwrap()
}

#[test]
fn key_configuration() {
    let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
    assert_eq!(config.key_id(), 1);
    assert_eq!(config.kem_id(), 0x0020);
    assert_eq!(
        config.symmetric(),
        [SymmetricSuite::new(1, 1), SymmetricSuite::new(1, 3)]
    );
    assert_eq!(config.encode(), h(KEY_CONFIG));
    // The gateway made from the published private key publishes the same configuration, as
    // the one entry of an application/ohttp-keys list (a two-byte length, 0x002d, first).
    let list = gateway().key_configs().unwrap();
    assert_eq!(list, [h("002d"), h(KEY_CONFIG)].concat());
    assert_eq!(KeyConfig::decode_list(&list).unwrap(), [config]);
}

#[test]
fn client_request_is_the_published_one() {
    let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
    let client = Client::new(&config).unwrap();
    assert_eq!(client.symmetric(), SymmetricSuite::HKDF_SHA256_AES_128_GCM);
    // X25519's ephemeral key is the generator's 32 bytes (RFC 9180 §7.1.3): the published skE.
    let (enc_request, response) = client
        .encapsulate(&mut Replay(h(SK_E)), &h(REQUEST))
        .unwrap();
    assert_eq!(hex::encode(&enc_request), ENC_REQUEST);
    // The published response opens with the state of the published request.
    assert_eq!(response.decapsulate(&h(ENC_RESPONSE)).unwrap(), h(RESPONSE));
}

#[test]
fn gateway_response_is_the_published_one() {
    let (request, response) = gateway().decapsulate(&h(ENC_REQUEST)).unwrap();
    assert_eq!(request, h(REQUEST));
    let enc_response = response
        .encapsulate(&mut Replay(h(RESPONSE_NONCE)), &h(RESPONSE))
        .unwrap();
    assert_eq!(hex::encode(enc_response), ENC_RESPONSE);
}

#[test]
fn published_response_refused_by_another_exchange() {
    let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
    let client = Client::new(&config).unwrap();
    let (_, response) = client
        .encapsulate(&mut typed_hpke_ohttp::OsRng::default(), &h(REQUEST))
        .unwrap();
    assert_eq!(response.decapsulate(&h(ENC_RESPONSE)), Err(Error::Decrypt));
}

/// A gateway key from its stored bytes, checked against the configuration it was published
/// under; a client that leaves the key unprepared makes the same request.
#[test]
fn key_from_bytes_and_unprepared_client() {
    let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
    let pairs = config.symmetric().to_vec();
    let key = GatewayKey::from_bytes(1, 0x0020, &h(SK_R), pairs.clone()).unwrap();
    assert_eq!(key.config().encode(), h(KEY_CONFIG));
    assert_eq!(
        GatewayKey::from_bytes_for_config(&h(SK_R), &config)
            .unwrap()
            .config(),
        &config
    );
    // Another key, a key of the wrong length, another key id: not this configuration's key.
    let other = "1c190d72acdbe4dbc69e680503bb781a932c70a12c8f3754434c67d8640d8698";
    assert_eq!(
        GatewayKey::from_bytes_for_config(&h(other), &config).unwrap_err(),
        Error::InvalidKey
    );
    assert_eq!(
        GatewayKey::from_bytes_for_config(&h(&SK_R[2..]), &config).unwrap_err(),
        Error::InvalidKey
    );
    let moved = KeyConfig::new(2, config.public_key().clone(), pairs.clone()).unwrap();
    assert_eq!(
        GatewayKey::from_bytes_for_config(&h(SK_R), &moved)
            .unwrap()
            .config()
            .key_id(),
        2
    );
    assert_eq!(
        GatewayKey::from_bytes(1, 0x0099, &h(SK_R), pairs.clone()).unwrap_err(),
        Error::UnsupportedSuite
    );
    // X448 keys are 56 bytes.
    assert_eq!(
        GatewayKey::from_bytes(1, 0x0021, &h(SK_R), pairs).unwrap_err(),
        Error::InvalidKey
    );

    let client = Client::unprepared(&config, SymmetricSuite::HKDF_SHA256_AES_128_GCM).unwrap();
    assert!(!client.is_prepared());
    assert!(Client::new(&config).unwrap().is_prepared());
    let (enc_request, response) = client
        .encapsulate(&mut Replay(h(SK_E)), &h(REQUEST))
        .unwrap();
    assert_eq!(hex::encode(&enc_request), ENC_REQUEST);
    assert_eq!(response.decapsulate(&h(ENC_RESPONSE)).unwrap(), h(RESPONSE));
}
