//! The limit: the fastest implementation of each primitive reachable from crates.io, called
//! bare. Here aws-lc-rs: X25519 and P-256/384/521 key generation and agreement, ML-KEM, AES-GCM,
//! ChaCha20-Poly1305, HKDF, SHA3-256. (libcrux-ml-kem, the other candidate, is typed-hpke's own
//! ML-KEM backend, so its bare calls are already the floor's ML-KEM rows; the report takes whichever of
//! the two is faster on each row.)
//!
//! The DH-KEM rows are a complete DHKEM (RFC 9180 §4.1, §7.1.3) on aws-lc-rs primitives, from the
//! fixture's keys, and are checked against typed-hpke like a peer. The ML-KEM encap / decap rows
//! use the fixture's keys and are checked too; ML-KEM key derivation has no aws-lc-rs row (it
//! has no seeded key generation). The hybrid, AEAD and export rows run on keys of their own and
//! are not checked: they lack the combined key formats and the context's secrets.

use std::hint::black_box;

use aws_lc_rs::agreement::{self, ParsedPublicKey, PrivateKey, UnparsedPublicKey};
use aws_lc_rs::{aead, digest, hkdf, kem};

use crate::compare::driver::{AAD, Check, EXPORTER, Fixture, Job, Op, Row, timed};

pub const NAME: &str = "limit (aws-lc-rs)";

const V1: &[u8] = b"HPKE-v1";

pub fn peer(row: &Row, fix: &Fixture) -> Option<Job> {
    match row.op {
        Op::ContextSeal(_) | Op::ContextOpen(_) => aead_job(row, fix),
        Op::Export(n) => export_job(row.ids, n),
        Op::Generate
        | Op::DeriveKeyPair
        | Op::Encap
        | Op::Decap
        | Op::AuthEncap
        | Op::AuthDecap => match row.ids.0 {
            0x0020 | 0x0010 | 0x0011 | 0x0012 => dh_job(row, fix),
            0x0040..=0x0042 => ml_kem_job(row, fix),
            0x0050 | 0x0051 | 0x647a => hybrid_job(row),
            _ => None,
        },
        _ => None,
    }
}

/// `hkdf::KeyType` for any output length.
struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// LabeledExtract(salt, label, ikm) (RFC 9180 §4): the labeled input assembled on the stack.
fn labeled_extract(alg: hkdf::Algorithm, suite: &[u8], label: &[u8], ikm: &[&[u8]]) -> hkdf::Prk {
    let mut buf = [0u8; 512];
    let mut len = 0;
    for piece in [V1, suite, label].iter().chain(ikm) {
        buf[len..len + piece.len()].copy_from_slice(piece);
        len += piece.len();
    }
    hkdf::Salt::new(alg, &[]).extract(&buf[..len])
}

/// LabeledExpand(prk, label, info, L) (RFC 9180 §4).
fn labeled_expand(prk: &hkdf::Prk, suite: &[u8], label: &[u8], info: &[&[u8]], out: &mut [u8]) {
    let l = (out.len() as u16).to_be_bytes();
    let mut pieces: [&[u8]; 8] = [&[]; 8];
    pieces[..4].copy_from_slice(&[&l, V1, suite, label]);
    pieces[4..4 + info.len()].copy_from_slice(info);
    prk.expand(&pieces[..4 + info.len()], Len(out.len()))
        .unwrap()
        .fill(out)
        .unwrap();
}

/// DHKEM(group, HKDF) on aws-lc-rs.
#[derive(Clone, Copy)]
struct DhKem {
    group: &'static agreement::Algorithm,
    hkdf: hkdf::Algorithm,
    suite: [u8; 5],
    nsk: usize,
    nsecret: usize,
    /// The top byte's mask in DeriveKeyPair's rejection sampling (§7.1.3); `None` for X25519.
    bitmask: Option<u8>,
}

