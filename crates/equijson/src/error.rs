//! The one error type of the core: a boxed kind plus where it happened.

use std::fmt;

/// Why a document (or a value being serialized) was rejected.
///
/// Every variant has a stable meaning; the [`Display`](fmt::Display) text is
/// what a person reads. The enum is non-exhaustive so new policies can add
/// kinds without breaking callers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended where more was required (`expected` names what).
    UnexpectedEof {
        /// What the parser was waiting for, e.g. `"a value"`.
        expected: &'static str,
    },
    /// A character that cannot start or continue the current construct.
    UnexpectedCharacter {
        /// The offending character (U+FFFD when the byte is not valid UTF-8).
        found: char,
        /// What would have been accepted here.
        expected: &'static str,
    },
    /// Non-whitespace after the top-level value.
    TrailingCharacters,
    /// A comma before `]` or `}`.
    TrailingComma,
    /// A byte sequence that is not UTF-8.
    InvalidUtf8,
    /// The text starts with a byte order mark (U+FEFF), which JSON forbids.
    ByteOrderMark,
    /// A raw control character (U+0000..U+001F) inside a string.
    ControlCharacterInString(u8),
    /// A backslash escape that JSON does not define, or a malformed `\u`.
    InvalidEscape,
    /// An unpaired UTF-16 surrogate, escaped (`"\ud800"`) or encoded in the bytes.
    LoneSurrogate(u16),
    /// A Unicode noncharacter (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF), rejected only
    /// under [`Noncharacters::Reject`](crate::Noncharacters::Reject).
    Noncharacter(char),
    /// A number that breaks the JSON grammar (leading zero, missing digits, ...).
    InvalidNumber(&'static str),
    /// A bare word that is not `true`, `false` or `null` (`NaN`, `Infinity`, `undefined`, ...).
    InvalidLiteral(String),
    /// A number whose magnitude rounds to Infinity as an IEEE-754 double.
    NumberOutOfRange,
    /// `-0` (or a negative number that rounds to zero) under
    /// [`NegativeZero::Reject`](crate::NegativeZero::Reject).
    NegativeZero,
    /// A number whose canonical form denotes a different decimal value than the one
    /// written, under [`InexactNumbers::Reject`](crate::InexactNumbers::Reject).
    InexactNumber {
        /// The number as written in the input.
        written: String,
        /// Its canonical form (the shortest text of the nearest double; `0` on underflow).
        becomes: String,
    },
    /// A NaN or infinite float handed to the serializer.
    NonFiniteNumber,
    /// The same member name twice in one object (compared after unescaping).
    DuplicateKey(String),
    /// Arrays/objects nested deeper than the configured limit.
    NestingTooDeep {
        /// The configured limit.
        limit: usize,
    },
    /// Input larger than the 4 GiB the document model addresses.
    InputTooLarge,
    /// A map key that is not a string (or a char/integer/bool that becomes one).
    KeyMustBeString,
    /// A message from a `Serialize` implementation.
    Custom(String),
}

