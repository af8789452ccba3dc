//! The MLS working group's test vectors (mlswg/mls-implementations, `test-vectors/`, copies
//! in `testdata/` with their sha256 in `testdata/README.md`), through the provider, on every
//! suite of them it offers (RFC 9420's 1, 2, 3 and 7 with the default inner provider; the
//! files also hold 4, 5 and 6, which the inner provider lacks):
//!
//! - `crypto-basics.json`: `EncryptWithLabel` decrypted with the file's key (the HPKE, this
//!   provider's), and a fresh encryption to the file's public key opened again;
//!   `ExpandWithLabel`, `DeriveSecret`, `DeriveTreeSecret` and `RefHash` to the file's outputs,
//!   and `SignWithLabel`'s signature verified (the inner provider's, through this one's
//!   delegation; its signing keys are in the inner provider's own format, not the file's).
//! - `welcome.json`: the `Welcome` opened step by step (RFC 9420 §12.4.3.1): the
//!   `EncryptedGroupSecrets` entry for the file's key package found by its reference and
//!   decrypted with `init_priv` by this provider's `hpke_open`, the welcome key and nonce
//!   derived from the joiner secret, the `GroupInfo` decrypted and its signature verified
//!   with `signer_pub`.
//! - `passive-client-welcome.json`: a passive client joins with mls-rs' own `Client` from the
//!   file's key package, its private keys and the `Welcome` (with the file's ratchet tree and
//!   external PSKs where it has them), and reaches the file's epoch authenticator.

#[macro_use]
mod common;

use mls_rs::group::ExportedTree;
use mls_rs::identity::basic::BasicIdentityProvider;
use mls_rs::psk::ExternalPskId;
use mls_rs::storage_provider::in_memory::InMemoryKeyPackageStorage;
use mls_rs::{Client, MlsMessage};
use mls_rs_core::crypto::{
    CipherSuite, CipherSuiteProvider, CryptoProvider, HpkeCiphertext, HpkePublicKey, HpkeSecretKey,
    SignaturePublicKey, SignatureSecretKey,
};
use mls_rs_core::key_package::KeyPackageData;
use serde::Deserialize;
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeCipherSuite, TypedHpkeProvider};

type Suite = TypedHpkeCipherSuite<<RustCryptoProvider as CryptoProvider>::CipherSuiteProvider>;

fn provider() -> TypedHpkeProvider {
    TypedHpkeProvider::new(RustCryptoProvider::default())
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

#[test]
fn files_match_readme_sha256() {
    use typed_hpke::kdf::HkdfSha256;
    use typed_hpke::symmetric::hash;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut listed: Vec<(String, String)> = readme
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells.len() == 4 && cells[2].len() == 66).then(|| {
                (
                    cells[1].trim_matches('`').to_owned(),
                    cells[2].trim_matches('`').to_owned(),
                )
            })
        })
        .collect();
    listed.sort();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "README.md")
        .collect();
    on_disk.sort();
    let names: Vec<&String> = listed.iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        on_disk.iter().collect::<Vec<_>>(),
        "README.md's table"
    );
    for (name, sha) in &listed {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(&hex::encode(hash::<HkdfSha256>(&[&bytes])), sha, "{name}");
    }
}

// --- TLS presentation language (RFC 9420 §2.1.2): variable-length vectors --------------------

/// `opaque x<V>`: the length as RFC 9000 §16's variable-length integer (1, 2 or 4 bytes here).
fn put_v(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    match n {
        0..=63 => out.push(n as u8),
        64..=16383 => out.extend_from_slice(&(0x4000 | n as u16).to_be_bytes()),
        _ => out.extend_from_slice(&(0x8000_0000 | n as u32).to_be_bytes()),
    }
    out.extend_from_slice(bytes);
}

/// A reader over an encoded structure; every read panics past the end (a test input).
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_be_bytes(self.take(2).try_into().unwrap())
    }
    fn u32(&mut self) -> u32 {
        u32::from_be_bytes(self.take(4).try_into().unwrap())
    }
    fn v(&mut self) -> &'a [u8] {
        let first = self.0[0];
        let n = match first >> 6 {
            0 => usize::from(self.u8()),
            1 => usize::from(self.u16() & 0x3fff),
            2 => (self.u32() & 0x3fff_ffff) as usize,
            _ => panic!("a 62-bit length"),
        };
        self.take(n)
    }
    /// How many bytes have been read of `whole`, which this reader started on.
    fn offset_in(&self, whole: &[u8]) -> usize {
        whole.len() - self.0.len()
    }
}

// --- RFC 9420 §5.1.2 / §5.1.3 / §5.2 / §8 ------------------------------------------------------

fn labeled(label: &str) -> Vec<u8> {
    [b"MLS 1.0 ".as_slice(), label.as_bytes()].concat()
}