impl DhKem {
    fn of(kem_id: u16) -> Option<Self> {
        let (group, hkdf, nsk, nsecret, bitmask) = match kem_id {
            0x0020 => (&agreement::X25519, hkdf::HKDF_SHA256, 32, 32, None),
            0x0010 => (&agreement::ECDH_P256, hkdf::HKDF_SHA256, 32, 32, Some(0xff)),
            0x0011 => (&agreement::ECDH_P384, hkdf::HKDF_SHA384, 48, 48, Some(0xff)),
            0x0012 => (&agreement::ECDH_P521, hkdf::HKDF_SHA512, 66, 64, Some(0x01)),
            _ => return None,
        };
        let id = kem_id.to_be_bytes();
        Some(Self {
            group,
            hkdf,
            suite: [b'K', b'E', b'M', id[0], id[1]],
            nsk,
            nsecret,
            bitmask,
        })
    }

    /// DeriveKeyPair(ikm) (RFC 9180 §7.1.3): the private key and the serialized public key.
    fn derive(&self, ikm: &[u8]) -> (PrivateKey, Vec<u8>) {
        let prk = labeled_extract(self.hkdf, &self.suite, b"dkp_prk", &[ikm]);
        let mut bytes = [0u8; 66];
        let sk = match self.bitmask {
            None => {
                labeled_expand(&prk, &self.suite, b"sk", &[], &mut bytes[..self.nsk]);
                PrivateKey::from_private_key(self.group, &bytes[..self.nsk]).unwrap()
            }
            Some(mask) => (0u8..=255)
                .find_map(|counter| {
                    let out = &mut bytes[..self.nsk];
                    labeled_expand(&prk, &self.suite, b"candidate", &[&[counter]], out);
                    out[0] &= mask;
                    PrivateKey::from_private_key(self.group, out).ok()
                })
                .unwrap(),
        };
        let pk = sk.compute_public_key().unwrap().as_ref().to_vec();
        (sk, pk)
    }

    fn agree(
        &self,
        sk: &PrivateKey,
        pk: impl TryInto<ParsedPublicKey>,
        out: &mut [u8; 66],
    ) -> usize {
        agreement::agree(sk, pk, (), |dh| {
            out[..dh.len()].copy_from_slice(dh);
            Ok(dh.len())
        })
        .unwrap()
    }

    /// ExtractAndExpand(dh, kem_context) (RFC 9180 §4.1).
    fn extract_and_expand(&self, dh: &[&[u8]], kem_context: &[&[u8]]) -> [u8; 64] {
        let prk = labeled_extract(self.hkdf, &self.suite, b"eae_prk", dh);
        let mut ss = [0u8; 64];
        labeled_expand(
            &prk,
            &self.suite,
            b"shared_secret",
            kem_context,
            &mut ss[..self.nsecret],
        );
        ss
    }

    /// Encap / AuthEncap: the encapsulation and the shared secret.
    fn encap(
        &self,
        pk_r: &ParsedPublicKey,
        sender: Option<(&PrivateKey, &[u8])>,
    ) -> (Vec<u8>, [u8; 64]) {
        let sk_e = PrivateKey::generate(self.group).unwrap();
        let enc = sk_e.compute_public_key().unwrap();
        let (mut dh1, mut dh2) = ([0u8; 66], [0u8; 66]);
        let n = self.agree(&sk_e, pk_r.clone(), &mut dh1);
        let ss = match sender {
            None => self.extract_and_expand(&[&dh1[..n]], &[enc.as_ref(), pk_r.as_ref()]),
            Some((sk_s, pk_s)) => {
                self.agree(sk_s, pk_r.clone(), &mut dh2);
                self.extract_and_expand(
                    &[&dh1[..n], &dh2[..n]],
                    &[enc.as_ref(), pk_r.as_ref(), pk_s],
                )
            }
        };
        (enc.as_ref().to_vec(), ss)
    }

