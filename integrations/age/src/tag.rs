//! The tagged recipient types (c2sp.org/age, "The tagged recipient types"): `p256tag`
//! (DHKEM(P-256, HKDF-SHA256), recipients `age1tag1…`) and `mlkem768p256tag` (MLKEM768-P256,
//! `kem_id` 0x0050, recipients `age1tagpq1…`), each with HKDF-SHA256 and ChaCha20-Poly1305 and
//! `info` the type's salt string.
//!
//! A tagged stanza carries `tag = HKDF-Extract-SHA-256(ikm = enc || SHA-256(P)[:4], salt)[:4]`,
//! where `P` is the compressed P-256 point (`p256tag`) or the uncompressed one at the end of
//! the hybrid key (`mlkem768p256tag`), so an identity recognises its stanzas from public values
//! and asks its key (perhaps a token that wants a touch) about those alone.
//!
//! The spec defines no identity encoding ("the public side of hardware-specific plugin
//! identities"). A [`TagIdentity`] is built from a typed-hpke receiver key:
//!
//! - [`TagIdentity::from_private_key`]: a key in this process (tests, software-only use);
//! - [`TagIdentity::held_dh`]: a [`DhHolder`] for `p256tag`, such as a P-256 key in a PKCS#11
//!   token (`typed-hpke-pkcs11`'s `TokenKey::typed`): the token computes `DH(sk, enc)`,
//!   typed-hpke does the rest;
//! - [`TagIdentity::held_decap`]: a [`DecapHolder`] that decapsulates whole, for either type
//!   (a device with ML-KEM, a remote service);
//! - [`TagIdentity::held_split`], for `mlkem768p256tag`: the ML-KEM-768 half in this process,
//!   the P-256 half with a [`DhHolder`] (a token), as typed-hpke's [`SplitHybrid`].
//!
//! Said plainly, for `mlkem768p256tag` in a token: the ML-KEM half is not in the token. SoftHSM
//! 2.6, the token CI tests against, has no ML-KEM (PKCS#11 3.2's `C_DecapsulateKey`), and
//! few tokens have it yet; so [`TagIdentity::held_split`] keeps the ML-KEM-768 key in the
//! process (wiped on drop) and the P-256 key in the token. Such a key is not a seed-derived
//! MLKEM768-P256 key: its recipient is the two public halves concatenated, which any sender
//! encrypts to as usual; against a quantum adversary it rests on the ML-KEM key in memory,
//! against a classical one on the token. The identity's tag is the P-256 half's, so stanzas
//! are recognised without the ML-KEM key.
//!
//! MLKEM768-P256 here is draft-ietf-hpke-pq-04's, the same construction as the -03 the spec
//! names (see [`crate::pq`]); files made by the `age` crate's own `tagpq` recipient, an
//! implementation of -03 of its own (over `ml-kem` and `p256`), open with these identities
//! (`tests/interop.rs`).

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use age::{DecryptError, EncryptError};
use age_core::format::{FileKey, Stanza};
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{
    DecapHolder, DecapKey, DhHolder, DhKemP256HkdfSha256, ExternalDecap, ExternalDh, Kem, MlKem768,
    MlKem768P256, SplitHybrid,
};
use typed_hpke::symmetric::{extract_public, hash};
use typed_hpke::{PrivateKey, PublicKey};

use crate::encoding::{base64, base64_exact, bech32_decode, bech32_public};

/// A KEM of a tagged recipient type: `DhKemP256HkdfSha256` (`p256tag`) or `MlKem768P256`
/// (`mlkem768p256tag`). Sealed.
pub trait TagKem: Kem + sealed::Sealed {
    /// The stanza's first argument.
    const STANZA_TYPE: &'static str;
    /// The HKDF salt of the tag, also HPKE's `info`.
    const SALT: &'static str;
    /// The recipient's Bech32 prefix.
    const HRP: &'static str;
    /// The recipient's encoded length.
    const RECIPIENT_LEN: usize;
    /// `Nenc`.
    const ENC_LEN: usize;
    /// Whether the type is post-quantum (and so labelled `postquantum`).
    const POSTQUANTUM: bool;