/// `ExpandWithLabel(secret, label, context, length)`.
#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn expand_with_label(
    cs: &Suite,
    secret: &[u8],
    label: &str,
    context: &[u8],
    length: usize,
) -> Vec<u8> {
    let mut info = (length as u16).to_be_bytes().to_vec();
    put_v(&mut info, &labeled(label));
    put_v(&mut info, context);
    let out = cs.kdf_expand(secret, &info, length).await.unwrap();
    out.to_vec()
}

/// `EncryptContext` (§5.1.3): the HPKE `info` of `EncryptWithLabel`.
fn encrypt_context(label: &str, context: &[u8]) -> Vec<u8> {
    let mut info = Vec::new();
    put_v(&mut info, &labeled(label));
    put_v(&mut info, context);
    info
}

/// `SignContent` (§5.1.2).
fn sign_content(label: &str, content: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_v(&mut out, &labeled(label));
    put_v(&mut out, content);
    out
}

/// `RefHash(label, value)` (§5.2), `label` as given.
#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn ref_hash(cs: &Suite, label: &[u8], value: &[u8]) -> Vec<u8> {
    let mut input = Vec::new();
    put_v(&mut input, label);
    put_v(&mut input, value);
    cs.hash(&input).await.unwrap()
}

// --- crypto-basics ------------------------------------------------------------------------------

#[derive(Deserialize)]
struct Basics {
    cipher_suite: u16,
    derive_secret: DeriveSecret,
    derive_tree_secret: DeriveTreeSecret,
    encrypt_with_label: EncryptWithLabel,
    expand_with_label: ExpandWithLabel,
    ref_hash: RefHash,
    sign_with_label: SignWithLabel,
}

#[derive(Deserialize)]
struct DeriveSecret {
    label: String,
    out: String,
    secret: String,
}

#[derive(Deserialize)]
struct DeriveTreeSecret {
    generation: u32,
    label: String,
    length: usize,
    out: String,
    secret: String,
}

#[derive(Deserialize)]
struct EncryptWithLabel {
    ciphertext: String,
    context: String,
    kem_output: String,
    label: String,
    plaintext: String,
    #[serde(rename = "priv")]
    sk: String,
    #[serde(rename = "pub")]
    pk: String,
}

#[derive(Deserialize)]
struct ExpandWithLabel {
    context: String,
    label: String,
    length: usize,
    out: String,
    secret: String,
}

#[derive(Deserialize)]
struct RefHash {
    label: String,
    out: String,
    value: String,
}

