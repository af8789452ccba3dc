//! The peer crates behind one byte-level interface: keys, `enc` and ciphertexts cross between
//! the implementations as wire bytes, exactly as they would between two programs.

#![allow(dead_code)]

use core::marker::PhantomData;

use rand_chacha::ChaCha20Rng;
use typed_hpke::aead::Aead;
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::Kem;

use crate::hpke_ng_auth::NgMaybeAuth;
use crate::modes::Mode;

pub type PeerResult<T> = Result<T, String>;

fn err<E: core::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// The inputs of one setup, as bytes.
pub struct Inputs<'a> {
    pub mode: Mode,
    pub info: &'a [u8],
    pub psk: &'a [u8],
    pub psk_id: &'a [u8],
}

/// How the peer consumes the caller's generator when it encapsulates, i.e. how our side
/// reproduces its `enc` from the same stream.
pub enum RngUse {
    /// Our own setup, fed an identically seeded generator, draws the same bytes the same way.
    Same,
    /// The peer runs `DeriveKeyPair` on the first `n` bytes of the stream (RFC 9180's own
    /// definition of GenerateKeyPair); our deterministic setup takes them as `ikmE`.
    DeriveKeyPairIkm(usize),
    /// The peer takes the caller's generator but turns it into a key with another sampler.
    DifferentSampler,
    /// The peer takes no caller randomness (hpke-rs's RustCrypto provider seeds its generator
    /// from the OS and offers no way to seed it).
    NotInjectable,
}

pub trait PeerSender {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> PeerResult<Vec<u8>>;
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>>;
}

pub trait PeerReceiver {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>>;
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>>;
}

pub trait Peer {
    const NAME: &'static str;
    fn rng_use<K: Kem>() -> RngUse;
    /// `(skXm, pkXm)` as the peer serializes them.
    fn derive_key_pair(ikm: &[u8]) -> PeerResult<(Vec<u8>, Vec<u8>)>;
    /// `sender` is `(skS, pkS)`, used by the auth modes only.
    fn setup_sender(
        inputs: &Inputs<'_>,
        pk_r: &[u8],
        sender: (&[u8], &[u8]),
        rng: &mut ChaCha20Rng,
    ) -> PeerResult<(Vec<u8>, Box<dyn PeerSender>)>;
    /// `pk_s` is used by the auth modes only.
    fn setup_receiver(
        inputs: &Inputs<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> PeerResult<Box<dyn PeerReceiver>>;
}

// ---------------------------------------------------------------------------------------------
// rust-hpke (`hpke` 0.15.1): generic functions over its KEM / KDF / AEAD types, a runtime
// `OpModeS` / `OpModeR`, and `setup_sender_with_rng` for the caller's randomness.

pub struct RustHpke<K, F, A>(PhantomData<(K, F, A)>);

struct RustHpkeSender<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead>(
    hpke::aead::AeadCtxS<A, F, K>,
);
struct RustHpkeReceiver<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead>(
    hpke::aead::AeadCtxR<A, F, K>,
);

impl<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead> PeerSender for RustHpkeSender<K, F, A> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> PeerResult<Vec<u8>> {
        self.0.seal(pt, aad).map_err(err)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).map_err(err)?;
        Ok(out)
    }
}

impl<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead> PeerReceiver
    for RustHpkeReceiver<K, F, A>
{
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>> {
        self.0.open(ct, aad).map_err(err)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).map_err(err)?;
        Ok(out)
    }
}

