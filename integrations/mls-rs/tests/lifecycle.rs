//! Whole group lifecycles through mls-rs' own `Client`, on every cipher suite the provider
//! offers, in groups whose members mix this provider and mls-rs' stock RustCrypto provider:
//! creation, a Welcome sealed to three key packages (two of them the stock provider's), update
//! commits with a path from members of both kinds, a removal, an external commit (the
//! `hpke_setup_s` + export path), and application messages each way. After every step every
//! member's epoch authenticator agrees, so both providers derived the same secrets.

#![cfg(not(mls_build_async))]

use mls_rs::client_builder::MlsConfig;
use mls_rs::group::ReceivedMessage;
use mls_rs::identity::SigningIdentity;
use mls_rs::identity::basic::{BasicCredential, BasicIdentityProvider};
use mls_rs::{CipherSuite, CipherSuiteProvider, Client, CryptoProvider, Group, MlsMessage};
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeProvider};

fn client<P: CryptoProvider + Clone>(
    provider: P,
    name: &str,
    cs: CipherSuite,
) -> Client<impl MlsConfig> {
    let suite = provider.cipher_suite_provider(cs).expect("suite");
    let (secret, public) = suite.signature_key_generate().expect("signature key");
    let credential = BasicCredential::new(name.as_bytes().to_vec()).into_credential();
    Client::builder()
        .identity_provider(BasicIdentityProvider)
        .crypto_provider(provider)
        .signing_identity(SigningIdentity::new(credential, public), secret, cs)
        .build()
}

/// A member of the group, of either provider (the group types differ).
trait Member {
    fn process(&mut self, message: &MlsMessage) -> ReceivedMessage;
    fn authenticator(&self) -> Vec<u8>;
    fn commit(&mut self) -> MlsMessage;
    fn say(&mut self, text: &[u8]) -> MlsMessage;
    fn count(&self) -> usize;
}

impl<C: MlsConfig> Member for Group<C> {
    fn process(&mut self, message: &MlsMessage) -> ReceivedMessage {
        self.process_incoming_message(message.clone())
            .expect("process")
    }
    fn authenticator(&self) -> Vec<u8> {
        self.epoch_authenticator().expect("authenticator").to_vec()
    }
    fn commit(&mut self) -> MlsMessage {
        let out = self.commit(vec![]).expect("commit");
        self.apply_pending_commit().expect("apply");
        out.commit_message
    }
    fn say(&mut self, text: &[u8]) -> MlsMessage {
        self.encrypt_application_message(text, vec![])
            .expect("encrypt")
    }
    fn count(&self) -> usize {
        self.roster().members_iter().count()
    }
}

fn agree(members: &[&dyn Member], step: &str) {
    let first = members[0].authenticator();
    for (i, m) in members.iter().enumerate() {
        assert_eq!(m.authenticator(), first, "{step}: member {i} disagrees");
        assert_eq!(m.count(), members.len(), "{step}: member {i}'s roster");
    }
}

fn application(message: ReceivedMessage) -> Vec<u8> {
    match message {
        ReceivedMessage::ApplicationMessage(m) => m.data().to_vec(),
        other => panic!("not an application message: {other:?}"),
    }
}

