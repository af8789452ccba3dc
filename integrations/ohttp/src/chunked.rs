//! Chunked Oblivious HTTP, as draft-ietf-ohai-chunked-ohttp-08 defines it (media types
//! `message/ohttp-chunked-req` and `message/ohttp-chunked-res`): a request or response body
//! sealed and opened a chunk at a time, so neither side holds a whole message.
//!
//! ```text
//! chunked request  = hdr || enc || chunk* || final chunk
//! chunked response = response_nonce || chunk* || final chunk
//! chunk            = varint(len(ct)) || ct          (plaintext not empty; AAD "")
//! final chunk      = varint(0) || ct, to the end    (plaintext may be empty; AAD "final")
//! ```
//!
//! The request is sealed with the HPKE context set up with the info label
//! `message/bhttp chunked request` (§6.1); the response with the key and nonce RFC 9458 §4.4
//! derives from the exporter label `message/bhttp chunked response`, the nonce of chunk `i`
//! being `aead_nonce XOR i` (§6.2), which is typed-hpke's `suite::Sealer` sequence. The final
//! chunk is marked by its AAD, so a message cut short, or cut at a chunk boundary and passed
//! off as complete, fails to open ([`Error::MissingFinalChunk`], [`Error::Decrypt`]). A final
//! chunk runs to the end of the message: bytes after it are part of its ciphertext, and it does
//! not open. A non-final chunk with an empty plaintext is refused as a decryption error (§6).
//!
//! **Errors are final.** Once an encoder, a decoder, a [`ChunkReader`] or a [`ChunkWriter`] has
//! returned an error, every later call returns that error again: a truncated or tampered
//! message can never be read past its first failure and then look complete.
//!
//! **Interactivity** (§7.2). A client that sends request chunks after reading response chunks,
//! influenced by them, lets the gateway measure its round-trip time, and lets a network
//! observer (the relay included) measure the delay from itself to the client: this can weaken
//! the anonymity Oblivious HTTP gives. Send the whole request before reading the response, or
//! make sure what the response says cannot change when or what the request sends, unless that
//! loss is understood and accepted.
//!
//! The encoders and decoders here do no I/O: give them bytes as they come and write out what
//! they return. [`ChunkWriter`] and [`ChunkReader`] put them behind `std::io::Write` and
//! `std::io::Read`.

use std::io;

use rand_core::CryptoRng;
use typed_hpke::suite::{self, ReceiverContext, SenderContext, SenderMode, Suite};

use crate::error::from_hpke;
use crate::gateway::Gateway;
use crate::response::{Secret, TAG_LEN, opener, sealer, secret_len};
use crate::{Client, Error, HEADER_LEN, INFO_MAX, header, info};

/// The HPKE `info` label of a chunked request.
const REQUEST_LABEL: &[u8] = b"message/bhttp chunked request";
/// The exporter label a chunked response is keyed from.
const RESPONSE_LABEL: &[u8] = b"message/bhttp chunked response";
/// The AAD of the final chunk; every other chunk has an empty AAD.
const FINAL_AAD: &[u8] = b"final";
/// The largest chunk plaintext the encoders write, and by default the largest the decoders take:
/// 2^14 bytes, which every implementation must accept (§3; the `ohttp` crate refuses larger
/// ones).
pub const MAX_CHUNK: usize = 1 << 14;
/// The most a decoder's chunk limit may be raised to ([`ChunkedRequestDecoder::with_max_chunk`]):
/// 16 MiB of plaintext, the memory a gateway may hold for one chunk of a client it does not know.
pub const MAX_CHUNK_CEILING: usize = 1 << 24;

