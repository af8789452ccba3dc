//! Regression tests for the bug classes other HPKE libraries shipped (issue 55), each on the
//! typed API, the runtime API and, where it has the operation, the symmetric surface. They run
//! on whichever backend the build has (`.ci/run` runs this file on all three):
//!
//! - a sequence counter that wraps and reuses nonces (hpke-rs' 32-bit counter; Go's,
//!   golang/go#80342): [`sequence_limit_every_aead`];
//! - exports longer than the KDF's limit silently truncated (hpke-rs, RUSTSEC-2026-0069):
//!   [`over_long_exports_refused_not_truncated`];
//! - a missing all-zero check on the X25519 output (hpke-rs):
//!   [`all_zero_dh_output_refused`];
//! - an empty PSK treated as present (cloudflare/circl#612): [`empty_or_absent_psk`];
//! - a concurrent `Seal` race (hpke-js, CVE-2025-64767): sealing needs `&mut`, so two threads
//!   cannot seal on one context (`tests/compile_fail/context_sealed_from_two_threads.rs`).
#![cfg(feature = "hazmat")]

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::kdf::TwoStageKdf;
use typed_hpke::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use typed_hpke::kem::{
    DhHolder, DhKemX448HkdfSha512, DhKemX25519HkdfSha256, ExternalDh, HeldKeyError, Kem, PublicKey,
};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::symmetric::{Opener, Prk, Sealer};
use typed_hpke::{EncappedKey, Error, Hpke, OsRng, Psk};

type X25519 = DhKemX25519HkdfSha256;

/// The last sequence number seals and opens; the next is refused on both sides, before the
/// buffer is touched, and the counter does not wrap back to a used nonce.
fn sequence_limit<A: SealingAead>() {
    type H<A> = Hpke<X25519, HkdfSha256, A>;
    let mut rng = OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng).unwrap();
    let last = u64::MAX - 1;

    // Typed contexts.
    let (enc, mut sender) = H::<A>::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let mut receiver = H::<A>::setup_receiver_base(&enc, &sk, b"").unwrap();
    sender.set_sequence_number_for_testing_only(last);
    receiver.set_sequence_number_for_testing_only(last);
    let ct = sender.seal(b"", b"last").unwrap();
    assert_eq!(receiver.open(b"", &ct).unwrap(), b"last");
    let mut buf = *b"next";
    assert_eq!(
        sender.seal_in_place_detached(b"", &mut buf),
        Err(Error::MessageLimitReached)
    );
    assert_eq!(&buf, b"next");
    assert_eq!(receiver.open(b"", &ct), Err(Error::MessageLimitReached));
    assert_eq!(sender.sequence_number(), u64::MAX);

    // Runtime contexts.
    let suite = Suite::new(X25519::ID, HkdfSha256::ID, A::ID).unwrap();
    let (enc, mut sender) = suite
        .setup_sender(&mut rng, &pk.to_bytes()[..], b"", SenderMode::Base)
        .unwrap();
    let mut receiver = suite
        .setup_receiver(enc.as_bytes(), &sk.to_bytes()[..], b"", ReceiverMode::Base)
        .unwrap();
    sender.set_sequence_number_for_testing_only(last);
    receiver.set_sequence_number_for_testing_only(last);
    let ct = sender.seal(b"", b"last").unwrap();
    assert_eq!(receiver.open(b"", &ct).unwrap(), b"last");
    assert_eq!(sender.seal(b"", b"next"), Err(Error::MessageLimitReached));
    assert_eq!(receiver.open(b"", &ct), Err(Error::MessageLimitReached));

    // The symmetric surface, typed and runtime.
    let key = typed_hpke::hybrid_array::Array::default();
    let nonce = typed_hpke::hybrid_array::Array::default();
    let mut sealer = Sealer::<A>::new(&key, &nonce);
    let mut opener = Opener::<A>::new(&key, &nonce);
    sealer.set_sequence_number_for_testing_only(last);
    opener.set_sequence_number_for_testing_only(last);
    let ct = sealer.seal(b"", b"last").unwrap();
    assert_eq!(opener.open(b"", &ct).unwrap(), b"last");
    assert_eq!(sealer.seal(b"", b"next"), Err(Error::MessageLimitReached));
    assert_eq!(opener.open(b"", &ct), Err(Error::MessageLimitReached));
    let mut sealer = suite::Sealer::new(A::ID, &key, &nonce).unwrap();
    sealer.set_sequence_number_for_testing_only(last);
    sealer.seal(b"", b"last").unwrap();
    assert_eq!(sealer.seal(b"", b"next"), Err(Error::MessageLimitReached));
}

