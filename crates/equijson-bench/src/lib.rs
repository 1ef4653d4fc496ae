//! Shared pieces of the equijson benchmarks: locating the corpus and running each
//! implementation under comparison (text in, canonical bytes out).
//!
//! The `canon` bench target builds its report from these; the `profile` example runs one
//! implementation in a loop for `perf` or `callgrind`.
//!
//! The `decode_allocs` bench target (the allocation gate) uses [`counting_alloc`] and
//! [`decode_paths`]: allocations, bytes and time per decode of a contact row, per path.

pub mod counting_alloc;
pub mod decode_paths;
pub mod stats;
pub mod synth;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use serde::de::IgnoredAny;
use serde_json::Value;

/// Environment variable naming the directory that holds the corpus files.
pub const DATA_DIR_ENV: &str = "EQUIJSON_BENCH_DATA";

/// The corpus files (from serde-rs/json-benchmark), in report order.
pub const FILES: [&str; 3] = ["canada.json", "citm_catalog.json", "twitter.json"];

/// One corpus file, read into memory.
#[derive(Debug, Clone)]
pub struct Input {
    /// File name, e.g. `canada.json`.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// The corpus directory: `$EQUIJSON_BENCH_DATA` if set, else `<workspace root>/../shared/bench-data`.
#[must_use]
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    // This crate lives at `<workspace root>/crates/equijson-bench`.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.ancestors().nth(2).unwrap_or(manifest);
    let dir = root.join("..").join("shared").join("bench-data");
    dir.canonicalize().unwrap_or(dir)
}

/// Reads the named files from [`data_dir`].
///
/// # Errors
/// A message naming the missing or unreadable file and [`DATA_DIR_ENV`].
pub fn load(names: &[&str]) -> Result<Vec<Input>, String> {
    let dir = data_dir();
    names
        .iter()
        .map(|&name| {
            let path = dir.join(name);
            match std::fs::read(&path) {
                Ok(bytes) => Ok(Input {
                    name: name.to_owned(),
                    bytes,
                }),
                Err(e) => Err(format!(
                    "cannot read benchmark input {}: {e}\n\
                     The corpus (canada.json, citm_catalog.json, twitter.json from \
                     serde-rs/json-benchmark) is looked up in {}.\n\
                     Set {DATA_DIR_ENV} to the directory that holds it.",
                    path.display(),
                    dir.display(),
                )),
            }
        })
        .collect()
}

/// An implementation of "JSON text in, canonical bytes out" (or a reference point).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implementation {
    /// `equijson::Canonicalizer::canonicalize_into`, reusing its buffers and the output `Vec`.
    Equijson,
    /// `serde_jcs::to_vec` of a parsed `serde_json::Value`.
    SerdeJcs,
    /// `serde_json_canonicalizer::to_vec` of a parsed `serde_json::Value`.
    JsonCanonicalizer,
    /// `serde_json::to_vec` of a parsed `serde_json::Value` (not canonical: a speed reference).
    SerdeJsonRoundTrip,
    /// `serde_json::from_slice::<IgnoredAny>`: parse only, a ceiling reference.
    SerdeJsonIgnoredAny,
}

impl Implementation {
    /// All implementations, in report order.
    pub const ALL: [Self; 5] = [
        Self::Equijson,
        Self::SerdeJcs,
        Self::JsonCanonicalizer,
        Self::SerdeJsonRoundTrip,
        Self::SerdeJsonIgnoredAny,
    ];

    /// Short name for reports and command lines.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Equijson => "equijson",
            Self::SerdeJcs => "serde_jcs",
            Self::JsonCanonicalizer => "serde_json_canonicalizer",
            Self::SerdeJsonRoundTrip => "serde_json Value RT",
            Self::SerdeJsonIgnoredAny => "serde_json IgnoredAny",
        }
    }

    /// Looks an implementation up by a name as accepted on command lines
    /// (`equijson`, `serde_jcs`, `serde_json_canonicalizer`, `roundtrip`, `ignoredany`).
    #[must_use]
    pub fn from_arg(arg: &str) -> Option<Self> {
        match arg.to_ascii_lowercase().as_str() {
            "equijson" => Some(Self::Equijson),
            "serde_jcs" | "jcs" => Some(Self::SerdeJcs),
            "serde_json_canonicalizer" | "canonicalizer" => Some(Self::JsonCanonicalizer),
            "roundtrip" | "serde_json" => Some(Self::SerdeJsonRoundTrip),
            "ignoredany" | "ignored_any" => Some(Self::SerdeJsonIgnoredAny),
            _ => None,
        }
    }

    /// The output bytes for `input` (empty for the parse-only reference), outside any timing.
    ///
    /// # Errors
    /// The implementation's error, as text.
    pub fn output(self, input: &[u8]) -> Result<Vec<u8>, String> {
        Ok(match self {
            Self::Equijson => {
                let mut runner = Runner::new(self);
                runner.run(input)?;
                runner.out
            }
            Self::SerdeJcs | Self::JsonCanonicalizer => competitor(self, &parse_value(input)?)?,
            Self::SerdeJsonRoundTrip => {
                serde_json::to_vec(&parse_value(input)?).map_err(|e| e.to_string())?
            }
            Self::SerdeJsonIgnoredAny => {
                Runner::new(self).run(input)?;
                Vec::new()
            }
        })
    }
}

