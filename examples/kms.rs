//! Decapsulating with private keys the process never holds, from an async server:
//! `cargo run --example kms`.
//!
//! The "KMS" is a task on a tokio runtime that keeps three keys (X25519, P-256, ML-KEM-768) and
//! answers requests over a channel, a stand-in for a cloud KMS (`DeriveSharedSecret`, an ML-KEM
//! `Decapsulate`), an HSM or another process. It computes with the reference crates
//! (x25519-dalek, RustCrypto's `p256` and `ml-kem`) as such a service computes in its own
//! hardware; the application only ever sees public keys, `DH(sk, peer)` values and shared
//! secrets, and awaits each answer without blocking a thread:
//!
//! 1. typed X25519, Base and Auth: `kem::DhRequest` validates `enc` and says which public keys
//!    the KMS must compute with; the answers, awaited, give the key for the ordinary `open_*`;
//! 2. typed ML-KEM-768: the KMS decapsulates whole; `kem::Decapsulated` binds its answer to the
//!    `enc`;
//! 3. the runtime API, P-256 with the suite read off the wire: `Suite::dh_peers` validates
//!    `enc` and lists what to ask; the awaited answers go to `Suite::open` in `suite::Answers`.
//!
//! typed-hpke validates every peer before the KMS is asked, refuses an all-zero answer (RFC
//! 9180 §7.1.4), and derives the shared secret and the context as with an in-process key.

use tokio::sync::{mpsc, oneshot};
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{
    Decapsulated, DhKemX25519HkdfSha256 as X25519, DhRequest, ExternalDh, Kem, MlKem768,
};
use typed_hpke::suite::{Answers, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Hpke, OsRng, PublicKey};

/// What the KMS is asked: `DH(sk, peer)` with one of its DH keys, or a decapsulation.
enum Request {
    Dh(
        &'static str,
        Vec<u8>,
        oneshot::Sender<Result<Vec<u8>, KmsError>>,
    ),
    Decap(Vec<u8>, oneshot::Sender<Result<Vec<u8>, KmsError>>),
}

/// The KMS's own error, which typed-hpke hands back untouched.
#[derive(Debug)]
struct KmsError(&'static str);

impl std::fmt::Display for KmsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KMS: {}", self.0)
    }
}

impl std::error::Error for KmsError {}

/// The public keys the KMS publishes.
struct Published {
    x25519: Vec<u8>,
    p256: Vec<u8>,
    ml_kem: Vec<u8>,
}

/// Starts the KMS task: it makes its keys, publishes the public keys, then serves requests
/// until the application hangs up. The private keys never leave the task.
fn start_kms() -> (Published, mpsc::Sender<Request>) {
    use elliptic_curve::Generate as _;
    use elliptic_curve::point::AffineCoordinates as _;
    use elliptic_curve::sec1::{FromSec1Point as _, ToSec1Point as _};
    use ml_kem::kem::{Decapsulate as _, KeyExport as _};

    let mut rng = OsRng::default();
    let x = x25519_dalek::StaticSecret::random_from_rng(&mut rng);
    let p = p256::NonZeroScalar::generate_from_rng(&mut rng);
    let mut seed = [0u8; 64];
    typed_hpke::rand_core::Rng::fill_bytes(&mut rng, &mut seed);
    let m = ml_kem::DecapsulationKey::<ml_kem::MlKem768>::from_seed(seed.into());
    let published = Published {
        x25519: x25519_dalek::PublicKey::from(&x).as_bytes().to_vec(),
        p256: (p256::ProjectivePoint::GENERATOR * *p)
            .to_affine()
            .to_sec1_point(false)
            .as_bytes()
            .to_vec(),
        ml_kem: ml_kem::kem::Decapsulator::encapsulation_key(&m)
            .to_bytes()
            .to_vec(),
    };
    let (to_kms, mut requests) = mpsc::channel::<Request>(16);
    tokio::spawn(async move {
        while let Some(request) = requests.recv().await {
            // A network round trip would be here.
            tokio::task::yield_now().await;
            match request {
                Request::Dh("x25519", peer, reply) => {
                    let answer = <[u8; 32]>::try_from(&peer[..])
                        .map(|peer| x.diffie_hellman(&peer.into()).as_bytes().to_vec())
                        .map_err(|_| KmsError("not an X25519 key"));
                    let _ = reply.send(answer);
                }
                Request::Dh(_, peer, reply) => {
                    let answer = p256::AffinePoint::from_sec1_bytes(&peer)
                        .map(|peer| {
                            (p256::ProjectivePoint::from(peer) * *p)
                                .to_affine()
                                .x()
                                .to_vec()
                        })
                        .map_err(|_| KmsError("not a P-256 point"));
                    let _ = reply.send(answer);
                }
                Request::Decap(enc, reply) => {
                    let answer = <[u8; 1088]>::try_from(&enc[..])
                        .map(|enc| m.decapsulate(&enc.into()).to_vec())
                        .map_err(|_| KmsError("not an ML-KEM-768 ciphertext"));
                    let _ = reply.send(answer);
                }
            }
        }
    });
    (published, to_kms)
}

/// The application's handle on the KMS.
#[derive(Clone)]
struct Kms(mpsc::Sender<Request>);

impl Kms {
    async fn dh(&self, key: &'static str, peer: &[u8]) -> Result<Vec<u8>, KmsError> {
        let (reply, answer) = oneshot::channel();
        let gone = |_| KmsError("gone");
        self.0
            .send(Request::Dh(key, peer.to_vec(), reply))
            .await
            .map_err(gone)?;
        answer.await.map_err(|_| KmsError("gone"))?
    }

