//! Key types: what a user can and cannot see or do with them.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768, MlKem1024P384, XWing,
};
use typed_hpke::{EncappedKey, Error, PrivateKey, PublicKey};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn key_behaviour<K: Kem>() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x6b657973);
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (other_sk, other_pk) = K::generate(&mut rng).unwrap();

    // Debug never shows the secret, but does show the public key.
    let secret_hex = hex(&sk.to_bytes());
    let shown = format!("{sk:?}");
    assert!(!shown.contains(&secret_hex), "{shown}");
    assert!(shown.contains("redacted"));
    assert!(shown.contains(&hex(pk.as_bytes())));
    let (ss, enc) = K::encap(&mut rng, &pk).unwrap();
    let shown = format!("{ss:?}");
    assert!(!shown.contains(&hex(ss.as_bytes())) && shown.contains("redacted"));

    // public_key() is the cached public key; equality and clones behave.
    assert_eq!(sk.public_key(), pk);
    assert_eq!(sk.clone(), sk);
    assert_ne!(sk, other_sk);
    assert_ne!(pk, other_pk);
    assert_eq!(pk.to_bytes().as_slice(), pk.as_bytes());

    // Serialization round trips for every key type.
    let sk2 = PrivateKey::<K>::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(sk2, sk);
    assert_eq!(sk2.public_key(), pk);
    assert_eq!(PublicKey::<K>::from_bytes(pk.as_bytes()).unwrap(), pk);
    let enc2 = EncappedKey::<K>::from_bytes(enc.as_bytes()).unwrap();
    assert_eq!(enc2, enc);
    assert_eq!(K::decap(&enc2, &sk2).unwrap(), ss);

    // A deterministic derivation is deterministic, and depends on every byte of the ikm.
    let (a, _) = K::derive_key_pair(b"some input keying material 32 b.").unwrap();
    let (b, _) = K::derive_key_pair(b"some input keying material 32 b.").unwrap();
    let (c, _) = K::derive_key_pair(b"some input keying material 32 c.").unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn keys_redact_compare_and_round_trip() {
    for_each_kem!(key_behaviour);
}

#[test]
fn sizes_are_fixed_and_small() {
    use std::mem::size_of;
    use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305};
    use typed_hpke::kdf::HkdfSha256;
    type X = DhKemX25519HkdfSha256;
    assert_eq!(
        size_of::<typed_hpke::Hpke<X, HkdfSha256, ChaCha20Poly1305>>(),
        0
    );
    // Fixed-size, stack-held keys: a private key is its secret, its cached public key and the
    // parsed point, nothing on the heap. With `aws-lc-rs` it also holds aws-lc's key and parsed
    // point (pointers to aws-lc's heap) beside the bytes.
    let bound = if cfg!(feature = "aws-lc-rs") {
        192
    } else {
        128
    };
    assert!(
        size_of::<PrivateKey<X>>() <= bound,
        "{}",
        size_of::<PrivateKey<X>>()
    );
    assert!(size_of::<EncappedKey<X>>() == 32);
    // A context holds the keyed cipher, the nonce, the sequence number and the exporter state.
    let chacha = size_of::<typed_hpke::SenderContext<X, HkdfSha256, ChaCha20Poly1305>>();
    let aes = size_of::<typed_hpke::SenderContext<X, HkdfSha256, Aes128Gcm>>();
    assert!(chacha < aes, "{chacha} {aes}");
}

/// A generator that hands out scripted blocks, one per `fill_bytes`, and counts the calls.
struct Script {
    blocks: Vec<Vec<u8>>,
    calls: usize,
}

impl rand_chacha::rand_core::TryRng for Script {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        unreachable!("the Weierstrass curves draw whole scalars with fill_bytes")
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        unreachable!("the Weierstrass curves draw whole scalars with fill_bytes")
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        // An empty request draws nothing: under aws-lc-rs it asks whether this is `OsRng`.
        if dst.is_empty() {
            return Ok(());
        }
        let block = &self.blocks[self.calls];
        assert_eq!(dst.len(), block.len(), "a candidate is Nsk bytes");
        dst.copy_from_slice(block);
        self.calls += 1;
        Ok(())
    }
}

impl rand_chacha::rand_core::TryCryptoRng for Script {}

