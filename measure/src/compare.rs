//! The comparative bench: typed-hpke against every peer in its fastest configuration, by paired
//! rounds, with a limit and a floor per row and counted allocations.
//!
//! ```text
//! cargo bench --features comparative --ignore-rust-version --bench compare [-- FILTER ...]
//! cargo run --release -p typed-hpke-measure --ignore-rust-version --example bench-report
//! ```
//!
//! Implementations, each on every row it supports, with the same inputs (keys derived from the
//! same IKM, typed-hpke's encapsulations and ciphertexts to open):
//! - `typed-hpke`: the typed API, the subject of every ratio;
//! - `typed-hpke runtime`: its runtime API (`typed_hpke::suite`), on the Base-mode rows;
//! - hpke-ng 0.2; rust-hpke (`hpke`) 0.15.1; hpke-rs 0.8 with its RustCrypto provider and,
//!   separately, with its libcrux provider; rustls 0.23's aws-lc-rs HPKE through
//!   `rustls::crypto::hpke::Hpke`;
//! - `limit (aws-lc-rs)`: the fastest primitives reachable from crates.io, called bare
//!   (`limit.rs`);
//! - `floor`: the primitive calls typed-hpke itself makes (`floor.rs`).
//!
//! Before a row is timed, every peer's output is checked by typed-hpke (its encapsulation
//! decapsulates, its context exports or opens what typed-hpke's does, its derived key is the
//! same), so no row times a failure or another computation.
//!
//! Method (`driver.rs`): per row, every implementation runs one timed batch per round, in an
//! order rotated from round to round; the batch is sized so typed-hpke's lasts
//! `COMPARE_BATCH_MS` (default 20) and every implementation runs the same iteration count.
//! The statistic is the per-round ratio typed-hpke / other; the results give its median and a
//! distribution-free 95% confidence interval for the median (order statistics `x(k)`,
//! `x(n+1-k)` of the `n` sorted ratios, `k` the largest with `P(Binomial(n, 1/2) < k) <= 2.5%`).
//! `COMPARE_ROUNDS` (default 21) sets `n`. A counting global allocator counts the allocations
//! made inside every timed batch.
//!
//! `COMPARE_QUICK=1` runs a handful of rows with few short rounds (what `.ci/run` does, so the
//! harness cannot rot); `COMPARE_OUT` names the results file (default
//! `target/compare/results.tsv`), which `measure/examples/bench-report.rs` turns into `BENCHMARKS.md`.
//! Arguments filter rows by substring. `COMPARE_RERUN=1` reruns the filtered rows of an existing
//! results file: each row run replaces its namesake in place, the rest of the file stays, and a
//! `rerun` header line records the filters, the machine, the load and the time of the rerun
//! (the report prints it), so a change to a few rows' harness is measured without a full run.

