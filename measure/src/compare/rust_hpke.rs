//! rust-hpke (`hpke`) 0.15.1: typed; KEMs X25519, P-256/384/521, ML-KEM-768/1024, X-Wing,
//! MLKEM768-P256, MLKEM1024-P384; HKDF, SHAKE and TurboSHAKE. Its raw `encap_with_rng` /
//! `decap` are public (the latter doc-hidden), so it has KEM rows.

use std::hint::black_box;

use hpke::{Deserializable, Kem, OpModeR, OpModeS, PskBundle, Serializable};

use crate::compare::driver::{
    AAD, Check, EXPORTER, Fixture, INFO, Job, Mode, Op, PSK, PSK_ID, Row, timed, timed_with,
};
use crate::compare::typed::rng;

pub const NAME: &str = "rust-hpke";

fn bundle() -> PskBundle<'static> {
    PskBundle::new(PSK, PSK_ID).unwrap()
}

/// Maps a suite's literal ids to rust-hpke's types, or to `None` where it lacks the algorithm.
macro_rules! call {
    (@ $k:ty, 0x0001, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::HkdfSha256, $a, $r, $x) };
    (@ $k:ty, 0x0002, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::HkdfSha384, $a, $r, $x) };
    (@ $k:ty, 0x0003, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::HkdfSha512, $a, $r, $x) };
    (@ $k:ty, 0x0010, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::KdfShake128, $a, $r, $x) };
    (@ $k:ty, 0x0011, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::KdfShake256, $a, $r, $x) };
    (@ $k:ty, 0x0012, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::KdfTurboShake128, $a, $r, $x) };
    (@ $k:ty, 0x0013, $a:tt, $r:expr, $x:expr) => { call!(@@ $k, hpke::kdf::KdfTurboShake256, $a, $r, $x) };
    (@ $k:ty, $f:tt, $a:tt, $r:expr, $x:expr) => { None };
    (@@ $k:ty, $f:ty, 0x0001, $r:expr, $x:expr) => { job::<$k, $f, hpke::aead::AesGcm128>($r, $x) };
    (@@ $k:ty, $f:ty, 0x0002, $r:expr, $x:expr) => { job::<$k, $f, hpke::aead::AesGcm256>($r, $x) };
    (@@ $k:ty, $f:ty, 0x0003, $r:expr, $x:expr) => { job::<$k, $f, hpke::aead::ChaCha20Poly1305>($r, $x) };
    (0x0020, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::X25519HkdfSha256, $f, $a, $r, $x) };
    (0x0010, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::DhP256HkdfSha256, $f, $a, $r, $x) };
    (0x0011, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::DhP384HkdfSha384, $f, $a, $r, $x) };
    (0x0012, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::DhP521HkdfSha512, $f, $a, $r, $x) };
    (0x0041, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::MlKem768, $f, $a, $r, $x) };
    (0x0042, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::MlKem1024, $f, $a, $r, $x) };
    (0x647a, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::XWing, $f, $a, $r, $x) };
    (0x0050, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::MlKem768P256, $f, $a, $r, $x) };
    (0x0051, $f:tt, $a:tt, $r:expr, $x:expr) => { call!(@ hpke::kem::MlKem1024P384, $f, $a, $r, $x) };
    ($k:tt, $f:tt, $a:tt, $r:expr, $x:expr) => { None };
}

pub fn peer(row: &Row, fix: &Fixture) -> Option<Job> {
    for_suite!(row.ids, call, row, fix)
}

/// Whether the KEM is a DH-KEM: rust-hpke panics, rather than failing, when asked for an
/// authenticated mode with a post-quantum KEM, so those rows are left out before calling.
fn has_auth(kem_id: u16) -> bool {
    matches!(kem_id, 0x0010..=0x0012 | 0x0016 | 0x0020 | 0x0021)
}

/// The sender's identity key pair, in the authenticated KEM rows.
#[allow(clippy::type_complexity)]
fn id<K: Kem>(
    auth: bool,
    pair: &(K::PrivateKey, K::PublicKey),
) -> Option<(&K::PrivateKey, &K::PublicKey)> {
    auth.then_some((&pair.0, &pair.1))
}

