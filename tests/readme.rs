//! The README's facts, checked against the library and its manifest: the primitives table (each
//! row's id is its type's, and every id the library takes has a row), the features table (every
//! feature of the manifest, and which are default), the minimum Rust version, the version in the
//! dependency line and the `rand_core` generation. The README is also the crate's front page on
//! docs.rs (`lib.rs`), so what it states is what a user reads first.
#![cfg(all(
    feature = "x25519",
    feature = "x448",
    feature = "nist",
    feature = "secp256k1",
    feature = "pq",
    feature = "aes-gcm",
    feature = "chacha20poly1305"
))]

use std::collections::BTreeSet;

use typed_hpke::aead::{Aead, ExportOnly};
use typed_hpke::kdf::{HkdfSha256, Kdf};
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem};
use typed_hpke::suite::{AnyKem, Suite, Visitor};

const README: &str = include_str!("../README.md");
const MANIFEST: &str = include_str!("../Cargo.toml");

/// The type names of a suite's KEM, KDF and AEAD, as the compiler writes them.
struct Names;

impl Visitor for Names {
    type Output = [&'static str; 3];
    fn visit<K: Kem, F: Kdf, A: Aead>(self) -> [&'static str; 3] {
        [
            std::any::type_name::<K>(),
            std::any::type_name::<F>(),
            std::any::type_name::<A>(),
        ]
    }
}

/// The backticked words of a table cell.
fn ticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The cells of the README's table rows whose first cell is one of `firsts`.
fn rows<'a>(firsts: &'a [&str]) -> impl Iterator<Item = Vec<&'static str>> + 'a {
    README.lines().filter_map(move |line| {
        let cells: Vec<&str> = line
            .strip_prefix('|')?
            .strip_suffix('|')?
            .split('|')
            .map(str::trim)
            .collect();
        firsts.contains(&cells[0]).then_some(cells)
    })
}

#[test]
fn primitives_table_is_the_library() {
    let x25519 = DhKemX25519HkdfSha256::ID;
    let (mut kems, mut kdfs, mut aeads) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for cells in rows(&["KEM", "KDF", "KDF (one-stage)", "AEAD"]) {
        let [family, ty, id, _] = cells[..] else {
            panic!("a primitives row has four cells: {cells:?}");
        };
        let id = u16::from_str_radix(id.trim_start_matches("0x"), 16).expect("a hex id");
        let (suite, position) = match family {
            "KEM" => (Suite::new(id, HkdfSha256::ID, ExportOnly::ID), 0),
            "AEAD" => (Suite::new(x25519, HkdfSha256::ID, id), 2),
            _ => (Suite::new(x25519, id, ExportOnly::ID), 1),
        };
        let suite = suite.unwrap_or_else(|e| panic!("{family} {id:#06x} ({ty}): {e:?}"));
        let names = suite.visit(Names).unwrap();
        let name = ticked(ty)[0].rsplit("::").next().unwrap();
        let actual = names[position];
        // A DH-KEM's type is an alias, `DhKem<Group>`: `DhKemP256HkdfSha256` is `DhKem<P256>`.
        let same = match name
            .strip_prefix("DhKem")
            .and_then(|n| n.split_once("Hkdf"))
        {
            Some((group, _)) => {
                actual.contains("::DhKem<") && actual.ends_with(&format!("::{group}>"))
            }
            None => actual.ends_with(&format!("::{name}")),
        };
        assert!(
            same,
            "README says {id:#06x} is {name}; the library's is {actual}"
        );
        let fresh = match position {
            0 => kems.insert(id),
            1 => kdfs.insert(id),
            _ => aeads.insert(id),
        };
        assert!(fresh, "{family} {id:#06x} has two rows");
    }
    for id in 0..=u16::MAX {
        assert_eq!(AnyKem::new(id).is_ok(), kems.contains(&id), "KEM {id:#06x}");
        assert_eq!(
            Suite::new(x25519, id, ExportOnly::ID).is_ok(),
            kdfs.contains(&id),
            "KDF {id:#06x}"
        );
        assert_eq!(
            Suite::new(x25519, HkdfSha256::ID, id).is_ok(),
            aeads.contains(&id),
            "AEAD {id:#06x}"
        );
    }
}

