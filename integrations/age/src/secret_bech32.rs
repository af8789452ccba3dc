//! Bech32 (BIP173, without its length limit, as c2sp.org/age uses it) for secrets: identity
//! strings are encoded and decoded without a branch or a table index that depends on a
//! character or a value of the key. Character to value and value to character are computed
//! by comparing against all 32 characters of the alphabet; the checksum's generator terms are
//! selected by masks; the case is tracked by masks. Only the outcome (a valid string of the
//! right prefix and length, or not) is declassified, by [`outcome`].
//!
//! The human-readable prefix and the string's length are public: they are the same for every
//! key of a type.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR: [u32; 5] = [
    0x3b6a_57b2,
    0x2650_8e6d,
    0x1ea1_19fa,
    0x3d42_33dd,
    0x2a14_62b3,
];

/// An all-ones mask if `c`, else zero.
fn mask(c: Choice) -> u32 {
    0u32.wrapping_sub(u32::from(c.unwrap_u8()))
}

/// BIP173's `polymod` step with the value `v` (5 bits), its generator terms chosen by masks.
fn polymod_step(chk: u32, v: u32) -> u32 {
    let top = chk >> 25;
    let mut chk = ((chk & 0x1ff_ffff) << 5) ^ v;
    for (i, g) in GENERATOR.iter().enumerate() {
        chk ^= g & 0u32.wrapping_sub((top >> i) & 1);
    }
    chk
}

/// The checksum state after the prefix's expansion (public).
fn hrp_state(hrp_lower: &[u8]) -> u32 {
    let mut chk = 1;
    for &c in hrp_lower {
        chk = polymod_step(chk, u32::from(c >> 5));
    }
    chk = polymod_step(chk, 0);
    for &c in hrp_lower {
        chk = polymod_step(chk, u32::from(c & 31));
    }
    chk
}

/// The character of the 5-bit value `v`, lowercase, or uppercase where `upper` is set: the
/// alphabet is scanned whole.
fn to_char(v: u32, upper: bool) -> u8 {
    let mut c = 0u32;
    for (i, &ch) in CHARSET.iter().enumerate() {
        c |= mask(v.ct_eq(&(i as u32))) & u32::from(ch);
    }
    // Letters (above 0x60) lose bit 0x20 in upper case; digits keep it.
    let letter = 0u32.wrapping_sub((0x60u32.wrapping_sub(c) >> 31) & 1);
    let c = if upper { c ^ (letter & 0x20) } else { c };
    c as u8
}

/// Whether `c` is an ASCII upper-case letter (0x41..=0x5a) and whether a lower-case one
/// (0x61..=0x7a), without a branch.
fn letter_case(c: u8) -> (Choice, Choice) {
    let c = u32::from(c);
    let is_upper = Choice::from(
        (((c.wrapping_sub(0x41)) >> 31 ^ 1) & ((0x5au32.wrapping_sub(c)) >> 31 ^ 1)) as u8,
    );
    let is_lower = Choice::from(
        (((c.wrapping_sub(0x61)) >> 31 ^ 1) & ((0x7au32.wrapping_sub(c)) >> 31 ^ 1)) as u8,
    );
    (is_upper, is_lower)
}

/// The value of the character `c` and whether it is in the alphabet (either case): the
/// alphabet is scanned whole. Only a letter is folded to lower case; every other byte must be
/// the alphabet's own (BIP 173: 0x10-0x19 are not the digits, CR is not '-').
fn from_char(c: u8) -> (u32, Choice, Choice, Choice) {
    let (is_upper, is_lower) = letter_case(c);
    let lower = u32::from(c) | (mask(is_upper) & 0x20);
    let mut v = 0u32;
    let mut found = Choice::from(0);
    for (i, &ch) in CHARSET.iter().enumerate() {
        let hit = lower.ct_eq(&u32::from(ch));
        v |= mask(hit) & i as u32;
        found |= hit;
    }
    (v, found, is_upper, is_lower)
}

/// The number of 5-bit characters `n` bytes take.
const fn data_chars(n: usize) -> usize {
    (n * 8).div_ceil(5)
}

