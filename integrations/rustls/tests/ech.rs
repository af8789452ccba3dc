//! End to end: a real rustls client offers Encrypted Client Hello over loopback with this
//! provider's HPKE; a test server (rustls has no ECH server) reads the ClientHelloOuter off the
//! socket, rebuilds ClientHelloOuterAAD and opens the inner hello with typed-hpke. RFC 9849
//! (TLS Encrypted Client Hello) §4 (ECHConfig), §5 (the extension, EncodedClientHelloInner),
//! §5.2 (ClientHelloOuterAAD), §6.1 (`info`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;

use rustls::client::{EchConfig, EchMode, EchStatus};
use rustls::crypto::aws_lc_rs;
use rustls::crypto::hpke::{Hpke, HpkePrivateKey};
use rustls::pki_types::{EchConfigListBytes, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore};
use typed_hpke::suite::{ReceiverMode, Suite};
use typed_hpke_rustls::{
    ALL_SUPPORTED_SUITES, DH_KEM_X25519_HKDF_SHA256_AES_128, TypedHpke,
    X_WING_HKDF_SHA256_CHACHA20_POLY1305,
};

const PUBLIC_NAME: &str = "public.example";
const SECRET_NAME: &str = "secret.example";
const ENCRYPTED_CLIENT_HELLO: u16 = 0xfe0d;
const SERVER_NAME: u16 = 0x0000;

/// The server's side of one ECHConfig: the config's bytes and the private key.
struct ServerConfig {
    config_id: u8,
    suite: Suite,
    ech_config: Vec<u8>,
    sk: HpkePrivateKey,
}

fn u16_prefixed(out: &mut Vec<u8>, body: &[u8]) {
    out.extend_from_slice(&u16::try_from(body.len()).unwrap().to_be_bytes());
    out.extend_from_slice(body);
}

/// ECHConfig (RFC 9849 §4), version 0xfe0d, with one symmetric suite and no extensions.
fn ech_config(config_id: u8, hpke: &TypedHpke, public_key: &[u8]) -> Vec<u8> {
    let s = hpke.typed_suite();
    let mut contents = vec![config_id];
    contents.extend_from_slice(&s.kem_id().to_be_bytes());
    u16_prefixed(&mut contents, public_key);
    let cipher_suites = [s.kdf_id().to_be_bytes(), s.aead_id().to_be_bytes()].concat();
    u16_prefixed(&mut contents, &cipher_suites);
    contents.push(0); // maximum_name_length
    contents.push(PUBLIC_NAME.len() as u8);
    contents.extend_from_slice(PUBLIC_NAME.as_bytes());
    u16_prefixed(&mut contents, &[]); // extensions
    let mut config = ENCRYPTED_CLIENT_HELLO.to_be_bytes().to_vec();
    u16_prefixed(&mut config, &contents);
    config
}

fn server_config(config_id: u8, hpke: &'static TypedHpke) -> ServerConfig {
    let (pk, sk) = hpke.generate_key_pair().unwrap();
    ServerConfig {
        config_id,
        suite: hpke.typed_suite(),
        ech_config: ech_config(config_id, hpke, &pk.0),
        sk,
    }
}

fn config_list(configs: &[&[u8]]) -> Vec<u8> {
    let mut list = Vec::new();
    u16_prefixed(&mut list, &configs.concat());
    list
}

/// A bounds-checked reader over peer bytes: every short read is an error.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("{n} bytes past the end at {}", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn vec8(&mut self) -> Result<&'a [u8], String> {
        let n = self.u8()?;
        self.take(n.into())
    }
    fn vec16(&mut self) -> Result<&'a [u8], String> {
        let n = self.u16()?;
        self.take(n.into())
    }
}

/// One extension of a ClientHello body: its type, and its data's offset and length in `body`.
struct Extension {
    typ: u16,
    start: usize,
    len: usize,
}

/// The extensions of a ClientHello body (RFC 8446 §4.1.2), and where their list ends.
fn client_hello_extensions(body: &[u8]) -> Result<(Vec<Extension>, usize), String> {
    let mut r = Reader::new(body);
    r.take(2 + 32)?; // legacy_version, random
    r.vec8()?; // legacy_session_id
    r.vec16()?; // cipher_suites
    r.vec8()?; // legacy_compression_methods
    let len = usize::from(r.u16()?);
    let end = r.at + len;
    let mut out = Vec::new();
    while r.at < end {
        let typ = r.u16()?;
        let data = r.vec16()?;
        out.push(Extension {
            typ,
            start: r.at - data.len(),
            len: data.len(),
        });
    }
    Ok((out, end))
}

