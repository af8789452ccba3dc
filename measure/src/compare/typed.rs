//! typed-hpke: the fixtures (its outputs, which every peer's are checked against), its typed
//! API (the subject of every ratio), and its runtime API (`typed_hpke::suite`) as a peer.

use std::hint::black_box;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::SealingAead;
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::{self, Kem};
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext};

use crate::compare::driver::{
    AAD, Check, EXPORTER, Fixture, INFO, Job, Mode, Op, PSK, PSK_ID, Row, timed, timed_with,
};
use crate::compare::maybe_auth::{MaybeAuth, Sender};

pub const RUNTIME: &str = "typed-hpke runtime";

/// The seeded generator the fixtures are made with (every peer's output is checked against them).
pub fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

/// The generator typed-hpke's timed rows draw from. On the pure-Rust backend, the seeded one.
/// With `aws-lc-rs`, `typed_hpke::OsRng`, as a user of that backend would pass: for it aws-lc
/// makes the NIST keys itself (one base-point multiplication, not the two of importing a drawn
/// scalar; see `OsRng`'s docs), as rustls' HPKE and the limit's bare aws-lc calls do.
#[cfg(not(feature = "aws-lc-rs"))]
pub fn timed_rng() -> ChaCha20Rng {
    rng()
}

/// See above.
#[cfg(feature = "aws-lc-rs")]
pub fn timed_rng() -> typed_hpke::OsRng {
    typed_hpke::OsRng::default()
}

fn psk() -> Psk<'static> {
    Psk::new(PSK, PSK_ID).unwrap()
}

/// A sender in any of the four modes; the authenticated ones are errors unless the KEM has
/// them ([`MaybeAuth`]).
fn sender<K: MaybeAuth, F: Kdf, A: SealingAead>(
    mode: Mode,
    rng: &mut (impl CryptoRng + ?Sized),
    pk: &PublicKey<K>,
    sk_s: &PrivateKey<K>,
) -> Result<Sender<K, F, A>, Error> {
    match mode {
        Mode::Base => Hpke::<K, F, A>::setup_sender_base(rng, pk, INFO),
        Mode::Psk => Hpke::<K, F, A>::setup_sender_psk(rng, pk, INFO, &psk()),
        Mode::Auth => K::setup_sender_auth(rng, pk, INFO, None, sk_s),
        Mode::AuthPsk => K::setup_sender_auth(rng, pk, INFO, Some(&psk()), sk_s),
    }
}

/// A receiver in any of the four modes, as [`sender`].
fn receiver<K: MaybeAuth, F: Kdf, A: SealingAead>(
    mode: Mode,
    enc: &EncappedKey<K>,
    sk: &PrivateKey<K>,
    pk_s: &PublicKey<K>,
) -> Result<ReceiverContext<K, F, A>, Error> {
    match mode {
        Mode::Base => Hpke::<K, F, A>::setup_receiver_base(enc, sk, INFO),
        Mode::Psk => Hpke::<K, F, A>::setup_receiver_psk(enc, sk, INFO, &psk()),
        Mode::Auth => K::setup_receiver_auth(enc, sk, INFO, None, pk_s),
        Mode::AuthPsk => K::setup_receiver_auth(enc, sk, INFO, Some(&psk()), pk_s),
    }
}

/// The recipient's and the sender's key pairs, derived from the row's inputs.
#[allow(clippy::type_complexity)]
fn keys<K: Kem>(row: &Row) -> ((PrivateKey<K>, PublicKey<K>), (PrivateKey<K>, PublicKey<K>)) {
    let nsk = K::NSk::USIZE;
    (
        K::derive_key_pair(row.ikm(nsk, false)).unwrap(),
        K::derive_key_pair(row.ikm(nsk, true)).unwrap(),
    )
}

fn is_kem_row(op: Op) -> bool {
    matches!(
        op,
        Op::Generate | Op::DeriveKeyPair | Op::Encap | Op::Decap | Op::AuthEncap | Op::AuthDecap
    )
}

