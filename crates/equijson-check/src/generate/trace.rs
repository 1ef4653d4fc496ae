//! The serde shape of a type, traced from its `Deserialize` implementation by a
//! `Deserializer` that records what it is asked for.
//!
//! Tracing sees structs (with their field names), externally tagged enums (every variant),
//! sequences, maps, options and scalars. A struct with a `#[serde(flatten)]` field asks for
//! a map without naming its fields: they are learnt from its `missing field` errors, one
//! pass each. Tracing cannot see through `deserialize_any` (internally tagged and untagged
//! enums, `serde_json::Value`, the members a flattened field collects) nor through types
//! that parse their own strings: those places are [`Shape::Opaque`], and the generator
//! fills them from the DTO's example documents.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};

/// How deep the tracer follows nested types (recursive types stop here).
const MAX_DEPTH: usize = 12;

/// Integer types, for the edges of their ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntKind {
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `u128`
    U128,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `i128`
    I128,
}

/// The serde shape of a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Not visible to tracing (see the module documentation).
    Opaque,
    /// `bool`
    Bool,
    /// An integer type.
    Int(IntKind),
    /// `f32` (`true`) or `f64` (`false`).
    Float(bool),
    /// `char`, `String`, `&str`.
    Str,
    /// Byte buffers (JSON arrays of numbers).
    Bytes,
    /// `()` and unit structs (`null`).
    Unit,
    /// `Option<T>`: `null` or the value; a struct field of this shape may be absent.
    Option(Box<Shape>),
    /// `Vec<T>` and other sequences.
    Seq(Box<Shape>),
    /// Tuples and tuple structs: arrays of fixed length.
    Tuple(Vec<Shape>),
    /// Maps: objects whose names are the keys.
    Map(Box<Shape>, Box<Shape>),
    /// A struct: its fields by serialized name, in declaration order.
    Struct(Vec<(&'static str, Shape)>),
    /// An externally tagged enum: its variants by serialized name.
    Enum(Vec<(&'static str, Shape)>),
}

/// The traced shape of `T`.
///
/// Several passes are made: one per variant index (every enum takes its `i`-th variant in
/// pass `i`), and fields whose values could not be traced are fed last in the next pass so
/// that the fields after them are seen.
#[must_use]
pub fn shape_of<T: DeserializeOwned>() -> Shape {
    let plan = Plan::default();
    let mut merged: Option<Shape> = None;
    let mut variant = 0;
    loop {
        let mut before = plan.learnt();
        // Re-run while new untraceable fields are learnt (each moves to the end).
        for _ in 0..64 {
            let mut out = Shape::Opaque;
            plan.variant.replace(variant);
            plan.max_variants.replace(0);
            let _ = T::deserialize(Tracer {
                out: &mut out,
                plan: &plan,
                depth: 0,
            });
            merged = Some(match merged {
                Some(m) => merge(m, out),
                None => out,
            });
            let after = plan.learnt();
            if after == before {
                break;
            }
            before = after;
        }
        variant += 1;
        if variant >= *plan.max_variants.borrow() || variant >= 64 {
            break;
        }
    }
    merged.unwrap_or(Shape::Opaque)
}

/// The more informative of two traces of the same type.
fn merge(a: Shape, b: Shape) -> Shape {
    match (a, b) {
        (Shape::Opaque, b) => b,
        (Shape::Option(a), Shape::Option(b)) => Shape::Option(Box::new(merge(*a, *b))),
        (Shape::Seq(a), Shape::Seq(b)) => Shape::Seq(Box::new(merge(*a, *b))),
        (Shape::Map(key, value), Shape::Map(other_key, other_value)) => Shape::Map(
            Box::new(merge(*key, *other_key)),
            Box::new(merge(*value, *other_value)),
        ),
        (Shape::Tuple(a), Shape::Tuple(b)) if a.len() == b.len() => {
            Shape::Tuple(a.into_iter().zip(b).map(|(x, y)| merge(x, y)).collect())
        }
        (Shape::Struct(a), Shape::Struct(b)) => Shape::Struct(merge_named(a, b)),
        (Shape::Enum(a), Shape::Enum(b)) => Shape::Enum(merge_named(a, b)),
        // `a` is at least as informative (`b` opaque, or another trace of the same place).
        (a, _) => a,
    }
}

fn merge_named(
    a: Vec<(&'static str, Shape)>,
    b: Vec<(&'static str, Shape)>,
) -> Vec<(&'static str, Shape)> {
    let mut out = a;
    for (name, shape) in b {
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, s)) => *s = merge(std::mem::replace(s, Shape::Opaque), shape),
            None => out.push((name, shape)),
        }
    }
    out
}

/// What the passes share.
#[derive(Default)]
struct Plan {
    /// The variant index every enum takes in this pass.
    variant: RefCell<usize>,
    /// The most variants an enum had in this pass.
    max_variants: RefCell<usize>,
    /// Struct fields (by the address of their struct's field list and name) whose values
    /// could not be traced.
    failing: RefCell<BTreeSet<(usize, &'static str)>>,
    /// Field names learnt for structs read as maps, by their visitor's type name.
    map_fields: RefCell<BTreeMap<&'static str, Vec<&'static str>>>,
}

impl Plan {
    /// How much the passes have learnt (grows until tracing sees all it can).
    fn learnt(&self) -> usize {
        self.failing.borrow().len()
            + self
                .map_fields
                .borrow()
                .values()
                .map(Vec::len)
                .sum::<usize>()
    }
}

/// Why a trace stopped.
#[derive(Debug)]
struct TraceError(String, Option<&'static str>);

impl TraceError {
    fn new(message: &str) -> Self {
        Self(message.to_owned(), None)
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TraceError {}

impl de::Error for TraceError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string(), None)
    }

    /// A struct read as a map (it has a `#[serde(flatten)]` field) names the fields it
    /// missed: the next pass feeds them.
    fn missing_field(field: &'static str) -> Self {
        Self(format!("missing field `{field}`"), Some(field))
    }
}

struct Tracer<'a> {
    out: &'a mut Shape,
    plan: &'a Plan,
    depth: usize,
}

impl Tracer<'_> {
    /// A struct's fields fed by name (the untraceable ones last); the shape is a
    /// [`Shape::Struct`] of what was traced.
    fn fields<'de, V: Visitor<'de>>(
        self,
        id: usize,
        fields: Vec<&'static str>,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        let mut order: Vec<usize> = (0..fields.len()).collect();
        {
            let failing = self.plan.failing.borrow();
            order.sort_by_key(|&i| failing.contains(&(id, fields[i])));
        }
        let mut access = StructAccess {
            shapes: vec![Shape::Opaque; fields.len()],
            fields,
            order,
            next: 0,
            in_value: None,
            plan: self.plan,
            depth: self.depth + 1,
        };
        let r = visitor.visit_map(&mut access);
        if r.is_err() {
            if let Some(i) = access.in_value {
                self.plan
                    .failing
                    .borrow_mut()
                    .insert((id, access.fields[i]));
            }
        }
        *self.out = Shape::Struct(access.fields.into_iter().zip(access.shapes).collect());
        r
    }

    /// A struct read as a map, its fields learnt from earlier passes.
    fn named_map<'de, V: Visitor<'de>>(
        self,
        id: &'static str,
        fields: Vec<&'static str>,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        let plan = self.plan;
        let r = self.fields(id.as_ptr() as usize, fields, visitor);
        if let Err(TraceError(_, Some(field))) = &r {
            if let Some(known) = plan.map_fields.borrow_mut().get_mut(id) {
                if !known.contains(field) {
                    known.push(field);
                }
            }
        }
        r
    }

    fn child<'b>(&'b self, out: &'b mut Shape) -> Tracer<'b> {
        Tracer {
            out,
            plan: self.plan,
            depth: self.depth + 1,
        }
    }

    fn deep(&self) -> bool {
        self.depth >= MAX_DEPTH
    }
}

macro_rules! scalar {
    ($($method:ident => $shape:expr, $visit:ident($($value:expr)?);)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
            *self.out = $shape;
            visitor.$visit($($value)?)
        })*
    };
}