impl<K, F, A> Peer for RustHpke<K, F, A>
where
    K: hpke::Kem + 'static,
    F: hpke::kdf::Kdf + 'static,
    A: hpke::aead::Aead + 'static,
{
    const NAME: &'static str = "rust-hpke";

    fn rng_use<Ours: Kem>() -> RngUse {
        use typed_hpke::hybrid_array::typenum::Unsigned;
        // DH-KEM GenerateKeyPair is DeriveKeyPair(random(Nsk)); the PQ KEMs and hybrids
        // draw the ML-KEM `m` and then the ephemeral key exactly as we do.
        match Ours::ID {
            0x0010..=0x0021 => RngUse::DeriveKeyPairIkm(Ours::NSk::USIZE),
            _ => RngUse::Same,
        }
    }

    fn derive_key_pair(ikm: &[u8]) -> PeerResult<(Vec<u8>, Vec<u8>)> {
        use hpke::Serializable;
        let (sk, pk) = K::derive_keypair(ikm);
        Ok((sk.to_bytes().to_vec(), pk.to_bytes().to_vec()))
    }

    fn setup_sender(
        inputs: &Inputs<'_>,
        pk_r: &[u8],
        (sk_s, pk_s): (&[u8], &[u8]),
        rng: &mut ChaCha20Rng,
    ) -> PeerResult<(Vec<u8>, Box<dyn PeerSender>)> {
        use hpke::{Deserializable, OpModeS, PskBundle, Serializable};
        let pk_r = K::PublicKey::from_bytes(pk_r).map_err(err)?;
        let bundle = PskBundle::new(inputs.psk, inputs.psk_id).map_err(err)?;
        let sender = || -> PeerResult<_> {
            Ok((
                K::PrivateKey::from_bytes(sk_s).map_err(err)?,
                K::PublicKey::from_bytes(pk_s).map_err(err)?,
            ))
        };
        let mode = match inputs.mode {
            Mode::Base => OpModeS::Base,
            Mode::Psk => OpModeS::Psk(bundle),
            Mode::Auth => OpModeS::Auth(sender()?),
            Mode::AuthPsk => OpModeS::AuthPsk(sender()?, bundle),
        };
        let (enc, ctx) =
            hpke::setup_sender_with_rng::<A, F, K>(&mode, &pk_r, inputs.info, rng).map_err(err)?;
        Ok((enc.to_bytes().to_vec(), Box::new(RustHpkeSender(ctx))))
    }

    fn setup_receiver(
        inputs: &Inputs<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> PeerResult<Box<dyn PeerReceiver>> {
        use hpke::{Deserializable, OpModeR, PskBundle};
        let sk_r = K::PrivateKey::from_bytes(sk_r).map_err(err)?;
        let enc = K::EncappedKey::from_bytes(enc).map_err(err)?;
        let bundle = PskBundle::new(inputs.psk, inputs.psk_id).map_err(err)?;
        let pk_s = || K::PublicKey::from_bytes(pk_s).map_err(err);
        let mode = match inputs.mode {
            Mode::Base => OpModeR::Base,
            Mode::Psk => OpModeR::Psk(bundle),
            Mode::Auth => OpModeR::Auth(pk_s()?),
            Mode::AuthPsk => OpModeR::AuthPsk(pk_s()?, bundle),
        };
        let ctx = hpke::setup_receiver::<A, F, K>(&mode, &sk_r, &enc, inputs.info).map_err(err)?;
        Ok(Box::new(RustHpkeReceiver(ctx)))
    }
}

// ---------------------------------------------------------------------------------------------
// hpke-ng 0.2: typed like us; auth only on `AuthKem`, seal only on `SealingAead`, so two small
// traits route the calls the matrix makes: `NgMaybeAuth` (`hpke_ng_auth.rs`) and `NgAead`.

pub struct HpkeNg<K, F, A>(PhantomData<(K, F, A)>);

type NgSenderCtx<K, F, A> = hpke_ng::SenderContext<K, F, A>;
type NgReceiverCtx<K, F, A> = hpke_ng::ReceiverContext<K, F, A>;

const NG_NO_AUTH: &str = "hpke-ng has no auth modes for this KEM";

pub trait NgAead: hpke_ng::Aead + Sized + 'static {
    fn seal<K: hpke_ng::Kem, F: hpke_ng::Kdf>(
        _ctx: &mut NgSenderCtx<K, F, Self>,
        _aad: &[u8],
        _pt: &[u8],
    ) -> PeerResult<Vec<u8>> {
        Err("export-only".into())
    }
    fn open<K: hpke_ng::Kem, F: hpke_ng::Kdf>(
        _ctx: &mut NgReceiverCtx<K, F, Self>,
        _aad: &[u8],
        _ct: &[u8],
    ) -> PeerResult<Vec<u8>> {
        Err("export-only".into())
    }
}

macro_rules! ng_sealing {
    ($($a:ty),*) => {$(
        impl NgAead for $a {
            fn seal<K: hpke_ng::Kem, F: hpke_ng::Kdf>(
                ctx: &mut NgSenderCtx<K, F, Self>, aad: &[u8], pt: &[u8],
            ) -> PeerResult<Vec<u8>> {
                ctx.seal(aad, pt).map_err(err)
            }
            fn open<K: hpke_ng::Kem, F: hpke_ng::Kdf>(
                ctx: &mut NgReceiverCtx<K, F, Self>, aad: &[u8], ct: &[u8],
            ) -> PeerResult<Vec<u8>> {
                ctx.open(aad, ct).map_err(err)
            }
        }
    )*};
}

ng_sealing!(
    hpke_ng::Aes128Gcm,
    hpke_ng::Aes256Gcm,
    hpke_ng::ChaCha20Poly1305
);
impl NgAead for hpke_ng::ExportOnly {}

struct NgSender<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: hpke_ng::Aead>(NgSenderCtx<K, F, A>);
struct NgReceiver<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: hpke_ng::Aead>(NgReceiverCtx<K, F, A>);

impl<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: NgAead> PeerSender for NgSender<K, F, A> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> PeerResult<Vec<u8>> {
        A::seal(&mut self.0, aad, pt)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        self.0.export(ctx, len).map_err(err)
    }
}

