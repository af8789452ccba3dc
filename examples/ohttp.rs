//! Oblivious HTTP (RFC 9458) request and response encapsulation:
//! `cargo run --release --example ohttp`.
//!
//! This example writes the protocol out on the runtime API, to show how a protocol sits on
//! it. To build a client or a gateway, depend on `typed-hpke-ohttp` (`integrations/ohttp/`):
//! key configurations and lists, several gateway keys at once, chunked messages, typed errors
//! with their HTTP status, tested against RFC 9458 Appendix A and the `ohttp` crate.
//!
//! The gateway publishes one key configuration (key id, KEM id, public key, and the (KDF, AEAD)
//! pairs it accepts). For each request the client picks a pair, builds the header
//! `key_id || kem_id || kdf_id || aead_id`, and encapsulates (RFC 9458 §4.3):
//!
//! ```text
//! info = "message/bhttp request" || 0x00 || hdr
//! enc, sctxt = SetupBaseS(pkR, info)
//! enc_request = hdr || enc || sctxt.Seal("", request)
//! ```
//!
//! The response (§4.4) is keyed from the same context's exporter:
//!
//! ```text
//! secret = context.Export("message/bhttp response", max(Nn, Nk))
//! salt = enc || response_nonce;  prk = Extract(salt, secret)
//! key = Expand(prk, "key", Nk);  nonce = Expand(prk, "nonce", Nn)
//! enc_response = response_nonce || Seal(key, nonce, "", response)
//! ```
//!
//! The suite comes off the wire, so the HPKE half runs on the runtime API: `Suite::new` from
//! the header's ids, keys parsed once per key configuration (`suite::PublicKey` on the client,
//! `suite::PrivateKey` on the gateway: an X-Wing key is expanded once, not per request), and
//! one runtime context per request for the seal and the export. The response half runs on
//! typed-hpke's symmetric surface: `suite::Prk` for `Extract` and `Expand`, `suite::Sealer` and
//! `suite::Opener` for the AEAD, chosen by the suite's ids, so no KDF or AEAD crate is used
//! here. The gateway publishes two key configurations, DHKEM(X25519, HKDF-SHA256) and X-Wing,
//! each with HKDF-SHA256 and AES-128-GCM or ChaCha20-Poly1305.

use rand_core::Rng;
use typed_hpke::suite::{self, AnyKem, ReceiverMode, SenderMode, Suite};
use typed_hpke::{Error, OsRng};
use zeroize::Zeroizing;

const REQUEST_LABEL: &[u8] = b"message/bhttp request";
const RESPONSE_LABEL: &[u8] = b"message/bhttp response";

/// The gateway's key configuration (RFC 9458 §3).
struct KeyConfig {
    key_id: u8,
    kem_id: u16,
    public_key: Vec<u8>,
    suites: Vec<(u16, u16)>,
}

fn header(key_id: u8, kem_id: u16, kdf_id: u16, aead_id: u16) -> Vec<u8> {
    let mut hdr = vec![key_id];
    for id in [kem_id, kdf_id, aead_id] {
        hdr.extend_from_slice(&id.to_be_bytes());
    }
    hdr
}

fn request_info(hdr: &[u8]) -> Vec<u8> {
    [REQUEST_LABEL, &[0], hdr].concat()
}

/// Client side: encapsulate a request to the configuration's (parsed and prepared) key, keep the
/// exported response secret.
fn encapsulate_request(
    suite: &Suite,
    pk_r: &suite::PublicKey,
    hdr: &[u8],
    request: &[u8],
) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error> {
    let info = request_info(hdr);
    let (enc, mut ctx) =
        suite.setup_sender(&mut OsRng::default(), pk_r, &info, SenderMode::Base)?;
    let ct = ctx.seal(b"", request)?;
    let mut secret = Zeroizing::new(vec![0u8; secret_len(suite)]);
    ctx.export(RESPONSE_LABEL, &mut secret)?;
    Ok(([hdr, enc.as_bytes(), &ct].concat(), secret))
}

/// The request, its `enc`, and the response secret.
type Decapsulated<'b> = (Vec<u8>, &'b [u8], Zeroizing<Vec<u8>>);

/// Gateway side: decapsulate a request (after the header) with the configuration's parsed
/// private key, export the response secret.
fn decapsulate_request<'b>(
    suite: &Suite,
    sk_r: &suite::PrivateKey,
    hdr: &[u8],
    body: &'b [u8],
) -> Result<Decapsulated<'b>, Error> {
    let (enc, ct) = body
        .split_at_checked(suite.lengths().enc)
        .ok_or(Error::InvalidEncappedKey)?;
    let mut ctx = suite.setup_receiver(enc, sk_r, &request_info(hdr), ReceiverMode::Base)?;
    let request = ctx.open(b"", ct)?;
    let mut secret = Zeroizing::new(vec![0u8; secret_len(suite)]);
    ctx.export(RESPONSE_LABEL, &mut secret)?;
    Ok((request, enc, secret))
}

