//! Runtime keys held elsewhere: the counterparts of [`crate::kem::DhHolder`] and
//! [`crate::kem::DecapHolder`], their KEM given by the public key they publish. The same
//! wrappers ([`ExternalDh`], [`ExternalDecap`]) pass them wherever [`Suite`] takes a private
//! key, so the runtime functions take a key held elsewhere in every mode its KEM has.
//!
//! [`Suite`]: super::Suite

use core::cell::Cell;
use core::fmt;

use super::PublicKey;
use super::keys::{KeyArg, PrivateKeyInput, private};
use crate::Error;
use crate::kem::{DhRole, ExternalDecap, ExternalDh, HeldKeyError};

/// A DH-KEM private key kept by its holder, for the runtime API: [`crate::kem::DhHolder`]
/// with the KEM its public key's.
pub trait DhHolder {
    /// The holder's error, handed back as [`HeldKeyError::Holder`].
    type Error;

    /// The key's public key; its KEM must be the suite's ([`Error::InvalidPrivateKey`]
    /// otherwise).
    fn public_key(&self) -> &PublicKey;

    /// `DH(sk, peer)` into `out` (`Ndh` bytes), as [`crate::kem::DhHolder::dh`] says; `peer` is
    /// a serialized public key of the KEM, validated before the holder is asked.
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), Self::Error>;

    /// `DH(sk, peer)` for `role`, as [`crate::kem::DhHolder::dh_as`] says: typed-hpke always
    /// calls this one, and the default is [`DhHolder::dh`].
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn dh_as(&self, role: DhRole, peer: &[u8], out: &mut [u8]) -> Result<(), Self::Error> {
        let _ = role;
        self.dh(peer, out)
    }
}

/// A private key of any KEM kept by its holder, which decapsulates whole: the runtime
/// counterpart of [`crate::kem::DecapHolder`].
pub trait DecapHolder {
    /// The holder's error, handed back as [`HeldKeyError::Holder`].
    type Error;

    /// The key's public key; its KEM must be the suite's.
    fn public_key(&self) -> &PublicKey;

    /// `Decap(enc, sk)` into `out` (`Nsecret` bytes). `enc` has the KEM's `Nenc` bytes.
    ///
    /// # Errors
    /// Whatever the holder reports.
    fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), Self::Error>;
}

macro_rules! forward_holders {
    ($($ptr:ty),*) => {$(
        impl<H: DhHolder + ?Sized> DhHolder for $ptr {
            type Error = H::Error;
            fn public_key(&self) -> &PublicKey {
                (**self).public_key()
            }
            fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), H::Error> {
                (**self).dh(peer, out)
            }
            fn dh_as(&self, role: DhRole, peer: &[u8], out: &mut [u8]) -> Result<(), H::Error> {
                (**self).dh_as(role, peer, out)
            }
        }

        impl<H: DecapHolder + ?Sized> DecapHolder for $ptr {
            type Error = H::Error;
            fn public_key(&self) -> &PublicKey {
                (**self).public_key()
            }
            fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), H::Error> {
                (**self).decapsulate(enc, out)
            }
        }
    )*};
}

forward_holders!(&H);
#[cfg(feature = "alloc")]
forward_holders!(alloc::boxed::Box<H>, alloc::sync::Arc<H>);

/// A holder seen by the KEM step: called with the peer (or `enc`) and the output; its own
/// error stays with the generic caller, the step sees [`Error::Decap`] / [`Error::Encap`].
pub(crate) type Ask<'a> = &'a dyn Fn(&[u8], &mut [u8]) -> Result<(), Error>;

/// A receiver's key as the KEM step takes it.
#[doc(hidden)]
#[allow(missing_debug_implementations)]
pub enum SkArg<'a> {
    /// In this process, parsed or as bytes.
    Key(KeyArg<'a, super::PrivateKey>),
    /// A [`DhHolder`].
    Dh(&'a PublicKey, Ask<'a>),
    /// A [`DecapHolder`].
    Decap(&'a PublicKey, Ask<'a>),
}

