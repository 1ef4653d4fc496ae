//! Documents of a type's own shape: generated from its traced [`Shape`], or mutations of
//! its example documents (where tracing cannot see, the examples fill in).

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::de::DeserializeOwned;

use super::trace::{Shape, shape_of};
use super::{Gen, Json, edges};

/// The traced shape of `T`, computed once per type.
#[must_use]
pub fn cached_shape<T: DeserializeOwned + 'static>() -> Arc<Shape> {
    static SHAPES: OnceLock<Mutex<HashMap<TypeId, Arc<Shape>>>> = OnceLock::new();
    let map = SHAPES.get_or_init(Mutex::default);
    let id = TypeId::of::<T>();
    if let Some(s) = map.lock().ok().and_then(|m| m.get(&id).cloned()) {
        return s;
    }
    let s = Arc::new(shape_of::<T>());
    if let Ok(mut m) = map.lock() {
        m.insert(id, Arc::clone(&s));
    }
    s
}

/// A document for `T`: half of the cases mutate one of `examples` (one to three
/// mutations, see [`edges::mutate`]), the others follow the traced shape, taking the
/// examples' values where the shape is opaque. With neither examples nor a visible shape
/// the document is any JSON.
pub fn document<T: DeserializeOwned + 'static>(g: &mut Gen, examples: &[&str]) -> Json {
    let parsed: Vec<Json> = examples.iter().filter_map(|e| parse(e)).collect();
    let shape = cached_shape::<T>();
    if !parsed.is_empty() && (g.rng().coin() || *shape == Shape::Opaque) {
        let mut doc = parsed[g.rng().index(parsed.len())].clone();
        for _ in 0..=g.rng().index(3) {
            doc = edges::mutate(&doc, g);
        }
        return doc;
    }
    let example = (!parsed.is_empty()).then(|| parsed[g.rng().index(parsed.len())].clone());
    from_shape(&shape, example.as_ref(), g, 0)
}

/// The document tree of a JSON text, number spellings kept; `None` if it does not parse.
#[must_use]
pub fn parse(text: &str) -> Option<Json> {
    let doc = equijson::Document::parse(text.as_bytes()).ok()?;
    Some(of_value(doc.root()))
}

fn of_value(v: equijson::ValueRef<'_>) -> Json {
    use equijson::Kind;
    match v.kind() {
        Kind::Null => Json::Null,
        Kind::Bool => Json::Bool(v.as_bool().unwrap_or(false)),
        Kind::Number => Json::Number(v.number_text().unwrap_or("0").to_owned()),
        Kind::String => Json::String(v.as_str().unwrap_or_default().to_owned()),
        Kind::Array => Json::Array(v.elements().map(of_value).collect()),
        Kind::Object => Json::Object(
            v.members()
                .map(|(k, m)| (k.to_owned(), of_value(m)))
                .collect(),
        ),
    }
}

/// A value of `shape`; `example` is the example document's value at the same place.
fn from_shape(shape: &Shape, example: Option<&Json>, g: &mut Gen, depth: usize) -> Json {
    let member = |name: &str| match example {
        Some(Json::Object(m)) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    };
    match shape {
        Shape::Opaque => match example {
            Some(e) if g.rng().below(4) != 0 => e.clone(),
            Some(e) => edges::mutate(e, g),
            None => g.json(2),
        },
        Shape::Bool => Json::Bool(g.rng().coin()),
        Shape::Int(k) => Json::Number(edges::integer(g, *k)),
        Shape::Float(_) => Json::Number(edges::float(g)),
        Shape::Str => Json::String(edges::string(g)),
        Shape::Bytes => Json::Array(
            (0..g.length(0))
                .map(|_| Json::Number(g.rng().below(256).to_string()))
                .collect(),
        ),
        Shape::Unit => Json::Null,
        Shape::Option(inner) => {
            if g.rng().below(3) == 0 || depth > 6 {
                Json::Null
            } else {
                from_shape(inner, example, g, depth + 1)
            }
        }
        Shape::Seq(inner) => {
            let first = match example {
                Some(Json::Array(a)) => a.first(),
                _ => None,
            };
            let n = if depth > 6 { 0 } else { g.length(1) };
            Json::Array(
                (0..n)
                    .map(|_| from_shape(inner, first, g, depth + 1))
                    .collect(),
            )
        }
        Shape::Tuple(items) => Json::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let e = match example {
                        Some(Json::Array(a)) => a.get(i),
                        _ => None,
                    };
                    from_shape(s, e, g, depth + 1)
                })
                .collect(),
        ),
        Shape::Map(_, value) => {
            let first = match example {
                Some(Json::Object(m)) => m.first().map(|(_, v)| v),
                _ => None,
            };
            let n = if depth > 6 { 0 } else { g.length(1) };
            let mut members: Vec<(String, Json)> = Vec::with_capacity(n);
            for _ in 0..n {
                let k = g.key();
                if !members.iter().any(|(m, _)| *m == k) {
                    let v = from_shape(value, first, g, depth + 1);
                    members.push((k, v));
                }
            }
            Json::Object(members)
        }
        Shape::Struct(fields) => object(fields, example, g, depth),
        Shape::Enum(variants) => {
            let i = g.rng().index(variants.len().max(1));
            match variants.get(i) {
                // An enum without variants has no values: any document is refused.
                None => Json::Null,
                Some((name, Shape::Unit)) => Json::String((*name).to_owned()),
                Some((name, content)) => Json::Object(vec![(
                    (*name).to_owned(),
                    from_shape(content, member(name), g, depth + 1),
                )]),
            }
        }
    }
}

/// An object of a struct's `fields`; members the trace did not see (a flattened field's,
/// or fields after an untraceable one) come from the example.
fn object(
    fields: &[(&'static str, Shape)],
    example: Option<&Json>,
    g: &mut Gen,
    depth: usize,
) -> Json {
    let member = |name: &str| match example {
        Some(Json::Object(m)) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    };
    let mut members = Vec::with_capacity(fields.len() + 1);
    for (name, s) in fields {
        // Optional members are sometimes left out.
        if matches!(s, Shape::Option(_)) && g.rng().below(4) == 0 {
            continue;
        }
        members.push((
            (*name).to_owned(),
            from_shape(s, member(name), g, depth + 1),
        ));
    }
    // Members the trace did not see (a flattened field's, or fields after an
    // untraceable one) come from the example.
    if let Some(Json::Object(seen)) = example {
        for (k, v) in seen {
            if !fields.iter().any(|(name, _)| name == k) {
                let v = if g.rng().below(4) == 0 {
                    edges::mutate(v, g)
                } else {
                    v.clone()
                };
                members.push((k.clone(), v));
            }
        }
    }
    if g.rng().below(8) == 0 {
        members.push((format!("unknown_{}", g.rng().below(10)), g.json(1)));
    }
    Json::Object(members)
}
