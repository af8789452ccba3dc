//! Oblivious HTTP (RFC 9458) request and response encapsulation:
//! `cargo run --release --example ohttp`.
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
//! The HPKE half runs through a `SealingVisitor`, so the ids from the wire select the typed
//! `Hpke<K, F, A>` and the setup, seal and export share one context. The response AEAD is the
//! plain AEAD of the same suite (this example's gateway offers HKDF-SHA256 with AES-128-GCM or
//! ChaCha20-Poly1305).

use aes_gcm::aead::{Aead as _, KeyInit};
use hkdf::Hkdf;
use rand_core::Rng;
use sha2::Sha256;
use typed_hpke::aead::SealingAead;
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::Kem;
use typed_hpke::suite::{SealingVisitor, Suite};
use typed_hpke::{EncappedKey, Error, Hpke, OsRng, PrivateKey, PublicKey};
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

/// `max(Nn, Nk)` bytes exported for the response.
fn secret_len<A: SealingAead>() -> usize {
    A::Nk::USIZE.max(A::Nn::USIZE)
}

/// Client side: encapsulate a request, keep the exported response secret.
struct EncapsulateRequest<'a> {
    pk_r: &'a [u8],
    hdr: &'a [u8],
    request: &'a [u8],
}

type Encapsulated = Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error>;

impl SealingVisitor for EncapsulateRequest<'_> {
    type Output = Encapsulated;
    fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Encapsulated {
        let pk_r = PublicKey::<K>::from_bytes(self.pk_r)?;
        let (enc, mut ctx) = Hpke::<K, F, A>::setup_sender_base(
            &mut OsRng::default(),
            &pk_r,
            &request_info(self.hdr),
        )?;
        let ct = ctx.seal(b"", self.request)?;
        let mut secret = Zeroizing::new(vec![0u8; secret_len::<A>()]);
        ctx.export(RESPONSE_LABEL, &mut secret)?;
        Ok(([self.hdr, enc.as_bytes(), &ct].concat(), secret))
    }
}

/// Gateway side: decapsulate a request (after the header), export the response secret.
struct DecapsulateRequest<'a> {
    sk_r: &'a [u8],
    hdr: &'a [u8],
    body: &'a [u8],
}

type Decapsulated = Result<(Vec<u8>, Vec<u8>, Zeroizing<Vec<u8>>), Error>;

impl SealingVisitor for DecapsulateRequest<'_> {
    type Output = Decapsulated;
    fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Decapsulated {
        let n_enc = K::NEnc::USIZE;
        let (enc, ct) = self
            .body
            .split_at_checked(n_enc)
            .ok_or(Error::InvalidEncappedKey)?;
        let sk_r = PrivateKey::<K>::from_bytes(self.sk_r)?;
        let enc = EncappedKey::<K>::from_bytes(enc)?;
        let mut ctx = Hpke::<K, F, A>::setup_receiver_base(&enc, &sk_r, &request_info(self.hdr))?;
        let request = ctx.open(b"", ct)?;
        let mut secret = Zeroizing::new(vec![0u8; secret_len::<A>()]);
        ctx.export(RESPONSE_LABEL, &mut secret)?;
        Ok((request, enc.as_bytes().to_vec(), secret))
    }
}

/// The response key and nonce from the exported secret (HKDF-SHA256, the suites offered here).
fn response_keys(
    secret: &[u8],
    enc: &[u8],
    response_nonce: &[u8],
    nk: usize,
) -> (Zeroizing<Vec<u8>>, [u8; 12]) {
    let salt = [enc, response_nonce].concat();
    let hk = Hkdf::<Sha256>::new(Some(&salt), secret);
    let mut key = Zeroizing::new(vec![0u8; nk]);
    let mut nonce = [0u8; 12];
    hk.expand(b"key", &mut key).expect("short");
    hk.expand(b"nonce", &mut nonce).expect("short");
    (key, nonce)
}

