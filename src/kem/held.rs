//! The receiver's key (and an Auth sender's static key) in this process or held elsewhere.
//!
//! Every receiving function of [`Hpke`](crate::Hpke) takes its private key as a
//! [`DecapKey`] (Base, PSK) or an [`AuthDecapKey`] (Auth, AuthPSK), and every Auth sender its
//! static key as an [`AuthEncapKey`]. A [`PrivateKey`] is all three. A key its holder keeps (a
//! KMS, a PKCS#11 token, a secure enclave, another process) is one through a wrapper:
//!
//! - [`ExternalDh`] over a [`DhHolder`], which computes the DH-KEM's `DH(sk, peer)`;
//!   typed-hpke validates the peer first, refuses an all-zero answer (RFC 9180 §7.1.4) and
//!   derives the shared secret itself (§4.1). Every mode.
//! - [`ExternalDecap`] over a [`DecapHolder`], which decapsulates whole and returns the shared
//!   secret, for every KEM (ML-KEM, X-Wing, the hybrids, the DH-KEMs), as Go's
//!   `crypto.Decapsulator` does. Base and PSK: `AuthDecap` needs the Diffie-Hellman values.
//!
//! The mode is the function called, never a value: a holder cannot turn an Auth receiver into
//! a Base one. A holder's failure comes back as [`HeldKeyError::Holder`] with its own error;
//! typed-hpke's as [`HeldKeyError::Hpke`].
//!
//! A holder that answers asynchronously (a network KMS) needs no blocked thread: a
//! [`DhRequest`] says which public keys the holder must compute with, and its
//! [`DhRequest::answer`] takes the results and gives a [`DhAnswer`], a key for exactly that
//! `enc`; [`Decapsulated::new`] does the same for a holder that decapsulates. Both then go to
//! the ordinary per-mode functions. The wrappers above are these two steps with the holder
//! called in between.
//!
//! A request and its answer carry their role in their type ([`Receiver`] or [`Sender`]): the
//! answers a receiver's holder gave open messages and nothing else. `DH(skR, pkS)`, which an
//! `AuthDecap` asks for, is also what `AuthEncap(pkS, skR)` needs; an answer that crossed roles
//! would let whoever holds answers for decryption send messages authenticated as the receiver
//! (`tests/compile_fail/dh_answer_receiver_as_sender.rs`). A holder learns the role it answers
//! for from [`DhHolder::dh_as`].

use core::fmt;
use core::marker::PhantomData;

use hybrid_array::Array;
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::{AuthKem, EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};
use crate::Error;
use crate::sealed::AuthKemEngine as _;

/// A receiver's private key for `Decap(enc, skR)` (RFC 9180 §4): a [`PrivateKey`], an
/// [`ExternalDh`], an [`ExternalDecap`], a [`DhAnswer`] or a [`Decapsulated`]. Sealed.
pub trait DecapKey<K: Kem>: crate::sealed::Sealed {
    /// What a failed decapsulation gives: [`Error`] for the keys in this process,
    /// [`HeldKeyError`] for a holder's.
    type Error: From<Error>;

    /// `Decap(enc, skR)`.
    #[doc(hidden)]
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Self::Error>;
}

/// A receiver's private key for `AuthDecap(enc, skR, pkS)` (RFC 9180 §5.1.3): a
/// [`PrivateKey`], an [`ExternalDh`] or a [`DhAnswer`] with the sender's answer. Sealed.
pub trait AuthDecapKey<K: AuthKem>: DecapKey<K> {
    /// `AuthDecap(enc, skR, pkS)`.
    #[doc(hidden)]
    fn auth_decap_for(
        &self,
        enc: &EncappedKey<K>,
        pk_s: &PublicKey<K>,
    ) -> Result<SharedSecret<K>, Self::Error>;
}

/// An Auth sender's static private key for `AuthEncap(pkR, skS)` (RFC 9180 §5.1.3): a
/// [`PrivateKey`], an [`ExternalDh`] or a [`DhAnswer`] for that recipient. Sealed.
pub trait AuthEncapKey<K: AuthKem>: crate::sealed::Sealed {
    /// What a failed encapsulation gives, as for [`DecapKey::Error`].
    type Error: From<Error>;

    /// `AuthEncap(pkR, skS)`, through `prepared` when given.
    #[doc(hidden)]
    fn auth_encap_for<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Self::Error>;
}

/// A DH-KEM private key kept by its holder, which computes `DH(sk, peer)` and never hands out
/// `sk`. Wrap it in [`ExternalDh`] to pass it where a private key goes.
///
/// Implemented for `&H`, and for `Box<H>` and `Arc<H>` with `alloc`; the wrapped key is `Send`
/// and `Sync` when the holder is, so one holder can serve every thread.
pub trait DhHolder<K: AuthKem> {
    /// The holder's error, handed back to the caller as [`HeldKeyError::Holder`].
    type Error;

