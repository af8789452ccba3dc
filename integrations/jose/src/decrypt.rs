//! Decryption (draft-ietf-jose-hpke-encrypt-20 §7.2), with the header rules of §5 and §6.

use alloc::vec::Vec;

use serde_json::Value;
use typed_hpke::Psk;
use typed_hpke::suite::{HeldKey, Opener, ReceiverMode, Suite, TAG_LEN};

use crate::alg::IV_LEN;
use crate::json::str_member;
use crate::jwe::{JointHeader, Jwe};
use crate::{Algorithm, ContentEncryption, Error, PrivateJwk, b64, recipient_structure};

/// Header parameters registered for JWE and JWS (RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6,
/// §4.7 and §4.8, and the draft's `ek` and `psk_id`): `crit` may not name them
/// (RFC 7515 §4.1.11).
const REGISTERED: &[&str] = &[
    "alg", "enc", "zip", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty",
    "crit", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek", "psk_id",
];

/// Decrypts JWEs with one private key.
///
/// The key decides which recipients are tried: those whose `alg` is an HPKE algorithm of its
/// KEM (and the JWK's own `alg`, when it names one), and whose `kid` is the JWK's when both
/// have one. PSK mode follows the message's `psk_id` (§4), and must agree with
/// [`Self::psk`]: a message without `psk_id` is refused when a PSK is given, so an attacker
/// cannot strip the PSK.
pub struct Decryptor<'a> {
    key: Key<'a>,
    info: &'a [u8],
    extra_info: &'a [u8],
    psk: Option<Psk<'a>>,
    understood: &'a [&'a str],
}

/// `info` and `recipient_extra_info` are the application's and may be private
/// (OpenID4VP puts its session's data there): `Debug` says only whether each is set. The PSK
/// prints as its identifier.
impl core::fmt::Debug for Decryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let set = |b: &[u8]| {
            if b.is_empty() {
                "<empty>"
            } else {
                "<redacted>"
            }
        };
        f.debug_struct("Decryptor")
            .field("key", &self.key)
            .field("info", &set(self.info))
            .field("extra_info", &set(self.extra_info))
            .field("psk", &self.psk)
            .field("understood", &self.understood)
            .finish()
    }
}

/// The recipient's private key: in this process, or held outside it.
#[derive(Clone, Copy)]
enum Key<'a> {
    Local(&'a PrivateJwk),
    External {
        key: &'a dyn HeldKey,
        alg: Option<Algorithm>,
        kid: Option<&'a str>,
    },
}

impl core::fmt::Debug for Key<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Local(k) => k.fmt(f),
            Self::External { alg, kid, .. } => f
                .debug_struct("External")
                .field("alg", &alg.map(|a| a.name()))
                .field("kid", kid)
                .finish_non_exhaustive(),
        }
    }
}

impl Key<'_> {
    fn kem_id(&self) -> u16 {
        match self {
            Self::Local(k) => k.key().kem_id(),
            Self::External { key, .. } => key.public_key().kem_id(),
        }
    }

    fn alg(&self) -> Option<Algorithm> {
        match self {
            Self::Local(k) => k.alg(),
            Self::External { alg, .. } => *alg,
        }
    }

    fn kid(&self) -> Option<&str> {
        match self {
            Self::Local(k) => k.kid(),
            Self::External { kid, .. } => *kid,
        }
    }

    /// Single-shot `Open` (RFC 9180 §6.1) with this key.
    fn open(
        &self,
        suite: Suite,
        enc: &[u8],
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        mode: ReceiverMode<'_>,
    ) -> Result<Vec<u8>, Error> {
        Ok(match self {
            Self::Local(k) => suite.open(enc, k.key(), info, aad, ct, mode)?,
            Self::External { key, .. } => suite
                .open(enc, *key, info, aad, ct, mode)
                .map_err(Error::from_held)?,
        })
    }
}

impl<'a> Decryptor<'a> {
    /// A decryptor for `key`, with empty `info`, no PSK and no critical parameters understood.
    pub fn new(key: &'a PrivateJwk) -> Self {
        Self::of(Key::Local(key))
    }

    /// A decryptor for a private key held outside the process (a wallet's secure enclave, an
    /// HSM, a KMS): an `ExternalDh` over a `typed_hpke::suite::DhHolder` (the EC and OKP
    /// algorithms: the holder computes the Diffie-Hellman values, typed-hpke the rest) or an
    /// `ExternalDecap` over a `typed_hpke::suite::DecapHolder` (every algorithm, the
    /// post-quantum ones included: the holder decapsulates), as a `&dyn HeldKey`. `alg` and
    /// `kid` play the part of a JWK's: when given, only recipients of that algorithm and key id
    /// are tried. A holder that fails ends the search with [`Error::KeyHolder`].
    pub fn external(key: &'a dyn HeldKey, alg: Option<Algorithm>, kid: Option<&'a str>) -> Self {
        Self::of(Key::External { key, alg, kid })
    }

