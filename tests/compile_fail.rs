//! Misuse that must not compile, one fixture per class, each with the compiler's message
//! checked (`tests/compile_fail/*.stderr`). Regenerate the messages after a deliberate API or
//! toolchain change with `TRYBUILD=overwrite cargo test --features hazmat,serde --test
//! compile_fail` (and, for the second directory, the same without `--features`), and read the
//! diff.
//!
//! `tests/compile_fail_without_hazmat/` holds one fixture per entry point the `hazmat` feature
//! adds (the sequence-number setters typed and runtime, each deterministic setup,
//! `key_schedule_for_testing_only`, each `hazmat` function): without the feature each fails on
//! its one line that names the entry point (the last, or for a `hazmat` function its `use`),
//! and with it each builds and runs (`tests/hazmat_entry_points.rs`). The messages read the same on Rust 1.94 and on stable, so
//! CI runs them with 1.94 and its build.
//!
//! `tests/compile_fail/sealed_*.rs` show that the engine methods (deterministic encapsulation,
//! the raw key schedule and export, AEAD keying and nonce-taking sealing, raw DH) cannot be
//! called from outside the crate: not on the type, not through a generic bound, not through the
//! hidden engine type. They fail with `hazmat` on as well, which is the stronger statement.

#[test]
fn misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
    // Built without `hazmat` only (`.ci/run` runs this file without features): what the
    // feature adds does not exist without it. With the feature the same files build and run
    // (`tests/hazmat_entry_points.rs`, an ordinary test), so each fails without it on its one
    // line that names a `hazmat` entry point, not on anything else.
    #[cfg(not(feature = "hazmat"))]
    t.compile_fail("tests/compile_fail_without_hazmat/*.rs");
}
