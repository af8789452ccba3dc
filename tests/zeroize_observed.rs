//! Secrets are wiped on drop, observed in memory. `tests/zeroize.rs` checks the markers at the
//! type level; this file watches the bytes. A global allocator copies a block the test names
//! when it is named (the secret is in it then) and looks at it again when it is freed, after
//! every `Drop` has run but before the allocator reuses it. It checks two things:
//!
//! - **No known secret form is left.** Where the test can compute how a secret sits in memory
//!   (a private key's serialization, an X25519 scalar, a shared secret, a context's AEAD key
//!   and base nonce), that string must be in the block when it is named and gone from every
//!   place it occupied when it is freed.
//! - **The secret's bytes were overwritten.** Where it cannot (a P-256 scalar in Montgomery
//!   form, libcrux's expanded ML-KEM key), at least the secret's size in bytes must have gone
//!   from non-zero to zero.
//!
//! Each `Drop` this crate writes for a secret (`DhPrivateKey`, `HybridPrivateKey`, `DecapKey`,
//! `AeadState`) is caught here if removed: see the closing note of issue 28 for the trial.
//! `Psk` is not watched: it borrows the caller's bytes and owns nothing to wipe.
//!
//! Runtime contexts and `suite::Sealer` / `Opener` are searched like the typed ones: every
//! place the key or nonce sits in the live value must be clear when it is freed. A runtime
//! context is an enum as large as its largest AEAD state; its smaller variants are filled with
//! zeros to that size (`suite/any.rs`, `Fill`), because the bytes past a smaller variant used
//! to keep whatever was where the value was built: a ChaCha20-Poly1305 context held a second
//! copy of its base nonce there, which this test found once it searched. The values are boxed
//! here as typed-hpke-ohttp boxes them (`Box<SenderContext>`, `Box<suite::Sealer>`, ...).
//!
//! What the check leaves out: copies in memory the value no longer occupies, such as the stack
//! slots of the temporaries a value was built in or moved out of (a move is a copy whose source
//! is forgotten, not wiped). Safe Rust cannot wipe a moved-from place, and the crates forbid
//! `unsafe`; such slots are reused by the next calls on the same stack.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use typed_hpke::aead::{Aead, Aes128Gcm, ChaCha20Poly1305};
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake256};
use typed_hpke::kem::{
    AuthKem, DhKemP256HkdfSha256, DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768, MlKem768P256, XWing,
};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{Hpke, OsRng};

/// The block being watched (0: none) and what its check found.
static WATCHED: AtomicUsize = AtomicUsize::new(0);
static STATE: Mutex<Option<Watch>> = Mutex::new(None);
/// One watch at a time: the tests in this file run one after another.
static SERIAL: Mutex<()> = Mutex::new(());

struct Watch {
    snapshot: Vec<u8>,
    needles: Vec<Vec<u8>>,
    /// Filled at deallocation: which needles were still there, and how many bytes went from
    /// non-zero to zero.
    left: Vec<bool>,
    wiped: usize,
    freed: bool,
}

struct Watching;

