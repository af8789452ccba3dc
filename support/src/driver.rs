//! The shared driver: rows, fixtures, timed jobs, paired rounds, the statistic, allocation
//! counts and the results file. It knows nothing of any peer's API.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub const INFO: &[u8] = b"comparative bench info";
pub const AAD: &[u8] = b"comparative bench aad";
pub const EXPORTER: &[u8] = b"comparative bench exporter";
pub const PSK: &[u8] = &[0x42; 32];
pub const PSK_ID: &[u8] = b"psk id";
const IKM_R: [u8; 66] = [0x11; 66];
const IKM_S: [u8; 66] = [0x22; 66];

/// The name typed-hpke's typed API goes by; every ratio is its time over another's.
pub const TYPED: &str = "typed-hpke";

// ---------------------------------------------------------------------------------------------
// Counted allocations.

/// The allocator that counts: each binary that reports allocations declares it, as
/// `#[global_allocator] static A: Counting = Counting;` (a library's `#[global_allocator]`
/// would be every linking binary's). [`run`] refuses to measure without it.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the only addition is a relaxed counter increment, which never
// allocates. (The library forbids unsafe code; this bench tool is not the library.)
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------------------------
// Rows.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Base,
    Psk,
    Auth,
    AuthPsk,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Base => "base",
            Mode::Psk => "psk",
            Mode::Auth => "auth",
            Mode::AuthPsk => "auth_psk",
        }
    }
    pub fn psk(self) -> bool {
        matches!(self, Mode::Psk | Mode::AuthPsk)
    }
    pub fn auth(self) -> bool {
        matches!(self, Mode::Auth | Mode::AuthPsk)
    }
    pub fn id(self) -> u8 {
        self as u8
    }
}

/// What a row times. Message sizes are plaintext bytes; export sizes output bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Generate,
    DeriveKeyPair,
    Encap,
    Decap,
    AuthEncap,
    AuthDecap,
    SetupSender(Mode),
    SetupReceiver(Mode),
    /// Single-shot Base-mode seal: setup (with its encapsulation) plus one seal.
    Seal(usize),
    /// Single-shot Base-mode open: setup (with its decapsulation) plus one open.
    Open(usize),
    /// A sender context's `seal`, after setup.
    ContextSeal(usize),
    /// A receiver context's `open`, after setup, of the sender's messages in order.
    ContextOpen(usize),
    /// A context's `export`.
    Export(usize),
}

/// `(kem_id, kdf_id, aead_id)`.
pub type Ids = (u16, u16, u16);

#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub op: Op,
    /// The suite. KEM rows carry their KEM's usual suite, so every peer can dispatch on it.
    pub ids: Ids,
    /// typed-hpke encapsulates to a prepared key (`Encap` and `SetupSender` rows); the other
    /// implementations, which have no such thing, do what the unprepared row does.
    pub prepared: bool,
}

pub fn kem_name(id: u16) -> &'static str {
    match id {
        0x0010 => "p256",
        0x0011 => "p384",
        0x0012 => "p521",
        0x0016 => "k256",
        0x0020 => "x25519",
        0x0021 => "x448",
        0x0040 => "mlkem512",
        0x0041 => "mlkem768",
        0x0042 => "mlkem1024",
        0x0050 => "mlkem768p256",
        0x0051 => "mlkem1024p384",
        0x647a => "xwing",
        _ => "unknown",
    }
}

fn kdf_name(id: u16) -> &'static str {
    match id {
        0x0001 => "sha256",
        0x0002 => "sha384",
        0x0003 => "sha512",
        0x0010 => "shake128",
        0x0011 => "shake256",
        0x0012 => "turboshake128",
        0x0013 => "turboshake256",
        _ => "unknown",
    }
}

fn aead_name(id: u16) -> &'static str {
    match id {
        0x0001 => "aes128gcm",
        0x0002 => "aes256gcm",
        0x0003 => "chacha20poly1305",
        0xffff => "exportonly",
        _ => "unknown",
    }
}

pub fn suite_name(ids: Ids) -> String {
    format!(
        "{}-{}-{}",
        kem_name(ids.0),
        kdf_name(ids.1),
        aead_name(ids.2)
    )
}

