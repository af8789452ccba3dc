//! typed-hpke-mls-rs against mls-rs' stock RustCrypto provider (`mls-rs-crypto-rustcrypto`,
//! whose HPKE is `mls-rs-crypto-hpke`), by the paired rounds of the workspace's comparative
//! bench (`typed_hpke_support::driver`).
//!
//! ```text
//! cargo bench -p typed-hpke-mls-rs --bench mls_rs [-- FILTER ...]
//! ```
//!
//! Rows, on suite 1 (X25519, AES-128-GCM) and suite 2 (P-256), each provider against the
//! other on the same suite:
//! - `welcome/100`: one commit adding 100 members (`CommitBuilder::add_member` x 100, `build`):
//!   100 `hpke_seal`s of the group secrets to 100 key packages, the committer's path, the
//!   signatures, the Welcome. The committer's pending commit is cleared after each.
//! - `commit/path/64`: an update commit with a path in a group of 64 members: `kem_derive` of
//!   every node key on the committer's path and an `hpke_seal` of each path secret to the
//!   copath's resolution.
//! - `hpke_open`, `hpke_seal`, `kem_derive`: the provider calls themselves (a Welcome's group
//!   secrets are about 100 bytes; `hpke_open` is given the key pair as mls-rs stores it).
//!
//! And the draft-ietf-mls-pq-ciphersuites X-Wing suite (TBD1: suite 1's primitives with X-Wing)
//! on this provider against suite 1 on the stock provider, which has no post-quantum suite:
//! what moving a group to X-Wing costs, not a like-for-like ratio.
//!
//! The statistic is `driver`'s: per round each provider runs one batch, in an order rotated
//! from round to round, with the batch sized so ours lasts `MLS_BATCH_MS` (default 20); the
//! ratio ours / theirs per round gives a median and a distribution-free 95% confidence
//! interval over `MLS_ROUNDS` (default 21) rounds. `MLS_QUICK=1` runs three rounds of short
//! batches: a check that the bench still runs.

use driver::{Job, TYPED, timed};
use mls_rs::client_builder::MlsConfig;
use mls_rs::identity::SigningIdentity;
use mls_rs::identity::basic::{BasicCredential, BasicIdentityProvider};
use mls_rs::{CipherSuite, CipherSuiteProvider, Client, CryptoProvider, Group, MlsMessage};
use mls_rs_core::crypto::{HpkePublicKey, HpkeSecretKey};
use typed_hpke_mls_rs::{DraftPqSuite, RustCryptoProvider, TypedHpkeProvider};
use typed_hpke_support::driver;

/// Counted allocations, for the driver's allocation column.
#[global_allocator]
static COUNTING: driver::Counting = driver::Counting;

const PEER: &str = "mls-rs-crypto-rustcrypto 0.23";
/// The code point this bench gives the X-Wing draft suite.
const XWING: CipherSuite = CipherSuite::new(0xF0A1);

fn ours() -> TypedHpkeProvider {
    TypedHpkeProvider::new(RustCryptoProvider::default())
        .with_draft_pq_suite(XWING, DraftPqSuite::MlKem768X25519Aes128GcmSha256Ed25519)
        .unwrap()
}

fn client<P: CryptoProvider + Clone>(
    provider: P,
    name: &str,
    cs: CipherSuite,
) -> Client<impl MlsConfig> {
    let suite = provider.cipher_suite_provider(cs).unwrap();
    let (secret, public) = suite.signature_key_generate().unwrap();
    let credential = BasicCredential::new(name.as_bytes().to_vec()).into_credential();
    Client::builder()
        .identity_provider(BasicIdentityProvider)
        .crypto_provider(provider)
        .signing_identity(SigningIdentity::new(credential, public), secret, cs)
        .build()
}

fn key_packages<P: CryptoProvider + Clone>(
    provider: P,
    cs: CipherSuite,
    n: usize,
) -> Vec<MlsMessage> {
    (0..n)
        .map(|i| {
            client(provider.clone(), &format!("member {i}"), cs)
                .generate_key_package_message(Default::default(), Default::default(), None)
                .unwrap()
        })
        .collect()
}

/// A group of `n` members made by `provider`'s client, the others only in its tree.
fn group<P: CryptoProvider + Clone>(
    provider: P,
    cs: CipherSuite,
    n: usize,
) -> Group<impl MlsConfig> {
    let mut g = client(provider.clone(), "committer", cs)
        .group_builder()
        .unwrap()
        .build()
        .unwrap();
    let mut commit = g.commit_builder();
    for kp in key_packages(provider, cs, n - 1) {
        commit = commit.add_member(kp).unwrap();
    }
    commit.build().unwrap();
    g.apply_pending_commit().unwrap();
    g
}

