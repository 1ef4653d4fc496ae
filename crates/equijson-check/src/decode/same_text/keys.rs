//! Map keys of the one-pass round-trip check's writer: strings (and chars) only.

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::{Bail, Writer};

/// A map key: strings (and chars) only; anything else is not written.
pub(super) struct KeyWriter<'a>(pub(super) &'a mut Writer);

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Bail;
    type SerializeSeq = Impossible<(), Bail>;
    type SerializeTuple = Impossible<(), Bail>;
    type SerializeTupleStruct = Impossible<(), Bail>;
    type SerializeTupleVariant = Impossible<(), Bail>;
    type SerializeMap = Impossible<(), Bail>;
    type SerializeStruct = Impossible<(), Bail>;
    type SerializeStructVariant = Impossible<(), Bail>;

    fn serialize_str(self, v: &str) -> Result<(), Bail> {
        self.0.key(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Bail> {
        self.0.key(v.encode_utf8(&mut [0; 4]));
        Ok(())
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
    fn serialize_bool(self, _v: bool) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_i8(self, _v: i8) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_i16(self, _v: i16) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_i32(self, _v: i32) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_i64(self, _v: i64) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_u8(self, _v: u8) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_u16(self, _v: u16) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_u32(self, _v: u32) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_u64(self, _v: u64) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_f32(self, _v: f32) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_f64(self, _v: f64) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_none(self) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_unit(self) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Bail> {
        Err(Bail)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Bail> {
        Err(Bail)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Bail> {
        Err(Bail)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Bail> {
        Err(Bail)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Bail> {
        Err(Bail)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Bail> {
        Err(Bail)
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Bail> {
        Err(Bail)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Bail> {
        Err(Bail)
    }
}
