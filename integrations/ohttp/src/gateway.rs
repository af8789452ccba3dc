//! The gateway: holds one or more key pairs (key rotation), decapsulates requests (RFC 9458
//! §4.3) and encapsulates their responses (§4.4).

use std::sync::Arc;

use rand_core::CryptoRng;
use typed_hpke::kem::HeldKeyError;
use typed_hpke::suite::{self, HeldKey, ReceiverContext, ReceiverMode, Suite};

use crate::config::{Reader, kem};
use crate::error::from_hpke;
use crate::response::{Secret, TAG_LEN, sealer, secret_len};
use crate::{
    Error, HEADER_LEN, INFO_MAX, KeyConfig, REQUEST_LABEL, RESPONSE_LABEL, SymmetricSuite, info,
};

/// A gateway key pair and the configuration it publishes. The private key is in this process
/// or held elsewhere ([`GatewayKey::held`]: a PKCS#11 token, a KMS).
///
/// Its `Debug` shows the configuration only.
#[derive(Clone)]
pub struct GatewayKey {
    config: KeyConfig,
    private_key: Key,
}

/// Where a gateway's private key is.
#[derive(Clone)]
enum Key {
    /// Boxed: an ML-KEM key is ~24 KiB expanded, a held key a pointer.
    Local(Box<suite::PrivateKey>),
    Held(Arc<dyn HeldKey + Send + Sync>),
}

