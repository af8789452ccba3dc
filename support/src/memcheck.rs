//! Valgrind client requests (valgrind.h, memcheck.h), issued with the amd64 "special
//! instruction" sequence: four rotations of `rdi` that add up to 128 bits (a no-op on real
//! hardware) followed by `xchg rbx, rbx`. Valgrind recognises the sequence and answers the
//! request whose arguments `rax` points at, leaving the result in `rdx`; natively `rdx` keeps
//! the default, so every request is harmless outside valgrind.

/// `VG_USERREQ__RUNNING_ON_VALGRIND` (valgrind.h).
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// `VG_USERREQ__COUNT_ERRORS` (valgrind.h): errors reported so far, suppressed ones excluded.
const COUNT_ERRORS: usize = 0x1201;
/// `VG_USERREQ_TOOL_BASE('M', 'C')` (memcheck.h).
const MEMCHECK_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`.
const MAKE_MEM_UNDEFINED: usize = MEMCHECK_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`.
const MAKE_MEM_DEFINED: usize = MEMCHECK_BASE + 2;

#[cfg(target_arch = "x86_64")]
fn request(default: usize, req: usize, a1: usize, a2: usize) -> usize {
    let args: [usize; 6] = [req, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: the rotations restore `rdi` (3 + 13 + 61 + 51 = 128 = 2 * 64) and `xchg rbx, rbx`
    // changes nothing; under valgrind the request reads `args`, which lives across the asm.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _req: usize, _a1: usize, _a2: usize) -> usize {
    default
}

/// Whether the program runs under valgrind (natively, and on other targets, false).
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// The number of errors valgrind has reported so far (suppressed ones are not counted).
pub fn errors() -> usize {
    request(0, COUNT_ERRORS, 0, 0)
}

/// Marks `bytes` secret: memcheck reports any branch or address that depends on them. Takes
/// `&mut` so that the compiler must assume the request changed the bytes and reload them: with
/// a shared reference it could go on using values it computed before (constants, for a test
/// input), which carry no mark. With
/// `CT_UNMARKED` set in the environment nothing is marked: what memcheck reports then has
/// nothing to do with a secret (a diagnostic, for sorting reports; `ct/run` never sets it).
pub fn secret(bytes: &mut [u8]) {
    static UNMARKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *UNMARKED.get_or_init(|| std::env::var_os("CT_UNMARKED").is_some()) {
        return;
    }
    request(0, MAKE_MEM_UNDEFINED, bytes.as_ptr() as usize, bytes.len());
}

/// Declares `bytes` public (valgrind's "defined"): for values a peer sees anyway, such as an
/// encapsulated key, a ciphertext, or a public key. Only ever on such bytes, never on a
/// structure that also holds a secret.
pub fn public(bytes: &[u8]) {
    request(0, MAKE_MEM_DEFINED, bytes.as_ptr() as usize, bytes.len());
}
