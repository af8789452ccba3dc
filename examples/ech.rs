//! TLS Encrypted Client Hello (RFC 9849), the HPKE part: `cargo run --release --example ech`.
//!
//! A server publishes ECH configs: a config id, a KEM id, a public key and the (KDF, AEAD)
//! pairs it accepts. A client reads them at run time, picks the first config and cipher suite
//! it supports, and seals its ClientHelloInner with `info = "tls ech" || 0x00 || ECHConfig` and
//! the ClientHelloOuter as associated data. The server finds the config by id, rebuilds the
//! suite from the ids in the client's extension, and opens it. Nothing here names a KEM type:
//! the ids on the wire pick the suite through `typed_hpke::suite::Suite`, and the runtime
//! contexts carry it.
//!
//! ECH keeps the HPKE context past the first flight: after a HelloRetryRequest the client
//! seals its second ClientHelloInner with the same context (RFC 9849 §6.1.5), and sends no
//! `enc` the second time; the server opens it with the context it kept (§7.1.1). So the
//! client holds a `suite::SenderContext` and the server a `suite::ReceiverContext` across the
//! retry. The server parses each config's private key once (`suite::PrivateKey`).
//!
//! A rustls client does the client's half itself: give it `typed_hpke_rustls::
//! ALL_SUPPORTED_SUITES` (`integrations/rustls`), whose tests run a real rustls client against
//! a server doing what this example's server does.

use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{Error, OsRng};

/// One ECHConfig (version 0xfe0d) and the server's private key for it.
struct ServerConfig {
    config_id: u8,
    kem_id: u16,
    public_key: Vec<u8>,
    cipher_suites: Vec<(u16, u16)>,
    private_key: suite::PrivateKey,
}

impl ServerConfig {
    fn new(config_id: u8, kem_id: u16, cipher_suites: Vec<(u16, u16)>) -> Result<Self, Error> {
        // Any of the offered suites makes the key: the key depends on the KEM only.
        let (kdf, aead) = cipher_suites[0];
        let (private_key, public_key) =
            Suite::new(kem_id, kdf, aead)?.generate_key_pair(&mut OsRng::default())?;
        Ok(Self {
            config_id,
            kem_id,
            public_key: public_key.as_bytes().to_vec(),
            cipher_suites,
            private_key,
        })
    }

    /// The ECHConfig wire encoding (RFC 9849 §4), public name "public.example".
    fn encode(&self) -> Vec<u8> {
        let mut c = vec![self.config_id];
        c.extend_from_slice(&self.kem_id.to_be_bytes());
        c.extend_from_slice(&(self.public_key.len() as u16).to_be_bytes());
        c.extend_from_slice(&self.public_key);
        c.extend_from_slice(&((self.cipher_suites.len() * 4) as u16).to_be_bytes());
        for (kdf, aead) in &self.cipher_suites {
            c.extend_from_slice(&kdf.to_be_bytes());
            c.extend_from_slice(&aead.to_be_bytes());
        }
        c.push(0); // maximum_name_length
        let name = b"public.example";
        c.push(name.len() as u8);
        c.extend_from_slice(name);
        c.extend_from_slice(&0u16.to_be_bytes()); // no extensions
        let mut config = 0xfe0du16.to_be_bytes().to_vec();
        config.extend_from_slice(&(c.len() as u16).to_be_bytes());
        config.extend_from_slice(&c);
        config
    }
}

/// An ECHConfig as a client sees it: the fields it reads, and the encoding it binds to.
struct PublishedConfig {
    config_id: u8,
    kem_id: u16,
    cipher_suites: Vec<(u16, u16)>,
    encoded: Vec<u8>,
    /// The key parsed and prepared once, when the config was fetched (`None` if it does not
    /// parse for this client: such a config is skipped, as one with an unknown suite is).
    prepared_key: Option<suite::PublicKey>,
}

/// A client keeps the configs it fetched and connects again and again: it parses and prepares
/// each config's key once, so that every ClientHello encapsulates through the key's
/// precomputed table. The key depends on the KEM only, so any KDF and AEAD id parses it.
fn prepare(kem_id: u16, public_key: &[u8]) -> Option<suite::PublicKey> {
    let mut pk = Suite::new(kem_id, 0x0001, 0x0001)
        .and_then(|s| s.public_key_from_bytes(public_key))
        .ok()?;
    pk.prepare();
    Some(pk)
}

/// What a client sends in its outer "encrypted_client_hello" extension. `enc` is empty in
/// the second ClientHello after a HelloRetryRequest.
struct EchExtension {
    kdf_id: u16,
    aead_id: u16,
    config_id: u8,
    enc: Vec<u8>,
    payload: Vec<u8>,
}

fn info(config: &[u8]) -> Vec<u8> {
    let mut info = b"tls ech\0".to_vec();
    info.extend_from_slice(config);
    info
}