    /// The key's public key (`pkRm`, or `pkSm` for a sender), as its holder publishes it. It
    /// enters the shared secret's `kem_context` (RFC 9180 §4.1): a wrong one gives a context
    /// that opens nothing.
    fn public_key(&self) -> &PublicKey<K>;

    /// `DH(sk, peer)` into `out`, which is `Ndh` bytes long ([`AuthKem::NDh`]: 32 for X25519,
    /// P-256 and secp256k1, 56 for X448, 48 for P-384, 66 for P-521): the X25519 / X448 output,
    /// or the big-endian x-coordinate of the shared point (RFC 9180 §7.1, SEC 1 §3.3.1).
    /// `peer` is validated (`DeserializePublicKey`, §7.1.1) before the holder is asked.
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn dh(&self, peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), Self::Error>;

    /// `DH(sk, peer)` for `role`: a receiver's `Decap` / `AuthDecap` or an Auth sender's
    /// `AuthEncap`. typed-hpke always calls this one; the default is [`DhHolder::dh`]. A holder
    /// whose key may serve one role only (a KMS policy, a key that only decrypts) refuses the
    /// other here.
    ///
    /// The role is what the library asks for, not a guarantee about who else may ask: `DH(sk,
    /// ·)` is one function, so any caller that can call [`DhHolder::dh`] (or ask as a
    /// receiver with an `enc` of its choosing) gets the values an Auth sender needs. A holder
    /// enforces a role only where its callers reach it through this method alone.
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn dh_as(&self, role: DhRole, peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), Self::Error> {
        let _ = role;
        self.dh(peer, out)
    }
}

/// The operation a key held elsewhere computes a Diffie-Hellman value for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DhRole {
    /// A receiver's `Decap` or `AuthDecap` (RFC 9180 §4.1, §5.1.3): `DH(skR, pkE)`, and in
    /// the Auth modes `DH(skR, pkS)`.
    Receiver,
    /// An Auth sender's `AuthEncap` (§5.1.3): `DH(skS, pkR)`.
    Sender,
}

/// The role of a [`DhRequest`] and its [`DhAnswer`] as a type: [`Receiver`] or [`Sender`].
/// Sealed.
pub trait Role: crate::sealed::Sealed {
    /// The role as a value.
    const ROLE: DhRole;
}

/// A receiver's request and answer ([`DhRequest::decap`], [`DhRequest::auth_decap`]): the
/// answer is a [`DecapKey`] and an [`AuthDecapKey`], never an [`AuthEncapKey`].
#[derive(Debug)]
pub enum Receiver {}

/// An Auth sender's request and answer ([`DhRequest::auth_encap`]): the answer is an
/// [`AuthEncapKey`], never a receiver's key.
#[derive(Debug)]
pub enum Sender {}

impl crate::sealed::Sealed for Receiver {}
impl crate::sealed::Sealed for Sender {}
impl Role for Receiver {
    const ROLE: DhRole = DhRole::Receiver;
}
impl Role for Sender {
    const ROLE: DhRole = DhRole::Sender;
}

/// A private key of any KEM kept by its holder, which decapsulates whole and returns the
/// shared secret (Go's `crypto.Decapsulator`). Wrap it in [`ExternalDecap`].
///
/// Implemented for `&H`, `Box<H>` and `Arc<H>` as [`DhHolder`] is.
pub trait DecapHolder<K: Kem> {
    /// The holder's error, handed back as [`HeldKeyError::Holder`].
    type Error;

    /// `Decap(enc, sk)` (RFC 9180 §4; draft-ietf-hpke-pq §3 for ML-KEM and the hybrids) into
    /// `out`, which is `Nsecret` bytes long. For a DH-KEM this is the whole `Decap` of §4.1,
    /// its KDF included.
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), Self::Error>;
}

macro_rules! forward_holders {
    ($($ptr:ty),*) => {$(
        impl<K: AuthKem, H: DhHolder<K> + ?Sized> DhHolder<K> for $ptr {
            type Error = H::Error;
            fn public_key(&self) -> &PublicKey<K> {
                (**self).public_key()
            }
            fn dh(&self, peer: &PublicKey<K>, out: &mut [u8]) -> Result<(), H::Error> {
                (**self).dh(peer, out)
            }
            fn dh_as(
                &self,
                role: DhRole,
                peer: &PublicKey<K>,
                out: &mut [u8],
            ) -> Result<(), H::Error> {
                (**self).dh_as(role, peer, out)
            }
        }

        impl<K: Kem, H: DecapHolder<K> + ?Sized> DecapHolder<K> for $ptr {
            type Error = H::Error;
            fn decapsulate(&self, enc: &EncappedKey<K>, out: &mut [u8]) -> Result<(), H::Error> {
                (**self).decapsulate(enc, out)
            }
        }
    )*};
}

forward_holders!(&H);
#[cfg(feature = "alloc")]
forward_holders!(alloc::boxed::Box<H>, alloc::sync::Arc<H>);

