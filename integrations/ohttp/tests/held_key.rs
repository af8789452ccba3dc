//! A gateway whose key is held outside the process (`GatewayKey::held`): an X25519 key whose
//! holder computes `DH(skR, pkE)` with x25519-dalek, and an ML-KEM-768 key whose holder
//! decapsulates. Requests from this crate's client, whole and chunked, open as with the key in
//! process; a holder that fails is `Error::KeyHolder` (500), a request not for the key
//! `Error::Decrypt` (400).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use typed_hpke::kem::{EncappedKey, ExternalDecap, ExternalDh, Kem, MlKem768};
use typed_hpke::suite::{AnyKem, DecapHolder, DhHolder, PublicKey};
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, OsRng, SymmetricSuite};

/// An X25519 key in a "token": x25519-dalek computes with it; it can be unplugged.
struct Token {
    secret: x25519_dalek::StaticSecret,
    public: PublicKey,
    unplugged: AtomicBool,
    asked: AtomicUsize,
}

#[derive(Debug)]
struct Unplugged;

impl std::fmt::Display for Unplugged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the token is gone")
    }
}

impl std::error::Error for Unplugged {}

impl DhHolder for Token {
    type Error = Unplugged;
    fn public_key(&self) -> &PublicKey {
        &self.public
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Unplugged> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        if self.unplugged.load(Ordering::Relaxed) {
            return Err(Unplugged);
        }
        let peer = <[u8; 32]>::try_from(peer).map_err(|_| Unplugged)?;
        out.copy_from_slice(self.secret.diffie_hellman(&peer.into()).as_bytes());
        Ok(())
    }
}

fn token() -> std::sync::Arc<Token> {
    token_at(42)
}

fn token_at(seed: u8) -> std::sync::Arc<Token> {
    let secret = x25519_dalek::StaticSecret::from([seed; 32]);
    let public = AnyKem::new(0x0020)
        .unwrap()
        .public_key_from_bytes(x25519_dalek::PublicKey::from(&secret).as_bytes())
        .unwrap();
    std::sync::Arc::new(Token {
        secret,
        public,
        unplugged: AtomicBool::new(false),
        asked: AtomicUsize::new(0),
    })
}

fn pairs() -> Vec<SymmetricSuite> {
    vec![SymmetricSuite::new(1, 1), SymmetricSuite::new(1, 3)]
}

/// One request and response through `gateway`, whole and chunked.
fn exchange(client: &Client, gateway: &Gateway) -> Result<(), Error> {
    let mut rng = OsRng::default();
    let (enc_request, client_response) = client.encapsulate(&mut rng, b"GET /held")?;
    let (request, gateway_response) = gateway.decapsulate(&enc_request)?;
    assert_eq!(request, b"GET /held");
    let enc_response = gateway_response.encapsulate(&mut rng, b"200 from a held key")?;
    assert_eq!(
        client_response.decapsulate(&enc_response)?,
        b"200 from a held key"
    );
    let (mut wire, encoder, _) = client.encapsulate_chunked(&mut rng)?;
    encoder.seal_final(b"chunked", &mut wire)?;
    let mut decoder = gateway.decapsulate_chunked();
    let mut out = Vec::new();
    decoder.push(&wire, &mut out)?;
    decoder.finish(&mut out)?;
    assert_eq!(out, b"chunked");
    Ok(())
}

#[test]
fn a_gateway_serves_a_key_in_a_token() {
    let token = token();
    let key = GatewayKey::held(9, ExternalDh(token.clone()), pairs()).unwrap();
    assert!(key.private_key().is_none());
    // The same key in process publishes the same configuration.
    let local = GatewayKey::from_bytes(9, 0x0020, &[42; 32], pairs()).unwrap();
    assert_eq!(key.config(), local.config());
    let gateway = Gateway::new([key.clone()]).unwrap();
    for pair in pairs() {
        let client = Client::with_symmetric(key.config(), pair).unwrap();
        exchange(&client, &gateway).unwrap();
        // And a request the in-process gateway opens, the held one opens too.
        exchange(&client, &Gateway::new([local.clone()]).unwrap()).unwrap();
    }
    assert_eq!(token.asked.load(Ordering::Relaxed), 4);

    // A request for another key of the same id: Decrypt (400), not the holder's fault.
    let other = GatewayKey::generate(9, 0x0020, pairs(), &mut OsRng::default()).unwrap();
    let client = Client::new(other.config()).unwrap();
    let err = exchange(&client, &gateway).unwrap_err();
    assert_eq!((err, err.http_status()), (Error::Decrypt, Some(400)));

    // The token is unplugged: KeyHolder (500), whole and chunked.
    token.unplugged.store(true, Ordering::Relaxed);
    let client = Client::new(key.config()).unwrap();
    let err = exchange(&client, &gateway).unwrap_err();
    assert_eq!((err, err.http_status()), (Error::KeyHolder, Some(500)));
    let (mut wire, encoder, _) = client.encapsulate_chunked(&mut OsRng::default()).unwrap();
    encoder.seal_final(b"x", &mut wire).unwrap();
    let mut out = Vec::new();
    assert_eq!(
        gateway.decapsulate_chunked().push(&wire, &mut out),
        Err(Error::KeyHolder)
    );
}

