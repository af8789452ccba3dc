//! `typed-hpke-pkcs11` against kryoptic, a PKCS#11 3.2 software token, made for this run:
//! every KEM this crate keeps in a token.
//!
//! This binary (`harness = false`) runs itself again beside a token made for the run
//! (`typed_hpke_pkcs11::kryoptic`). The module is `$KRYOPTIC_MODULE`, or where
//! `integrations/pkcs11/kryoptic/build.sh` leaves it; without one the run fails (`.ci/run`
//! builds it).
//!
//! Checked:
//! - DHKEM(P-256, P-384, P-521, X25519, X448): a key imported into the token opens, in every
//!   mode, typed and runtime, what the same key in process opens, with the same exports, and
//!   seals as an Auth sender what the in-process receiver opens;
//! - ML-KEM-512/768/1024, X-Wing, MLKEM768-P256 and MLKEM1024-P384: a key imported into the
//!   token (an ML-KEM key as its seed, a hybrid as the two keys its seed expands to) opens in
//!   Base and PSK, typed and runtime, what the same key in process opens, with the same exports
//!   for an honest and a tampered `enc` (implicit rejection: the same secret in both); a
//!   hybrid through `TokenKey::split` too;
//! - a key of each of the eleven KEMs generated on the token, found again by label and id;
//! - refusals: an ML-KEM key without `CKA_DECAPSULATE` and a destroyed hybrid half are the
//!   token's errors; a wrong key opens nothing; a key asked for another KEM is refused;
//! - a key's identity: public objects planted without the PIN beside an ML-KEM, a Montgomery
//!   and a hybrid key are never the key returned; an ML-KEM public object swapped under the
//!   pair's label and id is `PublicKeyMismatch`; `destroy_key` removes a hybrid's four objects
//!   and nothing else;
//! - one hybrid key serves four threads on a pool of four sessions.

use std::process::ExitCode;

use cryptoki::context::Pkcs11;
use cryptoki::object::{Attribute, KeyType, MlKemParameterSetType, ObjectClass};
use cryptoki::session::UserType;
use cryptoki::types::AuthPin;

use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, ExternalDecap, ExternalDh, HeldKeyError, HybridKem, Kem, MlKem512,
    MlKem768, MlKem768P256, MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
use typed_hpke::{Hpke, OsRng};
use typed_hpke_pkcs11::{Error, Token, kryoptic};

mod common;
use common::{AAD, INFO, LABEL, PIN, PT, Recording, curve, decapsulating, imported, opens};