/// A [`DhHolder`]'s key, for every mode and the Auth sender's static key.
///
/// ```
/// # #[cfg(all(feature = "x25519", feature = "chacha20poly1305", feature = "getrandom"))] {
/// use typed_hpke::aead::ChaCha20Poly1305;
/// use typed_hpke::kdf::HkdfSha256;
/// use typed_hpke::kem::{DhHolder, DhKemX25519HkdfSha256 as X25519, ExternalDh, Kem};
/// use typed_hpke::{Hpke, OsRng, PublicKey};
///
/// /// Stands for a KMS client: here it wraps a key only to compute with it.
/// struct Kms {
///     public_key: PublicKey<X25519>,
/// #   key: typed_hpke::PrivateKey<X25519>,
/// }
///
/// impl DhHolder<X25519> for Kms {
///     type Error = std::io::Error;
///     fn public_key(&self) -> &PublicKey<X25519> {
///         &self.public_key
///     }
///     fn dh(&self, peer: &PublicKey<X25519>, out: &mut [u8]) -> Result<(), std::io::Error> {
///         // Send `peer.as_bytes()` to the KMS; write what it returns.
/// #       let x = x25519_dalek::StaticSecret::from(<[u8; 32]>::try_from(&self.key.to_bytes()[..]).unwrap());
/// #       let p = x25519_dalek::PublicKey::from(<[u8; 32]>::try_from(peer.as_bytes()).unwrap());
/// #       out.copy_from_slice(x.diffie_hellman(&p).as_bytes());
///         Ok(())
///     }
/// }
/// # let (key, public_key) = X25519::generate(&mut OsRng::default())?;
/// # let kms = Kms { public_key: public_key.clone(), key };
/// type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
/// let (enc, ct) = S::seal_base(&mut OsRng::default(), &public_key, b"info", b"", b"hi")?;
/// let pt = S::open_base(&enc, &ExternalDh(&kms), b"info", b"", &ct)?;
/// assert_eq!(pt, b"hi");
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ExternalDh<H>(pub H);

/// A [`DecapHolder`]'s key, for the Base and PSK modes of every KEM.
#[derive(Clone, Copy, Debug)]
pub struct ExternalDecap<H>(pub H);

impl<H> crate::sealed::Sealed for ExternalDh<H> {}
impl<H> crate::sealed::Sealed for ExternalDecap<H> {}
impl<K: Kem> crate::sealed::Sealed for PrivateKey<K> {}
impl<K: AuthKem, R: Role> crate::sealed::Sealed for DhAnswer<K, R> {}
impl<K: Kem> crate::sealed::Sealed for Decapsulated<K> {}

/// What a key held elsewhere gives when it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeldKeyError<E> {
    /// typed-hpke's own refusal, as with an in-process key: an invalid `enc` or peer, an
    /// all-zero answer, a failed key schedule.
    Hpke(Error),
    /// The holder's error, as it gave it.
    Holder(E),
}

impl<E> From<Error> for HeldKeyError<E> {
    fn from(e: Error) -> Self {
        Self::Hpke(e)
    }
}

impl<E: fmt::Display> fmt::Display for HeldKeyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hpke(e) => e.fmt(f),
            Self::Holder(e) => write!(f, "the key's holder failed: {e}"),
        }
    }
}

impl<E: core::error::Error + 'static> core::error::Error for HeldKeyError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Hpke(e) => Some(e),
            Self::Holder(e) => Some(e),
        }
    }
}

impl<K: Kem> DecapKey<K> for PrivateKey<K> {
    type Error = Error;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Error> {
        K::decap(enc, self)
    }
}

impl<K: AuthKem> AuthDecapKey<K> for PrivateKey<K> {
    fn auth_decap_for(
        &self,
        enc: &EncappedKey<K>,
        pk_s: &PublicKey<K>,
    ) -> Result<SharedSecret<K>, Error> {
        K::auth_decap(enc, self, pk_s)
    }
}

impl<K: AuthKem> AuthEncapKey<K> for PrivateKey<K> {
    type Error = Error;
    fn auth_encap_for<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
        K::AuthEngine::auth_encap_to(rng, pk_r, prepared, self)
    }
}

/// A Diffie-Hellman output, `Ndh` bytes, wiped on drop.
type Dh<K> = Zeroizing<Array<u8, <K as AuthKem>::NDh>>;

/// `pkE = DeserializePublicKey(enc)` (RFC 9180 §4.1), validated before any holder is asked.
fn ephemeral<K: AuthKem>(enc: &EncappedKey<K>, err: Error) -> Result<PublicKey<K>, Error> {
    PublicKey::from_bytes(&enc.enc).map_err(|_| err)
}

