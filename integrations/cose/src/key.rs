//! COSE_Keys for every key type the drafts use (draft-ietf-cose-hpke-27 §3.4; RFC 9053 §7.1
//! and §7.2 for EC2 and OKP; AKP for the post-quantum algorithms), read as strictly as
//! typed-hpke's `from_bytes`: the coordinates must be a valid public key of the KEM, a private
//! key's private part must give its public part, and `key_ops` must be §3.4's.

use alloc::vec::Vec;
use core::fmt;

use ciborium::Value;
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem,
};
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::{AnyKem, PrivateKey, PublicKey};
use zeroize::Zeroizing;

use crate::alg::KeyType;
use crate::cbor::{Header, decode, encode, wipe};
use crate::{Algorithm, Error};

const KTY: i64 = 1;
const KID: i64 = 2;
const ALG: i64 = 3;
const KEY_OPS: i64 = 4;
const CRV: i64 = -1;
const X: i64 = -2;
const Y: i64 = -3;
const D: i64 = -4;
const AKP_PUB: i64 = -1;
const AKP_PRIV: i64 = -2;
const KTY_OKP: i64 = 1;
const KTY_EC2: i64 = 2;
const KTY_AKP: i64 = 7;
/// `key_ops` "derive bits" (RFC 9052 §7.1, Table 5).
const DERIVE_BITS: i64 = 8;

/// The COSE_Key shape of a KEM's keys, and the length of one coordinate (EC2 / OKP).
fn shape(kem_id: u16) -> (KeyType, usize) {
    match kem_id {
        <DhKemP256HkdfSha256 as Kem>::ID => (KeyType::Ec2(1), 32),
        <DhKemP384HkdfSha384 as Kem>::ID => (KeyType::Ec2(2), 48),
        <DhKemP521HkdfSha512 as Kem>::ID => (KeyType::Ec2(3), 66),
        <DhKemX25519HkdfSha256 as Kem>::ID => (KeyType::Okp(4), 32),
        <DhKemX448HkdfSha512 as Kem>::ID => (KeyType::Okp(5), 56),
        _ => (KeyType::Akp, 0),
    }
}

fn kem_of_curve(kty: i64, crv: i64) -> Result<u16, Error> {
    Ok(match (kty, crv) {
        (KTY_EC2, 1) => <DhKemP256HkdfSha256 as Kem>::ID,
        (KTY_EC2, 2) => <DhKemP384HkdfSha384 as Kem>::ID,
        (KTY_EC2, 3) => <DhKemP521HkdfSha512 as Kem>::ID,
        (KTY_OKP, 4) => <DhKemX25519HkdfSha256 as Kem>::ID,
        (KTY_OKP, 5) => <DhKemX448HkdfSha512 as Kem>::ID,
        _ => return Err(Error::InvalidKey),
    })
}

/// A recipient's public key as a COSE_Key: the KEM key, and the `alg` and `kid` it names.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicCoseKey {
    key: PublicKey,
    alg: Option<Algorithm>,
    kid: Option<Vec<u8>>,
}

/// A recipient's private key as a COSE_Key. `Debug` prints the public part only; the private
/// key is wiped when dropped (typed-hpke's keys are).
#[derive(Clone)]
pub struct PrivateCoseKey {
    key: PrivateKey,
    public: PublicCoseKey,
}

impl fmt::Debug for PublicCoseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicCoseKey")
            .field("kem_id", &self.key.kem_id())
            .field("alg", &self.alg.map(|a| a.name()))
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PrivateCoseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateCoseKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// `alg`, if present, must be an HPKE algorithm of this KEM and key type. (An AKP key with no
/// `alg` is refused before this: its `alg` is what names its KEM.)
fn check_alg(kem_id: u16, alg: Option<Algorithm>) -> Result<(), Error> {
    match alg {
        Some(a) if a.kem_id() != kem_id || a.key_type() != shape(kem_id).0 => {
            Err(Error::InvalidKey)
        }
        _ => Ok(()),
    }
}

/// A decoded COSE_Key whose byte strings (`d`, `priv`) are wiped when it is dropped.
struct Wiped(Header);

impl Drop for Wiped {
    fn drop(&mut self) {
        self.0.0.iter_mut().for_each(|(_, v)| wipe(v));
    }
}

/// A COSE_Key's map, read from `bytes` and wiped when dropped: on every path, those where the
/// map breaks a rule included.
fn key_map(bytes: &[u8]) -> Result<Wiped, Error> {
    let map = match decode(bytes)? {
        Value::Map(entries) => Wiped(Header(entries)),
        mut other => {
            wipe(&mut other);
            return Err(Error::Malformed("header is not a map"));
        }
    };
    Header::check(&map.0.0)?;
    Ok(map)
}

