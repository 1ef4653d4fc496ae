//! equijson: strict I-JSON parsing and RFC 8785 (JCS) canonical JSON, in pure Rust.
//!
//! The crate does no I/O and builds for `wasm32-unknown-unknown`.
//!
//! - [`canonicalize`] turns JSON text into its canonical bytes (members sorted by UTF-16
//!   code units, ECMAScript number formatting, minimal escaping, no whitespace).
//! - [`to_canonical_vec`] does the same for any `T: Serialize`, so typed values can be
//!   compared by their canonical bytes.
//! - [`Document`] is the parsed form, for inspecting values without recursion.
//! - [`Options`] selects the policies; the defaults are strict RFC 8785.
//!
//! Its only dependencies are `serde` and `zmij` (no `serde_json`): it is the library a
//! signing or JavaScript-interop user adds. The decode-equivalence validator (decode
//! engine, jsonb model, diffs, generators, DTO catalogue, property runs) is the crate
//! `equijson-check`; the live PostgreSQL runner is `equijson-pg`.
//!
//! ```
//! let canonical = equijson::canonicalize(br#"{"b": [1.0, 1e21], "a": "\u00e9"}"#)?;
//! assert_eq!(canonical, "{\"a\":\"é\",\"b\":[1,1e+21]}".as_bytes());
//! # Ok::<(), equijson::Error>(())
//! ```

#![forbid(unsafe_code)]

mod byte_runs;
mod canon;
mod document;
mod error;
mod number;
mod options;
mod parse;
pub mod pointer;
mod ser;
mod shapes;
mod stream;
mod string;
pub mod untrusted;

pub use canon::Canonicalizer;
pub use document::{Document, Kind, ValueRef};
pub use error::{Error, ErrorKind, Location, Result, line_column};
pub use number::format_f64;
pub use options::{DEFAULT_MAX_DEPTH, InexactNumbers, NegativeZero, Noncharacters, Options};
pub use ser::{to_canonical_string, to_canonical_vec, to_canonical_vec_with, to_comparison_vec};
pub use string::cmp_utf16;

/// Canonicalizes JSON text with the default (strict RFC 8785) [`Options`].
///
/// # Errors
/// Any syntax, encoding or policy violation, with its byte offset, line and column.
pub fn canonicalize(input: &[u8]) -> Result<Vec<u8>> {
    canonicalize_with(input, &Options::default())
}

/// Canonicalizes JSON text with the given policies.
///
/// # Errors
/// Any syntax, encoding or policy violation, with its byte offset, line and column.
pub fn canonicalize_with(input: &[u8], options: &Options) -> Result<Vec<u8>> {
    Canonicalizer::new(*options).canonicalize(input)
}

/// Checks that `input` is valid under `options` without producing output.
///
/// # Errors
/// As [`canonicalize_with`].
pub fn validate(input: &[u8], options: &Options) -> Result<()> {
    Canonicalizer::new(*options).validate(input)
}