/// Appends `v` as a QUIC variable-length integer (RFC 9000 §16).
fn put_varint(out: &mut Vec<u8>, v: usize) {
    let v = v as u64;
    if v < 1 << 6 {
        out.push(v as u8);
    } else if v < 1 << 14 {
        out.extend_from_slice(&((v as u16) | 0x4000).to_be_bytes());
    } else if v < 1 << 30 {
        out.extend_from_slice(&((v as u32) | 0x8000_0000).to_be_bytes());
    } else {
        out.extend_from_slice(&(v | 0xc000_0000_0000_0000).to_be_bytes());
    }
}

/// A QUIC variable-length integer at the front of `buf` and its length, or `None` if `buf`
/// holds only part of it.
fn get_varint(buf: &[u8]) -> Option<(u64, usize)> {
    let first = *buf.first()?;
    let len = 1usize << (first >> 6);
    let bytes = buf.get(..len)?;
    let mut v = u64::from(first & 0x3f);
    for b in &bytes[1..] {
        v = (v << 8) | u64::from(*b);
    }
    Some((v, len))
}

/// What seals chunks: the request's HPKE context, or the response's AEAD.
enum Sealer {
    // Both boxed: each holds an AEAD's key schedule, hundreds of bytes.
    Request(Box<SenderContext>),
    Response(Box<suite::Sealer>),
}

impl Sealer {
    fn seal(&mut self, aad: &[u8], pt: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let start = out.len();
        let end = start
            .checked_add(pt.len())
            .and_then(|n| n.checked_add(TAG_LEN))
            .ok_or(Error::MessageLimit)?;
        out.resize(end, 0);
        let sealed = match self {
            Self::Request(ctx) => ctx.seal_into(aad, pt, &mut out[start..]),
            Self::Response(aead) => aead.seal_into(aad, pt, &mut out[start..]),
        };
        sealed.map(drop).map_err(|e| {
            out.truncate(start);
            from_hpke(e)
        })
    }
}

/// What opens chunks: the gateway's HPKE context, or the client's response AEAD.
enum Opener {
    // Both boxed, as in `Sealer`.
    Request(Box<ReceiverContext>),
    Response(Box<suite::Opener>),
}

impl Opener {
    /// Opens `ct` and appends its plaintext to `out`; on failure `out` is as it was.
    fn open(&mut self, aad: &[u8], ct: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let len = ct.len().checked_sub(TAG_LEN).ok_or(Error::Truncated)?;
        let start = out.len();
        out.resize(start + len, 0);
        let opened = match self {
            Self::Request(ctx) => ctx.open_into(aad, ct, &mut out[start..]),
            Self::Response(aead) => aead.open_into(aad, ct, &mut out[start..]),
        };
        opened.map(drop).map_err(|_| {
            out.truncate(start);
            Error::Decrypt
        })
    }
}

/// Seals a body as chunks: a chunked request (client) or a chunked response (gateway).
pub struct ChunkEncoder {
    sealer: Sealer,
    /// The first error, returned again by every later call.
    failed: Option<Error>,
}

impl core::fmt::Debug for ChunkEncoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkEncoder")
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl ChunkEncoder {
    fn new(sealer: Sealer) -> Self {
        Self {
            sealer,
            failed: None,
        }
    }

    /// Runs `op` unless an earlier call failed; keeps its error if it fails.
    fn sticky(&mut self, op: impl FnOnce(&mut Sealer) -> Result<(), Error>) -> Result<(), Error> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        op(&mut self.sealer).inspect_err(|e| self.failed = Some(*e))
    }

    /// Appends `data` to `out` as one or more chunks, none over [`MAX_CHUNK`] bytes of plaintext.
    /// Empty `data` writes nothing (a non-final chunk is never empty, §6).
    ///
    /// # Errors
    /// [`Error::MessageLimit`] once the key has sealed as many chunks as its nonce counts; then
    /// for every later call. `out` keeps the chunks sealed before the failure.
    pub fn seal_chunk(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.sticky(|sealer| {
            for piece in data.chunks(MAX_CHUNK) {
                let mark = out.len();
                put_varint(out, piece.len() + TAG_LEN);
                sealer
                    .seal(&[], piece, out)
                    .inspect_err(|_| out.truncate(mark))?;
            }
            Ok(())
        })
    }

    /// Appends `data` as the message's last chunks: any but its last [`MAX_CHUNK`] bytes as
    /// ordinary chunks, then the final chunk (which may be empty), and ends the message.
    ///
    /// # Errors
    /// As [`ChunkEncoder::seal_chunk`], and the error of an earlier call.
    pub fn seal_final(mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let split = data.len().saturating_sub(MAX_CHUNK);
        self.seal_chunk(&data[..split], out)?;
        self.sticky(|sealer| {
            let mark = out.len();
            put_varint(out, 0);
            sealer
                .seal(FINAL_AAD, &data[split..], out)
                .inspect_err(|_| out.truncate(mark))
        })
    }
}

