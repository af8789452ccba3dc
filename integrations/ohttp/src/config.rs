//! Key configurations (RFC 9458 §3.1) and the `application/ohttp-keys` list (§3.2).

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf};
use typed_hpke::suite::{self, AnyKem, Suite};

use crate::Error;

/// One (KDF, AEAD) pair a key configuration offers ("HPKE Symmetric Algorithms", RFC 9458
/// §3.1). The ids are kept as they came: a configuration may list pairs this crate cannot use,
/// which a client passes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymmetricSuite {
    /// The HPKE KDF id (RFC 9180 §7.2).
    pub kdf_id: u16,
    /// The HPKE AEAD id (RFC 9180 §7.3).
    pub aead_id: u16,
}

impl SymmetricSuite {
    /// HKDF-SHA256 with AES-128-GCM, the pair of RFC 9458 Appendix A.
    pub const HKDF_SHA256_AES_128_GCM: Self =
        Self::new(<HkdfSha256 as Kdf>::ID, <Aes128Gcm as Aead>::ID);
    /// HKDF-SHA256 with AES-256-GCM.
    pub const HKDF_SHA256_AES_256_GCM: Self =
        Self::new(<HkdfSha256 as Kdf>::ID, <Aes256Gcm as Aead>::ID);
    /// HKDF-SHA256 with ChaCha20-Poly1305.
    pub const HKDF_SHA256_CHACHA20_POLY1305: Self =
        Self::new(<HkdfSha256 as Kdf>::ID, <ChaCha20Poly1305 as Aead>::ID);
    /// HKDF-SHA384 with AES-128-GCM.
    pub const HKDF_SHA384_AES_128_GCM: Self =
        Self::new(<HkdfSha384 as Kdf>::ID, <Aes128Gcm as Aead>::ID);
    /// HKDF-SHA384 with AES-256-GCM.
    pub const HKDF_SHA384_AES_256_GCM: Self =
        Self::new(<HkdfSha384 as Kdf>::ID, <Aes256Gcm as Aead>::ID);
    /// HKDF-SHA384 with ChaCha20-Poly1305.
    pub const HKDF_SHA384_CHACHA20_POLY1305: Self =
        Self::new(<HkdfSha384 as Kdf>::ID, <ChaCha20Poly1305 as Aead>::ID);
    /// HKDF-SHA512 with AES-128-GCM.
    pub const HKDF_SHA512_AES_128_GCM: Self =
        Self::new(<HkdfSha512 as Kdf>::ID, <Aes128Gcm as Aead>::ID);
    /// HKDF-SHA512 with AES-256-GCM.
    pub const HKDF_SHA512_AES_256_GCM: Self =
        Self::new(<HkdfSha512 as Kdf>::ID, <Aes256Gcm as Aead>::ID);
    /// HKDF-SHA512 with ChaCha20-Poly1305.
    pub const HKDF_SHA512_CHACHA20_POLY1305: Self =
        Self::new(<HkdfSha512 as Kdf>::ID, <ChaCha20Poly1305 as Aead>::ID);

    /// Every pair this crate can use, HKDF-SHA256 first.
    pub const ALL: [Self; 9] = [
        Self::HKDF_SHA256_AES_128_GCM,
        Self::HKDF_SHA256_AES_256_GCM,
        Self::HKDF_SHA256_CHACHA20_POLY1305,
        Self::HKDF_SHA384_AES_128_GCM,
        Self::HKDF_SHA384_AES_256_GCM,
        Self::HKDF_SHA384_CHACHA20_POLY1305,
        Self::HKDF_SHA512_AES_128_GCM,
        Self::HKDF_SHA512_AES_256_GCM,
        Self::HKDF_SHA512_CHACHA20_POLY1305,
    ];

    /// The pair with these ids.
    pub const fn new(kdf_id: u16, aead_id: u16) -> Self {
        Self { kdf_id, aead_id }
    }

