//! Layouts without padding, for the values that hold secrets. Padding is never written when a
//! value is built or moved: it keeps what the stack held there, goes wherever the value goes,
//! and no `Drop` reaches it. This module imports nothing from the crate, so the KEMs and the
//! runtime API below and above each other can both use it.

/// `N` zero bytes: the filling of an enum's variants around the value they hold ([`lead`]).
#[derive(Clone, Copy)]
pub(crate) struct Fill<const N: usize>([u8; N]);

impl<const N: usize> Fill<N> {
    pub(crate) const ZERO: Self = Self([0; N]);
}

/// The layout of an enum that holds a secret (the runtime enums of `suite/`, ML-KEM's key
/// pair), so that every byte of it is a field's and none is padding (a temporary's copy of a
/// key, a nonce, another secret would ride in it: `tests/zeroize_observed.rs`,
/// `no_stale_bytes`).
///
/// Such an enum is `#[repr(u8)]`: each variant is laid out as a `repr(C)` struct of the tag
/// and the variant's fields, in order (the Reference, "Primitive representation of enums with
/// fields"). A variant holding a `T` is `(Fill<lead>, T, Fill<tail>)`: the tag's byte, then
/// `lead = align_of::<T>() - 1` zeros, which put `T` at offset `align_of::<T>()` with nothing
/// between, then `T` (itself without padding, or with padding its own type decides), then
/// `tail` zeros up to the enum's size. So every variant covers the same `TOTAL` bytes, which
/// [`total`] computes from the variants' sizes and alignments, and a compile-time check beside
/// each enum holds its size to it.
pub(crate) const fn lead(align: usize) -> usize {
    align - 1
}

/// The size of every variant of such an enum: the largest `align + size` of its payloads,
/// rounded up to the largest alignment, or to `round_to` if that is larger (so that enums laid
/// side by side in a `repr(C)` struct leave no padding between them). `payloads` is
/// `(size, align)` for each.
pub(crate) const fn total(payloads: &[(usize, usize)], round_to: usize) -> usize {
    let (mut end, mut align, mut i) = (0, round_to, 0);
    while i < payloads.len() {
        let (size, a) = payloads[i];
        if a + size > end {
            end = a + size;
        }
        if a > align {
            align = a;
        }
        i += 1;
    }
    end.div_ceil(align) * align
}

/// `(size_of::<T>(), align_of::<T>())`, for [`total`].
macro_rules! size_align {
    ($t:ty) => {
        (core::mem::size_of::<$t>(), core::mem::align_of::<$t>())
    };
}
pub(crate) use size_align;

/// `tail`: the zeros after a `T` in a variant of a `total`-byte enum of [`lead`]'s layout.
pub(crate) const fn tail(total: usize, size: usize, align: usize) -> usize {
    total - align - size
}
