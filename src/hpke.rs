//! `Hpke<K, F, A>`: the mode-by-mode API of RFC 9180 §5.1 (setup), §6 (single-shot) and
//! §6.2 (single-shot export).
//!
//! Every mode has its own functions; what a mode does not take is not a parameter. Encryption
//! needs `A: SealingAead`, the authenticated modes need `K: AuthKem`, so misuse does not compile.
//! A receiver's private key (and an Auth sender's static key) is one in this process or one a
//! holder keeps elsewhere ([`crate::kem::DecapKey`] and its siblings): the same functions take
//! either, and the function called, never the key, decides the mode.

// `(EncappedKey<K>, SenderContext<K, F, A>)` is the RFC's `enc, ctx` pair; an alias would only
// hide it. The single-shot functions take the RFC's arguments plus the RNG and buffer.
#![allow(clippy::type_complexity, clippy::too_many_arguments)]

use core::fmt;
use core::marker::PhantomData;

use rand_core::CryptoRng;

use crate::Error;
use crate::aead::{Aead, SealingAead, Tag};
use crate::context::{ReceiverContext, SenderContext};
use crate::kdf::Kdf;
use crate::kem::{
    AuthDecapKey, AuthEncapKey, AuthKem, DecapKey, EncappedKey, Kem, PublicKey, RecipientKey,
    SharedSecret,
};
use crate::key_schedule::{Mode, key_schedule};
use crate::psk::Psk;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// `SendExport<MODE>` / `ReceiveExport<MODE>` (RFC 9180 §6.2) for one mode, over that mode's
/// setup functions. The mode's own arguments (PSK, sender keys) come last, as in the RFC.
macro_rules! single_shot_export {
    (
        $mode:literal, $setup_s:ident, $setup_r:ident,
        [$($sg:ident: $sb:path),*] [$($sa:ident: $st:ty),*] -> $se:ty,
        $rb:ident [$($ra:ident: $rt:ty),*],
        $send_export:ident, $receive_export:ident
    ) => {
        #[doc = concat!("`SendExport", $mode, "` (RFC 9180 §6.2): sets up a sender context and \
            exports `out.len()` bytes into `out`; returns `enc`. Allocates nothing.")]
        ///
        /// # Errors
        /// As the setup function; [`Error::ExportTooLong`] if `out` exceeds the KDF's limit.
        pub fn $send_export<R: CryptoRng + ?Sized $(, $sg: $sb + ?Sized)*>(
            rng: &mut R,
            pk_r: &(impl RecipientKey<K> + ?Sized),
            info: &[u8],
            exporter_context: &[u8],
            out: &mut [u8],
            $($sa: $st),*
        ) -> Result<EncappedKey<K>, $se> {
            let (enc, ctx) = Self::$setup_s(rng, pk_r, info, $($sa),*)?;
            ctx.export(exporter_context, out)?;
            Ok(enc)
        }

        #[doc = concat!("`ReceiveExport", $mode, "` (RFC 9180 §6.2): sets up a receiver \
            context and exports `out.len()` bytes into `out`. Allocates nothing.")]
        ///
        /// # Errors
        /// As the setup function; [`Error::ExportTooLong`] if `out` exceeds the KDF's limit.
        pub fn $receive_export<S: $rb<K> + ?Sized>(
            enc: &EncappedKey<K>,
            sk_r: &S,
            info: &[u8],
            exporter_context: &[u8],
            out: &mut [u8],
            $($ra: $rt),*
        ) -> Result<(), S::Error> {
            Ok(Self::$setup_r(enc, sk_r, info, $($ra),*)?.export(exporter_context, out)?)
        }
    };
}