    /// Whether this crate can use the pair: a KDF with `Extract` and `Expand` (RFC 9458 §4.4
    /// calls both; the one-stage KDFs of draft-ietf-hpke-hpke have neither) and an AEAD that
    /// seals (not ExportOnly), as typed-hpke's `suite::Prk` and `suite::Sealer` say.
    pub fn is_supported(self) -> bool {
        suite::Prk::supports(self.kdf_id) && suite::Sealer::supports(self.aead_id)
    }

    /// The HPKE suite of `kem` with this pair, if this crate can use it.
    pub(crate) fn suite(self, kem: AnyKem) -> Result<Suite, Error> {
        if !self.is_supported() {
            return Err(Error::UnsupportedSuite);
        }
        Suite::new(kem.id(), self.kdf_id, self.aead_id).map_err(|_| Error::UnsupportedSuite)
    }
}

/// The most pairs a configuration can list: the list's length is a 16-bit count of bytes.
const MAX_SYMMETRIC: usize = 0xfffc / 4;

/// A gateway's key configuration (RFC 9458 §3.1): its key identifier, KEM, public key and the
/// (KDF, AEAD) pairs it accepts.
///
/// ```text
/// Key Config {
///   Key Identifier (8),
///   HPKE KEM ID (16),
///   HPKE Public Key (Npk * 8),
///   HPKE Symmetric Algorithms Length (16) = 4..65532,
///   HPKE Symmetric Algorithms (32) ...,
/// }
/// ```
///
/// Every KEM typed-hpke has can be a configuration's: the DH-KEMs, ML-KEM-512/768/1024, X-Wing
/// and the ML-KEM hybrids with P-256 and P-384.
#[derive(Clone, Debug)]
pub struct KeyConfig {
    key_id: u8,
    public_key: suite::PublicKey,
    symmetric: Vec<SymmetricSuite>,
}

impl PartialEq for KeyConfig {
    fn eq(&self, other: &Self) -> bool {
        self.key_id == other.key_id
            && self.public_key.kem_id() == other.public_key.kem_id()
            && self.public_key.as_bytes() == other.public_key.as_bytes()
            && self.symmetric == other.symmetric
    }
}

impl Eq for KeyConfig {}

/// The KEM `kem_id`, if typed-hpke has it.
pub(crate) fn kem(kem_id: u16) -> Result<AnyKem, Error> {
    AnyKem::new(kem_id).map_err(|_| Error::UnsupportedSuite)
}

/// A cursor over bytes being parsed; running out is `err`.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    err: Error,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], err: Error) -> Self {
        Self { bytes, err }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.bytes.len() < n {
            return Err(self.err);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, Error> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn rest(self) -> &'a [u8] {
        self.bytes
    }
}

impl KeyConfig {
    /// A configuration for `public_key`, offering `symmetric` in order of preference.
    ///
    /// # Errors
    /// [`Error::InvalidKeyConfig`] for an empty list or one longer than the encoding holds
    /// (16,383 pairs).
    pub fn new(
        key_id: u8,
        public_key: suite::PublicKey,
        symmetric: Vec<SymmetricSuite>,
    ) -> Result<Self, Error> {
        if symmetric.is_empty() || symmetric.len() > MAX_SYMMETRIC {
            return Err(Error::InvalidKeyConfig);
        }
        Ok(Self {
            key_id,
            public_key,
            symmetric,
        })
    }

    /// The key identifier.
    pub fn key_id(&self) -> u8 {
        self.key_id
    }

    /// The HPKE KEM id.
    pub fn kem_id(&self) -> u16 {
        self.public_key.kem_id()
    }

    /// The HPKE KEM.
    pub(crate) fn kem(&self) -> AnyKem {
        self.public_key.kem()
    }

    /// The gateway's public key.
    pub fn public_key(&self) -> &suite::PublicKey {
        &self.public_key
    }

    /// The (KDF, AEAD) pairs offered, in the configuration's order.
    pub fn symmetric(&self) -> &[SymmetricSuite] {
        &self.symmetric
    }