    /// Decap / AuthDecap.
    fn decap(
        &self,
        enc: &[u8],
        sk_r: &PrivateKey,
        pk_r: &[u8],
        sender: Option<&ParsedPublicKey>,
    ) -> [u8; 64] {
        let (mut dh1, mut dh2) = ([0u8; 66], [0u8; 66]);
        let n = self.agree(sk_r, UnparsedPublicKey::new(self.group, enc), &mut dh1);
        match sender {
            None => self.extract_and_expand(&[&dh1[..n]], &[enc, pk_r]),
            Some(pk_s) => {
                self.agree(sk_r, pk_s.clone(), &mut dh2);
                self.extract_and_expand(&[&dh1[..n], &dh2[..n]], &[enc, pk_r, pk_s.as_ref()])
            }
        }
    }
}

fn parse(group: &'static agreement::Algorithm, bytes: &[u8]) -> ParsedPublicKey {
    ParsedPublicKey::try_from(&UnparsedPublicKey::new(group, bytes)).unwrap()
}

fn dh_job(row: &Row, fix: &Fixture) -> Option<Job> {
    let kem = DhKem::of(row.ids.0)?;
    let (sk_r, pk_r) = kem.derive(row.ikm(fix.nsk, false));
    let (sk_s, pk_s) = kem.derive(row.ikm(fix.nsk, true));
    assert_eq!(pk_r, fix.pk_r, "{NAME}: another key from the same IKM");
    let parsed_r = parse(kem.group, &pk_r);
    let parsed_s = parse(kem.group, &pk_s);
    let nsecret = kem.nsecret;
    let expect = |check| fix.expect(NAME, row, check);
    Some(match row.op {
        Op::Generate => timed(move || {
            let sk = PrivateKey::generate(kem.group).unwrap();
            let pk = sk.compute_public_key().unwrap();
            (sk, pk)
        }),
        Op::DeriveKeyPair => {
            let ikm = row.ikm(fix.nsk, false);
            timed(move || kem.derive(black_box(ikm)))
        }
        Op::Encap | Op::AuthEncap => {
            let auth = row.op == Op::AuthEncap;
            let (enc, ss) = kem.encap(&parsed_r, auth.then_some((&sk_s, &pk_s[..])));
            expect(Check::Decap {
                enc: &enc,
                ss: &ss[..nsecret],
            });
            timed(move || {
                let sender = auth.then_some((&sk_s, &pk_s[..]));
                kem.encap(black_box(&parsed_r), sender)
            })
        }
        Op::Decap | Op::AuthDecap => {
            let sender = (row.op == Op::AuthDecap).then_some(parsed_s);
            let enc = fix.enc.clone();
            let ss = kem.decap(&enc, &sk_r, &pk_r, sender.as_ref());
            assert_eq!(&ss[..nsecret], &fix.ss[..], "{NAME} disagrees on decap");
            timed(move || kem.decap(black_box(&enc), black_box(&sk_r), &pk_r, sender.as_ref()))
        }
        _ => return None,
    })
}

fn ml_kem_alg(kem_id: u16) -> &'static kem::Algorithm<kem::AlgorithmId> {
    match kem_id {
        0x0040 | 0x0050 => &kem::ML_KEM_512,
        0x0041 | 0x647a => &kem::ML_KEM_768,
        _ => &kem::ML_KEM_1024,
    }
}

/// ML-KEM's expanded decapsulation key from the HPKE private key, the 64-byte seed `d || z`
/// (FIPS 203 ML-KEM.KeyGen_internal), expanded by libcrux: aws-lc-rs has no seeded key
/// generation.
fn expanded_decapsulation_key(kem_id: u16, seed: &[u8]) -> Vec<u8> {
    let seed: [u8; 64] = seed.try_into().unwrap();
    match kem_id {
        0x0040 => libcrux_ml_kem::mlkem512::portable::generate_key_pair(seed)
            .sk()
            .to_vec(),
        0x0041 => libcrux_ml_kem::mlkem768::portable::generate_key_pair(seed)
            .sk()
            .to_vec(),
        _ => libcrux_ml_kem::mlkem1024::portable::generate_key_pair(seed)
            .sk()
            .to_vec(),
    }
}