    fn of(key: Key<'a>) -> Self {
        Self {
            key,
            info: &[],
            extra_info: &[],
            psk: None,
            understood: &[],
        }
    }

    /// The HPKE `info` of integrated encryption. A non-empty `info` refuses key-encryption
    /// messages, whose `info` is the Recipient_structure (so a sender cannot escape the
    /// binding by switching modes).
    #[must_use]
    pub fn info(mut self, info: &'a [u8]) -> Self {
        self.info = info;
        self
    }

    /// The `recipient_extra_info` of key encryption (§6.1). A non-empty one refuses
    /// integrated messages.
    #[must_use]
    pub fn extra_info(mut self, extra_info: &'a [u8]) -> Self {
        self.extra_info = extra_info;
        self
    }

    /// The PSK for messages whose `psk_id` is `psk_id`.
    ///
    /// # Errors
    /// [`Error::Hpke`] for a PSK shorter than 32 bytes or an empty identifier.
    pub fn psk(mut self, psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        self.psk = Some(Psk::new(psk, psk_id)?);
        Ok(self)
    }

    /// Header parameters the application processes itself, which a message may list in
    /// `crit` (RFC 7515 §4.1.11).
    #[must_use]
    pub fn understand(mut self, names: &'a [&'a str]) -> Self {
        self.understood = names;
        self
    }

    /// Decrypts `jwe` for this key.
    ///
    /// # Errors
    /// [`Error::Header`], [`Error::Critical`] and [`Error::UnsupportedAlgorithm`] (an algorithm
    /// -22 withdrew among them) as the header rules say; when no recipient opens, the most
    /// specific of [`Error::Decrypt`] (an open failed), [`Error::Psk`] (a recipient for this key
    /// in another PSK mode) and [`Error::NoRecipient`]; [`Error::TooLarge`] before an open past
    /// [`crate::MAX_TRIAL_OPENS`].
    pub fn decrypt(&self, jwe: &Jwe) -> Result<Vec<u8>, Error> {
        self.check_crit(jwe)?;
        jwe.shared_headers_disjoint()?;
        // Recipients that are not this key's (another algorithm, another `kid`, another PSK or
        // none where this decryptor has one, and the reverse) are passed over; when none opens,
        // the error says how far the best one got: `Decrypt` (an open failed), else `Psk` (one
        // for this key, in another PSK mode), else `NoRecipient`.
        let mut psk_differs = false;
        let mut withdrawn = false;
        let mut candidates = Vec::new();
        for i in 0..jwe.recipients.len() {
            let header = jwe.joint_header(i)?;
            if header.contains_key("zip") {
                return Err(Error::Header("zip is not supported"));
            }
            let name = header.str("alg")?;
            let Some(alg) = name.and_then(Algorithm::from_name) else {
                // Another algorithm's recipient (HPKE beside ECDH-ES, RSA-OAEP), or one of
                // the algorithms -22 withdrew.
                withdrawn |= name.is_some_and(|n| crate::alg::WITHDRAWN.contains(&n));
                continue;
            };
            if !alg.is_key_encryption() && jwe.recipients.len() != 1 {
                // §7.2 step 7.
                return Err(Error::Header(
                    "integrated encryption has exactly one recipient",
                ));
            }
            let kid_differs = match (header.str("kid")?, self.key.kid()) {
                (Some(theirs), Some(ours)) => theirs != ours,
                _ => false,
            };
            let ours = alg.kem_id() == self.key.kem_id()
                && self.key.alg().is_none_or(|a| a == alg)
                && !kid_differs;
            if !ours {
                continue;
            }
            // Integrated encryption has one recipient, and its header rules come first.
            if alg.is_key_encryption() {
                match self.psk_for(&header) {
                    Ok(_) => {}
                    Err(Error::Psk) => {
                        psk_differs = true;
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            candidates.push((i, alg, header));
        }
        if candidates.is_empty() {
            return Err(if psk_differs {
                Error::Psk
            } else if withdrawn {
                Error::UnsupportedAlgorithm
            } else {
                Error::NoRecipient
            });
        }
        // A candidate that fails to decrypt may be another key's of the same KEM (no `kid`):
        // the next is tried; any other error is the message's and ends the search.
        for (opens, (i, alg, header)) in candidates.into_iter().enumerate() {
            if opens == crate::MAX_TRIAL_OPENS {
                return Err(Error::TooLarge);
            }
            let result = if alg.is_key_encryption() {
                self.key_encryption(jwe, i, alg, &header)
            } else {
                self.integrated(jwe, alg, &header)
            };
            if !matches!(result, Err(Error::Decrypt)) {
                return result;
            }
        }
        Err(Error::Decrypt)
    }

    /// `crit` must be protected, a non-empty list of names that are present, not registered,
    /// and understood (RFC 7515 §4.1.11).
    fn check_crit(&self, jwe: &Jwe) -> Result<(), Error> {
        let in_unprotected = jwe
            .unprotected
            .as_ref()
            .is_some_and(|u| u.contains_key("crit"))
            || jwe
                .recipients
                .iter()
                .any(|r| r.header.as_ref().is_some_and(|h| h.contains_key("crit")));
        if in_unprotected {
            return Err(Error::Critical);
        }
        let Some(crit) = jwe.protected.get("crit") else {
            return Ok(());
        };
        let Value::Array(names) = crit else {
            return Err(Error::Critical);
        };
        if names.is_empty() {
            return Err(Error::Critical);
        }
        for name in names {
            let Value::String(name) = name else {
                return Err(Error::Critical);
            };
            let fine = !name.is_empty()
                && !REGISTERED.contains(&name.as_str())
                && jwe.protected.contains_key(name)
                && self.understood.contains(&name.as_str());
            if !fine {
                return Err(Error::Critical);
            }
        }
        Ok(())
    }

    /// The PSK of the message's `psk_id`, or none: the two must agree.
    fn psk_for(&self, header: &JointHeader<'_>) -> Result<Option<Psk<'a>>, Error> {
        let id = header.str("psk_id")?.map(b64::decode).transpose()?;
        match (id, self.psk) {
            (None, None) => Ok(None),
            (Some(id), Some(ours)) if id == ours.psk_id() => Ok(Some(ours)),
            _ => Err(Error::Psk),
        }
    }

    /// §5 and §7.2 for `HPKE-n`.
    fn integrated(
        &self,
        jwe: &Jwe,
        alg: Algorithm,
        header: &JointHeader<'_>,
    ) -> Result<Vec<u8>, Error> {
        if !self.extra_info.is_empty() {
            return Err(Error::Header(
                "recipient extra info given for integrated encryption",
            ));
        }
        if str_member(&jwe.protected, "alg")? != Some(alg.name()) {
            return Err(Error::Header(
                "integrated encryption's alg must be protected",
            ));
        }
        if header.contains_key("enc") {
            return Err(Error::Header("enc in integrated encryption"));
        }
        if header.contains_key("ek") {
            return Err(Error::Header("ek in integrated encryption"));
        }
        if header.contains_key("psk_id") && !jwe.protected.contains_key("psk_id") {
            return Err(Error::Header(
                "psk_id must be protected in integrated encryption",
            ));
        }
        if !jwe.iv.is_empty() || !jwe.tag.is_empty() {
            return Err(Error::Header(
                "integrated encryption has an empty IV and tag",
            ));
        }
        let psk = self.psk_for(header)?;
        let mode = psk.as_ref().map_or(ReceiverMode::Base, ReceiverMode::Psk);
        let enc = &jwe.recipients[0].encrypted_key;
        let aad = jwe.authenticated_data();
        self.key
            .open(alg.suite()?, enc, self.info, &aad, &jwe.ciphertext, mode)
    }

    /// §6 and §7.2 for `HPKE-n-KE`: the CEK from recipient `i`, then the content.
    fn key_encryption(
        &self,
        jwe: &Jwe,
        i: usize,
        alg: Algorithm,
        header: &JointHeader<'_>,
    ) -> Result<Vec<u8>, Error> {
        if !self.info.is_empty() {
            return Err(Error::Header("info given for key encryption"));
        }
        let enc_name = header.str("enc")?.ok_or(Error::Header("enc is missing"))?;
        let enc = ContentEncryption::from_name(enc_name).ok_or(Error::UnsupportedAlgorithm)?;
        let ek = header.str("ek")?.ok_or(Error::Header("ek is missing"))?;
        let ek = b64::decode(ek)?;
        if jwe.iv.len() != IV_LEN || jwe.tag.len() != TAG_LEN {
            return Err(Error::Header(
                "the IV is 96 bits and the tag 128 (RFC 7518 §5.3)",
            ));
        }
        let psk = self.psk_for(header)?;
        let mode = psk.as_ref().map_or(ReceiverMode::Base, ReceiverMode::Psk);
        let info = recipient_structure(enc_name, self.extra_info);
        let cek = zeroize::Zeroizing::new(self.key.open(
            alg.suite()?,
            &ek,
            &info,
            b"",
            &jwe.recipients[i].encrypted_key,
            mode,
        )?);
        // §7.2 step 10: the CEK has the length `enc` requires.
        if cek.len() != enc.key_len() {
            return Err(Error::Decrypt);
        }
        let aad = jwe.authenticated_data();
        // The tag stands apart in a JWE: opened detached, in place, in one copy of the
        // ciphertext (left as it was if the tag does not verify).
        let mut plaintext = jwe.ciphertext.clone();
        Opener::new(enc.aead_id(), &cek, &jwe.iv)?.open_in_place_detached(
            &aad,
            &mut plaintext,
            &jwe.tag,
        )?;
        Ok(plaintext)
    }
}
