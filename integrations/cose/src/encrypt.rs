//! Encryption: COSE_Encrypt0 in integrated mode (draft-ietf-cose-hpke-27 §3.2) and
//! COSE_Encrypt with HPKE recipients (§3.3).

use alloc::vec::Vec;

use ciborium::Value;
use typed_hpke::Psk;
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::{Sealer, SenderMode};
use zeroize::Zeroizing;

use crate::alg::{IV_LEN, KeyType};
use crate::cbor::{Header, encode};
use crate::message::{
    ALG, EK, IV, KID, PSK_ID, TAG_ENCRYPT, TAG_ENCRYPT0, enc_structure, recipient_structure,
};
use crate::{Algorithm, ContentAlgorithm, Error, PublicCoseKey};

fn check_key(alg: Algorithm, key: &PublicCoseKey) -> Result<(), Error> {
    if key.key().kem_id() != alg.kem_id() || key.alg().is_some_and(|a| a != alg) {
        return Err(Error::InvalidKey);
    }
    Ok(())
}

/// One HPKE recipient of a COSE_Encrypt: its algorithm and key, its `recipient_extra_info`,
/// its HPKE `aad` and its PSK (§3.3).
#[derive(Clone, Copy)]
pub struct Recipient<'a> {
    alg: Algorithm,
    key: &'a PublicCoseKey,
    extra_info: &'a [u8],
    hpke_aad: &'a [u8],
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

impl<'a> Recipient<'a> {
    /// A key-encryption recipient. Its `kid`, if the key has one, goes into its protected
    /// header, so it is bound into the HPKE `info` (§3.3.2).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] for an integrated algorithm; [`Error::InvalidKey`] if
    /// the key is not of the algorithm's KEM or names another `alg`.
    pub fn new(alg: Algorithm, key: &'a PublicCoseKey) -> Result<Self, Error> {
        if !alg.is_key_encryption() {
            return Err(Error::UnsupportedAlgorithm);
        }
        check_key(alg, key)?;
        Ok(Self {
            alg,
            key,
            extra_info: &[],
            hpke_aad: &[],
            psk: None,
        })
    }

    /// The `recipient_extra_info` of the Recipient_structure (§3.3.1, §3.3.4): out-of-band
    /// context, never transmitted; empty by default.
    #[must_use]
    pub fn extra_info(mut self, extra_info: &'a [u8]) -> Self {
        self.extra_info = extra_info;
        self
    }

    /// The HPKE `aad` of the CEK's seal ("SHOULD be empty", §3.3.4; for special cases).
    #[must_use]
    pub fn hpke_aad(mut self, hpke_aad: &'a [u8]) -> Self {
        self.hpke_aad = hpke_aad;
        self
    }

    /// `mode_psk`; `psk_id` goes into the recipient's protected header (§3.1).
    ///
    /// # Errors
    /// [`Error::Hpke`] for a PSK shorter than 32 bytes or an empty identifier.
    pub fn psk(mut self, psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        self.psk = Some(Psk::new(psk, psk_id)?);
        Ok(self)
    }
}

enum Kind<'a> {
    Encrypt0 {
        alg: Algorithm,
        key: &'a PublicCoseKey,
        info: &'a [u8],
        psk: Option<Psk<'a>>,
        protected_kid: bool,
    },
    Encrypt {
        content: ContentAlgorithm,
        recipients: Vec<Recipient<'a>>,
    },
}

/// Builds a COSE_Encrypt0 (integrated encryption) or a COSE_Encrypt (key encryption to one or
/// more recipients). Messages are tagged (16, 96) unless [`Self::untagged`].
///
/// ```
/// use typed_hpke_cose::{Algorithm, Decryptor, Encryptor, PrivateCoseKey};
/// let mut rng = typed_hpke_cose::OsRng::default();
/// let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng)?.with_kid(*b"bob");
/// let message = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())?
///     .external_aad(b"context")
///     .encrypt(&mut rng, b"hello")?;
/// let plaintext = Decryptor::new(&key).external_aad(b"context").decrypt(&message)?;
/// assert_eq!(plaintext, b"hello");
/// # Ok::<(), typed_hpke_cose::Error>(())
/// ```
pub struct Encryptor<'a> {
    kind: Kind<'a>,
    external_aad: &'a [u8],
    tagged: bool,
}

impl core::fmt::Debug for Encryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encryptor")
            .field("tagged", &self.tagged)
            .finish_non_exhaustive()
    }
}