/// typed-hpke's outputs for a row, and the checker every peer's outputs go through. `None` when
/// the row's mode needs authentication the KEM lacks.
pub fn fixture<K: MaybeAuth, F: Kdf, A: SealingAead>(row: &Row) -> Option<Fixture> {
    let mode = row.mode();
    if mode.auth() && !K::auth() {
        return None;
    }
    let ((sk, pk), (sk_s, pk_s)) = keys::<K>(row);
    let mut rng = rng();
    let pt = vec![0x5a; row.message_len()];
    let (enc, ss, export, ct) = if is_kem_row(row.op) {
        let (ss, enc) = if mode.auth() {
            K::auth_encap(&mut rng, &pk, &sk_s).unwrap()
        } else {
            K::encap(&mut rng, &pk).unwrap()
        };
        (enc, ss.as_bytes().to_vec(), Vec::new(), Vec::new())
    } else {
        let (enc, mut ctx) = sender::<K, F, A>(mode, &mut rng, &pk, &sk_s).unwrap();
        let mut export = vec![0u8; row.export_len()];
        ctx.export(EXPORTER, &mut export).unwrap();
        let ct = ctx.seal(AAD, &pt).unwrap();
        (enc, Vec::new(), export, ct)
    };
    let check_pt = pt.clone();
    let check_pk_s = pk_s.clone();
    let check = move |check: Check<'_>| -> bool {
        let parse = |enc: &[u8]| EncappedKey::<K>::from_bytes(enc).ok();
        match check {
            Check::Decap { enc, ss } => parse(enc).is_some_and(|enc| {
                let ours = if mode.auth() {
                    K::auth_decap(&enc, &sk, &check_pk_s)
                } else {
                    K::decap(&enc, &sk)
                };
                ours.is_ok_and(|ours| ours.as_bytes() == ss)
            }),
            Check::Export { enc, export } => parse(enc).is_some_and(|enc| {
                let mut ours = vec![0u8; export.len()];
                receiver::<K, F, A>(mode, &enc, &sk, &check_pk_s)
                    .and_then(|ctx| ctx.export(EXPORTER, &mut ours))
                    .is_ok_and(|()| ours == export)
            }),
            Check::Open { enc, ct } => parse(enc).is_some_and(|enc| {
                receiver::<K, F, A>(mode, &enc, &sk, &check_pk_s)
                    .and_then(|mut ctx| ctx.open(AAD, ct))
                    .is_ok_and(|opened| opened == check_pt)
            }),
        }
    };
    Some(Fixture {
        nsk: K::NSk::USIZE,
        pk_r: pk.as_bytes().to_vec(),
        enc: enc.as_bytes().to_vec(),
        ss,
        export,
        pt,
        ct,
        check: Box::new(check),
    })
}