/// `key_ops`, if present: only "derive bits" for a private key, empty for a public one (§3.4).
fn check_key_ops(map: &Header, private: bool) -> Result<(), Error> {
    match map.get(KEY_OPS) {
        None => Ok(()),
        Some(Value::Array(ops)) => {
            let derive_bits = |op: &Value| matches!(op, Value::Integer(i) if i128::from(*i) == i128::from(DERIVE_BITS));
            let fine = if private {
                !ops.is_empty() && ops.iter().all(derive_bits)
            } else {
                ops.is_empty()
            };
            if fine { Ok(()) } else { Err(Error::InvalidKey) }
        }
        Some(_) => Err(Error::InvalidKey),
    }
}

impl PublicCoseKey {
    /// A COSE_Key for `key`, with no `alg` and no `kid`. A post-quantum or hybrid key needs an
    /// `alg` ([`Self::with_alg`]) before it can be written as an AKP key.
    pub fn new(key: PublicKey) -> Self {
        Self {
            key,
            alg: None,
            kid: None,
        }
    }

    /// Names the algorithm the key is for.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `alg` is not for this key's KEM.
    pub fn with_alg(mut self, alg: Algorithm) -> Result<Self, Error> {
        check_alg(self.key.kem_id(), Some(alg))?;
        self.alg = Some(alg);
        Ok(self)
    }

    /// Sets the key identifier.
    #[must_use]
    pub fn with_kid(mut self, kid: impl Into<Vec<u8>>) -> Self {
        self.kid = Some(kid.into());
        self
    }

    /// Reads a public COSE_Key (of a private one, the public part; its `key_ops`, if any,
    /// must then be a private key's).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as the type says; [`Error::Malformed`] and
    /// [`Error::DuplicateLabel`] for the CBOR.
    pub fn from_cbor(bytes: &[u8]) -> Result<Self, Error> {
        let map = key_map(bytes)?;
        let private = map.0.contains(D)
            || map.0.get(KTY) == Some(&Value::from(KTY_AKP)) && map.0.contains(AKP_PRIV);
        check_key_ops(&map.0, private)?;
        Self::from_map(&map.0)
    }

    fn from_map(map: &Header) -> Result<Self, Error> {
        let kty = map.int(KTY)?.ok_or(Error::InvalidKey)?;
        let alg = match map.int(ALG) {
            Ok(Some(v)) => Some(Algorithm::from_value(v).ok_or(Error::InvalidKey)?),
            Ok(None) => None,
            Err(_) => return Err(Error::InvalidKey),
        };
        let kid = map
            .bytes(KID)
            .map_err(|_| Error::InvalidKey)?
            .map(<[u8]>::to_vec);
        let member = |label| {
            map.bytes(label)
                .map_err(|_| Error::InvalidKey)?
                .ok_or(Error::InvalidKey)
        };
        let (kem_id, bytes) = if kty == KTY_AKP {
            // An AKP key's KEM is its `alg`'s, which must be post-quantum: HPKE-0 under AKP is
            // not a P-256 key (and would be written back as EC2).
            let alg = alg.ok_or(Error::InvalidKey)?;
            if shape(alg.kem_id()).0 != KeyType::Akp {
                return Err(Error::InvalidKey);
            }
            (alg.kem_id(), member(AKP_PUB)?.to_vec())
        } else {
            let crv = map
                .int(CRV)
                .map_err(|_| Error::InvalidKey)?
                .ok_or(Error::InvalidKey)?;
            let kem_id = kem_of_curve(kty, crv)?;
            let len = shape(kem_id).1;
            let x = member(X)?;
            if x.len() != len {
                return Err(Error::InvalidKey);
            }
            if kty == KTY_OKP {
                if map.contains(Y) {
                    return Err(Error::InvalidKey);
                }
                (kem_id, x.to_vec())
            } else {
                // `y` as a sign bit (point compression) is refused: HPKE's keys are uncompressed
                // (RFC 9180 §7.1.1).
                let y = member(Y)?;
                if y.len() != len {
                    return Err(Error::InvalidKey);
                }
                (kem_id, [&[0x04][..], x, y].concat())
            }
        };
        check_alg(kem_id, alg)?;
        let key = AnyKem::new(kem_id)?.public_key_from_bytes(&bytes)?;
        Ok(Self { key, alg, kid })
    }

    fn write(&self, map: &mut Header) -> Result<(), Error> {
        let bytes = self.key.as_bytes();
        let (kty, len) = shape(self.key.kem_id());
        let b = |v: &[u8]| Value::Bytes(v.to_vec());
        match kty {
            KeyType::Ec2(crv) => {
                map.insert(KTY, KTY_EC2.into());
                self.write_ids(map);
                map.insert(CRV, crv.into());
                map.insert(X, b(&bytes[1..1 + len]));
                map.insert(Y, b(&bytes[1 + len..]));
            }
            KeyType::Okp(crv) => {
                map.insert(KTY, KTY_OKP.into());
                self.write_ids(map);
                map.insert(CRV, crv.into());
                map.insert(X, b(bytes));
            }
            KeyType::Akp => {
                if self.alg.is_none() {
                    return Err(Error::InvalidKey);
                }
                map.insert(KTY, KTY_AKP.into());
                self.write_ids(map);
                map.insert(AKP_PUB, b(bytes));
            }
        }
        Ok(())
    }

