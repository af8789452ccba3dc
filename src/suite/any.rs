//! The runtime enums: a typed key, AEAD state or exporter secret of whichever algorithm, one
//! variant per row of the table (`table.rs`), with the conversions from the typed values and
//! the matches that run the typed code on them. No allocation, no trait object: each operation
//! is one `match` away from the typed code that does the work.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

use crate::Error;
use crate::aead::{Aead, ExportOnly};
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

/// The conversions between a runtime key enum (`AnySk`, `AnyPk`) and the typed keys it holds
/// (`typed::PrivateKey<K>`, `typed::PublicKey<K>`), here because the primitives do not know the
/// runtime enums: the variant is chosen by the KEM's id and the key moved into it only if its
/// type is the variant's (`take_as`). With no KEM feature the enums are empty and nothing here
/// is instantiated.
macro_rules! typed_conversions {
    ($enum:ident, $typed:ident, $($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
        #[allow(unreachable_code, unused_variables)]
        impl $enum {
            /// The variant of `K` (by its id), holding `key` (proven by its type).
            pub(crate) fn from_typed<K: Kem>(key: super::typed::$typed<K>) -> Self {
                let slot = &mut Some(key);
                let any = match K::ID {
                    $($(#[$cfg])* <$k as Kem>::ID => take_as(slot).map(|k| Self::$v(Fill::ZERO, k, Fill::ZERO)),)*
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every KEM has a variant of its own type"))
            }

            /// The typed key inside, if it is a key of `K`.
            pub(crate) fn typed<K: Kem>(&self) -> Option<&super::typed::$typed<K>> {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => (k as &dyn core::any::Any).downcast_ref(),)*
                }
            }
        }
    };
}

/// The runtime enums and their impls, from the table. `$d` is a `$`, for `with_sealing!`.
macro_rules! any_types {
    (
        $d:tt
        dh_kems: [$($(#[$dcfg:meta])* $dv:ident: $dk:ty),* $(,)?],
        other_kems: [$($(#[$ocfg:meta])* $ov:ident: $ok:ty),* $(,)?],
        kdfs: [$($fv:ident: $f:ty),* $(,)?],
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
        const EXPORTER_PAYLOADS: &[(usize, usize)] = &[$(size_align!(<$f as Kdf>::Exporter),)*];
        const CONTEXT_ALIGN: usize = {
            let mut align = 1;
            let mut i = 0;
            while i < AEAD_PAYLOADS.len() {
                if AEAD_PAYLOADS[i].1 > align {
                    align = AEAD_PAYLOADS[i].1;
                }
                i += 1;
            }
            let mut i = 0;
            while i < EXPORTER_PAYLOADS.len() {
                if EXPORTER_PAYLOADS[i].1 > align {
                    align = EXPORTER_PAYLOADS[i].1;
                }
                i += 1;
            }
            align
        };

        /// The size of every variant of [`AnyAead`] ([`lead`](crate::layout::lead)'s layout).
        const AEAD_TOTAL: usize = total(AEAD_PAYLOADS, CONTEXT_ALIGN);

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

        const _: () = assert!(core::mem::size_of::<AnyAead>() == AEAD_TOTAL);

        impl AnyAead {
            /// The variant of `A` (by its id), holding `state` (proven by its type: `take_as`).
            pub(super) fn from_typed<A: Aead>(state: AeadState<A>) -> Self {
                let slot = &mut Some(state);
                let any = match A::ID {
                    $($(#[$scfg])* <$sa as Aead>::ID => {
                        take_as(slot).map(|s| Self::$sv(Fill::ZERO, s, Fill::ZERO))
                    })*
                    ExportOnly::ID => take_as(slot).map(|s| Self::ExportOnly(Fill::ZERO, s, Fill::ZERO)),
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every AEAD has a variant of its own type"))
            }

            pub(super) fn id(&self) -> u16 {
                match self {
                    $($(#[$scfg])* Self::$sv(..) => <$sa as Aead>::ID,)*
                    Self::ExportOnly(..) => ExportOnly::ID,
                }
            }

            pub(super) fn seq(&self) -> u64 {
                match self {
                    $($(#[$scfg])* Self::$sv(_, s, _) => s.seq(),)*
                    Self::ExportOnly(_, s, _) => s.seq(),
                }
            }

            #[cfg(feature = "hazmat")]
            pub(super) fn set_seq(&mut self, seq: u64) {
                match self {
                    $($(#[$scfg])* Self::$sv(_, s, _) => s.set_seq(seq),)*
                    Self::ExportOnly(_, s, _) => s.set_seq(seq),
                }
            }
        }

        /// Runs `$body` with `$s` bound to the sealing AEAD's state; ExportOnly is
        /// `UnsupportedOperation`.
        macro_rules! with_sealing {
            ($d aead:expr, $d s:ident => $d body:expr) => {
                match $d aead {
                    $($(#[$scfg])* AnyAead::$sv(_, $d s, _) => $d body,)*
                    AnyAead::ExportOnly(..) => Err(Error::UnsupportedOperation),
                }
            };
        }

        /// The size of every variant of [`AnyExporter`] ([`lead`](crate::layout::lead)'s layout).
        const EXPORTER_TOTAL: usize = total(EXPORTER_PAYLOADS, CONTEXT_ALIGN);

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
        }

        const _: () = assert!(core::mem::size_of::<AnyExporter>() == EXPORTER_TOTAL);

        impl AnyExporter {
            /// The variant of `F` (by its id), holding `exporter` (proven by its type:
            /// `take_as`).
            pub(super) fn from_typed<F: Kdf>(exporter: F::Exporter) -> Self {
                let slot = &mut Some(exporter);
                let any = match F::ID {
                    $(<$f as Kdf>::ID => take_as(slot).map(|x| Self::$fv(Fill::ZERO, x, Fill::ZERO)),)*
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every KDF has a variant of its own type"))
            }

            /// `Context.Export(exporter_context, L)` (RFC 9180 §5.3) under `suite_id`.
            pub(super) fn export(
                &self,
                suite_id: &[u8],
                exporter_context: &[u8],
                out: &mut [u8],
            ) -> Result<(), Error> {
                match self {
                    $(Self::$fv(_, x, _) => export::<$f>(suite_id, x, exporter_context, out),)*
                }
            }
        }
    };
}

/// The runtime key enums: one variant per KEM of the table, holding the typed key.
macro_rules! any_keys {
    ($($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
        /// The size of every variant of [`AnySk`] ([`lead`](crate::layout::lead)'s layout).
        const SK_TOTAL: usize =
            total(&[$($(#[$cfg])* size_align!(super::typed::PrivateKey<$k>),)*], 1);
        /// The size of every variant of [`AnyPk`] ([`lead`](crate::layout::lead)'s layout).
        const PK_TOTAL: usize =
            total(&[$($(#[$cfg])* size_align!(super::typed::PublicKey<$k>),)*], 1);

        /// A typed private key of whichever KEM, in [`lead`](crate::layout::lead)'s layout: no byte of it is
        /// padding, so none of the bytes past a smaller key (an X25519 scalar in an enum sized
        /// for ML-KEM-1024's expanded key) keeps what the stack held where the value was built.
        // Inline, not boxed, so that no_std builds without an allocator have runtime keys:
        // the size is the largest typed key's, as `suite::PrivateKey` documents.
        #[derive(Clone)] // no `Debug`: `suite::PrivateKey`'s is written by hand, redacted
        #[allow(clippy::large_enum_variant)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        // `repr(u8)` needs a variant: a build with no KEM has none.
        #[cfg_attr(any(feature = "x25519", feature = "x448", feature = "nist", feature = "secp256k1", feature = "pq"), repr(u8))]
        pub(crate) enum AnySk {
            $($(#[$cfg])* $v(
                Fill<{ lead(core::mem::align_of::<super::typed::PrivateKey<$k>>()) }>,
                super::typed::PrivateKey<$k>,
                Fill<{
                    tail(
                        SK_TOTAL,
                        core::mem::size_of::<super::typed::PrivateKey<$k>>(),
                        core::mem::align_of::<super::typed::PrivateKey<$k>>(),
                    )
                }>,
            ),)*
        }

        /// A typed public key of whichever KEM, laid out as [`AnySk`]: a public key carries no
        /// secret of its own, but its bytes past a smaller key would carry the stack's.
        #[derive(Clone)]
        #[allow(clippy::large_enum_variant)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        #[cfg_attr(any(feature = "x25519", feature = "x448", feature = "nist", feature = "secp256k1", feature = "pq"), repr(u8))]
        pub(crate) enum AnyPk {
            $($(#[$cfg])* $v(
                Fill<{ lead(core::mem::align_of::<super::typed::PublicKey<$k>>()) }>,
                super::typed::PublicKey<$k>,
                Fill<{
                    tail(
                        PK_TOTAL,
                        core::mem::size_of::<super::typed::PublicKey<$k>>(),
                        core::mem::align_of::<super::typed::PublicKey<$k>>(),
                    )
                }>,
            ),)*
        }

        const _: () = assert!(core::mem::size_of::<AnySk>() == SK_TOTAL);
        const _: () = assert!(core::mem::size_of::<AnyPk>() == PK_TOTAL);

        typed_conversions!(AnySk, PrivateKey, $($(#[$cfg])* $v: $k,)*);
        typed_conversions!(AnyPk, PublicKey, $($(#[$cfg])* $v: $k,)*);

        // With no KEM feature the enums are empty and every match below has no arm; with one,
        // the catch-all of `ct_eq` is unreachable.
        #[allow(unreachable_code, unreachable_patterns, unused_variables, clippy::needless_return)]
        impl AnySk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(..) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn public_key(&self) -> AnyPk {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => AnyPk::$v(Fill::ZERO, k.public_key(), Fill::ZERO),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => Zeroizing::new(k.to_bytes().to_vec()),)*
                }
            }

            /// Runs `f` on `SerializePrivateKey`'s bytes, held on the stack and wiped after.
            #[cfg(feature = "serde")]
            pub(crate) fn with_bytes<T>(&self, f: impl FnOnce(&[u8]) -> T) -> T {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => f(&k.to_bytes()),)*
                }
            }

            pub(crate) fn ct_eq(&self, other: &Self) -> subtle::Choice {
                match (self, other) {
                    $($(#[$cfg])* (Self::$v(_, a, _), Self::$v(_, b, _)) => subtle::ConstantTimeEq::ct_eq(a, b),)*
                    // Keys of two KEMs: the KEM is public, so this branch leaks nothing.
                    _ => subtle::Choice::from(0),
                }
            }
        }

        #[allow(unreachable_code, unused_variables, clippy::needless_return)]
        impl AnyPk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(..) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn as_bytes(&self) -> &[u8] {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => k.as_bytes(),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn prepare(&self) -> crate::suite::keys::Prepared {
                match *self {
                    $($(#[$cfg])* Self::$v(_, ref k, _) => crate::suite::keys::Prepared::new(k),)*
                }
            }
        }
    };
}

suite_table!(any_types, $);
