//! Loading the published test-vector files (RFC 9180 field layout).

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The repository's `test-vectors/`: the published files, byte-identical copies (the largest
/// gzipped), and the generated ones. The library's tests find it beside their manifest; the
/// measuring member's (`measure/`, which includes this file) one directory up.
pub fn repo_vectors_dir() -> PathBuf {
    // Cargo sets CARGO_MANIFEST_DIR when it runs a test, so the directory is found where the
    // repository is now, not where the binary was built.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    let root = if manifest.ends_with("measure") {
        manifest.join("..")
    } else {
        manifest
    };
    root.join("test-vectors")
}

/// Where the published vector files are read from: `$HPKE_TEST_VECTORS` if set (to run the
/// same tests against another copy), else the repository's `test-vectors/`. A missing file
/// fails the test, loudly: a vector suite that cannot find its vectors must never pass by
/// running nothing.
pub fn vectors_dir() -> PathBuf {
    std::env::var_os("HPKE_TEST_VECTORS").map_or_else(repo_vectors_dir, PathBuf::from)
}

pub fn read_vector_file<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    read_json(&vectors_dir(), name)
}

/// The vectors this repository generates (`examples/generate-vectors.rs`), in `test-vectors/`.
pub fn read_generated_file<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    read_json(&repo_vectors_dir(), name)
}

/// The bytes of `dir/name`, or of `dir/name.gz` decompressed when only that exists.
pub fn read_vector_bytes(dir: &Path, name: &str) -> Vec<u8> {
    let plain = dir.join(name);
    if plain.exists() {
        return std::fs::read(&plain)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", plain.display()));
    }
    let gz = dir.join(format!("{name}.gz"));
    let file = std::fs::File::open(&gz).unwrap_or_else(|e| {
        panic!(
            "cannot read test vector file {} (nor {}): {e}. The published vectors live in the \
             repository's test-vectors/; HPKE_TEST_VECTORS, if set, must name a directory \
             holding them.",
            plain.display(),
            gz.display()
        )
    });
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
    out
}

fn read_json<T: for<'de> Deserialize<'de>>(dir: &Path, name: &str) -> T {
    let bytes = read_vector_bytes(dir, name);
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// Hex-encoded bytes in a vector file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hex(pub Vec<u8>);

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        hex::decode(&s).map(Hex).map_err(serde::de::Error::custom)
    }
}

impl std::ops::Deref for Hex {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

#[derive(Debug, Deserialize)]
pub struct Encryption {
    pub seq: Option<u64>,
    pub aad: Hex,
    pub ct: Hex,
    pub nonce: Hex,
    pub pt: Hex,
}

#[derive(Debug, Deserialize)]
pub struct Export {
    pub exporter_context: Hex,
    #[serde(rename = "L")]
    pub len: usize,
    pub exported_value: Hex,
}

/// One vector in the RFC 9180 layout; fields some files lack are optional.
#[derive(Debug, Deserialize)]
pub struct Vector {
    pub name: Option<String>,
    pub mode: u8,
    pub kem_id: u16,
    pub kdf_id: u16,
    pub aead_id: u16,
    pub info: Hex,
    #[serde(rename = "ikmR")]
    pub ikm_r: Hex,
    #[serde(rename = "ikmE")]
    pub ikm_e: Hex,
    #[serde(rename = "ikmS")]
    pub ikm_s: Option<Hex>,
    #[serde(rename = "skRm")]
    pub sk_rm: Hex,
    #[serde(rename = "skEm")]
    pub sk_em: Option<Hex>,
    #[serde(rename = "skSm")]
    pub sk_sm: Option<Hex>,
    #[serde(rename = "pkRm")]
    pub pk_rm: Hex,
    #[serde(rename = "pkEm")]
    pub pk_em: Option<Hex>,
    #[serde(rename = "pkSm")]
    pub pk_sm: Option<Hex>,
    pub psk: Option<Hex>,
    pub psk_id: Option<Hex>,
    pub enc: Hex,
    pub shared_secret: Hex,
    pub key_schedule_context: Option<Hex>,
    pub secret: Option<Hex>,
    pub key: Hex,
    pub base_nonce: Hex,
    pub exporter_secret: Hex,
    #[serde(default)]
    pub encryptions: Vec<Encryption>,
    #[serde(default)]
    pub exports: Vec<Export>,
    pub rejected_candidate_counter0: Option<Hex>,
    pub suite_id: Option<Hex>,
}

impl Vector {
    pub fn label(&self) -> String {
        format!(
            "{}mode {} kem {:#06x} kdf {:#06x} aead {:#06x}",
            self.name
                .as_deref()
                .map(|n| format!("{n}: "))
                .unwrap_or_default(),
            self.mode,
            self.kem_id,
            self.kdf_id,
            self.aead_id
        )
    }
}