/// GenerateKeyPair on the Weierstrass curves samples Nsk bytes, masks the top byte as
/// DeriveKeyPair's §7.1.3 candidates are masked (0x01 for P-521), and rejects zero and values
/// at or above the order: the first block here is rejected, the second accepted as masked.
#[test]
fn weierstrass_generation_masks_and_rejects() {
    fn run<K: Kem>(blocks: Vec<Vec<u8>>) -> (Vec<u8>, usize) {
        let mut rng = Script { blocks, calls: 0 };
        let (sk, pk) = K::generate(&mut rng).unwrap();
        assert_eq!(sk.public_key(), pk);
        (sk.to_bytes().to_vec(), rng.calls)
    }
    let scalar = |len: usize, last: u8| {
        let mut s = vec![0u8; len];
        s[len - 1] = last;
        s
    };
    // P-256: all-ones is above the order; 7 is taken.
    let (sk, calls) = run::<DhKemP256HkdfSha256>(vec![vec![0xff; 32], scalar(32, 7)]);
    assert_eq!((sk, calls), (scalar(32, 7), 2));
    // secp256k1: zero is rejected.
    let (sk, calls) = run::<DhKemSecp256k1HkdfSha256>(vec![vec![0; 32], scalar(32, 9)]);
    assert_eq!((sk, calls), (scalar(32, 9), 2));
    // P-521: all-ones masks to 2^521 - 1, above the order; a top byte of 0xfe masks to zero,
    // so the second block is the scalar 5 (unmasked it would be far above the order).
    let mut masked = scalar(66, 5);
    masked[0] = 0xfe;
    let (sk, calls) = run::<DhKemP521HkdfSha512>(vec![vec![0xff; 66], masked]);
    assert_eq!((sk, calls), (scalar(66, 5), 2));
}

/// A generator stuck on one byte value: all zeros or all ones, as a broken source gives.
struct Stuck {
    byte: u8,
    calls: usize,
}

impl rand_chacha::rand_core::TryRng for Stuck {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.calls += 1;
        Ok(u32::from_ne_bytes([self.byte; 4]))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.calls += 1;
        Ok(u64::from_ne_bytes([self.byte; 8]))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        // An empty request draws nothing (under aws-lc-rs it asks whether this is `OsRng`):
        // only draws count.
        if !dst.is_empty() {
            dst.fill(self.byte);
            self.calls += 1;
        }
        Ok(())
    }
}

impl rand_chacha::rand_core::TryCryptoRng for Stuck {}

/// On the curves that sample by rejection, a generator stuck on zero (the scalar 0) or on 0xff
/// (above the order, P-521's top byte masked) never yields a key: `generate` and every
/// encapsulation give up after 10,000 candidates with an error, where they used to loop forever.
/// Typed, prepared and runtime paths, every mode that draws an ephemeral key.
#[test]
fn a_stuck_generator_is_an_error_not_a_hang() {
    use typed_hpke::aead::ChaCha20Poly1305;
    use typed_hpke::kdf::HkdfSha256;
    use typed_hpke::kem::{AuthKem, DhKemP384HkdfSha384, PreparedPublicKey};
    use typed_hpke::suite::{SenderMode, Suite};
    use typed_hpke::{Hpke, Psk};

    fn run<K: AuthKem>() {
        let (sk, pk) = K::derive_key_pair(b"a stuck generator").unwrap();
        let prepared = PreparedPublicKey::new(&pk);
        let psk = Psk::new(&[7; 32], b"id").unwrap();
        let suite = Suite::new(K::ID, 0x0001, 0x0003).unwrap();
        let runtime_sk = suite.private_key_from_bytes(&sk.to_bytes()).unwrap();
        type H<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        for byte in [0x00, 0xff] {
            let stuck = || Stuck { byte, calls: 0 };
            let mut rng = stuck();
            assert_eq!(K::generate(&mut rng).err(), Some(Error::DeriveKeyPair));
            assert_eq!(
                rng.calls, 10_000,
                "{byte:#x}: one candidate per draw, then an error"
            );
            assert_eq!(K::encap(&mut stuck(), &pk).err(), Some(Error::Encap));
            assert_eq!(
                K::auth_encap(&mut stuck(), &pk, &sk).err(),
                Some(Error::Encap)
            );
            let err = H::<K>::seal_base(&mut stuck(), &prepared, b"", b"", b"m").err();
            assert_eq!(err, Some(Error::Encap));
            let err = H::<K>::setup_sender_psk(&mut stuck(), &pk, b"", &psk).err();
            assert_eq!(err, Some(Error::Encap));
            let err = H::<K>::setup_sender_auth(&mut stuck(), &prepared, b"", &sk).err();
            assert_eq!(err, Some(Error::Encap));
            let err = suite.generate_key_pair(&mut stuck()).err();
            assert_eq!(err, Some(Error::DeriveKeyPair));
            let mode = SenderMode::Auth(&runtime_sk);
            let err = suite
                .setup_sender(&mut stuck(), &pk.to_bytes()[..], b"", mode)
                .err();
            assert_eq!(err, Some(Error::Encap));
        }
    }
    run::<DhKemP256HkdfSha256>();
    run::<DhKemP384HkdfSha384>();
    run::<DhKemP521HkdfSha512>();
    run::<DhKemSecp256k1HkdfSha256>();

    // Where every string is a key (X25519 and X448, X-Wing's X25519 half) or the
    // generator's bytes are hashed first (ML-KEM), the same generators still give keys. The
    // NIST hybrids hash the key generation seed, but draw the ephemeral scalar's candidates
    // straight from the generator (draft-irtf-cfrg-hybrid-kems, RandomScalar), so their
    // encapsulation fails as the plain curves' does.
    fn works<K: Kem>(encap: Result<(), Error>) {
        for byte in [0x00, 0xff] {
            let (sk, pk) = K::generate(&mut Stuck { byte, calls: 0 }).unwrap();
            assert_eq!(sk.public_key(), pk);
            let got = K::encap(&mut Stuck { byte, calls: 0 }, &pk).map(|_| ());
            assert_eq!(got, encap, "{byte:#x}");
        }
    }
    works::<DhKemX25519HkdfSha256>(Ok(()));
    works::<DhKemX448HkdfSha512>(Ok(()));
    works::<MlKem768>(Ok(()));
    works::<XWing>(Ok(()));
    works::<typed_hpke::kem::MlKem768P256>(Err(Error::Encap));
    works::<MlKem1024P384>(Err(Error::Encap));
}

