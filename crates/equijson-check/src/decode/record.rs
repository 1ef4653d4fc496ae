//! A serializer that records the exact sequence of `Serializer` calls a value makes, as bytes.
//!
//! Two values with the same recording made the same calls with the same arguments, so any
//! serializer that is a function of its calls (the comparison form is one) gives them the
//! same output, or the same error. The decode engine uses it to serialize each distinct
//! decoded value into the comparison form only once: recording is a plain append, with no
//! number formatting, no key sorting and no tree.

use std::fmt;

use serde::ser::{self, Serialize};

/// The recorder's error: the value's `Serialize` implementation failed (recording then
/// says nothing; the caller serializes that value the ordinary way).
#[derive(Debug)]
pub(crate) struct Failed;

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Serialize implementation failed")
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Failed
    }
}

/// Appends the recording of `value` to `out` (cleared first); `false` when `value`'s
/// `Serialize` implementation returned an error.
pub(crate) fn record<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> bool {
    out.clear();
    value.serialize(&mut Recorder { out }).is_ok()
}

struct Recorder<'a> {
    out: &'a mut Vec<u8>,
}

// One tag byte per call, then its arguments, each self-delimiting: the encoding of a call
// sequence is injective.
const BOOL: u8 = 1;
const I8: u8 = 2;
const I16: u8 = 3;
const I32: u8 = 4;
const I64: u8 = 5;
const I128: u8 = 6;
const U8: u8 = 7;
const U16: u8 = 8;
const U32: u8 = 9;
const U64: u8 = 10;
const U128: u8 = 11;
const F32: u8 = 12;
const F64: u8 = 13;
const CHAR: u8 = 14;
const STR: u8 = 15;
const BYTES: u8 = 16;
const NONE: u8 = 17;
const SOME: u8 = 18;
const UNIT: u8 = 19;
const UNIT_STRUCT: u8 = 20;
const UNIT_VARIANT: u8 = 21;
const NEWTYPE_STRUCT: u8 = 22;
const NEWTYPE_VARIANT: u8 = 23;
const SEQ: u8 = 24;
const TUPLE: u8 = 25;
const TUPLE_STRUCT: u8 = 26;
const TUPLE_VARIANT: u8 = 27;
const MAP: u8 = 28;
const STRUCT: u8 = 29;
const STRUCT_VARIANT: u8 = 30;
const ELEMENT: u8 = 31;
const KEY: u8 = 32;
const VALUE: u8 = 33;
const FIELD: u8 = 34;
const SKIP: u8 = 35;
const END: u8 = 36;

impl Recorder<'_> {
    fn tag(&mut self, t: u8) {
        self.out.push(t);
    }

    fn len(&mut self, n: usize) {
        self.out.extend_from_slice(&(n as u64).to_le_bytes());
    }

    fn text(&mut self, s: &[u8]) {
        self.len(s.len());
        self.out.extend_from_slice(s);
    }

    fn opt_len(&mut self, n: Option<usize>) {
        match n {
            None => self.out.push(0),
            Some(n) => {
                self.out.push(1);
                self.len(n);
            }
        }
    }

    fn variant(&mut self, name: &str, index: u32, variant: &str) {
        self.text(name.as_bytes());
        self.out.extend_from_slice(&index.to_le_bytes());
        self.text(variant.as_bytes());
    }
}

macro_rules! fixed {
    ($($method:ident: $ty:ty = $tag:ident),* $(,)?) => {
        $(fn $method(self, v: $ty) -> Result<(), Failed> {
            self.tag($tag);
            self.out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        })*
    };
}

