//! `held`: the receiver-key seam with keys held elsewhere, from the input: the two-step forms
//! (`DhRequest` on X25519 and P-256 in Base and Auth mode, `Decapsulated` on ML-KEM-768 and
//! X-Wing) and the wrappers over holders (typed `ExternalDh` / `ExternalDecap`, runtime
//! `suite::DhHolder`), given an `enc` that is honest or the input's bytes, and answers that are
//! honest, the input's bytes, all zeros, of the wrong length or count, or a holder failure.
//! Each outcome is decided in advance: the honest answers open what the key in process opens,
//! anything else is the error its rule names, never a panic and never a context that opens.

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{
    AuthKem, DecapHolder, Decapsulated, DhHolder, DhKemP256HkdfSha256, DhKemX25519HkdfSha256,
    DhRequest, EncappedKey, ExternalDecap, ExternalDh, HeldKeyError, Kem, MlKem768, XWing,
};
use typed_hpke::suite::{self, ReceiverMode, Suite};
use typed_hpke::{Error, Hpke, PrivateKey, PublicKey};

use crate::Input;

const INFO: &[u8] = b"held";
const PT: &[u8] = b"held elsewhere";

/// How an answer is made, from an input byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Answer {
    Honest,
    /// The input's bytes, `Ndh` long.
    Input,
    Zeros,
    /// One byte short.
    Short,
}

fn answer(b: u8) -> Answer {
    match b % 4 {
        0 => Answer::Honest,
        1 => Answer::Input,
        2 => Answer::Zeros,
        _ => Answer::Short,
    }
}

fn make(kind: Answer, honest: &[u8], input: &mut Input<'_>) -> Vec<u8> {
    match kind {
        Answer::Honest => honest.to_vec(),
        Answer::Input => {
            let mut v = input.take(honest.len()).to_vec();
            v.resize(honest.len(), 0x55);
            v
        }
        Answer::Zeros => vec![0; honest.len()],
        Answer::Short => honest[1..].to_vec(),
    }
}

/// A holder computing with the reference crates from the key's bytes; or failing.
struct InProcess<'a, K: Kem> {
    sk: &'a PrivateKey<K>,
    pk: PublicKey<K>,
    fail: bool,
}

/// `DH(sk, peer)` as the reference crates compute it (x25519-dalek; RustCrypto's P-256
/// arithmetic, the x-coordinate), never through typed-hpke.
fn honest_dh<K: AuthKem>(sk: &PrivateKey<K>, peer: &PublicKey<K>) -> Vec<u8> {
    let sk = sk.to_bytes();
    match K::ID {
        0x0020 => {
            let sk = x25519_dalek::StaticSecret::from(<[u8; 32]>::try_from(&sk[..]).unwrap());
            let peer = <[u8; 32]>::try_from(peer.as_bytes()).unwrap();
            sk.diffie_hellman(&peer.into()).as_bytes().to_vec()
        }
        _ => {
            use p256::elliptic_curve::point::AffineCoordinates as _;
            use p256::elliptic_curve::sec1::FromSec1Point as _;
            let sk = p256::NonZeroScalar::try_from(&sk[..]).unwrap();
            let peer = p256::AffinePoint::from_sec1_bytes(peer.as_bytes()).unwrap();
            (p256::ProjectivePoint::from(peer) * *sk)
                .to_affine()
                .x()
                .to_vec()
        }
    }
}

impl<K: AuthKem> DhHolder<K> for InProcess<'_, K> {
    type Error = &'static str;
    fn public_key(&self) -> &PublicKey<K> {
        &self.pk
    }
    fn dh(&self, peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), &'static str> {
        if self.fail {
            return Err("holder failed");
        }
        out.copy_from_slice(&honest_dh(self.sk, peer));
        Ok(())
    }
}

/// `Ndh` for the two curves this target runs.
fn dh_len<K: AuthKem>() -> usize {
    use typed_hpke::hybrid_array::typenum::Unsigned;
    K::NDh::USIZE
}

