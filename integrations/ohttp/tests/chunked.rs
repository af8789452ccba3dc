//! Chunked OHTTP (draft-ietf-ohai-chunked-ohttp): round trips for every KEM with bodies on
//! and around the chunk size, bytes given to the decoders in every split; the `Read` and
//! `Write` adapters; truncation, reordering, tampering and oversize chunks refused; and both
//! directions against the `ohttp` crate's `stream` feature.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures::io::{AsyncReadExt, AsyncWriteExt};
use typed_hpke::kem::{DhKemX25519HkdfSha256, Kem, MlKem768, XWing};
use typed_hpke_ohttp::chunked::{ChunkReader, ChunkWriter, MAX_CHUNK, MAX_CHUNK_CEILING};
use typed_hpke_ohttp::{Client, Error, Gateway, GatewayKey, KeyConfig, OsRng, SymmetricSuite};

mod common;
use common::kems;

fn body(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(13) ^ seed)
        .collect()
}

fn setup(kem: u16, pair: SymmetricSuite) -> (Client, Gateway) {
    let key = GatewayKey::generate(1, kem, vec![pair], &mut OsRng::default()).unwrap();
    (
        Client::new(key.config()).unwrap(),
        Gateway::new([key]).unwrap(),
    )
}

/// A client's chunked request of `body`, sealed as `pieces` calls.
fn chunked_request(
    client: &Client,
    body: &[u8],
    pieces: usize,
) -> (Vec<u8>, typed_hpke_ohttp::chunked::ChunkedResponseDecoder) {
    let (mut wire, mut encoder, response) =
        client.encapsulate_chunked(&mut OsRng::default()).unwrap();
    let step = body.len().div_ceil(pieces.max(1)).max(1);
    let mut parts = body.chunks(step).collect::<Vec<_>>();
    let last = parts.pop().unwrap_or(&[]);
    for part in parts {
        encoder.seal_chunk(part, &mut wire).unwrap();
    }
    encoder.seal_final(last, &mut wire).unwrap();
    (wire, response)
}

/// The gateway's reading of `wire`, given to it `split` bytes at a time.
fn gateway_read(gateway: &Gateway, wire: &[u8], split: usize) -> Result<Vec<u8>, Error> {
    let mut decoder = gateway.decapsulate_chunked();
    let mut out = Vec::new();
    for piece in wire.chunks(split.max(1)) {
        decoder.push(piece, &mut out)?;
    }
    decoder.finish(&mut out)?;
    Ok(out)
}

#[test]
fn every_kem_round_trips_in_chunks() {
    let mut rng = OsRng::default();
    for kem in kems() {
        let (client, gateway) = setup(kem, SymmetricSuite::HKDF_SHA256_AES_128_GCM);
        let request = body(3 * MAX_CHUNK + 5, 1);
        let (wire, mut response_decoder) = chunked_request(&client, &request, 4);
        let mut decoder = gateway.decapsulate_chunked();
        let mut got = Vec::new();
        decoder.push(&wire, &mut got).unwrap();
        // The response starts once the header is read, before the request ends.
        let (mut response_wire, mut encoder) = decoder.response(&mut rng).unwrap();
        decoder.finish(&mut got).unwrap();
        assert_eq!(got, request, "kem {kem:#06x}");
        let response = body(2 * MAX_CHUNK, 2);
        encoder
            .seal_chunk(&response[..100], &mut response_wire)
            .unwrap();
        encoder
            .seal_final(&response[100..], &mut response_wire)
            .unwrap();
        let mut opened = Vec::new();
        response_decoder.push(&response_wire, &mut opened).unwrap();
        response_decoder.finish(&mut opened).unwrap();
        assert_eq!(opened, response);
    }
}

#[test]
fn bodies_around_the_chunk_size_in_every_split() {
    let mut rng = OsRng::default();
    for pair in [
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
        SymmetricSuite::HKDF_SHA384_AES_256_GCM,
        SymmetricSuite::new(3, 3),
    ] {
        let (client, gateway) = setup(XWing::ID, pair);
        for len in [0, 1, MAX_CHUNK - 1, MAX_CHUNK, MAX_CHUNK + 1, 2 * MAX_CHUNK] {
            let request = body(len, len as u8);
            for pieces in [1, 3] {
                let (wire, mut response_decoder) = chunked_request(&client, &request, pieces);
                for split in [1, 7, 64, wire.len()] {
                    if split == 1 && len > MAX_CHUNK {
                        continue; // a byte at a time is covered by the shorter bodies
                    }
                    assert_eq!(gateway_read(&gateway, &wire, split).unwrap(), request);
                }
                let mut decoder = gateway.decapsulate_chunked();
                decoder.push(&wire, &mut Vec::new()).unwrap();
                let (mut res, encoder) = decoder.response(&mut rng).unwrap();
                encoder.seal_final(&request, &mut res).unwrap();
                let mut opened = Vec::new();
                for piece in res.chunks(5) {
                    response_decoder.push(piece, &mut opened).unwrap();
                }
                response_decoder.finish(&mut opened).unwrap();
                assert_eq!(opened, request, "{pair:?} {len}");
            }
        }
    }
}

