//! Paired rounds: a verdict that separates noise from a real difference.
//!
//! ```text
//! cargo bench --features comparative --ignore-rust-version --bench paired [-- FILTER]
//! ```
//!
//! Every row runs each implementation in every round, one timed batch each, in an order rotated
//! from round to round, so slow drift on a shared machine hits all of them alike. The statistic
//! is the per-round time ratio typed-hpke / peer. The table gives its median and a
//! distribution-free 95% confidence interval for that median: the order statistics
//! `x(k)`, `x(n+1-k)` of the `n` sorted ratios, with `k` the largest index for which
//! `P(Binomial(n, 1/2) < k) <= 2.5%` (for 21 rounds, the 6th and 16th ratios). A row is a win
//! when the whole interval lies below 0.97, a loss when it lies above 1.03, a tie otherwise.
//!
//! `PAIRED_ROUNDS` (default 21) and `PAIRED_BATCH_MS` (default 20: a batch of typed-hpke's
//! iterations lasts at least this long; every implementation runs the same iteration count)
//! tune a run. Before timing, each row checks that every implementation computes what it is
//! meant to (its context exports what the other side's does), so a row never times a failure.
//!
//! The `limit` rows call libcrux-ml-kem bare, with the key already expanded the same way; the
//! `libcrux packed key` rows call its packed API, which parses the key and samples the matrix
//! on every call (the form typed-hpke does not use, measured here to show why).
//!
//! The `runtime/` rows compare typed-hpke with itself: the runtime API of `typed_hpke::suite`
//! (in the typed-hpke column) against the typed `Hpke<K, F, A>` (the peer column), and
//! `Suite::open` with a parsed key against key bytes.

use std::hint::black_box;
use std::time::Instant;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::ExportOnly;
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, Kdf};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemX25519HkdfSha256, Kem, MlKem768, MlKem768P256,
    MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, Hpke, PrivateKey, PublicKey};

const INFO: &[u8] = b"paired bench info";
const EXPORTER: &[u8] = b"paired bench exporter";
const IKM: [u8; 66] = [0x11; 66];

const TYPED: &str = "typed-hpke";

/// One implementation's part in a row: runs the operation once.
type Job<'a> = (&'static str, Box<dyn FnMut() + 'a>);

struct Config {
    rounds: usize,
    batch_ns: u128,
    filter: Option<String>,
}

/// The verdict on one peer in one row.
struct Verdict {
    row: String,
    peer: &'static str,
    typed_ns: f64,
    peer_ns: f64,
    median: f64,
    lo: f64,
    hi: f64,
}

impl Verdict {
    fn call(&self) -> &'static str {
        if self.hi < 0.97 {
            "win"
        } else if self.lo > 1.03 {
            "loss"
        } else {
            "tie"
        }
    }
}

/// `k` for the distribution-free interval `[x(k), x(n+1-k)]` around the median, 1-based.
fn order_statistic_k(n: usize) -> usize {
    // P(B <= j) for B ~ Binomial(n, 1/2).
    let cdf = |j: usize| -> f64 {
        let mut c = 1.0f64; // C(n, 0)
        let mut sum = 0.0;
        for i in 0..=j {
            if i > 0 {
                c = c * (n + 1 - i) as f64 / i as f64;
            }
            sum += c;
        }
        sum / 2f64.powi(n as i32)
    };
    let mut k = 1;
    while k < n / 2 && cdf(k) <= 0.025 {
        k += 1;
    }
    k
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn time_batch(job: &mut dyn FnMut(), iterations: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iterations {
        job();
    }
    start.elapsed().as_nanos() as f64 / iterations as f64
}

/// Runs one row: typed-hpke first in `jobs`, every other entry a peer.
fn run(config: &Config, row: &str, mut jobs: Vec<Job<'_>>, out: &mut Vec<Verdict>) {
    if config
        .filter
        .as_ref()
        .is_some_and(|f| !row.contains(f.as_str()))
    {
        return;
    }
    assert_eq!(jobs[0].0, TYPED);
    // Warm up every implementation, then size the batch on typed-hpke.
    for (_, job) in jobs.iter_mut() {
        time_batch(job, 3);
    }
    let mut iterations = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iterations {
            (jobs[0].1)();
        }
        if start.elapsed().as_nanos() >= config.batch_ns || iterations >= 1 << 24 {
            break;
        }
        iterations *= 2;
    }
    let k = jobs.len();
    let mut times = vec![Vec::with_capacity(config.rounds); k];
    for round in 0..config.rounds {
        for offset in 0..k {
            let i = (round + offset) % k;
            times[i].push(time_batch(&mut jobs[i].1, iterations));
        }
    }
    let kth = order_statistic_k(config.rounds);
    let mut typed = times[0].clone();
    typed.sort_by(f64::total_cmp);
    for (i, (peer, _)) in jobs.iter().enumerate().skip(1) {
        let mut ratios: Vec<f64> = times[0].iter().zip(&times[i]).map(|(t, p)| t / p).collect();
        ratios.sort_by(f64::total_cmp);
        let mut theirs = times[i].clone();
        theirs.sort_by(f64::total_cmp);
        let verdict = Verdict {
            row: row.to_string(),
            peer,
            typed_ns: median(&typed),
            peer_ns: median(&theirs),
            median: median(&ratios),
            lo: ratios[kth - 1],
            hi: ratios[config.rounds - kth],
        };
        println!(
            "{row:44} {peer:22} {:>10.0} ns / {:>10.0} ns  ratio {:.3} [{:.3}, {:.3}]  {}",
            verdict.typed_ns,
            verdict.peer_ns,
            verdict.median,
            verdict.lo,
            verdict.hi,
            verdict.call()
        );
        out.push(verdict);
    }
}

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::from_seed([7; 32])
}

