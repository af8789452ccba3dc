//! The encodings age prints: canonical unpadded base64 (c2sp.org/age, "Conventions") and
//! Bech32 without BIP173's length limit, both bounded before they decode.

use age_core::secrecy::SecretString;
use base64::Engine as _;
use base64::prelude::BASE64_STANDARD_NO_PAD;
use zeroize::Zeroizing;

/// The length of the unpadded base64 of `n` bytes.
pub(crate) const fn base64_len(n: usize) -> usize {
    (n * 4).div_ceil(3)
}

/// A stanza argument that must be the canonical unpadded base64 of exactly `n` bytes: the
/// length is checked before anything is decoded, and the decoder refuses padding and set
/// trailing bits (RFC 4648 §3.5), so exactly one string is accepted for each value.
pub(crate) fn base64_exact(arg: &str, n: usize) -> Option<Vec<u8>> {
    if arg.len() != base64_len(n) {
        return None;
    }
    let bytes = BASE64_STANDARD_NO_PAD.decode(arg).ok()?;
    (bytes.len() == n).then_some(bytes)
}

pub(crate) fn base64(bytes: &[u8]) -> String {
    BASE64_STANDARD_NO_PAD.encode(bytes)
}

/// The longest Bech32 string parsed: the `age1tagpq` recipient (1,249 bytes of data, 2,015
/// characters with its prefix and checksum) with room to spare. Longer strings are refused
/// before the checksum is computed.
pub(crate) const MAX_BECH32_LEN: usize = 2_100;

/// Decodes a Bech32 string whose prefix is `hrp` (in either case, as Bech32 allows; mixed
/// case is refused) into exactly `n` bytes, wiped on drop.
pub(crate) fn bech32_decode(
    s: &str,
    hrp: &str,
    n: usize,
) -> Result<Zeroizing<Vec<u8>>, &'static str> {
    if s.len() > MAX_BECH32_LEN {
        return Err("too long");
    }
    let expected = bech32::Hrp::parse(hrp).map_err(|_| "invalid prefix")?;
    age_core::primitives::bech32_decode(
        s,
        |_| "invalid Bech32 encoding",
        |found| (found == expected).then_some(()).ok_or("incorrect prefix"),
        |_, bytes| {
            let data = Zeroizing::new(bytes.collect::<Vec<u8>>());
            if data.len() == n {
                Ok(data)
            } else {
                Err("incorrect length")
            }
        },
    )
    .and_then(|data| {
        // One string per value (BIP 173: at most 4 padding bits, all zero; no extra
        // character). The `bech32` crate drops leftover bits unchecked, so the value is
        // encoded again and must be the string given, up to its (single) case.
        if bech32_public(hrp, &data).eq_ignore_ascii_case(s) {
            Ok(data)
        } else {
            Err("non-canonical Bech32 encoding")
        }
    })
}

/// The lowercase Bech32 of a public value.
pub(crate) fn bech32_public(hrp: &str, data: &[u8]) -> String {
    age_core::primitives::bech32_encode(bech32::Hrp::parse_unchecked(hrp), data)
}

/// The uppercase Bech32 of a secret, the form age prints identities in, made without a
/// branch or an index on the secret (`secret_bech32`).
pub(crate) fn bech32_secret(hrp: &str, data: &[u8]) -> SecretString {
    let s = crate::secret_bech32::encode(hrp, data, true);
    SecretString::from(s.as_str())
}

/// A secret of exactly `n` bytes from its Bech32 (either case), decoded without a branch or an
/// index on the secret (`secret_bech32`). Wiped on drop.
pub(crate) fn bech32_decode_secret(
    s: &str,
    hrp: &str,
    n: usize,
) -> Result<Zeroizing<Vec<u8>>, &'static str> {
    crate::secret_bech32::decode(s, hrp, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_canonical_and_exact() {
        assert_eq!(base64_len(1120), 1494);
        assert_eq!(base64_len(65), 87);
        assert_eq!(base64_len(4), 6);
        // "AAE" is the canonical encoding of [0, 1]; "AAF" sets a trailing bit.
        assert_eq!(base64_exact("AAE", 2), Some(vec![0, 1]));
        assert_eq!(base64_exact("AAF", 2), None);
        assert_eq!(base64_exact("AAE=", 2), None);
        assert_eq!(base64_exact("AAEA", 2), None);
        assert_eq!(base64_exact("AA E", 2), None);
    }

    #[test]
    fn bech32_refuses_what_it_must() {
        let s = bech32_public("age1tag", &[7; 33]);
        assert_eq!(&bech32_decode(&s, "age1tag", 33).unwrap()[..], &[7; 33]);
        assert_eq!(
            bech32_decode(&s, "age1tag", 32).unwrap_err(),
            "incorrect length"
        );
        assert_eq!(
            bech32_decode(&s, "age1tagpq", 33).unwrap_err(),
            "incorrect prefix"
        );
        let upper = s.to_uppercase();
        assert!(bech32_decode(&upper, "age1tag", 33).is_ok());
        let mixed = format!("{}{}", &upper[..10], &s[10..]);
        assert!(bech32_decode(&mixed, "age1tag", 33).is_err());
        let long = bech32_public("age1tag", &[7; 1400]);
        assert!(long.len() > MAX_BECH32_LEN);
        assert_eq!(
            bech32_decode(&long, "age1tag", 1400).unwrap_err(),
            "too long"
        );
        // At the limit and just over it: the length alone decides "too long".
        let at = format!("age1tag1{}", "q".repeat(MAX_BECH32_LEN - 8));
        assert_eq!(at.len(), MAX_BECH32_LEN);
        assert_eq!(
            bech32_decode(&at, "age1tag", 1300).unwrap_err(),
            "invalid Bech32 encoding"
        );
        let over = format!("{at}q");
        assert_eq!(
            bech32_decode(&over, "age1tag", 1300).unwrap_err(),
            "too long"
        );
    }
}
