//! An Oblivious HTTP gateway (RFC 9458) whose key lives in a PKCS#11 token:
//! `cargo run -p typed-hpke-pkcs11 --example ohttp_gateway`.
//!
//! The token is the one `$PKCS11_MODULE` (SoftHSM2's path by default) offers under the label
//! `$TOKEN_LABEL` (default `typed-hpke`), with the user PIN `$TOKEN_PIN` (default `1234`). With
//! SoftHSM2, make one in a directory of your own first:
//!
//! ```sh
//! export SOFTHSM2_CONF=$PWD/softhsm2.conf
//! mkdir -p tokens && echo "directories.tokendir = $PWD/tokens" > softhsm2.conf
//! softhsm2-util --init-token --free --label typed-hpke --so-pin 12345678 --pin 1234
//! ```
//!
//! The gateway makes a P-256 key pair on the token (sensitive, not extractable), publishes its
//! key configuration, and serves requests from a client that only has the configuration's
//! bytes: every decapsulation asks the token for `DH(skR, pkE)`. At the end it destroys the key.

use typed_hpke::kem::ExternalDh;
use typed_hpke_ohttp::{Client, Gateway, GatewayKey, KeyConfig, OsRng, SymmetricSuite};
use typed_hpke_pkcs11::Token;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let module = std::env::var("PKCS11_MODULE")
        .unwrap_or_else(|_| "/usr/lib/softhsm/libsofthsm2.so".to_owned());
    let label = std::env::var("TOKEN_LABEL").unwrap_or_else(|_| "typed-hpke".to_owned());
    let pin = std::env::var("TOKEN_PIN").unwrap_or_else(|_| "1234".to_owned());
    let token = Token::open(&module, &label, &pin)?;

    // DHKEM(P-256, HKDF-SHA256) on the token; HKDF-SHA256 with AES-128-GCM or ChaCha20-Poly1305.
    let key = token.generate_key(0x0010, "ohttp-gateway")?;
    let pairs = vec![SymmetricSuite::new(1, 1), SymmetricSuite::new(1, 3)];
    let gateway_key = GatewayKey::held(7, ExternalDh(key), pairs)?;
    let published = gateway_key.config().encode();
    let gateway = Gateway::new([gateway_key])?;
    println!(
        "key configuration: {} bytes, key in the token",
        published.len()
    );

    // A client anywhere, with the configuration it fetched.
    let client = Client::new(&KeyConfig::decode(&published)?)?;
    let mut rng = OsRng::default();
    for path in ["/", "/index.html", "/private"] {
        let request = format!("GET {path}");
        let (enc_request, pending) = client.encapsulate(&mut rng, request.as_bytes())?;
        // The gateway: the token decapsulates, typed-hpke does the rest.
        let (opened, responder) = gateway.decapsulate(&enc_request)?;
        assert_eq!(opened, request.as_bytes());
        let enc_response = responder.encapsulate(&mut rng, b"200 OK")?;
        assert_eq!(pending.decapsulate(&enc_response)?, b"200 OK");
        println!("served {path} with the token's key");
    }
    token.destroy_key("ohttp-gateway")?;
    println!("ok");
    Ok(())
}
