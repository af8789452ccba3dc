//! The crate's closed internals.
//!
//! The public traits ([`Kem`], [`AuthKem`], [`Kdf`], [`Aead`], [`SealingAead`], [`DhGroup`])
//! carry ids, sizes and the documented operations. Everything that would let a caller step
//! around the key schedule (deterministic encapsulation, a raw key schedule without
//! `VerifyPSKInputs`, an AEAD that takes a caller's nonce, raw Diffie-Hellman) lives on the
//! traits below, reached through a hidden associated type (`Kem::Engine`, ...).
//!
//! This module is private, so outside the crate these traits cannot be named and their
//! methods cannot be called: a method of a trait that is not in scope is not found, even on a
//! type that implements it. (A private *supertrait* would not do: its methods are callable
//! through any generic bound on the public trait.) `tests/compile_fail/sealed_*.rs` pins this
//! for each method that was once reachable.
//!
//! [`Kem`]: crate::kem::Kem
//! [`AuthKem`]: crate::kem::AuthKem
//! [`Kdf`]: crate::kdf::Kdf
//! [`Aead`]: crate::aead::Aead
//! [`SealingAead`]: crate::aead::SealingAead
//! [`DhGroup`]: crate::kem::DhGroup

// `pub` in a private module is the seal: the public traits' associated types are bounded by
// these traits, which `pub(crate)` would turn into `private_bounds` warnings. Rust 1.94's
// `unreachable_pub` flags them anyway (1.95 does not).
#![allow(unreachable_pub)]

use hybrid_array::Array;
use subtle::Choice;
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::{Aead, SealingAead, Tag};
use crate::kdf::Kdf;
use crate::kem::{AuthKem, EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};

/// Keeps the public traits closed: every KEM, KDF and AEAD is one this crate defines.
pub trait Sealed {}

