//! equijson-check: does every way a Rust service decodes JSON into a serde DTO give the
//! same value? The validator built on the `equijson` RFC 8785 library.
//!
//! - [`decode`]: one text through every decode path (`serde_json`'s DOM, direct and
//!   borrowed paths, PostgreSQL's binary jsonb, the RFC 8785 form), compared by canonical
//!   JSON, every disagreement classified (including `float-misread` and
//!   `duplicate-name`), with the `serde_json` number mode of the build.
//! - [`jsonb`]: a model of PostgreSQL's jsonb normalization.
//! - [`diff`]: JSON-pointer diffs.
//! - [`generate`], [`dto`], [`props`]: portable random documents, the DTO catalogue and
//!   seeded property runs with SHA-256 digests.
//!
//! The checks run the `serde_json` of the program they are built into (Cargo unifies its
//! features): this crate enables no `serde_json` feature.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Memo {
//!     amount: u64,
//! }
//! let report = equijson_check::decode::check::<Memo>(br#"{"amount":1,"amount":2}"#, &[]);
//! assert!(report.is_divergent()); // duplicate-name, and the paths disagree on it
//! ```

#![forbid(unsafe_code)]

pub mod decode;
pub mod diff;
pub mod dto;
pub mod generate;
pub mod jsonb;
pub mod props;