// SAFETY: every method forwards to `System` unchanged. `dealloc` additionally reads the block
// it is about to free, which is still allocated and `layout.size()` bytes long (bytes a value
// left uninitialised, its padding, are read as they are: this check is about what is left in
// memory, whatever the type says of it); it does not
// allocate (the vectors it writes to were sized when the watch began), and it takes the state
// lock with `try_lock` so that a deallocation made while the lock is held cannot deadlock.
unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ptr as usize == WATCHED.load(Ordering::SeqCst)
            && let Ok(mut state) = STATE.try_lock()
            && let Some(watch) = state.as_mut()
        {
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            inspect(watch, block);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static WATCHING: Watching = Watching;

/// The length of a secret's fragment the freed block is searched for.
const FRAGMENT: usize = 8;

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn inspect(watch: &mut Watch, block: &[u8]) {
    let n = block.len().min(watch.snapshot.len());
    watch.wiped = (0..n)
        .filter(|&i| watch.snapshot[i] != 0 && block[i] == 0)
        .count();
    // Any 8-byte window of a secret anywhere in the block, not only the whole secret where it
    // sat: a fragment (a stale partial copy, a half-wiped key) is a leak too.
    for (left, needle) in watch.left.iter_mut().zip(&watch.needles) {
        *left = needle
            .windows(FRAGMENT)
            .any(|w| block.windows(FRAGMENT).any(|b| b == w));
    }
    watch.freed = true;
}

/// Boxes `value`, watches its block, drops it, and checks the block as it was freed: every
/// needle (each must be in the block while the value lives) is gone, and at least `min_wiped`
/// bytes went from non-zero to zero.
#[track_caller]
fn dropped_clean<T>(what: &str, value: T, needles: &[&[u8]], min_wiped: usize) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let boxed = Box::new(value);
    let addr = &*boxed as *const T as usize;
    // SAFETY: `boxed` is a live allocation of `size_of::<T>()` bytes at `addr` (padding read
    // as it is, as in `dealloc`).
    let snapshot =
        unsafe { std::slice::from_raw_parts(addr as *const u8, size_of::<T>()) }.to_vec();
    for needle in needles {
        assert!(
            contains(&snapshot, needle),
            "{what}: the test's secret form ({} bytes) is not in the live value",
            needle.len()
        );
    }
    *STATE.lock().unwrap() = Some(Watch {
        snapshot,
        needles: needles.iter().map(|n| n.to_vec()).collect(),
        left: vec![false; needles.len()],
        wiped: 0,
        freed: false,
    });
    WATCHED.store(addr, Ordering::SeqCst);
    drop(boxed);
    WATCHED.store(0, Ordering::SeqCst);
    let watch = STATE.lock().unwrap().take().unwrap();
    assert!(watch.freed, "{what}: the watched block was not freed");
    for (i, left) in watch.left.iter().enumerate() {
        assert!(
            !left,
            "{what}: a fragment ({FRAGMENT} bytes) of secret form {i} is in the block after drop"
        );
    }
    assert!(
        watch.wiped >= min_wiped,
        "{what}: {} bytes wiped, at least {min_wiped} expected",
        watch.wiped
    );
}

fn nsk<K: Kem>() -> usize {
    K::NSk::USIZE
}

/// A DH-KEM private key, typed and runtime: its scalar is wiped. X25519 and X448 keep the
/// scalar as its bytes (the serialization), the Weierstrass curves in Montgomery form
/// (the count of wiped bytes shows it went).
fn dh_key<K: Kem>(scalar_is_bytes: bool) {
    let (sk, _) = K::derive_key_pair(b"zeroize observed, a DH key").unwrap();
    let bytes = sk.to_bytes().to_vec();
    let needles: Vec<&[u8]> = if scalar_is_bytes {
        vec![&bytes]
    } else {
        vec![]
    };
    let min = nsk::<K>() * 3 / 4;
    let name = format!("{:#06x}", K::ID);
    dropped_clean(&format!("PrivateKey<{name}>"), sk.clone(), &needles, min);
    let runtime = typed_hpke::suite::PrivateKey::from(sk);
    dropped_clean(&format!("suite::PrivateKey {name}"), runtime, &needles, min);
}

#[test]
fn dh_private_keys() {
    dh_key::<DhKemX25519HkdfSha256>(true);
    dh_key::<DhKemX448HkdfSha512>(true);
    dh_key::<DhKemP256HkdfSha256>(cfg!(feature = "aws-lc-rs"));
    dh_key::<DhKemSecp256k1HkdfSha256>(false);
}

/// ML-KEM-768: the seed is `Zeroizing`; the expanded key pair (more than 2 KiB of secret
/// vector and `z`) is overwritten by `DecapKey`'s `Drop`.
#[test]
fn ml_kem_private_keys() {
    let (sk, _) = MlKem768::derive_key_pair(b"zeroize observed, ML-KEM").unwrap();
    let seed = sk.to_bytes().to_vec();
    dropped_clean("PrivateKey<MlKem768>", sk.clone(), &[&seed], 2048);
    let runtime = typed_hpke::suite::PrivateKey::from(sk);
    dropped_clean("suite::PrivateKey MlKem768", runtime, &[&seed], 2048);
}

