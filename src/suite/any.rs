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

/// `*slot` taken out as a `T`, if `slot` holds an `Option<T>` (`None` otherwise, and `*slot` is
/// left alone). This is how `suite/` puts a value of a type parameter (`PrivateKey<K>`,
/// `AeadState<A>`, ...) into the enum variant of its type, without the primitives naming the
/// runtime types: no allocation, no `unsafe`. The type ids are constants, so once the type
/// parameter is known the compiler keeps only the one move that succeeds.
pub(super) fn take_as<T: 'static>(slot: &mut dyn core::any::Any) -> Option<T> {
    slot.downcast_mut::<Option<T>>().and_then(Option::take)
}

/// `N` zero bytes: the filling of a runtime enum's smaller variants (`AnyAead`).
#[derive(Clone, Copy)]
pub(crate) struct Fill<const N: usize>([u8; N]);

impl<const N: usize> Fill<N> {
    pub(crate) const ZERO: Self = Self([0; N]);
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
                    $($(#[$cfg])* <$k as Kem>::ID => take_as(slot).map(Self::$v),)*
                    _ => None,
                };
                any.unwrap_or_else(|| unreachable!("every KEM has a variant of its own type"))
            }

            /// The typed key inside, if it is a key of `K`.
            pub(crate) fn typed<K: Kem>(&self) -> Option<&super::typed::$typed<K>> {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => (k as &dyn core::any::Any).downcast_ref(),)*
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

        /// The largest AEAD state: every variant of [`AnyAead`] is filled to it.
        const AEAD_STATE_MAX: usize = {
            #[allow(unused_mut, reason = "no sealing AEAD in the build")]
            let mut max = core::mem::size_of::<AeadState<ExportOnly>>();
            $($(#[$scfg])* {
                let size = core::mem::size_of::<AeadState<$sa>>();
                if size > max {
                    max = size;
                }
            })*
            max
        };

        /// A context's AEAD state, whichever the AEAD. Each variant carries zeros after its
        /// state up to the largest state's size (`Fill`): an enum's bytes past a smaller
        /// variant are otherwise left as they were where the value was built, and a copy of
        /// the key or nonce there (a temporary's, a moved-from value's) would go wherever the
        /// context goes, boxed or copied, and no `Drop` would reach it.
        #[allow(missing_debug_implementations)] // holds the AEAD key: no `Debug` on purpose
        #[allow(dead_code, reason = "the fill is written, never read")]
        pub(crate) enum AnyAead {
            $($(#[$scfg])* $sv(
                AeadState<$sa>,
                Fill<{ AEAD_STATE_MAX - core::mem::size_of::<AeadState<$sa>>() }>,
            ),)*
            ExportOnly(
                AeadState<ExportOnly>,
                Fill<{ AEAD_STATE_MAX - core::mem::size_of::<AeadState<ExportOnly>>() }>,
            ),
        }

