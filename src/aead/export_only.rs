//! The export-only pseudo-AEAD (RFC 9180 §7.3, `aead_id` 0xFFFF).

use hybrid_array::Array;
use hybrid_array::typenum::U0;

/// Export-only, `aead_id` 0xFFFF: the context can derive secrets with `export` but has no
/// `seal` or `open` (it does not implement [`SealingAead`](super::SealingAead)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExportOnly;

impl crate::sealed::Sealed for ExportOnly {}

impl super::Aead for ExportOnly {
    const ID: u16 = 0xFFFF;
    type Nk = U0;
    type Nn = U0;
    type Cipher = ();
    type Engine = Self;
}

impl crate::sealed::AeadEngine<ExportOnly> for ExportOnly {
    fn new_cipher(_key: &Array<u8, U0>) {}
}
