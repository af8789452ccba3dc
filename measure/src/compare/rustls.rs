//! rustls' own HPKE on aws-lc-rs (`rustls::crypto::aws_lc_rs::hpke::ALL_SUPPORTED_SUITES`,
//! rustls 0.23), called through the `rustls::crypto::hpke::Hpke` trait as rustls' ECH client
//! calls it: what a TLS ECH implementer already has in the build. X25519 and P-256/384/521 with
//! their own HKDF; Base mode only (seal, open, setup_sealer, setup_opener); no export.

use std::hint::black_box;

use rustls::crypto::aws_lc_rs::hpke::ALL_SUPPORTED_SUITES;
use rustls::crypto::hpke::{EncapsulatedSecret, Hpke, HpkePrivateKey, HpkePublicKey};
use rustls::internal::msgs::enums::{HpkeAead, HpkeKdf, HpkeKem};

use crate::compare::driver::{AAD, Check, Fixture, INFO, Job, Mode, Op, Row, timed, timed_with};

pub const NAME: &str = "rustls (aws-lc-rs)";

fn find(ids: (u16, u16, u16)) -> Option<&'static dyn Hpke> {
    ALL_SUPPORTED_SUITES.iter().copied().find(|s| {
        let suite = s.suite();
        suite.kem == HpkeKem::from(ids.0)
            && suite.sym.kdf_id == HpkeKdf::from(ids.1)
            && suite.sym.aead_id == HpkeAead::from(ids.2)
    })
}

pub fn peer(row: &Row, fix: &Fixture) -> Option<Job> {
    if row.mode() != Mode::Base {
        return None;
    }
    let hpke = find(row.ids)?;
    let sk = HpkePrivateKey::from(crate::compare::typed::private_key_bytes(row, fix.nsk));
    let pk = HpkePublicKey(fix.pk_r.clone());
    let enc = EncapsulatedSecret(fix.enc.clone());
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    let expect = |check| fix.expect(NAME, row, check);
    Some(match row.op {
        Op::Generate => timed(move || hpke.generate_key_pair().unwrap()),
        Op::SetupSender(_) => {
            let (enc, mut sealer) = hpke.setup_sealer(INFO, &pk).ok()?;
            let first = sealer.seal(AAD, &pt).unwrap();
            expect(Check::Open {
                enc: &enc.0,
                ct: &first,
            });
            timed(move || hpke.setup_sealer(INFO, black_box(&pk)).unwrap())
        }
        Op::SetupReceiver(_) => {
            let mut opener = hpke.setup_opener(&enc, INFO, &sk).ok()?;
            assert_eq!(opener.open(AAD, &ct).unwrap(), pt);
            timed(move || {
                hpke.setup_opener(black_box(&enc), INFO, black_box(&sk))
                    .unwrap()
            })
        }
        Op::Seal(_) => {
            let (enc, ct) = hpke.seal(INFO, AAD, &pt, &pk).ok()?;
            expect(Check::Open {
                enc: &enc.0,
                ct: &ct,
            });
            timed(move || {
                hpke.seal(INFO, AAD, black_box(&pt), black_box(&pk))
                    .unwrap()
            })
        }
        Op::Open(_) => {
            assert_eq!(hpke.open(&enc, INFO, AAD, &ct, &sk).ok()?, pt);
            timed(move || {
                hpke.open(black_box(&enc), INFO, AAD, black_box(&ct), black_box(&sk))
                    .unwrap()
            })
        }
        Op::ContextSeal(_) => {
            let (enc, mut sealer) = hpke.setup_sealer(INFO, &pk).ok()?;
            let first = sealer.seal(AAD, &pt).unwrap();
            expect(Check::Open {
                enc: &enc.0,
                ct: &first,
            });
            timed(move || sealer.seal(AAD, black_box(&pt)).unwrap())
        }
        Op::ContextOpen(_) => {
            let mut opener = hpke.setup_opener(&enc, INFO, &sk).ok()?;
            assert_eq!(opener.open(AAD, &ct).unwrap(), pt);
            timed_with(
                move |n| {
                    let (enc, mut sealer) = hpke.setup_sealer(INFO, &pk).unwrap();
                    let opener = hpke.setup_opener(&enc, INFO, &sk).unwrap();
                    let cts: Vec<Vec<u8>> =
                        (0..n).map(|_| sealer.seal(AAD, &pt).unwrap()).collect();
                    (opener, cts.into_iter())
                },
                |(opener, cts)| opener.open(AAD, black_box(&cts.next().unwrap())).unwrap(),
            )
        }
        _ => return None,
    })
}
