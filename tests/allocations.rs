//! Zero heap allocations on every in-place and `_into` path, counted.
//!
//! With the `aws-lc-rs` feature the contexts still allocate nothing, but a KEM step on a group
//! aws-lc-rs runs (X25519, P-256 and the hybrids built on them) makes the allocations aws-lc-rs's
//! API makes: its parsed public key holds a copy of the bytes, `agree` takes that key by value
//! (another copy) and hands the secret back in a `Vec`. The bound is three per Diffie-Hellman;
//! every other KEM step must still allocate nothing.
//!
//! A counting global allocator (per thread, so parallel tests do not disturb each other)
//! measures each call on its own: setup in every mode the KEM has, single-shot seal and open in
//! place and into a caller's buffer, context seal / open / export, and single-shot export. The
//! suites cover every KEM family (X25519, X448, P-256, secp256k1, ML-KEM, X-Wing, a NIST
//! hybrid) and both KDF kinds (HKDF; SHAKE and TurboSHAKE). Keys are made before counting,
//! which also builds the curves' lazily initialised base-point tables.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake256};
use typed_hpke::kem::{
    AuthKem, DhKemP256HkdfSha256, DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768, MlKem768P256, XWing,
};
use typed_hpke::{Hpke, Psk};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// `GlobalAlloc` is an unsafe trait, so this test file (not the crate, which forbids unsafe
// code) implements it. SAFETY: every method forwards its arguments unchanged to `System`, which
// upholds the contract; the only addition is a thread-local counter that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Runs `f` and asserts it allocated nothing on this thread.
#[track_caller]
fn none<T>(what: &str, f: impl FnOnce() -> T) -> T {
    at_most(what, 0, f)
}

/// Runs `f` and asserts it made at most `bound` heap allocations on this thread.
#[track_caller]
fn at_most<T>(what: &str, bound: usize, f: impl FnOnce() -> T) -> T {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    let n = ALLOCATIONS.with(Cell::get) - before;
    assert!(
        n <= bound,
        "{what} made {n} heap allocations (at most {bound} allowed)"
    );
    out
}

/// The allocations keying graviola's cipher may make, which an AES-GCM context does when it has
/// handled 16 KiB: one under the graviola backend, whose AES-GCM key is boxed
/// (src/backend/graviola/aead.rs says why); none otherwise, and never at setup.
fn graviola_keying(aead_id: u16) -> usize {
    usize::from(typed_hpke::backend() == typed_hpke::Backend::Graviola && matches!(aead_id, 1 | 2))
}

/// The allocations a KEM step of `kem_id` with `dhs` Diffie-Hellman operations may make: none,
/// or with the `aws-lc-rs` feature three per DH on the groups it runs (see the module doc).
fn kem_step(kem_id: u16, dhs: usize) -> usize {
    const ON_AWS_LC: [u16; 7] = [0x0020, 0x0010, 0x0011, 0x0012, 0x647a, 0x0050, 0x0051];
    if cfg!(feature = "aws-lc-rs") && ON_AWS_LC.contains(&kem_id) {
        3 * dhs
    } else {
        0
    }
}

/// The counter must see an allocation, or the assertions above would hold by construction.
#[test]
fn the_counter_counts() {
    let caught = std::panic::catch_unwind(|| none("a Vec", || vec![1u8; 100]));
    assert!(caught.is_err());
}

const INFO: &[u8] = b"info";
const AAD: &[u8] = b"aad";
const PT: &[u8] = b"a message of moderate length, sealed in place and into buffers";
const PSK: &[u8] = b"a pre-shared key, thirty-two bytes or more";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(7)
}