/// Dispatches a row's suite, as literal ids, to a peer's macro: `$m!(kem, kdf, aead, args..)`.
/// Only the suites listed here are ever instantiated.
macro_rules! for_suite {
    ($ids:expr, $m:ident, $($args:tt)*) => {
        match $ids {
            (0x0020, 0x0001, 0x0001) => $m!(0x0020, 0x0001, 0x0001, $($args)*),
            (0x0020, 0x0001, 0x0002) => $m!(0x0020, 0x0001, 0x0002, $($args)*),
            (0x0020, 0x0001, 0x0003) => $m!(0x0020, 0x0001, 0x0003, $($args)*),
            (0x0020, 0x0002, 0x0001) => $m!(0x0020, 0x0002, 0x0001, $($args)*),
            (0x0020, 0x0003, 0x0001) => $m!(0x0020, 0x0003, 0x0001, $($args)*),
            (0x0020, 0x0010, 0x0001) => $m!(0x0020, 0x0010, 0x0001, $($args)*),
            (0x0020, 0x0011, 0x0001) => $m!(0x0020, 0x0011, 0x0001, $($args)*),
            (0x0020, 0x0012, 0x0001) => $m!(0x0020, 0x0012, 0x0001, $($args)*),
            (0x0020, 0x0013, 0x0001) => $m!(0x0020, 0x0013, 0x0001, $($args)*),
            (0x0021, 0x0003, 0x0002) => $m!(0x0021, 0x0003, 0x0002, $($args)*),
            (0x0010, 0x0001, 0x0001) => $m!(0x0010, 0x0001, 0x0001, $($args)*),
            (0x0011, 0x0002, 0x0002) => $m!(0x0011, 0x0002, 0x0002, $($args)*),
            (0x0012, 0x0003, 0x0002) => $m!(0x0012, 0x0003, 0x0002, $($args)*),
            (0x0016, 0x0001, 0x0001) => $m!(0x0016, 0x0001, 0x0001, $($args)*),
            (0x0040, 0x0001, 0x0001) => $m!(0x0040, 0x0001, 0x0001, $($args)*),
            (0x0041, 0x0001, 0x0001) => $m!(0x0041, 0x0001, 0x0001, $($args)*),
            (0x0041, 0x0011, 0x0001) => $m!(0x0041, 0x0011, 0x0001, $($args)*),
            (0x0042, 0x0002, 0x0002) => $m!(0x0042, 0x0002, 0x0002, $($args)*),
            (0x647a, 0x0001, 0x0001) => $m!(0x647a, 0x0001, 0x0001, $($args)*),
            (0x0050, 0x0001, 0x0001) => $m!(0x0050, 0x0001, 0x0001, $($args)*),
            (0x0051, 0x0002, 0x0002) => $m!(0x0051, 0x0002, 0x0002, $($args)*),
            _ => None,
        }
    };
}

pub use typed_hpke_support::driver;
mod floor;
mod hpke_ng;
#[path = "../tests/util/hpke_ng_auth.rs"]
mod hpke_ng_auth;
mod hpke_rs;
mod limit;
#[path = "../../tests/util/maybe_auth.rs"]
mod maybe_auth;
mod rust_hpke;
mod rustls;
mod typed;

use std::time::Instant;

use driver::{Config, Fixture, Ids, Job, Mode, Op, Outcome, Row, TYPED};
use typed_hpke::aead::SealingAead;
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::Kem;
use typed_hpke::suite::{SealingVisitor, Suite};

/// Every binary that links this crate (the comparative bench, `benches/primitives.rs`) counts
/// its allocations for the driver.
#[global_allocator]
static COUNTING: driver::Counting = driver::Counting;

type Peer = (&'static str, fn(&Row, &Fixture) -> Option<Job>);

/// Every implementation but typed-hpke's typed API, in report order.
const PEERS: &[Peer] = &[
    (typed::RUNTIME, typed::runtime),
    (hpke_ng::NAME, hpke_ng::peer),
    (rust_hpke::NAME, rust_hpke::peer),
    (hpke_rs::RUSTCRYPTO, hpke_rs::rustcrypto),
    (hpke_rs::LIBCRUX, hpke_rs::libcrux),
    (rustls::NAME, rustls::peer),
    (limit::NAME, limit::peer),
    (floor::NAME, floor::peer),
];

/// Whether `for_suite!` lists the suite `ids`.
const fn listed(ids: Ids) -> bool {
    macro_rules! listed {
        ($k:tt, $f:tt, $a:tt,) => {
            Some(())
        };
    }
    for_suite!(ids, listed,).is_some()
}

/// What [`typed_call`] makes: a row's fixture, a row's timed job, or the cost of preparing a
/// key (`typed::prepare`).
enum Call<'a> {
    Fixture,
    Job(&'a Fixture),
    Prepare,
}

/// What [`typed_call`] made.
enum Made {
    Fixture(Fixture),
    Job(Job),
    Extra(typed::Extra),
}

/// `call` on the row's suite, with typed-hpke's types from the library
/// (`Suite::visit_sealing`), compiled for `for_suite!`'s suites alone (`if const`), as the
/// peers' calls are.
fn typed_call(row: &Row, call: Call<'_>) -> Option<Made> {
    struct Visit<'a>(&'a Row, Call<'a>);
    impl SealingVisitor for Visit<'_> {
        type Output = Option<Made>;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> Self::Output {
            if const { listed((K::ID, F::ID, A::ID)) } {
                match self.1 {
                    Call::Fixture => typed::fixture::<K, F, A>(self.0).map(Made::Fixture),
                    Call::Job(fix) => typed::job::<K, F, A>(self.0, fix).map(Made::Job),
                    Call::Prepare => typed::prepare::<K, F, A>(self.0).map(Made::Extra),
                }
            } else {
                None
            }
        }
    }
    let (kem, kdf, aead) = row.ids;
    Suite::new(kem, kdf, aead)
        .ok()?
        .visit_sealing(Visit(row, call))
        .ok()?
}