#[test]
fn sequence_limit_every_aead() {
    sequence_limit::<Aes128Gcm>();
    sequence_limit::<Aes256Gcm>();
    sequence_limit::<ChaCha20Poly1305>();
}

/// An export of the KDF's maximum length works; one byte more is refused on every path and
/// writes nothing (a truncated export would be a shorter secret the caller takes for a longer
/// one).
fn export_limit<F: Kdf>() {
    type H<F> = Hpke<X25519, F, ExportOnly>;
    let mut rng = OsRng::default();
    let (sk, pk) = X25519::generate(&mut rng).unwrap();
    let max = F::MAX_EXPORT_LEN;
    let mut at = vec![0u8; max];
    let mut over = vec![0x5au8; max + 1];

    let (enc, sender) = H::<F>::setup_sender_base(&mut rng, &pk, b"").unwrap();
    sender.export(b"ctx", &mut at).unwrap();
    assert_eq!(sender.export(b"ctx", &mut over), Err(Error::ExportTooLong));
    assert_eq!(
        H::<F>::receive_export_base(&enc, &sk, b"", b"ctx", &mut over),
        Err(Error::ExportTooLong)
    );

    let suite = Suite::new(X25519::ID, F::ID, ExportOnly::ID).unwrap();
    let receiver = suite
        .setup_receiver(enc.as_bytes(), &sk.to_bytes()[..], b"", ReceiverMode::Base)
        .unwrap();
    let mut runtime = vec![0u8; max];
    receiver.export(b"ctx", &mut runtime).unwrap();
    assert_eq!(runtime, at, "typed and runtime export the same bytes");
    assert_eq!(
        receiver.export(b"ctx", &mut over),
        Err(Error::ExportTooLong)
    );
    assert!(over.iter().all(|&b| b == 0x5a), "nothing written");
}

/// `Expand` of the symmetric surface: 255·Nh works, one byte more is refused, unwritten.
fn expand_limit<F: TwoStageKdf>() {
    let max = 255 * <F::Nh as typed_hpke::hybrid_array::typenum::Unsigned>::USIZE;
    let prk = Prk::<F>::extract(b"salt", &[b"ikm"]);
    let mut at = vec![0u8; max];
    prk.expand(&[b"info"], &mut at).unwrap();
    let mut over = vec![0x5au8; max + 1];
    assert_eq!(prk.expand(&[b"info"], &mut over), Err(Error::InvalidLength));
    let runtime = suite::Prk::extract(F::ID, b"salt", &[b"ikm"]).unwrap();
    let mut same = vec![0u8; max];
    runtime.expand(&[b"info"], &mut same).unwrap();
    assert_eq!(same, at);
    assert_eq!(
        runtime.expand(&[b"info"], &mut over),
        Err(Error::InvalidLength)
    );
    assert!(over.iter().all(|&b| b == 0x5a), "nothing written");
}

#[test]
fn over_long_exports_refused_not_truncated() {
    export_limit::<HkdfSha256>();
    export_limit::<HkdfSha384>();
    export_limit::<HkdfSha512>();
    export_limit::<Shake128>();
    export_limit::<Shake256>();
    export_limit::<TurboShake128>();
    export_limit::<TurboShake256>();
    assert_eq!(Shake256::MAX_EXPORT_LEN, 65_535);
    expand_limit::<HkdfSha256>();
    expand_limit::<HkdfSha384>();
    expand_limit::<HkdfSha512>();
}

/// A key held elsewhere whose holder returns the all-zero value (an HSM that does not check,
/// or the peer's low-order point passed through).
struct ZeroHolder<K: Kem>(PublicKey<K>);

impl<K: typed_hpke::kem::AuthKem> DhHolder<K> for ZeroHolder<K> {
    type Error = core::convert::Infallible;
    fn public_key(&self) -> &PublicKey<K> {
        &self.0
    }
    fn dh(&self, _peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), Self::Error> {
        out.fill(0);
        Ok(())
    }
}

/// The runtime API's holder of a key held elsewhere, returning the all-zero value.
struct RuntimeZeroHolder(suite::PublicKey);

impl suite::DhHolder for RuntimeZeroHolder {
    type Error = core::convert::Infallible;
    fn public_key(&self) -> &suite::PublicKey {
        &self.0
    }
    fn dh(&self, _peer: &[u8], out: &mut [u8]) -> Result<(), Self::Error> {
        out.fill(0);
        Ok(())
    }
}

