//! Writes known-answer vectors, in the RFC 9180 field layout, for the suites no published
//! vector file covers: PSK mode with every post-quantum KEM and hybrid, ML-KEM-512 beyond the
//! single published vector, every one-stage KDF with every AEAD and every mode, and the P-384
//! auth modes.
//!
//! ```text
//! cargo run --example generate-vectors --features hazmat
//! ```
//!
//! Every input is drawn from a ChaCha20 generator seeded with the vector's own label, so the
//! files are reproducible byte for byte (`.ci/run` regenerates them and checks for a diff).
//! The vectors are not self-certified: `measure/tests/differential.rs` opens every ciphertext and
//! reproduces every export with rust-hpke wherever rust-hpke has the suite, and `tests/kat.rs`
//! runs them like the published files. `test-vectors/README.md` records all of this.

use std::path::PathBuf;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::{
    HkdfSha256, HkdfSha384, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use typed_hpke::kem::{
    AuthKem, DhKemP384HkdfSha384, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256,
    MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, SenderContext};

/// RFC 9180's own inputs (Appendix A): info "Ode on a Grecian Urn", the PSK and "Ellen".
const INFO: &str = "4f6465206f6e2061204772656369616e2055726e";
const PSK: &str = "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82";
const PSK_ID: &str = "456e6e796e20447572696e206172616e204d6f726961";
const PLAINTEXT: &[u8] = b"Beauty is truth, truth beauty";
const ENCRYPTIONS: u64 = 10;
const EXPORTS: &[(&[u8], usize)] = &[
    (b"", 32),
    (&[0x00], 32),
    (b"TestContext", 32),
    (b"TestContext", 1),
    (b"long export", 200),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Base = 0,
    Psk = 1,
    Auth = 2,
    AuthPsk = 3,
}

impl Mode {
    fn name(self) -> &'static str {
        ["base", "psk", "auth", "auth_psk"][self as usize]
    }
}

fn rng_for(label: &str) -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    for (i, b) in label.bytes().enumerate() {
        seed[i % 32] = seed[i % 32].wrapping_mul(31).wrapping_add(b);
    }
    ChaCha20Rng::from_seed(seed)
}