    /// The recipient encoding of a public key.
    #[doc(hidden)]
    fn encode(pk: &PublicKey<Self>) -> Vec<u8>;
    /// A public key from its recipient encoding.
    #[doc(hidden)]
    fn decode(bytes: &[u8]) -> Result<PublicKey<Self>, typed_hpke::Error>;
    /// The P-256 point the tag hashes, in the encoding the spec hashes.
    #[doc(hidden)]
    fn tagged_point(pk: &PublicKey<Self>) -> Vec<u8>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for typed_hpke::kem::DhKemP256HkdfSha256 {}
    impl Sealed for typed_hpke::kem::MlKem768P256 {}
}

impl TagKem for DhKemP256HkdfSha256 {
    const STANZA_TYPE: &'static str = "p256tag";
    const SALT: &'static str = "age-encryption.org/p256tag";
    const HRP: &'static str = "age1tag";
    const RECIPIENT_LEN: usize = 33;
    const ENC_LEN: usize = 65;
    const POSTQUANTUM: bool = false;

    /// The compressed point (SEC 1 §2.3.3).
    fn encode(pk: &PublicKey<Self>) -> Vec<u8> {
        pk.to_sec1_compressed().to_vec()
    }

    /// Decompressed before HPKE's `DeserializePublicKey`, as the spec requires.
    fn decode(bytes: &[u8]) -> Result<PublicKey<Self>, typed_hpke::Error> {
        PublicKey::<Self>::from_sec1_compressed(bytes)
    }

    /// `SHA-256(recipient)`: the compressed point.
    fn tagged_point(pk: &PublicKey<Self>) -> Vec<u8> {
        Self::encode(pk)
    }
}

/// ML-KEM-768's encapsulation key length, where the P-256 point starts in the hybrid key.
const MLKEM768_EK_LEN: usize = 1184;

impl TagKem for MlKem768P256 {
    const STANZA_TYPE: &'static str = "mlkem768p256tag";
    const SALT: &'static str = "age-encryption.org/mlkem768p256tag";
    const HRP: &'static str = "age1tagpq";
    const RECIPIENT_LEN: usize = 1249;
    const ENC_LEN: usize = 1153;
    const POSTQUANTUM: bool = true;

    /// `ek_PQ || pk_T`, the point uncompressed: HPKE's own serialization.
    fn encode(pk: &PublicKey<Self>) -> Vec<u8> {
        pk.as_bytes().to_vec()
    }

    /// HPKE's `DeserializePublicKey`, with the modulus check on the ML-KEM half.
    fn decode(bytes: &[u8]) -> Result<PublicKey<Self>, typed_hpke::Error> {
        PublicKey::from_bytes(bytes)
    }

    /// `SHA-256(recipient[1184:])`: the uncompressed P-256 point.
    fn tagged_point(pk: &PublicKey<Self>) -> Vec<u8> {
        pk.as_bytes()[MLKEM768_EK_LEN..].to_vec()
    }
}

/// `SHA-256(P)[:4]`, the recipient's part of every tag.
fn static_tag<K: TagKem>(pk: &PublicKey<K>) -> [u8; 4] {
    let digest = hash::<HkdfSha256>(&[&K::tagged_point(pk)]);
    [digest[0], digest[1], digest[2], digest[3]]
}

/// `HKDF-Extract-SHA-256(ikm = enc || static_tag, salt)[:4]`.
fn stanza_tag<K: TagKem>(enc: &[u8], static_tag: &[u8; 4]) -> [u8; 4] {
    let prk = extract_public::<HkdfSha256>(K::SALT.as_bytes(), &[enc, static_tag]);
    [prk[0], prk[1], prk[2], prk[3]]
}

/// A tagged recipient: `age1tag1…` ([`P256TagRecipient`]) or `age1tagpq1…`
/// ([`MlKem768P256TagRecipient`]).
pub struct TagRecipient<K: TagKem> {
    pk: PublicKey<K>,
    static_tag: [u8; 4],
}

impl<K: TagKem> PartialEq for TagRecipient<K> {
    fn eq(&self, other: &Self) -> bool {
        self.pk == other.pk
    }
}

impl<K: TagKem> Eq for TagRecipient<K> {}

impl<K: TagKem> Clone for TagRecipient<K> {
    fn clone(&self) -> Self {
        Self {
            pk: self.pk.clone(),
            static_tag: self.static_tag,
        }
    }
}

/// A `p256tag` recipient, `age1tag1…`: a P-256 point, compressed.
pub type P256TagRecipient = TagRecipient<DhKemP256HkdfSha256>;
/// A `mlkem768p256tag` recipient, `age1tagpq1…`: an MLKEM768-P256 public key.
pub type MlKem768P256TagRecipient = TagRecipient<MlKem768P256>;

