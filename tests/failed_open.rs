//! A failed open changes nothing: for every sealing AEAD and every open path (single-shot
//! `Vec`, in place, into a caller buffer; context `open`, `open_in_place_detached`,
//! `open_into`), a bad tag, a changed ciphertext byte, a truncated ciphertext and a wrong aad
//! each give `Error::Open`, leave the buffer and `out` byte for byte as they were and the
//! sequence number where it was; and the next genuine message still opens.

use typed_hpke::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, SealingAead, Tag};
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem};
use typed_hpke::{Error, Hpke};

const AAD: &[u8] = b"the right aad";
const INFO: &[u8] = b"failed open";
/// What `out` holds before an `_into` call; it must hold it still after a failure.
const FILL: u8 = 0xa5;

/// The ways a received `ct || tag` can be wrong, each with the aad it is opened under.
fn tampered(ct: &[u8]) -> Vec<(&'static str, Vec<u8>, &'static [u8])> {
    let mut bad_tag = ct.to_vec();
    *bad_tag.last_mut().unwrap() ^= 1;
    let mut bad_byte = ct.to_vec();
    bad_byte[0] ^= 0x80;
    vec![
        ("bad tag", bad_tag, AAD),
        ("changed ciphertext byte", bad_byte, AAD),
        ("truncated by one byte", ct[..ct.len() - 1].to_vec(), AAD),
        ("shorter than a tag", ct[..15].to_vec(), AAD),
        ("empty", Vec::new(), AAD),
        ("wrong aad", ct.to_vec(), b"the wrong aad"),
    ]
}

/// `ct || tag` split for the detached APIs; a too-short input has no tag to speak of, so the
/// detached form is tried with the wrong tag instead.
fn split<A: SealingAead>(ct: &[u8]) -> (Vec<u8>, Tag<A>) {
    if ct.len() >= 16 {
        let (body, tag) = ct.split_at(ct.len() - 16);
        (body.to_vec(), Tag::<A>::try_from(tag).unwrap())
    } else {
        (ct.to_vec(), Tag::<A>::default())
    }
}

fn context_paths<A: SealingAead>(name: &str) {
    type K = X25519;
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let (enc, mut sender) =
        Hpke::<K, HkdfSha256, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
    let mut receiver = Hpke::<K, HkdfSha256, A>::setup_receiver_base(&enc, &sk, INFO).unwrap();
    // Lengths on both sides of the length from which `open` decrypts out of place (4096 bytes,
    // `aead::OPEN_OUT_OF_PLACE_FROM`), and the empty message.
    let messages: Vec<Vec<u8>> = [23usize, 4095, 4096, 4097, 70_000, 0]
        .iter()
        .enumerate()
        .map(|(i, &len)| (0..len).map(|j| (i * 31 + j * 7) as u8).collect())
        .collect();
    for (seq, pt) in messages.iter().enumerate() {
        let seq = seq as u64;
        let ct = sender.seal(AAD, pt).unwrap();
        for (what, bad, aad) in tampered(&ct) {
            let label = format!("{name}, message {seq}, {what}");
            // open (Vec)
            assert_eq!(
                receiver.open(aad, &bad).unwrap_err(),
                Error::Open,
                "{label}: open"
            );
            assert_eq!(receiver.sequence_number(), seq, "{label}: open moved seq");
            // open_into
            let mut out = vec![FILL; bad.len() + 8];
            assert_eq!(
                receiver.open_into(aad, &bad, &mut out).unwrap_err(),
                Error::Open,
                "{label}: open_into"
            );
            assert!(
                out.iter().all(|&b| b == FILL),
                "{label}: open_into wrote to out"
            );
            assert_eq!(
                receiver.sequence_number(),
                seq,
                "{label}: open_into moved seq"
            );
            // open_in_place_detached
            let (mut buffer, tag) = split::<A>(&bad);
            let before = buffer.clone();
            assert_eq!(
                receiver
                    .open_in_place_detached(aad, &mut buffer, &tag)
                    .unwrap_err(),
                Error::Open,
                "{label}: open_in_place_detached"
            );
            assert_eq!(
                buffer, before,
                "{label}: open_in_place_detached changed the buffer"
            );
            assert_eq!(
                receiver.sequence_number(),
                seq,
                "{label}: in place moved seq"
            );
        }
        // The genuine message still opens, by a different path each time (`open` on 23 and
        // 4097 bytes: both of its ways).
        match seq % 3 {
            0 => assert_eq!(&receiver.open(AAD, &ct).unwrap(), pt),
            1 => {
                let mut out = vec![FILL; pt.len()];
                assert_eq!(receiver.open_into(AAD, &ct, &mut out).unwrap(), pt.len());
                assert_eq!(&out, pt);
            }
            _ => {
                let (mut buffer, tag) = split::<A>(&ct);
                receiver
                    .open_in_place_detached(AAD, &mut buffer, &tag)
                    .unwrap();
                assert_eq!(&buffer, pt);
            }
        }
        assert_eq!(
            receiver.sequence_number(),
            seq + 1,
            "{name}: genuine open advances"
        );
    }
}

