//! Runtime keys: a typed key of whichever KEM, parsed (and for ML-KEM, expanded) once.
//!
//! The enums over the typed keys are generated in `suite.rs` from the same table as the
//! dispatchers, so a KEM cannot be in one and missing from the other.

use core::fmt;

use subtle::{Choice, ConstantTimeEq};
use zeroize::ZeroizeOnDrop;

use crate::Error;
use crate::kem::Kem;
use crate::suite::any::{AnyPk, AnySk};
use crate::suite::typed;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

/// A private key of a suite chosen at run time: a typed [`crate::PrivateKey`] inside,
/// parsed once (an ML-KEM key expanded once), with its public key cached.
///
/// Made by [`Suite::private_key_from_bytes`](crate::suite::Suite::private_key_from_bytes),
/// [`Suite::derive_key_pair`](crate::suite::Suite::derive_key_pair),
/// [`Suite::generate_key_pair`](crate::suite::Suite::generate_key_pair), or from a typed key
/// with `From`. Any `Suite` with the same KEM accepts it; another KEM's `Suite` answers
/// [`Error::InvalidPrivateKey`]. Wiped on drop; `Debug` prints no secret; equality is
/// constant time.
///
/// It is as large as the largest typed private key this build has (an expanded
/// ML-KEM-1024 key with the `pq` feature; `size_of::<PrivateKey>()` says how large).
#[derive(Clone)]
pub struct PrivateKey(pub(crate) AnySk);

/// A public key of a suite chosen at run time: a typed [`crate::PublicKey`] inside, parsed
/// and validated once (an ML-KEM key unpacked once), its bytes cached.
///
/// Made by [`Suite::public_key_from_bytes`](crate::suite::Suite::public_key_from_bytes), from
/// a runtime [`PrivateKey`], or from a typed key with `From`. Another KEM's `Suite` answers
/// [`Error::InvalidPublicKey`].
///
/// A key encapsulated to many times can be prepared in place with [`PublicKey::prepare`], as a
/// typed [`PreparedPublicKey`](crate::kem::PreparedPublicKey) is.
#[derive(Clone)]
pub struct PublicKey(
    pub(crate) AnyPk,
    #[cfg(feature = "alloc")] pub(crate) Option<Prepared>,
);

/// A typed `PreparedPublicKey<K>` of the runtime key's KEM, behind `dyn Any`: `K` is fixed by
/// the key beside it, and the visitor for `K` downcasts to exactly that type.
#[cfg(feature = "alloc")]
pub(crate) struct Prepared(alloc::boxed::Box<dyn PreparedAny>);

#[cfg(feature = "alloc")]
pub(crate) trait PreparedAny: core::any::Any + Send + Sync {
    fn clone_box(&self) -> alloc::boxed::Box<dyn PreparedAny>;
    fn as_any(&self) -> &dyn core::any::Any;
}

#[cfg(feature = "alloc")]
impl<K: Kem> PreparedAny for typed::PreparedPublicKey<K> {
    fn clone_box(&self) -> alloc::boxed::Box<dyn PreparedAny> {
        alloc::boxed::Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
}

#[cfg(feature = "alloc")]
impl Clone for Prepared {
    fn clone(&self) -> Self {
        Self(self.0.clone_box())
    }
}

#[cfg(feature = "alloc")]
impl Prepared {
    pub(crate) fn new<K: Kem>(pk: &typed::PublicKey<K>) -> Self {
        Self(alloc::boxed::Box::new(typed::PreparedPublicKey::new(pk)))
    }

    fn typed<K: Kem>(&self) -> Option<&typed::PreparedPublicKey<K>> {
        self.0.as_any().downcast_ref()
    }
}

impl PrivateKey {
    /// The `kem_id` of the key's KEM.
    pub fn kem_id(&self) -> u16 {
        self.0.kem_id()
    }

    /// The key's KEM.
    pub fn kem(&self) -> super::AnyKem {
        super::AnyKem::of_key(self.0.kem_id())
    }

    /// The public key, from the cache.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(
            self.0.public_key(),
            #[cfg(feature = "alloc")]
            None,
        )
    }

    /// The typed key inside, if it is a key of `K`.
    pub fn as_typed<K: Kem>(&self) -> Option<&typed::PrivateKey<K>> {
        self.0.typed::<K>()
    }

    /// `SerializePrivateKey`: `Nsk` bytes, wiped on drop.
    #[cfg(feature = "alloc")]
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.0.to_bytes()
    }
}