/// `data` as Bech32 with the prefix `hrp` (given in lower case), every character upper case
/// if `upper`. Wiped on drop.
pub(crate) fn encode(hrp: &str, data: &[u8], upper: bool) -> Zeroizing<String> {
    let hrp_lower = hrp.to_ascii_lowercase();
    let mut values = Zeroizing::new(Vec::with_capacity(data_chars(data.len()) + 6));
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            values.push((acc >> bits) & 31);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        values.push((acc << (5 - bits)) & 31);
    }
    let mut chk = hrp_state(hrp_lower.as_bytes());
    for &v in values.iter() {
        chk = polymod_step(chk, v);
    }
    for _ in 0..6 {
        chk = polymod_step(chk, 0);
    }
    chk ^= 1;
    for i in 0..6 {
        values.push((chk >> (5 * (5 - i))) & 31);
    }
    let prefix = if upper {
        hrp.to_ascii_uppercase()
    } else {
        hrp_lower
    };
    // Bytes first, so that the string's length never depends on a character (`String::push`
    // adds `len_utf8()` of each); every byte is below 0x80 by construction, which
    // `String::from_utf8` checks a word at a time.
    let mut out = Zeroizing::new(Vec::with_capacity(prefix.len() + 1 + values.len()));
    out.extend_from_slice(prefix.as_bytes());
    out.push(b'1');
    for &v in values.iter() {
        out.push(to_char(v, upper));
    }
    let text = String::from_utf8(core::mem::take(&mut *out)).expect("ASCII by construction");
    Zeroizing::new(text)
}

/// Declassifies whether a secret string decoded: the one bit a caller learns anyway from
/// whether the key parsed. The only such place in this crate; `ct/valgrind.supp` of
/// typed-hpke-age names it. The branch stands in this frame (each arm through `black_box`, so
/// the compiler keeps a jump rather than a conditional move that would carry the taint on);
/// what leaves is an ordinary `bool`.
#[inline(never)]
fn outcome(ok: Choice) -> bool {
    if core::hint::black_box(ok.unwrap_u8()) == 1 {
        core::hint::black_box(true)
    } else {
        core::hint::black_box(false)
    }
}

