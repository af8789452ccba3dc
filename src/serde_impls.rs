//! `serde` support for keys (feature `serde`): bytes in binary formats, lowercase hex strings
//! in human-readable ones. Deserialization goes through `from_bytes`, so it validates exactly
//! as parsing does. Nothing here allocates: the largest key (1665 bytes) fits a stack buffer.
//!
//! Hex goes through `base16ct`, whose encoder and decoder compute each digit arithmetically:
//! no table indexed by a secret nibble and no branch on a secret digit, so a private key's text
//! form takes the same time whatever the key.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use zeroize::Zeroizing;

use crate::kem::{EncappedKey, Kem, PrivateKey, PublicKey};

/// The longest serialized key or encapsulated key of any KEM (MLKEM1024-P384).
const MAX_LEN: usize = 1665;

fn serialize_bytes<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    if !serializer.is_human_readable() {
        return serializer.serialize_bytes(bytes);
    }
    let mut buf = Zeroizing::new([0u8; 2 * MAX_LEN]);
    let hex = base16ct::lower::encode_str(bytes, &mut buf[..])
        .map_err(|_| serde::ser::Error::custom("key longer than any KEM's"))?;
    serializer.serialize_str(hex)
}

/// Collects the bytes (or decodes the hex) into a stack buffer, then hands them to `parse`.
struct BytesVisitor<T, P>(P, PhantomData<T>);

impl<'de, T, P> Visitor<'de> for BytesVisitor<T, P>
where
    P: FnOnce(&[u8]) -> Result<T, crate::Error>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("key bytes, or a hex string of them")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        (self.0)(v).map_err(E::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        let v = v.as_bytes();
        if !v.len().is_multiple_of(2) || v.len() > 2 * MAX_LEN {
            return Err(E::invalid_length(v.len(), &self));
        }
        let mut buf = Zeroizing::new([0u8; MAX_LEN]);
        // Either case, as before; an invalid digit is one error whatever its position.
        let bytes =
            base16ct::mixed::decode(v, &mut buf[..]).map_err(|_| E::custom("invalid hex digit"))?;
        (self.0)(bytes).map_err(E::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut buf = Zeroizing::new([0u8; MAX_LEN]);
        let mut len = 0;
        while let Some(b) = seq.next_element::<u8>()? {
            let slot = buf.get_mut(len).ok_or_else(|| {
                de::Error::invalid_length(len + 1, &"a key of at most 1665 bytes")
            })?;
            *slot = b;
            len += 1;
        }
        (self.0)(&buf[..len]).map_err(de::Error::custom)
    }
}

fn deserialize_with<'de, D, T>(
    deserializer: D,
    parse: impl FnOnce(&[u8]) -> Result<T, crate::Error>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    if deserializer.is_human_readable() {
        deserializer.deserialize_str(BytesVisitor(parse, PhantomData))
    } else {
        deserializer.deserialize_bytes(BytesVisitor(parse, PhantomData))
    }
}

macro_rules! serde_key {
    ($ty:ident, $bytes:expr) => {
        impl<K: Kem> Serialize for $ty<K> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #[allow(clippy::redundant_closure_call)]
                serialize_bytes(&($bytes)(self), serializer)
            }
        }

        impl<'de, K: Kem> serde::Deserialize<'de> for $ty<K> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_with(deserializer, $ty::<K>::from_bytes)
            }
        }
    };
}

serde_key!(PublicKey, |k: &PublicKey<K>| k.to_bytes());
serde_key!(EncappedKey, |k: &EncappedKey<K>| k.to_bytes());
serde_key!(PrivateKey, |k: &PrivateKey<K>| k.to_bytes());

impl Serialize for crate::suite::PrivateKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.with_bytes(|b| serialize_bytes(b, serializer))
    }
}

impl Serialize for crate::suite::PublicKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_bytes(self.as_bytes(), serializer)
    }
}

impl Serialize for crate::suite::EncappedKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_bytes(self.as_bytes(), serializer)
    }
}

/// Runtime keys serialize as the typed keys do; deserializing one needs the KEM, so it goes
/// through the suite.
impl crate::suite::Suite {
    /// Deserializes a runtime private key of this suite's KEM, from the form a typed
    /// `PrivateKey` (or a runtime one) serializes to. Validates as
    /// [`Suite::private_key_from_bytes`](crate::suite::Suite::private_key_from_bytes).
    ///
    /// # Errors
    /// The deserializer's, or [`crate::Error::InvalidPrivateKey`] as a custom error.
    pub fn deserialize_private_key<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<crate::suite::PrivateKey, D::Error> {
        deserialize_with(deserializer, |b| self.private_key_from_bytes(b))
    }

    /// Deserializes a runtime public key of this suite's KEM, validating as
    /// [`Suite::public_key_from_bytes`](crate::suite::Suite::public_key_from_bytes).
    ///
    /// # Errors
    /// The deserializer's, or [`crate::Error::InvalidPublicKey`] as a custom error.
    pub fn deserialize_public_key<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<crate::suite::PublicKey, D::Error> {
        deserialize_with(deserializer, |b| self.public_key_from_bytes(b))
    }
}
