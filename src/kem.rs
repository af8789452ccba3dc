//! Key encapsulation mechanisms (RFC 9180 §4).
//!
//! A KEM is a zero-sized type implementing [`Kem`] (and [`AuthKem`] if it supports the
//! authenticated modes). Its keys are [`PrivateKey<K>`], [`PublicKey<K>`] and
//! [`EncappedKey<K>`]: fixed-size, stack-held, and typed by their KEM, so a key of one KEM
//! cannot be passed where another's is expected.

use core::fmt;

use hybrid_array::{Array, ArraySize};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{ZeroizeOnDrop, Zeroizing};

use crate::sealed::KemEngine as _;
use crate::util::Hex;

use crate::Error;

pub(crate) mod dhkem;
mod held;
#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
mod hybrid;
#[cfg(feature = "secp256k1")]
mod k256;
#[cfg(feature = "pq")]
mod ml_kem;
#[cfg(feature = "nist")]
mod nist;
mod prepared;
#[cfg(any(feature = "nist", feature = "secp256k1"))]
pub(crate) mod weierstrass;
#[cfg(feature = "x25519")]
pub(crate) mod x25519;
#[cfg(feature = "x448")]
mod x448;

pub use self::dhkem::{DhGroup, DhKem};
#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
pub use self::held::SplitHybrid;
pub use self::held::{
    AuthDecapKey, AuthEncapKey, DecapHolder, DecapKey, Decapsulated, DhAnswer, DhHolder, DhRequest,
    DhRole, ExternalDecap, ExternalDh, HeldKeyError, Receiver, Role, Sender,
};
#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
pub use self::hybrid::HybridKem;
#[cfg(all(feature = "pq", feature = "x25519"))]
pub use self::hybrid::XWing;
#[cfg(all(feature = "pq", feature = "nist"))]
pub use self::hybrid::{MlKem768P256, MlKem1024P384};
#[cfg(feature = "secp256k1")]
pub use self::k256::{DhKemSecp256k1HkdfSha256, Secp256k1};
#[cfg(feature = "pq")]
pub use self::ml_kem::{MlKem512, MlKem768, MlKem1024};
#[cfg(feature = "nist")]
pub use self::nist::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, P256, P384, P521,
};
#[cfg(feature = "alloc")]
pub use self::prepared::PreparedPublicKey;
pub use self::prepared::RecipientKey;
pub(crate) use self::prepared::{RecipientRef, auth_encap_to, encap_to};
#[cfg(feature = "hazmat")]
pub(crate) use self::prepared::{auth_encap_deterministic_to, encap_deterministic_to};
#[cfg(feature = "x448")]
pub use self::x448::{DhKemX448HkdfSha512, X448};
#[cfg(feature = "x25519")]
pub use self::x25519::{DhKemX25519HkdfSha256, X25519};

/// [`crate::hazmat::force_portable_ml_kem`].
#[cfg(all(feature = "hazmat", feature = "pq"))]
pub(crate) fn libcrux_force_portable(on: bool) {
    crate::backend::libcrux::FORCE_PORTABLE.store(on, core::sync::atomic::Ordering::Relaxed);
}

