// Cargo resolves [build-dependencies] (the proc macros' syn and proc-macro2) only for a package
// with a build script; this one does nothing else.
fn main() {}
