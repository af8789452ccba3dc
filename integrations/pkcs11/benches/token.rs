//! Opens per second with the receiver's key in a SoftHSM2 token, against the same key in
//! process, with 1, 2 and 4 threads: `cargo bench -p typed-hpke-pkcs11 --bench token`
//! (README, "Throughput"). `TOKEN_QUICK=1` runs each configuration once, briefly (`.ci/run`
//! does, so the bench cannot rot).
//!
//! Each round times the token key (with as many sessions as threads, `TokenKey::with_sessions`)
//! and the in-process key back to back on the same messages, for a fixed time each; the
//! report gives each side's median rate over the rounds and the per-round ratio's median and
//! range, since absolute rates drift on a shared machine.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use typed_hpke::OsRng;
use typed_hpke::kem::ExternalDh;
use typed_hpke::suite::{self, PrivateKeyInput, ReceiverMode, SenderMode, Suite};
use typed_hpke_pkcs11::{Token, softhsm};

const PIN: &str = "1234";

/// Opens of `msgs` (cycled) by `threads` threads for `time`: opens per second.
fn rate<S: PrivateKeyInput + Sync + ?Sized>(
    suite: &Suite,
    key: &S,
    msgs: &[(Vec<u8>, Vec<u8>)],
    threads: usize,
    time: Duration,
) -> f64 {
    let start = Instant::now();
    let total: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut n = 0;
                    while start.elapsed() < time {
                        let (enc, ct) = &msgs[(t + n) % msgs.len()];
                        let pt = suite.open(enc, key, b"", b"", ct, ReceiverMode::Base);
                        assert!(pt.is_ok());
                        n += 1;
                    }
                    n
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total as f64 / start.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> ExitCode {
    if !softhsm::in_token_process() {
        return softhsm::run_with_token("bench", PIN);
    }
    let quick = std::env::var_os("TOKEN_QUICK").is_some();
    let (rounds, time) = if quick {
        (1, Duration::from_millis(20))
    } else {
        (7, Duration::from_millis(300))
    };
    let token = Token::open(softhsm::module(), "bench", PIN).expect("the token");
    let mut rng = OsRng::default();
    println!(
        "| KEM | threads | token opens/s | in-process opens/s | token / in-process (median, min-max of {rounds} rounds) |"
    );
    println!("|---|---|---|---|---|");
    for (name, kem, kdf) in [
        ("P-256", 0x0010u16, 1u16),
        ("P-384", 0x0011, 2),
        ("P-521", 0x0012, 3),
    ] {
        let suite = Suite::new(kem, kdf, 3).unwrap();
        let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
        let key = token.import_key(&sk, &format!("bench {name}")).unwrap();
        let msgs: Vec<_> = (0..64)
            .map(|_| {
                suite
                    .seal(&mut rng, &pk, b"", b"", b"m", SenderMode::Base)
                    .unwrap()
            })
            .collect();
        for threads in [1, 2, 4] {
            let pool = key.with_sessions(threads).unwrap();
            let held = ExternalDh(&pool);
            let local: &suite::PrivateKey = &sk;
            let (mut t, mut l, mut r) = (vec![], vec![], vec![]);
            for _ in 0..rounds {
                let a = rate(&suite, &held, &msgs, threads, time);
                let b = rate(&suite, local, &msgs, threads, time);
                t.push(a);
                l.push(b);
                r.push(a / b);
            }
            let (lo, hi) = r
                .iter()
                .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            println!(
                "| {name} | {threads} | {:.0} | {:.0} | {:.3} ({lo:.3}-{hi:.3}) |",
                median(&mut t),
                median(&mut l),
                median(&mut r)
            );
        }
        token.destroy_key(&format!("bench {name}")).unwrap();
    }
    ExitCode::SUCCESS
}