impl Row {
    pub fn name(&self) -> String {
        let kem = kem_name(self.ids.0);
        let suite = suite_name(self.ids);
        match self.op {
            Op::Generate => format!("kem/{kem}/generate"),
            Op::DeriveKeyPair => format!("kem/{kem}/derive_key_pair"),
            Op::Encap if self.prepared => format!("kem/{kem}/encap_prepared"),
            Op::SetupSender(m) if self.prepared => {
                format!("setup_sender_{}_prepared/{suite}", m.name())
            }
            Op::Encap => format!("kem/{kem}/encap"),
            Op::Decap => format!("kem/{kem}/decap"),
            Op::AuthEncap => format!("kem/{kem}/auth_encap"),
            Op::AuthDecap => format!("kem/{kem}/auth_decap"),
            Op::SetupSender(m) => format!("setup_sender_{}/{suite}", m.name()),
            Op::SetupReceiver(m) => format!("setup_receiver_{}/{suite}", m.name()),
            Op::Seal(n) => format!("seal/{suite}/{n}"),
            Op::Open(n) => format!("open/{suite}/{n}"),
            Op::ContextSeal(n) => format!("context_seal/{suite}/{n}"),
            Op::ContextOpen(n) => format!("context_open/{suite}/{n}"),
            Op::Export(n) => format!("export/{suite}/{n}"),
        }
    }

    /// The mode of the fixture's encapsulation.
    pub fn mode(&self) -> Mode {
        match self.op {
            Op::SetupSender(m) | Op::SetupReceiver(m) => m,
            Op::AuthEncap | Op::AuthDecap => Mode::Auth,
            _ => Mode::Base,
        }
    }

    /// The plaintext length of the fixture's message (64 bytes where the row sends none).
    pub fn message_len(&self) -> usize {
        match self.op {
            Op::Seal(n) | Op::Open(n) | Op::ContextSeal(n) | Op::ContextOpen(n) => n,
            _ => 64,
        }
    }

    /// The fixture's export length.
    pub fn export_len(&self) -> usize {
        match self.op {
            Op::Export(n) => n,
            _ => 32,
        }
    }

    /// The first `clamp(Nsk, 32, 66)` bytes of the recipient's (`sender == false`) or the
    /// sender's input keying material: what every implementation derives its keys from.
    pub fn ikm(&self, nsk: usize, sender: bool) -> &'static [u8] {
        let ikm: &'static [u8; 66] = if sender { &IKM_S } else { &IKM_R };
        &ikm[..nsk.clamp(32, 66)]
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: the inputs every implementation gets, and typed-hpke's outputs to check theirs.

/// What a peer's output is checked against, by typed-hpke.
pub enum Check<'a> {
    /// `enc` must decapsulate (in the row's mode) to `ss`.
    Decap { enc: &'a [u8], ss: &'a [u8] },
    /// A receiver on `enc` (in the row's mode) must export `export` (`EXPORTER`, its length).
    Export { enc: &'a [u8], export: &'a [u8] },
    /// A receiver on `enc` (in the row's mode) must open `ct` as its first message to the
    /// fixture's plaintext.
    Open { enc: &'a [u8], ct: &'a [u8] },
}

