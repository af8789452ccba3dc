//! Opening a file with its header read in time linear in its size, under Go's age's limits.
//!
//! The `age` crate bounds neither the header's size nor its stanza count, and parses it in time
//! that grows faster than its size: `age::Decryptor::new` parses it again after every byte it
//! reads, `age::Decryptor::new_buffered` after every line (README, "Opening a file"). A file
//! from a stranger can so cost minutes before any identity runs. [`decryptor`] reads the header
//! itself, line by line, refusing one over [`MAX_HEADER_LEN`] bytes or [`MAX_HEADER_STANZAS`]
//! stanzas (Go's age v1.3's limits), and hands the `age` crate a reader that gives it the whole
//! header in one call, so the `age` crate parses it once.

use std::io::{self, BufRead, Cursor, Read};

use age::DecryptError;

/// The most bytes of a header [`decryptor`] reads, its last line included: 2 MiB, Go's age's
/// limit.
pub const MAX_HEADER_LEN: usize = 2 << 20;

/// The most recipient stanzas [`decryptor`] reads in one header: 1,024, Go's age's limit.
pub const MAX_HEADER_STANZAS: usize = 1024;

/// An age file opened for decryption, its header read from `input` in time linear in its size
/// and refused ([`DecryptError::InvalidHeader`]) past [`MAX_HEADER_LEN`] bytes or
/// [`MAX_HEADER_STANZAS`] stanzas before it is parsed. Then as
/// [`age::Decryptor::new_buffered`]. For armored files, pass an
/// `age::armor::ArmoredReader` (the `age` crate's `armor` feature) over a `BufRead`.
///
/// ```
/// use std::io::{Read, Write};
/// use typed_hpke_age::pq;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let identity = pq::Identity::generate();
/// # let recipient = identity.to_public();
/// # let encryptor = age::Encryptor::with_recipients(std::iter::once(&recipient as _))?;
/// # let mut file = vec![];
/// # let mut writer = encryptor.wrap_output(&mut file)?;
/// # writer.write_all(b"hello")?;
/// # writer.finish()?;
/// let decryptor = typed_hpke_age::decryptor(&file[..])?;
/// let mut reader = decryptor.decrypt(std::iter::once(&identity as _))?;
/// let mut out = vec![];
/// reader.read_to_end(&mut out)?;
/// assert_eq!(out, b"hello");
/// # Ok(())
/// # }
/// ```
///
/// # Errors
/// [`DecryptError::InvalidHeader`] past a limit; otherwise as
/// [`age::Decryptor::new_buffered`].
pub fn decryptor<R: BufRead>(mut input: R) -> Result<age::Decryptor<HeaderFirst<R>>, DecryptError> {
    let mut header = Vec::new();
    let mut stanzas = 0usize;
    loop {
        let start = header.len();
        // One line, and never more than one byte past the limit.
        let budget = (MAX_HEADER_LEN + 1 - start) as u64;
        let n = (&mut input).take(budget).read_until(b'\n', &mut header)?;
        if header.len() > MAX_HEADER_LEN {
            return Err(DecryptError::InvalidHeader);
        }
        let line = &header[start..];
        if line.starts_with(b"-> ") {
            stanzas += 1;
            if stanzas > MAX_HEADER_STANZAS {
                return Err(DecryptError::InvalidHeader);
            }
        }
        // The MAC line ends the header (base64 has no '-'); the end of the input or of a
        // line ends what there is to read, and the `age` crate says what is wrong with it.
        if n == 0 || line.starts_with(b"---") || !line.ends_with(b"\n") {
            break;
        }
    }
    age::Decryptor::new_buffered(HeaderFirst {
        header: Cursor::new(header),
        rest: input,
    })
}

/// The reader [`decryptor`] gives the `age` crate: the header it read, then the rest of the
/// input. Its `read_until` gives the whole header in one call, so the `age` crate's buffered
/// parser, which parses its buffer again after every call, parses it once.
#[derive(Debug)]
pub struct HeaderFirst<R> {
    header: Cursor<Vec<u8>>,
    rest: R,
}

impl<R> HeaderFirst<R> {
    fn in_header(&self) -> bool {
        (self.header.position() as usize) < self.header.get_ref().len()
    }
}

impl<R: BufRead> Read for HeaderFirst<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.in_header() {
            self.header.read(buf)
        } else {
            self.rest.read(buf)
        }
    }
}

impl<R: BufRead> BufRead for HeaderFirst<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.in_header() {
            self.header.fill_buf()
        } else {
            self.rest.fill_buf()
        }
    }

    fn consume(&mut self, amount: usize) {
        if self.in_header() {
            self.header.consume(amount);
        } else {
            self.rest.consume(amount);
        }
    }

    fn read_until(&mut self, byte: u8, buf: &mut Vec<u8>) -> io::Result<usize> {
        if self.in_header() {
            let position = self.header.position() as usize;
            let rest = &self.header.get_ref()[position..];
            buf.extend_from_slice(rest);
            let n = rest.len();
            self.header.set_position(self.header.get_ref().len() as u64);
            Ok(n)
        } else {
            self.rest.read_until(byte, buf)
        }
    }
}
