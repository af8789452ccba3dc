//! HPKE keys in a PKCS#11 token, for [typed-hpke](https://docs.rs/typed-hpke).
//!
//! A [`TokenKey`] is a DH-KEM private key that never leaves its token (an HSM, a smart card,
//! SoftHSM2): the token computes `DH(sk, peer)` with `CKM_ECDH1_DERIVE` and the null KDF
//! (PKCS#11 v3.1 §6.3.15; the result is the shared point's x-coordinate, SEC 1 §3.3.1, which is
//! RFC 9180 §7.1's `DH` for the NIST curves), and typed-hpke does the rest: it validates the
//! peer before the token is asked, refuses an all-zero answer (§7.1.4) and derives the shared
//! secret and the context as with a key in the process. So the same key serves:
//!
//! - the runtime API, as a [`typed_hpke::suite::DhHolder`]: wrap it in
//!   [`ExternalDh`] wherever a `Suite` takes a private key,
//!   in every mode, and in `SenderMode::Auth` as a sender's static key; `&dyn HeldKey` for the
//!   OHTTP gateway (`GatewayKey::held`) and the JOSE / COSE decryptors;
//! - the typed API, through [`TokenKey::typed`], a [`typed_hpke::kem::DhHolder`] of one KEM.
//!
//! Curves: DHKEM(P-256, HKDF-SHA256), DHKEM(P-384, HKDF-SHA384) and DHKEM(P-521,
//! HKDF-SHA512). X25519 and X448 (`CKK_EC_MONTGOMERY`) and ML-KEM (PKCS#11 v3.2's
//! `C_DecapsulateKey`) are not offered by SoftHSM 2.6, the token CI tests against, so this
//! crate does not claim them: a key of another kind is refused with
//! [`Error::UnsupportedKem`].
//!
//! ```no_run
//! use typed_hpke::kem::ExternalDh;
//! use typed_hpke::suite::{ReceiverMode, Suite};
//! use typed_hpke_pkcs11::Token;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let token = Token::open("/usr/lib/softhsm/libsofthsm2.so", "hpke", "1234")?;
//! let key = token.key("gateway-2026")?;
//! let suite = Suite::new(key.public_key().kem_id(), 0x0001, 0x0001)?;
//! # let (enc, ct) = (vec![], vec![]);
//! let pt = suite.open(&enc, &ExternalDh(&key), b"info", b"", &ct, ReceiverMode::Base)?;
//! # Ok(())
//! # }
//! ```
//!
//! A key is the pair the token made, found by its label or `CKA_ID` and its public key shown
//! to be its private key's before it is trusted (README, "What a key is"); the derived value
//! leaves the token only wrapped under a key this crate made, and is unwrapped into memory it
//! wipes (README, "Secrets in memory").
//!
//! A [`TokenKey`] is `Send + Sync`: it keeps one logged-in session behind a lock, and
//! [`TokenKey::with_sessions`] gives it several, so that threads need not take turns.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod softhsm;

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::mechanism::Mechanism;
use cryptoki::mechanism::elliptic_curve::{EcKdf, Ecdh1DeriveParams};
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;
use subtle::ConstantTimeEq;
use typed_hpke::OsRng;
use typed_hpke::kem::{AuthKem, ExternalDh, HeldKeyError, Kem};
use typed_hpke::suite::{AnyKem, PublicKey, ReceiverMode, SenderMode, Suite};
use zeroize::Zeroizing;

/// What can go wrong with a token.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The PKCS#11 module reported an error: a token that is gone, a session closed, a key
    /// without `CKA_DERIVE`, a wrong PIN.
    Pkcs11(cryptoki::error::Error),
    /// No token with this label, or no key with this label on it.
    NotFound,
    /// A key of a kind this crate does not use: not an EC key on P-256, P-384 or P-521.
    UnsupportedKem,
    /// The token returned something malformed: a public point that is not one, a derived value
    /// of the wrong length.
    Malformed,
    /// typed-hpke refused a key (its public key is not a valid point).
    Hpke(typed_hpke::Error),
    /// More than one private key has this label (or id), or more public key objects claim
    /// its pair than a lookup reads: which is meant is not for this crate to guess.
    Ambiguous,
    /// A private key already has this label: [`Token::generate_key`] and
    /// [`Token::import_key`] make no second one ([`Token::replace_key`] replaces it).
    LabelInUse,
    /// No public key object of the pair's label and id matches its private key: a public key
    /// planted or swapped under the label, which this crate never hands out as the key's.
    PublicKeyMismatch,
    /// Every session of the key was left by a thread that panicked while it held it (a
    /// session so left is skipped, not used again).
    Poisoned,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pkcs11(e) => write!(f, "PKCS#11: {e}"),
            Self::NotFound => f.write_str("no such token or key"),
            Self::UnsupportedKem => f.write_str("not a P-256, P-384 or P-521 key"),
            Self::Malformed => f.write_str("malformed value from the token"),
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
            Self::Ambiguous => f.write_str("more than one key answers to this label or id"),
            Self::LabelInUse => f.write_str("a key with this label is already on the token"),
            Self::PublicKeyMismatch => {
                f.write_str("no public key object on the token matches this private key")
            }
            Self::Poisoned => f.write_str("a thread panicked while using this key's session"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Pkcs11(e) => Some(e),
            Self::Hpke(e) => Some(e),
            _ => None,
        }
    }
}