/// Opens a chunk stream as its bytes arrive.
struct Chunks {
    opener: Opener,
    buf: Vec<u8>,
    final_seen: bool,
    max_chunk: usize,
}

impl Chunks {
    fn new(opener: Opener, max_chunk: usize) -> Self {
        Self {
            opener,
            buf: Vec::new(),
            final_seen: false,
            max_chunk,
        }
    }

    /// The longest sealed chunk taken: `max_chunk` bytes of plaintext and a tag.
    fn limit(&self) -> usize {
        self.max_chunk.saturating_add(TAG_LEN)
    }

    /// Takes `input`, appends the plaintext of every chunk it completes to `out`.
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.buf.extend_from_slice(input);
        let limit = self.limit();
        let mut at = 0;
        while !self.final_seen {
            let Some((len, vlen)) = get_varint(&self.buf[at..]) else {
                break;
            };
            if len == 0 {
                self.final_seen = true;
                at += vlen;
                break;
            }
            let len = usize::try_from(len).unwrap_or(usize::MAX);
            if len > limit {
                return Err(Error::ChunkTooLarge);
            }
            // §6: a non-final chunk with no plaintext is a decryption error.
            if len <= TAG_LEN {
                return Err(Error::Decrypt);
            }
            let Some(ct) = self.buf.get(at + vlen..).and_then(|rest| rest.get(..len)) else {
                break;
            };
            self.opener.open(&[], ct, out)?;
            at += vlen + len;
        }
        self.buf.drain(..at);
        if self.final_seen && self.buf.len() > limit {
            return Err(Error::ChunkTooLarge);
        }
        Ok(())
    }

    /// Ends the stream: opens the final chunk into `out`.
    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        if !self.final_seen {
            return Err(Error::MissingFinalChunk);
        }
        self.opener.open(FINAL_AAD, &self.buf, out)
    }
}

/// A decoder's state once it has failed, or the state it is in.
enum Sticky<T> {
    Ok(T),
    Failed(Error),
}

impl<T> Sticky<T> {
    /// Runs `op` on the state unless it has failed; a failure is kept.
    fn run<U>(&mut self, op: impl FnOnce(&mut T) -> Result<U, Error>) -> Result<U, Error> {
        match self {
            Self::Failed(e) => Err(*e),
            Self::Ok(state) => op(state).inspect_err(|e| *self = Self::Failed(*e)),
        }
    }
}