pub struct Fixture {
    /// `Nsk`: the length the derivation inputs are cut from.
    pub nsk: usize,
    /// The recipient's public key, derived from `Row::ikm`.
    pub pk_r: Vec<u8>,
    /// typed-hpke's encapsulation to `pk_r` in the row's mode, with its shared secret (KEM rows)
    /// and the context's export of `Row::export_len` bytes.
    pub enc: Vec<u8>,
    pub ss: Vec<u8>,
    pub export: Vec<u8>,
    /// The row's plaintext, and its encryption as the first message of `enc`'s context.
    pub pt: Vec<u8>,
    pub ct: Vec<u8>,
    /// Checks a peer's output with typed-hpke's receiver.
    pub check: Box<dyn Fn(Check<'_>) -> bool>,
}

impl Fixture {
    /// Panics unless typed-hpke accepts the peer's output: a row never times a failure or a
    /// computation other than the one it names.
    #[track_caller]
    pub fn expect(&self, who: &str, row: &Row, check: Check<'_>) {
        assert!(
            (self.check)(check),
            "{who} disagrees with typed-hpke on {}",
            row.name()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Jobs.

/// One measured batch: nanoseconds for the timed part, and the allocations made in it.
pub struct Sample {
    pub ns: f64,
    pub allocations: u64,
}

/// One implementation's part in a row: runs a batch of `n` operations, timing only them.
pub type Job = Box<dyn FnMut(u64) -> Sample>;

/// A job whose every iteration is `f()`.
pub fn timed<T>(mut f: impl FnMut() -> T + 'static) -> Job {
    Box::new(move |n| {
        let a = allocations();
        let start = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        let ns = start.elapsed().as_nanos() as f64;
        Sample {
            ns,
            allocations: allocations() - a,
        }
    })
}

/// A bare AEAD's context-open job in the shape of typed-hpke's `open`: before the clock starts,
/// `seal` makes a batch of `n` ciphertexts of `pt` under consecutive sequence numbers, each
/// exactly `ciphertext || tag` in size as typed-hpke's `seal` makes it; each timed call takes the
/// next one, copies the ciphertext into a new `Vec` and `open`s it there in place with its tag.
pub fn open_fresh<K: 'static>(
    pt: Vec<u8>,
    key: K,
    seal: impl Fn(&K, u64, &mut Vec<u8>) + 'static,
    open: impl Fn(&K, u64, &mut [u8], &[u8]) + 'static,
) -> Job {
    let key = std::rc::Rc::new(key);
    let sealer = std::rc::Rc::clone(&key);
    timed_with(
        move |n| {
            let cts: Vec<Vec<u8>> = (0..n)
                .map(|seq| {
                    let mut ct = Vec::with_capacity(pt.len() + 16);
                    ct.extend_from_slice(&pt);
                    seal(&sealer, seq, &mut ct);
                    ct
                })
                .collect();
            (0u64, cts.into_iter())
        },
        move |(seq, cts)| {
            let ct = cts.next().unwrap();
            let (body, tag) = black_box(&ct).split_at(ct.len() - 16);
            let mut out = body.to_vec();
            open(&key, *seq, &mut out, tag);
            *seq += 1;
            out
        },
    )
}

/// A job that first builds state for `n` iterations (untimed, uncounted), then times `n`
/// calls of `f` on it: a receiver context opening a sender's messages in order.
pub fn timed_with<S, T>(
    mut prepare: impl FnMut(u64) -> S + 'static,
    mut f: impl FnMut(&mut S) -> T + 'static,
) -> Job {
    Box::new(move |n| {
        let mut state = prepare(n);
        let a = allocations();
        let start = Instant::now();
        for _ in 0..n {
            black_box(f(&mut state));
        }
        let ns = start.elapsed().as_nanos() as f64;
        let allocations = allocations() - a;
        drop(state);
        Sample { ns, allocations }
    })
}

// ---------------------------------------------------------------------------------------------
// Paired rounds and the statistic.

pub struct Config {
    pub rounds: usize,
    pub batch_ns: f64,
    pub filter: Vec<String>,
}

/// One implementation's result on one row.
pub struct Outcome {
    pub row: String,
    pub who: &'static str,
    /// Median time per operation over the rounds.
    pub ns: f64,
    /// Allocations per operation, over every timed iteration.
    pub allocations: f64,
    /// typed-hpke / this implementation: per-round ratios' median and 95% interval. For
    /// typed-hpke itself, all 1.
    pub median: f64,
    pub lo: f64,
    pub hi: f64,
}

/// `k` for the distribution-free interval `[x(k), x(n+1-k)]` around the median (1-based): the
/// largest `k` with `P(Binomial(n, 1/2) < k) <= 2.5%`, so that the interval covers the median
/// with probability at least 95%.
pub fn order_statistic_k(n: usize) -> usize {
    let cdf = |j: usize| -> f64 {
        // P(B <= j) for B ~ Binomial(n, 1/2).
        let mut c = 1.0f64;
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

/// Runs one row: `jobs[0]` is typed-hpke, every other entry a peer, the limit or the floor.
/// Warms every job up, sizes the batch on typed-hpke, then runs `config.rounds` rounds; each
/// round runs every job's batch once, starting one place further along than the last round.
pub fn run(config: &Config, row: &str, jobs: Vec<(&'static str, Job)>) -> Vec<Outcome> {
    assert_eq!(jobs[0].0, TYPED);
    run_paired(config, row, jobs)
}

/// [`run`] with any implementation as the subject, `jobs[0]`, whose per-round time is the
/// numerator of every ratio (`benches/primitives.rs` puts aws-lc-rs there).
pub fn run_paired(config: &Config, row: &str, mut jobs: Vec<(&'static str, Job)>) -> Vec<Outcome> {
    let before = allocations();
    drop(black_box(Box::new(before)));
    assert!(
        allocations() > before,
        "allocations are not counted: the bench binary must declare \
         `#[global_allocator] static A: Counting = Counting;`"
    );
    for (_, job) in jobs.iter_mut() {
        job(2);
    }
    let mut iterations = 1u64;
    loop {
        let sample = (jobs[0].1)(iterations);
        if sample.ns >= config.batch_ns || iterations >= 1 << 24 {
            break;
        }
        // Aim for the batch length directly once a batch is long enough to time.
        iterations = if sample.ns > 1e5 {
            ((iterations as f64 * config.batch_ns / sample.ns * 1.1).ceil() as u64)
                .max(iterations + 1)
        } else {
            iterations * 4
        };
    }
    let k = jobs.len();
    let mut times = vec![Vec::with_capacity(config.rounds); k];
    let mut counted = vec![0u64; k];
    for round in 0..config.rounds {
        for offset in 0..k {
            let i = (round + offset) % k;
            let sample = (jobs[i].1)(iterations);
            times[i].push(sample.ns / iterations as f64);
            counted[i] += sample.allocations;
        }
    }
    let kth = order_statistic_k(config.rounds);
    let total = (iterations * config.rounds as u64) as f64;
    jobs.iter()
        .enumerate()
        .map(|(i, (who, _))| {
            let mut ratios: Vec<f64> = times[0].iter().zip(&times[i]).map(|(t, p)| t / p).collect();
            ratios.sort_by(f64::total_cmp);
            let mut own = times[i].clone();
            own.sort_by(f64::total_cmp);
            Outcome {
                row: row.to_string(),
                who,
                ns: median(&own),
                allocations: counted[i] as f64 / total,
                median: median(&ratios),
                lo: ratios[kth - 1],
                hi: ratios[config.rounds - kth],
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The machine.

/// The value of the first `key: value` line of a `/proc` file whose key starts with `key`.
fn proc_field(path: &str, key: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    })
}

/// The environment variable `name` parsed, or `default` when it is unset or does not parse
/// (`COMPARE_ROUNDS`, `COMPARE_BATCH_MS`).
pub fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// An integration bench's configuration (`integrations/*/benches`): `{prefix}_QUICK` set runs
/// three rounds of short batches (a check that the bench still runs); otherwise
/// `{prefix}_ROUNDS` rounds (default 21) of batches sized to `{prefix}_BATCH_MS` (default 20).
/// The command line's arguments other than `--bench` filter rows by substring. Prints the
/// machine line that heads its results.
#[allow(
    dead_code,
    reason = "the integrations' benches include this file; the comparative bench has its own"
)]
pub fn integration_config(prefix: &str) -> Config {
    let quick = std::env::var_os(format!("{prefix}_QUICK")).is_some();
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let config = Config {
        rounds: if quick {
            3
        } else {
            env(&format!("{prefix}_ROUNDS"), 21usize)
        },
        batch_ns: if quick {
            1e5
        } else {
            env(&format!("{prefix}_BATCH_MS"), 20.0f64) * 1e6
        },
        filter,
    };
    let (cpus, pinned) = affinity();
    println!(
        "# {}; load {}; CPUs {cpus}{}; {} rounds",
        machine(),
        load(),
        if pinned { " (pinned)" } else { "" },
        config.rounds,
    );
    config
}

/// A row of an integration's bench: its name, and what makes its jobs (typed-hpke's first,
/// then the peer's where there is one), called only if the row passes the filter.
#[allow(dead_code, reason = "the integrations' benches include this file")]
pub type IntegrationRow = (String, Box<dyn FnOnce() -> Vec<(&'static str, Job)>>);

/// Runs an integration's rows (those the command line's filter lets through) and prints each
/// as a line of a Markdown table: `| row | ours | peer | ratio (95% CI) |`, the ratio ours /
/// peer, under the header the caller prints with [`integration_header`].
#[allow(dead_code, reason = "the integrations' benches include this file")]
pub fn run_integration_rows(config: &Config, rows: Vec<IntegrationRow>) {
    for (row, jobs) in rows {
        if !config.filter.is_empty() && !config.filter.iter().any(|f| row.contains(f)) {
            continue;
        }
        let outcomes = run(config, &row, jobs());
        let ours = &outcomes[0];
        match outcomes.get(1) {
            Some(peer) => println!(
                "| `{row}` | {} | {} | {:.2} ({:.2}-{:.2}) |",
                duration(ours.ns),
                duration(peer.ns),
                peer.median,
                peer.lo,
                peer.hi
            ),
            None => println!("| `{row}` | {} | (none) | |", duration(ours.ns)),
        }
    }
}

/// The header of [`run_integration_rows`]'s table.
#[allow(dead_code, reason = "the integrations' benches include this file")]
pub fn integration_header(ours: &str, peer: &str) {
    println!("| row | {ours} | {peer} | ratio (95% CI) |");
    println!("|---|---|---|---|");
}

/// A time per operation in µs, or in ms from a millisecond up.
#[allow(dead_code, reason = "the integrations' benches include this file")]
fn duration(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

/// The CPU model and the logical CPU count.
pub fn machine() -> String {
    let model = proc_field("/proc/cpuinfo", "model name").unwrap_or_else(|| "unknown CPU".into());
    format!(
        "{model}, {} logical CPUs",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    )
}

/// The 1-, 5- and 15-minute load averages.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The CPUs this process may run on, and whether that is one (a pinned core, as under
/// `taskset -c N`).
pub fn affinity() -> (String, bool) {
    let list =
        proc_field("/proc/self/status", "Cpus_allowed_list").unwrap_or_else(|| "unknown".into());
    let pinned = !list.contains(',') && !list.contains('-') && list != "unknown";
    (list, pinned)
}

/// The results file: `# key: value` header lines, then one tab-separated line per outcome.
pub fn results(header: &[(&str, String)], outcomes: &[Outcome]) -> String {
    let mut s = String::new();
    for (k, v) in header {
        writeln!(s, "# {k}: {v}").unwrap();
    }
    writeln!(s, "row\timpl\tns\tallocations\tratio\tlo\thi").unwrap();
    for o in outcomes {
        writeln!(
            s,
            "{}\t{}\t{:.1}\t{:.3}\t{:.4}\t{:.4}\t{:.4}",
            o.row, o.who, o.ns, o.allocations, o.median, o.lo, o.hi
        )
        .unwrap();
    }
    s
}

/// A rerun's results spliced into an earlier run's `old` file (`COMPARE_RERUN`): every row of
/// `outcomes` replaces its namesake where it stood, a row the old file lacks goes after the row
/// before it in the harness's `order`, every other row and the old header stay, and one `rerun`
/// header line is added with the rerun's filters, row count, machine, load and duration from
/// `header`.
pub fn splice(
    old: &str,
    header: &[(&str, String)],
    filter: &[String],
    outcomes: &[Outcome],
    order: &[String],
) -> String {
    let h = |k: &str| {
        header
            .iter()
            .find(|(key, _)| *key == k)
            .map_or("?", |(_, v)| v.as_str())
    };
    // Both runs must time the same build of typed-hpke (a results file from before the backend
    // line is the pure-Rust one), and neither may be a quick run.
    let old_backend = old
        .lines()
        .find_map(|l| l.strip_prefix("# typed-hpke backend: "))
        .unwrap_or("pure Rust");
    assert_eq!(
        old_backend,
        h("typed-hpke backend"),
        "COMPARE_RERUN: the results file was made with another backend"
    );
    assert!(
        old.lines().any(|l| l == "# quick: false") && h("quick") == "false",
        "COMPARE_RERUN: quick runs are not spliced"
    );
    let row_of = |line: &str| line.split('\t').next().unwrap_or("").to_string();
    // The old file as header lines and row groups, in its order.
    let mut head: Vec<String> = old
        .lines()
        .take_while(|l| !l.starts_with("row\t"))
        .map(str::to_string)
        .collect();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for line in old.lines().skip(head.len() + 1) {
        let row = row_of(line);
        match groups.last_mut() {
            Some((r, lines)) if *r == row => lines.push(line.to_string()),
            _ => groups.push((row, vec![line.to_string()])),
        }
    }
    let fresh = results(&[], outcomes);
    let mut rerun: Vec<(String, Vec<String>)> = Vec::new();
    for line in fresh.lines().skip(1) {
        let row = row_of(line);
        match rerun.last_mut() {
            Some((r, lines)) if *r == row => lines.push(line.to_string()),
            _ => rerun.push((row, vec![line.to_string()])),
        }
    }
    for (row, lines) in &rerun {
        if let Some(group) = groups.iter_mut().find(|(r, _)| r == row) {
            group.1.clone_from(lines);
            continue;
        }
        // After the nearest row before it in the harness's order that the file has.
        let at = order
            .iter()
            .position(|r| r == row)
            .and_then(|i| {
                order[..i]
                    .iter()
                    .rev()
                    .find_map(|before| groups.iter().position(|(r, _)| r == before))
            })
            .map_or(groups.len(), |g| g + 1);
        groups.insert(at, (row.clone(), lines.clone()));
    }
    head.push(format!(
        "# rerun: {} rows matching {} on {}, load {} at the start and {} at the end, {} s",
        rerun.len(),
        filter
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(" "),
        h("machine"),
        h("load at start"),
        h("load at end"),
        h("duration s")
    ));
    let mut s = String::new();
    for line in &head {
        writeln!(s, "{line}").unwrap();
    }
    writeln!(s, "row\timpl\tns\tallocations\tratio\tlo\thi").unwrap();
    for (_, lines) in &groups {
        for line in lines {
            writeln!(s, "{line}").unwrap();
        }
    }
    s
}