#[test]
fn read_and_write_adapters() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(MlKem768::ID, SymmetricSuite::HKDF_SHA256_CHACHA20_POLY1305);
    let request = body(50_000, 9);
    let (head, encoder, response_decoder) = client.encapsulate_chunked(&mut rng).unwrap();
    let mut writer = ChunkWriter::new(Sink::default(), &head, encoder).unwrap();
    for part in request.chunks(777) {
        writer.write_all(part).unwrap();
    }
    writer.flush().unwrap();
    let wire = writer.finish().unwrap().wire;

    let reader = ChunkReader::new(source(&wire), gateway.decapsulate_chunked());
    assert_eq!(read_all(reader).unwrap(), request);

    let mut decoder = gateway.decapsulate_chunked();
    decoder.push(&wire, &mut Vec::new()).unwrap();
    let (nonce, encoder) = decoder.response(&mut rng).unwrap();
    let mut writer = ChunkWriter::new(Sink::default(), &nonce, encoder).unwrap();
    writer.write_all(b"the response").unwrap();
    let res = writer.finish().unwrap().wire;
    let reader = ChunkReader::new(source(&res), response_decoder);
    assert_eq!(read_all(reader).unwrap(), b"the response");

    // A writer dropped without `finish` leaves no final chunk: the reader says so.
    let (head, encoder, _) = client.encapsulate_chunked(&mut rng).unwrap();
    let mut cut = Sink::default();
    let mut writer = ChunkWriter::new(&mut cut, &head, encoder).unwrap();
    writer.write_all(b"cut").unwrap();
    writer.flush().unwrap();
    drop(writer);
    let reader = ChunkReader::new(source(&cut.wire), gateway.decapsulate_chunked());
    assert_eq!(
        inner_error(read_all(reader).unwrap_err()),
        Error::MissingFinalChunk
    );
}

/// The most bytes any message of these tests has, with room to spare: a sink or a reader past
/// it is looping.
const CAP: usize = 1 << 20;

/// A sink for `ChunkWriter`, with the faults a test sets. It panics when a writer retries it
/// without end (64 failed calls in a row) or gives it more than [`CAP`] bytes, so a writer that
/// loops fails its test instead of hanging it.
#[derive(Debug, Default)]
struct Sink {
    wire: Vec<u8>,
    /// Every write fails (`BrokenPipe`) and takes nothing, and so does `flush`.
    failing: bool,
    /// Every third write takes at most 100 bytes.
    partial: bool,
    /// Every other write is `Interrupted` (which a writer retries); the rest take at most 1000.
    interrupting: bool,
    /// Every write takes nothing and says so with `Ok(0)`.
    zero: bool,
    calls: usize,
    failed_in_a_row: usize,
}

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        use std::io::ErrorKind::{BrokenPipe, Interrupted};
        self.calls += 1;
        let fault = if self.failing {
            Some(Err(BrokenPipe.into()))
        } else if self.zero {
            Some(Ok(0))
        } else if self.interrupting && self.calls.is_multiple_of(2) {
            Some(Err(Interrupted.into()))
        } else {
            None
        };
        if let Some(fault) = fault {
            self.failed_in_a_row += 1;
            assert!(
                self.failed_in_a_row < 64,
                "the writer retries a failing sink without end"
            );
            return fault;
        }
        self.failed_in_a_row = 0;
        let n = if self.partial && self.calls.is_multiple_of(3) {
            data.len().min(100)
        } else if self.interrupting {
            data.len().min(1000)
        } else {
            data.len()
        };
        self.wire.extend_from_slice(&data[..n]);
        assert!(self.wire.len() <= CAP, "the writer writes without end");
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.failing {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }
}

/// A message for `ChunkReader` to read, a few hundred bytes at a time. It panics if it is read
/// again after saying it is at its end: a reader that has met the end has no reason to.
struct Source<'a> {
    data: &'a [u8],
    ends: usize,
}

fn source(data: &[u8]) -> Source<'_> {
    Source { data, ends: 0 }
}

