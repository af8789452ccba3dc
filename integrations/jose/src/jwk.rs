//! JWKs for every key type the drafts use (draft-ietf-jose-hpke-encrypt-20 §9; RFC 7518 §6.2
//! and RFC 8037 §2 for EC and OKP; RFC 9964 §3 for AKP), read as strictly as typed-hpke's
//! `from_bytes`: the coordinates must be a valid public key of the KEM, and a private JWK's
//! private part must give its public part.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem,
};
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::{AnyKem, PrivateKey, PublicKey};
use zeroize::Zeroizing;

use crate::alg::KeyType;
use crate::json::{object, str_member};
use crate::{Algorithm, Error, b64};

/// The JWK shape of a KEM's keys, and the length of one coordinate (EC / OKP).
fn shape(kem_id: u16) -> (KeyType, usize) {
    match kem_id {
        <DhKemP256HkdfSha256 as Kem>::ID => (KeyType::Ec("P-256"), 32),
        <DhKemP384HkdfSha384 as Kem>::ID => (KeyType::Ec("P-384"), 48),
        <DhKemP521HkdfSha512 as Kem>::ID => (KeyType::Ec("P-521"), 66),
        <DhKemX25519HkdfSha256 as Kem>::ID => (KeyType::Okp("X25519"), 32),
        <DhKemX448HkdfSha512 as Kem>::ID => (KeyType::Okp("X448"), 56),
        _ => (KeyType::Akp, 0),
    }
}

/// The KEM of an EC or OKP curve.
fn kem_of_curve(kty: &str, crv: &str) -> Result<u16, Error> {
    Ok(match (kty, crv) {
        ("EC", "P-256") => <DhKemP256HkdfSha256 as Kem>::ID,
        ("EC", "P-384") => <DhKemP384HkdfSha384 as Kem>::ID,
        ("EC", "P-521") => <DhKemP521HkdfSha512 as Kem>::ID,
        ("OKP", "X25519") => <DhKemX25519HkdfSha256 as Kem>::ID,
        ("OKP", "X448") => <DhKemX448HkdfSha512 as Kem>::ID,
        _ => return Err(Error::InvalidKey),
    })
}

/// A recipient's public key as a JWK: the KEM key, and the `alg` and `kid` the JWK names.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicJwk {
    key: PublicKey,
    alg: Option<Algorithm>,
    kid: Option<String>,
}

/// A recipient's private key as a JWK. `Debug` prints the public part only; the private key
/// is wiped when dropped (typed-hpke's keys are).
#[derive(Clone)]
pub struct PrivateJwk {
    key: PrivateKey,
    public: PublicJwk,
}

impl fmt::Debug for PublicJwk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicJwk")
            .field("kem_id", &self.key.kem_id())
            .field("alg", &self.alg.map(|a| a.name()))
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PrivateJwk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateJwk")
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

/// The members every JWK shares: `kty`, `alg`, `kid` and `use` (which must be `enc` when
/// present, RFC 7517 §4.2). Unknown members are ignored (RFC 7517 §4).
fn common(map: &Map<String, Value>) -> Result<(&str, Option<Algorithm>, Option<String>), Error> {
    let kty = str_member(map, "kty")?.ok_or(Error::InvalidKey)?;
    let alg = match str_member(map, "alg")? {
        Some(name) => Some(Algorithm::from_name(name).ok_or(Error::InvalidKey)?),
        None => None,
    };
    if str_member(map, "use")?.is_some_and(|u| u != "enc") {
        return Err(Error::InvalidKey);
    }
    let kid = str_member(map, "kid")?.map(String::from);
    Ok((kty, alg, kid))
}

