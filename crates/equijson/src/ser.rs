//! Serializing Rust values (`T: Serialize`) straight to RFC 8785 canonical bytes.
//!
//! The serializer feeds the same [`Builder`] the parser does, so member ordering,
//! duplicate detection and number policies are shared. Numbers follow the JSON data
//! model of JCS: every number is an IEEE-754 double. Integers are written as their
//! decimal text and then read like parsed input (so `u64` above 2^53 is rounded, or
//! rejected under [`InexactNumbers::Reject`](crate::InexactNumbers::Reject)); `f32` is
//! taken at its shortest decimal text (`0.1f32` is `0.1`, as `serde_json` writes it).

use serde::ser::{self, Serialize};

use crate::document::Builder;
use crate::error::{Error, ErrorKind, Result};
use crate::number::{self, NumberPolicy};
use crate::options::{NegativeZero, Noncharacters, Options};
use crate::parse::Str;

/// Serializes `value` to RFC 8785 canonical JSON bytes with the default [`Options`].
///
/// ```
/// use std::collections::HashMap;
/// let v: HashMap<&str, f64> = [("b", 1.0), ("a", 1e21)].into();
/// assert_eq!(equijson::to_canonical_vec(&v)?, br#"{"a":1e+21,"b":1}"#);
/// # Ok::<(), equijson::Error>(())
/// ```
///
/// # Errors
/// NaN or infinite floats, duplicate or non-string map keys, numbers rejected by a
/// policy, or an error raised by the `Serialize` implementation; the error carries the
/// JSON pointer of the offending value.
pub fn to_canonical_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_canonical_vec_with(value, &Options::default())
}

/// Serializes `value` to RFC 8785 canonical JSON bytes with the given policies.
///
/// # Errors
/// As [`to_canonical_vec`].
pub fn to_canonical_vec_with<T: Serialize + ?Sized>(
    value: &T,
    options: &Options,
) -> Result<Vec<u8>> {
    thread_local! {
        /// A builder kept between calls on a thread: its buffers stay allocated. Taken
        /// out while in use, so a `Serialize` implementation that serializes something
        /// itself gets a fresh one.
        static SPARE: std::cell::Cell<Option<Builder>> = const { std::cell::Cell::new(None) };
    }
    let policy = options.number_policy();
    let b = match SPARE.with(std::cell::Cell::take) {
        Some(mut b) => {
            b.reset(policy);
            b
        }
        None => Builder::new(policy),
    };
    let mut ser = Serializer {
        b,
        reject_nonchars: options.noncharacters == Noncharacters::Reject,
        max_depth: options.max_depth,
    };
    let result = match value.serialize(&mut ser) {
        Ok(()) => Ok(ser.b.document().to_canonical_vec()),
        Err(e) if e.location().is_none() => Err(Error::at_pointer(
            e.kind().clone(),
            ser.b.current_pointer(true),
        )),
        Err(e) => Err(e),
    };
    // Keep it for the next call unless a large value made it large.
    if ser.b.retained_bytes() <= SPARE_LIMIT {
        SPARE.with(|s| s.set(Some(ser.b)));
    }
    result
}

/// Largest builder (in buffer bytes) kept for reuse on a thread.
const SPARE_LIMIT: usize = 1 << 20;

/// The decimal text of an integer, written into `buf` (no allocation).
fn decimal(negative: bool, mut n: u128, buf: &mut [u8; 40]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        // A digit: `n % 10` is below 10.
        buf[i] = b"0123456789"[(n % 10) as usize];
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    // ASCII digits and '-' only.
    std::str::from_utf8(&buf[i..]).unwrap_or("0")
}

/// The comparison form of `value` (decode-equivalence checks compare values by it):
/// RFC 8785, except that integer-typed values keep all their digits (so `u64::MAX` and
/// `u64::MAX - 1` differ), as [`Options::comparison`] writes text.
///
/// # Errors
/// As [`to_canonical_vec`].
pub fn to_comparison_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_canonical_vec_with(value, &Options::comparison())
}

/// Serializes `value` to an RFC 8785 canonical JSON string with the default [`Options`].
///
/// # Errors
/// As [`to_canonical_vec`].
pub fn to_canonical_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let bytes = to_canonical_vec(value)?;
    // The writer emits only valid UTF-8 (strings come from `&str`, the rest is ASCII).
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidUtf8, None))
}

