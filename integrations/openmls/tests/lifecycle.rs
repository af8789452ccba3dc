//! Full MLS group lifecycles (RFC 9420) on OpenMLS with typed-hpke's HPKE, every ciphersuite the
//! provider supports: a creator makes a group and adds two members by Welcome (HPKE seals the
//! group secrets to each KeyPackage's init key, §12.4.3.1), application messages flow every way,
//! a member commits an update with a path (HPKE seals path secrets to the copath, §7.6), one
//! member is removed and can no longer read, the others still can.
//!
//! Mixed groups put the stock `openmls_rust_crypto` provider (HPKE on hpke-rs) beside this one
//! in the same group, both ways round, so typed-hpke's wire output is opened by another HPKE
//! implementation inside the protocol, and the other way.

use openmls::prelude::tls_codec::{Deserialize, Serialize};
use openmls::prelude::*;
use openmls::treesync::LeafNodeParameters;
use openmls_basic_credential::SignatureKeyPair;
use openmls_rust_crypto::OpenMlsRustCrypto;
use openmls_traits::OpenMlsProvider;
use openmls_traits::crypto::OpenMlsCrypto;
use typed_hpke_openmls::{OpenMlsTypedHpke, PqKeyDerivation};

/// A message on the wire: what one member sends and the others parse.
type Wire = Vec<u8>;

fn wire(msg: &MlsMessageOut) -> Wire {
    msg.tls_serialize_detached().unwrap()
}

fn parse(bytes: &[u8]) -> MlsMessageIn {
    MlsMessageIn::tls_deserialize_exact(bytes).unwrap()
}

/// What one group member can do, whatever its provider.
trait Party {
    fn name(&self) -> &str;
    fn provider_name(&self) -> &'static str;
    fn key_package(&self) -> KeyPackage;
    fn create_group(&mut self);
    /// Commits adding `key_packages`: the commit and the Welcome.
    fn add(&mut self, key_packages: &[KeyPackage]) -> (Wire, Wire);
    fn join(&mut self, welcome: &[u8]) -> Result<(), String>;
    fn send(&mut self, text: &[u8]) -> Wire;
    /// Processes a message: an application message's bytes, or `None` for a merged commit.
    fn receive(&mut self, msg: &[u8]) -> Result<Option<Vec<u8>>, String>;
    /// A commit with an update path (a fresh leaf key).
    fn update(&mut self) -> Wire;
    fn remove(&mut self, leaf: LeafNodeIndex) -> Wire;
    fn leaf(&self) -> LeafNodeIndex;
    fn epoch(&self) -> u64;
    fn exported(&self) -> Vec<u8>;
}

struct Member<P: OpenMlsProvider> {
    name: String,
    provider_name: &'static str,
    ciphersuite: Ciphersuite,
    provider: P,
    signer: SignatureKeyPair,
    credential: CredentialWithKey,
    group: Option<MlsGroup>,
}

impl<P: OpenMlsProvider> Member<P> {
    fn new(name: &str, provider_name: &'static str, ciphersuite: Ciphersuite, provider: P) -> Self {
        let signer = SignatureKeyPair::new(ciphersuite.signature_algorithm()).unwrap();
        signer.store(provider.storage()).unwrap();
        let credential = CredentialWithKey {
            credential: BasicCredential::new(name.as_bytes().to_vec()).into(),
            signature_key: signer.to_public_vec().into(),
        };
        Self {
            name: name.into(),
            provider_name,
            ciphersuite,
            provider,
            signer,
            credential,
            group: None,
        }
    }
}

fn join_config() -> MlsGroupJoinConfig {
    MlsGroupJoinConfig::builder()
        .use_ratchet_tree_extension(true)
        .build()
}

impl<P: OpenMlsProvider> Party for Member<P> {
    fn name(&self) -> &str {
        &self.name
    }

