//! Stack use: the operations of both APIs on keys held in this process (keys made, parsed,
//! cloned and prepared; the runtime setups in every mode the KEM has, with keys parsed and as
//! bytes, and the typed Base and PSK setups; the single-shot functions and `seal_base_many`;
//! keys through serde), for every KEM of the build, run on a thread with 640 KiB of stack, and
//! a deserialization through serde_json on 1 MiB.
//! A default spawned thread, and a tokio worker, has 2 MiB.
//!
//! The bound is for this crate at opt-level 0, as a dependent's debug build compiles it; its
//! dependencies are optimised, as this repository builds them. With no inlining, every
//! temporary of a function has a stack slot of its own, and a runtime key is as large as the
//! build's largest typed key (an expanded MLKEM1024-P384 key, about 24 KiB with every KEM),
//! so each copy of one in a frame counts: `Suite::derive_key_pair` took 1.3 MiB and a tagged
//! key's deserialization 1.4 MiB before the runtime layer stopped copying keys through nested
//! `Result`s and per-KEM `match` arms. `.ci/run` runs this file with this crate at opt-level 0
//! (the step without precomputed-tables); the README's build, at opt-level 1, runs it too.
//! A build that compiles the dependencies at opt-level 0 as well adds their own frames, which
//! this file does not bound (libcrux's ML-KEM key generation most of them).
//!
//! An operation over the bound overflows the thread, which aborts the test binary: the test
//! fails loudly, never by a wrong answer. Keys held elsewhere (`ExternalDh`, `ExternalDecap`)
//! are left out: their setups take the runtime key paths measured here and a holder's answer.

#[macro_use]
#[path = "util/kems.rs"]
mod kems;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::Kem;
use typed_hpke::suite::{AEAD_IDS, AnyKem, KDF_IDS, ReceiverMode, SenderMode, Suite};
use typed_hpke::suite::{PrivateKey as RtSk, PublicKey as RtPk};
use typed_hpke::{EncappedKey, Hpke, PrivateKey, Psk, PublicKey};

/// The stack each key operation and setup runs on.
const STACK: usize = 640 << 10;

/// The stack `seal_base_many` to X25519 keys given as bytes runs on. It parses each key into
/// a runtime key (12 KiB with every KEM) before it seals, and must not copy them through its
/// frames: it needed 302 KiB here when it collected them through `Result` and `Option`
/// adapters, where the typed `seal_base_many` for X25519 needs 25 KiB.
const MANY_STACK: usize = 192 << 10;

/// The stack a deserialization runs on: serde_json's own frames hold the value being built
/// (about 320 KiB of them for a runtime key), so its bound is higher.
#[cfg(feature = "serde")]
const SERDE_STACK: usize = 1 << 20;

const IKM: [u8; 64] = [0x42; 64];

/// Runs `f` on a thread of its own with `stack` bytes of stack.
fn on_small_stack(name: &str, stack: usize, f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(stack)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("{name} panicked"));
}

/// A runtime key pair, derived, on the heap: the callers below hold keys as a caller of the
/// library may, without a copy of each in their own frames.
fn derive(kem: AnyKem) -> Box<(RtSk, RtPk)> {
    Box::new(kem.derive_key_pair(&IKM).unwrap())
}

/// A runtime key pair, generated, on the heap.
fn generate(kem: AnyKem) -> Box<(RtSk, RtPk)> {
    Box::new(
        kem.generate_key_pair(&mut ChaCha20Rng::seed_from_u64(1))
            .unwrap(),
    )
}

