//! Every KEM typed-hpke has, with every (KDF, AEAD) pair Oblivious HTTP can use, through
//! client and gateway and back; configurations through their encodings; a gateway with several
//! keys routing by key identifier.

use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem, MlKem768, XWing};
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, KeyConfig, OsRng, SymmetricSuite};

mod common;
use common::kems;

/// The nine pairs: HKDF-SHA256/384/512 with AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305.
fn all_pairs() -> Vec<SymmetricSuite> {
    // The nine named pairs are the nine the ids give: every HKDF with every sealing AEAD.
    let mut pairs = Vec::new();
    for kdf in 1..=3 {
        for aead in 1..=3 {
            pairs.push(SymmetricSuite::new(kdf, aead));
        }
    }
    assert_eq!(pairs, SymmetricSuite::ALL);
    assert!(pairs.iter().all(|p| p.is_supported()));
    pairs
}

fn body(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

#[test]
fn every_kem_and_pair_round_trips() {
    let mut rng = OsRng::default();
    for (i, kem) in kems().into_iter().enumerate() {
        let key = GatewayKey::generate(i as u8, kem, all_pairs(), &mut rng).unwrap();
        // The client gets the configuration as bytes, as it would over HTTP.
        let config = KeyConfig::decode(&key.config().encode()).unwrap();
        assert_eq!(&config, key.config());
        let gateway = Gateway::new([key]).unwrap();
        for pair in all_pairs() {
            let client = Client::with_symmetric(&config, pair).unwrap();
            let request = body(1024, pair.aead_id as u8);
            let (enc_request, client_response) = client.encapsulate(&mut rng, &request).unwrap();
            let (opened, gateway_response) = gateway.decapsulate(&enc_request).unwrap();
            assert_eq!(opened, request, "kem {kem:#06x} pair {pair:?}");
            let response = body(1024, !pair.kdf_id as u8);
            let enc_response = gateway_response.encapsulate(&mut rng, &response).unwrap();
            assert_eq!(
                client_response.decapsulate(&enc_response).unwrap(),
                response
            );
        }
    }
}

#[test]
fn empty_request_and_response() {
    let mut rng = OsRng::default();
    let key = GatewayKey::generate(7, XWing::ID, all_pairs(), &mut rng).unwrap();
    let client = Client::new(key.config()).unwrap();
    let gateway = Gateway::new([key]).unwrap();
    let (enc_request, client_response) = client.encapsulate(&mut rng, &[]).unwrap();
    let (request, gateway_response) = gateway.decapsulate(&enc_request).unwrap();
    assert!(request.is_empty());
    let enc_response = gateway_response.encapsulate(&mut rng, &[]).unwrap();
    assert!(
        client_response
            .decapsulate(&enc_response)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn derived_keys_are_reproducible() {
    for kem in kems() {
        let a =
            GatewayKey::derive(3, kem, all_pairs(), b"gateway seed of 32 bytes or more").unwrap();
        let b =
            GatewayKey::derive(3, kem, all_pairs(), b"gateway seed of 32 bytes or more").unwrap();
        assert_eq!(a.config(), b.config());
        let c =
            GatewayKey::derive(3, kem, all_pairs(), b"another gateway seed, 32 bytes+").unwrap();
        assert_ne!(
            a.config().public_key().as_bytes(),
            c.config().public_key().as_bytes()
        );
    }
}

#[test]
fn gateway_routes_by_key_id() {
    let mut rng = OsRng::default();
    let pairs = vec![SymmetricSuite::HKDF_SHA256_AES_128_GCM];
    let keys = [
        GatewayKey::generate(1, DhKemX25519HkdfSha256::ID, pairs.clone(), &mut rng).unwrap(),
        GatewayKey::generate(2, XWing::ID, pairs.clone(), &mut rng).unwrap(),
        GatewayKey::generate(200, MlKem768::ID, pairs.clone(), &mut rng).unwrap(),
        // A rotation: a second X25519 key published beside the first.
        GatewayKey::generate(3, DhKemX25519HkdfSha256::ID, pairs.clone(), &mut rng).unwrap(),
    ];
    let gateway = Gateway::new(keys).unwrap();
    let list = gateway.key_configs().unwrap();
    let configs = KeyConfig::decode_list(&list).unwrap();
    assert_eq!(
        configs.iter().map(KeyConfig::key_id).collect::<Vec<_>>(),
        [1, 2, 200, 3]
    );
    for config in &configs {
        let client = Client::new(config).unwrap();
        let request = [config.key_id(); 40];
        let (enc_request, _) = client.encapsulate(&mut rng, &request).unwrap();
        assert_eq!(enc_request[0], config.key_id());
        let (opened, _) = gateway.decapsulate(&enc_request).unwrap();
        assert_eq!(opened, request);
        // The same request under another X25519 key id names a key that cannot open it.
        if config.key_id() == 1 {
            let mut other = enc_request.clone();
            other[0] = 3;
            assert_eq!(gateway.decapsulate(&other).unwrap_err(), Error::Decrypt);
        }
    }
    // The list's first usable configuration is the client's choice.
    assert_eq!(Client::from_key_configs(&list).unwrap().key_id(), 1);
    // A gateway without key 3 no longer knows it.
    let old = Gateway::new(gateway.keys()[..3].to_vec()).unwrap();
    let client = Client::new(&configs[3]).unwrap();
    let (enc_request, _) = client.encapsulate(&mut rng, b"late").unwrap();
    assert_eq!(
        old.decapsulate(&enc_request).unwrap_err(),
        Error::UnknownKeyId
    );
}

#[test]
fn gateway_is_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Gateway>();
    shared::<Client>();
    shared::<typed_hpke_ohttp::GatewayResponse>();
    shared::<typed_hpke_ohttp::ClientResponse>();
}

#[test]
fn gateway_serves_threads() {
    let mut rng = OsRng::default();
    let key = GatewayKey::generate(9, XWing::ID, all_pairs(), &mut rng).unwrap();
    let client = Client::new(key.config()).unwrap();
    let gateway = std::sync::Arc::new(Gateway::new([key]).unwrap());
    let handles: Vec<_> = (0..4u8)
        .map(|t| {
            let (gateway, client) = (gateway.clone(), client.clone());
            std::thread::spawn(move || {
                let mut rng = OsRng::default();
                for n in 0..8u8 {
                    let (req, res) = client.encapsulate(&mut rng, &[t, n]).unwrap();
                    let (opened, reply) = gateway.decapsulate(&req).unwrap();
                    assert_eq!(opened, [t, n]);
                    let enc = reply.encapsulate(&mut rng, &[n, t]).unwrap();
                    assert_eq!(res.decapsulate(&enc).unwrap(), [n, t]);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}
