#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

use std::fmt;

use openmls_rust_crypto::{MemoryStorage, RustCrypto};
use openmls_traits::OpenMlsProvider;
use openmls_traits::crypto::OpenMlsCrypto;
use openmls_traits::storage::{CURRENT_VERSION, StorageProvider};
use openmls_traits::types::{
    AeadType, Ciphersuite, CryptoError, ExporterSecret, HashType, HpkeCiphertext, HpkeConfig,
    HpkeKeyPair, KemOutput, SignatureScheme,
};
use openmls_traits::types::{HpkeAeadType, HpkeKdfType, HpkeKemType};
use shake::Shake256;
use shake::digest::{ExtendableOutput, Update, XofReader};
use tls_codec::SecretVLBytes;
use typed_hpke::OsRng;
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
use zeroize::Zeroizing;

/// X-Wing's HPKE KEM id (draft-ietf-hpke-pq).
const X_WING: u16 = <typed_hpke::kem::XWing as typed_hpke::kem::Kem>::ID;
/// ML-KEM-768's and ML-KEM-1024's HPKE KEM ids (draft-ietf-hpke-pq).
const ML_KEM_768: u16 = <typed_hpke::kem::MlKem768 as typed_hpke::kem::Kem>::ID;
const ML_KEM_1024: u16 = <typed_hpke::kem::MlKem1024 as typed_hpke::kem::Kem>::ID;
/// The id OpenMLS gives X-Wing internally (`HpkeKemType::XWingKemDraft6`), from before X-Wing
/// had its codepoint.
const OPENMLS_X_WING: u16 = 0x004d;

/// The typed-hpke suite of an OpenMLS HPKE configuration.
///
/// OpenMLS' enums are `repr(u16)` with the IANA ids as discriminants, except X-Wing's 0x004D,
/// which is mapped to 0x647a. Ids typed-hpke does not know give
/// [`CryptoError::UnsupportedCiphersuite`]: the mapping is by id, so it is total whichever
/// OpenMLS features are on.
///
/// # Errors
/// [`CryptoError::UnsupportedCiphersuite`] for a KEM, KDF or AEAD typed-hpke does not have.
pub fn suite(config: &HpkeConfig) -> Result<Suite, CryptoError> {
    let HpkeConfig(kem, kdf, aead) = config;
    Suite::new(kem_id(*kem), kdf_id(*kdf), aead_id(*aead))
        .map_err(|_| CryptoError::UnsupportedCiphersuite)
}

fn kem_id(kem: HpkeKemType) -> u16 {
    match kem as u16 {
        OPENMLS_X_WING => X_WING,
        id => id,
    }
}

fn kdf_id(kdf: HpkeKdfType) -> u16 {
    kdf as u16
}

fn aead_id(aead: HpkeAeadType) -> u16 {
    aead as u16
}

/// How `derive_hpke_keypair` turns input keying material into an X-Wing, ML-KEM-768 or
/// ML-KEM-1024 key pair. The DH-KEMs follow RFC 9180 §7.1.3 either way.
///
/// MLS derives every tree node's key pair from a path secret (RFC 9420 §7.4), and a member
/// checks the public keys a committer sends against its own derivation, so every member of a
/// group must derive alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PqKeyDerivation {
    /// draft-ietf-hpke-pq: the seed is `SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk)`
    /// with the KEM's `suite_id`. What the KEM ids 0x647a, 0x0041 and 0x0042 mean, and what
    /// the published vectors check.
    #[default]
    DraftIetfHpkePq,
    /// The seed is `SHAKE256(ikm, Nsk)`, unlabeled (32 bytes for X-Wing, 64 for ML-KEM): what
    /// hpke-rs 0.7, under OpenMLS' stock `openmls_rust_crypto` 0.6, does, from the drafts
    /// before draft-ietf-hpke-pq. Only to share post-quantum groups with members on that
    /// provider; groups made this way do not interoperate with draft-ietf-hpke-pq ones, and so
    /// shut out every member on mls-rs (`typed-hpke-mls-rs`, and mls-rs' own providers), which
    /// derive as draft-ietf-hpke-pq says: a group is either one or the other.
    HpkeRs07,
}