impl Read for Source<'_> {
    fn read(&mut self, dst: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() {
            self.ends += 1;
            assert!(self.ends <= 1, "read again past the end of the message");
            return Ok(0);
        }
        let n = dst.len().min(self.data.len()).min(333);
        dst[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// `read_to_end` of `reader` that fails the test past [`CAP`] bytes instead of hanging.
fn read_all(mut reader: impl Read) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = reader.read(&mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
        assert!(out.len() <= CAP, "the reader reads without end");
    }
}

/// The message's error inside an `io::Error` of the adapters.
fn inner_error(e: std::io::Error) -> Error {
    *e.into_inner().unwrap().downcast::<Error>().unwrap()
}

/// `io::Write`'s contract through an inner writer that fails: a `write` that errs has taken
/// nothing, the chunk sealed when `inner` failed is kept and written by the next call, and
/// the message the peer reads is exactly what was taken, each byte once. Before, the sealed
/// chunk was dropped, the retried bytes were sealed as the next chunk, and `finish` returned
/// `Ok` on a stream the peer refused.
#[test]
fn writer_keeps_the_sealed_chunk_when_inner_fails() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let request = body(3 * MAX_CHUNK + 5, 4);
    let (head, encoder, _) = client.encapsulate_chunked(&mut rng).unwrap();
    let sink = Sink {
        partial: true,
        ..Sink::default()
    };
    let mut writer = ChunkWriter::new(sink, &head, encoder).unwrap();
    writer.write_all(&request[..100]).unwrap();
    // The sink fails as this write fills a chunk: the bytes are taken and sealed, the error
    // is the next call's.
    writer.get_mut().failing = true;
    let mut taken = 100 + writer.write(&request[100..]).unwrap();
    assert_eq!(taken, MAX_CHUNK);
    // While the sink fails, every call fails and takes nothing.
    for _ in 0..3 {
        let e = writer.write(&request[taken..]).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
        assert!(writer.flush().is_err());
    }
    writer.get_mut().failing = false;
    while taken < request.len() {
        let end = (taken + 5000).min(request.len());
        taken += writer.write(&request[taken..end]).unwrap();
    }
    writer.get_mut().failing = true;
    assert!(writer.flush().is_err());
    writer.get_mut().failing = false;
    writer.flush().unwrap();
    let sink = writer.finish().unwrap();
    let reader = ChunkReader::new(source(&sink.wire), gateway.decapsulate_chunked());
    assert_eq!(read_all(reader).unwrap(), request);
}

/// The request's chunks, parsed: (start, end) of each, the final one last.
fn chunk_bounds(wire: &[u8], start: usize) -> Vec<(usize, usize)> {
    let mut at = start;
    let mut out = Vec::new();
    loop {
        let first = wire[at];
        let vlen = 1 << (first >> 6);
        let mut len = u64::from(first & 0x3f);
        for b in &wire[at + 1..at + vlen] {
            len = (len << 8) | u64::from(*b);
        }
        if len == 0 {
            out.push((at, wire.len()));
            return out;
        }
        out.push((at, at + vlen + len as usize));
        at += vlen + len as usize;
    }
}

#[test]
fn truncated_reordered_tampered() {
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let request = body(3 * 1000, 4);
    let (wire, _) = chunked_request(&client, &request, 3);
    let start = 7 + 32;
    let chunks = chunk_bounds(&wire, start);
    assert_eq!(chunks.len(), 3);

    // Cut anywhere: inside the header or enc, the message is truncated; before the final
    // chunk's marker, the final chunk is missing; inside the final chunk, it is short of a tag
    // or does not authenticate.
    let final_at = chunks[2].0;
    for len in 0..wire.len() {
        let err = gateway_read(&gateway, &wire[..len], wire.len()).unwrap_err();
        let want = if len < start {
            Error::Truncated
        } else if len <= final_at {
            Error::MissingFinalChunk
        } else if len < final_at + 1 + 16 {
            Error::Truncated
        } else {
            Error::Decrypt
        };
        assert_eq!(err, want, "cut at {len}");
    }
    // Cut at the end of a non-final chunk and marked final: the AAD differs.
    let (a, b) = chunks[1];
    let forged = [&wire[..a], &[0], &wire[a + 2..b]].concat();
    assert_eq!(
        gateway_read(&gateway, &forged, 64).unwrap_err(),
        Error::Decrypt
    );
    // Two chunks swapped: the nonces differ.
    let (c0, c1) = (chunks[0], chunks[1]);
    let swapped = [
        &wire[..c0.0],
        &wire[c1.0..c1.1],
        &wire[c0.0..c0.1],
        &wire[c1.1..],
    ]
    .concat();
    assert_eq!(
        gateway_read(&gateway, &swapped, 64).unwrap_err(),
        Error::Decrypt
    );
    // A chunk after the final one is part of the final chunk's ciphertext.
    let after = [&wire[..], &wire[c0.0..c0.1]].concat();
    assert_eq!(
        gateway_read(&gateway, &after, 64).unwrap_err(),
        Error::Decrypt
    );
    // Any byte changed past the header.
    for at in 7..wire.len() {
        let mut t = wire.clone();
        t[at] ^= 0x20;
        assert!(gateway_read(&gateway, &t, 100).is_err(), "byte {at}");
    }
    // A chunk over the limit is refused as soon as its length is read.
    let mut decoder = gateway.decapsulate_chunked().with_max_chunk(999);
    assert_eq!(
        decoder.push(&wire, &mut Vec::new()).unwrap_err(),
        Error::ChunkTooLarge
    );
    // The response cannot start before the header has been read.
    let mut decoder = gateway.decapsulate_chunked();
    decoder.push(&wire[..10], &mut Vec::new()).unwrap();
    assert_eq!(
        decoder.response(&mut OsRng::default()).unwrap_err(),
        Error::NotReady
    );
    // An unknown key id is refused as soon as the header is read.
    let mut other = wire.clone();
    other[0] = 2;
    assert_eq!(
        gateway
            .decapsulate_chunked()
            .push(&other[..7], &mut Vec::new())
            .unwrap_err(),
        Error::UnknownKeyId
    );
}