/// typed-hpke's job for a row.
pub fn job<K: MaybeAuth, F: Kdf, A: SealingAead>(row: &Row, fix: &Fixture) -> Option<Job> {
    let mode = row.mode();
    let ((sk, pk), (sk_s, pk_s)) = keys::<K>(row);
    let enc = EncappedKey::<K>::from_bytes(&fix.enc).unwrap();
    let mut rng = timed_rng();
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    type H<K, F, A> = Hpke<K, F, A>;
    if row.prepared {
        // The prepared key gives the fixture's output from the fixture's randomness.
        let prepared = kem::PreparedPublicKey::new(&pk);
        if row.op == Op::Encap {
            let (ss, enc) = prepared.encap(&mut self::rng()).unwrap();
            assert_eq!((enc.as_bytes(), ss.as_bytes()), (&fix.enc[..], &fix.ss[..]));
        } else {
            let (enc, mut ctx) =
                H::<K, F, A>::setup_sender_base(&mut self::rng(), &prepared, INFO).unwrap();
            assert_eq!(enc.as_bytes(), &fix.enc[..], "{}", row.name());
            assert_eq!(ctx.seal(AAD, &pt).unwrap(), ct, "{}", row.name());
        }
        return Some(match row.op {
            Op::Encap => timed(move || black_box(&prepared).encap(&mut rng).unwrap()),
            Op::SetupSender(Mode::Base) => timed(move || {
                H::<K, F, A>::setup_sender_base(&mut rng, black_box(&prepared), INFO).unwrap()
            }),
            _ => unreachable!("prepared rows are encap and base setup"),
        });
    }
    Some(match row.op {
        Op::Generate => timed(move || K::generate(&mut rng).unwrap()),
        Op::DeriveKeyPair => {
            let ikm = row.ikm(fix.nsk, false);
            timed(move || K::derive_key_pair(black_box(ikm)).unwrap())
        }
        Op::Encap => timed(move || K::encap(&mut rng, black_box(&pk)).unwrap()),
        Op::Decap => timed(move || K::decap(black_box(&enc), black_box(&sk)).unwrap()),
        Op::AuthEncap => timed(move || K::auth_encap(&mut rng, black_box(&pk), &sk_s).unwrap()),
        Op::AuthDecap => {
            timed(move || K::auth_decap(black_box(&enc), black_box(&sk), &pk_s).unwrap())
        }
        Op::SetupSender(_) => {
            timed(move || sender::<K, F, A>(mode, &mut rng, black_box(&pk), &sk_s).unwrap())
        }
        Op::SetupReceiver(_) => timed(move || {
            receiver::<K, F, A>(mode, black_box(&enc), black_box(&sk), &pk_s).unwrap()
        }),
        Op::Seal(_) => timed(move || {
            H::<K, F, A>::seal_base(&mut rng, black_box(&pk), INFO, AAD, black_box(&pt)).unwrap()
        }),
        Op::Open(_) => timed(move || {
            H::<K, F, A>::open_base(black_box(&enc), black_box(&sk), INFO, AAD, black_box(&ct))
                .unwrap()
        }),
        Op::ContextSeal(_) => {
            let (_, mut ctx) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
            timed(move || ctx.seal(AAD, black_box(&pt)).unwrap())
        }
        Op::ContextOpen(_) => timed_with(
            move |n| {
                let (enc, mut s) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
                let r = H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).unwrap();
                let cts: Vec<Vec<u8>> = (0..n).map(|_| s.seal(AAD, &pt).unwrap()).collect();
                (r, cts.into_iter())
            },
            |(r, cts)| r.open(AAD, black_box(&cts.next().unwrap())).unwrap(),
        ),
        Op::Export(n) => {
            let (_, ctx) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
            let mut out = vec![0u8; n];
            timed(move || ctx.export(black_box(EXPORTER), &mut out).unwrap())
        }
    })
}

/// typed-hpke's runtime API (`typed_hpke::suite`): keys parsed once, the suite from its ids.
/// Base-mode setup and the single-shot and context messages.
pub fn runtime(row: &Row, fix: &Fixture) -> Option<Job> {
    let suite = Suite::new(row.ids.0, row.ids.1, row.ids.2).ok()?;
    let (sk, mut pk) = suite.derive_key_pair(row.ikm(fix.nsk, false)).unwrap();
    if row.prepared {
        pk.prepare();
    }
    let mut rng = timed_rng();
    let pt = fix.pt.clone();
    let ct = fix.ct.clone();
    let enc = fix.enc.clone();
    let base = row.mode() == Mode::Base;
    Some(match row.op {
        Op::SetupSender(_) if base => {
            let (their_enc, ctx) = suite
                .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
                .unwrap();
            let mut export = [0u8; 32];
            ctx.export(EXPORTER, &mut export).unwrap();
            fix.expect(
                RUNTIME,
                row,
                Check::Export {
                    enc: their_enc.as_bytes(),
                    export: &export,
                },
            );
            timed(move || {
                suite
                    .setup_sender(&mut rng, black_box(&pk), INFO, SenderMode::Base)
                    .unwrap()
            })
        }
        Op::SetupReceiver(_) if base => timed(move || {
            suite
                .setup_receiver(
                    black_box(&enc[..]),
                    black_box(&sk),
                    INFO,
                    ReceiverMode::Base,
                )
                .unwrap()
        }),
        Op::Seal(_) => timed(move || {
            suite
                .seal(&mut rng, &pk, INFO, AAD, black_box(&pt), SenderMode::Base)
                .unwrap()
        }),
        Op::Open(_) => {
            let opened = suite
                .open(&enc[..], &sk, INFO, AAD, &ct, ReceiverMode::Base)
                .unwrap();
            assert_eq!(opened, pt);
            timed(move || {
                suite
                    .open(
                        &enc[..],
                        black_box(&sk),
                        INFO,
                        AAD,
                        black_box(&ct),
                        ReceiverMode::Base,
                    )
                    .unwrap()
            })
        }
        Op::ContextSeal(_) => {
            let (_, mut ctx) = suite
                .setup_sender(&mut rng, &pk, INFO, SenderMode::Base)
                .unwrap();
            timed(move || ctx.seal(AAD, black_box(&pt)).unwrap())
        }
        _ => return None,
    })
}