        impl AnyAead {
            /// The variant of `A` (by its id), holding `state` (proven by its type: `take_as`).
            pub(super) fn from_typed<A: Aead>(state: AeadState<A>) -> Self {
                let slot = &mut Some(state);
                let any = match A::ID {
                    $($(#[$scfg])* <$sa as Aead>::ID => {
                        take_as(slot).map(|s| Self::$sv(s, Fill::ZERO))
                    })*
                    ExportOnly::ID => take_as(slot).map(|s| Self::ExportOnly(s, Fill::ZERO)),
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
                    $($(#[$scfg])* Self::$sv(s, _) => s.seq(),)*
                    Self::ExportOnly(s, _) => s.seq(),
                }
            }

            #[cfg(feature = "hazmat")]
            pub(super) fn set_seq(&mut self, seq: u64) {
                match self {
                    $($(#[$scfg])* Self::$sv(s, _) => s.set_seq(seq),)*
                    Self::ExportOnly(s, _) => s.set_seq(seq),
                }
            }
        }

        /// Runs `$body` with `$s` bound to the sealing AEAD's state; ExportOnly is
        /// `UnsupportedOperation`.
        macro_rules! with_sealing {
            ($d aead:expr, $d s:ident => $d body:expr) => {
                match $d aead {
                    $($(#[$scfg])* AnyAead::$sv($d s, _) => $d body,)*
                    AnyAead::ExportOnly(..) => Err(Error::UnsupportedOperation),
                }
            };
        }

        /// The largest exporter state: every variant of [`AnyExporter`] is filled to it.
        const EXPORTER_MAX: usize = {
            let mut max = 0;
            $({
                let size = core::mem::size_of::<<$f as Kdf>::Exporter>();
                if size > max {
                    max = size;
                }
            })*
            max
        };

        /// A context's exporter secret, whichever the KDF; filled as [`AnyAead`] is, for the
        /// same reason.
        #[allow(missing_debug_implementations)] // holds the exporter secret: no `Debug` on purpose
        #[allow(dead_code, reason = "the fill is written, never read")]
        pub(crate) enum AnyExporter {
            $($fv(
                <$f as Kdf>::Exporter,
                Fill<{ EXPORTER_MAX - core::mem::size_of::<<$f as Kdf>::Exporter>() }>,
            ),)*
        }

        impl AnyExporter {
            /// The variant of `F` (by its id), holding `exporter` (proven by its type:
            /// `take_as`).
            pub(super) fn from_typed<F: Kdf>(exporter: F::Exporter) -> Self {
                let slot = &mut Some(exporter);
                let any = match F::ID {
                    $(<$f as Kdf>::ID => take_as(slot).map(|x| Self::$fv(x, Fill::ZERO)),)*
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
                    $(Self::$fv(x, _) => export::<$f>(suite_id, x, exporter_context, out),)*
                }
            }
        }
    };
}

/// The runtime key enums: one variant per KEM of the table, holding the typed key.
macro_rules! any_keys {
    ($($(#[$cfg:meta])* $v:ident: $k:ty,)*) => {
        /// A typed private key of whichever KEM.
        // Inline, not boxed, so that no_std builds without an allocator have runtime keys:
        // the size is the largest typed key's, as `suite::PrivateKey` documents.
        #[derive(Clone, Debug)] // the typed keys' `Debug` is redacted
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnySk {
            $($(#[$cfg])* $v(super::typed::PrivateKey<$k>),)*
        }

        /// A typed public key of whichever KEM.
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnyPk {
            $($(#[$cfg])* $v(super::typed::PublicKey<$k>),)*
        }

        typed_conversions!(AnySk, PrivateKey, $($(#[$cfg])* $v: $k,)*);
        typed_conversions!(AnyPk, PublicKey, $($(#[$cfg])* $v: $k,)*);

        // With no KEM feature the enums are empty and every match below has no arm; with one,
        // the catch-all of `ct_eq` is unreachable.
        #[allow(unreachable_code, unreachable_patterns, unused_variables, clippy::needless_return)]
        impl AnySk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(_) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn public_key(&self) -> AnyPk {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => AnyPk::$v(k.public_key()),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => Zeroizing::new(k.to_bytes().to_vec()),)*
                }
            }

            /// Runs `f` on `SerializePrivateKey`'s bytes, held on the stack and wiped after.
            #[cfg(feature = "serde")]
            pub(crate) fn with_bytes<T>(&self, f: impl FnOnce(&[u8]) -> T) -> T {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => f(&k.to_bytes()),)*
                }
            }

            pub(crate) fn ct_eq(&self, other: &Self) -> subtle::Choice {
                match (self, other) {
                    $($(#[$cfg])* (Self::$v(a), Self::$v(b)) => subtle::ConstantTimeEq::ct_eq(a, b),)*
                    // Keys of two KEMs: the KEM is public, so this branch leaks nothing.
                    _ => subtle::Choice::from(0),
                }
            }
        }

        #[allow(unreachable_code, unused_variables, clippy::needless_return)]
        impl AnyPk {
            pub(crate) fn kem_id(&self) -> u16 {
                match *self {
                    $($(#[$cfg])* Self::$v(_) => <$k as Kem>::ID,)*
                }
            }

            pub(crate) fn as_bytes(&self) -> &[u8] {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => k.as_bytes(),)*
                }
            }

            #[cfg(feature = "alloc")]
            pub(crate) fn prepare(&self) -> crate::suite::keys::Prepared {
                match *self {
                    $($(#[$cfg])* Self::$v(ref k) => crate::suite::keys::Prepared::new(k),)*
                }
            }
        }
    };
}

suite_table!(any_types, $);
