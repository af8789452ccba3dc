//! Per-message cost of typed-hpke-jose, for `measure/jose_cose/bench.py`, which runs it in
//! rounds paired with the pyhpke JWE peer:
//!
//! ```text
//! jose_bench OP ALG ITERATIONS
//! ```
//!
//! prints the mean nanoseconds per operation over ITERATIONS (after a tenth as many untimed).
//! OP is `encrypt` or `decrypt` (of the compact serialization: encryption includes writing it,
//! decryption parsing it); ALG an HPKE algorithm name: integrated, or key encryption to one
//! recipient (`A128GCM` with an AES-128-GCM suite, `A256GCM` otherwise). `floor-encrypt` /
//! `floor-decrypt` time typed-hpke's single-shot Seal / Open of the same suite and payload.
//! The payload is 256 bytes.

use std::hint::black_box;
use std::time::Instant;

use typed_hpke::suite::{ReceiverMode, SenderMode};
use typed_hpke_jose::{
    Algorithm, ContentEncryption, Decryptor, Encryptor, Jwe, PrivateJwk, Recipient,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, alg, n] = args.as_slice() else {
        eprintln!("usage: jose_bench OP ALG ITERATIONS");
        std::process::exit(2);
    };
    let alg = Algorithm::from_name(alg).expect("an HPKE algorithm");
    let n: u32 = n.parse().expect("iterations");
    let mut rng = typed_hpke_jose::OsRng::default();
    let key = PrivateJwk::generate(alg, &mut rng).unwrap();
    let payload = [0x5au8; 256];
    let enc = if alg.aead_id() == 0x0001 {
        ContentEncryption::A128Gcm
    } else {
        ContentEncryption::A256Gcm
    };
    let encrypt = |rng: &mut typed_hpke_jose::OsRng| {
        let e = if alg.is_key_encryption() {
            Encryptor::key_encryption(enc)
                .recipient(Recipient::new(alg, key.public_jwk()).unwrap())
                .unwrap()
        } else {
            Encryptor::integrated(alg, key.public_jwk()).unwrap()
        };
        e.encrypt(rng, &payload).unwrap().to_compact().unwrap()
    };
    let suite = typed_hpke::suite::Suite::new(alg.kem_id(), alg.kdf_id(), alg.aead_id()).unwrap();
    let total = (n + n / 10 + 1) as usize;
    let messages: Vec<String> = if op == "decrypt" {
        (0..total).map(|_| encrypt(&mut rng)).collect()
    } else {
        Vec::new()
    };
    let sealed: Vec<(Vec<u8>, Vec<u8>)> = if op == "floor-decrypt" {
        (0..total)
            .map(|_| {
                suite
                    .seal(
                        &mut rng,
                        key.public_jwk().key(),
                        b"",
                        b"",
                        &payload,
                        SenderMode::Base,
                    )
                    .unwrap()
            })
            .collect()
    } else {
        Vec::new()
    };
    let run = |i: usize, rng: &mut typed_hpke_jose::OsRng| match op.as_str() {
        "encrypt" => drop(black_box(encrypt(rng))),
        "decrypt" => drop(black_box(
            Decryptor::new(&key)
                .decrypt(&Jwe::parse(&messages[i]).unwrap())
                .unwrap(),
        )),
        "floor-encrypt" => drop(black_box(
            suite
                .seal(
                    rng,
                    key.public_jwk().key(),
                    b"",
                    b"",
                    &payload,
                    SenderMode::Base,
                )
                .unwrap(),
        )),
        "floor-decrypt" => {
            let (enc, ct) = &sealed[i];
            drop(black_box(
                suite
                    .open(enc, key.key(), b"", b"", ct, ReceiverMode::Base)
                    .unwrap(),
            ))
        }
        other => panic!("unknown op {other}"),
    };
    for i in 0..(n / 10) as usize {
        run(i, &mut rng);
    }
    let start = Instant::now();
    for i in 0..n as usize {
        run(i, &mut rng);
    }
    println!("{}", start.elapsed().as_nanos() as f64 / f64::from(n));
}