/// A holder's answer as a Diffie-Hellman output: `Ndh` bytes, not all zeros (§7.1.4; for the
/// Weierstrass curves an x-coordinate of zero is refused too: the holder cannot express the
/// identity, and no honest key meets such a point).
fn check_dh<K: AuthKem>(answer: &[u8], err: Error) -> Result<(), Error> {
    use hybrid_array::typenum::Unsigned;
    if answer.len() == K::NDh::USIZE
        && crate::declassify::dh_output_valid(!super::dhkem::is_all_zero(answer))
    {
        Ok(())
    } else {
        Err(err)
    }
}

/// The holder's answers to `request`, one `DH(sk, peer)` per peer in order: the two steps of
/// a [`DhRequest`] with the holder called in between, as an async caller runs them.
fn answered<K: AuthKem, R: Role, H: DhHolder<K> + ?Sized>(
    holder: &H,
    request: DhRequest<K, R>,
) -> Result<DhAnswer<K, R>, HeldKeyError<H::Error>> {
    // At most two peers: `pkE` and the other party's static key.
    let mut outs: [Dh<K>; 2] = Default::default();
    let mut n = 0;
    for (peer, out) in request.peers().zip(&mut outs) {
        holder
            .dh_as(R::ROLE, peer, out)
            .map_err(HeldKeyError::Holder)?;
        n += 1;
    }
    let [a, b] = &outs;
    Ok(request.answer(&[a.as_slice(), b.as_slice()][..n])?)
}

impl<K: AuthKem, H: DhHolder<K>> DecapKey<K> for ExternalDh<H> {
    type Error = HeldKeyError<H::Error>;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Self::Error> {
        let request = DhRequest::decap(enc, self.0.public_key())?;
        Ok(answered(&self.0, request)?.decap_for(enc)?)
    }
}

impl<K: AuthKem, H: DhHolder<K>> AuthDecapKey<K> for ExternalDh<H> {
    fn auth_decap_for(
        &self,
        enc: &EncappedKey<K>,
        pk_s: &PublicKey<K>,
    ) -> Result<SharedSecret<K>, Self::Error> {
        let request = DhRequest::auth_decap(enc, self.0.public_key(), pk_s)?;
        Ok(answered(&self.0, request)?.auth_decap_for(enc, pk_s)?)
    }
}

impl<K: AuthKem, H: DhHolder<K>> AuthEncapKey<K> for ExternalDh<H> {
    type Error = HeldKeyError<H::Error>;
    fn auth_encap_for<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Self::Error> {
        // DH(skS, pkR) from the holder; the ephemeral half here.
        let request = DhRequest::auth_encap(self.0.public_key(), pk_r);
        Ok(answered(&self.0, request)?.auth_encap_for(rng, pk_r, prepared)?)
    }
}

impl<K: Kem, H: DecapHolder<K>> DecapKey<K> for ExternalDecap<H> {
    type Error = HeldKeyError<H::Error>;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Self::Error> {
        let mut out = Zeroizing::new(Array::<u8, K::NSecret>::default());
        self.0
            .decapsulate(enc, &mut out)
            .map_err(HeldKeyError::Holder)?;
        Ok(checked_secret::<K>(out)?)
    }
}

/// The Diffie-Hellman values a [`DhHolder`]-like key must compute for one operation, for a
/// holder that answers asynchronously: ask it about each of [`DhRequest::peers`] (awaiting
/// whatever it needs), then [`DhRequest::answer`] gives the key for the per-mode function.
///
/// ```
/// # #[cfg(all(feature = "x25519", feature = "chacha20poly1305", feature = "getrandom"))] {
/// use typed_hpke::aead::ChaCha20Poly1305;
/// use typed_hpke::kdf::HkdfSha256;
/// use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, DhRequest, Kem};
/// use typed_hpke::{Hpke, OsRng};
/// type S = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
///
/// # let (sk_r, pk_r) = X25519::generate(&mut OsRng::default())?;
/// # let kms_dh = |peer: &[u8]| {
/// #     let x = x25519_dalek::StaticSecret::from(<[u8; 32]>::try_from(&sk_r.to_bytes()[..]).unwrap());
/// #     *x.diffie_hellman(&x25519_dalek::PublicKey::from(<[u8; 32]>::try_from(peer).unwrap())).as_bytes()
/// # };
/// let (enc, ct) = S::seal_base(&mut OsRng::default(), &pk_r, b"info", b"", b"hi")?;
/// let request = DhRequest::decap(&enc, &pk_r)?; // validates `enc`
/// let mut answers = Vec::new();
/// for peer in request.peers() {
///     answers.push(kms_dh(peer.as_bytes())); // an `.await` in an async receiver
/// }
/// let answers: Vec<&[u8]> = answers.iter().map(|a| &a[..]).collect();
/// let key = request.answer(&answers)?;
/// assert_eq!(S::open_base(&enc, &key, b"info", b"", &ct)?, b"hi");
/// # }
/// # Ok::<(), typed_hpke::Error>(())
/// ```
pub struct DhRequest<K: AuthKem, R: Role = Receiver> {
    own: PublicKey<K>,
    enc: Option<(EncappedKey<K>, PublicKey<K>)>,
    peer: Option<PublicKey<K>>,
    role: PhantomData<R>,
}

