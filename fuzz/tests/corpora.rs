//! Every kept corpus (`corpus/<target>/`) replayed through its target's function
//! (`typed_hpke_fuzz::targets`), each file once, as an ordinary test: what the campaigns in
//! `README.md` found stays found, in the workspace's shared debug build, with no sanitizer
//! build. A target panicking on a file fails the test, naming the target and the file.
//!
//! The `differential` target needs the peer crates: `--features differential` replays it too
//! (`.ci/run` does); without the feature `every_binary_is_replayed` says it is left out.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use typed_hpke_fuzz::targets::TARGETS;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `corpus/<target>/`, sorted; a target without a kept corpus fails.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join("corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}: every target keeps a corpus", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
    files
}

/// Runs `f` on every file of the target's corpus; returns the files it panicked on.
fn replay(target: &str, f: fn(&[u8])) -> (usize, Vec<String>) {
    let files = corpus(target);
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if catch_unwind(AssertUnwindSafe(|| f(&data))).is_err() {
            failed.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    (files.len(), failed)
}

#[test]
fn every_kept_corpus_replays_without_a_panic() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for &(target, f) in TARGETS {
        let (n, failed) = replay(target, f);
        report.push(format!("{target}: replayed {n} files"));
        failures.extend(
            failed
                .into_iter()
                .map(|file| format!("corpus/{target}/{file}")),
        );
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "targets panicked on: {failures:#?}");
}

/// The `[[bin]]` names of the fuzz crate's manifest.
fn binaries(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(rest) = line.strip_prefix("name = \"") {
            names.push(rest.trim_end_matches('"').to_owned());
        }
    }
    names
}

#[test]
fn every_binary_is_replayed() {
    let bins = binaries(&fuzz_dir().join("Cargo.toml"));
    assert!(bins.len() >= 16, "{bins:?}");
    let replayed: Vec<_> = TARGETS.iter().map(|&(name, _)| name).collect();
    let missing: Vec<_> = bins
        .iter()
        .filter(|b| !replayed.contains(&b.as_str()))
        .filter(|b| cfg!(feature = "differential") || b.as_str() != "differential")
        .collect();
    assert!(
        missing.is_empty(),
        "fuzz binaries with no replay: {missing:?}"
    );
    let unknown: Vec<_> = replayed
        .iter()
        .filter(|r| !bins.iter().any(|b| b == *r))
        .collect();
    assert!(
        unknown.is_empty(),
        "replayed names with no binary: {unknown:?}"
    );
    if !cfg!(feature = "differential") {
        println!("the differential target's corpus needs --features differential");
    }
}
