//! Parsing and canonicalization policies, each with a documented default.

/// What to do with `-0` (and negative numbers that round to zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NegativeZero {
    /// Write it as `0`, as RFC 8785 §3.2.2.3 (ECMAScript) does. The default.
    #[default]
    Normalize,
    /// Reject it with [`ErrorKind::NegativeZero`](crate::ErrorKind::NegativeZero)
    /// (RFC 8785 errata 7920: signers may refuse the ambiguity).
    Reject,
}

/// What to do with numbers whose canonical form denotes a different decimal value than
/// the one written (canonicalization rounds every number to a double).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InexactNumbers {
    /// Round to the nearest double and write that, as JCS requires
    /// (`9007199254740993` becomes `9007199254740992`). The default.
    #[default]
    Round,
    /// Reject a number unless its canonical form denotes exactly the decimal value
    /// that was written: `0.1`, `1e300`, `2.50` and `1e23` pass (written back as `0.1`,
    /// `1e+300`, `2.5`, `1e+23`); `9007199254740993`, `18446744073709551616`,
    /// `3.141592653589793238`, `1e-400` (underflow) and the exact decimal expansion of a
    /// double such as `0.1000000000000000055511151231257827021181583404541015625`
    /// (canonical `0.1`) fail with
    /// [`ErrorKind::InexactNumber`](crate::ErrorKind::InexactNumber). The judgement is
    /// about decimals, not doubles: `1e23` is no double, yet `1e+23` says what was written.
    Reject,
}

/// What to do with Unicode noncharacters (U+FDD0..U+FDEF and U+xFFFE/U+xFFFF).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Noncharacters {
    /// Accept them, as ECMAScript's `JSON.parse`, the JCS reference code and
    /// PostgreSQL's jsonb do. The default.
    #[default]
    Allow,
    /// Reject them, as RFC 7493 (I-JSON) §2.1 asks.
    Reject,
}

/// The default nesting limit: arrays and objects more than this many levels deep are rejected.
pub const DEFAULT_MAX_DEPTH: usize = 10_000;

/// Policies for parsing and canonicalizing; `Options::default()` is strict RFC 8785.
///
/// Duplicate member names, unpaired surrogates, invalid UTF-8 and numbers that overflow
/// to Infinity are always errors: RFC 8785 cannot represent them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Deepest nesting of arrays/objects accepted ([`DEFAULT_MAX_DEPTH`] by default).
    /// The parser keeps its own stack on the heap, so any limit is safe to raise.
    pub max_depth: usize,
    /// See [`NegativeZero`].
    pub negative_zero: NegativeZero,
    /// See [`InexactNumbers`].
    pub inexact_numbers: InexactNumbers,
    /// See [`Noncharacters`].
    pub noncharacters: Noncharacters,
    /// Integers keep all their digits instead of being rounded to a double: the
    /// decode engine's comparison form (not RFC 8785), see [`crate::decode`].
    pub(crate) exact_integers: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_depth: DEFAULT_MAX_DEPTH,
            negative_zero: NegativeZero::default(),
            inexact_numbers: InexactNumbers::default(),
            noncharacters: Noncharacters::default(),
            exact_integers: false,
        }
    }
}

impl Options {
    /// The defaults (same as [`Options::default`]).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`Options::max_depth`].
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets [`Options::negative_zero`].
    #[must_use]
    pub fn negative_zero(mut self, policy: NegativeZero) -> Self {
        self.negative_zero = policy;
        self
    }

    /// Sets [`Options::inexact_numbers`].
    #[must_use]
    pub fn inexact_numbers(mut self, policy: InexactNumbers) -> Self {
        self.inexact_numbers = policy;
        self
    }

    /// Sets [`Options::noncharacters`].
    #[must_use]
    pub fn noncharacters(mut self, policy: Noncharacters) -> Self {
        self.noncharacters = policy;
        self
    }

    pub(crate) fn number_policy(&self) -> crate::number::NumberPolicy {
        crate::number::NumberPolicy {
            negative_zero: self.negative_zero,
            inexact: self.inexact_numbers,
            exact_integers: self.exact_integers,
        }
    }

    /// The comparison form of decode-equivalence checks (`equijson-check`): RFC 8785,
    /// except that integers (integer literals in text, integer-typed values) keep all
    /// their digits, so `9007199254740993` and `9007199254740992` differ.
    #[must_use]
    pub fn comparison() -> Self {
        Self {
            exact_integers: true,
            ..Self::default()
        }
    }
}