impl ErrorKind {
    /// Every [`name`](Self::name), in the order the variants are declared.
    pub const NAMES: &'static [&'static str] = &[
        "UnexpectedEof",
        "UnexpectedCharacter",
        "TrailingCharacters",
        "TrailingComma",
        "InvalidUtf8",
        "ByteOrderMark",
        "ControlCharacterInString",
        "InvalidEscape",
        "LoneSurrogate",
        "Noncharacter",
        "InvalidNumber",
        "InvalidLiteral",
        "NumberOutOfRange",
        "NegativeZero",
        "InexactNumber",
        "NonFiniteNumber",
        "DuplicateKey",
        "NestingTooDeep",
        "InputTooLarge",
        "KeyMustBeString",
        "Custom",
    ];

    /// The stable name of the kind, for programs: its variant name (`"DuplicateKey"`,
    /// `"LoneSurrogate"`, `"NumberOutOfRange"`, ...).
    ///
    /// This is the one vocabulary of error kinds: the reviewers' page
    /// (`equijson-page`) and the npm package (`equijson-npm`, its `EquijsonError.kind`)
    /// both report these names. The match is exhaustive, so a new kind must be named here.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::UnexpectedEof { .. } => "UnexpectedEof",
            Self::UnexpectedCharacter { .. } => "UnexpectedCharacter",
            Self::TrailingCharacters => "TrailingCharacters",
            Self::TrailingComma => "TrailingComma",
            Self::InvalidUtf8 => "InvalidUtf8",
            Self::ByteOrderMark => "ByteOrderMark",
            Self::ControlCharacterInString(_) => "ControlCharacterInString",
            Self::InvalidEscape => "InvalidEscape",
            Self::LoneSurrogate(_) => "LoneSurrogate",
            Self::Noncharacter(_) => "Noncharacter",
            Self::InvalidNumber(_) => "InvalidNumber",
            Self::InvalidLiteral(_) => "InvalidLiteral",
            Self::NumberOutOfRange => "NumberOutOfRange",
            Self::NegativeZero => "NegativeZero",
            Self::InexactNumber { .. } => "InexactNumber",
            Self::NonFiniteNumber => "NonFiniteNumber",
            Self::DuplicateKey(_) => "DuplicateKey",
            Self::NestingTooDeep { .. } => "NestingTooDeep",
            Self::InputTooLarge => "InputTooLarge",
            Self::KeyMustBeString => "KeyMustBeString",
            Self::Custom(_) => "Custom",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEof { expected } => {
                write!(f, "unexpected end of input, expected {expected}")
            }
            Self::UnexpectedCharacter { found, expected } => {
                write!(
                    f,
                    "unexpected character {}, expected {expected}",
                    DisplayChar(*found)
                )
            }
            Self::TrailingCharacters => f.write_str("trailing characters after the JSON value"),
            Self::TrailingComma => f.write_str("trailing comma before the closing bracket"),
            Self::InvalidUtf8 => f.write_str("invalid UTF-8"),
            Self::ByteOrderMark => f.write_str("byte order mark (U+FEFF) is not allowed"),
            Self::ControlCharacterInString(b) => write!(
                f,
                "control character U+{b:04X} must be escaped inside a string"
            ),
            Self::InvalidEscape => f.write_str("invalid escape sequence"),
            Self::LoneSurrogate(u) => write!(f, "unpaired surrogate U+{u:04X}"),
            Self::Noncharacter(c) => write!(f, "noncharacter U+{:04X} is not allowed", *c as u32),
            Self::InvalidNumber(why) => write!(f, "invalid number: {why}"),
            Self::InvalidLiteral(word) => write!(f, "`{word}` is not a JSON value"),
            Self::NumberOutOfRange => {
                f.write_str("number out of range: it overflows a double to Infinity")
            }
            Self::NegativeZero => f.write_str("negative zero is not allowed"),
            Self::InexactNumber { written, becomes } => write!(
                f,
                "inexact number {written}: its canonical form {becomes} denotes a different value"
            ),
            Self::NonFiniteNumber => f.write_str("NaN and Infinity cannot be represented in JSON"),
            Self::DuplicateKey(k) => write!(f, "duplicate object key {}", Quoted(k)),
            Self::NestingTooDeep { limit } => {
                write!(
                    f,
                    "nesting too deep: more than {limit} levels of arrays/objects"
                )
            }
            Self::InputTooLarge => f.write_str(
                "input too large: the limit is 4 GiB of input and 4 GiB of canonical text",
            ),
            Self::KeyMustBeString => f.write_str("object key must be a string"),
            Self::Custom(msg) => f.write_str(msg),
        }
    }
}

/// Where an error happened.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A place in input text.
    Text {
        /// Byte offset from the start of the input (0-based).
        offset: usize,
        /// Line number (1-based; lines end at `\n`).
        line: usize,
        /// Column (1-based, counted in characters, not bytes).
        column: usize,
    },
    /// A place in a value being serialized, as an RFC 6901 JSON pointer.
    Pointer(String),
}

/// An error from parsing, canonicalizing or serializing JSON.
///
/// Small (one pointer) so `Result<T, Error>` stays cheap on the success path.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<ErrorImpl>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    location: Option<Location>,
    /// For a duplicate member name found in text: the JSON pointer of the later member.
    member: Option<String>,
}

