//! Known-answer tests: every vector of every published RFC 9180-layout file in
//! `test-vectors/` (see `test-vectors/README.md` for provenance, hashes and known defects).
//!
//! Each vector is checked end to end through the public API: `DeriveKeyPair` for R, E and S,
//! deserialization of the printed keys, deterministic encapsulation (enc and shared secret),
//! decapsulation, the key schedule and its intermediates, every encryption sealed and opened
//! in sequence, and every export from both sides (context and single-shot).

#[path = "util/maybe_auth.rs"]
mod maybe_auth;
#[path = "util/vectors.rs"]
mod vectors;

use std::marker::PhantomData;

use maybe_auth::MaybeAuth;
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::hazmat::KeyScheduleValues;
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf};
use typed_hpke::kem::{DhKemP256HkdfSha256, DhKemX448HkdfSha512, Kem, PreparedPublicKey, XWing};
use typed_hpke::suite;
use typed_hpke::{EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey};
use vectors::{Vector, read_generated_file, read_vector_file};

/// The known defects of each file, handled exactly as `test-vectors/README.md` describes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quirks {
    None,
    /// `encryptions[i].nonce` is base_nonce XOR (i+1); the ciphertexts use seq i.
    NonceOffByOne,
    /// Auth vectors print skSm/pkSm as copies of skRm/pkRm; the rest is right from ikmS.
    SenderKeysCopied,
    /// The X448 vector prints `skRm` clamped, not as `DeriveKeyPair` gives it.
    X448SkPrintedClamped,
}

type Check = Result<(), String>;

fn ensure(cond: bool, what: &str) -> Check {
    if cond {
        Ok(())
    } else {
        Err(format!("{what} mismatch"))
    }
}