fn main() -> ExitCode {
    if !kryoptic::in_token_process() {
        return kryoptic::run_with_token();
    }
    println!("module: {}", kryoptic::module().display());
    let token = kryoptic::token(LABEL, PIN).expect("initialize and open the token");
    type Test = (&'static str, fn(&Token));
    let tests: [Test; 10] = [
        ("every DH-KEM in every mode", every_dh_kem),
        (
            "ML-KEM and the hybrids, Base and PSK",
            every_decapsulating_kem,
        ),
        (
            "a key of every KEM generated on the token",
            generated_on_the_token,
        ),
        ("refusals", refusals),
        ("planted public keys", planted_public_keys),
        (
            "an ML-KEM public key swapped after the fact",
            swapped_ml_kem_public_key,
        ),
        ("four threads, one hybrid key", four_threads_one_hybrid_key),
        (
            "swapped X25519 and hybrid public keys",
            swapped_montgomery_and_hybrid_public_keys,
        ),
        (
            "an ML-KEM pair made by another tool",
            ml_kem_pair_without_id,
        ),
        ("no secret in freed memory", no_secret_in_freed_memory),
    ];
    for (name, test) in tests {
        test(&token);
        println!("ok: {name}");
    }
    ExitCode::SUCCESS
}

fn every_dh_kem(token: &Token) {
    curve::<DhKemP256HkdfSha256, HkdfSha256>(token);
    curve::<DhKemP384HkdfSha384, HkdfSha384>(token);
    curve::<DhKemP521HkdfSha512, HkdfSha512>(token);
    curve::<DhKemX25519HkdfSha256, HkdfSha256>(token);
    curve::<DhKemX448HkdfSha512, HkdfSha512>(token);
}

fn every_decapsulating_kem(token: &Token) {
    decapsulating::<MlKem512>(token);
    decapsulating::<MlKem768>(token);
    decapsulating::<MlKem1024>(token);
    decapsulating::<XWing>(token);
    decapsulating::<MlKem768P256>(token);
    decapsulating::<MlKem1024P384>(token);
    split::<XWing>(token);
    split::<MlKem768P256>(token);
    split::<MlKem1024P384>(token);
}

/// A hybrid key through the typed API's holder, whose decapsulation runs typed-hpke's
/// `SplitHybrid` over the two halves in the token: the same shared secret as the key in
/// process.
fn split<K: HybridKem>(token: &Token) {
    use typed_hpke::kem::DecapHolder;
    type S<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
    let label = format!("split {:#06x}", K::ID);
    let (sk, key) = imported::<K>(token, &label);
    let typed = key.typed::<K>().unwrap();
    let mut rng = OsRng::default();
    let (enc, ct) = S::<K>::seal_base(&mut rng, &sk.public_key(), INFO, AAD, PT).unwrap();
    assert_eq!(
        S::<K>::open_base(&enc, &ExternalDecap(&typed), INFO, AAD, &ct).unwrap(),
        PT
    );
    let mut secret = [0u8; 32];
    typed.decapsulate(&enc, &mut secret).unwrap();
    assert_eq!(
        secret[..],
        K::decap(&enc, &sk).unwrap().as_bytes()[..],
        "{label}: the shared secret"
    );
    // The hybrid key is not a key of its halves' KEMs.
    assert!(matches!(
        key.typed::<K::MlKem>(),
        Err(Error::UnsupportedKem)
    ));
    assert!(matches!(
        key.typed::<K::Traditional>(),
        Err(Error::UnsupportedKem)
    ));
    token.destroy_key(&label).unwrap();
}

fn generated_on_the_token(token: &Token) {
    common::generated(
        token,
        &[
            DhKemP256HkdfSha256::ID,
            DhKemP384HkdfSha384::ID,
            DhKemP521HkdfSha512::ID,
            DhKemX25519HkdfSha256::ID,
            DhKemX448HkdfSha512::ID,
            MlKem512::ID,
            MlKem768::ID,
            MlKem1024::ID,
            XWing::ID,
            MlKem768P256::ID,
            MlKem1024P384::ID,
        ],
    );
}

fn refusals(token: &Token) {
    type S = Hpke<MlKem768, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = OsRng::default();
    // An ML-KEM key without CKA_DECAPSULATE: the token's error, handed back.
    let key = token
        .generate(MlKem768::ID, "no decapsulate", false)
        .unwrap();
    let pk = typed_hpke::PublicKey::<MlKem768>::from_bytes(key.public_key().as_bytes()).unwrap();
    let (enc, ct) = S::seal_base(&mut rng, &pk, INFO, AAD, PT).unwrap();
    match S::open_base(
        &enc,
        &ExternalDecap(key.typed::<MlKem768>().unwrap()),
        INFO,
        AAD,
        &ct,
    ) {
        Err(HeldKeyError::Holder(Error::Pkcs11(e))) => println!("  no CKA_DECAPSULATE: {e}"),
        other => panic!("no CKA_DECAPSULATE gave {other:?}"),
    }
    token.destroy_key("no decapsulate").unwrap();

    // A wrong ML-KEM key: the token decapsulates (implicit rejection), nothing opens.
    let (_, wrong) = imported::<MlKem768>(token, "wrong");
    let err = S::open_base(
        &enc,
        &ExternalDecap(wrong.typed::<MlKem768>().unwrap()),
        INFO,
        AAD,
        &ct,
    )
    .unwrap_err();
    assert!(
        matches!(err, HeldKeyError::Hpke(typed_hpke::Error::Open)),
        "{err:?}"
    );
    // Asked for another KEM: refused, the token not asked.
    assert!(matches!(
        wrong.typed::<MlKem1024>(),
        Err(Error::UnsupportedKem)
    ));
    assert!(matches!(wrong.typed::<XWing>(), Err(Error::UnsupportedKem)));
    let suite = Suite::new(XWing::ID, 1, 3).unwrap();
    let err = suite
        .open(
            &[0u8; 1120],
            &ExternalDecap(&wrong),
            INFO,
            AAD,
            &ct,
            ReceiverMode::Base,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            HeldKeyError::Hpke(typed_hpke::Error::InvalidPrivateKey)
        ),
        "{err:?}"
    );
    // An ML-KEM key is no DH holder.
    let suite = Suite::new(MlKem768::ID, 1, 3).unwrap();
    assert!(
        suite
            .open(
                enc.as_bytes(),
                &ExternalDh(&wrong),
                INFO,
                AAD,
                &ct,
                ReceiverMode::Base
            )
            .is_err()
    );
    token.destroy_key("wrong").unwrap();
    // secp256k1 is kept in no token by this crate.
    assert!(matches!(
        token.generate_key(0x0016, "k256"),
        Err(Error::UnsupportedKem)
    ));

    // A hybrid key whose ML-KEM half was destroyed under its handle: the token's error.
    let (sk, key) = imported::<XWing>(token, "half gone");
    let (enc, ct) = Hpke::<XWing, HkdfSha256, ChaCha20Poly1305>::seal_base(
        &mut rng,
        &sk.public_key(),
        INFO,
        AAD,
        PT,
    )
    .unwrap();
    let session = raw_session();
    let halves = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::KeyType(KeyType::ML_KEM),
            Attribute::Id(key.id().to_vec()),
        ])
        .unwrap();
    assert_eq!(halves.len(), 1);
    session.destroy_object(halves[0]).unwrap();
    let err = Hpke::<XWing, HkdfSha256, ChaCha20Poly1305>::open_base(
        &enc,
        &ExternalDecap(key.typed::<XWing>().unwrap()),
        INFO,
        AAD,
        &ct,
    )
    .unwrap_err();
    match err {
        HeldKeyError::Holder(Error::Pkcs11(e)) => println!("  a destroyed half: {e}"),
        other => panic!("a destroyed half gave {other:?}"),
    }
    // What is left under the label is the key's X25519 half alone: never a key of DHKEM(X25519)
    // (the outside review found it published as one), an incomplete key that destroy_key removes.
    assert!(matches!(token.key("half gone"), Err(Error::IncompleteKey)));
    assert!(matches!(
        token.key_by_id(key.id()),
        Err(Error::IncompleteKey)
    ));
    assert!(matches!(
        token.generate_key(XWing::ID, "half gone"),
        Err(Error::LabelInUse)
    ));
    token.destroy_key("half gone").unwrap();
    assert!(
        raw_session()
            .find_objects(&[Attribute::Id(key.id().to_vec())])
            .unwrap()
            .is_empty()
    );
    // The same with the traditional half gone, for MLKEM768-P256: the ML-KEM half alone.
    let key = token.generate_key(MlKem768P256::ID, "half gone").unwrap();
    let session = raw_session();
    let ec = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Id(key.id().to_vec()),
        ])
        .unwrap();
    session.destroy_object(ec[0]).unwrap();
    assert!(matches!(token.key("half gone"), Err(Error::IncompleteKey)));
    // replace_key rotates an incomplete key away.
    let replaced = token.replace_key(MlKem768P256::ID, "half gone").unwrap();
    opens(&token.key("half gone").unwrap());
    assert_eq!(
        token.key("half gone").unwrap().public_key(),
        replaced.public_key()
    );
    token.destroy_key("half gone").unwrap();
}