/// The KEM and the serialized public key of a JWK.
fn public_bytes(
    map: &Map<String, Value>,
    kty: &str,
    alg: Option<Algorithm>,
) -> Result<(u16, Vec<u8>), Error> {
    let member = |name| {
        str_member(map, name)?
            .ok_or(Error::InvalidKey)
            .and_then(b64::decode)
    };
    if kty == "AKP" {
        // An AKP key's KEM is its `alg`'s, which must be post-quantum: `HPKE-0` under AKP is
        // not a P-256 key (and would be written back as `EC`).
        let alg = alg.ok_or(Error::InvalidKey)?;
        if shape(alg.kem_id()).0 != KeyType::Akp {
            return Err(Error::InvalidKey);
        }
        return Ok((alg.kem_id(), member("pub")?));
    }
    let crv = str_member(map, "crv")?.ok_or(Error::InvalidKey)?;
    let kem_id = kem_of_curve(kty, crv)?;
    let len = shape(kem_id).1;
    let x = member("x")?;
    if x.len() != len {
        return Err(Error::InvalidKey);
    }
    if kty == "OKP" {
        if map.contains_key("y") {
            return Err(Error::InvalidKey);
        }
        return Ok((kem_id, x));
    }
    let y = member("y")?;
    if y.len() != len {
        return Err(Error::InvalidKey);
    }
    // SerializePublicKey of the NIST DH-KEMs: the uncompressed point (RFC 9180 §7.1.1).
    Ok((kem_id, [&[0x04][..], &x, &y].concat()))
}

impl PublicJwk {
    /// A JWK for `key`, with no `alg` and no `kid`. A post-quantum or hybrid key needs an
    /// `alg` ([`Self::with_alg`]) before it can be written as an AKP JWK.
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
    pub fn with_kid(mut self, kid: impl Into<String>) -> Self {
        self.kid = Some(kid.into());
        self
    }

    /// Reads a public JWK (a private one's private members are ignored, as a JWK set would
    /// hand it over).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as the type says; [`Error::DuplicateMember`], [`Error::Base64`],
    /// [`Error::Malformed`] for the JSON.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        Self::from_object(&object(json.as_bytes())?)
    }

    pub(crate) fn from_object(map: &Map<String, Value>) -> Result<Self, Error> {
        let (kty, alg, kid) = common(map)?;
        let (kem_id, bytes) = public_bytes(map, kty, alg)?;
        check_alg(kem_id, alg)?;
        let key = AnyKem::new(kem_id)?.public_key_from_bytes(&bytes)?;
        Ok(Self { key, alg, kid })
    }

    /// The JWK, with `alg` and `kid` when set.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] for a post-quantum or hybrid key without an `alg` (AKP needs one).
    pub fn to_json(&self) -> Result<String, Error> {
        let mut map = Map::new();
        self.write(&mut map)?;
        Ok(Value::Object(map).to_string())
    }

    fn write(&self, map: &mut Map<String, Value>) -> Result<(), Error> {
        let bytes = self.key.as_bytes();
        let (kty, len) = shape(self.key.kem_id());
        let s = |v: &str| Value::String(v.into());
        match kty {
            KeyType::Ec(crv) => {
                map.insert("kty".into(), s("EC"));
                map.insert("crv".into(), s(crv));
                map.insert("x".into(), s(&b64::encode(&bytes[1..1 + len])));
                map.insert("y".into(), s(&b64::encode(&bytes[1 + len..])));
            }
            KeyType::Okp(crv) => {
                map.insert("kty".into(), s("OKP"));
                map.insert("crv".into(), s(crv));
                map.insert("x".into(), s(&b64::encode(bytes)));
            }
            KeyType::Akp => {
                if self.alg.is_none() {
                    return Err(Error::InvalidKey);
                }
                map.insert("kty".into(), s("AKP"));
                map.insert("pub".into(), s(&b64::encode(bytes)));
            }
        }
        if let Some(alg) = self.alg {
            map.insert("alg".into(), s(alg.name()));
        }
        if let Some(kid) = &self.kid {
            map.insert("kid".into(), s(kid));
        }
        Ok(())
    }

    /// The KEM key.
    pub fn key(&self) -> &PublicKey {
        &self.key
    }

    /// The JWK's `alg`, if it names one.
    pub fn alg(&self) -> Option<Algorithm> {
        self.alg
    }

    /// The JWK's `kid`, if it has one.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }
}

