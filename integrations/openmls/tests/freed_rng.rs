//! The outside review: the stock provider's generator, from which OpenMLS draws every
//! KeyPackage, leaf and path secret, is a ChaCha20 state that nothing wipes, and it went with
//! the provider into freed memory. `OpenMlsTypedHpke` draws from the operating system: a freed
//! provider holds nothing of what it drew (this binary's allocator copies the provider's block
//! as it is freed).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

use openmls_traits::OpenMlsProvider;
use openmls_traits::random::OpenMlsRand;
use typed_hpke_openmls::OpenMlsTypedHpke;

static FREED: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
static ARMED: AtomicBool = AtomicBool::new(false);

struct Recording;

// SAFETY: every call is passed to `System` unchanged; one block of the provider's size is
// copied before it is freed, once, while armed.
unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() == size_of::<OpenMlsTypedHpke>() && ARMED.swap(false, SeqCst) {
            // SAFETY: the block is `layout.size()` bytes, allocated and not yet freed.
            let copy = unsafe { std::slice::from_raw_parts(ptr, layout.size()) }.to_vec();
            FREED.lock().unwrap().push(copy);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Recording = Recording;

#[test]
fn a_freed_provider_holds_nothing_it_drew() {
    let provider = Box::new(OpenMlsTypedHpke::default());
    let drawn: [u8; 32] = provider.rand().random_array().unwrap();
    let more = provider.rand().random_vec(64).unwrap();
    ARMED.store(true, SeqCst);
    drop(provider);
    let freed = FREED.lock().unwrap();
    assert_eq!(freed.len(), 1, "the provider's block was not seen freed");
    assert!(!freed[0].windows(32).any(|w| w == drawn));
    assert!(!freed[0].windows(32).any(|w| w == &more[..32]));
}
