//! `Canonicalizer`: JSON text to RFC 8785 bytes, reusing buffers across documents.

use crate::document::Builder;
use crate::error::Result;
use crate::options::Options;
use crate::parse;

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
    builder: Builder,
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
            builder: Builder::new(options.number_policy()),
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
    /// # Errors
    /// Any syntax, encoding or policy violation, with its position.
    pub fn canonicalize_into(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        self.validate(input)?;
        self.builder.document().write_canonical(out);
        Ok(())
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
    /// # Errors
    /// As [`Canonicalizer::canonicalize_into`].
    pub fn validate(&mut self, input: &[u8]) -> Result<()> {
        self.builder.reset(self.options.number_policy());
        parse::parse(input, &self.options, &mut self.builder)
    }
}
