//! The roundtrip matrix: a pairwise selection of the library's suites (`Suite::all`, see
//! `selected`) in every mode its KEM has, one test per mode. Each cell seals several messages in sequence through all three API shapes
//! (Vec, in place, caller buffer), checks that exports agree, runs the single-shot functions,
//! and checks that each kind of tampering fails; an ExportOnly cell exports.

#[path = "util/maybe_auth.rs"]
mod maybe_auth;
#[path = "util/modes.rs"]
mod modes;

use maybe_auth::MaybeAuth;
use modes::{Mode, Ours};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::Tag;
use typed_hpke::aead::{Aead, ExportOnly, SealingAead};
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::Kem;
use typed_hpke::suite::{SealingVisitor, Suite, Visitor};
use typed_hpke::{
    EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext, SenderContext,
};

const INFO: &[u8] = b"roundtrip matrix info";
const PSK: [u8; 32] = [0x5a; 32];
const PSK_ID: &[u8] = b"psk id";

struct Keys<K: MaybeAuth> {
    sk_r: PrivateKey<K>,
    pk_r: PublicKey<K>,
    sk_s: PrivateKey<K>,
    pk_s: PublicKey<K>,
}

impl<K: MaybeAuth> Keys<K> {
    fn new(rng: &mut ChaCha20Rng) -> Self {
        let (sk_r, pk_r) = K::generate(rng).unwrap();
        let (sk_s, pk_s) = K::generate(rng).unwrap();
        Self {
            sk_r,
            pk_r,
            sk_s,
            pk_s,
        }
    }
}

fn rng_for(name: &str) -> ChaCha20Rng {
    let seed = name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)));
    ChaCha20Rng::seed_from_u64(seed)
}

fn psk() -> Psk<'static> {
    Psk::new(&PSK, PSK_ID).unwrap()
}

fn flip(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[bit / 8 % bytes.len()] ^= 1 << (bit % 8);
    out
}

fn export32<K: MaybeAuth, F: Kdf, A: Aead>(ctx: &ReceiverContext<K, F, A>) -> [u8; 32] {
    let mut out = [0u8; 32];
    ctx.export(b"probe", &mut out).unwrap();
    out
}

/// Every way the receiver's inputs can be wrong, each on a fresh receiver; `check` says whether
/// the resulting context still agrees with the sender.
fn tampered_receivers<K: MaybeAuth, F: Kdf, A: Aead>(
    mode: Mode,
    rng: &mut ChaCha20Rng,
    keys: &Keys<K>,
    enc: &EncappedKey<K>,
    mut agrees: impl FnMut(&str, Result<ReceiverContext<K, F, A>, Error>) -> bool,
) {
    let good_psk = psk();
    let other_psk_bytes = flip(&PSK, 3);
    let wrong_psk = Psk::new(&other_psk_bytes, PSK_ID).unwrap();
    let wrong_psk_id = Psk::new(&PSK, b"another id").unwrap();
    let (other_sk, other_pk) = K::generate(rng).unwrap();
    let enc_flipped = EncappedKey::<K>::from_bytes(&flip(enc.as_bytes(), 13)).unwrap();

    type Receiver<K, F, A> = Result<ReceiverContext<K, F, A>, Error>;
    let mut cases: Vec<(&str, Receiver<K, F, A>)> = vec![
        (
            "flipped enc",
            K::receiver(mode, &enc_flipped, &keys.sk_r, INFO, &good_psk, &keys.pk_s),
        ),
        (
            "flipped info",
            K::receiver(mode, enc, &keys.sk_r, &flip(INFO, 9), &good_psk, &keys.pk_s),
        ),
        (
            "wrong recipient key",
            K::receiver(mode, enc, &other_sk, INFO, &good_psk, &keys.pk_s),
        ),
    ];
    if matches!(mode, Mode::Psk | Mode::AuthPsk) {
        cases.push((
            "wrong psk",
            K::receiver(mode, enc, &keys.sk_r, INFO, &wrong_psk, &keys.pk_s),
        ));
        cases.push((
            "wrong psk_id",
            K::receiver(mode, enc, &keys.sk_r, INFO, &wrong_psk_id, &keys.pk_s),
        ));
    }
    if matches!(mode, Mode::Auth | Mode::AuthPsk) {
        cases.push((
            "wrong sender key",
            K::receiver(mode, enc, &keys.sk_r, INFO, &good_psk, &other_pk),
        ));
    }
    for (what, receiver) in cases {
        assert!(
            !agrees(what, receiver),
            "{mode:?}: a receiver with a {what} still agrees"
        );
    }
}