fn ml_kem_job(row: &Row, fix: &Fixture) -> Option<Job> {
    let alg = ml_kem_alg(row.ids.0);
    let expect = |check| fix.expect(NAME, row, check);
    Some(match row.op {
        Op::Generate => timed(move || {
            let dk = kem::DecapsulationKey::generate(alg).unwrap();
            let ek = dk.encapsulation_key().unwrap();
            (dk, ek)
        }),
        Op::Encap => {
            let ek = kem::EncapsulationKey::new(alg, &fix.pk_r).unwrap();
            let (ct, ss) = ek.encapsulate().unwrap();
            expect(Check::Decap {
                enc: ct.as_ref(),
                ss: ss.as_ref(),
            });
            timed(move || black_box(&ek).encapsulate().unwrap())
        }
        Op::Decap => {
            let seed = crate::compare::typed::private_key_bytes(row, fix.nsk);
            let dk = kem::DecapsulationKey::new(alg, &expanded_decapsulation_key(row.ids.0, &seed))
                .unwrap();
            let enc = fix.enc.clone();
            let ss = dk.decapsulate(enc[..].into()).unwrap();
            assert_eq!(ss.as_ref(), &fix.ss[..], "{NAME} disagrees on decap");
            timed(move || {
                black_box(&dk)
                    .decapsulate(black_box(&enc[..]).into())
                    .unwrap()
            })
        }
        _ => return None,
    })
}

/// The hybrids: aws-lc-rs ML-KEM, aws-lc-rs X25519 / P-256 / P-384, and the SHA3-256
/// combiner over the same inputs (draft-connolly-cfrg-xwing-kem, draft-irtf-cfrg-hybrid-kems),
/// on keys of its own.
fn hybrid_job(row: &Row) -> Option<Job> {
    let alg = ml_kem_alg(row.ids.0);
    let (group, label): (&'static agreement::Algorithm, &'static [u8]) = match row.ids.0 {
        0x647a => (&agreement::X25519, b"\\.//^\\"),
        0x0050 => (&agreement::ECDH_P256, b"MLKEM768-P256"),
        _ => (&agreement::ECDH_P384, b"MLKEM1024-P384"),
    };
    let dk = kem::DecapsulationKey::generate(alg).unwrap();
    let ek = dk.encapsulation_key().unwrap();
    let sk_t = PrivateKey::generate(group).unwrap();
    let pk_t = sk_t.compute_public_key().unwrap().as_ref().to_vec();
    let parsed_t = parse(group, &pk_t);
    let (ct_m, _) = ek.encapsulate().unwrap();
    let ct_m = ct_m.as_ref().to_vec();
    let ct_t = PrivateKey::generate(group)
        .unwrap()
        .compute_public_key()
        .unwrap()
        .as_ref()
        .to_vec();
    let combine = move |ss_m: &[u8], ss_t: &[u8], ct_t: &[u8], pk_t: &[u8]| {
        let mut h = digest::Context::new(&digest::SHA3_256);
        for piece in [ss_m, ss_t, ct_t, pk_t, label] {
            h.update(piece);
        }
        h.finish()
    };
    let agree = move |sk: &PrivateKey, pk: ParsedPublicKey| {
        agreement::agree(sk, pk, (), |dh| {
            let mut out = [0u8; 48];
            out[..dh.len()].copy_from_slice(dh);
            Ok((out, dh.len()))
        })
        .unwrap()
    };
    Some(match row.op {
        Op::Generate => timed(move || {
            let dk = kem::DecapsulationKey::generate(alg).unwrap();
            let ek = dk.encapsulation_key().unwrap();
            let sk = PrivateKey::generate(group).unwrap();
            let pk = sk.compute_public_key().unwrap();
            (dk, ek, sk, pk)
        }),
        Op::Encap => timed(move || {
            let (ct, ss_m) = black_box(&ek).encapsulate().unwrap();
            let sk_e = PrivateKey::generate(group).unwrap();
            let ct_t = sk_e.compute_public_key().unwrap();
            let (dh, n) = agree(&sk_e, parsed_t.clone());
            (ct, combine(ss_m.as_ref(), &dh[..n], ct_t.as_ref(), &pk_t))
        }),
        Op::Decap => timed(move || {
            let ss_m = black_box(&dk).decapsulate(ct_m[..].into()).unwrap();
            let (dh, n) = agree(&sk_t, parse(group, black_box(&ct_t)));
            combine(ss_m.as_ref(), &dh[..n], &ct_t, &pk_t)
        }),
        _ => return None,
    })
}

