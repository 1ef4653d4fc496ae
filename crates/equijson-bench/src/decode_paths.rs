//! The contact-row corpus and the decode paths of the allocation gate: each path is the
//! decode step a service performs given its input representation, with that representation
//! prepared in advance.
//!
//! The paths mirror [`equijson_check::decode::DecodePath`] (plus a no-clone DOM variant and two
//! reference lines), decoding into [`equijson_check::dto::Contact`].

use std::hint::black_box;

use equijson_check::dto::Contact;
use equijson_check::generate::{Gen, Style};
use equijson_check::jsonb::JsonbOptions;
use serde::Deserialize as _;
use serde_json::Value;

/// The seed of the generated corpus (any fixed value; printed in reports).
pub const SEED: u64 = 0x00C0_47AC_7000_2026;
/// The generator's size parameter for each row.
pub const GEN_SIZE: usize = 6;
/// Generated rows in the default corpus (the catalogue's sample row comes on top).
pub const DEFAULT_ROWS: usize = 1_000;

/// A decode path, or a reference line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// `from_slice::<Value>` then `from_value::<Contact>(v.clone())`, keeping the DOM.
    Dom,
    /// `from_slice::<Value>` then `from_value::<Contact>(v)` (for information).
    DomNoClone,
    /// `from_slice::<Contact>` of the text.
    Direct,
    /// `from_slice::<Value>` then `Contact::deserialize(&v)`.
    Borrow,
    /// `jsonb::wire_text` of the binary jsonb bytes, then `from_slice::<Contact>`.
    Jsonb,
    /// `from_slice::<Contact>` of the RFC 8785 canonical text.
    Canonical,
    /// Reference: `equijson::to_canonical_vec(&contact)` of a decoded value (the oracle).
    Oracle,
    /// Reference: `equijson::canonicalize(text)`.
    Canonicalize,
}

impl Path {
    /// Every path, in report order (decode paths first, then the references).
    pub const ALL: [Self; 8] = [
        Self::Dom,
        Self::DomNoClone,
        Self::Direct,
        Self::Borrow,
        Self::Jsonb,
        Self::Canonical,
        Self::Oracle,
        Self::Canonicalize,
    ];

    /// Short name for reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Dom => "dom",
            Self::DomNoClone => "dom (no clone)",
            Self::Direct => "direct",
            Self::Borrow => "borrow",
            Self::Jsonb => "jsonb",
            Self::Canonical => "canonical",
            Self::Oracle => "ref: to_canonical_vec",
            Self::Canonicalize => "ref: canonicalize",
        }
    }

    /// What one operation does, given which prepared input.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Dom => "text -> from_slice::<Value> -> from_value::<Contact>(v.clone())",
            Self::DomNoClone => "text -> from_slice::<Value> -> from_value::<Contact>(v)",
            Self::Direct => "text -> from_slice::<Contact>",
            Self::Borrow => "text -> from_slice::<Value> -> Contact::deserialize(&v)",
            Self::Jsonb => "jsonb wire bytes -> wire_text -> from_slice::<Contact>",
            Self::Canonical => "RFC 8785 text -> from_slice::<Contact>",
            Self::Oracle => "decoded Contact -> to_canonical_vec",
            Self::Canonicalize => "text -> equijson::canonicalize",
        }
    }

    /// Whether this is a reference line rather than a decode path.
    #[must_use]
    pub fn is_reference(self) -> bool {
        matches!(self, Self::Oracle | Self::Canonicalize)
    }

    /// Decodes `row` from this path's input representation (references: computes their
    /// output), returning the decoded value where there is one, for checking.
    ///
    /// # Errors
    /// The path's error, as text.
    pub fn decode(self, row: &Row) -> Result<Option<Contact>, String> {
        let value = || serde_json::from_slice::<Value>(&row.text).map_err(|e| e.to_string());
        let de = |r: serde_json::Result<Contact>| r.map(Some).map_err(|e| e.to_string());
        match self {
            Self::Dom => de(serde_json::from_value(value()?.clone())),
            Self::DomNoClone => de(serde_json::from_value(value()?)),
            Self::Direct => de(serde_json::from_slice(&row.text)),
            Self::Borrow => de(Contact::deserialize(&value()?)),
            Self::Jsonb => de(serde_json::from_slice(
                equijson_check::jsonb::wire_text(&row.wire)
                    .map_err(|e| format!("wire_text: {e}"))?,
            )),
            Self::Canonical => de(serde_json::from_slice(&row.canonical)),
            Self::Oracle => equijson::to_canonical_vec(&row.decoded)
                .map(|_| None)
                .map_err(|e| e.to_string()),
            Self::Canonicalize => equijson::canonicalize(&row.text)
                .map(|_| None)
                .map_err(|e| e.to_string()),
        }
    }

    /// Performs this path's operation once on every row, in order; the results go through
    /// [`black_box`] and are dropped before the next row. This is the measured loop.
    ///
    /// # Errors
    /// The first failure, as text (the corpus is checked beforehand, so none is expected).
    #[inline(never)]
    pub fn run(self, rows: &[Row]) -> Result<(), String> {
        match self {
            Self::Dom => each(rows, |row| {
                let v: Value = serde_json::from_slice(&row.text)?;
                let c: Contact = serde_json::from_value(v.clone())?;
                black_box(&v);
                black_box(c);
                Ok(())
            }),
            Self::DomNoClone => each(rows, |row| {
                let v: Value = serde_json::from_slice(&row.text)?;
                black_box(serde_json::from_value::<Contact>(v)?);
                Ok(())
            }),
            Self::Direct => each(rows, |row| {
                black_box(serde_json::from_slice::<Contact>(&row.text)?);
                Ok(())
            }),
            Self::Borrow => each(rows, |row| {
                let v: Value = serde_json::from_slice(&row.text)?;
                let c = Contact::deserialize(&v)?;
                black_box(&v);
                black_box(c);
                Ok(())
            }),
            Self::Jsonb => each(rows, |row| {
                let text = equijson_check::jsonb::wire_text(&row.wire)?;
                black_box(serde_json::from_slice::<Contact>(text)?);
                Ok(())
            }),
            Self::Canonical => each(rows, |row| {
                black_box(serde_json::from_slice::<Contact>(&row.canonical)?);
                Ok(())
            }),
            Self::Oracle => each(rows, |row| {
                black_box(equijson::to_canonical_vec(&row.decoded)?);
                Ok(())
            }),
            Self::Canonicalize => each(rows, |row| {
                black_box(equijson::canonicalize(&row.text)?);
                Ok(())
            }),
        }
    }
}

