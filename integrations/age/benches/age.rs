//! typed-hpke-age against the fastest other way to do the same here, by the paired rounds of
//! the workspace's comparative bench (`typed_hpke_support::driver`).
//!
//! ```text
//! cargo bench --bench age [-- FILTER ...]        (in integrations/age)
//! ```
//!
//! Rows:
//! - `wrap` / `unwrap` of one file key (`age::Recipient::wrap_file_key`,
//!   `age::Identity::unwrap_stanzas` on a header of the one stanza): `mlkem768x25519` against
//!   the `age` crate's X25519 recipient, the per-file cost a post-quantum file adds over a
//!   classical one (the `age` crate has no `mlkem768x25519`); `p256tag` and
//!   `mlkem768p256tag` against the `age` crate's own tagged recipients (on rust-hpke 0.12,
//!   ml-kem 0.2 and p256 0.13). The `age` crate has no tagged identities: the tagged `unwrap`
//!   rows have no peer.
//! - `encrypt` / `decrypt` of a 64 MiB file through `age::Encryptor` / `age::Decryptor` (in
//!   memory), to an `age1pq` recipient against an X25519 one: both are the `age` crate's STREAM
//!   after the header, so the ratio should sit at 1.
//!
//! The statistic is `driver`'s: per round each implementation runs one batch, in an order
//! rotated from round to round, with the batch sized so ours lasts `AGE_BATCH_MS` (default
//! 20); the ratio ours / theirs per round gives a median and a distribution-free 95%
//! confidence interval over `AGE_ROUNDS` (default 21) rounds. `AGE_QUICK=1` runs three rounds
//! of short batches on a 1 MiB file: a check that the bench still runs.

use std::io::{Read, Write};
use std::str::FromStr;

use age_core::format::{FileKey, Stanza};
use driver::{Job, TYPED, timed};
use typed_hpke_age::pq;
use typed_hpke_age::tag::{MlKem768P256TagIdentity, P256TagIdentity};
use typed_hpke_support::driver;

/// Counted allocations, for the driver's allocation column.
#[global_allocator]
static COUNTING: driver::Counting = driver::Counting;

const PEER: &str = "age 0.12";

/// A row's jobs: ours first, then the peer's where there is one.
type Jobs = Vec<(&'static str, Job)>;

fn file_key() -> FileKey {
    FileKey::new(Box::new([0x42; 16]))
}

fn stanzas(r: &dyn age::Recipient) -> Vec<Stanza> {
    r.wrap_file_key(&file_key()).unwrap().0
}

/// Wrapping one file key: ours, then the peer's.
fn wrap(ours: impl age::Recipient + 'static, theirs: impl age::Recipient + 'static) -> Jobs {
    vec![
        (TYPED, timed(move || stanzas(&ours))),
        (PEER, timed(move || stanzas(&theirs))),
    ]
}

/// Unwrapping one file key from a header of its one stanza; the stanza checked to open first.
fn unwrap_job(identity: impl age::Identity + 'static, header: Vec<Stanza>) -> Job {
    assert!(matches!(identity.unwrap_stanzas(&header), Some(Ok(_))));
    timed(move || identity.unwrap_stanzas(&header).unwrap().unwrap())
}

fn encrypt(r: &dyn age::Recipient, pt: &[u8]) -> Vec<u8> {
    let e = age::Encryptor::with_recipients(std::iter::once(r)).unwrap();
    let mut out = Vec::with_capacity(pt.len() + pt.len() / 4000 + 4096);
    let mut w = e.wrap_output(&mut out).unwrap();
    w.write_all(pt).unwrap();
    w.finish().unwrap();
    out
}

fn decrypt(i: &dyn age::Identity, file: &[u8], len: usize) -> Vec<u8> {
    let d = age::Decryptor::new_buffered(file).unwrap();
    let mut r = d.decrypt(std::iter::once(i)).unwrap();
    let mut out = Vec::with_capacity(len);
    r.read_to_end(&mut out).unwrap();
    out
}

fn main() {
    let quick = std::env::var_os("AGE_QUICK").is_some();
    let config = driver::integration_config("AGE");
    driver::integration_header("typed-hpke-age", PEER);

    let pq_id = pq::Identity::generate();
    let x_id = age::x25519::Identity::generate();
    let tag_id = P256TagIdentity::generate();
    let tagpq_id = MlKem768P256TagIdentity::generate();
    let tag_theirs = age::tag::Recipient::from_str(&tag_id.to_public().to_string()).unwrap();
    let tagpq_theirs = age::tagpq::Recipient::from_str(&tagpq_id.to_public().to_string()).unwrap();

    let len = if quick { 1 << 20 } else { 64 << 20 };
    let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    let size = if quick { "1MiB" } else { "64MiB" };

    let mut rows: Vec<driver::IntegrationRow> = vec![
        ("wrap/mlkem768x25519 (age: X25519)".into(), {
            let (o, t) = (pq_id.to_public(), x_id.to_public());
            Box::new(move || wrap(o, t))
        }),
        ("unwrap/mlkem768x25519 (age: X25519)".into(), {
            let header = stanzas(&pq_id.to_public());
            let theirs = stanzas(&x_id.to_public());
            let (o, t) = (pq_id.clone(), x_id.clone());
            Box::new(move || {
                vec![
                    (TYPED, unwrap_job(o, header)),
                    (PEER, unwrap_job(t, theirs)),
                ]
            })
        }),
        ("wrap/p256tag".into(), {
            let o = tag_id.to_public();
            Box::new(move || wrap(o, tag_theirs))
        }),
        ("unwrap/p256tag".into(), {
            let header = stanzas(&tag_id.to_public());
            let o = tag_id.clone();
            Box::new(move || vec![(TYPED, unwrap_job(o, header))])
        }),
        ("wrap/mlkem768p256tag".into(), {
            let o = tagpq_id.to_public();
            Box::new(move || wrap(o, tagpq_theirs))
        }),
        ("unwrap/mlkem768p256tag".into(), {
            let header = stanzas(&tagpq_id.to_public());
            let o = tagpq_id.clone();
            Box::new(move || vec![(TYPED, unwrap_job(o, header))])
        }),
    ];
    {
        let (o, t, p) = (pq_id.to_public(), x_id.to_public(), pt.clone());
        rows.push((
            format!("encrypt/{size} (age: X25519)"),
            Box::new(move || {
                let p2 = p.clone();
                vec![
                    (TYPED, timed(move || encrypt(&o, &p).len())),
                    (PEER, timed(move || encrypt(&t, &p2).len())),
                ]
            }),
        ));
        let ours = encrypt(&pq_id.to_public(), &pt);
        let theirs = encrypt(&x_id.to_public(), &pt);
        assert_eq!(decrypt(&pq_id, &ours, len), pt);
        assert_eq!(decrypt(&x_id, &theirs, len), pt);
        let (oi, ti) = (pq_id.clone(), x_id.clone());
        rows.push((
            format!("decrypt/{size} (age: X25519)"),
            Box::new(move || {
                vec![
                    (TYPED, timed(move || decrypt(&oi, &ours, len).len())),
                    (PEER, timed(move || decrypt(&ti, &theirs, len).len())),
                ]
            }),
        ));
    }
    driver::run_integration_rows(&config, rows);
}
