//! Opens per second with the receiver's key in a token, against the same key in process, with
//! 1, 2 and 4 threads: SoftHSM2 for the NIST curves, kryoptic for every KEM a token keeps
//! (`cargo bench -p typed-hpke-pkcs11 --bench token`; README, "Throughput"). `TOKEN_QUICK=1`
//! runs each configuration once, briefly (`.ci/run` does, so the bench cannot rot).
//!
//! Each round times the token key (with as many sessions as threads, `TokenKey::with_sessions`)
//! and the in-process key back to back on the same messages, for a fixed time each; the
//! report gives each side's median rate over the rounds and the per-round ratio's median and
//! range, since absolute rates drift on a shared machine.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use typed_hpke::OsRng;
use typed_hpke::kem::{ExternalDecap, ExternalDh};
use typed_hpke::suite::{self, AnyKem, PrivateKeyInput, ReceiverMode, SenderMode, Suite};
use typed_hpke_pkcs11::{Token, kryoptic, softhsm};

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
    if softhsm::in_token_process() {
        let token = Token::open(softhsm::module(), "bench", PIN).expect("the token");
        bench(&token, "SoftHSM 2.6", &[0x0010, 0x0011, 0x0012]);
        return ExitCode::SUCCESS;
    }
    if kryoptic::in_token_process() {
        let token = kryoptic::token("bench", PIN).expect("the token");
        // Every KEM a token keeps: all but secp256k1's.
        let kems: Vec<u16> = AnyKem::all()
            .map(|k| k.id())
            .filter(|&k| k != 0x0016)
            .collect();
        bench(&token, "kryoptic 1.5", &kems);
        return ExitCode::SUCCESS;
    }
    let quick = std::env::var_os("TOKEN_QUICK").is_some();
    let rounds = if quick { 1 } else { 7 };
    println!(
        "| token | KEM | threads | token opens/s | in-process opens/s | token / in-process (median, min-max of {rounds} rounds) |"
    );
    println!("|---|---|---|---|---|---|");
    if softhsm::run_with_token("bench", PIN) != ExitCode::SUCCESS {
        return ExitCode::FAILURE;
    }
    kryoptic::run_with_token()
}

/// The table's rows for `token`: each of `kems` (with HKDF-SHA256 and ChaCha20-Poly1305) at 1,
/// 2 and 4 threads.
fn bench(token: &Token, name: &str, kems: &[u16]) {
    let quick = std::env::var_os("TOKEN_QUICK").is_some();
    let (rounds, time) = if quick {
        (1, Duration::from_millis(20))
    } else {
        (7, Duration::from_millis(300))
    };
    let mut rng = OsRng::default();
    for &kem in kems {
        let suite = Suite::new(kem, 1, 3).unwrap();
        let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
        let label = format!("bench {kem:#06x}");
        let key = token.import_key(&sk, &label).unwrap();
        let msgs: Vec<_> = (0..64)
            .map(|_| {
                suite
                    .seal(&mut rng, &pk, b"", b"", b"m", SenderMode::Base)
                    .unwrap()
            })
            .collect();
        for threads in [1, 2, 4] {
            let pool = key.with_sessions(threads).unwrap();
            let local: &suite::PrivateKey = &sk;
            let (mut t, mut l, mut r) = (vec![], vec![], vec![]);
            for _ in 0..rounds {
                let a = if suite.supports_auth() {
                    rate(&suite, &ExternalDh(&pool), &msgs, threads, time)
                } else {
                    rate(&suite, &ExternalDecap(&pool), &msgs, threads, time)
                };
                let b = rate(&suite, local, &msgs, threads, time);
                t.push(a);
                l.push(b);
                r.push(a / b);
            }
            let (lo, hi) = r
                .iter()
                .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            println!(
                "| {name} | {} | {threads} | {:.0} | {:.0} | {:.3} ({lo:.3}-{hi:.3}) |",
                kem_name(kem),
                median(&mut t),
                median(&mut l),
                median(&mut r)
            );
        }
        token.destroy_key(&label).unwrap();
    }
}

/// The KEM's name as the README's tables give it.
fn kem_name(kem: u16) -> String {
    match kem {
        0x0010 => "P-256".into(),
        0x0011 => "P-384".into(),
        0x0012 => "P-521".into(),
        0x0020 => "X25519".into(),
        0x0021 => "X448".into(),
        0x0040 => "ML-KEM-512".into(),
        0x0041 => "ML-KEM-768".into(),
        0x0042 => "ML-KEM-1024".into(),
        0x0050 => "MLKEM768-P256".into(),
        0x0051 => "MLKEM1024-P384".into(),
        0x647a => "X-Wing".into(),
        other => format!("{other:#06x}"),
    }
}
