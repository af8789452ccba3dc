//! Keys made with [`typed_hpke::OsRng`] on the NIST curves. With the `aws-lc-rs` feature they
//! come from aws-lc's own key generation (one base-point multiplication) instead of a scalar
//! drawn from the generator and imported (two); without it, from the generator as always. Both
//! backends run this file (`.ci/run`), so on each of them: every entry point that makes a key
//! takes `OsRng` and gives keys that work with the other side, fresh on every call; any other
//! generator, here a counting wrapper around `OsRng` itself, is still drawn from, so a seeded
//! generator's keys and `enc` stay what the known-answer tests pin under both backends.

use std::collections::HashSet;

use typed_hpke::aead::Aes128Gcm;
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::{HkdfSha256, Kdf};
use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, Kem};
use typed_hpke::rand_core::{TryCryptoRng, TryRng};
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
use typed_hpke::{Hpke, OsRng, PrivateKey};

const INFO: &[u8] = b"os rng info";
const AAD: &[u8] = b"os rng aad";
const PT: &[u8] = b"os rng plaintext";

/// `OsRng` behind a generator of its own: it counts the bytes it hands out, and answers an empty
/// request itself, so the crate cannot tell it from any other generator and must draw from it.
/// (One that passes every request on to `OsRng`, the empty one included, is `OsRng` to the
/// crate: `backend::aws_lc::dh`'s unit test.)
struct Counted(OsRng, usize);

impl TryRng for Counted {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.1 += 4;
        self.0.try_next_u32()
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.1 += 8;
        self.0.try_next_u64()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        if dst.is_empty() {
            return Ok(());
        }
        self.1 += dst.len();
        self.0.try_fill_bytes(dst)
    }
}

impl TryCryptoRng for Counted {}

fn nist<K: Kem, F: Kdf>() {
    type H<K, F> = Hpke<K, F, Aes128Gcm>;
    let name = format!("kem {:#06x}", K::ID);
    let mut rng = OsRng::default();

    // Kem::generate: a consistent pair whose private key round-trips, fresh each time.
    let mut seen = HashSet::new();
    for _ in 0..8 {
        let (sk, pk) = K::generate(&mut rng).unwrap();
        assert_eq!(sk.public_key(), pk, "{name}: generate");
        let bytes = sk.to_bytes();
        let again = PrivateKey::<K>::from_bytes(&bytes).unwrap();
        assert_eq!(
            again.public_key(),
            pk,
            "{name}: the generated key re-parses"
        );
        assert!(
            seen.insert(bytes.to_vec()),
            "{name}: generate repeated a key"
        );
    }

    let (sk, pk) = K::derive_key_pair(&[0x42; 80]).unwrap();

    // encap and the prepared key's encap: fresh ephemerals that decapsulate.
    let mut encs = HashSet::new();
    let prepared = typed_hpke::kem::PreparedPublicKey::new(&pk);
    for _ in 0..4 {
        let (ss, enc) = K::encap(&mut rng, &pk).unwrap();
        assert_eq!(K::decap(&enc, &sk).unwrap(), ss, "{name}: encap");
        assert!(
            encs.insert(enc.to_bytes().to_vec()),
            "{name}: encap repeated"
        );
        let (ss, enc) = prepared.encap(&mut rng).unwrap();
        assert_eq!(K::decap(&enc, &sk).unwrap(), ss, "{name}: prepared encap");
        assert!(
            encs.insert(enc.to_bytes().to_vec()),
            "{name}: prepared encap repeated"
        );
    }

    // Typed single-shot and context, plain and prepared key, every mode's sender.
    let (enc, ct) = H::<K, F>::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    assert_eq!(
        H::<K, F>::open_base(&enc, &sk, INFO, AAD, &ct).unwrap(),
        PT,
        "{name}"
    );
    let (enc, mut sender) = H::<K, F>::setup_sender_base(&mut rng, &prepared, INFO).unwrap();
    let mut receiver = H::<K, F>::setup_receiver_base(&enc, &sk, INFO).unwrap();
    assert_eq!(
        receiver.open(AAD, &sender.seal(AAD, PT).unwrap()).unwrap(),
        PT
    );

    // The runtime API, which hands the same generator down.
    let suite = Suite::of::<K, F, Aes128Gcm>();
    let (rt_sk, rt_pk) = suite.generate_key_pair(&mut rng).unwrap();
    let (enc, ct) = suite
        .seal(&mut rng, &rt_pk, INFO, AAD, PT, SenderMode::Base)
        .unwrap();
    assert_eq!(
        suite
            .open(&enc, &rt_sk, INFO, AAD, &ct, ReceiverMode::Base)
            .unwrap(),
        PT,
        "{name}: runtime"
    );

    // Another type is drawn from, in full: an Nsk-byte scalar at least for each key.
    let mut counted = Counted(OsRng::default(), 0);
    let (sk_c, pk_c) = K::generate(&mut counted).unwrap();
    assert_eq!(sk_c.public_key(), pk_c);
    assert!(
        counted.1 >= K::NSk::USIZE,
        "{name}: generate drew {} bytes",
        counted.1
    );
    counted.1 = 0;
    let (ss, enc) = K::encap(&mut counted, &pk).unwrap();
    assert_eq!(K::decap(&enc, &sk).unwrap(), ss);
    assert!(
        counted.1 >= K::NSk::USIZE,
        "{name}: encap drew {} bytes",
        counted.1
    );
}

#[test]
fn p256() {
    nist::<DhKemP256HkdfSha256, HkdfSha256>();
}

#[test]
fn p384() {
    nist::<DhKemP384HkdfSha384, HkdfSha256>();
}

#[test]
fn p521() {
    nist::<DhKemP521HkdfSha512, HkdfSha256>();
}
