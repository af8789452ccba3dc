//! Misuse that must not compile, one fixture per class, each with the compiler's message
//! checked (`tests/compile_fail/*.stderr`). Regenerate the messages after a deliberate API or
//! toolchain change with `TRYBUILD=overwrite cargo test --all-features --test compile_fail`,
//! and read the diff.

#[test]
fn misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
