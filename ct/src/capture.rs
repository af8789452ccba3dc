//! A serde `Serializer` that keeps the one string or byte string it is given, and nothing
//! else: the serialization of a private key without a format that would scan the text (JSON's
//! escaping looks up every byte in a table, which would be reported as the format's, not the
//! key's, secret-indexed access).

use serde::ser::{Impossible, Serialize, Serializer};

type Error = serde::de::value::Error;

/// What a key serialized to, and whether the serializer said it was human-readable.
pub struct Capture {
    pub human_readable: bool,
    pub out: Vec<u8>,
}

/// Serializes `value` into hex text (`human_readable`) or raw bytes.
pub fn serialize<T: Serialize>(value: &T, human_readable: bool) -> Vec<u8> {
    let mut capture = Capture {
        human_readable,
        out: Vec::new(),
    };
    value
        .serialize(&mut capture)
        .expect("a key serializes to a string or bytes");
    capture.out
}

macro_rules! refuse {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<(), Error> {
            Err(serde::ser::Error::custom("a key serializes to a string or bytes"))
        })*
    };
}

macro_rules! refuse_compound {
    ($($method:ident($($ty:ty),*) -> $out:ty),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<$out, Error> {
            Err(serde::ser::Error::custom("a key serializes to a string or bytes"))
        })*
    };
}

impl Serializer for &mut Capture {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.out.extend_from_slice(v.as_bytes());
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.out.extend_from_slice(v);
        Ok(())
    }

    refuse! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_none(), serialize_unit(), serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Error> {
        Err(serde::ser::Error::custom(
            "a key serializes to a string or bytes",
        ))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(serde::ser::Error::custom(
            "a key serializes to a string or bytes",
        ))
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(serde::ser::Error::custom(
            "a key serializes to a string or bytes",
        ))
    }

    refuse_compound! {
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }
}
