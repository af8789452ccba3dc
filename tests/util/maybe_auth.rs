//! The authenticated modes (RFC 9180 §5.1.3, §5.1.4) behind one trait that every KEM
//! implements, so that generic test, bench and fuzz code can name them without an `AuthKem`
//! bound. A DH-KEM's call goes to the typed API; a post-quantum or hybrid KEM, which has no
//! `AuthEncap`, answers `Error::UnsupportedOperation`, as the runtime API does (the typed API
//! does not let the call compile: `tests/compile_fail/`). In every call `psk` picks the mode:
//! `None` is Auth, `Some` is AuthPSK.
//!
//! No list of KEMs: whether `K` has the Auth modes, and `K` as an `AuthKem`, come from the
//! library (`Kem::visit_auth`), which visits `K` itself; `same` and `same_ref` hand values
//! across under that name (a failed cast would panic, not pass).
//!
//! Included by `#[path]` by the tests that use it (`tests/util/modes.rs`, `kat.rs`,
//! `roundtrip.rs`, `suite.rs`). The deterministic calls need `hazmat`.

#![allow(dead_code, clippy::too_many_arguments, clippy::type_complexity)]

use std::any::Any;
use std::marker::PhantomData;

use typed_hpke::aead::{Aead, SealingAead, Tag};
use typed_hpke::kdf::Kdf;
use typed_hpke::kem::{AuthKem, Kem};
#[cfg(feature = "hazmat")]
use typed_hpke::kem::{PreparedPublicKey, RecipientKey};
use typed_hpke::rand_core::CryptoRng;
use typed_hpke::suite::AuthKemVisitor;
use typed_hpke::{
    EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey, ReceiverContext, SenderContext,
    SharedSecret,
};

/// What a sender setup returns.
pub type Sender<K, F, A> = (EncappedKey<K>, SenderContext<K, F, A>);

/// `value` under the name `U` of its own type.
fn same<T: 'static, U: 'static>(value: T) -> U {
    let mut slot = Some(value);
    (&mut slot as &mut dyn Any)
        .downcast_mut::<Option<U>>()
        .and_then(Option::take)
        .expect("one type per KEM id")
}

/// `value` under the name `U` of its own type.
fn same_ref<T: 'static, U: 'static>(value: &T) -> &U {
    (value as &dyn Any)
        .downcast_ref()
        .expect("one type per KEM id")
}

/// `op.visit::<K>()` with `K` as an `AuthKem` (`Kem::visit_auth`, compiled for `K` alone), or
/// `UnsupportedOperation` for a KEM without the Auth modes.
fn auth<K: Kem, T, V: AuthKemVisitor<Output = Result<T, Error>>>(op: V) -> Result<T, Error> {
    K::visit_auth(op).unwrap_or(Err(Error::UnsupportedOperation))
}

/// `AuthEncap` / `AuthDecap` and the Auth / AuthPSK functions of `Hpke`, for any KEM. Each
/// call is a visitor of its own (`Op`), whose `visit::<J>()` runs the typed call as `J`.
pub trait MaybeAuth: Kem {
    /// Whether the KEM has the authenticated modes.
    fn auth() -> bool {
        struct Has;
        impl AuthKemVisitor for Has {
            type Output = ();
            fn visit<K: AuthKem>(self) {}
        }
        Self::visit_auth(Has).is_some()
    }

