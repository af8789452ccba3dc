//! age's HPKE recipient types for the [`age`] crate, on
//! [typed-hpke](https://docs.rs/typed-hpke).
//!
//! [age](https://c2sp.org/age) (age-encryption.org/v1, the C2SP text at commit `5ba5ee8`) has
//! five native recipient types; three are HPKE (RFC 9180 `SealBase`, HKDF-SHA256,
//! ChaCha20-Poly1305, sealing the 16-byte file key with an empty `aad`):
//!
//! | type | recipient | identity | KEM | here |
//! |---|---|---|---|---|
//! | `mlkem768x25519` | `age1pq1…` | `AGE-SECRET-KEY-PQ-1…` | MLKEM768-X25519 (X-Wing) | [`pq::Recipient`], [`pq::Identity`] |
//! | `p256tag` | `age1tag1…` | left to implementations | DHKEM(P-256, HKDF-SHA256) | [`tag::P256TagRecipient`], [`tag::TagIdentity`] |
//! | `mlkem768p256tag` | `age1tagpq1…` | left to implementations | MLKEM768-P256 | [`tag::MlKem768P256TagRecipient`], [`tag::TagIdentity`] |
//!
//! They implement [`age::Recipient`] and [`age::Identity`], so files are made and read with
//! [`age::Encryptor`] and [`age::Decryptor`], armored or not, streamed, and mixed with the
//! `age` crate's own recipients. The post-quantum recipients return the label `postquantum`,
//! with which the `age` crate refuses to encrypt a file to them and to a classical recipient at
//! once (the spec's SHOULD NOT).
//!
//! ```
//! use std::io::{Read, Write};
//! use typed_hpke_age::pq;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let identity = pq::Identity::generate();
//! let recipient: pq::Recipient = identity.to_public().to_string().parse()?;
//!
//! let encryptor = age::Encryptor::with_recipients(std::iter::once(&recipient as _))?;
//! let mut file = vec![];
//! let mut writer = encryptor.wrap_output(&mut file)?;
//! writer.write_all(b"hello")?;
//! writer.finish()?;
//!
//! let decryptor = typed_hpke_age::decryptor(&file[..])?;
//! let mut reader = decryptor.decrypt(std::iter::once(&identity as _))?;
//! let mut out = vec![];
//! reader.read_to_end(&mut out)?;
//! assert_eq!(out, b"hello");
//! # Ok(())
//! # }
//! ```
//!
//! The tagged types are meant for keys in hardware: a [`tag::TagIdentity`] holds a typed-hpke
//! receiver key of any kind, a private key in this process, a
//! [`typed_hpke::kem::ExternalDh`] over a key in a PKCS#11 token (`typed-hpke-pkcs11`), or a
//! [`typed_hpke::kem::ExternalDecap`] over a device that decapsulates whole. A stanza whose
//! tag is not the identity's is passed over before any key is used.
//!
//! # What is checked, and the limits
//!
//! Every MUST of the spec's stanza sections: the stanza's other types are ignored; an exact
//! argument count; canonical unpadded base64 of exactly 1,120 (`enc` of `mlkem768x25519`),
//! 4 (the tag) and 65 or 1,153 (`enc` of the tagged types) bytes, the length checked before
//! anything is decoded; a body of exactly 32 bytes, checked before any HPKE work. A malformed
//! stanza of the identity's type, an `enc` that is not a valid encapsulation (an X25519 or
//! P-256 share off the curve or of low order) fails the file with
//! [`age::DecryptError::InvalidHeader`]; a stanza that decapsulates but does not open is not
//! this identity's, and the search goes on to the next one.
//!
//! An identity tries at most [`MAX_STANZAS`] stanzas in one header (of its type; for a tagged
//! identity, of its type and tag) and refuses a header with more before it tries any; a tagged
//! identity reads at most [`MAX_TAGGED_STANZAS`] stanzas of its type. A Bech32 string longer
//! than 2,100 characters is refused before its checksum is computed. The header as a whole is
//! parsed by the `age` crate, which bounds neither its size nor its stanzas and parses it again
//! after every line it reads (`new_buffered`) or every byte (`new`): open files with
//! [`decryptor`], which reads the header itself in linear time under Go's age's limits
//! ([`MAX_HEADER_LEN`], [`MAX_HEADER_STANZAS`]) and has the `age` crate parse it once (README,
//! "What is checked, and the limits").
//!
//! Secrets are wiped: the private keys (typed-hpke's), the file key (age's), the decoded
//! identity bytes and the printed identity string. `Debug` shows public keys only.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod encoding;
#[doc(hidden)]
pub mod fuzzing;
mod header;
pub mod pq;
mod secret_bech32;
pub mod tag;

use age::DecryptError;
use age_core::format::{FILE_KEY_BYTES, FileKey, Stanza};
use typed_hpke::aead::ChaCha20Poly1305;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::kem::{DecapKey, HeldKeyError, Kem};
use typed_hpke::{EncappedKey, Hpke, PublicKey};

pub use header::{HeaderFirst, MAX_HEADER_LEN, MAX_HEADER_STANZAS, decryptor};
/// The typed-hpke this crate is built on, with the features it enables: for building keys
/// (`typed_hpke::PrivateKey::from_bytes`, a token's holder) without naming the crate again.
pub use typed_hpke;
pub use typed_hpke::OsRng;

/// The most stanzas an identity tries in one header: of its type for `mlkem768x25519`, of its
/// type and tag for the tagged types. Each is a decapsulation (for a key in a token, a call to
/// the token), so a header with more is refused, before any is tried, with
/// [`age::DecryptError::InvalidHeader`].
pub const MAX_STANZAS: usize = 256;