/// X25519 and X448 private keys serialize as the bytes they were made from, typed and runtime
/// (draft-ietf-hpke-hpke §7.1.2; RFC 9180 clamped them), and are the same key as their clamped
/// form: one public key, one shared secret.
#[test]
fn x25519_and_x448_private_keys_serialize_as_given() {
    fn run<K: Kem>(clamp: fn(&mut [u8])) {
        let mut rng = ChaCha20Rng::seed_from_u64(0xc1a3);
        let suite = typed_hpke::suite::Suite::new(K::ID, 0x0001, 0x0001).unwrap();
        let mut drawn = vec![0u8; K::NSk::USIZE];
        rand_chacha::rand_core::Rng::fill_bytes(&mut rng, &mut drawn);
        for bytes in [vec![0xff; K::NSk::USIZE], vec![0; K::NSk::USIZE], drawn] {
            let sk = PrivateKey::<K>::from_bytes(&bytes).unwrap();
            assert_eq!(&sk.to_bytes()[..], &bytes[..]);
            let runtime = suite.private_key_from_bytes(&bytes).unwrap();
            assert_eq!(&runtime.to_bytes()[..], &bytes[..]);
            assert_eq!(
                &typed_hpke::suite::PrivateKey::from(sk.clone()).to_bytes()[..],
                &bytes[..]
            );

            let mut clamped = bytes.clone();
            clamp(&mut clamped);
            assert_ne!(clamped, bytes);
            let clamped = PrivateKey::<K>::from_bytes(&clamped).unwrap();
            let pk = sk.public_key();
            assert_eq!(clamped.public_key(), pk);
            let (ss, enc) = K::encap(&mut rng, &pk).unwrap();
            assert_eq!(K::decap(&enc, &sk).unwrap(), ss);
            assert_eq!(K::decap(&enc, &clamped).unwrap(), ss);
        }
        // DeriveKeyPair's key is the expanded bytes as they are; the odds that 32 or 56
        // random bytes are already clamped are 1 in 8 and 1 in 4, so a few IKMs show it.
        let unclamped = (0u8..16)
            .filter(|&i| {
                let (sk, _) = K::derive_key_pair(&[i; 32]).unwrap();
                let mut c = sk.to_bytes().to_vec();
                clamp(&mut c);
                c != sk.to_bytes()[..]
            })
            .count();
        assert!(unclamped > 0);
    }
    run::<DhKemX25519HkdfSha256>(|k| {
        k[0] &= 248;
        k[31] = (k[31] & 127) | 64;
    });
    run::<DhKemX448HkdfSha512>(|k| {
        k[0] &= 252;
        k[55] |= 128;
    });
}

