//! An [mls-rs](https://docs.rs/mls-rs) crypto provider whose HPKE and KEM run on
//! [typed-hpke](https://docs.rs/typed-hpke), every other primitive (hash, MAC, the message
//! AEAD, the KDF, signatures, randomness) on an inner provider of the user's choosing:
//! `mls-rs-crypto-rustcrypto` by default. The pattern is `mls-rs-crypto-cryptokit`'s.
//!
//! ```
//! use mls_rs_core::crypto::{CipherSuite, CryptoProvider};
//! use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeProvider};
//!
//! // X-Wing and ML-KEM-1024 under the code points OpenMLS uses (0x004F, 0x0042), so that
//! // OpenMLS members (on typed-hpke-openmls) can share the group.
//! let xwing = CipherSuite::new(0x004F);
//! let provider = TypedHpkeProvider::new(RustCryptoProvider::default())
//!     .with_openmls_pq_suites()
//!     .unwrap();
//! let suites = provider.supported_cipher_suites();
//! assert!(suites.contains(&CipherSuite::CURVE25519_AES128) && suites.contains(&xwing));
//! let cs = provider.cipher_suite_provider(xwing).unwrap();
//! ```
//!
//! The HPKE methods (RFC 9420 §5.1.3's `EncryptWithLabel` reaches `hpke_seal`; the Welcome's
//! group secrets, the UpdatePath's path secrets and external commits' `hpke_setup_s` / export
//! come through here) run typed-hpke's runtime API on the suite's (KEM, KDF, AEAD); `kem_derive`
//! is RFC 9180 §7.1.3's `DeriveKeyPair` (RFC 9420 §5.1.1's node keys), from an `ikm` of any
//! length. `hpke_open` and `hpke_setup_r` take the receiver's key pair as mls-rs stores it: a
//! DH-KEM's public key is validated and used as given, with no base-point multiplication.
//!
//! Cipher suites: RFC 9420's 1 to 7 wherever the inner provider offers them (the default
//! inner provider, `mls-rs-crypto-rustcrypto` 0.23, has 1, 2, 3 and 7), and the
//! draft-ietf-mls-pq-ciphersuites (-06) suites of [`DraftPqSuite`] under code points the
//! deployment chooses. mls-rs' own post-quantum code points are refused
//! ([`MLS_RS_PRIVATE_PQ_CODE_POINTS`]).
//!
//! mls-rs builds its traits synchronous or asynchronous (`--cfg mls_build_async`); this crate
//! builds both ways, as its inner provider does.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

use mls_rs_core::crypto::{
    CipherSuite, CipherSuiteProvider, CryptoProvider, HpkeCiphertext, HpkeContextR, HpkeContextS,
    HpkePsk, HpkePublicKey, HpkeSecretKey, SignaturePublicKey, SignatureSecretKey,
};
use mls_rs_core::error::{AnyError, IntoAnyError};
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemX448HkdfSha512,
    DhKemX25519HkdfSha256, Kem, MlKem768P256, MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::suite::{self, ReceiverMode, SenderMode, Suite};
use typed_hpke::{OsRng, Psk};
use zeroize::Zeroizing;

/// The default inner provider.
pub type RustCryptoProvider = mls_rs_crypto_rustcrypto::RustCryptoProvider;

/// An error of this provider: typed-hpke's, or the inner provider's.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// typed-hpke refused (an invalid key or `enc`, a message that does not open).
    Hpke(typed_hpke::Error),
    /// The inner provider's error, boxed.
    Inner(AnyError),
    /// A code point [`TypedHpkeProvider::with_draft_pq_suite`] refuses.
    CodePoint(u16),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
            Self::Inner(e) => write!(f, "inner provider: {e}"),
            Self::CodePoint(v) => write!(f, "cipher suite {v:#06x} cannot name a draft suite"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Hpke(e) => Some(e),
            Self::Inner(e) => Some(e),
            Self::CodePoint(_) => None,
        }
    }
}