/// The hybrids: the seed, the ML-KEM half as above, and the traditional scalar, which
/// `HybridPrivateKey`'s `Drop` wipes. For X-Wing the scalar is computable: the last 32 bytes of
/// `SHAKE256(seed, 96)` (draft-connolly-cfrg-xwing-kem, `expandDecapsulationKey`), kept as they
/// are (X25519 clamps inside).
#[test]
fn hybrid_private_keys() {
    use shake::digest::{ExtendableOutput, Update, XofReader};
    let (sk, _) = XWing::derive_key_pair(b"zeroize observed, X-Wing").unwrap();
    let seed = sk.to_bytes().to_vec();
    let mut expanded = [0u8; 96];
    let mut xof = shake::Shake256::default();
    xof.update(&seed);
    xof.finalize_xof().read(&mut expanded);
    let mut scalar = [0u8; 32];
    scalar.copy_from_slice(&expanded[64..]);
    dropped_clean("PrivateKey<XWing>", sk.clone(), &[&seed, &scalar], 2048);
    let runtime = typed_hpke::suite::PrivateKey::from(sk);
    dropped_clean("suite::PrivateKey XWing", runtime, &[&seed, &scalar], 2048);

    let (sk, _) = MlKem768P256::derive_key_pair(b"zeroize observed, hybrid").unwrap();
    let seed = sk.to_bytes().to_vec();
    dropped_clean("PrivateKey<MlKem768P256>", sk, &[&seed], 2048 + 24);
}

#[test]
fn shared_secrets() {
    fn run<K: Kem>() {
        let (_, pk) = K::derive_key_pair(b"zeroize observed, encap").unwrap();
        let (ss, _) = K::encap(&mut OsRng::default(), &pk).unwrap();
        let bytes = ss.as_bytes().to_vec();
        dropped_clean(&format!("SharedSecret {:#06x}", K::ID), ss, &[&bytes], 24);
    }
    run::<DhKemX25519HkdfSha256>();
    run::<DhKemP256HkdfSha256>();
    run::<MlKem768>();
    run::<XWing>();
}

/// What a key's holder answers is secret too: a `DhAnswer` (the Diffie-Hellman values a
/// `DhRequest` asked for, receiver and Auth sender) and a `Decapsulated` (the shared secret a
/// decapsulating holder returned) are wiped on drop.
#[test]
fn holders_answers() {
    use typed_hpke::kem::{Decapsulated, DhRequest};
    type X = DhKemX25519HkdfSha256;
    let (sk_r, pk_r) = X::derive_key_pair(b"zeroize observed, holder r").unwrap();
    let (sk_s, pk_s) = X::derive_key_pair(b"zeroize observed, holder s").unwrap();
    let dh = |sk: &typed_hpke::PrivateKey<X>, peer: &[u8]| {
        let sk =
            x25519_dalek::StaticSecret::from(<[u8; 32]>::try_from(&sk.to_bytes()[..]).unwrap());
        let peer = x25519_dalek::PublicKey::from(<[u8; 32]>::try_from(peer).unwrap());
        *sk.diffie_hellman(&peer).as_bytes()
    };
    let (_, enc) = X::auth_encap(&mut OsRng::default(), &pk_r, &sk_s).unwrap();
    let request = DhRequest::auth_decap(&enc, &pk_r, &pk_s).unwrap();
    let dh_e = dh(&sk_r, enc.as_bytes());
    let dh_s = dh(&sk_r, pk_s.as_bytes());
    let answer = request.answer(&[&dh_e, &dh_s]).unwrap();
    dropped_clean("DhAnswer (receiver)", answer, &[&dh_e, &dh_s], 48);
    let answer = DhRequest::auth_encap(&pk_s, &pk_r)
        .answer(&[&dh_s])
        .unwrap();
    dropped_clean("DhAnswer (sender)", answer, &[&dh_s], 24);

    let (sk, pk) = MlKem768::derive_key_pair(b"zeroize observed, decapsulated").unwrap();
    let (_, enc) = MlKem768::encap(&mut OsRng::default(), &pk).unwrap();
    let secret = MlKem768::decap(&enc, &sk).unwrap().as_bytes().to_vec();
    let key = Decapsulated::new(&enc, &secret).unwrap();
    dropped_clean("Decapsulated", key, &[&secret], 24);
}

