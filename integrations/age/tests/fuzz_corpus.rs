//! The kept corpora of the fuzz targets (`fuzz/corpus/<target>`), replayed through the targets'
//! bodies in the ordinary test build: every input that once found new code still holds the
//! target's properties.

/// Runs `body` on every file of `fuzz/corpus/<target>`, which must hold at least `min`.
fn replay(target: &str, body: fn(&[u8]), min: usize) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the kept corpus") {
        body(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(
        n >= min,
        "{target}: {n} corpus files: the corpus is missing"
    );
}

#[test]
fn stanzas_corpus() {
    replay("stanzas", typed_hpke_age::fuzzing::stanzas, 50);
}

#[test]
fn recipients_corpus() {
    replay("recipients", typed_hpke_age::fuzzing::recipients, 20);
}