fn seal_cell<K: MaybeAuth, F: Kdf, A: SealingAead>(mode: Mode, name: &str) {
    let mut rng = rng_for(name);
    let keys = Keys::<K>::new(&mut rng);
    let psk = psk();
    let (enc, mut sender) =
        K::sender::<F, A, _>(mode, &mut rng, &keys.pk_r, INFO, &psk, &keys.sk_s)
            .expect("sender setup");
    let mut receiver = K::receiver::<F, A>(mode, &enc, &keys.sk_r, INFO, &psk, &keys.pk_s).unwrap();

    let mut first = None;
    for i in 0..6usize {
        let pt: Vec<u8> = (0..i * 41).map(|j| (i * 7 + j) as u8).collect();
        let aad = format!("message {i}");
        let ct = match i % 3 {
            0 => sender.seal(aad.as_bytes(), &pt).unwrap(),
            1 => {
                let mut buf = pt.clone();
                let tag = sender
                    .seal_in_place_detached(aad.as_bytes(), &mut buf)
                    .unwrap();
                buf.extend_from_slice(&tag);
                buf
            }
            _ => {
                let mut out = vec![0u8; pt.len() + 16 + 5];
                let n = sender.seal_into(aad.as_bytes(), &pt, &mut out).unwrap();
                out.truncate(n);
                out
            }
        };
        assert_eq!(ct.len(), pt.len() + 16);

        // A tampered ciphertext or aad fails and leaves the receiver's sequence where it was.
        let before = receiver.sequence_number();
        assert_eq!(
            receiver.open(aad.as_bytes(), &flip(&ct, i * 8 + 1)),
            Err(Error::Open)
        );
        assert_eq!(
            receiver.open(&flip(aad.as_bytes(), 2), &ct),
            Err(Error::Open)
        );
        assert_eq!(receiver.sequence_number(), before);

        let opened = match i % 3 {
            0 => receiver.open(aad.as_bytes(), &ct).unwrap(),
            1 => {
                let (body, tag) = ct.split_at(pt.len());
                let mut buf = body.to_vec();
                let tag = Tag::<A>::try_from(tag).unwrap();
                receiver
                    .open_in_place_detached(aad.as_bytes(), &mut buf, &tag)
                    .unwrap();
                buf
            }
            _ => {
                let mut out = vec![0u8; pt.len()];
                let n = receiver.open_into(aad.as_bytes(), &ct, &mut out).unwrap();
                assert_eq!(n, pt.len());
                out
            }
        };
        assert_eq!(opened, pt, "message {i}");
        assert_eq!(receiver.sequence_number(), i as u64 + 1);
        first.get_or_insert(ct);
    }
    // A replayed first message no longer opens: the nonce has moved on.
    assert_eq!(
        receiver.open(b"message 0", first.as_ref().unwrap()),
        Err(Error::Open)
    );

    exports_agree(&sender, &receiver);

    // Every tampered setup yields a context that cannot open the sender's next message.
    let ct = sender.seal(b"probe aad", b"probe").unwrap();
    let seq = sender.sequence_number() - 1;
    tampered_receivers::<K, F, A>(mode, &mut rng, &keys, &enc, |_, r| match r {
        Err(_) => false,
        Ok(mut r) => {
            r.set_sequence_number_for_testing_only(seq);
            r.open(b"probe aad", &ct).is_ok()
        }
    });

    single_shot::<K, F, A>(mode, &mut rng, &keys);
}

