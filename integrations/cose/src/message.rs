//! The structures both directions share: the Enc_structure (RFC 9052 §5.3), the
//! Recipient_structure (draft-ietf-cose-hpke-27 §3.3.1) and the labels.

use alloc::vec::Vec;

use ciborium::Value;

use crate::cbor::encode;

pub(crate) const ALG: i64 = 1;
pub(crate) const CRIT: i64 = 2;
pub(crate) const KID: i64 = 4;
pub(crate) const IV: i64 = 5;
pub(crate) const PARTIAL_IV: i64 = 6;
/// `ek`: TBD11 (assumed -4), draft-ietf-cose-hpke-27 §7.3.1.
pub(crate) const EK: i64 = -4;
/// `psk_id`: TBD12 (assumed -5), §7.3.2.
pub(crate) const PSK_ID: i64 = -5;

pub(crate) const TAG_ENCRYPT0: u64 = 16;
pub(crate) const TAG_ENCRYPT: u64 = 96;

/// `Enc_structure = [context, protected, external_aad]` (RFC 9052 §5.3), with `protected` the
/// bytes as sent.
pub(crate) fn enc_structure(context: &str, protected: &[u8], external_aad: &[u8]) -> Vec<u8> {
    encode(&Value::Array(alloc::vec![
        Value::Text(context.into()),
        Value::Bytes(protected.to_vec()),
        Value::Bytes(external_aad.to_vec()),
    ]))
}

/// `Recipient_structure = ["HPKE Recipient", next_layer_alg, recipient_protected_header,
/// recipient_extra_info]` (§3.3.1), deterministically encoded (RFC 8949 §4.2.1: shortest heads,
/// definite lengths; the protected header's bytes are used as received).
pub(crate) fn recipient_structure(
    next_layer_alg: i64,
    protected: &[u8],
    extra_info: &[u8],
) -> Vec<u8> {
    encode(&Value::Array(alloc::vec![
        Value::Text("HPKE Recipient".into()),
        Value::from(next_layer_alg),
        Value::Bytes(protected.to_vec()),
        Value::Bytes(extra_info.to_vec()),
    ]))
}