/// RFC 9180 §7.1.4: the all-zero DH output is refused, by X25519 and X448 for their low-order
/// points on every path (typed, runtime, single-shot), and by every DH-KEM when a key held
/// elsewhere returns it.
fn zero_output<K: typed_hpke::kem::AuthKem>(low_order: &[u8]) {
    let mut rng = OsRng::default();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let enc = EncappedKey::<K>::from_bytes(low_order).unwrap();
    type H<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    assert_eq!(
        H::<K>::open_base(&enc, &sk, b"", b"", &[0; 32]),
        Err(Error::Decap)
    );
    let low = PublicKey::<K>::from_bytes(low_order).unwrap();
    assert_eq!(
        H::<K>::seal_base(&mut rng, &low, b"", b"", b"").map(drop),
        Err(Error::Encap)
    );
    let suite = Suite::new(K::ID, HkdfSha256::ID, ChaCha20Poly1305::ID).unwrap();
    assert_eq!(
        suite
            .setup_receiver(low_order, &sk.to_bytes()[..], b"", ReceiverMode::Base)
            .map(drop),
        Err(Error::Decap)
    );
    assert_eq!(
        suite
            .setup_sender(&mut rng, low_order, b"", SenderMode::Base)
            .map(drop),
        Err(Error::Encap)
    );
    // An honest `enc`, and a holder that returns zeros.
    let (enc, _) = H::<K>::setup_sender_base(&mut rng, &pk, b"").unwrap();
    let holder = ExternalDh(ZeroHolder(pk.clone()));
    assert_eq!(
        H::<K>::setup_receiver_base(&enc, &holder, b"").map(drop),
        Err(HeldKeyError::Hpke(Error::Decap))
    );
    let runtime = ExternalDh(RuntimeZeroHolder(suite::PublicKey::from(pk)));
    assert_eq!(
        suite
            .setup_receiver(enc.as_bytes(), &runtime, b"", ReceiverMode::Base)
            .map(drop),
        Err(HeldKeyError::Hpke(Error::Decap))
    );
}

#[test]
fn all_zero_dh_output_refused() {
    zero_output::<X25519>(&[0; 32]);
    zero_output::<DhKemX448HkdfSha512>(&[0; 56]);
}

/// A holder returning zeros on the NIST curves and secp256k1: no honest peer point gives that
/// output there (the identity is not a valid public key), so only a key held elsewhere can.
#[test]
fn all_zero_dh_output_from_a_holder_refused_on_every_dh_kem() {
    fn holder_zero<K: typed_hpke::kem::AuthKem>() {
        type H<K> = Hpke<K, HkdfSha256, Aes128Gcm>;
        let mut rng = OsRng::default();
        let (_, pk) = K::generate(&mut rng).unwrap();
        let (enc, _) = H::<K>::setup_sender_base(&mut rng, &pk, b"").unwrap();
        let holder = ExternalDh(ZeroHolder(pk));
        assert_eq!(
            H::<K>::setup_receiver_base(&enc, &holder, b"").map(drop),
            Err(HeldKeyError::Hpke(Error::Decap)),
            "{:#06x}",
            K::ID
        );
    }
    holder_zero::<typed_hpke::kem::DhKemP256HkdfSha256>();
    holder_zero::<typed_hpke::kem::DhKemP384HkdfSha384>();
    holder_zero::<typed_hpke::kem::DhKemP521HkdfSha512>();
    holder_zero::<typed_hpke::kem::DhKemSecp256k1HkdfSha256>();
    holder_zero::<X25519>();
    holder_zero::<DhKemX448HkdfSha512>();
}

/// Every combination of an empty or absent PSK and PSK id: a `Psk` cannot be made empty in
/// either part (RFC 9180 §5.1.2, VerifyPSKInputs), so PSK mode always has both, and Base mode
/// none (it takes no `Psk` at all); the key schedule refuses a PSK in a non-PSK mode and its
/// absence in a PSK mode.
#[test]
fn empty_or_absent_psk() {
    for (psk, id) in [
        (&b""[..], &b""[..]),
        (&b""[..], &b"id"[..]),
        (&[7u8; 32][..], &b""[..]),
    ] {
        assert_eq!(Psk::new(psk, id).map(drop), Err(Error::InvalidPsk));
        assert_eq!(
            Psk::new_allowing_short_psk(psk, id).map(drop),
            Err(Error::InvalidPsk)
        );
    }
    type H = Hpke<X25519, HkdfSha256, Aes128Gcm>;
    let psk = Psk::new(&[7; 32], b"id").unwrap();
    for mode in 0u8..=3 {
        let is_psk_mode = mode == 1 || mode == 3;
        for given in [None, Some(&psk)] {
            let result = H::key_schedule_for_testing_only(mode, &[0; 32], b"", given).map(drop);
            if is_psk_mode == given.is_some() {
                assert_eq!(result, Ok(()), "mode {mode}, psk {}", given.is_some());
            } else {
                assert_eq!(
                    result,
                    Err(Error::InvalidPsk),
                    "mode {mode}, psk {}",
                    given.is_some()
                );
            }
        }
    }
}