/// The output of one of the other RFC 8785 crates (feature `competitors`: they enable
/// `serde_json`'s `float_roundtrip`, which must not leak into the workspace's other builds).
#[cfg(feature = "competitors")]
fn competitor(implementation: Implementation, value: &Value) -> Result<Vec<u8>, String> {
    match implementation {
        Implementation::SerdeJcs => serde_jcs::to_vec(value).map_err(|e| format!("serde_jcs: {e}")),
        _ => serde_json_canonicalizer::to_vec(value)
            .map_err(|e| format!("serde_json_canonicalizer: {e}")),
    }
}

/// Without the feature `competitors`, the other RFC 8785 crates are not built.
#[cfg(not(feature = "competitors"))]
fn competitor(implementation: Implementation, _value: &Value) -> Result<Vec<u8>, String> {
    Err(format!(
        "{} is not built: add `--features competitors` (cargo bench -p equijson-bench --features competitors)",
        implementation.name()
    ))
}

fn parse_value(input: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(input).map_err(|e| format!("serde_json: {e}"))
}

/// Runs one implementation repeatedly, keeping whatever state it is designed to reuse.
pub struct Runner {
    implementation: Implementation,
    canonicalizer: equijson::Canonicalizer,
    out: Vec<u8>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("implementation", &self.implementation)
            .finish_non_exhaustive()
    }
}

impl Runner {
    /// A runner for `implementation`.
    #[must_use]
    pub fn new(implementation: Implementation) -> Self {
        Self {
            implementation,
            canonicalizer: equijson::Canonicalizer::new(equijson::Options::default()),
            out: Vec::new(),
        }
    }

    /// Converts `input` once: parse, canonicalize (or re-serialize), drop. Returns the
    /// number of output bytes (0 for the parse-only reference).
    ///
    /// # Errors
    /// The implementation's error, as text.
    pub fn run(&mut self, input: &[u8]) -> Result<usize, String> {
        let len = match self.implementation {
            Implementation::Equijson => {
                self.out.clear();
                self.canonicalizer
                    .canonicalize_into(input, &mut self.out)
                    .map_err(|e| format!("equijson: {e}"))?;
                black_box(&self.out).len()
            }
            Implementation::SerdeJcs | Implementation::JsonCanonicalizer => {
                let out = competitor(self.implementation, &parse_value(input)?)?;
                black_box(out).len()
            }
            Implementation::SerdeJsonRoundTrip => {
                let out = serde_json::to_vec(&parse_value(input)?)
                    .map_err(|e| format!("serde_json: {e}"))?;
                black_box(out).len()
            }
            Implementation::SerdeJsonIgnoredAny => {
                let parsed: IgnoredAny =
                    serde_json::from_slice(input).map_err(|e| format!("serde_json: {e}"))?;
                black_box(parsed);
                0
            }
        };
        Ok(len)
    }
}

/// Where two byte strings first differ, or `None` if they are identical.
#[must_use]
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (common < a.len().max(b.len())).then_some(common)
}

/// Up to `radius` bytes either side of `at`, as a quoted, escaped string.
#[must_use]
pub fn context(bytes: &[u8], at: usize, radius: usize) -> String {
    let start = at.saturating_sub(radius).min(bytes.len());
    let end = at.saturating_add(radius).min(bytes.len());
    format!("{:?}", String::from_utf8_lossy(&bytes[start..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_finds_the_offset() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"ab", b"abc"), Some(2));
        assert_eq!(first_difference(b"", b"x"), Some(0));
    }

    #[test]
    fn context_is_clamped_and_escaped() {
        assert_eq!(context(b"0123456789", 5, 2), "\"3456\"");
        assert_eq!(context(b"ab\"c", 0, 10), "\"ab\\\"c\"");
        assert_eq!(context(b"abc", 3, 2), "\"bc\"");
    }

    #[test]
    fn implementations_agree_on_a_small_document() -> Result<(), String> {
        let input = br#"{"b": [1.0, 1e21, "\u00e9"], "a": {"y": null, "x": true}}"#;
        let expected = r#"{"a":{"x":true,"y":null},"b":[1,1e+21,"é"]}"#.as_bytes();
        assert_eq!(Implementation::Equijson.output(input)?, expected);
        for imp in [Implementation::SerdeJcs, Implementation::JsonCanonicalizer] {
            if cfg!(feature = "competitors") {
                assert_eq!(imp.output(input)?, expected, "{}", imp.name());
            } else {
                // Not built (they would turn on serde_json's float_roundtrip): said so.
                let e = imp.output(input).err().unwrap_or_default();
                assert!(e.contains("--features competitors"), "{}: {e}", imp.name());
            }
        }
        let len = Runner::new(Implementation::Equijson).run(input)?;
        assert_eq!(len, expected.len());
        Ok(())
    }
}
