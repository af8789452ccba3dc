//! typed-hpke's own baseline: every KEM's generate / derive / encap / decap, and setup plus
//! seal / open / export for X25519 and P-256.
//! `cargo bench --features comparative --ignore-rust-version --bench hpke` (criterion comes from
//! `typed-hpke-measure`, with the feature, so the library's test build does not compile it).

use std::hint::black_box;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::Hpke;
use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{HkdfSha256, Kdf, Shake256};
use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemX25519HkdfSha256, Kem, MlKem768, XWing};
use typed_hpke::suite::{AnyKem, KemVisitor};
use typed_hpke_measure::criterion::{
    BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};

fn bench_kem<K: Kem>(c: &mut Criterion, name: &str) {
    let mut g = c.benchmark_group(format!("kem/{name}"));
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let ikm = [0x42u8; 64];
    let (sk, pk) = K::derive_key_pair(&ikm).unwrap();
    let (_, enc) = K::encap(&mut rng, &pk).unwrap();
    g.bench_function("generate", |b| b.iter(|| K::generate(&mut rng)));
    g.bench_function("derive_key_pair", |b| {
        b.iter(|| K::derive_key_pair(black_box(&ikm)))
    });
    g.bench_function("encap", |b| b.iter(|| K::encap(&mut rng, black_box(&pk))));
    g.bench_function("decap", |b| {
        b.iter(|| K::decap(black_box(&enc), black_box(&sk)))
    });
    g.finish();
}

fn bench_suite<K: Kem, F: Kdf, A: SealingAead>(c: &mut Criterion, name: &str) {
    type H<K, F, A> = Hpke<K, F, A>;
    let mut g = c.benchmark_group(format!("suite/{name}"));
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let (sk, pk) = K::derive_key_pair(&[7u8; 64]).unwrap();
    let info = b"benchmark info";
    let (enc, _) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
    g.bench_function("setup_sender_base", |b| {
        b.iter(|| H::<K, F, A>::setup_sender_base(&mut rng, black_box(&pk), black_box(info)))
    });
    g.bench_function("setup_receiver_base", |b| {
        b.iter(|| {
            H::<K, F, A>::setup_receiver_base(black_box(&enc), black_box(&sk), black_box(info))
        })
    });
    for size in [64usize, 1024, 16 * 1024] {
        let pt = vec![0xa5u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("seal_base", size), &pt, |b, pt| {
            b.iter(|| {
                H::<K, F, A>::seal_base(&mut rng, black_box(&pk), info, b"aad", black_box(pt))
            })
        });
        let (enc, ct) = H::<K, F, A>::seal_base(&mut rng, &pk, info, b"aad", &pt).unwrap();
        g.bench_with_input(BenchmarkId::new("open_base", size), &ct, |b, ct| {
            b.iter(|| {
                H::<K, F, A>::open_base(
                    black_box(&enc),
                    black_box(&sk),
                    info,
                    b"aad",
                    black_box(ct),
                )
            })
        });
        // Post-setup context operations. The sequence limit is 2^64 - 1, far beyond any run.
        let (_, mut sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
        let mut buf = pt.clone();
        g.bench_function(BenchmarkId::new("context_seal_in_place", size), |b| {
            b.iter(|| sender.seal_in_place_detached(b"aad", black_box(&mut buf)))
        });
        let (_, mut sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
        let mut out = vec![0u8; size + 16];
        g.bench_function(BenchmarkId::new("context_seal_into", size), |b| {
            b.iter(|| sender.seal_into(b"aad", black_box(&pt), black_box(&mut out)))
        });
    }
    g.throughput(Throughput::Elements(1));
    let (_, sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
    let mut out = [0u8; 32];
    g.bench_function("export_32", |b| {
        b.iter(|| sender.export(black_box(b"context"), black_box(&mut out)))
    });
    g.finish();
}

/// Every KEM of the library (`AnyKem::all`), named by its id.
fn kems(c: &mut Criterion) {
    struct Bench<'a>(&'a mut Criterion, String);
    impl KemVisitor for Bench<'_> {
        type Output = ();
        fn visit<K: Kem>(self) {
            bench_kem::<K>(self.0, &self.1);
        }
    }
    for kem in AnyKem::all() {
        kem.visit(Bench(c, format!("{:#06x}", kem.id())));
    }
}

/// X-Wing decapsulation next to what it is made of: the floor (ML-KEM-768 decapsulation with
/// an expanded key, one X25519 multiplication, the SHA3-256 combiner) and the `x-wing` crate,
/// which re-expands its seed on every call (as hpke-ng's X-Wing does).
fn xwing_decap_floor(c: &mut Criterion) {
    use ml_kem::kem::{Decapsulate, KeyExport};
    use sha3::Digest;
    let mut g = c.benchmark_group("kem/xwing");
    let seed = [0x24u8; 32];
    let ours = typed_hpke::PrivateKey::<XWing>::from_bytes(&seed).unwrap();
    let (_, enc) = XWing::encap(&mut ChaCha20Rng::seed_from_u64(3), &ours.public_key()).unwrap();
    let ct = x_wing::Ciphertext::try_from(enc.as_bytes()).unwrap();

    let theirs = x_wing::DecapsulationKey::from(seed);
    g.bench_function("decap_x_wing_crate", |b| {
        b.iter(|| theirs.decapsulate(black_box(&ct)))
    });

    let dk_m = ml_kem::DecapsulationKey::<ml_kem::MlKem768>::from_seed([0x11; 64].into());
    let ct_m = ml_kem::Ciphertext::<ml_kem::MlKem768>::try_from(&enc.as_bytes()[..1088]).unwrap();
    let sk_x = [0x42u8; 32];
    let pk_x = x25519_dalek::x25519(sk_x, x25519_dalek::X25519_BASEPOINT_BYTES);
    let ct_x: [u8; 32] = enc.as_bytes()[1088..].try_into().unwrap();
    let _ = dk_m.encapsulation_key().to_bytes();
    g.bench_function("decap_floor", |b| {
        b.iter(|| {
            let ss_m = dk_m.decapsulate(black_box(&ct_m));
            let ss_x = x25519_dalek::x25519(black_box(sk_x), black_box(ct_x));
            sha3::Sha3_256::new()
                .chain_update(ss_m)
                .chain_update(ss_x)
                .chain_update(ct_x)
                .chain_update(pk_x)
                .chain_update(b"\\.//^\\")
                .finalize()
        })
    });
    g.finish();
}

fn suites(c: &mut Criterion) {
    bench_suite::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(c, "x25519_sha256_chacha20");
    bench_suite::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(c, "x25519_sha256_aes128");
    bench_suite::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(c, "p256_sha256_aes128");
    bench_suite::<DhKemP256HkdfSha256, HkdfSha256, ChaCha20Poly1305>(c, "p256_sha256_chacha20");
    bench_suite::<XWing, HkdfSha256, ChaCha20Poly1305>(c, "xwing_sha256_chacha20");
    bench_suite::<MlKem768, HkdfSha256, ChaCha20Poly1305>(c, "mlkem768_sha256_chacha20");
    bench_suite::<XWing, Shake256, ChaCha20Poly1305>(c, "xwing_shake256_chacha20");
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = kems, xwing_decap_floor, suites
}
criterion_main!(benches);
