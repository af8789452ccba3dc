//! The `mlkem768x25519` recipient type (c2sp.org/age, "The MLKEM768-X25519 (i.e. X-Wing)
//! hybrid post-quantum recipient type"): HPKE `SealBase` with MLKEM768-X25519 (X-Wing,
//! `kem_id` 0x647a), HKDF-SHA256 and ChaCha20-Poly1305, `info =
//! "age-encryption.org/mlkem768x25519"`.
//!
//! The spec names the KEM of draft-ietf-hpke-pq-03 / filippo.io/hpke-pq; typed-hpke implements
//! draft-ietf-hpke-pq-04. The two revisions define the same MLKEM768-X25519 (between them the
//! draft's text changed one citation, in §4.4's suite_id paragraph; their vector files differ
//! because -04's were regenerated, -03's printing hybrid `enc` values of the wrong length). On
//! the wire: the age test kit's `mlkem768x25519` files, made by Go's filippo.io/hpke-pq, open
//! here, and the spec's example stanza opens with its example identity (`tests/vectors.rs`).

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use age::{DecryptError, EncryptError};
use age_core::format::{FileKey, Stanza};
use age_core::secrecy::SecretString;
use typed_hpke::kem::{Kem as _, XWing};
use typed_hpke::{PrivateKey, PublicKey};

use crate::encoding::{
    base64, base64_exact, bech32_decode, bech32_decode_secret, bech32_public, bech32_secret,
};

const STANZA_TYPE: &str = "mlkem768x25519";
const INFO: &[u8] = b"age-encryption.org/mlkem768x25519";
const IDENTITY_HRP: &str = "AGE-SECRET-KEY-PQ-";
/// The `pq` plugin's identities (age's plugin specification: `AGE-PLUGIN-` and the plugin's
/// name in upper case).
const PLUGIN_IDENTITY_HRP: &str = "AGE-PLUGIN-PQ-";
const RECIPIENT_HRP: &str = "age1pq";
/// X-Wing's `Nenc`.
const ENC_LEN: usize = 1120;
/// X-Wing's `Npk`.
const PK_LEN: usize = 1216;
/// X-Wing's `Nsk`: the seed.
const SEED_LEN: usize = 32;

/// An `age1pq1…` recipient: an X-Wing public key. Parsing validates it as HPKE's
/// `DeserializePublicKey` does, the ML-KEM half included (FIPS 203 §7.2's modulus check: a key
/// with an unreduced coefficient is refused), and refuses an X25519 half of low order (one
/// trial encapsulation). A key given to [`Recipient::from_public_key`] is not checked; wrapping
/// a file key to one that cannot be encapsulated to is [`age::EncryptError::Io`].
#[derive(Clone, PartialEq, Eq)]
pub struct Recipient(PublicKey<XWing>);

impl Recipient {
    /// The recipient of an X-Wing public key.
    pub fn from_public_key(pk: PublicKey<XWing>) -> Self {
        Self(pk)
    }

    /// The X-Wing public key.
    pub fn public_key(&self) -> &PublicKey<XWing> {
        &self.0
    }

    /// The recipient of the 1,216 bytes an `age1pq1…` string encodes (what an age client hands
    /// the `pq` plugin), checked as the string is by [`Recipient::from_str`].
    ///
    /// ```
    /// use typed_hpke_age::pq::{Identity, Recipient};
    ///
    /// let recipient = Identity::generate().to_public();
    /// let bytes = recipient.public_key().as_bytes().to_vec();
    /// assert_eq!(Recipient::from_bytes(&bytes), Ok(recipient));
    /// assert!(Recipient::from_bytes(&bytes[1..]).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, &'static str> {
        let pk = PublicKey::from_bytes(bytes).map_err(|_| "invalid X-Wing public key")?;
        // The X25519 half is not validated by `DeserializePublicKey`: one of low order gives
        // an all-zero share, and is refused here (Go's age refuses it when it encrypts).
        if !crate::can_encapsulate(&pk) {
            return Err("invalid X-Wing public key: X25519 share of low order");
        }
        Ok(Self(pk))
    }
}

impl FromStr for Recipient {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_bytes(&bech32_decode(s, RECIPIENT_HRP, PK_LEN)?)
    }
}

impl fmt::Display for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bech32_public(RECIPIENT_HRP, self.0.as_bytes()))
    }
}

impl fmt::Debug for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pq::Recipient({self})")
    }
}

impl age::Recipient for Recipient {
    fn wrap_file_key(
        &self,
        file_key: &FileKey,
    ) -> Result<(Vec<Stanza>, HashSet<String>), EncryptError> {
        let (enc, body) = crate::seal(&self.0, INFO, file_key)?;
        Ok((
            vec![Stanza {
                tag: STANZA_TYPE.to_owned(),
                args: vec![base64(enc.as_bytes())],
                body,
            }],
            postquantum(),
        ))
    }
}

