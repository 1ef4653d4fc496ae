//! `value`: any JSON document, decoded as `serde_json::Value`.

use super::DtoSpec;
use crate::decode::{Accept, Class, DecodePath, check};
use crate::generate::{Gen, Json};

const ACCEPTS: &[Accept] = &[
    Accept {
        class: Class::ErrorSplit,
        only: &[DecodePath::JsonbWire],
        reason: "PostgreSQL's jsonb cannot store \\u0000 or numbers beyond numeric's range; json columns can",
    },
    Accept {
        class: Class::ValueSplit,
        only: &[DecodePath::Canonical],
        reason: "RFC 8785 writes every number as a double: integers beyond 2^53 come back rounded",
    },
    Accept {
        class: Class::RoundTripLoss,
        only: &[],
        reason: "serde_json::Value holds integers beyond 64 bits as doubles (no arbitrary_precision)",
    },
    Accept {
        class: Class::FloatMisread,
        only: &[],
        reason: "serde_json::Value reads doubles with the build's serde_json: without float_roundtrip some 16- and 17-digit numbers come back a unit in the last place off",
    },
];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "value",
    summary: "any JSON document, as serde_json::Value",
    accepts: ACCEPTS,
    check: |input| check::<serde_json::Value>(input, ACCEPTS),
    check_input: |input| crate::decode::check_input::<serde_json::Value>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| {
        crate::decode::check_input_paths::<serde_json::Value>(input, paths, ACCEPTS)
    },
    check_reference: |input| crate::decode::reference::check::<serde_json::Value>(input, ACCEPTS),
    generate,
    sample: r#"{"b":[1.0,1e21,-0,"\u00e9"],"a":{"\ud83d\ude02":1,"\ufb33":2},"c":9007199254740993}"#,
};

/// A random document up to four levels deep.
pub(super) fn generate(g: &mut Gen) -> Json {
    g.json(4)
}
