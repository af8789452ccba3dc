//! The `differential` target: typed-hpke's runtime API, rust-hpke 0.15.1 and hpke-rs 0.8 given
//! the same arbitrary suite, mode, key material and inputs must give the same outputs and the
//! same refusals. A disagreement is a crash.
//!
//! One input is read as: a flag byte (mode, whether the suite ids are raw, whether an arbitrary
//! `enc` and ciphertext are tried), the suite ids, `ikmR` and `ikmS`, info, psk, psk_id, aad, a
//! 32-byte generator seed, two export requests, an arbitrary `enc`, an arbitrary ciphertext,
//! and the messages (the rest, cut in up to three).
//!
//! What is compared, for every implementation that has the suite (the table in `PEERS`):
//! - `DeriveKeyPair(ikmR)` and `DeriveKeyPair(ikmS)`: the same private and public key bytes;
//! - every implementation as the sender, every one as the receiver (its own derived keys): the
//!   receiver opens the sender's messages in order and every export agrees, or every side
//!   refuses the export length; where the generator is consumed the same way (typed-hpke and
//!   rust-hpke on the post-quantum KEMs) the `enc` and ciphertexts are byte-identical;
//! - an arbitrary `enc`: every receiver refuses it, or every one accepts it and they export the
//!   same secrets (ML-KEM's implicit rejection included);
//! - an arbitrary ciphertext opened first: every receiver refuses it and still opens message 0.
//!
//! Known differences of policy, each asserted rather than skipped (see `tests/README.md`):
//! - hpke-rs refuses a PSK shorter than 32 bytes (RFC 9180 §9.5 says SHOULD; typed-hpke's
//!   `Psk::new` refuses it too, and this target uses `Psk::new_allowing_short_psk` to reach the
//!   RFC's own rule: refuse an empty psk or psk_id);
//! - rust-hpke accepts the PSK modes with an empty psk *and* an empty psk_id (RFC 9180 §5.1
//!   `VerifyPSKInputs` refuses them), so it is left out of that one case;
//! - typed-hpke refuses an X-Wing `enc` whose X25519 share has low order (its DH output is all
//!   zero; Go's crypto/hpke refuses it too), which the peers may accept: on such an `enc`,
//!   typed-hpke's refusal is asserted, with the share checked to be one DHKEM(X25519) refuses
//!   (RFC 9180 §7.1.4), and the peers' outcomes are not compared;
//! - rust-hpke panics on the auth modes of a KEM without authenticated encapsulation (its
//!   documented contract) and on ExportOnly with a one-stage KDF (a defect pinned by
//!   `measure/tests/differential.rs`), so it is not called there.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::Psk;
use typed_hpke::suite::{ReceiverContext, ReceiverMode, SenderContext, SenderMode, Suite};

use crate::Input;

type Res<T> = Result<T, String>;

/// `(skXm, pkXm)` as bytes.
type KeyPair = (Vec<u8>, Vec<u8>);

fn err<E: core::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Base,
    Psk,
    Auth,
    AuthPsk,
}

impl Mode {
    fn has_psk(self) -> bool {
        matches!(self, Self::Psk | Self::AuthPsk)
    }
    fn is_auth(self) -> bool {
        matches!(self, Self::Auth | Self::AuthPsk)
    }
}

/// Everything one setup needs, as bytes.
struct Setup<'a> {
    suite: Suite,
    mode: Mode,
    info: &'a [u8],
    psk: &'a [u8],
    psk_id: &'a [u8],
}

/// A sender's or a receiver's context, whoever made it.
trait Context {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Res<Vec<u8>>;
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Res<Vec<u8>>;
    fn export(&self, ctx: &[u8], len: usize) -> Res<Vec<u8>>;
}

