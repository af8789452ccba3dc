//! Encryption: integrated (draft-ietf-jose-hpke-encrypt-20 §5, §7.1) and key encryption to
//! one or more recipients (§6, §7.1).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};
use typed_hpke::Psk;
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::{Sealer, SenderMode};
use zeroize::Zeroizing;

use crate::alg::IV_LEN;
use crate::jwe::{Jwe, JweRecipient};
use crate::{Algorithm, ContentEncryption, Error, PublicJwk, b64, recipient_structure};

/// Header parameters the crate writes itself; [`Encryptor::header`] refuses them.
const RESERVED: &[&str] = &[
    "alg", "enc", "ek", "psk_id", "zip", "crit", "kid", "iv", "tag",
];

/// One recipient of key encryption: its algorithm and key, and its `recipient_extra_info`
/// and PSK (§6, §6.1).
#[derive(Clone, Copy)]
pub struct Recipient<'a> {
    alg: Algorithm,
    key: &'a PublicJwk,
    extra_info: &'a [u8],
    psk: Option<Psk<'a>>,
}

impl core::fmt::Debug for Recipient<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Recipient")
            .field("alg", &self.alg.name())
            .field("key", self.key)
            .finish_non_exhaustive()
    }
}

/// The key must be of the algorithm's KEM, and name the same algorithm if it names one.
fn check_key(alg: Algorithm, key: &PublicJwk) -> Result<(), Error> {
    if key.key().kem_id() != alg.kem_id() || key.alg().is_some_and(|a| a != alg) {
        return Err(Error::InvalidKey);
    }
    Ok(())
}

impl<'a> Recipient<'a> {
    /// A key-encryption recipient.
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] for an integrated algorithm; [`Error::InvalidKey`] if
    /// the key is not of the algorithm's KEM, or its JWK names another `alg`.
    pub fn new(alg: Algorithm, key: &'a PublicJwk) -> Result<Self, Error> {
        if !alg.is_key_encryption() {
            return Err(Error::UnsupportedAlgorithm);
        }
        check_key(alg, key)?;
        Ok(Self {
            alg,
            key,
            extra_info: &[],
            psk: None,
        })
    }

    /// The `recipient_extra_info` of the Recipient_structure (§6.1): mutually known private
    /// information, never transmitted; empty by default.
    #[must_use]
    pub fn extra_info(mut self, extra_info: &'a [u8]) -> Self {
        self.extra_info = extra_info;
        self
    }

    /// `mode_psk` with this PSK; `psk_id` goes into the header, base64url-encoded (§4).
    ///
    /// # Errors
    /// [`Error::Hpke`] with [`typed_hpke::Error::InvalidPsk`] for a PSK shorter than 32 bytes
    /// or an empty identifier.
    pub fn psk(mut self, psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        self.psk = Some(Psk::new(psk, psk_id)?);
        Ok(self)
    }
}

enum Kind<'a> {
    Integrated {
        alg: Algorithm,
        key: &'a PublicJwk,
        info: &'a [u8],
        psk: Option<Psk<'a>>,
    },
    KeyEncryption {
        enc: ContentEncryption,
        recipients: Vec<Recipient<'a>>,
    },
}

/// Builds a JWE. Integrated encryption seals the plaintext with HPKE to one recipient;
/// key encryption seals a random CEK to each recipient and the plaintext with the CEK.
///
/// ```
/// use typed_hpke_jose::{Algorithm, Decryptor, Encryptor, Jwe, PrivateJwk};
/// let mut rng = typed_hpke_jose::OsRng::default();
/// let key = PrivateJwk::generate(Algorithm::HPKE_9, &mut rng)?; // X-Wing
/// let jwe = Encryptor::integrated(Algorithm::HPKE_9, key.public_jwk())?
///     .encrypt(&mut rng, b"hello")?
///     .to_compact()?;
/// let plaintext = Decryptor::new(&key).decrypt(&Jwe::parse(&jwe)?)?;
/// assert_eq!(plaintext, b"hello");
/// # Ok::<(), typed_hpke_jose::Error>(())
/// ```
pub struct Encryptor<'a> {
    kind: Kind<'a>,
    aad: Option<&'a [u8]>,
    header: Map<String, Value>,
}