impl<'de> de::Deserializer<'de> for Tracer<'_> {
    type Error = TraceError;

    scalar! {
        deserialize_bool => Shape::Bool, visit_bool(false);
        deserialize_i8 => Shape::Int(IntKind::I8), visit_i8(0);
        deserialize_i16 => Shape::Int(IntKind::I16), visit_i16(0);
        deserialize_i32 => Shape::Int(IntKind::I32), visit_i32(0);
        deserialize_i64 => Shape::Int(IntKind::I64), visit_i64(0);
        deserialize_i128 => Shape::Int(IntKind::I128), visit_i128(0);
        deserialize_u8 => Shape::Int(IntKind::U8), visit_u8(0);
        deserialize_u16 => Shape::Int(IntKind::U16), visit_u16(0);
        deserialize_u32 => Shape::Int(IntKind::U32), visit_u32(0);
        deserialize_u64 => Shape::Int(IntKind::U64), visit_u64(0);
        deserialize_u128 => Shape::Int(IntKind::U128), visit_u128(0);
        deserialize_f32 => Shape::Float(true), visit_f32(0.0);
        deserialize_f64 => Shape::Float(false), visit_f64(0.0);
        deserialize_char => Shape::Str, visit_char('a');
        deserialize_str => Shape::Str, visit_str("");
        deserialize_string => Shape::Str, visit_string(String::new());
        deserialize_bytes => Shape::Bytes, visit_bytes(&[]);
        deserialize_byte_buf => Shape::Bytes, visit_byte_buf(Vec::new());
        deserialize_unit => Shape::Unit, visit_unit();
        deserialize_any => Shape::Opaque, visit_unit();
        deserialize_ignored_any => Shape::Opaque, visit_unit();
        deserialize_identifier => Shape::Str, visit_str("");
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        *self.out = Shape::Unit;
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        if self.deep() {
            *self.out = Shape::Option(Box::new(Shape::Opaque));
            return visitor.visit_none();
        }
        let mut inner = Shape::Opaque;
        let r = visitor.visit_some(self.child(&mut inner));
        *self.out = Shape::Option(Box::new(inner));
        r
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        let mut access = SeqAccess {
            shapes: vec![Shape::Opaque],
            next: 0,
            len: usize::from(!self.deep()),
            plan: self.plan,
            depth: self.depth + 1,
        };
        let r = visitor.visit_seq(&mut access);
        *self.out = Shape::Seq(Box::new(access.shapes.swap_remove(0)));
        r
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        let mut access = SeqAccess {
            shapes: vec![Shape::Opaque; len],
            next: 0,
            len,
            plan: self.plan,
            depth: self.depth + 1,
        };
        let r = visitor.visit_seq(&mut access);
        *self.out = Shape::Tuple(access.shapes);
        r
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        let id = std::any::type_name::<V>();
        let known = self.plan.map_fields.borrow().get(id).cloned();
        if let Some(fields) = known {
            return self.named_map(id, fields, visitor);
        }
        let mut access = MapAccess {
            key: Shape::Opaque,
            value: Shape::Opaque,
            left: usize::from(!self.deep()),
            plan: self.plan,
            depth: self.depth + 1,
        };
        let r = visitor.visit_map(&mut access);
        *self.out = match &r {
            Ok(_) => Shape::Map(Box::new(access.key), Box::new(access.value)),
            // A struct with a `#[serde(flatten)]` field asks for a map: the fields it
            // misses are fed by name in the next pass.
            Err(e) => {
                if let Some(field) = e.1 {
                    self.plan.map_fields.borrow_mut().insert(id, vec![field]);
                }
                Shape::Opaque
            }
        };
        r
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        if self.deep() {
            return Err(TraceError::new("too deep"));
        }
        self.fields(fields.as_ptr() as usize, fields.to_vec(), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        if variants.is_empty() {
            *self.out = Shape::Enum(Vec::new());
            return Err(TraceError::new("an enum without variants"));
        }
        {
            let mut max = self.plan.max_variants.borrow_mut();
            *max = (*max).max(variants.len());
        }
        let chosen = *self.plan.variant.borrow() % variants.len();
        let mut content = Shape::Opaque;
        let r = visitor.visit_enum(EnumAccess {
            name: variants[chosen],
            tracer: self.child(&mut content),
        });
        *self.out = Shape::Enum(
            variants
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let s = if i == chosen {
                        std::mem::replace(&mut content, Shape::Opaque)
                    } else {
                        Shape::Opaque
                    };
                    (*v, s)
                })
                .collect(),
        );
        r
    }
}