fn dh_kem<K: AuthKem>(input: &mut Input<'_>) {
    type S<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = {
        use rand_chacha::rand_core::SeedableRng as _;
        rand_chacha::ChaCha20Rng::seed_from_u64(crate::seed_of(input.0))
    };
    let (sk_r, pk_r) = K::derive_key_pair(b"fuzz held receiver").unwrap();
    let (sk_s, pk_s) = K::derive_key_pair(b"fuzz held sender").unwrap();
    let auth = input.byte() & 1 == 1;
    let honest_enc = input.byte() & 1 == 0;
    let (enc, ct) = if auth {
        S::<K>::seal_auth(&mut rng, &pk_r, INFO, b"", PT, &sk_s).unwrap()
    } else {
        S::<K>::seal_base(&mut rng, &pk_r, INFO, b"", PT).unwrap()
    };
    let enc = if honest_enc {
        enc
    } else {
        let mut bytes = input.take(enc.as_bytes().len()).to_vec();
        bytes.resize(enc.as_bytes().len(), 0);
        EncappedKey::from_bytes(&bytes).unwrap()
    };
    let request = if auth {
        DhRequest::auth_decap(&enc, &pk_r, &pk_s)
    } else {
        DhRequest::decap(&enc, &pk_r)
    };
    let Ok(request) = request else {
        // Refused only for an `enc` that is not a public key of the KEM.
        assert!(PublicKey::<K>::from_bytes(enc.as_bytes()).is_err());
        return;
    };
    let peers: Vec<PublicKey<K>> = request.peers().cloned().collect();
    assert_eq!(peers.len(), 1 + usize::from(auth));
    let kinds: Vec<Answer> = peers.iter().map(|_| answer(input.byte())).collect();
    let answers: Vec<Vec<u8>> = peers
        .iter()
        .zip(&kinds)
        .map(|(peer, &kind)| make(kind, &honest_dh(&sk_r, peer), input))
        .collect();
    let mut slices: Vec<&[u8]> = answers.iter().map(Vec::as_slice).collect();
    let drop_one = input.byte() == 0xff;
    if drop_one {
        slices.pop();
    }
    let result = request.answer(&slices);
    if drop_one {
        assert_eq!(result.unwrap_err(), Error::InvalidLength);
        return;
    }
    // Refused: an answer of the wrong length or all zeros, which the honest one is too for a
    // low-order X25519 `enc` (RFC 9180 §7.1.4).
    let refused = answers
        .iter()
        .any(|a| a.len() != dh_len::<K>() || a.iter().all(|&b| b == 0));
    let key = match result {
        Ok(key) => {
            assert!(!refused, "{kinds:?} accepted");
            key
        }
        Err(e) => {
            assert!(refused, "{kinds:?} refused: {e:?}");
            assert_eq!(e, Error::Decap);
            return;
        }
    };
    let opened = if auth {
        S::<K>::open_auth(&enc, &key, INFO, b"", &ct, &pk_s)
    } else {
        S::<K>::open_base(&enc, &key, INFO, b"", &ct)
    };
    let in_process = if auth {
        S::<K>::open_auth(&enc, &sk_r, INFO, b"", &ct, &pk_s)
    } else {
        S::<K>::open_base(&enc, &sk_r, INFO, b"", &ct)
    };
    // Input bytes that happen to equal the honest value count as honest.
    let honest = answers
        .iter()
        .zip(&peers)
        .all(|(a, peer)| *a == honest_dh(&sk_r, peer));
    if honest {
        assert_eq!(opened.as_deref().ok(), in_process.as_deref().ok());
    } else {
        assert!(opened.is_err(), "a wrong answer opened");
    }

    // The wrapper over a holder, typed and runtime: the holder's failure comes back as its own.
    let fail = input.byte() & 1 == 1;
    let holder = ExternalDh(InProcess {
        sk: &sk_r,
        pk: pk_r.clone(),
        fail,
    });
    let typed = S::<K>::open_base(&enc, &holder, INFO, b"", &ct);
    if fail {
        assert_eq!(typed.unwrap_err(), HeldKeyError::Holder("holder failed"));
    } else {
        let plain = S::<K>::open_base(&enc, &sk_r, INFO, b"", &ct);
        assert_eq!(typed.ok(), plain.ok());
    }
    let runtime = Suite::new(K::ID, 1, 3).unwrap();
    let rt_holder = RuntimeHolder {
        pk: suite::PublicKey::from(pk_r.clone()),
        sk: &sk_r,
        fail,
    };
    let rt = runtime.open(
        enc.as_bytes(),
        &ExternalDh(&rt_holder),
        INFO,
        b"",
        &ct,
        ReceiverMode::Base,
    );
    if fail && PublicKey::<K>::from_bytes(enc.as_bytes()).is_ok() {
        assert!(matches!(rt, Err(HeldKeyError::Holder(_))));
    }
}