impl core::fmt::Debug for Encryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encryptor")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl<'a> Encryptor<'a> {
    /// Integrated encryption (§5) to `key` with `alg` (`HPKE-n`).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] for a key-encryption algorithm; [`Error::InvalidKey`]
    /// if the key is not of the algorithm's KEM, or its JWK names another `alg`.
    pub fn integrated(alg: Algorithm, key: &'a PublicJwk) -> Result<Self, Error> {
        if alg.is_key_encryption() {
            return Err(Error::UnsupportedAlgorithm);
        }
        check_key(alg, key)?;
        Ok(Self::of(Kind::Integrated {
            alg,
            key,
            info: &[],
            psk: None,
        }))
    }

    /// Key encryption (§6) with the content encryption `enc`; add recipients with
    /// [`Self::recipient`].
    pub fn key_encryption(enc: ContentEncryption) -> Self {
        Self::of(Kind::KeyEncryption {
            enc,
            recipients: Vec::new(),
        })
    }

    fn of(kind: Kind<'a>) -> Self {
        Self {
            kind,
            aad: None,
            header: Map::new(),
        }
    }

    /// Adds a key-encryption recipient. With one recipient everything goes into the protected
    /// header (so the compact serialization can carry it); with several, each recipient's
    /// `alg`, `kid`, `ek` and `psk_id` go into its own header (the general JSON
    /// serialization).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on an integrated encryptor; [`Error::TooLarge`] beyond
    /// [`crate::MAX_RECIPIENTS`].
    pub fn recipient(mut self, recipient: Recipient<'a>) -> Result<Self, Error> {
        match &mut self.kind {
            Kind::KeyEncryption { recipients, .. } if recipients.len() < crate::MAX_RECIPIENTS => {
                recipients.push(recipient);
                Ok(self)
            }
            Kind::KeyEncryption { .. } => Err(Error::TooLarge),
            Kind::Integrated { .. } => Err(Error::UnsupportedAlgorithm),
        }
    }

    /// The HPKE `info` of integrated encryption (§5: empty by default, or mutually known
    /// private information). OpenID4VP's encrypted responses set none.
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on a key-encryption encryptor (whose `info` is the
    /// Recipient_structure; see [`Recipient::extra_info`]).
    pub fn info(mut self, info: &'a [u8]) -> Result<Self, Error> {
        match &mut self.kind {
            Kind::Integrated { info: slot, .. } => *slot = info,
            Kind::KeyEncryption { .. } => return Err(Error::UnsupportedAlgorithm),
        }
        Ok(self)
    }

    /// `mode_psk` for integrated encryption; `psk_id` goes into the protected header.
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on a key-encryption encryptor (see
    /// [`Recipient::psk`]); [`Error::Hpke`] for a PSK shorter than 32 bytes or an empty
    /// identifier.
    pub fn psk(mut self, psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        let input = Psk::new(psk, psk_id)?;
        match &mut self.kind {
            Kind::Integrated { psk: slot, .. } => *slot = Some(input),
            Kind::KeyEncryption { .. } => return Err(Error::UnsupportedAlgorithm),
        }
        Ok(self)
    }

    /// A JWE AAD (JSON serializations only; §4): authenticated, not encrypted.
    #[must_use]
    pub fn aad(mut self, aad: &'a [u8]) -> Self {
        self.aad = Some(aad);
        self
    }

    /// Another protected header parameter (`typ`, `cty`, an application's own).
    ///
    /// # Errors
    /// [`Error::Header`] for a parameter the crate writes itself (`alg`, `enc`, `ek`,
    /// `psk_id`, `kid`, `zip`, `crit`, `iv`, `tag`).
    pub fn header(mut self, name: &str, value: Value) -> Result<Self, Error> {
        if RESERVED.contains(&name) {
            return Err(Error::Header("a parameter the crate writes itself"));
        }
        self.header.insert(name.into(), value);
        Ok(self)
    }

    /// Encrypts `plaintext`.
    ///
    /// # Errors
    /// [`Error::Header`] for key encryption without recipients; [`Error::UnsupportedAlgorithm`]
    /// for a suite this build leaves out; [`Error::Hpke`] for an encapsulation failure or an
    /// input too long.
    pub fn encrypt<R: CryptoRng + ?Sized>(
        self,
        rng: &mut R,
        plaintext: &[u8],
    ) -> Result<Jwe, Error> {
        let aad_b64 = self.aad.map(b64::encode);
        let mut protected = self.header;
        let s = |v: String| Value::String(v);
        match self.kind {
            Kind::Integrated {
                alg,
                key,
                info,
                psk,
            } => {
                protected.insert("alg".into(), s(alg.name().into()));
                if let Some(kid) = key.kid() {
                    protected.insert("kid".into(), s(kid.into()));
                }
                if let Some(p) = &psk {
                    protected.insert("psk_id".into(), s(b64::encode(p.psk_id())));
                }
                let mut jwe = skeleton(&protected, aad_b64)?;
                let mode = psk.as_ref().map_or(SenderMode::Base, SenderMode::Psk);
                let aad = jwe.authenticated_data();
                let (enc, ct) = alg
                    .suite()?
                    .seal(rng, key.key(), info, &aad, plaintext, mode)?;
                jwe.ciphertext = ct;
                jwe.recipients.push(JweRecipient {
                    header: None,
                    encrypted_key: enc,
                });
                Ok(jwe)
            }
            Kind::KeyEncryption { enc, recipients } => {
                if recipients.is_empty() {
                    return Err(Error::Header("key encryption needs a recipient"));
                }
                let mut cek = Zeroizing::new([0u8; 32]);
                let cek = &mut cek[..enc.key_len()];
                rng.fill_bytes(cek);
                let single = recipients.len() == 1;
                protected.insert("enc".into(), s(enc.name().into()));
                let mut sealed = Vec::with_capacity(recipients.len());
                for r in &recipients {
                    let info = recipient_structure(enc.name(), r.extra_info);
                    let mode = r.psk.as_ref().map_or(SenderMode::Base, SenderMode::Psk);
                    // §6: the HPKE aad of key encryption is the empty octet sequence.
                    let (ek, ct) = r
                        .alg
                        .suite()?
                        .seal(rng, r.key.key(), &info, b"", cek, mode)?;
                    let mut header = Map::new();
                    header.insert("alg".into(), s(r.alg.name().into()));
                    if let Some(kid) = r.key.kid() {
                        header.insert("kid".into(), s(kid.into()));
                    }
                    header.insert("ek".into(), s(b64::encode(&ek)));
                    if let Some(p) = &r.psk {
                        header.insert("psk_id".into(), s(b64::encode(p.psk_id())));
                    }
                    sealed.push((header, ct));
                }
                if single {
                    let (header, _) = &mut sealed[0];
                    protected.append(header);
                }
                let mut jwe = skeleton(&protected, aad_b64)?;
                jwe.recipients = sealed
                    .into_iter()
                    .map(|(header, encrypted_key)| JweRecipient {
                        header: (!single).then_some(header),
                        encrypted_key,
                    })
                    .collect();
                let mut iv = [0u8; IV_LEN];
                rng.fill_bytes(&mut iv);
                let aad = jwe.authenticated_data();
                // JWE carries the tag apart from the ciphertext: sealed detached, in place.
                let mut ct = plaintext.to_vec();
                let tag =
                    Sealer::new(enc.aead_id(), cek, &iv)?.seal_in_place_detached(&aad, &mut ct)?;
                jwe.tag = tag.to_vec();
                jwe.ciphertext = ct;
                jwe.iv = iv.to_vec();
                Ok(jwe)
            }
        }
    }
}

/// A JWE with its protected header encoded and nothing else yet.
fn skeleton(protected: &Map<String, Value>, aad_b64: Option<String>) -> Result<Jwe, Error> {
    let json = Value::Object(protected.clone()).to_string();
    if json.len() > crate::MAX_HEADER_LEN {
        return Err(Error::TooLarge);
    }
    Ok(Jwe {
        protected_b64: b64::encode(json.as_bytes()),
        protected: protected.clone(),
        unprotected: None,
        aad_b64,
        iv: Vec::new(),
        ciphertext: Vec::new(),
        tag: Vec::new(),
        recipients: Vec::new(),
    })
}