fn ok<T>(r: Result<T, Error>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

/// RFC 7748 §5 clamping of an X448 scalar: what the draft-04 file prints as its X448 `skRm`
/// (`test-vectors/README.md`).
fn clamp_x448(sk: &[u8]) -> Vec<u8> {
    let mut sk = sk.to_vec();
    sk[0] &= 252;
    sk[55] |= 128;
    sk
}

/// `DeriveKeyPair(ikm)` must give the printed key pair, and the printed keys must deserialize
/// to the same pair and serialize back to the printed bytes. Private keys serialize as given
/// (draft-ietf-hpke-hpke §7.1.2), so X25519 and X448 keys compare byte for byte: the RFC
/// vectors print them unclamped, as `DeriveKeyPair` gives them. The one exception is the
/// documented defect of `quirks`: an X448 key printed clamped.
fn check_key_pair<K: Kem>(
    ikm: &[u8],
    sk_m: &[u8],
    pk_m: &[u8],
    who: &str,
    quirks: Quirks,
) -> Result<(PrivateKey<K>, PublicKey<K>), String> {
    let (sk, pk) = ok(K::derive_key_pair(ikm), &format!("DeriveKeyPair({who})"))?;
    let printed_clamped = quirks == Quirks::X448SkPrintedClamped && K::ID == 0x0021;
    if printed_clamped {
        ensure(
            clamp_x448(sk_m) == sk_m && clamp_x448(&sk.to_bytes()) == sk_m,
            &format!("sk{who}m (printed clamped)"),
        )?;
    } else {
        ensure(sk.to_bytes().as_slice() == sk_m, &format!("sk{who}m"))?;
    }
    ensure(pk.as_bytes() == pk_m, &format!("pk{who}m"))?;
    ensure(sk.public_key() == pk, &format!("pk(sk{who})"))?;
    let parsed_sk = ok(
        PrivateKey::<K>::from_bytes(sk_m),
        &format!("DeserializePrivateKey(sk{who}m)"),
    )?;
    // A clamped print is the same key in other bytes: equal public keys, unequal bytes.
    ensure(
        parsed_sk == sk || printed_clamped,
        &format!("DeserializePrivateKey(sk{who}m)"),
    )?;
    ensure(
        parsed_sk.to_bytes().as_slice() == sk_m,
        &format!("SerializePrivateKey(DeserializePrivateKey(sk{who}m))"),
    )?;
    ensure(
        parsed_sk.public_key() == pk,
        &format!("pk(DeserializePrivateKey(sk{who}m))"),
    )?;
    let parsed_pk = ok(
        PublicKey::<K>::from_bytes(pk_m),
        &format!("DeserializePublicKey(pk{who}m)"),
    )?;
    ensure(parsed_pk == pk, &format!("DeserializePublicKey(pk{who}m)"))?;
    ensure(
        parsed_pk.to_bytes().as_slice() == pk_m,
        &format!("SerializePublicKey(pk{who}m)"),
    )?;
    Ok((sk, pk))
}

/// A typed context behind an object, and the part of a vector's check that depends on the KDF
/// and the AEAD behind another: `check_vector` is then compiled once per KEM (12 times) rather
/// than once per suite of the table below (164), which was most of this test's build time. Each
/// method is the typed API's own call.
/// What a setup on both sides gives: `enc` and the two contexts, each as the runtime context
/// it converts to (`From`), whose seal and open are the typed context's own (`AeadState`)
/// behind a `match`: one seal-and-open check for every suite, ExportOnly's refusing to seal.
type Setup<K> = (EncappedKey<K>, suite::SenderContext, suite::ReceiverContext);

/// The calls of one (KDF, AEAD) under the KEM `K`.
trait KdfAead<K: MaybeAuth> {
    fn key_schedule(
        &self,
        mode: u8,
        shared_secret: &[u8],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<KeyScheduleValues, Error>;
    /// Setup on both sides through the public per-mode functions, the sender's with its
    /// ephemeral key derived from `ikm_e`.
    #[allow(clippy::too_many_arguments)]
    fn setup(
        &self,
        mode: u8,
        ikm_e: &[u8],
        recipient: (&PublicKey<K>, &PrivateKey<K>),
        enc: &EncappedKey<K>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        sender_keys: Option<&(PrivateKey<K>, PublicKey<K>)>,
    ) -> Result<Setup<K>, String>;
    /// Single-shot `ReceiveExport<MODE>` (RFC 9180 §6.2).
    #[allow(clippy::too_many_arguments)]
    fn receive_export(
        &self,
        enc: &EncappedKey<K>,
        sk_r: &PrivateKey<K>,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        pk_s: Option<&PublicKey<K>>,
    ) -> Result<(), Error>;
}

struct Suite<F, A>(PhantomData<(F, A)>);

impl<K: MaybeAuth, F: Kdf, A: Aead> KdfAead<K> for Suite<F, A> {
    fn key_schedule(
        &self,
        mode: u8,
        shared_secret: &[u8],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<KeyScheduleValues, Error> {
        Hpke::<K, F, A>::key_schedule_for_testing_only(mode, shared_secret, info, psk)
    }

    fn setup(
        &self,
        mode: u8,
        ikm_e: &[u8],
        (pk_r, sk_r): (&PublicKey<K>, &PrivateKey<K>),
        enc: &EncappedKey<K>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        sender_keys: Option<&(PrivateKey<K>, PublicKey<K>)>,
    ) -> Result<Setup<K>, String> {
        type H<K, F, A> = Hpke<K, F, A>;
        let ((enc_s, sender), receiver) = match (mode, psk, sender_keys) {
            (0, None, None) => (
                ok(
                    H::<K, F, A>::setup_sender_base_deterministic_for_testing_only(
                        ikm_e, pk_r, info,
                    ),
                    "SetupBaseS",
                )?,
                ok(
                    H::<K, F, A>::setup_receiver_base(enc, sk_r, info),
                    "SetupBaseR",
                )?,
            ),
            (1, Some(p), None) => (
                ok(
                    H::<K, F, A>::setup_sender_psk_deterministic_for_testing_only(
                        ikm_e, pk_r, info, p,
                    ),
                    "SetupPSKS",
                )?,
                ok(
                    H::<K, F, A>::setup_receiver_psk(enc, sk_r, info, p),
                    "SetupPSKR",
                )?,
            ),
            (2 | 3, p, Some((sk_s, pk_s))) => (
                ok(
                    K::setup_sender_auth_deterministic::<F, A>(ikm_e, pk_r, info, p, sk_s),
                    "SetupAuth(PSK)S",
                )?,
                ok(
                    K::setup_receiver_auth::<F, A>(enc, sk_r, info, p, pk_s),
                    "SetupAuth(PSK)R",
                )?,
            ),
            _ => return Err("mode does not match the inputs present".into()),
        };
        Ok((enc_s, sender.into(), receiver.into()))
    }

    fn receive_export(
        &self,
        enc: &EncappedKey<K>,
        sk_r: &PrivateKey<K>,
        info: &[u8],
        ctx: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        pk_s: Option<&PublicKey<K>>,
    ) -> Result<(), Error> {
        match (psk, pk_s) {
            (None, None) => Hpke::<K, F, A>::receive_export_base(enc, sk_r, info, ctx, out),
            (Some(p), None) => Hpke::<K, F, A>::receive_export_psk(enc, sk_r, info, ctx, out, p),
            (p, Some(pk_s)) => K::receive_export_auth::<F, A>(enc, sk_r, info, ctx, out, p, pk_s),
        }
    }
}

/// Seals and opens the vector's encryptions; an export-only suite must have none.
fn check_encryptions(
    v: &Vector,
    quirks: Quirks,
    sender: &mut suite::SenderContext,
    receiver: &mut suite::ReceiverContext,
) -> Check {
    if !sender.suite().supports_seal() {
        return ensure(
            v.encryptions.is_empty(),
            "export-only vector with encryptions",
        );
    }
    for (i, e) in v.encryptions.iter().enumerate() {
        let seq = e.seq.unwrap_or(i as u64);
        if sender.sequence_number() != seq {
            sender.set_sequence_number_for_testing_only(seq);
            receiver.set_sequence_number_for_testing_only(seq);
        }
        if quirks == Quirks::NonceOffByOne {
            // The file's defect, exactly as documented: the printed nonce is for seq i+1.
            let mut expected = v.base_nonce.to_vec();
            let n = expected.len();
            for (b, s) in expected[n - 8..].iter_mut().zip((seq + 1).to_be_bytes()) {
                *b ^= s;
            }
            ensure(
                e.nonce.0 == expected,
                &format!("documented nonce defect at {i}"),
            )?;
        }
        let ct = ok(sender.seal(&e.aad, &e.pt), &format!("seal #{i}"))?;
        ensure(ct == e.ct.0, &format!("ct #{i}"))?;
        let pt = ok(receiver.open(&e.aad, &e.ct), &format!("open #{i}"))?;
        ensure(pt == e.pt.0, &format!("pt #{i}"))?;
        ensure(sender.sequence_number() == seq + 1, "sender sequence")?;
        ensure(receiver.sequence_number() == seq + 1, "receiver sequence")?;
    }
    Ok(())
}

fn check_vector<K: MaybeAuth>(v: &Vector, quirks: Quirks, suite: &dyn KdfAead<K>) -> Check {
    if let Some(suite_id) = &v.suite_id {
        let mut expected = b"HPKE".to_vec();
        for id in [v.kem_id, v.kdf_id, v.aead_id] {
            expected.extend_from_slice(&id.to_be_bytes());
        }
        ensure(suite_id.0 == expected, "suite_id field")?;
    }
    let (sk_r, pk_r) = check_key_pair::<K>(&v.ikm_r, &v.sk_rm, &v.pk_rm, "R", quirks)?;
    if let (Some(sk_em), Some(pk_em)) = (&v.sk_em, &v.pk_em) {
        check_key_pair::<K>(&v.ikm_e, sk_em, pk_em, "E", quirks)?;
    }
    if let Some(pk_em) = &v.pk_em {
        ensure(v.enc.0 == pk_em.0, "enc = SerializePublicKey(pkE)")?;
    }
    let sender_keys = match (&v.ikm_s, v.mode) {
        (Some(ikm_s), 2 | 3) => {
            let (sk_sm, pk_sm) = (
                v.sk_sm.as_ref().ok_or("skSm")?,
                v.pk_sm.as_ref().ok_or("pkSm")?,
            );
            if quirks == Quirks::SenderKeysCopied {
                // The documented defect: the printed sender keys are the recipient's.
                ensure(
                    sk_sm.0 == v.sk_rm.0 && pk_sm.0 == v.pk_rm.0,
                    "documented skSm defect",
                )?;
                let (sk_s, pk_s) = ok(K::derive_key_pair(ikm_s), "DeriveKeyPair(S)")?;
                Some((sk_s, pk_s))
            } else {
                Some(check_key_pair::<K>(ikm_s, sk_sm, pk_sm, "S", quirks)?)
            }
        }
        (None, 0 | 1) => None,
        _ => return Err("ikmS present exactly in the auth modes".into()),
    };
    let psk = match (&v.psk, &v.psk_id) {
        (Some(psk), Some(id)) => Some(ok(Psk::new(psk, id), "Psk::new")?),
        (None, None) => None,
        _ => return Err("psk and psk_id come together".into()),
    };

    // Encap / AuthEncap with the ephemeral key DeriveKeyPair(ikmE), and Decap / AuthDecap.
    let (ss, enc) = match &sender_keys {
        None => ok(
            typed_hpke::hazmat::encap_deterministic::<K>(&v.ikm_e, &pk_r),
            "Encap",
        )?,
        Some((sk_s, _)) => ok(
            K::auth_encap_deterministic(&v.ikm_e, &pk_r, sk_s),
            "AuthEncap",
        )?,
    };
    ensure(enc.as_bytes() == &v.enc[..], "enc")?;
    ensure(
        ss.as_bytes() == &v.shared_secret[..],
        "shared_secret (encap)",
    )?;
    // The same through a prepared recipient key: the published values, byte for byte.
    let prepared = PreparedPublicKey::new(&pk_r);
    let (ss, enc) = match &sender_keys {
        None => ok(
            typed_hpke::hazmat::encap_deterministic::<K>(&v.ikm_e, &prepared),
            "Encap (prepared)",
        )?,
        Some((sk_s, _)) => ok(
            K::auth_encap_deterministic(&v.ikm_e, &prepared, sk_s),
            "AuthEncap (prepared)",
        )?,
    };
    ensure(enc.as_bytes() == &v.enc[..], "enc (prepared)")?;
    ensure(
        ss.as_bytes() == &v.shared_secret[..],
        "shared_secret (encap, prepared)",
    )?;
    let enc_in = ok(
        EncappedKey::<K>::from_bytes(&v.enc),
        "EncappedKey::from_bytes",
    )?;
    ensure(enc_in == enc, "EncappedKey round trip")?;
    let ss_r = match &sender_keys {
        None => ok(K::decap(&enc_in, &sk_r), "Decap")?,
        Some((_, pk_s)) => ok(K::auth_decap(&enc_in, &sk_r, pk_s), "AuthDecap")?,
    };
    ensure(
        ss_r.as_bytes() == &v.shared_secret[..],
        "shared_secret (decap)",
    )?;

    // The key schedule and its intermediates.
    let ks = ok(
        suite.key_schedule(v.mode, &v.shared_secret, &v.info, psk.as_ref()),
        "KeySchedule",
    )?;
    ensure(ks.key.as_slice() == &v.key[..], "key")?;
    ensure(ks.base_nonce.as_slice() == &v.base_nonce[..], "base_nonce")?;
    ensure(
        ks.exporter_secret.as_slice() == &v.exporter_secret[..],
        "exporter_secret",
    )?;
    if let Some(ksc) = &v.key_schedule_context {
        let got = ks.key_schedule_context.ok_or("no key_schedule_context")?;
        ensure(got.as_slice() == &ksc[..], "key_schedule_context")?;
    }
    if let Some(secret) = &v.secret {
        let got = ks.secret.ok_or("no secret")?;
        ensure(got.as_slice() == &secret[..], "secret")?;
    }

    // Setup on both sides, through the public per-mode functions.
    let info = &v.info[..];
    let (enc_s, mut sender, mut receiver) = suite.setup(
        v.mode,
        &v.ikm_e,
        (&pk_r, &sk_r),
        &enc_in,
        info,
        psk.as_ref(),
        sender_keys.as_ref(),
    )?;
    ensure(enc_s == enc_in, "enc from setup")?;

    check_encryptions(v, quirks, &mut sender, &mut receiver)?;

    for (i, x) in v.exports.iter().enumerate() {
        let mut out_s = vec![0u8; x.len];
        let mut out_r = vec![0u8; x.len];
        ok(
            sender.export(&x.exporter_context, &mut out_s),
            &format!("sender export #{i}"),
        )?;
        ok(
            receiver.export(&x.exporter_context, &mut out_r),
            &format!("receiver export #{i}"),
        )?;
        ensure(out_s == x.exported_value.0, &format!("sender export #{i}"))?;
        ensure(
            out_r == x.exported_value.0,
            &format!("receiver export #{i}"),
        )?;
        // Single-shot ReceiveExport<MODE> (RFC 9180 §6.2).
        let mut single = vec![0u8; x.len];
        ok(
            suite.receive_export(
                &enc_in,
                &sk_r,
                info,
                &x.exporter_context,
                &mut single,
                psk.as_ref(),
                sender_keys.as_ref().map(|(_, pk_s)| pk_s),
            ),
            &format!("ReceiveExport #{i}"),
        )?;
        ensure(
            single == x.exported_value.0,
            &format!("single-shot export #{i}"),
        )?;
    }
    Ok(())
}

/// Runs the vector with the types of its suite, from the library's table (`Suite::new`,
/// `visit`): a suite the library does not have fails, it is not skipped.
fn run_vector(v: &Vector, q: Quirks) -> Check {
    struct Run<'a>(&'a Vector, Quirks);
    impl suite::Visitor for Run<'_> {
        type Output = Check;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Check {
            check_vector::<K>(self.0, self.1, &Suite::<F, A>(PhantomData))
        }
    }
    let ids = (v.kem_id, v.kdf_id, v.aead_id);
    suite::Suite::new(ids.0, ids.1, ids.2)
        .and_then(|suite| suite.visit(Run(v, q)))
        .unwrap_or_else(|e| Err(format!("suite {ids:#06x?}: {e}")))
}

/// Runs every vector of `file`, reports every failure, and asserts the exact count.
fn run_file(file: &str, expected: usize, quirks: Quirks) -> Vec<Vector> {
    run_vectors(file, read_vector_file(file), expected, quirks)
}

fn run_vectors(file: &str, vectors: Vec<Vector>, expected: usize, quirks: Quirks) -> Vec<Vector> {
    let failures: Vec<String> = vectors
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            run_vector(v, quirks)
                .err()
                .map(|e| format!("#{i} ({}): {e}", v.label()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{file}: {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        vectors.len(),
        expected,
        "{file}: expected exactly {expected} vectors"
    );
    vectors
}

#[test]
fn rfc9180() {
    let vectors = run_file("rfc9180-test-vectors.json", 128, Quirks::None);
    // Every (mode, KEM, KDF, AEAD) cell the file claims, each once.
    let mut cells: Vec<_> = vectors
        .iter()
        .map(|v| (v.mode, v.kem_id, v.kdf_id, v.aead_id))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 128);
}

#[test]
fn secp256k1_hpke_rs() {
    let vectors = run_file(
        "secp256k1-hpke-rs-test-vectors.json",
        16,
        Quirks::NonceOffByOne,
    );
    assert_eq!(
        vectors.iter().map(|v| v.encryptions.len()).sum::<usize>(),
        12 * 257
    );
}

#[test]
fn secp256k1_draft_wahby() {
    run_file(
        "secp256k1-draft-wahby-01.json",
        18,
        Quirks::SenderKeysCopied,
    );
}

#[test]
fn p384_hkdf_sha384_generated() {
    run_file(
        "p384-hkdf-sha384-GENERATED-nonauthoritative.json",
        20,
        Quirks::None,
    );
}

#[test]
fn hpke_hpke_edge_cases() {
    let vectors = run_file("hpke-hpke-edge-case-vectors.json", 5, Quirks::None);
    // The rejection-sampling vector: counter 0's candidate is not a valid P-256 scalar, so
    // DeriveKeyPair had to go on to counter 1 (which the skRm check above confirmed).
    let rejecting: Vec<_> = vectors
        .iter()
        .filter_map(|v| v.rejected_candidate_counter0.as_ref())
        .collect();
    assert_eq!(rejecting.len(), 1);
    assert_eq!(
        PrivateKey::<DhKemP256HkdfSha256>::from_bytes(rejecting[0]).unwrap_err(),
        Error::InvalidPrivateKey
    );
}

#[test]
fn hpke_pq_draft04() {
    let vectors = run_file(
        "hpke-pq-draft04-test-vectors.json",
        13,
        Quirks::X448SkPrintedClamped,
    );
    // The file's documented defect: its X448 skRm is printed clamped, unlike the RFC files and
    // unlike what DeriveKeyPair gives (check_key_pair compares that one key after clamping).
    // The defect is there: the printed key is clamped and not what DeriveKeyPair gives.
    let x448 = vectors
        .iter()
        .find(|v| v.kem_id == 0x0021)
        .expect("an X448 vector");
    assert_eq!(x448.sk_rm.0, clamp_x448(&x448.sk_rm));
    let (derived, _) = DhKemX448HkdfSha512::derive_key_pair(&x448.ikm_r).unwrap();
    assert_ne!(&derived.to_bytes()[..], &x448.sk_rm[..]);
    let mut kems: Vec<u16> = vectors.iter().map(|v| v.kem_id).collect();
    kems.sort_unstable();
    kems.dedup();
    assert_eq!(
        kems,
        [
            0x0010, 0x0011, 0x0020, 0x0021, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a
        ]
    );
    assert_eq!(
        vectors.iter().map(|v| v.encryptions.len()).sum::<usize>(),
        13 * 10
    );
    assert_eq!(
        vectors.iter().map(|v| v.exports.len()).sum::<usize>(),
        13 * 5
    );
}

#[derive(serde::Deserialize)]
struct XWingVector {
    seed: vectors::Hex,
    sk: vectors::Hex,
    pk: vectors::Hex,
    eseed: vectors::Hex,
    ct: vectors::Hex,
    ss: vectors::Hex,
}

/// The X-Wing KEM-level vectors: key generation from the seed, deterministic encapsulation
/// with `eseed`, decapsulation.
#[test]
fn xwing_kem() {
    let vectors: Vec<XWingVector> = read_vector_file("xwing-kem-test-vectors.json");
    for (i, v) in vectors.iter().enumerate() {
        let sk = PrivateKey::<XWing>::from_bytes(&v.seed).unwrap();
        assert_eq!(sk.to_bytes().as_slice(), &v.sk[..], "#{i} sk");
        let pk = sk.public_key();
        assert_eq!(pk.as_bytes(), &v.pk[..], "#{i} pk");
        assert_eq!(PublicKey::<XWing>::from_bytes(&v.pk).unwrap(), pk);
        let (ss, ct) = typed_hpke::hazmat::encap_deterministic::<XWing>(&v.eseed, &pk).unwrap();
        assert_eq!(ct.as_bytes(), &v.ct[..], "#{i} ct");
        assert_eq!(ss.as_bytes(), &v.ss[..], "#{i} ss (encap)");
        let ct = EncappedKey::<XWing>::from_bytes(&v.ct).unwrap();
        assert_eq!(
            XWing::decap(&ct, &sk).unwrap().as_bytes(),
            &v.ss[..],
            "#{i} ss (decap)"
        );
    }
    assert_eq!(vectors.len(), 3);
}

/// The vectors `examples/generate-vectors.rs` writes to `test-vectors/` (suites no published
/// file covers), run like the published ones. They are cross-checked with rust-hpke by
/// `measure/tests/differential.rs`; see `test-vectors/README.md`.
fn run_generated(file: &str, expected: usize) -> Vec<Vector> {
    run_vectors(file, read_generated_file(file), expected, Quirks::None)
}

#[test]
fn generated_pq_psk() {
    let vectors = run_generated("generated-pq-psk.json", 18);
    assert!(vectors.iter().all(|v| v.mode == 1));
}

#[test]
fn generated_mlkem512() {
    run_generated("generated-mlkem512.json", 3);
}

#[test]
fn generated_one_stage_kdfs() {
    let vectors = run_generated("generated-one-stage-kdfs.json", 64);
    let mut cells: Vec<_> = vectors
        .iter()
        .map(|v| (v.mode, v.kdf_id, v.aead_id))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 64, "every one-stage KDF x AEAD x mode, once");
}

#[test]
fn generated_p384_auth() {
    run_generated("generated-p384-auth.json", 8);
}

/// Every published file is the byte-identical copy `test-vectors/README.md` records: the table
/// there is the one place the hashes are written, and this test reads it.
#[test]
fn vector_files_match_readme_sha256() {
    use sha2::Digest;

    let dir = vectors::repo_vectors_dir();
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("test-vectors/README.md");
    let table = readme
        .split("## Published files")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a '## Published files' section");
    let mut listed = Vec::new();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`');
        let recorded = cells[3].trim_matches('`');
        assert_eq!(recorded.len(), 64, "{name}: a sha256 in hex");
        let bytes = vectors::read_vector_bytes(&dir, name);
        let actual = hex::encode(sha2::Sha256::digest(&bytes));
        assert_eq!(
            actual, recorded,
            "{name}: sha256 differs from test-vectors/README.md"
        );
        listed.push(name.to_owned());
    }
    assert_eq!(listed.len(), 7, "the seven published files");

    // Nothing published-looking in the directory escapes the table.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let base = file.strip_suffix(".gz").unwrap_or(&file);
        if file == "README.md" || file.starts_with("generated-") {
            continue;
        }
        assert!(
            listed.iter().any(|l| l == base),
            "test-vectors/{file} is not in the README's table of published files"
        );
    }
}

