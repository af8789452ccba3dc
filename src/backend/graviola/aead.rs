//! The graviola AEAD backend (feature `graviola`): AES-128-GCM, AES-256-GCM and
//! ChaCha20-Poly1305 on graviola for every seal, and for every open whose output is a buffer
//! the crate allocates (the `Vec`-returning `open`s), on a CPU graviola supports
//! (`crate::backend::graviola`) and, for AES-GCM, from a context's first 16 KiB on;
//! RustCrypto's otherwise.
//!
//! The opens into a caller's memory (`open_in_place_detached`, `open_into`) stay on RustCrypto,
//! as under aws-lc-rs and for the same reason: their contract is that a failed open leaves the
//! caller's buffer as it was, and graviola decrypts before it checks the tag and then clears
//! the buffer; RustCrypto checks the tag first and writes nothing on failure. ChaCha20-Poly1305
//! keys both at setup; AES-GCM keys graviola's cipher once a context has handled 16 KiB (its
//! keying is slow; `AES_GCM_GRAVIOLA_FROM` has the numbers) and runs RustCrypto's until then.
//!
//! graviola checks no message length (its block counters are 32 bits and would wrap): no
//! message over the AEAD's limit reaches this file, refused for every backend alike where every
//! seal and open passes (`crate::context::AeadState::with_next_nonce`).

