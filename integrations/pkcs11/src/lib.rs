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
//!   [`ExternalDh`](typed_hpke::kem::ExternalDh) wherever a `Suite` takes a private key,
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
//! A [`TokenKey`] is `Send + Sync`: it keeps one logged-in session behind a lock, so calls
//! from many threads take turns at the token.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod softhsm;

use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::mechanism::Mechanism;
use cryptoki::mechanism::elliptic_curve::{EcKdf, Ecdh1DeriveParams};
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;
use typed_hpke::kem::{AuthKem, Kem};
use typed_hpke::suite::{AnyKem, PublicKey};
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pkcs11(e) => write!(f, "PKCS#11: {e}"),
            Self::NotFound => f.write_str("no such token or key"),
            Self::UnsupportedKem => f.write_str("not a P-256, P-384 or P-521 key"),
            Self::Malformed => f.write_str("malformed value from the token"),
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
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
    oid: &'static [u8],
    ndh: usize,
}

/// The NIST curves, by KEM (RFC 9180 §7.1; OIDs of RFC 5480 §2.1.1.1).
const CURVES: [Curve; 3] = [
    // secp256r1, 1.2.840.10045.3.1.7
    Curve {
        kem_id: <typed_hpke::kem::DhKemP256HkdfSha256 as typed_hpke::kem::Kem>::ID,
        oid: &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
        ndh: 32,
    },
    // secp384r1, 1.3.132.0.34
    Curve {
        kem_id: <typed_hpke::kem::DhKemP384HkdfSha384 as typed_hpke::kem::Kem>::ID,
        oid: &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22],
        ndh: 48,
    },
    // secp521r1, 1.3.132.0.35
    Curve {
        kem_id: <typed_hpke::kem::DhKemP521HkdfSha512 as typed_hpke::kem::Kem>::ID,
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
    /// key sensitive, not extractable, with `CKA_DERIVE`; stored on the token (`CKA_TOKEN`).
    ///
    /// # Errors
    /// [`Error::UnsupportedKem`] for a KEM other than DHKEM(P-256/384/521); [`Error::Pkcs11`].
    pub fn generate_key(&self, kem_id: u16, label: &str) -> Result<TokenKey, Error> {
        self.generate(kem_id, label, true)
    }

    /// As [`Token::generate_key`], with `CKA_DERIVE` as `derive` (false makes a key the token
    /// will not derive with: for tests of that refusal).
    #[doc(hidden)]
    pub fn generate(&self, kem_id: u16, label: &str, derive: bool) -> Result<TokenKey, Error> {
        let curve = curve_of_kem(kem_id)?;
        let session = self.session()?;
        let label = label.as_bytes().to_vec();
        let public = [
            Attribute::Token(true),
            Attribute::Private(false),
            Attribute::KeyType(KeyType::EC),
            Attribute::EcParams(curve.oid.to_vec()),
            Attribute::Label(label.clone()),
            Attribute::Derive(derive),
        ];
        let private = [
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Derive(derive),
            Attribute::Label(label.clone()),
        ];
        session.generate_key_pair(&Mechanism::EccKeyPairGen, &public, &private)?;
        drop(session);
        self.key(std::str::from_utf8(&label).map_err(|_| Error::NotFound)?)
    }

    /// Imports `private_key` (a runtime key of DHKEM(P-256/384/521)) into the token as a
    /// sensitive, non-extractable key pair labelled `label`: for a key made elsewhere that is
    /// to live in the token from now on. The bytes pass through this process once.
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
        let label_bytes = label.as_bytes().to_vec();
        let scalar = Zeroizing::new(private_key.to_bytes().to_vec());
        let point = der_octet_string(private_key.public_key().as_bytes());
        session.create_object(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::EC),
            Attribute::Token(true),
            Attribute::EcParams(curve.oid.to_vec()),
            Attribute::EcPoint(point),
            Attribute::Label(label_bytes.clone()),
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
            Attribute::Value(scalar.to_vec()),
        ];
        let created = session.create_object(&template);
        for attribute in &mut template {
            if let Attribute::Value(v) = attribute {
                zeroize::Zeroize::zeroize(v);
            }
        }
        created?;
        drop(session);
        self.key(label)
    }

    /// The key pair labelled `label`: its private key object and its public key (read from
    /// the public key object, or the private key's `CKA_EC_POINT` where the token keeps one).
    ///
    /// # Errors
    /// [`Error::NotFound`] if either object is missing; [`Error::UnsupportedKem`] for a key
    /// that is not EC on a curve of this crate; [`Error::Malformed`] / [`Error::Hpke`] for a
    /// public point the KEM refuses.
    pub fn key(&self, label: &str) -> Result<TokenKey, Error> {
        let session = self.session()?;
        let find = |class| {
            session.find_objects(&[
                Attribute::Class(class),
                Attribute::Label(label.as_bytes().to_vec()),
            ])
        };
        let private = *find(ObjectClass::PRIVATE_KEY)?
            .first()
            .ok_or(Error::NotFound)?;
        let public = *find(ObjectClass::PUBLIC_KEY)?
            .first()
            .ok_or(Error::NotFound)?;
        let mut params = None;
        let mut point = None;
        for attribute in
            session.get_attributes(public, &[AttributeType::EcParams, AttributeType::EcPoint])?
        {
            match attribute {
                Attribute::EcParams(p) => params = Some(p),
                Attribute::EcPoint(p) => point = Some(p),
                _ => {}
            }
        }
        let curve = curve_of_oid(&params.ok_or(Error::UnsupportedKem)?)?;
        let point = point.ok_or(Error::Malformed)?;
        let point = point_of(&point, 2 * curve.ndh + 1).ok_or(Error::Malformed)?;
        let public_key = AnyKem::new(curve.kem_id)
            .map_err(Error::Hpke)?
            .public_key_from_bytes(point)
            .map_err(Error::Hpke)?;
        Ok(TokenKey(Arc::new(Inner {
            session: Mutex::new(session),
            handle: private,
            public_key,
            ndh: curve.ndh,
        })))
    }

    /// Destroys the key pair labelled `label` on the token.
    ///
    /// # Errors
    /// [`Error::Pkcs11`].
    pub fn destroy_key(&self, label: &str) -> Result<(), Error> {
        let session = self.session()?;
        for object in session.find_objects(&[Attribute::Label(label.as_bytes().to_vec())])? {
            session.destroy_object(object)?;
        }
        Ok(())
    }
}

