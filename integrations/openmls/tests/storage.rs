//! A refused Welcome retried: OpenMLS deletes the KeyPackage's keys from the storage before it
//! decrypts the group's secrets, so they are kept before the attempt (`keep_key_packages`) and
//! put back after the refusal, and nothing else of the storage moves (a member's other groups
//! keep their epochs, the keys OpenMLS deleted stay deleted). The provider over a storage the
//! caller owns (`OpenMlsTypedHpke::with_storage`), and its generator (`OsRandom`), which leaves
//! no state behind.

use std::sync::RwLock;

use openmls::prelude::tls_codec::{Deserialize, Serialize};
use openmls::prelude::*;
use openmls::treesync::LeafNodeParameters;
use openmls_basic_credential::SignatureKeyPair;
use openmls_rust_crypto::MemoryStorage;
use openmls_traits::OpenMlsProvider;
use typed_hpke_openmls::{OpenMlsTypedHpke, PqKeyDerivation, keep_key_packages};

const CS: Ciphersuite = Ciphersuite::MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519;

fn identity(provider: &impl OpenMlsProvider, name: &str) -> (SignatureKeyPair, CredentialWithKey) {
    let signer = SignatureKeyPair::new(CS.signature_algorithm()).unwrap();
    signer.store(provider.storage()).unwrap();
    let credential = CredentialWithKey {
        credential: BasicCredential::new(name.as_bytes().to_vec()).into(),
        signature_key: signer.to_public_vec().into(),
    };
    (signer, credential)
}

fn group(
    provider: &impl OpenMlsProvider,
    signer: &SignatureKeyPair,
    credential: CredentialWithKey,
) -> MlsGroup {
    let config = MlsGroupCreateConfig::builder()
        .ciphersuite(CS)
        .use_ratchet_tree_extension(true)
        .build();
    MlsGroup::new(provider, signer, &config, credential).unwrap()
}

fn welcome_of(bytes: &[u8]) -> Welcome {
    let MlsMessageBodyIn::Welcome(welcome) = MlsMessageIn::tls_deserialize_exact(bytes)
        .unwrap()
        .extract()
    else {
        panic!("not a Welcome")
    };
    welcome
}

fn join(provider: &impl OpenMlsProvider, welcome: &[u8]) -> Result<MlsGroup, String> {
    let config = MlsGroupJoinConfig::builder()
        .use_ratchet_tree_extension(true)
        .build();
    StagedWelcome::new_from_welcome(provider, &config, welcome_of(welcome), None)
        .map_err(|e| format!("{e:?}"))?
        .into_group(provider)
        .map_err(|e| format!("{e:?}"))
}

/// Adds the owner of `key_package` to `group`: the Welcome's bytes.
fn add(
    group: &mut MlsGroup,
    provider: &impl OpenMlsProvider,
    signer: &SignatureKeyPair,
    key_package: KeyPackage,
) -> Vec<u8> {
    let (_, welcome, _) = group.add_members(provider, signer, &[key_package]).unwrap();
    group.merge_pending_commit(provider).unwrap();
    welcome.tls_serialize_detached().unwrap()
}

#[test]
fn a_refused_welcome_is_retried_with_its_key_packages_kept() {
    // Bob is in Alice's group, which then moves to epoch 2.
    let alice = OpenMlsTypedHpke::default();
    let (alice_signer, alice_credential) = identity(&alice, "alice");
    let mut alices = group(&alice, &alice_signer, alice_credential);
    let bob = OpenMlsTypedHpke::default();
    let (bob_signer, bob_credential) = identity(&bob, "bob");
    let first = KeyPackage::builder()
        .build(CS, &bob, &bob_signer, bob_credential.clone())
        .unwrap()
        .key_package()
        .clone();
    let welcome = add(&mut alices, &alice, &alice_signer, first);
    let mut bobs = join(&bob, &welcome).unwrap();

    // Carol's group adds Bob by his second KeyPackage; Bob keeps it before the attempt.
    let carol = OpenMlsTypedHpke::default();
    let (carol_signer, carol_credential) = identity(&carol, "carol");
    let mut carols = group(&carol, &carol_signer, carol_credential);
    let second = KeyPackage::builder()
        .build(CS, &bob, &bob_signer, bob_credential)
        .unwrap()
        .key_package()
        .clone();
    let welcome = add(&mut carols, &carol, &carol_signer, second);
    let kept = keep_key_packages(bob.storage(), &welcome_of(&welcome)).unwrap();
    assert_eq!(kept.len(), 1);

    // Meanwhile Alice's group moves on, and Bob with it.
    let (commit, _, _) = alices
        .self_update(&alice, &alice_signer, LeafNodeParameters::default())
        .unwrap()
        .into_contents();
    alices.merge_pending_commit(&alice).unwrap();
    let message = MlsMessageIn::tls_deserialize_exact(commit.tls_serialize_detached().unwrap())
        .unwrap()
        .try_into_protocol_message()
        .unwrap();
    let ProcessedMessageContent::StagedCommitMessage(staged) =
        bobs.process_message(&bob, message).unwrap().into_content()
    else {
        panic!("not a commit")
    };
    bobs.merge_staged_commit(&bob, *staged).unwrap();
    assert_eq!(bobs.epoch().as_u64(), 2);

    // The last byte is the HPKE ciphertext's, whose info is the encrypted GroupInfo
    // (RFC 9420 §12.4.3.1): the group secrets do not open, and the KeyPackage is gone.
    let mut tampered = welcome.clone();
    *tampered.last_mut().unwrap() ^= 1;
    assert_eq!(
        join(&bob, &tampered).unwrap_err(),
        "GroupSecrets(DecryptionFailed)"
    );
    assert_eq!(join(&bob, &welcome).unwrap_err(), "NoMatchingKeyPackage");
    // Put back, it opens, and Bob's other group stays where it was.
    kept.restore(bob.storage()).unwrap();
    let joined = join(&bob, &welcome).unwrap();
    assert_eq!(
        joined.epoch_authenticator().as_slice(),
        carols.epoch_authenticator().as_slice()
    );
    let loaded = MlsGroup::load(bob.storage(), alices.group_id())
        .unwrap()
        .unwrap();
    assert_eq!(loaded.epoch().as_u64(), 2);
}

#[test]
fn the_provider_over_a_storage_the_caller_owns() {
    let storage = MemoryStorage {
        values: RwLock::new(Default::default()),
    };
    let provider = OpenMlsTypedHpke::with_storage(storage, PqKeyDerivation::default());
    let (signer, credential) = identity(&provider, "dave");
    let made = group(&provider, &signer, credential);
    // The storage comes back with the group in it.
    let storage = provider.into_storage();
    let loaded = MlsGroup::load(&storage, made.group_id()).unwrap().unwrap();
    assert_eq!(
        loaded.epoch_authenticator().as_slice(),
        made.epoch_authenticator().as_slice()
    );
}