/// An ML-KEM-768 key whose holder decapsulates (here with the key in process).
struct PqHolder(typed_hpke::PrivateKey<MlKem768>, PublicKey);

impl DecapHolder for PqHolder {
    type Error = &'static str;
    fn public_key(&self) -> &PublicKey {
        &self.1
    }
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
        let enc = EncappedKey::<MlKem768>::from_bytes(enc).map_err(|_| "enc")?;
        let secret = MlKem768::decap(&enc, &self.0).map_err(|_| "decap")?;
        out.copy_from_slice(secret.as_bytes());
        Ok(())
    }
}

#[test]
fn a_post_quantum_key_held_elsewhere() {
    let (sk, pk) = MlKem768::generate(&mut OsRng::default()).unwrap();
    let holder = PqHolder(sk, pk.into());
    let key = GatewayKey::held(3, ExternalDecap(holder), pairs()).unwrap();
    let gateway = Gateway::new([key.clone()]).unwrap();
    assert_eq!(key.config().kem_id(), MlKem768::ID);
    exchange(&Client::new(key.config()).unwrap(), &gateway).unwrap();
}

/// An async gateway: the request's `enc` first, the holder's answers awaited (here computed at
/// once), then `decapsulate_with` over `suite::Answers`. A key of another configuration and a
/// missing answer are refused.
#[test]
fn the_two_steps_of_an_async_gateway() {
    use typed_hpke::suite::{Answers, ReceiverMode};
    let token = token();
    let key = GatewayKey::held(9, ExternalDh(token.clone()), pairs()).unwrap();
    let gateway = Gateway::new([key.clone()]).unwrap();
    let client = Client::new(key.config()).unwrap();
    let mut rng = OsRng::default();
    let (enc_request, pending) = client.encapsulate(&mut rng, b"GET /async").unwrap();
    let (gateway_key, suite, enc) = gateway.request_enc(&enc_request).unwrap();
    assert_eq!(gateway_key.config(), key.config());
    let mut answers = Answers::new(gateway_key.config().public_key().clone());
    let asked = token.asked.load(Ordering::Relaxed);
    for peer in suite.dh_peers(enc, ReceiverMode::Base).unwrap() {
        let mut dh = [0u8; 32];
        DhHolder::dh(&*token, peer, &mut dh).unwrap(); // an `.await` on a KMS
        answers.answer(peer, &dh);
    }
    let (request, responder) = gateway
        .decapsulate_with(&enc_request, &ExternalDh(&answers))
        .unwrap();
    assert_eq!(request, b"GET /async");
    // The token was asked once, by the loop above; the gateway only looked the answer up.
    assert_eq!(token.asked.load(Ordering::Relaxed), asked + 1);
    let response = responder.encapsulate(&mut rng, b"200").unwrap();
    assert_eq!(pending.decapsulate(&response).unwrap(), b"200");

    // No answer for this request's `enc`; another configuration's key.
    let empty = Answers::new(key.config().public_key().clone());
    assert_eq!(
        gateway
            .decapsulate_with(&enc_request, &ExternalDh(&empty))
            .unwrap_err(),
        Error::KeyHolder
    );
    let other = Answers::new(token_at(7).public.clone());
    assert_eq!(
        gateway
            .decapsulate_with(&enc_request, &ExternalDh(&other))
            .unwrap_err(),
        Error::InvalidKey
    );
}