impl From<cryptoki::error::Error> for Error {
    fn from(e: cryptoki::error::Error) -> Self {
        Self::Pkcs11(e)
    }
}

/// A curve this crate uses: its KEM, DER-encoded OID (`CKA_EC_PARAMS`), and `Ndh`.
#[derive(Clone, Copy)]
struct Curve {
    kem_id: u16,
    /// The KEM's own KDF, for the key-binding check.
    kdf_id: u16,
    oid: &'static [u8],
    ndh: usize,
}

/// The NIST curves, by KEM (RFC 9180 §7.1; OIDs of RFC 5480 §2.1.1.1).
const CURVES: [Curve; 3] = [
    // secp256r1, 1.2.840.10045.3.1.7
    Curve {
        kem_id: <typed_hpke::kem::DhKemP256HkdfSha256 as typed_hpke::kem::Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha256 as typed_hpke::kdf::Kdf>::ID,
        oid: &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
        ndh: 32,
    },
    // secp384r1, 1.3.132.0.34
    Curve {
        kem_id: <typed_hpke::kem::DhKemP384HkdfSha384 as typed_hpke::kem::Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha384 as typed_hpke::kdf::Kdf>::ID,
        oid: &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22],
        ndh: 48,
    },
    // secp521r1, 1.3.132.0.35
    Curve {
        kem_id: <typed_hpke::kem::DhKemP521HkdfSha512 as typed_hpke::kem::Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha512 as typed_hpke::kdf::Kdf>::ID,
        oid: &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23],
        ndh: 66,
    },
];

fn curve_of_kem(kem_id: u16) -> Result<Curve, Error> {
    CURVES
        .into_iter()
        .find(|c| c.kem_id == kem_id)
        .ok_or(Error::UnsupportedKem)
}

fn curve_of_oid(oid: &[u8]) -> Result<Curve, Error> {
    CURVES
        .into_iter()
        .find(|c| c.oid == oid)
        .ok_or(Error::UnsupportedKem)
}

/// `CKA_EC_POINT`: the uncompressed point in a DER OCTET STRING (PKCS#11 v3.1 §2.3.3).
fn der_octet_string(point: &[u8]) -> Vec<u8> {
    let mut out = vec![0x04];
    match point.len() {
        n @ 0..=0x7f => out.push(n as u8),
        n @ 0x80..=0xff => out.extend([0x81, n as u8]),
        // Points of this crate's curves are at most 133 bytes.
        n => out.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    out.extend_from_slice(point);
    out
}

/// The point inside a `CKA_EC_POINT` value of a curve whose points are `npk` bytes: the DER
/// OCTET STRING PKCS#11 specifies, or the raw point some tokens give. At most 3 bytes of
/// header are read; anything else is `None`.
fn point_of(value: &[u8], npk: usize) -> Option<&[u8]> {
    if value.len() == npk {
        return Some(value);
    }
    let point = match value {
        [0x04, n @ 0..=0x7f, point @ ..] if usize::from(*n) == point.len() => point,
        [0x04, 0x81, n, point @ ..] if usize::from(*n) == point.len() => point,
        _ => return None,
    };
    (point.len() == npk).then_some(point)
}

/// A token, found by its label, with the user logged in.
#[derive(Clone)]
pub struct Token {
    pkcs11: Pkcs11,
    slot: Slot,
    pin: Arc<AuthPin>,
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("slot", &self.slot)
            .finish_non_exhaustive()
    }
}

/// Public key objects read for one private key before the lookup gives up: the token's own
/// pair is among them unless someone else wrote objects under the pair's label and id.
const MAX_CANDIDATES: usize = 4;

/// The bytes of a new pair's `CKA_ID`, from the token's random generator.
const ID_LEN: usize = 16;

