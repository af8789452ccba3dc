//! The Oblivious HTTP crate's network-facing parsers: a gateway's request, plain and chunked,
//! fed in pieces; key configurations and lists; a client's response, plain and chunked. Bad
//! bytes are errors. A real request or response with any byte changed is refused, and what a
//! client seals its gateway opens.

use std::sync::OnceLock;

use typed_hpke_ohttp::{Client, Gateway, GatewayKey, KeyConfig, SymmetricSuite};

use crate::Input;

/// A gateway holding keys of five KEMs (X25519, P-256, X-Wing, ML-KEM-768, MLKEM768-P256), each
/// offering four pairs, and a client of each key; made once per process.
fn fixture() -> &'static (Gateway, Vec<Client>) {
    static FIXTURE: OnceLock<(Gateway, Vec<Client>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let pairs = || {
            [(1, 1), (1, 3), (2, 2), (3, 3)]
                .map(|(kdf, aead)| SymmetricSuite::new(kdf, aead))
                .to_vec()
        };
        let keys: Vec<GatewayKey> = [0x0020, 0x0010, 0x647a, 0x0041, 0x0050]
            .into_iter()
            .enumerate()
            .map(|(i, kem)| {
                GatewayKey::derive(i as u8, kem, pairs(), &[i as u8; 32]).expect("fixed key")
            })
            .collect();
        let clients = keys
            .iter()
            .map(|k| Client::new(k.config()).expect("a listed pair"))
            .collect();
        (Gateway::new(keys).expect("distinct key ids"), clients)
    })
}

/// A generator seeded from the input, so a run is reproducible from its input alone.
fn rng(data: &[u8]) -> rand_chacha::ChaCha20Rng {
    use rand_chacha::rand_core::SeedableRng;
    rand_chacha::ChaCha20Rng::seed_from_u64(crate::seed_of(data))
}

/// `ohttp`: the first byte picks what the rest feeds.
pub fn ohttp(data: &[u8]) {
    let (gateway, clients) = fixture();
    let mut input = Input(data);
    let how = input.byte();
    let client = &clients[usize::from(input.byte()) % clients.len()];
    let mut rng = rng(data);
    match how % 5 {
        // Arbitrary bytes as a request.
        0 => {
            let _ = gateway.decapsulate(input.rest());
        }
        // Arbitrary bytes as a chunked request, given in pieces of an arbitrary size. The first
        // error is returned again by every later call, `response` and `finish` included.
        1 => {
            let split = usize::from(input.byte()).max(1);
            let mut decoder = gateway.decapsulate_chunked();
            let mut out = Vec::new();
            let mut failed = None;
            for piece in input.rest().chunks(split) {
                let r = decoder.push(piece, &mut out);
                match failed {
                    Some(e) => assert_eq!(r, Err(e), "a chunked request's error did not stick"),
                    None => failed = r.err(),
                }
            }
            if let Some(e) = failed {
                let len = out.len();
                assert_eq!(decoder.response(&mut rng).map(drop), Err(e));
                assert_eq!(decoder.finish(&mut out), Err(e));
                assert_eq!(out.len(), len, "plaintext after an error");
            } else {
                let _ = decoder.finish(&mut out);
            }
        }
        // Configurations: what decodes encodes back to the same bytes.
        2 => {
            let bytes = input.rest();
            if let Ok(config) = KeyConfig::decode(bytes) {
                assert_eq!(config.encode(), bytes);
            }
            let _ = KeyConfig::decode_list(bytes);
            let _ = Client::from_key_configs(bytes);
        }
        // A real request, changed by the input: refused unless unchanged; the response back.
        3 => {
            let body = input.slice();
            let mask = input.slice();
            let (mut request, client_response) =
                client.encapsulate(&mut rng, body).expect("encapsulate");
            let changed = mask
                .iter()
                .zip(request.iter_mut())
                .fold(false, |c, (m, b)| {
                    *b ^= m;
                    c | (*m != 0)
                });
            match gateway.decapsulate(&request) {
                Ok((opened, gateway_response)) => {
                    assert!(!changed, "a changed request opened");
                    assert_eq!(opened, body);
                    let mut response = gateway_response
                        .encapsulate(&mut rng, input.slice())
                        .expect("encapsulate the response");
                    let mask = input.rest();
                    let changed = mask
                        .iter()
                        .zip(response.iter_mut())
                        .fold(false, |c, (m, b)| {
                            *b ^= m;
                            c | (*m != 0)
                        });
                    assert_eq!(client_response.decapsulate(&response).is_ok(), !changed);
                }
                Err(e) => {
                    assert!(changed, "an unchanged request refused: {e}");
                    assert!(e.http_status().is_some());
                }
            }
        }
        // A real chunked request, then arbitrary bytes as its chunked response.
        _ => {
            let body = input.slice();
            let (mut wire, encoder, mut response) =
                client.encapsulate_chunked(&mut rng).expect("encapsulate");
            encoder.seal_final(body, &mut wire).expect("seal");
            let mut decoder = gateway.decapsulate_chunked();
            let mut opened = Vec::new();
            decoder.push(&wire, &mut opened).expect("push");
            decoder.finish(&mut opened).expect("finish");
            assert_eq!(opened, body);
            let mut out = Vec::new();
            let junk = input.rest();
            // Bytes the gateway did not seal never open as a whole response, and an error of
            // `push` is the one `finish` returns.
            match response.push(junk, &mut out) {
                Ok(()) => assert!(
                    response.finish(&mut out).is_err(),
                    "an arbitrary chunked response opened"
                ),
                Err(e) => {
                    assert_eq!(
                        response.push(junk, &mut out),
                        Err(e),
                        "a response's error did not stick"
                    );
                    assert_eq!(response.finish(&mut out), Err(e));
                }
            }
        }
    }
}