/// Decodes a Bech32 string of the prefix `hrp` (in either case; mixed case refused) into
/// exactly `n` bytes, wiped on drop. The length and the prefix are checked first (public); the
/// rest without a branch on the data.
pub(crate) fn decode(s: &str, hrp: &str, n: usize) -> Result<Zeroizing<Vec<u8>>, &'static str> {
    let bytes = s.as_bytes();
    let chars = data_chars(n);
    if bytes.len() != hrp.len() + 1 + chars + 6 {
        return Err("incorrect length");
    }
    let hrp_lower = hrp.to_ascii_lowercase();
    let (prefix, rest) = bytes.split_at(hrp.len());
    // The prefix and the separator: compared without a branch per character (they are public
    // for a valid key, but the string as a whole is the secret).
    let mut ok = Choice::from(1);
    let (mut any_upper, mut any_lower) = (Choice::from(0), Choice::from(0));
    for (&c, &h) in prefix.iter().zip(hrp_lower.as_bytes()) {
        // Only letters of the prefix (not its digits or '-') carry a case: a letter matches in
        // either case, anything else only as itself.
        let letter = Choice::from(u8::from(h.is_ascii_lowercase()));
        let as_upper = letter & c.ct_eq(&(h ^ 0x20));
        let as_lower = c.ct_eq(&h);
        ok &= as_upper | as_lower;
        any_upper |= as_upper;
        any_lower |= letter & as_lower;
    }
    ok &= rest[0].ct_eq(&b'1');
    let mut values = Zeroizing::new(Vec::with_capacity(chars + 6));
    for &c in &rest[1..] {
        let (v, found, upper, lower) = from_char(c);
        ok &= found;
        any_upper |= upper;
        any_lower |= lower;
        values.push(v);
    }
    ok &= !(any_upper & any_lower);
    let mut chk = hrp_state(hrp_lower.as_bytes());
    for &v in values.iter() {
        chk = polymod_step(chk, v);
    }
    ok &= chk.ct_eq(&1);
    // 5-bit groups to bytes; the padding bits must be zero.
    let mut out = Zeroizing::new(Vec::with_capacity(n));
    let (mut acc, mut bits) = (0u32, 0u32);
    for &v in &values[..chars] {
        acc = (acc << 5) | v;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
        acc &= (1 << bits) - 1;
    }
    ok &= acc.ct_eq(&0);
    if outcome(ok) {
        Ok(out)
    } else {
        Err("invalid Bech32 encoding")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the `bech32` crate, through age-core, decodes `s` (any prefix).
    fn reference_ok(s: &str) -> bool {
        age_core::primitives::bech32_decode(s, |_| (), |_| Ok(()), |_, _| Ok(())).is_ok()
    }

    fn reference_encode(hrp: &str, data: &[u8]) -> String {
        age_core::primitives::bech32_encode(bech32::Hrp::parse(hrp).unwrap(), data)
    }

    /// Against the `bech32` crate through age-core (the encoding age itself uses), on many
    /// lengths and values, both cases; and every single-character change is refused.
    #[test]
    fn agrees_with_the_bech32_crate() {
        let mut x = 0x1234_5678u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        };
        for n in [0, 1, 2, 5, 16, 31, 32, 33, 64, 65] {
            for _ in 0..20 {
                let data: Vec<u8> = (0..n).map(|_| next()).collect();
                let reference = reference_encode("age-secret-key-pq-", &data);
                let ours = encode("age-secret-key-pq-", &data, false);
                assert_eq!(*ours, reference);
                let upper = encode("age-secret-key-pq-", &data, true);
                assert_eq!(*upper, reference.to_uppercase());
                assert_eq!(
                    &decode(&ours, "age-secret-key-pq-", n).unwrap()[..],
                    &data[..]
                );
                assert_eq!(
                    &decode(&upper, "AGE-SECRET-KEY-PQ-", n).unwrap()[..],
                    &data[..]
                );
            }
        }
        let data = [7u8; 32];
        let good = reference_encode("age-secret-key-pq-", &data);
        for i in 0..good.len() {
            for c in [b'q', b'p', b'z', b'l', b'1', b'Q', b'!'] {
                let mut bad = good.clone().into_bytes();
                if bad[i] == c || bad[i].to_ascii_lowercase() == c {
                    continue;
                }
                bad[i] = c;
                let bad = String::from_utf8(bad).unwrap();
                let theirs = reference_ok(&bad);
                let ours = decode(&bad, "age-secret-key-pq-", 32).is_ok();
                // The reference also accepts a change in the prefix: that is another prefix.
                let theirs_same_prefix = theirs && bad.starts_with("age-secret-key-pq-1");
                assert_eq!(ours, theirs_same_prefix, "{bad}");
                assert!(!ours, "{bad}");
            }
        }
        // Mixed case, a wrong length, nonzero padding bits.
        let mixed = format!("{}{}", &good[..30].to_uppercase(), &good[30..]);
        assert!(decode(&mixed, "age-secret-key-pq-", 32).is_err());
        assert!(decode(&good[..good.len() - 1], "age-secret-key-pq-", 32).is_err());
        assert!(decode(&good, "age-secret-key-pq-", 31).is_err());
        // 32 bytes take 52 characters, 4 padding bits: a last data character with them set,
        // checksum recomputed, is refused.
        let fes: Vec<u8> = good.as_bytes()[19..19 + 52].to_vec();
        let mut values: Vec<u32> = fes
            .iter()
            .map(|c| CHARSET.iter().position(|x| x == c).unwrap() as u32)
            .collect();
        values[51] |= 1;
        let mut chk = hrp_state(b"age-secret-key-pq-");
        for &v in &values {
            chk = polymod_step(chk, v);
        }
        for _ in 0..6 {
            chk = polymod_step(chk, 0);
        }
        chk ^= 1;
        let mut s = String::from("age-secret-key-pq-1");
        for &v in &values {
            s.push(char::from(CHARSET[v as usize]));
        }
        for i in 0..6 {
            s.push(char::from(CHARSET[((chk >> (5 * (5 - i))) & 31) as usize]));
        }
        assert!(reference_ok(&s));
        assert!(decode(&s, "age-secret-key-pq-", 32).is_err());
    }

    /// BIP 173's characters exactly: at every kind of position (a letter and a '-' of the
    /// prefix, the separator, a data character that is a letter and one that is a digit, a
    /// checksum character), in both cases, every byte value other than the one there is
    /// refused, as the `bech32` crate refuses it. (A byte of 0x80 or above cannot stand alone
    /// in a `&str`; as part of a UTF-8 character it changes the length, refused first.) The
    /// decoder used to fold every byte with `| 0x20`, so 0x10-0x19 read as '0'-'9' and CR as
    /// '-': one key, many strings.
    #[test]
    fn exactly_bip173s_characters() {
        const HRP: &str = "age-secret-key-pq-";
        // Data whose encoding has digits and letters in its data part.
        let data: Vec<u8> = (0u8..32).map(|i| i.wrapping_mul(151) ^ 0x5a).collect();
        let lower = reference_encode(HRP, &data);
        let data_part = &lower[HRP.len() + 1..lower.len() - 6];
        assert!(data_part.bytes().any(|c| c.is_ascii_digit()));
        assert!(data_part.bytes().any(|c| c.is_ascii_lowercase()));
        for good in [lower.clone(), lower.to_uppercase()] {
            let hrp = &good[..HRP.len()];
            assert_eq!(&decode(&good, hrp, 32).unwrap()[..], &data[..]);
            let sep = HRP.len();
            let digit = sep + 1 + data_part.bytes().position(|c| c.is_ascii_digit()).unwrap();
            let letter = sep
                + 1
                + data_part
                    .bytes()
                    .position(|c| c.is_ascii_lowercase())
                    .unwrap();
            let positions = [
                ("prefix letter", 0),
                ("prefix '-'", 3),
                ("separator", sep),
                ("data letter", letter),
                ("data digit", digit),
                ("checksum", good.len() - 1),
            ];
            for (kind, i) in positions {
                for b in 0u8..0x80 {
                    if b == good.as_bytes()[i] {
                        continue;
                    }
                    let mut bad = good.clone().into_bytes();
                    bad[i] = b;
                    let bad = String::from_utf8(bad).unwrap();
                    assert!(
                        decode(&bad, hrp, 32).is_err(),
                        "{kind}: byte {b:#04x} accepted"
                    );
                    let theirs =
                        reference_ok(&bad) && bad.to_lowercase().starts_with(&lower[..=sep]);
                    assert!(
                        !theirs,
                        "{kind}: byte {b:#04x}: the bech32 crate accepts it"
                    );
                }
            }
        }
    }

    /// `values` (5-bit) under `hrp` with their checksum computed: any string, canonical or not.
    fn with_checksum(hrp: &str, values: &[u32]) -> String {
        let mut chk = hrp_state(hrp.as_bytes());
        for &v in values {
            chk = polymod_step(chk, v);
        }
        for _ in 0..6 {
            chk = polymod_step(chk, 0);
        }
        chk ^= 1;
        let mut s = format!("{hrp}1");
        for &v in values {
            s.push(CHARSET[v as usize] as char);
        }
        for i in 0..6 {
            s.push(CHARSET[((chk >> (5 * (5 - i))) & 31) as usize] as char);
        }
        s
    }

    /// Recipient strings (the public decoder, `encoding::bech32_decode`) are canonical too: a
    /// set padding bit or one extra character, checksum recomputed, is refused, as Go's age
    /// refuses it ("non-zero padding"). The `bech32` crate dropped the leftover bits, so one
    /// key had several strings.
    #[test]
    fn recipients_are_canonical() {
        let data = [7u8; 33];
        let good = reference_encode("age1tag", &data);
        assert_eq!(
            &crate::encoding::bech32_decode(&good, "age1tag", 33).unwrap()[..],
            &data
        );
        let values: Vec<u32> = good.as_bytes()["age1tag1".len()..good.len() - 6]
            .iter()
            .map(|c| CHARSET.iter().position(|x| x == c).unwrap() as u32)
            .collect();
        assert_eq!(values.len(), 53); // 264 bits in 265: one padding bit
        assert_eq!(with_checksum("age1tag", &values), good);
        let mut padded = values.clone();
        padded[52] |= 1;
        let mut longer = values.clone();
        longer.push(0);
        for bad in [
            with_checksum("age1tag", &padded),
            with_checksum("age1tag", &longer),
        ] {
            assert!(reference_ok(&bad), "the bech32 crate takes {bad}");
            assert!(
                crate::encoding::bech32_decode(&bad, "age1tag", 33).is_err(),
                "{bad}"
            );
            assert!(
                bad.parse::<crate::tag::P256TagRecipient>().is_err(),
                "{bad}"
            );
        }
    }
}