/// What identifies a private key in a lookup.
enum Selector<'a> {
    Label(&'a str),
    Id(&'a [u8]),
}

/// A private key object found, with what was read of it.
struct Found {
    handle: ObjectHandle,
    label: Vec<u8>,
    id: Vec<u8>,
    curve: Curve,
    /// The private object's own `CKA_EC_POINT`, where the token keeps one.
    point: Option<Vec<u8>>,
}

impl Token {
    /// Loads the PKCS#11 module at `module` (initializing it unless this process already
    /// has), finds the token labelled `label` and logs in as its user with `pin`.
    ///
    /// # Errors
    /// [`Error::Pkcs11`] if the module does not load or refuses the PIN; [`Error::NotFound`]
    /// if no token has this label.
    pub fn open(module: impl AsRef<Path>, label: &str, pin: &str) -> Result<Self, Error> {
        let pkcs11 = Pkcs11::new(module.as_ref())?;
        match pkcs11.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK)) {
            Ok(())
            | Err(cryptoki::error::Error::Pkcs11(
                cryptoki::error::RvError::CryptokiAlreadyInitialized,
                _,
            )) => {}
            Err(e) => return Err(e.into()),
        }
        Self::with_module(pkcs11, label, pin)
    }

    /// As [`Token::open`], on a module this process has loaded and initialized.
    ///
    /// # Errors
    /// As [`Token::open`].
    pub fn with_module(pkcs11: Pkcs11, label: &str, pin: &str) -> Result<Self, Error> {
        let mut slot = None;
        for s in pkcs11.get_slots_with_token()? {
            if pkcs11.get_token_info(s)?.label() == label {
                slot = Some(s);
                break;
            }
        }
        let token = Self {
            pkcs11,
            slot: slot.ok_or(Error::NotFound)?,
            pin: Arc::new(AuthPin::new(pin.into())),
        };
        // Check the PIN now rather than at the first request.
        token.session()?;
        Ok(token)
    }

    /// A read-write session, logged in (an already logged-in token is fine: the login state
    /// is the application's, shared by its sessions).
    fn session(&self) -> Result<Session, Error> {
        let session = self.pkcs11.open_rw_session(self.slot)?;
        match session.login(UserType::User, Some(&self.pin)) {
            Ok(())
            | Err(cryptoki::error::Error::Pkcs11(
                cryptoki::error::RvError::UserAlreadyLoggedIn,
                _,
            )) => Ok(session),
            Err(e) => Err(e.into()),
        }
    }

    /// Generates a key pair of the DH-KEM `kem_id` on the token, labelled `label`: the private
    /// key sensitive, not extractable, with `CKA_DERIVE`; both objects stored on the token
    /// (`CKA_TOKEN`), private to the logged-in user (`CKA_PRIVATE`: no session without the PIN
    /// sees, replaces or removes them) and carrying one new random `CKA_ID`. The key returned
    /// is the pair the token made, from the handles it returned.
    ///
    /// # Errors
    /// [`Error::LabelInUse`] if a private key already has this label ([`Token::replace_key`]
    /// replaces it); [`Error::UnsupportedKem`] for a KEM other than DHKEM(P-256/384/521);
    /// [`Error::Pkcs11`].
    pub fn generate_key(&self, kem_id: u16, label: &str) -> Result<TokenKey, Error> {
        self.generate(kem_id, label, true)
    }

    /// Generates a key pair as [`Token::generate_key`] does, then destroys the pair that had
    /// the label (if one did): for a key rotated in place. Between the two steps a lookup of
    /// the label is [`Error::Ambiguous`], never the wrong key.
    ///
    /// # Errors
    /// As [`Token::generate_key`], but for the label in use; [`Error::Ambiguous`] if the label
    /// names more than one private key already.
    pub fn replace_key(&self, kem_id: u16, label: &str) -> Result<TokenKey, Error> {
        curve_of_kem(kem_id)?;
        let session = self.session()?;
        let old = self.find(&session, &Selector::Label(label));
        let old = match old {
            Ok(found) => Some(found),
            Err(Error::NotFound) => None,
            Err(e) => return Err(e),
        };
        let key = self.generate_pair(&session, kem_id, label, true)?;
        if let Some(old) = old {
            self.destroy_found(&session, &old)?;
        }
        Ok(key)
    }

    /// As [`Token::generate_key`], with `CKA_DERIVE` as `derive` (false makes a key the token
    /// will not derive with: for tests of that refusal).
    #[doc(hidden)]
    pub fn generate(&self, kem_id: u16, label: &str, derive: bool) -> Result<TokenKey, Error> {
        curve_of_kem(kem_id)?;
        let session = self.session()?;
        self.refuse_label_in_use(&session, label)?;
        let key = self.generate_pair(&session, kem_id, label, derive)?;
        self.alone(&session, key, label)
    }

    /// `key`, just made under `label`, if no other private key took the label meanwhile (PKCS#11
    /// has no create-if-absent: two writers can both see it free); else the new pair is
    /// destroyed again and the label is in use.
    fn alone(&self, session: &Session, key: TokenKey, label: &str) -> Result<TokenKey, Error> {
        match self.find(session, &Selector::Label(label)) {
            Ok(_) => Ok(key),
            Err(Error::Ambiguous) => {
                let found = self.find(session, &Selector::Id(key.id()))?;
                self.destroy_found(session, &found)?;
                Err(Error::LabelInUse)
            }
            Err(e) => Err(e),
        }
    }

    fn refuse_label_in_use(&self, session: &Session, label: &str) -> Result<(), Error> {
        match self.find(session, &Selector::Label(label)) {
            Err(Error::NotFound) => Ok(()),
            Ok(_) | Err(Error::Ambiguous) => Err(Error::LabelInUse),
            Err(e) => Err(e),
        }
    }

    fn generate_pair(
        &self,
        session: &Session,
        kem_id: u16,
        label: &str,
        derive: bool,
    ) -> Result<TokenKey, Error> {
        let curve = curve_of_kem(kem_id)?;
        let id = session.generate_random_vec(ID_LEN as u32)?;
        let label = label.as_bytes().to_vec();
        let public = [
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::KeyType(KeyType::EC),
            Attribute::EcParams(curve.oid.to_vec()),
            Attribute::Label(label.clone()),
            Attribute::Id(id.clone()),
            Attribute::Derive(derive),
        ];
        let private = [
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Derive(derive),
            Attribute::Label(label),
            Attribute::Id(id.clone()),
        ];
        let (public, private) =
            session.generate_key_pair(&Mechanism::EccKeyPairGen, &public, &private)?;
        let point = read_point(session, public, curve)?;
        self.token_key(private, Some(public), id, curve, point)
    }

    /// Imports `private_key` (a runtime key of DHKEM(P-256/384/521)) into the token as a
    /// sensitive, non-extractable key pair labelled `label`, private to the user and with a
    /// new random `CKA_ID`, as [`Token::generate_key`] makes them: for a key made elsewhere
    /// that is to live in the token from now on. The bytes pass through this process once.
    ///
    /// # Errors
    /// As [`Token::generate_key`].
    pub fn import_key(
        &self,
        private_key: &typed_hpke::suite::PrivateKey,
        label: &str,
    ) -> Result<TokenKey, Error> {
        let curve = curve_of_kem(private_key.kem_id())?;
        let session = self.session()?;
        self.refuse_label_in_use(&session, label)?;
        let id = session.generate_random_vec(ID_LEN as u32)?;
        let label_bytes = label.as_bytes().to_vec();
        let scalar = Zeroizing::new(private_key.to_bytes().to_vec());
        let public_key = private_key.public_key();
        let public = session.create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::EcParams(curve.oid.to_vec()),
            Attribute::EcPoint(der_octet_string(public_key.as_bytes())),
            Attribute::Label(label_bytes.clone()),
            Attribute::Id(id.clone()),
        ])?;
        // `Attribute::Value` takes a `Vec`: the one copy of the scalar made for it is wiped
        // once the token has it, whatever the token answered.
        let mut template = [
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Derive(true),
            Attribute::EcParams(curve.oid.to_vec()),
            Attribute::Label(label_bytes),
            Attribute::Id(id.clone()),
            Attribute::Value(scalar.to_vec()),
        ];
        let created = session.create_object(&template);
        for attribute in &mut template {
            if let Attribute::Value(v) = attribute {
                zeroize::Zeroize::zeroize(v);
            }
        }
        let private = match created {
            Ok(handle) => handle,
            Err(e) => {
                let _ = session.destroy_object(public);
                return Err(e.into());
            }
        };
        let key = self.token_key(private, Some(public), id, curve, public_key)?;
        self.alone(&session, key, label)
    }

    /// The key pair whose private key is labelled `label`.
    ///
    /// Exactly one private key may carry the label ([`Error::Ambiguous`] otherwise). Its public
    /// key is the private object's own `CKA_EC_POINT` where the token keeps one; else the
    /// public key object with the same label and `CKA_ID` whose point the private key is shown
    /// to match, by one derivation on the token, before it is trusted. A public object that
    /// someone else wrote under the label (PKCS#11 lets a session without the PIN create public
    /// objects), or swapped in after the fact, is never the key returned: with no match the
    /// lookup is [`Error::PublicKeyMismatch`].
    ///
    /// # Errors
    /// [`Error::NotFound`] if there is no private key with the label, or no public key for it;
    /// [`Error::Ambiguous`]; [`Error::PublicKeyMismatch`]; [`Error::UnsupportedKem`] for a key
    /// that is not EC on a curve of this crate; [`Error::Pkcs11`].
    pub fn key(&self, label: &str) -> Result<TokenKey, Error> {
        self.key_by(&Selector::Label(label))
    }

    /// The key pair whose private key has the `CKA_ID` `id` ([`TokenKey::id`]), checked as
    /// [`Token::key`] checks it.
    ///
    /// # Errors
    /// As [`Token::key`].
    pub fn key_by_id(&self, id: &[u8]) -> Result<TokenKey, Error> {
        self.key_by(&Selector::Id(id))
    }

    fn key_by(&self, selector: &Selector<'_>) -> Result<TokenKey, Error> {
        let session = self.session()?;
        let found = self.find(&session, selector)?;
        let (public, public_key) = self.bound_public(&session, &found)?;
        self.token_key(found.handle, public, found.id, found.curve, public_key)
    }

    /// The one private key `selector` names, and what identifies its pair.
    fn find(&self, session: &Session, selector: &Selector<'_>) -> Result<Found, Error> {
        // `CKA_PRIVATE`: a session without the PIN can create token objects, private keys of
        // its own choosing among them, but only private ones with the PIN.
        let mut template = vec![
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::Private(true),
        ];
        template.push(match selector {
            Selector::Label(label) => Attribute::Label(label.as_bytes().to_vec()),
            Selector::Id(id) => Attribute::Id(id.to_vec()),
        });
        let handle = match session.find_objects(&template)?[..] {
            [] => return Err(Error::NotFound),
            [handle] => handle,
            _ => return Err(Error::Ambiguous),
        };
        let (mut label, mut id, mut params, mut key_type, mut point) =
            (Vec::new(), Vec::new(), None, None, None);
        for attribute in session.get_attributes(
            handle,
            &[
                AttributeType::Label,
                AttributeType::Id,
                AttributeType::KeyType,
                AttributeType::EcParams,
            ],
        )? {
            match attribute {
                Attribute::Label(l) => label = l,
                Attribute::Id(i) => id = i,
                Attribute::KeyType(t) => key_type = Some(t),
                Attribute::EcParams(p) => params = Some(p),
                _ => {}
            }
        }
        if key_type != Some(KeyType::EC) {
            return Err(Error::UnsupportedKem);
        }
        let curve = curve_of_oid(&params.ok_or(Error::UnsupportedKem)?)?;
        // PKCS#11 3.x lets a token keep the point on the private object too (kryoptic does,
        // SoftHSM 2.6 does not): asked apart, as a token without it answers "invalid type".
        if let Ok(attributes) = session.get_attributes(handle, &[AttributeType::EcPoint]) {
            for attribute in attributes {
                if let Attribute::EcPoint(p) = attribute {
                    point = Some(p);
                }
            }
        }
        Ok(Found {
            handle,
            label,
            id,
            curve,
            point,
        })
    }

    /// The public key of `found`'s pair, shown to be its own: its public object's handle (if
    /// one matched) and the key.
    fn bound_public(
        &self,
        session: &Session,
        found: &Found,
    ) -> Result<(Option<ObjectHandle>, PublicKey), Error> {
        // The pair's public objects made with the PIN first (this crate's are); only for a
        // pair with none (made by another tool) those anyone could have written.
        let template = |private| {
            [
                Attribute::Class(ObjectClass::PUBLIC_KEY),
                Attribute::Private(private),
                Attribute::Label(found.label.clone()),
                Attribute::Id(found.id.clone()),
            ]
        };
        let mut candidates = session.find_objects(&template(true))?;
        if candidates.is_empty() {
            candidates = session.find_objects(&template(false))?;
        }
        if candidates.len() > MAX_CANDIDATES {
            return Err(Error::Ambiguous);
        }
        let kem = AnyKem::new(found.curve.kem_id).map_err(Error::Hpke)?;
        // The private object's own point, where the token keeps one, is the key.
        if let Some(point) = &found.point {
            let point = point_of(point, 2 * found.curve.ndh + 1).ok_or(Error::Malformed)?;
            let public_key = kem.public_key_from_bytes(point).map_err(Error::Hpke)?;
            let public = candidates
                .into_iter()
                .find(|&c| read_point(session, c, found.curve).is_ok_and(|p| p == public_key));
            return Ok((public, public_key));
        }
        if candidates.is_empty() {
            return Err(Error::NotFound);
        }
        for candidate in candidates {
            let Ok(public_key) = read_point(session, candidate, found.curve) else {
                continue;
            };
            if self.binds(session, found, &public_key)? {
                return Ok((Some(candidate), public_key));
            }
        }
        Err(Error::PublicKeyMismatch)
    }

    /// Whether the private key `found` is the one of `public_key`: a message sealed here to
    /// `public_key` (HPKE Base mode, an export only) is opened by the token's key. One
    /// derivation on the token. A token's own answer that it cannot derive is its error.
    fn binds(
        &self,
        session: &Session,
        found: &Found,
        public_key: &PublicKey,
    ) -> Result<bool, Error> {
        const INFO: &[u8] = b"typed-hpke-pkcs11 key binding";
        let suite =
            Suite::new(found.curve.kem_id, found.curve.kdf_id, EXPORT_ONLY).map_err(Error::Hpke)?;
        let (mut sent, mut received) = (Zeroizing::new([0u8; 32]), Zeroizing::new([0u8; 32]));
        let enc = suite
            .send_export(
                &mut OsRng::default(),
                public_key,
                INFO,
                b"",
                &mut sent[..],
                SenderMode::Base,
            )
            .map_err(Error::Hpke)?;
        let probe = Probe {
            session,
            handle: found.handle,
            curve: found.curve,
            public_key,
        };
        match suite.receive_export(
            &enc,
            &ExternalDh(&probe),
            INFO,
            b"",
            &mut received[..],
            ReceiverMode::Base,
        ) {
            Ok(()) => Ok(bool::from(sent[..].ct_eq(&received[..]))),
            Err(HeldKeyError::Holder(e)) => Err(e),
            // The token answered with a value typed-hpke refuses (zeros): no match.
            Err(HeldKeyError::Hpke(_)) => Ok(false),
        }
    }

    fn token_key(
        &self,
        private: ObjectHandle,
        public: Option<ObjectHandle>,
        id: Vec<u8>,
        curve: Curve,
        public_key: PublicKey,
    ) -> Result<TokenKey, Error> {
        Ok(TokenKey(Arc::new(Inner {
            workers: vec![Mutex::new(Worker::new(self.session()?))],
            next: AtomicUsize::new(0),
            token: self.clone(),
            private,
            public,
            id,
            public_key,
            curve,
        })))
    }

    /// Destroys the key pair whose private key is labelled `label`: that private key object
    /// and its pair's public key objects (the label's with the private key's `CKA_ID`; for a
    /// pair without an id, the one shown to match), and nothing else.
    ///
    /// # Errors
    /// [`Error::NotFound`], [`Error::Ambiguous`], [`Error::Pkcs11`].
    pub fn destroy_key(&self, label: &str) -> Result<(), Error> {
        let session = self.session()?;
        let found = self.find(&session, &Selector::Label(label))?;
        self.destroy_found(&session, &found)
    }

    /// Destroys the key pair whose private key has the `CKA_ID` `id`, as [`Token::destroy_key`]
    /// does: for a label that two writers left with two pairs, which [`Token::destroy_key`]
    /// refuses as ambiguous.
    ///
    /// # Errors
    /// As [`Token::destroy_key`].
    pub fn destroy_key_by_id(&self, id: &[u8]) -> Result<(), Error> {
        let session = self.session()?;
        let found = self.find(&session, &Selector::Id(id))?;
        self.destroy_found(&session, &found)
    }

    fn destroy_found(&self, session: &Session, found: &Found) -> Result<(), Error> {
        // A pair this crate made has a random id on both objects: its public key objects are
        // those of the label and that id (none other can have it unless it could read the
        // pair's, which the PIN guards). A pair without an id (made by another tool): the
        // public object shown to match, if one does.
        let public = if found.id.is_empty() {
            match self.bound_public(session, found) {
                Ok((public, _)) => public.into_iter().collect(),
                Err(Error::Pkcs11(e)) => return Err(Error::Pkcs11(e)),
                Err(_) => Vec::new(),
            }
        } else {
            session.find_objects(&[
                Attribute::Class(ObjectClass::PUBLIC_KEY),
                Attribute::Label(found.label.clone()),
                Attribute::Id(found.id.clone()),
            ])?
        };
        for object in public {
            session.destroy_object(object)?;
        }
        session.destroy_object(found.handle)?;
        Ok(())
    }
}