/// The AEAD key and base nonce a context was keyed with, from the key schedule of the shared
/// secret `enc` carries (RFC 9180 §5.1).
fn context_secrets<K: Kem, F: Kdf, A: Aead>(
    sk: &typed_hpke::PrivateKey<K>,
    enc: &[u8],
    info: &[u8],
) -> (Vec<u8>, Vec<u8>) {
    let enc = typed_hpke::EncappedKey::<K>::from_bytes(enc).unwrap();
    let ss = K::decap(&enc, sk).unwrap();
    let values =
        Hpke::<K, F, A>::key_schedule_for_testing_only(0, ss.as_bytes(), info, None).unwrap();
    (
        values.key.as_slice().to_vec(),
        values.base_nonce.as_slice().to_vec(),
    )
}

/// Drops a context keyed from `enc`. Typed: its base nonce, and its AEAD key where the AEAD
/// keeps the key's bytes (ChaCha20 as is; AES's first round key is the key), must be gone.
/// Runtime: the same, searched the same way (see the module docs for the filling that makes
/// that possible).
fn context_dropped<K: Kem, F: Kdf, A: Aead, T>(
    what: &str,
    context: T,
    (sk, enc, info): (&typed_hpke::PrivateKey<K>, &[u8], &[u8]),
    key_in_memory: bool,
) {
    let (key, nonce) = context_secrets::<K, F, A>(sk, enc, info);
    let mut needles: Vec<&[u8]> = vec![&nonce];
    if key_in_memory {
        needles.push(&key);
    }
    dropped_clean(what, context, &needles, nonce.len() / 2);
}

/// Sender and receiver contexts, typed and runtime. `AeadState`'s `Drop` wipes the base nonce;
/// the keyed cipher wipes itself.
fn contexts<F: Kdf, A: Aead>(aead_id: u16, key_in_memory: bool) {
    type K = DhKemX25519HkdfSha256;
    let info = b"zeroize observed";
    let (sk, pk) = K::derive_key_pair(b"zeroize observed, contexts").unwrap();
    let mut rng = OsRng::default();

    let (enc, sender) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
    let receiver = Hpke::<K, F, A>::setup_receiver_base(&enc, &sk, info).unwrap();
    let keyed = (&sk, enc.as_bytes(), &info[..]);
    context_dropped::<K, F, A, _>("typed sender", sender, keyed, key_in_memory);
    context_dropped::<K, F, A, _>("typed receiver", receiver, keyed, key_in_memory);
    // A runtime context converted from a typed one: the case that kept a stale nonce.
    let (enc, sender) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &pk, info).unwrap();
    let receiver = Hpke::<K, F, A>::setup_receiver_base(&enc, &sk, info).unwrap();
    let keyed = (&sk, enc.as_bytes(), &info[..]);
    let (sender, receiver): (suite::SenderContext, suite::ReceiverContext) =
        (sender.into(), receiver.into());
    context_dropped::<K, F, A, _>("runtime sender from typed", sender, keyed, key_in_memory);
    context_dropped::<K, F, A, _>(
        "runtime receiver from typed",
        receiver,
        keyed,
        key_in_memory,
    );

    let suite = Suite::new(K::ID, F::ID, aead_id).unwrap();
    let (enc, sender) = suite
        .setup_sender(&mut rng, &pk.to_bytes()[..], info, SenderMode::Base)
        .unwrap();
    let receiver = suite
        .setup_receiver(enc.as_bytes(), &sk.to_bytes()[..], info, ReceiverMode::Base)
        .unwrap();
    let keyed = (&sk, enc.as_bytes(), &info[..]);
    context_dropped::<K, F, A, _>("runtime sender", sender, keyed, key_in_memory);
    context_dropped::<K, F, A, _>("runtime receiver", receiver, keyed, key_in_memory);
}

#[test]
fn context_keys_and_nonces() {
    contexts::<HkdfSha256, ChaCha20Poly1305>(0x0003, true);
    contexts::<Shake256, ChaCha20Poly1305>(0x0003, true);
    contexts::<HkdfSha256, Aes128Gcm>(0x0001, !cfg!(feature = "aws-lc-rs"));
}

