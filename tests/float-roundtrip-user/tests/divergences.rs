//! The workspace's divergence table and tests, run under `float_roundtrip`: the rows and
//! tests marked for that mode (serde_json reading an f32 from the text) run here.

#[path = "../../../crates/equijson-check/tests/divergences.rs"]
mod divergences;
