//! Chunked Oblivious HTTP (draft-ietf-ohai-chunked-ohttp; media types
//! `message/ohttp-chunked-req` and `message/ohttp-chunked-res`): a request or response body
//! sealed and opened a chunk at a time, so neither side holds a whole message.
//!
//! ```text
//! chunked request  = hdr || enc || chunk* || final chunk
//! chunked response = response_nonce || chunk* || final chunk
//! chunk            = varint(len(ct)) || ct          (len(ct) > 0; AAD "")
//! final chunk      = varint(0) || ct, to the end    (AAD "final")
//! ```
//!
//! The request is sealed with the HPKE context set up with the info label
//! `message/bhttp chunked request`; the response with the key and nonce RFC 9458 §4.4 derives
//! from the exporter label `message/bhttp chunked response`, the nonce of chunk `i` being
//! `aead_nonce XOR i` (as HPKE's `ComputeNonce`). The final chunk is marked by its AAD, so a
//! message cut short, or cut at a chunk boundary and passed off as complete, fails to open
//! ([`Error::MissingFinalChunk`], [`Error::Decrypt`]). A final chunk runs to the end of the
//! message: bytes after it are part of its ciphertext, and it does not open.
//!
//! The encoders and decoders here do no I/O: give them bytes as they come and write out what
//! they return. [`ChunkWriter`] and [`ChunkReader`] put them behind `std::io::Write` and
//! `std::io::Read`.

use std::io;

use rand_core::CryptoRng;
use typed_hpke::suite::{ReceiverContext, ReceiverMode, SenderContext, SenderMode};

use crate::error::from_hpke;
use crate::gateway::Gateway;
use crate::response::{Aead, Kdf, ResponseCipher, Secret, TAG_LEN};
use crate::{Client, Error, HEADER_LEN, INFO_MAX, header, info};

/// The HPKE `info` label of a chunked request.
const REQUEST_LABEL: &[u8] = b"message/bhttp chunked request";
/// The exporter label a chunked response is keyed from.
const RESPONSE_LABEL: &[u8] = b"message/bhttp chunked response";
/// The AAD of the final chunk; every other chunk has an empty AAD.
const FINAL_AAD: &[u8] = b"final";
/// The largest chunk plaintext the encoders write, and by default the largest the decoders take
/// (the `ohttp` crate refuses larger ones).
pub const MAX_CHUNK: usize = 1 << 14;

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

/// What seals chunks: the request's HPKE context, or the response's key.
enum Sealer {
    // Both boxed: a context and a keyed AEAD are hundreds of bytes, of different sizes.
    Request(Box<SenderContext>),
    Response(Box<ResponseCipher>),
}

impl Sealer {
    fn seal(&mut self, aad: &[u8], pt: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        match self {
            Self::Request(ctx) => {
                let start = out.len();
                out.resize(start + pt.len() + TAG_LEN, 0);
                ctx.seal_into(aad, pt, &mut out[start..]).map_err(|e| {
                    out.truncate(start);
                    from_hpke(e)
                })?;
                Ok(())
            }
            Self::Response(cipher) => cipher.seal(aad, pt, out),
        }
    }
}

/// What opens chunks: the gateway's HPKE context, or the client's response key.
enum Opener {
    // Both boxed, as in `Sealer`.
    Request(Box<ReceiverContext>),
    Response(Box<ResponseCipher>),
}

impl Opener {
    fn open(&mut self, aad: &[u8], ct: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        if ct.len() < TAG_LEN {
            return Err(Error::Truncated);
        }
        match self {
            Self::Request(ctx) => {
                let start = out.len();
                out.resize(start + ct.len() - TAG_LEN, 0);
                ctx.open_into(aad, ct, &mut out[start..]).map_err(|_| {
                    out.truncate(start);
                    Error::Decrypt
                })?;
                Ok(())
            }
            Self::Response(cipher) => cipher.open(aad, ct, out),
        }
    }
}

/// Seals a body as chunks: a chunked request (client) or a chunked response (gateway).
pub struct ChunkEncoder {
    sealer: Sealer,
}

impl core::fmt::Debug for ChunkEncoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkEncoder").finish_non_exhaustive()
    }
}

impl ChunkEncoder {
    /// Appends `data` to `out` as one or more chunks, none over [`MAX_CHUNK`] bytes of plaintext.
    /// Empty `data` writes nothing.
    ///
    /// # Errors
    /// [`Error::MessageLimit`] once the key has sealed as many chunks as its nonce counts.
    pub fn seal_chunk(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        for piece in data.chunks(MAX_CHUNK) {
            put_varint(out, piece.len() + TAG_LEN);
            self.sealer.seal(&[], piece, out)?;
        }
        Ok(())
    }

