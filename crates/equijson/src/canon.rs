//! `Canonicalizer`: JSON text to RFC 8785 bytes, reusing buffers across documents.

use crate::document::Builder;
use crate::error::Result;
use crate::options::Options;
use crate::parse;
use crate::stream::Stream;

/// Canonicalizes many documents, reusing its buffers between calls.
///
/// ```
/// let mut c = equijson::Canonicalizer::new(equijson::Options::default());
/// let mut out = Vec::new();
/// c.canonicalize_into(br#"{"b": 1, "a": [1.50, "\u0041"]}"#, &mut out)?;
/// assert_eq!(out, br#"{"a":[1.5,"A"],"b":1}"#);
/// # Ok::<(), equijson::Error>(())
/// ```
pub struct Canonicalizer {
    options: Options,
    /// The streaming writer: output as the input is parsed, objects reordered in place.
    stream: Stream,
    /// The tape, for documents whose nesting would make in-place reordering slow.
    builder: Builder,
    /// The parser's stack and scratch, kept between documents.
    buffers: parse::Buffers,
}

impl std::fmt::Debug for Canonicalizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Canonicalizer")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Canonicalizer {
    /// A canonicalizer with the given policies.
    #[must_use]
    pub fn new(options: Options) -> Self {
        Self {
            stream: Stream::new(options.number_policy()),
            builder: Builder::new(options.number_policy()),
            buffers: parse::Buffers::default(),
            options,
        }
    }

    /// The policies in use.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Appends the canonical form of `input` to `out`. On error `out` is left as it was.
    ///
    /// Memory beyond `input` and `out` is the member names and output positions of the
    /// objects open at any moment, plus a scratch copy of the smaller members of an object
    /// whose members must be reordered: no per-value tape. A fixed-size cache (32 entries
    /// of at most 256 names and 4 KiB of names each, kept across documents) remembers the
    /// member order of recently sorted objects of 12 or more members: an object with the
    /// same names in the same order (arrays of records) reuses it instead of sorting.
    ///
    /// # Errors
    /// Any syntax, encoding or policy violation, with its position.
    pub fn canonicalize_into(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let base = out.len();
        // Usually the output is about as long as the input; reserved but untouched pages
        // cost nothing, and one reservation saves the copies of repeated doubling.
        out.reserve(input.len().saturating_add(16));
        self.stream.out = std::mem::take(out);
        self.stream
            .reset(self.options.number_policy(), true, input.len());
        let result =
            parse::parse_reusing(input, &self.options, &mut self.stream, &mut self.buffers);
        *out = std::mem::take(&mut self.stream.out);
        self.stream.shrink_scratch(1 << 24);
        match result {
            Ok(()) => Ok(()),
            Err(_) if self.stream.over_budget => {
                // Pathological nesting of unordered objects: order each object once on the tape.
                out.truncate(base);
                self.builder.reset(self.options.number_policy());
                parse::parse_reusing(input, &self.options, &mut self.builder, &mut self.buffers)?;
                self.builder.document().write_canonical(out);
                Ok(())
            }
            Err(e) => {
                out.truncate(base);
                Err(e)
            }
        }
    }

    /// The canonical form of `input` as a new vector.
    ///
    /// # Errors
    /// As [`Canonicalizer::canonicalize_into`].
    pub fn canonicalize(&mut self, input: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.canonicalize_into(input, &mut out)?;
        Ok(out)
    }

    /// Checks `input` without producing output.
    ///
    /// A validating pass: beyond the input it keeps only the nesting stack and the member
    /// names of the open objects (to find duplicates), O(depth + widest object), and
    /// the fixed-size cache of recent member orders (see
    /// [`Canonicalizer::canonicalize_into`]).
    ///
    /// # Errors
    /// As [`Canonicalizer::canonicalize_into`].
    pub fn validate(&mut self, input: &[u8]) -> Result<()> {
        self.stream
            .reset(self.options.number_policy(), false, input.len());
        let result =
            parse::parse_reusing(input, &self.options, &mut self.stream, &mut self.buffers);
        self.stream.shrink_scratch(1 << 24);
        result
    }
}
