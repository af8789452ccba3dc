//! HPKE keys in a PKCS#11 token, for [typed-hpke](https://docs.rs/typed-hpke).
//!
//! A [`TokenKey`] is a private key that never leaves its token (an HSM, a smart card,
//! SoftHSM2, kryoptic), of any KEM but secp256k1's:
//!
//! - **DH-KEMs** (P-256, P-384, P-521 as `CKK_EC`; X25519 and X448 as `CKK_EC_MONTGOMERY`):
//!   the token computes `DH(sk, peer)` with `CKM_ECDH1_DERIVE` and the null KDF (PKCS#11 v3.1
//!   §6.3.15; for the NIST curves the shared point's x-coordinate, SEC 1 §3.3.1, and for the
//!   Montgomery curves the RFC 7748 function, each RFC 9180 §7.1's `DH`), and typed-hpke does
//!   the rest: it validates the peer before the token is asked, refuses an all-zero answer
//!   (§7.1.4) and derives the shared secret and the context as with a key in the process.
//!   Every mode, and the Auth sender's static key: wrap the key in [`ExternalDh`].
//! - **ML-KEM-512/768/1024** (`CKK_ML_KEM`, PKCS#11 v3.2): the token decapsulates with
//!   `C_DecapsulateKey` and `CKM_ML_KEM` (FIPS 203 `ML-KEM.Decaps`, draft-ietf-hpke-pq §3).
//!   Base and PSK: wrap the key in [`ExternalDecap`].
//! - **X-Wing, MLKEM768-P256, MLKEM1024-P384** (draft-ietf-hpke-pq §4): both halves in the
//!   token, an ML-KEM key and an EC or Montgomery key with one label and `CKA_ID`; the token
//!   answers `ML-KEM.Decaps` and `DH` and typed-hpke's [`SplitHybrid`] combines them. Base and
//!   PSK: [`ExternalDecap`]. Its halves are never handed out as keys of their own.
//!
//! The same key serves the runtime API (`ExternalDh(&key)` / `ExternalDecap(&key)` wherever
//! a `Suite` takes a private key; `&dyn HeldKey` for the OHTTP gateway and the JOSE / COSE
//! decryptors) and the typed API ([`TokenKey::typed`]). Which tokens
//! offer which keys: the README's table.
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

pub mod kryoptic;
pub mod softhsm;

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::mechanism::Mechanism;
use cryptoki::mechanism::elliptic_curve::{EcKdf, Ecdh1DeriveParams};
use cryptoki::mechanism::misc::KeyDerivationStringData;
use cryptoki::object::{
    Attribute, AttributeType, KeyType, MlKemParameterSetType, ObjectClass, ObjectHandle,
    ParameterSetType,
};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::{AuthPin, Ulong};
use subtle::ConstantTimeEq;
use typed_hpke::OsRng;
use typed_hpke::kem::{
    AuthKem, ExternalDecap, ExternalDh, HeldKeyError, HybridKem, Kem, SplitHybrid,
};
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
    /// A key of a kind this crate does not use (an RSA key, an EC key on another curve, a
    /// secp256k1 key), or a key asked for as another KEM's.
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
    /// The key's objects say it is of a KEM whose other objects are not on the token: one half
    /// of a hybrid key (its ML-KEM or its traditional pair) is gone. It is never used as a key
    /// of the half's own KEM, which would publish a key without the hybrid's post-quantum
    /// security; [`Token::destroy_key`] removes what is left.
    IncompleteKey,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pkcs11(e) => write!(f, "PKCS#11: {e}"),
            Self::NotFound => f.write_str("no such token or key"),
            Self::UnsupportedKem => f.write_str("not a key of a KEM this crate keeps in a token"),
            Self::Malformed => f.write_str("malformed value from the token"),
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
            Self::Ambiguous => f.write_str("more than one key answers to this label or id"),
            Self::LabelInUse => f.write_str("a key with this label is already on the token"),
            Self::PublicKeyMismatch => {
                f.write_str("no public key object on the token matches this private key")
            }
            Self::Poisoned => f.write_str("a thread panicked while using this key's session"),
            Self::IncompleteKey => f.write_str("a hybrid key with one half missing from the token"),
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

/// A Diffie-Hellman group this crate uses: its KEM, how a token names it and its sizes.
#[derive(Clone, Copy)]
struct Curve {
    kem_id: u16,
    /// The KEM's own KDF, for the key-binding check.
    kdf_id: u16,
    /// `CKK_EC` (short Weierstrass) or `CKK_EC_MONTGOMERY` (RFC 7748).
    key_type: KeyType,
    /// `CKA_EC_PARAMS` as this crate writes it: the curve's OID, DER.
    oid: &'static [u8],
    /// `CKA_EC_PARAMS` as a token may hold it otherwise: PKCS#11 3.0's curve name (a DER
    /// PrintableString) for the Montgomery curves.
    name: Option<&'static [u8]>,
    /// `Ndh`: the x-coordinate (NIST curves) or the u-coordinate (Montgomery) DH gives.
    ndh: usize,
    /// `Npk`: the SEC 1 uncompressed point or the RFC 7748 u-coordinate.
    npk: usize,
}

impl Curve {
    fn montgomery(&self) -> bool {
        self.key_type == KeyType::EC_MONTGOMERY
    }

    fn named(&self, params: &[u8]) -> bool {
        params == self.oid || self.name == Some(params)
    }

    /// The peer as `CK_ECDH1_DERIVE_PARAMS` carries it: for the NIST curves the DER OCTET
    /// STRING `CKA_EC_POINT` has, which every token must accept beside the raw point (PKCS#11
    /// v3.1 §2.3.11); for the Montgomery curves the raw u-coordinate, the only form their
    /// section (§2.3.7) names.
    fn peer_data(&self, peer: &[u8]) -> Vec<u8> {
        if self.montgomery() {
            peer.to_vec()
        } else {
            der_octet_string(peer)
        }
    }

    /// The DER `AlgorithmIdentifier` of the curve's keys in a SubjectPublicKeyInfo: RFC 5480's
    /// `id-ecPublicKey` with the named curve, or RFC 8410's `id-X25519` / `id-X448` alone.
    fn spki_algorithm(&self) -> Vec<u8> {
        const ID_EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
        let mut body = Vec::new();
        if !self.montgomery() {
            body.extend(ID_EC_PUBLIC_KEY);
        }
        body.extend(self.oid);
        let mut out = vec![0x30, body.len() as u8];
        out.extend(body);
        out
    }

    /// Whether `u` is the canonical encoding of a u-coordinate (RFC 7748 §5: below `p`, and for
    /// X25519 the unused top bit clear), for a Montgomery curve; true for the NIST curves,
    /// whose points typed-hpke validates whole. A public object with a non-canonical `u` names
    /// the same DH as the canonical one, so the derivation check cannot tell them apart.
    fn canonical(&self, u: &[u8]) -> bool {
        if !self.montgomery() {
            return true;
        }
        // p, little-endian: 2^255 - 19, and 2^448 - 2^224 - 1.
        let mut p = vec![0xffu8; u.len()];
        if u.len() == 32 {
            p[0] = 0xed;
            p[31] = 0x7f;
        } else {
            p[28] = 0xfe;
        }
        // u < p, compared from the most significant byte.
        for (a, b) in u.iter().rev().zip(p.iter().rev()) {
            if a != b {
                return a < b;
            }
        }
        false
    }

    /// `CKA_EC_POINT` as this crate writes it for a public key object: the DER OCTET STRING
    /// for the NIST curves, the raw u-coordinate for the Montgomery ones (§2.3.7).
    fn ec_point(&self, point: &[u8]) -> Vec<u8> {
        self.peer_data(point)
    }
}