/// The test's own logged-in session on the token, beside the crate's.
fn raw_session() -> cryptoki::session::Session {
    let pkcs11 = Pkcs11::new(kryoptic::module()).unwrap();
    let slot = pkcs11.get_slots_with_token().unwrap()[0];
    let session = pkcs11.open_rw_session(slot).unwrap();
    match session.login(UserType::User, Some(&AuthPin::new(PIN.into()))) {
        Ok(())
        | Err(cryptoki::error::Error::Pkcs11(cryptoki::error::RvError::UserAlreadyLoggedIn, _)) => {
        }
        Err(e) => panic!("login: {e}"),
    }
    session
}

/// A public key object under `label` and `id`, not `CKA_PRIVATE`: an ML-KEM encapsulation key,
/// or a Montgomery point, of the attacker's. Made by a session without the PIN where the token
/// lets one make token objects (SoftHSM does); kryoptic refuses that (`CKR_USER_NOT_LOGGED_IN`),
/// so there it is made with the PIN, as a careless tool would make it.
fn plant(label: &str, id: &[u8], kem: u16, public_key: &[u8]) {
    let pkcs11 = Pkcs11::new(kryoptic::module()).unwrap();
    let slot = pkcs11.get_slots_with_token().unwrap()[0];
    let session = pkcs11.open_rw_session(slot).unwrap();
    let _ = session.logout();
    let mut template = vec![
        Attribute::Class(ObjectClass::PUBLIC_KEY),
        Attribute::Token(true),
        Attribute::Private(false),
        Attribute::Label(label.as_bytes().to_vec()),
        Attribute::Id(id.to_vec()),
    ];
    match kem {
        k if k == MlKem768::ID => template.extend([
            Attribute::KeyType(KeyType::ML_KEM),
            Attribute::ParameterSet(MlKemParameterSetType::ML_KEM_768.into()),
            Attribute::Value(public_key.to_vec()),
        ]),
        k if k == DhKemX25519HkdfSha256::ID => template.extend([
            Attribute::KeyType(KeyType::EC_MONTGOMERY),
            Attribute::EcParams(vec![0x06, 0x03, 0x2b, 0x65, 0x6e]),
            Attribute::EcPoint(public_key.to_vec()),
        ]),
        _ => unreachable!(),
    }
    match session.create_object(&template) {
        Ok(_) => {}
        Err(cryptoki::error::Error::Pkcs11(cryptoki::error::RvError::UserNotLoggedIn, _)) => {
            raw_session().create_object(&template).unwrap();
        }
        Err(e) => panic!("plant: {e}"),
    }
    let _ = raw_session();
}