impl<K: TagKem> TagRecipient<K> {
    /// The recipient of a public key.
    pub fn from_public_key(pk: PublicKey<K>) -> Self {
        let static_tag = static_tag(&pk);
        Self { pk, static_tag }
    }

    /// The public key.
    pub fn public_key(&self) -> &PublicKey<K> {
        &self.pk
    }

    /// The tag a stanza with this `enc` carries for this recipient.
    pub fn tag(&self, enc: &[u8]) -> [u8; 4] {
        stanza_tag::<K>(enc, &self.static_tag)
    }

    /// Whether `stanza` is addressed to this recipient, read with no key (what a key holder
    /// asks before it asks its key anything: a plugin whose key is in a token opens the token
    /// only for a file with such a stanza): `None` for a stanza of another type;
    /// `Some(Err(InvalidHeader))` for a malformed one of this type (the stanza section's checks,
    /// as a [`TagIdentity`] makes them); `Some(Ok(true))` for one carrying this recipient's tag,
    /// `Some(Ok(false))` for another's.
    ///
    /// ```
    /// use age::Recipient as _;
    /// use typed_hpke_age::tag::P256TagIdentity;
    ///
    /// let (ours, theirs) = (P256TagIdentity::generate(), P256TagIdentity::generate());
    /// let file_key = age_core::format::FileKey::new(Box::new([7; 16]));
    /// let (stanzas, _) = ours.to_public().wrap_file_key(&file_key)?;
    /// assert_eq!(ours.recipient().addresses(&stanzas[0]).map(Result::ok), Some(Some(true)));
    /// assert_eq!(theirs.recipient().addresses(&stanzas[0]).map(Result::ok), Some(Some(false)));
    /// # Ok::<(), age::EncryptError>(())
    /// ```
    pub fn addresses(&self, stanza: &Stanza) -> Option<Result<bool, DecryptError>> {
        parts::<K>(stanza).map(|r| r.map(|(tag, enc)| tag[..] == self.tag(&enc)))
    }
}

/// A stanza's tag and `enc`, decoded.
type TagAndEnc = (Vec<u8>, Vec<u8>);

/// A stanza of `K`'s type, checked as the stanza section says, in its order: exactly two
/// arguments after the type; canonical base64 of a 4-byte tag and of an `enc` of `Nenc` bytes;
/// a 32-byte body. Its tag and `enc`; `None` for a stanza of another type.
fn parts<K: TagKem>(stanza: &Stanza) -> Option<Result<TagAndEnc, DecryptError>> {
    if stanza.tag != K::STANZA_TYPE {
        return None;
    }
    let [tag, enc] = &stanza.args[..] else {
        return Some(Err(DecryptError::InvalidHeader));
    };
    let (Some(tag), Some(enc)) = (base64_exact(tag, 4), base64_exact(enc, K::ENC_LEN)) else {
        return Some(Err(DecryptError::InvalidHeader));
    };
    if stanza.body.len() != crate::BODY_LEN {
        return Some(Err(DecryptError::InvalidHeader));
    }
    Some(Ok((tag, enc)))
}

impl<K: TagKem> FromStr for TagRecipient<K> {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = bech32_decode(s, K::HRP, K::RECIPIENT_LEN)?;
        K::decode(&bytes)
            .map(Self::from_public_key)
            .map_err(|_| "invalid public key")
    }
}

impl<K: TagKem> fmt::Display for TagRecipient<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bech32_public(K::HRP, &K::encode(&self.pk)))
    }
}

impl<K: TagKem> fmt::Debug for TagRecipient<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TagRecipient({self})")
    }
}

impl<K: TagKem> age::Recipient for TagRecipient<K> {
    fn wrap_file_key(
        &self,
        file_key: &FileKey,
    ) -> Result<(Vec<Stanza>, HashSet<String>), EncryptError> {
        let (enc, body) = crate::seal(&self.pk, K::SALT.as_bytes(), file_key)?;
        let tag = self.tag(enc.as_bytes());
        let labels = if K::POSTQUANTUM {
            crate::pq::postquantum()
        } else {
            HashSet::new()
        };
        Ok((
            vec![Stanza {
                tag: K::STANZA_TYPE.to_owned(),
                args: vec![base64(&tag), base64(enc.as_bytes())],
                body,
            }],
            labels,
        ))
    }
}

