//! The identity conversion of `age-plugin-pq -identity` (the binary is this crate's
//! `src/main.rs`), as a library so that its tests can watch its memory: a native
//! `AGE-SECRET-KEY-PQ-1…` identity is the whole X-Wing seed, and neither the input nor the
//! output may be left in a freed buffer.

#![forbid(unsafe_code)]

use std::io::{self, Read};

use age::secrecy::ExposeSecret;
use typed_hpke_age::pq::Identity;
use zeroize::Zeroizing;

/// The longest identity file read, as Go's age (`ParseIdentities`).
pub const MAX_IDENTITY_FILE: u64 = 16 << 20;
/// The longest line, as Go's age reads one (`bufio.Scanner`'s 64 KiB buffer, which holds the
/// line and its newline).
pub const MAX_LINE: usize = 64 * 1024 - 1;

/// Everything `reader` gives, up to `limit` bytes (`None` past it), into a buffer that is
/// never reallocated in place: it starts at `size_hint` (the file's length, where known) and,
/// when full, is copied into one twice as large and wiped, so no copy of the input is left in
/// freed memory (as `read_to_end` leaves one each time it grows a vector).
///
/// # Errors
/// The reader's.
pub fn read_secret(
    mut reader: impl Read,
    size_hint: usize,
    limit: u64,
) -> io::Result<Option<Zeroizing<Vec<u8>>>> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut buf = Zeroizing::new(vec![0u8; size_hint.clamp(64, limit.saturating_add(1))]);
    let mut len = 0;
    loop {
        if len == buf.len() {
            if len > limit {
                return Ok(None);
            }
            let mut bigger = Zeroizing::new(vec![0u8; (len * 2).min(limit.saturating_add(1))]);
            bigger[..len].copy_from_slice(&buf[..len]);
            buf = bigger;
        }
        match reader.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if len > limit {
        return Ok(None);
    }
    buf.truncate(len);
    Ok(Some(buf))
}

/// Native identities to plugin identities, one `AGE-PLUGIN-PQ-1…` line each, with Go's
/// `extra/age-plugin-pq -identity` rules: lines end at `\n` (a `\r` before it is dropped), lines
/// that are empty or start with `#` are skipped and may hold any bytes, a line is at most
/// [`MAX_LINE`] bytes, an identity line is UTF-8 and starts with `AGE-SECRET-KEY-PQ-1` (upper
/// case), and at least one is required. The output is written into a string sized first, so it
/// never moves.
///
/// # Errors
/// What is wrong and on which line, or which identity (counted from 1) is of another type.
pub fn convert(text: &[u8]) -> Result<Zeroizing<String>, String> {
    // Sized first: a vector of keys that grows moves them and frees the old copy unwiped.
    let candidates = text
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"AGE-SECRET-KEY-PQ-1"))
        .count();
    let mut identities = Vec::with_capacity(candidates);
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE {
            return Err(format!(
                "failed to parse identities: line {}: too long",
                n + 1
            ));
        }
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        let error = |what: &str| {
            format!(
                "failed to parse identities: error at line {}: {what}",
                n + 1
            )
        };
        let line = std::str::from_utf8(line).map_err(|_| error("not UTF-8"))?;
        if line.starts_with("AGE-SECRET-KEY-PQ-1") {
            identities.push(line.parse::<Identity>().map_err(error)?);
        } else if line.starts_with("AGE-SECRET-KEY-1") || line.starts_with("AGE-PLUGIN-") {
            return Err(format!(
                "identity #{} is not a post-quantum hybrid identity",
                identities.len() + 1
            ));
        } else {
            return Err(error("unknown identity type"));
        }
    }
    if identities.is_empty() {
        return Err("failed to parse identities: no secret keys found".into());
    }
    let lines: Vec<_> = identities.iter().map(Identity::to_plugin_string).collect();
    let mut out = Zeroizing::new(String::with_capacity(
        lines.iter().map(|l| l.expose_secret().len() + 1).sum(),
    ));
    for line in &lines {
        out.push_str(line.expose_secret());
        out.push('\n');
    }
    Ok(out)
}