impl PublicKey {
    /// The `kem_id` of the key's KEM.
    pub fn kem_id(&self) -> u16 {
        self.0.kem_id()
    }

    /// The key's KEM.
    pub fn kem(&self) -> super::AnyKem {
        super::AnyKem::of_key(self.0.kem_id())
    }

    /// The typed key inside, if it is a key of `K`.
    pub fn as_typed<K: Kem>(&self) -> Option<&typed::PublicKey<K>> {
        self.0.typed::<K>()
    }

    /// Builds the key's precomputed table once, as
    /// [`PreparedPublicKey::new`](crate::kem::PreparedPublicKey::new) does: every sender
    /// function given this key (or a clone of it made afterwards) then encapsulates through it.
    /// The output is unchanged; only the time differs. A second call does nothing.
    #[cfg(feature = "alloc")]
    pub fn prepare(&mut self) {
        if self.1.is_none() {
            self.1 = Some(self.0.prepare());
        }
    }

    /// Whether [`PublicKey::prepare`] has been called on this key.
    #[cfg(feature = "alloc")]
    pub fn is_prepared(&self) -> bool {
        self.1.is_some()
    }

    /// `SerializePublicKey`: `Npk` bytes, cached.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl<K: Kem> From<typed::PrivateKey<K>> for PrivateKey {
    fn from(key: typed::PrivateKey<K>) -> Self {
        Self(AnySk::from_typed(key))
    }
}

impl<K: Kem> From<typed::PublicKey<K>> for PublicKey {
    fn from(key: typed::PublicKey<K>) -> Self {
        Self(
            AnyPk::from_typed(key),
            #[cfg(feature = "alloc")]
            None,
        )
    }
}

impl AsRef<[u8]> for PublicKey {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl ConstantTimeEq for PrivateKey {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl PartialEq for PrivateKey {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for PrivateKey {}

/// The typed key inside wipes itself.
impl ZeroizeOnDrop for PrivateKey {}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.kem_id() == other.kem_id() && self.as_bytes() == other.as_bytes()
    }
}

impl Eq for PublicKey {}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("kem_id", &crate::util::Hex(&self.kem_id().to_be_bytes()))
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey")
            .field("kem_id", &crate::util::Hex(&self.kem_id().to_be_bytes()))
            .field("bytes", &crate::util::Hex(self.as_bytes()))
            .finish()
    }
}

/// A key argument: serialized bytes, parsed on each call, or a parsed runtime key.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // may hold a private key's bytes
pub enum KeyArg<'a, T> {
    Bytes(&'a [u8]),
    Parsed(&'a T),
}

// Two borrows: copyable whatever `T` is (a derive would ask `T: Copy`).
impl<T> Clone for KeyArg<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for KeyArg<'_, T> {}

pub(crate) mod private {
    pub trait Sealed {}
}

/// What [`Suite`](crate::suite::Suite)'s functions take as a receiver's private key: a parsed
/// [`PrivateKey`] (parsed once, the fast choice for a key used more than once), its
/// serialized bytes (`[u8]`, `[u8; N]`, `Vec<u8>`, `Zeroizing<Vec<u8>>`), parsed on each call,
/// or a key held elsewhere ([`ExternalDh`](crate::kem::ExternalDh) over a
/// [`suite::DhHolder`](crate::suite::DhHolder), [`ExternalDecap`](crate::kem::ExternalDecap)
/// over a [`suite::DecapHolder`](crate::suite::DecapHolder)).
pub trait PrivateKeyInput: private::Sealed {
    /// What a failed setup gives: [`Error`] for a key in this process,
    /// [`HeldKeyError`](crate::kem::HeldKeyError) with the holder's error for one held
    /// elsewhere.
    type Error: From<Error>;

    /// Calls `f` with the key as the KEM step takes it.
    #[doc(hidden)]
    fn with_key<T>(
        &self,
        f: impl FnOnce(super::held::SkArg<'_>) -> Result<T, Error>,
    ) -> Result<T, Self::Error>;
}

/// What [`Suite`](crate::suite::Suite)'s functions take as a public key: a parsed
/// [`PublicKey`] or its serialized bytes, as for [`PrivateKeyInput`].
pub trait PublicKeyInput: private::Sealed {
    #[doc(hidden)]
    fn public_key_arg(&self) -> KeyArg<'_, PublicKey>;
}

macro_rules! bytes_input {
    ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)*> private::Sealed for $t {}
        impl<$($g)*> PrivateKeyInput for $t {
            type Error = Error;
            fn with_key<T>(
                &self,
                f: impl FnOnce(super::held::SkArg<'_>) -> Result<T, Error>,
            ) -> Result<T, Error> {
                f(super::held::SkArg::Key(KeyArg::Bytes(&self[..])))
            }
        }
        impl<$($g)*> PublicKeyInput for $t {
            fn public_key_arg(&self) -> KeyArg<'_, PublicKey> {
                KeyArg::Bytes(&self[..])
            }
        }
    )*};
}