/// Public objects planted without the PIN under the label, before and after generation, with
/// no id and with the pair's own id (read by nobody without the PIN: guessed here as the
/// worst case), are never the key returned, for an ML-KEM, a Montgomery and a hybrid key.
fn planted_public_keys(token: &Token) {
    let mut rng = OsRng::default();
    let (_, ml_kem) = MlKem768::generate(&mut rng).unwrap();
    let (_, x25519) = DhKemX25519HkdfSha256::generate(&mut rng).unwrap();
    for kem in [MlKem768::ID, DhKemX25519HkdfSha256::ID, XWing::ID] {
        let label = format!("planted {kem:#06x}");
        plant(&label, b"", MlKem768::ID, ml_kem.as_bytes());
        plant(&label, b"", DhKemX25519HkdfSha256::ID, x25519.as_bytes());
        let key = token.generate_key(kem, &label).unwrap();
        opens(&key);
        plant(&label, key.id(), MlKem768::ID, ml_kem.as_bytes());
        plant(
            &label,
            key.id(),
            DhKemX25519HkdfSha256::ID,
            x25519.as_bytes(),
        );
        let found = token.key(&label).unwrap();
        assert_eq!(found.public_key(), key.public_key(), "{label}");
        opens(&found);
        let by_id = token.key_by_id(key.id()).unwrap();
        assert_eq!(by_id.public_key(), key.public_key(), "{label}");
        // destroy_key removes the key's objects (two or four) and the planted ones with its
        // id, which claim to be its: the four planted without an id are left.
        token.destroy_key(&label).unwrap();
        let session = raw_session();
        let left = session
            .find_objects(&[Attribute::Label(label.as_bytes().to_vec())])
            .unwrap();
        assert_eq!(
            left.len(),
            2,
            "{label}: destroy_key left {} objects",
            left.len()
        );
        for object in left {
            session.destroy_object(object).unwrap();
        }
    }
}

/// An ML-KEM public key object of the pair replaced by another key's (with the PIN, as a
/// careless tool could): the lookup is `PublicKeyMismatch`, never the swapped key.
fn swapped_ml_kem_public_key(token: &Token) {
    let label = "swapped";
    let key = token.generate_key(MlKem768::ID, label).unwrap();
    let session = raw_session();
    let public = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::Id(key.id().to_vec()),
        ])
        .unwrap();
    assert_eq!(public.len(), 1);
    session.destroy_object(public[0]).unwrap();
    let (_, other) = MlKem768::generate(&mut OsRng::default()).unwrap();
    session
        .create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::ML_KEM),
            Attribute::ParameterSet(MlKemParameterSetType::ML_KEM_768.into()),
            Attribute::Value(other.as_bytes().to_vec()),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Id(key.id().to_vec()),
        ])
        .unwrap();
    assert!(matches!(token.key(label), Err(Error::PublicKeyMismatch)));
    token.destroy_key(label).unwrap();
}

fn four_threads_one_hybrid_key(token: &Token) {
    let (sk, key) = imported::<MlKem768P256>(token, "threads");
    let pool = key.with_sessions(4).unwrap();
    assert!(format!("{pool:?}").contains("sessions: 4"), "{pool:?}");
    type S = Hpke<MlKem768P256, HkdfSha256, ChaCha20Poly1305>;
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let held = ExternalDecap(pool.typed::<MlKem768P256>().unwrap());
                for _ in 0..8 {
                    let mut rng = OsRng::default();
                    let (enc, ct) =
                        S::seal_base(&mut rng, &sk.public_key(), INFO, AAD, PT).unwrap();
                    assert_eq!(S::open_base(&enc, &held, INFO, AAD, &ct).unwrap(), PT);
                }
            });
        }
    });
    token.destroy_key("threads").unwrap();
}

