//! What the workspace's benches and harnesses share (CONTRIBUTING.md, "Layout"):
//!
//! - [`driver`]: the comparative bench's rows, fixtures, paired rounds, statistic, counted
//!   allocations and results file, used by `measure`'s bench and the OHTTP, MLS (mls-rs) and age
//!   benches. A bench binary that reports allocations declares
//!   `#[global_allocator] static A: driver::Counting = driver::Counting;` itself.
//! - [`memcheck`]: valgrind's client requests, by which `ct/` and typed-hpke-age's harness
//!   mark secrets undefined.
//!
//! The library's own test helpers stay in `tests/util/` of the crate whose tests use them.

pub mod driver;
pub mod memcheck;
