//! The graviola AEAD backend (feature `graviola`): AES-128-GCM, AES-256-GCM and
//! ChaCha20-Poly1305 on graviola for every seal, and for every open whose output is a buffer
//! the crate allocates (the `Vec`-returning `open`s), on a CPU graviola supports
//! (`crate::backend::graviola`); RustCrypto's otherwise.
//!
//! The opens into a caller's memory (`open_in_place_detached`, `open_into`) stay on RustCrypto,
//! as under aws-lc-rs and for the same reason: their contract is that a failed open leaves the
//! caller's buffer as it was, and graviola decrypts before it checks the tag and then clears
//! the buffer; RustCrypto checks the tag first and writes nothing on failure. The context keys
//! both at setup.

use ::graviola::aead::{AesGcm, ChaCha20Poly1305};
use aead::{AeadInOut, Key, KeyInit, Nonce, Tag};

use crate::Error;

/// A RustCrypto cipher's graviola counterpart.
#[doc(hidden)]
pub trait Cipher {
    /// graviola's keyed cipher (it wipes its key material on drop: the AES round keys and
    /// GHASH table, or the ChaCha20 key).
    type Engine;
    /// Zeros the size of `Engine`, held where graviola does not run (see [`Slot`]).
    type Absent;
    const ABSENT: Self::Absent;
    fn key(key: &[u8]) -> Self::Engine;
    /// Encrypts `buf` in place, its tag into `tag`. The nonce and tag are the context's types
    /// (12 and 16 bytes for every cipher here), handed to graviola without a fallible step.
    fn encrypt(
        engine: &Self::Engine,
        nonce: &Nonce<Self>,
        aad: &[u8],
        buf: &mut [u8],
        tag: &mut Tag<Self>,
    ) where
        Self: AeadInOut;
    fn decrypt(
        engine: &Self::Engine,
        nonce: &Nonce<Self>,
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag<Self>,
    ) -> Result<(), ::graviola::Error>
    where
        Self: AeadInOut;
}

/// Zero bytes, written so that a value's unused space holds no leftover of the stack it was
/// built on (the runtime contexts' `Fill`, for the same reason).
#[doc(hidden)]
#[allow(
    missing_debug_implementations,
    dead_code,
    reason = "written, never read"
)]
pub struct Zeros<const N: usize>([u8; N]);

macro_rules! cipher {
    ($rustcrypto:ty, $engine:ty, |$key:ident| $new:expr) => {
        impl Cipher for $rustcrypto {
            type Engine = $engine;
            type Absent = Zeros<{ core::mem::size_of::<$engine>() }>;
            const ABSENT: Self::Absent = Zeros([0; core::mem::size_of::<$engine>()]);
            fn key($key: &[u8]) -> $engine {
                $new
            }
            fn encrypt(
                e: &$engine,
                nonce: &Nonce<Self>,
                aad: &[u8],
                buf: &mut [u8],
                tag: &mut Tag<Self>,
            ) {
                e.encrypt(nonce.as_ref(), aad, buf, tag.as_mut());
            }
            fn decrypt(
                e: &$engine,
                nonce: &Nonce<Self>,
                aad: &[u8],
                buf: &mut [u8],
                tag: &Tag<Self>,
            ) -> Result<(), ::graviola::Error> {
                e.decrypt(nonce.as_ref(), aad, buf, tag)
            }
        }
    };
}

// `AesGcm::new` panics on a key that is neither 16 nor 32 bytes; Nk is one of them.
//
// graviola's AES-GCM key is boxed: it is 64-byte aligned (its AVX-512 GHASH table), and inline
// it would make every context holding it 64-byte aligned, with up to 63 bytes of padding around
// enum tags and fields. Padding is copied with the value on every move, from whatever the stack
// held, and nothing can wipe it: `tests/zeroize_observed.rs` found a copy of the AEAD key there
// in a runtime context. Boxed, the heap block is exactly graviola's key, which wipes all of
// itself on drop; the price is one allocation when a context is keyed (`tests/allocations.rs`).
#[cfg(feature = "aes-gcm")]
cipher!(::aes_gcm::Aes128Gcm, alloc::boxed::Box<AesGcm>, |key| {
    alloc::boxed::Box::new(AesGcm::new(key))
});
#[cfg(feature = "aes-gcm")]
cipher!(::aes_gcm::Aes256Gcm, alloc::boxed::Box<AesGcm>, |key| {
    alloc::boxed::Box::new(AesGcm::new(key))
});
#[cfg(feature = "chacha20poly1305")]
cipher!(
    ::chacha20poly1305::ChaCha20Poly1305,
    ChaCha20Poly1305,
    |key| {
        // graviola takes the key by value; the copy passed is wiped by graviola's drop, this one
        // by `Zeroizing`.
        let mut bytes = zeroize::Zeroizing::new([0u8; 32]);
        bytes.copy_from_slice(key);
        ChaCha20Poly1305::new(*bytes)
    }
);