fn aead_job(row: &Row, fix: &Fixture) -> Option<Job> {
    let alg = match row.ids.2 {
        0x0001 => &aead::AES_128_GCM,
        0x0002 => &aead::AES_256_GCM,
        0x0003 => &aead::CHACHA20_POLY1305,
        _ => return None,
    };
    let key =
        aead::LessSafeKey::new(aead::UnboundKey::new(alg, &[0x33; 32][..alg.key_len()]).unwrap());
    let nonce = |seq: u64| {
        let mut n = [0x24u8; 12];
        for (b, s) in n[4..].iter_mut().zip(seq.to_be_bytes()) {
            *b ^= s;
        }
        aead::Nonce::assume_unique_for_key(n)
    };
    let pt = fix.pt.clone();
    // The same shape as typed-hpke's context rows, so that the ratio measures the primitive and not
    // the harness: a seal returns a new `Vec` (`ciphertext || tag`); an open reads one of a
    // batch of ciphertexts sealed under consecutive nonces before the clock starts (a fresh
    // ciphertext each call, as a receiver's sequence requires) and returns a new `Vec` of
    // plaintext, copied out and opened in place as typed-hpke's `open` does on aws-lc-rs.
    Some(if matches!(row.op, Op::ContextSeal(_)) {
        let mut seq = 0u64;
        timed(move || {
            let mut out = Vec::with_capacity(pt.len() + 16);
            out.extend_from_slice(black_box(&pt));
            key.seal_in_place_append_tag(nonce(seq), aead::Aad::from(AAD), &mut out)
                .unwrap();
            seq += 1;
            out
        })
    } else {
        crate::compare::driver::open_fresh(
            pt,
            key,
            move |key, seq, ct| {
                key.seal_in_place_append_tag(nonce(seq), aead::Aad::from(AAD), ct)
                    .unwrap();
            },
            move |key, seq, out, tag| {
                key.open_in_place_separate_tag(nonce(seq), aead::Aad::from(AAD), tag, out)
                    .unwrap();
            },
        )
    })
}

fn export_job(ids: (u16, u16, u16), n: usize) -> Option<Job> {
    let (alg, nh) = match ids.1 {
        0x0001 => (hkdf::HKDF_SHA256, 32),
        0x0002 => (hkdf::HKDF_SHA384, 48),
        0x0003 => (hkdf::HKDF_SHA512, 64),
        _ => return None,
    };
    let mut suite = *b"HPKE\0\0\0\0\0\0";
    suite[4..6].copy_from_slice(&ids.0.to_be_bytes());
    suite[6..8].copy_from_slice(&ids.1.to_be_bytes());
    suite[8..10].copy_from_slice(&ids.2.to_be_bytes());
    let prk = hkdf::Prk::new_less_safe(alg, &[0x44; 64][..nh]);
    let mut out = vec![0u8; n];
    Some(timed(move || {
        labeled_expand(&prk, &suite, b"sec", &[black_box(EXPORTER)], &mut out);
    }))
}
