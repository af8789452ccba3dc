//! The `open` target: single-shot open in every mode, two- and one-stage KDFs, both AEAD
//! families.

use typed_hpke::aead::{Aes128Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{HkdfSha256, Kdf, Shake128, Shake256, TurboShake256};
use typed_hpke::kem::{AuthKem, Kem};
use typed_hpke::{EncappedKey, Hpke, Psk};

use crate::{Input, PSK, keys, nenc};

/// An open's input, split: selector byte, enc, aad, info, ciphertext.
type OpenParts<'a, K> = (u8, EncappedKey<K>, &'a [u8], &'a [u8], &'a [u8]);

/// Splits the input for an open.
fn open_parts<K: Kem>(data: &[u8]) -> Option<OpenParts<'_, K>> {
    let mut input = Input(data);
    let selector = input.byte();
    let enc = EncappedKey::<K>::from_bytes(input.take(nenc::<K>())).ok()?;
    let aad = input.slice();
    let info = input.slice();
    Some((selector, enc, aad, info, input.rest()))
}

fn open_with<K: Kem, F: Kdf, A: SealingAead>(
    mode: u8,
    enc: &EncappedKey<K>,
    aad: &[u8],
    info: &[u8],
    ct: &[u8],
) {
    let sk = &keys::<K>().sk_r;
    let psk = Psk::new(PSK, b"fuzz").expect("psk");
    let r = match mode % 2 {
        0 => Hpke::<K, F, A>::open_base(enc, sk, info, aad, ct),
        _ => Hpke::<K, F, A>::open_psk(enc, sk, info, aad, ct, &psk),
    };
    assert!(r.is_err() || ct.len() >= 16);
}

fn open_auth_with<K: AuthKem, F: Kdf, A: SealingAead>(
    mode: u8,
    enc: &EncappedKey<K>,
    aad: &[u8],
    info: &[u8],
    ct: &[u8],
) {
    let k = keys::<K>();
    let psk = Psk::new(PSK, b"fuzz").expect("psk");
    let _ = match mode % 2 {
        0 => Hpke::<K, F, A>::open_auth(enc, &k.sk_r, info, aad, ct, &k.pk_s),
        _ => Hpke::<K, F, A>::open_auth_psk(enc, &k.sk_r, info, aad, ct, &psk, &k.pk_s),
    };
}

/// `open` for the PQ KEMs and hybrids: Base and PSK, a two-stage or a one-stage KDF, two AEADs.
pub fn open<K: Kem>(data: &[u8]) {
    let Some((sel, enc, aad, info, ct)) = open_parts::<K>(data) else {
        return;
    };
    match (sel >> 1) % 4 {
        0 => open_with::<K, HkdfSha256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        1 => open_with::<K, Shake256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        2 => open_with::<K, HkdfSha256, Aes128Gcm>(sel, &enc, aad, info, ct),
        _ => open_with::<K, TurboShake256, Aes128Gcm>(sel, &enc, aad, info, ct),
    }
}

/// `open` for the DH-KEMs: all four modes.
pub fn open_all_modes<K: AuthKem>(data: &[u8]) {
    let Some((sel, enc, aad, info, ct)) = open_parts::<K>(data) else {
        return;
    };
    if sel & 0x80 == 0 {
        return open::<K>(data);
    }
    match (sel >> 1) % 2 {
        0 => open_auth_with::<K, HkdfSha256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        _ => open_auth_with::<K, Shake128, Aes128Gcm>(sel, &enc, aad, info, ct),
    }
}