/// A KEM's engine: key (de)serialization and deterministic encapsulation.
pub trait KemEngine<K: Kem> {
    // Called only by the `alloc` paths (a `PreparedPublicKey`, the `Vec`-returning `open`): a
    // build without `alloc` leaves it unused, which Rust 1.94 reports and later versions do not.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    /// The precomputation behind a [`PreparedPublicKey`](crate::kem::PreparedPublicKey).
    fn prepare(pk: &K::Pk) -> K::Prepared;
    /// The heap bytes `prepared` holds.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    fn prepared_heap_size(prepared: &K::Prepared) -> usize;
    /// `Encap(pkR)`, through `prepared` (made from `pk_r` by [`Self::prepare`]) when given.
    fn encap_to<R: rand_core::CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>;
    /// `Encap` with its randomness fixed by `ikm_e` (for DH-KEMs, the ephemeral key pair is
    /// `DeriveKeyPair(ikm_e)`; for the post-quantum KEMs, the raw encapsulation randomness).
    /// Called only by `hazmat`; a build without it (every integration's) would warn.
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    fn encap_deterministic(
        ikm_e: &[u8],
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>;
    fn sk_from_bytes(bytes: &[u8]) -> Result<K::Sk, Error>;
    /// [`Self::sk_from_bytes`] with the key's public key given. The default parses the private
    /// key and refuses a public key that is not its own; a KEM whose parse recomputes the
    /// public key at a cost the caller wants to skip (the DH-KEMs' base-point multiplication)
    /// takes `pk` as given instead.
    fn sk_from_bytes_and_public(bytes: &[u8], pk: &K::Pk) -> Result<K::Sk, Error> {
        Self::sk_from_bytes_and_public_bytes(bytes, Self::pk_as_bytes(pk))
    }
    /// [`Self::sk_from_bytes_and_public`] with the public key serialized: the default
    /// compares it with the parsed key's, a DH-KEM parses and validates it (RFC 9180 §7.1.1,
    /// §7.1.4) and takes it as given.
    fn sk_from_bytes_and_public_bytes(bytes: &[u8], pk: &[u8]) -> Result<K::Sk, Error> {
        use subtle::ConstantTimeEq;
        // The key is borrowed where it lies and returned whole: a `?` and a binding each held
        // another copy of it in a debug build's frame (122 KB for ML-KEM-1024; tests/stack.rs).
        let parsed = Self::sk_from_bytes(bytes);
        let refused = match parsed {
            // The computed public key flows from the secret in the constant-time harness's
            // view: compared in constant time, and the answer made public in its named place.
            Ok(ref sk) => {
                let matches = Self::pk_as_bytes(Self::sk_public_key(sk))
                    .as_slice()
                    .ct_eq(pk);
                !crate::declassify::public_key_matches(matches)
            }
            Err(_) => false,
        };
        if refused {
            Err(Error::InvalidPrivateKey)
        } else {
            parsed
        }
    }
    fn sk_to_bytes(sk: &K::Sk) -> Zeroizing<Array<u8, K::NSk>>;
    fn sk_public_key(sk: &K::Sk) -> &K::Pk;
    fn sk_ct_eq(a: &K::Sk, b: &K::Sk) -> Choice;
    fn pk_from_bytes(bytes: &[u8]) -> Result<K::Pk, Error>;
    fn pk_as_bytes(pk: &K::Pk) -> &Array<u8, K::NPk>;
}

/// An authenticated KEM's engine.
pub trait AuthKemEngine<K: AuthKem> {
    /// `AuthEncap(pkR, skS)`, through `prepared` when given.
    fn auth_encap_to<R: rand_core::CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
        sk_s: &PrivateKey<K>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>;
    /// `ExtractAndExpand(concat(dh), concat(kem_context))` (RFC 9180 §4.1): the shared secret
    /// from Diffie-Hellman values computed elsewhere (a key's holder).
    fn shared_secret(dh: &[&[u8]], kem_context: &[&[u8]]) -> Result<SharedSecret<K>, Error>;
    /// `AuthEncap(pkR, skS)` with `DH(skS, pkR)` given (computed by the holder of `skS`, whose
    /// public key is `pk_sm`), through `prepared` when given.
    fn auth_encap_with_dh<R: rand_core::CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
        pk_sm: &[u8],
        dh_s: &[u8],
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>;
    /// `AuthEncap` with the ephemeral key pair `DeriveKeyPair(ikm_e)`. Called only by
    /// `hazmat`.
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    fn auth_encap_deterministic(
        ikm_e: &[u8],
        pk_r: &PublicKey<K>,
        prepared: Option<&K::Prepared>,
        sk_s: &PrivateKey<K>,
    ) -> Result<(SharedSecret<K>, EncappedKey<K>), Error>;
}

/// Sees the key schedule's intermediate values. Production code passes `()`, which ignores
/// them and compiles to nothing; the known-answer tests (`hazmat`) record them.
pub trait ScheduleObserver {
    /// Two-stage KDFs: `key_schedule_context`, `secret` and `exporter_secret`.
    fn two_stage(&mut self, _key_schedule_context: &[&[u8]], _secret: &[u8], _exporter: &[u8]) {}
    /// One-stage KDFs: `exporter_secret`.
    fn one_stage(&mut self, _exporter_secret: &[u8]) {}
}

impl ScheduleObserver for () {}

/// A KDF's engine: the key schedule and the secret export.
pub trait KdfEngine<F: Kdf> {
    /// `KeySchedule` (RFC 9180 §5.1) after `VerifyPSKInputs`, which the caller has done: fills
    /// `key` and `base_nonce` (each possibly empty) and returns the exporter secret.
    #[allow(clippy::too_many_arguments)]
    fn key_schedule<O: ScheduleObserver>(
        suite_id: &[u8],
        mode: u8,
        shared_secret: &[u8],
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        key: &mut [u8],
        base_nonce: &mut [u8],
        observer: &mut O,
    ) -> Result<F::Exporter, Error>;

    /// `Export(exporter_context, L)` (RFC 9180 §5.3) with `L = out.len()`, which the caller has
    /// already checked against [`Kdf::MAX_EXPORT_LEN`].
    fn export(
        suite_id: &[u8],
        exporter: &F::Exporter,
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error>;
}

/// A two-stage KDF's engine: `Extract` and `Expand` without HPKE's labels, for
/// [`crate::symmetric::Prk`].
pub trait TwoStageEngine<F: crate::kdf::TwoStageKdf> {
    /// `Extract(salt, concat(ikm))`, kept keyed for `Expand`.
    fn extract(salt: &[u8], ikm: &[&[u8]]) -> F::Prk;
    /// `Expand(prk, concat(info), L)` with `L = out.len()`; [`Error::InvalidLength`] beyond
    /// 255·Nh.
    fn expand(prk: &F::Prk, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error>;
    /// `Extract(salt, concat(ikm))` as bytes, for public inputs.
    fn extract_public(salt: &[u8], ikm: &[&[u8]]) -> Array<u8, F::Nh>;
    /// The KDF's hash of `concat(pieces)`.
    fn hash(pieces: &[&[u8]]) -> Array<u8, F::Nh>;
}

/// An AEAD's engine: keying.
pub trait AeadEngine<A: Aead> {
    /// Keys the cipher.
    fn new_cipher(key: &Array<u8, A::Nk>) -> A::Cipher;
}

/// A sealing AEAD's engine: encryption under a nonce the caller (a context) computes.
///
/// The seals and the private opens take the cipher mutably: an engine may finish keying it on
/// first use (graviola's AES-GCM is keyed once a context has handled 16 KiB).
///
/// Tags go out through `&mut Tag<A>` rather than in a returned `Result<Tag<A>, _>`: the
/// context writes them straight where they belong (the end of a sealed `Vec`, a caller's
/// buffer), without the byte-offset copies of a 16-byte array beside a `Result`'s
/// discriminant that the returned form compiled to on every 64-byte seal.
pub trait SealingAeadEngine<A: SealingAead> {
    // Called only by the `alloc` paths (a `PreparedPublicKey`, the `Vec`-returning `open`): a
    // build without `alloc` leaves it unused, which Rust 1.94 reports and later versions do not.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    /// From this length the `Vec`-returning `open` decrypts out of place into a zeroed `Vec`
    /// ([`Self::open_private_to`]); below it, it copies the ciphertext into the `Vec` and decrypts
    /// there ([`Self::open_private_in_place`]). `usize::MAX`: always the copy.
    const OPEN_OUT_OF_PLACE_FROM: usize;