impl<K: AuthKem> DhRequest<K, Receiver> {
    /// `Decap(enc, skR)` (RFC 9180 §4.1) for the key whose public key is `pk_r`: one value,
    /// `DH(skR, pkE)`.
    ///
    /// # Errors
    /// [`Error::Decap`] if `enc` is not a valid public key.
    pub fn decap(enc: &EncappedKey<K>, pk_r: &PublicKey<K>) -> Result<Self, Error> {
        Ok(Self {
            own: pk_r.clone(),
            enc: Some((enc.clone(), ephemeral(enc, Error::Decap)?)),
            peer: None,
            role: PhantomData,
        })
    }

    /// `AuthDecap(enc, skR, pkS)` (§5.1.3): two values, `DH(skR, pkE)` and `DH(skR, pkS)`.
    ///
    /// # Errors
    /// [`Error::Decap`] if `enc` is not a valid public key.
    pub fn auth_decap(
        enc: &EncappedKey<K>,
        pk_r: &PublicKey<K>,
        pk_s: &PublicKey<K>,
    ) -> Result<Self, Error> {
        Ok(Self {
            peer: Some(pk_s.clone()),
            ..Self::decap(enc, pk_r)?
        })
    }
}

impl<K: AuthKem> DhRequest<K, Sender> {
    /// `AuthEncap(pkR, skS)` (§5.1.3) for the sender whose static public key is `pk_s`: one
    /// value, `DH(skS, pkR)`. The answer serves every message to `pk_r`, and only as a
    /// sender's key.
    pub fn auth_encap(pk_s: &PublicKey<K>, pk_r: &PublicKey<K>) -> Self {
        Self {
            own: pk_s.clone(),
            enc: None,
            peer: Some(pk_r.clone()),
            role: PhantomData,
        }
    }
}

impl<K: AuthKem, R: Role> DhRequest<K, R> {
    /// The operation this request serves, as its type says.
    pub fn role(&self) -> DhRole {
        R::ROLE
    }

    /// The public keys, validated, whose `DH(sk, ·)` the holder must compute, in the order
    /// [`DhRequest::answer`] takes the results: `pkE` first when there is an `enc`, then the
    /// other party's static key.
    pub fn peers(&self) -> impl Iterator<Item = &PublicKey<K>> {
        self.enc.iter().map(|(_, pk_e)| pk_e).chain(&self.peer)
    }

    /// The holder's results, one per peer in order, each `Ndh` bytes: a key for exactly this
    /// operation (this `enc`, this `pkS` or `pkR`, this role), for the ordinary per-mode
    /// functions.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `dh` does not hold one value per peer; [`Error::Decap`]
    /// ([`Error::Encap`] for a sender) if a value is not `Ndh` bytes or is all zeros
    /// (§7.1.4).
    pub fn answer(self, dh: &[&[u8]]) -> Result<DhAnswer<K, R>, Error> {
        if dh.len() != self.peers().count() {
            return Err(Error::InvalidLength);
        }
        let err = if self.enc.is_some() {
            Error::Decap
        } else {
            Error::Encap
        };
        // Every byte of the answer is set, the values absent too (zeros, the own key): no
        // `Option` payload left with whatever bytes were where it was built, which held a
        // copy of a DH value (`tests/zeroize_observed.rs`, `holders_answers`).
        let mut values: [Dh<K>; 2] = Default::default();
        let mut asked = 0u64;
        let (enc, peer) = (self.enc.map(|(enc, _)| enc), self.peer);
        let slots = [enc.is_some(), peer.is_some()];
        let mut given = dh.iter();
        for (i, slot) in slots.into_iter().enumerate() {
            if slot {
                let answer = given.next().copied().unwrap_or_default();
                check_dh::<K>(answer, err)?;
                values[i].copy_from_slice(answer);
                asked |= 1 << i;
            }
        }
        Ok(DhAnswer {
            enc: enc.unwrap_or_else(|| EncappedKey {
                enc: Array::default(),
            }),
            peer: peer.unwrap_or_else(|| self.own.clone()),
            own: self.own,
            asked,
            values,
            role: PhantomData,
        })
    }
}

impl<K: AuthKem, R: Role> fmt::Debug for DhRequest<K, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DhRequest")
            .field("role", &R::ROLE)
            .field("public_key", &self.own)
            .field("enc", &self.enc.as_ref().map(|(enc, _)| enc))
            .field("peer", &self.peer)
            .finish()
    }
}