fn welcome_job<P: CryptoProvider + Clone + 'static>(
    provider: P,
    cs: CipherSuite,
    kps: Vec<MlsMessage>,
) -> Job {
    let mut g = group(provider, cs, 1);
    timed(move || {
        let mut commit = g.commit_builder();
        for kp in &kps {
            commit = commit.add_member(kp.clone()).unwrap();
        }
        let out = commit.build().unwrap();
        g.clear_pending_commit();
        out.welcome_messages.len()
    })
}

fn path_job<P: CryptoProvider + Clone + 'static>(provider: P, cs: CipherSuite, n: usize) -> Job {
    let mut g = group(provider, cs, n);
    timed(move || {
        let out = g.commit(vec![]).unwrap();
        g.clear_pending_commit();
        out.commit_message
    })
}

/// `hpke_open` of a 100-byte message (a Welcome's group secrets) sealed to a derived key pair.
fn open_job<P: CryptoProvider + 'static>(provider: P, cs: CipherSuite) -> Job {
    let s = provider.cipher_suite_provider(cs).unwrap();
    let (sk, pk): (HpkeSecretKey, HpkePublicKey) = s.kem_derive(&[7; 32]).unwrap();
    let ct = s.hpke_seal(&pk, b"info", None, &[1; 100]).unwrap();
    timed(move || s.hpke_open(&ct, &sk, &pk, b"info", None).unwrap())
}

fn seal_job<P: CryptoProvider + 'static>(provider: P, cs: CipherSuite) -> Job {
    let s = provider.cipher_suite_provider(cs).unwrap();
    let (_, pk) = s.kem_derive(&[7; 32]).unwrap();
    timed(move || s.hpke_seal(&pk, b"info", None, &[1; 100]).unwrap())
}

fn derive_job<P: CryptoProvider + 'static>(provider: P, cs: CipherSuite) -> Job {
    let s = provider.cipher_suite_provider(cs).unwrap();
    timed(move || s.kem_derive(&[7; 32]).unwrap())
}

fn main() {
    let config = driver::integration_config("MLS");
    let quick = std::env::var_os("MLS_QUICK").is_some();
    let (welcome_n, path_n) = if quick { (4, 4) } else { (100, 64) };
    driver::integration_header("typed-hpke-mls-rs", PEER);

    let mut rows: Vec<driver::IntegrationRow> = Vec::new();
    let suites = [
        (
            "x25519",
            CipherSuite::CURVE25519_AES128,
            CipherSuite::CURVE25519_AES128,
        ),
        ("p256", CipherSuite::P256_AES128, CipherSuite::P256_AES128),
        (
            "x-wing (stock: x25519)",
            XWING,
            CipherSuite::CURVE25519_AES128,
        ),
    ];
    for (name, cs, peer_cs) in suites {
        rows.push((
            format!("welcome/{welcome_n}/{name}"),
            Box::new(move || {
                // The key packages are the stock provider's, for the classical suites (any member
                // may add them); of this provider's, for X-Wing.
                let kps = if cs == peer_cs {
                    key_packages(RustCryptoProvider::default(), cs, welcome_n)
                } else {
                    key_packages(ours(), cs, welcome_n)
                };
                let peer_kps = key_packages(RustCryptoProvider::default(), peer_cs, welcome_n);
                vec![
                    (TYPED, welcome_job(ours(), cs, kps)),
                    (
                        PEER,
                        welcome_job(RustCryptoProvider::default(), peer_cs, peer_kps),
                    ),
                ]
            }),
        ));
        rows.push((
            format!("commit/path/{path_n}/{name}"),
            Box::new(move || {
                vec![
                    (TYPED, path_job(ours(), cs, path_n)),
                    (
                        PEER,
                        path_job(RustCryptoProvider::default(), peer_cs, path_n),
                    ),
                ]
            }),
        ));
        type Make = fn(TypedHpkeProvider, CipherSuite) -> Job;
        type MakePeer = fn(RustCryptoProvider, CipherSuite) -> Job;
        let calls: [(&str, Make, MakePeer); 3] = [
            ("hpke_open", open_job, open_job),
            ("hpke_seal", seal_job, seal_job),
            ("kem_derive", derive_job, derive_job),
        ];
        for (call, make, make_peer) in calls {
            rows.push((
                format!("{call}/{name}"),
                Box::new(move || {
                    vec![
                        (TYPED, make(ours(), cs)),
                        (PEER, make_peer(RustCryptoProvider::default(), peer_cs)),
                    ]
                }),
            ));
        }
    }
    driver::run_integration_rows(&config, rows);
}
