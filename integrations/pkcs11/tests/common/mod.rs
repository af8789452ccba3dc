//! What the token tests share: every mode of a DH-KEM and Base and PSK of a decapsulating KEM
//! with the receiver's key in the token, typed and runtime, against the same key in process.

#![allow(dead_code)]

use typed_hpke::aead::{Aead, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, Kdf};
use typed_hpke::kem::{AuthKem, ExternalDecap, ExternalDh, Kem};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Hpke, OsRng, PrivateKey, Psk};
use typed_hpke_pkcs11::{Token, TokenKey};

mod scan;
pub use scan::freed_blocks_holding;

pub const LABEL: &str = "typed-hpke";
pub const PIN: &str = "1234";
pub const INFO: &[u8] = b"pkcs11";
pub const AAD: &[u8] = b"aad";
pub const PT: &[u8] = b"opened by a key in the token";

/// A key of `K` made in process and imported into the token under `label`.
pub fn imported<K: Kem>(token: &Token, label: &str) -> (PrivateKey<K>, TokenKey) {
    let (sk, _) = K::generate(&mut OsRng::default()).unwrap();
    let key = token
        .import_key(&suite::PrivateKey::from(sk.clone()), label)
        .unwrap();
    assert_eq!(key.public_key().as_bytes(), sk.public_key().as_bytes());
    (sk, key)
}

/// Every mode of `Hpke<K, F, ChaCha20Poly1305>` with the receiver's key in the token, typed and
/// runtime, against the same key in process; then the token's key as an Auth sender.
pub fn curve<K: AuthKem, F: Kdf>(token: &Token) {
    type A = ChaCha20Poly1305;
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = OsRng::default();
    let (sk_r, token_r) = imported::<K>(token, &format!("receiver {name}"));
    let (sk_s, token_s) = imported::<K>(token, &format!("sender {name}"));
    let (pk_r, pk_s) = (sk_r.public_key(), sk_s.public_key());
    let typed_r = ExternalDh(token_r.typed::<K>().unwrap());
    let runtime_r = ExternalDh(token_r.clone());
    let runtime = Suite::new(K::ID, F::ID, A::ID).unwrap();
    let rt_pk_s = suite::PublicKey::from(pk_s.clone());
    let psk_bytes = [9u8; 32];
    let psk = Psk::new(&psk_bytes, b"psk id").unwrap();
    type S<K, F> = Hpke<K, F, ChaCha20Poly1305>;
    for mode in ["base", "psk", "auth", "auth_psk"] {
        let (enc, ct) = match mode {
            "base" => S::<K, F>::seal_base(&mut rng, &pk_r, INFO, AAD, PT),
            "psk" => S::<K, F>::seal_psk(&mut rng, &pk_r, INFO, AAD, PT, &psk),
            "auth" => S::<K, F>::seal_auth(&mut rng, &pk_r, INFO, AAD, PT, &sk_s),
            _ => S::<K, F>::seal_auth_psk(&mut rng, &pk_r, INFO, AAD, PT, &psk, &sk_s),
        }
        .unwrap();
        // Typed: a context from each key, and the single-shot open with the token's.
        let (mut in_process, mut held, opened) = match mode {
            "base" => (
                S::<K, F>::setup_receiver_base(&enc, &sk_r, INFO).unwrap(),
                S::<K, F>::setup_receiver_base(&enc, &typed_r, INFO).unwrap(),
                S::<K, F>::open_base(&enc, &typed_r, INFO, AAD, &ct).unwrap(),
            ),
            "psk" => (
                S::<K, F>::setup_receiver_psk(&enc, &sk_r, INFO, &psk).unwrap(),
                S::<K, F>::setup_receiver_psk(&enc, &typed_r, INFO, &psk).unwrap(),
                S::<K, F>::open_psk(&enc, &typed_r, INFO, AAD, &ct, &psk).unwrap(),
            ),
            "auth" => (
                S::<K, F>::setup_receiver_auth(&enc, &sk_r, INFO, &pk_s).unwrap(),
                S::<K, F>::setup_receiver_auth(&enc, &typed_r, INFO, &pk_s).unwrap(),
                S::<K, F>::open_auth(&enc, &typed_r, INFO, AAD, &ct, &pk_s).unwrap(),
            ),
            _ => (
                S::<K, F>::setup_receiver_auth_psk(&enc, &sk_r, INFO, &psk, &pk_s).unwrap(),
                S::<K, F>::setup_receiver_auth_psk(&enc, &typed_r, INFO, &psk, &pk_s).unwrap(),
                S::<K, F>::open_auth_psk(&enc, &typed_r, INFO, AAD, &ct, &psk, &pk_s).unwrap(),
            ),
        };
        assert_eq!(opened, PT, "{name} {mode}");
        let (mut a, mut b, mut c) = ([0u8; 32], [0u8; 32], [0u8; 32]);
        in_process.export(b"x", &mut a).unwrap();
        held.export(b"x", &mut b).unwrap();
        assert_eq!(a, b, "{name} {mode}: typed exports");
        assert_eq!(
            held.open(AAD, &ct).unwrap(),
            in_process.open(AAD, &ct).unwrap()
        );

        // Runtime: the same mode as a value.
        let rt_mode = match mode {
            "base" => ReceiverMode::Base,
            "psk" => ReceiverMode::Psk(&psk),
            "auth" => ReceiverMode::Auth(&rt_pk_s),
            _ => ReceiverMode::AuthPsk(&psk, &rt_pk_s),
        };
        runtime
            .receive_export(enc.as_bytes(), &runtime_r, INFO, b"x", &mut c, rt_mode)
            .unwrap();
        assert_eq!(a, c, "{name} {mode}: runtime export");
        let rt = runtime.open(enc.as_bytes(), &runtime_r, INFO, AAD, &ct, rt_mode);
        assert_eq!(rt.unwrap(), PT, "{name} {mode}: runtime open");
    }

    // The token's key as the Auth sender's static key, typed and runtime.
    let typed_s = ExternalDh(token_s.typed::<K>().unwrap());
    let (enc, ct) = S::<K, F>::seal_auth(&mut rng, &pk_r, INFO, AAD, PT, &typed_s).unwrap();
    let opened = S::<K, F>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s).unwrap();
    assert_eq!(opened, PT, "{name}: typed sender");
    let held_s = ExternalDh(token_s.clone());
    for rt_mode in [
        SenderMode::Auth(&held_s),
        SenderMode::AuthPsk(&psk, &held_s),
    ] {
        let rt_pk_r = suite::PublicKey::from(pk_r.clone());
        let (enc, ct) = runtime
            .seal(&mut rng, &rt_pk_r, INFO, AAD, PT, rt_mode)
            .unwrap();
        let enc = EncappedKey::<K>::from_bytes(&enc).unwrap();
        let opened = match rt_mode {
            SenderMode::Auth(_) => S::<K, F>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s),
            _ => S::<K, F>::open_auth_psk(&enc, &sk_r, INFO, AAD, &ct, &psk, &pk_s),
        };
        assert_eq!(opened.unwrap(), PT, "{name}: runtime sender");
    }
    token.destroy_key(&format!("receiver {name}")).unwrap();
    token.destroy_key(&format!("sender {name}")).unwrap();
}

