//! One MLS group (RFC 9420) with members on both Rust stacks, exchanging only RFC 9420 bytes:
//! OpenMLS 0.9 with this crate's provider, and mls-rs 0.57 with `typed-hpke-mls-rs`'s, on every
//! cipher suite both can run: RFC 9420's 1, 2 and 3, and draft-ietf-mls-pq-ciphersuites' X-Wing
//! (0x004F) and ML-KEM-1024 (0x0042) under the code points OpenMLS gives them
//! (`TypedHpkeProvider::with_openmls_pq_suites`), post-quantum keys derived as
//! draft-ietf-hpke-pq says on both sides.
//!
//! Alice (OpenMLS) makes the group and adds Bob (mls-rs): a Welcome from OpenMLS to mls-rs.
//! Application messages go each way; Bob commits an update with a path. Bob adds Carol
//! (OpenMLS): a Welcome from mls-rs to OpenMLS. Carol commits an update with a path; Alice adds
//! Dave (mls-rs), who commits an update; Carol removes Dave; messages go each way again. After
//! every step every member's epoch authenticator is the same. A Welcome and a commit with one
//! byte changed are refused by each stack, and the honest one then accepted (OpenMLS from the
//! storage saved before the refused Welcome, which consumed its KeyPackage).

use mls_rs::identity::SigningIdentity;
use mls_rs::identity::basic::{BasicCredential as RsCredential, BasicIdentityProvider};
use mls_rs::{CipherSuiteProvider, Client, CryptoProvider, MlsMessage};
use openmls::prelude::tls_codec::{Deserialize, Serialize};
use openmls::prelude::*;
use openmls::treesync::LeafNodeParameters;
use openmls_basic_credential::SignatureKeyPair;
use openmls_traits::OpenMlsProvider;
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeProvider};
use typed_hpke_openmls::{KeptKeyPackages, OpenMlsTypedHpke, PqKeyDerivation, keep_key_packages};

/// The suites both stacks run (OpenMLS' stock provider has 1, 2, 3 and its post-quantum ones;
/// mls-rs' RustCrypto provider 1, 2, 3 and 7).
const SUITES: [u16; 5] = [0x0001, 0x0002, 0x0003, 0x004F, 0x0042];

fn tampered(bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    *bytes.last_mut().unwrap() ^= 1;
    bytes
}

/// An OpenMLS member: its provider, signature key and group.
struct Open {
    provider: OpenMlsTypedHpke,
    signer: SignatureKeyPair,
    credential: CredentialWithKey,
    cs: Ciphersuite,
    group: Option<MlsGroup>,
}

fn open_member(name: &str, cs: Ciphersuite) -> Open {
    open_member_deriving(name, cs, PqKeyDerivation::default())
}

fn open_member_deriving(name: &str, cs: Ciphersuite, derivation: PqKeyDerivation) -> Open {
    let provider = OpenMlsTypedHpke::new(derivation);
    let signer = SignatureKeyPair::new(cs.signature_algorithm()).unwrap();
    signer.store(provider.storage()).unwrap();
    let credential = CredentialWithKey {
        credential: BasicCredential::new(name.as_bytes().to_vec()).into(),
        signature_key: signer.to_public_vec().into(),
    };
    Open {
        provider,
        signer,
        credential,
        cs,
        group: None,
    }
}

/// Plain handshake messages (mls-rs sends its commits as PublicMessages, and OpenMLS' default
/// policy takes only PrivateMessages); application messages are encrypted either way.
fn join_config() -> MlsGroupJoinConfig {
    MlsGroupJoinConfig::builder()
        .use_ratchet_tree_extension(true)
        .wire_format_policy(PURE_PLAINTEXT_WIRE_FORMAT_POLICY)
        .build()
}

impl Open {
    fn group(&mut self) -> &mut MlsGroup {
        self.group.as_mut().unwrap()
    }