/// A [`DhRequest`] answered: the key for its one operation, in its one role (`R`: a
/// receiver's answer opens, a sender's seals, neither does the other). Wiped on drop; `Debug`
/// prints no secret.
pub struct DhAnswer<K: AuthKem, R: Role = Receiver> {
    own: PublicKey<K>,
    /// The `enc` asked about (zeros if none: bit 0 of `asked`).
    enc: EncappedKey<K>,
    /// The other party's static key asked about (the own key if none: bit 1 of `asked`).
    peer: PublicKey<K>,
    asked: u64,
    /// `DH(sk, pkE)` and `DH(sk, peer)`; zeros where not asked.
    values: [Dh<K>; 2],
    role: PhantomData<R>,
}

impl<K: AuthKem, R: Role> DhAnswer<K, R> {
    /// The operation this answer serves.
    pub fn role(&self) -> DhRole {
        R::ROLE
    }

    /// `DH(skR, pkE)` if `enc` is the one asked about.
    fn dh_e(&self, enc: &EncappedKey<K>) -> Result<&Dh<K>, Error> {
        if self.asked & 1 == 1 && self.enc == *enc {
            Ok(&self.values[0])
        } else {
            Err(Error::Decap)
        }
    }

    /// `DH(sk, peer)` if `peer` is the static key asked about.
    fn dh_static(&self, peer: &PublicKey<K>, err: Error) -> Result<&Dh<K>, Error> {
        if self.asked & 2 == 2 && self.peer == *peer {
            Ok(&self.values[1])
        } else {
            Err(err)
        }
    }
}

impl<K: AuthKem> DecapKey<K> for DhAnswer<K, Receiver> {
    type Error = Error;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Error> {
        let dh = self.dh_e(enc)?;
        K::AuthEngine::shared_secret(&[dh], &[&enc.enc, self.own.as_bytes()])
            .map_err(|_| Error::Decap)
    }
}

impl<K: AuthKem> AuthDecapKey<K> for DhAnswer<K, Receiver> {
    fn auth_decap_for(
        &self,
        enc: &EncappedKey<K>,
        pk_s: &PublicKey<K>,
    ) -> Result<SharedSecret<K>, Error> {
        let dh_e = self.dh_e(enc)?;
        let dh_s = self.dh_static(pk_s, Error::Decap)?;
        let kem_context: [&[u8]; 3] = [&enc.enc, self.own.as_bytes(), pk_s.as_bytes()];
        K::AuthEngine::shared_secret(&[dh_e, dh_s], &kem_context).map_err(|_| Error::Decap)
    }
}

impl<K: AuthKem> AuthEncapKey<K> for DhAnswer<K, Sender> {
    type Error = Error;
    fn auth_encap_for<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
        let dh_s = self.dh_static(pk_r, Error::Encap)?;
        K::AuthEngine::auth_encap_with_dh(rng, pk_r, prepared, self.own.as_bytes(), dh_s)
    }
}

impl<K: AuthKem, R: Role> fmt::Debug for DhAnswer<K, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DhAnswer")
            .field("role", &R::ROLE)
            .field("public_key", &self.own)
            .field("enc", &(self.asked & 1 == 1).then_some(&self.enc))
            .field("peer", &(self.asked & 2 == 2).then_some(&self.peer))
            .field("dh", &"<redacted>")
            .finish()
    }
}

/// A [`DecapHolder`]-like key's answer for one `enc`: the shared secret it returned, as a key
/// that decapsulates exactly that `enc`, for a holder that answers asynchronously. Wiped on
/// drop.
///
/// ```
/// # #[cfg(all(feature = "pq", feature = "chacha20poly1305", feature = "getrandom"))] {
/// use typed_hpke::aead::ChaCha20Poly1305;
/// use typed_hpke::kdf::HkdfSha256;
/// use typed_hpke::kem::{Decapsulated, Kem, MlKem768};
/// use typed_hpke::{Hpke, OsRng};
/// type S = Hpke<MlKem768, HkdfSha256, ChaCha20Poly1305>;
///
/// # let (sk_r, pk_r) = MlKem768::generate(&mut OsRng::default())?;
/// let (enc, ct) = S::seal_base(&mut OsRng::default(), &pk_r, b"info", b"", b"hi")?;
/// // The holder's decapsulation (an `.await` on a KMS), here in process:
/// let secret = MlKem768::decap(&enc, &sk_r)?;
/// let key = Decapsulated::new(&enc, secret.as_bytes())?;
/// assert_eq!(S::open_base(&enc, &key, b"info", b"", &ct)?, b"hi");
/// # }
/// # Ok::<(), typed_hpke::Error>(())
/// ```
pub struct Decapsulated<K: Kem> {
    enc: EncappedKey<K>,
    secret: SharedSecret<K>,
}

/// A holder's shared secret, refused if all zeros: no honest decapsulation gives that, and a
/// holder that failed silently might.
fn checked_secret<K: Kem>(
    secret: Zeroizing<Array<u8, K::NSecret>>,
) -> Result<SharedSecret<K>, Error> {
    if crate::declassify::dh_output_valid(!super::dhkem::is_all_zero(&secret)) {
        Ok(SharedSecret::new(secret))
    } else {
        Err(Error::Decap)
    }
}