fn single_shot_paths<A: SealingAead>(name: &str) {
    type K = X25519;
    type H<A> = Hpke<K, HkdfSha256, A>;
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = K::generate(&mut rng).unwrap();
    let pt = b"a single-shot message";
    let (enc, ct) = H::<A>::seal_base(&mut rng, &pk, INFO, AAD, pt).unwrap();
    for (what, bad, aad) in tampered(&ct) {
        let label = format!("{name}, single-shot, {what}");
        assert_eq!(
            H::<A>::open_base(&enc, &sk, INFO, aad, &bad).unwrap_err(),
            Error::Open,
            "{label}: open_base"
        );
        let mut out = vec![FILL; bad.len() + 8];
        assert_eq!(
            H::<A>::open_base_into(&enc, &sk, INFO, aad, &bad, &mut out).unwrap_err(),
            Error::Open,
            "{label}: open_base_into"
        );
        assert!(
            out.iter().all(|&b| b == FILL),
            "{label}: open_base_into wrote to out"
        );
        let (mut buffer, tag) = split::<A>(&bad);
        let before = buffer.clone();
        assert_eq!(
            H::<A>::open_base_in_place_detached(&enc, &sk, INFO, aad, &mut buffer, &tag)
                .unwrap_err(),
            Error::Open,
            "{label}: open_base_in_place_detached"
        );
        assert_eq!(buffer, before, "{label}: in place changed the buffer");
    }
    // The genuine ciphertext opens on every path.
    assert_eq!(H::<A>::open_base(&enc, &sk, INFO, AAD, &ct).unwrap(), pt);
    let mut out = vec![FILL; pt.len()];
    H::<A>::open_base_into(&enc, &sk, INFO, AAD, &ct, &mut out).unwrap();
    assert_eq!(&out, pt);
    let (mut buffer, tag) = split::<A>(&ct);
    H::<A>::open_base_in_place_detached(&enc, &sk, INFO, AAD, &mut buffer, &tag).unwrap();
    assert_eq!(&buffer, pt);
}

#[test]
fn aes128_gcm() {
    context_paths::<Aes128Gcm>("AES-128-GCM");
    single_shot_paths::<Aes128Gcm>("AES-128-GCM");
}

#[test]
fn aes256_gcm() {
    context_paths::<Aes256Gcm>("AES-256-GCM");
    single_shot_paths::<Aes256Gcm>("AES-256-GCM");
}

#[test]
fn chacha20_poly1305() {
    context_paths::<ChaCha20Poly1305>("ChaCha20-Poly1305");
    single_shot_paths::<ChaCha20Poly1305>("ChaCha20-Poly1305");
}