/// The Diffie-Hellman groups, by KEM (RFC 9180 §7.1; OIDs of RFC 5480 §2.1.1.1 and RFC 8410
/// §3).
const CURVES: [Curve; 5] = [
    // secp256r1, 1.2.840.10045.3.1.7
    Curve {
        kem_id: <typed_hpke::kem::DhKemP256HkdfSha256 as Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha256 as typed_hpke::kdf::Kdf>::ID,
        key_type: KeyType::EC,
        oid: &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
        name: None,
        ndh: 32,
        npk: 65,
    },
    // secp384r1, 1.3.132.0.34
    Curve {
        kem_id: <typed_hpke::kem::DhKemP384HkdfSha384 as Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha384 as typed_hpke::kdf::Kdf>::ID,
        key_type: KeyType::EC,
        oid: &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22],
        name: None,
        ndh: 48,
        npk: 97,
    },
    // secp521r1, 1.3.132.0.35
    Curve {
        kem_id: <typed_hpke::kem::DhKemP521HkdfSha512 as Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha512 as typed_hpke::kdf::Kdf>::ID,
        key_type: KeyType::EC,
        oid: &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23],
        name: None,
        ndh: 66,
        npk: 133,
    },
    // id-X25519, 1.3.101.110; or PrintableString "curve25519"
    Curve {
        kem_id: <typed_hpke::kem::DhKemX25519HkdfSha256 as Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha256 as typed_hpke::kdf::Kdf>::ID,
        key_type: KeyType::EC_MONTGOMERY,
        oid: &[0x06, 0x03, 0x2b, 0x65, 0x6e],
        name: Some(b"\x13\x0acurve25519"),
        ndh: 32,
        npk: 32,
    },
    // id-X448, 1.3.101.111; or PrintableString "curve448"
    Curve {
        kem_id: <typed_hpke::kem::DhKemX448HkdfSha512 as Kem>::ID,
        kdf_id: <typed_hpke::kdf::HkdfSha512 as typed_hpke::kdf::Kdf>::ID,
        key_type: KeyType::EC_MONTGOMERY,
        oid: &[0x06, 0x03, 0x2b, 0x65, 0x6f],
        name: Some(b"\x13\x08curve448"),
        ndh: 56,
        npk: 56,
    },
];

/// An ML-KEM parameter set (FIPS 203; `CKK_ML_KEM`, PKCS#11 v3.2 §6.67) by KEM
/// (draft-ietf-hpke-pq §3).
#[derive(Clone, Copy)]
struct MlKemSet {
    kem_id: u16,
    set: MlKemParameterSetType,
    /// The encapsulation key's length (`CKA_VALUE` of the public key object).
    npk: usize,
    /// The ciphertext's length.
    nenc: usize,
}

const ML_KEMS: [MlKemSet; 3] = [
    MlKemSet {
        kem_id: <typed_hpke::kem::MlKem512 as Kem>::ID,
        set: MlKemParameterSetType::ML_KEM_512,
        npk: 800,
        nenc: 768,
    },
    MlKemSet {
        kem_id: <typed_hpke::kem::MlKem768 as Kem>::ID,
        set: MlKemParameterSetType::ML_KEM_768,
        npk: 1184,
        nenc: 1088,
    },
    MlKemSet {
        kem_id: <typed_hpke::kem::MlKem1024 as Kem>::ID,
        set: MlKemParameterSetType::ML_KEM_1024,
        npk: 1568,
        nenc: 1568,
    },
];

/// ML-KEM's shared secret: 32 bytes for every parameter set (FIPS 203 §7.3).
const ML_KEM_SECRET: usize = 32;

/// The PQ/T hybrids (draft-ietf-hpke-pq §4): the hybrid's KEM, its ML-KEM half's and its
/// traditional half's. A hybrid key in a token is two key pairs with one label and `CKA_ID`.
const HYBRIDS: [(u16, u16, u16); 3] = [
    (
        <typed_hpke::kem::XWing as Kem>::ID,
        <typed_hpke::kem::MlKem768 as Kem>::ID,
        <typed_hpke::kem::DhKemX25519HkdfSha256 as Kem>::ID,
    ),
    (
        <typed_hpke::kem::MlKem768P256 as Kem>::ID,
        <typed_hpke::kem::MlKem768 as Kem>::ID,
        <typed_hpke::kem::DhKemP256HkdfSha256 as Kem>::ID,
    ),
    (
        <typed_hpke::kem::MlKem1024P384 as Kem>::ID,
        <typed_hpke::kem::MlKem1024 as Kem>::ID,
        <typed_hpke::kem::DhKemP384HkdfSha384 as Kem>::ID,
    ),
];

/// What a key of a KEM is made of in a token.
#[derive(Clone, Copy)]
enum Kind {
    /// One EC or Montgomery key pair, for `CKM_ECDH1_DERIVE`.
    Dh(Curve),
    /// One ML-KEM key pair, for `C_DecapsulateKey`.
    MlKem(MlKemSet),
    /// One of each, with one label and `CKA_ID`.
    Hybrid {
        kem_id: u16,
        ml_kem: MlKemSet,
        curve: Curve,
    },
}

impl Kind {
    fn of_kem(kem_id: u16) -> Result<Self, Error> {
        if let Some(curve) = CURVES.into_iter().find(|c| c.kem_id == kem_id) {
            return Ok(Self::Dh(curve));
        }
        if let Some(set) = ML_KEMS.into_iter().find(|m| m.kem_id == kem_id) {
            return Ok(Self::MlKem(set));
        }
        let (_, m, t) = HYBRIDS
            .into_iter()
            .find(|h| h.0 == kem_id)
            .ok_or(Error::UnsupportedKem)?;
        Ok(Self::Hybrid {
            kem_id,
            ml_kem: ml_kem_of_kem(m)?,
            curve: curve_of_kem(t)?,
        })
    }

    /// The hybrid of an ML-KEM half and a DH half, if there is one.
    fn of_halves(ml_kem: MlKemSet, curve: Curve) -> Result<Self, Error> {
        let (kem_id, _, _) = HYBRIDS
            .into_iter()
            .find(|h| h.1 == ml_kem.kem_id && h.2 == curve.kem_id)
            .ok_or(Error::UnsupportedKem)?;
        Ok(Self::Hybrid {
            kem_id,
            ml_kem,
            curve,
        })
    }

    /// The KEM of a key of this kind.
    fn kem_id(&self) -> u16 {
        match *self {
            Self::Dh(curve) => curve.kem_id,
            Self::MlKem(set) => set.kem_id,
            Self::Hybrid { kem_id, .. } => kem_id,
        }
    }

    /// The key pairs a key of this kind is, the ML-KEM one first (`pk = pk_PQ || pk_T`).
    fn halves(&self) -> Vec<Half> {
        match *self {
            Self::Dh(curve) => vec![Half::Dh(curve)],
            Self::MlKem(set) => vec![Half::MlKem(set)],
            Self::Hybrid { ml_kem, curve, .. } => vec![Half::MlKem(ml_kem), Half::Dh(curve)],
        }
    }
}

fn curve_of_kem(kem_id: u16) -> Result<Curve, Error> {
    CURVES
        .into_iter()
        .find(|c| c.kem_id == kem_id)
        .ok_or(Error::UnsupportedKem)
}

fn ml_kem_of_kem(kem_id: u16) -> Result<MlKemSet, Error> {
    ML_KEMS
        .into_iter()
        .find(|m| m.kem_id == kem_id)
        .ok_or(Error::UnsupportedKem)
}

fn curve_of_params(key_type: KeyType, params: &[u8]) -> Result<Curve, Error> {
    CURVES
        .into_iter()
        .find(|c| c.key_type == key_type && c.named(params))
        .ok_or(Error::UnsupportedKem)
}

fn ml_kem_of_set(set: ParameterSetType) -> Result<MlKemSet, Error> {
    ML_KEMS
        .into_iter()
        .find(|m| Ulong::from(ParameterSetType::from(m.set)) == Ulong::from(set))
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

/// One DER element of tag `tag` at the start of `input` (definite length, minimal, at most two
/// length bytes): its contents and what follows it.
fn der_element(input: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (&t, rest) = input.split_first()?;
    if t != tag {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = match first {
        n @ 0..=0x7f => (usize::from(n), rest),
        0x81 => match rest {
            [n @ 0x80..=0xff, rest @ ..] => (usize::from(*n), rest),
            _ => return None,
        },
        0x82 => match rest {
            [hi @ 0x01..=0xff, lo, rest @ ..] => ((usize::from(*hi) << 8) | usize::from(*lo), rest),
            _ => return None,
        },
        _ => return None,
    };
    (rest.len() >= len).then(|| rest.split_at(len))
}

/// The key in a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) whose algorithm is exactly
/// `algorithm`: the BIT STRING's bytes, with no unused bits. A token's `CKA_PUBLIC_KEY_INFO`.
fn spki_key<'a>(spki: &'a [u8], algorithm: &[u8]) -> Option<&'a [u8]> {
    let (body, after) = der_element(spki, 0x30)?;
    if !after.is_empty() {
        return None;
    }
    let (bits, after) = der_element(body.strip_prefix(algorithm)?, 0x03)?;
    if !after.is_empty() {
        return None;
    }
    match bits {
        [0, key @ ..] => Some(key),
        _ => None,
    }
}

/// A key's new `CKA_ID`: [`ID_LEN`] random bytes, then [`ID_TAG`] and the KEM's id,
/// big-endian. A lookup that finds objects of another KEM under such an id (one half of a
/// hybrid key alone) refuses them ([`Error::IncompleteKey`]).
fn new_id(session: &Session, kem_id: u16) -> Result<Vec<u8>, Error> {
    let mut id = session.generate_random_vec(ID_LEN as u32)?;
    id.extend_from_slice(ID_TAG);
    id.extend_from_slice(&kem_id.to_be_bytes());
    Ok(id)
}