impl<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: NgAead> PeerReceiver for NgReceiver<K, F, A> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>> {
        A::open(&mut self.0, aad, ct)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        self.0.export(ctx, len).map_err(err)
    }
}

impl<K: NgMaybeAuth, F: hpke_ng::Kdf + 'static, A: NgAead> Peer for HpkeNg<K, F, A> {
    const NAME: &'static str = "hpke-ng";

    fn rng_use<Ours: Kem>() -> RngUse {
        match Ours::ID {
            // P-256, P-384, P-521, secp256k1: hpke-ng samples its ephemeral key with
            // `SecretKey::generate_from_rng`, a different (equally valid) sampler from our
            // `NonZeroScalar::generate_from_rng`, so the same stream gives another scalar.
            0x0010..=0x0012 | 0x0016 => RngUse::DifferentSampler,
            // X25519 / X448 take the raw scalar bytes, the PQ KEMs draw `m` (and X-Wing its
            // X25519 scalar) in the same order as we do.
            _ => RngUse::Same,
        }
    }

    fn derive_key_pair(ikm: &[u8]) -> PeerResult<(Vec<u8>, Vec<u8>)> {
        let (sk, pk) = K::derive_key_pair(ikm).map_err(err)?;
        Ok((K::sk_to_bytes(&sk).to_vec(), K::pk_to_bytes(&pk)))
    }

    fn setup_sender(
        inputs: &Inputs<'_>,
        pk_r: &[u8],
        (sk_s, _pk_s): (&[u8], &[u8]),
        rng: &mut ChaCha20Rng,
    ) -> PeerResult<(Vec<u8>, Box<dyn PeerSender>)> {
        type H<K, F, A> = hpke_ng::Hpke<K, F, A>;
        let pk_r = K::pk_from_bytes(pk_r).map_err(err)?;
        let psk = || hpke_ng::Psk::new(inputs.psk, inputs.psk_id).map_err(err);
        let (enc, ctx) = match inputs.mode {
            Mode::Base => H::<K, F, A>::setup_sender_base(rng, &pk_r, inputs.info).map_err(err)?,
            Mode::Psk => {
                H::<K, F, A>::setup_sender_psk(rng, &pk_r, inputs.info, psk()?).map_err(err)?
            }
            Mode::Auth | Mode::AuthPsk => {
                let sk_s = K::sk_from_bytes(sk_s).map_err(err)?;
                let psk = inputs.mode.has_psk().then(psk).transpose()?;
                K::setup_sender_auth::<F, A>(rng, &pk_r, inputs.info, psk, &sk_s)
                    .ok_or(NG_NO_AUTH)?
                    .map_err(err)?
            }
        };
        Ok((enc.as_ref().to_vec(), Box::new(NgSender(ctx))))
    }

    fn setup_receiver(
        inputs: &Inputs<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> PeerResult<Box<dyn PeerReceiver>> {
        type H<K, F, A> = hpke_ng::Hpke<K, F, A>;
        let enc = K::enc_from_bytes(enc).map_err(err)?;
        let sk_r = K::sk_from_bytes(sk_r).map_err(err)?;
        let psk = || hpke_ng::Psk::new(inputs.psk, inputs.psk_id).map_err(err);
        let info = inputs.info;
        let ctx = match inputs.mode {
            Mode::Base => H::<K, F, A>::setup_receiver_base(&enc, &sk_r, info).map_err(err)?,
            Mode::Psk => {
                H::<K, F, A>::setup_receiver_psk(&enc, &sk_r, info, psk()?).map_err(err)?
            }
            Mode::Auth | Mode::AuthPsk => {
                let pk_s = K::pk_from_bytes(pk_s).map_err(err)?;
                let psk = inputs.mode.has_psk().then(psk).transpose()?;
                K::setup_receiver_auth::<F, A>(&enc, &sk_r, info, psk, &pk_s)
                    .ok_or(NG_NO_AUTH)?
                    .map_err(err)?
            }
        };
        Ok(Box::new(NgReceiver(ctx)))
    }
}

// ---------------------------------------------------------------------------------------------
// hpke-rs 0.8 with either of its providers: a runtime configuration of ids, keys as byte
// vectors, PSK and sender key as `Option` arguments.

/// One of hpke-rs's crypto providers.
pub trait RsProvider: 'static {
    /// The peer's name in failure messages.
    const NAME: &'static str;
    /// The provider type.
    type Crypto: hpke_rs_crypto::HpkeDefaultPrng + 'static;
}

/// hpke-rs's RustCrypto provider (`experimental` for the post-quantum KEMs).
pub struct RustCryptoProvider;

impl RsProvider for RustCryptoProvider {
    const NAME: &'static str = "hpke-rs";
    type Crypto = hpke_rs::rustcrypto::HpkeRustCrypto;
}

