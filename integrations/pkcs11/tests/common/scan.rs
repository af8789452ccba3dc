//! The freed-block scan, shared by the tests that look for secrets left in freed memory
//! (typed-hpke-pkcs11's token tests; age-plugin-pq's, through `#[path]`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The freed-block scan: while armed, every heap block this process frees is searched for the
/// secrets the token computed (needles), and each hit counted. It sees the Rust heap of this
/// test binary: this crate's buffers and cryptoki's, not a loaded module's own allocator.
struct Scanning;

#[global_allocator]
static ALLOCATOR: Scanning = Scanning;

static ARMED: AtomicBool = AtomicBool::new(false);
static HITS: AtomicUsize = AtomicUsize::new(0);
/// Up to three needles of at most 66 bytes (P-521's `Ndh`), and their lengths.
static NEEDLES: Mutex<([[u8; 66]; 3], [usize; 3])> = Mutex::new(([[0; 66]; 3], [0; 3]));

// SAFETY: every call is passed to `System` unchanged; the scan only reads a block before it
// is freed, and takes no allocation (a `Mutex` of fixed arrays).
unsafe impl GlobalAlloc for Scanning {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ARMED.load(Ordering::Relaxed)
            && let Ok(needles) = NEEDLES.try_lock()
        {
            // SAFETY: the block is `layout.size()` bytes, allocated and not yet freed.
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            for (needle, &len) in needles.0.iter().zip(&needles.1) {
                if len > 0 && block.windows(len).any(|w| w == &needle[..len]) {
                    HITS.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// How many heap blocks freed while `f` runs hold one of `needles` (at most three, each at
/// most 66 bytes).
pub fn freed_blocks_holding(needles: &[&[u8]], f: impl FnOnce()) -> usize {
    {
        let mut set = NEEDLES.lock().unwrap();
        *set = ([[0; 66]; 3], [0; 3]);
        assert!(needles.len() <= 3);
        for (i, needle) in needles.iter().enumerate() {
            set.0[i][..needle.len()].copy_from_slice(needle);
            set.1[i] = needle.len();
        }
    }
    HITS.store(0, Ordering::SeqCst);
    ARMED.store(true, Ordering::SeqCst);
    f();
    ARMED.store(false, Ordering::SeqCst);
    let hits = HITS.load(Ordering::SeqCst);
    *NEEDLES.lock().unwrap() = ([[0; 66]; 3], [0; 3]);
    hits
}