impl<K: Kem> Decapsulated<K> {
    /// The shared secret a holder returned for `enc` (`Nsecret` bytes).
    ///
    /// # Errors
    /// [`Error::Decap`] if `shared_secret` is not `Nsecret` bytes or is all zeros.
    pub fn new(enc: &EncappedKey<K>, shared_secret: &[u8]) -> Result<Self, Error> {
        let secret = Zeroizing::new(Array::try_from(shared_secret).map_err(|_| Error::Decap)?);
        Ok(Self {
            enc: enc.clone(),
            secret: checked_secret(secret)?,
        })
    }
}

impl<K: Kem> DecapKey<K> for Decapsulated<K> {
    type Error = Error;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Error> {
        if self.enc == *enc {
            Ok(SharedSecret::new(self.secret.secret.clone()))
        } else {
            Err(Error::Decap)
        }
    }
}

impl<K: Kem> fmt::Debug for Decapsulated<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decapsulated")
            .field("enc", &self.enc)
            .field("shared_secret", &"<redacted>")
            .finish()
    }
}

/// A hybrid KEM's receiver key with its halves held apart: the traditional (X25519, P-256,
/// P-384) key with a [`DhHolder`], such as a PKCS#11 token, and the ML-KEM private key either
/// in this process ([`SplitHybrid::new`]) or with a [`DecapHolder`] too ([`SplitHybrid::held`]:
/// a PKCS#11 3.2 token's `C_DecapsulateKey`, which then holds both halves). Decapsulation
/// (draft-ietf-hpke-pq §4) is the hybrid's own, with the holders answering `DH(sk_T, ct_T)`
/// (and `ML-KEM.Decaps(dk_PQ, ct_PQ)`): `ct_T` is validated before either holder is asked, an
/// all-zero answer is refused as RFC 9180 §7.1.4 refuses it, and the combiner runs here. Base
/// and PSK modes, as every hybrid KEM.
///
/// Such a key has no seed: the hybrid's private key is one seed that both halves are expanded
/// from, and a traditional key made in a token cannot be its half (a key made here moves into
/// such a token as the two secrets [`PrivateKey::expanded_halves`] gives). Its public key is the
/// concatenation of the halves' (`pk = pk_PQ || pk_T`), which senders use as any hybrid public
/// key. The ML-KEM key is wiped on drop; `Debug` shows the public key.
///
/// ```
/// # #[cfg(all(feature = "nist", feature = "chacha20poly1305", feature = "getrandom"))] {
/// use typed_hpke::aead::ChaCha20Poly1305;
/// use typed_hpke::kdf::HkdfSha256;
/// use typed_hpke::kem::{DhHolder, DhKemP256HkdfSha256 as P256, Kem, MlKem768, MlKem768P256};
/// use typed_hpke::kem::SplitHybrid;
/// use typed_hpke::{Hpke, OsRng, PublicKey};
/// type S = Hpke<MlKem768P256, HkdfSha256, ChaCha20Poly1305>;
///
/// /// A P-256 key in a token (here: the scalar, computed with the `p256` crate).
/// struct Token(p256::NonZeroScalar, PublicKey<P256>);
/// impl DhHolder<P256> for Token {
///     type Error = std::convert::Infallible;
///     fn public_key(&self) -> &PublicKey<P256> {
///         &self.1
///     }
///     fn dh(&self, peer: &PublicKey<P256>, out: &mut [u8]) -> Result<(), Self::Error> {
///         use p256::elliptic_curve::{point::AffineCoordinates, sec1::FromSec1Point};
///         let peer = p256::AffinePoint::from_sec1_bytes(peer.as_bytes()).unwrap();
///         let shared = (p256::ProjectivePoint::from(peer) * *self.0).to_affine();
///         out.copy_from_slice(&shared.x());
///         Ok(())
///     }
/// }
///
/// let mut rng = OsRng::default();
/// # let (p256_sk, p256_pk) = P256::generate(&mut rng)?;
/// # let scalar = p256::NonZeroScalar::try_from(&p256_sk.to_bytes()[..]).unwrap();
/// let token = Token(scalar, p256_pk);
/// let (ml_kem, _) = MlKem768::generate(&mut rng)?;
/// let key = SplitHybrid::<MlKem768P256, _>::new(ml_kem, token);
/// let (enc, ct) = S::seal_base(&mut rng, key.public_key(), b"info", b"", b"hi")?;
/// assert_eq!(S::open_base(&enc, &key, b"info", b"", &ct)?, b"hi");
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
pub struct SplitHybrid<K: super::HybridKem, H, M = PrivateKey<<K as super::HybridKem>::MlKem>> {
    ml_kem: M,
    holder: H,
    public: PublicKey<K>,
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H: DhHolder<K::Traditional>> SplitHybrid<K, H> {
    /// The key whose ML-KEM half is `ml_kem` and whose traditional half `holder` holds.
    ///
    /// Both halves' public keys are valid already: the hybrid one is their concatenation.
    pub fn new(ml_kem: PrivateKey<K::MlKem>, holder: H) -> Self {
        let public = K::join_public(&ml_kem.public_key(), holder.public_key());
        Self {
            ml_kem,
            holder,
            public,
        }
    }
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H, M> SplitHybrid<K, H, M> {
    /// The hybrid public key, `pk_PQ || pk_T`.
    pub fn public_key(&self) -> &PublicKey<K> {
        &self.public
    }

    /// The holder of the traditional half.
    pub fn holder(&self) -> &H {
        &self.holder
    }
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H: DhHolder<K::Traditional>, D: DecapHolder<K::MlKem>>
    SplitHybrid<K, H, ExternalDecap<D>>
{
    /// The key whose ML-KEM half `ml_kem` holds (its public key `ml_kem_public`) and whose
    /// traditional half `holder` holds: both halves kept elsewhere, as a PKCS#11 3.2 token
    /// keeps an ML-KEM key (`C_DecapsulateKey`) beside an EC one. `ml_kem` answers
    /// `ML-KEM.Decaps(dk_PQ, ct_PQ)` (its [`DecapHolder::decapsulate`] with ML-KEM's 32-byte
    /// shared secret); the combiner runs here as for [`SplitHybrid::new`].
    ///
    /// A holder that answers for another key than `ml_kem_public` gives a shared secret the
    /// sender does not have: the AEAD then refuses the message, as for a wrong key.
    pub fn held(ml_kem_public: PublicKey<K::MlKem>, ml_kem: D, holder: H) -> Self {
        let public = K::join_public(&ml_kem_public, holder.public_key());
        Self {
            ml_kem: ExternalDecap(ml_kem),
            holder,
            public,
        }
    }
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H: DhHolder<K::Traditional>, M: DecapKey<K::MlKem>> SplitHybrid<K, H, M>
where
    HeldKeyError<H::Error>: From<M::Error>,
{
    /// `Decap(enc, sk)` of the hybrid (draft-ietf-hpke-pq §4) with the halves' holders
    /// answering: for a holder that serves the whole hybrid key in turn, as a runtime
    /// [`crate::suite::DecapHolder`] does. `ct_T` is validated before either holder is asked.
    ///
    /// # Errors
    /// [`HeldKeyError::Hpke`] with [`Error::Decap`] for a malformed `ct_T` or an all-zero
    /// `DH(sk_T, ct_T)`; [`HeldKeyError::Holder`] with what a holder reported.
    pub fn decap(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, HeldKeyError<H::Error>> {
        use hybrid_array::typenum::Unsigned;
        // (ct_PQ, ct_T) = enc; both parsed, ct_T validated, before a holder is asked.
        let nenc_t = <<K::Traditional as Kem>::NEnc as Unsigned>::USIZE;
        let (ct_m, ct_t) = enc.enc.split_at(enc.enc.len() - nenc_t);
        let ct_m = EncappedKey::<K::MlKem>::from_bytes(ct_m).map_err(|_| Error::Decap)?;
        let pk_e = PublicKey::<K::Traditional>::from_bytes(ct_t).map_err(|_| Error::Decap)?;
        // ss_PQ = ML-KEM.Decaps(dk_PQ, ct_PQ), here or by its holder.
        let ss_m = self.ml_kem.decap_for(&ct_m)?;
        // ss_T = DH(sk_T, ct_T), from the holder, refused if all zeros.
        let mut ss_t = Dh::<K::Traditional>::default();
        self.holder
            .dh_as(DhRole::Receiver, &pk_e, &mut ss_t)
            .map_err(HeldKeyError::Holder)?;
        check_dh::<K::Traditional>(&ss_t, Error::Decap)?;
        let npk_t = <<K::Traditional as Kem>::NPk as Unsigned>::USIZE;
        let pk_t = &self.public.as_bytes()[self.public.as_bytes().len() - npk_t..];
        Ok(K::combine_halves(ss_m.as_bytes(), &ss_t, ct_t, pk_t))
    }
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H, M> fmt::Debug for SplitHybrid<K, H, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SplitHybrid")
            .field("public_key", &self.public)
            .finish_non_exhaustive()
    }
}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H, M> crate::sealed::Sealed for SplitHybrid<K, H, M> {}

#[cfg(all(feature = "pq", any(feature = "x25519", feature = "nist")))]
impl<K: super::HybridKem, H: DhHolder<K::Traditional>, M: DecapKey<K::MlKem>> DecapKey<K>
    for SplitHybrid<K, H, M>
where
    HeldKeyError<H::Error>: From<M::Error>,
{
    type Error = HeldKeyError<H::Error>;
    fn decap_for(&self, enc: &EncappedKey<K>) -> Result<SharedSecret<K>, Self::Error> {
        self.decap(enc)
    }
}