impl ser::Serializer for &mut Recorder<'_> {
    type Ok = ();
    type Error = Failed;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), Failed> {
        self.tag(BOOL);
        self.out.push(u8::from(v));
        Ok(())
    }

    fixed!(
        serialize_i8: i8 = I8, serialize_i16: i16 = I16, serialize_i32: i32 = I32,
        serialize_i64: i64 = I64, serialize_i128: i128 = I128, serialize_u8: u8 = U8,
        serialize_u16: u16 = U16, serialize_u32: u32 = U32, serialize_u64: u64 = U64,
        serialize_u128: u128 = U128,
    );

    fn serialize_f32(self, v: f32) -> Result<(), Failed> {
        self.tag(F32);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Failed> {
        self.tag(F64);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Failed> {
        self.tag(CHAR);
        self.out.extend_from_slice(&u32::from(v).to_le_bytes());
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Failed> {
        self.tag(STR);
        self.text(v.as_bytes());
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Failed> {
        self.tag(BYTES);
        self.text(v);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Failed> {
        self.tag(NONE);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Failed> {
        self.tag(SOME);
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Failed> {
        self.tag(UNIT);
        Ok(())
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<(), Failed> {
        self.tag(UNIT_STRUCT);
        self.text(name.as_bytes());
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<(), Failed> {
        self.tag(UNIT_VARIANT);
        self.variant(name, index, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.tag(NEWTYPE_STRUCT);
        self.text(name.as_bytes());
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.tag(NEWTYPE_VARIANT);
        self.variant(name, index, variant);
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Failed> {
        self.tag(SEQ);
        self.opt_len(len);
        Ok(self)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self, Failed> {
        self.tag(TUPLE);
        self.len(len);
        Ok(self)
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self, Failed> {
        self.tag(TUPLE_STRUCT);
        self.text(name.as_bytes());
        self.len(len);
        Ok(self)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Failed> {
        self.tag(TUPLE_VARIANT);
        self.variant(name, index, variant);
        self.len(len);
        Ok(self)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self, Failed> {
        self.tag(MAP);
        self.opt_len(len);
        Ok(self)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self, Failed> {
        self.tag(STRUCT);
        self.text(name.as_bytes());
        self.len(len);
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Failed> {
        self.tag(STRUCT_VARIANT);
        self.variant(name, index, variant);
        self.len(len);
        Ok(self)
    }
}

macro_rules! compound {
    ($($trait:ident :: $method:ident),* $(,)?) => {
        $(impl ser::$trait for &mut Recorder<'_> {
            type Ok = ();
            type Error = Failed;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
                self.tag(ELEMENT);
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), Failed> {
                self.tag(END);
                Ok(())
            }
        })*
    };
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl ser::SerializeMap for &mut Recorder<'_> {
    type Ok = ();
    type Error = Failed;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Failed> {
        self.tag(KEY);
        key.serialize(&mut **self)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        self.tag(VALUE);
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Failed> {
        self.tag(END);
        Ok(())
    }
}

macro_rules! fields {
    ($($trait:ident),*) => {
        $(impl ser::$trait for &mut Recorder<'_> {
            type Ok = ();
            type Error = Failed;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Failed> {
                self.tag(FIELD);
                self.text(key.as_bytes());
                value.serialize(&mut **self)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), Failed> {
                self.tag(SKIP);
                self.text(key.as_bytes());
                Ok(())
            }

            fn end(self) -> Result<(), Failed> {
                self.tag(END);
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::record;

    fn rec<T: serde::Serialize + ?Sized>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        assert!(record(v, &mut out));
        out
    }

    #[test]
    fn different_values_record_differently() {
        let values = [
            serde_json::json!({"a": 1}),
            serde_json::json!({"a": 1.0}),
            serde_json::json!({"a": "1"}),
            serde_json::json!({"ab": 1}),
            serde_json::json!({"a": [1]}),
            serde_json::json!({"a": null}),
            serde_json::json!(["a", 1]),
            serde_json::json!(["a1"]),
            serde_json::json!([-0.0]),
            serde_json::json!([0.0]),
            serde_json::json!([u64::MAX]),
            serde_json::json!([-1]),
        ];
        for (i, a) in values.iter().enumerate() {
            for (j, b) in values.iter().enumerate() {
                assert_eq!(i == j, rec(a) == rec(b), "{a} vs {b}");
            }
        }
        assert_ne!(rec(&Some(1u8)), rec(&1u8));
        // Different calls (a tuple, a sequence), though the JSON is the same: told apart.
        assert_ne!(rec(&(1u8, 2u8)), rec(&vec![1u8, 2u8]));
        assert_eq!(rec(&vec![1u32, 2]), rec(&[1u32, 2][..]));
    }

    #[test]
    fn a_failing_serialize_is_reported() {
        struct Bad;
        impl serde::Serialize for Bad {
            fn serialize<S: serde::Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        let mut out = Vec::new();
        assert!(!record(&Bad, &mut out));
    }
}