/// A DH-KEM private key in a token: the holder typed-hpke asks for `DH(sk, peer)`. Cheap to
/// clone (the clones share one session); `Send + Sync`.
#[derive(Clone)]
pub struct TokenKey(Arc<Inner>);

struct Inner {
    session: Mutex<Session>,
    handle: ObjectHandle,
    public_key: PublicKey,
    ndh: usize,
}

impl fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenKey")
            .field("public_key", &self.0.public_key)
            .finish_non_exhaustive()
    }
}

impl TokenKey {
    /// The key's public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.0.public_key
    }

    /// `DH(sk, peer)` into `out` by `CKM_ECDH1_DERIVE` with the null KDF: the token derives a
    /// session-only generic secret of `Ndh` bytes, which is read and destroyed at once.
    fn derive(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if out.len() != self.0.ndh {
            return Err(Error::Malformed);
        }
        let session = self.0.session.lock().map_err(|_| Error::Malformed)?;
        // The peer in a DER OCTET STRING, the form `CKA_EC_POINT` has, which every token
        // must accept in ECDH1 parameters beside the raw point (PKCS#11 v3.1 §2.3.11).
        let public_data = der_octet_string(peer);
        let params = Ecdh1DeriveParams::new(EcKdf::null(), &public_data);
        let ndh = cryptoki::types::Ulong::try_from(self.0.ndh)?;
        let secret = session.derive_key(
            &Mechanism::Ecdh1Derive(params),
            self.0.handle,
            &[
                Attribute::Class(ObjectClass::SECRET_KEY),
                Attribute::KeyType(KeyType::GENERIC_SECRET),
                Attribute::Token(false),
                Attribute::Sensitive(false),
                Attribute::Extractable(true),
                Attribute::ValueLen(ndh),
            ],
        )?;
        let value = session.get_attributes(secret, &[AttributeType::Value]);
        let destroyed = session.destroy_object(secret);
        let mut found = false;
        for attribute in value? {
            if let Attribute::Value(mut v) = attribute {
                if v.len() == out.len() {
                    out.copy_from_slice(&v);
                    found = true;
                }
                zeroize::Zeroize::zeroize(&mut v);
            }
        }
        destroyed?;
        if found { Ok(()) } else { Err(Error::Malformed) }
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
