//! A throwaway [kryoptic](https://github.com/latchset/kryoptic) token, for tests and examples
//! that want a real PKCS#11 3.2 token: one that keeps X25519 and X448 keys
//! (`CKK_EC_MONTGOMERY`) and ML-KEM keys (`CKK_ML_KEM`, `C_DecapsulateKey`), which SoftHSM2 2.6
//! does not.
//!
//! kryoptic reads the path of its configuration from `KRYOPTIC_CONF` when its module is loaded;
//! as with [`crate::softhsm`], [`run_with_token`] makes a private directory with a
//! configuration naming an sqlite store in it, runs the current executable again with
//! `KRYOPTIC_CONF` pointing there, removes the directory afterwards and returns the child's
//! exit status. In the child ([`in_token_process`] is `true`), [`token`] initializes the
//! empty token (kryoptic has no tool of its own for that: `C_InitToken` and `C_InitPIN`) and
//! opens it.
//!
//! ```no_run
//! use std::process::ExitCode;
//! use typed_hpke_pkcs11::kryoptic;
//!
//! fn main() -> ExitCode {
//!     if !kryoptic::in_token_process() {
//!         return kryoptic::run_with_token();
//!     }
//!     let token = kryoptic::token("test", "1234").expect("the token");
//!     // ... the tests, against `token`
//!     ExitCode::SUCCESS
//! }
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::session::UserType;
use cryptoki::types::AuthPin;

use crate::{Error, Token};

/// The token's security officer PIN: these tokens are for tests.
const SO_PIN: &str = "12345678";

/// The variable [`run_with_token`] sets for the process it runs beside its token.
const MARKER: &str = "TYPED_HPKE_KRYOPTIC_DIR";

/// The kryoptic module: `$KRYOPTIC_MODULE`, or where this repository's
/// `integrations/pkcs11/kryoptic/build.sh` leaves it.
///
/// # Panics
/// If there is neither (run that script, or set `KRYOPTIC_MODULE`).
pub fn module() -> PathBuf {
    if let Some(path) = std::env::var_os("KRYOPTIC_MODULE") {
        return path.into();
    }
    let built =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kryoptic/target/libkryoptic_pkcs11.so");
    assert!(
        built.exists(),
        "no kryoptic module: run integrations/pkcs11/kryoptic/build.sh or set KRYOPTIC_MODULE"
    );
    built
}

/// Whether this process is the one [`run_with_token`] runs beside the token it made.
pub fn in_token_process() -> bool {
    std::env::var_os(MARKER).is_some()
}

/// Makes a new private temporary directory (as [`crate::softhsm::run_with_token`] does) with a
/// kryoptic configuration of one slot stored in it, runs this executable again (same
/// arguments) with `KRYOPTIC_CONF` set to it, removes the directory and returns whether the
/// run succeeded.
///
/// # Panics
/// If the directory or the configuration cannot be written, or the child cannot be run.
pub fn run_with_token() -> ExitCode {
    let dir = crate::softhsm::private_temp_dir().expect("a private temporary directory");
    let conf = dir.join("kryoptic.conf");
    let store = dir.join("token.sql");
    std::fs::write(
        &conf,
        format!(
            "[[slots]]\nslot = 1\ndbtype = \"sqlite\"\ndbargs = \"{}\"\n",
            store.display()
        ),
    )
    .expect("configuration");
    crate::softhsm::run_child("KRYOPTIC_CONF", &conf, MARKER, &dir)
}

/// In the process [`run_with_token`] runs: loads [`module`], initializes its empty token with
/// the label `label` and the user PIN `pin`, and opens it as [`Token::open`] does.
///
/// # Errors
/// [`Error::Pkcs11`] if the module does not load or the token cannot be initialized;
/// [`Error::NotFound`] if the module has no slot with a token.
///
/// # Panics
/// Outside the process [`run_with_token`] runs: `C_InitToken` erases the token it is given,
/// and only there is that token a throwaway one.
pub fn token(label: &str, pin: &str) -> Result<Token, Error> {
    assert!(
        in_token_process(),
        "kryoptic::token initializes (erases) a token: call it in the process run_with_token runs"
    );
    let pkcs11 = Pkcs11::new(module())?;
    pkcs11.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))?;
    let slot = *pkcs11
        .get_slots_with_token()?
        .first()
        .ok_or(Error::NotFound)?;
    let so_pin = AuthPin::new(SO_PIN.into());
    pkcs11.init_token(slot, &so_pin, label)?;
    let session = pkcs11.open_rw_session(slot)?;
    session.login(UserType::So, Some(&so_pin))?;
    session.init_pin(&AuthPin::new(pin.into()))?;
    session.logout()?;
    drop(session);
    Token::with_module(pkcs11, label, pin)
}
