//! Property tests (proptest): for a suite drawn from every suite of the library
//! (`Suite::all`), a mode it has and arbitrary inputs, open(seal(x)) = x, a single flipped bit
//! anywhere in enc, ciphertext, aad or info makes open fail, and both sides export the same
//! secrets. Through the runtime API, which is the typed one behind a `match`: every suite is
//! drawn from without compiling the checks once per suite.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::Psk;
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};

#[derive(Debug, Clone)]
struct Case {
    seed: u64,
    info: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    exporter_context: Vec<u8>,
    export_len: usize,
    /// Which bit to flip, reduced modulo the length of what is flipped.
    flip: usize,
    /// The mode, reduced modulo the number the suite's KEM has (Base, PSK, Auth, AuthPSK).
    mode: usize,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<u64>(),
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::collection::vec(any::<u8>(), 0..1024),
        proptest::collection::vec(any::<u8>(), 0..64),
        1usize..=255,
        any::<usize>(),
        any::<usize>(),
    )
        .prop_map(
            |(seed, info, aad, pt, exporter_context, export_len, flip, mode)| Case {
                seed,
                info,
                aad,
                pt,
                exporter_context,
                export_len,
                flip,
                mode,
            },
        )
}

fn flip(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut v = bytes.to_vec();
    let bit = bit % (v.len() * 8);
    v[bit / 8] ^= 1 << (bit % 8);
    v
}

fn check(suite: Suite, c: &Case) -> Result<(), TestCaseError> {
    let mut rng = ChaCha20Rng::seed_from_u64(c.seed);
    let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
    let (sk_s, pk_s) = suite.generate_key_pair(&mut rng).unwrap();
    let psk_bytes = c.seed.to_le_bytes().repeat(4);
    let psk = Psk::new(&psk_bytes, b"psk id").unwrap();
    let modes = if suite.supports_auth() { 4 } else { 2 };
    let (send, receive) = match c.mode % modes {
        0 => (SenderMode::Base, ReceiverMode::Base),
        1 => (SenderMode::Psk(&psk), ReceiverMode::Psk(&psk)),
        2 => (SenderMode::Auth(&sk_s), ReceiverMode::Auth(&pk_s)),
        _ => (
            SenderMode::AuthPsk(&psk, &sk_s),
            ReceiverMode::AuthPsk(&psk, &pk_s),
        ),
    };

    if suite.supports_seal() {
        let (enc, ct) = suite
            .seal(&mut rng, &pk, &c.info, &c.aad, &c.pt, send)
            .unwrap();
        let open = |enc: &[u8], info: &[u8], aad: &[u8], ct: &[u8]| {
            suite.open(enc, &sk, info, aad, ct, receive)
        };
        prop_assert_eq!(open(&enc, &c.info, &c.aad, &ct).unwrap(), c.pt.clone());

        // One flipped bit anywhere makes open fail.
        prop_assert!(open(&enc, &c.info, &c.aad, &flip(&ct, c.flip)).is_err());
        prop_assert!(open(&flip(&enc, c.flip), &c.info, &c.aad, &ct).is_err());
        if !c.aad.is_empty() {
            prop_assert!(open(&enc, &c.info, &flip(&c.aad, c.flip), &ct).is_err());
        }
        if !c.info.is_empty() {
            prop_assert!(open(&enc, &flip(&c.info, c.flip), &c.aad, &ct).is_err());
        }
    }

    // Exports agree.
    let (enc, sender) = suite.setup_sender(&mut rng, &pk, &c.info, send).unwrap();
    let receiver = suite
        .setup_receiver(enc.as_bytes(), &sk, &c.info, receive)
        .unwrap();
    let (mut a, mut b) = (vec![0u8; c.export_len], vec![0u8; c.export_len]);
    sender.export(&c.exporter_context, &mut a).unwrap();
    receiver.export(&c.exporter_context, &mut b).unwrap();
    prop_assert_eq!(a, b);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn seal_open_tamper_export(suite in 0..Suite::all().count(), c in case()) {
        let suite = Suite::all().nth(suite).unwrap();
        check(suite, &c).map_err(|e| TestCaseError::fail(format!("{suite:?}: {e}")))?;
    }
}