// =============================================================================================
// Setup rows: Base mode, ExportOnly, one KEM and KDF, every crate that has the KEM.

/// typed-hpke's sender and receiver jobs, and the exporter output both sides must reproduce.
fn typed_setup<'a, K: Kem, F: Kdf>(
    sk: &'a PrivateKey<K>,
    pk: &'a PublicKey<K>,
    enc: &'a EncappedKey<K>,
) -> (Job<'a>, Job<'a>) {
    let mut rng = rng();
    let sender: Job<'a> = (
        TYPED,
        Box::new(move || {
            black_box(
                Hpke::<K, F, ExportOnly>::setup_sender_base(
                    black_box(&mut rng),
                    black_box(pk),
                    INFO,
                )
                .unwrap(),
            );
        }),
    );
    let receiver: Job<'a> = (
        TYPED,
        Box::new(move || {
            black_box(
                Hpke::<K, F, ExportOnly>::setup_receiver_base(black_box(enc), black_box(sk), INFO)
                    .unwrap(),
            );
        }),
    );
    (sender, receiver)
}

/// hpke-rs with one provider.
mod rs {
    use super::*;
    use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};

    /// hpke-rs on its RustCrypto provider, suite `(KEM, KDF)`.
    pub(super) fn rustcrypto<'a, const KEM: u16, const KDF: u16>(
        ikm: &[u8],
        enc: &[u8],
        export: &[u8],
    ) -> (Job<'a>, Job<'a>) {
        setup::<hpke_rs::rustcrypto::HpkeRustCrypto>(
            "hpke-rs (RustCrypto)",
            (KEM, KDF),
            ikm,
            enc,
            export,
        )
    }

    /// hpke-rs on its libcrux provider, suite `(KEM, KDF)`.
    pub(super) fn libcrux<'a, const KEM: u16, const KDF: u16>(
        ikm: &[u8],
        enc: &[u8],
        export: &[u8],
    ) -> (Job<'a>, Job<'a>) {
        setup::<hpke_rs::libcrux::HpkeLibcrux>("hpke-rs (libcrux)", (KEM, KDF), ikm, enc, export)
    }

    /// Sender and receiver jobs for hpke-rs on `Crypto`, after checking that a context it
    /// receives on typed-hpke's `enc` exports what typed-hpke's sender exports.
    fn setup<'a, Crypto: hpke_rs_crypto::HpkeDefaultPrng + 'static>(
        name: &'static str,
        ids: (u16, u16),
        ikm: &[u8],
        typed_enc: &[u8],
        typed_export: &[u8],
    ) -> (Job<'a>, Job<'a>) {
        let config = || {
            hpke_rs::Hpke::<Crypto>::new(
                hpke_rs::Mode::Base,
                KemAlgorithm::try_from(ids.0).unwrap(),
                KdfAlgorithm::try_from(ids.1).unwrap(),
                AeadAlgorithm::HpkeExport,
            )
        };
        let mut h = config();
        let (sk, pk) = h.derive_key_pair(ikm).unwrap().into_keys();
        let rx = h
            .setup_receiver(typed_enc, &sk, INFO, None, None, None)
            .unwrap();
        assert_eq!(
            rx.export(EXPORTER, 32).unwrap(),
            typed_export,
            "{name} disagrees with typed-hpke"
        );
        let (enc, _) = h.setup_sender(&pk, INFO, None, None, None).unwrap();
        let mut hs = config();
        let sender: Job<'a> = (
            name,
            Box::new(move || {
                black_box(
                    hs.setup_sender(black_box(&pk), INFO, None, None, None)
                        .unwrap(),
                );
            }),
        );
        let receiver: Job<'a> = (
            name,
            Box::new(move || {
                black_box(
                    h.setup_receiver(black_box(&enc), black_box(&sk), INFO, None, None, None)
                        .unwrap(),
                );
            }),
        );
        (sender, receiver)
    }
}