/// The export-only AEAD id (RFC 9180 §7.3): the key-binding check exports and seals nothing.
const EXPORT_ONLY: u16 = 0xFFFF;

/// The public key in a public key object of `curve`.
fn read_point(session: &Session, object: ObjectHandle, curve: Curve) -> Result<PublicKey, Error> {
    let (mut params, mut point) = (None, None);
    for attribute in
        session.get_attributes(object, &[AttributeType::EcParams, AttributeType::EcPoint])?
    {
        match attribute {
            Attribute::EcParams(p) => params = Some(p),
            Attribute::EcPoint(p) => point = Some(p),
            _ => {}
        }
    }
    if params.as_deref() != Some(curve.oid) {
        return Err(Error::UnsupportedKem);
    }
    let point = point.ok_or(Error::Malformed)?;
    let point = point_of(&point, 2 * curve.ndh + 1).ok_or(Error::Malformed)?;
    AnyKem::new(curve.kem_id)
        .map_err(Error::Hpke)?
        .public_key_from_bytes(point)
        .map_err(Error::Hpke)
}

/// The private key of a lookup, asked once to show it matches a public key.
struct Probe<'a> {
    session: &'a Session,
    handle: ObjectHandle,
    curve: Curve,
    public_key: &'a PublicKey,
}