fn typed_fixture(row: &Row) -> Option<Fixture> {
    match typed_call(row, Call::Fixture)? {
        Made::Fixture(fix) => Some(fix),
        _ => None,
    }
}

fn typed_job(row: &Row, fix: &Fixture) -> Option<Job> {
    match typed_call(row, Call::Job(fix))? {
        Made::Job(job) => Some(job),
        _ => None,
    }
}

/// Each KEM's usual suite, which its KEM rows carry.
const KEM_SUITES: &[Ids] = &[
    (0x0020, 0x0001, 0x0001),
    (0x0021, 0x0003, 0x0002),
    (0x0010, 0x0001, 0x0001),
    (0x0011, 0x0002, 0x0002),
    (0x0012, 0x0003, 0x0002),
    (0x0016, 0x0001, 0x0001),
    (0x0040, 0x0001, 0x0001),
    (0x0041, 0x0001, 0x0001),
    (0x0042, 0x0002, 0x0002),
    (0x647a, 0x0001, 0x0001),
    (0x0050, 0x0001, 0x0001),
    (0x0051, 0x0002, 0x0002),
];

/// The KEMs whose prepared key holds a table.
const PREPARED_KEMS: &[u16] = &[
    0x0020, 0x0010, 0x0011, 0x0012, 0x0016, 0x647a, 0x0050, 0x0051,
];

const X25519_AEADS: &[Ids] = &[
    (0x0020, 0x0001, 0x0001),
    (0x0020, 0x0001, 0x0002),
    (0x0020, 0x0001, 0x0003),
];

const X25519_KDFS: &[Ids] = &[
    (0x0020, 0x0001, 0x0001),
    (0x0020, 0x0002, 0x0001),
    (0x0020, 0x0003, 0x0001),
    (0x0020, 0x0010, 0x0001),
    (0x0020, 0x0011, 0x0001),
    (0x0020, 0x0012, 0x0001),
    (0x0020, 0x0013, 0x0001),
];

const SIZES: &[usize] = &[64, 1024, 16384, 65536];
const MODES: &[Mode] = &[Mode::Base, Mode::Psk, Mode::Auth, Mode::AuthPsk];