/// A key encapsulation mechanism (RFC 9180 §4).
///
/// This trait is sealed: the KEMs are the ones this crate defines.
pub trait Kem: crate::sealed::Sealed + Sized + 'static {
    /// The IANA `kem_id`.
    const ID: u16;
    /// `Nsecret`, the length of the shared secret.
    type NSecret: ArraySize;
    /// `Nenc`, the length of an encapsulated key.
    type NEnc: ArraySize;
    /// `Npk`, the length of a serialized public key.
    type NPk: ArraySize;
    /// `Nsk`, the length of a serialized private key.
    type NSk: ArraySize;

    /// The private key's representation, with whatever decapsulation would otherwise recompute.
    #[doc(hidden)]
    type Sk: Clone + ZeroizeOnDrop + Send + Sync;
    /// The public key's representation: its bytes beside its parsed form.
    #[doc(hidden)]
    type Pk: Clone + Send + Sync;
    /// What a [`PreparedPublicKey`] holds beside the public key: a table of multiples of the
    /// recipient's point, or nothing for the KEMs without one.
    #[doc(hidden)]
    type Prepared: Clone + Send + Sync;

    /// `GenerateKeyPair()`: a fresh random key pair.
    ///
    /// # Errors
    /// [`Error::DeriveKeyPair`] only when `rng` is broken: the curves that sample by rejection
    /// (P-256, P-384, P-521, secp256k1) give up after 10,000 candidates out of range (all
    /// zeros, all ones), where a working generator is refused with probability below 2^-32
    /// per candidate; the hybrids when their one seed expands to no valid scalar (probability
    /// below 2^-128). X25519, X448 and ML-KEM never fail.
    fn generate<R: CryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error>;

    /// `DeriveKeyPair(ikm)` (RFC 9180 §7.1.3): the key pair determined by `ikm`, which should
    /// carry at least `Nsk` bytes of entropy.
    ///
    /// # Errors
    /// [`Error::DeriveKeyPair`] if no valid key is found (probability below 2^-256 for the
    /// curves that use rejection sampling), or `ikm` is longer than the KDF accepts.
    fn derive_key_pair(ikm: &[u8]) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error>;

    /// `Encap(pkR)`: a fresh shared secret and its encapsulation to `pk_r`.
    ///
    /// # Errors
    /// [`Error::Encap`] if the Diffie-Hellman output is all zeros (RFC 9180 §7.1.4), or if
    /// `rng` gives no valid ephemeral key (a broken generator, as for [`Kem::generate`]).
    fn encap<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error>;

    /// `Decap(enc, skR)`: the shared secret encapsulated in `enc`.
    ///
    /// # Errors
    /// [`Error::Decap`] whatever the cause (an invalid point, an all-zero Diffie-Hellman
    /// output).
    fn decap(enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>)
    -> Result<SharedSecret<Self>, Error>;

    /// Runs `visitor.visit::<Self>()` if this KEM has authenticated encapsulation, for code
    /// generic over every KEM that uses the Auth and AuthPSK modes where they exist. `None` for
    /// ML-KEM and the hybrids, which have no `AuthEncap` (draft-ietf-hpke-pq).
    ///
    /// The typed counterpart of [`AnyKem::visit_auth`](crate::suite::AnyKem::visit_auth): it
    /// compiles `visitor` for `Self` alone.
    fn visit_auth<V: AuthKemVisitor>(visitor: V) -> Option<V::Output> {
        drop(visitor);
        None
    }

    /// The engine behind the operations above (sealed: not callable outside this crate).
    #[doc(hidden)]
    type Engine: crate::sealed::KemEngine<Self>;
}

/// Code generic over a KEM, for [`AnyKem::visit`](crate::suite::AnyKem::visit). Every KEM
/// qualifies.
pub trait KemVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the KEM's type.
    fn visit<K: Kem>(self) -> Self::Output;
}

/// Code that uses authenticated encapsulation, for [`Kem::visit_auth`] and
/// [`AnyKem::visit_auth`](crate::suite::AnyKem::visit_auth): the DH-KEMs only.
pub trait AuthKemVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the KEM's type.
    fn visit<K: AuthKem>(self) -> Self::Output;
}

/// A KEM with the authenticated variants `AuthEncap` / `AuthDecap` (RFC 9180 §4.1), which the
/// `auth` and `auth_psk` modes need. The DH-KEMs have them; the post-quantum KEMs do not.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no authenticated encapsulation: the Auth and AuthPSK modes need a DH-KEM",
    label = "no `AuthEncap` / `AuthDecap` for this KEM",
    note = "ML-KEM, X-Wing and the ML-KEM hybrids have Base and PSK modes only \
            (draft-ietf-hpke-pq); authenticate the sender with a signature or a PSK instead"
)]
pub trait AuthKem: Kem {
    /// `AuthEncap(pkR, skS)`.
    ///
    /// # Errors
    /// [`Error::Encap`] if a Diffie-Hellman output is all zeros (RFC 9180 §7.1.4).
    fn auth_encap<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error>;

    /// `AuthDecap(enc, skR, pkS)`.
    ///
    /// # Errors
    /// [`Error::Decap`] whatever the cause.
    fn auth_decap(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        pk_s: &PublicKey<Self>,
    ) -> Result<SharedSecret<Self>, Error>;

    /// `Ndh`, the length of a Diffie-Hellman output (RFC 9180 §7.1): what a
    /// [`DhHolder`] writes.
    type NDh: ArraySize;