    /// The first pair offered that this crate can use, in the configuration's order.
    pub(crate) fn first_supported(&self) -> Option<SymmetricSuite> {
        self.symmetric.iter().copied().find(|s| s.is_supported())
    }

    /// Whether the configuration lists `symmetric`.
    pub(crate) fn offers(&self, symmetric: SymmetricSuite) -> bool {
        self.symmetric.contains(&symmetric)
    }

    /// The encoded configuration, appended to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.push(self.key_id);
        out.extend_from_slice(&self.kem_id().to_be_bytes());
        out.extend_from_slice(self.public_key.as_bytes());
        // At most MAX_SYMMETRIC pairs (`new` and `decode` check): the length fits.
        let len = (self.symmetric.len() * 4) as u16;
        out.extend_from_slice(&len.to_be_bytes());
        for s in &self.symmetric {
            out.extend_from_slice(&s.kdf_id.to_be_bytes());
            out.extend_from_slice(&s.aead_id.to_be_bytes());
        }
    }

    /// The encoded configuration.
    pub fn encode(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(5 + self.public_key.as_bytes().len() + 4 * self.symmetric.len());
        self.encode_into(&mut out);
        out
    }

    /// Parses one configuration: the whole of `bytes`, nothing left over.
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] for a KEM typed-hpke does not have;
    /// [`Error::InvalidKey`] for a public key the KEM refuses; [`Error::InvalidKeyConfig`]
    /// for every other departure from RFC 9458 §3.1.
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes, Error::InvalidKeyConfig);
        let key_id = r.u8()?;
        let kem = kem(r.u16()?)?;
        let (_, npk, _) = kem.lengths();
        let public_key = kem
            .public_key_from_bytes(r.take(npk)?)
            .map_err(|_| Error::InvalidKey)?;
        let len = usize::from(r.u16()?);
        if len == 0 || len % 4 != 0 {
            return Err(Error::InvalidKeyConfig);
        }
        let mut pairs = Reader::new(r.take(len)?, Error::InvalidKeyConfig);
        if !r.rest().is_empty() {
            return Err(Error::InvalidKeyConfig);
        }
        let mut symmetric = Vec::with_capacity(len / 4);
        for _ in 0..len / 4 {
            symmetric.push(SymmetricSuite::new(pairs.u16()?, pairs.u16()?));
        }
        Self::new(key_id, public_key, symmetric)
    }

    /// The `application/ohttp-keys` encoding of `configs` (RFC 9458 §3.2): each configuration
    /// preceded by its length in two bytes.
    ///
    /// # Errors
    /// [`Error::InvalidKeyConfig`] if a configuration is longer than 65,535 bytes.
    pub fn encode_list<'a>(
        configs: impl IntoIterator<Item = &'a KeyConfig>,
    ) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        for config in configs {
            let start = out.len();
            out.extend_from_slice(&[0, 0]);
            config.encode_into(&mut out);
            let len = u16::try_from(out.len() - start - 2).map_err(|_| Error::InvalidKeyConfig)?;
            out[start..start + 2].copy_from_slice(&len.to_be_bytes());
        }
        Ok(out)
    }

    /// Parses an `application/ohttp-keys` list (RFC 9458 §3.2), keeping the configurations whose
    /// KEM this build has, in order, and passing over the others (their length prefix says
    /// where they end).
    ///
    /// # Errors
    /// [`Error::InvalidKeyConfig`] if a length runs past the end, and the errors of
    /// [`KeyConfig::decode`] (but [`Error::UnsupportedSuite`]) for a configuration inside.
    pub fn decode_list(bytes: &[u8]) -> Result<Vec<Self>, Error> {
        let mut r = Reader::new(bytes, Error::InvalidKeyConfig);
        let mut configs = Vec::new();
        while !r.bytes.is_empty() {
            let len = usize::from(r.u16()?);
            match Self::decode(r.take(len)?) {
                Ok(config) => configs.push(config),
                Err(Error::UnsupportedSuite) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(configs)
    }
}
