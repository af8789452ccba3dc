//! The response half of Oblivious HTTP (RFC 9458 §4.4): a key and nonce derived from the
//! request's HPKE exporter, outside HPKE, with the suite's KDF and AEAD. Chunked responses
//! (draft-ietf-ohai-chunked-ohttp) seal their chunks under the same key with a counter in the
//! nonce, as HPKE's `ComputeNonce` does.

use aead::inout::InOutBuf;
use aead::{AeadInOut, Key, KeyInit, Nonce, Tag};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use chacha20poly1305::ChaCha20Poly1305;
use hkdf::Hkdf;
use hkdf::hmac::EagerHash;
use sha2::{Sha256, Sha384, Sha512};
use typed_hpke::suite::MAX_ENC_LEN;
use zeroize::{Zeroize, Zeroizing};

use crate::Error;

/// `Nn` of every AEAD here.
pub(crate) const NONCE_LEN: usize = 12;
/// `Nt` of every AEAD here.
pub(crate) const TAG_LEN: usize = 16;
/// The largest `max(Nn, Nk)`: the response nonce and exporter secret of a 32-byte-key AEAD.
pub(crate) const MAX_SECRET_LEN: usize = 32;

/// The KDF of a suite, as far as Oblivious HTTP can use it: RFC 9458 §4.4 calls `Extract` and
/// `Expand`, which only the two-stage (HKDF) KDFs of RFC 9180 §7.2 have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kdf {
    HkdfSha256,
    HkdfSha384,
    HkdfSha512,
}

/// The AEAD of a suite; ExportOnly has none to seal a response with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Aead {
    Aes128Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
}

impl Kdf {
    pub(crate) fn from_id(id: u16) -> Result<Self, Error> {
        match id {
            0x0001 => Ok(Self::HkdfSha256),
            0x0002 => Ok(Self::HkdfSha384),
            0x0003 => Ok(Self::HkdfSha512),
            _ => Err(Error::UnsupportedSuite),
        }
    }
}

impl Aead {
    pub(crate) fn from_id(id: u16) -> Result<Self, Error> {
        match id {
            0x0001 => Ok(Self::Aes128Gcm),
            0x0002 => Ok(Self::Aes256Gcm),
            0x0003 => Ok(Self::ChaCha20Poly1305),
            _ => Err(Error::UnsupportedSuite),
        }
    }

    /// `Nk`.
    fn key_len(self) -> usize {
        match self {
            Self::Aes128Gcm => 16,
            Self::Aes256Gcm | Self::ChaCha20Poly1305 => 32,
        }
    }

    /// `max(Nn, Nk)`: the length of the exporter secret and of the response nonce.
    pub(crate) fn secret_len(self) -> usize {
        self.key_len().max(NONCE_LEN)
    }
}

/// The exporter secret of one request, `Export("message/bhttp response", max(Nn, Nk))` (or the
/// chunked label), kept until the response is sealed or opened.
pub(crate) struct Secret {
    bytes: Zeroizing<[u8; MAX_SECRET_LEN]>,
    len: usize,
}

impl Secret {
    /// The secret `export` writes into a buffer of `aead`'s length.
    pub(crate) fn export(
        aead: Aead,
        export: impl FnOnce(&mut [u8]) -> Result<(), typed_hpke::Error>,
    ) -> Result<Self, Error> {
        let mut bytes = Zeroizing::new([0u8; MAX_SECRET_LEN]);
        let len = aead.secret_len();
        export(&mut bytes[..len]).map_err(crate::error::from_hpke)?;
        Ok(Self { bytes, len })
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// A keyed AEAD; RustCrypto's ciphers wipe their key schedules on drop (feature `zeroize`).
enum Cipher {
    Aes128Gcm(Aes128Gcm),
    Aes256Gcm(Aes256Gcm),
    ChaCha20Poly1305(ChaCha20Poly1305),
}

/// The response key and nonce of one request, and the counter of the next chunk.
pub(crate) struct ResponseCipher {
    cipher: Cipher,
    nonce: Zeroizing<[u8; NONCE_LEN]>,
    counter: u64,
}

impl core::fmt::Debug for ResponseCipher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ResponseCipher")
            .field("counter", &self.counter)
            .finish_non_exhaustive()
    }
}

fn extract_and_expand<H: EagerHash>(
    salt: &[u8],
    secret: &[u8],
    key: &mut [u8],
    nonce: &mut [u8],
) -> Result<(), Error> {
    // prk = Extract(salt, secret)
    let (mut prk, hkdf) = Hkdf::<H>::extract(Some(salt), secret);
    prk.as_mut_slice().zeroize();
    // aead_key = Expand(prk, "key", Nk); aead_nonce = Expand(prk, "nonce", Nn)
    hkdf.expand(b"key", key)
        .map_err(|_| Error::UnsupportedSuite)?;
    hkdf.expand(b"nonce", nonce)
        .map_err(|_| Error::UnsupportedSuite)
}

fn keyed<C: KeyInit>(key: &[u8]) -> Result<C, Error> {
    let key = Key::<C>::try_from(key).map_err(|_| Error::UnsupportedSuite)?;
    Ok(C::new(&key))
}

