//! A throwaway SoftHSM2 token, for tests and examples that want a real PKCS#11 token without
//! touching the machine's own.
//!
//! SoftHSM reads the path of its configuration from `SOFTHSM2_CONF` when its module is loaded,
//! and a process cannot safely change its own environment once threads may run; so
//! [`run_with_token`] makes a directory, a configuration and an initialized token
//! (`softhsm2-util --init-token`), runs the current executable again with `SOFTHSM2_CONF`
//! pointing there, removes the directory afterwards and returns the child's exit status. In the
//! child ([`in_token_process`] is `true`) the caller opens the token with [`module`], the label
//! and the PIN it chose.
//!
//! ```no_run
//! use std::process::ExitCode;
//! use typed_hpke_pkcs11::{Token, softhsm};
//!
//! fn main() -> ExitCode {
//!     if !softhsm::in_token_process() {
//!         return softhsm::run_with_token("test", "1234");
//!     }
//!     let token = Token::open(softhsm::module(), "test", "1234").expect("the token");
//!     // ... the tests, against `token`
//!     ExitCode::SUCCESS
//! }
//! ```

use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The token's security officer PIN: these tokens are for tests.
const SO_PIN: &str = "12345678";

/// The SoftHSM2 module: `$PKCS11_MODULE`, or where Debian, Fedora and Homebrew install it.
///
/// # Panics
/// If there is none (install `softhsm2`, or set `PKCS11_MODULE`).
pub fn module() -> PathBuf {
    if let Some(path) = std::env::var_os("PKCS11_MODULE") {
        return path.into();
    }
    [
        "/usr/lib/softhsm/libsofthsm2.so",
        "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
        "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so",
        "/usr/lib64/pkcs11/libsofthsm2.so",
        "/opt/homebrew/lib/softhsm/libsofthsm2.so",
        "/usr/local/lib/softhsm/libsofthsm2.so",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
    .expect("no SoftHSM2 module: install softhsm2 or set PKCS11_MODULE")
}

/// The variable [`run_with_token`] sets for the process it runs beside its token.
const MARKER: &str = "TYPED_HPKE_SOFTHSM_DIR";

/// Whether this process is the one [`run_with_token`] runs beside the token it made (a
/// variable of this crate's says so, not `SOFTHSM2_CONF`, which a machine may set for its own
/// tokens).
pub fn in_token_process() -> bool {
    std::env::var_os(MARKER).is_some()
}

/// A new directory under the system's temporary directory, made by this call (never one that
/// was there, nor a symlink: `mkdir` fails on an existing name, and another is tried) and
/// readable by its owner only (mode 0700 on Unix).
pub(crate) fn private_temp_dir() -> std::io::Result<PathBuf> {
    use std::hash::{BuildHasher, RandomState};
    let base = std::env::temp_dir();
    let mut last = None;
    for attempt in 0u32..16 {
        // std's per-process random hash keys make the name unpredictable; the pid and the
        // attempt keep it unique.
        let noise = RandomState::new().hash_one((std::process::id(), attempt));
        let dir = base.join(format!("typed-hpke-softhsm-{noise:016x}"));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary directory")))
}

/// Makes a token labelled `label` with the user PIN `pin` in a new private temporary
/// directory (made here, mode 0700, its name unpredictable), runs this executable again (same
/// arguments) with `SOFTHSM2_CONF` set to it, removes the directory and returns whether the
/// run succeeded.
///
/// # Panics
/// If the directory cannot be made, or `softhsm2-util` is missing or fails.
pub fn run_with_token(label: &str, pin: &str) -> ExitCode {
    let dir = private_temp_dir().expect("a private temporary directory");
    let tokens = dir.join("tokens");
    std::fs::create_dir(&tokens).expect("token directory");
    let conf = dir.join("softhsm2.conf");
    std::fs::write(
        &conf,
        format!(
            "directories.tokendir = {}\nobjectstore.backend = file\nlog.level = ERROR\n",
            tokens.display()
        ),
    )
    .expect("configuration");
    let init = Command::new("softhsm2-util")
        .args(["--init-token", "--free", "--label", label])
        .args(["--so-pin", SO_PIN, "--pin", pin])
        .env("SOFTHSM2_CONF", &conf)
        .output()
        .expect("softhsm2-util (install softhsm2)");
    assert!(init.status.success(), "softhsm2-util: {init:?}");
    run_child("SOFTHSM2_CONF", &conf, MARKER, &dir)
}

/// Runs this executable again (same arguments) with `config` set to `conf` and `marker` to
/// `dir`, removes `dir` and returns whether the run succeeded.
pub(crate) fn run_child(
    config: &str,
    conf: &std::path::Path,
    marker: &str,
    dir: &std::path::Path,
) -> ExitCode {
    let status = Command::new(std::env::current_exe().expect("this executable"))
        .args(std::env::args_os().skip(1))
        .env(config, conf)
        .env(marker, dir)
        .status()
        .expect("the run with the token");
    let _ = std::fs::remove_dir_all(dir);
    if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
