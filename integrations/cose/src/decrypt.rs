//! Decryption: COSE_Encrypt0 in integrated mode (draft-ietf-cose-hpke-27 §3.2) and
//! COSE_Encrypt's HPKE recipients (§3.3), with the header rules of §3.1.

use alloc::vec::Vec;

use ciborium::Value;
use typed_hpke::Psk;
use typed_hpke::suite::{HeldKey, Opener, ReceiverMode, Suite};
use zeroize::Zeroizing;

use crate::alg::IV_LEN;
use crate::cbor::{Header, bstr, decode, disjoint};
use crate::message::{
    ALG, CRIT, EK, IV, KID, PARTIAL_IV, PSK_ID, TAG_ENCRYPT, TAG_ENCRYPT0, enc_structure,
    recipient_structure,
};
use crate::{Algorithm, ContentAlgorithm, Error, MAX_RECIPIENTS, PrivateCoseKey};

/// One layer's two buckets, the protected one with its bytes as sent.
struct Layer<'m> {
    protected_bytes: &'m [u8],
    protected: Header,
    unprotected: Header,
}

impl<'m> Layer<'m> {
    fn parse(protected: &'m Value, unprotected: &Value) -> Result<Self, Error> {
        let protected_bytes = bstr(protected)?;
        let layer = Self {
            protected_bytes,
            protected: Header::from_protected(protected_bytes)?,
            unprotected: Header::from_value(unprotected.clone())?,
        };
        disjoint(&layer.protected, &layer.unprotected)?;
        Ok(layer)
    }

    fn get(&self, label: i64) -> Option<&Value> {
        self.protected
            .get(label)
            .or_else(|| self.unprotected.get(label))
    }

    /// `alg`, which must be protected when present (§3.2, §3.3.2).
    fn protected_alg(&self) -> Result<Option<i64>, Error> {
        if self.unprotected.contains(ALG) {
            return Err(Error::Header("alg must be protected"));
        }
        self.protected.int(ALG)
    }

    /// `ek`: present, in the unprotected bucket (§3.1, §3.2, §3.3.2).
    fn ek(&self) -> Result<&[u8], Error> {
        if self.protected.contains(EK) {
            return Err(Error::Header("ek goes in the unprotected bucket"));
        }
        self.unprotected
            .bytes(EK)?
            .ok_or(Error::Header("ek is missing"))
    }

    /// `psk_id`: protected only (§3.1).
    fn psk_id(&self) -> Result<Option<&[u8]>, Error> {
        if self.unprotected.contains(PSK_ID) {
            return Err(Error::Header("psk_id must be protected"));
        }
        self.protected.bytes(PSK_ID)
    }

    /// A recipient's HPKE algorithm, protected; `None` for another algorithm's recipient,
    /// whatever the CBOR type of its `alg` (RFC 9052 §3.1 types it `int / tstr`), or one with
    /// none (§3.3: HPKE beside other algorithms).
    fn recipient_alg(&self) -> Result<Option<Algorithm>, Error> {
        let hpke = |value: &Value| match value {
            Value::Integer(i) => i64::try_from(*i).ok().and_then(Algorithm::from_value),
            _ => None,
        };
        match (self.protected.get(ALG), self.unprotected.get(ALG)) {
            (Some(value), _) => Ok(hpke(value)),
            (None, Some(value)) if hpke(value).is_some() => {
                Err(Error::Header("alg must be protected"))
            }
            _ => Ok(None),
        }
    }

    fn kid(&self) -> Result<Option<&[u8]>, Error> {
        match self.get(KID) {
            None => Ok(None),
            Some(v) => bstr(v).map(Some),
        }
    }