    async fn decapsulate(&self, enc: &[u8]) -> Result<Vec<u8>, KmsError> {
        let (reply, answer) = oneshot::channel();
        let gone = |_| KmsError("gone");
        self.0
            .send(Request::Decap(enc.to_vec(), reply))
            .await
            .map_err(gone)?;
        answer.await.map_err(|_| KmsError("gone"))?
    }

    /// Answers a `DhRequest`: one awaited `DH(sk, peer)` per peer, in order.
    async fn answer<K: typed_hpke::kem::AuthKem, R: typed_hpke::kem::Role>(
        &self,
        key: &'static str,
        request: DhRequest<K, R>,
    ) -> Result<typed_hpke::kem::DhAnswer<K, R>, Box<dyn std::error::Error>> {
        let mut answers = Vec::new();
        for peer in request.peers() {
            answers.push(self.dh(key, peer.as_bytes()).await?);
        }
        let answers: Vec<&[u8]> = answers.iter().map(Vec::as_slice).collect();
        Ok(request.answer(&answers)?)
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = OsRng::default();
    let (published, kms) = start_kms();
    let kms = Kms(kms);

    // 1. Typed X25519: a sender anywhere encrypts to the published key...
    type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
    let pk_kms = PublicKey::<X25519>::from_bytes(&published.x25519)?;
    let (enc, ct) = S::seal_base(&mut rng, &pk_kms, b"typed", b"", b"for the KMS key")?;
    // ...and the server awaits the KMS's one private-key operation.
    let key = kms
        .answer("x25519", DhRequest::decap(&enc, &pk_kms)?)
        .await?;
    assert_eq!(
        S::open_base(&enc, &key, b"typed", b"", &ct)?,
        b"for the KMS key"
    );
    // Auth mode: the sender proves its static key; the KMS computes with the ephemeral and
    // the sender's key.
    let (sk_s, pk_s) = X25519::generate(&mut rng)?;
    let (enc, ct) = S::seal_auth(
        &mut rng,
        &pk_kms,
        b"auth",
        b"",
        b"from a known sender",
        &sk_s,
    )?;
    let key = kms
        .answer("x25519", DhRequest::auth_decap(&enc, &pk_kms, &pk_s)?)
        .await?;
    assert_eq!(
        S::open_auth(&enc, &key, b"auth", b"", &ct, &pk_s)?,
        b"from a known sender"
    );
    // The KMS key as an Auth sender: one awaited `DH(skS, pkR)` serves every message to pkR.
    let (sk_r, pk_r) = X25519::generate(&mut rng)?;
    let sender = kms
        .answer("x25519", DhRequest::auth_encap(&pk_kms, &pk_r))
        .await?;
    for i in 0..3u8 {
        let (enc, ct) = S::seal_auth(&mut rng, &pk_r, b"out", b"", &[i], &sender)?;
        assert_eq!(S::open_auth(&enc, &sk_r, b"out", b"", &ct, &pk_kms)?, [i]);
    }
    println!("typed X25519: opened (Base, Auth) and sent (Auth) with the KMS's key, awaited");

    // 2. Typed ML-KEM-768: the KMS decapsulates whole.
    type M = Hpke<MlKem768, HkdfSha256, ChaCha20Poly1305>;
    let pk_m = PublicKey::<MlKem768>::from_bytes(&published.ml_kem)?;
    let (enc, ct) = M::seal_base(&mut rng, &pk_m, b"pq", b"", b"post-quantum")?;
    let secret = kms.decapsulate(enc.as_bytes()).await?;
    let key = Decapsulated::new(&enc, &secret)?;
    assert_eq!(M::open_base(&enc, &key, b"pq", b"", &ct)?, b"post-quantum");
    println!("typed ML-KEM-768: opened with the KMS's decapsulation, awaited");

    // 3. The runtime API: the suite comes off the wire, the key is the KMS's P-256 key.
    // `Suite::dh_peers` validates `enc` and lists what the KMS must compute; the answers,
    // awaited, go to the ordinary runtime functions in `suite::Answers`.
    let suite = Suite::new(0x0010, 0x0001, 0x0001)?;
    let public = suite.public_key_from_bytes(&published.p256)?;
    let (enc, mut tx) = suite.setup_sender(&mut rng, &public, b"runtime", SenderMode::Base)?;
    let ct = tx.seal(b"", b"P-256 in the KMS")?;
    let mut answers = Answers::new(public.clone());
    for peer in suite.dh_peers(enc.as_bytes(), ReceiverMode::Base)? {
        answers.answer(peer, &kms.dh("p256", peer).await?);
    }
    let key = ExternalDh(&answers);
    let opened = suite.open(
        enc.as_bytes(),
        &key,
        b"runtime",
        b"",
        &ct,
        ReceiverMode::Base,
    )?;
    assert_eq!(opened, b"P-256 in the KMS");
    // A forged `enc` is refused before the KMS is asked anything.
    let mut forged = enc.as_bytes().to_vec();
    forged[0] = 0x05;
    assert!(suite.dh_peers(&forged, ReceiverMode::Base).is_err());
    // An answer of all zeros (a low-order `enc` on X25519) is refused as in process.
    let low_order = EncappedKey::<X25519>::from_bytes(&[0u8; 32])?;
    let answer = kms
        .answer("x25519", DhRequest::decap(&low_order, &pk_kms)?)
        .await;
    assert!(answer.is_err());
    println!("runtime P-256: opened with the KMS's key, awaited; a forged enc refused");
    println!("ok");
    Ok(())
}