/// The label of the post-quantum recipients: the `age` crate encrypts a file only to
/// recipients that all return it, so these never share a file with a classical one.
pub(crate) fn postquantum() -> HashSet<String> {
    HashSet::from(["postquantum".to_owned()])
}

/// An `AGE-SECRET-KEY-PQ-1…` identity: the 32-byte X-Wing seed, held expanded (typed-hpke's
/// private key keeps the ML-KEM decapsulation key and the X25519 scalar beside the seed, so a
/// stanza costs one decapsulation and no key expansion). Wiped on drop; `Debug` shows the
/// recipient only.
#[derive(Clone)]
pub struct Identity(PrivateKey<XWing>);

impl Identity {
    /// A new identity from the operating system's generator.
    ///
    /// # Panics
    /// If the operating system's generator fails.
    pub fn generate() -> Self {
        let (sk, _) = XWing::generate(&mut crate::OsRng::default())
            .expect("X-Wing key generation has no failure but the generator's");
        Self(sk)
    }

    /// The identity of an X-Wing private key.
    pub fn from_private_key(sk: PrivateKey<XWing>) -> Self {
        Self(sk)
    }

    /// The private key.
    pub fn private_key(&self) -> &PrivateKey<XWing> {
        &self.0
    }

    /// The matching recipient.
    pub fn to_public(&self) -> Recipient {
        Recipient(self.0.public_key())
    }

    /// The identity as age prints it, `AGE-SECRET-KEY-PQ-1…`; every copy made on the way is
    /// wiped.
    pub fn to_string(&self) -> SecretString {
        bech32_secret(IDENTITY_HRP, &self.0.to_bytes())
    }

    /// The identity as the `pq` plugin's, `AGE-PLUGIN-PQ-1…`: the same seed under the plugin's
    /// prefix, for age clients that run `age-plugin-pq` (what `age-plugin-pq -identity`
    /// prints, and what Go's `extra/age-plugin-pq -identity` prints for the same key).
    ///
    /// ```
    /// use age::secrecy::ExposeSecret;
    /// use typed_hpke_age::pq::Identity;
    ///
    /// let identity = Identity::generate();
    /// assert!(identity.to_plugin_string().expose_secret().starts_with("AGE-PLUGIN-PQ-1"));
    /// ```
    pub fn to_plugin_string(&self) -> SecretString {
        bech32_secret(PLUGIN_IDENTITY_HRP, &self.0.to_bytes())
    }
}

impl FromStr for Identity {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let seed = bech32_decode_secret(s, IDENTITY_HRP, SEED_LEN)?;
        PrivateKey::from_bytes(&seed)
            .map(Self)
            .map_err(|_| "invalid X-Wing seed")
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pq::Identity")
            .field("recipient", &format_args!("{}", self.to_public()))
            .finish_non_exhaustive()
    }
}

/// The checks of the stanza section, in its order: the type (else `None`), exactly one
/// argument after it, canonical base64 of 1,120 bytes, a 32-byte body. The `enc`.
fn enc_of(stanza: &Stanza) -> Option<Result<Vec<u8>, DecryptError>> {
    if stanza.tag != STANZA_TYPE {
        return None;
    }
    let [enc] = &stanza.args[..] else {
        return Some(Err(DecryptError::InvalidHeader));
    };
    let Some(enc) = base64_exact(enc, ENC_LEN) else {
        return Some(Err(DecryptError::InvalidHeader));
    };
    if stanza.body.len() != crate::BODY_LEN {
        return Some(Err(DecryptError::InvalidHeader));
    }
    Some(Ok(enc))
}

/// Whether `stanza` is an `mlkem768x25519` stanza of the right form (the stanza section's
/// checks, with no key): `None` for a stanza of another type, `Some(false)` for a malformed one,
/// which makes the file's header invalid wherever it is (an identity here refuses such a file
/// before it tries any stanza; a plugin must).
pub fn is_well_formed(stanza: &Stanza) -> Option<bool> {
    enc_of(stanza).map(|r| r.is_ok())
}

/// The stanza's checks, then `OpenBase`.
fn unwrap(sk: &PrivateKey<XWing>, stanza: &Stanza) -> Option<Result<FileKey, DecryptError>> {
    match enc_of(stanza)? {
        Ok(enc) => crate::open::<XWing, _>(sk, INFO, &enc, &stanza.body),
        Err(e) => Some(Err(e)),
    }
}

impl age::Identity for Identity {
    fn unwrap_stanza(&self, stanza: &Stanza) -> Option<Result<FileKey, DecryptError>> {
        unwrap(&self.0, stanza)
    }

    /// The count bound ([`crate::MAX_STANZAS`]), then every stanza of the type checked for
    /// form (one malformed fails the file, wherever it is), then the stanzas in order.
    fn unwrap_stanzas(&self, stanzas: &[Stanza]) -> Option<Result<FileKey, DecryptError>> {
        crate::unwrap_all(
            stanzas,
            STANZA_TYPE,
            |s| is_well_formed(s) == Some(true),
            |s| unwrap(&self.0, s),
        )
    }
}
