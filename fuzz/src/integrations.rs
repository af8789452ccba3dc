//! The integrations' network-facing entry points (feature `integrations`): what a peer's bytes
//! reach in the rustls HPKE provider (ECH) and the OpenMLS provider. Bad bytes are errors;
//! what a valid key seals, the same entry points open.

use openmls_traits::crypto::OpenMlsCrypto;
use openmls_traits::types::{HpkeAeadType, HpkeCiphertext, HpkeConfig, HpkeKdfType, HpkeKemType};
use rustls::crypto::hpke::{EncapsulatedSecret, HpkePrivateKey, HpkePublicKey};
use typed_hpke::suite::Suite;

use crate::Input;
use crate::suite::runtime_keys;

/// A key pair for the suite, derived once per process, as the provider's key types.
fn rustls_keys(suite: &Suite) -> (HpkePublicKey, HpkePrivateKey) {
    let [(sk, pk), _] = runtime_keys(suite);
    (
        HpkePublicKey(pk.as_bytes().to_vec()),
        HpkePrivateKey::from(sk.to_bytes().to_vec()),
    )
}

/// `rustls`: for any suite the provider lists, `open` and `setup_opener` with arbitrary `enc`,
/// info, aad and ciphertext, under the suite's own key or arbitrary key bytes; then a seal to
/// the suite's key must open to the same plaintext, in one shot and through the contexts.
pub fn rustls(data: &[u8]) {
    let suites = typed_hpke_rustls::ALL_SUPPORTED_SUITES;
    let mut input = Input(data);
    let hpke = suites[usize::from(input.byte()) % suites.len()];
    let how = input.byte();
    let key = input.slice();
    let enc = EncapsulatedSecret(input.slice().to_vec());
    let info = input.slice();
    let aad = input.slice();
    let ct = input.rest();

    let s = hpke.suite();
    let suite = Suite::new(
        u16::from(s.kem),
        u16::from(s.sym.kdf_id),
        u16::from(s.sym.aead_id),
    )
    .expect("the provider lists only suites typed-hpke has");
    let (pk, own_sk) = rustls_keys(&suite);
    let sk = if how & 1 == 0 {
        own_sk
    } else {
        HpkePrivateKey::from(key.to_vec())
    };
    if how & 2 == 0 {
        let _ = hpke.open(&enc, info, aad, ct, &sk);
    } else if let Ok(mut opener) = hpke.setup_opener(&enc, info, &sk) {
        let _ = opener.open(aad, ct);
        let _ = opener.open(aad, ct);
    }

    let (_, own_sk) = rustls_keys(&suite);
    let (enc, sealed) = hpke.seal(info, aad, ct, &pk).expect("seal to a valid key");
    let opened = hpke.open(&enc, info, aad, &sealed, &own_sk).expect("open");
    assert_eq!(opened, ct);
    let (enc, mut sealer) = hpke.setup_sealer(info, &pk).expect("setup_sealer");
    let mut opener = hpke
        .setup_opener(&enc, info, &own_sk)
        .expect("setup_opener");
    for _ in 0..2 {
        let sealed = sealer.seal(aad, ct).expect("seal");
        assert_eq!(opener.open(aad, &sealed).expect("open"), ct);
    }
}

const KEMS: [HpkeKemType; 8] = [
    HpkeKemType::DhKemP256,
    HpkeKemType::DhKemP384,
    HpkeKemType::DhKemP521,
    HpkeKemType::DhKem25519,
    HpkeKemType::DhKem448,
    HpkeKemType::MlKem768,
    HpkeKemType::MlKem1024,
    HpkeKemType::XWingKemDraft6,
];
const KDFS: [HpkeKdfType; 3] = [
    HpkeKdfType::HkdfSha256,
    HpkeKdfType::HkdfSha384,
    HpkeKdfType::HkdfSha512,
];
const AEADS: [HpkeAeadType; 4] = [
    HpkeAeadType::AesGcm128,
    HpkeAeadType::AesGcm256,
    HpkeAeadType::ChaCha20Poly1305,
    HpkeAeadType::Export,
];