fn extension(body: &[u8], typ: u16) -> Result<Option<&[u8]>, String> {
    let (exts, _) = client_hello_extensions(body)?;
    Ok(exts
        .iter()
        .find(|e| e.typ == typ)
        .map(|e| &body[e.start..e.start + e.len]))
}

/// The host name in a server_name extension (RFC 6066 §3).
fn host_name(body: &[u8]) -> Result<String, String> {
    let ext = extension(body, SERVER_NAME)?.ok_or("no server_name")?;
    let mut list = Reader::new(Reader::new(ext).vec16()?);
    if list.u8()? != 0 {
        return Err("not a host_name".into());
    }
    String::from_utf8(list.vec16()?.to_vec()).map_err(|e| e.to_string())
}

/// Reads one ClientHello handshake message off `sock` (RFC 8446 §5.1, §4): its body.
fn read_client_hello(sock: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut handshake = Vec::new();
    loop {
        let mut header = [0u8; 5];
        sock.read_exact(&mut header).map_err(|e| e.to_string())?;
        if header[0] != 22 {
            return Err(format!("record type {}", header[0]));
        }
        let mut fragment = vec![0u8; usize::from(u16::from_be_bytes([header[3], header[4]]))];
        sock.read_exact(&mut fragment).map_err(|e| e.to_string())?;
        handshake.extend_from_slice(&fragment);
        if handshake.len() >= 4 {
            let len = usize::from(handshake[1]) << 16
                | usize::from(handshake[2]) << 8
                | usize::from(handshake[3]);
            if handshake[0] != 1 {
                return Err(format!("handshake type {}", handshake[0]));
            }
            if handshake.len() >= 4 + len {
                return Ok(handshake[4..4 + len].to_vec());
            }
        }
    }
}

/// What the server learnt from one connection.
#[derive(Debug)]
struct Seen {
    outer_name: String,
    config_id: u8,
    /// The inner hello's server name, or why it could not be opened.
    inner_name: Result<String, String>,
}

/// The server's work on one ClientHelloOuter.
fn serve(outer: &[u8], configs: &[ServerConfig]) -> Result<Seen, String> {
    let outer_name = host_name(outer)?;
    let (exts, _) = client_hello_extensions(outer)?;
    let ech = exts
        .iter()
        .find(|e| e.typ == ENCRYPTED_CLIENT_HELLO)
        .ok_or("no encrypted_client_hello")?;
    // ECHClientHello (RFC 9849 §5): type outer(0), cipher_suite, config_id, enc, payload.
    let mut r = Reader::new(&outer[ech.start..ech.start + ech.len]);
    if r.u8()? != 0 {
        return Err("not an outer ECHClientHello".into());
    }
    let (kdf_id, aead_id) = (r.u16()?, r.u16()?);
    let config_id = r.u8()?;
    let enc = r.vec16()?;
    let payload = r.vec16()?;
    let payload_start = ech.start + r.at - payload.len();

    let config = configs
        .iter()
        .find(|c| c.config_id == config_id)
        .ok_or("unknown config_id")?;
    if (kdf_id, aead_id) != (config.suite.kdf_id(), config.suite.aead_id()) {
        return Err("cipher suite not in the config".into());
    }
    // ClientHelloOuterAAD (RFC 9849 §5.2): the outer hello with the payload's bytes zeroed.
    let mut aad = outer.to_vec();
    aad[payload_start..payload_start + payload.len()].fill(0);
    // info = "tls ech" || 0x00 || ECHConfig (RFC 9849 §6.1)
    let info = [b"tls ech\0".as_slice(), &config.ech_config].concat();
    let inner_name = config
        .suite
        .open(
            enc,
            config.sk.secret_bytes(),
            &info,
            &aad,
            payload,
            ReceiverMode::Base,
        )
        .map_err(|e| format!("open: {e}"))
        .and_then(|encoded_inner| inner_server_name(&encoded_inner));
    Ok(Seen {
        outer_name,
        config_id,
        inner_name,
    })
}

/// EncodedClientHelloInner (RFC 9849 §5.1): a ClientHello with an inner ECH extension, then
/// zero padding.
fn inner_server_name(encoded: &[u8]) -> Result<String, String> {
    let (_, end) = client_hello_extensions(encoded)?;
    if encoded[end..].iter().any(|&b| b != 0) {
        return Err("padding is not zeros".into());
    }
    let inner = &encoded[..end];
    if extension(inner, ENCRYPTED_CLIENT_HELLO)? != Some(&[1]) {
        return Err("no inner ECHClientHello".into());
    }
    host_name(inner)
}

