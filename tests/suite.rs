//! Runtime suite selection (`typed_hpke::suite`) over the whole id matrix, against the typed
//! API: for every (KEM, KDF, AEAD) of the crate, `Suite::new` accepts the ids; key derivation
//! gives the typed API's bytes; in every mode, what the `Suite` seals the typed API opens and
//! the other way round, and exports agree; operations the suite cannot do are
//! `UnsupportedOperation`, unknown ids `UnsupportedSuite`.

#[path = "util/maybe_auth.rs"]
mod maybe_auth;
#[path = "util/modes.rs"]
mod modes;

use modes::{Mode, Ours};

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{Aead, ExportOnly, SealingAead};
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem};
use typed_hpke::suite::{self, ReceiverMode, SealingVisitor, SenderMode, Suite, Visitor};
use typed_hpke::{EncappedKey, Error, PrivateKey, Psk, PublicKey};

const INFO: &[u8] = b"suite matrix info";
const AAD: &[u8] = b"suite matrix aad";
const PT: &[u8] = b"suite matrix plaintext";
const MODES: [Mode; 4] = [Mode::Base, Mode::Psk, Mode::Auth, Mode::AuthPsk];

fn has_auth(kem: u16) -> bool {
    matches!(kem, 0x0010..=0x0021)
}

/// The receiver's and the sender's key pairs of every cell, from these IKMs.
const IKM_R: [u8; 64] = [0x17; 64];
const IKM_S: [u8; 64] = [0x29; 64];

