//! Our side of a differential cell: the four modes behind one runtime `Mode`, and sealing
//! behind one `OurAead` (ExportOnly has no seal). Auth modes only exist for `AuthKem`s; the
//! defaults are never reached because the matrix lists no auth cells for the other KEMs.

#![allow(dead_code)]

use rand_chacha::rand_core::CryptoRng;
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly};
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};
use typed_hpke::{
    EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext, SenderContext,
};

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
}

pub type Sender<K, F, A> = (EncappedKey<K>, SenderContext<K, F, A>);

/// Setup in any mode. `psk` and the sender's key are ignored by the modes that take none.
pub trait Ours: Kem {
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
            Mode::Auth | Mode::AuthPsk => Self::auth_sender(mode, rng, pk_r, info, psk, sk_s),
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
            Mode::Auth | Mode::AuthPsk => {
                Self::auth_sender_deterministic(mode, ikm_e, pk_r, info, psk, sk_s)
            }
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
            Mode::Auth | Mode::AuthPsk => Self::auth_receiver(mode, enc, sk_r, info, psk, pk_s),
        }
    }

    fn auth_sender<F: Kdf, A: Aead, R: CryptoRng>(
        _mode: Mode,
        _rng: &mut R,
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _psk: &Psk<'_>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        unreachable!("no auth modes for this KEM")
    }

    fn auth_sender_deterministic<F: Kdf, A: Aead>(
        _mode: Mode,
        _ikm_e: &[u8],
        _pk_r: &PublicKey<Self>,
        _info: &[u8],
        _psk: &Psk<'_>,
        _sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        unreachable!("no auth modes for this KEM")
    }

    fn auth_receiver<F: Kdf, A: Aead>(
        _mode: Mode,
        _enc: &EncappedKey<Self>,
        _sk_r: &PrivateKey<Self>,
        _info: &[u8],
        _psk: &Psk<'_>,
        _pk_s: &PublicKey<Self>,
    ) -> Result<ReceiverContext<Self, F, A>, Error> {
        unreachable!("no auth modes for this KEM")
    }
}

macro_rules! with_auth {
    ($($k:ty),*) => {$(
        impl Ours for $k {
            fn auth_sender<F: Kdf, A: Aead, R: CryptoRng>(
                mode: Mode, rng: &mut R, pk_r: &PublicKey<Self>, info: &[u8], psk: &Psk<'_>,
                sk_s: &PrivateKey<Self>,
            ) -> Result<Sender<Self, F, A>, Error> {
                if mode == Mode::Auth {
                    Hpke::<Self, F, A>::setup_sender_auth(rng, pk_r, info, sk_s)
                } else {
                    Hpke::<Self, F, A>::setup_sender_auth_psk(rng, pk_r, info, psk, sk_s)
                }
            }
            fn auth_sender_deterministic<F: Kdf, A: Aead>(
                mode: Mode, ikm_e: &[u8], pk_r: &PublicKey<Self>, info: &[u8], psk: &Psk<'_>,
                sk_s: &PrivateKey<Self>,
            ) -> Result<Sender<Self, F, A>, Error> {
                if mode == Mode::Auth {
                    Hpke::<Self, F, A>::setup_sender_auth_deterministic_for_testing_only(
                        ikm_e, pk_r, info, sk_s,
                    )
                } else {
                    Hpke::<Self, F, A>::setup_sender_auth_psk_deterministic_for_testing_only(
                        ikm_e, pk_r, info, psk, sk_s,
                    )
                }
            }
            fn auth_receiver<F: Kdf, A: Aead>(
                mode: Mode, enc: &EncappedKey<Self>, sk_r: &PrivateKey<Self>, info: &[u8],
                psk: &Psk<'_>, pk_s: &PublicKey<Self>,
            ) -> Result<ReceiverContext<Self, F, A>, Error> {
                if mode == Mode::Auth {
                    Hpke::<Self, F, A>::setup_receiver_auth(enc, sk_r, info, pk_s)
                } else {
                    Hpke::<Self, F, A>::setup_receiver_auth_psk(enc, sk_r, info, psk, pk_s)
                }
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
impl Ours for MlKem512 {}
impl Ours for MlKem768 {}
impl Ours for MlKem1024 {}
impl Ours for XWing {}
impl Ours for MlKem768P256 {}
impl Ours for MlKem1024P384 {}

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