/// The runtime API's keys: made, parsed, compared and cloned, each call in a function of its
/// own that holds its result and nothing else. The bound is on the library's frames: a test
/// that kept every key of every step in one function measured mostly itself.
fn runtime_keys(kem: AnyKem) -> Box<(RtSk, RtPk)> {
    fn parse_sk(kem: AnyKem, sk: &RtSk) {
        assert!(kem.private_key_from_bytes(&sk.to_bytes()).unwrap() == *sk);
    }
    fn parse_sk_with_pk(kem: AnyKem, sk: &RtSk, pk: &RtPk) {
        let parsed = kem.private_key_from_bytes_and_public(&sk.to_bytes(), pk.as_bytes());
        assert!(parsed.unwrap() == *sk);
    }
    fn parse_pk(kem: AnyKem, pk: &RtPk) {
        assert!(kem.public_key_from_bytes(pk.as_bytes()).unwrap() == *pk);
    }
    fn public_of(sk: &RtSk, pk: &RtPk) {
        assert!(sk.public_key() == *pk);
    }
    fn clone_sk(sk: &RtSk) {
        assert!(sk.clone() == *sk);
    }
    fn clone_pk(pk: &RtPk) {
        assert!(pk.clone() == *pk);
    }
    fn derive_bytes(kem: AnyKem, sk: &RtSk) {
        assert_eq!(kem.derive_key_pair_bytes(&IKM).unwrap().0, sk.to_bytes());
    }
    let keys = derive(kem);
    let (sk, pk) = (&keys.0, &keys.1);
    parse_sk(kem, sk);
    parse_sk_with_pk(kem, sk, pk);
    parse_pk(kem, pk);
    public_of(sk, pk);
    clone_sk(sk);
    clone_pk(pk);
    derive_bytes(kem, sk);
    keys
}

/// A setup each way in `send` / `receive`, with the recipient's keys parsed or as bytes; a
/// message; an export.
fn runtime_setup(
    suite: &Suite,
    sk: &RtSk,
    pk: &RtPk,
    send: SenderMode<'_>,
    receive: ReceiverMode<'_>,
    parsed: bool,
) {
    let mut rng = ChaCha20Rng::seed_from_u64(u64::from(suite.kem().id()));
    let (enc, mut sender) = if parsed {
        suite.setup_sender(&mut rng, pk, b"info", send)
    } else {
        suite.setup_sender(&mut rng, pk.as_bytes(), b"info", send)
    }
    .unwrap();
    let mut receiver = if parsed {
        suite.setup_receiver(enc.as_bytes(), sk, b"info", receive)
    } else {
        suite.setup_receiver(enc.as_bytes(), &sk.to_bytes(), b"info", receive)
    }
    .unwrap();
    let ct = sender.seal(b"aad", b"message").unwrap();
    assert_eq!(receiver.open(b"aad", &ct).unwrap(), b"message");
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    sender.export(b"context", &mut a).unwrap();
    receiver.export(b"context", &mut b).unwrap();
    assert_eq!(a, b);
}

