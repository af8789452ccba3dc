//! What the worst messages under the JOSE and COSE crates' limits cost (each crate's README,
//! "Limits"): each row parses and decrypts a message at sizes that double, in paired rounds
//! (every size once per round, the order rotated from round to round), and reports the median
//! time per message and, per doubling, the median of the per-round ratios with its
//! distribution-free 95% interval (ranks 6 and 16 of 21): work linear in the input doubles with
//! it (ratio near 2, less where a fixed cost such as one HPKE open is added), quadratic work
//! quadruples. Not a comparison with another implementation: there is none for this.
//!
//! ```text
//! cargo bench -p typed-hpke-measure --ignore-rust-version --bench limits
//! ```
//!
//! COSE rows:
//! - `unprotected labels, refused`: a COSE_Encrypt0 whose unprotected bucket has 32,768 to
//!   131,072 distinct labels (the count of the review's 0.5 MB message; here each label takes
//!   six bytes, so the last is 0.8 MB), refused with `TooLarge` on the count, after decoding,
//!   before any label is compared.
//! - `labels at the limit`: 64 labels in the unprotected bucket, 16 to 64 labels (the
//!   message decrypts: one HPKE open).
//! - `foreign recipients`: a COSE_Encrypt with 64 to 256 recipients of another algorithm (a
//!   text `alg`), this key's last: each passed over, one HPKE open.
//! - `trial opens`: 4 to 16 recipients of this key's algorithm without a `kid`, none this
//!   key's: each an HPKE open (16 is `MAX_TRIAL_OPENS`), then `Decrypt`.
//!
//!
//! JOSE rows (general JSON serialization, parsed with `Jwe::parse` inside the timing):
//! - `recipients of another kid`: 64 to 256 recipients (`MAX_RECIPIENTS`) of this key's
//!   algorithm under another `kid`, this key's last: each passed over without an open.
//! - `trial opens`: 4 to 16 recipients of this key's algorithm without a `kid`, none this
//!   key's: each an HPKE open, then `Decrypt`.
//! - `shared header, 256 recipients`: a shared unprotected header of 16 to 64 KiB beside 256
//!   recipients of another `kid` and this key's: the header is read once, not once per
//!   recipient (it was copied into each recipient's header before).
//!
//! `LIMITS_QUICK=1` runs three rounds of one message each: a check that the bench still runs.

use std::hint::black_box;
use std::time::Instant;

use ciborium::Value;
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, PrivateCoseKey, Recipient,
};
use typed_hpke_jose as jose;

fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::ser::into_writer(v, &mut out).unwrap();
    out
}

fn decode(bytes: &[u8]) -> Value {
    ciborium::de::from_reader(bytes).unwrap()
}

fn items(v: &mut Value) -> &mut Vec<Value> {
    match v {
        Value::Tag(_, inner) => items(inner),
        Value::Array(a) => a,
        _ => unreachable!("a COSE message is an array"),
    }
}

/// One row: its name, the messages (one per size, with the size's label), and what parses and
/// decrypts one, telling whether the outcome is the row's.
struct Row {
    name: &'static str,
    sizes: Vec<(usize, Vec<u8>)>,
    run: Check,
}

/// Parses and decrypts a message; whether the outcome is the row's.
type Check = Box<dyn Fn(&[u8]) -> bool>;

fn rng() -> typed_hpke_cose::OsRng {
    typed_hpke_cose::OsRng::default()
}

fn labels_row(
    name: &'static str,
    counts: &[usize],
    expect: fn(&Result<Vec<u8>, Error>) -> bool,
) -> Row {
    let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng()).unwrap();
    let message = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())
        .unwrap()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    let sizes = counts
        .iter()
        .map(|&n| {
            let mut v = decode(&message);
            let Value::Map(unprotected) = &mut items(&mut v)[1] else {
                unreachable!("the unprotected bucket is a map")
            };
            // Labels from 2^16 on: five bytes of CBOR each, so the message doubles with them.
            for i in unprotected.len()..n {
                unprotected.push((Value::from(65_536 + i as i64), Value::Null));
            }
            (n, encode(&v))
        })
        .collect();
    Row {
        name,
        sizes,
        run: Box::new(move |m| expect(&Decryptor::new(&key).decrypt(m))),
    }
}

fn recipients_row(
    name: &'static str,
    counts: &[usize],
    same_kem: bool,
    expect: fn(&Result<Vec<u8>, Error>) -> bool,
) -> Row {
    let key = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let other = PrivateCoseKey::generate(Algorithm::HPKE_3_KE, &mut rng()).unwrap();
    let to = if same_kem { &other } else { &key };
    let message = Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
        .recipient(Recipient::new(Algorithm::HPKE_3_KE, to.public_key()).unwrap())
        .unwrap()
        .encrypt(&mut rng(), b"m")
        .unwrap();
    let sizes = counts
        .iter()
        .map(|&n| {
            let mut v = decode(&message);
            let Value::Array(recipients) = &mut items(&mut v)[3] else {
                unreachable!("recipients are an array")
            };
            let real = recipients[0].clone();
            let filler = if same_kem {
                // Another key's recipient of the same algorithm, no kid: an HPKE open each.
                real.clone()
            } else {
                let protected = encode(&Value::Map(vec![(
                    Value::from(1),
                    Value::Text("A128KW".into()),
                )]));
                Value::Array(vec![
                    Value::Bytes(protected),
                    Value::Map(vec![]),
                    Value::Bytes(vec![0; 24]),
                ])
            };
            let mut list = vec![filler; n - 1];
            list.push(real);
            *recipients = list;
            (n, encode(&v))
        })
        .collect();
    Row {
        name,
        sizes,
        run: Box::new(move |m| expect(&Decryptor::new(&key).decrypt(m))),
    }
}

