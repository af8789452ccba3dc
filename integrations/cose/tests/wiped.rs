//! A private COSE_Key's secret is wiped on every path `PrivateCoseKey::from_cbor` can fail on
//! after it has read the secret: a global allocator scans each block freed during the call for
//! any 8-byte window of the secret. Before, a COSE_Key whose `d` was followed by a duplicate
//! label, too many labels or trailing bytes freed the parsed `d` as it was.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ciborium::Value;
use typed_hpke_cose::{Algorithm, Error, MAX_HEADER_LABELS, PrivateCoseKey};

/// Needles (each up to 64 bytes) looked for in freed blocks while `ARMED`.
static NEEDLES: Mutex<[([u8; 64], usize); 1]> = Mutex::new([([0; 64], 0); 1]);
static ARMED: AtomicBool = AtomicBool::new(false);
static FOUND: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());
const WINDOW: usize = 8;

struct Scanner;

// SAFETY: every method forwards to `System` unchanged; `dealloc` first reads the block it is
// about to free (allocated, `layout.size()` bytes), allocates nothing, and takes the lock
// with `try_lock` so a deallocation under the lock cannot deadlock.
unsafe impl GlobalAlloc for Scanner {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ARMED.load(Ordering::SeqCst)
            && let Ok(needles) = NEEDLES.try_lock()
        {
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            for (needle, len) in needles.iter() {
                if needle[..*len]
                    .windows(WINDOW)
                    .any(|w| block.windows(WINDOW).any(|b| b == w))
                {
                    FOUND.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static SCANNER: Scanner = Scanner;

/// Runs `parse` with the scanner looking for `secret`; returns what `parse` returned and how
/// many freed blocks held a piece of it.
fn scanned<T>(secret: &[u8], parse: impl FnOnce() -> T) -> (T, usize) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut needles = NEEDLES.lock().unwrap();
        for ((needle, len), bytes) in needles.iter_mut().zip([secret]) {
            needle[..bytes.len()].copy_from_slice(bytes);
            *len = bytes.len();
        }
    }
    FOUND.store(0, Ordering::SeqCst);
    ARMED.store(true, Ordering::SeqCst);
    let out = parse();
    ARMED.store(false, Ordering::SeqCst);
    (out, FOUND.load(Ordering::SeqCst))
}

/// A CBOR map's entries.
type Entries = Vec<(Value, Value)>;

#[test]
fn private_cose_key_errors_leave_no_secret() {
    let mut rng = typed_hpke_cose::OsRng::default();
    let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng).unwrap();
    let other = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng).unwrap();
    let secret = key.key().to_bytes().to_vec();
    let cbor = key.to_cbor().unwrap().to_vec();
    let decode = |b: &[u8]| -> Value { ciborium::de::from_reader(b).unwrap() };
    let encode = |v: &Value| {
        let mut out = Vec::new();
        ciborium::ser::into_writer(v, &mut out).unwrap();
        out
    };
    let edited = |f: &dyn Fn(&mut Entries)| {
        let mut v = decode(&cbor);
        let Value::Map(m) = &mut v else {
            panic!("a COSE_Key is a map")
        };
        f(m);
        encode(&v)
    };
    let set = |m: &mut Entries, label: i64, value: Value| {
        for entry in m.iter_mut() {
            if entry.0 == Value::from(label) {
                entry.1 = value.clone();
            }
        }
    };
    let other_x = other.public_key().key().as_bytes().to_vec();
    let cases: Vec<(&str, Vec<u8>, Error)> = vec![
        (
            "a duplicate label after d",
            edited(&|m| m.push((Value::from(-4), Value::Bytes(vec![1])))),
            Error::DuplicateLabel,
        ),
        (
            "too many labels",
            edited(&|m| {
                for i in m.len()..=MAX_HEADER_LABELS {
                    m.push((Value::from(100 + i as i64), Value::Null));
                }
            }),
            Error::TooLarge,
        ),
        (
            "bytes after the map",
            [&cbor[..], &[0]].concat(),
            Error::Malformed("bytes after the CBOR item"),
        ),
        (
            "an array, not a map",
            edited(&|_| {}).iter().fold(vec![0x81], |mut a, b| {
                a.push(*b);
                a
            }),
            Error::Malformed("header is not a map"),
        ),
        (
            "another key's x",
            edited(&|m| set(m, -2, Value::Bytes(other_x.clone()))),
            Error::InvalidKey,
        ),
        (
            "d one byte short",
            edited(&|m| set(m, -4, Value::Bytes(secret[..31].to_vec()))),
            Error::InvalidKey,
        ),
    ];
    for (what, input, expected) in cases {
        let (result, found) = scanned(&secret, || PrivateCoseKey::from_cbor(&input).map(drop));
        assert_eq!(result, Err(expected), "{what}");
        assert_eq!(found, 0, "{what}: freed blocks held the private key");
    }
    // The scanner sees a secret that is freed unwiped.
    let (_, found) = scanned(&secret, || drop(secret.clone()));
    assert!(found > 0);
}