/// A tagged identity: a typed-hpke receiver key `S` of the KEM `K` (a [`PrivateKey`], an
/// [`ExternalDh`] or an [`ExternalDecap`]) and its recipient, whose tag picks the stanzas the
/// key is asked about. `Debug` shows the recipient.
pub struct TagIdentity<K: TagKem, S> {
    key: S,
    recipient: TagRecipient<K>,
}

/// A `p256tag` identity over the key `S`.
pub type P256TagIdentity<S = PrivateKey<DhKemP256HkdfSha256>> = TagIdentity<DhKemP256HkdfSha256, S>;
/// A `mlkem768p256tag` identity over the key `S`.
pub type MlKem768P256TagIdentity<S = PrivateKey<MlKem768P256>> = TagIdentity<MlKem768P256, S>;

impl<K: TagKem> TagIdentity<K, PrivateKey<K>> {
    /// A new key from the operating system's generator, in this process.
    ///
    /// # Panics
    /// If the operating system's generator fails, or (P-256, probability below 2^-128)
    /// rejection sampling does.
    pub fn generate() -> Self {
        let (sk, _) = K::generate(&mut crate::OsRng::default())
            .expect("key generation fails with negligible probability only");
        Self::from_private_key(sk)
    }

    /// An identity whose key is in this process.
    pub fn from_private_key(sk: PrivateKey<K>) -> Self {
        let recipient = TagRecipient::from_public_key(sk.public_key());
        Self { key: sk, recipient }
    }

    /// The private key's bytes (HPKE's `SerializePrivateKey`: the P-256 scalar, or the
    /// MLKEM768-P256 seed), wiped on drop: what [`TagIdentity::from_bytes`] takes back.
    ///
    /// ```
    /// use typed_hpke_age::tag::{MlKem768P256TagIdentity, P256TagIdentity};
    ///
    /// let identity = P256TagIdentity::generate();
    /// let stored = identity.to_bytes(); // keep it secret
    /// let again = P256TagIdentity::from_bytes(&stored)?;
    /// assert_eq!(again.to_public(), identity.to_public());
    ///
    /// let pq = MlKem768P256TagIdentity::generate();
    /// let again = MlKem768P256TagIdentity::from_bytes(&pq.to_bytes())?;
    /// assert_eq!(again.to_public(), pq.to_public());
    /// # Ok::<(), typed_hpke_age::typed_hpke::Error>(())
    /// ```
    pub fn to_bytes(&self) -> zeroize::Zeroizing<Vec<u8>> {
        zeroize::Zeroizing::new(self.key.to_bytes().to_vec())
    }

    /// The identity of a private key's bytes ([`TagIdentity::to_bytes`]).
    ///
    /// # Errors
    /// typed-hpke's, for bytes that are not a private key of `K`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, typed_hpke::Error> {
        PrivateKey::from_bytes(bytes).map(Self::from_private_key)
    }
}

impl<H: DhHolder<DhKemP256HkdfSha256>> TagIdentity<DhKemP256HkdfSha256, ExternalDh<H>> {
    /// A `p256tag` identity whose key is held elsewhere (a token): the holder computes
    /// `DH(sk, enc)` for the stanzas whose tag is this recipient's, and typed-hpke validates
    /// `enc` before it asks and does the rest of `OpenBase`.
    pub fn held_dh(holder: H) -> Self {
        let recipient = TagRecipient::from_public_key(holder.public_key().clone());
        Self {
            key: ExternalDh(holder),
            recipient,
        }
    }
}

impl<K: TagKem, H: DecapHolder<K>> TagIdentity<K, ExternalDecap<H>> {
    /// An identity whose key decapsulates elsewhere, whole, for `recipient` (a
    /// [`DecapHolder`] has no public key of its own to offer).
    pub fn held_decap(holder: H, recipient: TagRecipient<K>) -> Self {
        Self {
            key: ExternalDecap(holder),
            recipient,
        }
    }
}

impl<H: DhHolder<DhKemP256HkdfSha256>> TagIdentity<MlKem768P256, SplitHybrid<MlKem768P256, H>> {
    /// A `mlkem768p256tag` identity with the ML-KEM-768 half `ml_kem` in this process and the
    /// P-256 half with `holder` (a token): see the module's documentation.
    pub fn held_split(ml_kem: PrivateKey<MlKem768>, holder: H) -> Self {
        let key = SplitHybrid::new(ml_kem, holder);
        let recipient = TagRecipient::from_public_key(key.public_key().clone());
        Self { key, recipient }
    }
}

