//! The context targets: `context` (a sender and a receiver in lockstep), `key_schedule` and
//! `export`.

use typed_hpke::aead::{Aead, Aes128Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::kdf::{HkdfSha256, Kdf, Shake128, TurboShake256};
use typed_hpke::kem::Kem;
use typed_hpke::{Error, Hpke, Psk};

use crate::{Input, Zeros, keys};

/// `context`: a sender and a receiver driven in lockstep. They must always agree; a tampered
/// message must fail without moving either side.
pub fn context<K: Kem, F: Kdf, A: SealingAead>(data: &[u8]) {
    let k = keys::<K>();
    let mut input = Input(data);
    let info = input.slice();
    let mut rng = typed_hpke::rand_core::UnwrapErr(Zeros);
    let Ok((enc, mut sender)) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &k.pk_r, info) else {
        return;
    };
    let mut receiver =
        Hpke::<K, F, A>::setup_receiver_base(&enc, &k.sk_r, info).expect("receiver of a good enc");
    let _ = format!("{sender:?}{receiver:?}");
    while !input.0.is_empty() {
        let op = input.byte();
        match op % 6 {
            0 | 1 => {
                let aad = input.slice();
                let pt = input.slice();
                let ct = sender.seal(aad, pt).expect("seal");
                if op % 6 == 1 && !ct.is_empty() {
                    // Tampered: flip one bit chosen by the input; it must not open, and the
                    // receiver must still open the genuine message next.
                    let mut bad = ct.clone();
                    let i = usize::from(input.u16()) % (bad.len() * 8);
                    bad[i / 8] ^= 1 << (i % 8);
                    assert_eq!(receiver.open(aad, &bad), Err(Error::Open));
                }
                assert_eq!(receiver.open(aad, &ct).expect("lockstep open"), pt);
            }
            2 => {
                let ctx = input.slice();
                let len = usize::from(input.u16());
                let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
                let (ra, rb) = (sender.export(ctx, &mut a), receiver.export(ctx, &mut b));
                assert_eq!(ra, rb);
                assert_eq!(a, b);
            }
            3 => {
                // Detached tags, in place.
                let aad = input.slice();
                let pt = input.slice();
                let mut buf = pt.to_vec();
                let tag = sender
                    .seal_in_place_detached(aad, &mut buf)
                    .expect("seal detached");
                receiver
                    .open_in_place_detached(aad, &mut buf, &tag)
                    .expect("open detached");
                assert_eq!(buf, pt);
            }
            4 => {
                // The message limit (RFC 9180 §5.2): at the last sequence number both sides
                // refuse, and stay there.
                let last = u64::MAX - u64::from(input.byte() % 2);
                sender.set_sequence_number_for_testing_only(last);
                receiver.set_sequence_number_for_testing_only(last);
                let ct = sender.seal(b"", b"limit");
                if last == u64::MAX {
                    assert_eq!(ct, Err(Error::MessageLimitReached));
                    // A ciphertext long enough to hold a tag (a shorter one is `Open` first).
                    let any = [0u8; 32];
                    assert_eq!(receiver.open(b"", &any), Err(Error::MessageLimitReached));
                } else {
                    let ct = ct.expect("the last message");
                    assert_eq!(receiver.open(b"", &ct).expect("the last message"), b"limit");
                    assert_eq!(sender.seal(b"", b""), Err(Error::MessageLimitReached));
                }
                return;
            }
            _ => {
                // Into caller buffers of arbitrary size.
                let pt = input.slice();
                let mut out = vec![0u8; usize::from(input.byte()) * 2];
                if let Ok(n) = sender.seal_into(b"", pt, &mut out) {
                    let mut back = vec![0u8; n];
                    let m = receiver
                        .open_into(b"", &out[..n], &mut back)
                        .expect("open_into");
                    assert_eq!(&back[..m], pt);
                }
            }
        }
        assert_eq!(sender.sequence_number(), receiver.sequence_number());
    }
}

/// `key_schedule`: arbitrary mode byte, psk, psk_id, info and shared secret, for a two-stage
/// and a one-stage KDF. Invalid combinations are errors, never panics.
pub fn key_schedule(data: &[u8]) {
    type X = typed_hpke::kem::DhKemX25519HkdfSha256;
    let mut input = Input(data);
    let mode = input.byte();
    let use_psk = input.byte() & 1 == 1;
    let psk = input.slice();
    let psk_id = input.slice();
    let ss = input.slice();
    let info = input.rest();
    let psk = if use_psk {
        Psk::new_allowing_short_psk(psk, psk_id).ok()
    } else {
        None
    };
    let _ = Hpke::<X, HkdfSha256, ChaCha20Poly1305>::key_schedule_for_testing_only(
        mode,
        ss,
        info,
        psk.as_ref(),
    );
    let _ =
        Hpke::<X, Shake128, Aes128Gcm>::key_schedule_for_testing_only(mode, ss, info, psk.as_ref());
    let _ = Hpke::<X, TurboShake256, ExportOnly>::key_schedule_for_testing_only(
        mode,
        ss,
        info,
        psk.as_ref(),
    );
}

/// `export`: arbitrary exporter contexts and lengths from both sides; too long is an error on
/// both, never a truncation or a panic.
pub fn export<F: Kdf, A: Aead>(data: &[u8]) {
    type X = typed_hpke::kem::DhKemX25519HkdfSha256;
    let k = keys::<X>();
    let mut input = Input(data);
    let mut rng = typed_hpke::rand_core::UnwrapErr(Zeros);
    let (enc, sender) =
        Hpke::<X, F, A>::setup_sender_base(&mut rng, &k.pk_r, b"fuzz").expect("setup");
    let receiver = Hpke::<X, F, A>::setup_receiver_base(&enc, &k.sk_r, b"fuzz").expect("setup");
    while !input.0.is_empty() {
        let ctx = input.slice();
        // Up to 2^17: past every KDF's limit (255 * Nh for HKDF, 65535 for the XOFs).
        let len = usize::from(input.u16()) << (input.byte() & 1);
        let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
        let (ra, rb) = (sender.export(ctx, &mut a), receiver.export(ctx, &mut b));
        assert_eq!(ra, rb);
        match ra {
            Ok(()) => assert_eq!(a, b),
            Err(e) => {
                assert_eq!(e, Error::ExportTooLong);
                assert!(len > F::MAX_EXPORT_LEN);
                assert!(a.iter().all(|&x| x == 0), "a refused export writes nothing");
            }
        }
    }
}
