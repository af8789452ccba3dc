//! What every layer shares and no layer owns: the two `suite_id` strings of RFC 9180 and hex for
//! `Debug` output. This module imports nothing from the crate, so the primitives, the key
//! schedule, the contexts and the runtime API can all use it without naming each other.

use core::fmt;

/// `suite_id = concat("KEM", I2OSP(kem_id, 2))` (RFC 9180 §4.1), the KEM's own labeled calls.
pub(crate) const fn kem_suite_id(kem_id: u16) -> [u8; 5] {
    let k = kem_id.to_be_bytes();
    [b'K', b'E', b'M', k[0], k[1]]
}

/// `suite_id = concat("HPKE", I2OSP(kem_id, 2), I2OSP(kdf_id, 2), I2OSP(aead_id, 2))`
/// (RFC 9180 §5.1), the key schedule's and the contexts' labeled calls.
pub(crate) const fn hpke_suite_id(kem_id: u16, kdf_id: u16, aead_id: u16) -> [u8; 10] {
    let k = kem_id.to_be_bytes();
    let f = kdf_id.to_be_bytes();
    let a = aead_id.to_be_bytes();
    [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
}

/// Lowercase hex for `Debug` output.
pub(crate) struct Hex<'a>(pub(crate) &'a [u8]);

impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 9180 §4.1 and §5.1 spell the strings out; A.1 (DHKEM(X25519, HKDF-SHA256),
    /// HKDF-SHA256, AES-128-GCM) uses ids 0x0020, 0x0001, 0x0001.
    #[test]
    fn suite_ids_are_the_rfc_strings() {
        assert_eq!(&kem_suite_id(0x0020), b"KEM\x00\x20");
        assert_eq!(
            &hpke_suite_id(0x0020, 0x0001, 0x0001),
            b"HPKE\x00\x20\x00\x01\x00\x01"
        );
        assert_eq!(
            &hpke_suite_id(0x647a, 0x0013, 0xffff),
            b"HPKE\x64\x7a\x00\x13\xff\xff"
        );
    }
}