    fn create(&mut self) {
        let config = MlsGroupCreateConfig::builder()
            .ciphersuite(self.cs)
            .use_ratchet_tree_extension(true)
            .wire_format_policy(PURE_PLAINTEXT_WIRE_FORMAT_POLICY)
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

    fn key_package(&self) -> Vec<u8> {
        let bundle = KeyPackage::builder()
            .build(
                self.cs,
                &self.provider,
                &self.signer,
                self.credential.clone(),
            )
            .unwrap();
        MlsMessageOut::from(bundle.key_package().clone())
            .tls_serialize_detached()
            .unwrap()
    }

    /// Adds the member of the KeyPackage `kp` (an mls-rs one): the commit and the Welcome.
    fn add(&mut self, kp: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let MlsMessageBodyIn::KeyPackage(kp) =
            MlsMessageIn::tls_deserialize_exact(kp).unwrap().extract()
        else {
            panic!("not a KeyPackage");
        };
        let kp = kp
            .validate(self.provider.crypto(), ProtocolVersion::Mls10)
            .unwrap();
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let (commit, welcome, _) = group.add_members(provider, signer, &[kp]).unwrap();
        group.merge_pending_commit(provider).unwrap();
        (
            commit.tls_serialize_detached().unwrap(),
            welcome.tls_serialize_detached().unwrap(),
        )
    }

    fn join(&mut self, welcome: &[u8]) -> Result<(), String> {
        let MlsMessageBodyIn::Welcome(welcome) = MlsMessageIn::tls_deserialize_exact(welcome)
            .map_err(|e| format!("{e:?}"))?
            .extract()
        else {
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

    /// The KeyPackages `welcome` is for, kept to put back after a refused attempt.
    fn keep(&self, welcome: &[u8]) -> KeptKeyPackages {
        let MlsMessageBodyIn::Welcome(welcome) = MlsMessageIn::tls_deserialize_exact(welcome)
            .unwrap()
            .extract()
        else {
            panic!("not a Welcome");
        };
        keep_key_packages(self.provider.storage(), &welcome).unwrap()
    }

    fn update(&mut self) -> Vec<u8> {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let bundle = group
            .self_update(provider, signer, LeafNodeParameters::default())
            .unwrap();
        let (commit, _, _) = bundle.into_contents();
        group.merge_pending_commit(provider).unwrap();
        commit.tls_serialize_detached().unwrap()
    }

    fn remove(&mut self, leaf: u32) -> Vec<u8> {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        let (commit, _, _) = group
            .remove_members(provider, signer, &[LeafNodeIndex::new(leaf)])
            .unwrap();
        group.merge_pending_commit(provider).unwrap();
        commit.tls_serialize_detached().unwrap()
    }

    fn say(&mut self, text: &[u8]) -> Vec<u8> {
        let (provider, signer) = (&self.provider, &self.signer);
        let group = self.group.as_mut().unwrap();
        group
            .create_message(provider, signer, text)
            .unwrap()
            .tls_serialize_detached()
            .unwrap()
    }

    /// Processes a commit or an application message; the application message's text.
    fn receive(&mut self, msg: &[u8]) -> Result<Option<Vec<u8>>, String> {
        let provider = &self.provider;
        let group = self.group.as_mut().unwrap();
        let protocol = MlsMessageIn::tls_deserialize_exact(msg)
            .map_err(|e| format!("{e:?}"))?
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

    fn authenticator(&mut self) -> Vec<u8> {
        self.group().epoch_authenticator().as_slice().to_vec()
    }
}

type RsProvider = TypedHpkeProvider<RustCryptoProvider>;

fn rs_provider() -> RsProvider {
    TypedHpkeProvider::new(RustCryptoProvider::default())
        .with_openmls_pq_suites()
        .unwrap()
}

/// An mls-rs member.
struct Rs {
    client: Client<
        mls_rs::client_builder::WithIdentityProvider<
            BasicIdentityProvider,
            mls_rs::client_builder::WithCryptoProvider<
                RsProvider,
                mls_rs::client_builder::BaseConfig,
            >,
        >,
    >,
    group: Option<
        mls_rs::Group<
            mls_rs::client_builder::WithIdentityProvider<
                BasicIdentityProvider,
                mls_rs::client_builder::WithCryptoProvider<
                    RsProvider,
                    mls_rs::client_builder::BaseConfig,
                >,
            >,
        >,
    >,
}

fn rs_member(name: &str, cs: u16) -> Rs {
    let cs = mls_rs::CipherSuite::new(cs);
    let provider = rs_provider();
    let suite = provider.cipher_suite_provider(cs).expect("the suite");
    let (secret, public) = suite.signature_key_generate().expect("a signature key");
    let credential = RsCredential::new(name.as_bytes().to_vec()).into_credential();
    let client = Client::builder()
        .identity_provider(BasicIdentityProvider)
        .crypto_provider(provider)
        .signing_identity(SigningIdentity::new(credential, public), secret, cs)
        .build();
    Rs {
        client,
        group: None,
    }
}

impl Rs {
    fn key_package(&self) -> Vec<u8> {
        self.client
            .generate_key_package_message(Default::default(), Default::default(), None)
            .unwrap()
            .to_bytes()
            .unwrap()
    }

    fn join(&mut self, welcome: &[u8]) -> Result<(), String> {
        let welcome = MlsMessage::from_bytes(welcome).map_err(|e| format!("{e:?}"))?;
        let (group, _) = self
            .client
            .join_group(None, &welcome, None)
            .map_err(|e| format!("{e:?}"))?;
        self.group = Some(group);
        Ok(())
    }

    fn add(&mut self, kp: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let group = self.group.as_mut().unwrap();
        let out = group
            .commit_builder()
            .add_member(MlsMessage::from_bytes(kp).unwrap())
            .unwrap()
            .build()
            .unwrap();
        group.apply_pending_commit().unwrap();
        (
            out.commit_message.to_bytes().unwrap(),
            out.welcome_messages[0].to_bytes().unwrap(),
        )
    }

    fn update(&mut self) -> Vec<u8> {
        let group = self.group.as_mut().unwrap();
        let out = group.commit(vec![]).unwrap();
        group.apply_pending_commit().unwrap();
        out.commit_message.to_bytes().unwrap()
    }

    fn say(&mut self, text: &[u8]) -> Vec<u8> {
        let group = self.group.as_mut().unwrap();
        group
            .encrypt_application_message(text, vec![])
            .unwrap()
            .to_bytes()
            .unwrap()
    }

    fn receive(&mut self, msg: &[u8]) -> Result<Option<Vec<u8>>, String> {
        let group = self.group.as_mut().unwrap();
        let msg = MlsMessage::from_bytes(msg).map_err(|e| format!("{e:?}"))?;
        match group
            .process_incoming_message(msg)
            .map_err(|e| format!("{e:?}"))?
        {
            mls_rs::group::ReceivedMessage::ApplicationMessage(m) => Ok(Some(m.data().to_vec())),
            mls_rs::group::ReceivedMessage::Commit(_) => Ok(None),
            other => Err(format!("unexpected {other:?}")),
        }
    }

    fn leaf(&self) -> u32 {
        self.group.as_ref().unwrap().current_member_index()
    }

    fn authenticator(&self) -> Vec<u8> {
        self.group
            .as_ref()
            .unwrap()
            .epoch_authenticator()
            .unwrap()
            .to_vec()
    }
}

fn agree(views: &[Vec<u8>], step: &str) {
    assert!(
        views.windows(2).all(|w| w[0] == w[1]),
        "{step}: the members' epoch authenticators differ"
    );
}

fn one_group(cs_value: u16) {
    let cs = Ciphersuite::try_from(cs_value).unwrap();
    let mut alice = open_member("alice", cs);
    let mut bob = rs_member("bob", cs_value);
    let mut carol = open_member("carol", cs);
    let mut dave = rs_member("dave", cs_value);

    // OpenMLS makes the group and adds an mls-rs member: a Welcome from OpenMLS to mls-rs,
    // refused by mls-rs with a byte changed.
    alice.create();
    let (_, welcome) = alice.add(&bob.key_package());
    // The last byte is the HPKE ciphertext's of the group secrets, whose info is the encrypted
    // GroupInfo (RFC 9420 §12.4.3.1): refused by typed-hpke's open on the mls-rs side.
    let refused = bob.join(&tampered(&welcome)).unwrap_err();
    println!("  OpenMLS to mls-rs, a tampered Welcome: {refused}");
    assert!(refused.contains("Hpke(Open)"), "{refused}");
    bob.join(&welcome).unwrap();
    agree(
        &[alice.authenticator(), bob.authenticator()],
        "bob's Welcome",
    );

    // Application messages each way.
    let m = alice.say(b"from alice, on OpenMLS");
    assert_eq!(bob.receive(&m).unwrap().unwrap(), b"from alice, on OpenMLS");
    let m = bob.say(b"from bob, on mls-rs");
    assert_eq!(alice.receive(&m).unwrap().unwrap(), b"from bob, on mls-rs");

    // An update with a path from mls-rs; OpenMLS refuses it with a byte changed.
    let commit = bob.update();
    // The last byte is the commit's membership tag (RFC 9420 §6.2).
    let refused = alice.receive(&tampered(&commit)).unwrap_err();
    println!("  mls-rs to OpenMLS, a tampered commit: {refused}");
    assert!(refused.contains("InvalidMembershipTag"), "{refused}");
    alice.receive(&commit).unwrap();
    agree(
        &[alice.authenticator(), bob.authenticator()],
        "bob's update",
    );

    // mls-rs adds an OpenMLS member: a Welcome from mls-rs to OpenMLS, refused with a byte
    // changed; the refused attempt deleted Carol's KeyPackage, kept before and put back.
    let (commit, welcome) = bob.add(&carol.key_package());
    alice.receive(&commit).unwrap();
    let kept = carol.keep(&welcome);
    let refused = carol.join(&tampered(&welcome)).unwrap_err();
    println!("  mls-rs to OpenMLS, a tampered Welcome: {refused}");
    assert_eq!(refused, "GroupSecrets(DecryptionFailed)");
    kept.restore(carol.provider.storage()).unwrap();
    carol.join(&welcome).unwrap();
    agree(
        &[
            alice.authenticator(),
            bob.authenticator(),
            carol.authenticator(),
        ],
        "carol's Welcome",
    );

    // An update with a path from OpenMLS; mls-rs refuses it with a byte changed.
    let commit = carol.update();
    let refused = bob.receive(&tampered(&commit)).unwrap_err();
    println!("  OpenMLS to mls-rs, a tampered commit: {refused}");
    assert!(refused.contains("InvalidMembershipTag"), "{refused}");
    bob.receive(&commit).unwrap();
    alice.receive(&commit).unwrap();
    agree(
        &[
            alice.authenticator(),
            bob.authenticator(),
            carol.authenticator(),
        ],
        "carol's update",
    );

    // OpenMLS adds another mls-rs member, who commits an update.
    let (commit, welcome) = alice.add(&dave.key_package());
    bob.receive(&commit).unwrap();
    carol.receive(&commit).unwrap();
    dave.join(&welcome).unwrap();
    agree(
        &[
            alice.authenticator(),
            bob.authenticator(),
            carol.authenticator(),
            dave.authenticator(),
        ],
        "dave's Welcome",
    );
    let commit = dave.update();
    for member in [&mut alice, &mut carol] {
        member.receive(&commit).unwrap();
    }
    bob.receive(&commit).unwrap();
    agree(
        &[
            alice.authenticator(),
            bob.authenticator(),
            carol.authenticator(),
            dave.authenticator(),
        ],
        "dave's update",
    );

    // OpenMLS removes the mls-rs member Dave.
    let commit = carol.remove(dave.leaf());
    alice.receive(&commit).unwrap();
    bob.receive(&commit).unwrap();
    agree(
        &[
            alice.authenticator(),
            bob.authenticator(),
            carol.authenticator(),
        ],
        "dave removed",
    );

    // Messages each way in the new epoch.
    let m = bob.say(b"after the removal, from mls-rs");
    assert_eq!(
        carol.receive(&m).unwrap().unwrap(),
        b"after the removal, from mls-rs"
    );
    assert_eq!(
        alice.receive(&m).unwrap().unwrap(),
        b"after the removal, from mls-rs"
    );
    let m = carol.say(b"after the removal, from OpenMLS");
    assert_eq!(
        bob.receive(&m).unwrap().unwrap(),
        b"after the removal, from OpenMLS"
    );
}

#[test]
fn one_group_across_openmls_and_mls_rs_on_every_common_suite() {
    for cs in SUITES {
        one_group(cs);
        println!("suite {cs:#06x}: one group across both stacks");
    }
}

/// `PqKeyDerivation::HpkeRs07` (hpke-rs 0.7's, OpenMLS' stock provider's) shuts out mls-rs
/// members: an OpenMLS member deriving so joins an mls-rs group's post-quantum epoch (a Welcome
/// for an add carries no path secret) but cannot follow the first commit with a path, whose
/// public keys are not the ones it derives from the path secret (OpenMLS' `PathMismatch`); a
/// member deriving as
/// draft-ietf-hpke-pq says can.
#[test]
fn hpke_rs_07_derivation_cannot_share_a_post_quantum_group_with_mls_rs() {
    let cs = Ciphersuite::try_from(0x004F).unwrap();
    let mut bob = rs_member("bob", 0x004F);
    bob.group = Some(
        bob.client
            .create_group(Default::default(), Default::default(), None)
            .unwrap(),
    );
    let mut stock = open_member_deriving("carol", cs, PqKeyDerivation::HpkeRs07);
    let mut standard = open_member("erin", cs);
    let (_, welcome) = bob.add(&stock.key_package());
    stock.join(&welcome).unwrap();
    let (commit, welcome) = bob.add(&standard.key_package());
    stock.receive(&commit).unwrap();
    standard.join(&welcome).unwrap();
    // Bob's update: a path whose secrets reach both.
    let commit = bob.update();
    standard.receive(&commit).unwrap();
    agree(
        &[bob.authenticator(), standard.authenticator()],
        "bob's update, to the member deriving as draft-ietf-hpke-pq says",
    );
    let refused = stock.receive(&commit).unwrap_err();
    println!("  HpkeRs07 member, an mls-rs path: {refused}");
    assert_eq!(refused, "InvalidCommit(UpdatePathError(PathMismatch))");
}