/// One implementation.
trait Side {
    fn name(&self) -> &'static str;
    /// `(skXm, pkXm)` as this side serializes them.
    fn derive(&self, ikm: &[u8]) -> Res<KeyPair>;
    /// `sender` is `(skS, pkS)`; only the auth modes use it.
    fn sender(
        &self,
        s: &Setup<'_>,
        pk_r: &[u8],
        sender: (&[u8], &[u8]),
        seed: [u8; 32],
    ) -> Res<(Vec<u8>, Box<dyn Context>)>;
    fn receiver(
        &self,
        s: &Setup<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> Res<Box<dyn Context>>;
}

// ---------------------------------------------------------------------------------------------
// typed-hpke, through the runtime API (the suite chosen by its ids, like the peers).

struct Typed(Suite);

enum TypedContext {
    S(SenderContext),
    R(ReceiverContext),
}

impl Context for TypedContext {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Res<Vec<u8>> {
        match self {
            Self::S(s) => s.seal(aad, pt).map_err(err),
            Self::R(_) => Err("a receiver does not seal".into()),
        }
    }
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Res<Vec<u8>> {
        match self {
            Self::R(r) => r.open(aad, ct).map_err(err),
            Self::S(_) => Err("a sender does not open".into()),
        }
    }
    fn export(&self, ctx: &[u8], len: usize) -> Res<Vec<u8>> {
        let mut out = vec![0u8; len];
        match self {
            Self::S(s) => s.export(ctx, &mut out),
            Self::R(r) => r.export(ctx, &mut out),
        }
        .map_err(err)?;
        Ok(out)
    }
}

impl Typed {
    fn psk<'a>(s: &Setup<'a>) -> Res<Option<Psk<'a>>> {
        if s.mode.has_psk() {
            Psk::new_allowing_short_psk(s.psk, s.psk_id)
                .map(Some)
                .map_err(err)
        } else {
            Ok(None)
        }
    }
}

impl Side for Typed {
    fn name(&self) -> &'static str {
        "typed-hpke"
    }

    fn derive(&self, ikm: &[u8]) -> Res<KeyPair> {
        let (sk, pk) = self.0.derive_key_pair(ikm).map_err(err)?;
        Ok((sk.to_bytes().to_vec(), pk.as_bytes().to_vec()))
    }

    fn sender(
        &self,
        s: &Setup<'_>,
        pk_r: &[u8],
        (sk_s, _): (&[u8], &[u8]),
        seed: [u8; 32],
    ) -> Res<(Vec<u8>, Box<dyn Context>)> {
        let psk = Self::psk(s)?;
        let sk_s = s.suite.private_key_from_bytes(sk_s).map_err(err)?;
        let mode = match (s.mode, psk.as_ref()) {
            (Mode::Base, _) => SenderMode::Base,
            (Mode::Psk, Some(psk)) => SenderMode::Psk(psk),
            (Mode::Auth, _) => SenderMode::Auth(&sk_s),
            (Mode::AuthPsk, Some(psk)) => SenderMode::AuthPsk(psk, &sk_s),
            _ => unreachable!("a PSK mode has its PSK"),
        };
        let mut rng = ChaCha20Rng::from_seed(seed);
        let (enc, ctx) = s
            .suite
            .setup_sender(&mut rng, pk_r, s.info, mode)
            .map_err(err)?;
        Ok((enc.as_bytes().to_vec(), Box::new(TypedContext::S(ctx))))
    }

    fn receiver(
        &self,
        s: &Setup<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> Res<Box<dyn Context>> {
        let psk = Self::psk(s)?;
        let pk_s = s.suite.public_key_from_bytes(pk_s).map_err(err)?;
        let mode = match (s.mode, psk.as_ref()) {
            (Mode::Base, _) => ReceiverMode::Base,
            (Mode::Psk, Some(psk)) => ReceiverMode::Psk(psk),
            (Mode::Auth, _) => ReceiverMode::Auth(&pk_s),
            (Mode::AuthPsk, Some(psk)) => ReceiverMode::AuthPsk(psk, &pk_s),
            _ => unreachable!("a PSK mode has its PSK"),
        };
        let ctx = s
            .suite
            .setup_receiver(enc, sk_r, s.info, mode)
            .map_err(err)?;
        Ok(Box::new(TypedContext::R(ctx)))
    }
}

// ---------------------------------------------------------------------------------------------
// rust-hpke 0.15.1: generic over its KEM, KDF and AEAD types, picked from the ids by `rust_hpke`.