/// The client: the first (config, suite) it supports, in the server's order. It keeps the
/// context for a possible second ClientHello.
fn client_hello(
    configs: &[PublishedConfig],
    supports_kem: impl Fn(u16) -> bool,
    inner: &[u8],
    outer_aad: &[u8],
) -> Result<(EchExtension, suite::SenderContext), Error> {
    for config in configs {
        let (config_id, kem_id) = (config.config_id, config.kem_id);
        if !supports_kem(kem_id) {
            continue;
        }
        for &(kdf_id, aead_id) in &config.cipher_suites {
            let Ok(suite) = Suite::new(kem_id, kdf_id, aead_id) else {
                continue;
            };
            let Some(pk) = &config.prepared_key else {
                continue;
            };
            let (enc, mut ctx) = suite.setup_sender(
                &mut OsRng::default(),
                pk,
                &info(&config.encoded),
                SenderMode::Base,
            )?;
            let payload = ctx.seal(outer_aad, inner)?;
            println!(
                "client: config {config_id}, suite kem {kem_id:#06x} kdf {kdf_id:#06x} aead {aead_id:#06x}: enc {} bytes, payload {} bytes",
                enc.as_bytes().len(),
                payload.len()
            );
            let ext = EchExtension {
                kdf_id,
                aead_id,
                config_id,
                enc: enc.as_bytes().to_vec(),
                payload,
            };
            return Ok((ext, ctx));
        }
    }
    Err(Error::UnsupportedSuite)
}

/// The second ClientHello after a HelloRetryRequest: same context, no `enc`.
fn client_hello_after_retry(
    first: &EchExtension,
    ctx: &mut suite::SenderContext,
    inner: &[u8],
    outer_aad: &[u8],
) -> Result<EchExtension, Error> {
    Ok(EchExtension {
        kdf_id: first.kdf_id,
        aead_id: first.aead_id,
        config_id: first.config_id,
        enc: Vec::new(),
        payload: ctx.seal(outer_aad, inner)?,
    })
}

/// The server: find the config, check the suite is one it offered, set up the context and
/// open. The context is returned for the second ClientHello.
fn server_accept(
    configs: &[ServerConfig],
    ext: &EchExtension,
    outer_aad: &[u8],
) -> Result<(Vec<u8>, suite::ReceiverContext), Error> {
    let config = configs
        .iter()
        .find(|c| c.config_id == ext.config_id)
        .ok_or(Error::UnsupportedSuite)?;
    if !config.cipher_suites.contains(&(ext.kdf_id, ext.aead_id)) {
        return Err(Error::UnsupportedSuite);
    }
    let suite = Suite::new(config.kem_id, ext.kdf_id, ext.aead_id)?;
    let mut ctx = suite.setup_receiver(
        &ext.enc,
        &config.private_key,
        &info(&config.encode()),
        ReceiverMode::Base,
    )?;
    let inner = ctx.open(outer_aad, &ext.payload)?;
    Ok((inner, ctx))
}

/// The server after its HelloRetryRequest: the suite must not change, `enc` must be empty,
/// and the kept context opens the payload.
fn server_accept_after_retry(
    first: &EchExtension,
    ctx: &mut suite::ReceiverContext,
    ext: &EchExtension,
    outer_aad: &[u8],
) -> Result<Vec<u8>, Error> {
    let same =
        (ext.config_id, ext.kdf_id, ext.aead_id) == (first.config_id, first.kdf_id, first.aead_id);
    if !same || !ext.enc.is_empty() {
        return Err(Error::UnsupportedSuite);
    }
    ctx.open(outer_aad, &ext.payload)
}

fn main() -> Result<(), Error> {
    // X-Wing first for clients that have it, X25519 for the rest.
    let server = vec![
        ServerConfig::new(7, 0x647a, vec![(0x0001, 0x0001), (0x0001, 0x0003)])?,
        ServerConfig::new(8, 0x0020, vec![(0x0001, 0x0001), (0x0001, 0x0003)])?,
    ];
    // What the client fetched from DNS: the configs as the server encoded them.
    let published: Vec<_> = server
        .iter()
        .map(|c| PublishedConfig {
            config_id: c.config_id,
            kem_id: c.kem_id,
            cipher_suites: c.cipher_suites.clone(),
            encoded: c.encode(),
            prepared_key: prepare(c.kem_id, &c.public_key),
        })
        .collect();
    println!(
        "server publishes {} ECH configs ({} and {} bytes)",
        published.len(),
        published[0].encoded.len(),
        published[1].encoded.len()
    );

    let inner = b"ClientHelloInner: server_name=secret.example, alpn=h2";
    let outer_aad = b"ClientHelloOuterAAD: server_name=public.example";

    // A post-quantum-capable client, and one that only has classical KEMs.
    for (who, supports) in [
        ("pq client", (|_| true) as fn(u16) -> bool),
        ("classical client", |k| k != 0x647a),
    ] {
        let (ext, mut client_ctx) = client_hello(&published, supports, inner, outer_aad)?;
        // The outer hello is authenticated: changing it makes the inner one unreadable.
        assert_eq!(
            server_accept(&server, &ext, b"tampered outer").unwrap_err(),
            Error::Open
        );
        let (opened, mut server_ctx) = server_accept(&server, &ext, outer_aad)?;
        assert_eq!(opened, inner);
        println!(
            "server ({who}): opened the ClientHelloInner with config {}",
            ext.config_id
        );

        // The server answers with a HelloRetryRequest; both sides keep their contexts.
        let inner2 = b"ClientHelloInner 2: server_name=secret.example, key_share=x25519";
        let outer_aad2 = b"ClientHelloOuterAAD 2: server_name=public.example";
        let ext2 = client_hello_after_retry(&ext, &mut client_ctx, inner2, outer_aad2)?;
        let opened2 = server_accept_after_retry(&ext, &mut server_ctx, &ext2, outer_aad2)?;
        assert_eq!(opened2, inner2);
        assert_eq!(
            (client_ctx.sequence_number(), server_ctx.sequence_number()),
            (2, 2)
        );
        println!("server ({who}): opened the second ClientHelloInner after HelloRetryRequest");
    }
    println!("ok");
    Ok(())
}