impl typed_hpke::suite::DhHolder for Probe<'_> {
    type Error = Error;
    fn public_key(&self) -> &PublicKey {
        self.public_key
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let mut kek = None;
        derive(self.session, &mut kek, self.handle, self.curve, peer, out)
    }
}

/// A session of a [`TokenKey`] and the wrapping key it made (a session object, gone with it).
struct Worker {
    session: Session,
    kek: Option<Kek>,
}

impl Worker {
    fn new(session: Session) -> Self {
        Self { session, kek: None }
    }
}

/// An AES-256 key made in this process and given to the token as a session object that may
/// only wrap: the token's derived values leave it wrapped under this key and are unwrapped
/// here, into memory this crate wipes.
struct Kek {
    handle: ObjectHandle,
    key: Zeroizing<[u8; 32]>,
}

impl Kek {
    fn new(session: &Session) -> Result<Self, Error> {
        let mut key = Zeroizing::new([0u8; 32]);
        session.generate_random_slice(&mut key[..])?;
        let mut template = [
            Attribute::Class(ObjectClass::SECRET_KEY),
            Attribute::KeyType(KeyType::AES),
            Attribute::Token(false),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Wrap(true),
            Attribute::Unwrap(false),
            Attribute::Encrypt(false),
            Attribute::Decrypt(false),
            Attribute::Value(key.to_vec()),
        ];
        let created = session.create_object(&template);
        for attribute in &mut template {
            if let Attribute::Value(v) = attribute {
                zeroize::Zeroize::zeroize(v);
            }
        }
        Ok(Self {
            handle: created?,
            key,
        })
    }