struct RustHpke<K, F, A>(core::marker::PhantomData<(K, F, A)>);

enum RustHpkeContext<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead> {
    S(hpke::aead::AeadCtxS<A, F, K>),
    R(hpke::aead::AeadCtxR<A, F, K>),
}

impl<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead> Context for RustHpkeContext<K, F, A> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Res<Vec<u8>> {
        match self {
            Self::S(s) => s.seal(pt, aad).map_err(err),
            Self::R(_) => Err("a receiver does not seal".into()),
        }
    }
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Res<Vec<u8>> {
        match self {
            Self::R(r) => r.open(ct, aad).map_err(err),
            Self::S(_) => Err("a sender does not open".into()),
        }
    }
    fn export(&self, ctx: &[u8], len: usize) -> Res<Vec<u8>> {
        let mut out = vec![0u8; len];
        match self {
            Self::S(s) => s.export(ctx, &mut out),
            Self::R(r) => r.export(ctx, &mut out),
        }
        .map_err(err)?;
        Ok(out)
    }
}

impl<K, F, A> Side for RustHpke<K, F, A>
where
    K: hpke::Kem + 'static,
    F: hpke::kdf::Kdf + 'static,
    A: hpke::aead::Aead + 'static,
{
    fn name(&self) -> &'static str {
        "rust-hpke"
    }

    fn derive(&self, ikm: &[u8]) -> Res<KeyPair> {
        use hpke::Serializable;
        let (sk, pk) = K::derive_keypair(ikm);
        Ok((sk.to_bytes().to_vec(), pk.to_bytes().to_vec()))
    }

    fn sender(
        &self,
        s: &Setup<'_>,
        pk_r: &[u8],
        (sk_s, pk_s): (&[u8], &[u8]),
        seed: [u8; 32],
    ) -> Res<(Vec<u8>, Box<dyn Context>)> {
        use hpke::{Deserializable, OpModeS, PskBundle, Serializable};
        let pk_r = K::PublicKey::from_bytes(pk_r).map_err(err)?;
        let bundle = || PskBundle::new(s.psk, s.psk_id).map_err(err);
        let sender = || -> Res<_> {
            Ok((
                K::PrivateKey::from_bytes(sk_s).map_err(err)?,
                K::PublicKey::from_bytes(pk_s).map_err(err)?,
            ))
        };
        let mode = match s.mode {
            Mode::Base => OpModeS::Base,
            Mode::Psk => OpModeS::Psk(bundle()?),
            Mode::Auth => OpModeS::Auth(sender()?),
            Mode::AuthPsk => OpModeS::AuthPsk(sender()?, bundle()?),
        };
        let mut rng = ChaCha20Rng::from_seed(seed);
        let (enc, ctx) =
            hpke::setup_sender_with_rng::<A, F, K>(&mode, &pk_r, s.info, &mut rng).map_err(err)?;
        Ok((enc.to_bytes().to_vec(), Box::new(RustHpkeContext::S(ctx))))
    }

    fn receiver(
        &self,
        s: &Setup<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> Res<Box<dyn Context>> {
        use hpke::{Deserializable, OpModeR, PskBundle};
        let sk_r = K::PrivateKey::from_bytes(sk_r).map_err(err)?;
        let enc = K::EncappedKey::from_bytes(enc).map_err(err)?;
        let bundle = || PskBundle::new(s.psk, s.psk_id).map_err(err);
        let pk_s = || K::PublicKey::from_bytes(pk_s).map_err(err);
        let mode = match s.mode {
            Mode::Base => OpModeR::Base,
            Mode::Psk => OpModeR::Psk(bundle()?),
            Mode::Auth => OpModeR::Auth(pk_s()?),
            Mode::AuthPsk => OpModeR::AuthPsk(pk_s()?, bundle()?),
        };
        let ctx = hpke::setup_receiver::<A, F, K>(&mode, &sk_r, &enc, s.info).map_err(err)?;
        Ok(Box::new(RustHpkeContext::R(ctx)))
    }
}

