//! Per-message cost of typed-hpke-cose, for `measure/jose_cose/bench.py`, which runs it in
//! rounds paired with python-cwt:
//!
//! ```text
//! cose_bench OP ALG ITERATIONS
//! ```
//!
//! prints the mean nanoseconds per operation over ITERATIONS (after a tenth as many untimed).
//! OP is `encrypt` or `decrypt`; ALG an HPKE algorithm name: an integrated one times
//! COSE_Encrypt0, a key-encryption one COSE_Encrypt to one recipient (layer 0 with the HPKE
//! AEAD's cipher). `floor-encrypt` / `floor-decrypt` time typed-hpke's single-shot Seal / Open
//! of the same suite and payload, the HPKE work any COSE-HPKE implementation has to do. The key
//! and the messages to decrypt are made before the clock starts. The payload is 256 bytes.

use std::hint::black_box;
use std::time::Instant;

use typed_hpke::suite::{ReceiverMode, SenderMode};
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, PrivateCoseKey, Recipient,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, alg, n] = args.as_slice() else {
        eprintln!("usage: cose_bench OP ALG ITERATIONS");
        std::process::exit(2);
    };
    let alg = Algorithm::from_name(alg).expect("an HPKE algorithm");
    let n: u32 = n.parse().expect("iterations");
    let mut rng = typed_hpke_cose::OsRng::default();
    let key = PrivateCoseKey::generate(alg, &mut rng).unwrap();
    let payload = [0x5au8; 256];
    let content = if alg.aead_id() == 0x0001 {
        ContentAlgorithm::A128Gcm
    } else {
        ContentAlgorithm::A256Gcm
    };
    let encrypt = |rng: &mut typed_hpke_cose::OsRng| {
        if alg.is_key_encryption() {
            Encryptor::key_encryption(content)
                .recipient(Recipient::new(alg, key.public_key()).unwrap())
                .unwrap()
                .encrypt(rng, &payload)
                .unwrap()
        } else {
            Encryptor::encrypt0(alg, key.public_key())
                .unwrap()
                .encrypt(rng, &payload)
                .unwrap()
        }
    };
    let suite = typed_hpke::suite::Suite::new(alg.kem_id(), alg.kdf_id(), alg.aead_id()).unwrap();
    let total = (n + n / 10 + 1) as usize;
    let messages: Vec<Vec<u8>> = if op == "decrypt" {
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
                        key.public_key().key(),
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
    let run = |i: usize, rng: &mut typed_hpke_cose::OsRng| match op.as_str() {
        "encrypt" => drop(black_box(encrypt(rng))),
        "decrypt" => drop(black_box(
            Decryptor::new(&key).decrypt(&messages[i]).unwrap(),
        )),
        "floor-encrypt" => drop(black_box(
            suite
                .seal(
                    rng,
                    key.public_key().key(),
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