fn single_shot<K: MaybeAuth, F: Kdf, A: SealingAead>(
    mode: Mode,
    rng: &mut ChaCha20Rng,
    keys: &Keys<K>,
) {
    type H<K, F, A> = Hpke<K, F, A>;
    let psk = psk();
    let p = mode.psk(&psk);
    let (sk_r, pk_r, sk_s, pk_s) = (&keys.sk_r, &keys.pk_r, &keys.sk_s, &keys.pk_s);
    let (aad, pt) = (&b"single-shot aad"[..], &b"single-shot plaintext"[..]);
    let (enc, ct) = match mode {
        Mode::Base => H::<K, F, A>::seal_base(rng, pk_r, INFO, aad, pt),
        Mode::Psk => H::<K, F, A>::seal_psk(rng, pk_r, INFO, aad, pt, &psk),
        _ => K::seal_auth::<F, A>(rng, pk_r, INFO, aad, pt, p, sk_s),
    }
    .unwrap();
    let open = |ct: &[u8]| match mode {
        Mode::Base => H::<K, F, A>::open_base(&enc, sk_r, INFO, aad, ct),
        Mode::Psk => H::<K, F, A>::open_psk(&enc, sk_r, INFO, aad, ct, &psk),
        _ => K::open_auth::<F, A>(&enc, sk_r, INFO, aad, ct, p, pk_s),
    };
    assert_eq!(open(&ct).unwrap(), pt);
    assert_eq!(open(&flip(&ct, 77)), Err(Error::Open));

    // The allocation-free shapes: seal in place, open into a buffer...
    let mut buf = pt.to_vec();
    let (enc2, tag) = match mode {
        Mode::Base => H::<K, F, A>::seal_base_in_place_detached(rng, pk_r, INFO, aad, &mut buf),
        Mode::Psk => H::<K, F, A>::seal_psk_in_place_detached(rng, pk_r, INFO, aad, &mut buf, &psk),
        _ => K::seal_auth_in_place_detached::<F, A>(rng, pk_r, INFO, aad, &mut buf, p, sk_s),
    }
    .unwrap();
    let mut ct2 = buf.clone();
    ct2.extend_from_slice(&tag);
    let mut out = vec![0u8; buf.len()];
    let n = match mode {
        Mode::Base => H::<K, F, A>::open_base_into(&enc2, sk_r, INFO, aad, &ct2, &mut out),
        Mode::Psk => H::<K, F, A>::open_psk_into(&enc2, sk_r, INFO, aad, &ct2, &mut out, &psk),
        _ => K::open_auth_into::<F, A>(&enc2, sk_r, INFO, aad, &ct2, &mut out, p, pk_s),
    }
    .unwrap();
    assert_eq!(&out[..n], pt);

    // ...and seal into a buffer, open in place.
    let mut sealed = vec![0u8; pt.len() + 16];
    let (enc3, n) = match mode {
        Mode::Base => H::<K, F, A>::seal_base_into(rng, pk_r, INFO, aad, pt, &mut sealed),
        Mode::Psk => H::<K, F, A>::seal_psk_into(rng, pk_r, INFO, aad, pt, &mut sealed, &psk),
        _ => K::seal_auth_into::<F, A>(rng, pk_r, INFO, aad, pt, &mut sealed, p, sk_s),
    }
    .unwrap();
    assert_eq!(n, sealed.len());
    let (body, tag) = sealed.split_at_mut(pt.len());
    let tag = Tag::<A>::try_from(&*tag).unwrap();
    match mode {
        Mode::Base => H::<K, F, A>::open_base_in_place_detached(&enc3, sk_r, INFO, aad, body, &tag),
        Mode::Psk => {
            H::<K, F, A>::open_psk_in_place_detached(&enc3, sk_r, INFO, aad, body, &tag, &psk)
        }
        _ => K::open_auth_in_place_detached::<F, A>(&enc3, sk_r, INFO, aad, body, &tag, p, pk_s),
    }
    .unwrap();
    assert_eq!(body, pt);
}

fn exports_agree<K: MaybeAuth, F: Kdf, A: Aead>(
    sender: &SenderContext<K, F, A>,
    receiver: &ReceiverContext<K, F, A>,
) {
    let mut previous: Vec<Vec<u8>> = Vec::new();
    for (ctx, len) in [
        (&b""[..], 0usize),
        (b"a", 1),
        (b"context", 32),
        (b"context", 33),
        (b"longer context", 300),
    ] {
        let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
        sender.export(ctx, &mut a).unwrap();
        receiver.export(ctx, &mut b).unwrap();
        assert_eq!(a, b, "export({ctx:?}, {len})");
        if len > 0 {
            assert!(!previous.contains(&a), "distinct exports");
            previous.push(a);
        }
    }
}

