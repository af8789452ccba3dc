//! Decapsulating with a private key the process never holds: `cargo run --example kms`.
//!
//! The "KMS" here is a thread that makes its key pair, hands out the public key, and answers
//! Diffie-Hellman requests over a channel: a stand-in for a cloud KMS, an HSM behind PKCS#11,
//! a phone's secure enclave or another process. It computes `DH(sk, peer)` with the curve
//! crates (x25519-dalek, RustCrypto's P-256), as such a device computes it in hardware; the
//! application's side only ever sees public keys and DH outputs.
//!
//! The application implements `kem::ExternalDh` (typed API, X25519) and
//! `suite::ExternalPrivateKey` (runtime API, P-256 with the suite read off the wire) by sending
//! the peer's public key to the KMS and writing back its answer. typed-hpke validates the peer's
//! key before the KMS is asked, refuses an all-zero answer (RFC 9180 §7.1.4), and derives the
//! shared secret and the context as with an in-process key. A sender authenticates with the
//! KMS's key too (`setup_sender_auth_external`).

use std::sync::mpsc;
use std::thread;

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, ExternalDh, Kem};
use typed_hpke::suite::{self, ExternalPrivateKey, ReceiverMode, SenderMode, Suite};
use typed_hpke::{Error, Hpke, OsRng, PublicKey};

/// A request to the KMS: a peer's public key, and where to send `DH(sk, peer)`.
type Request = (Vec<u8>, mpsc::Sender<Result<Vec<u8>, ()>>);

/// Starts a KMS thread for `curve` ("x25519" or "p256"): it makes a key pair, sends back the
/// public key, then serves requests until the application hangs up. The private key never
/// leaves the thread.
fn start_kms(curve: &'static str) -> (Vec<u8>, mpsc::Sender<Request>) {
    let (to_kms, requests) = mpsc::channel::<Request>();
    let (public_tx, public_rx) = mpsc::channel();
    thread::spawn(move || match curve {
        "x25519" => {
            let sk = x25519_dalek::StaticSecret::random_from_rng(&mut OsRng::default());
            public_tx
                .send(x25519_dalek::PublicKey::from(&sk).as_bytes().to_vec())
                .unwrap();
            for (peer, reply) in requests {
                let answer = <[u8; 32]>::try_from(&peer[..])
                    .map(|p| sk.diffie_hellman(&p.into()).as_bytes().to_vec())
                    .map_err(drop);
                let _ = reply.send(answer);
            }
        }
        _ => {
            use elliptic_curve::Generate as _;
            use elliptic_curve::point::AffineCoordinates as _;
            use elliptic_curve::sec1::{FromSec1Point as _, ToSec1Point as _};
            let sk = p256::NonZeroScalar::generate_from_rng(&mut OsRng::default());
            let pk = (p256::ProjectivePoint::GENERATOR * *sk).to_affine();
            public_tx
                .send(pk.to_sec1_point(false).as_bytes().to_vec())
                .unwrap();
            for (peer, reply) in requests {
                let answer = p256::AffinePoint::from_sec1_bytes(&peer)
                    .map(|p| {
                        (p256::ProjectivePoint::from(p) * *sk)
                            .to_affine()
                            .x()
                            .to_vec()
                    })
                    .map_err(drop);
                let _ = reply.send(answer);
            }
        }
    });
    (public_rx.recv().unwrap(), to_kms)
}

/// The application's handle on a KMS key: its public key and the channel to ask on.
struct KmsKey<P> {
    public_key: P,
    kms: mpsc::Sender<Request>,
}

impl<P> KmsKey<P> {
    /// Asks the KMS for `DH(sk, peer)`; any failure of the KMS is an error.
    fn ask(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let (reply, answer) = mpsc::channel();
        self.kms
            .send((peer.to_vec(), reply))
            .map_err(|_| Error::Decap)?;
        let dh = answer
            .recv()
            .map_err(|_| Error::Decap)?
            .map_err(|_| Error::Decap)?;
        if dh.len() != out.len() {
            return Err(Error::Decap);
        }
        out.copy_from_slice(&dh);
        Ok(())
    }
}

/// The typed API's view: an X25519 key in the KMS.
impl ExternalDh<X25519> for KmsKey<PublicKey<X25519>> {
    fn public_key(&self) -> &PublicKey<X25519> {
        &self.public_key
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.ask(peer, out)
    }
}

/// The runtime API's view: any DH-KEM key in the KMS, its KEM given by its public key.
impl ExternalPrivateKey for KmsKey<suite::PublicKey> {
    fn public_key(&self) -> &suite::PublicKey {
        &self.public_key
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.ask(peer, out)
    }
}

fn main() -> Result<(), Error> {
    let mut rng = OsRng::default();

    // Typed: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305.
    type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
    let (public, kms) = start_kms("x25519");
    let key = KmsKey {
        public_key: PublicKey::<X25519>::from_bytes(&public)?,
        kms,
    };
    // A sender anywhere encrypts to the published public key...
    let (enc, ct) = S::seal_base(&mut rng, &key.public_key, b"typed", b"", b"for the KMS key")?;
    // ...and the application opens it with the KMS doing the one private-key operation.
    let mut rx = S::setup_receiver_external(&enc, &key, b"typed", None, None)?;
    assert_eq!(rx.open(b"", &ct)?, b"for the KMS key");
    // The KMS key as an authenticated sender (Auth mode) to a recipient with its own key.
    let (sk_r, pk_r) = X25519::generate(&mut rng)?;
    let (enc, mut tx) = S::setup_sender_auth_external(&mut rng, &pk_r, b"auth", None, &key)?;
    let mut rx = S::setup_receiver_auth(&enc, &sk_r, b"auth", &key.public_key)?;
    assert_eq!(
        rx.open(b"", &tx.seal(b"", b"signed by the KMS key")?)?,
        b"signed by the KMS key"
    );
    println!("typed X25519: opened with a key held by the KMS thread; sent in Auth mode with it");

    // Runtime: the suite comes off the wire, the key is a P-256 key in the KMS.
    let suite = Suite::new(0x0010, 0x0001, 0x0001)?;
    let (public, kms) = start_kms("p256");
    let key = KmsKey {
        public_key: suite.public_key_from_bytes(&public)?,
        kms,
    };
    let (enc, mut tx) =
        suite.setup_sender(&mut rng, &key.public_key, b"runtime", SenderMode::Base)?;
    let ct = tx.seal(b"", b"P-256 in the KMS")?;
    let mut rx =
        suite.setup_receiver_external(enc.as_bytes(), &key, b"runtime", ReceiverMode::Base)?;
    assert_eq!(rx.open(b"", &ct)?, b"P-256 in the KMS");
    // A forged `enc` is refused before the KMS is asked anything.
    let mut forged = enc.as_bytes().to_vec();
    forged[0] = 0x05;
    let refused = suite.setup_receiver_external(&forged, &key, b"runtime", ReceiverMode::Base);
    assert_eq!(refused.unwrap_err(), Error::Decap);
    println!("runtime P-256: opened with a key held by the KMS thread; a forged enc refused");
    println!("ok");
    Ok(())
}