impl Client {
    /// Starts a chunked request (draft-ietf-ohai-chunked-ohttp-08 §6.1): returns the bytes that
    /// begin the message (`hdr || enc`), the encoder of its chunks and the decoder of the
    /// chunked response.
    ///
    /// # Errors
    /// As [`Client::encapsulate`].
    pub fn encapsulate_chunked<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Vec<u8>, ChunkEncoder, ChunkedResponseDecoder), Error> {
        let hdr = header(self.key_id, self.suite.kem_id(), self.symmetric);
        let mut info_buf = [0; INFO_MAX];
        let info = info(REQUEST_LABEL, &hdr, &mut info_buf);
        let (enc, ctx) = self
            .suite
            .setup_sender(rng, &self.public_key, info, SenderMode::Base)
            .map_err(from_hpke)?;
        let secret = Secret::export(self.suite, |s| ctx.export(RESPONSE_LABEL, s))?;
        let enc = enc.as_bytes();
        let head = [&hdr[..], enc].concat();
        let response = ChunkedResponseDecoder {
            state: Sticky::Ok(ResponseState::Nonce {
                suite: self.suite,
                secret,
                enc: enc.to_vec(),
                buf: Vec::new(),
            }),
        };
        Ok((
            head,
            ChunkEncoder::new(Sealer::Request(Box::new(ctx))),
            response,
        ))
    }
}

/// The client's decoder of a chunked response.
pub struct ChunkedResponseDecoder {
    state: Sticky<ResponseState>,
}

enum ResponseState {
    Nonce {
        suite: Suite,
        secret: Secret,
        enc: Vec<u8>,
        buf: Vec<u8>,
    },
    Body(Box<Chunks>),
}

impl core::fmt::Debug for ChunkedResponseDecoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkedResponseDecoder")
            .finish_non_exhaustive()
    }
}

impl ResponseState {
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let rest = match self {
            Self::Body(chunks) => return chunks.push(input, out),
            Self::Nonce {
                suite,
                secret,
                enc,
                buf,
            } => {
                let need = secret_len(*suite) - buf.len();
                if input.len() < need {
                    buf.extend_from_slice(input);
                    return Ok(());
                }
                buf.extend_from_slice(&input[..need]);
                let aead = opener(*suite, secret, enc, buf)?;
                let opener = Opener::Response(Box::new(aead));
                *self = Self::Body(Box::new(Chunks::new(opener, MAX_CHUNK)));
                &input[need..]
            }
        };
        self.push(rest, out)
    }
}

impl ChunkedResponseDecoder {
    /// Takes the next bytes of the response; appends the plaintext of each chunk they complete
    /// to `out`.
    ///
    /// # Errors
    /// [`Error::Decrypt`] for a chunk that does not authenticate or a non-final chunk with no
    /// plaintext; [`Error::ChunkTooLarge`] for a chunk over the limit. An error is returned
    /// again by every later call, [`ChunkedResponseDecoder::finish`] included.
    pub fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.state.run(|state| state.push(input, out))
    }

    /// Ends the response: opens its final chunk into `out`.
    ///
    /// # Errors
    /// The error of an earlier [`push`](Self::push); [`Error::MissingFinalChunk`] if the
    /// response ended without its final chunk (it was truncated); [`Error::Decrypt`] if the
    /// final chunk does not authenticate.
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        self.state.run(|state| match state {
            ResponseState::Body(chunks) => chunks.finish(out),
            ResponseState::Nonce { .. } => Err(Error::MissingFinalChunk),
        })
    }
}

/// The gateway's decoder of a chunked request: the header and `enc`, then the chunks.
pub struct ChunkedRequestDecoder<'g> {
    gateway: &'g Gateway,
    state: Sticky<RequestState>,
    max_chunk: usize,
}

enum RequestState {
    Head(Vec<u8>),
    Body {
        chunks: Box<Chunks>,
        suite: Suite,
        /// The response's keying material, until the response is started.
        response: Option<(Secret, Vec<u8>)>,
    },
}

impl core::fmt::Debug for ChunkedRequestDecoder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkedRequestDecoder")
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// Starts decoding a chunked request (draft-ietf-ohai-chunked-ohttp-08).
    pub fn decapsulate_chunked(&self) -> ChunkedRequestDecoder<'_> {
        ChunkedRequestDecoder {
            gateway: self,
            state: Sticky::Ok(RequestState::Head(Vec::new())),
            max_chunk: MAX_CHUNK,
        }
    }
}

