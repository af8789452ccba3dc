//! ChaCha20-Poly1305 (RFC 9180 §7.3, `aead_id` 0x0003).
//!
//! The pure-Rust cipher is two implementations behind one key, chosen per message by its public
//! length ([`Cipher`]): libcrux's (HACL*-derived, verified) for short messages, RustCrypto's
//! `chacha20poly1305` for the rest. Both are RFC 8439 §2.8: the output is the same bytes, and
//! both check the tag before they decrypt anything.

use ::chacha20poly1305::ChaCha20Poly1305 as RustCrypto;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use hybrid_array::typenum::{U12, U16, U32};
use zeroize::Zeroize;

super::rustcrypto_aead!(
    /// ChaCha20-Poly1305, `aead_id` 0x0003: Nk = 32, Nn = 12, Nt = 16.
    ChaCha20Poly1305, self::Cipher, CHACHA20_POLY1305, 0x0003, U32, U12, U16,
    // RFC 8439 §2.8: the 32-bit block counter starts at 1 for the plaintext, so at most
    // 2^32 - 1 blocks of 64 bytes; the associated data's length is a 64-bit count.
    max_plaintext: (1 << 38) - 64, max_aad: u64::MAX
);

/// Up to this many bytes of message, and of associated data, a message is sealed and opened by
/// libcrux's ChaCha20-Poly1305; longer ones by RustCrypto's.
///
/// Why two: RustCrypto's `poly1305` 0.9 chooses its AVX2 code at run time, and built that way
/// (as every user builds it, without `-C target-feature=+avx2`) its AVX2 helpers call their
/// intrinsics out of line and it derives its powers of the key for every message: 932 ns to
/// authenticate 64 bytes, against 32 ns for libcrux's scalar Poly1305 and 95 ns for its own
/// AVX2 code compiled with the feature on (a scratch loop on one core, `taskset -c 1`). Its
/// ChaCha20 carries a smaller share of the same cost. libcrux's ChaCha20 is scalar, so
/// RustCrypto's pulls ahead as messages grow: whole AEAD, sealing with 32 bytes of associated
/// data, RustCrypto / libcrux (libcrux with its copy, below) took 1,294 / 202 ns at 64 B,
/// 1,939 / 1,569 at 1 KiB, 2,354 / 2,297 at 1.5 KiB and 2,726 / 3,000 at 2 KiB. The switch
/// sits at the crossing. `measure/benches/primitives.rs` times both bare in its candidate rows.
pub(crate) const SHORT_MAX: usize = 1536;

/// The default backend's ChaCha20-Poly1305: libcrux's for messages (and associated data) of at
/// most [`SHORT_MAX`] bytes, RustCrypto's for longer ones. The choice depends on lengths only,
/// which are public.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // holds the key: no `Debug` on purpose
pub struct Cipher {
    /// The key as libcrux takes it (it keeps no state between messages). Wiped on drop.
    key: [u8; 32],
    /// RustCrypto's cipher, which wipes its own copy of the key on drop.
    rustcrypto: RustCrypto,
}