bytes_input!([] [u8], [const N: usize] [u8; N]);
#[cfg(feature = "alloc")]
bytes_input!([] Vec<u8>, [] Zeroizing<Vec<u8>>);

// A reference to a key input is one: `&[&PublicKey]` for `Suite::seal_base_many`.
impl<T: private::Sealed + ?Sized> private::Sealed for &T {}
impl<T: PrivateKeyInput + ?Sized> PrivateKeyInput for &T {
    type Error = T::Error;
    fn with_key<U>(
        &self,
        f: impl FnOnce(super::held::SkArg<'_>) -> Result<U, Error>,
    ) -> Result<U, T::Error> {
        (**self).with_key(f)
    }
}
impl<T: PublicKeyInput + ?Sized> PublicKeyInput for &T {
    fn public_key_arg(&self) -> KeyArg<'_, PublicKey> {
        (**self).public_key_arg()
    }
}

impl private::Sealed for PrivateKey {}
impl PrivateKeyInput for PrivateKey {
    type Error = Error;
    fn with_key<T>(
        &self,
        f: impl FnOnce(super::held::SkArg<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        f(super::held::SkArg::Key(KeyArg::Parsed(self)))
    }
}

impl private::Sealed for PublicKey {}
impl PublicKeyInput for PublicKey {
    fn public_key_arg(&self) -> KeyArg<'_, PublicKey> {
        KeyArg::Parsed(self)
    }
}

/// `f` on the typed private key of `arg`: borrowed from a parsed runtime key, or parsed from
/// bytes for this call. A continuation, not a returned value: a typed key can be large (an
/// ML-KEM key with its expanded matrix is about 15 KiB), and an enum of "borrowed or owned"
/// returned through a `Result` is moved whole on every call, the borrowed case included, which
/// made the runtime ML-KEM receiver setups about 5% slower than the typed ones.
pub(crate) fn with_sk<K: Kem, T>(
    arg: KeyArg<'_, PrivateKey>,
    f: impl FnOnce(&typed::PrivateKey<K>) -> Result<T, Error>,
) -> Result<T, Error> {
    match arg {
        // Borrowed where it lies (`ref`): `f(&parse(b)?)` held the key three more times in a
        // debug build's frame (about 99 KB for MLKEM1024-P384, against 25 KB now).
        KeyArg::Bytes(b) => match typed::PrivateKey::<K>::from_bytes(b) {
            Ok(ref key) => f(key),
            Err(e) => Err(e),
        },
        KeyArg::Parsed(k) => f(k.as_typed::<K>().ok_or(Error::InvalidPrivateKey)?),
    }
}

/// The recipient key of a sender call: the typed key, and its table if the runtime key was
/// prepared.
pub(crate) fn recipient<'a, K: Kem>(
    pk: &'a typed::PublicKey<K>,
    arg: KeyArg<'a, PublicKey>,
) -> typed::RecipientRef<'a, K> {
    #[cfg(feature = "alloc")]
    let prepared = match arg {
        KeyArg::Parsed(PublicKey(_, Some(prepared))) => prepared
            .typed::<K>()
            .and_then(typed::RecipientKey::precomputed),
        _ => None,
    };
    #[cfg(not(feature = "alloc"))]
    let (prepared, _) = (None, arg);
    typed::RecipientRef { pk, prepared }
}

/// `f` on the typed public key of `arg`, as [`with_sk`] for private keys.
pub(crate) fn with_pk<K: Kem, T>(
    arg: KeyArg<'_, PublicKey>,
    f: impl FnOnce(&typed::PublicKey<K>) -> Result<T, Error>,
) -> Result<T, Error> {
    match arg {
        KeyArg::Bytes(b) => match typed::PublicKey::<K>::from_bytes(b) {
            Ok(ref key) => f(key),
            Err(e) => Err(e),
        },
        KeyArg::Parsed(k) => f(k.as_typed::<K>().ok_or(Error::InvalidPublicKey)?),
    }
}