impl ChunkedRequestDecoder<'_> {
    /// Accepts chunks of up to `max_chunk` bytes of plaintext (default [`MAX_CHUNK`]), at most
    /// [`MAX_CHUNK_CEILING`]: a larger value is taken as the ceiling. The limit is the memory
    /// the decoder may hold for one chunk before it can open it (the chunk, its tag and its
    /// length), sent by a client the gateway does not know: raise it only as far as the
    /// clients it serves need.
    pub fn with_max_chunk(mut self, max_chunk: usize) -> Self {
        let max_chunk = max_chunk.min(MAX_CHUNK_CEILING);
        self.max_chunk = max_chunk;
        if let Sticky::Ok(RequestState::Body { chunks, .. }) = &mut self.state {
            chunks.max_chunk = max_chunk;
        }
        self
    }

    /// Takes the next bytes of the request; appends the plaintext of each chunk they complete
    /// to `out`.
    ///
    /// # Errors
    /// As [`Gateway::decapsulate`] for the header and `enc` ([`Error::UnknownKeyId`],
    /// [`Error::SuiteNotOffered`], [`Error::Decrypt`]); [`Error::Decrypt`] for a chunk that
    /// does not authenticate or a non-final chunk with no plaintext; [`Error::ChunkTooLarge`]
    /// for a chunk over the limit. An error is returned again by every later call.
    pub fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let (gateway, max_chunk) = (self.gateway, self.max_chunk);
        self.state
            .run(|state| state.push(gateway, max_chunk, input, out))
    }

    /// Starts the chunked response (§6.2): its first bytes (the response nonce) and the encoder
    /// of its chunks. The response can start before the request has ended; it starts once.
    ///
    /// # Errors
    /// [`Error::NotReady`] before the request's header and `enc` have been read;
    /// [`Error::ResponseStarted`] if the response was started before; the error of an earlier
    /// [`push`](Self::push).
    pub fn response<R: CryptoRng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Result<(Vec<u8>, ChunkEncoder), Error> {
        let state = match &mut self.state {
            Sticky::Failed(e) => return Err(*e),
            Sticky::Ok(state) => state,
        };
        let RequestState::Body {
            suite, response, ..
        } = state
        else {
            return Err(Error::NotReady);
        };
        let (secret, enc) = response.take().ok_or(Error::ResponseStarted)?;
        let mut nonce = vec![0; secret_len(*suite)];
        rng.fill_bytes(&mut nonce);
        let aead = sealer(*suite, &secret, &enc, &nonce)?;
        Ok((nonce, ChunkEncoder::new(Sealer::Response(Box::new(aead)))))
    }

    /// Ends the request: opens its final chunk into `out`.
    ///
    /// # Errors
    /// The error of an earlier [`push`](Self::push); [`Error::Truncated`] if the request ended
    /// inside its header or `enc`; [`Error::MissingFinalChunk`] if it ended without its final
    /// chunk; [`Error::Decrypt`] if the final chunk does not authenticate.
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        self.state.run(|state| match state {
            RequestState::Body { chunks, .. } => chunks.finish(out),
            RequestState::Head(_) => Err(Error::Truncated),
        })
    }
}

