//! What X25519's precomputed tables buy: the minimal program's key generation, encapsulation and
//! decapsulation (DHKEM(X25519, HKDF-SHA256)), timed in one process, `n` of each (argument 1),
//! printed as nanoseconds per operation, tab-separated. `run` builds it with and without the
//! `precomputed-tables` feature and alternates the two builds round by round.
use std::hint::black_box;
use std::time::Instant;

use typed_hpke::OsRng;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as K, Kem};

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mut rng = OsRng::default();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (_, enc) = K::encap(&mut rng, &pk).unwrap();
    let per_op = |start: Instant| start.elapsed().as_nanos() / u128::from(n);
    let start = Instant::now();
    for _ in 0..n {
        black_box(K::generate(&mut rng).unwrap());
    }
    let generate = per_op(start);
    let start = Instant::now();
    for _ in 0..n {
        black_box(K::encap(&mut rng, black_box(&pk)).unwrap());
    }
    let encap = per_op(start);
    let start = Instant::now();
    for _ in 0..n {
        black_box(K::decap(black_box(&enc), &sk).unwrap());
    }
    let decap = per_op(start);
    println!("{generate}\t{encap}\t{decap}");
}