/// Export-only suites: no seal/open exists; exports agree, and tampering changes them.
fn export_cell<K: MaybeAuth, F: Kdf>(mode: Mode, name: &str) {
    type H<K, F> = Hpke<K, F, ExportOnly>;
    let mut rng = rng_for(name);
    let keys = Keys::<K>::new(&mut rng);
    let psk = psk();
    let (enc, sender) =
        K::sender::<F, ExportOnly, _>(mode, &mut rng, &keys.pk_r, INFO, &psk, &keys.sk_s)
            .expect("sender setup");
    let receiver =
        K::receiver::<F, ExportOnly>(mode, &enc, &keys.sk_r, INFO, &psk, &keys.pk_s).unwrap();
    exports_agree(&sender, &receiver);
    let good = export32(&receiver);
    tampered_receivers::<K, F, ExportOnly>(mode, &mut rng, &keys, &enc, |_, r| {
        r.map(|r| export32(&r) == good).unwrap_or(false)
    });

    // Single-shot export on both sides.
    let p = mode.psk(&psk);
    let (sk_r, pk_r) = (&keys.sk_r, &keys.pk_r);
    let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
    let enc = match mode {
        Mode::Base => H::<K, F>::send_export_base(&mut rng, pk_r, INFO, b"x", &mut a),
        Mode::Psk => H::<K, F>::send_export_psk(&mut rng, pk_r, INFO, b"x", &mut a, &psk),
        _ => {
            K::send_export_auth::<F, ExportOnly>(&mut rng, pk_r, INFO, b"x", &mut a, p, &keys.sk_s)
        }
    }
    .unwrap();
    match mode {
        Mode::Base => H::<K, F>::receive_export_base(&enc, sk_r, INFO, b"x", &mut b),
        Mode::Psk => H::<K, F>::receive_export_psk(&enc, sk_r, INFO, b"x", &mut b, &psk),
        _ => K::receive_export_auth::<F, ExportOnly>(&enc, sk_r, INFO, b"x", &mut b, p, &keys.pk_s),
    }
    .unwrap();
    assert_eq!(a, b);
}

/// Whether the matrix runs the cell (KEM, KDF, AEAD): a pairwise selection of `Suite::all`, a
/// quarter of it. Each (KEM, KDF) gets one AEAD, which turns with both ids, so that every
/// (KEM, KDF), (KEM, AEAD) and (KDF, AEAD) pair of the library meets in some cell;
/// `every_suite` checks that, so a primitive the rule misses fails here. The whole product is
/// `tests/suite.rs`'s: every suite in every mode, the runtime API against the typed one.
/// Decided when a visitor is compiled (`if const`), so the other cells are never built: the
/// whole product was most of this crate's test build.
const fn selected(kem: u16, kdf: u16, aead: u16) -> bool {
    (kdf as u32 + (kem ^ (kem >> 4)) as u32) % 4 == aead as u32 % 5
}

/// The selected cells of `mode` over the library's suites (`Suite::all`) whose KEM has the mode.
fn every_suite(mode: Mode) {
    struct Seal(Mode, String);
    impl SealingVisitor for Seal {
        type Output = bool;
        fn visit<K: Kem, F: Kdf, A: SealingAead>(self) -> bool {
            if const { selected(K::ID, F::ID, A::ID) } {
                seal_cell::<K, F, A>(self.0, &self.1);
                true
            } else {
                false
            }
        }
    }
    struct Export(Mode, String);
    impl Visitor for Export {
        type Output = bool;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> bool {
            if const { selected(K::ID, F::ID, A::ID) } {
                export_cell::<K, F>(self.0, &self.1);
                true
            } else {
                false
            }
        }
    }
    let mut pairs = std::collections::HashSet::new();
    let mut wanted = std::collections::HashSet::new();
    let mut cells = 0;
    for suite in Suite::all() {
        if matches!(mode, Mode::Auth | Mode::AuthPsk) && !suite.supports_auth() {
            continue;
        }
        let (kem, kdf, aead) = (suite.kem_id(), suite.kdf_id(), suite.aead_id());
        let these = [(0, kem, kdf), (1, kem, aead), (2, kdf, aead)];
        wanted.extend(these);
        let name = format!("{suite:?} {mode:?}");
        let ran = if suite.supports_seal() {
            suite.visit_sealing(Seal(mode, name)).unwrap()
        } else {
            suite.visit(Export(mode, name)).unwrap()
        };
        assert_eq!(ran, selected(kem, kdf, aead));
        if ran {
            pairs.extend(these);
            cells += 1;
        }
    }
    assert!(cells > 0);
    let mut missed: Vec<_> = wanted.difference(&pairs).collect();
    missed.sort();
    assert!(
        missed.is_empty(),
        "{mode:?}: pairs in no cell (0: KEM, KDF; 1: KEM, AEAD; 2: KDF, AEAD): {missed:x?}"
    );
}

#[test]
fn base() {
    every_suite(Mode::Base);
}

#[test]
fn psk_mode() {
    every_suite(Mode::Psk);
}

#[test]
fn auth() {
    every_suite(Mode::Auth);
}

#[test]
fn auth_psk() {
    every_suite(Mode::AuthPsk);
}