/// `Seal<MODE>` / `Open<MODE>` (RFC 9180 §6.1) for one mode, in three shapes: `Vec`
/// (`alloc`), in place with a detached tag, and into a caller buffer.
macro_rules! single_shot_seal_open {
    (
        $mode:literal, $setup_s:ident, $setup_r:ident,
        [$($sg:ident: $sb:path),*] [$($sa:ident: $st:ty),*] -> $se:ty,
        $rb:ident [$($ra:ident: $rt:ty),*],
        $seal:ident, $open:ident, $seal_in_place:ident, $open_in_place:ident,
        $seal_into:ident, $open_into:ident
    ) => {
        #[doc = concat!("`Seal", $mode, "` (RFC 9180 §6.1): returns `enc` and `ct || tag`.")]
        ///
        /// # Errors
        /// As the setup function and [`SenderContext::seal`].
        #[cfg(feature = "alloc")]
        pub fn $seal<R: CryptoRng + ?Sized $(, $sg: $sb + ?Sized)*>(
            rng: &mut R,
            pk_r: &(impl RecipientKey<K> + ?Sized),
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            $($sa: $st),*
        ) -> Result<(EncappedKey<K>, Vec<u8>), $se> {
            let (enc, mut ctx) = Self::$setup_s(rng, pk_r, info, $($sa),*)?;
            Ok((enc, ctx.seal(aad, pt)?))
        }

        #[doc = concat!("`Open", $mode, "` (RFC 9180 §6.1): `ct` is `ciphertext || tag`; \
            returns the plaintext.")]
        ///
        /// # Errors
        /// [`Error::Decap`] or [`Error::Open`].
        #[cfg(feature = "alloc")]
        pub fn $open<S: $rb<K> + ?Sized>(
            enc: &EncappedKey<K>,
            sk_r: &S,
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
            $($ra: $rt),*
        ) -> Result<Vec<u8>, S::Error> {
            Ok(Self::$setup_r(enc, sk_r, info, $($ra),*)?.open(aad, ct)?)
        }

        #[doc = concat!("`Seal", $mode, "` in place: encrypts `buffer` and returns `enc` and \
            the tag. Allocates nothing.")]
        ///
        /// # Errors
        /// As the setup function and [`SenderContext::seal_in_place_detached`].
        pub fn $seal_in_place<R: CryptoRng + ?Sized $(, $sg: $sb + ?Sized)*>(
            rng: &mut R,
            pk_r: &(impl RecipientKey<K> + ?Sized),
            info: &[u8],
            aad: &[u8],
            buffer: &mut [u8],
            $($sa: $st),*
        ) -> Result<(EncappedKey<K>, Tag<A>), $se> {
            let (enc, mut ctx) = Self::$setup_s(rng, pk_r, info, $($sa),*)?;
            Ok((enc, ctx.seal_in_place_detached(aad, buffer)?))
        }

        #[doc = concat!("`Open", $mode, "` in place: checks `tag`, then decrypts `buffer`. \
            Allocates nothing.")]
        ///
        /// # Errors
        /// [`Error::Decap`] or [`Error::Open`].
        pub fn $open_in_place<S: $rb<K> + ?Sized>(
            enc: &EncappedKey<K>,
            sk_r: &S,
            info: &[u8],
            aad: &[u8],
            buffer: &mut [u8],
            tag: &Tag<A>,
            $($ra: $rt),*
        ) -> Result<(), S::Error> {
            Ok(Self::$setup_r(enc, sk_r, info, $($ra),*)?.open_in_place_detached(aad, buffer, tag)?)
        }

        #[doc = concat!("`Seal", $mode, "` into a caller buffer: writes `ct || tag` to the \
            front of `out`; returns `enc` and the length written. Allocates nothing.")]
        ///
        /// # Errors
        /// As the setup function and [`SenderContext::seal_into`].
        pub fn $seal_into<R: CryptoRng + ?Sized $(, $sg: $sb + ?Sized)*>(
            rng: &mut R,
            pk_r: &(impl RecipientKey<K> + ?Sized),
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            out: &mut [u8],
            $($sa: $st),*
        ) -> Result<(EncappedKey<K>, usize), $se> {
            let (enc, mut ctx) = Self::$setup_s(rng, pk_r, info, $($sa),*)?;
            Ok((enc, ctx.seal_into(aad, pt, out)?))
        }

        #[doc = concat!("`Open", $mode, "` into a caller buffer: writes the plaintext to the \
            front of `out` and returns its length. Allocates nothing.")]
        ///
        /// # Errors
        /// As the setup function and [`ReceiverContext::open_into`].
        pub fn $open_into<S: $rb<K> + ?Sized>(
            enc: &EncappedKey<K>,
            sk_r: &S,
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
            out: &mut [u8],
            $($ra: $rt),*
        ) -> Result<usize, S::Error> {
            Ok(Self::$setup_r(enc, sk_r, info, $($ra),*)?.open_into(aad, ct, out)?)
        }
    };
}

