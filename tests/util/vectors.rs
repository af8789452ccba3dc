//! Loading the published test-vector files (RFC 9180 field layout).

#![allow(dead_code)]

use std::path::PathBuf;

use serde::Deserialize;

/// Where the vector files are: `$HPKE_TEST_VECTORS`, else `../shared/test-vectors` beside the
/// repository. A missing directory or file fails the test, loudly: a vector suite that cannot
/// find its vectors must never pass by running nothing.
pub fn vectors_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HPKE_TEST_VECTORS") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/test-vectors")
}

pub fn read_vector_file<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    read_json(vectors_dir().join(name))
}

/// The vectors this repository generates (`examples/generate-vectors.rs`), in `test-vectors/`.
pub fn read_generated_file<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    read_json(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("test-vectors")
            .join(name),
    )
}

fn read_json<T: for<'de> Deserialize<'de>>(path: PathBuf) -> T {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read test vector file {}: {e}. Put the vector files in ../shared/test-vectors \
             beside the repository or point HPKE_TEST_VECTORS at their directory.",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