struct Serializer {
    b: Builder,
    reject_nonchars: bool,
    max_depth: usize,
}

impl Serializer {
    fn fail(&self, kind: ErrorKind) -> Error {
        Error::at_pointer(kind, self.b.current_pointer(true))
    }

    /// An error about a map key: located at the map, plus the name when there is one.
    fn fail_key(&self, kind: ErrorKind, name: Option<&str>) -> Error {
        let mut p = self.b.container_pointer();
        if let Some(name) = name {
            crate::pointer::push_token(&mut p, name);
        }
        Error::at_pointer(kind, p)
    }

    /// Refuses to open a container past the nesting limit.
    fn check_depth(&self) -> Result<()> {
        if self.b.depth() >= self.max_depth {
            return Err(self.fail(ErrorKind::NestingTooDeep {
                limit: self.max_depth,
            }));
        }
        Ok(())
    }

    fn policy(&self) -> NumberPolicy {
        self.b.policy()
    }

    /// A number given as JSON number text (integers, `f32` shortest digits).
    fn number_text(&mut self, text: &str) -> Result<()> {
        let policy = self.policy();
        self.b
            .number_with(|out| {
                number::write_canonical(text, text.contains(['e', 'E']), policy, out)
            })
            .map_err(|k| self.fail(k))
    }

    fn str_value(&mut self, s: &str, key: bool) -> Result<()> {
        if self.reject_nonchars {
            if let Some(c) = s
                .chars()
                .find(|&c| crate::string::is_noncharacter(c as u32))
            {
                if key {
                    return Err(self.fail_key(ErrorKind::Noncharacter(c), Some(s)));
                }
                return Err(self.fail(ErrorKind::Noncharacter(c)));
            }
        }
        let escaped = s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\');
        let s = Str {
            bytes: s.as_bytes(),
            escaped,
            offset: 0,
        };
        let stored = if key {
            self.b.key_value(s, 0)
        } else {
            self.b.string_value(s)
        };
        stored.map_err(|k| self.fail(k))
    }

    fn end_object(&mut self) -> Result<()> {
        self.b.close_object().map_err(|(kind, key)| {
            let _ = key;
            let mut p = self.b.current_pointer(false);
            if let ErrorKind::DuplicateKey(name) = &kind {
                crate::pointer::push_token(&mut p, name);
            }
            Error::at_pointer(kind, p)
        })
    }

    /// `{"variant": ...` for externally tagged enum variants.
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        self.check_depth()?;
        self.b.begin_object_node();
        self.str_value(variant, true)
    }
}

macro_rules! integer_methods {
    ($($method:ident: $t:ty => $wide:ident),*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            // Read as JSON number text: rounded like parsed input (exact in the
            // comparison form).
            let (negative, magnitude) = $wide::from(v).sign_magnitude();
            let mut buf = [0u8; 40];
            self.number_text(decimal(negative, magnitude, &mut buf))
        }
    )*};
}

/// A widened integer as its sign and magnitude.
trait SignMagnitude {
    fn sign_magnitude(self) -> (bool, u128);
}

impl SignMagnitude for i128 {
    fn sign_magnitude(self) -> (bool, u128) {
        (self < 0, self.unsigned_abs())
    }
}