/// An [`OpenMlsCrypto`] whose HPKE is typed-hpke and whose other primitives (signatures,
/// hashing, the MLS KDF and AEAD) are those of `C`, by default OpenMLS' stock RustCrypto
/// provider.
///
/// OpenMLS uses HPKE in Base mode (RFC 9420 §5.1.3, `EncryptWithLabel` / `DecryptWithLabel`)
/// to seal path secrets and Welcome group secrets, and `SetupBaseS` + `Export` for external
/// init (RFC 9420 §12.1.8).
#[derive(Default)]
pub struct TypedHpkeCrypto<C = RustCrypto> {
    inner: C,
    pq_key_derivation: PqKeyDerivation,
}

impl<C> TypedHpkeCrypto<C> {
    /// typed-hpke's HPKE over `inner`'s other primitives, deriving post-quantum key pairs as
    /// `pq_key_derivation` says.
    pub fn new(inner: C, pq_key_derivation: PqKeyDerivation) -> Self {
        Self {
            inner,
            pq_key_derivation,
        }
    }

    /// The provider the non-HPKE primitives come from.
    pub fn inner(&self) -> &C {
        &self.inner
    }
}

/// Names the provider and its key derivation only: `inner` holds a random generator (the stock
/// provider's ChaCha20 state), which `Debug` must not print.
impl<C> fmt::Debug for TypedHpkeCrypto<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedHpkeCrypto")
            .field("pq_key_derivation", &self.pq_key_derivation)
            .finish_non_exhaustive()
    }
}

/// typed-hpke serves `ciphersuite`'s HPKE configuration.
fn serves(ciphersuite: Ciphersuite) -> bool {
    suite(&ciphersuite.hpke_config()).is_ok()
}

/// A typed-hpke error, met while setting up a sender, as OpenMLS names it.
fn sender_error(e: typed_hpke::Error, otherwise: CryptoError) -> CryptoError {
    match e {
        typed_hpke::Error::InvalidPublicKey => CryptoError::InvalidPublicKey,
        typed_hpke::Error::UnsupportedSuite => CryptoError::UnsupportedCiphersuite,
        typed_hpke::Error::ExportTooLong => CryptoError::ExporterError,
        _ => otherwise,
    }
}

/// A typed-hpke error, met while setting up a receiver, as OpenMLS names it. Decapsulation and
/// decryption failures stay opaque.
fn receiver_error(e: typed_hpke::Error, otherwise: CryptoError) -> CryptoError {
    match e {
        typed_hpke::Error::UnsupportedSuite => CryptoError::UnsupportedCiphersuite,
        typed_hpke::Error::ExportTooLong => CryptoError::ExporterError,
        _ => otherwise,
    }
}

/// The buffer for an export of `len` bytes. No KDF exports more than 2^16 - 1 bytes (`L` is
/// encoded in two bytes, RFC 9180 §5.3 and draft-ietf-hpke-hpke), so a longer request is an
/// error before anything is allocated, rather than an allocation that could abort.
fn export_buffer(len: usize) -> Result<Vec<u8>, CryptoError> {
    if len > usize::from(u16::MAX) {
        return Err(CryptoError::ExporterError);
    }
    Ok(vec![0; len])
}

impl<C: OpenMlsCrypto> OpenMlsCrypto for TypedHpkeCrypto<C> {
    /// `ciphersuite` if `C` supports it and typed-hpke serves its HPKE configuration.
    fn supports(&self, ciphersuite: Ciphersuite) -> Result<(), CryptoError> {
        self.inner.supports(ciphersuite)?;
        if serves(ciphersuite) {
            Ok(())
        } else {
            Err(CryptoError::UnsupportedCiphersuite)
        }
    }

    fn supported_ciphersuites(&self) -> Vec<Ciphersuite> {
        let mut suites = self.inner.supported_ciphersuites();
        suites.retain(|&cs| serves(cs));
        suites
    }

    fn hkdf_extract(
        &self,
        hash_type: HashType,
        salt: &[u8],
        ikm: &[u8],
    ) -> Result<SecretVLBytes, CryptoError> {
        self.inner.hkdf_extract(hash_type, salt, ikm)
    }

