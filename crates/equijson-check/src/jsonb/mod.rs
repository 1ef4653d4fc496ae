//! A model of PostgreSQL 15's `jsonb` input and output: what `SELECT $1::jsonb::text` returns.
//!
//! [`normalize`] reproduces `jsonb_in` followed by `jsonb_out` byte for byte, and fails
//! where PostgreSQL fails, with the same SQLSTATE, message, DETAIL and (for JSON syntax
//! errors) the same `JSON data, line N: ...` CONTEXT line. It was checked against a real
//! PostgreSQL 15.18 server (see `tests/data/jsonb/`). What it models:
//!
//! - **Input.** The text must be UTF-8 without NUL bytes (22021, checked before parsing,
//!   as the server does when the value arrives). Whitespace is space, tab, LF and CR only;
//!   a byte order mark is an invalid token. Strings may not hold raw control characters;
//!   escapes are decoded; `\u0000` is refused (22P05); unpaired surrogates are refused
//!   (22P02); noncharacters are accepted. Any value may stand at the top level.
//! - **Objects.** Members are ordered by the byte length of their (decoded) names, then
//!   bytewise; of duplicate names the last one wins, its whole value replacing the earlier.
//! - **Numbers** become `numeric`: exact, in plain notation, keeping the written scale
//!   (`1.0`, `1e2` → `100`, `100e-2` → `1.00`, `-0` → `0`); 22003 beyond `numeric`'s range
//!   (a first digit worth 10^131072 or more, more than 16,383 fraction digits, or an
//!   exponent of magnitude 1,073,741,823 or more).
//! - **Output.** `", "` between elements and members, `": "` after names, `[]` and `{}`
//!   when empty; strings escaped as `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other control
//!   characters as lowercase `\u00xx`, everything else raw.
//! - **Nesting** is limited by the server's stack (`max_stack_depth`, 54001), see
//!   [`JsonbOptions::max_depth`]. The model itself never recurses.
//!
//! ```
//! use equijson_check::jsonb::{normalize, JsonbOptions};
//!
//! let text = normalize(br#"{"b": 1e2, "aa": [1.50], "a": "\u00e9", "b": -0.0}"#, &JsonbOptions::default())?;
//! assert_eq!(text, r#"{"a": "é", "b": 0.0, "aa": [1.50]}"#);
//! # Ok::<(), equijson_check::jsonb::JsonbError>(())
//! ```

use std::fmt;

mod lex;
mod normal;
mod numeric;
mod parse;
mod tape;

pub use normal::is_normalized;

/// jsonb's order of member names (their bytes, escapes decoded): shorter names first, then
/// bytewise. The model sorts by it, `is_normalized` checks it, and the scan's one-pass check
/// writes and walks members in it.
pub(crate) fn name_order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

use lex::{JsonError, Lexer};

/// Deepest nesting of arrays that PostgreSQL 15 accepts for a value bound as a query
/// parameter (text or binary) with the default `max_stack_depth` of 2MB.
///
/// Measured on PostgreSQL 15.18 (Debian build, x86-64): 14,554 arrays pass, 14,555 fail.
pub const DEFAULT_MAX_DEPTH: usize = 14_554;

/// Bytes of stack one array level costs the server while parsing (`parse_array` +
/// `parse_array_element`, PostgreSQL 15.18, x86-64).
const ARRAY_LEVEL_BYTES: u64 = 144;

/// The deepest array nesting a bound parameter may have on a server whose
/// `max_stack_depth` is `kb` kilobytes: `kb × 1024 / 144 − 9`, [`DEFAULT_MAX_DEPTH`] at
/// the default 2048.
///
/// Measured on PostgreSQL 15.18 (x86-64) with `(repeat('[', n) || repeat(']', n))::jsonb`
/// evaluated by the executor, which sits 13 levels deeper than a bound parameter: the
/// deepest accepted was 14,541 at 2048kB, 29,105 at 4096kB and 50,950 at 7168kB, each
/// `kb × 1024 / 144 − 22`.
#[must_use]
pub fn max_depth_for_stack(kb: u64) -> usize {
    let levels = (kb.saturating_mul(1024) / ARRAY_LEVEL_BYTES).saturating_sub(9);
    usize::try_from(levels).unwrap_or(usize::MAX >> 1)
}

