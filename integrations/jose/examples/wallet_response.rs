//! An OpenID4VP 1.1 wallet encrypting its response to a verifier with JOSE-HPKE, and the
//! verifier decrypting it: integrated encryption (HPKE-0, P-256) to the verifier's JWK from its
//! client metadata, with the `session_info` of `direct_post.jwt` as the HPKE `info`.
//!
//! The `session_info` bytes are checked against the hex OpenID4VP publishes for its example
//! request; a response replayed into another session fails to decrypt.

use typed_hpke_jose::openid4vp::{session_info, session_info_dc_api};
use typed_hpke_jose::{Algorithm, Decryptor, Encryptor, Jwe, PrivateJwk, PublicJwk};

/// OpenID4VP 1.1, "Encryption using HPKE": the published example's `session_info`.
const PUBLISHED_DIRECT_POST: &str = "4f70656e49443456502d7369ff783530395f73616e5f646e733a6578616d706c652e636f6dff6578633767426b786a7831726463397564527276654b7653734a4971383061766c58654c48684777717441ff68747470733a2f2f6578616d706c652e636f6d2f726573706f6e7365";
const PUBLISHED_DC_API: &str = "4f70656e494434565044434150492d7369ff68747470733a2f2f6578616d706c652e636f6dff6578633767426b786a7831726463397564527276654b7653734a4971383061766c58654c48684777717441";

fn main() -> Result<(), typed_hpke_jose::Error> {
    let mut rng = typed_hpke_jose::OsRng::default();
    let (client_id, nonce, response_uri) = (
        "x509_san_dns:example.com",
        "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA",
        "https://example.com/response",
    );

    // The verifier: a P-256 key for HPKE-0, published in its client metadata's `jwks`.
    let verifier = PrivateJwk::generate(Algorithm::HPKE_0, &mut rng)?.with_kid("ac");
    let published_jwk = verifier.public_jwk().to_json()?;

    // Both sides compute the session_info from the request.
    let info = session_info(client_id, nonce, response_uri)?;
    assert_eq!(hex::encode(&info), PUBLISHED_DIRECT_POST);
    assert_eq!(
        hex::encode(session_info_dc_api("https://example.com", nonce)?),
        PUBLISHED_DC_API
    );

    // The wallet encrypts its response to the verifier's JWK.
    let verifier_jwk = PublicJwk::from_json(&published_jwk)?;
    let payload = br#"{"vp_token":{"example_credential_id":["eyJhb...YMetA"]}}"#;
    let response = Encryptor::integrated(Algorithm::HPKE_0, &verifier_jwk)?
        .info(&info)?
        .encrypt(&mut rng, payload)?
        .to_compact()?;
    println!("response={}...", &response[..60]);

    // The verifier decrypts it with the same session_info.
    let jwe = Jwe::parse(&response)?;
    assert_eq!(jwe.protected_header()["kid"], "ac");
    let plaintext = Decryptor::new(&verifier).info(&info).decrypt(&jwe)?;
    assert_eq!(plaintext, payload);
    println!("decrypted: {}", String::from_utf8_lossy(&plaintext));

    // The same response replayed into a session with another nonce fails closed.
    let other = session_info(client_id, "another-nonce", response_uri)?;
    assert_eq!(
        Decryptor::new(&verifier).info(&other).decrypt(&jwe),
        Err(typed_hpke_jose::Error::Decrypt)
    );
    println!("replayed into another session: refused");
    Ok(())
}