/// rust-hpke (`hpke`).
mod rh {
    use super::*;
    use hpke::{Deserializable as _, OpModeR, OpModeS};

    pub(super) const NAME: &str = "rust-hpke";

    pub(super) fn setup<'a, K: hpke::Kem + 'static, F: hpke::kdf::Kdf + 'static>(
        ikm: &[u8],
        typed_enc: &[u8],
        typed_export: &[u8],
    ) -> (Job<'a>, Job<'a>) {
        type Xo = hpke::aead::ExportOnlyAead;
        let (sk, pk) = K::derive_keypair(ikm);
        let their_enc = K::EncappedKey::from_bytes(typed_enc).unwrap();
        let rx = hpke::setup_receiver::<Xo, F, K>(&OpModeR::Base, &sk, &their_enc, INFO).unwrap();
        let mut out = [0u8; 32];
        rx.export(EXPORTER, &mut out).unwrap();
        assert_eq!(
            &out[..],
            typed_export,
            "rust-hpke disagrees with typed-hpke"
        );
        let mut rng = rng();
        let (enc, _) =
            hpke::setup_sender_with_rng::<Xo, F, K>(&OpModeS::Base, &pk, INFO, &mut rng).unwrap();
        let sender: Job<'a> = (
            NAME,
            Box::new(move || {
                black_box(
                    hpke::setup_sender_with_rng::<Xo, F, K>(
                        &OpModeS::Base,
                        black_box(&pk),
                        INFO,
                        black_box(&mut rng),
                    )
                    .unwrap(),
                );
            }),
        );
        let receiver: Job<'a> = (
            NAME,
            Box::new(move || {
                black_box(
                    hpke::setup_receiver::<Xo, F, K>(
                        &OpModeR::Base,
                        black_box(&sk),
                        black_box(&enc),
                        INFO,
                    )
                    .unwrap(),
                );
            }),
        );
        (sender, receiver)
    }
}

/// hpke-ng.
mod ng {
    use super::*;
    use hpke_ng::Hpke as H;

    pub(super) const NAME: &str = "hpke-ng";

    pub(super) fn setup<'a, K: hpke_ng::Kem + 'static, F: hpke_ng::Kdf + 'static>(
        ikm: &[u8],
        typed_enc: &[u8],
        typed_export: &[u8],
    ) -> (Job<'a>, Job<'a>) {
        type Xo = hpke_ng::ExportOnly;
        let (sk, pk) = K::derive_key_pair(ikm).unwrap();
        let their_enc = K::enc_from_bytes(typed_enc).unwrap();
        let rx = H::<K, F, Xo>::setup_receiver_base(&their_enc, &sk, INFO).unwrap();
        let out = rx.export(EXPORTER, 32).unwrap();
        assert_eq!(&out[..], typed_export, "hpke-ng disagrees with typed-hpke");
        let mut rng = rng();
        let (enc, _) = H::<K, F, Xo>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
        let sender: Job<'a> = (
            NAME,
            Box::new(move || {
                black_box(
                    H::<K, F, Xo>::setup_sender_base(black_box(&mut rng), black_box(&pk), INFO)
                        .unwrap(),
                );
            }),
        );
        let receiver: Job<'a> = (
            NAME,
            Box::new(move || {
                black_box(
                    H::<K, F, Xo>::setup_receiver_base(black_box(&enc), black_box(&sk), INFO)
                        .unwrap(),
                );
            }),
        );
        (sender, receiver)
    }
}

/// The peers that implement a KEM, as `(sender, receiver)` job pairs.
type Peers<'a> = Vec<(Job<'a>, Job<'a>)>;