/// `PrivateKey::from_bytes_and_public` and its runtime form (and the runtime key pairs made
/// straight into bytes, `derive_key_pair_bytes` / `generate_key_pair_bytes`): with the key's own public key it
/// is the key `from_bytes` makes (equal, same public key, opens what is sealed to it). With
/// another key's public key, a DH-KEM takes it as given (no base-point multiplication) and
/// then opens nothing; ML-KEM and the hybrids, whose parse computes the public key anyway,
/// refuse it. The runtime form takes the public key serialized: a DH-KEM's that does not
/// deserialize is refused.
#[test]
fn keys_stored_with_their_public_key() {
    use typed_hpke::aead::{Aead, ChaCha20Poly1305};
    use typed_hpke::kdf::{HkdfSha256, Kdf};
    use typed_hpke::suite::{ReceiverMode, Suite};

    fn run<K: Kem>() {
        type H<K> = typed_hpke::Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        let mut rng = ChaCha20Rng::seed_from_u64(0x7061_6972);
        let (sk, pk) = K::generate(&mut rng).unwrap();
        let (_, other_pk) = K::generate(&mut rng).unwrap();
        let bytes = sk.to_bytes();
        let id = format!("{:#06x}", K::ID);

        let stored = PrivateKey::<K>::from_bytes_and_public(&bytes, &pk).unwrap();
        assert!(stored == sk, "{id}");
        assert_eq!(stored.public_key(), pk, "{id}");
        let (enc, ct) = H::<K>::seal_base(&mut rng, &pk, b"info", b"aad", b"pt").unwrap();
        let pt = H::<K>::open_base(&enc, &stored, b"info", b"aad", &ct).unwrap();
        assert_eq!(pt, b"pt", "{id}");

        let mismatched = PrivateKey::<K>::from_bytes_and_public(&bytes, &other_pk);
        let dh = K::ID < 0x0040;
        match mismatched {
            Ok(wrong) => {
                assert!(dh, "{id}: a mismatched public key accepted");
                assert_eq!(wrong.public_key(), other_pk, "{id}");
                assert_eq!(
                    H::<K>::open_base(&enc, &wrong, b"info", b"aad", &ct),
                    Err(Error::Open),
                    "{id}"
                );
            }
            Err(e) => {
                assert!(!dh, "{id}: a DH-KEM recomputed the public key");
                assert_eq!(e, Error::InvalidPrivateKey, "{id}");
            }
        }
        // A private key that does not parse is refused as `from_bytes` refuses it.
        let short = &bytes[..bytes.len() - 1];
        assert_eq!(
            PrivateKey::<K>::from_bytes_and_public(short, &pk).err(),
            Some(Error::InvalidPrivateKey),
            "{id}"
        );

        // The runtime form, on a suite of the KEM.
        let suite = Suite::new(K::ID, HkdfSha256::ID, ChaCha20Poly1305::ID).unwrap();
        // Key pairs serialized without runtime keys: the typed KEM's, byte for byte.
        let (sk_d, pk_d) = K::derive_key_pair(b"serialized").unwrap();
        let (sk_b, pk_b) = suite.kem().derive_key_pair_bytes(b"serialized").unwrap();
        assert_eq!(
            (&sk_b[..], &pk_b[..]),
            (&sk_d.to_bytes()[..], pk_d.as_bytes()),
            "{id}"
        );
        let (sk_g, pk_g) = K::generate(&mut ChaCha20Rng::seed_from_u64(9)).unwrap();
        let (sk_b, pk_b) = suite
            .kem()
            .generate_key_pair_bytes(&mut ChaCha20Rng::seed_from_u64(9))
            .unwrap();
        assert_eq!(
            (&sk_b[..], &pk_b[..]),
            (&sk_g.to_bytes()[..], pk_g.as_bytes()),
            "{id}"
        );
        let runtime = suite
            .kem()
            .private_key_from_bytes_and_public(&bytes, pk.as_bytes())
            .unwrap();
        assert_eq!(runtime.public_key().as_bytes(), pk.as_bytes(), "{id}");
        let pt = suite
            .open(
                enc.as_bytes(),
                &runtime,
                b"info",
                b"aad",
                &ct,
                ReceiverMode::Base,
            )
            .unwrap();
        assert_eq!(pt, b"pt", "{id}");
        let other = suite
            .kem()
            .private_key_from_bytes_and_public(&bytes, other_pk.as_bytes());
        assert_eq!(other.is_ok(), dh, "{id}");
        let too_short = &pk.as_bytes()[1..];
        let expected = if dh {
            Error::InvalidPublicKey
        } else {
            Error::InvalidPrivateKey
        };
        assert_eq!(
            suite
                .kem()
                .private_key_from_bytes_and_public(&bytes, too_short)
                .err(),
            Some(expected),
            "{id}"
        );
    }
    for_each_kem!(run);
}