impl Error {
    /// An error at byte `offset` of `input`; line and column are derived from the text.
    #[cold]
    pub(crate) fn at(kind: ErrorKind, input: &[u8], offset: usize) -> Self {
        let offset = offset.min(input.len());
        let (line, column) = line_column(input, offset);
        Self::new(
            kind,
            Some(Location::Text {
                offset,
                line,
                column,
            }),
        )
    }

    /// An error at a JSON pointer inside a value being serialized.
    #[cold]
    pub(crate) fn at_pointer(kind: ErrorKind, pointer: String) -> Self {
        Self::new(kind, Some(Location::Pointer(pointer)))
    }

    #[cold]
    pub(crate) fn new(kind: ErrorKind, location: Option<Location>) -> Self {
        Self {
            inner: Box::new(ErrorImpl {
                kind,
                location,
                member: None,
            }),
        }
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Where it went wrong, when known.
    #[must_use]
    pub fn location(&self) -> Option<&Location> {
        self.inner.location.as_ref()
    }

    /// Byte offset into the input, for errors found in text.
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        match self.inner.location {
            Some(Location::Text { offset, .. }) => Some(offset),
            _ => None,
        }
    }

    /// 1-based line, for errors found in text.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self.inner.location {
            Some(Location::Text { line, .. }) => Some(line),
            _ => None,
        }
    }

    /// 1-based column in characters, for errors found in text.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        match self.inner.location {
            Some(Location::Text { column, .. }) => Some(column),
            _ => None,
        }
    }

    /// JSON pointer, for errors found while serializing a Rust value.
    #[must_use]
    pub fn pointer(&self) -> Option<&str> {
        match &self.inner.location {
            Some(Location::Pointer(p)) => Some(p),
            _ => None,
        }
    }

    /// For a duplicate member name found in text ([`ErrorKind::DuplicateKey`]), the RFC 6901
    /// JSON pointer of the later member: `/a/b` for `{"a":{"b":1,"b":2}}`.
    #[must_use]
    pub fn member_pointer(&self) -> Option<&str> {
        self.inner.member.as_deref()
    }

    /// Records the pointer of a duplicate member found in text.
    #[cold]
    pub(crate) fn with_member(mut self, pointer: Option<String>) -> Self {
        self.inner.member = pointer;
        self
    }

    /// The message without the location prefix. A duplicate member name below the top
    /// level names its JSON pointer: `duplicate object key "b" at "/a/b"`.
    #[must_use]
    pub fn message(&self) -> String {
        match (&self.inner.kind, &self.inner.member) {
            (ErrorKind::DuplicateKey(name), Some(p)) if nested(p, name) => {
                format!("{} at {}", self.inner.kind, Quoted(p))
            }
            (kind, _) => kind.to_string(),
        }
    }
}

impl fmt::Display for Error {
    /// `LINE:COL: message` for text errors, `at POINTER: message` for values.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.location {
            Some(Location::Text { line, column, .. }) => {
                write!(f, "{line}:{column}: {}", self.message())
            }
            Some(Location::Pointer(p)) => write!(f, "at {}: {}", Quoted(p), self.inner.kind),
            None => fmt::Display::fmt(&self.inner.kind, f),
        }
    }
}

/// Whether a duplicate member's pointer says more than its name: the object holding it
/// is not the top-level value.
fn nested(pointer: &str, name: &str) -> bool {
    let mut top = String::new();
    crate::pointer::push_token(&mut top, name);
    pointer != top
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("location", &self.inner.location)
            .field("member", &self.inner.member)
            .finish()
    }
}

impl std::error::Error for Error {}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::new(ErrorKind::Custom(msg.to_string()), None)
    }
}

/// A `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Shows a string in double quotes with control characters escaped, for messages.
struct Quoted<'a>(&'a str);

/// Characters an error message shows by code: controls, and those that would break the
/// line or reorder the text around them on a terminal (separators, bidi controls, BOM).
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{feff}'
        )
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c if unprintable(c) => write!(f, "\\u{:04x}", c as u32)?,
                c => write!(f, "{c}")?,
            }
        }
        f.write_str("\"")
    }
}

/// Shows a character for an error message: printable ones quoted, others as U+XXXX.
struct DisplayChar(char);