struct SeqAccess<'a> {
    shapes: Vec<Shape>,
    next: usize,
    len: usize,
    plan: &'a Plan,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_> {
    type Error = TraceError;

    fn next_element_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, TraceError> {
        if self.next >= self.len {
            return Ok(None);
        }
        let i = self.next;
        self.next += 1;
        let plan = self.plan;
        let depth = self.depth;
        seed.deserialize(Tracer {
            out: &mut self.shapes[i],
            plan,
            depth,
        })
        .map(Some)
    }
}

struct MapAccess<'a> {
    key: Shape,
    value: Shape,
    left: usize,
    plan: &'a Plan,
    depth: usize,
}

impl<'de> de::MapAccess<'de> for MapAccess<'_> {
    type Error = TraceError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let plan = self.plan;
        let depth = self.depth;
        seed.deserialize(Tracer {
            out: &mut self.key,
            plan,
            depth,
        })
        .map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, TraceError> {
        let plan = self.plan;
        let depth = self.depth;
        seed.deserialize(Tracer {
            out: &mut self.value,
            plan,
            depth,
        })
    }
}

struct StructAccess<'a> {
    fields: Vec<&'static str>,
    order: Vec<usize>,
    shapes: Vec<Shape>,
    next: usize,
    in_value: Option<usize>,
    plan: &'a Plan,
    depth: usize,
}