impl<K: TagKem, S> TagIdentity<K, S> {
    /// The recipient this identity answers for, by value as [`crate::pq::Identity::to_public`]
    /// gives it (a `TagRecipient` is an [`age::Recipient`]; `&TagRecipient` goes where a
    /// `&dyn age::Recipient` does).
    ///
    /// ```
    /// use typed_hpke_age::tag::P256TagIdentity;
    ///
    /// let identity = P256TagIdentity::generate();
    /// let recipient = identity.to_public();
    /// let encryptor = age::Encryptor::with_recipients(std::iter::once(&recipient as _))?;
    /// # let _ = encryptor;
    /// # Ok::<(), age::EncryptError>(())
    /// ```
    pub fn to_public(&self) -> TagRecipient<K> {
        self.recipient.clone()
    }

    /// The recipient this identity answers for, borrowed.
    pub fn recipient(&self) -> &TagRecipient<K> {
        &self.recipient
    }

    /// The receiver key.
    pub fn key(&self) -> &S {
        &self.key
    }
}

impl<K: TagKem, S: Clone> Clone for TagIdentity<K, S> {
    fn clone(&self) -> Self {
        Self {
            key: self.key.clone(),
            recipient: self.recipient.clone(),
        }
    }
}

impl<K: TagKem, S> fmt::Debug for TagIdentity<K, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TagIdentity")
            .field("recipient", &format_args!("{}", self.recipient))
            .finish_non_exhaustive()
    }
}

impl<K: TagKem, S: DecapKey<K>> TagIdentity<K, S>
where
    S::Error: crate::KeyError,
{
    /// The checks of the stanza section, in its order: the type (else ignored); exactly two
    /// arguments after it; canonical base64 of a 4-byte tag and of an `enc` of `Nenc` bytes;
    /// a 32-byte body. Then the tag: another recipient's stanza is passed over, with no key
    /// asked. Then `OpenBase`.
    fn unwrap(&self, stanza: &Stanza) -> Option<Result<FileKey, DecryptError>> {
        let (tag, enc) = match parts::<K>(stanza)? {
            Ok(parts) => parts,
            Err(e) => return Some(Err(e)),
        };
        // The tag is public: a plain comparison leaks nothing a reader of the file lacks.
        if tag[..] != self.recipient.tag(&enc) {
            return None;
        }
        crate::open::<K, S>(&self.key, K::SALT.as_bytes(), &enc, &stanza.body)
    }
}

impl<K: TagKem, S: DecapKey<K>> age::Identity for TagIdentity<K, S>
where
    S::Error: crate::KeyError,
{
    fn unwrap_stanza(&self, stanza: &Stanza) -> Option<Result<FileKey, DecryptError>> {
        self.unwrap(stanza)
    }

    /// Two bounds, each on what it costs: at most [`crate::MAX_TAGGED_STANZAS`] stanzas of the
    /// type are read (a base64 decoding and one HKDF-Extract each, for the tag), and at most
    /// [`crate::MAX_STANZAS`] of them may carry this recipient's tag (each a decapsulation: a
    /// token call). A header over either is refused before any key is asked. Another
    /// recipient's stanza costs no key work, so a file to many recipients opens.
    fn unwrap_stanzas(&self, stanzas: &[Stanza]) -> Option<Result<FileKey, DecryptError>> {
        let own: Vec<&Stanza> = stanzas.iter().filter(|s| s.tag == K::STANZA_TYPE).collect();
        if own.len() > crate::MAX_TAGGED_STANZAS {
            return Some(Err(DecryptError::InvalidHeader));
        }
        // Every stanza of the type read for form and tag before any key is asked: a malformed
        // one fails the file wherever it is.
        let mut ours = 0;
        for stanza in &own {
            match self.recipient.addresses(stanza) {
                Some(Ok(true)) => ours += 1,
                Some(Ok(false)) | None => {}
                Some(Err(e)) => return Some(Err(e)),
            }
        }
        if ours > crate::MAX_STANZAS {
            return Some(Err(DecryptError::InvalidHeader));
        }
        own.into_iter().find_map(|s| self.unwrap(s))
    }
}