/// The most stanzas of its type a tagged identity reads in one header, whatever their tags:
/// each costs a base64 decoding and one HKDF-Extract (its tag), no key work. A header with more
/// is refused before any is read. 1,024, as [`MAX_HEADER_STANZAS`] and Go's age: a file to
/// that many hardware keys opens with each of them, here as with Go.
pub const MAX_TAGGED_STANZAS: usize = 1024;

/// The length of a sealed file key: the 16-byte key and ChaCha20-Poly1305's 16-byte tag.
const BODY_LEN: usize = FILE_KEY_BYTES + 16;

/// What a receiver key's failed decapsulation means for an age file. typed-hpke's own refusal
/// of an `enc` is a malformed header ([`DecryptError::InvalidHeader`]); a key holder's error (a
/// token that is gone, a PIN refused) is kept as the source of a [`DecryptError::Io`].
pub trait KeyError {
    /// The [`DecryptError`] this error fails the file with.
    fn into_decrypt_error(self) -> DecryptError;
}

impl KeyError for typed_hpke::Error {
    fn into_decrypt_error(self) -> DecryptError {
        DecryptError::InvalidHeader
    }
}

impl<E: std::error::Error + Send + Sync + 'static> KeyError for HeldKeyError<E> {
    fn into_decrypt_error(self) -> DecryptError {
        match self {
            HeldKeyError::Hpke(_) => DecryptError::InvalidHeader,
            HeldKeyError::Holder(e) => DecryptError::Io(std::io::Error::other(e)),
        }
    }
}

/// The HPKE suite of all three types: `kem`, HKDF-SHA256, ChaCha20-Poly1305.
type Suite<K> = Hpke<K, HkdfSha256, ChaCha20Poly1305>;

/// `SealBase(pkR, info, "", file_key)`: `enc` and the 32-byte body. A public key typed-hpke
/// cannot encapsulate to (an X25519 share of low order in an X-Wing key made with
/// `from_public_key`; parsing refuses such keys) is the `age` crate's error, never a panic.
fn seal<K: Kem>(
    pk: &PublicKey<K>,
    info: &[u8],
    file_key: &FileKey,
) -> Result<(EncappedKey<K>, Vec<u8>), age::EncryptError> {
    use age_core::secrecy::ExposeSecret as _;
    Suite::<K>::seal_base(
        &mut OsRng::default(),
        pk,
        info,
        b"",
        file_key.expose_secret(),
    )
    .map_err(|e| {
        age::EncryptError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("the recipient's public key cannot be encrypted to: {e}"),
        ))
    })
}

/// Whether `pk` can be encapsulated to: one trial `Encap` (RFC 9180 §4, draft-ietf-hpke-pq
/// §3), which refuses what `DeserializePublicKey` lets through for X25519, a point of low order
/// (the all-zero shared secret of RFC 9180 §7.1.4; Go's age makes the same check on
/// `age1pq1…` recipients when it encrypts, this crate when it parses).
fn can_encapsulate<K: Kem>(pk: &PublicKey<K>) -> bool {
    Suite::<K>::setup_sender_base(&mut OsRng::default(), pk, b"").is_ok()
}

/// `OpenBase(enc, skR, info, "", body)` for a stanza already checked for form, `enc` of the
/// KEM's length and a 32-byte body: `Some(Err(_))` if `enc` does not decapsulate (or the
/// holder fails), `None` if the body does not open (another recipient's stanza).
fn open<K: Kem, S: DecapKey<K> + ?Sized>(
    key: &S,
    info: &[u8],
    enc: &[u8],
    body: &[u8],
) -> Option<Result<FileKey, DecryptError>>
where
    S::Error: KeyError,
{
    debug_assert_eq!(body.len(), BODY_LEN);
    let Ok(enc) = EncappedKey::<K>::from_bytes(enc) else {
        return Some(Err(DecryptError::InvalidHeader));
    };
    let mut ctx = match Suite::<K>::setup_receiver_base(&enc, key, info) {
        Ok(ctx) => ctx,
        Err(e) => return Some(Err(e.into_decrypt_error())),
    };
    // The file key is decrypted straight into age's wiped box.
    FileKey::try_init_with_mut(|file_key| ctx.open_into(b"", body, &mut file_key[..]).map(|_| ()))
        .ok()
        .map(Ok)
}

/// The stanzas of type `stanza_type`, refused as a whole when there are more than
/// [`MAX_STANZAS`].
fn own_stanzas<'a>(
    stanzas: &'a [Stanza],
    stanza_type: &'a str,
) -> Result<impl Iterator<Item = &'a Stanza> + Clone, DecryptError> {
    let own = move || stanzas.iter().filter(move |s| s.tag == stanza_type);
    if own().count() > MAX_STANZAS {
        return Err(DecryptError::InvalidHeader);
    }
    Ok(own())
}

/// The `unwrap_stanzas` of an untagged identity: the count bound, then every stanza of the
/// type checked for form (`well_formed`; a malformed one fails the file wherever it is, as
/// c2sp.org/age-plugin requires of a plugin, before any key is asked), then the first stanza
/// that gives a file key or an error.
fn unwrap_all(
    stanzas: &[Stanza],
    stanza_type: &str,
    well_formed: impl Fn(&Stanza) -> bool,
    unwrap_one: impl Fn(&Stanza) -> Option<Result<FileKey, DecryptError>>,
) -> Option<Result<FileKey, DecryptError>> {
    let own = match own_stanzas(stanzas, stanza_type) {
        Ok(own) => own,
        Err(e) => return Some(Err(e)),
    };
    if !own.clone().all(well_formed) {
        return Some(Err(DecryptError::InvalidHeader));
    }
    own.into_iter().find_map(unwrap_one)
}