fn response_aead(
    aead_id: u16,
    key: &[u8],
    nonce: &[u8; 12],
    data: &[u8],
    seal: bool,
) -> Result<Vec<u8>, Error> {
    let nonce = nonce.into();
    let out = match aead_id {
        0x0001 => {
            let c = aes_gcm::Aes128Gcm::new_from_slice(key).map_err(|_| Error::InvalidLength)?;
            if seal {
                c.encrypt(nonce, data)
            } else {
                c.decrypt(nonce, data)
            }
        }
        0x0003 => {
            let c = chacha20poly1305::ChaCha20Poly1305::new_from_slice(key)
                .map_err(|_| Error::InvalidLength)?;
            if seal {
                c.encrypt(nonce, data)
            } else {
                c.decrypt(nonce, data)
            }
        }
        _ => return Err(Error::UnsupportedSuite),
    };
    out.map_err(|_| if seal { Error::Seal } else { Error::Open })
}

fn nk(aead_id: u16) -> usize {
    if aead_id == 0x0001 { 16 } else { 32 }
}

fn main() -> Result<(), Error> {
    let mut rng = OsRng::default();
    // The gateway: DHKEM(X25519, HKDF-SHA256) with two AEADs, as in RFC 9458's example.
    let (sk, pk) = Suite::new(0x0020, 0x0001, 0x0001)?.generate_key_pair(&mut rng)?;
    let config = KeyConfig {
        key_id: 1,
        kem_id: 0x0020,
        public_key: pk,
        suites: vec![(0x0001, 0x0001), (0x0001, 0x0003)],
    };

    let requests = 200;
    let mut bytes_in = 0;
    for i in 0..requests {
        // Client: pick a suite from the key configuration, encapsulate.
        let (kdf_id, aead_id) = config.suites[i % config.suites.len()];
        let suite = Suite::new(config.kem_id, kdf_id, aead_id)?;
        let hdr = header(config.key_id, config.kem_id, kdf_id, aead_id);
        let request = format!("GET /resource/{i} HTTP/1.1").into_bytes();
        let (enc_request, client_secret) = suite.visit_sealing(EncapsulateRequest {
            pk_r: &config.public_key,
            hdr: &hdr,
            request: &request,
        })??;
        bytes_in += enc_request.len();

        // Gateway: read the header, rebuild the suite from its ids, decapsulate.
        let (hdr, body) = enc_request.split_at(7);
        assert_eq!(hdr[0], config.key_id);
        let ids = |o: usize| u16::from_be_bytes([hdr[o], hdr[o + 1]]);
        if !config.suites.contains(&(ids(3), ids(5))) {
            return Err(Error::UnsupportedSuite);
        }
        let gateway_suite = Suite::new(ids(1), ids(3), ids(5))?;
        let (got, enc, secret) = gateway_suite.visit_sealing(DecapsulateRequest {
            sk_r: &sk,
            hdr,
            body,
        })??;
        assert_eq!(got, request);

        // Gateway: encrypt the response under the exported secret.
        let response = format!("HTTP/1.1 200 OK\r\n\r\nbody of resource {i}").into_bytes();
        let mut response_nonce = vec![0u8; nk(aead_id).max(12)];
        rng.fill_bytes(&mut response_nonce);
        let (key, nonce) = response_keys(&secret, &enc, &response_nonce, nk(aead_id));
        let enc_response = [
            response_nonce.clone(),
            response_aead(aead_id, &key, &nonce, &response, true)?,
        ]
        .concat();

        // Client: the same keys from its own export.
        let (nonce_part, ct) = enc_response.split_at(response_nonce.len());
        let enc_len = suite.lengths().enc;
        let (key, nonce) = response_keys(
            &client_secret,
            &enc_request[7..7 + enc_len],
            nonce_part,
            nk(aead_id),
        );
        assert_eq!(response_aead(aead_id, &key, &nonce, ct, false)?, response);
    }
    println!(
        "{requests} requests encapsulated, decapsulated and answered; both AEADs of the key \
         configuration used; {} bytes of encapsulated requests",
        bytes_in
    );
    println!("ok");
    Ok(())
}