#[cfg(feature = "aes-gcm")]
use ::graviola::aead::AesGcm;
#[cfg(feature = "chacha20poly1305")]
use ::graviola::aead::ChaCha20Poly1305;
use aead::{AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag};
use zeroize::Zeroize;

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
    /// How many bytes a context seals and opens into its own `Vec`s before graviola's cipher is
    /// keyed for it (the message that reaches it included); until then RustCrypto's runs. 0:
    /// keyed with the context.
    const GRAVIOLA_FROM: u64;
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
    ($rustcrypto:ty, $engine:ty, from: $from:expr, |$key:ident| $new:expr) => {
        impl Cipher for $rustcrypto {
            type Engine = $engine;
            type Absent = Zeros<{ core::mem::size_of::<$engine>() }>;
            const ABSENT: Self::Absent = Zeros([0; core::mem::size_of::<$engine>()]);
            const GRAVIOLA_FROM: u64 = $from;
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
// itself on drop; the price is one allocation when graviola's cipher is keyed
// (`tests/allocations.rs`).
//
// Keying it is slow: graviola precomputes its GHASH tables (AVX and AVX-512) with one
// multiplication per power of H, 4.1 µs per key measured here against RustCrypto's 0.24 µs and
// aws-lc's 0.16 µs (a loop of 200,000 keyings, perf: 78% in graviola's `ghash` table setup). A
// context that seals a short message or two (an ECH ClientHello, an OHTTP request, most
// single-shot HPKE) would spend more on that than graviola saves it: per message RustCrypto
// costs about 60 ns more at 64 B, 0.28 µs at 1 KiB and 3 µs at 16 KiB (BENCHMARKS.md,
// "Candidate primitives"), so the 3.9 µs break even after 4-21 KiB depending on message size.
// AES-GCM contexts therefore run RustCrypto's cipher for their first 16 KiB and key graviola's
// with the message that reaches it. The output is the same AES-GCM either way.
#[cfg(feature = "aes-gcm")]
const AES_GCM_GRAVIOLA_FROM: u64 = 16 * 1024;
#[cfg(feature = "aes-gcm")]
cipher!(::aes_gcm::Aes128Gcm, alloc::boxed::Box<AesGcm>, from: AES_GCM_GRAVIOLA_FROM, |key| {
    alloc::boxed::Box::new(AesGcm::new(key))
});
#[cfg(feature = "aes-gcm")]
cipher!(::aes_gcm::Aes256Gcm, alloc::boxed::Box<AesGcm>, from: AES_GCM_GRAVIOLA_FROM, |key| {
    alloc::boxed::Box::new(AesGcm::new(key))
});
// graviola's ChaCha20-Poly1305 key is the key itself: keyed with the context.
#[cfg(feature = "chacha20poly1305")]
cipher!(
    crate::aead::chacha20poly1305::Cipher,
    ChaCha20Poly1305,
    from: 0,
    |key| {
        // graviola takes the key by value; the copy passed is wiped by graviola's drop, this one
        // by `Zeroizing`.
        let mut bytes = zeroize::Zeroizing::new([0u8; 32]);
        bytes.copy_from_slice(key);
        ChaCha20Poly1305::new(*bytes)
    }
);

/// graviola's keyed cipher, or zeros of its size where it is not keyed (yet, or ever: a CPU
/// graviola does not support). An `Option` would leave that space as the stack had it; the tag
/// is a `u64` for the same reason (a `u8` tag leaves seven bytes of padding after it).
#[repr(u64)]
enum Slot<C: Cipher> {
    Graviola(C::Engine),
    #[allow(dead_code, reason = "the zeros are written, never read")]
    Absent(C::Absent),
}

/// A keyed cipher: RustCrypto's, and graviola's once the context has handled
/// [`Cipher::GRAVIOLA_FROM`] bytes on a CPU graviola supports. RustCrypto's also opens into a
/// caller's buffer, always.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
pub struct Keyed<C: Cipher + KeySizeUser> {
    graviola: Slot<C>,
    /// The AEAD key, kept to key graviola's cipher when the context reaches `GRAVIOLA_FROM`
    /// bytes; zeros from then on, and from the start on a CPU graviola does not support.
    /// Wiped on drop.
    key: Key<C>,
    /// Bytes sealed and opened into the context's own `Vec`s while graviola is not keyed.
    handled: u64,
    /// Whether graviola may be keyed (1) or not (0): the CPU supports it, decided once, when the
    /// context is. A `u64`, not a `bool`, so that the struct has no padding.
    keyable: u64,
    rustcrypto: crate::backend::rustcrypto::aead::Keyed<C>,
}

impl<C: Cipher + KeySizeUser> Drop for Keyed<C> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

/// RustCrypto's cipher wipes its key schedule on drop, graviola's its own, and the kept key is
/// wiped by `Drop` above.
impl<C: Cipher + KeySizeUser + zeroize::ZeroizeOnDrop> zeroize::ZeroizeOnDrop for Keyed<C> where
    crate::backend::rustcrypto::aead::Keyed<C>: zeroize::ZeroizeOnDrop
{
}

impl<C: AeadInOut + KeyInit + Cipher> Keyed<C> {
    /// graviola decrypts in place only: a `Vec`-returning open always copies and decrypts there
    /// (graviola's stitched AES-GCM reads and writes each block once); zeroing a `Vec` first to
    /// decrypt into would be a second pass. (RustCrypto, which opens the first 16 KiB of an
    /// AES-GCM context, is within 4% either way.)
    pub(crate) const OPEN_OUT_OF_PLACE_FROM: usize = usize::MAX;

    pub(crate) fn new(key: &Key<C>, (): ()) -> Self {
        let available = crate::backend::graviola::available();
        let mut keyed = Self {
            graviola: Slot::Absent(C::ABSENT),
            key: if available {
                key.clone()
            } else {
                Key::<C>::default()
            },
            handled: 0,
            keyable: u64::from(available),
            rustcrypto: crate::backend::rustcrypto::aead::Keyed::new(key, ()),
        };
        if C::GRAVIOLA_FROM == 0 {
            let _ = keyed.graviola(0);
        }
        keyed
    }

    /// graviola's cipher for an operation on `len` more bytes, keyed here when this operation
    /// takes the context to [`Cipher::GRAVIOLA_FROM`] bytes; `None` before that (RustCrypto's
    /// runs) and on CPUs graviola does not support. The count and the decision are public: they
    /// depend on message lengths only.
    fn graviola(&mut self, len: usize) -> Option<&C::Engine> {
        if let Slot::Absent(_) = self.graviola {
            self.handled = self
                .handled
                .saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
            if self.handled < C::GRAVIOLA_FROM || self.keyable == 0 {
                return None;
            }
            self.graviola = Slot::Graviola(C::key(self.key.as_slice()));
            self.key.zeroize();
        }
        match &self.graviola {
            Slot::Graviola(engine) => Some(engine),
            Slot::Absent(_) => None,
        }
    }

    pub(crate) fn seal_in_place(
        &mut self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        match self.graviola(buffer.len()) {
            Some(engine) => {
                C::encrypt(engine, nonce, aad, buffer, tag);
                Ok(())
            }
            None => self.rustcrypto.seal_in_place(nonce, aad, buffer, tag),
        }
    }

    pub(crate) fn seal_to(
        &mut self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &mut Tag<C>,
    ) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        match self.graviola(input.len()) {
            Some(engine) => {
                // graviola encrypts in place only.
                output.copy_from_slice(input);
                C::encrypt(engine, nonce, aad, output, tag);
                Ok(())
            }
            None => self.rustcrypto.seal_to(nonce, aad, input, output, tag),
        }
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

    /// graviola's where it is keyed, in memory nobody else sees: graviola decrypts before it
    /// checks the tag and clears the buffer on a bad one.
    pub(crate) fn open_private_in_place(
        &mut self,
        nonce: &Nonce<C>,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        match self.graviola(buffer.len()) {
            Some(engine) => crate::aead::opened(C::decrypt(engine, nonce, aad, buffer, tag)),
            None => self.rustcrypto.open_in_place(nonce, aad, buffer, tag),
        }
    }

    /// The same on a copy of `input` (graviola decrypts in place only; `open` does not come
    /// here, see [`Self::OPEN_OUT_OF_PLACE_FROM`]).
    pub(crate) fn open_private_to(
        &mut self,
        nonce: &Nonce<C>,
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &Tag<C>,
    ) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        match self.graviola(input.len()) {
            Some(engine) => {
                output.copy_from_slice(input);
                crate::aead::opened(C::decrypt(engine, nonce, aad, output, tag))
            }
            None => self.rustcrypto.open_to(nonce, aad, input, output, tag),
        }
    }
}

#[cfg(all(test, feature = "aes-gcm"))]
mod tests {
    use super::{Keyed, Slot};

    /// An AES-GCM context runs RustCrypto's cipher until it has handled 16 KiB and graviola's
    /// from the message that reaches it; a ChaCha20-Poly1305 one is graviola's from the start;
    /// on a CPU graviola does not support neither ever is, and the kept key is zeros.
    #[test]
    fn graviola_keyed_from_16_kib() {
        let key = aead::Key::<aes_gcm::Aes128Gcm>::from([7u8; 16]);
        let mut keyed = Keyed::<aes_gcm::Aes128Gcm>::new(&key, ());
        let is_graviola = |k: &Keyed<aes_gcm::Aes128Gcm>| matches!(k.graviola, Slot::Graviola(_));
        assert!(!is_graviola(&keyed));
        assert!(keyed.graviola(16 * 1024 - 1).is_none());
        assert!(!is_graviola(&keyed));
        assert_eq!(keyed.key, key);
        assert!(keyed.graviola(1).is_some());
        assert!(is_graviola(&keyed));
        assert_eq!(keyed.key, aead::Key::<aes_gcm::Aes128Gcm>::default());
        assert!(keyed.graviola(0).is_some());

        let mut fallback =
            crate::backend::graviola::without(|| Keyed::<aes_gcm::Aes128Gcm>::new(&key, ()));
        assert_eq!(fallback.key, aead::Key::<aes_gcm::Aes128Gcm>::default());
        assert!(fallback.graviola(1 << 20).is_none());
        assert!(!matches!(fallback.graviola, Slot::Graviola(_)));

        #[cfg(feature = "chacha20poly1305")]
        {
            let key = aead::Key::<crate::aead::chacha20poly1305::Cipher>::from([7u8; 32]);
            let keyed = Keyed::<crate::aead::chacha20poly1305::Cipher>::new(&key, ());
            assert!(matches!(keyed.graviola, Slot::Graviola(_)));
        }
    }
}