#[test]
fn response_truncated() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(XWing::ID, SymmetricSuite::HKDF_SHA256_AES_128_GCM);
    let mut make = || {
        let (wire, response_decoder) = chunked_request(&client, b"q", 1);
        let mut decoder = gateway.decapsulate_chunked();
        decoder.push(&wire, &mut Vec::new()).unwrap();
        let (mut res, mut encoder) = decoder.response(&mut rng).unwrap();
        encoder.seal_chunk(b"first", &mut res).unwrap();
        encoder.seal_final(b"last", &mut res).unwrap();
        (res, response_decoder)
    };
    let full = make().0.len();
    for len in 0..full {
        // Each cut of a fresh exchange's response, opened by that exchange's decoder.
        let (res, mut decoder) = make();
        let mut out = Vec::new();
        let r = decoder
            .push(&res[..len], &mut out)
            .and_then(|()| decoder.finish(&mut out));
        // The nonce (16 bytes), the first chunk (1 + 21), the final marker (1), the final
        // chunk (4 + 16): before the marker no final chunk, then one short of a tag, then one
        // that does not authenticate.
        let marker = 16 + 1 + 21;
        let want = if len <= marker {
            Error::MissingFinalChunk
        } else if len < marker + 1 + 16 {
            Error::Truncated
        } else {
            Error::Decrypt
        };
        assert_eq!(r.unwrap_err(), want, "cut at {len}");
    }
}

/// An `AsyncWrite` into a buffer the test keeps a handle on.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl futures::io::AsyncWrite for Shared {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.borrow_mut().extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[test]
fn against_the_ohttp_crate_both_ways() {
    use ohttp::hpke::{Aead as OAead, Kdf as OKdf, Kem as OKem};
    let mut rng = OsRng::default();
    for (okem, kem) in [
        (OKem::X25519Sha256, 0x0020),
        (OKem::P256Sha256, 0x0010),
        (OKem::XWing, 0x647a),
    ] {
        for (oaead, aead) in [(OAead::Aes128Gcm, 1), (OAead::ChaCha20Poly1305, 3)] {
            let ikm = [kem as u8 ^ aead as u8; 32];
            let pair = SymmetricSuite::new(1, aead);
            let request = body(2 * MAX_CHUNK + 99, 3);
            let response = body(MAX_CHUNK + 1, 4);

            // The peer's chunked request to our gateway, our chunked response back.
            let key = GatewayKey::derive(4, kem, vec![pair], &ikm).unwrap();
            let encoded = key.config().encode();
            let gateway = Gateway::new([key]).unwrap();
            let wire = Shared::default();
            let client = ohttp::ClientRequest::from_encoded_config(&encoded).unwrap();
            let mut stream = client.encapsulate_stream(wire.clone()).unwrap();
            futures::executor::block_on(async {
                stream.write_all(&request).await.unwrap();
                stream.close().await.unwrap();
            });
            let sent = wire.0.borrow().clone();
            let mut decoder = gateway.decapsulate_chunked();
            let mut got = Vec::new();
            decoder.push(&sent, &mut got).unwrap();
            let (mut res, encoder) = decoder.response(&mut rng).unwrap();
            decoder.finish(&mut got).unwrap();
            assert_eq!(got, request, "kem {kem:#06x} aead {aead}");
            encoder.seal_final(&response, &mut res).unwrap();
            let mut opened = Vec::new();
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                futures::executor::block_on(async {
                    let mut reader = stream.response(&res[..]).unwrap();
                    reader.read_to_end(&mut opened).await.unwrap();
                })
            }));
            if aead == 3 {
                // ohttp 0.8's chunked client reads the response nonce into a 16-byte buffer,
                // but ChaCha20-Poly1305's is max(Nn, Nk) = 32 bytes (RFC 9458 §4.4): it
                // panics on every chunked ChaCha20-Poly1305 response. This direction is
                // checked for AES-128-GCM; for ChaCha20-Poly1305 our client reads its
                // gateway's response below.
                assert!(
                    read.is_err(),
                    "ohttp's chunked ChaCha20-Poly1305 client works now"
                );
            } else {
                read.unwrap();
                assert_eq!(opened, response);
            }

            // Our chunked request to the peer's gateway, its chunked response back.
            let theirs = ohttp::KeyConfig::derive(
                4,
                okem,
                vec![ohttp::SymmetricSuite::new(OKdf::HkdfSha256, oaead)],
                &ikm,
            )
            .unwrap();
            let client =
                Client::new(&KeyConfig::decode(&theirs.encode().unwrap()).unwrap()).unwrap();
            let server = ohttp::Server::new(theirs).unwrap();
            let (wire, _) = chunked_request(&client, &request, 3);
            let mut server_request = server.clone().decapsulate_stream(&wire[..]);
            let mut got = Vec::new();
            futures::executor::block_on(server_request.read_to_end(&mut got)).unwrap();
            assert_eq!(got, request);

            let (mut wire, mut encoder, mut response_decoder) =
                client.encapsulate_chunked(&mut rng).unwrap();
            encoder.seal_chunk(&request, &mut wire).unwrap();
            encoder.seal_final(&[], &mut wire).unwrap();
            let mut server_request = server.decapsulate_stream(&wire[..]);
            let mut got = Vec::new();
            futures::executor::block_on(server_request.read_to_end(&mut got)).unwrap();
            assert_eq!(got, request);
            let out = Shared::default();
            let mut server_response = server_request.response(out.clone()).unwrap();
            futures::executor::block_on(async {
                server_response.write_all(&response).await.unwrap();
                server_response.close().await.unwrap();
            });
            let res = out.0.borrow().clone();
            let mut opened = Vec::new();
            response_decoder.push(&res, &mut opened).unwrap();
            response_decoder.finish(&mut opened).unwrap();
            assert_eq!(opened, response);
        }
    }
}