    /// The engine behind the authenticated operations (sealed).
    #[doc(hidden)]
    type AuthEngine: crate::sealed::AuthKemEngine<Self>;
}

/// A private key of the KEM `K`.
///
/// Holds, beside the secret, the serialized public key and whatever else decapsulation would
/// recompute. Cloning copies the secret; every copy is wiped when dropped. There is no way to
/// zeroize a key and keep using it: it is wiped on drop, after which it no longer exists.
pub struct PrivateKey<K: Kem> {
    pub(crate) sk: K::Sk,
}

impl<K: Kem> PrivateKey<K> {
    /// `DeserializePrivateKey(skXm)` (RFC 9180 §7.1.2).
    ///
    /// # Errors
    /// [`Error::InvalidPrivateKey`] if `bytes` has the wrong length or is not a valid scalar
    /// (zero, or not below the group order, for the Weierstrass curves).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        // `map`, not `Ok(Self { sk: ..? })`: in a debug build each `?` kept another copy of the
        // key in this frame (MLKEM1024-P384's is 24 KB; `tests/stack.rs`).
        K::Engine::sk_from_bytes(bytes).map(|sk| Self { sk })
    }

    /// `DeserializePrivateKey(skXm)` for a key stored with its public key, as MLS stores
    /// the keys of its key packages and tree nodes (mls-rs' `hpke_open` is given both).
    ///
    /// For the DH-KEMs `pk` is taken as given: the scalar is parsed and checked as
    /// [`from_bytes`](Self::from_bytes) checks it, but the public key is not recomputed from
    /// it, which saves the base-point multiplication `from_bytes` makes (the aws-lc-rs backend
    /// makes it anyway, on import). Give the pair that was made together: with a public key
    /// that is not the private key's, every decapsulation and Auth encapsulation with the key
    /// fails (the `kem_context` carries the wrong key) and [`public_key`](Self::public_key)
    /// returns `pk`; nothing about the private key is revealed either way. For ML-KEM and the
    /// hybrids, whose parse computes the public key anyway, a `pk` that is not the key's is
    /// refused.
    ///
    /// # Errors
    /// [`Error::InvalidPrivateKey`] as `from_bytes` gives it, and for ML-KEM and the hybrids
    /// when `pk` is not the key's.
    pub fn from_bytes_and_public(bytes: &[u8], pk: &PublicKey<K>) -> Result<Self, Error> {
        K::Engine::sk_from_bytes_and_public(bytes, &pk.pk).map(|sk| Self { sk })
    }

    /// [`from_bytes_and_public`](Self::from_bytes_and_public) with the public key serialized:
    /// a DH-KEM's is deserialized and validated as [`PublicKey::from_bytes`] does; ML-KEM's and
    /// the hybrids' is compared with the one the parse computes, without being parsed.
    pub(crate) fn from_bytes_and_public_bytes(bytes: &[u8], pk: &[u8]) -> Result<Self, Error> {
        K::Engine::sk_from_bytes_and_public_bytes(bytes, pk).map(|sk| Self { sk })
    }

    /// `SerializePrivateKey(skX)` (RFC 9180 §7.1.2): `Nsk` bytes, wiped when dropped.
    /// X25519 and X448 keys come out as the bytes they were made from (parsed, derived or
    /// drawn), unclamped, as draft-ietf-hpke-hpke §7.1.2 and Go's `crypto/hpke` have it; RFC
    /// 9180 clamped them here. Either form is the same key: X25519 and X448 clamp inside.
    pub fn to_bytes(&self) -> Zeroizing<Array<u8, K::NSk>> {
        K::Engine::sk_to_bytes(&self.sk)
    }

    /// The matching public key (cached: no scalar multiplication).
    pub fn public_key(&self) -> PublicKey<K> {
        PublicKey {
            pk: K::Engine::sk_public_key(&self.sk).clone(),
        }
    }

    pub(crate) fn public_key_bytes(&self) -> &[u8] {
        K::Engine::pk_as_bytes(K::Engine::sk_public_key(&self.sk))
    }
}

impl<K: Kem> Clone for PrivateKey<K> {
    fn clone(&self) -> Self {
        Self {
            sk: self.sk.clone(),
        }
    }
}

impl<K: Kem> ConstantTimeEq for PrivateKey<K> {
    fn ct_eq(&self, other: &Self) -> Choice {
        K::Engine::sk_ct_eq(&self.sk, &other.sk)
    }
}