impl RequestState {
    fn push(
        &mut self,
        gateway: &Gateway,
        max_chunk: usize,
        input: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let buf = match self {
            Self::Body { chunks, .. } => return chunks.push(input, out),
            Self::Head(buf) => {
                buf.extend_from_slice(input);
                buf
            }
        };
        if buf.len() < HEADER_LEN {
            return Ok(());
        }
        let (head, rest) = match gateway.head(buf) {
            Ok(parsed) => parsed,
            // The header is whole, so only `enc` can be short: wait for it.
            Err(Error::Truncated) => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut info_buf = [0; INFO_MAX];
        let info = info(REQUEST_LABEL, &head.hdr, &mut info_buf);
        let ctx = head.key.setup(head.suite, head.enc, info)?;
        let secret = Secret::export(head.suite, |s| ctx.export(RESPONSE_LABEL, s))?;
        let (suite, enc) = (head.suite, head.enc.to_vec());
        let rest = rest.to_vec();
        let chunks = Box::new(Chunks::new(Opener::Request(Box::new(ctx)), max_chunk));
        *self = Self::Body {
            chunks,
            suite,
            response: Some((secret, enc)),
        };
        self.push(gateway, max_chunk, &rest, out)
    }
}

/// A `std::io::Write` that seals what is written as chunks into `inner`: buffered up to
/// [`MAX_CHUNK`] bytes, a chunk at each full buffer or [`flush`](io::Write::flush).
/// [`ChunkWriter::finish`] writes the final chunk; dropping the writer without it leaves the
/// message without its final chunk, which the peer refuses. An error of the encoder is
/// returned by every later `write`, `flush` and `finish`.
///
/// `io::Write`'s contract holds: a `write` that returns an error has taken none of `data`,
/// and one that returns `Ok(n)` has taken `n` bytes, which end up in the message exactly once.
/// A sealed chunk that `inner` did not take whole is kept, and written first by the next
/// `write`, `flush` or `finish`: an error of `inner` can be retried, and no chunk is lost or
/// sealed twice.
pub struct ChunkWriter<W: io::Write> {
    inner: W,
    encoder: ChunkEncoder,
    pending: Vec<u8>,
    /// Sealed bytes, of which `out[sent..]` are not yet written to `inner`.
    out: Vec<u8>,
    sent: usize,
}

impl<W: io::Write> core::fmt::Debug for ChunkWriter<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkWriter").finish_non_exhaustive()
    }
}

fn io_error(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

impl<W: io::Write> ChunkWriter<W> {
    /// A writer that writes `start` (the message's first bytes: `hdr || enc` of a request,
    /// the response nonce of a response) to `inner`, then the chunks `encoder` seals.
    ///
    /// # Errors
    /// What writing `start` to `inner` returns.
    pub fn new(mut inner: W, start: &[u8], encoder: ChunkEncoder) -> io::Result<Self> {
        inner.write_all(start)?;
        Ok(Self {
            inner,
            encoder,
            pending: Vec::with_capacity(MAX_CHUNK),
            out: Vec::new(),
            sent: 0,
        })
    }

    /// Writes the sealed bytes `inner` has not taken yet; on an error of `inner` the rest
    /// stays for the next call.
    fn drain(&mut self) -> io::Result<()> {
        while let Some(rest) = self.out.get(self.sent..).filter(|rest| !rest.is_empty()) {
            match self.inner.write(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.out.clear();
        self.sent = 0;
        Ok(())
    }

    /// Seals the buffered bytes as a chunk (none if nothing is buffered) into `out`, which
    /// must be drained.
    fn seal_pending(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.encoder
                .seal_chunk(&self.pending, &mut self.out)
                .map_err(io_error)?;
            self.pending.clear();
        }
        Ok(())
    }

    fn failed(&self) -> io::Result<()> {
        self.encoder.failed.map_or(Ok(()), |e| Err(io_error(e)))
    }

    /// The inner writer. Writing to it directly puts bytes in the middle of the message.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Writes what is buffered and the final chunk, and returns `inner`.
    ///
    /// # Errors
    /// What writing to `inner` returns; [`Error::MessageLimit`] as an `InvalidData` error.
    pub fn finish(mut self) -> io::Result<W> {
        self.failed()?;
        self.drain()?;
        let Self {
            mut inner,
            encoder,
            pending,
            mut out,
            ..
        } = self;
        encoder.seal_final(&pending, &mut out).map_err(io_error)?;
        inner.write_all(&out)?;
        inner.flush()?;
        Ok(inner)
    }
}

impl<W: io::Write> io::Write for ChunkWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.failed()?;
        // What an earlier call sealed goes first; until it is written, nothing is taken.
        self.drain()?;
        let take = data.len().min(MAX_CHUNK - self.pending.len());
        self.pending.extend_from_slice(&data[..take]);
        if self.pending.len() == MAX_CHUNK {
            self.seal_pending()?;
            // The bytes are taken and sealed: an error of `inner` now is the next call's.
            let _ = self.drain();
        }
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.failed()?;
        self.drain()?;
        self.seal_pending()?;
        self.drain()?;
        self.inner.flush()
    }
}