fn push_row(rows: &mut Vec<Row>, op: Op, ids: Ids, prepared: bool) {
    rows.push(Row { op, ids, prepared });
}

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let mut push = |op, ids| push_row(&mut rows, op, ids, false);
    // KEMs: every operation, the authenticated ones on the DH-KEMs.
    for &ids in KEM_SUITES {
        let dh = ids.0 < 0x0040;
        for op in [Op::Generate, Op::DeriveKeyPair, Op::Encap, Op::Decap] {
            push(op, ids);
        }
        if dh {
            push(Op::AuthEncap, ids);
            push(Op::AuthDecap, ids);
        }
    }
    // Setup: every KEM in every mode it has, on its usual suite.
    for &ids in KEM_SUITES {
        for &mode in MODES {
            if mode.auth() && ids.0 >= 0x0040 {
                continue;
            }
            push(Op::SetupSender(mode), ids);
            push(Op::SetupReceiver(mode), ids);
        }
    }
    // Setup across the KDFs and AEADs, Base mode.
    for &ids in X25519_KDFS[1..]
        .iter()
        .chain(&X25519_AEADS[1..])
        .chain(&[(0x0041, 0x0011, 0x0001)])
    {
        push(Op::SetupSender(Mode::Base), ids);
        push(Op::SetupReceiver(Mode::Base), ids);
    }
    // Messages: single-shot and context, every AEAD, four sizes.
    for &ids in X25519_AEADS {
        for &n in SIZES {
            push(Op::Seal(n), ids);
            push(Op::Open(n), ids);
        }
    }
    for &ids in &[
        (0x0010, 0x0001, 0x0001),
        (0x0011, 0x0002, 0x0002),
        (0x0012, 0x0003, 0x0002),
        (0x0041, 0x0001, 0x0001),
        (0x647a, 0x0001, 0x0001),
    ] {
        for n in [64, 1024] {
            push(Op::Seal(n), ids);
            push(Op::Open(n), ids);
        }
    }
    for &ids in X25519_AEADS {
        for &n in SIZES {
            push(Op::ContextSeal(n), ids);
            push(Op::ContextOpen(n), ids);
        }
    }
    // Export: every KDF at 32 bytes, and a length sweep on HKDF-SHA256.
    for &ids in X25519_KDFS {
        push(Op::Export(32), ids);
    }
    for n in [16, 64, 128, 256] {
        push(Op::Export(n), X25519_KDFS[0]);
    }
    // Encapsulation to a prepared key, for the KEMs that prepare one (X448 and ML-KEM have no
    // table: their prepared key is the plain one).
    for &ids in KEM_SUITES
        .iter()
        .filter(|ids| PREPARED_KEMS.contains(&ids.0))
    {
        for op in [Op::Encap, Op::SetupSender(Mode::Base)] {
            push_row(&mut rows, op, ids, true);
        }
    }
    rows
}

/// The quick mode's rows: one of each kind, across the peers.
fn quick(rows: Vec<Row>) -> Vec<Row> {
    const QUICK: &[&str] = &[
        "kem/x25519/encap",
        "kem/p256/decap",
        "kem/mlkem768/decap",
        "kem/xwing/encap",
        "setup_sender_auth/x25519-sha256-aes128gcm",
        "setup_receiver_base/p384-sha384-aes256gcm",
        "setup_receiver_psk/mlkem768-sha256-aes128gcm",
        "open/x25519-sha256-aes128gcm/1024",
        "context_open/x25519-sha256-chacha20poly1305/1024",
        "export/x25519-shake128-aes128gcm/32",
    ];
    rows.into_iter()
        .filter(|r| QUICK.contains(&r.name().as_str()))
        .collect()
}

