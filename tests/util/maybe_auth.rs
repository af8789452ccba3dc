//! The authenticated modes (RFC 9180 §5.1.3, §5.1.4) behind one trait that every KEM
//! implements, so that generic test, bench and fuzz code can name them without an `AuthKem`
//! bound. The six DH-KEMs forward each call to the typed API; the post-quantum and hybrid KEMs,
//! which have no `AuthEncap`, answer `Error::UnsupportedOperation`, as the runtime API does for
//! them (the typed API does not let the call compile: `tests/compile_fail/`). In every call
//! `psk` picks the mode: `None` is Auth, `Some` is AuthPSK.
//!
//! Included by `#[path]` wherever it is used: the tests (`tests/util/modes.rs`, `kat.rs`,
//! `roundtrip.rs`) and the comparative bench. The deterministic calls need `hazmat`.

#![allow(dead_code, clippy::too_many_arguments, clippy::type_complexity)]

use typed_hpke::aead::{Aead, SealingAead, Tag};
use typed_hpke::kdf::Kdf;
#[cfg(feature = "hazmat")]
use typed_hpke::kem::RecipientKey;
use typed_hpke::kem::{
    AuthKem, DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512,
    DhKemSecp256k1HkdfSha256, DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768,
    MlKem768P256, MlKem1024, MlKem1024P384, XWing,
};
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::{
    EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext, SenderContext,
    SharedSecret,
};

/// What a sender setup returns.
pub type Sender<K, F, A> = (EncappedKey<K>, SenderContext<K, F, A>);

const NO_AUTH: Error = Error::UnsupportedOperation;

/// `AuthEncap` / `AuthDecap` and the Auth / AuthPSK functions of `Hpke`, for any KEM.
pub trait MaybeAuth: Kem {
    /// Whether the KEM has the authenticated modes.
    const AUTH: bool = false;