/// Keys of each of `kems` generated on the token: found again by label and by id with the same
/// public key, and opening what is sealed to it (`ExternalDh` for a DH-KEM, `ExternalDecap`
/// for the others).
pub fn generated(token: &Token, kems: &[u16]) {
    for &kem in kems {
        let label = format!("generated {kem:#06x}");
        let key = token.generate_key(kem, &label).unwrap();
        assert_eq!(key.public_key().kem_id(), kem);
        let again = token.key(&label).unwrap();
        assert_eq!(again.public_key(), key.public_key(), "{label}");
        let by_id = token.key_by_id(key.id()).unwrap();
        assert_eq!(by_id.public_key(), key.public_key(), "{label}");
        opens(&again);
        token.destroy_key(&label).unwrap();
        assert!(token.key(&label).is_err());
    }
}

/// Base and PSK of `Hpke<K, HKDF-SHA256, ChaCha20-Poly1305>` with the receiver's key in the
/// token as a decapsulating holder (ML-KEM, the hybrids), typed and runtime, against the same
/// key in process: the same plaintexts and exports, implicit rejection of a tampered `enc`
/// included (the same pseudorandom secret in the token as here).
pub fn decapsulating<K: Kem>(token: &Token) {
    type F = HkdfSha256;
    type A = ChaCha20Poly1305;
    type S<K> = Hpke<K, F, A>;
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = OsRng::default();
    let (sk, key) = imported::<K>(token, &format!("receiver {name}"));
    let pk = sk.public_key();
    let typed = ExternalDecap(key.typed::<K>().unwrap());
    let runtime_key = ExternalDecap(key.clone());
    let runtime = Suite::new(K::ID, F::ID, A::ID).unwrap();
    let psk_bytes = [9u8; 32];
    let psk = Psk::new(&psk_bytes, b"psk id").unwrap();
    for mode in ["base", "psk"] {
        let (enc, ct) = match mode {
            "base" => S::<K>::seal_base(&mut rng, &pk, INFO, AAD, PT),
            _ => S::<K>::seal_psk(&mut rng, &pk, INFO, AAD, PT, &psk),
        }
        .unwrap();
        let mut tampered = enc.as_bytes().to_vec();
        tampered[5] ^= 0x20;
        let tampered = EncappedKey::<K>::from_bytes(&tampered).unwrap();
        for (what, enc) in [("honest", &enc), ("tampered", &tampered)] {
            let (mut in_process, mut held) = match mode {
                "base" => (
                    S::<K>::setup_receiver_base(enc, &sk, INFO).unwrap(),
                    S::<K>::setup_receiver_base(enc, &typed, INFO).unwrap(),
                ),
                _ => (
                    S::<K>::setup_receiver_psk(enc, &sk, INFO, &psk).unwrap(),
                    S::<K>::setup_receiver_psk(enc, &typed, INFO, &psk).unwrap(),
                ),
            };
            let (mut a, mut b, mut c) = ([0u8; 32], [0u8; 32], [0u8; 32]);
            in_process.export(b"x", &mut a).unwrap();
            held.export(b"x", &mut b).unwrap();
            assert_eq!(a, b, "{name} {mode} {what}: typed exports");
            let rt_mode = match mode {
                "base" => ReceiverMode::Base,
                _ => ReceiverMode::Psk(&psk),
            };
            runtime
                .receive_export(enc.as_bytes(), &runtime_key, INFO, b"x", &mut c, rt_mode)
                .unwrap();
            assert_eq!(a, c, "{name} {mode} {what}: runtime export");
            if what == "honest" {
                assert_eq!(held.open(AAD, &ct).unwrap(), PT, "{name} {mode}");
                assert_eq!(in_process.open(AAD, &ct).unwrap(), PT);
                let opened = runtime.open(enc.as_bytes(), &runtime_key, INFO, AAD, &ct, rt_mode);
                assert_eq!(opened.unwrap(), PT, "{name} {mode}: runtime open");
            }
        }
    }
    // Found again by label and by id: the same key.
    let again = token.key(&format!("receiver {name}")).unwrap();
    assert_eq!(again.public_key(), key.public_key());
    assert_eq!(again.id(), key.id());
    token.destroy_key(&format!("receiver {name}")).unwrap();
    let _ = suite::PublicKey::from(pk);
}