impl From<typed_hpke::Error> for Error {
    fn from(e: typed_hpke::Error) -> Self {
        Self::Hpke(e)
    }
}

impl IntoAnyError for Error {
    fn into_dyn_error(self) -> Result<Box<dyn std::error::Error + Send + Sync>, Self> {
        Ok(Box::new(self))
    }
}

fn inner<E: IntoAnyError>(e: E) -> Error {
    Error::Inner(e.into_any_error())
}

/// The ids of the HPKE (KEM, KDF, AEAD) of typed-hpke's types.
fn ids<K: Kem, F: Kdf, A: Aead>() -> (u16, u16, u16) {
    (K::ID, F::ID, A::ID)
}

/// The HPKE (KEM, KDF, AEAD) of an RFC 9420 cipher suite (§17.1).
pub fn hpke_ids(cipher_suite: CipherSuite) -> Option<(u16, u16, u16)> {
    Some(match cipher_suite.raw_value() {
        // MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519
        1 => ids::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(),
        // MLS_128_DHKEMP256_AES128GCM_SHA256_P256
        2 => ids::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(),
        // MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519
        3 => ids::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(),
        // MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448
        4 => ids::<DhKemX448HkdfSha512, HkdfSha512, Aes256Gcm>(),
        // MLS_256_DHKEMP521_AES256GCM_SHA512_P521
        5 => ids::<DhKemP521HkdfSha512, HkdfSha512, Aes256Gcm>(),
        // MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448
        6 => ids::<DhKemX448HkdfSha512, HkdfSha512, ChaCha20Poly1305>(),
        // MLS_256_DHKEMP384_AES256GCM_SHA384_P384
        7 => ids::<DhKemP384HkdfSha384, HkdfSha384, Aes256Gcm>(),
        _ => return None,
    })
}

/// A cipher suite of draft-ietf-mls-pq-ciphersuites (revision -06) whose symmetric primitives
/// and signature are those of an RFC 9420 suite, so that the inner provider serves them.
///
/// The draft leaves the MLS code points to IANA ("TBD"): the group's members agree on one and
/// give it to [`TypedHpkeProvider::with_draft_pq_suite`]. The KEMs are draft-ietf-hpke-pq's
/// (revision -04), as typed-hpke implements them, `DeriveKeyPair` included; the other suites of
/// the draft pair HKDF-SHA384 and AES-256-GCM with Ed25519 or P-256, or use ML-DSA, which no
/// RFC 9420 suite of an inner provider has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DraftPqSuite {
    /// TBD1, `MLS_128_MLKEM768X25519_AES128GCM_SHA256_Ed25519`: X-Wing (0x647a),
    /// HKDF-SHA256, AES-128-GCM; the rest suite 1's.
    MlKem768X25519Aes128GcmSha256Ed25519,
    /// TBD3, `MLS_128_MLKEM768P256_AES128GCM_SHA256_P256`: MLKEM768-P256 (0x0050),
    /// HKDF-SHA256, AES-128-GCM; the rest suite 2's.
    MlKem768P256Aes128GcmSha256P256,
    /// TBD5, `MLS_192_MLKEM1024P384_AES256GCM_SHA384_P384`: MLKEM1024-P384 (0x0051),
    /// HKDF-SHA384, AES-256-GCM; the rest suite 7's.
    MlKem1024P384Aes256GcmSha384P384,
    /// TBD8, `MLS_192_MLKEM1024_AES256GCM_SHA384_P384`: ML-KEM-1024 (0x0042), HKDF-SHA384,
    /// AES-256-GCM; the rest suite 7's.
    MlKem1024Aes256GcmSha384P384,
}

impl DraftPqSuite {
    /// Every suite of this kind.
    pub const ALL: [Self; 4] = [
        Self::MlKem768X25519Aes128GcmSha256Ed25519,
        Self::MlKem768P256Aes128GcmSha256P256,
        Self::MlKem1024P384Aes256GcmSha384P384,
        Self::MlKem1024Aes256GcmSha384P384,
    ];