impl core::fmt::Debug for GatewayKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GatewayKey")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl GatewayKey {
    /// The key pair of `private_key`, published under `key_id` with the pairs `symmetric`, in
    /// order of preference.
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] if a pair is one this crate cannot use (a gateway offers
    /// only what it can open); [`Error::InvalidKeyConfig`] for an empty list.
    pub fn new(
        key_id: u8,
        private_key: suite::PrivateKey,
        symmetric: Vec<SymmetricSuite>,
    ) -> Result<Self, Error> {
        for s in &symmetric {
            s.suite(private_key.kem())?;
        }
        let config = KeyConfig::new(key_id, private_key.public_key(), symmetric)?;
        Ok(Self {
            config,
            private_key: Key::Local(Box::new(private_key)),
        })
    }

    /// A key pair whose private key is held outside the process, published under `key_id`
    /// with the pairs `symmetric`: an `ExternalDh` over a `typed_hpke::suite::DhHolder` (the
    /// DH-KEMs: the holder computes `DH(skR, pkE)`, as the `ohttp` crate's DHKEM(P-256) for
    /// HSMs does) or an `ExternalDecap` over a `typed_hpke::suite::DecapHolder` (every KEM: the
    /// holder decapsulates). A holder that fails fails the request with
    /// [`Error::KeyHolder`]. `examples/ohttp_pkcs11.rs` in `typed-hpke-pkcs11` serves a key
    /// in a SoftHSM2 token.
    ///
    /// # Errors
    /// As [`GatewayKey::new`].
    pub fn held(
        key_id: u8,
        key: impl HeldKey + Send + Sync + 'static,
        symmetric: Vec<SymmetricSuite>,
    ) -> Result<Self, Error> {
        let public_key = key.public_key().clone();
        for s in &symmetric {
            s.suite(public_key.kem())?;
        }
        let config = KeyConfig::new(key_id, public_key, symmetric)?;
        Ok(Self {
            config,
            private_key: Key::Held(Arc::new(key)),
        })
    }

    /// A fresh key pair of the KEM `kem_id`, from `rng`.
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] for a KEM typed-hpke does not have;
    /// [`Error::Encapsulation`] if `rng` fails; as [`GatewayKey::new`].
    pub fn generate<R: CryptoRng + ?Sized>(
        key_id: u8,
        kem_id: u16,
        symmetric: Vec<SymmetricSuite>,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let (private_key, _) = kem(kem_id)?.generate_key_pair(rng).map_err(from_hpke)?;
        Self::new(key_id, private_key, symmetric)
    }

    /// The key pair `DeriveKeyPair(ikm)` of the KEM `kem_id` (RFC 9180 §7.1.3): the same seed
    /// gives the same configuration.
    ///
    /// # Errors
    /// As [`GatewayKey::generate`]; [`Error::InvalidKey`] if the KEM refuses `ikm`.
    pub fn derive(
        key_id: u8,
        kem_id: u16,
        symmetric: Vec<SymmetricSuite>,
        ikm: &[u8],
    ) -> Result<Self, Error> {
        let (private_key, _) = kem(kem_id)?
            .derive_key_pair(ikm)
            .map_err(|_| Error::InvalidKey)?;
        Self::new(key_id, private_key, symmetric)
    }

    /// The key pair of the serialized private key `private_key` (RFC 9180 §7.1.2
    /// `DeserializePrivateKey`) of the KEM `kem_id`: a key kept in a file or a secret store.
    ///
    /// # Errors
    /// [`Error::UnsupportedSuite`] for a KEM typed-hpke does not have; [`Error::InvalidKey`]
    /// for bytes the KEM refuses; as [`GatewayKey::new`].
    pub fn from_bytes(
        key_id: u8,
        kem_id: u16,
        private_key: &[u8],
        symmetric: Vec<SymmetricSuite>,
    ) -> Result<Self, Error> {
        let private_key = kem(kem_id)?
            .private_key_from_bytes(private_key)
            .map_err(|_| Error::InvalidKey)?;
        Self::new(key_id, private_key, symmetric)
    }

    /// The key pair of the serialized private key `private_key` for a configuration already
    /// published: its key identifier, KEM and pairs, checked to be this key's. A key stored
    /// apart from its configuration cannot be served under the wrong one.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if the bytes are not a key of the configuration's KEM, or their
    /// public key is not the configuration's; otherwise as [`GatewayKey::new`].
    pub fn from_bytes_for_config(private_key: &[u8], config: &KeyConfig) -> Result<Self, Error> {
        let key = Self::from_bytes(
            config.key_id(),
            config.kem_id(),
            private_key,
            config.symmetric().to_vec(),
        )?;
        if key.config != *config {
            return Err(Error::InvalidKey);
        }
        Ok(key)
    }

    /// The configuration this key publishes.
    pub fn config(&self) -> &KeyConfig {
        &self.config
    }

    /// The private key, when it is in this process.
    pub fn private_key(&self) -> Option<&suite::PrivateKey> {
        match &self.private_key {
            Key::Local(k) => Some(k),
            Key::Held(_) => None,
        }
    }

    /// `SetupBaseR(enc, skR, info)` (RFC 9180 §5.1.1) with this key: [`Error::Decrypt`] if it
    /// does not decapsulate, [`Error::KeyHolder`] if the key's holder fails.
    pub(crate) fn setup(
        &self,
        suite: Suite,
        enc: &[u8],
        info: &[u8],
    ) -> Result<ReceiverContext, Error> {
        match &self.private_key {
            Key::Local(k) => suite
                .setup_receiver(enc, &**k, info, ReceiverMode::Base)
                .map_err(|_| Error::Decrypt),
            Key::Held(k) => setup_held(&**k, suite, enc, info),
        }
    }
}

/// `SetupBaseR` with a key held elsewhere.
fn setup_held(
    key: &(dyn HeldKey + '_),
    suite: Suite,
    enc: &[u8],
    info: &[u8],
) -> Result<ReceiverContext, Error> {
    suite
        .setup_receiver(enc, key, info, ReceiverMode::Base)
        .map_err(|e| match e {
            HeldKeyError::Holder(_) => Error::KeyHolder,
            HeldKeyError::Hpke(_) => Error::Decrypt,
        })
}

/// A gateway: the key pairs it holds, found by key identifier.
///
/// `Send + Sync` and read-only once made: share one behind an `Arc` between threads; no lock
/// is taken on a request. Several keys at once serve a rotation: publish the new
/// configuration beside the old one, and drop the old key once clients have moved.
#[derive(Clone)]
pub struct Gateway {
    keys: Vec<GatewayKey>,
    /// For each key identifier, 1 + the index of its key in `keys`, or 0.
    by_id: [u16; 256],
}

impl core::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gateway").field("keys", &self.keys).finish()
    }
}

/// The gateway's half of one exchange, to encapsulate the response to the request it came
/// from. It holds the request's exporter secret, which is wiped when it is dropped.
pub struct GatewayResponse {
    suite: Suite,
    secret: Secret,
    enc: Vec<u8>,
}

