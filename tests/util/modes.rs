//! Our side of a differential cell: the four modes behind one runtime `Mode`, and sealing
//! behind one `OurAead` (ExportOnly has no seal). The authenticated modes go through
//! `maybe_auth.rs`, which a test including this file includes too.

#![allow(dead_code)]

use rand_chacha::rand_core::CryptoRng;
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::Kem;
use typed_hpke::{
    EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext, SenderContext,
};

use crate::maybe_auth::MaybeAuth;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Base,
    Psk,
    Auth,
    AuthPsk,
}

impl Mode {
    pub fn from_id(id: u8) -> Self {
        match id {
            0 => Mode::Base,
            1 => Mode::Psk,
            2 => Mode::Auth,
            3 => Mode::AuthPsk,
            _ => panic!("mode {id}"),
        }
    }

    pub fn id(self) -> u8 {
        self as u8
    }

    pub fn has_psk(self) -> bool {
        matches!(self, Mode::Psk | Mode::AuthPsk)
    }

    pub fn is_auth(self) -> bool {
        matches!(self, Mode::Auth | Mode::AuthPsk)
    }

    /// `Some(psk)` in the PSK modes.
    pub fn psk<'a>(self, psk: &'a Psk<'a>) -> Option<&'a Psk<'a>> {
        self.has_psk().then_some(psk)
    }
}

pub use crate::maybe_auth::Sender;

/// Setup in any mode. `psk` and the sender's key are ignored by the modes that take none; the
/// authenticated modes go through [`MaybeAuth`] (the matrices list no auth cell for a KEM
/// without them).
pub trait Ours: MaybeAuth {
    fn sender<F: Kdf, A: Aead, R: CryptoRng>(
        mode: Mode,
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        info: &[u8],
        psk: &Psk<'_>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        match mode {
            Mode::Base => Hpke::<Self, F, A>::setup_sender_base(rng, pk_r, info),
            Mode::Psk => Hpke::<Self, F, A>::setup_sender_psk(rng, pk_r, info, psk),
            _ => Self::setup_sender_auth(rng, pk_r, info, mode.psk(psk), sk_s),
        }
    }

    /// The sender with its ephemeral randomness given: `ikm_e` as the deterministic
    /// encapsulation of the KAT vectors takes it.
    fn sender_deterministic<F: Kdf, A: Aead>(
        mode: Mode,
        ikm_e: &[u8],
        pk_r: &PublicKey<Self>,
        info: &[u8],
        psk: &Psk<'_>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        match mode {
            Mode::Base => Hpke::<Self, F, A>::setup_sender_base_deterministic_for_testing_only(
                ikm_e, pk_r, info,
            ),
            Mode::Psk => Hpke::<Self, F, A>::setup_sender_psk_deterministic_for_testing_only(
                ikm_e, pk_r, info, psk,
            ),
            _ => Self::setup_sender_auth_deterministic(ikm_e, pk_r, info, mode.psk(psk), sk_s),
        }
    }

    fn receiver<F: Kdf, A: Aead>(
        mode: Mode,
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        psk: &Psk<'_>,
        pk_s: &PublicKey<Self>,
    ) -> Result<ReceiverContext<Self, F, A>, Error> {
        match mode {
            Mode::Base => Hpke::<Self, F, A>::setup_receiver_base(enc, sk_r, info),
            Mode::Psk => Hpke::<Self, F, A>::setup_receiver_psk(enc, sk_r, info, psk),
            _ => Self::setup_receiver_auth(enc, sk_r, info, mode.psk(psk), pk_s),
        }
    }
}

impl<K: MaybeAuth> Ours for K {}

/// Seal and open through a context, or `None` for ExportOnly.
pub trait OurAead: Aead {
    const SEALS: bool;
    fn seal<K: Kem, F: Kdf>(
        ctx: &mut SenderContext<K, F, Self>,
        aad: &[u8],
        pt: &[u8],
    ) -> Option<Result<Vec<u8>, Error>>;
    fn open<K: Kem, F: Kdf>(
        ctx: &mut ReceiverContext<K, F, Self>,
        aad: &[u8],
        ct: &[u8],
    ) -> Option<Result<Vec<u8>, Error>>;
}

macro_rules! sealing {
    ($($a:ty),*) => {$(
        impl OurAead for $a {
            const SEALS: bool = true;
            fn seal<K: Kem, F: Kdf>(
                ctx: &mut SenderContext<K, F, Self>, aad: &[u8], pt: &[u8],
            ) -> Option<Result<Vec<u8>, Error>> {
                Some(ctx.seal(aad, pt))
            }
            fn open<K: Kem, F: Kdf>(
                ctx: &mut ReceiverContext<K, F, Self>, aad: &[u8], ct: &[u8],
            ) -> Option<Result<Vec<u8>, Error>> {
                Some(ctx.open(aad, ct))
            }
        }
    )*};
}

sealing!(Aes128Gcm, Aes256Gcm, ChaCha20Poly1305);

impl OurAead for ExportOnly {
    const SEALS: bool = false;
    fn seal<K: Kem, F: Kdf>(
        _: &mut SenderContext<K, F, Self>,
        _: &[u8],
        _: &[u8],
    ) -> Option<Result<Vec<u8>, Error>> {
        None
    }
    fn open<K: Kem, F: Kdf>(
        _: &mut ReceiverContext<K, F, Self>,
        _: &[u8],
        _: &[u8],
    ) -> Option<Result<Vec<u8>, Error>> {
        None
    }
}