    fn write_ids(&self, map: &mut Header) {
        if let Some(kid) = &self.kid {
            map.insert(KID, Value::Bytes(kid.clone()));
        }
        if let Some(alg) = self.alg {
            map.insert(ALG, alg.value().into());
        }
    }

    /// The COSE_Key, with `kid` and `alg` when set, in the order kty, kid, alg, then the key
    /// parameters (as the draft's examples).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] for a post-quantum or hybrid key without an `alg`.
    pub fn to_cbor(&self) -> Result<Vec<u8>, Error> {
        let mut map = Header::default();
        self.write(&mut map)?;
        Ok(encode(&map.to_value()))
    }

    /// The KEM key.
    pub fn key(&self) -> &PublicKey {
        &self.key
    }

    /// The key's `alg`, if it names one.
    pub fn alg(&self) -> Option<Algorithm> {
        self.alg
    }

    /// The key's `kid`, if it has one.
    pub fn kid(&self) -> Option<&[u8]> {
        self.kid.as_deref()
    }
}

impl PrivateCoseKey {
    /// A COSE_Key for `key`, with no `alg` and no `kid`.
    pub fn new(key: PrivateKey) -> Self {
        let public = PublicCoseKey::new(key.public_key());
        Self { key, public }
    }

    /// A fresh key pair for `alg`, the key naming it.
    ///
    /// # Errors
    /// [`Error::UnsupportedAlgorithm`] if this build lacks the KEM; [`Error::Hpke`] if the
    /// generator fails.
    pub fn generate<R: CryptoRng + ?Sized>(alg: Algorithm, rng: &mut R) -> Result<Self, Error> {
        let (sk, _) = AnyKem::new(alg.kem_id())?.generate_key_pair(rng)?;
        Self::new(sk).with_alg(alg)
    }

    /// Names the algorithm the key is for.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `alg` is not for this key's KEM.
    pub fn with_alg(mut self, alg: Algorithm) -> Result<Self, Error> {
        self.public = self.public.with_alg(alg)?;
        Ok(self)
    }

    /// Sets the key identifier.
    #[must_use]
    pub fn with_kid(mut self, kid: impl Into<Vec<u8>>) -> Self {
        self.public = self.public.with_kid(kid);
        self
    }

    /// Reads a private COSE_Key: `d` (EC2, OKP) or `priv` (AKP) beside the public parameters,
    /// which must be the private key's public key.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as the type says, or without a private part;
    /// [`Error::Malformed`] and [`Error::DuplicateLabel`] for the CBOR.
    pub fn from_cbor(bytes: &[u8]) -> Result<Self, Error> {
        let map = key_map(bytes)?;
        check_key_ops(&map.0, true)?;
        let public = PublicCoseKey::from_map(&map.0)?;
        let label = if shape(public.key.kem_id()).0 == KeyType::Akp {
            AKP_PRIV
        } else {
            D
        };
        let secret = map
            .0
            .bytes(label)
            .map_err(|_| Error::InvalidKey)?
            .ok_or(Error::InvalidKey)?;
        let len = shape(public.key.kem_id()).1;
        if len != 0 && secret.len() != len {
            return Err(Error::InvalidKey);
        }
        let key = public.key.kem().private_key_from_bytes(secret)?;
        if key.public_key() != public.key {
            return Err(Error::InvalidKey);
        }
        Ok(Self { key, public })
    }

    /// The COSE_Key with its private part, in a buffer wiped when dropped.
    ///
    /// # Errors
    /// As [`PublicCoseKey::to_cbor`].
    pub fn to_cbor(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let mut map = Wiped(Header::default());
        self.public.write(&mut map.0)?;
        let label = if shape(self.key.kem_id()).0 == KeyType::Akp {
            AKP_PRIV
        } else {
            D
        };
        map.0
            .insert(label, Value::Bytes(self.key.to_bytes().to_vec()));
        // The encoder's buffer grows as it writes; sized first so it does not move (a moved
        // buffer leaves its old bytes behind).
        let mut out = Zeroizing::new(Vec::with_capacity(
            2 * self.public.key.as_bytes().len() + 256,
        ));
        let mut value = Value::Map(core::mem::take(&mut map.0.0));
        let written = ciborium::ser::into_writer(&value, &mut *out);
        wipe(&mut value);
        written.map_err(|_| Error::Malformed("COSE_Key"))?;
        Ok(out)
    }

    /// The public key, with the same `alg` and `kid`.
    pub fn public_key(&self) -> &PublicCoseKey {
        &self.public
    }

    /// The KEM key.
    pub fn key(&self) -> &PrivateKey {
        &self.key
    }

    /// The key's `alg`, if it names one.
    pub fn alg(&self) -> Option<Algorithm> {
        self.public.alg
    }

    /// The key's `kid`, if it has one.
    pub fn kid(&self) -> Option<&[u8]> {
        self.public.kid()
    }
}
