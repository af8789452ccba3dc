//! Against the `ohttp` crate 0.8 (its default rust-hpke backend), on every suite both have:
//! X25519, P-256 and X-Wing with HKDF-SHA256 and AES-128-GCM or ChaCha20-Poly1305 (its backend
//! takes no other KDF or AEAD: `ohttp::KeyConfig` drops the others, and panics when none is left). Keys derived from one seed give both the same configuration bytes;
//! requests made by either side are opened by the other, and so are the responses back; a
//! request or response changed in one byte is refused by both.

use ohttp::hpke::{Aead as OAead, Kdf as OKdf, Kem as OKem};
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, KeyConfig, OsRng, SymmetricSuite};

const KEMS: [(OKem, u16); 3] = [
    (OKem::X25519Sha256, 0x0020),
    (OKem::P256Sha256, 0x0010),
    (OKem::XWing, 0x647a),
];
const KDFS: [(OKdf, u16); 1] = [(OKdf::HkdfSha256, 1)];
const AEADS: [(OAead, u16); 2] = [(OAead::Aes128Gcm, 1), (OAead::ChaCha20Poly1305, 3)];

/// Every shared suite: the peer's names, our ids, and a seed for its keys.
fn suites() -> impl Iterator<Item = (OKem, OKdf, OAead, u16, SymmetricSuite, [u8; 32])> {
    KEMS.into_iter().flat_map(|(okem, kem)| {
        KDFS.into_iter().flat_map(move |(okdf, kdf)| {
            AEADS.into_iter().map(move |(oaead, aead)| {
                let mut ikm = [0x5a; 32];
                ikm[..6].copy_from_slice(
                    &[
                        &kem.to_be_bytes()[..],
                        &kdf.to_be_bytes(),
                        &aead.to_be_bytes(),
                    ]
                    .concat(),
                );
                (okem, okdf, oaead, kem, SymmetricSuite::new(kdf, aead), ikm)
            })
        })
    })
}

fn body(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

#[test]
fn same_configuration_from_the_same_seed() {
    for (okem, okdf, oaead, kem, pair, ikm) in suites() {
        let ours = GatewayKey::derive(7, kem, vec![pair], &ikm).unwrap();
        let theirs =
            ohttp::KeyConfig::derive(7, okem, vec![ohttp::SymmetricSuite::new(okdf, oaead)], &ikm)
                .unwrap();
        assert_eq!(
            ours.config().encode(),
            theirs.encode().unwrap(),
            "kem {kem:#06x} {pair:?}"
        );
    }
}

#[test]
fn peer_client_to_our_gateway() {
    let mut rng = OsRng::default();
    for (_, _, _, kem, pair, ikm) in suites() {
        let key = GatewayKey::derive(3, kem, vec![pair], &ikm).unwrap();
        let encoded = key.config().encode();
        let gateway = Gateway::new([key]).unwrap();
        let request = body(1024, pair.aead_id as u8);
        let response = body(1024, 0x80 | pair.kdf_id as u8);

        let client = ohttp::ClientRequest::from_encoded_config(&encoded).unwrap();
        let (enc_request, client_response) = client.encapsulate(&request).unwrap();
        let (opened, gateway_response) = gateway.decapsulate(&enc_request).unwrap();
        assert_eq!(opened, request, "kem {kem:#06x} {pair:?}");
        let enc_response = gateway_response.encapsulate(&mut rng, &response).unwrap();
        assert_eq!(
            client_response.decapsulate(&enc_response).unwrap(),
            response
        );

        // A changed byte of the peer's request (in enc and in the ciphertext) is refused.
        for at in [8, enc_request.len() - 1] {
            let client = ohttp::ClientRequest::from_encoded_config(&encoded).unwrap();
            let (mut enc_request, _) = client.encapsulate(&request).unwrap();
            enc_request[at] ^= 1;
            assert_eq!(
                gateway.decapsulate(&enc_request).unwrap_err(),
                Error::Decrypt
            );
        }
    }
}

#[test]
fn our_client_to_peer_gateway() {
    let mut rng = OsRng::default();
    for (okem, okdf, oaead, kem, pair, ikm) in suites() {
        let theirs =
            ohttp::KeyConfig::derive(5, okem, vec![ohttp::SymmetricSuite::new(okdf, oaead)], &ikm)
                .unwrap();
        let config = KeyConfig::decode(&theirs.encode().unwrap()).unwrap();
        let server = ohttp::Server::new(theirs).unwrap();
        let client = Client::new(&config).unwrap();
        let request = body(1024, pair.kdf_id as u8);
        let response = body(1024, 0x40 | pair.aead_id as u8);

        let (enc_request, client_response) = client.encapsulate(&mut rng, &request).unwrap();
        let (opened, server_response) = server.decapsulate(&enc_request).unwrap();
        assert_eq!(opened, request, "kem {kem:#06x} {pair:?}");
        let enc_response = server_response.encapsulate(&response).unwrap();
        assert_eq!(
            client_response.decapsulate(&enc_response).unwrap(),
            response
        );

        // Our request changed in one byte is refused by the peer; its response changed in one
        // byte, by us.
        let (mut enc_request, _) = client.encapsulate(&mut rng, &request).unwrap();
        let last = enc_request.len() - 1;
        enc_request[last] ^= 1;
        assert!(server.decapsulate(&enc_request).is_err());
        let (enc_request, client_response) = client.encapsulate(&mut rng, &request).unwrap();
        let (_, server_response) = server.decapsulate(&enc_request).unwrap();
        let mut enc_response = server_response.encapsulate(&response).unwrap();
        enc_response[3] ^= 1;
        assert_eq!(
            client_response.decapsulate(&enc_response).unwrap_err(),
            Error::Decrypt
        );
    }
}