fn rust_hpke_with<K, F>(aead: u16) -> Option<Box<dyn Side>>
where
    K: hpke::Kem + 'static,
    F: hpke::kdf::Kdf + 'static,
{
    use hpke::aead::{AesGcm128, AesGcm256, ChaCha20Poly1305, ExportOnlyAead};
    Some(match aead {
        0x0001 => Box::new(RustHpke::<K, F, AesGcm128>(Default::default())),
        0x0002 => Box::new(RustHpke::<K, F, AesGcm256>(Default::default())),
        0x0003 => Box::new(RustHpke::<K, F, ChaCha20Poly1305>(Default::default())),
        0xFFFF => Box::new(RustHpke::<K, F, ExportOnlyAead>(Default::default())),
        _ => return None,
    })
}

fn rust_hpke_kdf<K: hpke::Kem + 'static>(kdf: u16, aead: u16) -> Option<Box<dyn Side>> {
    use hpke::kdf::{
        HkdfSha256, HkdfSha384, HkdfSha512, KdfShake128, KdfShake256, KdfTurboShake128,
        KdfTurboShake256,
    };
    match kdf {
        0x0001 => rust_hpke_with::<K, HkdfSha256>(aead),
        0x0002 => rust_hpke_with::<K, HkdfSha384>(aead),
        0x0003 => rust_hpke_with::<K, HkdfSha512>(aead),
        0x0010 => rust_hpke_with::<K, KdfShake128>(aead),
        0x0011 => rust_hpke_with::<K, KdfShake256>(aead),
        0x0012 => rust_hpke_with::<K, KdfTurboShake128>(aead),
        0x0013 => rust_hpke_with::<K, KdfTurboShake256>(aead),
        _ => None,
    }
}

/// rust-hpke for these ids, where it has them and can be called on them (see the module doc).
fn rust_hpke(suite: Suite, mode: Mode) -> Option<Box<dyn Side>> {
    use hpke::kem::{
        DhP256HkdfSha256, DhP384HkdfSha384, DhP521HkdfSha512, MlKem768, MlKem768P256, MlKem1024,
        MlKem1024P384, X25519HkdfSha256, XWing,
    };
    let (kdf, aead) = (suite.kdf_id(), suite.aead_id());
    if mode.is_auth() && !suite.supports_auth() {
        return None;
    }
    if aead == 0xFFFF && kdf >= 0x0010 {
        return None;
    }
    match suite.kem_id() {
        0x0010 => rust_hpke_kdf::<DhP256HkdfSha256>(kdf, aead),
        0x0011 => rust_hpke_kdf::<DhP384HkdfSha384>(kdf, aead),
        0x0012 => rust_hpke_kdf::<DhP521HkdfSha512>(kdf, aead),
        0x0020 => rust_hpke_kdf::<X25519HkdfSha256>(kdf, aead),
        0x0041 => rust_hpke_kdf::<MlKem768>(kdf, aead),
        0x0042 => rust_hpke_kdf::<MlKem1024>(kdf, aead),
        0x0050 => rust_hpke_kdf::<MlKem768P256>(kdf, aead),
        0x0051 => rust_hpke_kdf::<MlKem1024P384>(kdf, aead),
        0x647A => rust_hpke_kdf::<XWing>(kdf, aead),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// hpke-rs 0.8: a runtime configuration of ids, on one of its two providers.

struct HpkeRs<C> {
    suite: Suite,
    name: &'static str,
    provider: core::marker::PhantomData<C>,
}

struct HpkeRsContext<C: hpke_rs_crypto::HpkeCrypto + 'static>(hpke_rs::Context<C>);

impl<C: hpke_rs_crypto::HpkeCrypto + 'static> Context for HpkeRsContext<C> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Res<Vec<u8>> {
        self.0.seal(aad, pt).map_err(err)
    }
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Res<Vec<u8>> {
        self.0.open(aad, ct).map_err(err)
    }
    fn export(&self, ctx: &[u8], len: usize) -> Res<Vec<u8>> {
        self.0.export(ctx, len).map_err(err)
    }
}