/// The KEM a `CKA_ID` this crate made names, if it is one.
fn tagged_kem(id: &[u8]) -> Option<u16> {
    match id.get(ID_LEN..) {
        Some([a, b, c, d, hi, lo]) if [*a, *b, *c, *d] == *ID_TAG && id.len() == ID_LEN + 6 => {
            Some(u16::from_be_bytes([*hi, *lo]))
        }
        _ => None,
    }
}

/// What follows the random bytes of a `CKA_ID` this crate made, before the KEM's id.
const ID_TAG: &[u8; 4] = b"hpke";

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

/// Public key objects of a label read for a pair without an id, to find those without one.
const MAX_UNNAMED: usize = 16;

/// The random bytes of a new key's `CKA_ID`, from the token's generator ([`new_id`]).
const ID_LEN: usize = 16;

/// What identifies a private key in a lookup.
enum Selector<'a> {
    Label(&'a str),
    Id(&'a [u8]),
}

/// One private key object of a key, with what was read of it.
struct FoundHalf {
    handle: ObjectHandle,
    half: Half,
    /// The public key the token keeps on the private object (`CKA_PUBLIC_KEY_INFO`), where
    /// it keeps one: the raw point or u-coordinate.
    token_public: Option<Vec<u8>>,
}

/// The kind of one key pair in the token.
#[derive(Clone, Copy)]
enum Half {
    Dh(Curve),
    MlKem(MlKemSet),
}

/// A key's private key objects (one, or two for a hybrid) and what identifies it.
struct Found {
    label: Vec<u8>,
    id: Vec<u8>,
    kind: Kind,
    halves: Vec<FoundHalf>,
}

/// Private key objects read for one lookup: a hybrid key has two.
const MAX_PRIVATE: usize = 2;

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

    /// Generates a key of the KEM `kem_id` on the token, labelled `label`: a DH-KEM's EC
    /// (`CKM_EC_KEY_PAIR_GEN`) or Montgomery (`CKM_EC_MONTGOMERY_KEY_PAIR_GEN`) pair with
    /// `CKA_DERIVE`, an ML-KEM pair (`CKM_ML_KEM_KEY_PAIR_GEN`) with `CKA_DECAPSULATE`, or for a
    /// hybrid one of each. Every private key is sensitive and not extractable; every object is
    /// stored on the token (`CKA_TOKEN`), private to the logged-in user (`CKA_PRIVATE`: no
    /// session without the PIN sees, replaces or removes it) and carries the key's one new
    /// random `CKA_ID`. The key returned is what the token made, from the handles it returned.
    ///
    /// # Errors
    /// [`Error::LabelInUse`] if a private key already has this label ([`Token::replace_key`]
    /// replaces it); [`Error::UnsupportedKem`] for a KEM this crate does not keep in a token
    /// (secp256k1's); [`Error::Pkcs11`], for a token without the mechanism among others.
    pub fn generate_key(&self, kem_id: u16, label: &str) -> Result<TokenKey, Error> {
        self.generate(kem_id, label, true)
    }

    /// Generates a key as [`Token::generate_key`] does, then destroys the key that had the
    /// label (if one did): for a key rotated in place. Between the two steps a lookup of the
    /// label is [`Error::Ambiguous`], never the wrong key.
    ///
    /// # Errors
    /// As [`Token::generate_key`], but for the label in use; [`Error::Ambiguous`] if the label
    /// names more than one key already.
    pub fn replace_key(&self, kem_id: u16, label: &str) -> Result<TokenKey, Error> {
        let kind = Kind::of_kem(kem_id)?;
        let session = self.session()?;
        let old = match self.find(&session, &Selector::Label(label)) {
            Ok(found) => Some(found),
            Err(Error::NotFound) => None,
            Err(e) => return Err(e),
        };
        let key = self.generate_kind(&session, kind, label, true)?;
        if let Some(old) = old {
            self.destroy_found(&session, &old)?;
        }
        Ok(key)
    }

    /// As [`Token::generate_key`], with `CKA_DERIVE` (or `CKA_DECAPSULATE`) as `usable` (false
    /// makes a key the token will not compute with: for tests of that refusal).
    #[doc(hidden)]
    pub fn generate(&self, kem_id: u16, label: &str, usable: bool) -> Result<TokenKey, Error> {
        let kind = Kind::of_kem(kem_id)?;
        let session = self.session()?;
        self.refuse_label_in_use(&session, label)?;
        let key = self.generate_kind(&session, kind, label, usable)?;
        self.alone(&session, key, label)
    }

    /// `key`, just made under `label`, if no other private key took the label meanwhile (PKCS#11
    /// has no create-if-absent: two writers can both see it free); else the new key is
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

    /// Makes the pairs of `kind` under `label` and one new id; a hybrid's first pair is
    /// destroyed again if its second cannot be made.
    fn generate_kind(
        &self,
        session: &Session,
        kind: Kind,
        label: &str,
        usable: bool,
    ) -> Result<TokenKey, Error> {
        let id = new_id(session, kind.kem_id())?;
        let label = label.as_bytes();
        let mut made = Vec::with_capacity(2);
        for half in kind.halves() {
            match generate_half(session, half, label, &id, usable) {
                Ok(pair) => made.push(pair),
                Err(e) => {
                    destroy_pairs(session, made);
                    return Err(e);
                }
            }
        }
        self.token_key(session, kind, id, made)
    }

    /// Imports `private_key` into the token as [`Token::generate_key`] makes keys (sensitive,
    /// not extractable, private to the user, one new random `CKA_ID`), labelled `label`: for a
    /// key made elsewhere that is to live in the token from now on. A DH-KEM key goes in as its
    /// scalar (`CKA_VALUE`), an ML-KEM key as its seed `d || z` (`CKA_SEED`, PKCS#11 v3.2
    /// §6.67.4), a hybrid key as the two keys its seed expands to
    /// ([`typed_hpke::kem::PrivateKey::expanded_halves`]): the hybrid's own seed has no place in PKCS#11,
    /// so the key in the token is the same key with no seed. The bytes pass through this
    /// process once and are wiped.
    ///
    /// # Errors
    /// As [`Token::generate_key`].
    pub fn import_key(
        &self,
        private_key: &typed_hpke::suite::PrivateKey,
        label: &str,
    ) -> Result<TokenKey, Error> {
        let kind = Kind::of_kem(private_key.kem_id())?;
        let session = self.session()?;
        self.refuse_label_in_use(&session, label)?;
        let id = new_id(&session, kind.kem_id())?;
        let label_bytes = label.as_bytes();
        let halves = match kind {
            Kind::Dh(_) | Kind::MlKem(_) => vec![private_key.clone()],
            Kind::Hybrid { kem_id, .. } => split_private(kem_id, private_key)?,
        };
        let mut made = Vec::with_capacity(2);
        for (half, key) in kind.halves().into_iter().zip(&halves) {
            match import_half(&session, half, key, label_bytes, &id) {
                Ok(pair) => made.push(pair),
                Err(e) => {
                    destroy_pairs(&session, made);
                    return Err(e);
                }
            }
        }
        let key = self.token_key(&session, kind, id, made)?;
        self.alone(&session, key, label)
    }

    /// The key whose private key (or, for a hybrid, both private keys) is labelled `label`.
    ///
    /// Exactly one key may carry the label ([`Error::Ambiguous`] otherwise): one private key
    /// object with `CKA_PRIVATE`, or an ML-KEM one and an EC one with one `CKA_ID`, which is a
    /// hybrid key. Each private key's public key is the private object's own `CKA_EC_POINT`
    /// where the token keeps one; else the public key object with the same label, `CKA_ID` and
    /// key type that the private key is shown to match, by one derivation or decapsulation on
    /// the token, before it is trusted. A public object that someone else wrote under the
    /// label (PKCS#11 lets a session without the PIN create public objects), or swapped in
    /// after the fact, is never the key returned: with no match the lookup is
    /// [`Error::PublicKeyMismatch`].
    ///
    /// # Errors
    /// [`Error::NotFound`] if there is no private key with the label, or no public key for it;
    /// [`Error::Ambiguous`]; [`Error::PublicKeyMismatch`]; [`Error::UnsupportedKem`] for a key
    /// of a kind or curve this crate does not use; [`Error::Pkcs11`].
    pub fn key(&self, label: &str) -> Result<TokenKey, Error> {
        self.key_by(&Selector::Label(label))
    }

    /// The key whose private key objects have the `CKA_ID` `id` ([`TokenKey::id`]), checked as
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
        // An id this crate made names the key's KEM: objects of another (a hybrid's half
        // alone) are not a key.
        if tagged_kem(&found.id).is_some_and(|kem| kem != found.kind.kem_id()) {
            return Err(Error::IncompleteKey);
        }
        let mut pairs = Vec::with_capacity(found.halves.len());
        for half in &found.halves {
            pairs.push(self.bound_public(&session, &found, half)?);
        }
        self.key_of(found.kind, found.id, &pairs)
    }

    /// The one key `selector` names, and what identifies it.
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
        let handles = session.find_objects(&template)?;
        if handles.is_empty() {
            return Err(Error::NotFound);
        }
        if handles.len() > MAX_PRIVATE {
            return Err(Error::Ambiguous);
        }
        let mut read = Vec::with_capacity(handles.len());
        for handle in handles {
            read.push(read_private(session, handle)?);
        }
        let (label, id) = (read[0].0.clone(), read[0].1.clone());
        let kind = match &read[..] {
            [(_, _, one)] => match one.half {
                Half::Dh(curve) => Kind::Dh(curve),
                Half::MlKem(set) => Kind::MlKem(set),
            },
            // Two private keys: a hybrid only if they are one ML-KEM and one EC key that
            // share a (non-empty) id and the label; else two keys under one label.
            [(l0, i0, a), (l1, i1, b)] if l0 == l1 && i0 == i1 && !i0.is_empty() => {
                match (a.half, b.half) {
                    (Half::MlKem(set), Half::Dh(curve)) | (Half::Dh(curve), Half::MlKem(set)) => {
                        Kind::of_halves(set, curve).map_err(|_| Error::Ambiguous)?
                    }
                    _ => return Err(Error::Ambiguous),
                }
            }
            _ => return Err(Error::Ambiguous),
        };
        let mut halves: Vec<FoundHalf> = read.into_iter().map(|(_, _, half)| half).collect();
        // The ML-KEM half first, as a hybrid's key is `pk_PQ || pk_T`.
        halves.sort_by_key(|h| matches!(h.half, Half::Dh(_)));
        Ok(Found {
            label,
            id,
            kind,
            halves,
        })
    }

    /// The public key of one private key of `found`, shown to be its own: its public object's
    /// handle (if one matched) and the key.
    fn bound_public(
        &self,
        session: &Session,
        found: &Found,
        half: &FoundHalf,
    ) -> Result<Pair, Error> {
        let key_type = match half.half {
            Half::Dh(curve) => curve.key_type,
            Half::MlKem(_) => KeyType::ML_KEM,
        };
        // The pair's public objects made with the PIN first (this crate's are); only for a
        // pair with none (made by another tool) those anyone could have written.
        // A pair without an id may have an empty `CKA_ID` (SoftHSM) or none at all (kryoptic):
        // its public objects are those of the label whose id is empty or absent (read one by
        // one, from at most `MAX_UNNAMED` objects of the label).
        let search = |private| -> Result<Vec<ObjectHandle>, Error> {
            let mut template = vec![
                Attribute::Class(ObjectClass::PUBLIC_KEY),
                Attribute::KeyType(key_type),
                Attribute::Private(private),
                Attribute::Label(found.label.clone()),
            ];
            if !found.id.is_empty() {
                template.push(Attribute::Id(found.id.clone()));
                return Ok(session.find_objects(&template)?);
            }
            let objects = session.find_objects(&template)?;
            if objects.len() > MAX_UNNAMED {
                return Err(Error::Ambiguous);
            }
            Ok(objects
                .into_iter()
                .filter(|&o| match session.get_attributes(o, &[AttributeType::Id]) {
                    Ok(attributes) => {
                        !matches!(&attributes[..], [Attribute::Id(id)] if !id.is_empty())
                    }
                    Err(_) => true,
                })
                .collect())
        };
        let mut candidates = search(true)?;
        if candidates.is_empty() {
            candidates = search(false)?;
        }
        if candidates.len() > MAX_CANDIDATES {
            return Err(Error::Ambiguous);
        }
        // The public key the token keeps with the private key, where it keeps one, is the key.
        if let (Half::Dh(curve), Some(point)) = (half.half, &half.token_public) {
            let public_key = AnyKem::new(curve.kem_id)
                .map_err(Error::Hpke)?
                .public_key_from_bytes(point)
                .map_err(Error::Hpke)?;
            let public = candidates
                .into_iter()
                .find(|&c| read_public(session, c, half.half).is_ok_and(|p| p == public_key));
            return Ok(Pair {
                half: half.half,
                private: half.handle,
                public,
                public_key,
            });
        }
        if candidates.is_empty() {
            return Err(Error::NotFound);
        }
        for candidate in candidates {
            let Ok(public_key) = read_public(session, candidate, half.half) else {
                continue;
            };
            if binds(session, half, &public_key)? {
                return Ok(Pair {
                    half: half.half,
                    private: half.handle,
                    public: Some(candidate),
                    public_key,
                });
            }
        }
        Err(Error::PublicKeyMismatch)
    }

    /// The key of the pairs just made; if it cannot be made (no session left for it), the
    /// pairs are destroyed again.
    fn token_key(
        &self,
        session: &Session,
        kind: Kind,
        id: Vec<u8>,
        pairs: Vec<Pair>,
    ) -> Result<TokenKey, Error> {
        let key = self.key_of(kind, id, &pairs);
        if key.is_err() {
            destroy_pairs(session, pairs);
        }
        key
    }

    /// The key of `pairs`, which the token holds for it, with a session of its own.
    fn key_of(&self, kind: Kind, id: Vec<u8>, pairs: &[Pair]) -> Result<TokenKey, Error> {
        let pool = Arc::new(Pool {
            workers: vec![Mutex::new(Worker::new(self.session()?))],
            next: AtomicUsize::new(0),
            token: self.clone(),
        });
        TokenKey::assemble(pool, kind, id, pairs)
    }

    /// Destroys the key whose private key is labelled `label`: its private key objects and
    /// their public key objects (the label's with the key's `CKA_ID`; for a pair without an
    /// id, the one shown to match), and nothing else.
    ///
    /// # Errors
    /// [`Error::NotFound`], [`Error::Ambiguous`], [`Error::Pkcs11`].
    pub fn destroy_key(&self, label: &str) -> Result<(), Error> {
        let session = self.session()?;
        let found = self.find(&session, &Selector::Label(label))?;
        self.destroy_found(&session, &found)
    }

    /// Destroys the key whose private key objects have the `CKA_ID` `id`, as
    /// [`Token::destroy_key`] does: for a label that two writers left with two keys, which
    /// [`Token::destroy_key`] refuses as ambiguous.
    ///
    /// # Errors
    /// As [`Token::destroy_key`].
    pub fn destroy_key_by_id(&self, id: &[u8]) -> Result<(), Error> {
        let session = self.session()?;
        let found = self.find(&session, &Selector::Id(id))?;
        self.destroy_found(&session, &found)
    }

    fn destroy_found(&self, session: &Session, found: &Found) -> Result<(), Error> {
        // A key this crate made has a random id on all its objects: its public key objects
        // are those of the label and that id (none other can have it unless it could read the
        // key's, which the PIN guards). A pair without an id (made by another tool): the
        // public object shown to match, if one does.
        let public = if found.id.is_empty() {
            let mut public = Vec::new();
            for half in &found.halves {
                match self.bound_public(session, found, half) {
                    Ok(pair) => public.extend(pair.public),
                    Err(Error::Pkcs11(e)) => return Err(Error::Pkcs11(e)),
                    Err(_) => {}
                }
            }
            public
        } else {
            session.find_objects(&[
                Attribute::Class(ObjectClass::PUBLIC_KEY),
                Attribute::Label(found.label.clone()),
                Attribute::Id(found.id.clone()),
            ])?
        };
        // Every object is tried, the first error reported: a key left half-destroyed is an
        // incomplete key to every lookup, never a key of its half's KEM.
        let mut result = Ok(());
        for object in public
            .into_iter()
            .chain(found.halves.iter().map(|h| h.handle))
        {
            if let Err(e) = session.destroy_object(object) {
                result = result.and(Err(e.into()));
            }
        }
        result
    }
}

