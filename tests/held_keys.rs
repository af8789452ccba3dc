//! Keys held outside the process, through the one receiver-key seam (`kem::DecapKey` and its
//! siblings, `suite::PrivateKeyInput`).
//!
//! - A `DhHolder` computes `DH(sk, peer)` with the reference crates (x25519-dalek, x448,
//!   RustCrypto's curve arithmetic) from a scalar typed-hpke never parses, for every DH-KEM:
//!   every receiving function (setups, single-shot opens in their three shapes, receive
//!   exports) of every mode gives, through the same generic code, what the in-process key
//!   gives; the Auth sender's static key likewise; typed and runtime.
//! - A `DecapHolder` decapsulates whole: ML-KEM-768 with the `ml-kem` crate, X-Wing with the
//!   `x-wing` crate, every other KEM with the key in process; Base and PSK, typed and runtime.
//! - The two-step forms (`DhRequest`, `Decapsulated`) give the same contexts and refuse an
//!   answer for another `enc`, a wrong count, a wrong length, all zeros.
//! - The holder's own error reaches the caller; an all-zero answer, an invalid `enc` (asked
//!   about never), a wrong public key and a KEM without Diffie-Hellman are refused.
//! - Holders serve many threads.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{ChaCha20Poly1305, Tag};
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{
    AuthDecapKey, AuthEncapKey, AuthKem, DecapHolder, Decapsulated, DhHolder,
    DhKemP256HkdfSha256 as P256, DhKemP384HkdfSha384, DhKemP521HkdfSha512,
    DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512, DhKemX25519HkdfSha256, DhRequest, DhRole,
    ExternalDecap, ExternalDh, HeldKeyError, Kem, MlKem768, MlKem768P256, MlKem1024P384, XWing,
};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Error, PrivateKey, Psk, PublicKey};

type F = HkdfSha256;
type A = ChaCha20Poly1305;
type S<K> = typed_hpke::Hpke<K, F, A>;

const INFO: &[u8] = b"held keys";
const AAD: &[u8] = b"aad";
const PT: &[u8] = b"a message for a key held elsewhere";
const PSK: [u8; 32] = [7; 32];

fn psk() -> Psk<'static> {
    Psk::new(&PSK, b"psk id").unwrap()
}

/// The holder's own error, which must come back to the caller as it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Refused(&'static str);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Refused {}

/// What the holder does when asked.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Behaviour {
    Honest,
    Fails,
    Zeros,
}

/// A DH-KEM key's holder: the scalar as the reference crates take it, never a typed-hpke key.
/// `Sync` (its counter is atomic), so one holder serves every thread.
struct Holder {
    kem_id: u16,
    secret: Vec<u8>,
    public: suite::PublicKey,
    behaviour: Behaviour,
    asked: AtomicUsize,
}

macro_rules! weierstrass {
    ($c:ident, $sk:expr, $peer:expr, $out:expr) => {{
        use elliptic_curve::point::AffineCoordinates as _;
        use elliptic_curve::sec1::FromSec1Point as _;
        let sk = $c::NonZeroScalar::try_from($sk).unwrap();
        let peer = $c::AffinePoint::from_sec1_bytes($peer).unwrap();
        let shared = ($c::ProjectivePoint::from(peer) * *sk).to_affine();
        $out.copy_from_slice(&shared.x());
    }};
}

impl Holder {
    fn new(sk: &suite::PrivateKey, behaviour: Behaviour) -> Self {
        Self {
            kem_id: sk.kem_id(),
            secret: sk.to_bytes().to_vec(),
            public: sk.public_key(),
            behaviour,
            asked: AtomicUsize::new(0),
        }
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::Relaxed)
    }

    fn compute(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Refused> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        match self.behaviour {
            Behaviour::Fails => return Err(Refused("the token is gone")),
            Behaviour::Zeros => {
                out.fill(0);
                return Ok(());
            }
            Behaviour::Honest => {}
        }
        let sk = &self.secret[..];
        match self.kem_id {
            0x0020 => {
                let sk = x25519_dalek::StaticSecret::from(<[u8; 32]>::try_from(sk).unwrap());
                let pk = x25519_dalek::PublicKey::from(<[u8; 32]>::try_from(peer).unwrap());
                out.copy_from_slice(sk.diffie_hellman(&pk).as_bytes());
            }
            0x0021 => {
                let sk = <[u8; 56]>::try_from(sk).unwrap();
                let pk = <[u8; 56]>::try_from(peer).unwrap();
                out.copy_from_slice(&x448::x448_unchecked(sk, pk));
            }
            0x0010 => weierstrass!(p256, sk, peer, out),
            0x0011 => weierstrass!(p384, sk, peer, out),
            0x0012 => weierstrass!(p521, sk, peer, out),
            0x0016 => weierstrass!(k256, sk, peer, out),
            other => panic!("no DH for {other:#x}"),
        }
        Ok(())
    }

    fn typed<K: Kem>(&self) -> Typed<'_, K> {
        Typed(self, PublicKey::from_bytes(self.public.as_bytes()).unwrap())
    }
}

impl suite::DhHolder for Holder {
    type Error = Refused;
    fn public_key(&self) -> &suite::PublicKey {
        &self.public
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Refused> {
        self.compute(peer, out)
    }
}

/// The typed view of a holder.
struct Typed<'a, K: Kem>(&'a Holder, PublicKey<K>);

impl<K: AuthKem> DhHolder<K> for Typed<'_, K> {
    type Error = Refused;
    fn public_key(&self) -> &PublicKey<K> {
        &self.1
    }
    fn dh(&self, peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), Refused> {
        self.0.compute(peer.as_bytes(), out)
    }
}