/// graviola's keyed cipher, or zeros of its size on a CPU graviola does not support (an
/// `Option` would leave that space as the stack had it).
enum Slot<C: Cipher> {
    Graviola(C::Engine),
    #[allow(dead_code, reason = "the zeros are written, never read")]
    Absent(C::Absent),
}

/// A keyed cipher: graviola's where the CPU supports it, and RustCrypto's, for opening into a
/// caller's buffer and for the CPUs graviola does not support.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
pub struct Keyed<C: Cipher> {
    graviola: Slot<C>,
    rustcrypto: super::rustcrypto::Keyed<C>,
}

/// RustCrypto's cipher wipes its key schedule on drop, graviola's its own.
impl<C: Cipher + zeroize::ZeroizeOnDrop> zeroize::ZeroizeOnDrop for Keyed<C> where
    super::rustcrypto::Keyed<C>: zeroize::ZeroizeOnDrop
{
}

impl<C: AeadInOut + KeyInit + Cipher> Keyed<C> {
    /// graviola decrypts in place only: a `Vec`-returning open always copies and decrypts there
    /// (graviola's stitched AES-GCM reads and writes each block once); zeroing a `Vec` first to
    /// decrypt into would be a second pass.
    pub(crate) const OPEN_OUT_OF_PLACE_FROM: usize = usize::MAX;

    pub(crate) fn new(key: &Key<C>, (): ()) -> Self {
        let graviola = if crate::backend::graviola::available() {
            Slot::Graviola(C::key(key.as_slice()))
        } else {
            Slot::Absent(C::ABSENT)
        };
        Self {
            graviola,
            rustcrypto: super::rustcrypto::Keyed::new(key, ()),
        }
    }

    pub(crate) fn seal_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        let Slot::Graviola(engine) = &self.graviola else {
            return self.rustcrypto.seal_in_place(nonce, aad, buffer, tag);
        };
        C::encrypt(engine, nonce, aad, buffer, tag);
        Ok(())
    }

    pub(crate) fn seal_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        if let Slot::Absent(_) = self.graviola {
            return self.rustcrypto.seal_to(nonce, aad, input, output, tag);
        }
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        // graviola encrypts in place only.
        output.copy_from_slice(input);
        self.seal_in_place(nonce, aad, output, tag)
    }

    /// RustCrypto's, which checks the tag before decrypting: on failure `buffer` is as it was.
    pub(crate) fn open_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.rustcrypto.open_in_place(nonce, aad, buffer, tag)
    }

    /// RustCrypto's, for the same reason: on failure `output` (a caller's buffer) is as it was.
    pub(crate) fn open_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        self.rustcrypto.open_to(nonce, aad, input, output, tag)
    }

    /// graviola's, in memory nobody else sees: graviola decrypts before it checks the tag and
    /// clears the buffer on a bad one.
    pub(crate) fn open_private_in_place(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        let Slot::Graviola(engine) = &self.graviola else {
            return self.rustcrypto.open_in_place(nonce, aad, buffer, tag);
        };
        super::opened(C::decrypt(engine, nonce, aad, buffer, tag))
    }

    /// The same on a copy of `input` (graviola decrypts in place only; `open` does not come
    /// here, see [`Self::OPEN_OUT_OF_PLACE_FROM`]).
    pub(crate) fn open_private_to(
        &self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        output.copy_from_slice(input);
        self.open_private_in_place(nonce, aad, output, tag)
    }
}
