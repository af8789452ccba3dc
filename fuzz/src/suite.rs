//! The `suite` target: the runtime API from arbitrary ids, keys, modes and messages.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use typed_hpke::{Error, Psk};

use crate::{Counter, Input, hex};

/// `suite`: a `Suite` from arbitrary ids (raw, or picked from the known ones), then runtime
/// keys parsed from arbitrary bytes, setup in an arbitrary mode, seal, open and export of
/// arbitrary data, and an open of arbitrary `enc` and ciphertext. Everything unsupported or
/// malformed is an `Err`; what the sender seals the receiver opens.
pub fn suite(data: &[u8]) {
    use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
    let mut input = Input(data);
    let how = input.byte();
    let ids = if how & 0x80 != 0 {
        (input.u16(), input.u16(), input.u16())
    } else {
        let kem = crate::pick(typed_hpke::suite::KEM_IDS, input.byte());
        let kdf = crate::pick(typed_hpke::suite::KDF_IDS, input.byte());
        let aead = crate::pick(typed_hpke::suite::AEAD_IDS, input.byte());
        (kem, kdf, aead)
    };
    let Ok(suite) = Suite::new(ids.0, ids.1, ids.2) else {
        return;
    };
    // Arbitrary key bytes: whatever parses round-trips.
    let key_bytes = input.slice();
    if let Ok(sk) = suite.private_key_from_bytes(key_bytes) {
        assert_eq!(sk.kem_id(), suite.kem_id());
        let bytes = sk.to_bytes();
        assert!(suite.private_key_from_bytes(&bytes).expect("re-parse") == sk);
        // SerializePrivateKey gives the input back, X25519 and X448 included (their keys are
        // kept as given: draft-ietf-hpke-hpke §7.1.2).
        assert_eq!(&bytes[..], key_bytes);
    }
    if let Ok(pk) = suite.public_key_from_bytes(key_bytes) {
        assert_eq!(pk.as_bytes(), key_bytes);
    }

    let [(sk_r, pk_r), (sk_s, pk_s)] = runtime_keys(&suite);
    let psk_bytes = input.slice();
    let psk = Psk::new(psk_bytes, b"fuzz psk id");
    let psk = psk.as_ref().ok();
    let (send, receive) = match (how & 3, psk) {
        (1, Some(psk)) => (SenderMode::Psk(psk), ReceiverMode::Psk(psk)),
        (2, _) => (SenderMode::Auth(sk_s), ReceiverMode::Auth(pk_s)),
        (3, Some(psk)) => (
            SenderMode::AuthPsk(psk, sk_s),
            ReceiverMode::AuthPsk(psk, pk_s),
        ),
        _ => (SenderMode::Base, ReceiverMode::Base),
    };
    let info = input.slice();
    let aad = input.slice();
    let export_len = usize::from(input.u16()) * 2;
    let enc_bytes = input.slice();
    let pt = input.rest();

    // Arbitrary enc and ciphertext: an error or a plaintext, never a panic.
    if let Ok(mut r) = suite.setup_receiver(enc_bytes, sk_r, info, receive) {
        let _ = r.open(aad, pt);
        let _ = r.export(info, &mut vec![0u8; export_len]);
    }

    let sender = suite.setup_sender(&mut Counter(u64::from(how)), pk_r, info, send);
    let supports_auth = suite.supports_auth();
    let Ok((enc, mut s)) = sender else {
        assert!(
            matches!(how & 3, 2 | 3) && !supports_auth,
            "setup_sender failed"
        );
        return;
    };
    let mut r = suite
        .setup_receiver(enc.as_bytes(), sk_r, info, receive)
        .expect("setup_receiver of our own enc");
    let (mut a, mut b) = (vec![0u8; export_len], vec![0u8; export_len]);
    assert_eq!(s.export(aad, &mut a), r.export(aad, &mut b));
    assert_eq!(a, b);
    match s.seal(aad, pt) {
        Ok(ct) => assert_eq!(r.open(aad, &ct).expect("open"), pt),
        Err(e) => {
            assert_eq!(e, typed_hpke::Error::UnsupportedOperation);
            assert!(!suite.supports_seal());
        }
    }
    assert_eq!(s.sequence_number(), r.sequence_number());
    runtime_contexts(&suite, s, r, aad, pt);
    assert_eq!(enc.clone(), enc);
    assert!(format!("{enc:?}").contains(&hex(enc.as_ref())));
    runtime_keys_and_single_shot(&suite, u64::from(how), pk_r, info, aad, pt, export_len);
}

