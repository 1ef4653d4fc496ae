//! `event-context`: an audit event whose context is a plain JSON object, held in memory as a
//! small vector of pairs through hand-written `Serialize`/`Deserialize`.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{DtoSpec, text, tree};
use crate::decode::{Accept, Class, check};
use crate::generate::{Gen, Json};

/// An audit event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventContext {
    /// Event name, e.g. `login.failed`.
    pub event: String,
    /// RFC 3339 timestamp text.
    pub at: String,
    /// Free-form context, in the order written.
    pub context: ContextMap,
}

/// A JSON object kept as an ordered vector of pairs (cheaper than a map for 2-5 entries).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContextMap(pub Vec<(String, ContextValue)>);

/// A context value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ContextValue {
    /// `true`/`false`.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// Any other number.
    Float(f64),
    /// A string.
    Text(String),
}

impl Serialize for ContextMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ContextMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = ContextMap;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContextMap, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(4).min(64));
                while let Some((k, v)) = map.next_entry::<String, ContextValue>()? {
                    pairs.push((k, v));
                }
                Ok(ContextMap(pairs))
            }
        }
        deserializer.deserialize_map(PairsVisitor)
    }
}

const ACCEPTS: &[Accept] = &[Accept {
    class: Class::FloatMisread,
    only: &[],
    reason: "context values are logged and shown, never hashed or compared: a misread last digit is harmless",
}];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "event-context",
    summary: "audit event; context object held as Vec<(String, value)> by a custom serde impl",
    accepts: ACCEPTS,
    check: |input| check::<EventContext>(input, ACCEPTS),
    check_input: |input| crate::decode::check_input::<EventContext>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| {
        crate::decode::check_input_paths::<EventContext>(input, paths, ACCEPTS)
    },
    check_reference: |input| crate::decode::reference::check::<EventContext>(input, ACCEPTS),
    generate,
    sample: r#"{"event":"login.failed","at":"2026-11-30T07:23:42Z","context":{"ip":"203.0.113.7","attempt":3,"mfa":false,"risk":0.82,"user_agent":"Mozilla/5.0 (X11; Linux x86_64)"}}"#,
};

/// An event document. Integers stay within ±2^53, as JavaScript producers write them.
pub(super) fn generate(g: &mut Gen) -> Json {
    let mut pairs: Vec<(String, ContextValue)> = Vec::new();
    for _ in 0..g.length(1) {
        let key = text(g, 6);
        if pairs.iter().any(|(k, _)| *k == key) {
            continue;
        }
        let value = match g.rng().below(4) {
            0 => ContextValue::Bool(g.rng().coin()),
            1 => {
                let magnitude = g.rng().below((1u64 << 53) + 1);
                let magnitude = i64::try_from(magnitude).unwrap_or(0);
                ContextValue::Int(if g.rng().coin() {
                    -magnitude
                } else {
                    magnitude
                })
            }
            2 => ContextValue::Float(super::measure(g, 1e4) + 0.5),
            _ => ContextValue::Text(text(g, 12)),
        };
        pairs.push((key, value));
    }
    let event = EventContext {
        event: [
            "login.failed",
            "file.shared",
            "invoice.paid",
            "role.changed",
        ][g.rng().index(4)]
        .to_owned(),
        at: format!(
            "2026-11-{:02}T{:02}:{:02}:00Z",
            1 + g.rng().below(28),
            g.rng().below(24),
            g.rng().below(60)
        ),
        context: ContextMap(pairs),
    };
    tree(&event)
}
