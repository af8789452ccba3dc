//! Writes seed inputs for the fuzz targets into `corpus/<target>/`, built from the published
//! vector files in `../test-vectors/` in each target's input layout (`src/lib.rs`): valid keys,
//! encapsulations, ciphertexts, PSKs, infos and export requests of every KEM, so a campaign
//! starts from inputs that parse. Run from `fuzz/`, then minimise each corpus:
//!
//! ```sh
//! cargo run --example seed_corpora
//! RUSTC_BOOTSTRAP=1 cargo fuzz cmin -O <target>
//! ```
//!
//! Seeds are named by a hash of their content, so running it again adds nothing twice.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use serde_json::Value;

/// `for_each_kem_family!`'s selector for a `kem_id`: its place in the library's list.
fn selector(kem_id: u64) -> Option<u8> {
    typed_hpke_fuzz::selector_of(u16::try_from(kem_id).ok()?)
}

fn hex(v: &Value, key: &str) -> Option<Vec<u8>> {
    hex::decode(v.get(key)?.as_str()?).ok()
}

/// A one-byte length prefix and up to 255 bytes, as `Input::slice` reads them.
fn slice(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len().min(255);
    out.push(n as u8);
    out.extend_from_slice(&bytes[..n]);
}

type Seeds = BTreeMap<&'static str, BTreeSet<Vec<u8>>>;

fn add(seeds: &mut Seeds, target: &'static str, input: Vec<u8>) {
    seeds.entry(target).or_default().insert(input);
}

