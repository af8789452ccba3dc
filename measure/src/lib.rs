//! typed-hpke-measure: the comparative bench against the other HPKE implementations, whose crates
//! are this member's dependencies, and the pieces typed-hpke's own benches share.
//!
//! With the `comparative` feature (on by default here, and what typed-hpke's own `comparative`
//! feature turns on) it holds [`compare`], the comparative bench that
//! `cargo bench --features comparative` runs from the repository root (`benches/compare.rs`
//! there), and re-exports criterion for the root's criterion bench. Without it the library is
//! empty: typed-hpke names this member as a dev-dependency with its default features off, so the
//! library's own test build compiles none of the peers.

#[cfg(feature = "comparative")]
pub mod compare;

#[cfg(feature = "comparative")]
pub use criterion;