/// The typed API of one (KEM, KDF, AEAD) behind an object. The checks below take one and are
/// compiled once; as generic functions they were compiled 336 times over, most of this test's
/// build. What each method does is the typed API's own call, nothing more.
trait Typed {
    fn ids(&self) -> (u16, u16, u16);
    /// `Suite::of` for this suite.
    fn suite(&self) -> Suite;
    fn seals(&self) -> bool;
    /// `Nenc`, `Npk`, `Nsk`, `Nt`, `Nk` and `Nn`, from the typed KEM and AEAD.
    fn lengths(&self) -> [usize; 6];
    /// The typed receiver key pair (`DeriveKeyPair(IKM_R)`) as bytes.
    fn receiver_key_bytes(&self) -> (Vec<u8>, Vec<u8>);
    /// Whether `as_typed` gives back exactly the typed receiver key pair.
    fn as_typed_is_receiver(&self, sk: &suite::PrivateKey, pk: &suite::PublicKey) -> bool;
    /// The typed sender key pair (`DeriveKeyPair(IKM_S)`), made runtime keys with `From`.
    fn sender_keys_into_runtime(&self) -> (suite::PrivateKey, suite::PublicKey);
    /// A typed sender setup in `mode` to the receiver key pair, as the sender key pair.
    fn sender(
        &self,
        mode: Mode,
        rng: &mut ChaCha20Rng,
        psk: &Psk<'_>,
    ) -> (Vec<u8>, Box<dyn TypedSender>);
    /// A typed receiver setup in `mode` for `enc` (parsed with `EncappedKey::from_bytes`).
    fn receiver(&self, mode: Mode, enc: &[u8], psk: &Psk<'_>) -> Box<dyn TypedReceiver>;
}

trait TypedSender {
    fn export(&self, exporter_context: &[u8], out: &mut [u8]);
    /// `None` for ExportOnly.
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Option<Result<Vec<u8>, Error>>;
    fn sequence_number(&self) -> u64;
    /// `suite::SenderContext::from` this context.
    fn into_runtime(self: Box<Self>) -> suite::SenderContext;
}

trait TypedReceiver {
    fn export(&self, exporter_context: &[u8], out: &mut [u8]);
    /// `None` for ExportOnly.
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Result<Vec<u8>, Error>>;
}

/// A typed context's `seal`, as a function of its context.
type SealFn<K, F, A> =
    fn(&mut typed_hpke::SenderContext<K, F, A>, &[u8], &[u8]) -> Result<Vec<u8>, Error>;
/// A typed context's `open`, as a function of its context.
type OpenFn<K, F, A> =
    fn(&mut typed_hpke::ReceiverContext<K, F, A>, &[u8], &[u8]) -> Result<Vec<u8>, Error>;

/// A sealing suite's typed seal and open, and its tag length: what the sealing visitor
/// (`A: SealingAead` there) gives a [`TypedSuite`]; ExportOnly suites have none.
struct Sealing<K: Kem, F: Kdf, A: Aead> {
    seal: SealFn<K, F, A>,
    open: OpenFn<K, F, A>,
    tag: usize,
}

impl<K: Kem, F: Kdf, A: Aead> Clone for Sealing<K, F, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K: Kem, F: Kdf, A: Aead> Copy for Sealing<K, F, A> {}

fn sealing<K: Kem, F: Kdf, A: SealingAead>() -> Sealing<K, F, A> {
    Sealing {
        seal: |ctx, aad, pt| ctx.seal(aad, pt),
        open: |ctx, aad, ct| ctx.open(aad, ct),
        tag: A::Nt::USIZE,
    }
}

struct TypedSuite<K: Kem, F: Kdf, A: Aead> {
    sk: PrivateKey<K>,
    pk: PublicKey<K>,
    sk_s: PrivateKey<K>,
    pk_s: PublicKey<K>,
    sealing: Option<Sealing<K, F, A>>,
}

impl<K: Ours, F: Kdf, A: Aead> TypedSuite<K, F, A> {
    fn new(sealing: Option<Sealing<K, F, A>>) -> Self {
        let (sk, pk) = K::derive_key_pair(&IKM_R).unwrap();
        let (sk_s, pk_s) = K::derive_key_pair(&IKM_S).unwrap();
        Self {
            sk,
            pk,
            sk_s,
            pk_s,
            sealing,
        }
    }
}

impl<K: Ours, F: Kdf, A: Aead> Typed for TypedSuite<K, F, A> {
    fn ids(&self) -> (u16, u16, u16) {
        (K::ID, F::ID, A::ID)
    }
    fn suite(&self) -> Suite {
        Suite::of::<K, F, A>()
    }
    fn seals(&self) -> bool {
        self.sealing.is_some()
    }
    fn lengths(&self) -> [usize; 6] {
        [
            K::NEnc::USIZE,
            K::NPk::USIZE,
            K::NSk::USIZE,
            self.sealing.map_or(0, |s| s.tag),
            A::Nk::USIZE,
            A::Nn::USIZE,
        ]
    }
    fn receiver_key_bytes(&self) -> (Vec<u8>, Vec<u8>) {
        (self.sk.to_bytes().to_vec(), self.pk.as_bytes().to_vec())
    }
    fn as_typed_is_receiver(&self, sk: &suite::PrivateKey, pk: &suite::PublicKey) -> bool {
        sk.as_typed::<K>() == Some(&self.sk) && pk.as_typed::<K>() == Some(&self.pk)
    }
    fn sender_keys_into_runtime(&self) -> (suite::PrivateKey, suite::PublicKey) {
        (self.sk_s.clone().into(), self.pk_s.clone().into())
    }
    fn sender(
        &self,
        mode: Mode,
        rng: &mut ChaCha20Rng,
        psk: &Psk<'_>,
    ) -> (Vec<u8>, Box<dyn TypedSender>) {
        let (enc, ctx) = K::sender::<F, A, _>(mode, rng, &self.pk, INFO, psk, &self.sk_s).unwrap();
        let seal = self.sealing.map(|s| s.seal);
        (enc.as_bytes().to_vec(), Box::new(Sender { ctx, seal }))
    }
    fn receiver(&self, mode: Mode, enc: &[u8], psk: &Psk<'_>) -> Box<dyn TypedReceiver> {
        let enc = EncappedKey::<K>::from_bytes(enc).unwrap();
        let ctx = K::receiver::<F, A>(mode, &enc, &self.sk, INFO, psk, &self.pk_s).unwrap();
        let open = self.sealing.map(|s| s.open);
        Box::new(Receiver { ctx, open })
    }
}

/// A typed sender context, with its suite's seal if it has one.
struct Sender<K: Kem, F: Kdf, A: Aead> {
    ctx: typed_hpke::SenderContext<K, F, A>,
    seal: Option<SealFn<K, F, A>>,
}

impl<K: Kem, F: Kdf, A: Aead> TypedSender for Sender<K, F, A> {
    fn export(&self, exporter_context: &[u8], out: &mut [u8]) {
        self.ctx.export(exporter_context, out).unwrap();
    }
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        self.seal.map(|seal| seal(&mut self.ctx, aad, pt))
    }
    fn sequence_number(&self) -> u64 {
        self.ctx.sequence_number()
    }
    fn into_runtime(self: Box<Self>) -> suite::SenderContext {
        suite::SenderContext::from(self.ctx)
    }
}