/// The runtime API's single-shot functions, `seal_base_many` to two recipients given as bytes,
/// and a prepared public key.
fn runtime_single_shot(suite: &Suite, sk: &RtSk, pk: &RtPk) {
    fn seal_open(suite: &Suite, sk: &RtSk, pk: &RtPk) {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let (enc, ct) = suite
            .seal(&mut rng, pk, b"info", b"aad", b"message", SenderMode::Base)
            .unwrap();
        let pt = suite.open(&enc, sk, b"info", b"aad", &ct, ReceiverMode::Base);
        assert_eq!(pt.unwrap(), b"message");
    }
    fn exports(suite: &Suite, sk: &RtSk, pk: &RtPk) {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        let enc = suite
            .send_export(&mut rng, pk, b"info", b"context", &mut a, SenderMode::Base)
            .unwrap();
        suite
            .receive_export(&enc, sk, b"info", b"context", &mut b, ReceiverMode::Base)
            .unwrap();
        assert_eq!(a, b);
    }
    fn many(suite: &Suite, sk: &RtSk, pk: &RtPk) {
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let recipients = [pk.as_bytes(), pk.as_bytes()];
        let sealed = suite
            .seal_base_many(&mut rng, &recipients, b"info", b"aad", &[b"message"])
            .unwrap();
        for (enc, ct) in &sealed {
            let pt = suite.open(enc, sk, b"info", b"aad", ct, ReceiverMode::Base);
            assert_eq!(pt.unwrap(), b"message");
        }
    }
    fn prepared(suite: &Suite, sk: &RtSk, pk: &RtPk) {
        let mut pk = Box::new(pk.clone());
        pk.prepare();
        runtime_setup(suite, sk, &pk, SenderMode::Base, ReceiverMode::Base, true);
    }
    fn generate_bytes(kem: AnyKem) {
        let (sk, pk) = kem
            .generate_key_pair_bytes(&mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        assert!(
            kem.private_key_from_bytes(&sk)
                .unwrap()
                .public_key()
                .as_bytes()
                == &pk[..]
        );
    }
    seal_open(suite, sk, pk);
    exports(suite, sk, pk);
    many(suite, sk, pk);
    prepared(suite, sk, pk);
    generate_bytes(suite.kem());
}

/// The runtime API: the keys, then a setup in each mode the KEM has, then the rest.
fn runtime(kem: AnyKem) {
    let keys = runtime_keys(kem);
    let sender = generate(kem);
    let ((sk, pk), (sk_s, pk_s)) = (&*keys, &*sender);
    let suite = Suite::new(kem.id(), KDF_IDS[0], AEAD_IDS[0]).unwrap();
    let psk = Psk::new(&[0x5a; 32], b"psk id").unwrap();
    let mut modes = vec![
        (SenderMode::Base, ReceiverMode::Base),
        (SenderMode::Psk(&psk), ReceiverMode::Psk(&psk)),
    ];
    if kem.supports_auth() {
        modes.push((SenderMode::Auth(sk_s), ReceiverMode::Auth(pk_s)));
        modes.push((
            SenderMode::AuthPsk(&psk, sk_s),
            ReceiverMode::AuthPsk(&psk, pk_s),
        ));
    }
    for (send, receive) in modes {
        for parsed in [true, false] {
            runtime_setup(&suite, sk, pk, send, receive, parsed);
        }
    }
    runtime_single_shot(&suite, sk, pk);
}

/// The typed API: keys made and parsed, and one encapsulation, each in a function of its own
/// as above.
fn typed<K: Kem>() {
    fn derive<K: Kem>() -> Box<(PrivateKey<K>, PublicKey<K>)> {
        Box::new(K::derive_key_pair(&IKM).unwrap())
    }
    fn parse_sk<K: Kem>(sk: &PrivateKey<K>) {
        assert!(PrivateKey::<K>::from_bytes(&sk.to_bytes()).unwrap() == *sk);
    }
    fn parse_pk<K: Kem>(pk: &PublicKey<K>) {
        assert!(PublicKey::<K>::from_bytes(pk.as_bytes()).unwrap() == *pk);
    }
    fn encap_decap<K: Kem>(sk: &PrivateKey<K>, pk: &PublicKey<K>) {
        let mut rng = ChaCha20Rng::seed_from_u64(u64::from(K::ID));
        let (ss, enc) = K::encap(&mut rng, pk).unwrap();
        let enc = EncappedKey::<K>::from_bytes(enc.as_bytes()).unwrap();
        assert_eq!(K::decap(&enc, sk).unwrap().as_bytes(), ss.as_bytes());
    }
    fn setups<K: Kem>(sk: &PrivateKey<K>, pk: &PublicKey<K>) {
        type Suite<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        let mut rng = ChaCha20Rng::seed_from_u64(6);
        let (enc, mut sender) = Suite::<K>::setup_sender_base(&mut rng, pk, b"info").unwrap();
        let mut receiver = Suite::<K>::setup_receiver_base(&enc, sk, b"info").unwrap();
        let ct = sender.seal(b"aad", b"message").unwrap();
        assert_eq!(receiver.open(b"aad", &ct).unwrap(), b"message");
        let psk = Psk::new(&[0x5a; 32], b"psk id").unwrap();
        let (enc, ct) =
            Suite::<K>::seal_psk(&mut rng, pk, b"info", b"aad", b"message", &psk).unwrap();
        let pt = Suite::<K>::open_psk(&enc, sk, b"info", b"aad", &ct, &psk).unwrap();
        assert_eq!(pt, b"message");
    }
    #[cfg(feature = "serde")]
    fn serde_forms<K: Kem>(sk: &PrivateKey<K>, pk: &PublicKey<K>) {
        let text = serde_json::to_string(sk).unwrap();
        assert!(serde_json::from_str::<PrivateKey<K>>(&text).unwrap() == *sk);
        let text = serde_json::to_string(pk).unwrap();
        assert!(serde_json::from_str::<PublicKey<K>>(&text).unwrap() == *pk);
    }
    on_small_stack(&format!("typed {:#06x}", K::ID), STACK, || {
        let keys = derive::<K>();
        parse_sk(&keys.0);
        parse_pk(&keys.1);
        encap_decap(&keys.0, &keys.1);
        setups(&keys.0, &keys.1);
    });
    #[cfg(feature = "serde")]
    on_small_stack(&format!("typed serde {:#06x}", K::ID), SERDE_STACK, || {
        let keys = derive::<K>();
        serde_forms(&keys.0, &keys.1);
    });
}

/// Keys through serde: the runtime keys tagged with their KEM, and through a suite. Each
/// operation is a function of its own, called with the text and the key it must give back, so
/// that the test's frames hold what a caller's would and no more.
#[cfg(feature = "serde")]
mod serde_forms {
    use typed_hpke::suite::{AEAD_IDS, AnyKem, KDF_IDS, PrivateKey, PublicKey, Suite, WithKemId};

    fn tagged_sk(text: &str, sk: &PrivateKey) {
        assert!(
            serde_json::from_str::<WithKemId<PrivateKey>>(text)
                .unwrap()
                .0
                == *sk
        );
    }

    fn tagged_pk(text: &str, pk: &PublicKey) {
        assert!(
            serde_json::from_str::<WithKemId<PublicKey>>(text)
                .unwrap()
                .0
                == *pk
        );
    }

    fn suite_sk(suite: &Suite, text: &str, sk: &PrivateKey) {
        let mut de = serde_json::Deserializer::from_str(text);
        assert!(suite.deserialize_private_key(&mut de).unwrap() == *sk);
    }

    fn suite_pk(suite: &Suite, text: &str, pk: &PublicKey) {
        let mut de = serde_json::Deserializer::from_str(text);
        assert!(suite.deserialize_public_key(&mut de).unwrap() == *pk);
    }

    fn texts<T: serde::Serialize + Clone>(key: &T) -> (String, String)
    where
        WithKemId<T>: serde::Serialize,
    {
        let tagged = serde_json::to_string(&WithKemId(key.clone())).unwrap();
        (tagged, serde_json::to_string(key).unwrap())
    }

    pub(super) fn run(kem: AnyKem) {
        let keys = super::derive(kem);
        let (sk, pk) = (&keys.0, &keys.1);
        let suite = Suite::new(kem.id(), KDF_IDS[0], AEAD_IDS[0]).unwrap();
        let (tagged, plain) = texts(sk);
        tagged_sk(&tagged, sk);
        suite_sk(&suite, &plain, sk);
        let (tagged, plain) = texts(pk);
        tagged_pk(&tagged, pk);
        suite_pk(&suite, &plain, pk);
    }
}

#[test]
fn every_kem_runs_on_a_small_stack() {
    // The Weierstrass curves' base-point tables (feature precomputed-tables) are built on
    // first use, once per process, by the curve crates: P-521's build took 311 KB of stack at
    // opt-level 0. They are built here first, on the test's own thread, so that the bound
    // below is the library's.
    for kem in AnyKem::all() {
        kem.derive_key_pair(&IKM).unwrap();
    }
    for kem in AnyKem::all() {
        on_small_stack(&format!("runtime {:#06x}", kem.id()), STACK, move || {
            runtime(kem)
        });
        #[cfg(feature = "serde")]
        on_small_stack(
            &format!("serde {:#06x}", kem.id()),
            SERDE_STACK,
            move || serde_forms::run(kem),
        );
    }
    for_each_kem!(typed);
}

#[test]
#[cfg(feature = "x25519")]
fn seal_base_many_keeps_its_keys_off_the_stack() {
    let suite = Suite::new(0x0020, KDF_IDS[0], AEAD_IDS[0]).unwrap();
    let pk = derive(suite.kem()).1.as_bytes().to_vec();
    on_small_stack("seal_base_many", MANY_STACK, move || {
        let recipients = [&pk[..]; 8];
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let sealed = suite
            .seal_base_many(&mut rng, &recipients, b"info", b"aad", &[b"message"])
            .unwrap();
        assert_eq!(sealed.len(), recipients.len());
    });
}