impl core::fmt::Debug for GatewayResponse {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GatewayResponse")
            .field("suite", &self.suite)
            .finish_non_exhaustive()
    }
}

/// A request parsed up to its ciphertext: the key it names, its suite and `enc`.
pub(crate) struct RequestHead<'a> {
    pub(crate) key: &'a GatewayKey,
    pub(crate) suite: Suite,
    pub(crate) hdr: [u8; HEADER_LEN],
    pub(crate) enc: &'a [u8],
}

impl Gateway {
    /// A gateway holding `keys`.
    ///
    /// # Errors
    /// [`Error::DuplicateKeyId`] if two keys share an identifier.
    pub fn new(keys: impl IntoIterator<Item = GatewayKey>) -> Result<Self, Error> {
        let keys: Vec<GatewayKey> = keys.into_iter().collect();
        let mut by_id = [0u16; 256];
        for (i, key) in keys.iter().enumerate() {
            let slot = &mut by_id[usize::from(key.config.key_id())];
            if *slot != 0 {
                return Err(Error::DuplicateKeyId);
            }
            // A 257th key repeats an identifier and stops the loop above first.
            *slot = u16::try_from(i + 1).map_err(|_| Error::DuplicateKeyId)?;
        }
        Ok(Self { keys, by_id })
    }

    /// The key with this identifier.
    pub fn key(&self, key_id: u8) -> Option<&GatewayKey> {
        match self.by_id[usize::from(key_id)] {
            0 => None,
            i => self.keys.get(usize::from(i) - 1),
        }
    }

    /// The keys held, in the order given.
    pub fn keys(&self) -> &[GatewayKey] {
        &self.keys
    }

    /// The `application/ohttp-keys` list of every configuration held (RFC 9458 §3.2), to
    /// publish.
    ///
    /// # Errors
    /// As [`KeyConfig::encode_list`].
    pub fn key_configs(&self) -> Result<Vec<u8>, Error> {
        KeyConfig::encode_list(self.keys.iter().map(GatewayKey::config))
    }