/// Settings of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonbOptions {
    /// The most arrays that may be nested (`[[...]]`), [`DEFAULT_MAX_DEPTH`] by default.
    ///
    /// PostgreSQL has no nesting limit of its own: its recursive parser and the conversion
    /// to the binary format check the process stack, so the limit depends on the build,
    /// on `max_stack_depth`, and on how deep the call that reads the value already is.
    /// Measured with the default 2MB, the deepest accepted array nesting was 14,554 for a
    /// bound parameter (`$1::jsonb`, text or binary), 14,550 for `$1::text::jsonb`
    /// evaluated by the executor, 14,544 for a literal in the query text and 14,542 for
    /// `$1::text::jsonb` folded by the planner (custom plans).
    ///
    /// The model charges what the server's stack charges: while parsing, an object level
    /// costs 10/9 of an array level (so 13,099 objects nest at the default), and after
    /// parsing every value must sit at most `max_depth - 1` levels deep. Any value is safe
    /// here: the model keeps its own stack on the heap.
    pub max_depth: usize,
    /// The PostgreSQL major version whose behaviour the model follows,
    /// [`RECORDED_PG_MAJOR`] (15) by default.
    ///
    /// Servers 13 to 18 were held to the model's tables; they answer alike except for a
    /// zero written with the exponent `INT_MAX / 2` (`0e1073741823`, `-0.0E+1073741823`):
    /// 13, 14 and 15 reject it (22003), 16 and later store `0`. Any other exponent of that
    /// size or more is rejected by every version.
    pub pg_major: u32,
}

/// The PostgreSQL major version the model's tables were recorded on (15.18).
pub const RECORDED_PG_MAJOR: u32 = 15;

impl Default for JsonbOptions {
    fn default() -> Self {
        Self {
            max_depth: DEFAULT_MAX_DEPTH,
            pg_major: RECORDED_PG_MAJOR,
        }
    }
}

impl JsonbOptions {
    /// The defaults (same as [`JsonbOptions::default`]).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`JsonbOptions::max_depth`].
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets [`JsonbOptions::max_depth`] to what a server with `max_stack_depth` of `kb`
    /// kilobytes accepts ([`max_depth_for_stack`]).
    #[must_use]
    pub fn max_stack_depth_kb(self, kb: u64) -> Self {
        self.max_depth(max_depth_for_stack(kb))
    }

    /// No nesting limit: for a text the server already holds as jsonb (a stored value, or
    /// the result of a cast it made), whose depth it has therefore accepted, whatever its
    /// `max_stack_depth` was then.
    #[must_use]
    pub fn server_accepted(self) -> Self {
        self.max_depth(usize::MAX >> 1)
    }

    /// Sets [`JsonbOptions::pg_major`] (e.g. from `server_version_num / 10000`).
    #[must_use]
    pub fn pg_major(mut self, major: u32) -> Self {
        self.pg_major = major;
        self
    }

    /// The model follows a server of version 16 or later, which accepts a zero with the
    /// exponent `INT_MAX / 2`.
    pub(crate) fn exponent_limit_inclusive(&self) -> bool {
        self.pg_major >= 16
    }
}

/// The SQLSTATE of a [`JsonbError`], named as in PostgreSQL's `errcodes.txt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SqlState {
    /// `22P02` `invalid_text_representation`: JSON syntax, escapes, surrogates.
    InvalidTextRepresentation,
    /// `22P05` `untranslatable_character`: `\u0000`.
    UntranslatableCharacter,
    /// `22003` `numeric_value_out_of_range`: a number beyond `numeric`.
    NumericValueOutOfRange,
    /// `22021` `character_not_in_repertoire`: bytes that are not UTF-8, or a NUL byte.
    CharacterNotInRepertoire,
    /// `54001` `statement_too_complex`: `stack depth limit exceeded`.
    StatementTooComplex,
    /// `54000` `program_limit_exceeded`: a string, array or object larger than jsonb can
    /// store (268,435,455 bytes), or an input of 1 GB or more.
    ProgramLimitExceeded,
    /// `08P01` `protocol_violation`: an empty binary value.
    ProtocolViolation,
    /// `XX000` `internal_error`: a binary value with an unknown version byte; an array of
    /// more than 2^24 elements or an object of more than 2^23 members (duplicates included),
    /// whose in-memory vector cannot grow (`invalid memory alloc request size`).
    InternalError,
}