/// A decoder of a chunked message, for [`ChunkReader`]: the gateway's of a request, the
/// client's of a response.
pub trait ChunkDecoder: sealed::Sealed {
    /// Takes the next bytes of the message; appends the plaintext they complete to `out`.
    ///
    /// # Errors
    /// As the decoder's own `push`.
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error>;
    /// Ends the message: appends the final chunk's plaintext to `out`.
    ///
    /// # Errors
    /// As the decoder's own `finish`.
    fn finish(self, out: &mut Vec<u8>) -> Result<(), Error>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::ChunkedResponseDecoder {}
    impl Sealed for super::ChunkedRequestDecoder<'_> {}
}

impl ChunkDecoder for ChunkedResponseDecoder {
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        ChunkedResponseDecoder::push(self, input, out)
    }
    fn finish(self, out: &mut Vec<u8>) -> Result<(), Error> {
        ChunkedResponseDecoder::finish(self, out)
    }
}

impl ChunkDecoder for ChunkedRequestDecoder<'_> {
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        ChunkedRequestDecoder::push(self, input, out)
    }
    fn finish(self, out: &mut Vec<u8>) -> Result<(), Error> {
        ChunkedRequestDecoder::finish(self, out)
    }
}

/// A `std::io::Read` of the plaintext of a chunked message read from `inner`. The end of
/// `inner` is the end of the message: a message without its final chunk is an error there
/// (`InvalidData` holding [`Error::MissingFinalChunk`]), never a short read that looks whole.
/// A decoding error is returned by that `read` and by every `read` after it, so a loop that
/// skips errors (`lines().flatten()`) never reaches an end that looks clean. Errors of `inner`
/// itself are passed on and not kept: an interrupted read can be retried.
pub struct ChunkReader<R: io::Read, D: ChunkDecoder> {
    inner: R,
    decoder: Option<D>,
    /// The first decoding error, returned by every later `read`.
    failed: Option<Error>,
    plain: Vec<u8>,
    at: usize,
    buf: Box<[u8]>,
}

impl<R: io::Read, D: ChunkDecoder> core::fmt::Debug for ChunkReader<R, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkReader").finish_non_exhaustive()
    }
}

impl<R: io::Read, D: ChunkDecoder> ChunkReader<R, D> {
    /// A reader of the message `inner` holds, through `decoder`.
    pub fn new(inner: R, decoder: D) -> Self {
        Self {
            inner,
            decoder: Some(decoder),
            failed: None,
            plain: Vec::new(),
            at: 0,
            buf: vec![0; 8192].into_boxed_slice(),
        }
    }
}