/// A private key object's label, id and kind (and its own `CKA_EC_POINT`, where kept).
fn read_private(
    session: &Session,
    handle: ObjectHandle,
) -> Result<(Vec<u8>, Vec<u8>, FoundHalf), Error> {
    let (mut label, mut id, mut key_type) = (Vec::new(), Vec::new(), None);
    for attribute in session.get_attributes(
        handle,
        &[
            AttributeType::Label,
            AttributeType::Id,
            AttributeType::KeyType,
        ],
    )? {
        match attribute {
            Attribute::Label(l) => label = l,
            Attribute::Id(i) => id = i,
            Attribute::KeyType(t) => key_type = Some(t),
            _ => {}
        }
    }
    let key_type = key_type.ok_or(Error::UnsupportedKem)?;
    let (half, point) = if key_type == KeyType::ML_KEM {
        let set = match session.get_attributes(handle, &[AttributeType::ParameterSet])?[..] {
            [Attribute::ParameterSet(set)] => set,
            _ => return Err(Error::UnsupportedKem),
        };
        (Half::MlKem(ml_kem_of_set(set)?), None)
    } else if key_type == KeyType::EC || key_type == KeyType::EC_MONTGOMERY {
        let params = match session.get_attributes(handle, &[AttributeType::EcParams])?[..] {
            [Attribute::EcParams(ref p)] => p.clone(),
            _ => return Err(Error::UnsupportedKem),
        };
        let curve = curve_of_params(key_type, &params)?;
        // PKCS#11 v3.0 lets a token keep the public key on the private object, as a
        // SubjectPublicKeyInfo (`CKA_PUBLIC_KEY_INFO`; kryoptic does, SoftHSM 2.6 does not):
        // asked apart, as a token without it answers "invalid type"; empty means unknown. One
        // that is there must be this curve's key, whole.
        let mut public = None;
        if let Ok(attributes) = session.get_attributes(handle, &[AttributeType::PublicKeyInfo]) {
            for attribute in attributes {
                if let Attribute::PublicKeyInfo(spki) = attribute
                    && !spki.is_empty()
                {
                    let key = spki_key(&spki, &curve.spki_algorithm()).ok_or(Error::Malformed)?;
                    if key.len() != curve.npk || !curve.canonical(key) {
                        return Err(Error::Malformed);
                    }
                    public = Some(key.to_vec());
                }
            }
        }
        (Half::Dh(curve), public)
    } else {
        return Err(Error::UnsupportedKem);
    };
    Ok((
        label,
        id,
        FoundHalf {
            handle,
            half,
            token_public: point,
        },
    ))
}