impl SqlState {
    /// The five-character code, e.g. `"22P02"`.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Self::InvalidTextRepresentation => "22P02",
            Self::UntranslatableCharacter => "22P05",
            Self::NumericValueOutOfRange => "22003",
            Self::CharacterNotInRepertoire => "22021",
            Self::StatementTooComplex => "54001",
            Self::ProgramLimitExceeded => "54000",
            Self::ProtocolViolation => "08P01",
            Self::InternalError => "XX000",
        }
    }
}

impl fmt::Display for SqlState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Why PostgreSQL would refuse the input, in PostgreSQL's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonbError {
    state: SqlState,
    message: String,
    detail: Option<String>,
    hint: Option<&'static str>,
    context: Option<String>,
    offset: Option<usize>,
}

impl JsonbError {
    fn new(state: SqlState, message: impl Into<String>, offset: Option<usize>) -> Self {
        Self {
            state,
            message: message.into(),
            detail: None,
            hint: None,
            context: None,
            offset,
        }
    }

    /// A JSON syntax error, reported as `json_ereport_error` does.
    #[cold]
    fn json(error: JsonError, lex: &Lexer<'_>, offset: usize) -> Self {
        let token = || String::from_utf8_lossy(lex.token()).into_owned();
        let detail = match error {
            JsonError::EscapingInvalid => format!("Escape sequence \"\\{}\" is invalid.", token()),
            JsonError::EscapingRequired => format!(
                "Character with value 0x{:02x} must be escaped.",
                lex.input.get(lex.token_terminator).copied().unwrap_or(0)
            ),
            JsonError::ExpectedEnd => format!("Expected end of input, but found \"{}\".", token()),
            JsonError::ExpectedArrayNext => {
                format!("Expected \",\" or \"]\", but found \"{}\".", token())
            }
            JsonError::ExpectedColon => format!("Expected \":\", but found \"{}\".", token()),
            JsonError::ExpectedJson => format!("Expected JSON value, but found \"{}\".", token()),
            JsonError::ExpectedMore => "The input string ended unexpectedly.".to_owned(),
            JsonError::ExpectedObjectFirst => {
                format!("Expected string or \"}}\", but found \"{}\".", token())
            }
            JsonError::ExpectedObjectNext => {
                format!("Expected \",\" or \"}}\", but found \"{}\".", token())
            }
            JsonError::ExpectedString => format!("Expected string, but found \"{}\".", token()),
            JsonError::InvalidToken => format!("Token \"{}\" is invalid.", token()),
            JsonError::UnicodeCodePointZero => "\\u0000 cannot be converted to text.".to_owned(),
            JsonError::UnicodeEscapeFormat => {
                "\"\\u\" must be followed by four hexadecimal digits.".to_owned()
            }
            JsonError::UnicodeHighSurrogate => {
                "Unicode high surrogate must not follow a high surrogate.".to_owned()
            }
            JsonError::UnicodeLowSurrogate => {
                "Unicode low surrogate must follow a high surrogate.".to_owned()
            }
        };
        let (state, message) = if error == JsonError::UnicodeCodePointZero {
            (
                SqlState::UntranslatableCharacter,
                "unsupported Unicode escape sequence",
            )
        } else {
            (
                SqlState::InvalidTextRepresentation,
                "invalid input syntax for type json",
            )
        };
        let mut e = Self::new(state, message, Some(offset));
        e.detail = Some(detail);
        e.context = Some(lex.context());
        e
    }

    #[cold]
    fn stack_depth(offset: usize) -> Self {
        let mut e = Self::new(
            SqlState::StatementTooComplex,
            "stack depth limit exceeded",
            Some(offset),
        );
        e.hint = Some(
            "Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), \
             after ensuring the platform's stack depth limit is adequate.",
        );
        e
    }

    #[cold]
    fn numeric_overflow(offset: usize) -> Self {
        Self::new(
            SqlState::NumericValueOutOfRange,
            "value overflows numeric format",
            Some(offset),
        )
    }

