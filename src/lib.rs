#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The modules by layer, lowest first. A module uses those listed before it and those of its
// own layer, never one listed after it: no primitive names the key schedule, the contexts or
// the runtime API, which converts typed values into its enums on its own side.

// Shared by every layer, and importing none of them.
mod declassify; // marks where a secret-dependent value may become public (the ct/ harness)
mod error; // `Error`, the one error type
mod layout; // layouts without padding for the values that hold secrets
mod util; // the RFC 9180 suite ids, hex for `Debug`

// Primitives: the KEMs, KDFs and AEADs, and the sealed engine traits that are their only door;
// the backends that compute them, one folder each (`backend/`), and which one runs (`backend()`).
pub mod aead;
mod backend;
pub mod kdf;
// A build without any KEM has the runtime layer's key enums without variants, and what only
// the KEMs call (the key helpers, the steps' KEM dispatch) without callers.
#[cfg_attr(
    not(any(
        feature = "x25519",
        feature = "x448",
        feature = "nist",
        feature = "secp256k1",
        feature = "pq"
    )),
    allow(dead_code, unused_variables)
)]
pub mod kem;
mod labeled; // LabeledExtract / LabeledExpand / LabeledDerive (RFC 9180 §4)
mod sealed; // the engine traits: callable inside the crate only

// The key schedule (RFC 9180 §5.1) and its inputs.
mod key_schedule;
mod psk;

// Contexts (RFC 9180 §5.2, §5.3): sealing, opening, exporting.
mod context;

// Symmetric keys from HPKE exports, for protocols that key their own AEAD (RFC 9458 §4.4):
// `Extract` / `Expand` and the AEAD state of a context, keyed by the caller.
pub mod symmetric;

// The typed API: `Hpke<K, F, A>` and its setups and single-shot functions; `hazmat`, the
// known-answer-test entry points behind the feature of that name.
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod hpke;
#[cfg(any(feature = "alloc", feature = "getrandom"))]
mod rng; // `OsRng`, and the per-recipient generator of `seal_base_many`

// The runtime API: suites chosen from their ids at run time, over the typed one.
// As for `kem`; and a build without an AEAD that seals has the AEAD enum without those
// variants, and the seal and open methods' work without callers.
#[cfg_attr(
    not(all(
        any(
            feature = "x25519",
            feature = "x448",
            feature = "nist",
            feature = "secp256k1",
            feature = "pq"
        ),
        any(feature = "aes-gcm", feature = "chacha20poly1305")
    )),
    allow(dead_code, unused_variables)
)]
pub mod suite;

// `Serialize` / `Deserialize` for the keys of both APIs.
#[cfg(feature = "serde")]
mod serde_impls;

pub use crate::backend::{Backend, backend};
pub use crate::context::{ReceiverContext, SenderContext};
pub use crate::error::Error;
pub use crate::hpke::Hpke;
pub use crate::kem::{EncappedKey, PrivateKey, PublicKey, SharedSecret};
pub use crate::psk::{MIN_PSK_LEN, Psk};

/// The `rand_core` traits the API takes, re-exported so callers need not depend on the crate.
pub use rand_core;

/// The fixed-size byte arrays keys and tags are returned in.
pub use hybrid_array;

#[cfg(feature = "getrandom")]
pub use crate::rng::OsRng;
