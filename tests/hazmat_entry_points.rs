//! With `hazmat`, every fixture of `tests/compile_fail_without_hazmat/` builds and runs: each
//! fails without the feature on its one line that names a `hazmat` entry point
//! (`tests/compile_fail.rs`, run without features by `.ci/run`), and this file shows that line
//! is the only thing wrong with it. The fixtures are compiled here as modules of one ordinary
//! test binary (each `main` run as a test), where trybuild's `pass` mode linked and ran twelve
//! binaries of their own.

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        const FIXTURES: &[&str] = &[$(stringify!($name)),*];
        $(
            #[allow(dead_code, unused_imports, unused_variables)]
            mod $name {
                include!(concat!("compile_fail_without_hazmat/", stringify!($name), ".rs"));

                #[test]
                fn builds_and_runs_with_hazmat() {
                    main().unwrap();
                }
            }
        )*
    };
}

fixtures!(
    hazmat_auth_encap_deterministic,
    hazmat_encap_deterministic,
    hazmat_key_schedule_values,
    key_schedule_for_testing_only,
    runtime_receiver_set_sequence_number,
    runtime_sender_set_sequence_number,
    setup_sender_auth_deterministic,
    setup_sender_auth_psk_deterministic,
    setup_sender_base_deterministic,
    setup_sender_psk_deterministic,
    typed_receiver_set_sequence_number,
    typed_sender_set_sequence_number
);

/// No fixture is left out of the list above.
#[test]
fn every_fixture_is_run() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/compile_fail_without_hazmat"
    );
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".rs").map(str::to_owned))
        .collect();
    files.sort();
    let mut listed: Vec<&str> = FIXTURES.to_vec();
    listed.sort();
    assert_eq!(files, listed);
}