impl<C: hpke_rs_crypto::HpkeCrypto + hpke_rs_crypto::HpkeDefaultPrng + 'static> HpkeRs<C> {
    fn config(suite: Suite, mode: Mode) -> Res<hpke_rs::Hpke<C>> {
        use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
        let mode = match mode {
            Mode::Base => hpke_rs::Mode::Base,
            Mode::Psk => hpke_rs::Mode::Psk,
            Mode::Auth => hpke_rs::Mode::Auth,
            Mode::AuthPsk => hpke_rs::Mode::AuthPsk,
        };
        hpke_rs::Hpke::<C>::try_new(
            mode,
            KemAlgorithm::try_from(suite.kem_id()).map_err(err)?,
            KdfAlgorithm::try_from(suite.kdf_id()).map_err(err)?,
            AeadAlgorithm::try_from(suite.aead_id()).map_err(err)?,
        )
        .map_err(err)
    }

    fn psk<'a>(s: &Setup<'a>) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
        if s.mode.has_psk() {
            (Some(s.psk), Some(s.psk_id))
        } else {
            (None, None)
        }
    }
}

impl<C: hpke_rs_crypto::HpkeCrypto + hpke_rs_crypto::HpkeDefaultPrng + 'static> Side for HpkeRs<C> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn derive(&self, ikm: &[u8]) -> Res<KeyPair> {
        let kp = Self::config(self.suite, Mode::Base)?
            .derive_key_pair(ikm)
            .map_err(err)?;
        Ok((
            kp.private_key().as_slice().to_vec(),
            kp.public_key().as_slice().to_vec(),
        ))
    }

    fn sender(
        &self,
        s: &Setup<'_>,
        pk_r: &[u8],
        (sk_s, _): (&[u8], &[u8]),
        _seed: [u8; 32],
    ) -> Res<(Vec<u8>, Box<dyn Context>)> {
        let (psk, psk_id) = Self::psk(s);
        let sk_s = hpke_rs::HpkePrivateKey::new(sk_s.to_vec());
        let sk_s = s.mode.is_auth().then_some(&sk_s);
        let (enc, ctx) = Self::config(s.suite, s.mode)?
            .setup_sender(
                &hpke_rs::HpkePublicKey::new(pk_r.to_vec()),
                s.info,
                psk,
                psk_id,
                sk_s,
            )
            .map_err(err)?;
        Ok((enc, Box::new(HpkeRsContext(ctx))))
    }

    fn receiver(
        &self,
        s: &Setup<'_>,
        enc: &[u8],
        sk_r: &[u8],
        pk_s: &[u8],
    ) -> Res<Box<dyn Context>> {
        let (psk, psk_id) = Self::psk(s);
        let pk_s = hpke_rs::HpkePublicKey::new(pk_s.to_vec());
        let pk_s = s.mode.is_auth().then_some(&pk_s);
        let ctx = Self::config(s.suite, s.mode)?
            .setup_receiver(
                enc,
                &hpke_rs::HpkePrivateKey::new(sk_r.to_vec()),
                s.info,
                psk,
                psk_id,
                pk_s,
            )
            .map_err(err)?;
        Ok(Box::new(HpkeRsContext(ctx)))
    }
}

// ---------------------------------------------------------------------------------------------
// Who has which suite, and where a peer's policy differs from RFC 9180's.

/// KEMs hpke-rs's libcrux provider computes (it fails to derive P-521, secp256k1 and X448 keys).
const LIBCRUX_KEMS: &[u16] = &[
    0x0010, 0x0011, 0x0020, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051, 0x647A,
];

/// How a side treats one setup's inputs, against RFC 9180's rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Policy {
    /// Accepts exactly what RFC 9180 accepts.
    Rfc,
    /// Refuses inputs RFC 9180 accepts (hpke-rs: a PSK under 32 bytes).
    Refuses,
}

struct Peer {
    side: Box<dyn Side>,
    policy: Policy,
    /// Its sender consumes the seeded generator as typed-hpke's does (same `enc`).
    same_draws: bool,
    /// It refuses an `enc` of the wrong length. hpke-rs does not: on libcrux it took a P-256
    /// `enc` of 68 bytes (a valid point and three zeros) that RFC 9180 §7.1.1 makes invalid
    /// (the first campaign's crash, kept in the corpus); its RustCrypto provider parses
    /// secp256k1 points with k256's `from_sec1_bytes`, which takes the 33-byte compressed form.
    checks_enc_length: bool,
    /// It serializes X25519 and X448 private keys clamped, as RFC 9180 §7.1.2 did (rust-hpke);
    /// typed-hpke and hpke-rs give the bytes as derived, as draft-ietf-hpke-hpke §7.1.2 does.
    clamps_sk: bool,
}

