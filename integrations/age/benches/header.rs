//! What opening a file costs in its header, by how it is opened: `typed_hpke_age::decryptor`
//! (the header read in linear time under Go's age's limits, then parsed once by the `age`
//! crate), `age::Decryptor::new_buffered` (the header parsed again after every line read) and
//! `age::Decryptor::new` (after every byte).
//!
//! ```text
//! cargo bench --bench header            (in integrations/age; `AGE_QUICK=1`: small headers)
//! ```
//!
//! Rows:
//! - a file to `MAX_STANZAS` (256) `age1pq1…` recipients, the identity's the last: 256
//!   decapsulations, the most an `mlkem768x25519` identity does;
//! - a file of `MAX_TAGGED_STANZAS` (1,024) stanzas: 1,023 `age1tag1…` recipients, the
//!   identity's the last, and the grease stanza the `age` crate adds; 1,023 tags computed,
//!   one decapsulation (`new` not run: it takes many minutes);
//! - a header of one stanza of 32,000 body lines (2 MB, under `MAX_HEADER_LEN`), which no
//!   identity opens: the header's parse alone (`new` not run).
//!
//! Times are the median of 5 runs (1 for `new`, and for `new_buffered` on the last row), wall
//! clock on whatever the machine is doing: the ratios between the ways are the point, orders of
//! magnitude, not percent.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use typed_hpke_age::tag::P256TagIdentity;
use typed_hpke_age::{MAX_STANZAS, MAX_TAGGED_STANZAS, pq};

#[derive(Clone, Copy)]
enum Way {
    Ours,
    Buffered,
    Plain,
}

fn encrypt(recipients: &[&dyn age::Recipient]) -> Vec<u8> {
    let e = age::Encryptor::with_recipients(recipients.iter().copied()).unwrap();
    let mut out = Vec::new();
    let mut w = e.wrap_output(&mut out).unwrap();
    w.write_all(b"x").unwrap();
    w.finish().unwrap();
    out
}

/// A file to `n` recipients `other()` makes, then to `ours`, last.
fn to_others_then<R: age::Recipient>(n: usize, other: impl Fn() -> R, ours: R) -> Vec<u8> {
    let others: Vec<R> = (0..n).map(|_| other()).collect();
    let mut rs: Vec<&dyn age::Recipient> = others.iter().map(|r| r as _).collect();
    rs.push(&ours);
    encrypt(&rs)
}

/// Opens `file` with `identity` the given way: whether it opened, and how long it took.
fn open(file: &[u8], identity: &dyn age::Identity, way: Way) -> (bool, Duration) {
    fn read<R: Read>(
        d: Result<age::Decryptor<R>, age::DecryptError>,
        i: &dyn age::Identity,
    ) -> bool {
        let Ok(d) = d else { return false };
        let Ok(mut r) = d.decrypt(std::iter::once(i)) else {
            return false;
        };
        let mut out = Vec::new();
        r.read_to_end(&mut out).is_ok() && out == b"x"
    }
    let start = Instant::now();
    let opened = match way {
        Way::Ours => read(typed_hpke_age::decryptor(file), identity),
        Way::Buffered => read(age::Decryptor::new_buffered(file), identity),
        Way::Plain => read(age::Decryptor::new(file), identity),
    };
    (opened, start.elapsed())
}

fn timed(file: &[u8], identity: &dyn age::Identity, way: Way, runs: usize, opens: bool) -> f64 {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let (opened, t) = open(file, identity, way);
            assert_eq!(opened, opens);
            t
        })
        .collect();
    times.sort();
    times[times.len() / 2].as_secs_f64()
}

fn main() {
    let quick = std::env::var_os("AGE_QUICK").is_some();
    let (n_pq, n_tag, n_lines) = if quick {
        (8, 64, 500)
    } else {
        (MAX_STANZAS, MAX_TAGGED_STANZAS, 32_000)
    };
    println!("| header | bytes | `decryptor` | `new_buffered` | `new` |");
    println!("|---|---|---|---|---|");

    let ours = pq::Identity::generate();
    let file = to_others_then(
        n_pq - 1,
        || pq::Identity::generate().to_public(),
        ours.to_public(),
    );
    println!(
        "| {n_pq} `mlkem768x25519` stanzas, ours last | {} | {:.3} s | {:.3} s | {:.1} s |",
        file.len(),
        timed(&file, &ours, Way::Ours, 5, true),
        timed(&file, &ours, Way::Buffered, 5, true),
        timed(&file, &ours, Way::Plain, 1, true),
    );

    let ours = P256TagIdentity::generate();
    // The `age` crate adds a grease stanza of its own: n_tag - 1 recipients make n_tag stanzas.
    let file = to_others_then(
        n_tag - 2,
        || P256TagIdentity::generate().to_public(),
        ours.to_public(),
    );
    println!(
        "| {n_tag} stanzas: {} `p256tag` recipients, ours last, and the `age` crate's grease | {} | {:.3} s | {:.3} s | (not run) |",
        n_tag - 1,
        file.len(),
        timed(&file, &ours, Way::Ours, 5, true),
        timed(&file, &ours, Way::Buffered, 5, true),
    );

    let mut header = String::from("age-encryption.org/v1\n-> filler\n");
    for _ in 0..n_lines {
        header.push_str(&"A".repeat(64));
        header.push('\n');
    }
    header.push_str("\n--- AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n");
    let mut file = header.into_bytes();
    file.extend_from_slice(&[0; 32]);
    let identity = pq::Identity::generate();
    println!(
        "| one stanza of {n_lines} body lines, no identity's | {} | {:.3} s | {:.1} s | (not run) |",
        file.len(),
        timed(&file, &identity, Way::Ours, 5, false),
        timed(&file, &identity, Way::Buffered, 1, false),
    );
}