/// The export-only AEAD id (RFC 9180 §7.3): the key-binding check exports and seals nothing.
const EXPORT_ONLY: u16 = 0xFFFF;

/// The public key in a public key object of `half`'s kind.
fn read_public(session: &Session, object: ObjectHandle, half: Half) -> Result<PublicKey, Error> {
    match half {
        Half::Dh(curve) => {
            let (mut params, mut point) = (None, None);
            for attribute in session
                .get_attributes(object, &[AttributeType::EcParams, AttributeType::EcPoint])?
            {
                match attribute {
                    Attribute::EcParams(p) => params = Some(p),
                    Attribute::EcPoint(p) => point = Some(p),
                    _ => {}
                }
            }
            if !params.is_some_and(|p| curve.named(&p)) {
                return Err(Error::UnsupportedKem);
            }
            let point = point.ok_or(Error::Malformed)?;
            let point = point_of(&point, curve.npk).ok_or(Error::Malformed)?;
            if !curve.canonical(point) {
                return Err(Error::Malformed);
            }
            AnyKem::new(curve.kem_id)
                .map_err(Error::Hpke)?
                .public_key_from_bytes(point)
                .map_err(Error::Hpke)
        }
        Half::MlKem(set) => {
            let (mut param, mut value) = (None, None);
            for attribute in session
                .get_attributes(object, &[AttributeType::ParameterSet, AttributeType::Value])?
            {
                match attribute {
                    Attribute::ParameterSet(p) => param = Some(Ulong::from(p)),
                    Attribute::Value(v) => value = Some(v),
                    _ => {}
                }
            }
            if param != Some(Ulong::from(ParameterSetType::from(set.set))) {
                return Err(Error::UnsupportedKem);
            }
            let value = value.ok_or(Error::Malformed)?;
            if value.len() != set.npk {
                return Err(Error::Malformed);
            }
            AnyKem::new(set.kem_id)
                .map_err(Error::Hpke)?
                .public_key_from_bytes(&value)
                .map_err(Error::Hpke)
        }
    }
}

/// Whether the private key `half` is the one of `public_key`: a message sealed here to
/// `public_key` (HPKE Base mode, an export only) is opened by the token's key. One derivation
/// or decapsulation on the token. A token's own answer that it cannot compute is its error.
fn binds(session: &Session, half: &FoundHalf, public_key: &PublicKey) -> Result<bool, Error> {
    const INFO: &[u8] = b"typed-hpke-pkcs11 key binding";
    let (kem_id, kdf_id) = match half.half {
        Half::Dh(curve) => (curve.kem_id, curve.kdf_id),
        // Any KDF serves: the check compares two exports.
        Half::MlKem(set) => (
            set.kem_id,
            <typed_hpke::kdf::HkdfSha256 as typed_hpke::kdf::Kdf>::ID,
        ),
    };
    let suite = Suite::new(kem_id, kdf_id, EXPORT_ONLY).map_err(Error::Hpke)?;
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
        handle: half.handle,
        half: half.half,
        public_key,
    };
    let received_here = match half.half {
        Half::Dh(_) => suite.receive_export(
            &enc,
            &ExternalDh(&probe),
            INFO,
            b"",
            &mut received[..],
            ReceiverMode::Base,
        ),
        Half::MlKem(_) => suite.receive_export(
            &enc,
            &ExternalDecap(&probe),
            INFO,
            b"",
            &mut received[..],
            ReceiverMode::Base,
        ),
    };
    match received_here {
        Ok(()) => Ok(bool::from(sent[..].ct_eq(&received[..]))),
        Err(HeldKeyError::Holder(e)) => Err(e),
        // The token answered with a value typed-hpke refuses (zeros): no match.
        Err(HeldKeyError::Hpke(_)) => Ok(false),
    }
}

/// The private key of a lookup, asked once to show it matches a public key.
struct Probe<'a> {
    session: &'a Session,
    handle: ObjectHandle,
    half: Half,
    public_key: &'a PublicKey,
}

impl typed_hpke::suite::DhHolder for Probe<'_> {
    type Error = Error;
    fn public_key(&self) -> &PublicKey {
        self.public_key
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let Half::Dh(curve) = self.half else {
            return Err(Error::UnsupportedKem);
        };
        derive(self.session, &mut None, self.handle, curve, peer, out)
    }
}

impl typed_hpke::suite::DecapHolder for Probe<'_> {
    type Error = Error;
    fn public_key(&self) -> &PublicKey {
        self.public_key
    }
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let Half::MlKem(set) = self.half else {
            return Err(Error::UnsupportedKem);
        };
        decapsulate(self.session, &mut None, self.handle, set, enc, out)
    }
}

/// One key pair of a key in the token: its private and (where one matched) public objects.
struct Pair {
    half: Half,
    private: ObjectHandle,
    public: Option<ObjectHandle>,
    public_key: PublicKey,
}

/// The key template's common part: on the token, private to the user, labelled, with `id`.
fn stored(label: &[u8], id: &[u8]) -> [Attribute; 4] {
    [
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Label(label.to_vec()),
        Attribute::Id(id.to_vec()),
    ]
}

/// What every private key this crate makes is: sensitive and never extractable.
const SECRET: [Attribute; 2] = [Attribute::Sensitive(true), Attribute::Extractable(false)];

impl Half {
    /// What says which kind of key an object is: its key type and curve or parameter set.
    fn key_attributes(&self) -> [Attribute; 2] {
        match *self {
            Self::Dh(curve) => [
                Attribute::KeyType(curve.key_type),
                Attribute::EcParams(curve.oid.to_vec()),
            ],
            Self::MlKem(set) => [
                Attribute::KeyType(KeyType::ML_KEM),
                Attribute::ParameterSet(set.set.into()),
            ],
        }
    }

    /// The permission the private key is used under: `CKA_DERIVE` or `CKA_DECAPSULATE`.
    fn usage(&self, allowed: bool) -> Attribute {
        match self {
            Self::Dh(_) => Attribute::Derive(allowed),
            Self::MlKem(_) => Attribute::Decapsulate(allowed),
        }
    }
}

/// Generates one key pair of `half` under `label` and `id`.
fn generate_half(
    session: &Session,
    half: Half,
    label: &[u8],
    id: &[u8],
    usable: bool,
) -> Result<Pair, Error> {
    let mechanism = match half {
        Half::Dh(curve) if curve.montgomery() => Mechanism::EccMontgomeryKeyPairGen,
        Half::Dh(_) => Mechanism::EccKeyPairGen,
        Half::MlKem(_) => Mechanism::MlKemKeyPairGen,
    };
    let mut public = stored(label, id).to_vec();
    public.extend(half.key_attributes());
    let mut private = stored(label, id).to_vec();
    private.extend(SECRET);
    private.push(half.usage(usable));
    let (public, private) = session.generate_key_pair(&mechanism, &public, &private)?;
    let public_key = match read_public(session, public, half) {
        Ok(public_key) => public_key,
        Err(e) => {
            let _ = session.destroy_object(private);
            let _ = session.destroy_object(public);
            return Err(e);
        }
    };
    Ok(Pair {
        half,
        private,
        public: Some(public),
        public_key,
    })
}