    /// Parses a request's header and `enc`, checking them against the keys held.
    pub(crate) fn head<'a>(
        &'a self,
        enc_request: &'a [u8],
    ) -> Result<(RequestHead<'a>, &'a [u8]), Error> {
        let mut r = Reader::new(enc_request, Error::Truncated);
        let hdr_bytes = r.take(HEADER_LEN)?;
        let mut hdr = [0u8; HEADER_LEN];
        hdr.copy_from_slice(hdr_bytes);
        let mut h = Reader::new(hdr_bytes, Error::Truncated);
        let key = self.key(h.u8()?).ok_or(Error::UnknownKeyId)?;
        let kem_id = h.u16()?;
        let symmetric = SymmetricSuite::new(h.u16()?, h.u16()?);
        // §4.3: the gateway refuses a request whose KEM, KDF or AEAD its configuration does not
        // list. Every pair listed was checked usable when the key was made.
        if kem_id != key.config.kem_id() || !key.config.offers(symmetric) {
            return Err(Error::SuiteNotOffered);
        }
        let suite = symmetric.suite(key.config.kem())?;
        let enc = r.take(suite.lengths().enc)?;
        Ok((
            RequestHead {
                key,
                suite,
                hdr,
                enc,
            },
            r.rest(),
        ))
    }

    /// Decapsulates an encapsulated request (RFC 9458 §4.3) and returns the request with the
    /// state that encapsulates its response.
    ///
    /// ```text
    /// hdr, enc, ct = parse(enc_request)
    /// info = concat("message/bhttp request", 0x00, hdr)
    /// request = SetupBaseR(enc, skR, info).Open("", ct)
    /// ```
    ///
    /// # Errors
    /// [`Error::Truncated`] for a request shorter than its header, `enc` and tag;
    /// [`Error::UnknownKeyId`]; [`Error::SuiteNotOffered`] for a KEM or (KDF, AEAD) pair its
    /// key's configuration does not list; [`Error::Decrypt`] if it does not decapsulate or
    /// authenticate. [`Error::http_status`] gives the status to answer each with.
    pub fn decapsulate(&self, enc_request: &[u8]) -> Result<(Vec<u8>, GatewayResponse), Error> {
        self.decapsulate_in(enc_request, None)
    }

    /// The key identifier, suite and `enc` of an encapsulated request, parsed and checked as
    /// [`Gateway::decapsulate`] checks them: the first of the two steps for a key whose holder
    /// answers asynchronously (a network KMS), which no thread should block on. Ask the holder
    /// what `suite.dh_peers(enc, ReceiverMode::Base)` lists (or to decapsulate `enc`), record
    /// the answers in a `typed_hpke::suite::Answers`, and finish with
    /// [`Gateway::decapsulate_with`].
    ///
    /// # Errors
    /// As [`Gateway::decapsulate`], before any key is used.
    pub fn request_enc<'a>(
        &'a self,
        enc_request: &'a [u8],
    ) -> Result<(&'a GatewayKey, Suite, &'a [u8]), Error> {
        let (head, _) = self.head(enc_request)?;
        Ok((head.key, head.suite, head.enc))
    }

    /// [`Gateway::decapsulate`] with `key` standing for the request's gateway key: the second
    /// step after [`Gateway::request_enc`], `key` an `ExternalDh` (or `ExternalDecap`) over the
    /// `Answers` the holder gave.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `key`'s public key is not the one the request's key
    /// configuration publishes; [`Error::KeyHolder`] if `key` has no answer; otherwise as
    /// [`Gateway::decapsulate`].
    pub fn decapsulate_with(
        &self,
        enc_request: &[u8],
        key: &dyn HeldKey,
    ) -> Result<(Vec<u8>, GatewayResponse), Error> {
        self.decapsulate_in(enc_request, Some(key))
    }

    fn decapsulate_in(
        &self,
        enc_request: &[u8],
        key: Option<&dyn HeldKey>,
    ) -> Result<(Vec<u8>, GatewayResponse), Error> {
        let (head, ct) = self.head(enc_request)?;
        if ct.len() < TAG_LEN {
            return Err(Error::Truncated);
        }
        let mut info_buf = [0; INFO_MAX];
        let info = info(REQUEST_LABEL, &head.hdr, &mut info_buf);
        let mut ctx = match key {
            None => head.key.setup(head.suite, head.enc, info)?,
            Some(key) if key.public_key() == head.key.config.public_key() => {
                setup_held(key, head.suite, head.enc, info)?
            }
            Some(_) => return Err(Error::InvalidKey),
        };
        let mut request = vec![0; ct.len() - TAG_LEN];
        ctx.open_into(&[], ct, &mut request)
            .map_err(|_| Error::Decrypt)?;
        // secret = context.Export("message/bhttp response", max(Nn, Nk)) (§4.4)
        let secret = Secret::export(head.suite, |s| ctx.export(RESPONSE_LABEL, s))?;
        let response = GatewayResponse {
            suite: head.suite,
            secret,
            enc: head.enc.to_vec(),
        };
        Ok((request, response))
    }
}

impl GatewayResponse {
    /// Encapsulates `response` (RFC 9458 §4.4):
    ///
    /// ```text
    /// response_nonce = random(max(Nn, Nk))
    /// salt = concat(enc, response_nonce)
    /// prk = Extract(salt, secret)
    /// aead_key = Expand(prk, "key", Nk);  aead_nonce = Expand(prk, "nonce", Nn)
    /// enc_response = concat(response_nonce, Seal(aead_key, aead_nonce, "", response))
    /// ```
    ///
    /// # Errors
    /// [`Error::MessageLimit`] for a response beyond the AEAD's limit.
    pub fn encapsulate<R: CryptoRng + ?Sized>(
        self,
        rng: &mut R,
        response: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let nonce_len = secret_len(self.suite);
        let total = response
            .len()
            .checked_add(nonce_len + TAG_LEN)
            .ok_or(Error::MessageLimit)?;
        let mut out = vec![0; total];
        let (response_nonce, body) = out.split_at_mut(nonce_len);
        rng.fill_bytes(response_nonce);
        let mut sealer = sealer(self.suite, &self.secret, &self.enc, response_nonce)?;
        sealer
            .seal_into(&[], response, body)
            .map_err(|_| Error::MessageLimit)?;
        Ok(out)
    }
}