/// Replaces the public key object of the pair of `key_type` under `id` by one holding
/// `public`, with the PIN (`CKA_PRIVATE`, the pair's label and id), as a careless tool could.
fn swap_public(label: &str, id: &[u8], key_type: KeyType, public: Attribute) {
    let session = raw_session();
    let old = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(key_type),
            Attribute::Id(id.to_vec()),
        ])
        .unwrap();
    assert_eq!(old.len(), 1);
    let params = if key_type == KeyType::ML_KEM {
        Attribute::ParameterSet(MlKemParameterSetType::ML_KEM_768.into())
    } else {
        Attribute::EcParams(vec![0x06, 0x03, 0x2b, 0x65, 0x6e])
    };
    session.destroy_object(old[0]).unwrap();
    session
        .create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(key_type),
            params,
            public,
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Id(id.to_vec()),
        ])
        .unwrap();
}

/// The outside review: an X25519 public object swapped for one the derivation check cannot tell
/// from it (the unused top bit set) was the key found. kryoptic keeps the public key on the
/// private object (`CKA_PUBLIC_KEY_INFO`), and that is the key now, whatever public object
/// stands beside it: the top-bit twin, another key, for a key alone and for X-Wing's half. An
/// ML-KEM half swapped is `PublicKeyMismatch`, as for an ML-KEM key alone.
fn swapped_montgomery_and_hybrid_public_keys(token: &Token) {
    let (_, other) = DhKemX25519HkdfSha256::generate(&mut OsRng::default()).unwrap();
    for kem in [DhKemX25519HkdfSha256::ID, XWing::ID] {
        for twin in [true, false] {
            let label = format!("swapped {kem:#06x}");
            let key = token.generate_key(kem, &label).unwrap();
            let genuine = key.public_key().as_bytes();
            let mut swapped = genuine[genuine.len() - 32..].to_vec();
            if twin {
                swapped[31] ^= 0x80;
            } else {
                swapped = other.as_bytes().to_vec();
            }
            swap_public(
                &label,
                key.id(),
                KeyType::EC_MONTGOMERY,
                Attribute::EcPoint(swapped),
            );
            let found = token.key(&label).unwrap();
            assert_eq!(found.public_key(), key.public_key(), "{label} twin {twin}");
            opens(&found);
            token.destroy_key(&label).unwrap();
        }
    }
    let label = "swapped X-Wing ML-KEM half";
    let key = token.generate_key(XWing::ID, label).unwrap();
    let (_, other) = MlKem768::generate(&mut OsRng::default()).unwrap();
    swap_public(
        label,
        key.id(),
        KeyType::ML_KEM,
        Attribute::Value(other.as_bytes().to_vec()),
    );
    assert!(matches!(token.key(label), Err(Error::PublicKeyMismatch)));
    token.destroy_key(label).unwrap();
}

/// An ML-KEM pair made by another tool: no `CKA_ID`, its public object not `CKA_PRIVATE`, with
/// two ML-KEM public objects of other keys beside it under the label. The lookup reads the
/// public objects anyone could have written and takes the one the token's key decapsulates
/// for (a decapsulation each), never a planted one.
fn ml_kem_pair_without_id(token: &Token) {
    use cryptoki::mechanism::Mechanism;
    let label = "foreign ML-KEM";
    let mut rng = OsRng::default();
    let (_, a) = MlKem768::generate(&mut rng).unwrap();
    plant(label, b"", MlKem768::ID, a.as_bytes());
    let session = raw_session();
    let l = label.as_bytes().to_vec();
    let (public, _) = session
        .generate_key_pair(
            &Mechanism::MlKemKeyPairGen,
            &[
                Attribute::Token(true),
                Attribute::Private(false),
                Attribute::ParameterSet(MlKemParameterSetType::ML_KEM_768.into()),
                Attribute::Label(l.clone()),
            ],
            &[
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Sensitive(true),
                Attribute::Decapsulate(true),
                Attribute::Label(l),
            ],
        )
        .unwrap();
    let genuine = match session
        .get_attributes(public, &[cryptoki::object::AttributeType::Value])
        .unwrap()
        .pop()
    {
        Some(Attribute::Value(v)) => v,
        other => panic!("{other:?}"),
    };
    let (_, b) = MlKem768::generate(&mut rng).unwrap();
    plant(label, b"", MlKem768::ID, b.as_bytes());
    let found = token.key(label).unwrap();
    assert_eq!(found.public_key().as_bytes(), &genuine[..]);
    opens(&found);
    // destroy_key removes that pair and leaves the planted objects.
    token.destroy_key(label).unwrap();
    let left = session
        .find_objects(&[Attribute::Label(label.as_bytes().to_vec())])
        .unwrap();
    assert_eq!(left.len(), 2);
    for object in left {
        session.destroy_object(object).unwrap();
    }
}