    /// The HPKE (KEM, KDF, AEAD) (the draft's §3 table).
    pub fn hpke_ids(self) -> (u16, u16, u16) {
        match self {
            Self::MlKem768X25519Aes128GcmSha256Ed25519 => ids::<XWing, HkdfSha256, Aes128Gcm>(),
            Self::MlKem768P256Aes128GcmSha256P256 => ids::<MlKem768P256, HkdfSha256, Aes128Gcm>(),
            Self::MlKem1024P384Aes256GcmSha384P384 => ids::<MlKem1024P384, HkdfSha384, Aes256Gcm>(),
            Self::MlKem1024Aes256GcmSha384P384 => ids::<MlKem1024, HkdfSha384, Aes256Gcm>(),
        }
    }

    /// The RFC 9420 suite whose hash, KDF, AEAD and signature it shares.
    pub fn classical(self) -> CipherSuite {
        match self {
            Self::MlKem768X25519Aes128GcmSha256Ed25519 => CipherSuite::CURVE25519_AES128,
            Self::MlKem768P256Aes128GcmSha256P256 => CipherSuite::P256_AES128,
            Self::MlKem1024P384Aes256GcmSha384P384 | Self::MlKem1024Aes256GcmSha384P384 => {
                CipherSuite::P384_AES256
            }
        }
    }
}

/// The code points mls-rs gives its own post-quantum suites (`mls-rs-crypto-awslc`): ML-KEM
/// with HPKE KEM id 15, expanded private keys and an HKDF-based derivation (65001-65003), and
/// X-Wing as draft-connolly-cfrg-xwing-kem-01 over DHKEM(X25519) (65100). None is the
/// construction draft-ietf-hpke-pq defines, so [`TypedHpkeProvider::with_draft_pq_suite`]
/// refuses them: a typed-hpke member on one of them could not share a group with an
/// `mls-rs-crypto-awslc` member on the same value.
pub const MLS_RS_PRIVATE_PQ_CODE_POINTS: [u16; 4] = [65001, 65002, 65003, 65100];

/// The code points OpenMLS 0.9 gives the draft suites of [`DraftPqSuite`] it has too:
/// `MLS_128_MLKEM768X25519_AES128GCM_SHA256_Ed25519` (0x004F) and
/// `MLS_192_MLKEM1024_AES256GCM_SHA384_P384` (0x0042). [`TypedHpkeProvider::with_openmls_pq_suites`]
/// offers both: with them, members on this provider and members on OpenMLS with
/// `typed-hpke-openmls` (whose default key derivation, draft-ietf-hpke-pq's, is this crate's)
/// share a post-quantum group. OpenMLS' stock provider derives post-quantum keys otherwise
/// (hpke-rs 0.7) and cannot share one with either.
pub const OPENMLS_PQ_CODE_POINTS: [(CipherSuite, DraftPqSuite); 2] = [
    (
        CipherSuite::new(0x004F),
        DraftPqSuite::MlKem768X25519Aes128GcmSha256Ed25519,
    ),
    (
        CipherSuite::new(0x0042),
        DraftPqSuite::MlKem1024Aes256GcmSha384P384,
    ),
];

/// The values OpenMLS 0.9 gives its post-quantum suites (`openmls_traits::types::Ciphersuite`):
/// [`TypedHpkeProvider::with_draft_pq_suite`] gives none of them another meaning, so that a
/// group of mls-rs and OpenMLS members cannot disagree on what one names. Two of them are suites
/// of [`DraftPqSuite`] ([`OPENMLS_PQ_CODE_POINTS`]) and take that suite only; the others (X-Wing
/// with SHA-384 or ML-DSA, ML-KEM-768, ML-KEM-1024 with ML-DSA) are not offered here.
pub const OPENMLS_PQ_VALUES: [u16; 10] = [
    0x004D, 0x004E, 0x004F, 0x0042, 0x0050, 0x0051, 0x0052, 0x0906, 0x0907, 0xF042,
];

