//! `serde` support for keys (feature `serde`): bytes in binary formats, lowercase hex strings
//! in human-readable ones. Deserialization goes through `from_bytes`, so it validates exactly
//! as parsing does. Nothing here allocates: the largest key of the build's KEMs (`suite::any::MAX_KEY_LEN`) fits a stack buffer.
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

/// The longest serialized key or encapsulated key of any KEM in the build (MLKEM1024-P384's
/// 1665 bytes in a build with every KEM).
const MAX_LEN: usize = crate::suite::MAX_KEY_LEN;

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
                de::Error::invalid_length(
                    len + 1,
                    &"a key no longer than the longest of the build's KEMs",
                )
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

/// A runtime key with its KEM's id, in a self-describing form: what to store when the suite is
/// not known until the key is read back (a key file, a configuration). It serializes as a struct
/// of two fields, `kem_id` (a number) and `key` (the key as [`PrivateKey`](crate::suite::PrivateKey)
/// or [`PublicKey`](crate::suite::PublicKey) serialize it: bytes, or lowercase hex in
/// human-readable formats), and deserializes from that form, validating the key as
/// [`Suite::private_key_from_bytes`](crate::suite::Suite::private_key_from_bytes) does for its
/// KEM. It wraps a field of a type that derives `Serialize` and `Deserialize`:
///
/// ```
/// # #[cfg(all(feature = "x25519", feature = "getrandom"))] {
/// use typed_hpke::suite::{self, Suite, WithKemId};
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Saved {
///     key: WithKemId<suite::PrivateKey>,
/// }
///
/// let suite = Suite::new(0x0020, 0x0001, 0x0003)?;
/// let (sk, _) = suite.generate_key_pair(&mut typed_hpke::OsRng::default())?;
/// let text = serde_json::to_string(&Saved { key: WithKemId(sk.clone()) }).unwrap();
/// assert!(text.starts_with(r#"{"key":{"kem_id":32,"key":""#));
/// let back: Saved = serde_json::from_str(&text).unwrap();
/// assert_eq!(back.key.0, sk);
/// # }
/// # Ok::<(), typed_hpke::Error>(())
/// ```
///
/// An unknown `kem_id`, a key that does not parse for it, a missing, repeated or unknown field
/// are errors. The key's bytes pass through a stack buffer wiped after use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WithKemId<T>(pub T);

const TAGGED_FIELDS: &[&str] = &["kem_id", "key"];

/// The runtime key types `WithKemId` holds, and how each is parsed for a KEM id.
trait RuntimeKey: Serialize + Sized {
    const NAME: &'static str;
    fn kem_id(&self) -> u16;
    fn parse(kem_id: u16, bytes: &[u8]) -> Result<Self, crate::Error>;
}

impl RuntimeKey for crate::suite::PrivateKey {
    const NAME: &'static str = "a runtime private key with its kem_id";
    fn kem_id(&self) -> u16 {
        self.kem_id()
    }
    fn parse(kem_id: u16, bytes: &[u8]) -> Result<Self, crate::Error> {
        Self::from_kem_id_and_bytes(kem_id, bytes)
    }
}

impl RuntimeKey for crate::suite::PublicKey {
    const NAME: &'static str = "a runtime public key with its kem_id";
    fn kem_id(&self) -> u16 {
        self.kem_id()
    }
    fn parse(kem_id: u16, bytes: &[u8]) -> Result<Self, crate::Error> {
        Self::from_kem_id_and_bytes(kem_id, bytes)
    }
}

impl<T: RuntimeKey> Serialize for WithKemId<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("WithKemId", 2)?;
        s.serialize_field("kem_id", &self.0.kem_id())?;
        s.serialize_field("key", &self.0)?;
        s.end()
    }
}

/// A key's serialized bytes, held until the `kem_id` is known (a map may give `key` first).
struct RawKey {
    bytes: Zeroizing<[u8; MAX_LEN]>,
    len: usize,
}

impl RawKey {
    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }
}

impl<'de> serde::Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_with(deserializer, |b| {
            let mut bytes = Zeroizing::new([0u8; MAX_LEN]);
            bytes
                .get_mut(..b.len())
                .ok_or(crate::Error::InvalidLength)?
                .copy_from_slice(b);
            Ok(RawKey {
                bytes,
                len: b.len(),
            })
        })
    }
}

/// A field name of the tagged form (or its index, in formats that number fields).
enum Field {
    KemId,
    Key,
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`kem_id` or `key`")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                match v {
                    0 => Ok(Field::KemId),
                    1 => Ok(Field::Key),
                    _ => Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                match v {
                    "kem_id" => Ok(Field::KemId),
                    "key" => Ok(Field::Key),
                    other => Err(E::unknown_field(other, TAGGED_FIELDS)),
                }
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Field, E> {
                match v {
                    b"kem_id" => Ok(Field::KemId),
                    b"key" => Ok(Field::Key),
                    _ => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
                }
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct TaggedVisitor<T>(PhantomData<T>);

impl<'de, T: RuntimeKey> Visitor<'de> for TaggedVisitor<T> {
    type Value = WithKemId<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::NAME)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let kem_id: u16 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let key: RawKey = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &self));
        }
        T::parse(kem_id, key.as_bytes())
            .map(WithKemId)
            .map_err(de::Error::custom)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut kem_id, mut key) = (None::<u16>, None::<RawKey>);
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::KemId if kem_id.is_some() => {
                    return Err(de::Error::duplicate_field("kem_id"));
                }
                Field::Key if key.is_some() => return Err(de::Error::duplicate_field("key")),
                Field::KemId => kem_id = Some(map.next_value()?),
                Field::Key => key = Some(map.next_value()?),
            }
        }
        let kem_id = kem_id.ok_or_else(|| de::Error::missing_field("kem_id"))?;
        let key = key.ok_or_else(|| de::Error::missing_field("key"))?;
        T::parse(kem_id, key.as_bytes())
            .map(WithKemId)
            .map_err(de::Error::custom)
    }
}

impl<'de, T: RuntimeKey> serde::Deserialize<'de> for WithKemId<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("WithKemId", TAGGED_FIELDS, TaggedVisitor(PhantomData))
    }
}