/// `serde` seeds for a key of kind `kind` (0 private, 1 public, 2 enc): its JSON hex string,
/// and its CBOR byte string.
fn serde_seeds(seeds: &mut Seeds, sel: u8, kind: u8, bytes: &[u8]) {
    let json = format!("\"{}\"", hex::encode(bytes));
    add(
        seeds,
        "serde",
        [&[sel, kind << 1][..], json.as_bytes()].concat(),
    );
    let mut cbor = vec![sel, (kind << 1) | 1];
    match bytes.len() {
        n @ 0..=23 => cbor.push(0x40 | n as u8),
        n @ 24..=255 => cbor.extend_from_slice(&[0x58, n as u8]),
        n => {
            cbor.push(0x59);
            cbor.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    cbor.extend_from_slice(bytes);
    add(seeds, "serde", cbor);
}

fn with(prefix: &[u8], rest: &[u8]) -> Vec<u8> {
    [prefix, rest].concat()
}

/// Seeds from one test vector object (RFC 9180 layout, as every HPKE vector file has it).
fn hpke_vector(seeds: &mut Seeds, v: &Value) {
    let Some(kem_id) = v.get("kem_id").and_then(Value::as_u64) else {
        return;
    };
    let ids = [
        kem_id,
        v.get("kdf_id").and_then(Value::as_u64).unwrap_or(1),
        v.get("aead_id").and_then(Value::as_u64).unwrap_or(1),
    ];
    let mode = v.get("mode").and_then(Value::as_u64).unwrap_or(0) as u8;
    let get = |k: &str| hex(v, k).unwrap_or_default();
    let (info, enc, ss) = (get("info"), get("enc"), get("shared_secret"));
    let (psk, psk_id) = (get("psk"), get("psk_id"));
    let first = v
        .get("encryptions")
        .and_then(Value::as_array)
        .and_then(|e| e.first());
    let (aad, pt, ct) = first
        .map(|e| (get_in(e, "aad"), get_in(e, "pt"), get_in(e, "ct")))
        .unwrap_or_default();

    if let Some(sel) = selector(kem_id) {
        for k in ["pkRm", "pkEm", "pkSm"] {
            if let Some(b) = hex(v, k) {
                add(seeds, "public_key", with(&[sel], &b));
                serde_seeds(seeds, sel, 1, &b);
            }
        }
        for k in ["skRm", "skEm", "skSm"] {
            if let Some(b) = hex(v, k) {
                add(seeds, "private_key", with(&[sel], &b));
                serde_seeds(seeds, sel, 0, &b);
            }
        }
        for k in ["ikmR", "ikmE", "ikmS"] {
            if let Some(b) = hex(v, k) {
                add(seeds, "derive_key_pair", with(&[sel], &b));
            }
        }
        if !enc.is_empty() {
            add(seeds, "encapped_key", with(&[sel], &enc));
            add(seeds, "decap", with(&[sel], &enc));
            serde_seeds(seeds, sel, 2, &enc);
            // open: KEM selector, then mode bits (bit 0 PSK, bit 7 auth), enc, aad, info, ct.
            let bits = (mode & 1) | if mode >= 2 { 0x80 } else { 0 };
            let mut o = vec![sel, bits];
            o.extend_from_slice(&enc);
            slice(&mut o, &aad);
            slice(&mut o, &info);
            o.extend_from_slice(&ct);
            add(seeds, "open", o);
        }
        if let (Some(pk), Some(ikm_e)) = (hex(v, "pkRm"), hex(v, "ikmE")) {
            add(seeds, "prepared", [&[sel][..], &pk, &ikm_e].concat());
        }
    }

    // key_schedule: mode, PSK flag, psk, psk_id, shared secret, info.
    let mut k = vec![mode, u8::from(!psk.is_empty())];
    slice(&mut k, &psk);
    slice(&mut k, &psk_id);
    slice(&mut k, &ss);
    k.extend_from_slice(&info);
    add(seeds, "key_schedule", k);

    // suite: raw ids in this vector's mode, the recipient's key bytes, psk, info, aad, an
    // export length, enc, and the first ciphertext.
    for key in ["skRm", "pkRm"] {
        let mut s = vec![0x80 | (mode & 3)];
        for id in ids {
            s.extend_from_slice(&(id as u16).to_be_bytes());
        }
        slice(&mut s, &get(key));
        slice(&mut s, &psk);
        slice(&mut s, &info);
        slice(&mut s, &aad);
        s.extend_from_slice(&32u16.to_be_bytes());
        slice(&mut s, &enc);
        s.extend_from_slice(&ct);
        add(seeds, "suite", s);
    }

    // differential: raw ids in this vector's mode with its enc and first ciphertext tried as
    // the arbitrary ones (flags 0x04, 0x08), ikmR, ikmS, info, psk, psk_id, aad, a zero
    // generator seed, the first two exports, then its first plaintext as the messages.
    let mut d = vec![0x80 | 0x0C | (mode & 3)];
    for id in ids {
        d.extend_from_slice(&(id as u16).to_be_bytes());
    }
    for key in ["ikmR", "ikmS", "info", "psk", "psk_id"] {
        slice(&mut d, &get(key));
    }
    slice(&mut d, &aad);
    d.extend_from_slice(&[0; 32]);
    let exports = v.get("exports").and_then(Value::as_array);
    for i in 0..2 {
        let x = exports.and_then(|e| e.get(i));
        slice(
            &mut d,
            &x.map(|x| get_in(x, "exporter_context")).unwrap_or_default(),
        );
        let len = x
            .and_then(|x| x.get("L"))
            .and_then(Value::as_u64)
            .unwrap_or(32) as u16;
        d.extend_from_slice(&len.to_be_bytes());
    }
    slice(&mut d, &enc);
    slice(&mut d, &ct);
    d.extend_from_slice(&[pt.len().min(255) as u8, 0]);
    d.extend_from_slice(&pt);
    add(seeds, "differential", d);

    // export: the exporter contexts and lengths of the vector, on each KDF the target has.
    if let Some(exports) = v.get("exports").and_then(Value::as_array) {
        let mut e = Vec::new();
        for x in exports {
            slice(&mut e, &get_in(x, "exporter_context"));
            let len = x.get("L").and_then(Value::as_u64).unwrap_or(32) as u16;
            e.extend_from_slice(&len.to_be_bytes());
            e.push(0);
        }
        for sel in 0..4u8 {
            add(seeds, "export", with(&[sel], &e));
        }
    }

    // context: info, then a seal/open of the vector's first message, a tampered one, an
    // export and a seal_into.
    for sel in 0..4u8 {
        let mut c = vec![sel];
        slice(&mut c, &info);
        c.push(0);
        slice(&mut c, &aad);
        slice(&mut c, &pt);
        c.push(1);
        slice(&mut c, &aad);
        slice(&mut c, &pt);
        c.extend_from_slice(&[0, 9]);
        c.push(2);
        slice(&mut c, &info);
        c.extend_from_slice(&64u16.to_be_bytes());
        c.push(3);
        slice(&mut c, &pt);
        c.push(64);
        add(seeds, "context", c);
    }
}

fn get_in(v: &Value, key: &str) -> Vec<u8> {
    hex(v, key).unwrap_or_default()
}

/// X-Wing's own vectors (draft-connolly-cfrg-xwing-kem): `sk` is the seed, `ct` the `enc`.
fn xwing_vector(seeds: &mut Seeds, v: &Value) {
    let sel = 9;
    if let Some(pk) = hex(v, "pk") {
        add(seeds, "public_key", with(&[sel], &pk));
    }
    if let Some(sk) = hex(v, "sk") {
        add(seeds, "private_key", with(&[sel], &sk));
    }
    if let Some(ct) = hex(v, "ct") {
        add(seeds, "encapped_key", with(&[sel], &ct));
        add(seeds, "decap", with(&[sel], &ct));
    }
}

fn walk(seeds: &mut Seeds, v: &Value) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| walk(seeds, i)),
        Value::Object(map) => {
            if map.contains_key("kem_id") {
                hpke_vector(seeds, v);
            } else if map.contains_key("eseed") {
                xwing_vector(seeds, v);
            } else {
                map.values().for_each(|i| walk(seeds, i));
            }
        }
        _ => {}
    }
}

/// FNV-1a, 64 bits: a stable name for a seed.
fn name(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("seed-{h:016x}")
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds = Seeds::new();
    let mut files: Vec<_> = std::fs::read_dir(root.join("../test-vectors"))
        .expect("test-vectors/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = if file.ends_with(".json.gz") {
            let mut s = String::new();
            let raw = std::fs::read(&path).expect("read");
            flate2::read::GzDecoder::new(&raw[..])
                .read_to_string(&mut s)
                .expect("gunzip");
            s
        } else if file.ends_with(".json") {
            std::fs::read_to_string(&path).expect("read")
        } else {
            continue;
        };
        walk(&mut seeds, &serde_json::from_str(&text).expect("json"));
    }
    // With target names as arguments, only those corpora are written.
    let only: Vec<String> = std::env::args().skip(1).collect();
    for (target, inputs) in &seeds {
        if !only.is_empty() && !only.iter().any(|t| t == target) {
            continue;
        }
        let dir = root.join("corpus").join(target);
        std::fs::create_dir_all(&dir).expect("mkdir");
        for input in inputs {
            std::fs::write(dir.join(name(input)), input).expect("write");
        }
        println!("{target}: {} seeds", inputs.len());
    }
}