/// The provider: typed-hpke for HPKE and the KEM, `P` for the rest.
#[derive(Clone, Debug, Default)]
pub struct TypedHpkeProvider<P = RustCryptoProvider> {
    inner: P,
    pq: Vec<(CipherSuite, DraftPqSuite)>,
}

impl<P> TypedHpkeProvider<P> {
    /// The provider over `inner`, with the RFC 9420 suites `inner` has.
    pub fn new(inner: P) -> Self {
        Self {
            inner,
            pq: Vec::new(),
        }
    }

    /// The inner provider.
    pub fn inner(&self) -> &P {
        &self.inner
    }

    /// Offers `suite` under the code point `cipher_suite`, for groups whose members agreed on
    /// it (the draft's values are still to be assigned).
    ///
    /// # Errors
    /// [`Error::CodePoint`] if `cipher_suite` is reserved (0, or a GREASE value of RFC 9420
    /// §13.5), an RFC 9420 suite (1 to 7), one of [`MLS_RS_PRIVATE_PQ_CODE_POINTS`], a value
    /// OpenMLS gives another suite ([`OPENMLS_PQ_VALUES`]; [`OPENMLS_PQ_CODE_POINTS`]' two with
    /// their own suite are taken), or already given a suite here.
    pub fn with_draft_pq_suite(
        mut self,
        cipher_suite: CipherSuite,
        suite: DraftPqSuite,
    ) -> Result<Self, Error> {
        let value = cipher_suite.raw_value();
        let grease = value >> 8 == value & 0xff && value & 0x0f == 0x0a;
        let openmls_meaning = OPENMLS_PQ_VALUES.contains(&value)
            && !OPENMLS_PQ_CODE_POINTS.contains(&(cipher_suite, suite));
        if value == 0
            || grease
            || hpke_ids(cipher_suite).is_some()
            || MLS_RS_PRIVATE_PQ_CODE_POINTS.contains(&value)
            || openmls_meaning
            || self.pq.iter().any(|(cs, _)| *cs == cipher_suite)
        {
            return Err(Error::CodePoint(value));
        }
        self.pq.push((cipher_suite, suite));
        Ok(self)
    }

    /// Offers the draft suites under the code points OpenMLS uses for them
    /// ([`OPENMLS_PQ_CODE_POINTS`]), for groups with OpenMLS members: X-Wing at 0x004F and
    /// ML-KEM-1024 at 0x0042.
    ///
    /// # Errors
    /// [`Error::CodePoint`] if either value was given a suite here already.
    pub fn with_openmls_pq_suites(self) -> Result<Self, Error> {
        OPENMLS_PQ_CODE_POINTS
            .iter()
            .try_fold(self, |provider, (cs, suite)| {
                provider.with_draft_pq_suite(*cs, *suite)
            })
    }

    /// The draft suite offered under `cipher_suite`, if one is.
    pub fn draft_pq_suite(&self, cipher_suite: CipherSuite) -> Option<DraftPqSuite> {
        self.pq
            .iter()
            .find(|(cs, _)| *cs == cipher_suite)
            .map(|(_, s)| *s)
    }
}

impl<P: CryptoProvider> CryptoProvider for TypedHpkeProvider<P> {
    type CipherSuiteProvider = TypedHpkeCipherSuite<P::CipherSuiteProvider>;

    /// The inner provider's RFC 9420 suites that typed-hpke has the HPKE of, then the draft
    /// suites offered whose RFC 9420 counterpart the inner provider has.
    fn supported_cipher_suites(&self) -> Vec<CipherSuite> {
        let inner = self.inner.supported_cipher_suites();
        let classical = inner.iter().copied().filter(|cs| suite_of(*cs).is_some());
        let pq = self
            .pq
            .iter()
            .filter(|(_, s)| inner.contains(&s.classical()))
            .map(|(cs, _)| *cs);
        classical.chain(pq).collect()
    }

