//! Nothing to call. This unpublished member exists for its manifest: it asks, for the crates
//! that several of the workspace's debug builds share, for the union of the features those
//! builds ask for, so that every build resolves them alike and cargo compiles each once
//! (`Cargo.toml` says which builds, and `generate.py` how the list is made).
#![no_std]
#![forbid(unsafe_code)]