impl<'de> de::MapAccess<'de> for StructAccess<'_> {
    type Error = TraceError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        let Some(&i) = self.order.get(self.next) else {
            return Ok(None);
        };
        let name: &'static str = self.fields[i];
        seed.deserialize(IntoDeserializer::<TraceError>::into_deserializer(name))
            .map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, TraceError> {
        let Some(&i) = self.order.get(self.next) else {
            return Err(TraceError::new("a value without a key"));
        };
        self.next += 1;
        self.in_value = Some(i);
        let plan = self.plan;
        let depth = self.depth;
        let r = seed.deserialize(Tracer {
            out: &mut self.shapes[i],
            plan,
            depth,
        });
        if r.is_ok() {
            self.in_value = None;
        }
        r
    }
}

struct EnumAccess<'a> {
    name: &'static str,
    tracer: Tracer<'a>,
}

impl<'de, 'a> de::EnumAccess<'de> for EnumAccess<'a> {
    type Error = TraceError;
    type Variant = Tracer<'a>;

    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Tracer<'a>), TraceError> {
        let v = seed.deserialize(IntoDeserializer::<TraceError>::into_deserializer(self.name))?;
        Ok((v, self.tracer))
    }
}

impl<'de> de::VariantAccess<'de> for Tracer<'_> {
    type Error = TraceError;

    fn unit_variant(self) -> Result<(), TraceError> {
        *self.out = Shape::Unit;
        Ok(())
    }

    fn newtype_variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, TraceError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::{IntKind, Shape, shape_of};

    #[derive(Deserialize)]
    #[allow(dead_code, reason = "only traced")]
    enum Kind {
        A,
        B(u8),
        C { x: f64 },
    }

    #[derive(Deserialize)]
    #[allow(dead_code, reason = "only traced")]
    struct Inner {
        n: u128,
        tags: Vec<String>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code, reason = "only traced")]
    struct Outer {
        any: serde_json::Value,
        opt: Option<u64>,
        kind: Kind,
        inner: Inner,
        limits: BTreeMap<String, i64>,
        next: Option<Box<Outer>>,
    }

    #[test]
    fn traces_fields_variants_and_opaque_places() {
        let Shape::Struct(fields) = shape_of::<Outer>() else {
            panic!("not a struct")
        };
        let get = |n: &str| fields.iter().find(|(f, _)| *f == n).map(|(_, s)| s.clone());
        assert_eq!(get("any"), Some(Shape::Opaque));
        assert_eq!(
            get("opt"),
            Some(Shape::Option(Box::new(Shape::Int(IntKind::U64))))
        );
        assert_eq!(
            get("kind"),
            Some(Shape::Enum(vec![
                ("A", Shape::Unit),
                ("B", Shape::Int(IntKind::U8)),
                ("C", Shape::Struct(vec![("x", Shape::Float(false))])),
            ]))
        );
        assert_eq!(
            get("inner"),
            Some(Shape::Struct(vec![
                ("n", Shape::Int(IntKind::U128)),
                ("tags", Shape::Seq(Box::new(Shape::Str))),
            ]))
        );
        assert_eq!(
            get("limits"),
            Some(Shape::Map(
                Box::new(Shape::Str),
                Box::new(Shape::Int(IntKind::I64))
            ))
        );
        assert!(matches!(get("next"), Some(Shape::Option(_))));
    }
}