    fn provider_name(&self) -> &'static str {
        self.provider_name
    }

    fn key_package(&self) -> KeyPackage {
        KeyPackage::builder()
            .build(
                self.ciphersuite,
                &self.provider,
                &self.signer,
                self.credential.clone(),
            )
            .unwrap()
            .key_package()
            .clone()
    }

    fn create_group(&mut self) {
        let config = MlsGroupCreateConfig::builder()
            .ciphersuite(self.ciphersuite)
            .use_ratchet_tree_extension(true)
            .build();
        let group = MlsGroup::new(
            &self.provider,
            &self.signer,
            &config,
            self.credential.clone(),
        )
        .unwrap();
        self.group = Some(group);
    }

    fn add(&mut self, key_packages: &[KeyPackage]) -> (Wire, Wire) {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let (commit, welcome, _) = group.add_members(provider, signer, key_packages).unwrap();
        group.merge_pending_commit(provider).unwrap();
        (wire(&commit), wire(&welcome))
    }

    fn join(&mut self, welcome: &[u8]) -> Result<(), String> {
        let MlsMessageBodyIn::Welcome(welcome) = parse(welcome).extract() else {
            return Err("not a Welcome".into());
        };
        let staged = StagedWelcome::new_from_welcome(&self.provider, &join_config(), welcome, None)
            .map_err(|e| format!("{e:?}"))?;
        self.group = Some(
            staged
                .into_group(&self.provider)
                .map_err(|e| format!("{e:?}"))?,
        );
        Ok(())
    }

    fn send(&mut self, text: &[u8]) -> Wire {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        wire(&group.create_message(provider, signer, text).unwrap())
    }

    fn receive(&mut self, msg: &[u8]) -> Result<Option<Vec<u8>>, String> {
        let provider = &self.provider;
        let group = self.group.as_mut().unwrap();
        let protocol = parse(msg)
            .try_into_protocol_message()
            .map_err(|e| format!("{e:?}"))?;
        let processed = group
            .process_message(provider, protocol)
            .map_err(|e| format!("{e:?}"))?;
        match processed.into_content() {
            ProcessedMessageContent::ApplicationMessage(app) => Ok(Some(app.into_bytes())),
            ProcessedMessageContent::StagedCommitMessage(commit) => {
                group
                    .merge_staged_commit(provider, *commit)
                    .map_err(|e| format!("{e:?}"))?;
                Ok(None)
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }

    fn update(&mut self) -> Wire {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let bundle = group
            .self_update(provider, signer, LeafNodeParameters::default())
            .unwrap();
        let (commit, welcome, _) = bundle.into_contents();
        assert!(welcome.is_none());
        group.merge_pending_commit(provider).unwrap();
        wire(&commit)
    }

    fn remove(&mut self, leaf: LeafNodeIndex) -> Wire {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let (commit, _, _) = group.remove_members(provider, signer, &[leaf]).unwrap();
        group.merge_pending_commit(provider).unwrap();
        wire(&commit)
    }

    fn leaf(&self) -> LeafNodeIndex {
        self.group.as_ref().unwrap().own_leaf_index()
    }

    fn epoch(&self) -> u64 {
        self.group.as_ref().unwrap().epoch().as_u64()
    }

    fn exported(&self) -> Vec<u8> {
        let group = self.group.as_ref().unwrap();
        group
            .export_secret(self.provider.crypto(), "typed-hpke test", b"", 32)
            .unwrap()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Provider {
    /// typed-hpke, post-quantum keys derived as draft-ietf-hpke-pq says.
    Typed,
    /// typed-hpke, post-quantum keys derived as hpke-rs 0.7 does.
    TypedHpkeRs07,
    /// `openmls_rust_crypto`, HPKE on hpke-rs 0.7.
    Stock,
}

fn member(name: &str, provider: Provider, cs: Ciphersuite) -> Box<dyn Party> {
    match provider {
        Provider::Typed => Box::new(Member::new(
            name,
            "typed-hpke",
            cs,
            OpenMlsTypedHpke::default(),
        )),
        Provider::TypedHpkeRs07 => Box::new(Member::new(
            name,
            "typed-hpke (hpke-rs 0.7 derivation)",
            cs,
            OpenMlsTypedHpke::new(PqKeyDerivation::HpkeRs07),
        )),
        Provider::Stock => Box::new(Member::new(name, "stock", cs, OpenMlsRustCrypto::default())),
    }
}

/// Every member agrees on the epoch and on an exported secret: they hold the same key schedule.
fn assert_in_sync(members: &[&dyn Party]) {
    let first = members[0];
    for m in &members[1..] {
        assert_eq!(m.epoch(), first.epoch(), "{} vs {}", m.name(), first.name());
        assert_eq!(
            m.exported(),
            first.exported(),
            "{} vs {}",
            m.name(),
            first.name()
        );
    }
}

/// `from` sends to the others, who each read it.
fn chat(from: &mut Box<dyn Party>, to: &mut [&mut Box<dyn Party>]) {
    let text = format!("hello from {} ({})", from.name(), from.provider_name()).into_bytes();
    let msg = from.send(&text);
    for m in to.iter_mut() {
        assert_eq!(m.receive(&msg).unwrap(), Some(text.clone()), "{}", m.name());
    }
}

/// One lifecycle with Alice, Bob and Charlie on the given providers.
fn lifecycle(cs: Ciphersuite, providers: [Provider; 3]) {
    let context = format!("{cs:?} with {providers:?}");
    let mut alice = member("Alice", providers[0], cs);
    let mut bob = member("Bob", providers[1], cs);
    let mut charlie = member("Charlie", providers[2], cs);

    // Alice creates the group and adds Bob and Charlie in one commit: one Welcome, an HPKE
    // ciphertext of the group secrets to each init key.
    alice.create_group();
    let (_, welcome) = alice.add(&[bob.key_package(), charlie.key_package()]);
    bob.join(&welcome).unwrap();
    charlie.join(&welcome).unwrap();
    assert_in_sync(&[&*alice, &*bob, &*charlie]);

    // Everyone talks to everyone.
    chat(&mut alice, &mut [&mut bob, &mut charlie]);
    chat(&mut bob, &mut [&mut alice, &mut charlie]);
    chat(&mut charlie, &mut [&mut alice, &mut bob]);

    // Bob commits an update with a path: path secrets sealed with HPKE to Alice's and
    // Charlie's subtrees; each opens one and derives the rest (DeriveKeyPair on path secrets,
    // whose public keys must match Bob's UpdatePath).
    let commit = bob.update();
    assert_eq!(alice.receive(&commit).unwrap(), None, "{context}");
    assert_eq!(charlie.receive(&commit).unwrap(), None, "{context}");
    assert_in_sync(&[&*alice, &*bob, &*charlie]);
    chat(&mut charlie, &mut [&mut alice, &mut bob]);

    // Charlie updates too, so every member has opened a path secret from another.
    let commit = charlie.update();
    assert_eq!(alice.receive(&commit).unwrap(), None, "{context}");
    assert_eq!(bob.receive(&commit).unwrap(), None, "{context}");
    assert_in_sync(&[&*alice, &*bob, &*charlie]);

    // Alice removes Charlie (a commit with a path that excludes Charlie's leaf).
    let removed = charlie.leaf();
    let commit = alice.remove(removed);
    assert_eq!(bob.receive(&commit).unwrap(), None, "{context}");
    assert_in_sync(&[&*alice, &*bob]);
    // Charlie processes its own removal, then cannot read the new epoch.
    let _ = charlie.receive(&commit);
    let secret = alice.send(b"after Charlie left");
    assert_eq!(
        bob.receive(&secret).unwrap(),
        Some(b"after Charlie left".to_vec())
    );
    assert!(
        charlie.receive(&secret).is_err(),
        "{context}: Charlie still reads"
    );
    chat(&mut bob, &mut [&mut alice]);
}

fn typed_suites() -> Vec<Ciphersuite> {
    OpenMlsTypedHpke::default()
        .crypto()
        .supported_ciphersuites()
}

#[test]
fn the_provider_supports_what_the_stock_one_does() {
    // Every ciphersuite the stock provider supports has an HPKE configuration typed-hpke serves
    // (X25519, P-256, X-Wing, ML-KEM-768, ML-KEM-1024).
    let stock = OpenMlsRustCrypto::default()
        .crypto()
        .supported_ciphersuites();
    assert_eq!(typed_suites(), stock);
    for cs in [
        Ciphersuite::MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519,
        Ciphersuite::MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519,
        Ciphersuite::MLS_128_DHKEMP256_AES128GCM_SHA256_P256,
        Ciphersuite::MLS_128_MLKEM768X25519_AES128GCM_SHA256_Ed25519,
    ] {
        assert!(stock.contains(&cs), "{cs:?}");
    }
    // Ciphersuites whose signature the stock provider lacks stay unsupported.
    let typed = OpenMlsTypedHpke::default();
    assert!(
        typed
            .crypto()
            .supports(Ciphersuite::MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448)
            .is_err()
    );
}

fn is_post_quantum(cs: Ciphersuite) -> bool {
    !matches!(
        cs.hpke_kem_algorithm(),
        HpkeKemType::DhKemP256
            | HpkeKemType::DhKemP384
            | HpkeKemType::DhKemP521
            | HpkeKemType::DhKem25519
            | HpkeKemType::DhKem448
    )
}

#[test]
fn every_suite_on_typed_hpke_alone() {
    for cs in typed_suites() {
        lifecycle(cs, [Provider::Typed; 3]);
        if is_post_quantum(cs) {
            lifecycle(cs, [Provider::TypedHpkeRs07; 3]);
        }
    }
}

/// typed-hpke creates the group, a stock member joins and commits, and the other way round.
/// On the post-quantum suites the typed-hpke members derive keys as hpke-rs 0.7 does (see
/// `standard_derivation_and_stock_cannot_share_a_post_quantum_group`).
#[test]
fn mixed_groups_both_ways() {
    for cs in typed_suites() {
        for typed in [Provider::Typed, Provider::TypedHpkeRs07] {
            if typed == Provider::Typed && is_post_quantum(cs) {
                continue;
            }
            lifecycle(cs, [typed, Provider::Stock, typed]);
            lifecycle(cs, [Provider::Stock, typed, Provider::Stock]);
        }
    }
}

/// The one incompatibility, pinned: with draft-ietf-hpke-pq's DeriveKeyPair a typed-hpke
/// member and a stock member derive different node keys from the same path secret, and the
/// joiner finds that the Welcome's tree does not match its own derivation. Either way round;
/// classical suites are unaffected.
#[test]
fn standard_derivation_and_stock_cannot_share_a_post_quantum_group() {
    for cs in typed_suites() {
        for (creator, joiner) in [
            (Provider::Typed, Provider::Stock),
            (Provider::Stock, Provider::Typed),
        ] {
            let mut alice = member("Alice", creator, cs);
            let mut bob = member("Bob", joiner, cs);
            alice.create_group();
            let (_, welcome) = alice.add(&[bob.key_package()]);
            let joined = bob.join(&welcome);
            if is_post_quantum(cs) {
                let error = joined.unwrap_err();
                assert!(error.contains("PublicKeyMismatch"), "{cs:?}: {error}");
            } else {
                joined.unwrap();
            }
        }
    }
}
