//! The hot paths whose instruction counts `ct/run` checks under callgrind against
//! `ct/instructions.tsv`, as rustls' `ci-bench` does: a count repeats exactly from run to run,
//! on a loaded machine too, so a few percent of growth is a regression and not noise.
//!
//! Each path is a function of its own, never inlined, named `hot_*` ([`PATHS`]), that runs
//! [`ITERATIONS`] operations on inputs made before it is called; callgrind collects inside one
//! of them per run (`--toggle-collect`), so its total is that function's count and set-up is
//! not counted. The generator is deterministic. What
//! the CPU offers decides which code runs (AVX2, AES-NI, ...), so the first line printed is
//! the features valgrind's CPU shows the program: a baseline holds for that set only.

use std::hint::black_box;

use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem, MlKem768, XWing};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Hpke, PrivateKey, PublicKey, ReceiverContext, SenderContext};

use crate::MarkedRng;

/// Operations per path: a count is divided by it.
pub const ITERATIONS: usize = 10;

const INFO: &[u8] = b"instruction counts";
const AAD: &[u8] = b"aad";

pub fn run() {
    println!("cpu\t{}", cpu());
    println!("iterations\t{ITERATIONS}");
    for path in PATHS {
        println!("path\t{path}");
    }
    setups::<DhKemX25519HkdfSha256>(hot_setup_sender_x25519, hot_setup_receiver_x25519);
    setups::<XWing>(hot_setup_sender_xwing, hot_setup_receiver_xwing);
    runtime_setups();
    contexts::<ChaCha20Poly1305>(
        [
            hot_seal_chacha20poly1305_64,
            hot_seal_chacha20poly1305_16384,
        ],
        [
            hot_open_chacha20poly1305_64,
            hot_open_chacha20poly1305_16384,
        ],
    );
    contexts::<Aes128Gcm>(
        [hot_seal_aes128gcm_64, hot_seal_aes128gcm_16384],
        [hot_open_aes128gcm_64, hot_open_aes128gcm_16384],
    );
}

/// The features that choose code paths in typed-hpke's dependencies, as detected here.
fn cpu() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let features = [
            ("avx2", std::is_x86_feature_detected!("avx2")),
            ("avx512f", std::is_x86_feature_detected!("avx512f")),
            ("aes", std::is_x86_feature_detected!("aes")),
            ("pclmulqdq", std::is_x86_feature_detected!("pclmulqdq")),
            ("vaes", std::is_x86_feature_detected!("vaes")),
            ("sha", std::is_x86_feature_detected!("sha")),
            ("bmi2", std::is_x86_feature_detected!("bmi2")),
            ("adx", std::is_x86_feature_detected!("adx")),
        ];
        let on: Vec<&str> = features.iter().filter(|f| f.1).map(|f| f.0).collect();
        format!("x86_64 {}", on.join(","))
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::env::consts::ARCH.to_owned()
}

type Sender<K> = fn(&PublicKey<K>, &mut MarkedRng);
type Receiver<K> = fn(&EncappedKey<K>, &PrivateKey<K>);
type H<K, A> = Hpke<K, HkdfSha256, A>;

fn setups<K: Kem>(sender: Sender<K>, receiver: Receiver<K>) {
    let mut rng = MarkedRng(0x1c);
    let (sk, pk) = K::generate(&mut rng).expect("generate");
    let (enc, _) = H::<K, ChaCha20Poly1305>::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
    sender(&pk, &mut rng);
    receiver(&enc, &sk);
}

fn sender_setups<K: Kem>(pk: &PublicKey<K>, rng: &mut MarkedRng) {
    for _ in 0..ITERATIONS {
        black_box(H::<K, ChaCha20Poly1305>::setup_sender_base(rng, black_box(pk), INFO).ok());
    }
}

fn receiver_setups<K: Kem>(enc: &EncappedKey<K>, sk: &PrivateKey<K>) {
    for _ in 0..ITERATIONS {
        black_box(H::<K, ChaCha20Poly1305>::setup_receiver_base(black_box(enc), sk, INFO).ok());
    }
}

#[inline(never)]
fn hot_setup_sender_x25519(pk: &PublicKey<DhKemX25519HkdfSha256>, rng: &mut MarkedRng) {
    sender_setups(pk, rng);
}
#[inline(never)]
fn hot_setup_receiver_x25519(
    enc: &EncappedKey<DhKemX25519HkdfSha256>,
    sk: &PrivateKey<DhKemX25519HkdfSha256>,
) {
    receiver_setups(enc, sk);
}
#[inline(never)]
fn hot_setup_sender_xwing(pk: &PublicKey<XWing>, rng: &mut MarkedRng) {
    sender_setups(pk, rng);
}
#[inline(never)]
fn hot_setup_receiver_xwing(enc: &EncappedKey<XWing>, sk: &PrivateKey<XWing>) {
    receiver_setups(enc, sk);
}