    /// `crit` (RFC 9052 §3.1): protected, a non-empty array of labels present in the layer,
    /// each one the application said it understands.
    fn check_crit(&self, understood: &[i64]) -> Result<(), Error> {
        if self.unprotected.contains(CRIT) {
            return Err(Error::Critical);
        }
        let Some(crit) = self.protected.get(CRIT) else {
            return Ok(());
        };
        let Value::Array(labels) = crit else {
            return Err(Error::Critical);
        };
        // Each label listed must be in the layer, whose two buckets hold at most
        // 2 * MAX_HEADER_LABELS: a longer list cannot pass, and is refused before the look-ups.
        if labels.is_empty() || labels.len() > 2 * crate::MAX_HEADER_LABELS {
            return Err(Error::Critical);
        }
        for label in labels {
            let Value::Integer(i) = label else {
                return Err(Error::Critical);
            };
            let Ok(i) = i64::try_from(*i) else {
                return Err(Error::Critical);
            };
            if !understood.contains(&i) || self.get(i).is_none() {
                return Err(Error::Critical);
            }
        }
        Ok(())
    }
}

/// A decoded message: COSE_Encrypt0 or COSE_Encrypt, tagged or not.
enum Decoded {
    Encrypt0(Vec<Value>),
    Encrypt(Vec<Value>),
}

fn message(bytes: &[u8]) -> Result<Decoded, Error> {
    let (tag, value) = match decode(bytes)? {
        Value::Tag(tag, inner) => (Some(tag), *inner),
        other => (None, other),
    };
    let Value::Array(items) = value else {
        return Err(Error::Malformed("not a COSE message"));
    };
    match (tag, items.len()) {
        (Some(TAG_ENCRYPT0) | None, 3) => Ok(Decoded::Encrypt0(items)),
        (Some(TAG_ENCRYPT) | None, 4) => Ok(Decoded::Encrypt(items)),
        _ => Err(Error::Malformed("neither COSE_Encrypt0 nor COSE_Encrypt")),
    }
}

/// A COSE_Encrypt0 or COSE_Encrypt read without decrypting it: what a receiver looks at to
/// choose the key, and the PSK, before it makes a [`Decryptor`]. Read under the same rules and
/// limits as decryption reads it (header labels, `MAX_RECIPIENTS`); nothing in it is
/// authenticated yet (a `kid` or `psk_id` in an unprotected bucket is only a hint).
///
/// ```
/// use typed_hpke_cose::{Algorithm, Encryptor, Message, PrivateCoseKey};
/// let mut rng = typed_hpke_cose::OsRng::default();
/// let key = PrivateCoseKey::generate(Algorithm::HPKE_3, &mut rng)?.with_kid(*b"device-7");
/// let bytes = Encryptor::encrypt0(Algorithm::HPKE_3, key.public_key())?.encrypt(&mut rng, b"x")?;
/// let message = Message::parse(&bytes)?;
/// assert!(message.is_encrypt0());
/// assert_eq!(message.recipients()[0].kid(), Some(&b"device-7"[..]));
/// # Ok::<(), typed_hpke_cose::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    encrypt0: bool,
    recipients: Vec<RecipientInfo>,
}

/// What a message says of one of its HPKE layers: COSE_Encrypt0's one layer, or a recipient of
/// a COSE_Encrypt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipientInfo {
    alg: Option<Algorithm>,
    kid: Option<Vec<u8>>,
    psk_id: Option<Vec<u8>>,
}

impl RecipientInfo {
    fn of(layer: &Layer<'_>, alg: Option<Algorithm>) -> Result<Self, Error> {
        Ok(Self {
            alg,
            kid: layer.kid()?.map(<[u8]>::to_vec),
            psk_id: layer.psk_id()?.map(<[u8]>::to_vec),
        })
    }

    /// The layer's HPKE algorithm; `None` for a recipient of another algorithm.
    pub fn alg(&self) -> Option<Algorithm> {
        self.alg
    }

    /// The layer's `kid`, protected or not.
    pub fn kid(&self) -> Option<&[u8]> {
        self.kid.as_deref()
    }

    /// The layer's `psk_id` (always protected, §3.1): the PSK to give the decryptor.
    pub fn psk_id(&self) -> Option<&[u8]> {
        self.psk_id.as_deref()
    }
}