    fn auth_encap(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        Err(NO_AUTH)
    }
    /// `AuthEncap` with its ephemeral key derived from `ikm_e`, to a plain or prepared key.
    #[cfg(feature = "hazmat")]
    fn auth_encap_deterministic(
        _ikm_e: &[u8],
        _pk_r: &(impl RecipientKey<Self> + ?Sized),
        _sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        Err(NO_AUTH)
    }
    fn auth_decap(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<SharedSecret<Self>, Error> {
        Err(NO_AUTH)
    }
    fn setup_sender_auth<F: Kdf, A: Aead>(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        Err(NO_AUTH)
    }
    /// The sender with its ephemeral key derived from `ikm_e`, as the vectors give it.
    #[cfg(feature = "hazmat")]
    fn setup_sender_auth_deterministic<F: Kdf, A: Aead>(
        _ikm_e: &[u8],
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        Err(NO_AUTH)
    }
    fn setup_receiver_auth<F: Kdf, A: Aead>(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _psk: Option<&Psk<'_>>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<ReceiverContext<Self, F, A>, Error> {
        Err(NO_AUTH)
    }
    fn seal_auth<F: Kdf, A: SealingAead>(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _pt: &[u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, Vec<u8>), Error> {
        Err(NO_AUTH)
    }
    fn open_auth<F: Kdf, A: SealingAead>(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _ct: &[u8],
        _psk: Option<&Psk<'_>>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<Vec<u8>, Error> {
        Err(NO_AUTH)
    }
    fn seal_auth_in_place_detached<F: Kdf, A: SealingAead>(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _buf: &mut [u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, Tag<A>), Error> {
        Err(NO_AUTH)
    }
    fn open_auth_in_place_detached<F: Kdf, A: SealingAead>(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _buf: &mut [u8],
        _tag: &Tag<A>,
        _psk: Option<&Psk<'_>>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<(), Error> {
        Err(NO_AUTH)
    }
    fn seal_auth_into<F: Kdf, A: SealingAead>(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _pt: &[u8],
        _out: &mut [u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, usize), Error> {
        Err(NO_AUTH)
    }
    fn open_auth_into<F: Kdf, A: SealingAead>(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _aad: &[u8],
        _ct: &[u8],
        _out: &mut [u8],
        _psk: Option<&Psk<'_>>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<usize, Error> {
        Err(NO_AUTH)
    }
    fn send_export_auth<F: Kdf, A: Aead>(
        _rng: &mut (impl CryptoRng + ?Sized),
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _exporter_context: &[u8],
        _out: &mut [u8],
        _psk: Option<&Psk<'_>>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<EncappedKey<Self>, Error> {
        Err(NO_AUTH)
    }
    fn receive_export_auth<F: Kdf, A: Aead>(
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _exporter_context: &[u8],
        _out: &mut [u8],
        _psk: Option<&Psk<'_>>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<(), Error> {
        Err(NO_AUTH)
    }
}

/// `Hpke::$auth(pre.., post..)` without a PSK, `Hpke::$auth_psk(pre.., psk, post..)` with one.
macro_rules! auth_or_auth_psk {
    ($psk:expr, $auth:ident, $auth_psk:ident, ($($pre:expr),*), ($($post:expr),*)) => {
        match $psk {
            None => Hpke::<Self, F, A>::$auth($($pre),*, $($post),*),
            Some(p) => Hpke::<Self, F, A>::$auth_psk($($pre),*, p, $($post),*),
        }
    };
}

macro_rules! with_auth {
    ($($k:ty),*) => {$(
        impl MaybeAuth for $k {
            const AUTH: bool = true;

            fn auth_encap(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, sk_s: &PrivateKey<Self>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                <Self as AuthKem>::auth_encap(rng, pk_r, sk_s)
            }
            #[cfg(feature = "hazmat")]
            fn auth_encap_deterministic(
                ikm_e: &[u8], pk_r: &(impl RecipientKey<Self> + ?Sized), sk_s: &PrivateKey<Self>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                typed_hpke::hazmat::auth_encap_deterministic(ikm_e, pk_r, sk_s)
            }
            fn auth_decap(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, pk_s: &PublicKey<Self>,
            ) -> Result<SharedSecret<Self>, Error> {
                <Self as AuthKem>::auth_decap(enc, sk_r, pk_s)
            }
            fn setup_sender_auth<F: Kdf, A: Aead>(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, info: &[u8],
                psk: Option<&Psk<'_>>, sk_s: &PrivateKey<Self>,
            ) -> Result<Sender<Self, F, A>, Error> {
                auth_or_auth_psk!(psk, setup_sender_auth, setup_sender_auth_psk, (rng, pk_r, info), (sk_s))
            }
            #[cfg(feature = "hazmat")]
            fn setup_sender_auth_deterministic<F: Kdf, A: Aead>(
                ikm_e: &[u8], pk_r: &PublicKey<Self>, info: &[u8], psk: Option<&Psk<'_>>,
                sk_s: &PrivateKey<Self>,
            ) -> Result<Sender<Self, F, A>, Error> {
                auth_or_auth_psk!(psk, setup_sender_auth_deterministic_for_testing_only,
                    setup_sender_auth_psk_deterministic_for_testing_only, (ikm_e, pk_r, info), (sk_s))
            }
            fn setup_receiver_auth<F: Kdf, A: Aead>(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8],
                psk: Option<&Psk<'_>>, pk_s: &PublicKey<Self>,
            ) -> Result<ReceiverContext<Self, F, A>, Error> {
                auth_or_auth_psk!(psk, setup_receiver_auth, setup_receiver_auth_psk, (enc, sk_r, info), (pk_s))
            }
            fn seal_auth<F: Kdf, A: SealingAead>(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, info: &[u8], aad: &[u8],
                pt: &[u8], psk: Option<&Psk<'_>>, sk_s: &PrivateKey<Self>,
            ) -> Result<(EncappedKey<Self>, Vec<u8>), Error> {
                auth_or_auth_psk!(psk, seal_auth, seal_auth_psk, (rng, pk_r, info, aad, pt), (sk_s))
            }
            fn open_auth<F: Kdf, A: SealingAead>(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8], aad: &[u8],
                ct: &[u8], psk: Option<&Psk<'_>>, pk_s: &PublicKey<Self>,
            ) -> Result<Vec<u8>, Error> {
                auth_or_auth_psk!(psk, open_auth, open_auth_psk, (enc, sk_r, info, aad, ct), (pk_s))
            }
            fn seal_auth_in_place_detached<F: Kdf, A: SealingAead>(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, info: &[u8], aad: &[u8],
                buf: &mut [u8], psk: Option<&Psk<'_>>, sk_s: &PrivateKey<Self>,
            ) -> Result<(EncappedKey<Self>, Tag<A>), Error> {
                auth_or_auth_psk!(psk, seal_auth_in_place_detached, seal_auth_psk_in_place_detached,
                    (rng, pk_r, info, aad, buf), (sk_s))
            }
            fn open_auth_in_place_detached<F: Kdf, A: SealingAead>(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8], aad: &[u8],
                buf: &mut [u8], tag: &Tag<A>, psk: Option<&Psk<'_>>, pk_s: &PublicKey<Self>,
            ) -> Result<(), Error> {
                auth_or_auth_psk!(psk, open_auth_in_place_detached, open_auth_psk_in_place_detached,
                    (enc, sk_r, info, aad, buf, tag), (pk_s))
            }
            fn seal_auth_into<F: Kdf, A: SealingAead>(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, info: &[u8], aad: &[u8],
                pt: &[u8], out: &mut [u8], psk: Option<&Psk<'_>>, sk_s: &PrivateKey<Self>,
            ) -> Result<(EncappedKey<Self>, usize), Error> {
                auth_or_auth_psk!(psk, seal_auth_into, seal_auth_psk_into,
                    (rng, pk_r, info, aad, pt, out), (sk_s))
            }
            fn open_auth_into<F: Kdf, A: SealingAead>(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8], aad: &[u8],
                ct: &[u8], out: &mut [u8], psk: Option<&Psk<'_>>, pk_s: &PublicKey<Self>,
            ) -> Result<usize, Error> {
                auth_or_auth_psk!(psk, open_auth_into, open_auth_psk_into,
                    (enc, sk_r, info, aad, ct, out), (pk_s))
            }
            fn send_export_auth<F: Kdf, A: Aead>(
                rng: &mut (impl CryptoRng + ?Sized), pk_r: &PublicKey<Self>, info: &[u8],
                exporter_context: &[u8], out: &mut [u8], psk: Option<&Psk<'_>>,
                sk_s: &PrivateKey<Self>,
            ) -> Result<EncappedKey<Self>, Error> {
                auth_or_auth_psk!(psk, send_export_auth, send_export_auth_psk,
                    (rng, pk_r, info, exporter_context, out), (sk_s))
            }
            fn receive_export_auth<F: Kdf, A: Aead>(
                enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8],
                exporter_context: &[u8], out: &mut [u8], psk: Option<&Psk<'_>>,
                pk_s: &PublicKey<Self>,
            ) -> Result<(), Error> {
                auth_or_auth_psk!(psk, receive_export_auth, receive_export_auth_psk,
                    (enc, sk_r, info, exporter_context, out), (pk_s))
            }
        }
    )*};
}

with_auth!(
    DhKemX25519HkdfSha256,
    DhKemX448HkdfSha512,
    DhKemP256HkdfSha256,
    DhKemP384HkdfSha384,
    DhKemP521HkdfSha512,
    DhKemSecp256k1HkdfSha256
);
impl MaybeAuth for MlKem512 {}
impl MaybeAuth for MlKem768 {}
impl MaybeAuth for MlKem1024 {}
impl MaybeAuth for XWing {}
impl MaybeAuth for MlKem768P256 {}
impl MaybeAuth for MlKem1024P384 {}