    fn hmac(
        &self,
        hash_type: HashType,
        key: &[u8],
        message: &[u8],
    ) -> Result<SecretVLBytes, CryptoError> {
        self.inner.hmac(hash_type, key, message)
    }

    fn hkdf_expand(
        &self,
        hash_type: HashType,
        prk: &[u8],
        info: &[u8],
        okm_len: usize,
    ) -> Result<SecretVLBytes, CryptoError> {
        self.inner.hkdf_expand(hash_type, prk, info, okm_len)
    }

    fn hash(&self, hash_type: HashType, data: &[u8]) -> Result<Vec<u8>, CryptoError> {
        self.inner.hash(hash_type, data)
    }

    fn aead_encrypt(
        &self,
        alg: AeadType,
        key: &[u8],
        data: &[u8],
        nonce: &[u8],
        aad: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        self.inner.aead_encrypt(alg, key, data, nonce, aad)
    }

    fn aead_decrypt(
        &self,
        alg: AeadType,
        key: &[u8],
        ct_tag: &[u8],
        nonce: &[u8],
        aad: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        self.inner.aead_decrypt(alg, key, ct_tag, nonce, aad)
    }

    fn signature_key_gen(&self, alg: SignatureScheme) -> Result<(Vec<u8>, Vec<u8>), CryptoError> {
        self.inner.signature_key_gen(alg)
    }

    fn verify_signature(
        &self,
        alg: SignatureScheme,
        data: &[u8],
        pk: &[u8],
        signature: &[u8],
    ) -> Result<(), CryptoError> {
        self.inner.verify_signature(alg, data, pk, signature)
    }

    fn sign(&self, alg: SignatureScheme, data: &[u8], key: &[u8]) -> Result<Vec<u8>, CryptoError> {
        self.inner.sign(alg, data, key)
    }

    fn hpke_seal(
        &self,
        config: HpkeConfig,
        pk_r: &[u8],
        info: &[u8],
        aad: &[u8],
        ptxt: &[u8],
    ) -> Result<HpkeCiphertext, CryptoError> {
        // Seal(pkR, info, aad, pt) (RFC 9180 §6.1)
        let (enc, ct) = suite(&config)?
            .seal(
                &mut OsRng::default(),
                pk_r,
                info,
                aad,
                ptxt,
                SenderMode::Base,
            )
            .map_err(|e| sender_error(e, CryptoError::HpkeEncryptionError))?;
        Ok(HpkeCiphertext {
            kem_output: enc.into(),
            ciphertext: ct.into(),
        })
    }

    fn hpke_open(
        &self,
        config: HpkeConfig,
        input: &HpkeCiphertext,
        sk_r: &[u8],
        info: &[u8],
        aad: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        // Open(enc, skR, info, aad, ct) (RFC 9180 §6.1)
        suite(&config)?
            .open(
                input.kem_output.as_slice(),
                sk_r,
                info,
                aad,
                input.ciphertext.as_slice(),
                ReceiverMode::Base,
            )
            .map_err(|e| receiver_error(e, CryptoError::HpkeDecryptionError))
    }

    fn hpke_setup_sender_and_export(
        &self,
        config: HpkeConfig,
        pk_r: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        exporter_length: usize,
    ) -> Result<(KemOutput, ExporterSecret), CryptoError> {
        // SendExport(pkR, info, exporter_context, L) (RFC 9180 §6.2)
        let mut secret = export_buffer(exporter_length)?;
        let enc = suite(&config)?
            .send_export(
                &mut OsRng::default(),
                pk_r,
                info,
                exporter_context,
                &mut secret,
                SenderMode::Base,
            )
            .map_err(|e| sender_error(e, CryptoError::SenderSetupError))?;
        Ok((enc, ExporterSecret::from(secret)))
    }

    fn hpke_setup_receiver_and_export(
        &self,
        config: HpkeConfig,
        enc: &[u8],
        sk_r: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        exporter_length: usize,
    ) -> Result<ExporterSecret, CryptoError> {
        // ReceiveExport(enc, skR, info, exporter_context, L) (RFC 9180 §6.2)
        let mut secret = export_buffer(exporter_length)?;
        suite(&config)?
            .receive_export(
                enc,
                sk_r,
                info,
                exporter_context,
                &mut secret,
                ReceiverMode::Base,
            )
            .map_err(|e| receiver_error(e, CryptoError::ReceiverSetupError))?;
        Ok(ExporterSecret::from(secret))
    }