impl<R: io::Read, D: ChunkDecoder> io::Read for ChunkReader<R, D> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.failed {
            return Err(io_error(e));
        }
        while self.at == self.plain.len() && self.decoder.is_some() {
            self.plain.clear();
            self.at = 0;
            let n = self.inner.read(&mut self.buf)?;
            let decoded = if n == 0 {
                self.decoder
                    .take()
                    .map_or(Ok(()), |decoder| decoder.finish(&mut self.plain))
            } else {
                self.decoder.as_mut().map_or(Ok(()), |decoder| {
                    decoder.push(&self.buf[..n], &mut self.plain)
                })
            };
            if let Err(e) = decoded {
                self.failed = Some(e);
                self.decoder = None;
                self.plain.clear();
                return Err(io_error(e));
            }
        }
        let n = dst.len().min(self.plain.len() - self.at);
        dst[..n].copy_from_slice(&self.plain[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;
    use crate::{GatewayKey, OsRng, SymmetricSuite};

    fn put(v: usize) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, v);
        out
    }

    /// RFC 9000 Appendix A.1's examples, and each length's first and last value: the
    /// shortest encoding is written, and every encoding reads back with its length.
    #[test]
    fn varints_as_rfc9000_writes_them() {
        let examples: [(&[u8], u64); 5] = [
            (
                &[0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c],
                151_288_809_941_952_652,
            ),
            (&[0x9d, 0x7f, 0x3e, 0x7d], 494_878_333),
            (&[0x7b, 0xbd], 15_293),
            (&[0x25], 37),
            (&[0x40, 0x25], 37),
        ];
        for (bytes, v) in examples {
            assert_eq!(get_varint(bytes), Some((v, bytes.len())), "{bytes:02x?}");
            // Trailing bytes are the next field's; too few is "not yet".
            let mut longer = bytes.to_vec();
            longer.push(0xff);
            assert_eq!(get_varint(&longer), Some((v, bytes.len())));
            assert_eq!(get_varint(&bytes[..bytes.len() - 1]), None);
        }
        assert_eq!(put(37), [0x25]);
        assert_eq!(put(15_293), [0x7b, 0xbd]);
        assert_eq!(put(494_878_333), [0x9d, 0x7f, 0x3e, 0x7d]);
        assert_eq!(
            put(151_288_809_941_952_652),
            [0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c]
        );
        let edges: [(usize, &[u8]); 6] = [
            (63, &[0x3f]),
            (64, &[0x40, 0x40]),
            (16_383, &[0x7f, 0xff]),
            (16_384, &[0x80, 0x00, 0x40, 0x00]),
            ((1 << 30) - 1, &[0xbf, 0xff, 0xff, 0xff]),
            (1 << 30, &[0xc0, 0, 0, 0, 0x40, 0, 0, 0]),
        ];
        for (v, bytes) in edges {
            assert_eq!(put(v), bytes, "{v}");
            assert_eq!(get_varint(bytes), Some((v as u64, bytes.len())));
        }
        assert_eq!(get_varint(&[]), None);
    }

    /// A `ChunkWriter` whose encoder has failed takes nothing more, on every call, `finish`
    /// included, and writes nothing to `inner`. The encoder fails only once its key has
    /// sealed as many chunks as the nonce counts (2^96 - 1 for a 12-byte nonce), which no
    /// test reaches; the failure is set here as `seal_chunk` sets it.
    #[test]
    fn writer_over_a_failed_encoder_stays_failed() {
        let mut rng = OsRng::default();
        let key = GatewayKey::generate(
            1,
            <typed_hpke::kem::DhKemX25519HkdfSha256 as typed_hpke::kem::Kem>::ID,
            vec![SymmetricSuite::HKDF_SHA256_AES_128_GCM],
            &mut rng,
        )
        .unwrap();
        let client = Client::new(key.config()).unwrap();
        let (head, mut encoder, _) = client.encapsulate_chunked(&mut rng).unwrap();
        encoder.failed = Some(Error::MessageLimit);
        let mut writer = ChunkWriter::new(Vec::new(), &head, encoder).unwrap();
        let is_limit = |e: io::Error| {
            e.kind() == io::ErrorKind::InvalidData
                && *e.into_inner().unwrap().downcast::<Error>().unwrap() == Error::MessageLimit
        };
        for _ in 0..2 {
            assert!(is_limit(writer.write(b"more").unwrap_err()));
            assert!(is_limit(writer.flush().unwrap_err()));
        }
        assert_eq!(writer.get_mut(), &head);
        assert!(is_limit(writer.finish().unwrap_err()));
    }
}