fn job<K, F, A>(row: &Row, fix: &Fixture) -> Option<Job>
where
    K: Kem + 'static,
    F: hpke::kdf::Kdf + 'static,
    A: hpke::aead::Aead + 'static,
{
    let mode = row.mode();
    if mode.auth() && !has_auth(row.ids.0) {
        return None;
    }
    let (sk, pk) = K::derive_keypair(row.ikm(fix.nsk, false));
    let (sk_s, pk_s) = K::derive_keypair(row.ikm(fix.nsk, true));
    assert_eq!(
        &pk.to_bytes()[..],
        &fix.pk_r[..],
        "{NAME}: another key from the same IKM"
    );
    let enc = K::EncappedKey::from_bytes(&fix.enc).ok()?;
    let mut rng = rng();
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    let expect = |check| fix.expect(NAME, row, check);
    let mode_s: OpModeS<'static, K> = match mode {
        Mode::Base => OpModeS::Base,
        Mode::Psk => OpModeS::Psk(bundle()),
        Mode::Auth => OpModeS::Auth((sk_s.clone(), pk_s.clone())),
        Mode::AuthPsk => OpModeS::AuthPsk((sk_s.clone(), pk_s.clone()), bundle()),
    };
    let mode_r: OpModeR<'static, K> = match mode {
        Mode::Base => OpModeR::Base,
        Mode::Psk => OpModeR::Psk(bundle()),
        Mode::Auth => OpModeR::Auth(pk_s.clone()),
        Mode::AuthPsk => OpModeR::AuthPsk(pk_s.clone(), bundle()),
    };
    let sender_id = (sk_s, pk_s);
    Some(match row.op {
        Op::Generate => timed(move || K::gen_keypair_with_rng(&mut rng)),
        Op::DeriveKeyPair => {
            let ikm = row.ikm(fix.nsk, false);
            timed(move || K::derive_keypair(black_box(ikm)))
        }
        Op::Encap | Op::AuthEncap => {
            let auth = row.op == Op::AuthEncap;
            let (ss, enc) = K::encap_with_rng(&pk, id::<K>(auth, &sender_id), &mut rng).ok()?;
            expect(Check::Decap {
                enc: &enc.to_bytes(),
                ss: &ss.0,
            });
            timed(move || {
                K::encap_with_rng(black_box(&pk), id::<K>(auth, &sender_id), &mut rng).unwrap()
            })
        }
        Op::Decap | Op::AuthDecap => {
            let pk_s = (row.op == Op::AuthDecap).then_some(sender_id.1);
            assert_eq!(&K::decap(&sk, pk_s.as_ref(), &enc).ok()?.0[..], &fix.ss[..]);
            timed(move || K::decap(black_box(&sk), pk_s.as_ref(), black_box(&enc)).unwrap())
        }
        Op::SetupSender(_) => {
            let (enc, ctx) =
                hpke::setup_sender_with_rng::<A, F, K>(&mode_s, &pk, INFO, &mut rng).ok()?;
            let mut export = vec![0u8; fix.export.len()];
            ctx.export(EXPORTER, &mut export).unwrap();
            expect(Check::Export {
                enc: &enc.to_bytes(),
                export: &export,
            });
            timed(move || {
                hpke::setup_sender_with_rng::<A, F, K>(&mode_s, black_box(&pk), INFO, &mut rng)
                    .unwrap()
            })
        }
        Op::SetupReceiver(_) => {
            let ctx = hpke::setup_receiver::<A, F, K>(&mode_r, &sk, &enc, INFO).ok()?;
            let mut export = vec![0u8; fix.export.len()];
            ctx.export(EXPORTER, &mut export).unwrap();
            assert_eq!(export, fix.export);
            timed(move || {
                hpke::setup_receiver::<A, F, K>(&mode_r, black_box(&sk), black_box(&enc), INFO)
                    .unwrap()
            })
        }
        Op::Seal(_) => {
            let (enc, ct) = hpke::single_shot_seal_with_rng::<A, F, K>(
                &OpModeS::Base,
                &pk,
                INFO,
                &pt,
                AAD,
                &mut rng,
            )
            .ok()?;
            expect(Check::Open {
                enc: &enc.to_bytes(),
                ct: &ct,
            });
            timed(move || {
                hpke::single_shot_seal_with_rng::<A, F, K>(
                    &OpModeS::Base,
                    black_box(&pk),
                    INFO,
                    black_box(&pt),
                    AAD,
                    &mut rng,
                )
                .unwrap()
            })
        }
        Op::Open(_) => {
            let opened =
                hpke::single_shot_open::<A, F, K>(&OpModeR::Base, &sk, &enc, INFO, &ct, AAD);
            assert_eq!(opened.ok()?, pt);
            timed(move || {
                hpke::single_shot_open::<A, F, K>(
                    &OpModeR::Base,
                    black_box(&sk),
                    black_box(&enc),
                    INFO,
                    black_box(&ct),
                    AAD,
                )
                .unwrap()
            })
        }
        Op::ContextSeal(_) => {
            let (enc, mut ctx) =
                hpke::setup_sender_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, &mut rng).ok()?;
            let first = ctx.seal(&pt, AAD).unwrap();
            expect(Check::Open {
                enc: &enc.to_bytes(),
                ct: &first,
            });
            timed(move || ctx.seal(black_box(&pt), AAD).unwrap())
        }
        Op::ContextOpen(_) => {
            let mut r = hpke::setup_receiver::<A, F, K>(&OpModeR::Base, &sk, &enc, INFO).ok()?;
            assert_eq!(r.open(&ct, AAD).unwrap(), pt);
            timed_with(
                move |n| {
                    let (enc, mut s) =
                        hpke::setup_sender_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, &mut rng)
                            .unwrap();
                    let r =
                        hpke::setup_receiver::<A, F, K>(&OpModeR::Base, &sk, &enc, INFO).unwrap();
                    let cts: Vec<Vec<u8>> = (0..n).map(|_| s.seal(&pt, AAD).unwrap()).collect();
                    (r, cts.into_iter())
                },
                |(r, cts)| r.open(black_box(&cts.next().unwrap()), AAD).unwrap(),
            )
        }
        Op::Export(n) => {
            let r = hpke::setup_receiver::<A, F, K>(&OpModeR::Base, &sk, &enc, INFO).ok()?;
            let mut out = vec![0u8; n];
            r.export(EXPORTER, &mut out).unwrap();
            assert_eq!(out, fix.export);
            let (_, ctx) =
                hpke::setup_sender_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, &mut rng).ok()?;
            timed(move || ctx.export(black_box(EXPORTER), &mut out).unwrap())
        }
    })
}