/// hpke-rs's libcrux provider (`libcrux`, `draft-ietf-hpke-pq`): libcrux's own ML-KEM, X-Wing
/// and NIST hybrids, so an independent implementation of the hybrid constructions.
pub struct LibcruxProvider;

impl RsProvider for LibcruxProvider {
    const NAME: &'static str = "hpke-rs-libcrux";
    type Crypto = hpke_rs::libcrux::HpkeLibcrux;
}

/// Parameterised by *our* KEM / KDF / AEAD types; only their ids are used.
pub struct HpkeRs<K, F, A, P = RustCryptoProvider>(PhantomData<(K, F, A, P)>);

/// hpke-rs on its libcrux provider.
pub type HpkeRsLibcrux<K, F, A> = HpkeRs<K, F, A, LibcruxProvider>;

impl<K: Kem, F: Kdf, A: Aead, P: RsProvider> HpkeRs<K, F, A, P> {
    fn config(mode: Mode) -> PeerResult<hpke_rs::Hpke<P::Crypto>> {
        use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
        let mode = match mode {
            Mode::Base => hpke_rs::Mode::Base,
            Mode::Psk => hpke_rs::Mode::Psk,
            Mode::Auth => hpke_rs::Mode::Auth,
            Mode::AuthPsk => hpke_rs::Mode::AuthPsk,
        };
        hpke_rs::Hpke::<P::Crypto>::try_new(
            mode,
            KemAlgorithm::try_from(K::ID).map_err(err)?,
            KdfAlgorithm::try_from(F::ID).map_err(err)?,
            AeadAlgorithm::try_from(A::ID).map_err(err)?,
        )
        .map_err(err)
    }
}

struct RsContext<C: hpke_rs_crypto::HpkeCrypto + 'static>(hpke_rs::Context<C>);

impl<C: hpke_rs_crypto::HpkeCrypto + 'static> PeerSender for RsContext<C> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> PeerResult<Vec<u8>> {
        self.0.seal(aad, pt).map_err(err)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        self.0.export(ctx, len).map_err(err)
    }
}

impl<C: hpke_rs_crypto::HpkeCrypto + 'static> PeerReceiver for RsContext<C> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>> {
        self.0.open(aad, ct).map_err(err)
    }
    fn export(&self, ctx: &[u8], len: usize) -> PeerResult<Vec<u8>> {
        self.0.export(ctx, len).map_err(err)
    }
}

fn psk_args<'a>(inputs: &Inputs<'a>) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
    if inputs.mode.has_psk() {
        (Some(inputs.psk), Some(inputs.psk_id))
    } else {
        (None, None)
    }
}

impl<K: Kem, F: Kdf, A: Aead, P: RsProvider> Peer for HpkeRs<K, F, A, P> {
    const NAME: &'static str = P::NAME;

    fn rng_use<Ours: Kem>() -> RngUse {
        RngUse::NotInjectable
    }

    fn derive_key_pair(ikm: &[u8]) -> PeerResult<(Vec<u8>, Vec<u8>)> {
        let kp = Self::config(Mode::Base)?
            .derive_key_pair(ikm)
            .map_err(err)?;
        Ok((
            kp.private_key().as_slice().to_vec(),
            kp.public_key().as_slice().to_vec(),
        ))
    }

    fn setup_sender(
        inputs: &Inputs<'_>,
        pk_r: &[u8],
        (sk_s, _pk_s): (&[u8], &[u8]),
        _rng: &mut ChaCha20Rng,
    ) -> PeerResult<(Vec<u8>, Box<dyn PeerSender>)> {
        let (psk, psk_id) = psk_args(inputs);
        let sk_s = hpke_rs::HpkePrivateKey::new(sk_s.to_vec());
        let sk_s = inputs.mode.is_auth().then_some(&sk_s);
        let (enc, ctx) = Self::config(inputs.mode)?
            .setup_sender(
                &hpke_rs::HpkePublicKey::new(pk_r.to_vec()),
                inputs.info,
                psk,
                psk_id,
                sk_s,
            )
            .map_err(err)?;
        Ok((enc, Box::new(RsContext(ctx))))
    }

    fn setup_receiver(
        inputs: &Inputs<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> PeerResult<Box<dyn PeerReceiver>> {
        let (psk, psk_id) = psk_args(inputs);
        let pk_s = hpke_rs::HpkePublicKey::new(pk_s.to_vec());
        let pk_s = inputs.mode.is_auth().then_some(&pk_s);
        let ctx = Self::config(inputs.mode)?
            .setup_receiver(
                enc,
                &hpke_rs::HpkePrivateKey::new(sk_r.to_vec()),
                inputs.info,
                psk,
                psk_id,
                pk_s,
            )
            .map_err(err)?;
        Ok(Box::new(RsContext(ctx)))
    }
}