#[derive(Deserialize)]
struct SignWithLabel {
    content: String,
    label: String,
    #[serde(rename = "pub")]
    pk: String,
    signature: String,
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn crypto_basics_case(cs: &Suite, v: &Basics) {
    let label = format!("{:?}", cs.cipher_suite());
    // EncryptWithLabel: the file's ciphertext opens with its key, to its plaintext.
    let e = &v.encrypt_with_label;
    let info = encrypt_context(&e.label, &unhex(&e.context));
    let ct = HpkeCiphertext {
        kem_output: unhex(&e.kem_output),
        ciphertext: unhex(&e.ciphertext),
    };
    let (sk, pk) = (
        HpkeSecretKey::from(unhex(&e.sk)),
        HpkePublicKey::from(unhex(&e.pk)),
    );
    let pt = cs.hpke_open(&ct, &sk, &pk, &info, None).await.unwrap();
    assert_eq!(*pt, unhex(&e.plaintext), "{label}: EncryptWithLabel");
    // ... and another info does not open it; a fresh encryption to the file's key does.
    let wrong = encrypt_context(&e.label, b"another context");
    let refused = cs.hpke_open(&ct, &sk, &pk, &wrong, None).await;
    assert!(refused.is_err(), "{label}: another context");
    let fresh = cs
        .hpke_seal(&pk, &info, None, &unhex(&e.plaintext))
        .await
        .unwrap();
    let pt = cs.hpke_open(&fresh, &sk, &pk, &info, None).await.unwrap();
    assert_eq!(
        *pt,
        unhex(&e.plaintext),
        "{label}: a fresh EncryptWithLabel"
    );

    // The inner provider's primitives, through this provider.
    let x = &v.expand_with_label;
    let out = expand_with_label(
        cs,
        &unhex(&x.secret),
        &x.label,
        &unhex(&x.context),
        x.length,
    )
    .await;
    assert_eq!(out, unhex(&x.out), "{label}: ExpandWithLabel");
    let d = &v.derive_secret;
    let nh = cs.kdf_extract_size();
    let out = expand_with_label(cs, &unhex(&d.secret), &d.label, &[], nh).await;
    assert_eq!(out, unhex(&d.out), "{label}: DeriveSecret");
    let t = &v.derive_tree_secret;
    let generation = t.generation.to_be_bytes();
    let out = expand_with_label(cs, &unhex(&t.secret), &t.label, &generation, t.length).await;
    assert_eq!(out, unhex(&t.out), "{label}: DeriveTreeSecret");
    let r = &v.ref_hash;
    let out = ref_hash(cs, r.label.as_bytes(), &unhex(&r.value)).await;
    assert_eq!(out, unhex(&r.out), "{label}: RefHash");
    let s = &v.sign_with_label;
    let content = sign_content(&s.label, &unhex(&s.content));
    let public = SignaturePublicKey::from(unhex(&s.pk));
    let verified = cs.verify(&public, &unhex(&s.signature), &content).await;
    assert!(verified.is_ok(), "{label}: SignWithLabel's signature");
    let other = sign_content(&s.label, b"other content");
    let verified = cs.verify(&public, &unhex(&s.signature), &other).await;
    assert!(
        verified.is_err(),
        "{label}: SignWithLabel over other content"
    );
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn crypto_basics_all() {
    let cases: Vec<Basics> =
        serde_json::from_str(include_str!("../testdata/crypto-basics.json")).unwrap();
    let provider = provider();
    let mut ran = Vec::new();
    for v in &cases {
        let Some(cs) = provider.cipher_suite_provider(CipherSuite::new(v.cipher_suite)) else {
            continue;
        };
        crypto_basics_case(&cs, v).await;
        ran.push(v.cipher_suite);
    }
    assert_eq!(ran, [1, 2, 3, 7]);
}

#[test]
fn crypto_basics() {
    run!(crypto_basics_all());
}

// --- welcome ------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct WelcomeCase {
    cipher_suite: u16,
    init_priv: String,
    key_package: String,
    signer_pub: String,
    welcome: String,
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn welcome_case(cs: &Suite, v: &WelcomeCase) {
    let label = format!("{:?}", cs.cipher_suite());
    // MLSMessage { version, wire_format = mls_key_package (5), KeyPackage }.
    let message = unhex(&v.key_package);
    let mut r = Reader(&message);
    assert_eq!((r.u16(), r.u16()), (1, 5), "{label}: a key package");
    let key_package = r.0;
    assert_eq!(r.u16(), 1);
    assert_eq!(r.u16(), v.cipher_suite);
    let init_key = HpkePublicKey::from(r.v().to_vec());
    let reference = ref_hash(cs, b"MLS 1.0 KeyPackage Reference", key_package).await;

    // MLSMessage { version, wire_format = mls_welcome (3), Welcome }.
    let message = unhex(&v.welcome);
    let mut r = Reader(&message);
    assert_eq!((r.u16(), r.u16()), (1, 3), "{label}: a Welcome");
    assert_eq!(r.u16(), v.cipher_suite);
    let mut secrets = Reader(r.v());
    let encrypted_group_info = r.v();
    assert!(r.0.is_empty());
    let mut ours = None;
    while !secrets.0.is_empty() {
        let new_member = secrets.v();
        let kem_output = secrets.v().to_vec();
        let ciphertext = secrets.v().to_vec();
        if new_member == reference.as_slice() {
            ours = Some(HpkeCiphertext {
                kem_output,
                ciphertext,
            });
        }
    }
    let ours = ours.expect("an entry for the key package");

    // DecryptWithLabel(init_priv, "Welcome", encrypted_group_info, kem_output, ciphertext).
    let info = encrypt_context("Welcome", encrypted_group_info);
    let init_priv = HpkeSecretKey::from(unhex(&v.init_priv));
    let group_secrets = cs
        .hpke_open(&ours, &init_priv, &init_key, &info, None)
        .await
        .unwrap();
    let mut r = Reader(&group_secrets);
    let joiner_secret = r.v().to_vec();
    if r.u8() == 1 {
        r.v();
    }
    assert!(
        r.v().is_empty(),
        "{label}: the file's Welcomes carry no PSK"
    );
    assert!(r.0.is_empty());

    // §8: member_secret = Extract(joiner_secret, psk_secret = 0); welcome_secret =
    // DeriveSecret(member_secret, "welcome"); §12.4.3.1: the key and nonce from it.
    let nh = cs.kdf_extract_size();
    let member_secret = cs
        .kdf_extract(&joiner_secret, &vec![0u8; nh])
        .await
        .unwrap();
    let welcome_secret = expand_with_label(cs, &member_secret, "welcome", &[], nh).await;
    let key = expand_with_label(cs, &welcome_secret, "key", &[], cs.aead_key_size()).await;
    let nonce = expand_with_label(cs, &welcome_secret, "nonce", &[], cs.aead_nonce_size()).await;
    let group_info = cs
        .aead_open(&key, encrypted_group_info, None, &nonce)
        .await
        .unwrap();

    // GroupInfo { GroupContext, extensions<V>, confirmation_tag<V>, signer, signature<V> },
    // signed as GroupInfoTBS (everything before the signature).
    let mut r = Reader(&group_info);
    assert_eq!(
        (r.u16(), r.u16()),
        (1, v.cipher_suite),
        "{label}: GroupContext"
    );
    r.v(); // group_id
    r.take(8); // epoch
    r.v(); // tree_hash
    r.v(); // confirmed_transcript_hash
    r.v(); // GroupContext's extensions
    r.v(); // GroupInfo's extensions
    r.v(); // confirmation_tag
    r.u32(); // signer
    let tbs = &group_info[..r.offset_in(&group_info)];
    let signature = r.v();
    assert!(r.0.is_empty());
    let public = SignaturePublicKey::from(unhex(&v.signer_pub));
    let verified = cs
        .verify(&public, signature, &sign_content("GroupInfoTBS", tbs))
        .await;
    assert!(verified.is_ok(), "{label}: the GroupInfo's signature");
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn welcome_all() {
    let cases: Vec<WelcomeCase> =
        serde_json::from_str(include_str!("../testdata/welcome.json")).unwrap();
    let provider = provider();
    let mut ran = Vec::new();
    for v in &cases {
        let Some(cs) = provider.cipher_suite_provider(CipherSuite::new(v.cipher_suite)) else {
            continue;
        };
        welcome_case(&cs, v).await;
        ran.push(v.cipher_suite);
    }
    assert_eq!(ran, [1, 2, 3, 7]);
}

#[test]
fn welcome() {
    run!(welcome_all());
}

// --- passive-client-welcome ---------------------------------------------------------------------

#[derive(Deserialize)]
struct Psk {
    psk_id: String,
    psk: String,
}

#[derive(Deserialize)]
struct PassiveCase {
    cipher_suite: u16,
    external_psks: Vec<Psk>,
    key_package: String,
    signature_priv: String,
    encryption_priv: String,
    init_priv: String,
    welcome: String,
    ratchet_tree: Option<String>,
    initial_epoch_authenticator: String,
    epochs: Vec<serde_json::Value>,
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn passive_case(cs: &Suite, v: &PassiveCase) {
    let label = format!("{:?}", cs.cipher_suite());
    let key_package_message = MlsMessage::from_bytes(&unhex(&v.key_package)).unwrap();
    let key_package = key_package_message
        .into_key_package()
        .expect("a key package");
    let reference = key_package.to_reference(cs).await.unwrap();
    let storage = InMemoryKeyPackageStorage::new();
    storage.insert(
        reference.to_vec(),
        KeyPackageData::new(
            unhex(&v.key_package)[4..].to_vec(),
            HpkeSecretKey::from(unhex(&v.init_priv)),
            HpkeSecretKey::from(unhex(&v.encryption_priv)),
            u64::MAX,
        ),
    );
    let mut builder = Client::builder()
        .crypto_provider(provider())
        .identity_provider(BasicIdentityProvider)
        .key_package_repo(storage);
    for psk in &v.external_psks {
        builder = builder.psk(
            ExternalPskId::new(unhex(&psk.psk_id)),
            unhex(&psk.psk).into(),
        );
    }
    let client = builder
        .signing_identity(
            key_package.signing_identity().clone(),
            SignatureSecretKey::from(unhex(&v.signature_priv)),
            cs.cipher_suite(),
        )
        .build();
    let tree = v
        .ratchet_tree
        .as_ref()
        .map(|t| ExportedTree::from_bytes(&unhex(t)).unwrap());
    let welcome = MlsMessage::from_bytes(&unhex(&v.welcome)).unwrap();
    let (group, _) = client.join_group(tree, &welcome, None).await.unwrap();
    assert_eq!(
        group.epoch_authenticator().unwrap().to_vec(),
        unhex(&v.initial_epoch_authenticator),
        "{label}: the epoch authenticator"
    );
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn passive_all() {
    let cases: Vec<PassiveCase> =
        serde_json::from_str(include_str!("../testdata/passive-client-welcome.json")).unwrap();
    let provider = provider();
    let mut ran = 0;
    for v in &cases {
        assert!(
            v.epochs.is_empty(),
            "the welcome file's cases end at the join"
        );
        let Some(cs) = provider.cipher_suite_provider(CipherSuite::new(v.cipher_suite)) else {
            continue;
        };
        passive_case(&cs, v).await;
        ran += 1;
    }
    assert_eq!(ran, 32, "the eight cases of each of suites 1, 2, 3 and 7");
}

#[test]
fn passive_client_welcome() {
    run!(passive_all());
}
