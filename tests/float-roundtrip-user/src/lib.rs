//! A DTO of a service built with serde_json's `float_roundtrip` (see Cargo.toml).

use serde::{Deserialize, Serialize};

/// A measurement read as a double.
#[derive(Debug, Serialize, Deserialize)]
pub struct Measure {
    /// The value.
    pub a: f64,
}