/// The median of `values` (sorted in place), and its rank-`k` interval.
fn median(values: &mut [f64], k: usize) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let k = k.min((n - 1) / 2);
    (values[n / 2], values[k], values[n - 1 - k])
}

/// A JWE in the general serialization to `to` and to `filler` recipients in front of it, as
/// `Jwe::parse` reads it; `shared` bytes of shared unprotected header.
fn jose_row(
    name: &'static str,
    sizes: &[(usize, usize, usize)],
    filler_kid: Option<&'static str>,
    expect: fn(&Result<Vec<u8>, jose::Error>) -> bool,
) -> Row {
    let mut rng = jose::OsRng::default();
    let key = jose::PrivateJwk::generate(jose::Algorithm::HPKE_3_KE, &mut rng)
        .unwrap()
        .with_kid("mine");
    let other = jose::PrivateJwk::generate(jose::Algorithm::HPKE_3_KE, &mut rng).unwrap();
    let messages = sizes
        .iter()
        .map(|&(label, fillers, shared)| {
            let mut e = jose::Encryptor::key_encryption(jose::ContentEncryption::A128Gcm);
            let filler = match filler_kid {
                Some(kid) => other.public_jwk().clone().with_kid(kid),
                None => other.public_jwk().clone(),
            };
            for _ in 0..fillers {
                e = e
                    .recipient(jose::Recipient::new(jose::Algorithm::HPKE_3_KE, &filler).unwrap())
                    .unwrap();
            }
            if filler_kid.is_some() {
                e = e
                    .recipient(
                        jose::Recipient::new(jose::Algorithm::HPKE_3_KE, key.public_jwk()).unwrap(),
                    )
                    .unwrap();
            }
            let jwe = e.encrypt(&mut rng, b"m").unwrap();
            let mut value: serde_json::Value = serde_json::from_str(&jwe.to_general()).unwrap();
            if shared > 0 {
                value["unprotected"] = serde_json::json!({ "x-note": "n".repeat(shared) });
            }
            (label, value.to_string().into_bytes())
        })
        .collect();
    Row {
        name,
        sizes: messages,
        run: Box::new(move |m| {
            let text = std::str::from_utf8(m).unwrap();
            let result =
                jose::Jwe::parse(text).and_then(|jwe| jose::Decryptor::new(&key).decrypt(&jwe));
            expect(&result)
        }),
    }
}

fn main() {
    let quick = std::env::var_os("LIMITS_QUICK").is_some();
    let (rounds, batch) = if quick { (3, 1) } else { (21, 10) };
    let rows = [
        labels_row(
            "COSE: unprotected labels, refused",
            &[32_768, 65_536, 131_072],
            |r| r == &Err(Error::TooLarge),
        ),
        labels_row("COSE: labels at the limit", &[16, 32, 64], |r| r.is_ok()),
        recipients_row("COSE: foreign recipients", &[64, 128, 256], false, |r| {
            r.is_ok()
        }),
        recipients_row("COSE: trial opens", &[4, 8, 16], true, |r| {
            r == &Err(Error::Decrypt)
        }),
        jose_row(
            "JOSE: recipients of another kid",
            &[(64, 63, 0), (128, 127, 0), (256, 255, 0)],
            Some("theirs"),
            |r| r.is_ok(),
        ),
        jose_row(
            "JOSE: trial opens",
            &[(4, 4, 0), (8, 8, 0), (16, 16, 0)],
            None,
            |r| r == &Err(jose::Error::Decrypt),
        ),
        jose_row(
            "JOSE: shared header, 256 recipients (size: KiB of header)",
            &[
                (16, 255, 16 << 10),
                (32, 255, 32 << 10),
                (64, 255, 64 << 10),
            ],
            Some("theirs"),
            |r| r.is_ok(),
        ),
    ];
    for row in &rows {
        for (n, message) in &row.sizes {
            assert!(
                (row.run)(message),
                "{} at {n}: unexpected outcome",
                row.name
            );
        }
        // times[size][round], nanoseconds per message.
        let mut times = vec![Vec::new(); row.sizes.len()];
        for round in 0..rounds {
            for i in 0..row.sizes.len() {
                let i = (i + round) % row.sizes.len();
                let message = &row.sizes[i].1;
                let start = Instant::now();
                for _ in 0..batch {
                    black_box((row.run)(black_box(message)));
                }
                times[i].push(start.elapsed().as_nanos() as f64 / batch as f64);
            }
        }
        println!("{}", row.name);
        for (i, (n, message)) in row.sizes.iter().enumerate() {
            let (t, _, _) = median(&mut times[i].clone(), 6);
            let ratio = if i == 0 {
                String::new()
            } else {
                let mut ratios: Vec<f64> = times[i]
                    .iter()
                    .zip(&times[i - 1])
                    .map(|(b, a)| b / a)
                    .collect();
                let (m, lo, hi) = median(&mut ratios, 6);
                format!("  x{m:.2} [{lo:.2}, {hi:.2}] over the previous size")
            };
            println!(
                "  {n:>7} ({:>7} bytes): {:>12.0} ns, {:>6.1} ns/byte{ratio}",
                message.len(),
                t,
                t / message.len() as f64
            );
        }
    }
}
