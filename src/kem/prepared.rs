//! Prepared recipient keys: a public key with a precomputed table of multiples of its point,
//! so that each encapsulation to it multiplies a fixed base instead of a variable one.
//!
//! A sender that encapsulates to the same key again and again (an ECH client to the server's
//! ECH configuration, an Oblivious HTTP client to the gateway's key, a messaging client to a
//! peer's long-term key) prepares it once. Every sender-side function of [`crate::Hpke`] takes
//! a [`RecipientKey`]: a plain [`PublicKey`] or a [`PreparedPublicKey`]. Both give the same
//! bytes from the same randomness; only the time differs.

use rand_core::CryptoRng;

use super::{AuthKem, EncappedKey, Kem, PublicKey, SharedSecret};
use crate::Error;
#[cfg(feature = "hazmat")]
use crate::sealed::AuthKemEngine as _;
use crate::sealed::KemEngine as _;

/// A key a sender encapsulates to: a [`PublicKey<K>`], or a [`PreparedPublicKey<K>`] made from
/// one. Every sender-side setup, seal and export function takes either. Sealed.
pub trait RecipientKey<K: Kem>: crate::sealed::Sealed {
    /// The recipient's public key.
    fn public_key(&self) -> &PublicKey<K>;

    /// The precomputation, if any (crate-internal).
    #[doc(hidden)]
    fn precomputed(&self) -> Option<&K::Prepared>;
}

impl<K: Kem> crate::sealed::Sealed for PublicKey<K> {}

impl<K: Kem> RecipientKey<K> for PublicKey<K> {
    fn public_key(&self) -> &PublicKey<K> {
        self
    }

    fn precomputed(&self) -> Option<&K::Prepared> {
        None
    }
}

impl<T: crate::sealed::Sealed + ?Sized> crate::sealed::Sealed for &T {}

/// A reference to a recipient key is one.
impl<K: Kem, T: RecipientKey<K> + ?Sized> RecipientKey<K> for &T {
    fn public_key(&self) -> &PublicKey<K> {
        (**self).public_key()
    }

    fn precomputed(&self) -> Option<&K::Prepared> {
        (**self).precomputed()
    }
}

/// A public key with its precomputation borrowed, as a runtime key holds the two.
pub(crate) struct RecipientRef<'a, K: Kem> {
    pub(crate) pk: &'a PublicKey<K>,
    pub(crate) prepared: Option<&'a K::Prepared>,
}

impl<K: Kem> crate::sealed::Sealed for RecipientRef<'_, K> {}

impl<K: Kem> RecipientKey<K> for RecipientRef<'_, K> {
    fn public_key(&self) -> &PublicKey<K> {
        self.pk
    }

    fn precomputed(&self) -> Option<&K::Prepared> {
        self.prepared
    }
}

/// `Encap(pkR)` to either kind of recipient key.
pub(crate) fn encap_to<K: Kem, R: CryptoRng + ?Sized, P: RecipientKey<K> + ?Sized>(
    rng: &mut R,
    to: &P,
) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
    K::Engine::encap_to(rng, to.public_key(), to.precomputed())
}

/// `AuthEncap(pkR, skS)` to either kind of recipient key, with the sender's key in process
/// or held elsewhere.
pub(crate) fn auth_encap_to<K, R, P, Q>(
    rng: &mut R,
    to: &P,
    sk_s: &Q,
) -> Result<(SharedSecret<K>, EncappedKey<K>), Q::Error>
where
    K: AuthKem,
    R: CryptoRng + ?Sized,
    P: RecipientKey<K> + ?Sized,
    Q: super::AuthEncapKey<K> + ?Sized,
{
    sk_s.auth_encap_for(rng, to.public_key(), to.precomputed())
}

/// Deterministic `Encap` to either kind of recipient key (known-answer tests).
#[cfg(feature = "hazmat")]
pub(crate) fn encap_deterministic_to<K: Kem, P: RecipientKey<K> + ?Sized>(
    ikm_e: &[u8],
    to: &P,
) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
    K::Engine::encap_deterministic(ikm_e, to.public_key(), to.precomputed())
}

/// Deterministic `AuthEncap` to either kind of recipient key (known-answer tests).
#[cfg(feature = "hazmat")]
pub(crate) fn auth_encap_deterministic_to<K: AuthKem, P: RecipientKey<K> + ?Sized>(
    ikm_e: &[u8],
    to: &P,
    sk_s: &crate::PrivateKey<K>,
) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
    K::AuthEngine::auth_encap_deterministic(ikm_e, to.public_key(), to.precomputed(), sk_s)
}

#[cfg(feature = "alloc")]
pub use self::prepared_key::PreparedPublicKey;

#[cfg(feature = "alloc")]
mod prepared_key {
    use core::fmt;

    use super::RecipientKey;
    use crate::Error;
    use crate::kem::{AuthKem, EncappedKey, Kem, PublicKey, SharedSecret};
    use crate::sealed::KemEngine as _;

