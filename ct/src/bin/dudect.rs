//! A dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant
//! time?", 2017) of typed-hpke's hand-written constant-time code: the prepared keys' window
//! selection on X25519 and on P-256, and the RFC 9180 §7.1.4 all-zero check.
//!
//! Each target is timed on two classes of secret input, interleaved at random: one fixed value
//! chosen to be a likely worst case (a scalar whose windows are almost all zero), and fresh
//! random values. Welch's t-test compares the two timing distributions, whole and cropped at
//! 100 percentiles (long tails are the shared machine, not the code). |t| above 4.5 would be
//! evidence that the time depends on the secret; below it, none was found at this sample size.
//!
//! `cargo run --release -p typed-hpke-ct --bin dudect [-- SAMPLES]` (default 200000 a target).
//! Not in CI: a two-core shared machine is too noisy for a pass/fail threshold.

use std::hint::black_box;
use std::time::Instant;

use typed_hpke::kem::{
    DhKemP256HkdfSha256 as P256, DhKemX25519HkdfSha256 as X25519, Kem, PreparedPublicKey,
};
use typed_hpke::rand_core::{TryCryptoRng, TryRng};
use typed_hpke::{EncappedKey, PrivateKey, PublicKey};

fn main() {
    let samples = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    println!("target | samples | max |t| | at crop | verdict");
    println!("---|---|---|---|---");
    prepared::<X25519>("prepared X25519 encap (window selection)", samples);
    prepared::<P256>("prepared P-256 encap (window selection)", samples);
    zero_check(samples);
}

/// The generator `encap` draws its ephemeral scalar from: the given bytes, every draw.
struct Fixed([u8; 64]);

impl TryRng for Fixed {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(u32::from_le_bytes(self.0[..4].try_into().expect("4 bytes")))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes")))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        let n = dst.len().min(self.0.len());
        dst[..n].copy_from_slice(&self.0[..n]);
        Ok(())
    }
}

impl TryCryptoRng for Fixed {}

/// splitmix64, for the random class and the class order.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn bytes(&mut self) -> [u8; 64] {
        let mut out = [0u8; 64];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next().to_le_bytes());
        }
        out
    }
}

/// `samples` inputs, each of a class drawn at random: `false` the fixed input (all zero but
/// byte 31 = 1), `true` fresh random bytes.
fn classes(seed: u64, samples: usize) -> Vec<(bool, [u8; 64])> {
    let mut fixed = [0u8; 64];
    fixed[31] = 1;
    let mut mix = Mix(seed);
    (0..samples)
        .map(|_| {
            let class = mix.next() & 1 == 1;
            (class, if class { mix.bytes() } else { fixed })
        })
        .collect()
}

/// Encapsulation to a prepared key: the ephemeral scalar goes through the table's windows.
/// Fixed class: scalar bytes all zero but byte 31 = 1 (X25519 reads them little-endian and
/// clamps them to 2^254 + 2^248; P-256 reads the scalar 1), so nearly every window digit is zero.
fn prepared<K: Kem>(name: &str, samples: usize) {
    let (_, pk) = K::derive_key_pair(&[7u8; 64]).expect("derive");
    let pk = PreparedPublicKey::new(&PublicKey::<K>::from_bytes(pk.as_bytes()).expect("pk"));
    let inputs = classes(1, samples);
    let times = measure(&inputs, |_, seed| {
        black_box(pk.encap(&mut Fixed(*seed)).ok());
    });
    report(name, &inputs, &times);
}

/// Decapsulation on X25519, whose DH output goes through the all-zero check, as a function of
/// the secret: one `enc` (public, on the curve), and the recipient's private key fixed (bytes
/// 0..31 zero but byte 31 = 1, which clamping makes 2^254 + 2^248) or random. Varying `enc`
/// instead would measure a public property: a u-coordinate on the twist takes the Montgomery
/// ladder, one on the curve the Edwards multiplication (`x25519()`), and that choice is public.
fn zero_check(samples: usize) {
    let (_, pk) = X25519::derive_key_pair(&[9u8; 64]).expect("derive");
    let enc = EncappedKey::<X25519>::from_bytes(pk.as_bytes()).expect("enc");
    let inputs = classes(2, samples);
    let keys: Vec<PrivateKey<X25519>> = inputs
        .iter()
        .map(|(_, b)| PrivateKey::from_bytes(&b[..32]).expect("any 32 bytes are an X25519 key"))
        .collect();
    let times = measure(&inputs, |i, _| {
        black_box(X25519::decap(&enc, &keys[i]).ok());
    });
    report("X25519 decap (the all-zero check)", &inputs, &times);
}

/// The time of `op(i, input)` for each input, in nanoseconds, after a warm-up pass over the
/// first thousand.
fn measure(inputs: &[(bool, [u8; 64])], mut op: impl FnMut(usize, &[u8; 64])) -> Vec<u64> {
    for (i, (_, input)) in inputs.iter().enumerate().take(1000) {
        op(i, input);
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, (_, input))| {
            let start = Instant::now();
            op(i, black_box(input));
            start.elapsed().as_nanos() as u64
        })
        .collect()
}

/// Welch's t over the whole sample and over 100 crops at percentile thresholds (dudect's:
/// 1 - 0.5^(10 (k + 1) / 100)); the largest |t| and the crop it came from.
fn report(name: &str, inputs: &[(bool, [u8; 64])], times: &[u64]) {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let mut thresholds = vec![u64::MAX];
    for k in 0..100 {
        let p = 1.0 - 0.5f64.powf(10.0 * (k + 1) as f64 / 100.0);
        thresholds.push(sorted[((sorted.len() - 1) as f64 * p) as usize]);
    }
    let mut worst = (0.0f64, 0usize);
    for (i, &limit) in thresholds.iter().enumerate() {
        let mut classes = [Welford::default(), Welford::default()];
        for ((class, _), &t) in inputs.iter().zip(times) {
            if t <= limit {
                classes[usize::from(*class)].push(t as f64);
            }
        }
        if classes.iter().any(|c| c.n < 1000) {
            continue;
        }
        let t = welch(&classes[0], &classes[1]);
        if t.abs() > worst.0.abs() {
            worst = (t, i);
        }
    }
    let crop = if worst.1 == 0 {
        "none".to_owned()
    } else {
        format!("{}", worst.1)
    };
    let verdict = if worst.0.abs() > 4.5 {
        "timing differs"
    } else {
        "no difference found"
    };
    println!(
        "{name} | {} | {:.2} | {crop} | {verdict}",
        times.len(),
        worst.0.abs()
    );
}

#[derive(Default)]
struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    fn variance(&self) -> f64 {
        self.m2 / (self.n - 1) as f64
    }
}

fn welch(a: &Welford, b: &Welford) -> f64 {
    (a.mean - b.mean) / (a.variance() / a.n as f64 + b.variance() / b.n as f64).sqrt()
}
