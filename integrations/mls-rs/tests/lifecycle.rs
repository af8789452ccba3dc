//! Whole group lifecycles through mls-rs' own `Client`, on every cipher suite the provider
//! offers: creation, a Welcome sealed to three key packages, update commits with a path from
//! members of both kinds, a removal, external commits (the `hpke_setup_s` + export path) from
//! members of both kinds, and application messages each way. After every step every member's
//! epoch authenticator agrees, so every member derived the same secrets.
//!
//! On RFC 9420's suites the group mixes this provider (alice, bob, eve) with mls-rs' stock
//! RustCrypto provider (carol, dave, frank), whose HPKE is an independent implementation: two
//! of the Welcome's three key packages are the stock provider's. On the draft-ietf-mls-pq-
//! ciphersuites suites, which the stock provider lacks, the "stock" members are a second
//! instance of this provider.
//!
//! Built synchronous and asynchronous (`--cfg mls_build_async`), as mls-rs is.

#[macro_use]
mod common;

use common::{PQ_CODE_POINTS, with_pq};
use mls_rs::client_builder::MlsConfig;
use mls_rs::group::ReceivedMessage;
use mls_rs::identity::SigningIdentity;
use mls_rs::identity::basic::{BasicCredential, BasicIdentityProvider};
use mls_rs::{CipherSuite, CipherSuiteProvider, Client, CryptoProvider, Group, MlsMessage};
use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeProvider};

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn client<P: CryptoProvider + Clone>(
    provider: P,
    name: &str,
    cs: CipherSuite,
) -> Client<impl MlsConfig> {
    let suite = provider.cipher_suite_provider(cs).expect("suite");
    let (secret, public) = suite.signature_key_generate().await.expect("signature key");
    let credential = BasicCredential::new(name.as_bytes().to_vec()).into_credential();
    Client::builder()
        .identity_provider(BasicIdentityProvider)
        .crypto_provider(provider)
        .signing_identity(SigningIdentity::new(credential, public), secret, cs)
        .build()
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn process<C: MlsConfig>(group: &mut Group<C>, message: &MlsMessage) -> ReceivedMessage {
    group
        .process_incoming_message(message.clone())
        .await
        .expect("process")
}

/// A commit with a path and nothing else (an update), applied by its committer.
#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn update<C: MlsConfig>(group: &mut Group<C>) -> MlsMessage {
    let out = group.commit(vec![]).await.expect("commit");
    group.apply_pending_commit().await.expect("apply");
    out.commit_message
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn say<C: MlsConfig>(group: &mut Group<C>, text: &[u8]) -> MlsMessage {
    group
        .encrypt_application_message(text, vec![])
        .await
        .expect("encrypt")
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn hears<C: MlsConfig>(group: &mut Group<C>, message: &MlsMessage, text: &[u8]) {
    match process(group, message).await {
        ReceivedMessage::ApplicationMessage(m) => assert_eq!(m.data(), text),
        other => panic!("not an application message: {other:?}"),
    }
}

/// `joiner` joins by an external commit from `member`'s GroupInfo, which carries the external
/// public key; the commit's KEM output comes from `hpke_setup_s`.
#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn join_externally<J: MlsConfig, M: MlsConfig>(
    joiner: &Client<J>,
    member: &Group<M>,
) -> (Group<J>, MlsMessage) {
    let info = member
        .group_info_message_allowing_ext_commit(true)
        .await
        .expect("GroupInfo");
    joiner
        .external_commit_builder()
        .expect("builder")
        .build(info)
        .await
        .expect("external commit")
}

/// A member's view: its epoch authenticator and how many members its roster has.
fn view<C: MlsConfig>(group: &Group<C>) -> (Vec<u8>, usize) {
    (
        group.epoch_authenticator().expect("authenticator").to_vec(),
        group.roster().members_iter().count(),
    )
}

fn agree(views: &[(Vec<u8>, usize)], step: &str) {
    for (i, v) in views.iter().enumerate() {
        assert_eq!(v.0, views[0].0, "{step}: member {i} disagrees");
        assert_eq!(v.1, views.len(), "{step}: member {i}'s roster");
    }
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn lifecycle<O, S>(ours: O, stock: S, cs: CipherSuite)
where
    O: CryptoProvider + Clone,
    S: CryptoProvider + Clone,
{
    let alice = client(ours.clone(), "alice", cs).await;
    let bob = client(ours.clone(), "bob", cs).await;
    let carol = client(stock.clone(), "carol", cs).await;
    let dave = client(stock.clone(), "dave", cs).await;

    // Creation, and one commit adding three members: their Welcome's group secrets are
    // HPKE-sealed to each key package, by typed-hpke.
    let mut a = alice.group_builder().unwrap().build().await.unwrap();
    let kp_b = bob
        .generate_key_package_message(Default::default(), Default::default(), None)
        .await
        .unwrap();
    let kp_c = carol
        .generate_key_package_message(Default::default(), Default::default(), None)
        .await
        .unwrap();
    let kp_d = dave
        .generate_key_package_message(Default::default(), Default::default(), None)
        .await
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
        .await
        .unwrap();
    a.apply_pending_commit().await.unwrap();
    let welcome = &out.welcome_messages[0];
    let tree = Some(a.export_tree());
    let (mut b, _) = bob.join_group(tree.clone(), welcome, None).await.unwrap();
    let (mut c, _) = carol.join_group(tree.clone(), welcome, None).await.unwrap();
    let (mut d, _) = dave.join_group(tree, welcome, None).await.unwrap();
    agree(&[view(&a), view(&b), view(&c), view(&d)], "welcome");

    // Application messages from a member of each kind.
    let m = say(&mut a, b"from alice").await;
    hears(&mut b, &m, b"from alice").await;
    hears(&mut c, &m, b"from alice").await;
    hears(&mut d, &m, b"from alice").await;
    let m = say(&mut c, b"from carol").await;
    hears(&mut a, &m, b"from carol").await;
    hears(&mut b, &m, b"from carol").await;
    hears(&mut d, &m, b"from carol").await;

    // Updates with a path: the path secrets are HPKE-sealed to every other subtree.
    let m = update(&mut b).await;
    process(&mut a, &m).await;
    process(&mut c, &m).await;
    process(&mut d, &m).await;
    agree(&[view(&a), view(&b), view(&c), view(&d)], "bob's update");
    let m = update(&mut d).await;
    process(&mut a, &m).await;
    process(&mut b, &m).await;
    process(&mut c, &m).await;
    agree(&[view(&a), view(&b), view(&c), view(&d)], "dave's update");

    // A removal, committed by a member of the second kind.
    let dave_index = d.current_member_index();
    let out = c
        .commit_builder()
        .remove_member(dave_index)
        .unwrap()
        .build()
        .await
        .unwrap();
    c.apply_pending_commit().await.unwrap();
    process(&mut a, &out.commit_message).await;
    process(&mut b, &out.commit_message).await;
    agree(&[view(&a), view(&b), view(&c)], "dave removed");

    // External commits: eve (this provider) joins from alice's GroupInfo, then frank (the
    // second kind) from bob's.
    let eve = client(ours.clone(), "eve", cs).await;
    let (mut e, commit) = join_externally(&eve, &a).await;
    process(&mut a, &commit).await;
    process(&mut b, &commit).await;
    process(&mut c, &commit).await;
    agree(
        &[view(&a), view(&b), view(&c), view(&e)],
        "eve's external commit",
    );
    let frank = client(stock, "frank", cs).await;
    let (f, commit) = join_externally(&frank, &b).await;
    process(&mut a, &commit).await;
    process(&mut b, &commit).await;
    process(&mut c, &commit).await;
    process(&mut e, &commit).await;
    agree(
        &[view(&a), view(&b), view(&c), view(&e), view(&f)],
        "frank's external commit",
    );
    let m = say(&mut e, b"from eve").await;
    hears(&mut c, &m, b"from eve").await;
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn every_rfc_suite() {
    let ours = TypedHpkeProvider::new(RustCryptoProvider::default());
    let suites = ours.supported_cipher_suites();
    assert_eq!(
        suites,
        RustCryptoProvider::default().supported_cipher_suites(),
        "every suite the inner provider has"
    );
    assert!(suites.len() >= 4, "{suites:?}");
    for cs in suites {
        lifecycle(ours.clone(), RustCryptoProvider::default(), cs).await;
    }
}

#[test]
fn every_suite_mixed_with_the_stock_provider() {
    run!(every_rfc_suite());
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
async fn every_draft_pq_suite() {
    let ours = with_pq(TypedHpkeProvider::new(RustCryptoProvider::default()));
    let supported = ours.supported_cipher_suites();
    for (cs, _) in PQ_CODE_POINTS {
        assert!(supported.contains(&cs), "{cs:?}");
        lifecycle(ours.clone(), ours.clone(), cs).await;
    }
}

#[test]
fn every_draft_pq_suite_lifecycle() {
    run!(every_draft_pq_suite());
}