/// Context seal / open / export, with a sender and receiver already set up.
fn context_ops<K: Kem, F: Kdf, A: SealingAead>(
    label: &str,
    mut sender: typed_hpke::SenderContext<K, F, A>,
    mut receiver: typed_hpke::ReceiverContext<K, F, A>,
) {
    let mut buf = PT.to_vec();
    let tag = none(&format!("{label}: context seal_in_place_detached"), || {
        sender.seal_in_place_detached(AAD, &mut buf).unwrap()
    });
    none(&format!("{label}: context open_in_place_detached"), || {
        receiver
            .open_in_place_detached(AAD, &mut buf, &tag)
            .unwrap()
    });
    let mut ct = vec![0u8; PT.len() + 16];
    let mut out = vec![0u8; PT.len()];
    none(&format!("{label}: context seal_into"), || {
        sender.seal_into(AAD, PT, &mut ct).unwrap()
    });
    none(&format!("{label}: context open_into"), || {
        receiver.open_into(AAD, &ct, &mut out).unwrap()
    });
    assert_eq!(out, PT);
    let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
    none(&format!("{label}: context export"), || {
        sender.export(b"ctx", &mut a).unwrap();
        receiver.export(b"ctx", &mut b).unwrap();
    });
    assert_eq!(a, b);
    // The seal that takes the context to 16 KiB keys graviola's AES-GCM cipher (one boxed key);
    // nothing allocates after it.
    let mut big = vec![0u8; 16 * 1024];
    at_most(
        &format!("{label}: the context seal that reaches 16 KiB"),
        graviola_keying(A::ID),
        || sender.seal_in_place_detached(AAD, &mut big).unwrap(),
    );
    none(&format!("{label}: a context seal after it"), || {
        sender.seal_in_place_detached(AAD, &mut big).unwrap()
    });
}