/// `openmls`: any HPKE configuration OpenMLS can name; `hpke_open` and
/// `hpke_setup_receiver_and_export` with arbitrary `enc`, ciphertext, key bytes, info, aad,
/// exporter context and length, and `derive_hpke_keypair` of arbitrary ikm, whose key pair
/// must then seal and open, and export the same secret on both sides.
pub fn openmls(data: &[u8]) {
    let crypto = typed_hpke_openmls::TypedHpkeCrypto::<openmls_rust_crypto::RustCrypto>::default();
    let mut input = Input(data);
    let (kem, kdf, aead) = (
        KEMS[usize::from(input.byte()) % KEMS.len()],
        KDFS[usize::from(input.byte()) % KDFS.len()],
        AEADS[usize::from(input.byte()) % AEADS.len()],
    );
    // `HpkeConfig` is not `Copy`; each call takes its own.
    let config = || HpkeConfig(kem, kdf, aead);
    let how = input.byte();
    let key = input.slice();
    let enc = input.slice();
    let info = input.slice();
    let aad = input.slice();
    let len = usize::from(input.u16());
    let rest = input.rest();
    match how % 3 {
        0 => {
            let ct = HpkeCiphertext {
                kem_output: enc.to_vec().into(),
                ciphertext: rest.to_vec().into(),
            };
            let _ = crypto.hpke_open(config(), &ct, key, info, aad);
        }
        1 => {
            let _ = crypto.hpke_setup_receiver_and_export(config(), enc, key, info, aad, len);
        }
        _ => {
            let Ok(pair) = crypto.derive_hpke_keypair(config(), key) else {
                return;
            };
            let sk: &[u8] = pair.private.as_ref();
            if aead != HpkeAeadType::Export {
                let ct = crypto
                    .hpke_seal(config(), &pair.public, info, aad, rest)
                    .expect("seal to a derived key");
                let pt = crypto
                    .hpke_open(config(), &ct, sk, info, aad)
                    .expect("open");
                assert_eq!(pt, rest);
            }
            if let Ok((enc, sent)) =
                crypto.hpke_setup_sender_and_export(config(), &pair.public, info, aad, len)
            {
                let got = crypto
                    .hpke_setup_receiver_and_export(config(), &enc, sk, info, aad, len)
                    .expect("receiver of our own enc");
                assert_eq!(sent.as_ref(), got.as_ref());
            }
        }
    }
}

/// `mls-rs`: any suite typed-hpke-mls-rs offers (RFC 9420's with its default inner provider
/// and the draft-ietf-mls-pq-ciphersuites ones); `hpke_open` (Base or PSK) and `hpke_setup_r`
/// with arbitrary `kem_output`, ciphertext, secret and public key bytes, info and aad;
/// `kem_public_key_validate` of arbitrary bytes; and `kem_derive` of arbitrary ikm, whose key
/// pair must then seal and open, through the contexts too, and export alike on both sides.
pub fn mls_rs(data: &[u8]) {
    use mls_rs_core::crypto::{
        CipherSuiteProvider, CryptoProvider, HpkeCiphertext, HpkeContextR, HpkeContextS, HpkePsk,
        HpkePublicKey, HpkeSecretKey,
    };
    use typed_hpke_mls_rs::{DraftPqSuite, RustCryptoProvider, TypedHpkeProvider};

    let provider = DraftPqSuite::ALL.iter().enumerate().fold(
        TypedHpkeProvider::new(RustCryptoProvider::default()),
        |p, (i, s)| {
            p.with_draft_pq_suite(mls_rs_core::crypto::CipherSuite::new(0xf0a0 + i as u16), *s)
                .expect("a free code point")
        },
    );
    let suites = provider.supported_cipher_suites();
    let mut input = Input(data);
    let cs = suites[usize::from(input.byte()) % suites.len()];
    let cs = provider.cipher_suite_provider(cs).expect("a listed suite");
    let how = input.byte();
    let sk = HpkeSecretKey::from(input.slice().to_vec());
    let pk = HpkePublicKey::from(input.slice().to_vec());
    let enc = input.slice().to_vec();
    let info = input.slice();
    let aad = input.slice();
    let psk_id = input.slice();
    let rest = input.rest();
    let aad = (how & 4 == 0).then_some(aad);
    match how % 4 {
        0 => {
            let ct = HpkeCiphertext {
                kem_output: enc,
                ciphertext: rest.to_vec(),
            };
            let _ = cs.hpke_open(&ct, &sk, &pk, info, aad);
            let psk = HpkePsk::new(psk_id, rest);
            let _ = cs.hpke_open_psk(&ct, &sk, &pk, info, aad, psk);
        }
        1 => {
            if let Ok(mut r) = cs.hpke_setup_r(&enc, &sk, &pk, info) {
                let _ = r.open(aad, rest);
                let _ = r.export(info, rest.len());
            }
        }
        2 => {
            let _ = cs.kem_public_key_validate(&HpkePublicKey::from(rest.to_vec()));
        }
        _ => {
            let (sk, pk) = cs.kem_derive(rest).expect("DeriveKeyPair of any ikm");
            cs.kem_public_key_validate(&pk)
                .expect("a derived public key");
            let ct = cs
                .hpke_seal(&pk, info, aad, rest)
                .expect("seal to a derived key");
            let pt = cs.hpke_open(&ct, &sk, &pk, info, aad).expect("open");
            assert_eq!(&*pt, rest);
            let (enc, mut s) = cs.hpke_setup_s(&pk, info).expect("setup_s");
            let mut r = cs.hpke_setup_r(&enc, &sk, &pk, info).expect("setup_r");
            let sealed = s.seal(aad, rest).expect("context seal");
            assert_eq!(&*r.open(aad, &sealed).expect("context open"), rest);
            let len = rest.len() % 256;
            assert_eq!(
                s.export(psk_id, len).expect("export"),
                r.export(psk_id, len).expect("export")
            );
        }
    }
}