/// A typed receiver context, with its suite's open if it has one.
struct Receiver<K: Kem, F: Kdf, A: Aead> {
    ctx: typed_hpke::ReceiverContext<K, F, A>,
    open: Option<OpenFn<K, F, A>>,
}

impl<K: Kem, F: Kdf, A: Aead> TypedReceiver for Receiver<K, F, A> {
    fn export(&self, exporter_context: &[u8], out: &mut [u8]) {
        self.ctx.export(exporter_context, out).unwrap();
    }
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        self.open.map(|open| open(&mut self.ctx, aad, ct))
    }
}

fn cell(typed: &dyn Typed) {
    let (kem, kdf, aead) = typed.ids();
    let name = format!("kem {kem:#06x} kdf {kdf:#06x} aead {aead:#06x}");
    let suite = Suite::new(kem, kdf, aead).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(suite, typed.suite(), "{name}");
    assert_eq!(
        (suite.kem_id(), suite.kdf_id(), suite.aead_id()),
        (kem, kdf, aead)
    );
    assert_eq!(suite.supports_auth(), has_auth(kem), "{name}");
    assert_eq!(suite.supports_seal(), typed.seals(), "{name}");
    let l = suite.lengths();
    let runtime = [
        l.enc,
        l.public_key,
        l.private_key,
        l.tag,
        l.aead_key,
        l.aead_nonce,
    ];
    assert_eq!(runtime, typed.lengths(), "{name}");

    let (rt_sk, rt_pk) = suite.derive_key_pair(&IKM_R).unwrap();
    let (sk_bytes, pk_bytes) = typed.receiver_key_bytes();
    assert_eq!(&rt_sk.to_bytes()[..], &sk_bytes[..], "{name}: private key");
    assert_eq!(rt_pk.as_bytes(), &pk_bytes[..], "{name}: public key");
    assert!(typed.as_typed_is_receiver(&rt_sk, &rt_pk), "{name}");
    assert_eq!((rt_sk.kem_id(), rt_pk.kem_id()), (kem, kem));
    assert_eq!(rt_sk.public_key(), rt_pk, "{name}");
    // Bytes in and out round-trip.
    assert_eq!(suite.private_key_from_bytes(&sk_bytes).unwrap(), rt_sk);
    assert_eq!(suite.public_key_from_bytes(&pk_bytes).unwrap(), rt_pk);
    let (rt_sk_s, rt_pk_s) = typed.sender_keys_into_runtime();
    let psk = Psk::new(&[0x33; 32], b"psk id").unwrap();
    let seed = u64::from(kem) << 32 | u64::from(kdf) << 16 | u64::from(aead);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);

    for mode in MODES {
        let cell = format!("{name}, {mode:?}");
        let send = match mode {
            Mode::Base => SenderMode::Base,
            Mode::Psk => SenderMode::Psk(&psk),
            Mode::Auth => SenderMode::Auth(&rt_sk_s),
            Mode::AuthPsk => SenderMode::AuthPsk(&psk, &rt_sk_s),
        };
        let receive = match mode {
            Mode::Base => ReceiverMode::Base,
            Mode::Psk => ReceiverMode::Psk(&psk),
            Mode::Auth => ReceiverMode::Auth(&rt_pk_s),
            Mode::AuthPsk => ReceiverMode::AuthPsk(&psk, &rt_pk_s),
        };
        let mut out = [0u8; 42];
        if mode.is_auth() && !has_auth(kem) {
            let unsupported = Err(Error::UnsupportedOperation);
            assert_eq!(
                suite
                    .seal(&mut rng, &pk_bytes, INFO, AAD, PT, send)
                    .map(|_| ()),
                unsupported,
                "{cell}"
            );
            assert_eq!(
                suite
                    .open(&[], &sk_bytes, INFO, AAD, &[], receive)
                    .map(|_| ()),
                unsupported,
                "{cell}"
            );
            assert_eq!(
                suite
                    .send_export(&mut rng, &pk_bytes, INFO, b"x", &mut out, send)
                    .map(|_| ()),
                unsupported,
                "{cell}"
            );
            assert_eq!(
                suite.receive_export(&[], &sk_bytes, INFO, b"x", &mut out, receive),
                unsupported,
                "{cell}"
            );
            continue;
        }

        runtime_equals_typed(
            &cell,
            seed ^ u64::from(mode.id()),
            typed,
            &suite,
            mode,
            &psk,
            (&rt_pk, send),
            (&rt_sk, receive),
        );

        // Exports: the Suite sends, the typed API receives.
        let enc = suite
            .send_export(&mut rng, &pk_bytes, INFO, b"ctx", &mut out, send)
            .unwrap();
        let mut theirs = [0u8; 42];
        typed.receiver(mode, &enc, &psk).export(b"ctx", &mut theirs);
        assert_eq!(out, theirs, "{cell}: export");
        // ... and the other way round.
        let (enc, s) = typed.sender(mode, &mut rng, &psk);
        s.export(b"ctx", &mut theirs);
        suite
            .receive_export(&enc, &sk_bytes, INFO, b"ctx", &mut out, receive)
            .unwrap();
        assert_eq!(out, theirs, "{cell}: receive_export");

        if !typed.seals() {
            let unsupported = Err(Error::UnsupportedOperation);
            assert_eq!(
                suite
                    .seal(&mut rng, &pk_bytes, INFO, AAD, PT, send)
                    .map(|_| ()),
                unsupported,
                "{cell}"
            );
            assert_eq!(
                suite
                    .open(&enc, &sk_bytes, INFO, AAD, PT, receive)
                    .map(|_| ()),
                unsupported,
                "{cell}"
            );
            continue;
        }
        // The Suite seals, the typed API opens.
        let (enc, ct) = suite
            .seal(&mut rng, &pk_bytes, INFO, AAD, PT, send)
            .unwrap();
        let mut r = typed.receiver(mode, &enc, &psk);
        assert_eq!(r.open(AAD, &ct).unwrap().unwrap(), PT, "{cell}: typed open");
        // The typed API seals, the Suite opens; a wrong aad does not.
        let (enc, mut s) = typed.sender(mode, &mut rng, &psk);
        let ct = s.seal(AAD, PT).unwrap().unwrap();
        assert_eq!(
            suite
                .open(&enc, &sk_bytes, INFO, AAD, &ct, receive)
                .unwrap(),
            PT,
            "{cell}"
        );
        assert_eq!(
            suite.open(&enc, &sk_bytes, INFO, b"other", &ct, receive),
            Err(Error::Open),
            "{cell}"
        );
    }
}