/// draft-ietf-ohai-chunked-ohttp-08 §A ("Example"), byte for byte, both directions: the
/// client's chunked request from the published ephemeral key (chunks of 12, 13 and 0 bytes),
/// the gateway's chunked response from the published response nonce (1, 2 and 0 bytes), the
/// response key and base nonce from the published secret and salt, the published chunk nonces
/// as the sequence `aead_nonce XOR i`, and each published message opened by the other side.
mod draft_example {
    use super::common::Replay;
    use super::*;
    use typed_hpke::suite;

    const SK_R: &str = "1c190d72acdbe4dbc69e680503bb781a932c70a12c8f3754434c67d8640d8698";
    const KEY_CONFIG: &str = "010020668eb21aace159803974a4c67f08b4152d29bed10735fd08f98ccdd6fe09570800080001000100010003";
    const REQUEST: &str = "00034745540568747470730b6578616d706c652e636f6d012f";
    const SK_E: &str = "b26d565f3f875ed480d1abced3d665159650c99174fd0b124ac4bda0c64ae324";
    const ENC_REQUEST: &str = concat!(
        "01002000010001",
        "8811eb457e100811c40a0aa71340a1b81d804bb986f736f2f566a7199761a032",
        "1c2ad24942d4d692563012f2980c8fef437a336b9b2fc938ef77a5834f",
        "1d2e33d8fd25577afe31bd1c79d094f76b6250ae6549b473ecd950501311",
        "001c6c1395d0ef7c1022297966307b8a7f",
    );
    const RESPONSE: &str = "0140c8";
    const SECRET: &str = "1d4484834ae36102a6ac42a5523454d9";
    const SALT: &str = "8811eb457e100811c40a0aa71340a1b81d804bb986f736f2f566a7199761a032bcce7f4cb921309ba5d62edf1769ef09";
    const AEAD_KEY: &str = "8209f78f2a1610d80c7125009b00aff0";
    const AEAD_NONCE: &str = "fead854635d2d5527d64f546";
    const ENC_RESPONSE: &str = concat!(
        "bcce7f4cb921309ba5d62edf1769ef09",
        "1179bf1cc87fa0e2c02de4546945aa3d1e48",
        "12b348b5bd4c594c16b6170b07b475845d1f32",
        "00ed9d8a796617a5b27265f4d73247f639",
    );
    const CHUNK_NONCES: [&str; 3] = [
        "fead854635d2d5527d64f546",
        "fead854635d2d5527d64f547",
        "fead854635d2d5527d64f544",
    ];