    /// A public key prepared for repeated encapsulation: the key beside a precomputed table of
    /// multiples of its point, built once. Pass it wherever a sender function takes the
    /// recipient's key; the output is byte for byte what the plain key gives from the same
    /// randomness.
    ///
    /// What preparing does, per KEM:
    /// - **X25519**: the point is lifted to Edwards form and a constant-time table of its
    ///   multiples built (curve25519-dalek's radix-16 table; `memory_size` reports it), so `DH(skE, pkR)` costs a
    ///   fixed-base multiplication. The clamped scalar is used whole, unreduced, so points with
    ///   a small-order component give what the Montgomery ladder gives. A `u` on the twist has
    ///   no Edwards lift and keeps the ladder.
    /// - **P-256, P-384, P-521, secp256k1**: a signed fixed-window table (radix 16, one window
    ///   per digit, eight affine multiples per window, read with constant-time selection), so
    ///   `DH(skE, pkR)` is a sum of table entries with no doublings.
    /// - **X-Wing, MLKEM768-P256, MLKEM1024-P384**: the traditional half as above; the ML-KEM
    ///   half is already expanded when the public key is parsed.
    /// - **X448, ML-KEM**: nothing to precompute; the prepared key behaves as the plain one.
    ///
    /// Building the table costs a number of encapsulations that depends on the KEM (`BENCHMARKS.md`,
    /// "Prepared recipient keys", measures the break-even); prepare a key that will be
    /// encapsulated to many times.
    ///
    /// ```
    /// # #[cfg(all(feature = "x25519", feature = "chacha20poly1305", feature = "getrandom"))] {
    /// use typed_hpke::{Hpke, OsRng, aead::ChaCha20Poly1305, kdf::HkdfSha256};
    /// use typed_hpke::kem::{DhKemX25519HkdfSha256 as X25519, Kem, PreparedPublicKey};
    /// type Suite = Hpke<X25519, HkdfSha256, ChaCha20Poly1305>;
    ///
    /// let mut rng = OsRng::default();
    /// let (sk_r, pk_r) = X25519::generate(&mut rng)?;
    /// let prepared = PreparedPublicKey::new(&pk_r);
    /// for request in [&b"first"[..], b"second"] {
    ///     let (enc, ct) = Suite::seal_base(&mut rng, &prepared, b"info", b"", request)?;
    ///     assert_eq!(Suite::open_base(&enc, &sk_r, b"info", b"", &ct)?, request);
    /// }
    /// # }
    /// # Ok::<(), typed_hpke::Error>(())
    /// ```
    pub struct PreparedPublicKey<K: Kem> {
        pk: PublicKey<K>,
        prepared: K::Prepared,
    }

    impl<K: Kem> PreparedPublicKey<K> {
        /// Builds the table for `pk` (see the type's documentation for what that costs).
        pub fn new(pk: &PublicKey<K>) -> Self {
            Self::from(pk.clone())
        }

        /// The public key this was prepared from.
        pub fn public_key(&self) -> &PublicKey<K> {
            &self.pk
        }

        /// `Encap(pkR)` through the table: what [`Kem::encap`] gives for the public key, from
        /// the same randomness.
        ///
        /// # Errors
        /// As [`Kem::encap`].
        pub fn encap<R: rand_core::CryptoRng + ?Sized>(
            &self,
            rng: &mut R,
        ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error> {
            super::encap_to(rng, self)
        }

        /// `AuthEncap(pkR, skS)` through the table: what [`AuthKem::auth_encap`] gives.
        ///
        /// # Errors
        /// As [`AuthKem::auth_encap`].
        pub fn auth_encap<R: rand_core::CryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            sk_s: &crate::PrivateKey<K>,
        ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>
        where
            K: AuthKem,
        {
            super::auth_encap_to(rng, self, sk_s)
        }

        /// The bytes this key occupies, its heap-held table included.
        pub fn memory_size(&self) -> usize {
            core::mem::size_of::<Self>() + K::Engine::prepared_heap_size(&self.prepared)
        }
    }

    impl<K: Kem> From<PublicKey<K>> for PreparedPublicKey<K> {
        fn from(pk: PublicKey<K>) -> Self {
            Self {
                prepared: K::Engine::prepare(&pk.pk),
                pk,
            }
        }
    }

    impl<K: Kem> crate::sealed::Sealed for PreparedPublicKey<K> {}

    impl<K: Kem> RecipientKey<K> for PreparedPublicKey<K> {
        fn public_key(&self) -> &PublicKey<K> {
            &self.pk
        }

        fn precomputed(&self) -> Option<&K::Prepared> {
            Some(&self.prepared)
        }
    }

    impl<K: Kem> Clone for PreparedPublicKey<K> {
        fn clone(&self) -> Self {
            Self {
                pk: self.pk.clone(),
                prepared: self.prepared.clone(),
            }
        }
    }

    /// Equal when prepared from equal public keys.
    impl<K: Kem> PartialEq for PreparedPublicKey<K> {
        fn eq(&self, other: &Self) -> bool {
            self.pk == other.pk
        }
    }

    impl<K: Kem> Eq for PreparedPublicKey<K> {}

    impl<K: Kem> fmt::Debug for PreparedPublicKey<K> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("PreparedPublicKey")
                .field("public_key", &self.pk)
                .field("memory_size", &self.memory_size())
                .finish()
        }
    }
}
