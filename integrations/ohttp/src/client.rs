//! The client: encapsulates requests to a gateway's key configuration (RFC 9458 §4.3) and
//! decapsulates the responses (§4.4).

use rand_core::CryptoRng;
use typed_hpke::suite::{self, SenderMode, Suite};

use crate::error::from_hpke;
use crate::response::{Secret, TAG_LEN, opener, secret_len};
use crate::{
    Error, HEADER_LEN, INFO_MAX, KeyConfig, REQUEST_LABEL, RESPONSE_LABEL, SymmetricSuite, header,
    info,
};

/// A client of one gateway key configuration, with one (KDF, AEAD) pair chosen.
///
/// Made once per configuration and shared (it is `Send + Sync`). [`Client::new`] and
/// [`Client::with_symmetric`] prepare the gateway's public key once
/// ([`suite::PublicKey::prepare`]: the precomputed table of a DH or hybrid KEM, the expanded
/// matrix of ML-KEM), so each request pays only for its own encapsulation. Preparing costs
/// about as much as a few encapsulations (the crate's bench has the row): a client that sends
/// one or two requests per configuration is cheaper made with [`Client::unprepared`].
#[derive(Clone, Debug)]
pub struct Client {
    pub(crate) key_id: u8,
    pub(crate) suite: Suite,
    pub(crate) symmetric: SymmetricSuite,
    pub(crate) public_key: suite::PublicKey,
}

/// The client's half of one exchange, to open the response to its request.
///
/// It holds the request's exporter secret, which is wiped when it is dropped.
pub struct ClientResponse {
    suite: Suite,
    secret: Secret,
    enc: Vec<u8>,
}

impl core::fmt::Debug for ClientResponse {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientResponse")
            .field("suite", &self.suite)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of `config`, using the first (KDF, AEAD) pair it offers that this crate can
    /// use.
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] if no pair offered is usable.
    pub fn new(config: &KeyConfig) -> Result<Self, Error> {
        let symmetric = config.first_supported().ok_or(Error::UnsupportedSuite)?;
        Self::with_symmetric(config, symmetric)
    }

    /// A client of `config` that uses the pair `symmetric`.
    ///
    /// # Errors
    /// [`Error::SuiteNotOffered`] if the configuration does not list it;
    /// [`Error::UnsupportedSuite`] if this crate cannot use it.
    pub fn with_symmetric(config: &KeyConfig, symmetric: SymmetricSuite) -> Result<Self, Error> {
        let mut client = Self::unprepared(config, symmetric)?;
        client.public_key.prepare();
        Ok(client)
    }

    /// A client of `config` that uses the pair `symmetric` and leaves the gateway's key
    /// unprepared: cheaper to make, dearer per request (see [`Client`]).
    ///
    /// # Errors
    /// As [`Client::with_symmetric`].
    pub fn unprepared(config: &KeyConfig, symmetric: SymmetricSuite) -> Result<Self, Error> {
        if !config.offers(symmetric) {
            return Err(Error::SuiteNotOffered);
        }
        Ok(Self {
            key_id: config.key_id(),
            suite: symmetric.suite(config.kem())?,
            symmetric,
            public_key: config.public_key().clone(),
        })
    }

    /// Whether the gateway's key is prepared.
    pub fn is_prepared(&self) -> bool {
        self.public_key.is_prepared()
    }

    /// A client of the first configuration of an `application/ohttp-keys` list (RFC 9458
    /// §3.2) that has a KEM and a (KDF, AEAD) pair this crate can use.
    ///
    /// # Errors
    /// As [`KeyConfig::decode_list`]; [`Error::UnsupportedSuite`] if no configuration is
    /// usable.
    pub fn from_key_configs(list: &[u8]) -> Result<Self, Error> {
        KeyConfig::decode_list(list)?
            .iter()
            .find_map(|config| Self::new(config).ok())
            .ok_or(Error::UnsupportedSuite)
    }

    /// The key identifier of the configuration.
    pub fn key_id(&self) -> u8 {
        self.key_id
    }

    /// The HPKE suite requests are encapsulated with.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// The (KDF, AEAD) pair in use.
    pub fn symmetric(&self) -> SymmetricSuite {
        self.symmetric
    }

    /// Encapsulates `request` (RFC 9458 §4.3) and returns the encapsulated request with the
    /// state that opens its response:
    ///
    /// ```text
    /// hdr = concat(key_id, kem_id, kdf_id, aead_id)
    /// info = concat("message/bhttp request", 0x00, hdr)
    /// enc, sctxt = SetupBaseS(pkR, info)
    /// enc_request = concat(hdr, enc, sctxt.Seal("", request))
    /// ```
    ///
    /// # Errors
    /// [`Error::Encapsulation`] if `rng` fails or the key gives an all-zero Diffie-Hellman
    /// output; [`Error::MessageLimit`] for a request beyond the AEAD's limit.
    pub fn encapsulate<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        request: &[u8],
    ) -> Result<(Vec<u8>, ClientResponse), Error> {
        let hdr = header(self.key_id, self.suite.kem_id(), self.symmetric);
        let mut info_buf = [0; INFO_MAX];
        let info = info(REQUEST_LABEL, &hdr, &mut info_buf);
        let (enc, mut ctx) = self
            .suite
            .setup_sender(rng, &self.public_key, info, SenderMode::Base)
            .map_err(from_hpke)?;
        let enc = enc.as_bytes();
        let mut out = Vec::with_capacity(HEADER_LEN + enc.len() + request.len() + TAG_LEN);
        out.extend_from_slice(&hdr);
        out.extend_from_slice(enc);
        let start = out.len();
        out.resize(start + request.len() + TAG_LEN, 0);
        ctx.seal_into(&[], request, &mut out[start..])
            .map_err(from_hpke)?;
        // secret = context.Export("message/bhttp response", max(Nn, Nk)) (§4.4)
        let secret = Secret::export(self.suite, |s| ctx.export(RESPONSE_LABEL, s))?;
        let response = ClientResponse {
            suite: self.suite,
            secret,
            enc: enc.to_vec(),
        };
        Ok((out, response))
    }
}

impl ClientResponse {
    /// Opens the gateway's encapsulated response (RFC 9458 §4.4): `response_nonce`, of
    /// `max(Nn, Nk)` bytes, then the response sealed under the key and nonce derived from it
    /// and the request's exporter secret.
    ///
    /// # Errors
    /// [`Error::Truncated`] for a response shorter than its nonce and tag; [`Error::Decrypt`]
    /// if it does not authenticate.
    pub fn decapsulate(self, enc_response: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce_len = secret_len(self.suite);
        if enc_response.len() < nonce_len + TAG_LEN {
            return Err(Error::Truncated);
        }
        let (response_nonce, ct) = enc_response.split_at(nonce_len);
        let mut opener = opener(self.suite, &self.secret, &self.enc, response_nonce)?;
        opener.open(&[], ct).map_err(|_| Error::Decrypt)
    }
}