/// `typed_hpke::symmetric`'s `Sealer` / `Opener` and their runtime twins: the base nonce (and
/// ChaCha20's key, kept as its bytes) gone from the value when it is dropped.
#[test]
fn symmetric_keys_and_nonces() {
    use typed_hpke::suite;
    use typed_hpke::symmetric::{Opener, Prk, Sealer};
    let prk = Prk::<HkdfSha256>::extract(b"salt", &[b"zeroize observed, symmetric"]);
    let (mut key, mut nonce) = ([0u8; 32], [0u8; 12]);
    prk.expand(&[b"key"], &mut key).unwrap();
    prk.expand(&[b"nonce"], &mut nonce).unwrap();
    let needles: [&[u8]; 2] = [&key, &nonce];
    let sealer = Sealer::<ChaCha20Poly1305>::from_prk(prk, b"key", b"nonce").unwrap();
    dropped_clean("typed sealer", sealer, &needles, 0);
    let opener = Opener::<ChaCha20Poly1305>::new(&key.into(), &nonce.into());
    dropped_clean("typed opener", opener, &needles, 0);
    let runtime =
        suite::Prk::extract(HkdfSha256::ID, b"salt", &[b"zeroize observed, symmetric"]).unwrap();
    let sealer = suite::Sealer::from_prk(ChaCha20Poly1305::ID, runtime, b"key", b"nonce").unwrap();
    dropped_clean("runtime sealer", sealer, &needles, 0);
    let opener = suite::Opener::new(ChaCha20Poly1305::ID, &key, &nonce).unwrap();
    dropped_clean("runtime opener", opener, &needles, 0);
}

/// The padding of aws-lc-rs's keyed AEAD, under its feature ([`no_stale_bytes`]).
const AWS_LC_PADDING: usize = if cfg!(feature = "aws-lc-rs") { 8 } else { 0 };

/// The byte the stack is dirtied with before a value is built: a stand-in for whatever secret
/// the stack held there.
const STALE: u8 = 0xa5;

/// Writes [`STALE`] over 64 KiB of stack, where the next calls' frames will be, and returns.
#[inline(never)]
fn dirty_the_stack() {
    let mut buf = [STALE; 64 * 1024];
    std::hint::black_box(&mut buf);
}

/// How many bytes of a value built on a dirtied stack still hold the stack's bytes: those in
/// runs of four or more [`STALE`] bytes (a run that long in written data is a 1-in-2^32
/// chance). Each is a byte nothing wrote: padding, or an enum's bytes past a smaller variant.
/// Whatever the stack held there, a secret's copy included, goes wherever the value goes and
/// no `Drop` reaches it.
fn stale_bytes<T>(build: impl FnOnce() -> T) -> usize {
    dirty_the_stack();
    let boxed = Box::new(std::hint::black_box(build()));
    // SAFETY: `boxed` is a live allocation of `size_of::<T>()` bytes; padding is read as it
    // is, as in `dealloc` above.
    let bytes =
        unsafe { std::slice::from_raw_parts(&*boxed as *const T as *const u8, size_of::<T>()) };
    let mut stale = 0;
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        run = if b == STALE { run + 1 } else { 0 };
        let run_ends = b != STALE || i + 1 == bytes.len();
        if run_ends {
            let len = if b == STALE {
                run
            } else {
                run_before(bytes, i)
            };
            if len >= 4 {
                stale += len;
            }
        }
    }
    stale
}

/// The length of the run of [`STALE`] bytes that ends just before `i`.
fn run_before(bytes: &[u8], i: usize) -> usize {
    bytes[..i].iter().rev().take_while(|&&b| b == STALE).count()
}