/// `max(Nn, Nk)`: the length of the exported secret and of the response nonce.
fn secret_len(suite: &Suite) -> usize {
    let lengths = suite.lengths();
    lengths.aead_key.max(lengths.aead_nonce)
}

/// `prk = Extract(concat(enc, response_nonce), secret)` with the suite's KDF (§4.4). The
/// response's key and nonce are expanded from it inside typed-hpke (`Sealer::from_prk`,
/// `Opener::from_prk`), so they never sit in this program's memory; the AEAD is the suite's,
/// on whichever backend typed-hpke uses.
fn response_prk(
    suite: &Suite,
    secret: &[u8],
    enc: &[u8],
    response_nonce: &[u8],
) -> Result<suite::Prk, Error> {
    suite::Prk::extract(suite.kdf_id(), &[enc, response_nonce].concat(), &[secret])
}

fn main() -> Result<(), Error> {
    let mut rng = OsRng::default();
    // The gateway: one key configuration per KEM, each offering two (KDF, AEAD) pairs. It
    // parses (and for X-Wing, expands) each private key once, at start-up.
    let offered = vec![(0x0001, 0x0001), (0x0001, 0x0003)];
    let mut gateway = Vec::new();
    let mut configs = Vec::new();
    for (key_id, kem_id) in [(1u8, 0x0020u16), (2, 0x647a)] {
        let (sk, pk) = AnyKem::new(kem_id)?.generate_key_pair(&mut rng)?;
        gateway.push((key_id, sk));
        configs.push(KeyConfig {
            key_id,
            kem_id,
            public_key: pk.as_bytes().to_vec(),
            suites: offered.clone(),
        });
    }

    // The client fetches the configurations, parses each public key once and prepares it:
    // every request encapsulates to the same key, so the table built here (about a millisecond
    // for X25519 and X-Wing's X25519 half) pays for itself within a few dozen requests.
    let client_keys = configs
        .iter()
        .map(|c| {
            let mut pk = AnyKem::new(c.kem_id)?.public_key_from_bytes(&c.public_key)?;
            pk.prepare();
            Ok(pk)
        })
        .collect::<Result<Vec<_>, Error>>()?;

    let requests = 200;
    let mut bytes_in = 0;
    for i in 0..requests {
        // Client: pick a configuration and a suite from it, encapsulate.
        let which = i % configs.len();
        let config = &configs[which];
        let (kdf_id, aead_id) = config.suites[(i / configs.len()) % config.suites.len()];
        let suite = Suite::new(config.kem_id, kdf_id, aead_id)?;
        let hdr = header(config.key_id, config.kem_id, kdf_id, aead_id);
        let request = format!("GET /resource/{i} HTTP/1.1").into_bytes();
        let (enc_request, client_secret) =
            encapsulate_request(&suite, &client_keys[which], &hdr, &request)?;
        bytes_in += enc_request.len();

        // Gateway: read the header, find the key, rebuild the suite from its ids, decapsulate.
        let (hdr, body) = enc_request
            .split_at_checked(7)
            .ok_or(Error::InvalidLength)?;
        let ids = |o: usize| u16::from_be_bytes([hdr[o], hdr[o + 1]]);
        let (_, sk) = gateway
            .iter()
            .find(|(key_id, _)| *key_id == hdr[0])
            .ok_or(Error::UnsupportedSuite)?;
        if !offered.contains(&(ids(3), ids(5))) || sk.kem_id() != ids(1) {
            return Err(Error::UnsupportedSuite);
        }
        let gateway_suite = Suite::new(ids(1), ids(3), ids(5))?;
        let (got, enc, secret) = decapsulate_request(&gateway_suite, sk, hdr, body)?;
        assert_eq!(got, request);

        // Gateway: encrypt the response under the exported secret.
        let response = format!("HTTP/1.1 200 OK\r\n\r\nbody of resource {i}").into_bytes();
        let mut response_nonce = vec![0u8; secret_len(&gateway_suite)];
        rng.fill_bytes(&mut response_nonce);
        let prk = response_prk(&gateway_suite, &secret, enc, &response_nonce)?;
        let mut sealer = suite::Sealer::from_prk(aead_id, prk, b"key", b"nonce")?;
        let enc_response = [response_nonce.clone(), sealer.seal(b"", &response)?].concat();

        // Client: the same keys from its own export.
        let (nonce_part, ct) = enc_response.split_at(response_nonce.len());
        let enc_len = suite.lengths().enc;
        let enc = &enc_request[7..7 + enc_len];
        let prk = response_prk(&suite, &client_secret, enc, nonce_part)?;
        let mut opener = suite::Opener::from_prk(aead_id, &prk, b"key", b"nonce")?;
        assert_eq!(opener.open(b"", ct)?, response);
    }
    println!(
        "{requests} requests encapsulated, decapsulated and answered over two key \
         configurations (X25519, X-Wing) and both AEADs of each; {bytes_in} bytes of \
         encapsulated requests"
    );
    println!("ok");
    Ok(())
}