/// Destroys what was made of a key that could not be made whole.
fn destroy_pairs(session: &Session, pairs: Vec<Pair>) {
    for pair in pairs {
        let _ = session.destroy_object(pair.private);
        if let Some(public) = pair.public {
            let _ = session.destroy_object(public);
        }
    }
}

/// Creates the private key object of `template` with `secret` as its last attribute; the one
/// copy of the secret made for the template (`Attribute` takes a `Vec`) is wiped once the
/// token has it, whatever the token answered.
fn create_secret(
    session: &Session,
    mut template: Vec<Attribute>,
    secret: Attribute,
) -> Result<ObjectHandle, Error> {
    template.push(secret);
    let created = session.create_object(&template);
    for attribute in &mut template {
        if let Attribute::Value(v) | Attribute::Seed(v) = attribute {
            zeroize::Zeroize::zeroize(v);
        }
    }
    Ok(created?)
}

/// Imports `private_key`, a key of `half`'s KEM, as one key pair under `label` and `id`: a
/// DH-KEM key as its scalar (`CKA_VALUE`), an ML-KEM key as its seed `d || z` (`CKA_SEED`; the
/// key's bytes, draft-ietf-hpke-pq §3).
fn import_half(
    session: &Session,
    half: Half,
    private_key: &typed_hpke::suite::PrivateKey,
    label: &[u8],
    id: &[u8],
) -> Result<Pair, Error> {
    let public_key = private_key.public_key();
    let mut template = stored(label, id).to_vec();
    template.push(Attribute::Class(ObjectClass::PUBLIC_KEY));
    template.extend(half.key_attributes());
    template.push(match half {
        Half::Dh(curve) => Attribute::EcPoint(curve.ec_point(public_key.as_bytes())),
        Half::MlKem(_) => Attribute::Value(public_key.as_bytes().to_vec()),
    });
    let public = session.create_object(&template)?;
    let mut template = stored(label, id).to_vec();
    template.extend(SECRET);
    template.push(Attribute::Class(ObjectClass::PRIVATE_KEY));
    template.extend(half.key_attributes());
    template.push(half.usage(true));
    let bytes = Zeroizing::new(private_key.to_bytes().to_vec());
    let secret = match half {
        Half::Dh(_) => Attribute::Value(bytes.to_vec()),
        Half::MlKem(_) => Attribute::Seed(bytes.to_vec()),
    };
    let private = match create_secret(session, template, secret) {
        Ok(handle) => handle,
        Err(e) => {
            let _ = session.destroy_object(public);
            return Err(e);
        }
    };
    Ok(Pair {
        half,
        private,
        public: Some(public),
        public_key,
    })
}

/// The ML-KEM key and the traditional key a hybrid key's seed expands to, as runtime keys.
fn split_private(
    kem_id: u16,
    private_key: &typed_hpke::suite::PrivateKey,
) -> Result<Vec<typed_hpke::suite::PrivateKey>, Error> {
    fn halves<K: HybridKem>(
        private_key: &typed_hpke::suite::PrivateKey,
    ) -> Result<Vec<typed_hpke::suite::PrivateKey>, Error> {
        let bytes = private_key.to_bytes();
        let key = typed_hpke::PrivateKey::<K>::from_bytes(&bytes).map_err(Error::Hpke)?;
        let (ml_kem, traditional) = key.expanded_halves();
        let of = |kem_id: u16, bytes: &[u8]| {
            AnyKem::new(kem_id)
                .and_then(|kem| kem.private_key_from_bytes(bytes))
                .map_err(Error::Hpke)
        };
        Ok(vec![
            of(<K::MlKem as Kem>::ID, &ml_kem)?,
            of(<K::Traditional as Kem>::ID, &traditional)?,
        ])
    }
    use typed_hpke::kem::{MlKem768P256, MlKem1024P384, XWing};
    match kem_id {
        id if id == XWing::ID => halves::<XWing>(private_key),
        id if id == MlKem768P256::ID => halves::<MlKem768P256>(private_key),
        id if id == MlKem1024P384::ID => halves::<MlKem1024P384>(private_key),
        _ => Err(Error::UnsupportedKem),
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
    /// The token refused `CKM_AES_KEY_WRAP_PAD` once: padded values are padded by the token.
    no_pad_mechanism: bool,
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
            no_pad_mechanism: false,
        })
    }

    /// `value`, wrapped by the token with `CKM_AES_KEY_WRAP` (RFC 3394) when its length is a
    /// multiple of 8 bytes, else `CKM_AES_KEY_WRAP_PAD`, unwrapped into `out`, whose length
    /// is the value's. Tokens differ on the padded form: RFC 5649 (SoftHSM 2.6, after padding
    /// the value with zeros itself) or, as PKCS#11 2.40 describes it, RFC 3394 over PKCS #7
    /// padding; both are taken. A token without `CKM_AES_KEY_WRAP_PAD` (kryoptic has PKCS#11
    /// 3.0's `CKM_AES_KEY_WRAP_KWP` instead, which cryptoki 0.12 cannot name) appends the zeros
    /// itself (`CKM_CONCATENATE_BASE_AND_DATA`, into another sensitive session secret) before
    /// RFC 3394. Every form is authenticated under a key only this process and the token have.
    fn unwrap(
        &mut self,
        session: &Session,
        value: ObjectHandle,
        out: &mut [u8],
    ) -> Result<(), Error> {
        let pad = (8 - out.len() % 8) % 8;
        if pad == 0 {
            let wrapped =
                Zeroizing::new(session.wrap_key(&Mechanism::AesKeyWrap, self.handle, value)?);
            return self.unwrap_kw(&wrapped, out);
        }
        if !self.no_pad_mechanism {
            match session.wrap_key(&Mechanism::AesKeyWrapPad, self.handle, value) {
                Ok(wrapped) => return self.unwrap_padded(&Zeroizing::new(wrapped), out),
                Err(cryptoki::error::Error::Pkcs11(
                    cryptoki::error::RvError::MechanismInvalid,
                    _,
                )) => self.no_pad_mechanism = true,
                Err(e) => return Err(e.into()),
            }
        }
        let zeros = [0u8; 8];
        let data = KeyDerivationStringData::new(&zeros[..pad]);
        let longer = session.derive_key(
            &Mechanism::ConcatenateBaseAndData(data),
            value,
            &session_secret(None),
        )?;
        let wrapped = session.wrap_key(&Mechanism::AesKeyWrap, self.handle, longer);
        let destroyed = session.destroy_object(longer);
        let wrapped = Zeroizing::new(wrapped?);
        destroyed?;
        let mut full = Zeroizing::new([0u8; 72]);
        let full = full.get_mut(..out.len() + pad).ok_or(Error::Malformed)?;
        self.unwrap_kw(&wrapped, full)?;
        let (value, zeros) = full.split_at(out.len());
        if zeros.iter().any(|&b| b != 0) {
            return Err(Error::Malformed);
        }
        copy_exact(value, out)
    }

    /// The key wrap's key, as `aes-kw` takes it.
    fn kw_key(&self) -> Zeroizing<aes_kw::cipher::Key<aes_kw::KwAes256>> {
        Zeroizing::new(aes_kw::cipher::Key::<aes_kw::KwAes256>::from(*self.key))
    }

    /// RFC 3394 unwrapping of `wrapped` into exactly `out`.
    fn unwrap_kw(&self, wrapped: &[u8], out: &mut [u8]) -> Result<(), Error> {
        use aes_kw::cipher::KeyInit;
        // P-521's 66 bytes wrap to 80, the most of any value here; the unwrapped value is the
        // wrapped length less the 8-byte check block.
        if wrapped.len() > 80 {
            return Err(Error::Malformed);
        }
        let mut buf = Zeroizing::new([0u8; 72]);
        let len = wrapped.len().checked_sub(8).ok_or(Error::Malformed)?;
        let buf = buf.get_mut(..len).ok_or(Error::Malformed)?;
        let kw = aes_kw::KwAes256::new(&self.kw_key());
        let value = kw.unwrap_key(wrapped, buf).map_err(|_| Error::Malformed)?;
        copy_exact(value, out)
    }

    /// `CKM_AES_KEY_WRAP_PAD`'s output in either reading, unwrapped into exactly `out`.
    fn unwrap_padded(&self, wrapped: &[u8], out: &mut [u8]) -> Result<(), Error> {
        use aes_kw::cipher::KeyInit;
        if wrapped.len() > 80 {
            return Err(Error::Malformed);
        }
        let mut buf = Zeroizing::new([0u8; 72]);
        let len = wrapped.len().checked_sub(8).ok_or(Error::Malformed)?;
        let buf = buf.get_mut(..len).ok_or(Error::Malformed)?;
        let kwp = aes_kw::KwpAes256::new(&self.kw_key());
        if let Ok(value) = kwp.unwrap_key(wrapped, buf) {
            // SoftHSM 2.6 pads the value with zeros to a multiple of 8 bytes before RFC 5649,
            // whose length field then says 72 for P-521's 66: the zeros are taken off.
            let (value, zeros) = value.split_at(out.len().min(value.len()));
            if zeros.len() < 8 && zeros.iter().all(|&b| b == 0) {
                return copy_exact(value, out);
            }
            return Err(Error::Malformed);
        }
        // RFC 3394 over PKCS #7 padding: the pad length is public (the value's is `out.len()`).
        let kw = aes_kw::KwAes256::new(&self.kw_key());
        let value = kw.unwrap_key(wrapped, buf).map_err(|_| Error::Malformed)?;
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
    if out.len() != curve.ndh || peer.len() != curve.npk {
        return Err(Error::Malformed);
    }
    let kek = match kek {
        Some(kek) => kek,
        None => kek.insert(Kek::new(session)?),
    };
    let public_data = curve.peer_data(peer);
    let params = Ecdh1DeriveParams::new(EcKdf::null(), &public_data);
    let ndh = Ulong::try_from(curve.ndh)?;
    let secret = session.derive_key(
        &Mechanism::Ecdh1Derive(params),
        handle,
        &session_secret(Some(ndh)),
    )?;
    kek.unwrap_into(session, secret, out)
}