macro_rules! with_cipher {
    ($cipher:expr, $c:ident => $body:expr) => {
        match $cipher {
            Cipher::Aes128Gcm($c) => $body,
            Cipher::Aes256Gcm($c) => $body,
            Cipher::ChaCha20Poly1305($c) => $body,
        }
    };
}

fn seal_with<C: AeadInOut>(
    c: &C,
    nonce: &[u8; NONCE_LEN],
    aad: &[u8],
    pt: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let (body, tag_out) = out.split_at_mut(pt.len());
    let nonce = Nonce::<C>::try_from(&nonce[..]).map_err(|_| Error::UnsupportedSuite)?;
    let buf = InOutBuf::new(pt, body).map_err(|_| Error::MessageLimit)?;
    let tag = c
        .encrypt_inout_detached(&nonce, aad, buf)
        .map_err(|_| Error::MessageLimit)?;
    tag_out.copy_from_slice(&tag);
    Ok(())
}

fn open_with<C: AeadInOut>(
    c: &C,
    nonce: &[u8; NONCE_LEN],
    aad: &[u8],
    ct: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let (body, tag) = ct.split_at(ct.len() - TAG_LEN);
    let nonce = Nonce::<C>::try_from(&nonce[..]).map_err(|_| Error::UnsupportedSuite)?;
    let tag = Tag::<C>::try_from(tag).map_err(|_| Error::Decrypt)?;
    let buf = InOutBuf::new(body, out).map_err(|_| Error::Decrypt)?;
    c.decrypt_inout_detached(&nonce, aad, buf, &tag)
        .map_err(|_| Error::Decrypt)
}

impl ResponseCipher {
    /// RFC 9458 §4.4:
    ///
    /// ```text
    /// salt = concat(enc, response_nonce)
    /// prk = Extract(salt, secret)
    /// aead_key = Expand(prk, "key", Nk)
    /// aead_nonce = Expand(prk, "nonce", Nn)
    /// ```
    pub(crate) fn new(
        kdf: Kdf,
        aead: Aead,
        secret: &Secret,
        enc: &[u8],
        response_nonce: &[u8],
    ) -> Result<Self, Error> {
        let mut salt = [0u8; MAX_ENC_LEN + MAX_SECRET_LEN];
        let salt_len = enc.len() + response_nonce.len();
        let salt = salt.get_mut(..salt_len).ok_or(Error::Truncated)?;
        salt[..enc.len()].copy_from_slice(enc);
        salt[enc.len()..].copy_from_slice(response_nonce);

        let mut key = Zeroizing::new([0u8; 32]);
        let key = &mut key[..aead.key_len()];
        let mut nonce = Zeroizing::new([0u8; NONCE_LEN]);
        let secret = secret.as_slice();
        match kdf {
            Kdf::HkdfSha256 => extract_and_expand::<Sha256>(salt, secret, key, &mut nonce[..])?,
            Kdf::HkdfSha384 => extract_and_expand::<Sha384>(salt, secret, key, &mut nonce[..])?,
            Kdf::HkdfSha512 => extract_and_expand::<Sha512>(salt, secret, key, &mut nonce[..])?,
        }
        let cipher = match aead {
            Aead::Aes128Gcm => Cipher::Aes128Gcm(keyed(key)?),
            Aead::Aes256Gcm => Cipher::Aes256Gcm(keyed(key)?),
            Aead::ChaCha20Poly1305 => Cipher::ChaCha20Poly1305(keyed(key)?),
        };
        Ok(Self {
            cipher,
            nonce,
            counter: 0,
        })
    }

    /// The nonce of the next message: `aead_nonce` XOR the counter, big-endian in its last
    /// bytes (RFC 9180 §5.2 `ComputeNonce`, which chunked responses reuse). Then counts it, or
    /// refuses once the counter is spent.
    fn next_nonce(&mut self) -> Result<[u8; NONCE_LEN], Error> {
        let counter = self.counter;
        self.counter = counter.checked_add(1).ok_or(Error::MessageLimit)?;
        let mut nonce = *self.nonce;
        for (n, c) in nonce[NONCE_LEN - 8..].iter_mut().zip(counter.to_be_bytes()) {
            *n ^= c;
        }
        Ok(nonce)
    }

    /// Appends `Seal(aead_key, nonce, aad, pt)` to `out`.
    pub(crate) fn seal(&mut self, aad: &[u8], pt: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let nonce = self.next_nonce()?;
        let start = out.len();
        out.resize(start + pt.len() + TAG_LEN, 0);
        let sealed =
            with_cipher!(&self.cipher, c => seal_with(c, &nonce, aad, pt, &mut out[start..]));
        if sealed.is_err() {
            out.truncate(start);
        }
        sealed
    }

    /// Appends `Open(aead_key, nonce, aad, ct)` to `out`; on failure `out` is as it was.
    pub(crate) fn open(&mut self, aad: &[u8], ct: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        if ct.len() < TAG_LEN {
            return Err(Error::Truncated);
        }
        let nonce = self.next_nonce()?;
        let start = out.len();
        out.resize(start + ct.len() - TAG_LEN, 0);
        let opened =
            with_cipher!(&self.cipher, c => open_with(c, &nonce, aad, ct, &mut out[start..]));
        if opened.is_err() {
            out.truncate(start);
        }
        opened
    }
}
