//! The runtime enums: a typed key, AEAD state or exporter secret of whichever algorithm, one
//! variant per row of the table (`table.rs`). No allocation, no trait object: each operation
//! is one `match` away from the typed code that does the work.
//!
//! What the table generates here is the enums and, for each, its two `match`es: the variant of
//! an algorithm id (`from_slot`) and the visit of the typed value inside (`visit`). Every
//! operation is ordinary generic Rust below them, written as a small visitor (`OnSk`, `OnPk`,
//! `OnAead`, `OnSealing`, `OnExporter`), as `steps.rs` writes the setups' steps.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

use super::typed::{PrivateKey, PublicKey};
use crate::Error;
use crate::aead::{Aead, ExportOnly, SealingAead};
use crate::context::{AeadState, export};
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::layout::{Fill, lead, size_align, tail, total};

/// `*slot` taken out as a `T`, if `slot` holds an `Option<T>` (`None` otherwise, and `*slot` is
/// left alone). This is how `suite/` puts a value of a type parameter (`PrivateKey<K>`,
/// `AeadState<A>`, ...) into the enum variant of its type, without the primitives naming the
/// runtime types: no allocation, no `unsafe`. The type ids are constants, so once the type
/// parameter is known the compiler keeps only the one move that succeeds.
pub(super) fn take_as<T: 'static>(slot: &mut dyn core::any::Any) -> Option<T> {
    slot.downcast_mut::<Option<T>>().and_then(Option::take)
}

/// [`take_as`], then `wrap`, in a frame of its own: the arm of a `from_slot` that calls it
/// writes the variant straight into the result. A debug build gives each temporary of a
/// function a stack slot of its own, and `from_slot` is inlined into every caller, so with the
/// taken key a temporary of each arm, a key of every KEM's type sat in each caller's frame
/// (about 125 KB with every KEM, in each of several frames of `Suite::derive_key_pair`).
fn take_into<T: 'static, E>(slot: &mut dyn core::any::Any, wrap: impl FnOnce(T) -> E) -> Option<E> {
    take_as(slot).map(wrap)
}

/// `wrap(key.clone())`, in a frame of its own, for the arms of the key enums' `clone`.
fn cloned_into<T: Clone, E>(key: &T, wrap: impl FnOnce(T) -> E) -> E {
    wrap(key.clone())
}

/// Work on the typed private key inside an [`AnySk`], generic over its KEM.
pub(crate) trait OnSk<'k> {
    type Output;
    fn run<K: Kem>(self, key: &'k PrivateKey<K>) -> Self::Output;
}

/// Work on the typed public key inside an [`AnyPk`], generic over its KEM.
pub(crate) trait OnPk<'k> {
    type Output;
    fn run<K: Kem>(self, key: &'k PublicKey<K>) -> Self::Output;
}

/// Work that reads a context's AEAD state, whichever the AEAD, ExportOnly included.
pub(super) trait OnAead {
    type Output;
    fn run<A: Aead>(self, state: &AeadState<A>) -> Self::Output;
}

/// Work that changes a context's AEAD state, whichever the AEAD, ExportOnly included.
#[cfg(feature = "hazmat")]
pub(super) trait OnAeadMut {
    type Output;
    fn run<A: Aead>(self, state: &mut AeadState<A>) -> Self::Output;
}

/// Work on a context's AEAD state that needs an AEAD that seals: ExportOnly's is
/// `UnsupportedOperation` ([`AnyAead::visit_sealing`]).
pub(super) trait OnSealing {
    type Output;
    fn run<A: SealingAead>(self, state: &mut AeadState<A>) -> Result<Self::Output, Error>;
}

/// Work on a context's exporter secret, generic over its KDF.
pub(super) trait OnExporter {
    type Output;
    fn run<F: Kdf>(self, exporter: &F::Exporter) -> Self::Output;
}

/// The largest of `values` (0 for none): the maxima below are the table's, not written by hand.
const fn max(values: &[usize]) -> usize {
    let (mut max, mut i) = (0, 0);
    while i < values.len() {
        if values[i] > max {
            max = values[i];
        }
        i += 1;
    }
    max
}