impl SignMagnitude for u128 {
    fn sign_magnitude(self) -> (bool, u128) {
        (false, self)
    }
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.b.boolean(v);
        Ok(())
    }

    integer_methods!(
        serialize_i8: i8 => i128, serialize_i16: i16 => i128, serialize_i32: i32 => i128,
        serialize_i64: i64 => i128, serialize_i128: i128 => i128, serialize_u8: u8 => u128,
        serialize_u16: u16 => u128, serialize_u32: u32 => u128, serialize_u64: u64 => u128,
        serialize_u128: u128 => u128
    );

    fn serialize_f32(self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return Err(self.fail(ErrorKind::NonFiniteNumber));
        }
        self.number_text(zmij::Buffer::new().format_finite(v))
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        if !v.is_finite() {
            return Err(self.fail(ErrorKind::NonFiniteNumber));
        }
        if v == 0.0 && v.is_sign_negative() && self.policy().negative_zero == NegativeZero::Reject {
            return Err(self.fail(ErrorKind::NegativeZero));
        }
        self.b
            .number_with(|out| {
                number::write_f64(v, out);
                Ok(())
            })
            .map_err(|k| self.fail(k))
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.str_value(v.encode_utf8(&mut [0; 4]), false)
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        self.str_value(v, false)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        self.b.null();
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        self.end_object()
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>> {
        self.check_depth()?;
        self.b.begin_array_node();
        Ok(Compound {
            ser: self,
            variant: false,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        self.open_variant(variant)?;
        self.check_depth()?;
        self.b.begin_array_node();
        Ok(Compound {
            ser: self,
            variant: true,
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>> {
        self.check_depth()?;
        self.b.begin_object_node();
        Ok(Compound {
            ser: self,
            variant: false,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        self.open_variant(variant)?;
        self.check_depth()?;
        self.b.begin_object_node();
        Ok(Compound {
            ser: self,
            variant: true,
        })
    }
}

/// An array or object being serialized; `variant` adds the enclosing `{"variant": ...}`.
#[doc(hidden)]
pub struct Compound<'a> {
    ser: &'a mut Serializer,
    variant: bool,
}

impl Compound<'_> {
    fn end_array(self) -> Result<()> {
        self.ser.b.close_array();
        if self.variant {
            self.ser.end_object()?;
        }
        Ok(())
    }

    fn end_object(self) -> Result<()> {
        self.ser.end_object()?;
        if self.variant {
            self.ser.end_object()?;
        }
        Ok(())
    }
}

macro_rules! seq_like {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut *self.ser)
            }
            fn end(self) -> Result<()> {
                self.end_array()
            }
        }
    )*};
}

seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(KeySerializer {
            ser: &mut *self.ser,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<()> {
        self.end_object()
    }
}

macro_rules! struct_like {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
                self.ser.str_value(key, true)?;
                value.serialize(&mut *self.ser)
            }
            fn end(self) -> Result<()> {
                self.end_object()
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);

/// Map keys: strings as they are; chars, integers, bools and finite floats as their text
/// (what `serde_json` does); anything else is an error.
struct KeySerializer<'a> {
    ser: &'a mut Serializer,
}

impl KeySerializer<'_> {
    fn key(self, s: &str) -> Result<()> {
        self.ser.str_value(s, true)
    }

    fn reject(self) -> Result<()> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }
}

macro_rules! key_via_display {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            self.key(&v.to_string())
        }
    )*};
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    key_via_display!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char
    );

    fn serialize_f32(self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return self.reject();
        }
        // The same text as an f32 value: its shortest digits, read as a JSON number.
        let mut out = Vec::new();
        let policy = self.ser.policy();
        let mut buf = zmij::Buffer::new();
        let text = buf.format_finite(v);
        number::write_canonical(text, text.contains('e'), policy, &mut out)
            .map_err(|k| self.ser.fail_key(k, None))?;
        self.key(&String::from_utf8_lossy(&out))
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        match number::format_f64(v) {
            Some(s) => self.key(&s),
            None => self.reject(),
        }
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        self.key(v)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        self.reject()
    }

    fn serialize_none(self) -> Result<()> {
        self.reject()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        self.reject()
    }

    fn serialize_unit(self) -> Result<()> {
        self.reject()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.reject()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.key(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        self.reject()
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.ser.fail_key(ErrorKind::KeyMustBeString, None))
    }
}

#[cfg(test)]
mod integer_tests {
    use super::decimal;

    #[test]
    fn integers_are_written_as_to_string_writes_them() {
        let signed = [
            0i128,
            1,
            -1,
            9,
            -10,
            4711,
            i128::from(i64::MIN),
            i128::MIN,
            i128::MAX,
        ];
        for v in signed {
            let mut buf = [0u8; 40];
            assert_eq!(decimal(v < 0, v.unsigned_abs(), &mut buf), v.to_string());
        }
        for v in [0u128, 10, u128::from(u64::MAX), u128::MAX] {
            let mut buf = [0u8; 40];
            assert_eq!(decimal(false, v, &mut buf), v.to_string());
        }
    }
}