/// `ML-KEM.Decaps(dk, ct)` into `out` (32 bytes) by `C_DecapsulateKey` with `CKM_ML_KEM`
/// (PKCS#11 v3.2 §6.67.7): the token makes the shared secret a sensitive, session-only generic
/// secret, which leaves it wrapped under the session's [`Kek`] as a DH value does.
fn decapsulate(
    session: &Session,
    kek: &mut Option<Kek>,
    handle: ObjectHandle,
    set: MlKemSet,
    enc: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    if out.len() != ML_KEM_SECRET || enc.len() != set.nenc {
        return Err(Error::Malformed);
    }
    let kek = match kek {
        Some(kek) => kek,
        None => kek.insert(Kek::new(session)?),
    };
    let secret = session.decapsulate_key(&Mechanism::MlKem, handle, &session_secret(None), enc)?;
    kek.unwrap_into(session, secret, out)
}

/// The template of a secret the token computes for one call: a generic secret (of `len`
/// bytes where the mechanism asks), sensitive, a session object, extractable only so that it
/// can leave wrapped.
fn session_secret(len: Option<Ulong>) -> Vec<Attribute> {
    let mut template = vec![
        Attribute::Class(ObjectClass::SECRET_KEY),
        Attribute::KeyType(KeyType::GENERIC_SECRET),
        Attribute::Token(false),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Extractable(true),
        // For a token that pads a value to wrap by deriving a longer one from it.
        Attribute::Derive(true),
    ];
    template.extend(len.map(Attribute::ValueLen));
    template
}

impl Kek {
    /// `secret` (a session object the token just made) unwrapped into `out` and destroyed:
    /// `out` is zeros unless both steps succeed.
    fn unwrap_into(
        &mut self,
        session: &Session,
        secret: ObjectHandle,
        out: &mut [u8],
    ) -> Result<(), Error> {
        let unwrapped = self.unwrap(session, secret, out);
        let destroyed = session.destroy_object(secret);
        if unwrapped.is_err() || destroyed.is_err() {
            out.fill(0);
        }
        unwrapped?;
        destroyed?;
        Ok(())
    }
}

/// A key's sessions: a call takes the first one free, or waits for one. A hybrid key's two
/// halves share them.
struct Pool {
    workers: Vec<Mutex<Worker>>,
    next: AtomicUsize,
    token: Token,
}

impl Pool {
    /// A free session, or the next one in turn once it is free.
    fn worker(&self) -> Result<MutexGuard<'_, Worker>, Error> {
        let workers = &self.workers;
        let start = self.next.fetch_add(1, Ordering::Relaxed);
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
}

/// A private key in a token, of any KEM this crate keeps there: a DH-KEM key (the holder
/// typed-hpke asks for `DH(sk, peer)`), an ML-KEM key or a hybrid key (holders that
/// decapsulate). Cheap to clone (the clones share its sessions); `Send + Sync`.
///
/// A hybrid key is one key: its halves are never handed out as keys of their own KEMs (an
/// X25519 receiver, or an Auth sender whose public key is the hybrid's `pk_T`), in the typed
/// API or the runtime one.
///
/// ```compile_fail
/// # fn halves(key: typed_hpke_pkcs11::TokenKey) {
/// let split = key.split::<typed_hpke::kem::XWing>(); // private
/// # }
/// ```
///
/// ```
/// # fn halves(key: typed_hpke_pkcs11::TokenKey) {
/// use typed_hpke::kem::{DhKemX25519HkdfSha256, MlKem768, XWing};
/// # if key.public_key().kem_id() != 0x647a { return; }
/// assert!(key.typed::<XWing>().is_ok());
/// assert!(key.typed::<DhKemX25519HkdfSha256>().is_err());
/// assert!(key.typed::<MlKem768>().is_err());
/// # }
/// ```
#[derive(Clone)]
pub struct TokenKey(Arc<Inner>);

struct Inner {
    pool: Arc<Pool>,
    kind: Kind,
    id: Vec<u8>,
    /// The KEM's public key (a hybrid's: `pk_PQ || pk_T`).
    public_key: PublicKey,
    /// The DH-KEM key pair (or a hybrid's traditional half).
    dh: Option<HeldPair>,
    /// The ML-KEM key pair (or a hybrid's ML-KEM half).
    ml_kem: Option<HeldPair>,
}

/// One key pair of a [`TokenKey`].
#[derive(Clone)]
struct HeldPair {
    private: ObjectHandle,
    public_key: PublicKey,
}

impl fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenKey")
            .field("public_key", &self.0.public_key)
            .field("sessions", &self.0.pool.workers.len())
            .finish_non_exhaustive()
    }
}

impl TokenKey {
    /// The key of `kind` from the pairs the token holds for it (the ML-KEM half first).
    fn assemble(pool: Arc<Pool>, kind: Kind, id: Vec<u8>, pairs: &[Pair]) -> Result<Self, Error> {
        let (mut dh, mut ml_kem) = (None, None);
        for pair in pairs {
            let held = HeldPair {
                private: pair.private,
                public_key: pair.public_key.clone(),
            };
            match pair.half {
                Half::Dh(_) => dh = Some(held),
                Half::MlKem(_) => ml_kem = Some(held),
            }
        }
        let public_key = match (kind, &ml_kem, &dh) {
            (Kind::Dh(_), None, Some(dh)) => dh.public_key.clone(),
            (Kind::MlKem(_), Some(ml_kem), None) => ml_kem.public_key.clone(),
            (Kind::Hybrid { kem_id, .. }, Some(ml_kem), Some(dh)) => {
                // pk = pk_PQ || pk_T (draft-ietf-hpke-pq §4), parsed as the hybrid's.
                let mut bytes = ml_kem.public_key.as_bytes().to_vec();
                bytes.extend_from_slice(dh.public_key.as_bytes());
                AnyKem::new(kem_id)
                    .map_err(Error::Hpke)?
                    .public_key_from_bytes(&bytes)
                    .map_err(Error::Hpke)?
            }
            _ => return Err(Error::Malformed),
        };
        Ok(Self(Arc::new(Inner {
            pool,
            kind,
            id,
            public_key,
            dh,
            ml_kem,
        })))
    }

    /// The key's public key (a hybrid's: the ML-KEM half's followed by the traditional one's).
    pub fn public_key(&self) -> &PublicKey {
        &self.0.public_key
    }