impl fmt::Display for DisplayChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        if unprintable(c) || c.is_whitespace() || c == '\u{FFFD}' {
            write!(f, "U+{:04X}", c as u32)
        } else if c == '\'' {
            f.write_str("\"'\"")
        } else {
            write!(f, "'{c}'")
        }
    }
}

/// The 1-based line and column of byte `offset` in `input`, as [`Error`] reports them:
/// lines end at `\n`, and the column counts characters (bytes that are not UTF-8
/// continuation bytes), not bytes. An offset past the end counts as the end.
#[must_use]
pub fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.split(|&b| b == b'\n').count();
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    /// One value of every variant, in declaration order.
    fn one_of_each() -> Vec<ErrorKind> {
        vec![
            ErrorKind::UnexpectedEof {
                expected: "a value",
            },
            ErrorKind::UnexpectedCharacter {
                found: 'x',
                expected: "a value",
            },
            ErrorKind::TrailingCharacters,
            ErrorKind::TrailingComma,
            ErrorKind::InvalidUtf8,
            ErrorKind::ByteOrderMark,
            ErrorKind::ControlCharacterInString(0),
            ErrorKind::InvalidEscape,
            ErrorKind::LoneSurrogate(0xD800),
            ErrorKind::Noncharacter('\u{FDD0}'),
            ErrorKind::InvalidNumber("leading zero"),
            ErrorKind::InvalidLiteral("NaN".into()),
            ErrorKind::NumberOutOfRange,
            ErrorKind::NegativeZero,
            ErrorKind::InexactNumber {
                written: "9007199254740993".into(),
                becomes: "9007199254740992".into(),
            },
            ErrorKind::NonFiniteNumber,
            ErrorKind::DuplicateKey("a".into()),
            ErrorKind::NestingTooDeep { limit: 1 },
            ErrorKind::InputTooLarge,
            ErrorKind::KeyMustBeString,
            ErrorKind::Custom("x".into()),
        ]
    }

    /// The declaration position of a kind. No catch-all arm: a new variant does not
    /// compile until it is given a position here, and then `one_of_each` must hold it.
    fn position(k: &ErrorKind) -> usize {
        match k {
            ErrorKind::UnexpectedEof { .. } => 0,
            ErrorKind::UnexpectedCharacter { .. } => 1,
            ErrorKind::TrailingCharacters => 2,
            ErrorKind::TrailingComma => 3,
            ErrorKind::InvalidUtf8 => 4,
            ErrorKind::ByteOrderMark => 5,
            ErrorKind::ControlCharacterInString(_) => 6,
            ErrorKind::InvalidEscape => 7,
            ErrorKind::LoneSurrogate(_) => 8,
            ErrorKind::Noncharacter(_) => 9,
            ErrorKind::InvalidNumber(_) => 10,
            ErrorKind::InvalidLiteral(_) => 11,
            ErrorKind::NumberOutOfRange => 12,
            ErrorKind::NegativeZero => 13,
            ErrorKind::InexactNumber { .. } => 14,
            ErrorKind::NonFiniteNumber => 15,
            ErrorKind::DuplicateKey(_) => 16,
            ErrorKind::NestingTooDeep { .. } => 17,
            ErrorKind::InputTooLarge => 18,
            ErrorKind::KeyMustBeString => 19,
            ErrorKind::Custom(_) => 20,
        }
    }

    #[test]
    fn every_kind_has_a_distinct_name_which_is_its_variant_name() {
        let kinds = one_of_each();
        let positions: Vec<usize> = kinds.iter().map(position).collect();
        assert_eq!(
            positions,
            (0..kinds.len()).collect::<Vec<_>>(),
            "one value of each variant, in order"
        );
        let mut seen = std::collections::BTreeSet::new();
        for (k, listed) in kinds.iter().zip(ErrorKind::NAMES) {
            // The Debug form starts with the variant's identifier.
            let debug = format!("{k:?}");
            let variant = debug
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or_default();
            assert_eq!(k.name(), variant, "{debug}");
            assert_eq!(k.name(), *listed, "NAMES in declaration order");
            assert!(seen.insert(k.name()), "{} named twice", k.name());
        }
        assert_eq!(
            ErrorKind::NAMES.len(),
            kinds.len(),
            "NAMES lists every kind"
        );
    }
}
