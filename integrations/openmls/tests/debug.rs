//! `{:?}` of the provider, with keys in its store, shows none of them.

use openmls::prelude::*;
use openmls_basic_credential::SignatureKeyPair;
use openmls_traits::OpenMlsProvider;
use typed_hpke_openmls::OpenMlsTypedHpke;

/// Ways a byte string can appear in derived `Debug` output: a `Vec<u8>`'s decimal list (its
/// first eight elements, so a truncated or nested print is still found) and lowercase hex.
fn forms(value: &[u8]) -> Vec<String> {
    let head = &value[..value.len().min(8)];
    let decimal = format!("{head:?}");
    let hex: String = value.iter().map(|b| format!("{b:02x}")).collect();
    vec![decimal[..decimal.len() - 1].to_string(), hex]
}

#[test]
fn provider_debug_shows_no_stored_key() {
    let provider = OpenMlsTypedHpke::default();
    let ciphersuite = Ciphersuite::MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519;
    let signer = SignatureKeyPair::new(ciphersuite.signature_algorithm()).unwrap();
    signer.store(provider.storage()).unwrap();
    let credential = CredentialWithKey {
        credential: BasicCredential::new(b"alice".to_vec()).into(),
        signature_key: signer.to_public_vec().into(),
    };
    // A key package stores its HPKE init private key and leaf encryption key.
    KeyPackage::builder()
        .build(ciphersuite, &provider, &signer, credential.clone())
        .unwrap();
    // A group stores its epoch secrets and leaf key.
    MlsGroup::builder()
        .ciphersuite(ciphersuite)
        .build(&provider, &signer, credential)
        .unwrap();

    let values: Vec<Vec<u8>> = provider
        .storage()
        .values
        .read()
        .unwrap()
        .values()
        .cloned()
        .collect();
    let secrets: Vec<&Vec<u8>> = values.iter().filter(|v| v.len() >= 32).collect();
    assert!(
        secrets.len() >= 4,
        "the store holds keys: {}",
        secrets.len()
    );

    // The search finds them where they are printed: OpenMLS' own storage `Debug` does.
    let leaky = format!("{:?}", provider.storage());
    assert!(
        secrets
            .iter()
            .all(|v| forms(v).iter().any(|f| leaky.contains(f)))
    );

    for shown in [
        format!("{provider:?}"),
        format!("{provider:#?}"),
        format!("{:?}", provider.crypto()),
    ] {
        for value in &secrets {
            for form in forms(value) {
                assert!(!shown.contains(&form), "{shown} shows a stored value");
            }
        }
        assert!(shown.len() < 200, "{shown}");
    }
}