/// The implementations that have this suite and can be called in this mode.
fn peers(s: &Setup<'_>) -> Vec<Peer> {
    let suite = s.suite;
    let (kem, kdf) = (suite.kem_id(), suite.kdf_id());
    let pq = matches!(kem, 0x0040..=0x0042 | 0x0050 | 0x0051 | 0x647A);
    let short_psk = s.mode.has_psk() && s.psk.len() < 32;
    let mut peers = vec![Peer {
        side: Box::new(Typed(suite)),
        policy: Policy::Rfc,
        same_draws: true,
        checks_enc_length: true,
        clamps_sk: false,
    }];
    // rust-hpke takes an empty psk with an empty psk_id in the PSK modes (RFC 9180 §5.1 refuses
    // them): it is left out of exactly that case.
    let rust_hpke_lax = s.mode.has_psk() && s.psk.is_empty() && s.psk_id.is_empty();
    if !rust_hpke_lax && let Some(side) = rust_hpke(suite, s.mode) {
        peers.push(Peer {
            side,
            policy: Policy::Rfc,
            same_draws: pq,
            checks_enc_length: true,
            clamps_sk: true,
        });
    }
    let policy = if short_psk {
        Policy::Refuses
    } else {
        Policy::Rfc
    };
    if matches!(kdf, 0x0001..=0x0003) && LIBCRUX_KEMS.contains(&kem) {
        peers.push(Peer {
            side: Box::new(HpkeRs::<hpke_rs::libcrux::HpkeLibcrux> {
                suite,
                name: "hpke-rs (libcrux)",
                provider: Default::default(),
            }),
            policy,
            same_draws: false,
            checks_enc_length: false,
            clamps_sk: false,
        });
    }
    // secp256k1 has no peer on libcrux; hpke-rs's RustCrypto provider has it.
    if matches!(kdf, 0x0001..=0x0003) && kem == 0x0016 {
        peers.push(Peer {
            side: Box::new(HpkeRs::<hpke_rs::rustcrypto::HpkeRustCrypto> {
                suite,
                name: "hpke-rs (RustCrypto)",
                provider: Default::default(),
            }),
            policy,
            same_draws: false,
            checks_enc_length: false,
            clamps_sk: false,
        });
    }
    peers
}

/// A derived pair with an X25519 or X448 private key clamped (RFC 7748 §5), to compare with a
/// peer that serializes keys clamped (`Peer::clamps_sk`). The key is the same either way (DH
/// clamps); the bytes typed-hpke gives are exactly the unclamped ones the other peers give.
fn clamped(kem: u16, r: &Res<KeyPair>) -> Res<KeyPair> {
    let (mut sk, pk) = r.clone()?;
    match (kem, sk.len()) {
        (0x0020, 32) => {
            sk[0] &= 248;
            sk[31] = (sk[31] & 127) | 64;
        }
        (0x0021, 56) => {
            sk[0] &= 252;
            sk[55] |= 128;
        }
        _ => {}
    }
    Ok((sk, pk))
}

/// One sender's outputs.
struct Sent {
    enc: Vec<u8>,
    cts: Vec<Vec<u8>>,
    exports: Vec<Res<Vec<u8>>>,
}

/// Ok or Err, with the values when Ok, for comparing outcomes across sides.
fn ok<T>(r: &Res<T>) -> Option<&T> {
    r.as_ref().ok()
}

