//! The kept corpus of the `stanzas` fuzz target (`fuzz/corpus/stanzas`), replayed through the
//! target's body in the ordinary test build: every input that once found new code still holds
//! the target's properties.

#[test]
fn stanzas_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/stanzas");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the kept corpus") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        typed_hpke_age::fuzzing::stanzas(&data);
        n += 1;
    }
    assert!(n >= 50, "{n} corpus files: the corpus is missing");
}

/// The `recipients` target's kept corpus (`fuzz/corpus/recipients`), replayed the same way.
#[test]
fn recipients_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/recipients");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the kept corpus") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        typed_hpke_age::fuzzing::recipients(&data);
        n += 1;
    }
    assert!(n >= 20, "{n} corpus files: the corpus is missing");
}