    fn auth_encap(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        struct Op<'a, K: Kem, R: ?Sized>(&'a mut R, &'a PublicKey<K>, &'a PrivateKey<K>);
        impl<K: Kem, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, R> {
            type Output = Result<(SharedSecret<K>, EncappedKey<K>), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, sk_s) = self;
                same(J::auth_encap(rng, same_ref(pk_r), same_ref(sk_s)))
            }
        }
        auth::<Self, _, _>(Op(rng, pk_r, sk_s))
    }

    /// `AuthEncap` with its ephemeral key derived from `ikm_e`, to a plain or prepared key.
    #[cfg(feature = "hazmat")]
    fn auth_encap_deterministic<P: RecipientKey<Self> + 'static>(
        ikm_e: &[u8],
        pk_r: &P,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        struct Op<'a, K: Kem, P>(&'a [u8], &'a P, &'a PrivateKey<K>);
        impl<K: Kem, P: 'static> AuthKemVisitor for Op<'_, K, P> {
            type Output = Result<(SharedSecret<K>, EncappedKey<K>), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                use typed_hpke::hazmat::auth_encap_deterministic as encap;
                let Op(ikm_e, pk_r, sk_s) = self;
                let pk_r = pk_r as &dyn Any;
                same(match pk_r.downcast_ref::<PublicKey<J>>() {
                    Some(pk) => encap(ikm_e, pk, same_ref(sk_s)),
                    None => {
                        let prepared = pk_r.downcast_ref::<PreparedPublicKey<J>>();
                        encap(
                            ikm_e,
                            prepared.expect("a plain or prepared key"),
                            same_ref(sk_s),
                        )
                    }
                })
            }
        }
        auth::<Self, _, _>(Op(ikm_e, pk_r, sk_s))
    }

    fn auth_decap(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        pk_s: &PublicKey<Self>,
    ) -> Result<SharedSecret<Self>, Error> {
        struct Op<'a, K: Kem>(&'a EncappedKey<K>, &'a PrivateKey<K>, &'a PublicKey<K>);
        impl<K: Kem> AuthKemVisitor for Op<'_, K> {
            type Output = Result<SharedSecret<K>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, pk_s) = self;
                same(J::auth_decap(same_ref(enc), same_ref(sk_r), same_ref(pk_s)))
            }
        }
        auth::<Self, _, _>(Op(enc, sk_r, pk_s))
    }

    fn setup_sender_auth<F: Kdf, A: Aead>(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        struct Op<'a, K: Kem, F, A, R: ?Sized>(
            &'a mut R,
            &'a PublicKey<K>,
            &'a [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: Aead, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, F, A, R> {
            type Output = Result<Sender<K, F, A>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, info, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::setup_sender_auth(rng, pk_r, info, sk_s),
                    Some(psk) => Hpke::<J, F, A>::setup_sender_auth_psk(rng, pk_r, info, psk, sk_s),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A, _>(rng, pk_r, info, psk, sk_s, PhantomData))
    }

    /// The sender with its ephemeral key derived from `ikm_e`, as the vectors give it.
    #[cfg(feature = "hazmat")]
    fn setup_sender_auth_deterministic<F: Kdf, A: Aead>(
        ikm_e: &[u8],
        pk_r: &PublicKey<Self>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<Sender<Self, F, A>, Error> {
        struct Op<'a, K: Kem, F, A>(
            &'a [u8],
            &'a PublicKey<K>,
            &'a [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: Aead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<Sender<K, F, A>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(ikm_e, pk_r, info, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::setup_sender_auth_deterministic_for_testing_only(
                        ikm_e, pk_r, info, sk_s,
                    ),
                    Some(psk) => {
                        Hpke::<J, F, A>::setup_sender_auth_psk_deterministic_for_testing_only(
                            ikm_e, pk_r, info, psk, sk_s,
                        )
                    }
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(ikm_e, pk_r, info, psk, sk_s, PhantomData))
    }

    fn setup_receiver_auth<F: Kdf, A: Aead>(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        pk_s: &PublicKey<Self>,
    ) -> Result<ReceiverContext<Self, F, A>, Error> {
        struct Op<'a, K: Kem, F, A>(
            &'a EncappedKey<K>,
            &'a PrivateKey<K>,
            &'a [u8],
            Option<&'a Psk<'a>>,
            &'a PublicKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: Aead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<ReceiverContext<K, F, A>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, info, psk, pk_s, _) = self;
                let (enc, sk_r, pk_s): (&EncappedKey<J>, &PrivateKey<J>, &PublicKey<J>) =
                    (same_ref(enc), same_ref(sk_r), same_ref(pk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::setup_receiver_auth(enc, sk_r, info, pk_s),
                    Some(psk) => {
                        Hpke::<J, F, A>::setup_receiver_auth_psk(enc, sk_r, info, psk, pk_s)
                    }
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(enc, sk_r, info, psk, pk_s, PhantomData))
    }

    fn seal_auth<F: Kdf, A: SealingAead>(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, Vec<u8>), Error> {
        struct Op<'a, K: Kem, F, A, R: ?Sized>(
            &'a mut R,
            &'a PublicKey<K>,
            &'a [u8],
            &'a [u8],
            &'a [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, F, A, R> {
            type Output = Result<(EncappedKey<K>, Vec<u8>), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, info, aad, pt, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::seal_auth(rng, pk_r, info, aad, pt, sk_s),
                    Some(psk) => {
                        Hpke::<J, F, A>::seal_auth_psk(rng, pk_r, info, aad, pt, psk, sk_s)
                    }
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A, _>(
            rng,
            pk_r,
            info,
            aad,
            pt,
            psk,
            sk_s,
            PhantomData,
        ))
    }

    fn open_auth<F: Kdf, A: SealingAead>(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: Option<&Psk<'_>>,
        pk_s: &PublicKey<Self>,
    ) -> Result<Vec<u8>, Error> {
        struct Op<'a, K: Kem, F, A>(
            &'a EncappedKey<K>,
            &'a PrivateKey<K>,
            &'a [u8],
            &'a [u8],
            &'a [u8],
            Option<&'a Psk<'a>>,
            &'a PublicKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<Vec<u8>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, info, aad, ct, psk, pk_s, _) = self;
                let (enc, sk_r, pk_s): (&EncappedKey<J>, &PrivateKey<J>, &PublicKey<J>) =
                    (same_ref(enc), same_ref(sk_r), same_ref(pk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::open_auth(enc, sk_r, info, aad, ct, pk_s),
                    Some(psk) => {
                        Hpke::<J, F, A>::open_auth_psk(enc, sk_r, info, aad, ct, psk, pk_s)
                    }
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(
            enc,
            sk_r,
            info,
            aad,
            ct,
            psk,
            pk_s,
            PhantomData,
        ))
    }

    fn seal_auth_in_place_detached<F: Kdf, A: SealingAead>(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        info: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, Tag<A>), Error> {
        struct Op<'a, K: Kem, F, A, R: ?Sized>(
            &'a mut R,
            &'a PublicKey<K>,
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, F, A, R> {
            type Output = Result<(EncappedKey<K>, Tag<A>), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, info, aad, buf, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::seal_auth_in_place_detached(
                        rng, pk_r, info, aad, buf, sk_s,
                    ),
                    Some(psk) => Hpke::<J, F, A>::seal_auth_psk_in_place_detached(
                        rng, pk_r, info, aad, buf, psk, sk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A, _>(
            rng,
            pk_r,
            info,
            aad,
            buf,
            psk,
            sk_s,
            PhantomData,
        ))
    }

    fn open_auth_in_place_detached<F: Kdf, A: SealingAead>(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag<A>,
        psk: Option<&Psk<'_>>,
        pk_s: &PublicKey<Self>,
    ) -> Result<(), Error> {
        struct Op<'a, K: Kem, F, A: SealingAead>(
            &'a EncappedKey<K>,
            &'a PrivateKey<K>,
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            &'a Tag<A>,
            Option<&'a Psk<'a>>,
            &'a PublicKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<(), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, info, aad, buf, tag, psk, pk_s, _) = self;
                let (enc, sk_r, pk_s): (&EncappedKey<J>, &PrivateKey<J>, &PublicKey<J>) =
                    (same_ref(enc), same_ref(sk_r), same_ref(pk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::open_auth_in_place_detached(
                        enc, sk_r, info, aad, buf, tag, pk_s,
                    ),
                    Some(psk) => Hpke::<J, F, A>::open_auth_psk_in_place_detached(
                        enc, sk_r, info, aad, buf, tag, psk, pk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(
            enc,
            sk_r,
            info,
            aad,
            buf,
            tag,
            psk,
            pk_s,
            PhantomData,
        ))
    }

    fn seal_auth_into<F: Kdf, A: SealingAead>(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(EncappedKey<Self>, usize), Error> {
        struct Op<'a, K: Kem, F, A, R: ?Sized>(
            &'a mut R,
            &'a PublicKey<K>,
            &'a [u8],
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, F, A, R> {
            type Output = Result<(EncappedKey<K>, usize), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, info, aad, pt, out, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::seal_auth_into(rng, pk_r, info, aad, pt, out, sk_s),
                    Some(psk) => Hpke::<J, F, A>::seal_auth_psk_into(
                        rng, pk_r, info, aad, pt, out, psk, sk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A, _>(
            rng,
            pk_r,
            info,
            aad,
            pt,
            out,
            psk,
            sk_s,
            PhantomData,
        ))
    }

    fn open_auth_into<F: Kdf, A: SealingAead>(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        pk_s: &PublicKey<Self>,
    ) -> Result<usize, Error> {
        struct Op<'a, K: Kem, F, A>(
            &'a EncappedKey<K>,
            &'a PrivateKey<K>,
            &'a [u8],
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            Option<&'a Psk<'a>>,
            &'a PublicKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: SealingAead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<usize, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, info, aad, ct, out, psk, pk_s, _) = self;
                let (enc, sk_r, pk_s): (&EncappedKey<J>, &PrivateKey<J>, &PublicKey<J>) =
                    (same_ref(enc), same_ref(sk_r), same_ref(pk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::open_auth_into(enc, sk_r, info, aad, ct, out, pk_s),
                    Some(psk) => Hpke::<J, F, A>::open_auth_psk_into(
                        enc, sk_r, info, aad, ct, out, psk, pk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(
            enc,
            sk_r,
            info,
            aad,
            ct,
            out,
            psk,
            pk_s,
            PhantomData,
        ))
    }

    fn send_export_auth<F: Kdf, A: Aead>(
        rng: &mut (impl CryptoRng + ?Sized),
        pk_r: &PublicKey<Self>,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<EncappedKey<Self>, Error> {
        struct Op<'a, K: Kem, F, A, R: ?Sized>(
            &'a mut R,
            &'a PublicKey<K>,
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            Option<&'a Psk<'a>>,
            &'a PrivateKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: Aead, R: CryptoRng + ?Sized> AuthKemVisitor for Op<'_, K, F, A, R> {
            type Output = Result<EncappedKey<K>, Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(rng, pk_r, info, exporter_context, out, psk, sk_s, _) = self;
                let (pk_r, sk_s): (&PublicKey<J>, &PrivateKey<J>) =
                    (same_ref(pk_r), same_ref(sk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::send_export_auth(
                        rng,
                        pk_r,
                        info,
                        exporter_context,
                        out,
                        sk_s,
                    ),
                    Some(psk) => Hpke::<J, F, A>::send_export_auth_psk(
                        rng,
                        pk_r,
                        info,
                        exporter_context,
                        out,
                        psk,
                        sk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A, _>(
            rng,
            pk_r,
            info,
            exporter_context,
            out,
            psk,
            sk_s,
            PhantomData,
        ))
    }

    fn receive_export_auth<F: Kdf, A: Aead>(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        psk: Option<&Psk<'_>>,
        pk_s: &PublicKey<Self>,
    ) -> Result<(), Error> {
        struct Op<'a, K: Kem, F, A>(
            &'a EncappedKey<K>,
            &'a PrivateKey<K>,
            &'a [u8],
            &'a [u8],
            &'a mut [u8],
            Option<&'a Psk<'a>>,
            &'a PublicKey<K>,
            PhantomData<(F, A)>,
        );
        impl<K: Kem, F: Kdf, A: Aead> AuthKemVisitor for Op<'_, K, F, A> {
            type Output = Result<(), Error>;
            fn visit<J: AuthKem>(self) -> Self::Output {
                let Op(enc, sk_r, info, exporter_context, out, psk, pk_s, _) = self;
                let (enc, sk_r, pk_s): (&EncappedKey<J>, &PrivateKey<J>, &PublicKey<J>) =
                    (same_ref(enc), same_ref(sk_r), same_ref(pk_s));
                same(match psk {
                    None => Hpke::<J, F, A>::receive_export_auth(
                        enc,
                        sk_r,
                        info,
                        exporter_context,
                        out,
                        pk_s,
                    ),
                    Some(psk) => Hpke::<J, F, A>::receive_export_auth_psk(
                        enc,
                        sk_r,
                        info,
                        exporter_context,
                        out,
                        psk,
                        pk_s,
                    ),
                })
            }
        }
        auth::<Self, _, _>(Op::<Self, F, A>(
            enc,
            sk_r,
            info,
            exporter_context,
            out,
            psk,
            pk_s,
            PhantomData,
        ))
    }
}

impl<K: Kem> MaybeAuth for K {}