    #[cold]
    fn string_too_long(offset: usize) -> Self {
        let mut e = Self::new(
            SqlState::ProgramLimitExceeded,
            "string too long to represent as jsonb string",
            Some(offset),
        );
        e.detail = Some(
            "Due to an implementation restriction, jsonb strings cannot exceed 268435455 bytes."
                .to_owned(),
        );
        e
    }

    /// A limit of the in-memory or binary representation.
    #[cold]
    fn limit(limit: tape::Limit, offset: Option<usize>) -> Self {
        use tape::Limit;
        let size_error = |what: &str| {
            Self::new(
                SqlState::ProgramLimitExceeded,
                format!(
                    "total size of jsonb {what} elements exceeds the maximum of 268435455 bytes"
                ),
                offset,
            )
        };
        match limit {
            Limit::TooDeep(at) => Self::stack_depth(at as usize),
            Limit::ArrayElements => Self::new(
                SqlState::InternalError,
                "invalid memory alloc request size 1073741824",
                offset,
            ),
            Limit::ObjectPairs => Self::new(
                SqlState::InternalError,
                "invalid memory alloc request size 1207959552",
                offset,
            ),
            Limit::ArraySize => size_error("array"),
            Limit::ObjectSize => size_error("object"),
        }
    }

    /// `report_invalid_encoding`: the bytes of the bad sequence, as far as its lead byte says.
    #[cold]
    fn invalid_encoding(input: &[u8], offset: usize) -> Self {
        let rest = input.get(offset..).unwrap_or_default();
        let n = rest
            .first()
            .map_or(0, |&b| lex::utf8_len(b))
            .min(rest.len());
        let bytes: Vec<String> = rest[..n].iter().map(|b| format!("0x{b:02x}")).collect();
        Self::new(
            SqlState::CharacterNotInRepertoire,
            format!(
                "invalid byte sequence for encoding \"UTF8\": {}",
                bytes.join(" ")
            ),
            Some(offset),
        )
    }

    /// The SQLSTATE.
    #[must_use]
    pub fn sqlstate(&self) -> SqlState {
        self.state
    }

    /// The SQLSTATE code, e.g. `"22P02"`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.state.code()
    }

    /// PostgreSQL's primary message, e.g. `invalid input syntax for type json`.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// PostgreSQL's DETAIL, e.g. `Token "NaN" is invalid.`, where it gives one.
    #[must_use]
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// PostgreSQL's HINT, where it gives one (stack depth).
    #[must_use]
    pub fn hint(&self) -> Option<&str> {
        self.hint
    }

    /// The CONTEXT line PostgreSQL adds to JSON syntax errors,
    /// e.g. `JSON data, line 1: [1,]`. (The server appends lines naming where the value
    /// came from, such as `unnamed portal parameter $1`; those are not modelled.)
    #[must_use]
    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }

    /// Byte offset in the input where equijson places the error: the offending token,
    /// byte or escape; the end of input when it ended too early; the number, string or
    /// bracket a limit was exceeded on. `None` for errors about a binary value as a whole.
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }
}