    /// Encrypts `buffer` in place, its tag into `tag`.
    fn seal_in_place(
        cipher: &mut A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &mut Tag<A>,
    ) -> Result<(), Error>;

    /// Encrypts `input` into `output` (same length), its tag into `tag`.
    fn seal_to(
        cipher: &mut A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &mut Tag<A>,
    ) -> Result<(), Error>;

    /// Decrypts `buffer` (a caller's) in place after checking `tag`; on failure `buffer` is
    /// left as it was.
    fn open_in_place(
        cipher: &A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error>;

    /// Decrypts `input` into `output` (a caller's; same length) after checking `tag`; on
    /// failure `output` is left as it was.
    fn open_to(
        cipher: &A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error>;

    /// Decrypts `buffer` in place, memory nobody but this crate sees and which is dropped on
    /// failure (a `Vec`-returning `open`'s): the engine may decrypt before it checks the tag
    /// (aws-lc and graviola do, and clear what they wrote).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    fn open_private_in_place(
        cipher: &mut A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error>;

    /// Decrypts `input` into `output` (same length), private memory as above.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    fn open_private_to(
        cipher: &mut A::Cipher,
        nonce: &Array<u8, A::Nn>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<A>,
    ) -> Result<(), Error>;
}

/// A Diffie-Hellman group's engine: scalars, points and raw `DH`, for [`DhKem`] only.
///
/// [`DhKem`]: crate::kem::DhKem
pub trait DhEngine<G: crate::kem::DhGroup> {
    /// A random private scalar; `None` only when the generator is broken (the Weierstrass
    /// curves' rejection sampling gives up after `weierstrass::MAX_DRAWS` refused candidates).
    fn random_scalar<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> Option<G::Scalar>;
    /// The `DeriveKeyPair` step after `dkp_prk = LabeledExtract("", "dkp_prk", ikm)` (§7.1.3).
    fn derive_scalar(
        suite_id: &[u8],
        dkp_prk: &crate::labeled::Expander<G::Hash>,
    ) -> Result<G::Scalar, Error>;
    fn scalar_from_bytes(bytes: &[u8]) -> Result<G::Scalar, Error>;
    fn scalar_to_bytes(sk: &G::Scalar) -> Zeroizing<Array<u8, G::NSk>>;
    fn scalar_ct_eq(a: &G::Scalar, b: &G::Scalar) -> Choice;
    /// `pk(sk)`: the public point and its serialization.
    fn public(sk: &G::Scalar) -> (G::Point, Array<u8, G::NPk>);
    /// `DeserializePublicKey` with the validation the group needs.
    fn point_from_bytes(bytes: &[u8]) -> Result<G::Point, Error>;
    /// `DH(sk, pk)` into `out`; returns whether the output is usable (not all-zero for the
    /// Montgomery curves, §7.1.4; not the identity for the Weierstrass curves), in constant
    /// time.
    fn dh(sk: &G::Scalar, pk: &G::Point, out: &mut Array<u8, G::NDh>) -> Choice;
    // Called only by the `alloc` paths (a `PreparedPublicKey`, the `Vec`-returning `open`): a
    // build without `alloc` leaves it unused, which Rust 1.94 reports and later versions do not.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    /// A table of multiples of `pk` for [`Self::dh_prepared`].
    fn prepare(pk: &G::Point) -> G::Table;
    /// The heap bytes `table` holds.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    fn table_heap_size(table: &G::Table) -> usize;
    /// `DH(sk, pk)` as [`Self::dh`] computes it, through `table` (made from `pk`).
    fn dh_prepared(
        sk: &G::Scalar,
        pk: &G::Point,
        table: &G::Table,
        out: &mut Array<u8, G::NDh>,
    ) -> Choice;
}