impl Message {
    /// Reads a COSE_Encrypt0 or COSE_Encrypt (tagged or not).
    ///
    /// # Errors
    /// [`Error::Malformed`], [`Error::DuplicateLabel`], [`Error::Header`] and
    /// [`Error::TooLarge`] as [`Decryptor::decrypt`] reads the message.
    pub fn parse(bytes: &[u8]) -> Result<Self, Error> {
        match message(bytes)? {
            Decoded::Encrypt0(items) => {
                let layer = Layer::parse(&items[0], &items[1])?;
                let alg = layer.protected_alg()?.and_then(Algorithm::from_value);
                Ok(Self {
                    encrypt0: true,
                    recipients: alloc::vec![RecipientInfo::of(&layer, alg)?],
                })
            }
            Decoded::Encrypt(items) => {
                Layer::parse(&items[0], &items[1])?;
                let list = recipient_list(&items[3])?;
                let recipients = list
                    .iter()
                    .map(|recipient| {
                        let parts = recipient_parts(recipient)?;
                        let layer = Layer::parse(&parts[0], &parts[1])?;
                        let alg = layer.recipient_alg()?;
                        RecipientInfo::of(&layer, alg)
                    })
                    .collect::<Result<_, Error>>()?;
                Ok(Self {
                    encrypt0: false,
                    recipients,
                })
            }
        }
    }

    /// Whether the message is a COSE_Encrypt0 (integrated encryption) rather than a
    /// COSE_Encrypt.
    pub fn is_encrypt0(&self) -> bool {
        self.encrypt0
    }

    /// Its HPKE layers: COSE_Encrypt0's one, or a COSE_Encrypt's recipients in order.
    pub fn recipients(&self) -> &[RecipientInfo] {
        &self.recipients
    }
}

/// A COSE_Encrypt's recipients: a non-empty array of at most [`MAX_RECIPIENTS`].
fn recipient_list(value: &Value) -> Result<&[Value], Error> {
    let Value::Array(recipients) = value else {
        return Err(Error::Malformed("recipients"));
    };
    if recipients.is_empty() {
        return Err(Error::Malformed("no recipients"));
    }
    if recipients.len() > MAX_RECIPIENTS {
        return Err(Error::TooLarge);
    }
    Ok(recipients)
}

/// A recipient: an array of three items (four with recipients of its own).
fn recipient_parts(value: &Value) -> Result<&[Value], Error> {
    match value {
        Value::Array(parts) if parts.len() == 3 || parts.len() == 4 => Ok(parts),
        _ => Err(Error::Malformed("recipient")),
    }
}

/// Decrypts COSE_Encrypt0 and COSE_Encrypt messages with one private key.
///
/// The key decides which recipients are tried: those whose `alg` is an HPKE algorithm of its
/// KEM (and the key's own `alg`, when it names one), and whose `kid` is the key's when both
/// have one. PSK mode follows the message's `psk_id` (§3.1) and must agree with
/// [`Self::psk`]: a message without `psk_id` is refused when a PSK is given.
pub struct Decryptor<'a> {
    key: Key<'a>,
    info: &'a [u8],
    extra_info: &'a [u8],
    hpke_aad: &'a [u8],
    external_aad: &'a [u8],
    psk: Option<Psk<'a>>,
    understood: &'a [i64],
    detached: Option<&'a [u8]>,
    max_message_len: usize,
}

/// `info`, `recipient_extra_info`, the AADs and the detached ciphertext are the application's
/// and may be private (OpenID4VP puts its session's data there): `Debug` says only whether
/// each is set. The PSK prints as its identifier.
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
            .field("hpke_aad", &set(self.hpke_aad))
            .field("external_aad", &set(self.external_aad))
            .field("psk", &self.psk)
            .field("understood", &self.understood)
            .field("detached", &self.detached.map(|_| "<redacted>"))
            .field("max_message_len", &self.max_message_len)
            .finish()
    }
}

