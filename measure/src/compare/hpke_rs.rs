//! hpke-rs 0.8 on each of its providers: RustCrypto (`hpke-rs-rust-crypto`) and libcrux
//! (`hpke-rs-libcrux`, with `draft-ietf-hpke-pq`; its authors' production configuration).
//! Suites are runtime ids; its generator lives in the `Hpke` value, built outside the timed
//! loop. It has no public raw encap / decap, so its KEM rows are generate and derive_key_pair.

use std::hint::black_box;

use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
use hpke_rs::{HpkePrivateKey, HpkePublicKey};
use hpke_rs_crypto::HpkeDefaultPrng;

use crate::compare::driver::{
    AAD, Check, EXPORTER, Fixture, INFO, Job, Mode, Op, PSK, PSK_ID, Row, timed, timed_with,
};

pub const RUSTCRYPTO: &str = "hpke-rs (RustCrypto)";
pub const LIBCRUX: &str = "hpke-rs (libcrux)";

pub fn rustcrypto(row: &Row, fix: &Fixture) -> Option<Job> {
    job::<hpke_rs::rustcrypto::HpkeRustCrypto>(RUSTCRYPTO, row, fix)
}

pub fn libcrux(row: &Row, fix: &Fixture) -> Option<Job> {
    job::<hpke_rs::libcrux::HpkeLibcrux>(LIBCRUX, row, fix)
}

fn config<C: HpkeDefaultPrng + 'static>(
    mode: Mode,
    ids: (u16, u16, u16),
) -> Option<hpke_rs::Hpke<C>> {
    let mode = match mode {
        Mode::Base => hpke_rs::Mode::Base,
        Mode::Psk => hpke_rs::Mode::Psk,
        Mode::Auth => hpke_rs::Mode::Auth,
        Mode::AuthPsk => hpke_rs::Mode::AuthPsk,
    };
    let kem = KemAlgorithm::try_from(ids.0).ok()?;
    let kdf = KdfAlgorithm::try_from(ids.1).ok()?;
    let aead = AeadAlgorithm::try_from(ids.2).ok()?;
    // The provider must have all three, or it is not this peer's row.
    C::supports_kem(kem).ok()?;
    C::supports_kdf(kdf).ok()?;
    C::supports_aead(aead).ok()?;
    Some(hpke_rs::Hpke::new(mode, kem, kdf, aead))
}

fn keys<C: HpkeDefaultPrng + 'static>(
    h: &hpke_rs::Hpke<C>,
    ikm: &[u8],
) -> Option<(HpkePrivateKey, HpkePublicKey)> {
    Some(h.derive_key_pair(ikm).ok()?.into_keys())
}

fn job<C: HpkeDefaultPrng + 'static>(name: &'static str, row: &Row, fix: &Fixture) -> Option<Job> {
    // No public raw KEM: refuse those rows before deriving anything.
    if matches!(
        row.op,
        Op::Encap | Op::Decap | Op::AuthEncap | Op::AuthDecap
    ) {
        return None;
    }
    let mode = row.mode();
    let mut h = config::<C>(mode, row.ids)?;
    let (sk, pk) = keys(&h, row.ikm(fix.nsk, false))?;
    let (sk_s, pk_s) = keys(&h, row.ikm(fix.nsk, true))?;
    assert_eq!(
        pk.as_slice(),
        &fix.pk_r[..],
        "{name}: another key from the same IKM"
    );
    let (psk, psk_id) = if mode.psk() {
        (Some(PSK), Some(PSK_ID))
    } else {
        (None, None)
    };
    let (sk_s, pk_s) = if mode.auth() {
        (Some(sk_s), Some(pk_s))
    } else {
        (None, None)
    };
    let enc = fix.enc.clone();
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    let expect = |check| fix.expect(name, row, check);
    Some(match row.op {
        Op::Generate => timed(move || h.generate_key_pair().unwrap()),
        Op::DeriveKeyPair => {
            let ikm = row.ikm(fix.nsk, false);
            timed(move || h.derive_key_pair(black_box(ikm)).unwrap())
        }
        Op::SetupSender(_) => {
            let (enc, ctx) = h.setup_sender(&pk, INFO, psk, psk_id, sk_s.as_ref()).ok()?;
            let export = ctx.export(EXPORTER, fix.export.len()).unwrap();
            expect(Check::Export {
                enc: &enc,
                export: &export,
            });
            timed(move || {
                h.setup_sender(black_box(&pk), INFO, psk, psk_id, sk_s.as_ref())
                    .unwrap()
            })
        }
        Op::SetupReceiver(_) => {
            let ctx = h
                .setup_receiver(&enc, &sk, INFO, psk, psk_id, pk_s.as_ref())
                .ok()?;
            assert_eq!(ctx.export(EXPORTER, fix.export.len()).unwrap(), fix.export);
            timed(move || {
                h.setup_receiver(
                    black_box(&enc),
                    black_box(&sk),
                    INFO,
                    psk,
                    psk_id,
                    pk_s.as_ref(),
                )
                .unwrap()
            })
        }
        Op::Seal(_) => {
            let (enc, ct) = h.seal(&pk, INFO, AAD, &pt, None, None, None).ok()?;
            expect(Check::Open { enc: &enc, ct: &ct });
            timed(move || {
                h.seal(black_box(&pk), INFO, AAD, black_box(&pt), None, None, None)
                    .unwrap()
            })
        }
        Op::Open(_) => {
            assert_eq!(
                h.open(&enc, &sk, INFO, AAD, &ct, None, None, None).ok()?,
                pt
            );
            timed(move || {
                h.open(
                    black_box(&enc),
                    black_box(&sk),
                    INFO,
                    AAD,
                    black_box(&ct),
                    None,
                    None,
                    None,
                )
                .unwrap()
            })
        }
        Op::ContextSeal(_) => {
            let (enc, mut ctx) = h.setup_sender(&pk, INFO, None, None, None).ok()?;
            let first = ctx.seal(AAD, &pt).unwrap();
            expect(Check::Open {
                enc: &enc,
                ct: &first,
            });
            timed(move || ctx.seal(AAD, black_box(&pt)).unwrap())
        }
        Op::ContextOpen(_) => {
            let mut r = h.setup_receiver(&enc, &sk, INFO, None, None, None).ok()?;
            assert_eq!(r.open(AAD, &ct).unwrap(), pt);
            timed_with(
                move |n| {
                    let (enc, mut s) = h.setup_sender(&pk, INFO, None, None, None).unwrap();
                    let r = h.setup_receiver(&enc, &sk, INFO, None, None, None).unwrap();
                    let cts: Vec<Vec<u8>> = (0..n).map(|_| s.seal(AAD, &pt).unwrap()).collect();
                    (r, cts.into_iter())
                },
                |(r, cts)| r.open(AAD, black_box(&cts.next().unwrap())).unwrap(),
            )
        }
        Op::Export(n) => {
            let r = h.setup_receiver(&enc, &sk, INFO, None, None, None).ok()?;
            assert_eq!(r.export(EXPORTER, n).unwrap(), fix.export);
            let (_, ctx) = h.setup_sender(&pk, INFO, None, None, None).ok()?;
            timed(move || ctx.export(black_box(EXPORTER), n).unwrap())
        }
        Op::Encap | Op::Decap | Op::AuthEncap | Op::AuthDecap => unreachable!("refused above"),
    })
}