/// Base and PSK mode: setups, single-shot in place / into, single-shot export, context.
fn base_and_psk<K: Kem, F: Kdf, A: SealingAead>(label: &str) {
    type H<K, F, A> = Hpke<K, F, A>;
    let mut rng = rng();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let psk = Psk::new(PSK, b"id").unwrap();

    let (enc, sender) = at_most(
        &format!("{label}: setup_sender_base"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap(),
    );
    let receiver = at_most(
        &format!("{label}: setup_receiver_base"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).unwrap(),
    );
    context_ops(label, sender, receiver);
    let (enc, sender) = at_most(
        &format!("{label}: setup_sender_psk"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::setup_sender_psk(&mut rng, &pk, INFO, &psk).unwrap(),
    );
    let receiver = at_most(
        &format!("{label}: setup_receiver_psk"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::setup_receiver_psk(&enc, &sk, INFO, &psk).unwrap(),
    );
    context_ops(&format!("{label} psk"), sender, receiver);

    let mut buf = PT.to_vec();
    let (enc, tag) = at_most(
        &format!("{label}: seal_base_in_place_detached"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::seal_base_in_place_detached(&mut rng, &pk, INFO, AAD, &mut buf).unwrap(),
    );
    at_most(
        &format!("{label}: open_base_in_place_detached"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::open_base_in_place_detached(&enc, &sk, INFO, AAD, &mut buf, &tag).unwrap(),
    );
    let (mut ct, mut out) = (vec![0u8; PT.len() + 16], vec![0u8; PT.len()]);
    let (enc, _) = at_most(
        &format!("{label}: seal_psk_into"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::seal_psk_into(&mut rng, &pk, INFO, AAD, PT, &mut ct, &psk).unwrap(),
    );
    at_most(
        &format!("{label}: open_psk_into"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::open_psk_into(&enc, &sk, INFO, AAD, &ct, &mut out, &psk).unwrap(),
    );
    assert_eq!(out, PT);
    export_ops::<K, F, A>(label);
}

/// Single-shot export in base and PSK mode; any AEAD, ExportOnly included.
fn export_ops<K: Kem, F: Kdf, A: Aead>(label: &str) {
    type H<K, F, A> = Hpke<K, F, A>;
    let mut rng = rng();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let psk = Psk::new(PSK, b"id").unwrap();
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    let enc = at_most(
        &format!("{label}: send_export_base"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::send_export_base(&mut rng, &pk, INFO, b"ctx", &mut a).unwrap(),
    );
    at_most(
        &format!("{label}: receive_export_base"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::receive_export_base(&enc, &sk, INFO, b"ctx", &mut b).unwrap(),
    );
    assert_eq!(a, b);
    let enc = at_most(
        &format!("{label}: send_export_psk"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::send_export_psk(&mut rng, &pk, INFO, b"ctx", &mut a, &psk).unwrap(),
    );
    at_most(
        &format!("{label}: receive_export_psk"),
        kem_step(K::ID, 1),
        || H::<K, F, A>::receive_export_psk(&enc, &sk, INFO, b"ctx", &mut b, &psk).unwrap(),
    );
    assert_eq!(a, b);
}

/// Auth and AuthPSK mode on a DH-KEM.
fn auth_modes<K: AuthKem, F: Kdf, A: SealingAead>(label: &str) {
    type H<K, F, A> = Hpke<K, F, A>;
    let mut rng = rng();
    let (sk_r, pk_r) = K::generate(&mut rng).unwrap();
    let (sk_s, pk_s) = K::generate(&mut rng).unwrap();
    let psk = Psk::new(PSK, b"id").unwrap();
    let (enc, sender) = at_most(
        &format!("{label}: setup_sender_auth"),
        kem_step(K::ID, 2),
        || H::<K, F, A>::setup_sender_auth(&mut rng, &pk_r, INFO, &sk_s).unwrap(),
    );
    let receiver = at_most(
        &format!("{label}: setup_receiver_auth"),
        kem_step(K::ID, 2),
        || H::<K, F, A>::setup_receiver_auth(&enc, &sk_r, INFO, &pk_s).unwrap(),
    );
    context_ops(&format!("{label} auth"), sender, receiver);
    let (enc, sender) = at_most(
        &format!("{label}: setup_sender_auth_psk"),
        kem_step(K::ID, 2),
        || H::<K, F, A>::setup_sender_auth_psk(&mut rng, &pk_r, INFO, &psk, &sk_s).unwrap(),
    );
    let receiver = at_most(
        &format!("{label}: setup_receiver_auth_psk"),
        kem_step(K::ID, 2),
        || H::<K, F, A>::setup_receiver_auth_psk(&enc, &sk_r, INFO, &psk, &pk_s).unwrap(),
    );
    context_ops(&format!("{label} auth_psk"), sender, receiver);
    let mut buf = PT.to_vec();
    let (enc, tag) = at_most(
        &format!("{label}: seal_auth_in_place_detached"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::seal_auth_in_place_detached(&mut rng, &pk_r, INFO, AAD, &mut buf, &sk_s)
                .unwrap()
        },
    );
    at_most(
        &format!("{label}: open_auth_in_place_detached"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::open_auth_in_place_detached(&enc, &sk_r, INFO, AAD, &mut buf, &tag, &pk_s)
                .unwrap()
        },
    );
    let (mut ct, mut out) = (vec![0u8; PT.len() + 16], vec![0u8; PT.len()]);
    let (enc, _) = at_most(
        &format!("{label}: seal_auth_psk_into"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::seal_auth_psk_into(&mut rng, &pk_r, INFO, AAD, PT, &mut ct, &psk, &sk_s)
                .unwrap()
        },
    );
    at_most(
        &format!("{label}: open_auth_psk_into"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::open_auth_psk_into(&enc, &sk_r, INFO, AAD, &ct, &mut out, &psk, &pk_s)
                .unwrap()
        },
    );
    assert_eq!(out, PT);
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    let enc = at_most(
        &format!("{label}: send_export_auth_psk"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::send_export_auth_psk(&mut rng, &pk_r, INFO, b"ctx", &mut a, &psk, &sk_s)
                .unwrap()
        },
    );
    at_most(
        &format!("{label}: receive_export_auth_psk"),
        kem_step(K::ID, 2),
        || {
            H::<K, F, A>::receive_export_auth_psk(&enc, &sk_r, INFO, b"ctx", &mut b, &psk, &pk_s)
                .unwrap()
        },
    );
    assert_eq!(a, b);
}

#[test]
fn dh_kems_every_mode() {
    base_and_psk::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>("X25519");
    auth_modes::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>("X25519");
    base_and_psk::<DhKemX448HkdfSha512, HkdfSha512, Aes256Gcm>("X448");
    auth_modes::<DhKemX448HkdfSha512, HkdfSha512, Aes256Gcm>("X448");
    base_and_psk::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>("P-256");
    auth_modes::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>("P-256");
    base_and_psk::<DhKemSecp256k1HkdfSha256, Shake256, ChaCha20Poly1305>("secp256k1, SHAKE256");
    auth_modes::<DhKemSecp256k1HkdfSha256, Shake256, ChaCha20Poly1305>("secp256k1, SHAKE256");
}

#[test]
fn post_quantum_kems() {
    base_and_psk::<MlKem768, TurboShake256, Aes128Gcm>("ML-KEM-768, TurboSHAKE256");
    base_and_psk::<XWing, HkdfSha256, ChaCha20Poly1305>("X-Wing");
    base_and_psk::<MlKem768P256, Shake128, Aes256Gcm>("MLKEM768-P256, SHAKE128");
}

#[test]
fn export_only() {
    export_ops::<DhKemX25519HkdfSha256, Shake256, ExportOnly>("X25519, SHAKE256, ExportOnly");
    export_ops::<XWing, HkdfSha384, ExportOnly>("X-Wing, HKDF-SHA384, ExportOnly");
}

/// The runtime API (`typed_hpke::suite`): setup in every mode the KEM has, with a parsed key
/// and with key bytes, then the runtime context's in-place / into / export paths.
fn runtime(kem: u16, kdf: u16, aead: u16) {
    use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
    let label = format!("runtime {kem:#06x} {kdf:#06x} {aead:#06x}");
    let suite = Suite::new(kem, kdf, aead).unwrap();
    let mut rng = rng();
    let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
    let (sk_s, pk_s) = suite.generate_key_pair(&mut rng).unwrap();
    let (sk_bytes, pk_bytes) = (sk.to_bytes(), pk.as_bytes().to_vec());
    let psk = Psk::new(PSK, b"id").unwrap();
    let mut modes = vec![
        ("base", SenderMode::Base, ReceiverMode::Base),
        ("psk", SenderMode::Psk(&psk), ReceiverMode::Psk(&psk)),
    ];
    if suite.supports_auth() {
        modes.push(("auth", SenderMode::Auth(&sk_s), ReceiverMode::Auth(&pk_s)));
        modes.push((
            "auth_psk",
            SenderMode::AuthPsk(&psk, &sk_s),
            ReceiverMode::AuthPsk(&psk, &pk_s),
        ));
    }
    for (mode, send, receive) in modes {
        let label = format!("{label} {mode}");
        let kem_step = kem_step(kem, if mode.starts_with("auth") { 2 } else { 1 });
        let (enc, mut s) = at_most(&format!("{label}: setup_sender"), kem_step, || {
            suite.setup_sender(&mut rng, &pk, INFO, send).unwrap()
        });
        let mut r = at_most(&format!("{label}: setup_receiver"), kem_step, || {
            suite
                .setup_receiver(enc.as_bytes(), &sk, INFO, receive)
                .unwrap()
        });
        // Key bytes are parsed on the stack.
        let (enc2, mut s2) = at_most(
            &format!("{label}: setup_sender, key bytes"),
            kem_step,
            || {
                suite
                    .setup_sender(&mut rng, &pk_bytes[..], INFO, send)
                    .unwrap()
            },
        );
        let mut r2 = at_most(
            &format!("{label}: setup_receiver, key bytes"),
            kem_step,
            || {
                suite
                    .setup_receiver(enc2.as_bytes(), &sk_bytes[..], INFO, receive)
                    .unwrap()
            },
        );
        let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
        none(&format!("{label}: runtime export"), || {
            s.export(b"ctx", &mut a).unwrap();
            r.export(b"ctx", &mut b).unwrap();
        });
        assert_eq!(a, b);
        if !suite.supports_seal() {
            continue;
        }
        let mut buf = PT.to_vec();
        let tag = none(&format!("{label}: runtime seal_in_place_detached"), || {
            s.seal_in_place_detached(AAD, &mut buf).unwrap()
        });
        none(&format!("{label}: runtime open_in_place_detached"), || {
            r.open_in_place_detached(AAD, &mut buf, &tag).unwrap()
        });
        let (mut ct, mut out) = (vec![0u8; PT.len() + 16], vec![0u8; PT.len()]);
        none(&format!("{label}: runtime seal_into / open_into"), || {
            s2.seal_into(AAD, PT, &mut ct).unwrap();
            r2.open_into(AAD, &ct, &mut out).unwrap()
        });
        assert_eq!((&buf[..], &out[..]), (PT, PT));
    }
}

#[test]
fn runtime_contexts_and_keys() {
    runtime(0x0020, 0x0001, 0x0003); // X25519, HKDF-SHA256, ChaCha20-Poly1305
    runtime(0x0010, 0x0003, 0x0002); // P-256, HKDF-SHA512, AES-256-GCM
    runtime(0x0021, 0x0012, 0x0001); // X448, TurboSHAKE128
    runtime(0x0041, 0x0011, 0x0001); // ML-KEM-768, SHAKE256
    runtime(0x647a, 0x0001, 0x0001); // X-Wing
    runtime(0x0051, 0x0002, 0xffff); // MLKEM1024-P384, ExportOnly
}

/// The NIST ephemeral key from [`typed_hpke::OsRng`]: with `aws-lc-rs` aws-lc makes it itself
/// and hands its bytes back in one `Vec` of aws-lc-rs's (wiped on drop), one allocation more than
/// a drawn scalar's import; without the feature the path is the drawn one and allocates nothing.
/// A generated key pair's public key is parsed into aws-lc's form as it is made (one more
/// allocation, its bytes' copy), the ephemeral key inside a sender setup is not.
/// Counted exactly, not bounded: a bound would not tell the two paths apart.
#[test]
fn nist_keys_from_os_rng() {
    type H = Hpke<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>;
    let (sk, pk) = DhKemP256HkdfSha256::derive_key_pair(&[7; 32]).unwrap();
    let count = |f: &mut dyn FnMut()| {
        let before = ALLOCATIONS.with(Cell::get);
        f();
        ALLOCATIONS.with(Cell::get) - before
    };
    let mut drawn = rng();
    let mut os = typed_hpke::OsRng::default();
    let mut enc = None;
    // `pk` was parsed into aws-lc's form as it was derived: the first call allocates no more
    // than the next.
    let seeded = count(&mut || {
        H::setup_sender_base(&mut drawn, &pk, INFO).unwrap();
    });
    let from_os = count(&mut || {
        enc = Some(H::setup_sender_base(&mut os, &pk, INFO).unwrap().0);
    });
    assert!(seeded <= kem_step(DhKemP256HkdfSha256::ID, 1));
    assert_eq!(from_os, seeded + usize::from(cfg!(feature = "aws-lc-rs")));
    let generated = count(&mut || {
        DhKemP256HkdfSha256::generate(&mut os).unwrap();
    });
    assert_eq!(
        generated,
        2 * usize::from(cfg!(feature = "aws-lc-rs")),
        "generate with OsRng"
    );
    H::setup_receiver_base(&enc.unwrap(), &sk, INFO).unwrap();

    // The runtime API hands the generator down by its type, so the same holds there.
    use typed_hpke::suite::{SenderMode, Suite};
    let suite = Suite::of::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>();
    let pk = suite.public_key_from_bytes(&pk.to_bytes()).unwrap();
    suite
        .setup_sender(&mut drawn, &pk, INFO, SenderMode::Base)
        .unwrap();
    let seeded = count(&mut || {
        suite
            .setup_sender(&mut drawn, &pk, INFO, SenderMode::Base)
            .unwrap();
    });
    let from_os = count(&mut || {
        suite
            .setup_sender(&mut os, &pk, INFO, SenderMode::Base)
            .unwrap();
    });
    assert_eq!(
        from_os,
        seeded + usize::from(cfg!(feature = "aws-lc-rs")),
        "runtime"
    );
}

/// `symmetric::{Prk, Sealer, Opener}` and `suite::{Prk, Sealer, Opener}`: extract, expand,
/// keying and every in-place and `_into` seal / open allocate nothing, typed and runtime, on
/// each AEAD (under aws-lc-rs too: its AEADs are keyed without the heap; under graviola an
/// AES-GCM cipher allocates its boxed key later, after 16 KiB, see `graviola_keying`).
#[test]
fn symmetric_surface() {
    use typed_hpke::hybrid_array::typenum::Unsigned;
    use typed_hpke::suite;
    use typed_hpke::symmetric::{Opener, Prk, Sealer};
    fn typed<A: SealingAead>() {
        let label = format!("typed symmetric {:#06x}", A::ID);
        let prk = none(&format!("{label}: extract"), || {
            Prk::<HkdfSha384>::extract(b"salt", &[b"ikm", b"more"])
        });
        let mut okm = [0u8; 100];
        none(&format!("{label}: expand"), || {
            prk.expand(&[b"info"], &mut okm).unwrap()
        });
        let (mut tx, mut rx) = none(&format!("{label}: keying"), || {
            let rx = Opener::<A>::from_prk(&prk, b"key", b"nonce").unwrap();
            let tx = Sealer::<A>::from_prk(prk, b"key", b"nonce").unwrap();
            (tx, rx)
        });
        let mut buf = PT.to_vec();
        let tag = none(&format!("{label}: seal_in_place_detached"), || {
            tx.seal_in_place_detached(AAD, &mut buf).unwrap()
        });
        none(&format!("{label}: open_in_place_detached"), || {
            rx.open_in_place_detached(AAD, &mut buf, &tag).unwrap()
        });
        let (mut ct, mut out) = (vec![0u8; PT.len() + 16], vec![0u8; PT.len()]);
        none(&format!("{label}: seal_into"), || {
            tx.seal_into(AAD, PT, &mut ct).unwrap()
        });
        none(&format!("{label}: open_into"), || {
            rx.open_into(AAD, &ct, &mut out).unwrap()
        });
        assert_eq!(out, PT);

        let label = format!("runtime symmetric {:#06x}", A::ID);
        let prk = none(&format!("{label}: extract"), || {
            suite::Prk::extract(HkdfSha256::ID, b"salt", &[b"ikm"]).unwrap()
        });
        let (mut tx, mut rx) = none(&format!("{label}: keying"), || {
            let tx = suite::Sealer::from_prk(A::ID, prk, b"key", b"nonce").unwrap();
            let rx = suite::Opener::new(A::ID, &[7u8; 32][..A::Nk::USIZE], &[9u8; 12]).unwrap();
            (tx, rx)
        });
        let mut buf = PT.to_vec();
        none(&format!("{label}: seal_in_place_detached"), || {
            tx.seal_in_place_detached(AAD, &mut buf).unwrap()
        });
        none(&format!("{label}: seal_into"), || {
            tx.seal_into(AAD, PT, &mut ct).unwrap()
        });
        let tag = [0u8; 16];
        none(&format!("{label}: a failed open_in_place_detached"), || {
            assert!(rx.open_in_place_detached(AAD, &mut buf, &tag).is_err())
        });
    }
    typed::<Aes128Gcm>();
    typed::<Aes256Gcm>();
    typed::<ChaCha20Poly1305>();
}