    fn h(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    fn gateway() -> Gateway {
        let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
        let key = GatewayKey::from_bytes_for_config(&h(SK_R), &config).unwrap();
        Gateway::new([key]).unwrap()
    }

    #[test]
    fn client_request_is_the_published_one() {
        let config = KeyConfig::decode(&h(KEY_CONFIG)).unwrap();
        let client = Client::new(&config).unwrap();
        let (mut wire, mut encoder, mut response) =
            client.encapsulate_chunked(&mut Replay(h(SK_E))).unwrap();
        let request = h(REQUEST);
        encoder.seal_chunk(&request[..12], &mut wire).unwrap();
        encoder.seal_chunk(&request[12..], &mut wire).unwrap();
        encoder.seal_final(&[], &mut wire).unwrap();
        assert_eq!(hex::encode(&wire), ENC_REQUEST);
        // The published response opens with this request's state, a byte at a time.
        let mut out = Vec::new();
        for byte in h(ENC_RESPONSE) {
            response.push(&[byte], &mut out).unwrap();
        }
        response.finish(&mut out).unwrap();
        assert_eq!(out, h(RESPONSE));
    }

    #[test]
    fn gateway_response_is_the_published_one() {
        let gateway = gateway();
        let mut decoder = gateway.decapsulate_chunked();
        let mut request = Vec::new();
        decoder.push(&h(ENC_REQUEST), &mut request).unwrap();
        let (nonce, encoder) = decoder.response(&mut Replay(h(&SALT[64..]))).unwrap();
        decoder.finish(&mut request).unwrap();
        assert_eq!(request, h(REQUEST));
        let mut wire = nonce;
        let mut encoder = encoder;
        let response = h(RESPONSE);
        encoder.seal_chunk(&response[..1], &mut wire).unwrap();
        encoder.seal_chunk(&response[1..], &mut wire).unwrap();
        encoder.seal_final(&[], &mut wire).unwrap();
        assert_eq!(hex::encode(&wire), ENC_RESPONSE);
    }

    /// The response's key schedule through typed-hpke's symmetric surface, and the chunk
    /// nonces: published nonce `i` is `aead_nonce XOR i`, and an `Opener` keyed with the
    /// published key and nonce opens published chunk `i` as the `i`-th message.
    #[test]
    fn response_keys_and_chunk_nonces() {
        let prk = suite::Prk::extract(0x0001, &h(SALT), &[&h(SECRET)]).unwrap();
        let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
        prk.expand(&[b"key"], &mut key).unwrap();
        prk.expand(&[b"nonce"], &mut nonce).unwrap();
        assert_eq!(
            (hex::encode(key), hex::encode(nonce)),
            (AEAD_KEY.into(), AEAD_NONCE.into())
        );
        for (i, published) in CHUNK_NONCES.iter().enumerate() {
            let mut n = nonce;
            n[11] ^= i as u8;
            assert_eq!(hex::encode(n), *published);
        }
        let wire = h(ENC_RESPONSE);
        // nonce (16) || 0x11 ct (17) || 0x12 ct (18) || 0x00 ct (16): (start, length, AAD)
        let chunks = [(17, 17, &b""[..]), (35, 18, b""), (54, 16, b"final")];
        assert_eq!(wire.len(), 70);
        let mut opener = suite::Opener::new(0x0001, &key, &nonce).unwrap();
        let mut plain = Vec::new();
        for (at, len, aad) in chunks {
            plain.extend(opener.open(aad, &wire[at..at + len]).unwrap());
        }
        assert_eq!(plain, h(RESPONSE));
    }
}

/// A sealed chunk stream of `plaintexts` under a fresh request context, as the draft frames it,
/// with any chunk empty: what an encoder never writes, so a decoder's refusal can be seen.
fn raw_chunked_request(config: &KeyConfig, plaintexts: &[&[u8]]) -> Vec<u8> {
    use typed_hpke::suite::{SenderMode, Suite};
    let suite = Suite::new(config.kem_id(), 1, 1).unwrap();
    let hdr = [
        &[config.key_id()][..],
        &config.kem_id().to_be_bytes(),
        &[0, 1, 0, 1],
    ]
    .concat();
    let info = [&b"message/bhttp chunked request\0"[..], &hdr].concat();
    let (enc, mut ctx) = suite
        .setup_sender(
            &mut OsRng::default(),
            config.public_key(),
            &info,
            SenderMode::Base,
        )
        .unwrap();
    let mut wire = [&hdr[..], enc.as_bytes()].concat();
    for pt in plaintexts {
        let ct = ctx.seal(b"", pt).unwrap();
        wire.push(ct.len() as u8);
        wire.extend(ct);
    }
    wire.push(0);
    wire.extend(ctx.seal(b"final", b"").unwrap());
    wire
}

#[test]
fn empty_non_final_chunk_is_refused() {
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let config = gateway.keys()[0].config();
    // The same framing with no empty chunk is accepted: the refusal is for the empty chunk.
    let whole = raw_chunked_request(config, &[b"ab", b"cd"]);
    assert_eq!(gateway_read(&gateway, &whole, 1000).unwrap(), b"abcd");
    for chunks in [&[&b""[..]][..], &[b"ab", b""], &[b"", b"cd"]] {
        let wire = raw_chunked_request(config, chunks);
        for split in [1, 5, 1000] {
            assert_eq!(
                gateway_read(&gateway, &wire, split).unwrap_err(),
                Error::Decrypt
            );
        }
    }
    // A length shorter than a tag is refused too, before any chunk is opened.
    let (mut wire, _, _) = client.encapsulate_chunked(&mut OsRng::default()).unwrap();
    wire.extend([5, 1, 2, 3, 4, 5]);
    let mut decoder = gateway.decapsulate_chunked();
    assert_eq!(
        decoder.push(&wire, &mut Vec::new()).unwrap_err(),
        Error::Decrypt
    );
}

/// Every error is returned by every later call: of the decoders (`push`, `finish`,
/// `response`), of `ChunkReader` (`read`, through `lines()`), and nothing after an error
/// reads as a clean end.
#[test]
fn errors_are_sticky() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let (wire, mut response_decoder) = chunked_request(&client, &body(3000, 9), 3);

