//! The comparative bench: typed-hpke against every peer (hpke-ng, rust-hpke, hpke-rs with both
//! providers, rustls' aws-lc-rs HPKE), with a limit and a floor per row, by paired rounds.
//!
//! ```text
//! cargo bench --features comparative --ignore-rust-version --bench compare [-- FILTER ...]
//! ```
//!
//! `--ignore-rust-version`: hpke-ng 0.2 declares rust-version 1.96. The bench itself, its peers
//! and its method are `typed-hpke-measure`'s (`measure/src/compare.rs`), the unpublished member
//! whose dependencies the peers are; the `comparative` feature turns them on, and this file runs
//! it. Its environment variables (`COMPARE_QUICK`, `COMPARE_OUT`, `COMPARE_RERUN`, ...) are
//! documented there; `BENCHMARKS.md` is made from its results.

fn main() {
    typed_hpke_measure::compare::main();
}
