//! The one-pass round-trip check: a decoded value written as PostgreSQL writes jsonb text,
//! compared byte for byte with the text it was decoded from.
//!
//! [`compare`] says [`Compared::Same`] only when the value's own writing is exactly `text`.
//! Then the text's comparison form and the value's comparison form are the same bytes, so
//! the round-trip check has nothing to report and neither form needs to be made:
//!
//! - Strings are written from the value's `&str` with a valid JSON escaping (PostgreSQL's:
//!   `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other controls `\u00xx`), so an equal text
//!   token decodes to the same string.
//! - Integers are written as their decimal digits: an integer literal, whose digits both
//!   comparison forms keep. An `f64` is written as Rust's shortest round-trip text, which
//!   always holds a `.` or an exponent: the text's comparison form then rounds it to the
//!   double it denotes, the value itself, and writes it as the value's comparison form
//!   does. Anything else (`f32`, non-finite numbers, byte strings, map keys that are not
//!   strings, nesting deeper than [`MAX_DEPTH`]) is not written.
//! - Members of an object are written in PostgreSQL's order (shorter names first, then by
//!   bytes) and an object whose value writes one name twice is not written: an equal text
//!   has the value's members, each once, in some order, and both comparison forms sort
//!   members the same way.
//!
//! A value not written says nothing ([`Compared::Unknown`]). Where the writing differs from
//! the text, both are walked side by side ([`walk`]) and the places whose bytes differ give the
//! round-trip changes the two comparison forms' diff would give, without making either;
//! where the walk cannot tell, the caller makes both comparison forms as before.

use std::cell::RefCell;
use std::fmt;
use std::io::Write as _;

use serde::Serialize;
use serde::ser;

mod keys;
mod walk;
use keys::KeyWriter;

use crate::diff::Change;

/// Deepest nesting written; deeper values give `false` (far below the comparison forms'
/// own limit, so neither form can fail on depth where this says `true`).
pub(crate) const MAX_DEPTH: usize = 128;

/// Whether `value`, written as PostgreSQL writes jsonb text, is exactly `text` (see the
/// module documentation for what that proves).
#[cfg(test)]
pub(crate) fn writes_as<T: Serialize + ?Sized>(value: &T, text: &[u8]) -> bool {
    with_writer(|w| w.write(value) && w.out == text)
}

/// Runs `f` with this thread's writer (a fresh one inside another's run, which the
/// writer's callers never start).
fn with_writer<R>(f: impl FnOnce(&mut Writer) -> R) -> R {
    thread_local! {
        static WRITER: RefCell<Writer> = RefCell::new(Writer::default());
    }
    WRITER.with(|w| match w.try_borrow_mut() {
        Ok(mut w) => f(&mut w),
        Err(_) => f(&mut Writer::default()),
    })
}

/// What [`compare`] found.
#[derive(Debug)]
pub(crate) enum Compared {
    /// The value writes `text` itself.
    Same,
    /// The value writes another text; these are the changes from `text` to it, exactly
    /// the diff of the two comparison forms (see [`walk`]).
    Changes(Vec<Change>),
    /// Not known: the caller makes both comparison forms.
    Unknown,
}

/// Whether `value`, written as PostgreSQL writes jsonb text, is exactly `text` (a text that
/// [`crate::jsonb::is_normalized`] accepts), and where it differs, the round-trip changes.
pub(crate) fn compare<T: Serialize + ?Sized>(value: &T, text: &[u8]) -> Compared {
    with_writer(|w| {
        if !w.write(value) {
            Compared::Unknown
        } else if w.out == text {
            Compared::Same
        } else {
            walk::changes(text, &w.out).map_or(Compared::Unknown, Compared::Changes)
        }
    })
}

/// The buffers of [`writes_as`], kept per thread.
#[derive(Default)]
struct Writer {
    out: Vec<u8>,
    /// Members of the open objects, innermost last: (start, end of the name, end).
    members: Vec<(usize, usize, usize)>,
    /// Where each open object's members start in `members`.
    frames: Vec<usize>,
    /// Room to reorder an object's members.
    scratch: Vec<u8>,
    order: Vec<(usize, usize, usize)>,
}