/// Calls `f` with `ask`, a holder call that records the holder's error; the result is that
/// error when there was one, else `f`'s.
fn asking<T, E>(
    call: impl Fn(&[u8], &mut [u8]) -> Result<(), E>,
    err: Error,
    f: impl FnOnce(Ask<'_>) -> Result<T, Error>,
) -> Result<T, HeldKeyError<E>> {
    let failed = Cell::new(None);
    let ask = |input: &[u8], out: &mut [u8]| {
        call(input, out).map_err(|e| {
            failed.set(Some(e));
            err
        })
    };
    let result = f(&ask);
    match failed.into_inner() {
        Some(e) => Err(HeldKeyError::Holder(e)),
        None => result.map_err(HeldKeyError::Hpke),
    }
}

impl<H: DhHolder> private::Sealed for ExternalDh<H> {}
impl<H: DhHolder> PrivateKeyInput for ExternalDh<H> {
    type Error = HeldKeyError<H::Error>;
    fn with_key<T>(&self, f: impl FnOnce(SkArg<'_>) -> Result<T, Error>) -> Result<T, Self::Error> {
        let holder = &self.0;
        asking(
            |peer, out| holder.dh_as(DhRole::Receiver, peer, out),
            Error::Decap,
            |ask| f(SkArg::Dh(holder.public_key(), ask)),
        )
    }
}

impl<H: DecapHolder> private::Sealed for ExternalDecap<H> {}
impl<H: DecapHolder> PrivateKeyInput for ExternalDecap<H> {
    type Error = HeldKeyError<H::Error>;
    fn with_key<T>(&self, f: impl FnOnce(SkArg<'_>) -> Result<T, Error>) -> Result<T, Self::Error> {
        let holder = &self.0;
        asking(
            |enc, out| holder.decapsulate(enc, out),
            Error::Decap,
            |ask| f(SkArg::Decap(holder.public_key(), ask)),
        )
    }
}

/// An Auth sender's static key for [`SenderMode`](super::SenderMode): a runtime
/// [`PrivateKey`](super::PrivateKey), or an [`ExternalDh`] over a [`DhHolder`]. Sealed.
///
/// The runtime modes are values, so the key is a trait object here: a holder's failure is
/// [`Error::Encap`], its own error not kept. A sender that needs it uses the typed API
/// ([`crate::kem::AuthEncapKey`]), or keeps it beside the holder.
pub trait SenderKeyInput: private::Sealed {
    /// Calls `f` with the key as the KEM step takes it.
    #[doc(hidden)]
    fn with_sender_key(
        &self,
        f: &mut dyn FnMut(SenderKeyArg<'_>) -> Result<(), Error>,
    ) -> Result<(), Error>;
}

/// An Auth sender's key as the KEM step takes it.
#[doc(hidden)]
#[allow(missing_debug_implementations)]
pub enum SenderKeyArg<'a> {
    Key(&'a super::PrivateKey),
    Dh(&'a PublicKey, Ask<'a>),
}

impl SenderKeyInput for super::PrivateKey {
    fn with_sender_key(
        &self,
        f: &mut dyn FnMut(SenderKeyArg<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        f(SenderKeyArg::Key(self))
    }
}

impl<H: DhHolder> SenderKeyInput for ExternalDh<H> {
    fn with_sender_key(
        &self,
        f: &mut dyn FnMut(SenderKeyArg<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let ask = |peer: &[u8], out: &mut [u8]| {
            self.0
                .dh_as(DhRole::Sender, peer, out)
                .map_err(|_| Error::Encap)
        };
        f(SenderKeyArg::Dh(self.0.public_key(), &ask))
    }
}

/// `SenderMode`'s `Debug`: the key's kind, never its secret.
pub(super) struct SenderKeyDebug<'a>(pub &'a dyn SenderKeyInput);

impl fmt::Debug for SenderKeyDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Ok(());
        let _ = self.0.with_sender_key(&mut |arg| {
            out = match arg {
                SenderKeyArg::Key(k) => k.fmt(f),
                SenderKeyArg::Dh(pk, _) => f.debug_tuple("ExternalDh").field(pk).finish(),
            };
            Ok(())
        });
        out
    }
}

/// A holder's error, boxed: what [`HeldKey`] hands back.
#[cfg(feature = "alloc")]
pub type BoxedHolderError = alloc::boxed::Box<dyn core::error::Error + Send + Sync>;

/// A runtime key held elsewhere as a trait object, for code that keeps keys of holders it does
/// not know the type of (a gateway's key table, a JOSE or COSE decryptor): an [`ExternalDh`]
/// over a [`DhHolder`] or an [`ExternalDecap`] over a [`DecapHolder`] whose error converts to a
/// boxed error (any `std::error::Error + Send + Sync`, a `&str`, a `String`). `&dyn HeldKey`
/// goes wherever [`Suite`](super::Suite) takes a private key; the holder's error comes back
/// boxed in [`HeldKeyError::Holder`]. Sealed.
#[cfg(feature = "alloc")]
pub trait HeldKey: private::Sealed {
    /// The key's public key.
    fn public_key(&self) -> &PublicKey;

    /// Calls `f` with the key as the KEM step takes it.
    #[doc(hidden)]
    fn with_held_key(
        &self,
        f: &mut dyn FnMut(SkArg<'_>) -> Result<(), Error>,
    ) -> Result<(), HeldKeyError<BoxedHolderError>>;
}

#[cfg(feature = "alloc")]
impl<H: DhHolder> HeldKey for ExternalDh<H>
where
    H::Error: Into<BoxedHolderError>,
{
    fn public_key(&self) -> &PublicKey {
        self.0.public_key()
    }

    fn with_held_key(
        &self,
        f: &mut dyn FnMut(SkArg<'_>) -> Result<(), Error>,
    ) -> Result<(), HeldKeyError<BoxedHolderError>> {
        self.with_key(f).map_err(boxed)
    }
}

#[cfg(feature = "alloc")]
impl<H: DecapHolder> HeldKey for ExternalDecap<H>
where
    H::Error: Into<BoxedHolderError>,
{
    fn public_key(&self) -> &PublicKey {
        self.0.public_key()
    }

    fn with_held_key(
        &self,
        f: &mut dyn FnMut(SkArg<'_>) -> Result<(), Error>,
    ) -> Result<(), HeldKeyError<BoxedHolderError>> {
        self.with_key(f).map_err(boxed)
    }
}

#[cfg(feature = "alloc")]
fn boxed<E: Into<BoxedHolderError>>(e: HeldKeyError<E>) -> HeldKeyError<BoxedHolderError> {
    match e {
        HeldKeyError::Hpke(e) => HeldKeyError::Hpke(e),
        HeldKeyError::Holder(e) => HeldKeyError::Holder(e.into()),
    }
}

/// `dyn HeldKey` (with or without `Send + Sync`) as a receiver's key of the runtime API.
#[cfg(feature = "alloc")]
macro_rules! held_key_input {
    ($($t:ty),*) => {$(
        impl PrivateKeyInput for $t {
            type Error = HeldKeyError<BoxedHolderError>;
            fn with_key<T>(
                &self,
                f: impl FnOnce(SkArg<'_>) -> Result<T, Error>,
            ) -> Result<T, Self::Error> {
                let (mut f, mut out) = (Some(f), None);
                self.with_held_key(&mut |arg| {
                    let f = f.take().ok_or(Error::Decap)?;
                    out = Some(f(arg)?);
                    Ok(())
                })?;
                out.ok_or(HeldKeyError::Hpke(Error::Decap))
            }
        }
    )*};
}

#[cfg(feature = "alloc")]
held_key_input!(dyn HeldKey + '_, dyn HeldKey + Send + Sync + '_);

/// A runtime key's answers, collected ahead of the setup: the runtime API's two steps for a
/// receiver whose holder answers asynchronously. [`Suite::dh_peers`](super::Suite::dh_peers)
/// validates `enc` and lists what a [`DhHolder`]-like key must compute; the caller awaits each
/// answer, records it with [`Answers::answer`], and passes `ExternalDh(&answers)` (or, for a
/// holder that decapsulates, `ExternalDecap(&answers)` with the shared secret recorded for
/// `enc`) to the ordinary receiving functions, which look each value up instead of calling
/// out. A value never recorded is [`NotAnswered`]. The answers are wiped on drop; `Debug`
/// prints none.
///
/// They serve a receiver and nothing else: no sender's key is made of them
/// (`tests/compile_fail/answers_receiver_as_sender.rs`), and nothing reads a recorded value
/// back. `DH(skR, pkS)`, recorded to open an Auth message, is what an Auth sender to `pkS`
/// needs; handed out again it would let whoever holds a receiver's answers send messages
/// authenticated as the receiver. An Auth sender's answers are [`SenderAnswers`].
///
/// ```
/// # #[cfg(all(feature = "nist", feature = "aes-gcm", feature = "getrandom"))] {
/// use typed_hpke::kem::ExternalDh;
/// use typed_hpke::suite::{Answers, ReceiverMode, SenderMode, Suite};
/// # fn kms_dh(sk: &typed_hpke::suite::PrivateKey, peer: &[u8]) -> Vec<u8> {
/// #     use p256::elliptic_curve::point::AffineCoordinates as _;
/// #     use p256::elliptic_curve::sec1::FromSec1Point as _;
/// #     let sk = p256::NonZeroScalar::try_from(&sk.to_bytes()[..]).unwrap();
/// #     let peer = p256::AffinePoint::from_sec1_bytes(peer).unwrap();
/// #     (p256::ProjectivePoint::from(peer) * *sk).to_affine().x().to_vec()
/// # }
/// let suite = Suite::new(0x0010, 0x0001, 0x0001)?;
/// # let (kms_key, public_key) = suite.generate_key_pair(&mut typed_hpke::OsRng::default())?;
/// # let (enc, ct) = suite.seal(&mut typed_hpke::OsRng::default(), &public_key, b"", b"", b"hi", SenderMode::Base)?;
/// let mut answers = Answers::new(public_key);
/// for peer in suite.dh_peers(&enc, ReceiverMode::Base)? {
///     let dh = kms_dh(&kms_key, peer); // an `.await` in an async server
///     answers.answer(peer, &dh);
/// }
/// let pt = suite.open(&enc, &ExternalDh(&answers), b"", b"", &ct, ReceiverMode::Base)?;
/// assert_eq!(pt, b"hi");
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "alloc")]
pub struct Answers {
    public_key: PublicKey,
    recorded: Recorded,
}

/// An Auth sender's answers, collected ahead of the seal: `DH(skS, pkR)` recorded under each
/// recipient's `pkR` with [`SenderAnswers::answer`], then `SenderMode::Auth(&ExternalDh(&answers))`
/// (or `AuthPsk`) seals to those recipients. They serve no receiver, and nothing reads a
/// recorded value back. Wiped on drop; `Debug` prints none.
#[cfg(feature = "alloc")]
pub struct SenderAnswers {
    public_key: PublicKey,
    recorded: Recorded,
}

/// Recorded `(input, output)` pairs, the outputs wiped on drop; looked up only inside the
/// crate.
#[cfg(feature = "alloc")]
#[derive(Default)]
struct Recorded(alloc::vec::Vec<(alloc::vec::Vec<u8>, zeroize::Zeroizing<alloc::vec::Vec<u8>>)>);

#[cfg(feature = "alloc")]
impl Recorded {
    fn record(&mut self, input: &[u8], output: &[u8]) {
        self.0
            .push((input.to_vec(), zeroize::Zeroizing::new(output.to_vec())));
    }

    /// The answer for `input` into `out` (same length).
    fn look_up(&self, input: &[u8], out: &mut [u8]) -> Result<(), NotAnswered> {
        let (_, output) = self
            .0
            .iter()
            .find(|(asked, output)| asked.as_slice() == input && output.len() == out.len())
            .ok_or(NotAnswered)?;
        out.copy_from_slice(output);
        Ok(())
    }
}

/// The error of [`Answers`] asked about a value it has no answer for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAnswered;

impl fmt::Display for NotAnswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no answer was recorded for this value")
    }
}

impl core::error::Error for NotAnswered {}

#[cfg(feature = "alloc")]
impl Answers {
    /// No answers yet, for the receiver whose public key is `public_key`.
    pub fn new(public_key: PublicKey) -> Self {
        Self {
            public_key,
            recorded: Recorded::default(),
        }
    }

    /// Records that the holder computed `output` for `input`: `DH(skR, input)` for a peer
    /// [`Suite::dh_peers`](super::Suite::dh_peers) listed, or the shared secret of the `enc`
    /// `input`.
    pub fn answer(&mut self, input: &[u8], output: &[u8]) {
        self.recorded.record(input, output);
    }

    /// The receiver's public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public_key
    }
}

#[cfg(feature = "alloc")]
impl SenderAnswers {
    /// No answers yet, for the Auth sender whose static public key is `public_key`.
    pub fn new(public_key: PublicKey) -> Self {
        Self {
            public_key,
            recorded: Recorded::default(),
        }
    }

    /// Records `DH(skS, pk_r)`, as the holder computed it, for messages to `pk_r`.
    pub fn answer(&mut self, pk_r: &[u8], dh: &[u8]) {
        self.recorded.record(pk_r, dh);
    }

    /// The sender's static public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public_key
    }
}

#[cfg(feature = "alloc")]
impl fmt::Debug for Answers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answers")
            .field("public_key", &self.public_key)
            .field("answers", &self.recorded.0.len())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "alloc")]