    fn cipher_suite_provider(
        &self,
        cipher_suite: CipherSuite,
    ) -> Option<Self::CipherSuiteProvider> {
        let (hpke, inner) = match self.draft_pq_suite(cipher_suite) {
            Some(pq) => {
                let (kem, kdf, aead) = pq.hpke_ids();
                (Suite::new(kem, kdf, aead).ok()?, pq.classical())
            }
            None => (suite_of(cipher_suite)?, cipher_suite),
        };
        Some(TypedHpkeCipherSuite {
            cipher_suite,
            hpke,
            inner: self.inner.cipher_suite_provider(inner)?,
        })
    }
}

fn suite_of(cipher_suite: CipherSuite) -> Option<Suite> {
    let (kem, kdf, aead) = hpke_ids(cipher_suite)?;
    Suite::new(kem, kdf, aead).ok()
}

/// One cipher suite's provider: typed-hpke's [`Suite`] beside the inner provider's (for a draft
/// suite, the inner provider's RFC 9420 counterpart).
#[derive(Clone)]
pub struct TypedHpkeCipherSuite<C> {
    cipher_suite: CipherSuite,
    hpke: Suite,
    inner: C,
}

impl<C> fmt::Debug for TypedHpkeCipherSuite<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedHpkeCipherSuite")
            .field("cipher_suite", &self.cipher_suite)
            .field("hpke", &self.hpke)
            .finish_non_exhaustive()
    }
}

impl<C> TypedHpkeCipherSuite<C> {
    /// typed-hpke's suite.
    pub fn hpke(&self) -> &Suite {
        &self.hpke
    }
}

/// An HPKE sender context (RFC 9180 §5.2), typed-hpke's.
pub struct SenderContext(suite::SenderContext);

/// An HPKE receiver context (RFC 9180 §5.2), typed-hpke's.
pub struct ReceiverContext(suite::ReceiverContext);

impl fmt::Debug for SenderContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SenderContext { .. }")
    }
}

impl fmt::Debug for ReceiverContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ReceiverContext { .. }")
    }
}

fn export(
    f: impl FnOnce(&mut [u8]) -> Result<(), typed_hpke::Error>,
    len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut out = Zeroizing::new(vec![0u8; len]);
    f(&mut out)?;
    Ok(out)
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
#[cfg_attr(mls_build_async, maybe_async::must_be_async)]
impl HpkeContextS for SenderContext {
    type Error = Error;

    async fn seal(&mut self, aad: Option<&[u8]>, data: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.seal(aad.unwrap_or_default(), data)?)
    }

    async fn export(
        &self,
        exporter_context: &[u8],
        len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        export(|out| self.0.export(exporter_context, out), len)
    }
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
#[cfg_attr(mls_build_async, maybe_async::must_be_async)]
impl HpkeContextR for ReceiverContext {
    type Error = Error;

    async fn open(
        &mut self,
        aad: Option<&[u8]>,
        ciphertext: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        Ok(Zeroizing::new(
            self.0.open(aad.unwrap_or_default(), ciphertext)?,
        ))
    }

    async fn export(
        &self,
        exporter_context: &[u8],
        len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        export(|out| self.0.export(exporter_context, out), len)
    }
}

/// MLS itself does not use HPKE's PSK mode; the applications that call `hpke_seal_psk` choose
/// their PSKs, and RFC 9180 §9.5's 32-byte floor is left to them, as mls-rs' stock providers
/// leave it. An empty PSK or PSK id is refused (RFC 9180 §5.1's `VerifyPSKInputs`).
fn psk<'a>(p: &HpkePsk<'a>) -> Result<Psk<'a>, Error> {
    Ok(Psk::new_allowing_short_psk(p.value, p.id)?)
}

