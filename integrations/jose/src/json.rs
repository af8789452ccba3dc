//! JSON objects read strictly: a member name twice anywhere is an error, not the last one
//! silently kept (serde_json's `Value` keeps the last).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use zeroize::Zeroize;

use crate::Error;

struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

const DUPLICATE: &str = "duplicate member";

impl<'de> Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = WipedOnError(Value::Array(Vec::new()));
        while let Some(v) = seq.next_element_seed(Strict)? {
            if let Value::Array(items) = &mut out.0 {
                items.push(v);
            }
        }
        Ok(out.take())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = WipedOnError(Value::Object(Map::new()));
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Strict)?;
            let Value::Object(members) = &mut out.0 else {
                break;
            };
            if members.contains_key(&key) {
                let mut value = value;
                wipe(&mut value);
                return Err(A::Error::custom(DUPLICATE));
            }
            members.insert(key, value);
        }
        Ok(out.take())
    }
}

/// Wipes every string in `value` (a private JWK's `d` or `priv` is one), at any depth.
pub(crate) fn wipe(value: &mut Value) {
    match value {
        Value::String(s) => s.zeroize(),
        Value::Array(a) => a.iter_mut().for_each(wipe),
        Value::Object(m) => m.values_mut().for_each(wipe),
        _ => {}
    }
}

/// What a visitor has read so far: wiped if it is dropped (the document failed to parse after
/// it), handed on by [`Self::take`] otherwise. A private JWK's `d` read before a later error
/// would otherwise be freed as it was.
struct WipedOnError(Value);

impl WipedOnError {
    fn take(mut self) -> Value {
        core::mem::take(&mut self.0)
    }
}

impl Drop for WipedOnError {
    fn drop(&mut self) {
        wipe(&mut self.0);
    }
}

/// Parses `bytes` as one JSON object, refusing duplicate member names at every depth.
pub(crate) fn object(bytes: &[u8]) -> Result<Map<String, Value>, Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict.deserialize(&mut de).map_err(|e| {
        if e.to_string().starts_with(DUPLICATE) {
            Error::DuplicateMember
        } else {
            Error::Malformed("not JSON")
        }
    })?;
    let value = WipedOnError(value);
    de.end()
        .map_err(|_| Error::Malformed("bytes after the JSON value"))?;
    match value.take() {
        Value::Object(map) => Ok(map),
        mut other => {
            wipe(&mut other);
            Err(Error::Malformed("not a JSON object"))
        }
    }
}

/// `map[name]` as a string, if present.
pub(crate) fn str_member<'a>(
    map: &'a Map<String, Value>,
    name: &'static str,
) -> Result<Option<&'a str>, Error> {
    str_value(map.get(name), name)
}

/// A member `name`'s value, if present, as a string.
pub(crate) fn str_value<'a>(
    value: Option<&'a Value>,
    name: &'static str,
) -> Result<Option<&'a str>, Error> {
    match value {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Error::Malformed(name)),
    }
}

/// `map[name]` as an object, if present.
pub(crate) fn object_member<'a>(
    map: &'a Map<String, Value>,
    name: &'static str,
) -> Result<Option<&'a Map<String, Value>>, Error> {
    match map.get(name) {
        None => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(_) => Err(Error::Malformed(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of JSON value is read as serde_json reads it: the strict visitor changes
    /// only what a duplicate member does.
    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = br#"{"t": true, "f": false, "i": -5, "u": 7, "x": 1.5, "s": "plain",
            "e": "esc\u0041ped", "n": null, "a": [1, "two", [], {}], "o": {"k": [false, -0.25]}}"#;
        let ours = object(text).unwrap();
        let theirs: Map<String, Value> = serde_json::from_slice(text).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(ours["i"], Value::from(-5));
        assert_eq!(ours["x"], Value::from(1.5));
        assert_eq!(ours["e"], "escAped");
        assert_eq!(object(br#"{"a": 1, "a": 1}"#), Err(Error::DuplicateMember));
        assert_eq!(
            object(br#"{"o": {"a": 1, "b": {"a": 2, "a": 3}}}"#),
            Err(Error::DuplicateMember)
        );
    }

    /// What serde_json's slice reader never calls, but another deserializer may: an owned
    /// string, and the visitor's description in a type error.
    #[test]
    fn owned_strings_and_the_expectation() {
        let v: Result<Value, serde_json::Error> = Strict.visit_string(String::from("owned"));
        assert_eq!(v.unwrap(), "owned");
        let e = serde_json::Error::invalid_type(serde::de::Unexpected::Char('c'), &Strict);
        assert!(e.to_string().ends_with("expected a JSON value"), "{e}");
    }
}