/// Runs `setup_sender_base/<name>` and `setup_receiver_base/<name>` for typed-hpke against
/// every peer `peers` builds from the ikm, typed-hpke's `enc` and its exporter output.
fn setup_rows<K: Kem, F: Kdf>(
    config: &Config,
    name: &str,
    ikm_len: usize,
    peers: impl FnOnce(&[u8], &[u8], &[u8]) -> Peers<'static>,
    out: &mut Vec<Verdict>,
) {
    let sender_row = format!("setup_sender_base/{name}");
    let receiver_row = format!("setup_receiver_base/{name}");
    let wanted = |row: &str| {
        config
            .filter
            .as_ref()
            .is_none_or(|f| row.contains(f.as_str()))
    };
    if !wanted(&sender_row) && !wanted(&receiver_row) {
        return;
    }
    let ikm = &IKM[..ikm_len];
    let (sk, pk) = K::derive_key_pair(ikm).unwrap();
    let (enc, ctx) = Hpke::<K, F, ExportOnly>::setup_sender_base(&mut rng(), &pk, INFO).unwrap();
    let mut export = [0u8; 32];
    ctx.export(EXPORTER, &mut export).unwrap();
    let peers = peers(ikm, enc.as_bytes(), &export);
    let (typed_sender, typed_receiver) = typed_setup::<K, F>(&sk, &pk, &enc);
    let (mut senders, mut receivers) = (vec![typed_sender], vec![typed_receiver]);
    for (s, r) in peers {
        senders.push(s);
        receivers.push(r);
    }
    run(config, &sender_row, senders, out);
    run(config, &receiver_row, receivers, out);
}

// =============================================================================================
// Raw ML-KEM rows: typed-hpke's `Kem::encap` / `Kem::decap` against libcrux called bare on
// keys it expanded itself, with the implementation typed-hpke picks on this machine.

macro_rules! limit_rows {
    ($fn:ident, $kem:ty, $lib:ident, $ct:ident, $name:literal) => {
        pub(super) fn $fn(config: &Config, out: &mut Vec<Verdict>) {
            use libcrux_ml_kem::$lib as lib;
            let (sk, pk) = <$kem>::derive_key_pair(&IKM[..32]).unwrap();
            let seed: [u8; 64] = sk.to_bytes()[..].try_into().unwrap();
            let (_, enc) = <$kem>::encap(&mut rng(), &pk).unwrap();
            let ct = lib::$ct::try_from(&enc.as_bytes()[..]).unwrap();
            let m = [0x33u8; 32];
            macro_rules! rows {
                ($m:ident) => {{
                    let pair = lib::$m::unpacked::generate_key_pair(seed);
                    let public = pair.public_key.clone();
                    // The same key in libcrux's packed form, through its multiplexed API: what
                    // decapsulation costs when the key is parsed and `A` sampled on each call.
                    let packed = lib::generate_key_pair(seed);
                    assert_eq!(
                        &lib::$m::unpacked::key_pair_serialized_public_key(&pair).as_slice()[..],
                        &pk.as_bytes()[..]
                    );
                    assert_eq!(
                        lib::$m::unpacked::decapsulate(&pair, &ct),
                        *<$kem>::decap(&enc, &sk).unwrap().as_bytes()
                    );
                    let mut rng = rng();
                    run(
                        config,
                        concat!("kem/", $name, "/encap"),
                        vec![
                            (
                                TYPED,
                                Box::new(|| {
                                    black_box(
                                        <$kem>::encap(black_box(&mut rng), black_box(&pk)).unwrap(),
                                    );
                                }),
                            ),
                            (
                                "limit (libcrux bare)",
                                Box::new(|| {
                                    black_box(lib::$m::unpacked::encapsulate(
                                        black_box(&public),
                                        black_box(m),
                                    ));
                                }),
                            ),
                            (
                                "libcrux packed key",
                                Box::new(|| {
                                    black_box(lib::encapsulate(
                                        black_box(&packed.public_key()),
                                        black_box(m),
                                    ));
                                }),
                            ),
                        ],
                        out,
                    );
                    run(
                        config,
                        concat!("kem/", $name, "/decap"),
                        vec![
                            (
                                TYPED,
                                Box::new(|| {
                                    black_box(
                                        <$kem>::decap(black_box(&enc), black_box(&sk)).unwrap(),
                                    );
                                }),
                            ),
                            (
                                "limit (libcrux bare)",
                                Box::new(|| {
                                    black_box(lib::$m::unpacked::decapsulate(
                                        black_box(&pair),
                                        black_box(&ct),
                                    ));
                                }),
                            ),
                            (
                                "libcrux packed key",
                                Box::new(|| {
                                    black_box(lib::decapsulate(
                                        black_box(&packed.private_key()),
                                        black_box(&ct),
                                    ));
                                }),
                            ),
                        ],
                        out,
                    );
                }};
            }
            #[cfg(target_arch = "x86_64")]
            if libcrux_platform::simd256_support() {
                rows!(avx2);
                return;
            }
            rows!(portable);
        }
    };
}