/// Seals to `key`'s public key (Base mode) and opens with the token (`ExternalDh` for a DH-KEM,
/// `ExternalDecap` for the others): the key published is the token's.
pub fn opens(key: &TokenKey) {
    let kem = key.public_key().kem_id();
    let suite = Suite::new(kem, 1, 3).unwrap();
    let (enc, ct) = suite
        .seal(
            &mut OsRng::default(),
            key.public_key(),
            INFO,
            AAD,
            PT,
            SenderMode::Base,
        )
        .unwrap();
    let pt = if suite.supports_auth() {
        suite.open(&enc, &ExternalDh(key), INFO, AAD, &ct, ReceiverMode::Base)
    } else {
        suite.open(
            &enc,
            &ExternalDecap(key),
            INFO,
            AAD,
            &ct,
            ReceiverMode::Base,
        )
    };
    assert_eq!(pt.unwrap(), PT, "kem {kem:#06x}");
}

/// A holder that records what the token answered, for the first pass of the scan.
pub struct Recording<'a>(pub &'a TokenKey, pub std::cell::RefCell<Vec<Vec<u8>>>);

impl typed_hpke::suite::DhHolder for Recording<'_> {
    type Error = typed_hpke_pkcs11::Error;
    fn public_key(&self) -> &typed_hpke::suite::PublicKey {
        self.0.public_key()
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), typed_hpke_pkcs11::Error> {
        typed_hpke::suite::DhHolder::dh(self.0, peer, out)?;
        self.1.borrow_mut().push(out.to_vec());
        Ok(())
    }
}

impl typed_hpke::suite::DecapHolder for Recording<'_> {
    type Error = typed_hpke_pkcs11::Error;
    fn public_key(&self) -> &typed_hpke::suite::PublicKey {
        self.0.public_key()
    }
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), typed_hpke_pkcs11::Error> {
        typed_hpke::suite::DecapHolder::decapsulate(self.0, enc, out)?;
        self.1.borrow_mut().push(out.to_vec());
        Ok(())
    }
}