/// The runtime API's ML-KEM-768 setups (keys parsed once, `enc` read from bytes): they had
/// been 3-6% slower than the typed ones, for a 15 KiB key moved on every call.
fn runtime_setups() {
    let mut rng = MarkedRng(0x3c);
    let suite = Suite::new(MlKem768::ID, 0x0001, 0x0001).expect("suite");
    let (sk, pk) = suite.generate_key_pair(&mut rng).expect("generate");
    let (enc, _) = suite
        .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
        .expect("setup");
    hot_runtime_setup_sender_mlkem768(&suite, &pk, &mut rng);
    hot_runtime_setup_receiver_mlkem768(&suite, enc.as_bytes(), &sk);
}

#[inline(never)]
fn hot_runtime_setup_sender_mlkem768(suite: &Suite, pk: &suite::PublicKey, rng: &mut MarkedRng) {
    for _ in 0..ITERATIONS {
        black_box(
            suite
                .setup_sender(rng, black_box(pk), INFO, SenderMode::Base)
                .ok(),
        );
    }
}

#[inline(never)]
fn hot_runtime_setup_receiver_mlkem768(suite: &Suite, enc: &[u8], sk: &suite::PrivateKey) {
    for _ in 0..ITERATIONS {
        black_box(
            suite
                .setup_receiver(black_box(enc), sk, INFO, ReceiverMode::Base)
                .ok(),
        );
    }
}

type X = DhKemX25519HkdfSha256;
type Seal<A> = fn(&mut SenderContext<X, HkdfSha256, A>, &[u8]);
type Open<A> = fn(&mut ReceiverContext<X, HkdfSha256, A>, &[Vec<u8>]);

/// Context seals and opens of 64 B and 16 KiB messages: a sender context seals
/// [`ITERATIONS`] of each, and a receiver context opens what another sender sealed.
fn contexts<A: SealingAead>(seal: [Seal<A>; 2], open: [Open<A>; 2]) {
    let mut rng = MarkedRng(0x2c);
    let (sk, pk) = X::generate(&mut rng).expect("generate");
    for (i, len) in [64usize, 16384].into_iter().enumerate() {
        let msg = vec![0x5a; len];
        let (_, mut sender) = H::<X, A>::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
        seal[i](&mut sender, &msg);
        let (enc, mut other) = H::<X, A>::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
        let sealed: Vec<Vec<u8>> = (0..ITERATIONS)
            .map(|_| other.seal(AAD, &msg).expect("seal"))
            .collect();
        let mut receiver = H::<X, A>::setup_receiver_base(&enc, &sk, INFO).expect("setup");
        open[i](&mut receiver, &sealed);
    }
}

/// `LEN` keeps the 64 B and 16 KiB functions of one AEAD apart: with the same body, the
/// compiler would merge them into one symbol.
fn seals<A: SealingAead, const LEN: usize>(ctx: &mut SenderContext<X, HkdfSha256, A>, msg: &[u8]) {
    assert_eq!(msg.len(), LEN);
    for _ in 0..ITERATIONS {
        black_box(ctx.seal(AAD, black_box(msg)).expect("seal"));
    }
}

fn opens<A: SealingAead, const LEN: usize>(
    ctx: &mut ReceiverContext<X, HkdfSha256, A>,
    sealed: &[Vec<u8>],
) {
    assert!(sealed.iter().all(|ct| ct.len() == LEN + 16));
    for ct in sealed {
        black_box(ctx.open(AAD, black_box(ct)).expect("open"));
    }
}

macro_rules! hot_context {
    ($($seal:ident, $open:ident, $aead:ty, $len:literal;)*) => {$(
        #[inline(never)]
        fn $seal(ctx: &mut SenderContext<X, HkdfSha256, $aead>, msg: &[u8]) {
            seals::<_, $len>(ctx, msg);
        }
        #[inline(never)]
        fn $open(ctx: &mut ReceiverContext<X, HkdfSha256, $aead>, sealed: &[Vec<u8>]) {
            opens::<_, $len>(ctx, sealed);
        }
    )*};
}

hot_context! {
    hot_seal_chacha20poly1305_64, hot_open_chacha20poly1305_64, ChaCha20Poly1305, 64;
    hot_seal_chacha20poly1305_16384, hot_open_chacha20poly1305_16384, ChaCha20Poly1305, 16384;
    hot_seal_aes128gcm_64, hot_open_aes128gcm_64, Aes128Gcm, 64;
    hot_seal_aes128gcm_16384, hot_open_aes128gcm_16384, Aes128Gcm, 16384;
}

/// The paths, as `ct/run` names them to callgrind (one run each).
pub const PATHS: [&str; 14] = [
    "hot_setup_sender_x25519",
    "hot_setup_receiver_x25519",
    "hot_setup_sender_xwing",
    "hot_setup_receiver_xwing",
    "hot_runtime_setup_sender_mlkem768",
    "hot_runtime_setup_receiver_mlkem768",
    "hot_seal_chacha20poly1305_64",
    "hot_open_chacha20poly1305_64",
    "hot_seal_chacha20poly1305_16384",
    "hot_open_chacha20poly1305_16384",
    "hot_seal_aes128gcm_64",
    "hot_open_aes128gcm_64",
    "hot_seal_aes128gcm_16384",
    "hot_open_aes128gcm_16384",
];