    /// Appends `data` as the message's last chunks: any but its last [`MAX_CHUNK`] bytes as
    /// ordinary chunks, then the final chunk (which may be empty), and ends the message.
    ///
    /// # Errors
    /// As [`ChunkEncoder::seal_chunk`].
    pub fn seal_final(mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let split = data.len().saturating_sub(MAX_CHUNK);
        self.seal_chunk(&data[..split], out)?;
        put_varint(out, 0);
        self.sealer.seal(FINAL_AAD, &data[split..], out)
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
    fn new(opener: Opener) -> Self {
        Self {
            opener,
            buf: Vec::new(),
            final_seen: false,
            max_chunk: MAX_CHUNK,
        }
    }

    /// Takes `input`, appends the plaintext of every chunk it completes to `out`.
    fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.buf.extend_from_slice(input);
        let limit = self.max_chunk + TAG_LEN;
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
            let Some(ct) = self.buf.get(at + vlen..at + vlen + len) else {
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
    fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        if !self.final_seen {
            return Err(Error::MissingFinalChunk);
        }
        self.opener.open(FINAL_AAD, &self.buf, out)
    }
}

impl Client {
    /// Starts a chunked request (draft-ietf-ohai-chunked-ohttp): returns the bytes that begin
    /// the message (`hdr || enc`), the encoder of its chunks and the decoder of the chunked
    /// response.
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
        let secret = Secret::export(self.aead, |s| ctx.export(RESPONSE_LABEL, s))?;
        let enc = enc.as_bytes();
        let head = [&hdr[..], enc].concat();
        let response = ChunkedResponseDecoder {
            state: ResponseState::Nonce {
                kdf: self.kdf,
                aead: self.aead,
                secret,
                enc: enc.to_vec(),
                buf: Vec::new(),
            },
        };
        Ok((
            head,
            ChunkEncoder {
                sealer: Sealer::Request(Box::new(ctx)),
            },
            response,
        ))
    }
}

/// The client's decoder of a chunked response.
pub struct ChunkedResponseDecoder {
    state: ResponseState,
}

enum ResponseState {
    Nonce {
        kdf: Kdf,
        aead: Aead,
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

impl ChunkedResponseDecoder {
    /// Takes the next bytes of the response; appends the plaintext of each chunk they complete
    /// to `out`.
    ///
    /// # Errors
    /// [`Error::Decrypt`] for a chunk that does not authenticate; [`Error::ChunkTooLarge`] for a
    /// chunk over the limit. After an error the response is unusable.
    pub fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let rest = match &mut self.state {
            ResponseState::Body(chunks) => return chunks.push(input, out),
            ResponseState::Nonce {
                kdf,
                aead,
                secret,
                enc,
                buf,
            } => {
                let need = aead.secret_len() - buf.len();
                if input.len() < need {
                    buf.extend_from_slice(input);
                    return Ok(());
                }
                buf.extend_from_slice(&input[..need]);
                let cipher = ResponseCipher::new(*kdf, *aead, secret, enc, buf)?;
                self.state =
                    ResponseState::Body(Box::new(Chunks::new(Opener::Response(Box::new(cipher)))));
                &input[need..]
            }
        };
        self.push(rest, out)
    }

    /// Ends the response: opens its final chunk into `out`.
    ///
    /// # Errors
    /// [`Error::MissingFinalChunk`] if the response ended without its final chunk (it was
    /// truncated); [`Error::Decrypt`] if the final chunk does not authenticate.
    pub fn finish(self, out: &mut Vec<u8>) -> Result<(), Error> {
        match self.state {
            ResponseState::Body(chunks) => chunks.finish(out),
            ResponseState::Nonce { .. } => Err(Error::MissingFinalChunk),
        }
    }
}

/// The gateway's decoder of a chunked request: the header and `enc`, then the chunks.
pub struct ChunkedRequestDecoder<'g> {
    gateway: &'g Gateway,
    state: RequestState,
    max_chunk: usize,
}

enum RequestState {
    Head(Vec<u8>),
    Body {
        chunks: Box<Chunks>,
        kdf: Kdf,
        aead: Aead,
        secret: Secret,
        enc: Vec<u8>,
    },
}

impl core::fmt::Debug for ChunkedRequestDecoder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkedRequestDecoder")
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// Starts decoding a chunked request (draft-ietf-ohai-chunked-ohttp).
    pub fn decapsulate_chunked(&self) -> ChunkedRequestDecoder<'_> {
        ChunkedRequestDecoder {
            gateway: self,
            state: RequestState::Head(Vec::new()),
            max_chunk: MAX_CHUNK,
        }
    }
}

