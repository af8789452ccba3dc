//! `typed_hpke_age::decryptor`: the header read under Go's age's limits before the `age` crate
//! parses it, each limit met exactly (the `age` crate then parses the header and finds no
//! stanza for the identity) and exceeded by one (refused before any parse).

use age::DecryptError;
use typed_hpke_age::{MAX_HEADER_LEN, MAX_HEADER_STANZAS, decryptor, pq};

const INTRO: &str = "age-encryption.org/v1\n";
const MAC: &str = "--- AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n";

/// What opening `file` with a fresh identity gives.
fn open(file: &[u8]) -> Result<(), DecryptError> {
    let identity = pq::Identity::generate();
    let decryptor = decryptor(file)?;
    decryptor
        .decrypt(std::iter::once(&identity as &dyn age::Identity))
        .map(|_| ())
}

/// A header of `n` stanzas of an unknown type with empty bodies, then the payload's nonce.
fn tiny_stanzas(n: usize) -> Vec<u8> {
    let mut f = String::from(INTRO);
    for _ in 0..n {
        f.push_str("-> filler\n\n");
    }
    f.push_str(MAC);
    let mut f = f.into_bytes();
    f.extend_from_slice(&[0; 16]);
    f
}

/// A header of exactly `len` bytes, if one can be made: one stanza of an unknown type (its
/// name 1 to 4 letters long, to reach any length) whose body is full 64-column lines and a
/// shorter last line of 'A's (canonical base64: its length mod 4 is not 1).
fn header_of_len(len: usize) -> Option<Vec<u8>> {
    (1..=4).find_map(|name_len| {
        let stanza = format!("-> {}\n", "x".repeat(name_len));
        let body = len - (INTRO.len() + stanza.len() + MAC.len());
        let full = (body - 1) / 65;
        let last = body - 65 * full; // 1..=65 bytes, its newline included
        if last == 65 || (last - 1) % 4 == 1 {
            return None;
        }
        let mut f = String::from(INTRO);
        f.push_str(&stanza);
        for _ in 0..full {
            f.push_str(&"A".repeat(64));
            f.push('\n');
        }
        f.push_str(&"A".repeat(last - 1));
        f.push('\n');
        f.push_str(MAC);
        assert_eq!(f.len(), len);
        let mut f = f.into_bytes();
        f.extend_from_slice(&[0; 16]);
        Some(f)
    })
}

#[test]
fn stanza_count_limit() {
    assert!(matches!(
        open(&tiny_stanzas(MAX_HEADER_STANZAS)),
        Err(DecryptError::NoMatchingKeys)
    ));
    assert!(matches!(
        open(&tiny_stanzas(MAX_HEADER_STANZAS + 1)),
        Err(DecryptError::InvalidHeader)
    ));
    // The refusal is the limit's: the `age` crate alone reads that header.
    assert!(matches!(
        through_age(&tiny_stanzas(MAX_HEADER_STANZAS + 1)),
        Err(DecryptError::NoMatchingKeys)
    ));
}

/// What the `age` crate alone (`new_buffered`) makes of `file`.
fn through_age(file: &[u8]) -> Result<(), DecryptError> {
    let identity = pq::Identity::generate();
    age::Decryptor::new_buffered(file)?
        .decrypt(std::iter::once(&identity as &dyn age::Identity))
        .map(|_| ())
}

#[test]
fn header_size_limit() {
    // A header of exactly the limit: read, and parsed by the `age` crate.
    let file = header_of_len(MAX_HEADER_LEN).expect("a header of exactly the limit");
    assert!(matches!(open(&file), Err(DecryptError::NoMatchingKeys)));
    // One line more than the limit allows: refused before the `age` crate parses anything.
    let mut over = String::from(INTRO);
    over.push_str("-> filler\n");
    while over.len() <= MAX_HEADER_LEN {
        over.push_str(&"A".repeat(64));
        over.push('\n');
    }
    over.push('\n');
    over.push_str(MAC);
    assert!(matches!(
        open(over.as_bytes()),
        Err(DecryptError::InvalidHeader)
    ));
}

/// A real file through `decryptor`, armored and not, and the payload after the header read in
/// full: the header's reader hands over to the rest of the input.
#[test]
fn files_open_through_it() {
    use std::io::{Read, Write};
    let identity = pq::Identity::generate();
    let recipient = identity.to_public();
    let pt: Vec<u8> = (0..200_000u32).map(|i| (i * 31) as u8).collect();
    for armor in [false, true] {
        let encryptor = age::Encryptor::with_recipients(std::iter::once(&recipient as _)).unwrap();
        let mut file = vec![];
        let format = if armor {
            age::armor::Format::AsciiArmor
        } else {
            age::armor::Format::Binary
        };
        let mut w = encryptor
            .wrap_output(age::armor::ArmoredWriter::wrap_output(&mut file, format).unwrap())
            .unwrap();
        w.write_all(&pt).unwrap();
        w.finish().unwrap().finish().unwrap();
        let d = decryptor(age::armor::ArmoredReader::new(&file[..])).unwrap();
        let mut out = vec![];
        d.decrypt(std::iter::once(&identity as &dyn age::Identity))
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, pt, "armor {armor}");
    }
}