/// The recipient's private key: in this process, or held outside it.
#[derive(Clone, Copy)]
enum Key<'a> {
    Local(&'a PrivateCoseKey),
    External {
        key: &'a dyn HeldKey,
        alg: Option<Algorithm>,
        kid: Option<&'a [u8]>,
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

    fn kid(&self) -> Option<&[u8]> {
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
    /// A decryptor for `key`, with every input empty, no PSK and no critical label understood.
    pub fn new(key: &'a PrivateCoseKey) -> Self {
        Self::of(Key::Local(key))
    }

    /// A decryptor for a private key held outside the process (a device's secure element, an
    /// HSM, a KMS): an `ExternalDh` over a `typed_hpke::suite::DhHolder` (the EC and OKP
    /// algorithms: the holder computes the Diffie-Hellman values, typed-hpke the rest) or an
    /// `ExternalDecap` over a `typed_hpke::suite::DecapHolder` (every algorithm, the
    /// post-quantum ones included: the holder decapsulates), as a `&dyn HeldKey`. `alg` and
    /// `kid` play the part of a COSE_Key's: when given, only layers of that algorithm and key id
    /// are tried. A holder that fails ends the search with [`Error::KeyHolder`].
    pub fn external(key: &'a dyn HeldKey, alg: Option<Algorithm>, kid: Option<&'a [u8]>) -> Self {
        Self::of(Key::External { key, alg, kid })
    }

    fn of(key: Key<'a>) -> Self {
        Self {
            key,
            info: &[],
            extra_info: &[],
            hpke_aad: &[],
            external_aad: &[],
            psk: None,
            understood: &[],
            detached: None,
            max_message_len: usize::MAX,
        }
    }

    /// Refuses, with [`Error::TooLarge`] and before any decoding, a message longer than
    /// `max_message_len` bytes (a detached ciphertext does not count). The whole message is
    /// decoded into a CBOR tree before the other limits apply, and the tree takes many times
    /// the input's size for a message of small items (README, "Limits"): a receiver of
    /// messages from strangers sets the most it expects. No cap by default.
    #[must_use]
    pub fn max_message_len(mut self, max_message_len: usize) -> Self {
        self.max_message_len = max_message_len;
        self
    }

    fn capped<'m>(&self, bytes: &'m [u8]) -> Result<&'m [u8], Error> {
        if bytes.len() > self.max_message_len {
            return Err(Error::TooLarge);
        }
        Ok(bytes)
    }

    /// The HPKE `info` of COSE_Encrypt0. A non-empty one refuses COSE_Encrypt messages, so a
    /// sender cannot escape the binding by switching modes.
    #[must_use]
    pub fn info(mut self, info: &'a [u8]) -> Self {
        self.info = info;
        self
    }

    /// The `recipient_extra_info` of COSE_Encrypt (§3.3.1). A non-empty one refuses
    /// COSE_Encrypt0 messages.
    #[must_use]
    pub fn extra_info(mut self, extra_info: &'a [u8]) -> Self {
        self.extra_info = extra_info;
        self
    }

    /// The HPKE `aad` of COSE_Encrypt's CEK (§3.3.4). A non-empty one refuses COSE_Encrypt0
    /// messages, whose HPKE `aad` is the Enc_structure.
    #[must_use]
    pub fn hpke_aad(mut self, hpke_aad: &'a [u8]) -> Self {
        self.hpke_aad = hpke_aad;
        self
    }

    /// The Enc_structure's `external_aad` (RFC 9052 §5.3).
    #[must_use]
    pub fn external_aad(mut self, external_aad: &'a [u8]) -> Self {
        self.external_aad = external_aad;
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

    /// Labels the application processes itself, which a message may list in `crit`.
    #[must_use]
    pub fn understand(mut self, labels: &'a [i64]) -> Self {
        self.understood = labels;
        self
    }

    /// The ciphertext of a message that carries nil in its place (RFC 9052 §5.1).
    #[must_use]
    pub fn detached(mut self, ciphertext: &'a [u8]) -> Self {
        self.detached = Some(ciphertext);
        self
    }

    /// Decrypts a COSE_Encrypt0 or COSE_Encrypt message (tagged or not) for this key.
    ///
    /// # Errors
    /// [`Error::Malformed`], [`Error::DuplicateLabel`], [`Error::Header`],
    /// [`Error::Critical`], [`Error::UnsupportedAlgorithm`], [`Error::UnsupportedIv`],
    /// [`Error::Psk`] and [`Error::Detached`] as the rules say; [`Error::TooLarge`] past a limit
    /// (`MAX_HEADER_LEN`, `MAX_HEADER_LABELS`, `MAX_RECIPIENTS`, `MAX_TRIAL_OPENS`); when no
    /// recipient opens, the most specific of [`Error::Decrypt`] (an open failed), [`Error::Psk`]
    /// (a recipient for this key in another PSK mode) and [`Error::NoRecipient`].
    pub fn decrypt(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        match message(self.capped(bytes)?)? {
            Decoded::Encrypt0(items) => self.encrypt0(&items),
            Decoded::Encrypt(items) => {
                // Layer 0's algorithm and IV are checked before any HPKE work.
                let (content, cek, layer0) = self.unwrap(&items, true)?;
                let iv = layer0.get(IV).map_or(Ok(&[][..]), bstr)?;
                let content =
                    ContentAlgorithm::from_value(content).ok_or(Error::UnsupportedAlgorithm)?;
                if cek.len() != content.key_len() {
                    return Err(Error::Decrypt);
                }
                let ct = self.ciphertext(&items[2])?;
                let aad = enc_structure("Encrypt", layer0.protected_bytes, self.external_aad);
                Ok(Opener::new(content.aead_id(), &cek, iv)?.open(&aad, ct)?)
            }
        }
    }

    /// The CEK of a COSE_Encrypt, from this key's recipient, with the layer-0 algorithm's
    /// value: for layer-0 algorithms or IVs this crate does not run (the draft's vectors with
    /// 16- and 32-byte AES-GCM IVs; README, "IVs"). The caller then owns the content
    /// decryption and its checks.
    ///
    /// # Errors
    /// As [`Self::decrypt`], for the recipient layer; [`Error::Malformed`] for a
    /// COSE_Encrypt0.
    pub fn unwrap_cek(&self, bytes: &[u8]) -> Result<(i64, Zeroizing<Vec<u8>>), Error> {
        match message(self.capped(bytes)?)? {
            Decoded::Encrypt(items) => self.unwrap(&items, false).map(|(alg, cek, _)| (alg, cek)),
            Decoded::Encrypt0(_) => Err(Error::Malformed("a COSE_Encrypt0 has no CEK")),
        }
    }

    fn ciphertext<'m>(&'m self, item: &'m Value) -> Result<&'m [u8], Error> {
        match (item, self.detached) {
            (Value::Bytes(ct), None) => Ok(ct),
            (Value::Null, Some(ct)) => Ok(ct),
            (Value::Bytes(_) | Value::Null, _) => Err(Error::Detached),
            _ => Err(Error::Malformed("ciphertext is neither bytes nor nil")),
        }
    }

    fn psk_for(&self, psk_id: Option<&[u8]>) -> Result<Option<Psk<'a>>, Error> {
        match (psk_id, self.psk) {
            (None, None) => Ok(None),
            (Some(id), Some(ours)) if id == ours.psk_id() => Ok(Some(ours)),
            _ => Err(Error::Psk),
        }
    }

    /// Whether a layer with `alg` and `kid` is for this key.
    fn ours(&self, alg: Algorithm, kid: Option<&[u8]>) -> bool {
        let kid_differs = matches!((kid, self.key.kid()), (Some(a), Some(b)) if a != b);
        alg.kem_id() == self.key.kem_id() && self.key.alg().is_none_or(|a| a == alg) && !kid_differs
    }

    /// §3.2.
    fn encrypt0(&self, items: &[Value]) -> Result<Vec<u8>, Error> {
        if !self.extra_info.is_empty() || !self.hpke_aad.is_empty() {
            return Err(Error::Header(
                "key-encryption inputs given for COSE_Encrypt0",
            ));
        }
        let layer = Layer::parse(&items[0], &items[1])?;
        layer.check_crit(self.understood)?;
        let value = layer
            .protected_alg()?
            .ok_or(Error::Header("alg is missing"))?;
        let alg = Algorithm::from_value(value).ok_or(Error::UnsupportedAlgorithm)?;
        if alg.is_key_encryption() {
            // §3.1: an algorithm only in the mode it is specified for.
            return Err(Error::UnsupportedAlgorithm);
        }
        if layer.get(IV).is_some() || layer.get(PARTIAL_IV).is_some() {
            return Err(Error::Header("an IV in integrated encryption"));
        }
        let ek = layer.ek()?;
        let psk = self.psk_for(layer.psk_id()?)?;
        if !self.ours(alg, layer.kid()?) {
            return Err(Error::NoRecipient);
        }
        let mode = psk.as_ref().map_or(ReceiverMode::Base, ReceiverMode::Psk);
        let ct = self.ciphertext(&items[2])?;
        let aad = enc_structure("Encrypt0", layer.protected_bytes, self.external_aad);
        self.key.open(alg.suite()?, ek, self.info, &aad, ct, mode)
    }

    /// §3.3: layer 0's algorithm, the CEK from this key's recipient, and layer 0.
    /// With `runnable`, layer 0's algorithm and IV are checked first: one this crate runs, 96
    /// bits.
    fn unwrap<'m>(
        &self,
        items: &'m [Value],
        runnable: bool,
    ) -> Result<(i64, Zeroizing<Vec<u8>>, Layer<'m>), Error> {
        if !self.info.is_empty() {
            return Err(Error::Header("info given for COSE_Encrypt"));
        }
        let layer0 = Layer::parse(&items[0], &items[1])?;
        layer0.check_crit(self.understood)?;
        let content = match layer0.get(ALG) {
            Some(Value::Integer(i)) => {
                i64::try_from(*i).map_err(|_| Error::UnsupportedAlgorithm)?
            }
            Some(_) => return Err(Error::UnsupportedAlgorithm),
            None => return Err(Error::Header("layer 0 has no alg")),
        };
        if layer0.get(PARTIAL_IV).is_some() {
            return Err(Error::Header("Partial IV is not supported"));
        }
        if runnable {
            ContentAlgorithm::from_value(content).ok_or(Error::UnsupportedAlgorithm)?;
            let iv = layer0
                .get(IV)
                .ok_or(Error::Header("the IV is missing"))
                .and_then(bstr)?;
            if iv.len() != IV_LEN {
                return Err(Error::UnsupportedIv);
            }
        }
        let recipients = recipient_list(&items[3])?;
        // Recipients that are not this key's (another algorithm, another `kid`, another PSK or
        // none where this decryptor has one, and the reverse) are passed over; when none opens,
        // the error says how far the best one got: `Decrypt` (an open failed), else `Psk`
        // (one for this key, in another PSK mode), else `NoRecipient`.
        let mut outcome = Error::NoRecipient;
        let mut opens = 0;
        for recipient in recipients {
            let parts = recipient_parts(recipient)?;
            let layer = Layer::parse(&parts[0], &parts[1])?;
            let Some(alg) = layer.recipient_alg()? else {
                continue;
            };
            if !alg.is_key_encryption() {
                return Err(Error::UnsupportedAlgorithm);
            }
            if parts.len() != 3 {
                return Err(Error::Malformed(
                    "an HPKE recipient has no recipients of its own",
                ));
            }
            if !self.ours(alg, layer.kid()?) {
                continue;
            }
            let Ok(psk) = self.psk_for(layer.psk_id()?) else {
                if outcome != Error::Decrypt {
                    outcome = Error::Psk;
                }
                continue;
            };
            // A `crit` the application does not understand matters for its own recipients only.
            layer.check_crit(self.understood)?;
            if opens == crate::MAX_TRIAL_OPENS {
                return Err(Error::TooLarge);
            }
            opens += 1;
            let ek = layer.ek()?;
            let mode = psk.as_ref().map_or(ReceiverMode::Base, ReceiverMode::Psk);
            let info = recipient_structure(content, layer.protected_bytes, self.extra_info);
            let sealed = bstr(&parts[2])?;
            match self
                .key
                .open(alg.suite()?, ek, &info, self.hpke_aad, sealed, mode)
            {
                Ok(cek) => return Ok((content, Zeroizing::new(cek), layer0)),
                Err(Error::Decrypt) => outcome = Error::Decrypt,
                Err(e) => return Err(e),
            }
        }
        Err(outcome)
    }
}