/// Every runtime value that holds a secret, built on a dirtied stack, holds none of the
/// stack's bytes: its enums are laid out so that every byte is a field's (`src/layout.rs`),
/// `AeadState` and graviola's keyed cipher have no padding, ML-KEM's expanded key pair enum is
/// laid out the same way, and the HKDF and one-stage exporters and PRKs hold no hash block
/// buffer (`hmac`'s and the XOFs' are `MaybeUninit` until data arrives). Before, a runtime
/// context kept 23 bytes of the stack, a runtime sealer 12, a runtime PRK 215 and an ML-KEM
/// private key 30 (typed and runtime alike).
///
/// Under the `aws-lc-rs` feature a point kept aws-lc's parsed key in a `OnceLock`, whose slot
/// is `MaybeUninit` until filled: 32 bytes of the stack in every public key and in every private
/// key's own point (where an X25519 scalar's fragment was found, `dh_private_keys`). It is now
/// an enum of `layout`'s kind.
///
/// Left: under the `aws-lc-rs` feature aws-lc-rs's own keyed AEAD (`LessSafeKey`, an enum of
/// its making) has 8 bytes of padding, which this crate cannot lay out; they are allowed there,
/// and nowhere else. aws-lc-rs's agreement `PrivateKey` (an enum: a tag and a pointer) has 7
/// bytes of padding this crate cannot lay out either. They hold what aws-lc-rs's own frames left
/// there, not the dirtied stack's bytes, so this count does not see them; they are shorter than
/// the fragments `dropped_clean` looks for.
#[test]
#[allow(
    clippy::absurd_extreme_comparisons,
    reason = "AWS_LC_PADDING is 0 without the aws-lc-rs feature"
)]
fn no_stale_bytes() {
    type K = DhKemX25519HkdfSha256;
    let (sk, pk) = K::derive_key_pair(b"zeroize observed, stale").unwrap();
    let mut rng = OsRng::default();
    for (kdf, aead) in [
        (HkdfSha256::ID, Aes128Gcm::ID),
        (HkdfSha256::ID, 0x0002),
        (HkdfSha256::ID, ChaCha20Poly1305::ID),
        (Shake256::ID, 0xffff),
    ] {
        let suite = Suite::new(K::ID, kdf, aead).unwrap();
        let (enc, _) = suite
            .setup_sender(&mut rng, &pk.to_bytes()[..], b"", SenderMode::Base)
            .unwrap();
        let sk_bytes = sk.to_bytes();
        let receiver = || {
            suite
                .setup_receiver(enc.as_bytes(), &sk_bytes[..], b"", ReceiverMode::Base)
                .unwrap()
        };
        let allowed = if aead == 0xffff { 0 } else { AWS_LC_PADDING };
        let stale = stale_bytes(receiver);
        assert!(stale <= allowed, "runtime context {aead:#06x}: {stale}");
    }
    for (aead, nk) in [(0x0001, 16), (0x0002, 32), (0x0003, 32)] {
        let key = [1u8; 32];
        let sealer = || suite::Sealer::new(aead, &key[..nk], &[2u8; 12]).unwrap();
        let stale = stale_bytes(sealer);
        assert!(
            stale <= AWS_LC_PADDING,
            "runtime sealer {aead:#06x}: {stale}"
        );
        let opener = || suite::Opener::new(aead, &key[..nk], &[2u8; 12]).unwrap();
        let stale = stale_bytes(opener);
        assert!(
            stale <= AWS_LC_PADDING,
            "runtime opener {aead:#06x}: {stale}"
        );
    }
    let x25519 = || suite::PrivateKey::from(sk.clone());
    assert_eq!(stale_bytes(x25519), 0, "runtime X25519 key");
    let (ml_kem, _) = MlKem768::derive_key_pair(b"zeroize observed, stale").unwrap();
    let ml_kem = || suite::PrivateKey::from(ml_kem.clone());
    assert_eq!(stale_bytes(ml_kem), 0, "runtime ML-KEM-768 key");
    // A public key holds no secret, but bytes of the stack past a smaller key would ride in it.
    let public = || suite::PublicKey::from(pk.clone());
    assert_eq!(stale_bytes(public), 0, "runtime X25519 public key");
    for kdf in [HkdfSha256::ID, HkdfSha384::ID, HkdfSha512::ID] {
        let prk = || suite::Prk::extract(kdf, b"salt", &[b"ikm"]).unwrap();
        assert_eq!(stale_bytes(prk), 0, "runtime PRK {kdf:#06x}");
    }
    let (ml_kem, _) = MlKem768::derive_key_pair(b"zeroize observed, stale, typed").unwrap();
    let typed = || ml_kem.clone();
    assert_eq!(stale_bytes(typed), 0, "typed ML-KEM-768 key");
}