/// The runtime enums, from the table: their variants and layouts, and their `match`es.
macro_rules! any_types {
    (
        dh_kems: [$($(#[$dcfg:meta])* $dv:ident: $dk:ty),* $(,)?],
        other_kems: [$($(#[$ocfg:meta])* $ov:ident: $ok:ty),* $(,)?],
        two_stage_kdfs: [$($fv:ident: $f:ty),* $(,)?],
        one_stage_kdfs: [$($f1v:ident: $f1:ty),* $(,)?],
        sealing_aeads: [$($(#[$scfg:meta])* $sv:ident: $sa:ty),* $(,)?] $(,)?
    ) => {
        any_keys!($($(#[$dcfg])* $dv: $dk,)* $($(#[$ocfg])* $ov: $ok,)*);

        /// The payloads of [`AnyAead`] and [`AnyExporter`], which a runtime context holds side
        /// by side: each enum's size is a multiple of the larger alignment of the two, so the
        /// second follows the first with nothing between (`suite::context::State`).
        const AEAD_PAYLOADS: &[(usize, usize)] = &[
            size_align!(AeadState<ExportOnly>),
            $($(#[$scfg])* size_align!(AeadState<$sa>),)*
        ];
        const EXPORTER_PAYLOADS: &[(usize, usize)] =
            &[$(size_align!(<$f as Kdf>::Exporter),)* $(size_align!(<$f1 as Kdf>::Exporter),)*];

        /// A context's AEAD state, whichever the AEAD, in [`lead`](crate::layout::lead)'s layout: no byte of it is
        /// padding, so none keeps what the stack held where the value was built (a copy of
        /// the key or nonce, in a temporary's or a moved-from value's place).
        #[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
        #[allow(dead_code, reason = "the fill is written, never read")]
        #[repr(u8)]
        pub(crate) enum AnyAead {
            $($(#[$scfg])* $sv(
                Fill<{ lead(core::mem::align_of::<AeadState<$sa>>()) }>,
                AeadState<$sa>,
                Fill<{ tail(AEAD_TOTAL, core::mem::size_of::<AeadState<$sa>>(), core::mem::align_of::<AeadState<$sa>>()) }>,
            ),)*
            ExportOnly(
                Fill<{ lead(core::mem::align_of::<AeadState<ExportOnly>>()) }>,
                AeadState<ExportOnly>,
                Fill<{ tail(AEAD_TOTAL, core::mem::size_of::<AeadState<ExportOnly>>(), core::mem::align_of::<AeadState<ExportOnly>>()) }>,
            ),
        }

        impl AnyAead {
            /// The variant of the AEAD `id`, holding the `AeadState` in `slot` if its type is
            /// that variant's ([`take_as`]).
            #[inline(always)]
            fn from_slot(id: u16, slot: &mut dyn core::any::Any) -> Option<Self> {
                match id {
                    $($(#[$scfg])* <$sa as Aead>::ID => take_as(slot).map(|s| Self::$sv(Fill::ZERO, s, Fill::ZERO)),)*
                    ExportOnly::ID => take_as(slot).map(|s| Self::ExportOnly(Fill::ZERO, s, Fill::ZERO)),
                    _ => None,
                }
            }

            /// `work` on the state inside.
            pub(super) fn visit<W: OnAead>(&self, work: W) -> W::Output {
                match self {
                    $($(#[$scfg])* Self::$sv(_, s, _) => work.run(s),)*
                    Self::ExportOnly(_, s, _) => work.run(s),
                }
            }

            /// `work` on the state inside, which it may change.
            #[cfg(feature = "hazmat")]
            pub(super) fn visit_mut<W: OnAeadMut>(&mut self, work: W) -> W::Output {
                match self {
                    $($(#[$scfg])* Self::$sv(_, s, _) => work.run(s),)*
                    Self::ExportOnly(_, s, _) => work.run(s),
                }
            }

            /// `work` on the state inside; ExportOnly's is `UnsupportedOperation`.
            pub(super) fn visit_sealing<W: OnSealing>(&mut self, work: W) -> Result<W::Output, Error> {
                match self {
                    $($(#[$scfg])* Self::$sv(_, s, _) => work.run(s),)*
                    Self::ExportOnly(..) => Err(Error::UnsupportedOperation),
                }
            }
        }

        /// A context's exporter secret, whichever the KDF, in [`lead`](crate::layout::lead)'s layout, as
        /// [`AnyAead`] is and for the same reason.
        #[allow(missing_debug_implementations)] // holds the exporter secret: no `Debug` on purpose
        #[allow(dead_code, reason = "the fill is written, never read")]
        #[repr(u8)]
        pub(crate) enum AnyExporter {
            $($fv(
                Fill<{ lead(core::mem::align_of::<<$f as Kdf>::Exporter>()) }>,
                <$f as Kdf>::Exporter,
                Fill<{ tail(EXPORTER_TOTAL, core::mem::size_of::<<$f as Kdf>::Exporter>(), core::mem::align_of::<<$f as Kdf>::Exporter>()) }>,
            ),)*
            $($f1v(
                Fill<{ lead(core::mem::align_of::<<$f1 as Kdf>::Exporter>()) }>,
                <$f1 as Kdf>::Exporter,
                Fill<{ tail(EXPORTER_TOTAL, core::mem::size_of::<<$f1 as Kdf>::Exporter>(), core::mem::align_of::<<$f1 as Kdf>::Exporter>()) }>,
            ),)*
        }

        impl AnyExporter {
            /// The variant of the KDF `id`, holding the exporter secret in `slot` if its type
            /// is that variant's ([`take_as`]).
            #[inline(always)]
            fn from_slot(id: u16, slot: &mut dyn core::any::Any) -> Option<Self> {
                match id {
                    $(<$f as Kdf>::ID => take_as(slot).map(|x| Self::$fv(Fill::ZERO, x, Fill::ZERO)),)*
                    $(<$f1 as Kdf>::ID => take_as(slot).map(|x| Self::$f1v(Fill::ZERO, x, Fill::ZERO)),)*
                    _ => None,
                }
            }

            /// `work` on the exporter secret inside.
            pub(super) fn visit<W: OnExporter>(&self, work: W) -> W::Output {
                match self {
                    $(Self::$fv(_, x, _) => work.run::<$f>(x),)*
                    $(Self::$f1v(_, x, _) => work.run::<$f1>(x),)*
                }
            }
        }
    };
}

/// The runtime key enums, from the KEMs of the table: their variants and layouts, their
/// `match`es, and the lengths the maxima are taken over.
macro_rules! any_keys {
    ($($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
        /// `(Nenc, Npk, Nsk)` of every KEM in the build.
        const KEM_LENGTHS: &[(usize, usize, usize)] = &[$($(#[$cfg])* {
            use hybrid_array::typenum::Unsigned;
            (<$k as Kem>::NEnc::USIZE, <$k as Kem>::NPk::USIZE, <$k as Kem>::NSk::USIZE)
        },)*];
        /// The size of every variant of [`AnySk`] ([`lead`](crate::layout::lead)'s layout).
        const SK_TOTAL: usize = total(&[$($(#[$cfg])* size_align!(PrivateKey<$k>),)*], 1);
        /// The size of every variant of [`AnyPk`] ([`lead`](crate::layout::lead)'s layout).
        const PK_TOTAL: usize = total(&[$($(#[$cfg])* size_align!(PublicKey<$k>),)*], 1);

        /// A typed private key of whichever KEM, in [`lead`](crate::layout::lead)'s layout: no byte of it is
        /// padding, so none of the bytes past a smaller key (an X25519 scalar in an enum sized
        /// for ML-KEM-1024's expanded key) keeps what the stack held where the value was built.
        // Inline, not boxed, so that no_std builds without an allocator have runtime keys:
        // the size is the largest typed key's, as `suite::PrivateKey` documents.
        // No derived `Clone` (see the impl below) and no `Debug`: `suite::PrivateKey`'s is
        // written by hand, redacted.
        #[allow(clippy::large_enum_variant)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        // `repr(u8)` needs a variant: a build with no KEM has none.
        #[cfg_attr(any(feature = "x25519", feature = "x448", feature = "nist", feature = "secp256k1", feature = "pq"), repr(u8))]
        pub(crate) enum AnySk {
            $($(#[$cfg])* $v(
                Fill<{ lead(core::mem::align_of::<PrivateKey<$k>>()) }>,
                PrivateKey<$k>,
                Fill<{ tail(SK_TOTAL, core::mem::size_of::<PrivateKey<$k>>(), core::mem::align_of::<PrivateKey<$k>>()) }>,
            ),)*
        }

        /// A typed public key of whichever KEM, laid out as [`AnySk`]: a public key carries no
        /// secret of its own, but its bytes past a smaller key would carry the stack's.
        #[allow(clippy::large_enum_variant)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        #[cfg_attr(any(feature = "x25519", feature = "x448", feature = "nist", feature = "secp256k1", feature = "pq"), repr(u8))]
        pub(crate) enum AnyPk {
            $($(#[$cfg])* $v(
                Fill<{ lead(core::mem::align_of::<PublicKey<$k>>()) }>,
                PublicKey<$k>,
                Fill<{ tail(PK_TOTAL, core::mem::size_of::<PublicKey<$k>>(), core::mem::align_of::<PublicKey<$k>>()) }>,
            ),)*
        }

        // With no KEM feature the enums are empty: every `match` below has no arm.
        #[allow(unreachable_code, unused_variables)]
        impl AnySk {
            /// The variant of the KEM `id`, holding the key in `slot` if its type is that
            /// variant's ([`take_as`]).
            #[inline(always)]
            fn from_slot(id: u16, slot: &mut dyn core::any::Any) -> Option<Self> {
                match id {
                    $($(#[$cfg])* <$k as Kem>::ID => take_into(slot, |k| Self::$v(Fill::ZERO, k, Fill::ZERO)),)*
                    _ => None,
                }
            }

            /// `work` on the typed key inside.
            pub(crate) fn visit<'k, W: OnSk<'k>>(&'k self, work: W) -> W::Output {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => work.run(k),)*
                }
            }
        }

        #[allow(unreachable_code, unused_variables)]
        impl AnyPk {
            /// As [`AnySk::from_slot`].
            #[inline(always)]
            fn from_slot(id: u16, slot: &mut dyn core::any::Any) -> Option<Self> {
                match id {
                    $($(#[$cfg])* <$k as Kem>::ID => take_into(slot, |k| Self::$v(Fill::ZERO, k, Fill::ZERO)),)*
                    _ => None,
                }
            }

            /// `work` on the typed key inside.
            pub(crate) fn visit<'k, W: OnPk<'k>>(&'k self, work: W) -> W::Output {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => work.run(k),)*
                }
            }
        }

        // Not derived: a derived `clone` copies each arm's key into a temporary of its own
        // (297 KB of a debug build's frame with every KEM); here each arm is a call that
        // writes the copy into the result, as `from_slot`'s arms do.
        #[allow(unreachable_code, unused_variables)]
        impl Clone for AnySk {
            fn clone(&self) -> Self {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => cloned_into(k, |k| Self::$v(Fill::ZERO, k, Fill::ZERO)),)*
                }
            }
        }

        #[allow(unreachable_code, unused_variables)]
        impl Clone for AnyPk {
            fn clone(&self) -> Self {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => cloned_into(k, |k| Self::$v(Fill::ZERO, k, Fill::ZERO)),)*
                }
            }
        }
    };
}

suite_table!(any_types);

/// The longest `enc` of any KEM in the build (MLKEM1024-P384's 1665 bytes in a build with
/// every KEM): the capacity of [`EncappedKey`](super::EncappedKey).
pub const MAX_ENC_LEN: usize = {
    let mut lens = [0; KEM_LENGTHS.len()];
    let mut i = 0;
    while i < lens.len() {
        lens[i] = KEM_LENGTHS[i].0;
        i += 1;
    }
    max(&lens)
};

/// The longest serialized key, public or private, or encapsulated key of any KEM in the build.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) const MAX_KEY_LEN: usize = {
    let mut lens = [0; 3 * KEM_LENGTHS.len()];
    let mut i = 0;
    while i < KEM_LENGTHS.len() {
        (lens[3 * i], lens[3 * i + 1], lens[3 * i + 2]) = KEM_LENGTHS[i];
        i += 1;
    }
    max(&lens)
};

/// The one alignment both context enums' sizes are rounded to.
const CONTEXT_ALIGN: usize = {
    let mut aligns = [0; AEAD_PAYLOADS.len() + EXPORTER_PAYLOADS.len()];
    let mut i = 0;
    while i < aligns.len() {
        aligns[i] = if i < AEAD_PAYLOADS.len() {
            AEAD_PAYLOADS[i].1
        } else {
            EXPORTER_PAYLOADS[i - AEAD_PAYLOADS.len()].1
        };
        i += 1;
    }
    max(&aligns)
};

/// The size of every variant of [`AnyAead`] ([`lead`](crate::layout::lead)'s layout).
const AEAD_TOTAL: usize = total(AEAD_PAYLOADS, CONTEXT_ALIGN);
/// The size of every variant of [`AnyExporter`] ([`lead`](crate::layout::lead)'s layout).
const EXPORTER_TOTAL: usize = total(EXPORTER_PAYLOADS, CONTEXT_ALIGN);

const _: () = assert!(core::mem::size_of::<AnyAead>() == AEAD_TOTAL);
const _: () = assert!(core::mem::size_of::<AnyExporter>() == EXPORTER_TOTAL);
const _: () = assert!(core::mem::size_of::<AnySk>() == SK_TOTAL);
const _: () = assert!(core::mem::size_of::<AnyPk>() == PK_TOTAL);

// -- the keys --

/// The KEM's id.
struct KemId;

impl OnSk<'_> for KemId {
    type Output = u16;
    fn run<K: Kem>(self, _: &PrivateKey<K>) -> u16 {
        K::ID
    }
}

impl OnPk<'_> for KemId {
    type Output = u16;
    fn run<K: Kem>(self, _: &PublicKey<K>) -> u16 {
        K::ID
    }
}

/// The typed key inside, if it is a key of `K`.
struct Typed<K>(core::marker::PhantomData<K>);

impl<'k, K: Kem> OnSk<'k> for Typed<K> {
    type Output = Option<&'k PrivateKey<K>>;
    fn run<J: Kem>(self, key: &'k PrivateKey<J>) -> Self::Output {
        (key as &dyn core::any::Any).downcast_ref()
    }
}

impl<'k, K: Kem> OnPk<'k> for Typed<K> {
    type Output = Option<&'k PublicKey<K>>;
    fn run<J: Kem>(self, key: &'k PublicKey<J>) -> Self::Output {
        (key as &dyn core::any::Any).downcast_ref()
    }
}

impl AnySk {
    /// The variant of `K` (by its id), holding `key` (proven by its type).
    pub(crate) fn from_typed<K: Kem>(key: PrivateKey<K>) -> Self {
        Self::from_slot(K::ID, &mut Some(key))
            .unwrap_or_else(|| unreachable!("every KEM has a variant of its own type"))
    }

    /// The typed key inside, if it is a key of `K`.
    pub(crate) fn typed<K: Kem>(&self) -> Option<&PrivateKey<K>> {
        self.visit(Typed(core::marker::PhantomData))
    }

    pub(crate) fn kem_id(&self) -> u16 {
        self.visit(KemId)
    }

    pub(crate) fn public_key(&self) -> AnyPk {
        struct Public;
        impl OnSk<'_> for Public {
            type Output = AnyPk;
            fn run<K: Kem>(self, key: &PrivateKey<K>) -> AnyPk {
                AnyPk::from_typed(key.public_key())
            }
        }
        self.visit(Public)
    }

    /// `SerializePrivateKey`, in a buffer wiped on drop.
    #[cfg(feature = "alloc")]
    pub(crate) fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        struct Bytes;
        impl OnSk<'_> for Bytes {
            type Output = Zeroizing<Vec<u8>>;
            fn run<K: Kem>(self, key: &PrivateKey<K>) -> Self::Output {
                Zeroizing::new(key.to_bytes().to_vec())
            }
        }
        self.visit(Bytes)
    }

    /// Runs `f` on `SerializePrivateKey`'s bytes, held on the stack and wiped after.
    #[cfg(feature = "serde")]
    pub(crate) fn with_bytes<T>(&self, f: impl FnOnce(&[u8]) -> T) -> T {
        struct WithBytes<F>(F);
        impl<T, F: FnOnce(&[u8]) -> T> OnSk<'_> for WithBytes<F> {
            type Output = T;
            fn run<K: Kem>(self, key: &PrivateKey<K>) -> T {
                (self.0)(&key.to_bytes())
            }
        }
        self.visit(WithBytes(f))
    }

    /// Whether both are the same key, in constant time but for the KEMs (public).
    pub(crate) fn ct_eq(&self, other: &Self) -> subtle::Choice {
        struct CtEq<'a>(&'a AnySk);
        impl OnSk<'_> for CtEq<'_> {
            type Output = subtle::Choice;
            fn run<K: Kem>(self, key: &PrivateKey<K>) -> subtle::Choice {
                match self.0.typed::<K>() {
                    Some(other) => subtle::ConstantTimeEq::ct_eq(key, other),
                    // Keys of two KEMs: the KEM is public, so this branch leaks nothing.
                    None => subtle::Choice::from(0),
                }
            }
        }
        self.visit(CtEq(other))
    }
}

impl AnyPk {
    /// The variant of `K` (by its id), holding `key` (proven by its type).
    pub(crate) fn from_typed<K: Kem>(key: PublicKey<K>) -> Self {
        Self::from_slot(K::ID, &mut Some(key))
            .unwrap_or_else(|| unreachable!("every KEM has a variant of its own type"))
    }

    /// The typed key inside, if it is a key of `K`.
    pub(crate) fn typed<K: Kem>(&self) -> Option<&PublicKey<K>> {
        self.visit(Typed(core::marker::PhantomData))
    }

    pub(crate) fn kem_id(&self) -> u16 {
        self.visit(KemId)
    }

    /// `SerializePublicKey`.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        struct Bytes;
        impl<'k> OnPk<'k> for Bytes {
            type Output = &'k [u8];
            fn run<K: Kem>(self, key: &'k PublicKey<K>) -> &'k [u8] {
                key.as_bytes()
            }
        }
        self.visit(Bytes)
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn prepare(&self) -> crate::suite::keys::Prepared {
        struct Prepare;
        impl OnPk<'_> for Prepare {
            type Output = crate::suite::keys::Prepared;
            fn run<K: Kem>(self, key: &PublicKey<K>) -> Self::Output {
                crate::suite::keys::Prepared::new(key)
            }
        }
        self.visit(Prepare)
    }
}

// -- the context's state --

impl AnyAead {
    /// The variant of `A` (by its id), holding `state` (proven by its type: `take_as`).
    pub(super) fn from_typed<A: Aead>(state: AeadState<A>) -> Self {
        Self::from_slot(A::ID, &mut Some(state))
            .unwrap_or_else(|| unreachable!("every AEAD has a variant of its own type"))
    }

    /// The AEAD's id.
    pub(super) fn id(&self) -> u16 {
        struct Id;
        impl OnAead for Id {
            type Output = u16;
            fn run<A: Aead>(self, _: &AeadState<A>) -> u16 {
                A::ID
            }
        }
        self.visit(Id)
    }

    /// The sequence number of the next message.
    pub(super) fn seq(&self) -> u64 {
        struct Seq;
        impl OnAead for Seq {
            type Output = u64;
            fn run<A: Aead>(self, state: &AeadState<A>) -> u64 {
                state.seq()
            }
        }
        self.visit(Seq)
    }

    #[cfg(feature = "hazmat")]
    pub(super) fn set_seq(&mut self, seq: u64) {
        struct SetSeq(u64);
        impl OnAeadMut for SetSeq {
            type Output = ();
            fn run<A: Aead>(self, state: &mut AeadState<A>) {
                state.set_seq(self.0);
            }
        }
        self.visit_mut(SetSeq(seq));
    }
}

impl AnyExporter {
    /// The variant of `F` (by its id), holding `exporter` (proven by its type: `take_as`).
    pub(super) fn from_typed<F: Kdf>(exporter: F::Exporter) -> Self {
        Self::from_slot(F::ID, &mut Some(exporter))
            .unwrap_or_else(|| unreachable!("every KDF has a variant of its own type"))
    }

    /// `Context.Export(exporter_context, L)` (RFC 9180 §5.3) under `suite_id`.
    pub(super) fn export(
        &self,
        suite_id: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        struct Export<'a> {
            suite_id: &'a [u8],
            exporter_context: &'a [u8],
            out: &'a mut [u8],
        }
        impl OnExporter for Export<'_> {
            type Output = Result<(), Error>;
            fn run<F: Kdf>(self, exporter: &F::Exporter) -> Self::Output {
                export::<F>(self.suite_id, exporter, self.exporter_context, self.out)
            }
        }
        self.visit(Export {
            suite_id,
            exporter_context,
            out,
        })
    }
}