fn lifecycle(cs: CipherSuite) {
    let ours = TypedHpkeProvider::new(RustCryptoProvider::default());
    let stock = RustCryptoProvider::default();
    let alice = client(ours.clone(), "alice", cs);
    let bob = client(ours.clone(), "bob", cs);
    let carol = client(stock.clone(), "carol", cs);
    let dave = client(stock.clone(), "dave", cs);

    // Creation, and one commit adding three members: their Welcome's group secrets are
    // HPKE-sealed to each key package, by typed-hpke.
    let mut a = alice.group_builder().unwrap().build().unwrap();
    let kp_b = bob
        .generate_key_package_message(Default::default(), Default::default(), None)
        .unwrap();
    let kp_c = carol
        .generate_key_package_message(Default::default(), Default::default(), None)
        .unwrap();
    let kp_d = dave
        .generate_key_package_message(Default::default(), Default::default(), None)
        .unwrap();
    let out = a
        .commit_builder()
        .add_member(kp_b)
        .unwrap()
        .add_member(kp_c)
        .unwrap()
        .add_member(kp_d)
        .unwrap()
        .build()
        .unwrap();
    a.apply_pending_commit().unwrap();
    let welcome = &out.welcome_messages[0];
    let tree = Some(a.export_tree());
    let (mut b, _) = bob.join_group(tree.clone(), welcome, None).unwrap();
    let (mut c, _) = carol.join_group(tree.clone(), welcome, None).unwrap();
    let (mut d, _) = dave.join_group(tree, welcome, None).unwrap();
    agree(&[&a, &b, &c, &d], "welcome");

    // Application messages from a member of each provider.
    let m = a.say(b"from alice");
    for g in [&mut b as &mut dyn Member, &mut c, &mut d] {
        assert_eq!(application(g.process(&m)), b"from alice");
    }
    let m = Member::say(&mut c, b"from carol");
    for g in [&mut a as &mut dyn Member, &mut b, &mut d] {
        assert_eq!(application(g.process(&m)), b"from carol");
    }

    // Updates with a path: the path secrets are HPKE-sealed to every other subtree.
    let m = Member::commit(&mut b);
    for g in [&mut a as &mut dyn Member, &mut c, &mut d] {
        g.process(&m);
    }
    agree(&[&a, &b, &c, &d], "bob's update");
    let m = Member::commit(&mut d);
    for g in [&mut a as &mut dyn Member, &mut b, &mut c] {
        g.process(&m);
    }
    agree(&[&a, &b, &c, &d], "dave's update");

    // A removal, committed by the stock provider's member.
    let dave_index = d.current_member_index();
    let out = c
        .commit_builder()
        .remove_member(dave_index)
        .unwrap()
        .build()
        .unwrap();
    c.apply_pending_commit().unwrap();
    for g in [&mut a as &mut dyn Member, &mut b] {
        g.process(&out.commit_message);
    }
    agree(&[&a, &b, &c], "dave removed");

    // An external commit: Eve (this provider) joins from alice's GroupInfo, which carries
    // the external public key; her commit's KEM output comes from `hpke_setup_s`.
    let eve = client(ours.clone(), "eve", cs);
    let info = a.group_info_message_allowing_ext_commit(true).unwrap();
    let (mut e, commit) = eve.external_commit_builder().unwrap().build(info).unwrap();
    for g in [&mut a as &mut dyn Member, &mut b, &mut c] {
        g.process(&commit);
    }
    agree(&[&a, &b, &c, &e], "eve's external commit");
    // And a stock member joining externally from a typed-hpke member's GroupInfo.
    let frank = client(stock, "frank", cs);
    let info = b.group_info_message_allowing_ext_commit(true).unwrap();
    let (f, commit) = frank
        .external_commit_builder()
        .unwrap()
        .build(info)
        .unwrap();
    for g in [&mut a as &mut dyn Member, &mut b, &mut c, &mut e] {
        g.process(&commit);
    }
    agree(&[&a, &b, &c, &e, &f], "frank's external commit");
    let m = e.say(b"from eve");
    assert_eq!(application(c.process(&m)), b"from eve");
}

#[test]
fn every_suite_mixed_with_the_stock_provider() {
    let suites = TypedHpkeProvider::new(RustCryptoProvider::default()).supported_cipher_suites();
    assert_eq!(
        suites,
        RustCryptoProvider::default().supported_cipher_suites(),
        "every suite the inner provider has"
    );
    assert!(suites.len() >= 4, "{suites:?}");
    for cs in suites {
        lifecycle(cs);
    }
}