/// The runtime holder over the same in-process computation.
struct RuntimeHolder<'a, K: Kem> {
    pk: suite::PublicKey,
    sk: &'a PrivateKey<K>,
    fail: bool,
}

impl<K: AuthKem> suite::DhHolder for RuntimeHolder<'_, K> {
    type Error = &'static str;
    fn public_key(&self) -> &suite::PublicKey {
        &self.pk
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
        if self.fail {
            return Err("holder failed");
        }
        let peer = PublicKey::<K>::from_bytes(peer).expect("a validated peer");
        out.copy_from_slice(&honest_dh(self.sk, &peer));
        Ok(())
    }
}

/// A decapsulating holder over the key in process.
struct Decapsulator<'a, K: Kem>(&'a PrivateKey<K>);

impl<K: Kem> DecapHolder<K> for Decapsulator<'_, K> {
    type Error = Error;
    fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), Error> {
        out.copy_from_slice(K::decap(enc, self.0)?.as_bytes());
        Ok(())
    }
}

fn pq_kem<K: Kem>(input: &mut Input<'_>) {
    type S<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = {
        use rand_chacha::rand_core::SeedableRng as _;
        rand_chacha::ChaCha20Rng::seed_from_u64(crate::seed_of(input.0))
    };
    let (sk, pk) = K::derive_key_pair(b"fuzz held pq").unwrap();
    let (enc, ct) = S::<K>::seal_base(&mut rng, &pk, INFO, b"", PT).unwrap();
    let enc = if input.byte() & 1 == 0 {
        enc
    } else {
        let mut bytes = input.take(enc.as_bytes().len()).to_vec();
        bytes.resize(enc.as_bytes().len(), 0);
        EncappedKey::from_bytes(&bytes).unwrap()
    };
    let honest = K::decap(&enc, &sk).map(|s| s.as_bytes().to_vec());
    let Ok(honest) = honest else {
        // The hybrids over P-256 refuse an invalid point; the holder would too.
        let held = S::<K>::open_base(&enc, &ExternalDecap(Decapsulator(&sk)), INFO, b"", &ct);
        assert!(matches!(held, Err(HeldKeyError::Holder(Error::Decap))));
        return;
    };
    let kind = answer(input.byte());
    let secret = make(kind, &honest, input);
    // Refused: a secret of the wrong length, or all zeros (the input's bytes can be).
    let refused = secret.len() != honest.len() || secret.iter().all(|&b| b == 0);
    match Decapsulated::new(&enc, &secret) {
        Ok(key) => {
            assert!(!refused, "{kind:?} accepted");
            let opened = S::<K>::open_base(&enc, &key, INFO, b"", &ct);
            let plain = S::<K>::open_base(&enc, &sk, INFO, b"", &ct);
            if secret == honest {
                assert_eq!(opened.ok(), plain.ok());
            } else {
                assert!(opened.is_err(), "a wrong secret opened");
            }
        }
        Err(e) => {
            assert!(refused, "{kind:?}: {e:?}");
            assert_eq!(e, Error::Decap);
        }
    }
    let held = S::<K>::open_base(&enc, &ExternalDecap(Decapsulator(&sk)), INFO, b"", &ct);
    assert_eq!(held.ok(), S::<K>::open_base(&enc, &sk, INFO, b"", &ct).ok());
}

pub fn held(data: &[u8]) {
    let mut input = Input(data);
    match input.byte() % 4 {
        0 => dh_kem::<DhKemX25519HkdfSha256>(&mut input),
        1 => dh_kem::<DhKemP256HkdfSha256>(&mut input),
        2 => pq_kem::<MlKem768>(&mut input),
        _ => pq_kem::<XWing>(&mut input),
    }
}