impl<'a> Encryptor<'a> {
    /// COSE_Encrypt0 in integrated mode (§3.2) to `key` with `alg`. The key's `kid`, if any,
    /// goes into the unprotected header ([`Self::protected_kid`] puts it in the protected one).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] for a key-encryption algorithm; [`Error::InvalidKey`]
    /// if the key is not of the algorithm's KEM or names another `alg`.
    pub fn encrypt0(alg: Algorithm, key: &'a PublicCoseKey) -> Result<Self, Error> {
        if alg.is_key_encryption() {
            return Err(Error::UnsupportedAlgorithm);
        }
        check_key(alg, key)?;
        Ok(Self::of(Kind::Encrypt0 {
            alg,
            key,
            info: &[],
            psk: None,
            protected_kid: false,
        }))
    }

    /// COSE_Encrypt with layer-0 algorithm `content`; add recipients with [`Self::recipient`].
    pub fn key_encryption(content: ContentAlgorithm) -> Self {
        Self::of(Kind::Encrypt {
            content,
            recipients: Vec::new(),
        })
    }

    fn of(kind: Kind<'a>) -> Self {
        Self {
            kind,
            external_aad: &[],
            tagged: true,
        }
    }

    /// Adds an HPKE recipient.
    ///
    /// draft-ietf-cose-hpke-pq-pqt §5: when a post-quantum or hybrid key-encryption algorithm
    /// is used in a COSE_Encrypt with several recipients, all of them MUST use a
    /// quantum-resistant algorithm (a CEK also sealed to a traditional key falls to a future
    /// quantum computer). So the recipients of one message are all post-quantum (HPKE-8-KE …
    /// HPKE-13-KE) or all traditional.
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on a COSE_Encrypt0 encryptor, or for a recipient that
    /// would mix post-quantum and traditional algorithms; [`Error::TooLarge`] beyond
    /// [`crate::MAX_RECIPIENTS`].
    pub fn recipient(mut self, recipient: Recipient<'a>) -> Result<Self, Error> {
        let quantum_resistant = |alg: Algorithm| alg.key_type() == KeyType::Akp;
        match &mut self.kind {
            Kind::Encrypt { recipients, .. }
                if recipients
                    .iter()
                    .any(|r| quantum_resistant(r.alg) != quantum_resistant(recipient.alg)) =>
            {
                Err(Error::UnsupportedAlgorithm)
            }
            Kind::Encrypt { recipients, .. } if recipients.len() < crate::MAX_RECIPIENTS => {
                recipients.push(recipient);
                Ok(self)
            }
            Kind::Encrypt { .. } => Err(Error::TooLarge),
            Kind::Encrypt0 { .. } => Err(Error::UnsupportedAlgorithm),
        }
    }

    /// The HPKE `info` of COSE_Encrypt0 (§3.2: empty by default, or externally provided).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on a COSE_Encrypt encryptor (see
    /// [`Recipient::extra_info`]).
    pub fn info(mut self, info: &'a [u8]) -> Result<Self, Error> {
        match &mut self.kind {
            Kind::Encrypt0 { info: slot, .. } => *slot = info,
            Kind::Encrypt { .. } => return Err(Error::UnsupportedAlgorithm),
        }
        Ok(self)
    }