/// The freed-block scan of tests/softhsm.rs on the paths kryoptic adds: P-521's value padded
/// in the token, ML-KEM's shared secret, a hybrid's (and its ML-KEM half's, computed here from
/// the imported key), and the secrets an import passes to the token. The scan sees this
/// process's Rust heap (this crate's buffers and cryptoki's); kryoptic's own are the token's.
fn no_secret_in_freed_memory(token: &Token) {
    let mut rng = OsRng::default();
    for kem in [DhKemP521HkdfSha512::ID, MlKem768::ID, XWing::ID] {
        let suite = Suite::new(kem, 1, 3).unwrap();
        let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
        // The import: the key's bytes (for X-Wing, the two secrets its seed expands to).
        let bytes = sk.to_bytes();
        let mut needles: Vec<Vec<u8>> = vec![bytes.to_vec()];
        if kem == XWing::ID {
            let typed = typed_hpke::PrivateKey::<XWing>::from_bytes(&bytes).unwrap();
            let (m, t) = typed.expanded_halves();
            needles = vec![m.to_vec(), t.to_vec()];
        }
        let refs: Vec<&[u8]> = needles.iter().map(|v| &v[..]).collect();
        let mut key = None;
        let hits = common::freed_blocks_holding(&refs, || {
            key = Some(token.import_key(&sk, "scan").unwrap());
        });
        println!("  kem {kem:#06x} import: {hits} freed blocks held the key");
        assert_eq!(hits, 0, "kem {kem:#06x} import");
        let key = key.unwrap();
        let (enc, ct) = suite
            .seal(&mut rng, &pk, INFO, AAD, PT, SenderMode::Base)
            .unwrap();
        // Pass 1: what the token answered, recorded (and the ML-KEM half's secret for X-Wing).
        let recording = Recording(&key, Default::default());
        if suite.supports_auth() {
            suite.open(
                &enc,
                &ExternalDh(&recording),
                INFO,
                AAD,
                &ct,
                ReceiverMode::Base,
            )
        } else {
            suite.open(
                &enc,
                &ExternalDecap(&recording),
                INFO,
                AAD,
                &ct,
                ReceiverMode::Base,
            )
        }
        .unwrap();
        let mut values: Vec<Vec<u8>> = recording.1.borrow().clone();
        drop(recording);
        if kem == XWing::ID {
            let typed = typed_hpke::PrivateKey::<XWing>::from_bytes(&bytes).unwrap();
            let (m, _) = typed.expanded_halves();
            let ml_kem = typed_hpke::PrivateKey::<MlKem768>::from_bytes(&m).unwrap();
            let ct_m = typed_hpke::EncappedKey::<MlKem768>::from_bytes(&enc[..1088]).unwrap();
            values.push(MlKem768::decap(&ct_m, &ml_kem).unwrap().as_bytes().to_vec());
        }
        assert!(!values.is_empty());
        // Pass 2: the same secrets computed again by the token, the scan armed.
        let refs: Vec<&[u8]> = values.iter().map(|v| &v[..]).collect();
        let hits = common::freed_blocks_holding(&refs, || {
            let pt = if suite.supports_auth() {
                suite.open(&enc, &ExternalDh(&key), INFO, AAD, &ct, ReceiverMode::Base)
            } else {
                suite.open(
                    &enc,
                    &ExternalDecap(&key),
                    INFO,
                    AAD,
                    &ct,
                    ReceiverMode::Base,
                )
            };
            assert_eq!(pt.unwrap(), PT);
        });
        println!("  kem {kem:#06x} open: {hits} freed blocks held a secret");
        assert_eq!(hits, 0, "kem {kem:#06x} open");
        token.destroy_key("scan").unwrap();
    }
}
