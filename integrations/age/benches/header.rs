//! What opening a file costs in the header alone, by how it is opened: the largest header an
//! identity of this crate works through under its limits, parsed by `age::Decryptor::new_buffered`
//! (a `BufRead`: the header parsed once) and by `age::Decryptor::new` (a `Read`: the header
//! parsed again after every byte read), then the identity's search of it.
//!
//! ```text
//! cargo bench --bench header            (in integrations/age; `AGE_QUICK=1`: small headers)
//! ```
//!
//! Rows: a file to `MAX_STANZAS` (256) `age1pq1…` recipients, the identity's the last (256
//! decapsulations, the most an `mlkem768x25519` identity does), both ways; a file to
//! `MAX_TAGGED_STANZAS` (4,096) `age1tag1…` recipients, the identity's the last (4,096 tags
//! computed, one decapsulation), `new_buffered` only: `new` on a header of that size takes
//! hours. Times are the median of 5 runs (`new_buffered`) and of 1 (`new`), wall clock on
//! whatever the machine is doing: the ratio between the two ways is the point, orders of
//! magnitude, not percent.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use typed_hpke_age::tag::P256TagIdentity;
use typed_hpke_age::{MAX_STANZAS, MAX_TAGGED_STANZAS, pq};

fn encrypt(recipients: &[&dyn age::Recipient]) -> Vec<u8> {
    let e = age::Encryptor::with_recipients(recipients.iter().copied()).unwrap();
    let mut out = Vec::new();
    let mut w = e.wrap_output(&mut out).unwrap();
    w.write_all(b"x").unwrap();
    w.finish().unwrap();
    out
}

/// Opens `file` with `identity`, the header parsed by `new_buffered` or by `new`.
fn open(file: &[u8], identity: &dyn age::Identity, buffered: bool) -> Duration {
    let start = Instant::now();
    let mut out = Vec::new();
    if buffered {
        let d = age::Decryptor::new_buffered(file).unwrap();
        d.decrypt(std::iter::once(identity))
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
    } else {
        let d = age::Decryptor::new(file).unwrap();
        d.decrypt(std::iter::once(identity))
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
    }
    assert_eq!(out, b"x");
    start.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::var_os("AGE_QUICK").is_some();
    let (n_pq, mut n_tag) = if quick {
        (8, 64)
    } else {
        (MAX_STANZAS, MAX_TAGGED_STANZAS)
    };
    // `AGE_HEADER_TAGS=N`: another count of tagged stanzas, to see how the time grows.
    if let Some(n) = std::env::var("AGE_HEADER_TAGS").ok().and_then(|n| n.parse().ok()) {
        n_tag = n;
    }
    println!("| header | bytes | `new_buffered` | `new` | `new` / `new_buffered` |");
    println!("|---|---|---|---|---|");

    let ours = pq::Identity::generate();
    let others: Vec<pq::Recipient> = (1..n_pq)
        .map(|_| pq::Identity::generate().to_public())
        .collect();
    let mut rs: Vec<&dyn age::Recipient> = others.iter().map(|r| r as _).collect();
    let our_recipient = ours.to_public();
    rs.push(&our_recipient);
    let file = encrypt(&rs);
    let buffered = median((0..5).map(|_| open(&file, &ours, true)).collect());
    let plain = open(&file, &ours, false);
    println!(
        "| {n_pq} `mlkem768x25519` stanzas, ours last | {} | {:.3} s | {:.1} s | {:.0}x |",
        file.len(),
        buffered.as_secs_f64(),
        plain.as_secs_f64(),
        plain.as_secs_f64() / buffered.as_secs_f64()
    );

    let ours = P256TagIdentity::generate();
    let others: Vec<_> = (1..n_tag)
        .map(|_| P256TagIdentity::generate().to_public())
        .collect();
    let mut rs: Vec<&dyn age::Recipient> = others.iter().map(|r| r as _).collect();
    let our_recipient = ours.to_public();
    rs.push(&our_recipient);
    let file = encrypt(&rs);
    let buffered = median((0..5).map(|_| open(&file, &ours, true)).collect());
    println!(
        "| {n_tag} `p256tag` stanzas, ours last | {} | {:.3} s | (not run: hours) | |",
        file.len(),
        buffered.as_secs_f64()
    );
}