const MESSAGES: [&[u8]; 3] = [b"first", b"", b"the third message, longer than a block"];

/// The runtime contexts against the typed ones, from the same randomness: the same `enc`,
/// the same ciphertexts over several messages (through each of the runtime seal and open
/// forms), the same exports and sequence numbers. For ExportOnly, export agrees and seal /
/// open are `UnsupportedOperation`.
#[allow(clippy::too_many_arguments)]
fn runtime_equals_typed(
    cell: &str,
    seed: u64,
    typed: &dyn Typed,
    suite: &Suite,
    mode: Mode,
    psk: &Psk<'_>,
    (rt_pk, send): (&suite::PublicKey, SenderMode<'_>),
    (rt_sk, receive): (&suite::PrivateKey, ReceiverMode<'_>),
) {
    let (enc, mut typed_s) = typed.sender(mode, &mut ChaCha20Rng::seed_from_u64(seed), psk);
    let (rt_enc, mut rt_s) = suite
        .setup_sender(&mut ChaCha20Rng::seed_from_u64(seed), rt_pk, INFO, send)
        .unwrap();
    assert_eq!(rt_enc.as_bytes(), &enc[..], "{cell}: enc");
    assert_eq!(rt_s.suite(), *suite);
    // The bytes form of the key gives the same context.
    let (rt_enc2, _) = suite
        .setup_sender(
            &mut ChaCha20Rng::seed_from_u64(seed),
            rt_pk.as_bytes(),
            INFO,
            send,
        )
        .unwrap();
    assert_eq!(rt_enc2, rt_enc, "{cell}: enc from key bytes");
    let mut typed_r = typed.receiver(mode, &enc, psk);
    let mut rt_r = suite
        .setup_receiver(rt_enc.as_bytes(), rt_sk, INFO, receive)
        .unwrap();

    for (i, msg) in MESSAGES.iter().enumerate() {
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        let ctx = [b"exp".as_slice(), &[i as u8]].concat();
        typed_s.export(&ctx, &mut a);
        rt_s.export(&ctx, &mut b).unwrap();
        assert_eq!(a, b, "{cell}: sender export {i}");
        rt_r.export(&ctx, &mut b).unwrap();
        assert_eq!(a, b, "{cell}: receiver export {i}");

        let Some(ct) = typed_s.seal(AAD, msg) else {
            let unsupported = Err(Error::UnsupportedOperation);
            let mut buf = [0u8; 64];
            assert_eq!(rt_s.seal(AAD, msg).map(|_| ()), unsupported, "{cell}");
            assert_eq!(rt_s.seal_into(AAD, msg, &mut buf).map(|_| ()), unsupported);
            assert_eq!(
                rt_s.seal_in_place_detached(AAD, &mut buf).map(|_| ()),
                unsupported
            );
            assert_eq!(rt_r.open(AAD, &buf).map(|_| ()), unsupported, "{cell}");
            assert_eq!(
                rt_r.open_into(AAD, &buf[..20], &mut [0; 64]).map(|_| ()),
                unsupported
            );
            assert_eq!(
                rt_r.open_in_place_detached(AAD, &mut buf, &[0; 16]),
                unsupported
            );
            assert_eq!((rt_s.sequence_number(), rt_r.sequence_number()), (0, 0));
            continue;
        };
        let ct = ct.unwrap();
        // Each message through a different runtime form.
        let rt_ct = match i % 3 {
            0 => rt_s.seal(AAD, msg).unwrap(),
            1 => {
                let mut out = vec![0u8; msg.len() + 16];
                assert_eq!(rt_s.seal_into(AAD, msg, &mut out), Ok(out.len()));
                out
            }
            _ => {
                let mut buf = msg.to_vec();
                let tag = rt_s.seal_in_place_detached(AAD, &mut buf).unwrap();
                [buf, tag.to_vec()].concat()
            }
        };
        assert_eq!(rt_ct, ct, "{cell}: message {i}");
        assert_eq!(typed_r.open(AAD, &ct).unwrap().unwrap(), *msg, "{cell}");
        // A wrong aad fails and leaves the sequence number where it was.
        assert_eq!(rt_r.open(b"wrong", &ct), Err(Error::Open), "{cell}");
        let pt = match i % 3 {
            0 => {
                let mut buf = ct[..msg.len()].to_vec();
                rt_r.open_in_place_detached(AAD, &mut buf, &ct[msg.len()..])
                    .unwrap();
                buf
            }
            1 => rt_r.open(AAD, &ct).unwrap(),
            _ => {
                let mut out = vec![0u8; 64];
                let n = rt_r.open_into(AAD, &ct, &mut out).unwrap();
                out.truncate(n);
                out
            }
        };
        assert_eq!(pt, *msg, "{cell}: open {i}");
        let seq = i as u64 + 1;
        assert_eq!(typed_s.sequence_number(), seq);
        assert_eq!(
            (rt_s.sequence_number(), rt_r.sequence_number()),
            (seq, seq),
            "{cell}"
        );
    }
    // A typed context becomes a runtime one with `From`, mid-stream.
    let mut a = [0u8; 16];
    let mut b = [0u8; 16];
    typed_s.export(b"from", &mut a);
    let seq = typed_s.sequence_number();
    let converted = typed_s.into_runtime();
    converted.export(b"from", &mut b).unwrap();
    assert_eq!((a, seq), (b, converted.sequence_number()), "{cell}: From");
    assert_eq!(converted.suite(), *suite);
}

/// Every suite of the library (`Suite::all`), typed against runtime: for each KEM, its 28
/// (KDF, AEAD) cells with every KDF and AEAD of the build. The sealing suites come with their
/// typed seal and open (`visit_sealing`); the ExportOnly ones without (`visit`, compiled for
/// them alone).
#[test]
fn every_suite() {
    struct Sealed;
    impl SealingVisitor for Sealed {
        type Output = Box<dyn Typed>;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Box<dyn Typed> {
            Box::new(TypedSuite::<K, F, A>::new(Some(sealing::<K, F, A>())))
        }
    }
    struct Exported;
    impl Visitor for Exported {
        type Output = Option<Box<dyn Typed>>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Option<Box<dyn Typed>> {
            if const { A::ID == ExportOnly::ID } {
                Some(Box::new(TypedSuite::<K, F, A>::new(None)))
            } else {
                None
            }
        }
    }
    let mut cells = 0;
    for suite in Suite::all() {
        let typed = if suite.supports_seal() {
            suite.visit_sealing(Sealed).unwrap()
        } else {
            suite.visit(Exported).unwrap().expect("an ExportOnly suite")
        };
        assert_eq!(typed.suite(), suite);
        cell(typed.as_ref());
        cells += 1;
    }
    assert!(cells > 0);
}

#[test]
fn unknown_ids_are_unsupported_suites() {
    for (kem, kdf, aead) in [
        (0x0000, 0x0001, 0x0001),
        (0x004d, 0x0001, 0x0001), // the obsolete X-Wing codepoint
        (0x0020, 0x0000, 0x0001),
        (0x0020, 0x0004, 0x0001),
        (0x0020, 0x0014, 0x0001),
        (0x0020, 0x0001, 0x0000),
        (0x0020, 0x0001, 0x0004),
        (0xffff, 0xffff, 0xffff),
    ] {
        assert_eq!(
            Suite::new(kem, kdf, aead),
            Err(Error::UnsupportedSuite),
            "{kem:#06x} {kdf:#06x} {aead:#06x}"
        );
    }
}

#[test]
fn every_known_id_triple_is_accepted() {
    let kems = [
        0x0010, 0x0011, 0x0012, 0x0016, 0x0020, 0x0021, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051,
        0x647a,
    ];
    let kdfs = [0x0001, 0x0002, 0x0003, 0x0010, 0x0011, 0x0012, 0x0013];
    let aeads = [0x0001, 0x0002, 0x0003, 0xffff];
    let mut n = 0;
    for kem in kems {
        for kdf in kdfs {
            for aead in aeads {
                assert!(Suite::new(kem, kdf, aead).is_ok());
                n += 1;
            }
        }
    }
    assert_eq!(n, 336);
}

#[test]
fn malformed_keys_are_errors_not_panics() {
    let suite = Suite::new(0x0020, 0x0001, 0x0003).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    assert_eq!(
        suite
            .seal(&mut rng, &[1, 2, 3], INFO, AAD, PT, SenderMode::Base)
            .map(|_| ()),
        Err(Error::InvalidPublicKey)
    );
    assert_eq!(
        suite
            .open(&[0; 32], &[1], INFO, AAD, PT, ReceiverMode::Base)
            .map(|_| ()),
        Err(Error::InvalidPrivateKey)
    );
    let (sk, _) = suite.derive_key_pair(&[1; 32]).unwrap();
    assert_eq!(
        suite
            .open(&[0; 31], &sk, INFO, AAD, PT, ReceiverMode::Base)
            .map(|_| ()),
        Err(Error::InvalidEncappedKey)
    );
}

/// A runtime context is an enum over the typed states, not a box: it costs the largest typed
/// context (the AEAD and KDF with the biggest keyed states) plus the suite ids and enum tags.
#[test]
fn runtime_context_sizes() {
    use std::mem::size_of;
    struct Largest;
    impl Visitor for Largest {
        type Output = usize;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> usize {
            size_of::<typed_hpke::SenderContext<K, F, A>>()
                .max(size_of::<typed_hpke::ReceiverContext<K, F, A>>())
        }
    }
    let largest_typed = Suite::all()
        .map(|suite| suite.visit(Largest).unwrap())
        .max()
        .unwrap();
    for (what, size) in [
        ("SenderContext", size_of::<suite::SenderContext>()),
        ("ReceiverContext", size_of::<suite::ReceiverContext>()),
    ] {
        println!("suite::{what}: {size} bytes; largest typed context {largest_typed} bytes");
        assert!(size >= largest_typed, "{what}");
        assert!(
            size <= largest_typed + 64,
            "{what}: {size} > {largest_typed} + 64"
        );
    }
    // `enc` inline: the longest Nenc plus its length.
    assert!(size_of::<suite::EncappedKey>() <= suite::MAX_ENC_LEN + 16);
    assert_eq!(
        suite::MAX_ENC_LEN,
        Suite::new(0x0051, 1, 1).unwrap().lengths().enc
    );
}

/// Keys of another KEM, keys of the wrong length and garbage are errors wherever a runtime key
/// or key bytes go in.
#[test]
fn wrong_kem_and_garbage_keys_are_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let x25519 = Suite::new(0x0020, 0x0001, 0x0001).unwrap();
    let p256 = Suite::new(0x0010, 0x0001, 0x0001).unwrap();
    let mlkem = Suite::new(0x0041, 0x0001, 0x0001).unwrap();
    let (x_sk, x_pk) = x25519.generate_key_pair(&mut rng).unwrap();
    let (p_sk, p_pk) = p256.generate_key_pair(&mut rng).unwrap();
    let (m_sk, m_pk) = mlkem.generate_key_pair(&mut rng).unwrap();
    let (enc, _) = p256
        .setup_sender(&mut rng, &p_pk, INFO, SenderMode::Base)
        .unwrap();
    let enc = enc.as_bytes();

    // A parsed key of another KEM.
    for (suite, pk) in [(&p256, &x_pk), (&x25519, &m_pk), (&mlkem, &p_pk)] {
        assert_eq!(
            suite
                .setup_sender(&mut rng, pk, INFO, SenderMode::Base)
                .map(|_| ()),
            Err(Error::InvalidPublicKey)
        );
        assert_eq!(
            suite
                .seal(&mut rng, pk, INFO, AAD, PT, SenderMode::Base)
                .map(|_| ()),
            Err(Error::InvalidPublicKey)
        );
    }
    for (suite, sk) in [(&p256, &x_sk), (&x25519, &m_sk), (&mlkem, &p_sk)] {
        let enc = vec![0u8; suite.lengths().enc];
        assert_eq!(
            suite
                .setup_receiver(&enc, sk, INFO, ReceiverMode::Base)
                .map(|_| ()),
            Err(Error::InvalidPrivateKey)
        );
        assert_eq!(
            suite.receive_export(&enc, sk, INFO, b"", &mut [0; 8], ReceiverMode::Base),
            Err(Error::InvalidPrivateKey)
        );
    }
    // The sender's key in the auth modes, of another KEM.
    assert_eq!(
        p256.setup_sender(&mut rng, &p_pk, INFO, SenderMode::Auth(&x_sk))
            .map(|_| ()),
        Err(Error::InvalidPrivateKey)
    );
    assert_eq!(
        p256.setup_receiver(enc, &p_sk, INFO, ReceiverMode::Auth(&x_pk))
            .map(|_| ()),
        Err(Error::InvalidPublicKey)
    );
    // ... and on a KEM with no auth mode at all, whatever the key.
    assert_eq!(
        mlkem
            .setup_sender(&mut rng, &m_pk, INFO, SenderMode::Auth(&m_sk))
            .map(|_| ()),
        Err(Error::UnsupportedOperation)
    );

    // Bytes: wrong lengths and garbage, for every KEM.
    for kem in [
        0x0010u16, 0x0011, 0x0012, 0x0016, 0x0020, 0x0021, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051,
        0x647a,
    ] {
        let suite = Suite::new(kem, 0x0001, 0x0001).unwrap();
        let l = suite.lengths();
        for len in [0, 1, l.private_key - 1, l.private_key + 1] {
            assert_eq!(
                suite.private_key_from_bytes(&vec![0x42; len]).map(|_| ()),
                Err(Error::InvalidPrivateKey),
                "{kem:#06x} private key of {len} bytes"
            );
        }
        for len in [0, 1, l.public_key - 1, l.public_key + 1] {
            assert_eq!(
                suite.public_key_from_bytes(&vec![0x42; len]).map(|_| ()),
                Err(Error::InvalidPublicKey),
                "{kem:#06x} public key of {len} bytes"
            );
        }
        // Garbage of the right length: a point off the curve, an ML-KEM key whose
        // coefficients are not reduced. (X25519, X448 and the X-Wing seed accept any bytes.)
        if matches!(kem, 0x0010..=0x0016 | 0x0040..=0x0042 | 0x0050 | 0x0051) {
            assert_eq!(
                suite
                    .public_key_from_bytes(&vec![0xff; l.public_key])
                    .map(|_| ()),
                Err(Error::InvalidPublicKey),
                "{kem:#06x}"
            );
        }
        let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
        assert_eq!(
            suite
                .setup_receiver(&vec![0; l.enc + 1], &sk, INFO, ReceiverMode::Base)
                .map(|_| ()),
            Err(Error::InvalidEncappedKey),
            "{kem:#06x}"
        );
        let (enc, mut s) = suite
            .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
            .unwrap();
        let mut r = suite
            .setup_receiver(enc.as_bytes(), &sk, INFO, ReceiverMode::Base)
            .unwrap();
        let mut buf = *b"message";
        let tag = s.seal_in_place_detached(AAD, &mut buf).unwrap();
        assert_eq!(
            r.open_in_place_detached(AAD, &mut buf, &tag[..15]),
            Err(Error::InvalidLength)
        );
        assert_eq!(r.open_into(AAD, &[0; 15], &mut [0; 8]), Err(Error::Open));
        assert_eq!(r.sequence_number(), 0);
        r.open_in_place_detached(AAD, &mut buf, &tag).unwrap();
        assert_eq!(&buf, b"message");
    }
}

/// `AnyKem::all` and `Suite::all`, and the id lists `KEM_IDS`, `KDF_IDS` and `AEAD_IDS`, which
/// the tests above and the other crates of the workspace take their matrix from, are exactly
/// what `AnyKem::new` and `Suite::new` accept: each id once, the KEMs in the order of their ids
/// (DH-KEMs first), the KDFs and AEADs in the table's; `visit_auth` (runtime and typed) exactly
/// where `supports_auth`.
#[test]
fn all_is_every_supported_id_once() {
    let kems: Vec<u16> = suite::AnyKem::all().map(|k| k.id()).collect();
    let accepted: Vec<u16> = (0..=u16::MAX)
        .filter(|&id| suite::AnyKem::new(id).is_ok())
        .collect();
    let mut in_order = suite::KEM_IDS.to_vec();
    in_order.sort_by_key(|&id| (!suite::AnyKem::new(id).unwrap().supports_auth(), id));
    assert_eq!(suite::KEM_IDS, in_order);
    in_order.sort();
    assert_eq!(in_order, accepted);
    assert_eq!(kems, suite::KEM_IDS);
    let x25519 = DhKemX25519HkdfSha256::ID;
    let kdfs: Vec<u16> = (0..=u16::MAX)
        .filter(|&id| Suite::new(x25519, id, 0xffff).is_ok())
        .collect();
    let aeads: Vec<u16> = (0..=u16::MAX)
        .filter(|&id| Suite::new(x25519, 0x0001, id).is_ok())
        .collect();
    // HKDF-SHA256, -384, -512, then SHAKE128, SHAKE256, TurboSHAKE128, TurboSHAKE256: the
    // registry's order, which is the table's; ExportOnly (0xFFFF) is last of the AEADs.
    assert_eq!(suite::KDF_IDS, kdfs);
    assert_eq!(suite::AEAD_IDS, aeads);
    let suites: Vec<Suite> = Suite::all().collect();
    assert_eq!(suites.len(), kems.len() * kdfs.len() * aeads.len());
    let distinct: std::collections::HashSet<Suite> = suites.iter().copied().collect();
    assert_eq!(distinct.len(), suites.len());
    for suite in suites {
        assert_eq!(
            Suite::new(suite.kem_id(), suite.kdf_id(), suite.aead_id()),
            Ok(suite)
        );
    }

    struct Id;
    impl suite::KemVisitor for Id {
        type Output = u16;
        fn visit<K: Kem>(self) -> u16 {
            K::ID
        }
    }
    impl suite::AuthKemVisitor for Id {
        type Output = u16;
        fn visit<K: typed_hpke::kem::AuthKem>(self) -> u16 {
            K::ID
        }
    }
    // The typed hook, `Kem::visit_auth`: the KEM itself, where the runtime list says it has
    // the Auth modes, and nothing elsewhere.
    struct TypedAuth;
    impl suite::KemVisitor for TypedAuth {
        type Output = Option<u16>;
        fn visit<K: Kem>(self) -> Option<u16> {
            K::visit_auth(Id)
        }
    }
    for kem in suite::AnyKem::all() {
        assert_eq!(kem.visit(Id), kem.id());
        match kem.visit_auth(Id) {
            Ok(id) => assert!(id == kem.id() && kem.supports_auth()),
            Err(e) => assert!(e == Error::UnsupportedOperation && !kem.supports_auth()),
        }
        assert_eq!(
            kem.visit(TypedAuth),
            kem.supports_auth().then_some(kem.id())
        );
    }
}

/// The runtime `EncappedKey` is equal to another exactly when their bytes are, and its `Debug`
/// shows them (an `enc` is public: it travels beside the ciphertext).
#[test]
fn runtime_encapped_keys_compare_and_print_their_bytes() {
    let suite = Suite::new(DhKemX25519HkdfSha256::ID, 0x0001, 0x0001).unwrap();
    let (_, pk) = suite.derive_key_pair(&IKM_R).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let (a, _) = suite
        .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
        .unwrap();
    let (b, _) = suite
        .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
        .unwrap();
    assert_ne!(a.as_bytes(), b.as_bytes());
    assert_ne!(a, b);
    assert_eq!(a, a.clone());
    assert_eq!(
        format!("{a:?}"),
        format!("EncappedKey({})", hex::encode(a.as_bytes()))
    );
}