pub fn differential(data: &[u8]) {
    let mut input = Input(data);
    let flags = input.byte();
    let mode = [Mode::Base, Mode::Psk, Mode::Auth, Mode::AuthPsk][usize::from(flags & 3)];
    let (kem, kdf, aead) = if flags & 0x80 != 0 {
        (input.u16(), input.u16(), input.u16())
    } else {
        let kem = crate::pick(typed_hpke::suite::KEM_IDS, input.byte());
        let kdf = crate::pick(typed_hpke::suite::KDF_IDS, input.byte());
        let aead = crate::pick(typed_hpke::suite::AEAD_IDS, input.byte());
        (kem, kdf, aead)
    };
    let Ok(suite) = Suite::new(kem, kdf, aead) else {
        // What typed-hpke does not know, hpke-rs must not know either.
        let known = hpke_rs::hpke_types::KemAlgorithm::try_from(kem).is_ok()
            && hpke_rs::hpke_types::KdfAlgorithm::try_from(kdf).is_ok()
            && hpke_rs::hpke_types::AeadAlgorithm::try_from(aead).is_ok();
        assert!(
            !known,
            "hpke-rs knows ids {kem:#06x} {kdf:#06x} {aead:#06x} typed-hpke refuses"
        );
        return;
    };
    let ikm_r = input.slice();
    let ikm_s = input.slice();
    let s = Setup {
        suite,
        mode,
        info: input.slice(),
        psk: input.slice(),
        psk_id: input.slice(),
    };
    let aad = input.slice();
    // Zero-padded when the input ends first.
    let mut seed = [0u8; 32];
    let given = input.take(32);
    seed[..given.len()].copy_from_slice(given);
    let exports: Vec<(&[u8], usize)> = (0..2)
        .map(|_| (input.slice(), usize::from(input.u16())))
        .collect();
    let odd_enc = (flags & 0x04 != 0).then(|| input.slice());
    let odd_ct = (flags & 0x08 != 0).then(|| input.slice());
    let (n0, n1) = (usize::from(input.byte()), usize::from(input.byte()));
    let msgs = [input.take(n0), input.take(n1), input.rest()];

    let peers = peers(&s);
    let name = |p: &Peer| p.side.name();

    // DeriveKeyPair: the same key bytes from every side, or a refusal from every side.
    let keys: Vec<[Res<KeyPair>; 2]> = peers
        .iter()
        .map(|p| [p.side.derive(ikm_r), p.side.derive(ikm_s)])
        .collect();
    for (p, k) in peers.iter().zip(&keys).skip(1) {
        for (i, (ours, theirs)) in keys[0].iter().zip(k).enumerate() {
            let [ours, theirs] = if p.clamps_sk {
                [ours, theirs].map(|r| clamped(kem, r))
            } else {
                [ours.clone(), theirs.clone()]
            };
            assert_eq!(
                ok(&ours),
                ok(&theirs),
                "DeriveKeyPair (key {i}) differs, typed-hpke {ours:?}, {} {theirs:?}",
                name(p)
            );
        }
    }
    let (Ok((sk_r, pk_r)), Ok((sk_s, pk_s))) = (&keys[0][0], &keys[0][1]) else {
        return;
    };

    // What RFC 9180 accepts: VerifyPSKInputs (§5.1), and the auth modes only on a KEM with
    // AuthEncap / AuthDecap.
    let rfc_ok = (!mode.has_psk() || (!s.psk.is_empty() && !s.psk_id.is_empty()))
        && (!mode.is_auth() || suite.supports_auth());
    let expect_ok = |p: &Peer| rfc_ok && p.policy == Policy::Rfc;

    let mut sent: Vec<Option<Sent>> = Vec::new();
    for p in &peers {
        let sender = p.side.sender(&s, pk_r, (sk_s, pk_s), seed);
        assert_eq!(
            sender.is_ok(),
            expect_ok(p),
            "{} sender setup in {mode:?}: {:?}",
            name(p),
            sender.as_ref().err()
        );
        let Ok((enc, mut ctx)) = sender else {
            sent.push(None);
            continue;
        };
        let cts = if suite.supports_seal() {
            msgs.iter()
                .map(|m| ctx.seal(aad, m).expect("seal"))
                .collect()
        } else {
            Vec::new()
        };
        let exports = exports.iter().map(|&(c, l)| ctx.export(c, l)).collect();
        sent.push(Some(Sent { enc, cts, exports }));
    }

    // Senders that consume the generator alike give the same bytes.
    if let Some(ours) = &sent[0] {
        for (p, theirs) in peers.iter().zip(&sent).skip(1) {
            if let (true, Some(theirs)) = (p.same_draws, theirs) {
                assert_eq!(ours.enc, theirs.enc, "enc differs from {}'s", name(p));
                assert_eq!(
                    ours.cts,
                    theirs.cts,
                    "ciphertexts differ from {}'s",
                    name(p)
                );
            }
        }
    }

    // Every receiver opens every sender's messages and exports the same secrets.
    for (sp, sent) in peers.iter().zip(&sent) {
        let Some(sent) = sent else { continue };
        for rp in &peers {
            let receiver = rp.side.receiver(&s, &sent.enc, sk_r, pk_s);
            assert_eq!(
                receiver.is_ok(),
                expect_ok(rp),
                "{} receiver of {}'s enc: {:?}",
                name(rp),
                name(sp),
                receiver.as_ref().err()
            );
            let Ok(mut ctx) = receiver else { continue };
            if let Some(ct) = odd_ct
                && suite.supports_seal()
            {
                assert!(
                    ctx.open(aad, ct).is_err(),
                    "{} opened an arbitrary ciphertext",
                    name(rp)
                );
            }
            for (m, ct) in msgs.iter().zip(&sent.cts) {
                assert_eq!(
                    &ctx.open(aad, ct).expect("open")[..],
                    *m,
                    "{} opening {}'s message",
                    name(rp),
                    name(sp)
                );
            }
            for (&(c, l), theirs) in exports.iter().zip(&sent.exports) {
                let ours = ctx.export(c, l);
                assert_eq!(
                    ok(&ours),
                    ok(theirs),
                    "export of {l} bytes: {} receiving {:?}, {} sending {:?}",
                    name(rp),
                    ours.as_ref().err(),
                    name(sp),
                    theirs.as_ref().err()
                );
            }
        }
    }

    // An arbitrary enc: refused by every receiver, or accepted by every one with the same
    // exported secrets. One of the wrong length is refused by every side that checks it.
    if let Some(enc) = odd_enc {
        let wrong_length = enc.len() != suite.lengths().enc;
        let mut outcomes = Vec::new();
        for p in peers
            .iter()
            .filter(|p| expect_ok(p) && (p.checks_enc_length || !wrong_length))
        {
            let out = p.side.receiver(&s, enc, sk_r, pk_s).map(|ctx| {
                exports
                    .iter()
                    .map(|&(c, l)| ctx.export(c, l).ok())
                    .collect::<Vec<_>>()
            });
            outcomes.push((name(p), out));
        }
        if wrong_length && let Some((name, out)) = outcomes.first() {
            assert!(out.is_err(), "{name} took an enc of {} bytes", enc.len());
        }
        if suite.kem_id() == 0x647A && !wrong_length && x25519_low_order(&enc[enc.len() - 32..]) {
            for (name, out) in &outcomes {
                if *name == "typed-hpke" {
                    assert!(
                        out.is_err(),
                        "typed-hpke took X-Wing's low-order X25519 share"
                    );
                }
            }
            return;
        }
        if let Some(((first, ours), rest)) = outcomes.split_first() {
            for (other, theirs) in rest {
                assert_eq!(
                    ours.as_ref().ok(),
                    theirs.as_ref().ok(),
                    "arbitrary enc: {first} {:?}, {other} {:?}",
                    ours.as_ref().err(),
                    theirs.as_ref().err()
                );
            }
        }
    }
}

/// Whether `share`, as a DHKEM(X25519) `enc`, is refused for its all-zero DH output (RFC 9180
/// §7.1.4): a low-order X25519 point, whatever the private key.
fn x25519_low_order(share: &[u8]) -> bool {
    use typed_hpke::kem::{DhKemX25519HkdfSha256 as X, Kem};
    let Ok(enc) = typed_hpke::EncappedKey::<X>::from_bytes(share) else {
        return false;
    };
    let (sk, _) = X::derive_key_pair(&[7u8; 32]).expect("DeriveKeyPair of 32 bytes");
    X::decap(&enc, &sk).is_err()
}