    fn derive_hpke_keypair(
        &self,
        config: HpkeConfig,
        ikm: &[u8],
    ) -> Result<HpkeKeyPair, CryptoError> {
        // DeriveKeyPair(ikm) (RFC 9180 §7.1.3; draft-ietf-hpke-pq for the others), which
        // MLS calls on path secrets (RFC 9420 §7.4) and init and encryption keys.
        let suite = suite(&config)?;
        let derived = match (self.pq_key_derivation, suite.kem_id()) {
            (PqKeyDerivation::HpkeRs07, X_WING | ML_KEM_768 | ML_KEM_1024) => {
                // seed = SHAKE256(ikm, Nsk): the private key is the seed.
                let mut seed = Zeroizing::new(vec![0; suite.lengths().private_key]);
                let mut xof = Shake256::default();
                xof.update(ikm);
                xof.finalize_xof().read(&mut seed);
                suite.private_key_from_bytes(&seed).map(|sk| {
                    let pk = sk.public_key();
                    (sk, pk)
                })
            }
            _ => suite.derive_key_pair(ikm),
        };
        let (sk, pk) = derived.map_err(|e| match e {
            typed_hpke::Error::InputTooLong => CryptoError::InvalidLength,
            _ => CryptoError::CryptoLibraryError,
        })?;
        let mut sk_bytes = sk.to_bytes();
        // Moved, not copied, into OpenMLS' key type, which wipes it.
        let sk_bytes = core::mem::take(&mut *sk_bytes);
        Ok(HpkeKeyPair {
            private: sk_bytes.into(),
            public: pk.as_bytes().to_vec(),
        })
    }
}

/// The random generator [`OpenMlsTypedHpke`] gives OpenMLS: the operating system's, asked on
/// every call ([`typed_hpke::OsRng`]), so that no generator state (from which every key and path
/// secret OpenMLS draws could be computed) lives in the provider's memory. The stock provider's
/// generator is a ChaCha20 state that nothing wipes.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsRandom;

impl openmls_traits::random::OpenMlsRand for OsRandom {
    type Error = std::convert::Infallible;

    fn random_array<const N: usize>(&self) -> Result<[u8; N], Self::Error> {
        let mut out = [0u8; N];
        typed_hpke::rand_core::TryRng::try_fill_bytes(&mut OsRng::default(), &mut out)?;
        Ok(out)
    }

    fn random_vec(&self, len: usize) -> Result<Vec<u8>, Self::Error> {
        let mut out = vec![0u8; len];
        typed_hpke::rand_core::TryRng::try_fill_bytes(&mut OsRng::default(), &mut out)?;
        Ok(out)
    }
}

/// An [`OpenMlsProvider`]: [`TypedHpkeCrypto`] over the stock RustCrypto provider, the
/// operating system's random generator ([`OsRandom`]), and a storage: OpenMLS' in-memory one by
/// default, or any [`StorageProvider`] the caller owns ([`OpenMlsTypedHpke::with_storage`]). A
/// drop-in for `OpenMlsRustCrypto`. `default()` derives post-quantum keys as draft-ietf-hpke-pq
/// says.
///
/// The stock provider's own generator (a ChaCha20 state it does not wipe) still makes signature
/// keys (`OpenMlsCrypto::signature_key_gen`, which OpenMLS calls for no key it derives itself);
/// every KeyPackage, leaf and path secret comes from [`OsRandom`].
pub struct OpenMlsTypedHpke<S = MemoryStorage> {
    crypto: TypedHpkeCrypto<RustCrypto>,
    storage: S,
}

impl Default for OpenMlsTypedHpke<MemoryStorage> {
    fn default() -> Self {
        Self::new(PqKeyDerivation::default())
    }
}