pub fn main() {
    let quick_mode = std::env::var_os("COMPARE_QUICK").is_some();
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let config = Config {
        rounds: driver::env("COMPARE_ROUNDS", if quick_mode { 5 } else { 21 }),
        batch_ns: driver::env("COMPARE_BATCH_MS", if quick_mode { 2.0 } else { 20.0 }) * 1e6,
        filter,
    };
    assert!(config.rounds >= 5, "COMPARE_ROUNDS must be at least 5");
    let mut rows = rows();
    if quick_mode {
        rows = quick(rows);
    }
    rows.retain(|r| {
        let name = r.name();
        config.filter.is_empty() || config.filter.iter().any(|f| name.contains(f.as_str()))
    });
    let (cpus, pinned) = driver::affinity();
    let load_start = driver::load();
    let start = Instant::now();
    let k = driver::order_statistic_k(config.rounds);
    eprintln!(
        "{} rows, {} rounds (95% interval: sorted ratios {k} and {}), batches of {} ms",
        rows.len(),
        config.rounds,
        config.rounds + 1 - k,
        config.batch_ns / 1e6
    );
    let mut outcomes: Vec<Outcome> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let name = row.name();
        let Some(fix) = typed_fixture(row) else {
            continue;
        };
        let mut jobs: Vec<(&'static str, Job)> = vec![(TYPED, typed_job(row, &fix).unwrap())];
        for &(who, peer) in PEERS {
            if let Some(job) = peer(row, &fix) {
                jobs.push((who, job));
            }
        }
        let results = driver::run(&config, &name, jobs);
        eprintln!(
            "[{}/{}, {:.0} s] {name}",
            i + 1,
            rows.len(),
            start.elapsed().as_secs_f64()
        );
        for o in &results[1..] {
            eprintln!(
                "    {:24} {:>11.0} ns  ratio {:.3} [{:.3}, {:.3}]  {:.1} allocs",
                o.who, o.ns, o.median, o.lo, o.hi, o.allocations
            );
        }
        eprintln!(
            "    {:24} {:>11.0} ns  {:.1} allocs",
            TYPED, results[0].ns, results[0].allocations
        );
        outcomes.extend(results);
    }
    // typed-hpke alone: the cost of preparing a key, and the multi-recipient seal against its
    // own single seals.
    let mut extras: Vec<typed::Extra> = KEM_SUITES
        .iter()
        .filter(|ids| PREPARED_KEMS.contains(&ids.0))
        .filter_map(|&ids| {
            let row = Row {
                op: Op::Encap,
                ids,
                prepared: true,
            };
            match typed_call(&row, Call::Prepare)? {
                Made::Extra(extra) => Some(extra),
                _ => None,
            }
        })
        .collect();
    extras.push(typed::seal_many());
    for (name, jobs) in extras {
        if quick_mode
            || !(config.filter.is_empty()
                || config.filter.iter().any(|f| name.contains(f.as_str())))
        {
            continue;
        }
        let results = driver::run(&config, &name, jobs());
        eprintln!("[{:.0} s] {name}", start.elapsed().as_secs_f64());
        for o in &results {
            eprintln!(
                "    {:40} {:>11.0} ns  {:.1} allocs",
                o.who, o.ns, o.allocations
            );
        }
        outcomes.extend(results);
    }
    let header = [
        ("machine", driver::machine()),
        ("cpus allowed", cpus),
        ("core pinned", pinned.to_string()),
        ("load at start", load_start),
        ("load at end", driver::load()),
        ("rounds", config.rounds.to_string()),
        ("interval order statistic k", k.to_string()),
        ("batch ms", (config.batch_ns / 1e6).to_string()),
        (
            "duration s",
            format!("{:.0}", start.elapsed().as_secs_f64()),
        ),
        ("quick", quick_mode.to_string()),
        (
            "typed-hpke backend",
            if cfg!(feature = "aws-lc-rs") {
                "aws-lc-rs"
            } else if typed_hpke::backend() == typed_hpke::Backend::Graviola {
                "graviola"
            } else {
                "pure Rust"
            }
            .into(),
        ),
    ];
    let out = std::env::var("COMPARE_OUT").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/compare/results.tsv").into()
    });
    let path = std::path::Path::new(&out);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    let text = if std::env::var_os("COMPARE_RERUN").is_some() {
        let old = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!("COMPARE_RERUN: {out}: {e}; a rerun replaces rows of a full run")
        });
        let order: Vec<String> = self::rows().iter().map(Row::name).collect();
        driver::splice(&old, &header, &config.filter, &outcomes, &order)
    } else {
        driver::results(&header, &outcomes)
    };
    std::fs::write(path, text).unwrap();
    eprintln!("wrote {out}");
}