    /// `value`, wrapped by the token with `CKM_AES_KEY_WRAP` (RFC 3394) when its length is a
    /// multiple of 8 bytes, else `CKM_AES_KEY_WRAP_PAD`, unwrapped into `out`, whose length
    /// is the value's. Tokens differ on the padded form: RFC 5649 (SoftHSM 2.6, after padding
    /// the value with zeros itself) or, as PKCS#11 2.40 describes it, RFC 3394 over PKCS #7
    /// padding; both are taken. Either is authenticated under a key only this process and the
    /// token have.
    fn unwrap(&self, session: &Session, value: ObjectHandle, out: &mut [u8]) -> Result<(), Error> {
        use aes_kw::cipher::KeyInit;
        let padded = !out.len().is_multiple_of(8);
        let mechanism = if padded {
            Mechanism::AesKeyWrapPad
        } else {
            Mechanism::AesKeyWrap
        };
        let wrapped = Zeroizing::new(session.wrap_key(&mechanism, self.handle, value)?);
        let key = aes_kw::cipher::Key::<aes_kw::KwAes256>::from(*self.key);
        let key = Zeroizing::new(key);
        // P-521's 66 bytes wrap to 80, the most of any curve here; the unwrapped value is the
        // wrapped length less the 8-byte check block.
        if wrapped.len() > 80 {
            return Err(Error::Malformed);
        }
        let mut buf = Zeroizing::new([0u8; 72]);
        let len = wrapped.len().checked_sub(8).ok_or(Error::Malformed)?;
        let buf = buf.get_mut(..len).ok_or(Error::Malformed)?;
        if !padded {
            let kw = aes_kw::KwAes256::new(&key);
            let value = kw.unwrap_key(&wrapped, buf).map_err(|_| Error::Malformed)?;
            return copy_exact(value, out);
        }
        let kwp = aes_kw::KwpAes256::new(&key);
        if let Ok(value) = kwp.unwrap_key(&wrapped, buf) {
            // SoftHSM 2.6 pads the value with zeros to a multiple of 8 bytes before RFC 5649,
            // whose length field then says 72 for P-521's 66: the zeros are taken off.
            let (value, zeros) = value.split_at(out.len().min(value.len()));
            if zeros.len() < 8 && zeros.iter().all(|&b| b == 0) {
                return copy_exact(value, out);
            }
            return Err(Error::Malformed);
        }
        // RFC 3394 over PKCS #7 padding: the pad length is public (the value's is `out.len()`).
        let kw = aes_kw::KwAes256::new(&key);
        let value = kw.unwrap_key(&wrapped, buf).map_err(|_| Error::Malformed)?;
        let pad = value.len().checked_sub(out.len()).ok_or(Error::Malformed)?;
        let (value, padding) = value.split_at(out.len());
        if pad == 0 || padding.iter().any(|&b| usize::from(b) != pad) {
            return Err(Error::Malformed);
        }
        copy_exact(value, out)
    }
}

