//! CBOR through ciborium, read strictly: one item and nothing after it, header maps whose
//! labels are integers or text strings and appear once (RFC 9052 §3).

use alloc::vec::Vec;

use ciborium::Value;
use zeroize::Zeroize;

use crate::Error;

/// Decodes exactly one CBOR item from `bytes`.
pub(crate) fn decode(bytes: &[u8]) -> Result<Value, Error> {
    let mut rest = bytes;
    let mut value: Value =
        ciborium::de::from_reader(&mut rest).map_err(|_| Error::Malformed("not CBOR"))?;
    if !rest.is_empty() {
        // A COSE_Key's `d` may be in it.
        wipe(&mut value);
        return Err(Error::Malformed("bytes after the CBOR item"));
    }
    Ok(value)
}

/// Wipes every byte string in `value` (a COSE_Key's `d` or `priv` is one), at any depth.
pub(crate) fn wipe(value: &mut Value) {
    match value {
        Value::Bytes(b) => b.zeroize(),
        Value::Array(a) => a.iter_mut().for_each(wipe),
        Value::Map(m) => m.iter_mut().for_each(|(_, v)| wipe(v)),
        Value::Tag(_, v) => wipe(v),
        _ => {}
    }
}

/// Encodes `value`; ciborium writes every head in its shortest form and every length
/// definite, which is RFC 8949 §4.2.1's deterministic encoding for the arrays, integers and
/// strings this crate builds (maps are written in the order given).
pub(crate) fn encode(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = ciborium::ser::into_writer(value, &mut out);
    out
}

/// A header bucket: labels (integer or text) with their values, each label once.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Header(pub(crate) Vec<(Value, Value)>);

/// A label as RFC 9052 §3 compares them: an integer by its value, text by its characters.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Label<'v> {
    Int(i128),
    Text(&'v str),
}

fn label(value: &Value) -> Option<Label<'_>> {
    match value {
        Value::Integer(i) => Some(Label::Int(i128::from(*i))),
        Value::Text(t) => Some(Label::Text(t)),
        _ => None,
    }
}

/// Whether a label stands twice among `labels`: sorted, then neighbours compared, so
/// `n log n` comparisons, never `n^2` (an unauthenticated sender chooses `n`, up to
/// [`crate::MAX_HEADER_LABELS`] per bucket).
fn repeats<'v>(labels: impl Iterator<Item = &'v Value>) -> bool {
    let mut labels: Vec<Label<'v>> = labels.filter_map(label).collect();
    labels.sort_unstable();
    labels.windows(2).any(|pair| pair[0] == pair[1])
}

impl Header {
    /// A bucket from its map: at most [`crate::MAX_HEADER_LABELS`] labels (checked before any
    /// other work on it), each an integer or text, each once.
    pub(crate) fn from_value(value: Value) -> Result<Self, Error> {
        let Value::Map(entries) = value else {
            return Err(Error::Malformed("header is not a map"));
        };
        Self::check(&entries)?;
        Ok(Self(entries))
    }

    /// The rules of [`Self::from_value`] on a map's entries, which it leaves to the caller
    /// (a COSE_Key's, to be wiped whatever the outcome).
    pub(crate) fn check(entries: &[(Value, Value)]) -> Result<(), Error> {
        if entries.len() > crate::MAX_HEADER_LABELS {
            return Err(Error::TooLarge);
        }
        if entries.iter().any(|(l, _)| label(l).is_none()) {
            return Err(Error::Malformed(
                "header label is neither an integer nor text",
            ));
        }
        if repeats(entries.iter().map(|(l, _)| l)) {
            return Err(Error::DuplicateLabel);
        }
        Ok(())
    }

    /// A protected bucket: the serialized map, or the empty byte string for an empty one.
    pub(crate) fn from_protected(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.is_empty() {
            return Ok(Self::default());
        }
        if bytes.len() > crate::MAX_HEADER_LEN {
            return Err(Error::TooLarge);
        }
        Self::from_value(decode(bytes)?)
    }

    pub(crate) fn get(&self, label: i64) -> Option<&Value> {
        let label = Some(Label::Int(i128::from(label)));
        self.0
            .iter()
            .find(|(l, _)| self::label(l) == label)
            .map(|(_, v)| v)
    }

    pub(crate) fn contains(&self, label: i64) -> bool {
        self.get(label).is_some()
    }

    pub(crate) fn insert(&mut self, label: i64, value: Value) {
        self.0.push((Value::from(label), value));
    }

    pub(crate) fn bytes(&self, label: i64) -> Result<Option<&[u8]>, Error> {
        match self.get(label) {
            None => Ok(None),
            Some(Value::Bytes(b)) => Ok(Some(b)),
            Some(_) => Err(Error::Malformed("header value is not a byte string")),
        }
    }

    pub(crate) fn int(&self, label: i64) -> Result<Option<i64>, Error> {
        match self.get(label) {
            None => Ok(None),
            Some(Value::Integer(i)) => i64::try_from(*i)
                .map(Some)
                .map_err(|_| Error::Malformed("integer out of range")),
            Some(_) => Err(Error::Malformed("header value is not an integer")),
        }
    }

    pub(crate) fn to_value(&self) -> Value {
        Value::Map(self.0.clone())
    }

    /// The protected bucket's bytes: the empty byte string for an empty map (RFC 9052 §3).
    pub(crate) fn to_protected(&self) -> Vec<u8> {
        if self.0.is_empty() {
            Vec::new()
        } else {
            encode(&self.to_value())
        }
    }
}

/// The two buckets of a layer, whose labels must be disjoint (RFC 9052 §3). Each has its
/// labels once, so a label twice in both together is one in both.
pub(crate) fn disjoint(protected: &Header, unprotected: &Header) -> Result<(), Error> {
    if repeats(protected.0.iter().chain(&unprotected.0).map(|(l, _)| l)) {
        return Err(Error::DuplicateLabel);
    }
    Ok(())
}

pub(crate) fn bstr(value: &Value) -> Result<&[u8], Error> {
    match value {
        Value::Bytes(b) => Ok(b),
        _ => Err(Error::Malformed("expected a byte string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte string is wiped, at any depth: in arrays, in maps and under tags.
    #[test]
    fn wipe_reaches_every_byte_string() {
        let secret = || Value::Bytes(vec![0x5a; 8]);
        let mut value = Value::Array(vec![
            secret(),
            Value::Map(vec![(Value::from(-4), secret())]),
            Value::Tag(24, Box::new(secret())),
            Value::Tag(24, Box::new(Value::Array(vec![secret()]))),
        ]);
        wipe(&mut value);
        let empty = || Value::Bytes(Vec::new());
        assert_eq!(
            value,
            Value::Array(vec![
                empty(),
                Value::Map(vec![(Value::from(-4), empty())]),
                Value::Tag(24, Box::new(empty())),
                Value::Tag(24, Box::new(Value::Array(vec![empty()]))),
            ])
        );
    }
}