impl<C: CipherSuiteProvider> TypedHpkeCipherSuite<C> {
    fn seal_in(
        &self,
        remote_key: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        pt: &[u8],
        mode: SenderMode<'_>,
    ) -> Result<HpkeCiphertext, Error> {
        let (kem_output, ciphertext) = self.hpke.seal(
            &mut OsRng::default(),
            remote_key.as_ref(),
            info,
            aad.unwrap_or_default(),
            pt,
            mode,
        )?;
        Ok(HpkeCiphertext {
            kem_output,
            ciphertext,
        })
    }

    /// The receiver's key from the secret and public keys mls-rs stores together: for the
    /// DH-KEMs the public key is taken as given (validated, not recomputed: no base-point
    /// multiplication); for ML-KEM and the hybrids it must be the secret key's.
    fn local_key(
        &self,
        local_secret: &HpkeSecretKey,
        local_public: &HpkePublicKey,
    ) -> Result<suite::PrivateKey, Error> {
        Ok(self
            .hpke
            .kem()
            .private_key_from_bytes_and_public(local_secret.as_ref(), local_public.as_ref())?)
    }

    fn open_in(
        &self,
        ciphertext: &HpkeCiphertext,
        local_secret: &HpkeSecretKey,
        local_public: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        mode: ReceiverMode<'_>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let key = self.local_key(local_secret, local_public)?;
        Ok(Zeroizing::new(self.hpke.open(
            &ciphertext.kem_output,
            &key,
            info,
            aad.unwrap_or_default(),
            &ciphertext.ciphertext,
            mode,
        )?))
    }

    /// A serialized key pair as mls-rs' key types; the private key is moved, not copied.
    fn key_pair((mut sk, pk): (Zeroizing<Vec<u8>>, Vec<u8>)) -> (HpkeSecretKey, HpkePublicKey) {
        (
            HpkeSecretKey::from(std::mem::take(&mut *sk)),
            HpkePublicKey::from(pk),
        )
    }
}

#[cfg_attr(not(mls_build_async), maybe_async::must_be_sync)]
#[cfg_attr(mls_build_async, maybe_async::must_be_async)]
impl<C: CipherSuiteProvider + Clone> CipherSuiteProvider for TypedHpkeCipherSuite<C> {
    type Error = Error;
    type HpkeContextS = SenderContext;
    type HpkeContextR = ReceiverContext;

    fn cipher_suite(&self) -> CipherSuite {
        self.cipher_suite
    }

    async fn hash(&self, data: &[u8]) -> Result<Vec<u8>, Error> {
        self.inner.hash(data).await.map_err(inner)
    }

    async fn mac(&self, key: &[u8], data: &[u8]) -> Result<Vec<u8>, Error> {
        self.inner.mac(key, data).await.map_err(inner)
    }

    async fn aead_seal(
        &self,
        key: &[u8],
        data: &[u8],
        aad: Option<&[u8]>,
        nonce: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.inner
            .aead_seal(key, data, aad, nonce)
            .await
            .map_err(inner)
    }

    async fn aead_open(
        &self,
        key: &[u8],
        ciphertext: &[u8],
        aad: Option<&[u8]>,
        nonce: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.inner
            .aead_open(key, ciphertext, aad, nonce)
            .await
            .map_err(inner)
    }

    fn aead_key_size(&self) -> usize {
        self.inner.aead_key_size()
    }

    fn aead_nonce_size(&self) -> usize {
        self.inner.aead_nonce_size()
    }

    async fn kdf_extract(&self, salt: &[u8], ikm: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.inner.kdf_extract(salt, ikm).await.map_err(inner)
    }

    async fn kdf_expand(
        &self,
        prk: &[u8],
        info: &[u8],
        len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.inner.kdf_expand(prk, info, len).await.map_err(inner)
    }

    fn kdf_extract_size(&self) -> usize {
        self.inner.kdf_extract_size()
    }