/// A runtime private key's bytes, for the limit's imports.
pub fn private_key_bytes(row: &Row, nsk: usize) -> Vec<u8> {
    let suite = Suite::new(row.ids.0, row.ids.1, row.ids.2).unwrap();
    let (sk, _): (suite::PrivateKey, _) = suite.derive_key_pair(row.ikm(nsk, false)).unwrap();
    sk.to_bytes().to_vec()
}

/// A row of typed-hpke's own: its name and its jobs, typed-hpke's typed API first.
pub type Extra = (String, Box<dyn Fn() -> Vec<(&'static str, Job)>>);

/// `prepare/<kem>`: building the row's recipient key's table, the cost against which the
/// prepared rows' saving gives the break-even. typed-hpke alone.
#[allow(clippy::extra_unused_type_parameters)] // the suite shape `for_suite!` dispatches to
pub fn prepare<K: Kem, F: Kdf, A: SealingAead>(row: &Row) -> Option<Extra> {
    let (_, pk) = K::derive_key_pair(row.ikm(K::NSk::USIZE, false)).unwrap();
    Some((
        format!("prepare/{}", crate::compare::driver::kem_name(row.ids.0)),
        Box::new(move || {
            let pk = pk.clone();
            vec![(
                crate::compare::driver::TYPED,
                timed(move || kem::PreparedPublicKey::new(black_box(&pk))),
            )]
        }),
    ))
}

/// The multi-recipient seal of an MLS Welcome to 100 X25519 members, against the same call on
/// one thread and against 100 single seals.
pub fn seal_many() -> Extra {
    (
        format!("seal_many/x25519-sha256-aes128gcm/{WELCOME}"),
        Box::new(welcome),
    )
}

/// New members of the Welcome row.
const WELCOME: usize = 100;
pub const MANY_ONE_THREAD: &str = "typed-hpke seal_base_many, 1 thread";
pub const SINGLE_SEALS: &str = "typed-hpke seal_base x 100";

fn welcome() -> Vec<(&'static str, Job)> {
    type H =
        Hpke<kem::DhKemX25519HkdfSha256, typed_hpke::kdf::HkdfSha256, typed_hpke::aead::Aes128Gcm>;
    let mut keys_rng = rng();
    let keys: Vec<_> = (0..WELCOME)
        .map(|_| {
            kem::DhKemX25519HkdfSha256::generate(&mut keys_rng)
                .unwrap()
                .1
        })
        .collect();
    let pt = vec![0x5a; 100];
    let (k1, k2, k3) = (keys.clone(), keys.clone(), keys);
    let (p1, p2, p3) = (pt.clone(), pt.clone(), pt);
    let (mut r1, mut r2, mut r3) = (timed_rng(), timed_rng(), timed_rng());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    vec![
        (
            crate::compare::driver::TYPED,
            timed(move || H::seal_base_many(&mut r1, black_box(&k1), INFO, AAD, &[&p1]).unwrap()),
        ),
        (
            MANY_ONE_THREAD,
            timed(move || {
                one.install(|| {
                    H::seal_base_many(&mut r2, black_box(&k2), INFO, AAD, &[&p2]).unwrap()
                })
            }),
        ),
        (
            SINGLE_SEALS,
            timed(move || {
                k3.iter()
                    .map(|pk| H::seal_base(&mut r3, black_box(pk), INFO, AAD, &p3).unwrap())
                    .collect::<Vec<_>>()
            }),
        ),
    ]
}