impl fmt::Display for JsonbError {
    /// `message: DETAIL (SQLSTATE code, at byte N)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        write!(f, " (SQLSTATE {}", self.state)?;
        if let Some(offset) = self.offset {
            write!(f, ", at byte {offset}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for JsonbError {}

/// The text PostgreSQL 15 (or the version in `options`) prints for `input` cast to `jsonb`
/// (`jsonb_in`, then `jsonb_out`).
///
/// # Errors
/// Whatever would make the server refuse the value: see [`JsonbError`] and the module
/// documentation for the cases and their SQLSTATEs.
pub fn normalize(input: &[u8], options: &JsonbOptions) -> Result<String, JsonbError> {
    let (tape, _) = read(input, *options)?;
    // The text is usually about as long as the input (whitespace aside).
    let mut out = Vec::with_capacity(input.len().saturating_add(16).min(MAX_INPUT));
    tape.write(&mut out);
    // Valid UTF-8 in, only whole characters and ASCII escapes out.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The size in bytes of the `jsonb` datum PostgreSQL 15 stores for `input`, before any
/// compression: what `pg_column_size($1::jsonb)` reports (x86-64 layout).
///
/// # Errors
/// As [`normalize`].
pub fn binary_size(input: &[u8], options: &JsonbOptions) -> Result<u64, JsonbError> {
    read(input, *options).map(|(_, size)| size)
}

/// Largest input the model reads: no PostgreSQL value reaches 1 GB (`MaxAllocSize`).
const MAX_INPUT: usize = (1 << 30) - 1;

/// `jsonb_in` up to the binary conversion: the tape and the datum size.
fn read(input: &[u8], options: JsonbOptions) -> Result<(tape::Tape, u64), JsonbError> {
    if input.len() > MAX_INPUT {
        return Err(JsonbError::new(
            SqlState::ProgramLimitExceeded,
            format!(
                "input of {} bytes is larger than any PostgreSQL value can be (1 GB)",
                input.len()
            ),
            None,
        ));
    }
    check_encoding(input)?;
    parse::parse(input, options)
}

/// The binary send format of `input` as `jsonb` (`jsonb_send`): version byte `1`, then
/// the [`normalize`]d text.
///
/// # Errors
/// As [`normalize`].
pub fn to_wire(input: &[u8], options: &JsonbOptions) -> Result<Vec<u8>, JsonbError> {
    let text = normalize(input, options)?;
    let mut out = Vec::with_capacity(text.len() + 1);
    out.push(1);
    out.extend_from_slice(text.as_bytes());
    Ok(out)
}

/// The text inside a binary jsonb value, after checking its version byte as `jsonb_recv` does.
///
/// The text is returned as it is; [`from_wire`] also parses it.
///
/// # Errors
/// Empty input (08P01, `insufficient data left in message`), or a version other than 1
/// (XX000, `unsupported jsonb version number 2`).
pub fn wire_text(bytes: &[u8]) -> Result<&[u8], JsonbError> {
    match bytes.split_first() {
        None => Err(JsonbError::new(
            SqlState::ProtocolViolation,
            "insufficient data left in message",
            None,
        )),
        Some((1, text)) => Ok(text),
        Some((version, _)) => Err(JsonbError::new(
            SqlState::InternalError,
            format!("unsupported jsonb version number {version}"),
            Some(0),
        )),
    }
}

/// `jsonb_recv` then `jsonb_out`: the text PostgreSQL prints for a binary jsonb value.
///
/// # Errors
/// As [`wire_text`], then as [`normalize`] on the text (offsets count from the text,
/// after the version byte).
pub fn from_wire(bytes: &[u8], options: &JsonbOptions) -> Result<String, JsonbError> {
    normalize(wire_text(bytes)?, options)
}

/// The server checks a value's encoding before any parsing: NUL bytes and invalid UTF-8
/// (overlong forms, surrogates, beyond U+10FFFF, truncated sequences) fail with 22021.
fn check_encoding(input: &[u8]) -> Result<(), JsonbError> {
    let valid = match std::str::from_utf8(input) {
        Ok(_) => input.len(),
        Err(e) => e.valid_up_to(),
    };
    let bad = input[..valid].iter().position(|&b| b == 0).unwrap_or(valid);
    if bad < input.len() {
        return Err(JsonbError::invalid_encoding(input, bad));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_MAX_DEPTH, JsonbOptions, max_depth_for_stack, normalize};

    #[test]
    fn depth_follows_the_servers_stack() {
        // Bound-parameter depths are 13 above the executor-cast depths measured on 15.18
        // (14,541 at 2048kB, 29,105 at 4096kB, 50,950 at 7168kB).
        assert_eq!(max_depth_for_stack(2048), DEFAULT_MAX_DEPTH);
        assert_eq!(max_depth_for_stack(4096), 29_105 + 13);
        assert_eq!(max_depth_for_stack(7168), 50_950 + 13);
        let deep = format!("{}{}", "[".repeat(30_000), "]".repeat(30_000));
        assert!(normalize(deep.as_bytes(), &JsonbOptions::default()).is_err());
        assert!(
            normalize(
                deep.as_bytes(),
                &JsonbOptions::default().max_stack_depth_kb(7168)
            )
            .is_ok()
        );
        assert_eq!(
            normalize(deep.as_bytes(), &JsonbOptions::default().server_accepted()).as_deref(),
            Ok(deep.as_str())
        );
    }
}