impl OpenMlsTypedHpke<MemoryStorage> {
    /// The provider with a new in-memory storage, deriving post-quantum key pairs as
    /// `pq_key_derivation` says.
    pub fn new(pq_key_derivation: PqKeyDerivation) -> Self {
        Self::with_storage(MemoryStorage::default(), pq_key_derivation)
    }
}

impl<S: StorageProvider<CURRENT_VERSION>> OpenMlsTypedHpke<S> {
    /// The provider over `storage`, which the caller made and keeps: a database, a storage
    /// shared with other parts of the application, one kept across restarts.
    ///
    /// OpenMLS deletes a KeyPackage's private keys from the storage before it decrypts the
    /// Welcome that uses them, so a refused Welcome cannot be opened again. To retry, keep the
    /// KeyPackages the Welcome is for, and only them, before the attempt
    /// ([`keep_key_packages`]), and put them back if it is refused: a copy of the whole storage
    /// would also bring back, when restored, every key OpenMLS deleted since (a past epoch's
    /// leaf keys among them) and undo every group's progress. `MemoryStorage` wipes nothing it
    /// deletes or drops.
    pub fn with_storage(storage: S, pq_key_derivation: PqKeyDerivation) -> Self {
        Self {
            crypto: TypedHpkeCrypto::new(RustCrypto::default(), pq_key_derivation),
            storage,
        }
    }

    /// The storage, given back.
    pub fn into_storage(self) -> S {
        self.storage
    }
}

/// The KeyPackages (with their private keys) `storage` holds for `welcome`'s new members, read
/// before the Welcome is processed, so that [`KeptKeyPackages::restore`] can put them back if
/// it is refused: OpenMLS deletes them before it decrypts the Welcome (last-resort KeyPackages
/// excepted). Their private keys are wiped when the value is dropped.
///
/// # Errors
/// The storage's.
pub fn keep_key_packages<S: StorageProvider<CURRENT_VERSION>>(
    storage: &S,
    welcome: &openmls::prelude::Welcome,
) -> Result<KeptKeyPackages, S::Error> {
    let mut kept = Vec::new();
    for secrets in welcome.secrets() {
        let reference = secrets.new_member();
        if let Some(bundle) =
            storage.key_package::<_, openmls::prelude::KeyPackageBundle>(&reference)?
        {
            kept.push((reference, bundle));
        }
    }
    Ok(KeptKeyPackages(kept))
}

/// KeyPackages kept by [`keep_key_packages`].
pub struct KeptKeyPackages(
    Vec<(
        openmls::prelude::KeyPackageRef,
        openmls::prelude::KeyPackageBundle,
    )>,
);

impl KeptKeyPackages {
    /// Writes the KeyPackages back into `storage`, after a refused Welcome deleted them.
    ///
    /// # Errors
    /// The storage's.
    pub fn restore<S: StorageProvider<CURRENT_VERSION>>(
        &self,
        storage: &S,
    ) -> Result<(), S::Error> {
        for (reference, bundle) in &self.0 {
            storage.write_key_package(reference, bundle)?;
        }
        Ok(())
    }

    /// How many KeyPackages were kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none was (the Welcome is for none of this member's KeyPackages).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for KeptKeyPackages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeptKeyPackages")
            .field("key_packages", &self.0.len())
            .finish_non_exhaustive()
    }
}

/// Redacted: a storage holds the group's private keys (HPKE init and leaf keys, signature
/// keys) and epoch secrets, and OpenMLS' `MemoryStorage` prints every value it holds in
/// `Debug`. The storage is not shown.
impl<S> fmt::Debug for OpenMlsTypedHpke<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenMlsTypedHpke")
            .field("crypto", &self.crypto)
            .finish_non_exhaustive()
    }
}

impl<S: StorageProvider<CURRENT_VERSION>> OpenMlsProvider for OpenMlsTypedHpke<S> {
    type CryptoProvider = TypedHpkeCrypto<RustCrypto>;
    type RandProvider = OsRandom;
    type StorageProvider = S;

    fn storage(&self) -> &Self::StorageProvider {
        &self.storage
    }

    fn crypto(&self) -> &Self::CryptoProvider {
        &self.crypto
    }

    fn rand(&self) -> &Self::RandProvider {
        &OsRandom
    }
}