impl PrivateJwk {
    /// A JWK for `key`, with no `alg` and no `kid`.
    pub fn new(key: PrivateKey) -> Self {
        let public = PublicJwk::new(key.public_key());
        Self { key, public }
    }

    /// A fresh key pair for `alg`, the JWK naming it.
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
    pub fn with_kid(mut self, kid: impl Into<String>) -> Self {
        self.public = self.public.with_kid(kid);
        self
    }

    /// Reads a private JWK: `d` (EC, OKP) or `priv` (AKP) beside the public members, which
    /// must be the private key's public key.
    ///
    /// The JSON text passes through serde_json's parser, which is not constant-time over the
    /// characters of `d`; the base64url decoding is (base64ct). Where a key's bytes are at
    /// hand, [`PrivateJwk::new`] with `typed_hpke`'s key parsing avoids the JSON.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as the type says, or without a private part;
    /// [`Error::DuplicateMember`], [`Error::Base64`], [`Error::Malformed`] for the JSON.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let map = Wiped(object(json.as_bytes())?);
        let map = &map.0;
        let public = PublicJwk::from_object(map)?;
        let name = if map.get("kty").and_then(Value::as_str) == Some("AKP") {
            "priv"
        } else {
            "d"
        };
        let secret = str_member(map, name)?.ok_or(Error::InvalidKey)?;
        let secret = b64::decode_secret(secret)?;
        let kem = public.key.kem();
        let len = shape(public.key.kem_id()).1;
        if len != 0 && secret.len() != len {
            return Err(Error::InvalidKey);
        }
        let key = kem.private_key_from_bytes(&secret)?;
        if key.public_key() != public.key {
            return Err(Error::InvalidKey);
        }
        Ok(Self { key, public })
    }

    /// The JWK with its private part, in a buffer wiped when dropped.
    ///
    /// # Errors
    /// As [`PublicJwk::to_json`].
    pub fn to_json(&self) -> Result<Zeroizing<String>, Error> {
        let mut map = Map::new();
        self.public.write(&mut map)?;
        let name = if map.get("kty").and_then(Value::as_str) == Some("AKP") {
            "priv"
        } else {
            "d"
        };
        let public = Value::Object(map).to_string();
        let secret = Zeroizing::new(b64::encode(&self.key.to_bytes()));
        // The private member is written by hand, not through serde_json: its string writer
        // looks every character up in an escape table, an address that would depend on the
        // key (base64url needs no escaping). Into a buffer sized first, so it does not move.
        let mut out = Zeroizing::new(String::with_capacity(public.len() + secret.len() + 16));
        out.push_str(&public[..public.len() - 1]);
        out.push_str(",\"");
        out.push_str(name);
        out.push_str("\":\"");
        out.push_str(&secret);
        out.push_str("\"}");
        Ok(out)
    }

    /// The public JWK, with the same `alg` and `kid`.
    pub fn public_jwk(&self) -> &PublicJwk {
        &self.public
    }

    /// The KEM key.
    pub fn key(&self) -> &PrivateKey {
        &self.key
    }

    /// The JWK's `alg`, if it names one.
    pub fn alg(&self) -> Option<Algorithm> {
        self.public.alg
    }

    /// The JWK's `kid`, if it has one.
    pub fn kid(&self) -> Option<&str> {
        self.public.kid()
    }
}

/// A parsed JSON object whose string values (a private key's `d` or `priv` among them) are
/// wiped when it is dropped.
pub(crate) struct Wiped(pub(crate) Map<String, Value>);

impl Drop for Wiped {
    fn drop(&mut self) {
        self.0.values_mut().for_each(crate::json::wipe);
    }
}