impl fmt::Debug for SenderAnswers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SenderAnswers")
            .field("public_key", &self.public_key)
            .field("answers", &self.recorded.0.len())
            .finish_non_exhaustive()
    }
}

/// A receiver's answers as a receiver's key, in the forms the holders' keys take.
#[cfg(feature = "alloc")]
macro_rules! answers_as_receiver {
    ($($wrapper:ident => $arg:ident, $err:expr;)*) => {$(
        impl private::Sealed for $wrapper<&Answers> {}
        impl PrivateKeyInput for $wrapper<&Answers> {
            type Error = HeldKeyError<NotAnswered>;
            fn with_key<T>(
                &self,
                f: impl FnOnce(SkArg<'_>) -> Result<T, Error>,
            ) -> Result<T, Self::Error> {
                let answers = self.0;
                asking(
                    |input, out| answers.recorded.look_up(input, out),
                    $err,
                    |ask| f(SkArg::$arg(&answers.public_key, ask)),
                )
            }
        }
        impl HeldKey for $wrapper<&Answers> {
            fn public_key(&self) -> &PublicKey {
                &self.0.public_key
            }
            fn with_held_key(
                &self,
                f: &mut dyn FnMut(SkArg<'_>) -> Result<(), Error>,
            ) -> Result<(), HeldKeyError<BoxedHolderError>> {
                self.with_key(f).map_err(boxed)
            }
        }
    )*};
}

#[cfg(feature = "alloc")]
answers_as_receiver! {
    ExternalDh => Dh, Error::Decap;
    ExternalDecap => Decap, Error::Decap;
}

#[cfg(feature = "alloc")]
impl private::Sealed for ExternalDh<&SenderAnswers> {}
#[cfg(feature = "alloc")]
impl SenderKeyInput for ExternalDh<&SenderAnswers> {
    fn with_sender_key(
        &self,
        f: &mut dyn FnMut(SenderKeyArg<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let answers = self.0;
        let ask = |peer: &[u8], out: &mut [u8]| {
            answers
                .recorded
                .look_up(peer, out)
                .map_err(|_| Error::Encap)
        };
        f(SenderKeyArg::Dh(&answers.public_key, &ask))
    }
}