/// The rest of a runtime context pair's API: into caller buffers, detached tags in place, the
/// message limit (RFC 9180 §5.2) and a `Debug` that shows no key.
fn runtime_contexts(
    suite: &typed_hpke::suite::Suite,
    mut s: typed_hpke::suite::SenderContext,
    mut r: typed_hpke::suite::ReceiverContext,
    aad: &[u8],
    pt: &[u8],
) {
    let _ = format!("{s:?}{r:?}{:?}", s.suite());
    if !suite.supports_seal() {
        assert_eq!(
            s.seal_into(aad, pt, &mut []),
            Err(Error::UnsupportedOperation)
        );
        assert_eq!(
            r.open_into(aad, pt, &mut []),
            Err(Error::UnsupportedOperation)
        );
        return;
    }
    let mut out = vec![0u8; pt.len() + suite.lengths().tag];
    let n = s.seal_into(aad, pt, &mut out).expect("seal_into");
    let mut back = vec![0u8; pt.len()];
    assert_eq!(r.open_into(aad, &out[..n], &mut back), Ok(pt.len()));
    assert_eq!(back, pt);
    let mut buf = pt.to_vec();
    let tag = s
        .seal_in_place_detached(aad, &mut buf)
        .expect("seal detached");
    r.open_in_place_detached(aad, &mut buf, &tag)
        .expect("open detached");
    assert_eq!(buf, pt);
    s.set_sequence_number_for_testing_only(u64::MAX);
    r.set_sequence_number_for_testing_only(u64::MAX);
    assert_eq!(s.seal(aad, pt), Err(Error::MessageLimitReached));
    assert_eq!(r.open(aad, &out[..n]), Err(Error::MessageLimitReached));
    assert_eq!(s.sequence_number(), u64::MAX);
}

/// Runtime keys from a seeded generator (prepared and not), then the single-shot functions
/// and `seal_base_many` to them and to the fixed recipient.
fn runtime_keys_and_single_shot(
    suite: &typed_hpke::suite::Suite,
    seed: u64,
    pk_r: &typed_hpke::suite::PublicKey,
    info: &[u8],
    aad: &[u8],
    pt: &[u8],
    export_len: usize,
) {
    use typed_hpke::suite::{ReceiverMode, SenderMode};
    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed << 8));
    let (sk, mut pk) = suite
        .generate_key_pair(&mut rng)
        .expect("generate from a working generator");
    assert!(sk.public_key() == pk && sk.kem_id() == suite.kem_id());
    let shown = format!("{sk:?}");
    assert!(
        !shown.contains(&hex(&sk.to_bytes())),
        "Debug shows the key: {shown}"
    );
    assert!(!pk.is_prepared());
    let plain = pk.clone();
    pk.prepare();
    assert!(pk.is_prepared() && pk == plain);
    assert!(format!("{pk:?}").contains(&hex(pk.as_ref())));

    let (mut a, mut b) = (vec![0u8; export_len], vec![0u8; export_len]);
    let sent = suite.send_export(&mut rng, &pk, info, aad, &mut a, SenderMode::Base);
    if let Ok(enc) = &sent {
        let got = suite.receive_export(enc, &sk, info, aad, &mut b, ReceiverMode::Base);
        assert_eq!(got, Ok(()));
        assert_eq!(a, b);
    }
    if !suite.supports_seal() {
        let refused = suite.seal(&mut rng, &pk, info, aad, pt, SenderMode::Base);
        assert_eq!(refused, Err(Error::UnsupportedOperation));
        return;
    }
    for recipient in [&pk, &plain] {
        let (enc, ct) = suite
            .seal(&mut rng, recipient, info, aad, pt, SenderMode::Base)
            .expect("single-shot seal");
        let opened = suite.open(&enc, &sk, info, aad, &ct, ReceiverMode::Base);
        assert_eq!(opened.expect("single-shot open"), pt);
    }
    // By reference: `&[&PublicKey]` is what a caller holding its keys elsewhere passes.
    let to = [&pk, pk_r];
    let sealed = suite
        .seal_base_many(&mut rng, &to, info, aad, &[pt, aad])
        .expect("seal_base_many");
    let (enc, ct) = &sealed[0];
    let opened = suite.open(enc, &sk, info, aad, ct, ReceiverMode::Base);
    assert_eq!(opened.expect("open of seal_base_many"), pt);
}

/// A runtime key pair per `kem_id` (recipient, sender), derived once per process.
pub(crate) fn runtime_keys(
    suite: &typed_hpke::suite::Suite,
) -> &'static [(typed_hpke::suite::PrivateKey, typed_hpke::suite::PublicKey); 2] {
    type Pair = (typed_hpke::suite::PrivateKey, typed_hpke::suite::PublicKey);
    static CACHE: OnceLock<Mutex<HashMap<u16, &'static [Pair; 2]>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache.entry(suite.kem_id()).or_insert_with(|| {
        let r = suite
            .derive_key_pair(b"typed-hpke fuzz recipient")
            .expect("derive");
        let s = suite
            .derive_key_pair(b"typed-hpke fuzz sender")
            .expect("derive");
        Box::leak(Box::new([r, s]))
    })
}