/// An HPKE ciphersuite: KEM `K`, KDF `F`, AEAD `A`. Zero-sized; every operation is an
/// associated function.
///
/// ```
/// use typed_hpke::{Hpke, aead::ChaCha20Poly1305, kdf::HkdfSha256, kem::DhKemX25519HkdfSha256};
/// assert_eq!(core::mem::size_of::<Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>>(), 0);
/// ```
pub struct Hpke<K, F, A>(PhantomData<fn() -> (K, F, A)>);

impl<K, F, A> fmt::Debug for Hpke<K, F, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hpke")
    }
}

impl<K: Kem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// The sender's half of every setup: key schedule over an encapsulation.
    fn sender(
        mode: Mode,
        encapped: (SharedSecret<K>, EncappedKey<K>),
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        let (shared_secret, enc) = encapped;
        let schedule = key_schedule::<K, F, A>(mode, shared_secret.as_bytes(), info, psk, &mut ())?;
        Ok((enc, SenderContext::new(schedule)))
    }

    /// The receiver's half of every setup.
    fn receiver(
        mode: Mode,
        shared_secret: SharedSecret<K>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<ReceiverContext<K, F, A>, Error> {
        let schedule = key_schedule::<K, F, A>(mode, shared_secret.as_bytes(), info, psk, &mut ())?;
        Ok(ReceiverContext::new(schedule))
    }

    /// `SetupBaseS(pkR, info)` (RFC 9180 §5.1.1).
    ///
    /// # Errors
    /// [`Error::Encap`] if encapsulation fails.
    pub fn setup_sender_base<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(Mode::Base, crate::kem::encap_to(rng, pk_r)?, info, None)
    }

    /// `SetupBaseR(enc, skR, info)` (RFC 9180 §5.1.1).
    ///
    /// # Errors
    /// [`Error::Decap`] if decapsulation fails.
    pub fn setup_receiver_base<S: DecapKey<K> + ?Sized>(
        enc: &EncappedKey<K>,
        sk_r: &S,
        info: &[u8],
    ) -> Result<ReceiverContext<K, F, A>, S::Error> {
        Ok(Self::receiver(
            Mode::Base,
            sk_r.decap_for(enc)?,
            info,
            None,
        )?)
    }

    /// `SetupPSKS(pkR, info, psk, psk_id)` (RFC 9180 §5.1.2).
    ///
    /// # Errors
    /// [`Error::Encap`] if encapsulation fails.
    pub fn setup_sender_psk<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        psk: &Psk<'_>,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(Mode::Psk, crate::kem::encap_to(rng, pk_r)?, info, Some(psk))
    }

    /// `SetupPSKR(enc, skR, info, psk, psk_id)` (RFC 9180 §5.1.2).
    ///
    /// # Errors
    /// [`Error::Decap`] if decapsulation fails.
    pub fn setup_receiver_psk<S: DecapKey<K> + ?Sized>(
        enc: &EncappedKey<K>,
        sk_r: &S,
        info: &[u8],
        psk: &Psk<'_>,
    ) -> Result<ReceiverContext<K, F, A>, S::Error> {
        Ok(Self::receiver(
            Mode::Psk,
            sk_r.decap_for(enc)?,
            info,
            Some(psk),
        )?)
    }

    single_shot_export! {
        "Base", setup_sender_base, setup_receiver_base, [] [] -> Error, DecapKey [],
        send_export_base, receive_export_base
    }
    single_shot_export! {
        "PSK", setup_sender_psk, setup_receiver_psk, [] [psk: &Psk<'_>] -> Error,
        DecapKey [psk: &Psk<'_>],
        send_export_psk, receive_export_psk
    }
}

impl<K: AuthKem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// `SetupAuthS(pkR, info, skS)` (RFC 9180 §5.1.3).
    ///
    /// # Errors
    /// [`Error::Encap`] if encapsulation fails.
    pub fn setup_sender_auth<R: CryptoRng + ?Sized, Q: AuthEncapKey<K> + ?Sized>(
        rng: &mut R,
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        sk_s: &Q,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Q::Error> {
        let encapped = crate::kem::auth_encap_to(rng, pk_r, sk_s)?;
        Ok(Self::sender(Mode::Auth, encapped, info, None)?)
    }

    /// `SetupAuthR(enc, skR, info, pkS)` (RFC 9180 §5.1.3).
    ///
    /// # Errors
    /// [`Error::Decap`] if decapsulation fails.
    pub fn setup_receiver_auth<S: AuthDecapKey<K> + ?Sized>(
        enc: &EncappedKey<K>,
        sk_r: &S,
        info: &[u8],
        pk_s: &PublicKey<K>,
    ) -> Result<ReceiverContext<K, F, A>, S::Error> {
        let shared_secret = sk_r.auth_decap_for(enc, pk_s)?;
        Ok(Self::receiver(Mode::Auth, shared_secret, info, None)?)
    }

    /// `SetupAuthPSKS(pkR, info, psk, psk_id, skS)` (RFC 9180 §5.1.4).
    ///
    /// # Errors
    /// [`Error::Encap`] if encapsulation fails.
    pub fn setup_sender_auth_psk<R: CryptoRng + ?Sized, Q: AuthEncapKey<K> + ?Sized>(
        rng: &mut R,
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        psk: &Psk<'_>,
        sk_s: &Q,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Q::Error> {
        let encapped = crate::kem::auth_encap_to(rng, pk_r, sk_s)?;
        Ok(Self::sender(Mode::AuthPsk, encapped, info, Some(psk))?)
    }

    /// `SetupAuthPSKR(enc, skR, info, psk, psk_id, pkS)` (RFC 9180 §5.1.4).
    ///
    /// # Errors
    /// [`Error::Decap`] if decapsulation fails.
    pub fn setup_receiver_auth_psk<S: AuthDecapKey<K> + ?Sized>(
        enc: &EncappedKey<K>,
        sk_r: &S,
        info: &[u8],
        psk: &Psk<'_>,
        pk_s: &PublicKey<K>,
    ) -> Result<ReceiverContext<K, F, A>, S::Error> {
        let shared_secret = sk_r.auth_decap_for(enc, pk_s)?;
        Ok(Self::receiver(
            Mode::AuthPsk,
            shared_secret,
            info,
            Some(psk),
        )?)
    }

    single_shot_export! {
        "Auth", setup_sender_auth, setup_receiver_auth,
        [Q: AuthEncapKey<K>] [sk_s: &Q] -> Q::Error, AuthDecapKey [pk_s: &PublicKey<K>],
        send_export_auth, receive_export_auth
    }
    single_shot_export! {
        "AuthPSK", setup_sender_auth_psk, setup_receiver_auth_psk,
        [Q: AuthEncapKey<K>] [psk: &Psk<'_>, sk_s: &Q] -> Q::Error,
        AuthDecapKey [psk: &Psk<'_>, pk_s: &PublicKey<K>],
        send_export_auth_psk, receive_export_auth_psk
    }
}

impl<K: Kem, F: Kdf, A: SealingAead> Hpke<K, F, A> {
    single_shot_seal_open! {
        "Base", setup_sender_base, setup_receiver_base, [] [] -> Error, DecapKey [],
        seal_base, open_base, seal_base_in_place_detached, open_base_in_place_detached,
        seal_base_into, open_base_into
    }
    single_shot_seal_open! {
        "PSK", setup_sender_psk, setup_receiver_psk, [] [psk: &Psk<'_>] -> Error,
        DecapKey [psk: &Psk<'_>],
        seal_psk, open_psk, seal_psk_in_place_detached, open_psk_in_place_detached,
        seal_psk_into, open_psk_into
    }
}

/// Multi-recipient seal.
#[cfg(feature = "alloc")]
impl<K: Kem, F: Kdf, A: SealingAead> Hpke<K, F, A> {
    /// `SealBase` to many recipients at once, the shape of an MLS Welcome (RFC 9420
    /// §12.4.3.1): returns one `(enc, ct || tag)` per recipient, in order. `plaintexts` holds
    /// either one plaintext for every recipient or one per recipient.
    ///
    /// Each recipient's encapsulation draws from its own generator: 32 bytes taken from `rng`
    /// (one draw per recipient, in order, before any sealing) and expanded with SHAKE256. The
    /// output therefore does not depend on the `rayon` feature, which spreads the recipients
    /// over rayon's thread pool. Recipients may be [`PublicKey`]s, prepared keys or references
    /// to either.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `plaintexts` has neither one entry nor one per recipient;
    /// otherwise the first error of [`Self::seal_base`], for any recipient.
    pub fn seal_base_many<R: CryptoRng + ?Sized, P: RecipientKey<K> + Sync>(
        rng: &mut R,
        recipients: &[P],
        info: &[u8],
        aad: &[u8],
        plaintexts: &[&[u8]],
    ) -> Result<Vec<(EncappedKey<K>, Vec<u8>)>, Error> {
        crate::rng::seal_many(rng, recipients.len(), plaintexts, |i, rng, pt| {
            Self::seal_base(rng, &recipients[i], info, aad, pt)
        })
    }
}

impl<K: AuthKem, F: Kdf, A: SealingAead> Hpke<K, F, A> {
    single_shot_seal_open! {
        "Auth", setup_sender_auth, setup_receiver_auth,
        [Q: AuthEncapKey<K>] [sk_s: &Q] -> Q::Error, AuthDecapKey [pk_s: &PublicKey<K>],
        seal_auth, open_auth, seal_auth_in_place_detached, open_auth_in_place_detached,
        seal_auth_into, open_auth_into
    }
    single_shot_seal_open! {
        "AuthPSK", setup_sender_auth_psk, setup_receiver_auth_psk,
        [Q: AuthEncapKey<K>] [psk: &Psk<'_>, sk_s: &Q] -> Q::Error,
        AuthDecapKey [psk: &Psk<'_>, pk_s: &PublicKey<K>],
        seal_auth_psk, open_auth_psk, seal_auth_psk_in_place_detached,
        open_auth_psk_in_place_detached, seal_auth_psk_into, open_auth_psk_into
    }
}

/// Deterministic setup and key schedule inspection for known-answer tests.
#[cfg(feature = "hazmat")]
impl<K: Kem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// `SetupBaseS` with the ephemeral randomness fixed by `ikm_e`. Never in production: a
    /// repeated `ikm_e` repeats the ephemeral key.
    #[doc(hidden)]
    pub fn setup_sender_base_deterministic_for_testing_only(
        ikm_e: &[u8],
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(
            Mode::Base,
            crate::hazmat::encap_deterministic(ikm_e, pk_r)?,
            info,
            None,
        )
    }

    /// `SetupPSKS` with the ephemeral randomness fixed by `ikm_e`. Never in production.
    #[doc(hidden)]
    pub fn setup_sender_psk_deterministic_for_testing_only(
        ikm_e: &[u8],
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        psk: &Psk<'_>,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(
            Mode::Psk,
            crate::hazmat::encap_deterministic(ikm_e, pk_r)?,
            info,
            Some(psk),
        )
    }

    /// [`hazmat::key_schedule_values`](crate::hazmat::key_schedule_values) for this suite.
    ///
    /// # Errors
    /// As that function.
    #[doc(hidden)]
    pub fn key_schedule_for_testing_only(
        mode: u8,
        shared_secret: &[u8],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<crate::hazmat::KeyScheduleValues, Error> {
        crate::hazmat::key_schedule_values::<K, F, A>(mode, shared_secret, info, psk)
    }
}

/// Deterministic authenticated setup for known-answer tests.
#[cfg(feature = "hazmat")]
impl<K: AuthKem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// `SetupAuthS` with the ephemeral randomness fixed by `ikm_e`. Never in production.
    #[doc(hidden)]
    pub fn setup_sender_auth_deterministic_for_testing_only(
        ikm_e: &[u8],
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        sk_s: &crate::PrivateKey<K>,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(
            Mode::Auth,
            crate::hazmat::auth_encap_deterministic(ikm_e, pk_r, sk_s)?,
            info,
            None,
        )
    }

    /// `SetupAuthPSKS` with the ephemeral randomness fixed by `ikm_e`. Never in production.
    #[doc(hidden)]
    pub fn setup_sender_auth_psk_deterministic_for_testing_only(
        ikm_e: &[u8],
        pk_r: &(impl RecipientKey<K> + ?Sized),
        info: &[u8],
        psk: &Psk<'_>,
        sk_s: &crate::PrivateKey<K>,
    ) -> Result<(EncappedKey<K>, SenderContext<K, F, A>), Error> {
        Self::sender(
            Mode::AuthPsk,
            crate::hazmat::auth_encap_deterministic(ikm_e, pk_r, sk_s)?,
            info,
            Some(psk),
        )
    }
}
