//! A private JWK's secret is wiped on every path `PrivateJwk::from_json` can fail on after it
//! has read the secret: a global allocator scans each block freed during the call for any
//! 8-byte window of the secret, as raw bytes and as its base64url text. Before, a JWK whose
//! `d` was followed by a duplicate member or trailing bytes freed the parsed `d` as it was.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use base64ct::{Base64UrlUnpadded as B64, Encoding};
use typed_hpke_jose::{Algorithm, Error, PrivateJwk};

/// Needles (each up to 64 bytes) looked for in freed blocks while `ARMED`.
static NEEDLES: Mutex<[([u8; 64], usize); 2]> = Mutex::new([([0; 64], 0); 2]);
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

/// Runs `parse` with the scanner looking for `secret` and its base64url text; returns what
/// `parse` returned and how many freed blocks held a piece of either.
fn scanned<T>(secret: &[u8], parse: impl FnOnce() -> T) -> (T, usize) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let text = B64::encode_string(secret);
    {
        let mut needles = NEEDLES.lock().unwrap();
        for ((needle, len), bytes) in needles.iter_mut().zip([secret, text.as_bytes()]) {
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

#[test]
fn private_jwk_errors_leave_no_secret() {
    let mut rng = typed_hpke_jose::OsRng::default();
    let key = PrivateJwk::generate(Algorithm::HPKE_3, &mut rng).unwrap();
    let other = PrivateJwk::generate(Algorithm::HPKE_3, &mut rng).unwrap();
    let secret = key.key().to_bytes().to_vec();
    let json = key.to_json().unwrap().to_string();
    let d = B64::encode_string(&secret);
    assert!(json.contains(&d));
    let x_other = {
        let o = other.public_jwk().to_json().unwrap();
        let v: serde_json::Value = serde_json::from_str(&o).unwrap();
        v["x"].as_str().unwrap().to_owned()
    };
    let x_ours = {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["x"].as_str().unwrap().to_owned()
    };
    let body = json.trim_end_matches('}');
    let cases: Vec<(&str, String, Error)> = vec![
        (
            "a duplicate member after d",
            format!(r#"{body},"d":"AAAA"}}"#),
            Error::DuplicateMember,
        ),
        (
            "bytes after the object",
            format!("{json} x"),
            Error::Malformed("bytes after the JSON value"),
        ),
        (
            "an array, not an object",
            format!("[{json}]"),
            Error::Malformed("not a JSON object"),
        ),
        (
            "another key's x",
            json.replace(&x_ours, &x_other),
            Error::InvalidKey,
        ),
        (
            "d one byte short",
            json.replace(&d, &B64::encode_string(&secret[..31])),
            Error::InvalidKey,
        ),
    ];
    for (what, input, expected) in cases {
        let (result, found) = scanned(&secret, || PrivateJwk::from_json(&input).map(drop));
        assert_eq!(result, Err(expected), "{what}");
        assert_eq!(found, 0, "{what}: freed blocks held the private key");
    }
    // The scanner sees a secret that is freed unwiped.
    let (_, found) = scanned(&secret, || drop(secret.clone()));
    assert!(found > 0);
}
