//! The provider over a storage the caller owns (`OpenMlsTypedHpke::with_storage`): a Welcome
//! refused (OpenMLS deletes the KeyPackage's keys from the storage before it decrypts the
//! group's secrets) is opened on the storage as it was saved before the first attempt.

use std::sync::RwLock;

use openmls::prelude::tls_codec::{Deserialize, Serialize};
use openmls::prelude::*;
use openmls_basic_credential::SignatureKeyPair;
use openmls_rust_crypto::MemoryStorage;
use openmls_traits::OpenMlsProvider;
use typed_hpke_openmls::{OpenMlsTypedHpke, PqKeyDerivation};

fn identity(
    provider: &impl OpenMlsProvider,
    name: &str,
    cs: Ciphersuite,
) -> (SignatureKeyPair, CredentialWithKey) {
    let signer = SignatureKeyPair::new(cs.signature_algorithm()).unwrap();
    signer.store(provider.storage()).unwrap();
    let credential = CredentialWithKey {
        credential: BasicCredential::new(name.as_bytes().to_vec()).into(),
        signature_key: signer.to_public_vec().into(),
    };
    (signer, credential)
}

fn join(provider: &impl OpenMlsProvider, welcome: &[u8]) -> Result<MlsGroup, String> {
    let MlsMessageBodyIn::Welcome(welcome) = MlsMessageIn::tls_deserialize_exact(welcome)
        .map_err(|e| format!("{e:?}"))?
        .extract()
    else {
        return Err("not a Welcome".into());
    };
    let config = MlsGroupJoinConfig::builder()
        .use_ratchet_tree_extension(true)
        .build();
    StagedWelcome::new_from_welcome(provider, &config, welcome, None)
        .map_err(|e| format!("{e:?}"))?
        .into_group(provider)
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn a_refused_welcome_is_opened_on_the_saved_storage() {
    let cs = Ciphersuite::MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519;
    let alice = OpenMlsTypedHpke::default();
    let (alice_signer, alice_credential) = identity(&alice, "alice", cs);
    let config = MlsGroupCreateConfig::builder()
        .ciphersuite(cs)
        .use_ratchet_tree_extension(true)
        .build();
    let mut group = MlsGroup::new(&alice, &alice_signer, &config, alice_credential).unwrap();

    let bob = OpenMlsTypedHpke::default();
    let (bob_signer, bob_credential) = identity(&bob, "bob", cs);
    let key_package = KeyPackage::builder()
        .build(cs, &bob, &bob_signer, bob_credential)
        .unwrap()
        .key_package()
        .clone();
    let (_, welcome, _) = group
        .add_members(&alice, &alice_signer, &[key_package])
        .unwrap();
    group.merge_pending_commit(&alice).unwrap();
    let welcome = welcome.tls_serialize_detached().unwrap();

    // Saved before the first attempt, as an application keeps its storage.
    let saved = bob.storage().values.read().unwrap().clone();
    // The last byte is in the encrypted GroupInfo: the group secrets open, the GroupInfo not.
    let mut tampered = welcome.clone();
    *tampered.last_mut().unwrap() ^= 1;
    assert!(join(&bob, &tampered).is_err());
    // The KeyPackage's keys went with the refused attempt: the honest Welcome cannot open on
    // the same storage.
    let again = join(&bob, &welcome);
    assert!(again.is_err(), "the KeyPackage survived a refused Welcome");
    // On the saved storage it opens, and Bob is in Alice's group.
    let retry = OpenMlsTypedHpke::with_storage(
        MemoryStorage {
            values: RwLock::new(saved.clone()),
        },
        PqKeyDerivation::default(),
    );
    let joined = join(&retry, &welcome).unwrap();
    assert_eq!(
        joined.epoch_authenticator().as_slice(),
        group.epoch_authenticator().as_slice()
    );
    // The storage comes back with the group's state in it.
    let storage = retry.into_storage();
    assert!(storage.values.read().unwrap().len() > saved.len());
}