fn random(rng: &mut ChaCha20Rng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// Length of the `ikm` fed to DeriveKeyPair: Nsk for the DH-KEMs (as RFC 9180's vectors do),
/// 32 bytes for the post-quantum KEMs (as draft-ietf-hpke-pq's do).
fn ikm_len<K: Kem>() -> usize {
    if is_dh::<K>() { K::NSk::USIZE } else { 32 }
}

fn is_dh<K: Kem>() -> bool {
    matches!(K::ID, 0x0010..=0x0021)
}

/// Length of `ikmE`: for the DH-KEMs, DeriveKeyPair's ikm; for the PQ KEMs the raw
/// encapsulation randomness (draft-ietf-hpke-pq): ML-KEM's 32-byte `m`, X-Wing's 64-byte
/// `eseed`, and for the NIST hybrids `m` followed by the `Group.Nseed`-byte seed of
/// `Group.RandomScalar` (draft-irtf-cfrg-concrete-hybrid-kems): four 32-byte candidates for
/// P-256, one 48-byte candidate for P-384.
fn ikm_e_len<K: Kem>() -> usize {
    match K::ID {
        0x647a => 64,
        0x0050 => 32 + 4 * 32,
        0x0051 => 32 + 48,
        0x0040..=0x0042 => 32,
        _ => K::NSk::USIZE,
    }
}

struct Setup<K: Kem> {
    ikm_r: Vec<u8>,
    ikm_s: Vec<u8>,
    ikm_e: Vec<u8>,
    sk_r: PrivateKey<K>,
    pk_r: PublicKey<K>,
    sk_s: PrivateKey<K>,
    pk_s: PublicKey<K>,
}

fn setup<K: Kem>(rng: &mut ChaCha20Rng) -> Result<Setup<K>, Error> {
    let ikm_r = random(rng, ikm_len::<K>());
    let ikm_s = random(rng, ikm_len::<K>());
    let ikm_e = random(rng, ikm_e_len::<K>());
    let (sk_r, pk_r) = K::derive_key_pair(&ikm_r)?;
    let (sk_s, pk_s) = K::derive_key_pair(&ikm_s)?;
    Ok(Setup {
        ikm_r,
        ikm_s,
        ikm_e,
        sk_r,
        pk_r,
        sk_s,
        pk_s,
    })
}

/// The fields every vector has, from the KEM's output on.
fn vector<K: Kem, F: Kdf, A: Aead>(
    mode: Mode,
    s: &Setup<K>,
    enc: &EncappedKey<K>,
    shared_secret: &[u8],
    mut ctx: SenderContext<K, F, A>,
    seal: SealFn<K, F, A>,
) -> Result<Value, Error> {
    let info = hex::decode(INFO).expect("hex");
    let psk_bytes = hex::decode(PSK).expect("hex");
    let psk_id = hex::decode(PSK_ID).expect("hex");
    let psk = Psk::new(&psk_bytes, &psk_id)?;
    let has_psk = matches!(mode, Mode::Psk | Mode::AuthPsk);
    let ks = Hpke::<K, F, A>::key_schedule_for_testing_only(
        mode as u8,
        shared_secret,
        &info,
        has_psk.then_some(&psk),
    )?;

    let mut v = Map::new();
    v.insert("mode".into(), json!(mode as u8));
    v.insert("kem_id".into(), json!(K::ID));
    v.insert("kdf_id".into(), json!(F::ID));
    v.insert("aead_id".into(), json!(A::ID));
    v.insert("info".into(), json!(INFO));
    v.insert("ikmR".into(), json!(hex::encode(&s.ikm_r)));
    v.insert("ikmE".into(), json!(hex::encode(&s.ikm_e)));
    v.insert("skRm".into(), json!(hex::encode(&s.sk_r.to_bytes()[..])));
    v.insert("pkRm".into(), json!(hex::encode(s.pk_r.as_bytes())));
    if is_dh::<K>() {
        let (sk_e, pk_e) = K::derive_key_pair(&s.ikm_e)?;
        v.insert("skEm".into(), json!(hex::encode(&sk_e.to_bytes()[..])));
        v.insert("pkEm".into(), json!(hex::encode(pk_e.as_bytes())));
    }
    if matches!(mode, Mode::Auth | Mode::AuthPsk) {
        v.insert("ikmS".into(), json!(hex::encode(&s.ikm_s)));
        v.insert("skSm".into(), json!(hex::encode(&s.sk_s.to_bytes()[..])));
        v.insert("pkSm".into(), json!(hex::encode(s.pk_s.as_bytes())));
    }
    if has_psk {
        v.insert("psk".into(), json!(PSK));
        v.insert("psk_id".into(), json!(PSK_ID));
    }
    v.insert("enc".into(), json!(hex::encode(enc.as_bytes())));
    v.insert("shared_secret".into(), json!(hex::encode(shared_secret)));
    if let Some(c) = &ks.key_schedule_context {
        v.insert(
            "key_schedule_context".into(),
            json!(hex::encode(c.as_slice())),
        );
    }
    if let Some(secret) = &ks.secret {
        v.insert("secret".into(), json!(hex::encode(secret.as_slice())));
    }
    v.insert("key".into(), json!(hex::encode(ks.key.as_slice())));
    v.insert(
        "base_nonce".into(),
        json!(hex::encode(ks.base_nonce.as_slice())),
    );
    v.insert(
        "exporter_secret".into(),
        json!(hex::encode(ks.exporter_secret.as_slice())),
    );

    let mut encryptions = Vec::new();
    for seq in 0..ENCRYPTIONS {
        let aad = format!("Count-{seq}");
        let Some(ct) = seal(&mut ctx, aad.as_bytes(), PLAINTEXT) else {
            break;
        };
        // nonce = base_nonce XOR I2OSP(seq, Nn)   (RFC 9180 §5.2)
        let mut nonce = ks.base_nonce.as_slice().to_vec();
        for (n, s) in nonce.iter_mut().rev().zip(seq.to_be_bytes().iter().rev()) {
            *n ^= s;
        }
        encryptions.push(json!({
            "aad": hex::encode(aad),
            "ct": hex::encode(ct),
            "nonce": hex::encode(nonce),
            "pt": hex::encode(PLAINTEXT),
        }));
    }
    v.insert("encryptions".into(), Value::Array(encryptions));

    let mut exports = Vec::new();
    for &(context, len) in EXPORTS {
        let mut out = vec![0u8; len];
        ctx.export(context, &mut out)?;
        exports.push(json!({
            "exporter_context": hex::encode(context),
            "L": len,
            "exported_value": hex::encode(out),
        }));
    }
    v.insert("exports".into(), Value::Array(exports));
    Ok(Value::Object(v))
}

/// Seal through the context, or nothing for ExportOnly.
type SealFn<K, F, A> = fn(&mut SenderContext<K, F, A>, &[u8], &[u8]) -> Option<Vec<u8>>;

trait Sealer<K: Kem, F: Kdf>: Aead + Sized {
    fn sealer() -> SealFn<K, F, Self>;
}

macro_rules! sealer {
    ($($a:ty),*) => {$(
        impl<K: Kem, F: Kdf> Sealer<K, F> for $a {
            fn sealer() -> SealFn<K, F, Self> {
                |ctx, aad, pt| Some(ctx.seal(aad, pt).expect("seal"))
            }
        }
    )*};
}
sealer!(Aes128Gcm, Aes256Gcm, ChaCha20Poly1305);

impl<K: Kem, F: Kdf> Sealer<K, F> for ExportOnly {
    fn sealer() -> SealFn<K, F, Self> {
        |_, _, _| None
    }
}

fn label<K: Kem, F: Kdf, A: Aead>(mode: Mode) -> String {
    format!(
        "typed-hpke generated {} kem {:#06x} kdf {:#06x} aead {:#06x}",
        mode.name(),
        K::ID,
        F::ID,
        A::ID
    )
}

/// A Base or PSK vector.
fn base_or_psk<K: Kem, F: Kdf, A: Sealer<K, F>>(mode: Mode) -> Result<Value, Error> {
    let s = setup::<K>(&mut rng_for(&label::<K, F, A>(mode)))?;
    let info = hex::decode(INFO).expect("hex");
    let (psk, psk_id) = (
        hex::decode(PSK).expect("hex"),
        hex::decode(PSK_ID).expect("hex"),
    );
    let psk = Psk::new(&psk, &psk_id)?;
    let (ss, enc) = typed_hpke::hazmat::encap_deterministic::<K>(&s.ikm_e, &s.pk_r)?;
    let (enc2, ctx) = match mode {
        Mode::Base => Hpke::<K, F, A>::setup_sender_base_deterministic_for_testing_only(
            &s.ikm_e, &s.pk_r, &info,
        )?,
        Mode::Psk => Hpke::<K, F, A>::setup_sender_psk_deterministic_for_testing_only(
            &s.ikm_e, &s.pk_r, &info, &psk,
        )?,
        Mode::Auth | Mode::AuthPsk => unreachable!("base_or_psk"),
    };
    assert_eq!(enc, enc2);
    vector(mode, &s, &enc, ss.as_bytes(), ctx, A::sealer())
}

/// An Auth or AuthPSK vector.
fn auth<K: AuthKem, F: Kdf, A: Sealer<K, F>>(mode: Mode) -> Result<Value, Error> {
    let s = setup::<K>(&mut rng_for(&label::<K, F, A>(mode)))?;
    let info = hex::decode(INFO).expect("hex");
    let (psk, psk_id) = (
        hex::decode(PSK).expect("hex"),
        hex::decode(PSK_ID).expect("hex"),
    );
    let psk = Psk::new(&psk, &psk_id)?;
    let (ss, enc) = typed_hpke::hazmat::auth_encap_deterministic(&s.ikm_e, &s.pk_r, &s.sk_s)?;
    let (enc2, ctx) = match mode {
        Mode::Auth => Hpke::<K, F, A>::setup_sender_auth_deterministic_for_testing_only(
            &s.ikm_e, &s.pk_r, &info, &s.sk_s,
        )?,
        Mode::AuthPsk => Hpke::<K, F, A>::setup_sender_auth_psk_deterministic_for_testing_only(
            &s.ikm_e, &s.pk_r, &info, &psk, &s.sk_s,
        )?,
        Mode::Base | Mode::Psk => unreachable!("auth"),
    };
    assert_eq!(enc, enc2);
    vector(mode, &s, &enc, ss.as_bytes(), ctx, A::sealer())
}

/// All four modes of one X25519 suite.
fn x25519_all_modes<F: Kdf, A>(out: &mut Vec<Value>) -> Result<(), Error>
where
    A: Sealer<DhKemX25519HkdfSha256, F>,
{
    type K = DhKemX25519HkdfSha256;
    out.push(base_or_psk::<K, F, A>(Mode::Base)?);
    out.push(base_or_psk::<K, F, A>(Mode::Psk)?);
    out.push(auth::<K, F, A>(Mode::Auth)?);
    out.push(auth::<K, F, A>(Mode::AuthPsk)?);
    Ok(())
}

fn x25519_every_aead<F: Kdf>(out: &mut Vec<Value>) -> Result<(), Error> {
    x25519_all_modes::<F, Aes128Gcm>(out)?;
    x25519_all_modes::<F, Aes256Gcm>(out)?;
    x25519_all_modes::<F, ChaCha20Poly1305>(out)?;
    x25519_all_modes::<F, ExportOnly>(out)
}

/// PSK mode with three (KDF, AEAD) pairs, covering both KDF kinds and ExportOnly.
fn pq_psk<K: Kem>(out: &mut Vec<Value>) -> Result<(), Error> {
    out.push(base_or_psk::<K, HkdfSha256, Aes128Gcm>(Mode::Psk)?);
    out.push(base_or_psk::<K, Shake256, ChaCha20Poly1305>(Mode::Psk)?);
    out.push(base_or_psk::<K, HkdfSha384, ExportOnly>(Mode::Psk)?);
    Ok(())
}

fn write(dir: &std::path::Path, name: &str, vectors: &[Value]) {
    let path = dir.join(name);
    let mut text = serde_json::to_string_pretty(vectors).expect("json");
    text.push('\n');
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("wrote {} vectors to {}", vectors.len(), path.display());
}

fn main() -> Result<(), Error> {
    // `cargo run` sets CARGO_MANIFEST_DIR for the process as well; that one is this checkout.
    // The value compiled in names the checkout the binary was built from, which cargo may
    // reuse from another copy of the same sources (CI builds the examples in a clean copy
    // first, in the same build directory).
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    let dir = root.join("test-vectors");

    let mut pq = Vec::new();
    pq_psk::<MlKem512>(&mut pq)?;
    pq_psk::<MlKem768>(&mut pq)?;
    pq_psk::<MlKem1024>(&mut pq)?;
    pq_psk::<XWing>(&mut pq)?;
    pq_psk::<MlKem768P256>(&mut pq)?;
    pq_psk::<MlKem1024P384>(&mut pq)?;
    write(&dir, "generated-pq-psk.json", &pq);

    let mlkem512 = vec![
        base_or_psk::<MlKem512, HkdfSha256, Aes256Gcm>(Mode::Base)?,
        base_or_psk::<MlKem512, Shake128, Aes128Gcm>(Mode::Base)?,
        base_or_psk::<MlKem512, TurboShake256, ChaCha20Poly1305>(Mode::Base)?,
    ];
    write(&dir, "generated-mlkem512.json", &mlkem512);

    let mut one_stage = Vec::new();
    x25519_every_aead::<Shake128>(&mut one_stage)?;
    x25519_every_aead::<Shake256>(&mut one_stage)?;
    x25519_every_aead::<TurboShake128>(&mut one_stage)?;
    x25519_every_aead::<TurboShake256>(&mut one_stage)?;
    write(&dir, "generated-one-stage-kdfs.json", &one_stage);

    type P384 = DhKemP384HkdfSha384;
    let mut p384 = Vec::new();
    for mode in [Mode::Auth, Mode::AuthPsk] {
        p384.push(auth::<P384, HkdfSha384, Aes128Gcm>(mode)?);
        p384.push(auth::<P384, HkdfSha384, Aes256Gcm>(mode)?);
        p384.push(auth::<P384, HkdfSha384, ChaCha20Poly1305>(mode)?);
        p384.push(auth::<P384, HkdfSha384, ExportOnly>(mode)?);
    }
    write(&dir, "generated-p384-auth.json", &p384);
    Ok(())
}
