//! hpke-ng 0.2: typed like typed-hpke; KEMs X25519, X448, P-256/384/521, secp256k1,
//! ML-KEM-768/1024, X-Wing; HKDF only; every seal, open and export returns a `Vec`.

use std::hint::black_box;

use hpke_ng::{Hpke as H, Kem};

use crate::compare::driver::{
    AAD, Check, EXPORTER, Fixture, INFO, Job, Mode, Op, PSK, PSK_ID, Row, timed, timed_with,
};
use crate::compare::hpke_ng_auth::NgMaybeAuth;
use crate::compare::typed::rng;

pub const NAME: &str = "hpke-ng";

type Sender<K, F, A> = (<K as Kem>::EncappedKey, hpke_ng::SenderContext<K, F, A>);

fn psk() -> hpke_ng::Psk<'static> {
    hpke_ng::Psk::new(PSK, PSK_ID).unwrap()
}

/// A sender in any of the four modes (the authenticated ones only where hpke-ng has them),
/// from a fresh seeded generator.
fn sender<K: NgMaybeAuth, F: hpke_ng::Kdf, A: hpke_ng::Aead>(
    mode: Mode,
    pk: &K::PublicKey,
    sk_s: &K::PrivateKey,
) -> Option<Sender<K, F, A>> {
    let mut rng = rng();
    match mode {
        Mode::Base => H::<K, F, A>::setup_sender_base(&mut rng, pk, INFO).ok(),
        Mode::Psk => H::<K, F, A>::setup_sender_psk(&mut rng, pk, INFO, psk()).ok(),
        Mode::Auth => K::setup_sender_auth(&mut rng, pk, INFO, None, sk_s)?.ok(),
        Mode::AuthPsk => K::setup_sender_auth(&mut rng, pk, INFO, Some(psk()), sk_s)?.ok(),
    }
}

/// A receiver in any of the four modes, as [`sender`].
fn receiver<K: NgMaybeAuth, F: hpke_ng::Kdf, A: hpke_ng::Aead>(
    mode: Mode,
    enc: &K::EncappedKey,
    sk: &K::PrivateKey,
    pk_s: &K::PublicKey,
) -> Option<hpke_ng::ReceiverContext<K, F, A>> {
    match mode {
        Mode::Base => H::<K, F, A>::setup_receiver_base(enc, sk, INFO).ok(),
        Mode::Psk => H::<K, F, A>::setup_receiver_psk(enc, sk, INFO, psk()).ok(),
        Mode::Auth => K::setup_receiver_auth(enc, sk, INFO, None, pk_s)?.ok(),
        Mode::AuthPsk => K::setup_receiver_auth(enc, sk, INFO, Some(psk()), pk_s)?.ok(),
    }
}

/// Maps a suite's literal ids to hpke-ng's types, or to `None` where it lacks the algorithm.
macro_rules! call {
    (@ $k:ty, 0x0001, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke_ng::HkdfSha256, $a, $r, $x) };
    (@ $k:ty, 0x0002, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke_ng::HkdfSha384, $a, $r, $x) };
    (@ $k:ty, 0x0003, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke_ng::HkdfSha512, $a, $r, $x) };
    (@ $k:ty, $f:tt, $a:tt, $r:expr, $x:expr) => { None };
    (@@ $k:ty, $f:ty, 0x0001, $r:expr, $x:expr) => { job::<$k, $f, hpke_ng::Aes128Gcm>($r, $x) };
    (@@ $k:ty, $f:ty, 0x0002, $r:expr, $x:expr) => { job::<$k, $f, hpke_ng::Aes256Gcm>($r, $x) };
    (@@ $k:ty, $f:ty, 0x0003, $r:expr, $x:expr) => { job::<$k, $f, hpke_ng::ChaCha20Poly1305>($r, $x) };
    (0x0020, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemX25519HkdfSha256, $f, $a, $r, $x) };
    (0x0021, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemX448HkdfSha512, $f, $a, $r, $x) };
    (0x0010, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemP256HkdfSha256, $f, $a, $r, $x) };
    (0x0011, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemP384HkdfSha384, $f, $a, $r, $x) };
    (0x0012, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemP521HkdfSha512, $f, $a, $r, $x) };
    (0x0016, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::DhKemK256HkdfSha256, $f, $a, $r, $x) };
    (0x0041, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::MlKem768, $f, $a, $r, $x) };
    (0x0042, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::MlKem1024, $f, $a, $r, $x) };
    (0x647a, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke_ng::XWingDraft06, $f, $a, $r, $x) };
    ($k:tt, $f:tt, $a:tt, $r:expr, $x:expr) => { None };
}

pub fn peer(row: &Row, fix: &Fixture) -> Option<Job> {
    for_suite!(row.ids, call, row, fix)
}