mod limit {
    use super::*;
    limit_rows!(
        ml_kem_768,
        MlKem768,
        mlkem768,
        MlKem768Ciphertext,
        "mlkem768"
    );
    limit_rows!(
        ml_kem_1024,
        MlKem1024,
        mlkem1024,
        MlKem1024Ciphertext,
        "mlkem1024"
    );
}

// =============================================================================================
// The SHA-3 the hybrids use (RustCrypto `shake` / `sha3`) against `libcrux-sha3`, at the sizes
// the hybrids hash: the seed expansion (32 bytes in; 64 + Group.Nseed out) and the combiner
// input (ss_PQ || ss_T || ct_T || pk_T || label).

fn sha3_rows(config: &Config, out: &mut Vec<Verdict>) {
    use sha3::Digest as _;
    use shake::digest::{ExtendableOutput as _, Update as _, XofReader as _};

    fn shake_rows<const N: usize>(config: &Config, out: &mut Vec<Verdict>, row: &str) {
        let seed = [0x5au8; 32];
        let ours = || {
            let mut xof = shake::Shake256::default();
            xof.update(black_box(&seed));
            let mut out = [0u8; N];
            xof.finalize_xof().read(&mut out);
            out
        };
        assert_eq!(ours(), libcrux_sha3::shake256::<N>(&seed));
        run(
            config,
            row,
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(ours());
                    }),
                ),
                (
                    "libcrux-sha3",
                    Box::new(move || {
                        black_box(libcrux_sha3::shake256::<N>(black_box(&seed)));
                    }),
                ),
            ],
            out,
        );
    }
    shake_rows::<96>(config, out, "sha3/shake256 32 B -> 96 B (X-Wing seed)");
    shake_rows::<192>(
        config,
        out,
        "sha3/shake256 32 B -> 192 B (MLKEM768-P256 seed)",
    );
    shake_rows::<112>(
        config,
        out,
        "sha3/shake256 32 B -> 112 B (MLKEM1024-P384 seed)",
    );

    for (row, len) in [
        ("sha3/sha3-256 134 B (X-Wing combiner)", 134usize),
        ("sha3/sha3-256 207 B (MLKEM768-P256 combiner)", 207),
        ("sha3/sha3-256 290 B (MLKEM1024-P384 combiner)", 290),
    ] {
        let input = vec![0xa5u8; len];
        assert_eq!(
            sha3::Sha3_256::digest(&input)[..],
            libcrux_sha3::sha256(&input)[..]
        );
        let theirs = input.clone();
        run(
            config,
            row,
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(sha3::Sha3_256::digest(black_box(&input)));
                    }),
                ),
                (
                    "libcrux-sha3",
                    Box::new(move || {
                        black_box(libcrux_sha3::sha256(black_box(&theirs)));
                    }),
                ),
            ],
            out,
        );
    }
}

// =============================================================================================
// The runtime API (`typed_hpke::suite`) against the typed API, same suite, same machine: the
// cost of choosing the suite at run time. Here "typed-hpke" is the runtime path and the peer is
// the typed `Hpke<K, F, A>`, so the ratio is runtime / typed. Then `Suite::open` with a key
// parsed once against the same call with key bytes (parsed, and for ML-KEM expanded, per call).