impl ChunkedRequestDecoder<'_> {
    /// Accepts chunks of up to `max_chunk` bytes of plaintext (default [`MAX_CHUNK`]).
    pub fn with_max_chunk(mut self, max_chunk: usize) -> Self {
        self.max_chunk = max_chunk;
        if let RequestState::Body { chunks, .. } = &mut self.state {
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
    /// does not authenticate; [`Error::ChunkTooLarge`] for a chunk over the limit. After an
    /// error the request is unusable.
    pub fn push(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let buf = match &mut self.state {
            RequestState::Body { chunks, .. } => return chunks.push(input, out),
            RequestState::Head(buf) => {
                buf.extend_from_slice(input);
                buf
            }
        };
        if buf.len() < HEADER_LEN {
            return Ok(());
        }
        let (head, rest) = match self.gateway.head(buf) {
            Ok(parsed) => parsed,
            // The header is whole, so only `enc` can be short: wait for it.
            Err(Error::Truncated) => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut info_buf = [0; INFO_MAX];
        let info = info(REQUEST_LABEL, &head.hdr, &mut info_buf);
        let ctx = head
            .suite
            .setup_receiver(head.enc, head.key.private_key(), info, ReceiverMode::Base)
            .map_err(|_| Error::Decrypt)?;
        let secret = Secret::export(head.aead, |s| ctx.export(RESPONSE_LABEL, s))?;
        let (kdf, aead, enc) = (head.kdf, head.aead, head.enc.to_vec());
        let rest = rest.to_vec();
        let mut chunks = Box::new(Chunks::new(Opener::Request(Box::new(ctx))));
        chunks.max_chunk = self.max_chunk;
        self.state = RequestState::Body {
            chunks,
            kdf,
            aead,
            secret,
            enc,
        };
        self.push(&rest, out)
    }

    /// Starts the chunked response: its first bytes (the response nonce) and the encoder of
    /// its chunks. The response can start before the request has ended.
    ///
    /// # Errors
    /// [`Error::NotReady`] before the request's header and `enc` have been read.
    pub fn response<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Vec<u8>, ChunkEncoder), Error> {
        let RequestState::Body {
            kdf,
            aead,
            secret,
            enc,
            ..
        } = &self.state
        else {
            return Err(Error::NotReady);
        };
        let mut nonce = vec![0; aead.secret_len()];
        rng.fill_bytes(&mut nonce);
        let cipher = ResponseCipher::new(*kdf, *aead, secret, enc, &nonce)?;
        Ok((
            nonce,
            ChunkEncoder {
                sealer: Sealer::Response(Box::new(cipher)),
            },
        ))
    }

    /// Ends the request: opens its final chunk into `out`.
    ///
    /// # Errors
    /// [`Error::Truncated`] if the request ended inside its header or `enc`;
    /// [`Error::MissingFinalChunk`] if it ended without its final chunk; [`Error::Decrypt`] if
    /// the final chunk does not authenticate.
    pub fn finish(self, out: &mut Vec<u8>) -> Result<(), Error> {
        match self.state {
            RequestState::Body { chunks, .. } => chunks.finish(out),
            RequestState::Head(_) => Err(Error::Truncated),
        }
    }
}

/// A `std::io::Write` that seals what is written as chunks into `inner`: buffered up to
/// [`MAX_CHUNK`] bytes, a chunk at each full buffer or [`flush`](io::Write::flush).
/// [`ChunkWriter::finish`] writes the final chunk; dropping the writer without it leaves the
/// message without its final chunk, which the peer refuses.
pub struct ChunkWriter<W: io::Write> {
    inner: W,
    encoder: ChunkEncoder,
    pending: Vec<u8>,
    out: Vec<u8>,
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
        })
    }

    fn seal_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.out.clear();
        self.encoder
            .seal_chunk(&self.pending, &mut self.out)
            .map_err(io_error)?;
        self.pending.clear();
        self.inner.write_all(&self.out)
    }

    /// Writes what is buffered and the final chunk, and returns `inner`.
    ///
    /// # Errors
    /// What writing to `inner` returns; [`Error::MessageLimit`] as an `InvalidData` error.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.clear();
        self.encoder
            .seal_final(&self.pending, &mut self.out)
            .map_err(io_error)?;
        self.inner.write_all(&self.out)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

impl<W: io::Write> io::Write for ChunkWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let take = data.len().min(MAX_CHUNK - self.pending.len());
        self.pending.extend_from_slice(&data[..take]);
        if self.pending.len() == MAX_CHUNK {
            self.seal_pending()?;
        }
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.seal_pending()?;
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
pub struct ChunkReader<R: io::Read, D: ChunkDecoder> {
    inner: R,
    decoder: Option<D>,
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
            plain: Vec::new(),
            at: 0,
            buf: vec![0; 8192].into_boxed_slice(),
        }
    }
}

impl<R: io::Read, D: ChunkDecoder> io::Read for ChunkReader<R, D> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        while self.at == self.plain.len() && self.decoder.is_some() {
            self.plain.clear();
            self.at = 0;
            let n = self.inner.read(&mut self.buf)?;
            if n == 0 {
                if let Some(decoder) = self.decoder.take() {
                    decoder.finish(&mut self.plain).map_err(io_error)?;
                }
            } else if let Some(decoder) = self.decoder.as_mut() {
                decoder
                    .push(&self.buf[..n], &mut self.plain)
                    .map_err(io_error)?;
            }
        }
        let n = dst.len().min(self.plain.len() - self.at);
        dst[..n].copy_from_slice(&self.plain[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