impl Writer {
    /// Writes `value` into `out`; `false` when it is not written (see the module).
    fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.out.clear();
        self.members.clear();
        self.frames.clear();
        value.serialize(&mut *self).is_ok()
    }

    fn string(&mut self, s: &str) {
        let out = &mut self.out;
        out.push(b'"');
        let bytes = s.as_bytes();
        if !bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\') {
            out.extend_from_slice(bytes);
            out.push(b'"');
            return;
        }
        let mut from = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0c => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1f => b"",
                _ => continue,
            };
            out.extend_from_slice(&bytes[from..i]);
            if escape.is_empty() {
                let _ = write!(out, "\\u{b:04x}");
            } else {
                out.extend_from_slice(escape);
            }
            from = i + 1;
        }
        out.extend_from_slice(&bytes[from..]);
        out.push(b'"');
    }

    fn open(&mut self, bracket: u8) -> Result<(), Bail> {
        if self.frames.len() >= MAX_DEPTH {
            return Err(Bail);
        }
        self.out.push(bracket);
        self.frames.push(self.members.len());
        Ok(())
    }

    /// Before an element or a member: the separator when it is not the first.
    fn separate(&mut self) {
        if self.out.last().is_some_and(|&b| b != b'[' && b != b'{') {
            self.out.extend_from_slice(b", ");
        }
    }

    fn close_array(&mut self) {
        self.frames.pop();
        self.out.push(b']');
    }

    /// Closes an object, its members put in PostgreSQL's order; a name written twice fails.
    fn close_object(&mut self) -> Result<(), Bail> {
        let from = self.frames.pop().unwrap_or(self.members.len());
        let out = &self.out;
        let name = |m: &(usize, usize, usize)| out.get(m.0..m.1).unwrap_or_default();
        // The quoted, escaped names: without escapes, jsonb's order of the names themselves
        // (any other text differs from the row's, which is all `compare` needs).
        let order = |a: &(usize, usize, usize), b: &(usize, usize, usize)| {
            crate::jsonb::name_order(name(a), name(b))
        };
        let members = self.members.get(from..).unwrap_or_default();
        let sorted = members
            .windows(2)
            .all(|w| order(&w[0], &w[1]) == std::cmp::Ordering::Less);
        if !sorted {
            self.order.clear();
            self.order.extend_from_slice(members);
            self.order.sort_unstable_by(order);
            if self
                .order
                .windows(2)
                .any(|w| order(&w[0], &w[1]) == std::cmp::Ordering::Equal)
            {
                return Err(Bail);
            }
            let (Some(first), Some(last)) = (members.first(), members.last()) else {
                return Err(Bail);
            };
            let (start, end) = (first.0, last.2);
            self.scratch.clear();
            self.scratch.extend_from_slice(&self.out[start..end]);
            self.out.truncate(start);
            for (i, m) in self.order.iter().enumerate() {
                if i > 0 {
                    self.out.extend_from_slice(b", ");
                }
                self.out
                    .extend_from_slice(&self.scratch[m.0 - start..m.2 - start]);
            }
        }
        self.members.truncate(from);
        self.out.push(b'}');
        Ok(())
    }

    /// Starts a member named `name`: `"name": ` written, the value to follow.
    fn key(&mut self, name: &str) {
        self.separate();
        let start = self.out.len();
        self.string(name);
        self.members.push((start, self.out.len(), 0));
        self.out.extend_from_slice(b": ");
    }

    /// Ends the member last started.
    fn end_member(&mut self) {
        let end = self.out.len();
        if let Some(m) = self.members.last_mut() {
            m.2 = end;
        }
    }
}

/// Why a value is not written: the caller falls back to the comparison forms.
#[derive(Debug)]
pub(crate) struct Bail;

impl fmt::Display for Bail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not written as jsonb text")
    }
}

impl std::error::Error for Bail {}

impl ser::Error for Bail {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Self
    }
}