fn copy_exact(value: &[u8], out: &mut [u8]) -> Result<(), Error> {
    if value.len() != out.len() {
        return Err(Error::Malformed);
    }
    out.copy_from_slice(value);
    Ok(())
}

/// `DH(sk, peer)` into `out` by `CKM_ECDH1_DERIVE` with the null KDF: the token derives a
/// sensitive, session-only generic secret of `Ndh` bytes, wraps it under the session's
/// [`Kek`] and destroys it; the value is unwrapped here into `out`. No buffer outside this
/// crate's wiped ones ever holds it in the clear (cryptoki frees the buffers of an attribute
/// read unwiped, which is why the value is not read as `CKA_VALUE`).
fn derive(
    session: &Session,
    kek: &mut Option<Kek>,
    handle: ObjectHandle,
    curve: Curve,
    peer: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    if out.len() != curve.ndh {
        return Err(Error::Malformed);
    }
    let kek = match kek {
        Some(kek) => kek,
        None => kek.insert(Kek::new(session)?),
    };
    // The peer in a DER OCTET STRING, the form `CKA_EC_POINT` has, which every token
    // must accept in ECDH1 parameters beside the raw point (PKCS#11 v3.1 §2.3.11).
    let public_data = der_octet_string(peer);
    let params = Ecdh1DeriveParams::new(EcKdf::null(), &public_data);
    let ndh = cryptoki::types::Ulong::try_from(curve.ndh)?;
    let secret = session.derive_key(
        &Mechanism::Ecdh1Derive(params),
        handle,
        &[
            Attribute::Class(ObjectClass::SECRET_KEY),
            Attribute::KeyType(KeyType::GENERIC_SECRET),
            Attribute::Token(false),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(true),
            Attribute::ValueLen(ndh),
        ],
    )?;
    let unwrapped = kek.unwrap(session, secret, out);
    let destroyed = session.destroy_object(secret);
    if unwrapped.is_err() {
        out.fill(0);
    }
    unwrapped?;
    destroyed?;
    Ok(())
}

/// A DH-KEM private key in a token: the holder typed-hpke asks for `DH(sk, peer)`. Cheap to
/// clone (the clones share its sessions); `Send + Sync`.
#[derive(Clone)]
pub struct TokenKey(Arc<Inner>);

