//! The graviola backend (feature `graviola`, without `aws-lc-rs`): X25519, P-256 and P-384, the
//! AEADs, and the CPU check in front of every call.
//!
//! graviola asserts on entry to every function that the CPU has the instructions it uses, and
//! panics if not. Every graviola call in this crate is therefore behind [`available`], which
//! asks graviola's own `is_cpu_supported` first, once, and sends the call to the pure-Rust code
//! when it says no: a `graviola` build runs everywhere its target runs, on graviola where it
//! can. Asking graviola, rather than keeping a copy of its list, means a graviola release that
//! needs another instruction cannot make this crate call it on a CPU without it (the list was
//! copied once, with the dependency pinned to keep it true).

#[cfg(any(feature = "aes-gcm", feature = "chacha20poly1305"))]
pub(crate) mod aead;
#[cfg(feature = "nist")]
pub(crate) mod nist;
#[cfg(feature = "x25519")]
pub(crate) mod x25519;

use std::sync::LazyLock;

/// Whether the CPU has everything graviola requires, as graviola says, checked once.
/// (valgrind does not report ADX, valgrind bug 494162, though it runs the instructions:
/// graviola built with `VALGRIND_BUG_494162` set skips that requirement, as `ct/run`
/// builds it.)
static SUPPORTED: LazyLock<bool> = LazyLock::new(::graviola::util::is_cpu_supported);

/// Whether graviola may be called: the CPU supports it (and, in this crate's unit tests,
/// the test has not asked for the fallback with [`without`]).
pub(crate) fn available() -> bool {
    #[cfg(test)]
    if FALLBACK.with(core::cell::Cell::get) {
        return false;
    }
    *SUPPORTED
}

#[cfg(test)]
std::thread_local! {
    static FALLBACK: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Runs `f` on this thread as on a CPU without graviola's instructions (unit tests only).
#[cfg(test)]
pub(crate) fn without<T>(f: impl FnOnce() -> T) -> T {
    FALLBACK.with(|c| c.set(true));
    let out = f();
    FALLBACK.with(|c| c.set(false));
    out
}