    // An unknown key id: every later push, the response and finish say so.
    let mut other = wire.clone();
    other[0] = 7;
    let mut decoder = gateway.decapsulate_chunked();
    assert_eq!(
        decoder.push(&other, &mut Vec::new()),
        Err(Error::UnknownKeyId)
    );
    assert_eq!(
        decoder.push(&wire, &mut Vec::new()),
        Err(Error::UnknownKeyId)
    );
    assert_eq!(decoder.response(&mut rng).unwrap_err(), Error::UnknownKeyId);
    assert_eq!(decoder.finish(&mut Vec::new()), Err(Error::UnknownKeyId));

    // A final chunk over the limit: finish does not open it anyway.
    let final_at = chunk_bounds(&wire, 7 + 32)[2].0;
    let mut decoder = gateway.decapsulate_chunked().with_max_chunk(1);
    let mut out = Vec::new();
    assert_eq!(
        decoder.push(&wire[..final_at], &mut out),
        Err(Error::ChunkTooLarge)
    );
    assert_eq!(
        decoder.push(&wire[final_at..], &mut out),
        Err(Error::ChunkTooLarge)
    );
    assert_eq!(decoder.finish(&mut out), Err(Error::ChunkTooLarge));
    assert!(out.is_empty());

    // A tampered chunk of a response: the client's decoder keeps the error through finish.
    let mut decoder = gateway.decapsulate_chunked();
    decoder.push(&wire, &mut Vec::new()).unwrap();
    let (mut res, mut encoder) = decoder.response(&mut rng).unwrap();
    encoder.seal_chunk(b"first", &mut res).unwrap();
    encoder.seal_final(b"last", &mut res).unwrap();
    let nonce_len = 16;
    res[nonce_len + 3] ^= 1;
    let mut out = Vec::new();
    assert_eq!(response_decoder.push(&res, &mut out), Err(Error::Decrypt));
    assert_eq!(response_decoder.push(&[], &mut out), Err(Error::Decrypt));
    assert_eq!(response_decoder.finish(&mut out), Err(Error::Decrypt));
    assert!(out.is_empty());

    // A truncated body read through `ChunkReader`: the missing final chunk is an error on the
    // read that meets the end and on every read after it; `lines()` never ends cleanly.
    let cut = &wire[..final_at];
    let mut reader = ChunkReader::new(source(cut), gateway.decapsulate_chunked());
    let first = read_all(&mut reader).unwrap_err();
    assert_eq!(inner_error(first), Error::MissingFinalChunk);
    for _ in 0..3 {
        let again = reader.read(&mut [0u8; 64]).unwrap_err();
        assert_eq!(inner_error(again), Error::MissingFinalChunk);
    }
    // Bounded as `read_all` is: a reader that never ends fails here rather than hangs.
    let reader = ChunkReader::new(source(cut), gateway.decapsulate_chunked()).take(CAP as u64);
    let lines = std::io::BufReader::new(reader);
    use std::io::BufRead;
    let mut results = lines.lines().take(20);
    assert!(
        results.all(|line| line.is_err()),
        "no line of a truncated body reads as whole"
    );
}

#[test]
fn response_starts_once_and_limits_cannot_overflow() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_CHACHA20_POLY1305,
    );
    let request = body(2 * MAX_CHUNK + 1, 3);
    let (wire, _) = chunked_request(&client, &request, 2);
    let mut decoder = gateway.decapsulate_chunked().with_max_chunk(usize::MAX);
    let mut got = Vec::new();
    decoder.push(&wire, &mut got).unwrap();
    decoder.response(&mut rng).unwrap();
    assert_eq!(
        decoder.response(&mut rng).unwrap_err(),
        Error::ResponseStarted
    );
    decoder.finish(&mut got).unwrap();
    assert_eq!(got, request);
    // The largest lengths a varint can carry, under the largest limit (the ceiling): refused
    // when the length is read, before any of the chunk is held; one at the ceiling waits.
    let ceiling = (MAX_CHUNK_CEILING + 16) as u32 | 0x8000_0000;
    for len in [[0xbf, 0xff, 0xff, 0xff].as_slice(), &[0xff; 8]] {
        let mut decoder = gateway.decapsulate_chunked().with_max_chunk(usize::MAX);
        let mut head = wire[..7 + 32].to_vec();
        head.extend_from_slice(len);
        assert_eq!(
            decoder.push(&head, &mut Vec::new()),
            Err(Error::ChunkTooLarge)
        );
        let mut decoder = gateway.decapsulate_chunked().with_max_chunk(usize::MAX);
        let mut head = wire[..7 + 32].to_vec();
        head.extend_from_slice(&ceiling.to_be_bytes());
        decoder.push(&head, &mut Vec::new()).unwrap();
        decoder.push(&[0u8; 100], &mut Vec::new()).unwrap();
        assert_eq!(
            decoder.finish(&mut Vec::new()),
            Err(Error::MissingFinalChunk)
        );
        let over = ((MAX_CHUNK_CEILING + 17) as u32 | 0x8000_0000).to_be_bytes();
        let mut decoder = gateway.decapsulate_chunked().with_max_chunk(usize::MAX);
        let mut head = wire[..7 + 32].to_vec();
        head.extend_from_slice(&over);
        assert_eq!(
            decoder.push(&head, &mut Vec::new()),
            Err(Error::ChunkTooLarge)
        );
    }
}