    /// The key's `CKA_ID` ([`Token::key_by_id`] finds it again): for a key this crate made, 16
    /// random bytes, `hpke` and the KEM's id (big-endian; a hybrid's two pairs share it, and a
    /// half found alone under it is [`Error::IncompleteKey`]); whatever the token holds for
    /// another.
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
        let token = &self.0.pool.token;
        let workers = (0..sessions.max(1))
            .map(|_| Ok(Mutex::new(Worker::new(token.session()?))))
            .collect::<Result<Vec<_>, Error>>()?;
        let pool = Arc::new(Pool {
            workers,
            next: AtomicUsize::new(0),
            token: token.clone(),
        });
        Ok(Self(Arc::new(Inner {
            pool,
            kind: self.0.kind,
            id: self.0.id.clone(),
            public_key: self.0.public_key.clone(),
            dh: self.0.dh.clone(),
            ml_kem: self.0.ml_kem.clone(),
        })))
    }

    /// One half of a hybrid key as a key of its own KEM, on the same sessions.
    fn half(&self, kind: Kind, pair: &HeldPair, dh: bool) -> Self {
        Self(Arc::new(Inner {
            pool: self.0.pool.clone(),
            kind,
            id: self.0.id.clone(),
            public_key: pair.public_key.clone(),
            dh: dh.then(|| pair.clone()),
            ml_kem: (!dh).then(|| pair.clone()),
        }))
    }

    /// `DH(sk, peer)` into `out`, on one of the key's sessions.
    fn derive(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let (Kind::Dh(curve), Some(pair)) = (self.0.kind, &self.0.dh) else {
            return Err(Error::UnsupportedKem);
        };
        let mut worker = self.0.pool.worker()?;
        let Worker { session, kek } = &mut *worker;
        derive(session, kek, pair.private, curve, peer, out)
    }

    /// `Decap(enc, sk)` into `out`: the token's for an ML-KEM key; for a hybrid key the
    /// hybrid's, typed-hpke's [`SplitHybrid`] over the two halves in the token.
    fn decap(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Error> {
        match (self.0.kind, &self.0.ml_kem) {
            (Kind::MlKem(set), Some(pair)) => {
                let mut worker = self.0.pool.worker()?;
                let Worker { session, kek } = &mut *worker;
                decapsulate(session, kek, pair.private, set, enc, out)
            }
            (Kind::Hybrid { kem_id, .. }, Some(_)) => {
                use typed_hpke::kem::{MlKem768P256, MlKem1024P384, XWing};
                match kem_id {
                    id if id == XWing::ID => self.hybrid_decap::<XWing>(enc, out),
                    id if id == MlKem768P256::ID => self.hybrid_decap::<MlKem768P256>(enc, out),
                    id if id == MlKem1024P384::ID => self.hybrid_decap::<MlKem1024P384>(enc, out),
                    _ => Err(Error::UnsupportedKem),
                }
            }
            _ => Err(Error::UnsupportedKem),
        }
    }

    fn hybrid_decap<K: HybridKem>(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let enc = typed_hpke::EncappedKey::<K>::from_bytes(enc).map_err(Error::Hpke)?;
        let secret = self.split::<K>()?.decap(&enc).map_err(|e| match e {
            HeldKeyError::Holder(e) => e,
            HeldKeyError::Hpke(e) => Error::Hpke(e),
        })?;
        copy_exact(secret.as_bytes(), out)
    }

    /// The key as a holder of the typed API's KEM `K`: a [`typed_hpke::kem::DhHolder`] for a
    /// DH-KEM key (wrap it in [`ExternalDh`]), a [`typed_hpke::kem::DecapHolder`] for an
    /// ML-KEM or hybrid key (wrap it in [`ExternalDecap`]).
    ///
    /// # Errors
    /// [`Error::UnsupportedKem`] if the key is not one of `K`.
    pub fn typed<K: Kem>(&self) -> Result<TypedTokenKey<K>, Error> {
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

    /// A hybrid key as typed-hpke's [`SplitHybrid`] with both halves held in the token: the
    /// traditional half a [`typed_hpke::kem::DhHolder`] over `CKM_ECDH1_DERIVE`, the ML-KEM
    /// half a [`typed_hpke::kem::DecapHolder`] over `C_DecapsulateKey`; the combiner runs in
    /// typed-hpke. Not public: a half handed out would be a key of the half's own KEM (an
    /// X25519 receiver, an Auth sender as `pk_T`), which the hybrid key must never be.
    #[allow(clippy::type_complexity)]
    fn split<K: HybridKem>(
        &self,
    ) -> Result<
        SplitHybrid<K, TypedTokenKey<K::Traditional>, ExternalDecap<TypedTokenKey<K::MlKem>>>,
        Error,
    > {
        let (
            Kind::Hybrid {
                ml_kem,
                curve,
                kem_id,
            },
            Some(m),
            Some(t),
        ) = (self.0.kind, &self.0.ml_kem, &self.0.dh)
        else {
            return Err(Error::UnsupportedKem);
        };
        if kem_id != K::ID {
            return Err(Error::UnsupportedKem);
        }
        let ml_kem = self
            .half(Kind::MlKem(ml_kem), m, false)
            .typed::<K::MlKem>()?;
        let traditional = self
            .half(Kind::Dh(curve), t, true)
            .typed::<K::Traditional>()?;
        Ok(SplitHybrid::held(
            ml_kem.public_key.clone(),
            ml_kem,
            traditional,
        ))
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

impl typed_hpke::suite::DecapHolder for TokenKey {
    type Error = Error;
    fn public_key(&self) -> &PublicKey {
        &self.0.public_key
    }
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.decap(enc, out)
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

impl<K: Kem> typed_hpke::kem::DecapHolder<K> for TypedTokenKey<K> {
    type Error = Error;
    fn decapsulate(&self, enc: &typed_hpke::EncappedKey<K>, out: &mut [u8]) -> Result<(), Error> {
        self.key.decap(enc.as_bytes(), out)
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

    #[test]
    fn public_key_info() {
        // X25519 (RFC 8410 §10.1's example key) and P-256 SubjectPublicKeyInfos.
        let x25519 = CURVES[3];
        let mut spki = vec![
            0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
        ];
        spki.extend([0x19; 32]);
        assert_eq!(
            spki_key(&spki, &x25519.spki_algorithm()),
            Some(&[0x19; 32][..])
        );
        let p256 = CURVES[0];
        let mut spki = vec![0x30, 0x59, 0x30, 0x13];
        spki.extend([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
        spki.extend(p256.oid);
        spki.extend([0x03, 0x42, 0x00, 0x04]);
        spki.extend([7; 64]);
        assert_eq!(
            spki_key(&spki, &p256.spki_algorithm()).map(<[u8]>::len),
            Some(65)
        );
        // Another curve's algorithm, unused bits, trailing bytes, a long form that is not
        // minimal, a truncated value: refused.
        assert_eq!(spki_key(&spki, &CURVES[1].spki_algorithm()), None);
        let mut bad = spki.clone();
        let unused_bits = bad.len() - 66;
        bad[unused_bits] = 1;
        assert_eq!(spki_key(&bad, &p256.spki_algorithm()), None);
        let mut bad = spki.clone();
        bad.push(0);
        assert_eq!(spki_key(&bad, &p256.spki_algorithm()), None);
        let mut bad = vec![0x30, 0x81, 0x59];
        bad.extend(&spki[2..]);
        assert_eq!(spki_key(&bad, &p256.spki_algorithm()), None);
        assert_eq!(
            spki_key(&spki[..spki.len() - 1], &p256.spki_algorithm()),
            None
        );
    }

    #[test]
    fn canonical_u_coordinates() {
        let (x25519, x448) = (CURVES[3], CURVES[4]);
        let mut p = [0xff; 32];
        p[0] = 0xed;
        p[31] = 0x7f;
        let mut below = p;
        below[0] = 0xec;
        assert!(x25519.canonical(&below));
        assert!(!x25519.canonical(&p));
        let mut top = [0u8; 32];
        top[31] = 0x80;
        assert!(!x25519.canonical(&top));
        assert!(x25519.canonical(&[9; 32]));
        let mut p = [0xff; 56];
        p[28] = 0xfe;
        let mut below = p;
        below[0] = 0xfe;
        assert!(x448.canonical(&below));
        assert!(!x448.canonical(&p));
        assert!(!x448.canonical(&[0xff; 56]));
        assert!(CURVES[0].canonical(&[0xff; 65]));
    }

    #[test]
    fn ids_name_their_kem() {
        let mut id = vec![7; ID_LEN];
        id.extend_from_slice(ID_TAG);
        id.extend([0x64, 0x7a]);
        assert_eq!(tagged_kem(&id), Some(0x647a));
        // The 16-byte ids of earlier versions, and others' ids, name nothing.
        assert_eq!(tagged_kem(&id[..ID_LEN]), None);
        assert_eq!(tagged_kem(b""), None);
        let mut other = id.clone();
        other[ID_LEN] ^= 1;
        assert_eq!(tagged_kem(&other), None);
        let mut longer = id.clone();
        longer.push(0);
        assert_eq!(tagged_kem(&longer), None);
    }
}