impl Drop for Cipher {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Cipher {}

impl KeySizeUser for Cipher {
    type KeySize = U32;
}

impl KeyInit for Cipher {
    fn new(key: &Key<Self>) -> Self {
        Self {
            key: key.0,
            rustcrypto: RustCrypto::new(key),
        }
    }
}

impl AeadCore for Cipher {
    type NonceSize = U12;
    type TagSize = U16;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

/// Whether libcrux's cipher takes this message. Its functions also refuse lengths over
/// `u32::MAX`; none reaches them.
fn short(len: usize, aad: &[u8]) -> bool {
    len <= SHORT_MAX && aad.len() <= SHORT_MAX
}

impl AeadInOut for Cipher {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        aad: &[u8],
        mut buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<Tag<Self>> {
        let len = buffer.len();
        if !short(len, aad) {
            return self.rustcrypto.encrypt_inout_detached(nonce, aad, buffer);
        }
        // libcrux reads the plaintext from one slice and writes the ciphertext to another, and
        // the input and output here may be one buffer: it encrypts into a scratch buffer, and
        // the ciphertext is copied out. The scratch holds ciphertext only, which is public.
        let mut scratch = [0u8; SHORT_MAX];
        let ciphertext = &mut scratch[..len];
        let mut tag = Tag::<Self>::default();
        libcrux_chacha20poly1305::encrypt_detached(
            &self.key,
            buffer.get_in(),
            ciphertext,
            &mut tag.0,
            aad,
            &nonce.0,
        )
        .map_err(|_| aead::Error)?;
        buffer.get_out().copy_from_slice(ciphertext);
        Ok(tag)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        aad: &[u8],
        mut buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> aead::Result<()> {
        let len = buffer.len();
        if !short(len, aad) {
            return self
                .rustcrypto
                .decrypt_inout_detached(nonce, aad, buffer, tag);
        }
        // The ciphertext (public) is copied aside and decrypted into the output, which libcrux
        // writes only once the tag has verified: on failure the output is as it was.
        let mut scratch = [0u8; SHORT_MAX];
        let ciphertext = &mut scratch[..len];
        ciphertext.copy_from_slice(buffer.get_in());
        libcrux_chacha20poly1305::decrypt_detached(
            &self.key,
            buffer.get_out(),
            ciphertext,
            &tag.0,
            aad,
            &nonce.0,
        )
        .map(|_| ())
        .map_err(|_| aead::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::{Cipher, RustCrypto, SHORT_MAX};
    use aead::{AeadInOut, KeyInit};
    use alloc::{vec, vec::Vec};

    /// Both sides of the switch produce RFC 8439's ChaCha20-Poly1305: every length around it,
    /// with associated data on either side of it, seals to RustCrypto's bytes and opens back,
    /// in place and out of place; a flipped tag bit opens nothing and leaves the output as it
    /// was.
    #[test]
    fn both_sides_of_the_switch_agree() {
        let key = aead::Key::<Cipher>::from([0x42; 32]);
        let nonce = aead::Nonce::<Cipher>::from([0x24; 12]);
        let ours = Cipher::new(&key);
        let theirs = RustCrypto::new(&key);
        for aad_len in [0, 13, SHORT_MAX, SHORT_MAX + 1] {
            let aad: Vec<u8> = (0..aad_len).map(|i| (i * 7) as u8).collect();
            for len in [
                0,
                1,
                63,
                64,
                65,
                SHORT_MAX - 1,
                SHORT_MAX,
                SHORT_MAX + 1,
                4096,
            ] {
                let msg: Vec<u8> = (0..len).map(|i| (i * 13 + 5) as u8).collect();
                let mut expected = msg.clone();
                let expected_tag = theirs
                    .encrypt_inout_detached(&nonce, &aad, expected.as_mut_slice().into())
                    .unwrap();

                let mut in_place = msg.clone();
                let tag = ours
                    .encrypt_inout_detached(&nonce, &aad, in_place.as_mut_slice().into())
                    .unwrap();
                assert_eq!(
                    (&in_place, &tag),
                    (&expected, &expected_tag),
                    "{len} {aad_len}"
                );
                let mut out = vec![0u8; len];
                let buf = aead::inout::InOutBuf::new(&msg, &mut out).unwrap();
                assert_eq!(ours.encrypt_inout_detached(&nonce, &aad, buf).unwrap(), tag);
                assert_eq!(out, expected);

                let mut opened = vec![0u8; len];
                let buf = aead::inout::InOutBuf::new(&expected, &mut opened).unwrap();
                ours.decrypt_inout_detached(&nonce, &aad, buf, &tag)
                    .unwrap();
                assert_eq!(opened, msg);
                ours.decrypt_inout_detached(&nonce, &aad, in_place.as_mut_slice().into(), &tag)
                    .unwrap();
                assert_eq!(in_place, msg);

                let mut bad = tag;
                bad[len % 16] ^= 1;
                let mut untouched = vec![0xee; len];
                let buf = aead::inout::InOutBuf::new(&expected, &mut untouched).unwrap();
                assert!(
                    ours.decrypt_inout_detached(&nonce, &aad, buf, &bad)
                        .is_err()
                );
                assert!(untouched.iter().all(|&b| b == 0xee));
                let mut sealed = expected.clone();
                assert!(
                    ours.decrypt_inout_detached(&nonce, &aad, sealed.as_mut_slice().into(), &bad)
                        .is_err()
                );
                assert_eq!(sealed, expected);
            }
        }
    }
}