macro_rules! integers {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<(), Bail> {
            let _ = write!(self.out, "{v}");
            Ok(())
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Bail;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Bail> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    integers!(
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128
    );

    fn serialize_f32(self, _v: f32) -> Result<(), Bail> {
        Err(Bail)
    }

    fn serialize_f64(self, v: f64) -> Result<(), Bail> {
        if !v.is_finite() {
            return Err(Bail);
        }
        // Shortest round-trip digits, always with a `.` or an exponent (`1.0`, `1e300`).
        let _ = write!(self.out, "{v:?}");
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Bail> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Bail> {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Bail> {
        Err(Bail)
    }

    fn serialize_none(self) -> Result<(), Bail> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Bail> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Bail> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Bail> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Bail> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Bail> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Bail> {
        self.open(b'{')?;
        self.key(variant);
        value.serialize(&mut *self)?;
        self.end_member();
        self.close_object()
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Bail> {
        self.open(b'[')?;
        Ok(Compound {
            w: self,
            variant: false,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Bail> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Bail> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Bail> {
        self.open(b'{')?;
        self.key(variant);
        self.open(b'[')?;
        Ok(Compound {
            w: self,
            variant: true,
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Bail> {
        self.open(b'{')?;
        Ok(Compound {
            w: self,
            variant: false,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Bail> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Bail> {
        self.open(b'{')?;
        self.key(variant);
        self.open(b'{')?;
        Ok(Compound {
            w: self,
            variant: true,
        })
    }
}

/// An array or object being written; `variant` adds the enclosing `{"variant": ...}`.
pub(crate) struct Compound<'a> {
    w: &'a mut Writer,
    variant: bool,
}

impl Compound<'_> {
    fn end_array(self) -> Result<(), Bail> {
        self.w.close_array();
        self.end_variant()
    }

    fn end_object(self) -> Result<(), Bail> {
        self.w.close_object()?;
        self.end_variant()
    }

    fn end_variant(self) -> Result<(), Bail> {
        if self.variant {
            self.w.end_member();
            self.w.close_object()?;
        }
        Ok(())
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        self.w.separate();
        value.serialize(&mut *self.w)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Bail> {
        self.w.key(key);
        value.serialize(&mut *self.w)?;
        self.w.end_member();
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        self.element(value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_array()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        self.element(value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_array()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        self.element(value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_array()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        self.element(value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_array()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Bail> {
        key.serialize(KeyWriter(self.w))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Bail> {
        value.serialize(&mut *self.w)?;
        self.w.end_member();
        Ok(())
    }
    fn end(self) -> Result<(), Bail> {
        self.end_object()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Bail> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_object()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Bail;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Bail> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Bail> {
        self.end_object()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;

    use super::writes_as;

    #[derive(Serialize)]
    struct Row {
        name: String,
        id: u64,
        #[serde(flatten)]
        rest: BTreeMap<String, serde_json::Value>,
    }

    #[test]
    fn a_value_writes_postgresql_jsonb_text() {
        let v = json!({"name": "a\"b\\\n\u{1}é", "id": 7, "ratio": 1.5, "list": [true, null, -3]});
        let text = "{\"id\": 7, \"list\": [true, null, -3], \"name\": \"a\\\"b\\\\\\n\\u0001é\", \"ratio\": 1.5}";
        assert!(writes_as(&v, text.as_bytes()));
        // Another order, other spacing, another escaping of the same string: not the text.
        assert!(!writes_as(&v, &serde_json::to_vec(&v).unwrap_or_default()));
        let other = text.replace("\\u0001", "\\u0002");
        assert!(!writes_as(&v, other.as_bytes()));
    }

    #[test]
    fn numbers_are_written_so_that_an_equal_text_has_the_same_comparison_form() {
        // An f64 always has a `.` or an exponent: `1.0` is no integer literal, `1e300` is
        // not PostgreSQL's `1000…`.
        assert!(writes_as(&json!([1.0, 0.1, -0.0]), b"[1.0, 0.1, -0.0]"));
        assert!(!writes_as(&json!([1.0]), b"[1]"));
        assert!(!writes_as(
            &json!([1e300]),
            format!("[1{}]", "0".repeat(300)).as_bytes()
        ));
        assert!(writes_as(&json!([u64::MAX]), b"[18446744073709551615]"));
        assert!(writes_as(
            &[i128::MIN],
            format!("[{}]", i128::MIN).as_bytes()
        ));
        assert!(!writes_as(&[1.5_f32], b"[1.5]"));
        assert!(!writes_as(&[f64::NAN], b"[NaN]"));
    }

    #[test]
    fn a_name_written_twice_is_never_the_text() {
        let mut rest = BTreeMap::new();
        rest.insert("id".to_owned(), json!(7));
        let row = Row {
            name: "x".to_owned(),
            id: 7,
            rest,
        };
        // The value writes `id` twice: no text can be its own comparison form's source.
        assert!(!writes_as(&row, br#"{"id": 7, "id": 7, "name": "x"}"#));
        assert!(!writes_as(&row, br#"{"id": 7, "name": "x"}"#));
        let row = Row {
            rest: BTreeMap::new(),
            ..row
        };
        assert!(writes_as(&row, br#"{"id": 7, "name": "x"}"#));
    }

    #[test]
    fn deep_values_and_non_string_keys_are_not_written() {
        let mut deep = json!(1);
        let mut text = "1".to_owned();
        for _ in 0..=super::MAX_DEPTH {
            deep = json!([deep]);
            text = format!("[{text}]");
        }
        assert!(!writes_as(&deep, text.as_bytes()));
        let keys: BTreeMap<u32, u32> = [(1, 2)].into_iter().collect();
        assert!(!writes_as(&keys, br#"{"1": 2}"#));
        assert!(writes_as(
            &json!([[{}], {"a": []}]),
            br#"[[{}], {"a": []}]"#
        ));
    }
}
