//! What the tests share: the draft suites under the code points these tests give them, and the
//! way a test body runs in either of mls-rs' builds.

#![allow(dead_code, reason = "each test file uses part of it")]

use mls_rs_core::crypto::{CipherSuite, CryptoProvider};
use typed_hpke_mls_rs::{DraftPqSuite, TypedHpkeProvider};

/// The draft-ietf-mls-pq-ciphersuites suites under code points of MLS' private-use range
/// (RFC 9420 §17.1, 0xF000-0xFFFF), as a deployment would name them until IANA assigns values.
pub const PQ_CODE_POINTS: [(CipherSuite, DraftPqSuite); 4] = [
    (
        CipherSuite::new(0xF0A1),
        DraftPqSuite::MlKem768X25519Aes128GcmSha256Ed25519,
    ),
    (
        CipherSuite::new(0xF0A3),
        DraftPqSuite::MlKem768P256Aes128GcmSha256P256,
    ),
    (
        CipherSuite::new(0xF0A5),
        DraftPqSuite::MlKem1024P384Aes256GcmSha384P384,
    ),
    (
        CipherSuite::new(0xF0A8),
        DraftPqSuite::MlKem1024Aes256GcmSha384P384,
    ),
];

/// `provider` offering every draft suite under [`PQ_CODE_POINTS`].
pub fn with_pq<P: CryptoProvider>(provider: TypedHpkeProvider<P>) -> TypedHpkeProvider<P> {
    PQ_CODE_POINTS.iter().fold(provider, |p, (cs, suite)| {
        p.with_draft_pq_suite(*cs, *suite)
            .expect("a free code point")
    })
}

/// Runs a test body: in the synchronous build it has already run (the body is a plain
/// function call); in the asynchronous one it is a future, driven to completion here.
#[cfg(not(mls_build_async))]
macro_rules! run {
    ($body:expr) => {
        $body
    };
}

/// Runs a test body: in the synchronous build it has already run (the body is a plain
/// function call); in the asynchronous one it is a future, driven to completion here.
#[cfg(mls_build_async)]
macro_rules! run {
    ($body:expr) => {
        futures_executor::block_on($body)
    };
}
