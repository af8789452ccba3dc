//! hpke-ng's authenticated modes behind one trait that every hpke-ng KEM implements: its six
//! DH-KEMs forward each call to hpke-ng, its post-quantum KEMs answer `None` (hpke-ng has no
//! authenticated mode for them). In the setups `psk` picks the mode: `None` is Auth, `Some` is
//! AuthPSK.
//!
//! Included by `#[path]` by the tests (`measure/tests/util/peers.rs` through `measure/tests/differential.rs`)
//! and the comparative bench (`measure/src/compare/hpke_ng.rs`).

#![allow(dead_code, clippy::type_complexity)]

use hpke_ng::{Aead, AuthKem, Hpke, HpkeError, Kdf, Kem, Psk, ReceiverContext, SenderContext};
use rand_chacha::ChaCha20Rng;

/// `AuthEncap` / `AuthDecap` and the Auth / AuthPSK setups, for any hpke-ng KEM.
pub trait NgMaybeAuth: Kem + Sized + 'static {
    fn auth_encap(
        _rng: &mut ChaCha20Rng,
        _pk_r: &Self::PublicKey,
        _sk_s: &Self::PrivateKey,
    ) -> Option<Result<(Self::SharedSecret, Self::EncappedKey), HpkeError>> {
        None
    }
    fn auth_decap(
        _enc: &Self::EncappedKey,
        _sk_r: &Self::PrivateKey,
        _pk_s: &Self::PublicKey,
    ) -> Option<Result<Self::SharedSecret, HpkeError>> {
        None
    }
    fn setup_sender_auth<F: Kdf, A: Aead>(
        _rng: &mut ChaCha20Rng,
        _pk_r: &Self::PublicKey,
        _info: &[u8],
        _psk: Option<Psk<'_>>,
        _sk_s: &Self::PrivateKey,
    ) -> Option<Result<(Self::EncappedKey, SenderContext<Self, F, A>), HpkeError>> {
        None
    }
    fn setup_receiver_auth<F: Kdf, A: Aead>(
        _enc: &Self::EncappedKey,
        _sk_r: &Self::PrivateKey,
        _info: &[u8],
        _psk: Option<Psk<'_>>,
        _pk_s: &Self::PublicKey,
    ) -> Option<Result<ReceiverContext<Self, F, A>, HpkeError>> {
        None
    }
}

macro_rules! ng_auth {
    ($($k:ty),*) => {$(
        impl NgMaybeAuth for $k {
            fn auth_encap(
                rng: &mut ChaCha20Rng, pk_r: &Self::PublicKey, sk_s: &Self::PrivateKey,
            ) -> Option<Result<(Self::SharedSecret, Self::EncappedKey), HpkeError>> {
                Some(<Self as AuthKem>::auth_encap(rng, pk_r, sk_s))
            }
            fn auth_decap(
                enc: &Self::EncappedKey, sk_r: &Self::PrivateKey, pk_s: &Self::PublicKey,
            ) -> Option<Result<Self::SharedSecret, HpkeError>> {
                Some(<Self as AuthKem>::auth_decap(enc, sk_r, pk_s))
            }
            fn setup_sender_auth<F: Kdf, A: Aead>(
                rng: &mut ChaCha20Rng, pk_r: &Self::PublicKey, info: &[u8], psk: Option<Psk<'_>>,
                sk_s: &Self::PrivateKey,
            ) -> Option<Result<(Self::EncappedKey, SenderContext<Self, F, A>), HpkeError>> {
                Some(match psk {
                    None => Hpke::<Self, F, A>::setup_sender_auth(rng, pk_r, info, sk_s),
                    Some(psk) => Hpke::<Self, F, A>::setup_sender_auth_psk(rng, pk_r, info, psk, sk_s),
                })
            }
            fn setup_receiver_auth<F: Kdf, A: Aead>(
                enc: &Self::EncappedKey, sk_r: &Self::PrivateKey, info: &[u8], psk: Option<Psk<'_>>,
                pk_s: &Self::PublicKey,
            ) -> Option<Result<ReceiverContext<Self, F, A>, HpkeError>> {
                Some(match psk {
                    None => Hpke::<Self, F, A>::setup_receiver_auth(enc, sk_r, info, pk_s),
                    Some(psk) => Hpke::<Self, F, A>::setup_receiver_auth_psk(enc, sk_r, info, psk, pk_s),
                })
            }
        }
    )*};
}

ng_auth!(
    hpke_ng::DhKemX25519HkdfSha256,
    hpke_ng::DhKemX448HkdfSha512,
    hpke_ng::DhKemP256HkdfSha256,
    hpke_ng::DhKemP384HkdfSha384,
    hpke_ng::DhKemP521HkdfSha512,
    hpke_ng::DhKemK256HkdfSha256
);
impl NgMaybeAuth for hpke_ng::MlKem768 {}
impl NgMaybeAuth for hpke_ng::MlKem1024 {}
impl NgMaybeAuth for hpke_ng::XWingDraft06 {}