struct Inner {
    /// The key's sessions: a call takes the first one free, or waits for one.
    workers: Vec<Mutex<Worker>>,
    next: AtomicUsize,
    token: Token,
    private: ObjectHandle,
    public: Option<ObjectHandle>,
    id: Vec<u8>,
    public_key: PublicKey,
    curve: Curve,
}

impl fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenKey")
            .field("public_key", &self.0.public_key)
            .field("sessions", &self.0.workers.len())
            .finish_non_exhaustive()
    }
}

impl TokenKey {
    /// The key's public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.0.public_key
    }

    /// The pair's `CKA_ID` ([`Token::key_by_id`] finds it again): 16 random bytes for a pair
    /// this crate made, whatever the token holds for another.
    pub fn id(&self) -> &[u8] {
        &self.0.id
    }

    /// The same key with `sessions` sessions of its own (at least one), for threads that
    /// would otherwise take turns at one: a call takes the first session free and waits only
    /// when all are busy. A token limits how many sessions it opens; its error is
    /// [`Error::Pkcs11`].
    ///
    /// # Errors
    /// [`Error::Pkcs11`] if the token opens no more sessions or refuses the PIN.
    pub fn with_sessions(&self, sessions: usize) -> Result<Self, Error> {
        let workers = (0..sessions.max(1))
            .map(|_| Ok(Mutex::new(Worker::new(self.0.token.session()?))))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Self(Arc::new(Inner {
            workers,
            next: AtomicUsize::new(0),
            token: self.0.token.clone(),
            private: self.0.private,
            public: self.0.public,
            id: self.0.id.clone(),
            public_key: self.0.public_key.clone(),
            curve: self.0.curve,
        })))
    }

    /// A free session, or the next one in turn once it is free.
    fn worker(&self) -> Result<MutexGuard<'_, Worker>, Error> {
        let workers = &self.0.workers;
        let start = self.0.next.fetch_add(1, Ordering::Relaxed);
        let mut healthy = None;
        for i in 0..workers.len() {
            let worker = &workers[(start + i) % workers.len()];
            match worker.try_lock() {
                Ok(worker) => return Ok(worker),
                Err(TryLockError::WouldBlock) => healthy = healthy.or(Some(worker)),
                // A session a panicking thread left is skipped, not used again.
                Err(TryLockError::Poisoned(_)) => {}
            }
        }
        healthy
            .ok_or(Error::Poisoned)?
            .lock()
            .map_err(|_| Error::Poisoned)
    }

    /// `DH(sk, peer)` into `out`, on one of the key's sessions.
    fn derive(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let mut worker = self.worker()?;
        let Worker { session, kek } = &mut *worker;
        derive(session, kek, self.0.private, self.0.curve, peer, out)
    }

    /// The key as a holder of the typed API's KEM `K`.
    ///
    /// # Errors
    /// [`Error::UnsupportedKem`] if the key is not one of `K`.
    pub fn typed<K: AuthKem>(&self) -> Result<TypedTokenKey<K>, Error> {
        let public_key = self
            .0
            .public_key
            .as_typed::<K>()
            .ok_or(Error::UnsupportedKem)?
            .clone();
        Ok(TypedTokenKey {
            key: self.clone(),
            public_key,
        })
    }
}

impl typed_hpke::suite::DhHolder for TokenKey {
    type Error = Error;
    fn public_key(&self) -> &PublicKey {
        &self.0.public_key
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.derive(peer, out)
    }
}

/// A [`TokenKey`] of the KEM `K`, for the typed API ([`TokenKey::typed`]).
#[derive(Clone)]
pub struct TypedTokenKey<K: Kem> {
    key: TokenKey,
    public_key: typed_hpke::PublicKey<K>,
}

impl<K: Kem> fmt::Debug for TypedTokenKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.key.fmt(f)
    }
}

impl<K: AuthKem> typed_hpke::kem::DhHolder<K> for TypedTokenKey<K> {
    type Error = Error;
    fn public_key(&self) -> &typed_hpke::PublicKey<K> {
        &self.public_key
    }
    fn dh(&self, peer: &typed_hpke::PublicKey<K>, out: &mut [u8]) -> Result<(), Error> {
        self.key.derive(peer.as_bytes(), out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_in_and_out_of_der() {
        for len in [65, 97, 133] {
            let point: Vec<u8> = std::iter::once(4)
                .chain((1..len).map(|i| i as u8))
                .collect();
            let der = der_octet_string(&point);
            assert_eq!(point_of(&der, len), Some(&point[..]));
            // A raw point is taken as it is.
            assert_eq!(point_of(&point, len), Some(&point[..]));
            // Another curve's length, a DER length that disagrees, a truncated value.
            assert_eq!(point_of(&der, len + 32), None);
            let mut bad = der.clone();
            bad[1] ^= 1;
            assert_eq!(point_of(&bad, len), None);
            assert_eq!(point_of(&der[..der.len() - 1], len), None);
        }
        assert_eq!(point_of(&[], 65), None);
    }
}