/// One message of each mode to `pk_r`, sealed in process: `(enc, ct || tag)`.
struct Sealed<K: Kem> {
    modes: Vec<(&'static str, EncappedKey<K>, Vec<u8>)>,
}

fn seal_every_mode<K: AuthKem>(
    rng: &mut ChaCha20Rng,
    pk_r: &PublicKey<K>,
    sk_s: &(impl AuthEncapKey<K, Error: std::fmt::Debug> + ?Sized),
) -> Sealed<K> {
    let p = psk();
    let base = S::<K>::seal_base(rng, pk_r, INFO, AAD, PT).unwrap();
    let psk_mode = S::<K>::seal_psk(rng, pk_r, INFO, AAD, PT, &p).unwrap();
    let auth = S::<K>::seal_auth(rng, pk_r, INFO, AAD, PT, sk_s).unwrap();
    let auth_psk = S::<K>::seal_auth_psk(rng, pk_r, INFO, AAD, PT, &p, sk_s).unwrap();
    Sealed {
        modes: vec![
            ("base", base.0, base.1),
            ("psk", psk_mode.0, psk_mode.1),
            ("auth", auth.0, auth.1),
            ("auth_psk", auth_psk.0, auth_psk.1),
        ],
    }
}

/// Every receiving function of every mode with one key, in process or held: each plaintext
/// opened and each export, in order. Generic in the key, so the two kinds run the same code.
fn receive_everything<K: AuthKem, R: AuthDecapKey<K> + ?Sized>(
    sealed: &Sealed<K>,
    sk_r: &R,
    pk_s: &PublicKey<K>,
) -> Vec<Vec<u8>>
where
    R::Error: std::fmt::Debug,
{
    let p = psk();
    let mut out = Vec::new();
    for (mode, enc, ct) in &sealed.modes {
        let (body, tag) = ct.split_at(ct.len() - 16);
        let tag = Tag::<A>::try_from(tag).unwrap();
        let mut in_place = body.to_vec();
        let mut into = vec![0u8; body.len()];
        let mut export = [0u8; 32];
        let mut single_export = [0u8; 32];
        let opened = match *mode {
            "base" => {
                let mut ctx = S::<K>::setup_receiver_base(enc, sk_r, INFO).unwrap();
                ctx.export(b"e", &mut export).unwrap();
                S::<K>::open_base_in_place_detached(enc, sk_r, INFO, AAD, &mut in_place, &tag)
                    .unwrap();
                S::<K>::open_base_into(enc, sk_r, INFO, AAD, ct, &mut into).unwrap();
                S::<K>::receive_export_base(enc, sk_r, INFO, b"e", &mut single_export).unwrap();
                assert_eq!(ctx.open(AAD, ct).unwrap(), PT);
                S::<K>::open_base(enc, sk_r, INFO, AAD, ct).unwrap()
            }
            "psk" => {
                let mut ctx = S::<K>::setup_receiver_psk(enc, sk_r, INFO, &p).unwrap();
                ctx.export(b"e", &mut export).unwrap();
                S::<K>::open_psk_in_place_detached(enc, sk_r, INFO, AAD, &mut in_place, &tag, &p)
                    .unwrap();
                S::<K>::open_psk_into(enc, sk_r, INFO, AAD, ct, &mut into, &p).unwrap();
                S::<K>::receive_export_psk(enc, sk_r, INFO, b"e", &mut single_export, &p).unwrap();
                assert_eq!(ctx.open(AAD, ct).unwrap(), PT);
                S::<K>::open_psk(enc, sk_r, INFO, AAD, ct, &p).unwrap()
            }
            "auth" => {
                let mut ctx = S::<K>::setup_receiver_auth(enc, sk_r, INFO, pk_s).unwrap();
                ctx.export(b"e", &mut export).unwrap();
                S::<K>::open_auth_in_place_detached(
                    enc,
                    sk_r,
                    INFO,
                    AAD,
                    &mut in_place,
                    &tag,
                    pk_s,
                )
                .unwrap();
                S::<K>::open_auth_into(enc, sk_r, INFO, AAD, ct, &mut into, pk_s).unwrap();
                S::<K>::receive_export_auth(enc, sk_r, INFO, b"e", &mut single_export, pk_s)
                    .unwrap();
                assert_eq!(ctx.open(AAD, ct).unwrap(), PT);
                S::<K>::open_auth(enc, sk_r, INFO, AAD, ct, pk_s).unwrap()
            }
            _ => {
                let mut ctx = S::<K>::setup_receiver_auth_psk(enc, sk_r, INFO, &p, pk_s).unwrap();
                ctx.export(b"e", &mut export).unwrap();
                S::<K>::open_auth_psk_in_place_detached(
                    enc,
                    sk_r,
                    INFO,
                    AAD,
                    &mut in_place,
                    &tag,
                    &p,
                    pk_s,
                )
                .unwrap();
                S::<K>::open_auth_psk_into(enc, sk_r, INFO, AAD, ct, &mut into, &p, pk_s).unwrap();
                S::<K>::receive_export_auth_psk(
                    enc,
                    sk_r,
                    INFO,
                    b"e",
                    &mut single_export,
                    &p,
                    pk_s,
                )
                .unwrap();
                assert_eq!(ctx.open(AAD, ct).unwrap(), PT);
                S::<K>::open_auth_psk(enc, sk_r, INFO, AAD, ct, &p, pk_s).unwrap()
            }
        };
        assert_eq!(opened, PT, "{mode}");
        assert_eq!(in_place, PT, "{mode}: in place");
        assert_eq!(into, PT, "{mode}: into");
        assert_eq!(export, single_export, "{mode}: exports");
        out.extend([opened, export.to_vec()]);
    }
    out
}

/// The runtime receiver in every mode with one key input: opened plaintexts and exports.
fn receive_runtime<K: AuthKem, R: suite::PrivateKeyInput + ?Sized>(
    sealed: &Sealed<K>,
    sk_r: &R,
    pk_s: &PublicKey<K>,
) -> Vec<Vec<u8>>
where
    R::Error: std::fmt::Debug,
{
    let suite = Suite::new(K::ID, 1, 3).unwrap();
    let p = psk();
    let pk_s = suite::PublicKey::from(pk_s.clone());
    let mut out = Vec::new();
    for (mode, enc, ct) in &sealed.modes {
        let mode = match *mode {
            "base" => ReceiverMode::Base,
            "psk" => ReceiverMode::Psk(&p),
            "auth" => ReceiverMode::Auth(&pk_s),
            _ => ReceiverMode::AuthPsk(&p, &pk_s),
        };
        let mut export = [0u8; 32];
        let ctx = suite
            .setup_receiver(enc.as_bytes(), sk_r, INFO, mode)
            .unwrap();
        ctx.export(b"e", &mut export).unwrap();
        let mut single = [0u8; 32];
        suite
            .receive_export(enc.as_bytes(), sk_r, INFO, b"e", &mut single, mode)
            .unwrap();
        assert_eq!(export, single);
        out.push(
            suite
                .open(enc.as_bytes(), sk_r, INFO, AAD, ct, mode)
                .unwrap(),
        );
        out.push(export.to_vec());
    }
    out
}

/// Every mode of one DH-KEM, typed and runtime, receiver and Auth sender.
fn dh_kem<K: AuthKem>() {
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = ChaCha20Rng::seed_from_u64(u64::from(K::ID));
    let (sk_r, pk_r) = K::derive_key_pair(b"held receiver").unwrap();
    let (sk_s, pk_s) = K::derive_key_pair(b"held sender").unwrap();
    let holder_r = Holder::new(&sk_r.clone().into(), Behaviour::Honest);
    let holder_s = Holder::new(&sk_s.clone().into(), Behaviour::Honest);

    // Messages from the in-process sender, received by both keys through the same code.
    let sealed = seal_every_mode(&mut rng, &pk_r, &sk_s);
    let in_process = receive_everything(&sealed, &sk_r, &pk_s);
    let typed_held = ExternalDh(holder_r.typed::<K>());
    assert_eq!(
        receive_everything(&sealed, &typed_held, &pk_s),
        in_process,
        "{name}"
    );
    let runtime_sk = suite::PrivateKey::from(sk_r.clone());
    let runtime = receive_runtime(&sealed, &runtime_sk, &pk_s);
    assert_eq!(runtime, in_process, "{name}: runtime, in process");
    assert_eq!(
        receive_runtime(&sealed, &ExternalDh(&holder_r), &pk_s),
        in_process,
        "{name}: runtime, held"
    );
    // Two Diffie-Hellman values for each Auth message, one for the others, on every call.
    assert!(
        holder_r.asked() >= 4 * (5 + 4) + 2 * 4,
        "{name}: {}",
        holder_r.asked()
    );

    // The Auth sender's static key held elsewhere: typed, runtime and two-step.
    let sealed = seal_every_mode(&mut rng, &pk_r, &ExternalDh(holder_s.typed::<K>()));
    // (Other messages: `receive_everything` checks each opens to the plaintext.)
    receive_everything(&sealed, &sk_r, &pk_s);
    let answer = DhRequest::auth_encap(&pk_s, &pk_r);
    let peers: Vec<_> = answer.peers().cloned().collect();
    assert_eq!(peers, std::slice::from_ref(&pk_r));
    let mut dh = vec![0u8; dh_len::<K>()];
    holder_s.compute(pk_r.as_bytes(), &mut dh).unwrap();
    let answer = answer.answer(&[&dh]).unwrap();
    let sealed = seal_every_mode(&mut rng, &pk_r, &answer);
    receive_everything(&sealed, &sk_r, &pk_s);
    let runtime = Suite::new(K::ID, 1, 3).unwrap();
    let rt_pk_r = suite::PublicKey::from(pk_r.clone());
    let p = psk();
    for mode in [
        SenderMode::Auth(&ExternalDh(&holder_s)),
        SenderMode::AuthPsk(&p, &ExternalDh(&holder_s)),
    ] {
        let (enc, ct) = runtime
            .seal(&mut rng, &rt_pk_r, INFO, AAD, PT, mode)
            .unwrap();
        let enc = EncappedKey::<K>::from_bytes(&enc).unwrap();
        let opened = match mode {
            SenderMode::Auth(_) => S::<K>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s),
            _ => S::<K>::open_auth_psk(&enc, &sk_r, INFO, AAD, &ct, &p, &pk_s),
        };
        assert_eq!(opened.unwrap(), PT, "{name}: runtime sender {mode:?}");
    }