/// The symmetric surface's functions for public values against their standards: `Extract`
/// (RFC 5869 A.1, and A.3's empty salt, which is `Nh` zero bytes) with the input key given in
/// pieces, and the KDFs' hashes (FIPS 180-4's "abc" examples) likewise.
#[test]
fn symmetric_public_functions_match_their_standards() {
    use typed_hpke::symmetric::{extract_public, hash};
    let ikm = [0x0b_u8; 22];
    let pieces: [&[u8]; 3] = [&ikm[..5], &[], &ikm[5..]];
    let salt: Vec<u8> = (0u8..=0x0c).collect();
    assert_eq!(
        hex::encode(extract_public::<HkdfSha256>(&salt, &pieces)),
        "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"
    );
    assert_eq!(
        hex::encode(extract_public::<HkdfSha256>(&[], &pieces)),
        "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"
    );
    let abc: [&[u8]; 3] = [b"a", b"", b"bc"];
    assert_eq!(
        hex::encode(hash::<HkdfSha256>(&abc)),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex::encode(hash::<HkdfSha384>(&abc)),
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed\
         8086072ba1e7cc2358baeca134c825a7"
    );
    assert_eq!(
        hex::encode(hash::<HkdfSha512>(&abc)),
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
         2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    );
}

/// `typed_hpke::symmetric` and its runtime twins against the RFC 9180 file, apart from the key
/// schedule: `key`, `base_nonce` and `exporter_secret` re-derived from the printed
/// `shared_secret`, `psk` and `key_schedule_context` with plain `Extract` / `Expand` (§4's
/// labels written out here), typed and runtime; then all 257 encryptions of each vector sealed
/// and opened by a `Sealer` / `Opener` keyed with the printed `key` and `base_nonce`, typed and
/// runtime.
#[test]
fn symmetric_surface_reproduces_rfc9180() {
    use typed_hpke::aead::Aead;
    use typed_hpke::kdf::TwoStageKdf;
    use typed_hpke::suite;
    use typed_hpke::symmetric::{Opener, Prk, Sealer};

    fn expand(prk: &suite::Prk, suite_id: &[u8], label: &[u8], ksc: &[u8], len: usize) -> Vec<u8> {
        // LabeledExpand: info = concat(I2OSP(L, 2), "HPKE-v1", suite_id, label, context)
        let l = (len as u16).to_be_bytes();
        let mut out = vec![0u8; len];
        prk.expand(&[&l, b"HPKE-v1", suite_id, label, ksc], &mut out)
            .unwrap();
        out
    }
    fn typed_prk<F: TwoStageKdf>(salt: &[u8], ikm: &[&[u8]]) -> suite::Prk {
        Prk::<F>::extract(salt, ikm).into()
    }
    fn typed<A: typed_hpke::aead::SealingAead>(
        key: &[u8],
        nonce: &[u8],
    ) -> (suite::Sealer, suite::Opener) {
        let key = key.try_into().unwrap();
        let nonce = nonce.try_into().unwrap();
        (
            Sealer::<A>::new(&key, &nonce).into(),
            Opener::<A>::new(&key, &nonce).into(),
        )
    }

    let vectors: Vec<Vector> = read_vector_file("rfc9180-test-vectors.json");
    let (mut derived, mut sealed) = (0, 0);
    for v in &vectors {
        let label = v.label();
        let mut suite_id = b"HPKE".to_vec();
        for id in [v.kem_id, v.kdf_id, v.aead_id] {
            suite_id.extend_from_slice(&id.to_be_bytes());
        }
        let psk = v.psk.as_ref().map_or(&[][..], |p| &p.0[..]);
        let ksc = &v.key_schedule_context.as_ref().unwrap().0;
        // secret = LabeledExtract(shared_secret, "secret", psk)
        let ikm: [&[u8]; 4] = [b"HPKE-v1", &suite_id, b"secret", psk];
        let runtime = suite::Prk::extract(v.kdf_id, &v.shared_secret, &ikm).unwrap();
        let typed_secret = match v.kdf_id {
            0x0001 => typed_prk::<HkdfSha256>(&v.shared_secret, &ikm),
            0x0002 => typed_prk::<HkdfSha384>(&v.shared_secret, &ikm),
            _ => typed_prk::<HkdfSha512>(&v.shared_secret, &ikm),
        };
        for secret in [runtime, typed_secret] {
            assert_eq!(secret.kdf_id(), v.kdf_id);
            let key = expand(&secret, &suite_id, b"key", ksc, v.key.len());
            let nonce = expand(&secret, &suite_id, b"base_nonce", ksc, v.base_nonce.len());
            let exp = expand(&secret, &suite_id, b"exp", ksc, v.exporter_secret.len());
            assert_eq!(key, v.key.0, "{label}: key");
            assert_eq!(nonce, v.base_nonce.0, "{label}: base_nonce");
            assert_eq!(exp, v.exporter_secret.0, "{label}: exporter_secret");
            derived += 1;
        }
        let (key, nonce) = (&v.key.0[..], &v.base_nonce.0[..]);
        if v.aead_id == ExportOnly::ID {
            assert_eq!(
                suite::Sealer::new(v.aead_id, key, nonce).err(),
                Some(Error::UnsupportedOperation)
            );
            assert_eq!(
                suite::Opener::new(v.aead_id, key, nonce).err(),
                Some(Error::UnsupportedOperation)
            );
            continue;
        }
        let typed_pair = match v.aead_id {
            0x0001 => typed::<Aes128Gcm>(key, nonce),
            0x0002 => typed::<Aes256Gcm>(key, nonce),
            _ => typed::<ChaCha20Poly1305>(key, nonce),
        };
        let runtime_pair = (
            suite::Sealer::new(v.aead_id, key, nonce).unwrap(),
            suite::Opener::new(v.aead_id, key, nonce).unwrap(),
        );
        for (mut sealer, mut opener) in [runtime_pair, typed_pair] {
            assert_eq!((sealer.aead_id(), opener.aead_id()), (v.aead_id, v.aead_id));
            for (i, e) in v.encryptions.iter().enumerate() {
                assert_eq!(e.seq.unwrap_or(i as u64), sealer.sequence_number());
                assert_eq!(
                    sealer.seal(&e.aad, &e.pt).unwrap(),
                    e.ct.0,
                    "{label}: ct #{i}"
                );
                assert_eq!(
                    opener.open(&e.aad, &e.ct).unwrap(),
                    e.pt.0,
                    "{label}: pt #{i}"
                );
                sealed += 1;
            }
        }
    }
    assert_eq!((derived, sealed), (2 * 128, 2 * 257 * 96));
}