/// What one operation returns; the error is boxed, so success allocates nothing.
type OpResult = Result<(), Box<dyn std::error::Error>>;

/// The measured loop, monomorphized per path so that no dispatch happens per row.
#[inline]
fn each(rows: &[Row], mut op: impl FnMut(&Row) -> OpResult) -> Result<(), String> {
    for row in rows {
        op(black_box(row)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One contact document in every input representation the paths start from.
#[derive(Debug, Clone)]
pub struct Row {
    /// The JSON text (compact rendering of the generated document).
    pub text: Vec<u8>,
    /// PostgreSQL binary jsonb bytes: version byte `0x01` + jsonb text.
    pub wire: Vec<u8>,
    /// The RFC 8785 canonical form of `text`.
    pub canonical: Vec<u8>,
    /// `text` decoded into a [`Contact`] (by the direct path), the oracle's input.
    pub decoded: Contact,
}

/// Where the jsonb wire bytes came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonbSource {
    /// `equijson_check::jsonb::to_wire` for every row.
    ToWire,
    /// `0x01` + the row text, because `to_wire` failed (on `failed` rows; first error).
    StandIn {
        /// Rows `to_wire` failed on.
        failed: usize,
        /// The first error.
        first_error: String,
    },
}

/// A row that was generated but left out of the measurement, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excluded {
    /// Index in generation order (0 is the catalogue sample).
    pub index: usize,
    /// What failed.
    pub reason: String,
}

/// The prepared corpus.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// Measured rows; `rows[0]` is the catalogue's sample row if it is usable.
    pub rows: Vec<Row>,
    /// Whether `rows[0]` is the catalogue sample.
    pub has_sample: bool,
    /// Rows generated (sample included), before exclusions.
    pub generated: usize,
    /// Mean text size over all generated rows, in bytes.
    pub mean_generated_bytes: f64,
    /// Rows left out because some path cannot decode them.
    pub excluded: Vec<Excluded>,
    /// Where the jsonb wire bytes came from.
    pub jsonb: JsonbSource,
    /// Rows on which some decode path gave a value different from the direct path's
    /// (path name, row index); measured anyway.
    pub disagreements: Vec<(&'static str, usize)>,
}

#[allow(clippy::cast_precision_loss, reason = "byte counts far below 2^52")]
fn mean(total: usize, n: usize) -> f64 {
    if n == 0 { 0.0 } else { total as f64 / n as f64 }
}

impl Corpus {
    /// The catalogue's sample contact, then `count` generated ones (`Gen::for_case(SEED, i,
    /// GEN_SIZE)`, rendered compact); every representation precomputed and every path
    /// checked on every row. Rows some path cannot handle are excluded (and listed).
    ///
    /// # Errors
    /// The `contact` DTO is not in the catalogue, or no row is usable.
    pub fn generate(count: usize) -> Result<Self, String> {
        let spec = equijson_check::dto::find("contact")
            .ok_or("the DTO catalogue has no `contact` entry (equijson_check::dto::find)")?;
        let texts: Vec<Vec<u8>> = std::iter::once(spec.sample.as_bytes().to_vec())
            .chain((0..count as u64).map(|i| {
                let mut g = Gen::for_case(SEED, i, GEN_SIZE);
                (spec.generate)(&mut g).render(Style::Compact).into_bytes()
            }))
            .collect();
        let generated = texts.len();
        let mean_generated_bytes = mean(texts.iter().map(Vec::len).sum(), generated);

        // jsonb wire bytes: the real model if it handles every row, else a stand-in.
        let options = JsonbOptions::default();
        let wires: Vec<_> = texts
            .iter()
            .map(|t| equijson_check::jsonb::to_wire(t, &options))
            .collect();
        let failed = wires.iter().filter(|w| w.is_err()).count();
        let jsonb = match wires.iter().find_map(|w| w.as_ref().err()) {
            None => JsonbSource::ToWire,
            Some(e) => JsonbSource::StandIn {
                failed,
                first_error: e.to_string(),
            },
        };
        let wires: Vec<Vec<u8>> = match jsonb {
            JsonbSource::ToWire => wires.into_iter().flatten().collect(),
            JsonbSource::StandIn { .. } => texts.iter().map(|t| [&[1u8][..], t].concat()).collect(),
        };

        let mut corpus = Self {
            rows: Vec::with_capacity(generated),
            has_sample: false,
            generated,
            mean_generated_bytes,
            excluded: Vec::new(),
            jsonb,
            disagreements: Vec::new(),
        };
        for (index, (text, wire)) in texts.into_iter().zip(wires).enumerate() {
            match Self::prepare(index, text, wire) {
                Ok((row, differing)) => {
                    if index == 0 {
                        corpus.has_sample = true;
                    }
                    corpus
                        .disagreements
                        .extend(differing.into_iter().map(|p| (p, index)));
                    corpus.rows.push(row);
                }
                Err(reason) => corpus.excluded.push(Excluded { index, reason }),
            }
        }
        if corpus.rows.is_empty() {
            return Err(format!(
                "no usable contact row out of {generated}; first problem: {}",
                corpus
                    .excluded
                    .first()
                    .map_or("none", |e| e.reason.as_str())
            ));
        }
        Ok(corpus)
    }

    /// Builds one row and runs every path on it once: the row, and the paths whose value
    /// differs from the direct path's.
    fn prepare(
        index: usize,
        text: Vec<u8>,
        wire: Vec<u8>,
    ) -> Result<(Row, Vec<&'static str>), String> {
        let decoded: Contact = serde_json::from_slice(&text)
            .map_err(|e| format!("row {index}: direct decode: {e}"))?;
        let canonical =
            equijson::canonicalize(&text).map_err(|e| format!("row {index}: canonicalize: {e}"))?;
        let row = Row {
            text,
            wire,
            canonical,
            decoded,
        };
        let mut differing = Vec::new();
        for path in Path::ALL {
            match path.decode(&row) {
                Ok(Some(c)) if c != row.decoded => differing.push(path.name()),
                Ok(_) => {}
                Err(e) => return Err(format!("row {index}: {}: {e}", path.name())),
            }
        }
        Ok((row, differing))
    }

    /// Mean size of the measured rows' text, canonical form and wire bytes.
    #[must_use]
    pub fn mean_bytes(&self) -> (f64, f64, f64) {
        let n = self.rows.len();
        let sum = |f: fn(&Row) -> usize| mean(self.rows.iter().map(f).sum(), n);
        (
            sum(|r| r.text.len()),
            sum(|r| r.canonical.len()),
            sum(|r| r.wire.len()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_is_deterministic_and_every_path_runs() -> Result<(), String> {
        let a = Corpus::generate(20)?;
        let b = Corpus::generate(20)?;
        assert_eq!(a.generated, 21);
        assert!(a.has_sample);
        assert_eq!(a.rows.len() + a.excluded.len(), 21);
        for (x, y) in a.rows.iter().zip(&b.rows) {
            assert_eq!(x.text, y.text);
        }
        for path in Path::ALL {
            path.run(&a.rows)?;
        }
        Ok(())
    }
}