/// The manifest's `[features]`: each name, and those a default build has (the default list
/// and the features they turn on, as `std` turns on `alloc`).
fn manifest_features() -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let section = MANIFEST.split("\n[features]\n").nth(1).expect("[features]");
    let section = section.split("\n[").next().unwrap();
    // `name = [ "a", "b/c", "dep:d", ... ]`, over one line or several.
    let mut entries: Vec<(&str, Vec<&str>)> = Vec::new();
    for entry in section.split(']') {
        let Some((name, list)) = entry.split_once(" = [") else {
            continue;
        };
        let name = name.lines().last().unwrap().trim();
        entries.push((name, list.split('"').skip(1).step_by(2).collect()));
    }
    let names: BTreeSet<&str> = entries
        .iter()
        .map(|e| e.0)
        .filter(|n| *n != "default")
        .collect();
    let mut default: BTreeSet<&str> = BTreeSet::from(["default"]);
    loop {
        let before = default.len();
        for (name, list) in &entries {
            if default.contains(name) {
                default.extend(list.iter().filter(|f| names.contains(*f)));
            }
        }
        if default.len() == before {
            break;
        }
    }
    default.remove("default");
    (names, default)
}

#[test]
fn features_table_is_the_manifest() {
    let (names, default) = manifest_features();
    let mut listed = BTreeSet::new();
    // The features table's rows: `| `name`, `name` | yes or no | what it adds |`.
    for line in README.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let is_default = match cells[2] {
            "yes" => true,
            "no" => false,
            _ => continue,
        };
        for name in ticked(cells[1]) {
            assert!(
                names.contains(name),
                "README lists `{name}`, which Cargo.toml has not"
            );
            assert_eq!(
                is_default,
                default.contains(name),
                "default column of `{name}`"
            );
            listed.insert(name);
        }
    }
    assert_eq!(listed, names, "README's features table against Cargo.toml");
}

#[test]
fn versions_are_the_manifests() {
    let msrv = env!("CARGO_PKG_RUST_VERSION");
    assert!(
        README.contains(&format!("\nRust {msrv}, for every feature")),
        "README's minimum Rust version is not {msrv}"
    );
    let version = format!(
        "version = \"{}.{}\"",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    assert!(README.contains(&format!("typed-hpke = {{ {version},")));
    let rand_core = MANIFEST
        .lines()
        .find_map(|l| l.strip_prefix("rand_core = { version = \""))
        .and_then(|l| l.split('"').next())
        .expect("rand_core in Cargo.toml");
    assert!(README.contains(&format!("`rand_core` {rand_core} `CryptoRng`")));
}

/// The README's first screen gives the two commands a newcomer types on a fresh clone, and
/// `.ci/run` runs exactly those lines, read from the README: one source for both.
#[test]
fn the_readmes_commands_are_what_ci_runs() {
    const CI: &str = include_str!("../.ci/run");
    const CONTRIBUTING: &str = include_str!("../CONTRIBUTING.md");
    let lines: Vec<&str> = README.lines().collect();
    let marker = lines
        .iter()
        .position(|l| *l == "<!-- readme-commands -->")
        .expect("the README's commands block");
    assert!(
        marker < 20,
        "the commands are not on the README's first screen"
    );
    assert_eq!(lines[marker + 1], "```sh");
    let end = marker
        + 2
        + lines[marker + 2..]
            .iter()
            .position(|l| *l == "```")
            .unwrap();
    let commands = &lines[marker + 2..end];
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(commands[0].starts_with("cargo run ") && commands[0].contains("--example"));
    assert!(commands[1].starts_with("cargo test"));
    // CI reads them from the README, and states none of its own.
    assert!(CI.contains("/^<!-- readme-commands -->$/"));
    for command in commands {
        let args = command.strip_prefix("cargo ").unwrap();
        assert!(!CI.contains(args), ".ci/run states `{command}` itself");
        assert!(
            CONTRIBUTING.contains(command),
            "CONTRIBUTING.md lacks `{command}`"
        );
    }
}