mod runtime {
    use super::*;
    use typed_hpke::aead::{Aes128Gcm, SealingAead};
    use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};

    const TYPED_API: &str = "typed API (Hpke<K, F, A>)";
    const AAD: &[u8] = b"paired bench aad";

    fn rows<K: Kem, F: Kdf, A: SealingAead>(config: &Config, name: &str, out: &mut Vec<Verdict>) {
        let suite = Suite::of::<K, F, A>();
        let (sk, pk) = K::derive_key_pair(&IKM[..32]).unwrap();
        let (rt_sk, rt_pk) = (
            typed_hpke::suite::PrivateKey::from(sk.clone()),
            typed_hpke::suite::PublicKey::from(pk.clone()),
        );
        // Both paths agree before anything is timed.
        let (enc, mut typed_ctx) =
            Hpke::<K, F, A>::setup_sender_base(&mut rng(), &pk, INFO).unwrap();
        let (rt_enc, mut rt_ctx) = suite
            .setup_sender(&mut rng(), &rt_pk, INFO, SenderMode::Base)
            .unwrap();
        assert_eq!(enc.as_bytes(), rt_enc.as_bytes());
        let pt = [0x42u8; 1024];
        let (mut a, mut b) = ([0u8; 1040], [0u8; 1040]);
        typed_ctx.seal_into(AAD, &pt, &mut a).unwrap();
        rt_ctx.seal_into(AAD, &pt, &mut b).unwrap();
        assert_eq!(a, b);
        let enc_bytes = enc.as_bytes().to_vec();

        let (mut r1, mut r2) = (rng(), rng());
        let (pk1, rt_pk1) = (pk.clone(), rt_pk.clone());
        run(
            config,
            &format!("runtime/setup_sender_base/{name}"),
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(
                            suite
                                .setup_sender(
                                    black_box(&mut r1),
                                    black_box(&rt_pk1),
                                    INFO,
                                    SenderMode::Base,
                                )
                                .unwrap(),
                        );
                    }),
                ),
                (
                    TYPED_API,
                    Box::new(move || {
                        black_box(
                            Hpke::<K, F, A>::setup_sender_base(
                                black_box(&mut r2),
                                black_box(&pk1),
                                INFO,
                            )
                            .unwrap(),
                        );
                    }),
                ),
            ],
            out,
        );
        let (sk1, rt_sk1, e1, e2) = (
            sk.clone(),
            rt_sk.clone(),
            enc_bytes.clone(),
            enc_bytes.clone(),
        );
        run(
            config,
            &format!("runtime/setup_receiver_base/{name}"),
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(
                            suite
                                .setup_receiver(
                                    black_box(&e1),
                                    black_box(&rt_sk1),
                                    INFO,
                                    ReceiverMode::Base,
                                )
                                .unwrap(),
                        );
                    }),
                ),
                (
                    TYPED_API,
                    Box::new(move || {
                        let enc = EncappedKey::<K>::from_bytes(black_box(&e2)).unwrap();
                        black_box(
                            Hpke::<K, F, A>::setup_receiver_base(&enc, black_box(&sk1), INFO)
                                .unwrap(),
                        );
                    }),
                ),
            ],
            out,
        );
        let (mut o1, mut o2) = ([0u8; 1040], [0u8; 1040]);
        run(
            config,
            &format!("runtime/seal 1 KiB/{name}"),
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(rt_ctx.seal_into(AAD, black_box(&pt), &mut o1).unwrap());
                    }),
                ),
                (
                    TYPED_API,
                    Box::new(move || {
                        black_box(typed_ctx.seal_into(AAD, black_box(&pt), &mut o2).unwrap());
                    }),
                ),
            ],
            out,
        );
    }

    /// `Suite::open` with a parsed runtime key against the same call with key bytes.
    fn open_rows<K: Kem, F: Kdf>(config: &Config, name: &str, out: &mut Vec<Verdict>) {
        let suite = Suite::of::<K, F, Aes128Gcm>();
        let (sk, pk) = suite.derive_key_pair(&IKM[..32]).unwrap();
        let sk_bytes = sk.to_bytes();
        let (enc, ct) = suite
            .seal(&mut rng(), &pk, INFO, AAD, &[0x42; 1024], SenderMode::Base)
            .unwrap();
        assert_eq!(
            suite
                .open(&enc, &sk, INFO, AAD, &ct, ReceiverMode::Base)
                .unwrap(),
            suite
                .open(&enc, &sk_bytes[..], INFO, AAD, &ct, ReceiverMode::Base)
                .unwrap()
        );
        let (e1, c1) = (enc.clone(), ct.clone());
        run(
            config,
            &format!("runtime/open 1 KiB, parsed key vs key bytes/{name}"),
            vec![
                (
                    TYPED,
                    Box::new(move || {
                        black_box(
                            suite
                                .open(&e1, black_box(&sk), INFO, AAD, &c1, ReceiverMode::Base)
                                .unwrap(),
                        );
                    }),
                ),
                (
                    "Suite::open, key bytes",
                    Box::new(move || {
                        black_box(
                            suite
                                .open(
                                    &enc,
                                    black_box(&sk_bytes[..]),
                                    INFO,
                                    AAD,
                                    &ct,
                                    ReceiverMode::Base,
                                )
                                .unwrap(),
                        );
                    }),
                ),
            ],
            out,
        );
    }

    pub(super) fn all(config: &Config, out: &mut Vec<Verdict>) {
        rows::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(
            config,
            "x25519-sha256-aes128gcm",
            out,
        );
        rows::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(config, "p256-sha256-aes128gcm", out);
        rows::<MlKem768, HkdfSha256, Aes128Gcm>(config, "mlkem768-sha256-aes128gcm", out);
        rows::<XWing, HkdfSha256, Aes128Gcm>(config, "xwing-sha256-aes128gcm", out);
        open_rows::<MlKem768, HkdfSha256>(config, "mlkem768-sha256-aes128gcm", out);
        open_rows::<XWing, HkdfSha256>(config, "xwing-sha256-aes128gcm", out);
    }
}

