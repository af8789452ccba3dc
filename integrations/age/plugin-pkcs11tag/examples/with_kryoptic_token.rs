//! Runs a command beside a fresh kryoptic token (PKCS#11 3.2, ML-KEM included), for the
//! command-line tests: `with_kryoptic_token LABEL PIN COMMAND...` initializes the token (through
//! `typed_hpke_pkcs11::kryoptic`, which has the only tool that does: kryoptic ships none), then
//! runs COMMAND with `KRYOPTIC_CONF` naming it and `KRYOPTIC_MODULE` the module, and removes
//! the token afterwards. Exits with COMMAND's status.

use std::process::{Command, ExitCode};

use typed_hpke_pkcs11::kryoptic;

fn main() -> ExitCode {
    if !kryoptic::in_token_process() {
        return kryoptic::run_with_token();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [label, pin, command, rest @ ..] = &args[..] else {
        eprintln!("usage: with_kryoptic_token LABEL PIN COMMAND [ARG...]");
        return ExitCode::FAILURE;
    };
    // Initialized, then closed: the command's processes open the token themselves.
    drop(kryoptic::token(label, pin).expect("a fresh kryoptic token"));
    let status = Command::new(command)
        .args(rest)
        .env("KRYOPTIC_MODULE", kryoptic::module())
        .status()
        .expect("the command runs");
    if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