/// One loopback connection from a rustls client configured with `ech_config_list` and
/// `suites`; the server sees its hello with `configs`.
fn connect(
    ech_config_list: &[u8],
    suites: &[&'static dyn Hpke],
    configs: Vec<ServerConfig>,
) -> Seen {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        let (mut sock, _) = listener.accept().unwrap();
        let hello = read_client_hello(&mut sock);
        // Close without answering: the client's handshake ends there.
        drop(sock);
        serve(&hello?, &configs)
    });

    let ech = EchConfig::new(EchConfigListBytes::from(ech_config_list), suites).unwrap();
    let config = ClientConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
        .with_ech(EchMode::from(ech))
        .unwrap()
        .with_root_certificates(RootCertStore::empty())
        .with_no_client_auth();
    let name = ServerName::try_from(SECRET_NAME).unwrap();
    // The ClientHello, ECH offer included, is built here.
    let mut conn = ClientConnection::new(Arc::new(config), name).unwrap();
    assert_eq!(conn.ech_status(), EchStatus::Offered);
    let mut sock = TcpStream::connect(addr).unwrap();
    while conn.wants_write() {
        conn.write_tls(&mut sock).unwrap();
    }
    sock.flush().unwrap();
    // The server hangs up without a ServerHello; the client's error is expected and ignored.
    let _ = conn.complete_io(&mut sock);
    server.join().unwrap().unwrap()
}

fn classical() -> ServerConfig {
    server_config(1, DH_KEM_X25519_HKDF_SHA256_AES_128)
}

fn x_wing() -> ServerConfig {
    server_config(2, X_WING_HKDF_SHA256_CHACHA20_POLY1305)
}

/// Both configs published, in either order: rustls takes the first one a suite of the client
/// serves, and the server opens the inner hello under it.
#[test]
fn x25519_and_x_wing_configs() {
    for first in [0, 1] {
        let configs = vec![classical(), x_wing()];
        let expected_id = configs[first].config_id;
        let list = config_list(&[&configs[first].ech_config, &configs[1 - first].ech_config]);
        let seen = connect(&list, ALL_SUPPORTED_SUITES, configs);
        assert_eq!(seen.config_id, expected_id);
        assert_eq!(seen.outer_name, PUBLIC_NAME);
        assert_eq!(seen.inner_name.unwrap(), SECRET_NAME);
    }
}

#[test]
fn a_client_with_classical_suites_only_skips_the_x_wing_config() {
    let configs = vec![classical(), x_wing()];
    let list = config_list(&[&configs[1].ech_config, &configs[0].ech_config]);
    let classical_only: Vec<&'static dyn Hpke> = ALL_SUPPORTED_SUITES
        .iter()
        .copied()
        .filter(|s| u16::from(s.suite().kem) < 0x0040)
        .collect();
    let seen = connect(&list, &classical_only, configs);
    assert_eq!(seen.config_id, 1);
    assert_eq!(seen.inner_name.unwrap(), SECRET_NAME);
}

/// The client is given a config whose public key differs from the server's in one bit, in the
/// part every byte string is a valid key for (X25519, and X-Wing's X25519 tail): the client
/// seals without complaint, and the server cannot open.
#[test]
fn a_tampered_public_key_fails_to_open() {
    for (server, hpke) in [
        (classical(), DH_KEM_X25519_HKDF_SHA256_AES_128),
        (x_wing(), X_WING_HKDF_SHA256_CHACHA20_POLY1305),
    ] {
        let id = server.config_id;
        let mut pk = hpke
            .typed_suite()
            .private_key_from_bytes(server.sk.secret_bytes())
            .unwrap()
            .public_key()
            .as_bytes()
            .to_vec();
        let last = pk.len() - 1;
        pk[last] ^= 0x01;
        let tampered = ech_config(id, hpke, &pk);
        let seen = connect(
            &config_list(&[&tampered]),
            ALL_SUPPORTED_SUITES,
            vec![server],
        );
        assert_eq!(seen.config_id, id);
        assert_eq!(seen.outer_name, PUBLIC_NAME);
        assert_eq!(seen.inner_name.unwrap_err(), "open: decryption failed");
    }
}