    two_step::<K>(&mut rng, &sk_r, &pk_r, &sk_s, &pk_s, &holder_r);
    refusals::<K>(&mut rng, &sk_r, &pk_r, &pk_s);
}

fn dh_len<K: AuthKem>() -> usize {
    use typed_hpke::hybrid_array::typenum::Unsigned;
    K::NDh::USIZE
}

/// `DhRequest`: the receiver's two steps, with the holder answering in between.
fn two_step<K: AuthKem>(
    rng: &mut ChaCha20Rng,
    sk_r: &PrivateKey<K>,
    pk_r: &PublicKey<K>,
    sk_s: &PrivateKey<K>,
    pk_s: &PublicKey<K>,
    holder: &Holder,
) {
    let name = format!("kem {:#06x}", K::ID);
    let answer_for = |request: DhRequest<K>| {
        let answers: Vec<Vec<u8>> = request
            .peers()
            .map(|peer| {
                let mut out = vec![0u8; dh_len::<K>()];
                holder.compute(peer.as_bytes(), &mut out).unwrap();
                out
            })
            .collect();
        let answers: Vec<&[u8]> = answers.iter().map(Vec::as_slice).collect();
        request.answer(&answers)
    };
    let (enc, ct) = S::<K>::seal_base(rng, pk_r, INFO, AAD, PT).unwrap();
    let request = DhRequest::decap(&enc, pk_r).unwrap();
    assert_eq!(request.peers().count(), 1);
    let key = answer_for(request).unwrap();
    assert_eq!(
        S::<K>::open_base(&enc, &key, INFO, AAD, &ct).unwrap(),
        PT,
        "{name}"
    );
    assert_eq!(
        K::decap(&enc, sk_r).unwrap().as_bytes(),
        {
            let mut a = [0u8; 32];
            let mut b = [0u8; 32];
            S::<K>::receive_export_base(&enc, &key, INFO, b"x", &mut a).unwrap();
            S::<K>::receive_export_base(&enc, sk_r, INFO, b"x", &mut b).unwrap();
            assert_eq!(a, b);
            K::decap(&enc, sk_r).unwrap()
        }
        .as_bytes()
    );
    // The answer is for this `enc` only, and has no sender value for Auth.
    let (other, _) = S::<K>::seal_base(rng, pk_r, INFO, AAD, PT).unwrap();
    assert_eq!(
        S::<K>::setup_receiver_base(&other, &key, INFO).unwrap_err(),
        Error::Decap
    );
    assert_eq!(
        S::<K>::setup_receiver_auth(&enc, &key, INFO, pk_s).unwrap_err(),
        Error::Decap
    );

    let (enc, ct) = S::<K>::seal_auth(rng, pk_r, INFO, AAD, PT, sk_s).unwrap();
    let key = answer_for(DhRequest::auth_decap(&enc, pk_r, pk_s).unwrap()).unwrap();
    assert_eq!(
        S::<K>::open_auth(&enc, &key, INFO, AAD, &ct, pk_s).unwrap(),
        PT
    );
    // Another sender's key is not the one answered for.
    assert_eq!(
        S::<K>::setup_receiver_auth(&enc, &key, INFO, pk_r).unwrap_err(),
        Error::Decap
    );
    // A wrong number of answers, a wrong length, all zeros.
    let request = || DhRequest::auth_decap(&enc, pk_r, pk_s).unwrap();
    let n = dh_len::<K>();
    let good = vec![1u8; n];
    assert_eq!(
        request().answer(&[&good]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        request().answer(&[&good, &good, &good]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        request().answer(&[&good, &good[1..]]).unwrap_err(),
        Error::Decap
    );
    assert_eq!(
        request().answer(&[&vec![0u8; n], &good]).unwrap_err(),
        Error::Decap
    );
    assert_eq!(
        request().answer(&[&good, &vec![0u8; n]]).unwrap_err(),
        Error::Decap
    );
    let sender = DhRequest::auth_encap(pk_s, pk_r);
    assert_eq!(sender.answer(&[&vec![0u8; n]]).unwrap_err(), Error::Encap);
    // A sender's answer is for its recipient only.
    let mut dh = vec![0u8; n];
    holder.compute(pk_s.as_bytes(), &mut dh).unwrap();
    let to_s = DhRequest::auth_encap(pk_r, pk_s).answer(&[&dh]).unwrap();
    assert_eq!(to_s.role(), DhRole::Sender);
    assert_eq!(DhRequest::auth_encap(pk_r, pk_s).role(), DhRole::Sender);
    assert_eq!(
        DhRequest::decap(&enc, pk_r).unwrap().role(),
        DhRole::Receiver
    );
    assert_eq!(
        S::<K>::setup_sender_auth(rng, pk_r, INFO, &to_s).unwrap_err(),
        Error::Encap
    );
    assert!(S::<K>::setup_sender_auth(rng, pk_s, INFO, &to_s).is_ok());
    assert!(format!("{to_s:?}").contains("redacted"));
}

/// What a key held elsewhere refuses, and what comes back.
fn refusals<K: AuthKem>(
    rng: &mut ChaCha20Rng,
    sk_r: &PrivateKey<K>,
    pk_r: &PublicKey<K>,
    pk_s: &PublicKey<K>,
) {
    let name = format!("kem {:#06x}", K::ID);
    let runtime = Suite::new(K::ID, 1, 3).unwrap();
    let rt_pk_r = suite::PublicKey::from(pk_r.clone());
    let (enc, ct) = S::<K>::seal_base(rng, pk_r, INFO, AAD, PT).unwrap();
    let refused = HeldKeyError::Holder(Refused("the token is gone"));

    // A holder that fails: its own error, typed and runtime; the runtime sender's is Encap.
    let failing = Holder::new(&sk_r.clone().into(), Behaviour::Fails);
    let typed = ExternalDh(failing.typed::<K>());
    assert_eq!(
        S::<K>::open_base(&enc, &typed, INFO, AAD, &ct).unwrap_err(),
        refused
    );
    assert_eq!(
        S::<K>::setup_receiver_auth(&enc, &typed, INFO, pk_s).unwrap_err(),
        refused
    );
    assert_eq!(
        S::<K>::setup_sender_auth(rng, pk_r, INFO, &typed).unwrap_err(),
        refused
    );
    let held = ExternalDh(&failing);
    let err = runtime
        .open(enc.as_bytes(), &held, INFO, AAD, &ct, ReceiverMode::Base)
        .unwrap_err();
    assert_eq!(err, refused, "{name}");
    assert_eq!(
        std::error::Error::source(&err).unwrap().to_string(),
        "the token is gone"
    );
    let err = runtime
        .setup_sender(rng, &rt_pk_r, INFO, SenderMode::Auth(&held))
        .unwrap_err();
    assert_eq!(err, Error::Encap, "{name}");

    // All zeros: refused (RFC 9180 §7.1.4), typed-hpke's error.
    let zeros = Holder::new(&sk_r.clone().into(), Behaviour::Zeros);
    let typed = ExternalDh(zeros.typed::<K>());
    let decap = HeldKeyError::Hpke(Error::Decap);
    assert_eq!(
        S::<K>::open_base(&enc, &typed, INFO, AAD, &ct).unwrap_err(),
        decap
    );
    assert_eq!(
        S::<K>::setup_sender_auth(rng, pk_r, INFO, &typed).unwrap_err(),
        HeldKeyError::Hpke(Error::Encap)
    );
    assert_eq!(
        runtime
            .open(
                enc.as_bytes(),
                &ExternalDh(&zeros),
                INFO,
                AAD,
                &ct,
                ReceiverMode::Base
            )
            .unwrap_err(),
        decap
    );

    // An `enc` that is not a public key of the KEM is refused before the holder is asked.
    let honest = Holder::new(&sk_r.clone().into(), Behaviour::Honest);
    if let Ok(bad) = EncappedKey::<K>::from_bytes(&vec![0xffu8; enc.as_bytes().len()])
        && PublicKey::<K>::from_bytes(bad.as_bytes()).is_err()
    {
        let typed = ExternalDh(honest.typed::<K>());
        assert_eq!(
            S::<K>::setup_receiver_base(&bad, &typed, INFO).unwrap_err(),
            decap
        );
        assert_eq!(DhRequest::decap(&bad, pk_r).unwrap_err(), Error::Decap);
        assert_eq!(honest.asked(), 0, "{name}: asked about an invalid point");
    }
    // The holder's public key enters the KEM context: a wrong one opens nothing.
    let wrong = ExternalDh(Typed::<K>(&honest, pk_s.clone()));
    let mut rx = S::<K>::setup_receiver_base(&enc, &wrong, INFO).unwrap();
    assert_eq!(rx.open(AAD, &ct).unwrap_err(), Error::Open, "{name}");
}

/// The runtime API's two steps: `Suite::dh_peers`, the holder's answers awaited and recorded
/// in `suite::Answers`, then the ordinary runtime functions, in every mode.
fn runtime_two_step<K: AuthKem>() {
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = ChaCha20Rng::seed_from_u64(u64::from(K::ID) + 7);
    let (sk_r, pk_r) = K::derive_key_pair(b"answers receiver").unwrap();
    let (sk_s, pk_s) = K::derive_key_pair(b"answers sender").unwrap();
    let holder = Holder::new(&sk_r.clone().into(), Behaviour::Honest);
    let sealed = seal_every_mode(&mut rng, &pk_r, &sk_s);
    let suite = Suite::new(K::ID, 1, 3).unwrap();
    let p = psk();
    let rt_pk_s = suite::PublicKey::from(pk_s.clone());
    for (mode, enc, ct) in &sealed.modes {
        let mode = match *mode {
            "base" => ReceiverMode::Base,
            "psk" => ReceiverMode::Psk(&p),
            "auth" => ReceiverMode::Auth(&rt_pk_s),
            _ => ReceiverMode::AuthPsk(&p, &rt_pk_s),
        };
        let mut answers = suite::Answers::new(holder.public.clone());
        let peers: Vec<&[u8]> = suite.dh_peers(enc.as_bytes(), mode).unwrap().collect();
        assert_eq!(
            peers.len(),
            1 + usize::from(matches!(
                mode,
                ReceiverMode::Auth(_) | ReceiverMode::AuthPsk(..)
            ))
        );
        assert_eq!(peers[0], enc.as_bytes());
        for peer in &peers {
            let mut out = vec![0u8; dh_len::<K>()];
            holder.compute(peer, &mut out).unwrap();
            answers.answer(peer, &out);
        }
        let opened = suite.open(enc.as_bytes(), &ExternalDh(&answers), INFO, AAD, ct, mode);
        assert_eq!(opened.unwrap(), PT, "{name} {mode:?}");
        // Without the answers: the lookup's own error, before any context.
        let empty = suite::Answers::new(holder.public.clone());
        let err = suite
            .setup_receiver(enc.as_bytes(), &ExternalDh(&empty), INFO, mode)
            .unwrap_err();
        assert_eq!(err, HeldKeyError::Holder(suite::NotAnswered), "{name}");
    }
    // An `enc` that is not a point is refused before anything is asked.
    if let Ok(bad) = EncappedKey::<K>::from_bytes(&vec![0xffu8; sealed.modes[0].1.as_bytes().len()])
        && PublicKey::<K>::from_bytes(bad.as_bytes()).is_err()
    {
        assert_eq!(
            suite.dh_peers(bad.as_bytes(), ReceiverMode::Base).err(),
            Some(Error::Decap)
        );
    }
    assert!(format!("{:?}", suite::Answers::new(holder.public.clone())).contains("answers: 0"));

    // An Auth sender's answers: `DH(skS, pkR)` recorded under `pkR` seals to `pkR`, in both
    // Auth modes, and opens nothing.
    let holder_s = Holder::new(&sk_s.clone().into(), Behaviour::Honest);
    let mut answers = suite::SenderAnswers::new(holder_s.public.clone());
    assert_eq!(answers.public_key(), &holder_s.public);
    let mut dh = vec![0u8; dh_len::<K>()];
    holder_s.compute(pk_r.as_bytes(), &mut dh).unwrap();
    answers.answer(pk_r.as_bytes(), &dh);
    let rt_pk_r = suite::PublicKey::from(pk_r.clone());
    for sender in [
        SenderMode::Auth(&ExternalDh(&answers)),
        SenderMode::AuthPsk(&p, &ExternalDh(&answers)),
    ] {
        let (enc, ct) = suite
            .seal(&mut rng, &rt_pk_r, INFO, AAD, PT, sender)
            .unwrap();
        let mode = match sender {
            SenderMode::Auth(_) => ReceiverMode::Auth(&rt_pk_s),
            _ => ReceiverMode::AuthPsk(&p, &rt_pk_s),
        };
        let opened = suite.open(
            &enc,
            &suite::PrivateKey::from(sk_r.clone()),
            INFO,
            AAD,
            &ct,
            mode,
        );
        assert_eq!(opened.unwrap(), PT, "{name}: sender's answers");
    }
    assert!(format!("{answers:?}").contains("SenderAnswers"));
    // A recipient it has no answer for.
    let rt_pk_s = suite::PublicKey::from(pk_s.clone());
    let err = suite.seal(
        &mut rng,
        &rt_pk_s,
        INFO,
        AAD,
        PT,
        SenderMode::Auth(&ExternalDh(&answers)),
    );
    assert_eq!(err.unwrap_err(), Error::Encap);
}

#[test]
fn runtime_two_steps() {
    runtime_two_step::<DhKemX25519HkdfSha256>();
    runtime_two_step::<DhKemX448HkdfSha512>();
    runtime_two_step::<P256>();
    runtime_two_step::<DhKemP384HkdfSha384>();
    runtime_two_step::<DhKemP521HkdfSha512>();
    runtime_two_step::<DhKemSecp256k1HkdfSha256>();
    // A decapsulating holder's answer: the shared secret recorded for its `enc`.
    let (sk, pk) = MlKem768::derive_key_pair(b"answers ml-kem").unwrap();
    let suite = Suite::new(MlKem768::ID, 1, 3).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let (enc, ct) = S::<MlKem768>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    assert_eq!(
        suite.dh_peers(enc.as_bytes(), ReceiverMode::Base).err(),
        Some(Error::UnsupportedOperation)
    );
    let mut answers = suite::Answers::new(pk.into());
    answers.answer(
        enc.as_bytes(),
        MlKem768::decap(&enc, &sk).unwrap().as_bytes(),
    );
    let opened = suite.open(
        enc.as_bytes(),
        &ExternalDecap(&answers),
        INFO,
        AAD,
        &ct,
        ReceiverMode::Base,
    );
    assert_eq!(opened.unwrap(), PT);
}

#[test]
fn every_dh_kem_in_every_mode() {
    dh_kem::<DhKemX25519HkdfSha256>();
    dh_kem::<DhKemX448HkdfSha512>();
    dh_kem::<P256>();
    dh_kem::<DhKemP384HkdfSha384>();
    dh_kem::<DhKemP521HkdfSha512>();
    dh_kem::<DhKemSecp256k1HkdfSha256>();
}

/// How a test holder decapsulates.
type DecapFn = dyn Fn(&[u8]) -> Vec<u8> + Send + Sync;

/// A key of any KEM whose holder decapsulates whole.
struct Decapsulator<K: Kem> {
    /// How the holder computes: a reference crate, or (for the KEMs no crate here implements)
    /// the key in process.
    decap: Box<DecapFn>,
    public: suite::PublicKey,
    fail: bool,
    _kem: std::marker::PhantomData<K>,
}

impl<K: Kem> Decapsulator<K> {
    fn in_process(sk: PrivateKey<K>) -> Self {
        let public = suite::PublicKey::from(sk.public_key());
        let decap = move |enc: &[u8]| {
            let enc = EncappedKey::<K>::from_bytes(enc).unwrap();
            K::decap(&enc, &sk).unwrap().as_bytes().to_vec()
        };
        Self::with(public, decap)
    }

    fn with(
        public: suite::PublicKey,
        decap: impl Fn(&[u8]) -> Vec<u8> + Send + Sync + 'static,
    ) -> Self {
        Self {
            decap: Box::new(decap),
            public,
            fail: false,
            _kem: std::marker::PhantomData,
        }
    }

    fn run(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Refused> {
        if self.fail {
            return Err(Refused("no such key"));
        }
        out.copy_from_slice(&(self.decap)(enc));
        Ok(())
    }
}

impl<K: Kem> DecapHolder<K> for Decapsulator<K> {
    type Error = Refused;
    fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), Refused> {
        self.run(enc.as_bytes(), out)
    }
}

impl<K: Kem> suite::DecapHolder for Decapsulator<K> {
    type Error = Refused;
    fn public_key(&self) -> &suite::PublicKey {
        &self.public
    }
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Refused> {
        self.run(enc, out)
    }
}

/// Base and PSK through a decapsulating holder, typed and runtime, the same as in process.
fn decapsulating<K: Kem>(sk: PrivateKey<K>, holder: Decapsulator<K>) {
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = ChaCha20Rng::seed_from_u64(u64::from(K::ID) + 1);
    let pk = sk.public_key();
    let p = psk();
    let held = ExternalDecap(&holder);
    let runtime = Suite::new(K::ID, 1, 3).unwrap();
    let rt_sk = suite::PrivateKey::from(sk.clone());
    for with_psk in [false, true] {
        let (enc, ct) = if with_psk {
            S::<K>::seal_psk(&mut rng, &pk, INFO, AAD, PT, &p).unwrap()
        } else {
            S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap()
        };
        let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
        let (opened, in_process) = if with_psk {
            S::<K>::receive_export_psk(&enc, &held, INFO, b"x", &mut a, &p).unwrap();
            S::<K>::receive_export_psk(&enc, &sk, INFO, b"x", &mut b, &p).unwrap();
            (
                S::<K>::open_psk(&enc, &held, INFO, AAD, &ct, &p).unwrap(),
                S::<K>::open_psk(&enc, &sk, INFO, AAD, &ct, &p).unwrap(),
            )
        } else {
            S::<K>::receive_export_base(&enc, &held, INFO, b"x", &mut a).unwrap();
            S::<K>::receive_export_base(&enc, &sk, INFO, b"x", &mut b).unwrap();
            let mut into = vec![0u8; PT.len()];
            S::<K>::open_base_into(&enc, &held, INFO, AAD, &ct, &mut into).unwrap();
            assert_eq!(into, PT);
            (
                S::<K>::open_base(&enc, &held, INFO, AAD, &ct).unwrap(),
                S::<K>::open_base(&enc, &sk, INFO, AAD, &ct).unwrap(),
            )
        };
        assert_eq!((opened, a), (in_process, b), "{name} psk {with_psk}");

        let mode = if with_psk {
            ReceiverMode::Psk(&p)
        } else {
            ReceiverMode::Base
        };
        let (mut c, mut d) = ([0u8; 48], [0u8; 48]);
        runtime
            .receive_export(
                enc.as_bytes(),
                &ExternalDecap(&holder),
                INFO,
                b"x",
                &mut c,
                mode,
            )
            .unwrap();
        runtime
            .receive_export(enc.as_bytes(), &rt_sk, INFO, b"x", &mut d, mode)
            .unwrap();
        assert_eq!((c, d), (a, a), "{name} runtime psk {with_psk}");
        assert_eq!(
            runtime
                .open(
                    enc.as_bytes(),
                    &ExternalDecap(&holder),
                    INFO,
                    AAD,
                    &ct,
                    mode
                )
                .unwrap(),
            PT
        );

        // The two-step form: the answer for this `enc`, and no other.
        let secret = {
            let mut out = vec![0u8; K::decap(&enc, &sk).unwrap().as_bytes().len()];
            holder.run(enc.as_bytes(), &mut out).unwrap();
            out
        };
        let key = Decapsulated::new(&enc, &secret).unwrap();
        if !with_psk {
            assert_eq!(S::<K>::open_base(&enc, &key, INFO, AAD, &ct).unwrap(), PT);
            let (other, _) = S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
            assert_eq!(
                S::<K>::setup_receiver_base(&other, &key, INFO).unwrap_err(),
                Error::Decap
            );
        }
        assert_eq!(
            Decapsulated::new(&enc, &vec![0u8; secret.len()]).unwrap_err(),
            Error::Decap
        );
        assert_eq!(
            Decapsulated::new(&enc, &secret[1..]).unwrap_err(),
            Error::Decap
        );
        assert!(format!("{key:?}").contains("redacted"));
    }
    // The holder's error; the Auth modes, which need Diffie-Hellman values, at run time.
    let (enc, ct) = S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    let failing = Decapsulator::<K> {
        fail: true,
        ..Decapsulator::with(holder.public.clone(), |_| Vec::new())
    };
    assert_eq!(
        S::<K>::open_base(&enc, &ExternalDecap(&failing), INFO, AAD, &ct).unwrap_err(),
        HeldKeyError::Holder(Refused("no such key"))
    );
    assert_eq!(
        runtime
            .open(
                enc.as_bytes(),
                &ExternalDecap(&failing),
                INFO,
                AAD,
                &ct,
                ReceiverMode::Base
            )
            .unwrap_err(),
        HeldKeyError::Holder(Refused("no such key"))
    );
    if runtime.supports_auth() {
        assert_eq!(
            runtime
                .setup_receiver(
                    enc.as_bytes(),
                    &ExternalDecap(&holder),
                    INFO,
                    ReceiverMode::Auth(&holder.public),
                )
                .unwrap_err(),
            HeldKeyError::Hpke(Error::UnsupportedOperation)
        );
    }
}

fn decapsulating_in_process<K: Kem>() {
    let (sk, _) = K::derive_key_pair(b"decapsulating holder").unwrap();
    decapsulating(sk.clone(), Decapsulator::in_process(sk));
}

#[test]
fn ml_kem_768_through_the_ml_kem_crate() {
    use ml_kem::kem::Decapsulate;
    let (sk, pk) = MlKem768::derive_key_pair(b"ml-kem-768 holder").unwrap();
    let seed: [u8; 64] = sk.to_bytes().as_slice().try_into().unwrap();
    let theirs = ml_kem::DecapsulationKey::<ml_kem::MlKem768>::from_seed(seed.into());
    let holder = Decapsulator::with(pk.into(), move |enc| {
        let enc: [u8; 1088] = enc.try_into().unwrap();
        theirs.decapsulate(&enc.into()).to_vec()
    });
    decapsulating(sk, holder);
}

#[test]
fn x_wing_through_the_x_wing_crate() {
    use ml_kem::kem::Decapsulate;
    let (sk, pk) = XWing::derive_key_pair(b"x-wing holder").unwrap();
    let seed: [u8; 32] = sk.to_bytes().as_slice().try_into().unwrap();
    let theirs = x_wing::DecapsulationKey::from(seed);
    let holder = Decapsulator::with(pk.into(), move |enc| {
        let enc: [u8; 1120] = enc.try_into().unwrap();
        theirs.decapsulate(&enc.into()).to_vec()
    });
    decapsulating(sk, holder);
}

#[test]
fn every_kem_through_a_decapsulating_holder() {
    for_each_kem!(decapsulating_in_process);
}

#[test]
fn runtime_refusals() {
    let (sk, _) = P256::derive_key_pair(b"p256").unwrap();
    let holder = Holder::new(&sk.into(), Behaviour::Honest);
    let held = ExternalDh(&holder);
    // A holder of another KEM's key, a KEM without Diffie-Hellman, an `enc` of the wrong
    // length: refused before the holder is asked.
    let x25519 = Suite::new(DhKemX25519HkdfSha256::ID, 1, 1).unwrap();
    let err = x25519
        .setup_receiver(&[9u8; 32], &held, b"", ReceiverMode::Base)
        .unwrap_err();
    assert_eq!(err, HeldKeyError::Hpke(Error::InvalidPrivateKey));
    let mlkem = Suite::new(MlKem768::ID, 1, 1).unwrap();
    let err = mlkem
        .setup_receiver(&[0u8; 1088], &held, b"", ReceiverMode::Base)
        .unwrap_err();
    assert_eq!(err, HeldKeyError::Hpke(Error::UnsupportedOperation));
    let p256 = Suite::new(P256::ID, 1, 1).unwrap();
    let err = p256
        .setup_receiver(&[4u8; 64], &held, b"", ReceiverMode::Base)
        .unwrap_err();
    assert_eq!(err, HeldKeyError::Hpke(Error::InvalidEncappedKey));
    assert_eq!(holder.asked(), 0);
    assert!(format!("{:?}", SenderMode::Auth(&held)).contains("ExternalDh"));
}

/// One holder, shared by reference, opens on many threads at once; the wrapped keys are
/// `Send` and `Sync` whenever the holder is.
#[test]
fn holders_serve_many_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    type K = DhKemX25519HkdfSha256;
    let (sk, pk) = K::derive_key_pair(b"threads").unwrap();
    let holder = Holder::new(&sk.into(), Behaviour::Honest);
    let typed = ExternalDh(holder.typed::<K>());
    send_sync(&typed);
    send_sync(&ExternalDh(std::sync::Arc::new(holder.typed::<K>())));
    let runtime = Suite::new(K::ID, 1, 3).unwrap();
    let opened = Cell::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4u64)
            .map(|t| {
                let (typed, holder, pk) = (&typed, &holder, &pk);
                scope.spawn(move || {
                    let mut rng = ChaCha20Rng::seed_from_u64(t);
                    for _ in 0..25 {
                        let (enc, ct) = S::<K>::seal_base(&mut rng, pk, INFO, AAD, PT).unwrap();
                        assert_eq!(S::<K>::open_base(&enc, typed, INFO, AAD, &ct).unwrap(), PT);
                        let rt = runtime
                            .open(
                                enc.as_bytes(),
                                &ExternalDh(holder),
                                INFO,
                                AAD,
                                &ct,
                                ReceiverMode::Base,
                            )
                            .unwrap();
                        assert_eq!(rt, PT);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
            opened.set(opened.get() + 25);
        }
    });
    assert_eq!(holder.asked(), 2 * opened.get());
}

/// A `Decapsulated` answer opens the `enc` it was given for, and no other.
#[test]
fn decapsulated_binds_its_enc() {
    type K = MlKem768;
    let (sk, pk) = K::derive_key_pair(b"bind").unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let (enc1, ct1) = S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    let (enc2, _) = S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    let secret = K::decap(&enc1, &sk).unwrap();
    let key = Decapsulated::new(&enc1, secret.as_bytes()).unwrap();
    assert_eq!(S::<K>::open_base(&enc1, &key, INFO, AAD, &ct1).unwrap(), PT);
    assert_eq!(
        S::<K>::setup_receiver_base(&enc2, &key, INFO).unwrap_err(),
        Error::Decap
    );
}

/// A hybrid key with its halves apart (`SplitHybrid`): the ML-KEM half in process, the
/// traditional scalar with a `DhHolder` computing with the reference crates. Built from the
/// halves a hybrid seed expands to (draft-ietf-hpke-pq §4: `SHAKE256(seed)` gives the ML-KEM
/// seed `d || z`, then the traditional candidates), so it must be the same key as the seed's:
/// the same public key, the same shared secret for honest and for random `enc`s, and the same
/// messages opened. The holder is not asked about a `ct_T` that is not a valid point, and its
/// error and an all-zero answer are refusals.
fn split_hybrid<K: typed_hpke::kem::HybridKem>(nscalar: usize, weierstrass: bool) {
    use shake::digest::{ExtendableOutput, Update, XofReader};
    use typed_hpke::hybrid_array::typenum::Unsigned;
    use typed_hpke::kem::SplitHybrid;
    let mut rng = ChaCha20Rng::from_seed([0x5b; 32]);
    for round in 0..8 {
        let (whole, pk) = K::generate(&mut rng).unwrap();
        let mut xof = shake::Shake256::default();
        xof.update(&whole.to_bytes());
        let mut reader = xof.finalize_xof();
        let mut dz = [0u8; 64];
        reader.read(&mut dz);
        let scalar = loop {
            let mut candidate = vec![0u8; nscalar];
            reader.read(&mut candidate);
            if let Ok(sk) = PrivateKey::<K::Traditional>::from_bytes(&candidate) {
                break sk;
            }
        };
        let ml_kem = PrivateKey::<K::MlKem>::from_bytes(&dz).unwrap();
        // `PrivateKey::expanded_halves` gives the same two secrets as this expansion.
        let (half_m, half_t) = whole.expanded_halves();
        assert_eq!(half_m[..], dz[..], "round {round}: the ML-KEM half");
        assert_eq!(
            half_t,
            scalar.to_bytes(),
            "round {round}: the traditional half"
        );
        let holder = Holder::new(&suite::PrivateKey::from(scalar), Behaviour::Honest);
        let split = SplitHybrid::<K, _>::new(ml_kem.clone(), holder.typed::<K::Traditional>());
        assert_eq!(split.public_key(), &pk, "round {round}: the public key");
        let (enc, ct) = S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
        assert_eq!(S::<K>::open_base(&enc, &split, INFO, AAD, &ct).unwrap(), PT);
        // Both halves held (`SplitHybrid::held`): the ML-KEM half by a decapsulating holder,
        // as a PKCS#11 3.2 token holds it. The same key as the seed's, shared secret included.
        let held = SplitHybrid::<K, _, _>::held(
            ml_kem.public_key(),
            Decapsulator::<K::MlKem>::in_process(ml_kem.clone()),
            holder.typed::<K::Traditional>(),
        );
        assert_eq!(
            held.public_key(),
            &pk,
            "round {round}: the held halves' key"
        );
        assert_eq!(
            held.decap(&enc).unwrap().as_bytes(),
            K::decap(&enc, &whole).unwrap().as_bytes(),
            "round {round}: the held halves' shared secret"
        );
        assert_eq!(S::<K>::open_base(&enc, &held, INFO, AAD, &ct).unwrap(), PT);
        let (enc_psk, ct_psk) = S::<K>::seal_psk(&mut rng, &pk, INFO, AAD, PT, &psk()).unwrap();
        assert_eq!(
            S::<K>::open_psk(&enc_psk, &held, INFO, AAD, &ct_psk, &psk()).unwrap(),
            PT
        );
        let (enc, ct) = S::<K>::seal_psk(&mut rng, &pk, INFO, AAD, PT, &psk()).unwrap();
        assert_eq!(
            S::<K>::open_psk(&enc, &split, INFO, AAD, &ct, &psk()).unwrap(),
            PT
        );
        // A tampered ct_PQ: implicit rejection gives the same pseudorandom secret either way.
        let mut tampered = enc.as_bytes().to_vec();
        tampered[3] ^= 0x40;
        let tampered = EncappedKey::<K>::from_bytes(&tampered).unwrap();
        let a = S::<K>::setup_receiver_base(&tampered, &whole, INFO).unwrap();
        let b = S::<K>::setup_receiver_base(&tampered, &split, INFO).unwrap();
        let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
        a.export(b"x", &mut x).unwrap();
        b.export(b"x", &mut y).unwrap();
        assert_eq!(x, y, "round {round}: implicit rejection");
    }
    let (ml_kem, _) = K::MlKem::generate(&mut rng).unwrap();
    let (t_sk, _) = K::Traditional::generate(&mut rng).unwrap();
    let holder = Holder::new(&suite::PrivateKey::from(t_sk.clone()), Behaviour::Honest);
    let split = SplitHybrid::<K, _>::new(ml_kem.clone(), holder.typed::<K::Traditional>());
    let (enc, _) = S::<K>::seal_base(&mut rng, split.public_key(), INFO, AAD, PT).unwrap();
    if weierstrass {
        // ct_T with SEC 1 tag 0x05: not a point; refused before the holder is asked. (Every
        // 32-byte string is an X25519 point: there a low-order ct_T is the all-zero answer.)
        let mut bad = enc.as_bytes().to_vec();
        let nenc_t = <K::Traditional as Kem>::NEnc::USIZE;
        let at = bad.len() - nenc_t;
        bad[at] = 0x05;
        let bad = EncappedKey::<K>::from_bytes(&bad).unwrap();
        assert_eq!(
            S::<K>::setup_receiver_base(&bad, &split, INFO).unwrap_err(),
            HeldKeyError::Hpke(Error::Decap)
        );
        assert_eq!(holder.asked(), 0, "asked about an invalid ct_T");
    }
    for (behaviour, expected) in [
        (
            Behaviour::Fails,
            HeldKeyError::Holder(Refused("the token is gone")),
        ),
        (Behaviour::Zeros, HeldKeyError::Hpke(Error::Decap)),
    ] {
        let holder = Holder::new(&suite::PrivateKey::from(t_sk.clone()), behaviour);
        let split = SplitHybrid::<K, _>::new(ml_kem.clone(), holder.typed::<K::Traditional>());
        assert_eq!(
            S::<K>::setup_receiver_base(&enc, &split, INFO).unwrap_err(),
            expected
        );
        assert_eq!(holder.asked(), 1);
    }
    // A held ML-KEM half that fails: its error, and the traditional half is not asked.
    let holder = Holder::new(&suite::PrivateKey::from(t_sk.clone()), Behaviour::Honest);
    let mut failing = Decapsulator::<K::MlKem>::in_process(ml_kem.clone());
    failing.fail = true;
    let held = SplitHybrid::<K, _, _>::held(
        ml_kem.public_key(),
        failing,
        holder.typed::<K::Traditional>(),
    );
    assert_eq!(held.public_key(), split.public_key());
    assert_eq!(
        S::<K>::setup_receiver_base(&enc, &held, INFO).unwrap_err(),
        HeldKeyError::Holder(Refused("no such key"))
    );
    assert_eq!(
        holder.asked(),
        0,
        "the traditional half asked after the ML-KEM half failed"
    );
    // Debug shows the public key, not the ML-KEM seed.
    let shown = format!("{split:?}");
    let seed: String = ml_kem
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(shown.starts_with("SplitHybrid") && !shown.contains(&seed));
}

#[test]
fn split_hybrids_are_the_seeds_keys() {
    split_hybrid::<MlKem768P256>(32, true);
    split_hybrid::<MlKem1024P384>(48, true);
    split_hybrid::<XWing>(32, false);
}
