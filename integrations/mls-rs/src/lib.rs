//! An [mls-rs](https://docs.rs/mls-rs) crypto provider whose HPKE and KEM run on
//! [typed-hpke](https://docs.rs/typed-hpke), every other primitive (hash, MAC, the message
//! AEAD, the KDF, signatures, randomness) on an inner provider of the user's choosing:
//! `mls-rs-crypto-rustcrypto` by default. The pattern is `mls-rs-crypto-cryptokit`'s.
//!
//! ```
//! use mls_rs_core::crypto::{CipherSuite, CryptoProvider};
//! use typed_hpke_mls_rs::{RustCryptoProvider, TypedHpkeProvider};
//!
//! let provider = TypedHpkeProvider::new(RustCryptoProvider::default());
//! assert!(provider.supported_cipher_suites().contains(&CipherSuite::CURVE25519_AES128));
//! let cs = provider.cipher_suite_provider(CipherSuite::CURVE25519_AES128).unwrap();
//! ```
//!
//! The HPKE methods (RFC 9420 §5.1.3's `EncryptWithLabel` reaches `hpke_seal`; the Welcome's
//! group secrets, the UpdatePath's path secrets and external commits' `hpke_setup_s` / export
//! come through here) run typed-hpke's runtime API on the suite's (KEM, KDF, AEAD); `kem_derive`
//! is RFC 9180 §7.1.3's `DeriveKeyPair` (RFC 9420 §5.1.1's node keys), from an `ikm` of any
//! length.
//!
//! Cipher suites: RFC 9420's 1 to 7 wherever the inner provider offers them (the default
//! inner provider, `mls-rs-crypto-rustcrypto` 0.23, has 1, 2, 3 and 7).
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hpke(e) => write!(f, "HPKE: {e}"),
            Self::Inner(e) => write!(f, "inner provider: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Hpke(e) => Some(e),
            Self::Inner(e) => Some(e),
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

/// The HPKE (KEM, KDF, AEAD) of an RFC 9420 cipher suite (§17.1).
pub fn hpke_ids(cipher_suite: CipherSuite) -> Option<(u16, u16, u16)> {
    Some(match cipher_suite.raw_value() {
        // MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519
        1 => (0x0020, 0x0001, 0x0001),
        // MLS_128_DHKEMP256_AES128GCM_SHA256_P256
        2 => (0x0010, 0x0001, 0x0001),
        // MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519
        3 => (0x0020, 0x0001, 0x0003),
        // MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448
        4 => (0x0021, 0x0003, 0x0002),
        // MLS_256_DHKEMP521_AES256GCM_SHA512_P521
        5 => (0x0012, 0x0003, 0x0002),
        // MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448
        6 => (0x0021, 0x0003, 0x0003),
        // MLS_256_DHKEMP384_AES256GCM_SHA384_P384
        7 => (0x0011, 0x0002, 0x0002),
        _ => return None,
    })
}

/// The provider: typed-hpke for HPKE and the KEM, `P` for the rest.
#[derive(Clone, Debug, Default)]
pub struct TypedHpkeProvider<P = RustCryptoProvider> {
    inner: P,
}

impl<P> TypedHpkeProvider<P> {
    /// The provider over `inner`.
    pub fn new(inner: P) -> Self {
        Self { inner }
    }

    /// The inner provider.
    pub fn inner(&self) -> &P {
        &self.inner
    }
}

impl<P: CryptoProvider> CryptoProvider for TypedHpkeProvider<P> {
    type CipherSuiteProvider = TypedHpkeCipherSuite<P::CipherSuiteProvider>;

    /// The inner provider's suites that typed-hpke has the HPKE of.
    fn supported_cipher_suites(&self) -> Vec<CipherSuite> {
        self.inner
            .supported_cipher_suites()
            .into_iter()
            .filter(|cs| suite_of(*cs).is_some())
            .collect()
    }

    fn cipher_suite_provider(
        &self,
        cipher_suite: CipherSuite,
    ) -> Option<Self::CipherSuiteProvider> {
        Some(TypedHpkeCipherSuite {
            hpke: suite_of(cipher_suite)?,
            inner: self.inner.cipher_suite_provider(cipher_suite)?,
        })
    }
}

fn suite_of(cipher_suite: CipherSuite) -> Option<Suite> {
    let (kem, kdf, aead) = hpke_ids(cipher_suite)?;
    Suite::new(kem, kdf, aead).ok()
}

/// One cipher suite's provider: typed-hpke's [`Suite`] beside the inner provider's.
#[derive(Clone)]
pub struct TypedHpkeCipherSuite<C> {
    hpke: Suite,
    inner: C,
}

impl<C> fmt::Debug for TypedHpkeCipherSuite<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedHpkeCipherSuite")
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

    fn open_in(
        &self,
        ciphertext: &HpkeCiphertext,
        local_secret: &HpkeSecretKey,
        info: &[u8],
        aad: Option<&[u8]>,
        mode: ReceiverMode<'_>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        Ok(Zeroizing::new(self.hpke.open(
            &ciphertext.kem_output,
            local_secret.as_ref(),
            info,
            aad.unwrap_or_default(),
            &ciphertext.ciphertext,
            mode,
        )?))
    }

    fn key_pair((sk, pk): (suite::PrivateKey, suite::PublicKey)) -> (HpkeSecretKey, HpkePublicKey) {
        (
            HpkeSecretKey::from(sk.to_bytes().to_vec()),
            HpkePublicKey::from(pk.as_bytes().to_vec()),
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
        self.inner.cipher_suite()
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
        _local_public: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.open_in(ciphertext, local_secret, info, aad, ReceiverMode::Base)
    }

    async fn hpke_open_psk(
        &self,
        ciphertext: &HpkeCiphertext,
        local_secret: &HpkeSecretKey,
        _local_public: &HpkePublicKey,
        info: &[u8],
        aad: Option<&[u8]>,
        psk_in: HpkePsk<'_>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let psk = psk(&psk_in)?;
        self.open_in(ciphertext, local_secret, info, aad, ReceiverMode::Psk(&psk))
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
        _local_public: &HpkePublicKey,
        info: &[u8],
    ) -> Result<ReceiverContext, Error> {
        let ctx = self.hpke.setup_receiver(
            kem_output,
            local_secret.as_ref(),
            info,
            ReceiverMode::Base,
        )?;
        Ok(ReceiverContext(ctx))
    }

    async fn kem_derive(&self, ikm: &[u8]) -> Result<(HpkeSecretKey, HpkePublicKey), Error> {
        Ok(Self::key_pair(self.hpke.kem().derive_key_pair(ikm)?))
    }

    async fn kem_generate(&self) -> Result<(HpkeSecretKey, HpkePublicKey), Error> {
        Ok(Self::key_pair(
            self.hpke.kem().generate_key_pair(&mut OsRng::default())?,
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