/// Constant time in the secret.
impl<K: Kem> PartialEq for PrivateKey<K> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl<K: Kem> Eq for PrivateKey<K> {}

impl<K: Kem> ZeroizeOnDrop for PrivateKey<K> {}

impl<K: Kem> fmt::Debug for PrivateKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("kem_id", &format_args!("{:#06x}", K::ID))
            .field("secret", &"<redacted>")
            .field("public_key", &Hex(self.public_key_bytes()))
            .finish()
    }
}

/// A public key of the KEM `K`: its bytes beside its parsed, validated form.
pub struct PublicKey<K: Kem> {
    pub(crate) pk: K::Pk,
}

impl<K: Kem> PublicKey<K> {
    /// `DeserializePublicKey(pkXm)` (RFC 9180 §7.1.1), with validation: for the Weierstrass
    /// curves exactly `Npk` bytes of uncompressed SEC1 encoding of a point on the curve.
    ///
    /// # Errors
    /// [`Error::InvalidPublicKey`] if `bytes` is not a valid public key of this KEM.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        K::Engine::pk_from_bytes(bytes).map(|pk| Self { pk })
    }

    /// `SerializePublicKey(pkX)`: `Npk` bytes.
    pub fn to_bytes(&self) -> Array<u8, K::NPk> {
        K::Engine::pk_as_bytes(&self.pk).clone()
    }

    /// The serialized public key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        K::Engine::pk_as_bytes(&self.pk)
    }
}

impl<K: Kem> Clone for PublicKey<K> {
    fn clone(&self) -> Self {
        Self {
            pk: self.pk.clone(),
        }
    }
}

impl<K: Kem> PartialEq for PublicKey<K> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<K: Kem> Eq for PublicKey<K> {}

impl<K: Kem> fmt::Debug for PublicKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PublicKey")
            .field(&Hex(self.as_bytes()))
            .finish()
    }
}

/// An encapsulated key (`enc`) of the KEM `K`: `Nenc` bytes, sent beside the ciphertext.
pub struct EncappedKey<K: Kem> {
    pub(crate) enc: Array<u8, K::NEnc>,
}

impl<K: Kem> EncappedKey<K> {
    /// Wraps `Nenc` received bytes. Only the length is checked here; the content is checked by
    /// decapsulation, which fails with one opaque error whatever is wrong.
    ///
    /// # Errors
    /// [`Error::InvalidEncappedKey`] if `bytes` is not `Nenc` bytes long.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let enc = Array::try_from(bytes).map_err(|_| Error::InvalidEncappedKey)?;
        Ok(Self { enc })
    }

    /// The `Nenc` bytes.
    pub fn to_bytes(&self) -> Array<u8, K::NEnc> {
        self.enc.clone()
    }

    /// The `Nenc` bytes, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.enc
    }
}

impl<K: Kem> Clone for EncappedKey<K> {
    fn clone(&self) -> Self {
        Self {
            enc: self.enc.clone(),
        }
    }
}

impl<K: Kem> PartialEq for EncappedKey<K> {
    fn eq(&self, other: &Self) -> bool {
        self.enc == other.enc
    }
}

impl<K: Kem> Eq for EncappedKey<K> {}

impl<K: Kem> fmt::Debug for EncappedKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("EncappedKey").field(&Hex(&self.enc)).finish()
    }
}

/// A KEM shared secret: `Nsecret` bytes, wiped on drop.
pub struct SharedSecret<K: Kem> {
    pub(crate) secret: Zeroizing<Array<u8, K::NSecret>>,
}

impl<K: Kem> SharedSecret<K> {
    pub(crate) fn new(secret: Zeroizing<Array<u8, K::NSecret>>) -> Self {
        Self { secret }
    }

    /// The secret bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.secret
    }
}

impl<K: Kem> ConstantTimeEq for SharedSecret<K> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.secret.as_slice().ct_eq(other.secret.as_slice())
    }
}

/// Constant time.
impl<K: Kem> PartialEq for SharedSecret<K> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl<K: Kem> Eq for SharedSecret<K> {}

impl<K: Kem> ZeroizeOnDrop for SharedSecret<K> {}

impl<K: Kem> fmt::Debug for SharedSecret<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedSecret(<redacted>)")
    }
}