    /// `mode_psk` for COSE_Encrypt0; `psk_id` goes into the protected header (§3.1).
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] on a COSE_Encrypt encryptor (see [`Recipient::psk`]);
    /// [`Error::Hpke`] for a PSK shorter than 32 bytes or an empty identifier.
    pub fn psk(mut self, psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        let input = Psk::new(psk, psk_id)?;
        match &mut self.kind {
            Kind::Encrypt0 { psk: slot, .. } => *slot = Some(input),
            Kind::Encrypt { .. } => return Err(Error::UnsupportedAlgorithm),
        }
        Ok(self)
    }

    /// The `external_aad` of the Enc_structure (RFC 9052 §5.3): of COSE_Encrypt0, or of layer
    /// 0 of COSE_Encrypt.
    #[must_use]
    pub fn external_aad(mut self, external_aad: &'a [u8]) -> Self {
        self.external_aad = external_aad;
        self
    }

    /// COSE_Encrypt0: the key's `kid` goes into the protected header, where the Enc_structure
    /// authenticates it, instead of the unprotected one (a COSE_Encrypt's recipients always
    /// carry theirs protected). Either way the receiver reads it: [`crate::Message`],
    /// [`crate::Decryptor`].
    #[must_use]
    pub fn protected_kid(mut self) -> Self {
        if let Kind::Encrypt0 { protected_kid, .. } = &mut self.kind {
            *protected_kid = true;
        }
        self
    }

    /// Writes the message without its CBOR tag.
    #[must_use]
    pub fn untagged(mut self) -> Self {
        self.tagged = false;
        self
    }

    /// Encrypts `plaintext` into a message carrying the ciphertext.
    ///
    /// # Errors
    /// [`Error::Header`] for a COSE_Encrypt without recipients; [`Error::UnsupportedAlgorithm`]
    /// for a suite this build leaves out; [`Error::Hpke`] for an encapsulation failure or an
    /// input too long.
    pub fn encrypt<R: CryptoRng + ?Sized>(
        self,
        rng: &mut R,
        plaintext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.build(rng, plaintext, false)
            .map(|(message, _)| message)
    }

    /// Encrypts `plaintext` into a message whose ciphertext is nil, and the detached
    /// ciphertext (RFC 9052 §5.1, §5.2).
    ///
    /// # Errors
    /// As [`Self::encrypt`].
    pub fn encrypt_detached<R: CryptoRng + ?Sized>(
        self,
        rng: &mut R,
        plaintext: &[u8],
    ) -> Result<(Vec<u8>, Vec<u8>), Error> {
        self.build(rng, plaintext, true)
    }

    fn build<R: CryptoRng + ?Sized>(
        self,
        rng: &mut R,
        plaintext: &[u8],
        detached: bool,
    ) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let (tag, items, ciphertext) = match self.kind {
            Kind::Encrypt0 {
                alg,
                key,
                info,
                psk,
                protected_kid,
            } => {
                let mut protected = Header::default();
                protected.insert(ALG, alg.value().into());
                if let Some(p) = &psk {
                    protected.insert(PSK_ID, Value::Bytes(p.psk_id().to_vec()));
                }
                let kid = key.kid().map(|kid| Value::Bytes(kid.to_vec()));
                if let Some(kid) = kid.clone().filter(|_| protected_kid) {
                    protected.insert(KID, kid);
                }
                let protected = protected.to_protected();
                let aad = enc_structure("Encrypt0", &protected, self.external_aad);
                let mode = psk.as_ref().map_or(SenderMode::Base, SenderMode::Psk);
                let (ek, ct) = alg
                    .suite()?
                    .seal(rng, key.key(), info, &aad, plaintext, mode)?;
                let mut unprotected = Header::default();
                if let Some(kid) = kid.filter(|_| !protected_kid) {
                    unprotected.insert(KID, kid);
                }
                unprotected.insert(EK, Value::Bytes(ek));
                (
                    TAG_ENCRYPT0,
                    alloc::vec![Value::Bytes(protected), unprotected.to_value()],
                    ct,
                )
            }
            Kind::Encrypt {
                content,
                recipients,
            } => {
                if recipients.is_empty() {
                    return Err(Error::Header("COSE_Encrypt needs a recipient"));
                }
                let mut cek = Zeroizing::new([0u8; 32]);
                let cek = &mut cek[..content.key_len()];
                rng.fill_bytes(cek);
                let mut layer1 = Vec::with_capacity(recipients.len());
                for r in &recipients {
                    let mut protected = Header::default();
                    protected.insert(ALG, r.alg.value().into());
                    if let Some(kid) = r.key.kid() {
                        protected.insert(KID, Value::Bytes(kid.to_vec()));
                    }
                    if let Some(p) = &r.psk {
                        protected.insert(PSK_ID, Value::Bytes(p.psk_id().to_vec()));
                    }
                    let protected = protected.to_protected();
                    let info = recipient_structure(content.value(), &protected, r.extra_info);
                    let mode = r.psk.as_ref().map_or(SenderMode::Base, SenderMode::Psk);
                    let (ek, ct) =
                        r.alg
                            .suite()?
                            .seal(rng, r.key.key(), &info, r.hpke_aad, cek, mode)?;
                    let mut unprotected = Header::default();
                    unprotected.insert(EK, Value::Bytes(ek));
                    layer1.push(Value::Array(alloc::vec![
                        Value::Bytes(protected),
                        unprotected.to_value(),
                        Value::Bytes(ct),
                    ]));
                }
                let mut protected = Header::default();
                protected.insert(ALG, content.value().into());
                let protected = protected.to_protected();
                let mut iv = [0u8; IV_LEN];
                rng.fill_bytes(&mut iv);
                let aad = enc_structure("Encrypt", &protected, self.external_aad);
                let ct = Sealer::new(content.aead_id(), cek, &iv)?.seal(&aad, plaintext)?;
                let mut unprotected = Header::default();
                unprotected.insert(IV, Value::Bytes(iv.to_vec()));
                // The ciphertext goes in between, below.
                let items = alloc::vec![
                    Value::Bytes(protected),
                    unprotected.to_value(),
                    Value::Array(layer1)
                ];
                (TAG_ENCRYPT, items, ct)
            }
        };
        let mut items = items;
        let (slot, detached_ct) = if detached {
            (Value::Null, ciphertext)
        } else {
            (Value::Bytes(ciphertext), Vec::new())
        };
        items.insert(2, slot);
        let array = Value::Array(items);
        let message = if self.tagged {
            Value::Tag(tag, alloc::boxed::Box::new(array))
        } else {
            array
        };
        Ok((encode(&message), detached_ct))
    }
}