fn job<K: NgMaybeAuth, F: hpke_ng::Kdf + 'static, A: hpke_ng::SealingAead + 'static>(
    row: &Row,
    fix: &Fixture,
) -> Option<Job> {
    let mode = row.mode();
    let (sk, pk) = K::derive_key_pair(row.ikm(fix.nsk, false)).ok()?;
    let (sk_s, pk_s) = K::derive_key_pair(row.ikm(fix.nsk, true)).ok()?;
    assert_eq!(
        pk.as_ref(),
        &fix.pk_r[..],
        "{NAME}: another key from the same IKM"
    );
    let enc = K::enc_from_bytes(&fix.enc).ok()?;
    let mut rng = rng();
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    let expect = |check| fix.expect(NAME, row, check);
    Some(match row.op {
        Op::Generate => timed(move || K::generate(&mut rng).unwrap()),
        Op::DeriveKeyPair => {
            let ikm = row.ikm(fix.nsk, false);
            timed(move || K::derive_key_pair(black_box(ikm)).unwrap())
        }
        Op::Encap => {
            let (ss, enc) = K::encap(&mut rng, &pk).ok()?;
            expect(Check::Decap {
                enc: enc.as_ref(),
                ss: ss.as_ref(),
            });
            timed(move || K::encap(&mut rng, black_box(&pk)).unwrap())
        }
        Op::Decap => {
            assert_eq!(K::decap(&enc, &sk).ok()?.as_ref(), &fix.ss[..]);
            timed(move || K::decap(black_box(&enc), black_box(&sk)).unwrap())
        }
        Op::AuthEncap => {
            let (ss, enc) = K::auth_encap(&mut crate::compare::typed::rng(), &pk, &sk_s)?.ok()?;
            expect(Check::Decap {
                enc: enc.as_ref(),
                ss: ss.as_ref(),
            });
            timed(move || {
                K::auth_encap(&mut crate::compare::typed::rng(), black_box(&pk), &sk_s)
                    .unwrap()
                    .unwrap()
            })
        }
        Op::AuthDecap => {
            assert_eq!(K::auth_decap(&enc, &sk, &pk_s)?.ok()?.as_ref(), &fix.ss[..]);
            timed(move || {
                K::auth_decap(black_box(&enc), black_box(&sk), &pk_s)
                    .unwrap()
                    .unwrap()
            })
        }
        Op::SetupSender(_) => {
            let (enc, ctx) = sender::<K, F, A>(mode, &pk, &sk_s)?;
            let export = ctx.export(EXPORTER, fix.export.len()).unwrap();
            expect(Check::Export {
                enc: enc.as_ref(),
                export: &export,
            });
            timed(move || sender::<K, F, A>(mode, black_box(&pk), &sk_s).unwrap())
        }
        Op::SetupReceiver(_) => {
            let ctx = receiver::<K, F, A>(mode, &enc, &sk, &pk_s)?;
            assert_eq!(ctx.export(EXPORTER, fix.export.len()).unwrap(), fix.export);
            timed(move || {
                receiver::<K, F, A>(mode, black_box(&enc), black_box(&sk), &pk_s).unwrap()
            })
        }
        Op::Seal(_) => {
            let (enc, ct) = H::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, &pt).ok()?;
            expect(Check::Open {
                enc: enc.as_ref(),
                ct: &ct,
            });
            timed(move || {
                H::<K, F, A>::seal_base(&mut rng, black_box(&pk), INFO, AAD, black_box(&pt))
                    .unwrap()
            })
        }
        Op::Open(_) => {
            assert_eq!(H::<K, F, A>::open_base(&enc, &sk, INFO, AAD, &ct).ok()?, pt);
            timed(move || {
                H::<K, F, A>::open_base(black_box(&enc), black_box(&sk), INFO, AAD, black_box(&ct))
                    .unwrap()
            })
        }
        Op::ContextSeal(_) => {
            let (enc, mut ctx) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).ok()?;
            let first = ctx.seal(AAD, &pt).unwrap();
            expect(Check::Open {
                enc: enc.as_ref(),
                ct: &first,
            });
            timed(move || ctx.seal(AAD, black_box(&pt)).unwrap())
        }
        Op::ContextOpen(_) => {
            let mut r = H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).ok()?;
            assert_eq!(r.open(AAD, &ct).unwrap(), pt);
            timed_with(
                move |n| {
                    let (enc, mut s) =
                        H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
                    let r = H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).unwrap();
                    let cts: Vec<Vec<u8>> = (0..n).map(|_| s.seal(AAD, &pt).unwrap()).collect();
                    (r, cts.into_iter())
                },
                |(r, cts)| r.open(AAD, black_box(&cts.next().unwrap())).unwrap(),
            )
        }
        Op::Export(n) => {
            let r = H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).ok()?;
            assert_eq!(r.export(EXPORTER, n).unwrap(), fix.export);
            let (_, ctx) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).ok()?;
            timed(move || ctx.export(black_box(EXPORTER), n).unwrap())
        }
    })
}