/// `ChunkWriter` retries an interrupted write of `inner` itself (its `flush` and `finish`
/// return no `Interrupted`, which `write_all` would retry but they are not), writes each byte
/// of a sealed chunk once however little `inner` takes at a time, and turns an `inner` that
/// takes nothing into `WriteZero`, not a loop.
#[test]
fn writer_retries_interruptions_and_refuses_a_sink_that_takes_nothing() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let request = body(2 * MAX_CHUNK + 300, 6);
    let (head, encoder, _) = client.encapsulate_chunked(&mut rng).unwrap();
    let sink = Sink {
        interrupting: true,
        ..Sink::default()
    };
    let mut writer = ChunkWriter::new(sink, &head, encoder).unwrap();
    writer.write_all(&request[..MAX_CHUNK + 10]).unwrap();
    writer.flush().unwrap();
    writer.write_all(&request[MAX_CHUNK + 10..]).unwrap();
    let sink = writer.finish().unwrap();
    assert_eq!(gateway_read(&gateway, &sink.wire, 4096).unwrap(), request);

    let (head, encoder, _) = client.encapsulate_chunked(&mut rng).unwrap();
    let mut writer = ChunkWriter::new(Sink::default(), &head, encoder).unwrap();
    writer.get_mut().zero = true;
    assert_eq!(writer.write(&request[..MAX_CHUNK]).unwrap(), MAX_CHUNK);
    for _ in 0..2 {
        let e = writer.flush().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::WriteZero);
    }
    let e = writer.finish().unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::WriteZero);
}

/// `ChunkReader` gives each plaintext byte once, in order, into small buffers, then `Ok(0)`
/// on every later read without reading `inner` past its end again. The loop is bounded, so a
/// reader that never ends fails here instead of hanging.
#[test]
fn reader_gives_each_byte_once_then_ends() {
    let (client, gateway) = setup(MlKem768::ID, SymmetricSuite::HKDF_SHA256_AES_128_GCM);
    let request = body(MAX_CHUNK + 1000, 8);
    let (wire, _) = chunked_request(&client, &request, 3);
    let mut reader = ChunkReader::new(source(&wire), gateway.decapsulate_chunked());
    let mut got = Vec::new();
    let mut buf = [0u8; 100];
    let mut ended = false;
    for _ in 0..request.len() {
        let n = reader.read(&mut buf).unwrap();
        if n == 0 {
            ended = true;
            break;
        }
        got.extend_from_slice(&buf[..n]);
        assert!(
            got.len() <= request.len(),
            "more bytes than the message holds"
        );
    }
    assert!(ended, "the reader did not reach the end");
    assert_eq!(got, request);
    for _ in 0..3 {
        assert_eq!(reader.read(&mut buf).unwrap(), 0);
    }
}

/// The chunked types' `Debug` names the type and shows no key or plaintext: the encoder its
/// sticky error alone, the others nothing.
#[test]
fn debug_names_each_type_and_nothing_secret() {
    let mut rng = OsRng::default();
    let (client, gateway) = setup(
        DhKemX25519HkdfSha256::ID,
        SymmetricSuite::HKDF_SHA256_AES_128_GCM,
    );
    let (head, encoder, response) = client.encapsulate_chunked(&mut rng).unwrap();
    assert_eq!(format!("{encoder:?}"), "ChunkEncoder { failed: None, .. }");
    assert_eq!(format!("{response:?}"), "ChunkedResponseDecoder { .. }");
    let decoder = gateway.decapsulate_chunked();
    assert_eq!(format!("{decoder:?}"), "ChunkedRequestDecoder { .. }");
    let reader = ChunkReader::new(&b""[..], decoder);
    assert_eq!(format!("{reader:?}"), "ChunkReader { .. }");
    let writer = ChunkWriter::new(Sink::default(), &head, encoder).unwrap();
    assert_eq!(format!("{writer:?}"), "ChunkWriter { .. }");
}