    async fn hpke_seal(
        &self,
        remote_key: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        pt: &[u8],
    ) -> Result<HpkeCiphertext, Error> {
        self.seal_in(remote_key, info, aad, pt, SenderMode::Base)
    }

    async fn hpke_seal_psk(
        &self,
        remote_key: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        pt: &[u8],
        psk_in: HpkePsk<'_>,
    ) -> Result<HpkeCiphertext, Error> {
        let psk = psk(&psk_in)?;
        self.seal_in(remote_key, info, aad, pt, SenderMode::Psk(&psk))
    }

    async fn hpke_open(
        &self,
        ciphertext: &HpkeCiphertext,
        local_secret: &HpkeSecretKey,
        local_public: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.open_in(
            ciphertext,
            local_secret,
            local_public,
            info,
            aad,
            ReceiverMode::Base,
        )
    }

    async fn hpke_open_psk(
        &self,
        ciphertext: &HpkeCiphertext,
        local_secret: &HpkeSecretKey,
        local_public: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        psk_in: HpkePsk<'_>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let psk = psk(&psk_in)?;
        let mode = ReceiverMode::Psk(&psk);
        self.open_in(ciphertext, local_secret, local_public, info, aad, mode)
    }

    async fn hpke_setup_s(
        &self,
        remote_key: &HpkePublicKey,
        info: &[u8],
    ) -> Result<(Vec<u8>, SenderContext), Error> {
        let (enc, ctx) = self.hpke.setup_sender(
            &mut OsRng::default(),
            remote_key.as_ref(),
            info,
            SenderMode::Base,
        )?;
        Ok((enc.as_bytes().to_vec(), SenderContext(ctx)))
    }

    async fn hpke_setup_r(
        &self,
        kem_output: &[u8],
        local_secret: &HpkeSecretKey,
        local_public: &HpkePublicKey,
        info: &[u8],
    ) -> Result<ReceiverContext, Error> {
        let key = self.local_key(local_secret, local_public)?;
        let ctx = self
            .hpke
            .setup_receiver(kem_output, &key, info, ReceiverMode::Base)?;
        Ok(ReceiverContext(ctx))
    }

    async fn kem_derive(&self, ikm: &[u8]) -> Result<(HpkeSecretKey, HpkePublicKey), Error> {
        Ok(Self::key_pair(self.hpke.kem().derive_key_pair_bytes(ikm)?))
    }

    async fn kem_generate(&self) -> Result<(HpkeSecretKey, HpkePublicKey), Error> {
        Ok(Self::key_pair(
            self.hpke
                .kem()
                .generate_key_pair_bytes(&mut OsRng::default())?,
        ))
    }

    fn kem_public_key_validate(&self, key: &HpkePublicKey) -> Result<(), Error> {
        self.hpke.kem().public_key_from_bytes(key.as_ref())?;
        Ok(())
    }

    fn random_bytes(&self, out: &mut [u8]) -> Result<(), Error> {
        self.inner.random_bytes(out).map_err(inner)
    }

    async fn signature_key_generate(
        &self,
    ) -> Result<(SignatureSecretKey, SignaturePublicKey), Error> {
        self.inner.signature_key_generate().await.map_err(inner)
    }

    async fn signature_key_derive_public(
        &self,
        secret_key: &SignatureSecretKey,
    ) -> Result<SignaturePublicKey, Error> {
        self.inner
            .signature_key_derive_public(secret_key)
            .await
            .map_err(inner)
    }

    async fn sign(&self, secret_key: &SignatureSecretKey, data: &[u8]) -> Result<Vec<u8>, Error> {
        self.inner.sign(secret_key, data).await.map_err(inner)
    }

    async fn verify(
        &self,
        public_key: &SignaturePublicKey,
        signature: &[u8],
        data: &[u8],
    ) -> Result<(), Error> {
        self.inner
            .verify(public_key, signature, data)
            .await
            .map_err(inner)
    }
}