// =============================================================================================

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let allowed = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Cpus_allowed_list"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "?".into());
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cpus} logical CPUs, allowed CPUs {allowed}")
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let config = Config {
        rounds: env("PAIRED_ROUNDS", 21).max(9) as usize,
        batch_ns: u128::from(env("PAIRED_BATCH_MS", 20)) * 1_000_000,
        filter: std::env::args().skip(1).find(|a| !a.starts_with('-')),
    };
    println!("machine: {}", machine());
    let start_load = load();
    println!("load average at start: {start_load}");
    println!(
        "rounds {}, batch >= {} ms, 95% interval from order statistics {} and {}",
        config.rounds,
        config.batch_ns / 1_000_000,
        order_statistic_k(config.rounds),
        config.rounds + 1 - order_statistic_k(config.rounds)
    );
    let mut out = Vec::new();

    use hpke::{kdf as rf, kem as rk};

    // Each suite: typed-hpke's KEM and KDF, the row name, the ikm length, and every peer that
    // has the KEM (each a function of the ikm, typed-hpke's enc and its exporter output).
    macro_rules! suite {
        ($k:ty, $f:ty, $name:literal, $ikm:literal, [$($peer:expr),* $(,)?]) => {
            setup_rows::<$k, $f>(&config, $name, $ikm, |i, e, x| vec![$($peer(i, e, x)),*], &mut out)
        };
    }
    use hpke_ng as n;
    use rs::{libcrux as crux, rustcrypto as rc};
    suite!(
        DhKemX25519HkdfSha256,
        HkdfSha256,
        "x25519-sha256-exportonly",
        32,
        [
            ng::setup::<n::DhKemX25519HkdfSha256, n::HkdfSha256>,
            rh::setup::<rk::X25519HkdfSha256, rf::HkdfSha256>,
            rc::<0x0020, 0x0001>,
            crux::<0x0020, 0x0001>,
        ]
    );
    suite!(
        DhKemP256HkdfSha256,
        HkdfSha256,
        "p256-sha256-exportonly",
        32,
        [
            ng::setup::<n::DhKemP256HkdfSha256, n::HkdfSha256>,
            rh::setup::<rk::DhP256HkdfSha256, rf::HkdfSha256>,
            rc::<0x0010, 0x0001>,
            crux::<0x0010, 0x0001>,
        ]
    );
    suite!(
        DhKemP384HkdfSha384,
        HkdfSha384,
        "p384-sha384-exportonly",
        48,
        [
            ng::setup::<n::DhKemP384HkdfSha384, n::HkdfSha384>,
            rh::setup::<rk::DhP384HkdfSha384, rf::HkdfSha384>,
            rc::<0x0011, 0x0002>,
            crux::<0x0011, 0x0002>,
        ]
    );
    suite!(
        MlKem768,
        HkdfSha256,
        "mlkem768-sha256-exportonly",
        32,
        [
            ng::setup::<n::MlKem768, n::HkdfSha256>,
            rh::setup::<rk::MlKem768, rf::HkdfSha256>,
            rc::<0x0041, 0x0001>,
            crux::<0x0041, 0x0001>,
        ]
    );
    suite!(
        MlKem1024,
        HkdfSha384,
        "mlkem1024-sha384-exportonly",
        32,
        [
            ng::setup::<n::MlKem1024, n::HkdfSha384>,
            rh::setup::<rk::MlKem1024, rf::HkdfSha384>,
            rc::<0x0042, 0x0002>,
            crux::<0x0042, 0x0002>,
        ]
    );
    suite!(
        XWing,
        HkdfSha256,
        "xwing-sha256-exportonly",
        32,
        [
            ng::setup::<n::XWingDraft06, n::HkdfSha256>,
            rh::setup::<rk::XWing, rf::HkdfSha256>,
            rc::<0x647a, 0x0001>,
            crux::<0x647a, 0x0001>,
        ]
    );
    suite!(
        MlKem768P256,
        HkdfSha256,
        "mlkem768p256-sha256-exportonly",
        32,
        [
            rh::setup::<rk::MlKem768P256, rf::HkdfSha256>,
            crux::<0x0050, 0x0001>,
        ]
    );
    suite!(
        MlKem1024P384,
        HkdfSha384,
        "mlkem1024p384-sha384-exportonly",
        32,
        [
            rh::setup::<rk::MlKem1024P384, rf::HkdfSha384>,
            crux::<0x0051, 0x0002>,
        ]
    );
    sha3_rows(&config, &mut out);
    limit::ml_kem_768(&config, &mut out);
    limit::ml_kem_1024(&config, &mut out);
    runtime::all(&config, &mut out);

    let end_load = load();
    let mut md = String::new();
    use std::fmt::Write as _;
    let k = order_statistic_k(config.rounds);
    writeln!(md, "# Paired-round benchmark").unwrap();
    writeln!(md).unwrap();
    writeln!(
        md,
        "Written by `benches/paired.rs` (its header gives the method); reproduce with"
    )
    .unwrap();
    writeln!(md).unwrap();
    writeln!(
        md,
        "```sh
cargo bench --features comparative --ignore-rust-version --bench paired
```"
    )
    .unwrap();
    writeln!(md).unwrap();
    writeln!(md, "- machine: {}; no core pinned", machine()).unwrap();
    writeln!(
        md,
        "- load average (1, 5, 15 min): {start_load} at the start, {end_load} at the end"
    )
    .unwrap();
    writeln!(
        md,
        "- {} rounds per row, batches of at least {} ms, order rotated each round; the interval is \
         the {}th and {}th of the sorted per-round ratios (distribution-free, at least 95%)",
        config.rounds,
        config.batch_ns / 1_000_000,
        k,
        config.rounds + 1 - k
    )
    .unwrap();
    writeln!(
        md,
        "- ratio = typed-hpke's time / the peer's: below 1 typed-hpke is faster. Win: the whole \
         interval below 0.97; loss: above 1.03; tie otherwise. Times are medians, for context only"
    )
    .unwrap();
    writeln!(md).unwrap();
    let tally = |call: &str| out.iter().filter(|v| v.call() == call).count();
    writeln!(
        md,
        "{} verdicts: {} wins, {} ties, {} losses.",
        out.len(),
        tally("win"),
        tally("tie"),
        tally("loss")
    )
    .unwrap();
    writeln!(md).unwrap();
    writeln!(
        md,
        "| row | peer | typed-hpke | peer | ratio (median) | 95% interval | verdict |"
    )
    .unwrap();
    writeln!(md, "|---|---|---|---|---|---|---|").unwrap();
    for v in &out {
        writeln!(
            md,
            "| {} | {} | {:.1} us | {:.1} us | {:.3} | [{:.3}, {:.3}] | {} |",
            v.row,
            v.peer,
            v.typed_ns / 1000.0,
            v.peer_ns / 1000.0,
            v.median,
            v.lo,
            v.hi,
            v.call()
        )
        .unwrap();
    }
    writeln!(md, "\n## Post-quantum key sizes (bytes, `size_of`)\n").unwrap();
    writeln!(md, "Keys hold libcrux's expanded forms: the matrix `A`, `t` and `H(ek)` in a public key; the private key adds `s` in NTT form and the seed, beside its own copy of the public key.\n").unwrap();
    writeln!(md, "| KEM | PrivateKey | PublicKey | EncappedKey |").unwrap();
    writeln!(md, "|---|---|---|---|").unwrap();
    macro_rules! sizes {
        ($($name:literal: $k:ty),*) => {$(
            writeln!(
                md,
                "| {} | {} | {} | {} |",
                $name,
                size_of::<PrivateKey<$k>>(),
                size_of::<PublicKey<$k>>(),
                size_of::<EncappedKey<$k>>()
            )
            .unwrap();
        )*};
    }
    sizes!(
        "ML-KEM-512": typed_hpke::kem::MlKem512,
        "ML-KEM-768": MlKem768,
        "ML-KEM-1024": MlKem1024,
        "X-Wing": XWing,
        "MLKEM768-P256": MlKem768P256,
        "MLKEM1024-P384": MlKem1024P384
    );
    let path = std::env::var("PAIRED_OUT").unwrap_or_else(|_| "target/paired.md".into());
    std::fs::write(&path, &md).unwrap();
    println!("\n{md}\nwritten to {path}");
}
