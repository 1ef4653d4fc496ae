//! A one-pass test of whether a text already is its own `jsonb` output, without building
//! the model's tape or text: the shortcut for the usual case of a live scan, where the
//! value checked is the server's own `jsonb` text.
//!
//! It says `true` only for texts made entirely of forms `jsonb_out` itself writes, where
//! the model's limits cannot apply; anything else (other whitespace, unsorted or
//! duplicate member names, escapes `jsonb_out` would not write, exponents, `-0`, deep nesting, long
//! numbers, large inputs) is `false`, meaning "not known": the caller then runs
//! [`super::normalize`]. Tests compare it with `normalize` on the server-observed tables
//! and on generated documents.

/// Longest input tested; larger texts take the full model (so no string, container or
/// element count can reach a `jsonb` size limit here).
const MAX_LEN: usize = 1 << 20;
/// Deepest nesting tested: far below what the parse-time stack budget allows for objects
/// (the dearer kind) at the default `max_depth`.
const MAX_NESTING: usize = 1000;
/// Longest number token tested: far below `numeric`'s digit limits.
const MAX_NUMBER: usize = 1000;

/// Whether `normalize(input, &JsonbOptions::default())` is certainly `Ok(input)`.
///
/// `false` means only that this shortcut does not know: the full model may still print
/// the text unchanged.
#[must_use]
pub fn is_normalized(input: &[u8]) -> bool {
    if input.len() > MAX_LEN || std::str::from_utf8(input).is_err() {
        return false;
    }
    Checker {
        input,
        at: 0,
        stack: Vec::new(),
        names: (Vec::new(), Vec::new()),
    }
    .run()
    .is_some()
}

/// An open container: for objects, the last member name (the byte range inside its
/// quotes, and whether it has escapes), which the next one must follow in `jsonb` order.
#[derive(Clone, Copy)]
enum Open {
    Array,
    Object(Name),
}

/// A member name: the bytes inside its quotes; `escaped` when they hold a `\`.
#[derive(Clone, Copy, Default)]
struct Name {
    start: usize,
    end: usize,
    escaped: bool,
}

struct Checker<'a> {
    input: &'a [u8],
    at: usize,
    stack: Vec<Open>,
    /// Scratch for decoding two escaped names.
    names: (Vec<u8>, Vec<u8>),
}

impl Checker<'_> {
    fn peek(&self) -> Option<u8> {
        self.input.get(self.at).copied()
    }

    fn eat(&mut self, bytes: &[u8]) -> Option<()> {
        let end = self.at.checked_add(bytes.len())?;
        (self.input.get(self.at..end)? == bytes).then(|| self.at = end)
    }

    /// The whole text: one value, nothing around it. `None`: not known to be normalized.
    fn run(mut self) -> Option<()> {
        loop {
            // At a value's first byte.
            match self.peek()? {
                b'{' => {
                    self.at += 1;
                    if self.eat(b"}").is_none() {
                        self.open(Open::Object(Name::default()))?;
                        self.member(true)?;
                        continue;
                    }
                }
                b'[' => {
                    self.at += 1;
                    if self.eat(b"]").is_none() {
                        self.open(Open::Array)?;
                        continue;
                    }
                }
                b'"' => {
                    self.string()?;
                }
                b't' => self.eat(b"true")?,
                b'f' => self.eat(b"false")?,
                b'n' => self.eat(b"null")?,
                _ => self.number()?,
            }
            // A value is complete: a separator, closing brackets, or the end.
            loop {
                let Some(&top) = self.stack.last() else {
                    return (self.at == self.input.len()).then_some(());
                };
                if self.eat(b", ").is_some() {
                    if matches!(top, Open::Object(..)) {
                        self.member(false)?;
                    }
                    break;
                }
                let close = if matches!(top, Open::Object(..)) {
                    b"}"
                } else {
                    b"]"
                };
                self.eat(close)?;
                self.stack.pop();
            }
        }
    }

    fn open(&mut self, container: Open) -> Option<()> {
        if self.stack.len() >= MAX_NESTING {
            return None;
        }
        self.stack.push(container);
        Some(())
    }

    /// A member name and its `": "`; it must sort after the previous name (decoded: by
    /// byte length, then bytewise), which also rules out duplicates.
    fn member(&mut self, first: bool) -> Option<()> {
        let name = self.string()?;
        let Some(Open::Object(prev)) = self.stack.last().copied() else {
            return None;
        };
        if !first {
            let input = self.input;
            let (a, b) = (&mut self.names.0, &mut self.names.1);
            let prev = decoded(input, prev, a);
            let name = decoded(input, name, b);
            if super::name_order(prev, name) != std::cmp::Ordering::Less {
                return None;
            }
        }
        if let Some(Open::Object(last)) = self.stack.last_mut() {
            *last = name;
        }
        self.eat(b": ")
    }

    /// A string as `escape_json` writes it. Returns the bytes inside the quotes.
    fn string(&mut self) -> Option<Name> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.eat(b"\"")?;
        let start = self.at;
        let mut escaped = false;
        loop {
            let b = self.peek()?;
            match b {
                b'"' => break,
                0x00..=0x1F => return None,
                b'\\' => {
                    escaped = true;
                    let kind = *self.input.get(self.at + 1)?;
                    match kind {
                        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 2,
                        b'u' => {
                            // Only the control characters without a short escape.
                            let esc = self.input.get(self.at + 2..self.at + 6)?;
                            let hi = HEX.iter().position(|&h| h == esc[2])?;
                            let lo = HEX.iter().position(|&h| h == esc[3])?;
                            let c = hi * 16 + lo;
                            if &esc[..2] != b"00"
                                || c == 0
                                || c >= 0x20
                                || matches!(c, 0x08 | 0x09 | 0x0A | 0x0C | 0x0D)
                            {
                                return None;
                            }
                            self.at += 6;
                        }
                        _ => return None,
                    }
                }
                _ => self.at += 1,
            }
        }
        let end = self.at;
        self.at += 1;
        Some(Name {
            start,
            end,
            escaped,
        })
    }

    /// A number `numeric_out` prints as written: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, not a
    /// negative zero (its sign is dropped), no exponent.
    fn number(&mut self) -> Option<()> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = |c: &mut Self| {
            let from = c.at;
            while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                c.at += 1;
            }
            c.at - from
        };
        let int_start = self.at;
        let int = digits(self);
        if int == 0 || (int > 1 && self.input[int_start] == b'0') {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return None;
            }
        }
        let token = &self.input[start..self.at];
        if token.len() > MAX_NUMBER
            || (token[0] == b'-' && token.iter().all(|&b| matches!(b, b'-' | b'0' | b'.')))
        {
            return None;
        }
        // What follows must be a separator, a bracket or the end (checked by the caller);
        // an exponent or letters would make the token something else.
        Some(())
    }
}

/// The decoded bytes of a name whose escapes [`Checker::string`] accepted (the short
/// escapes and `\u00xx`), decoded into `scratch` when it has any.
fn decoded<'s>(input: &'s [u8], name: Name, scratch: &'s mut Vec<u8>) -> &'s [u8] {
    let raw = &input[name.start..name.end];
    if !name.escaped {
        return raw;
    }
    scratch.clear();
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b != b'\\' {
            scratch.push(b);
            i += 1;
            continue;
        }
        let kind = raw.get(i + 1).copied().unwrap_or(b'\\');
        scratch.push(match kind {
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let hex = |j: usize| {
                    raw.get(j)
                        .and_then(|&h| char::from(h).to_digit(16))
                        .unwrap_or(0)
                };
                // `\u00xy`: two hex digits, below 256.
                let byte = u8::try_from(hex(i + 4) * 16 + hex(i + 5)).unwrap_or(0);
                i += 4;
                byte
            }
            other => other,
        });
        i += 2;
    }
    scratch
}

#[cfg(test)]
mod tests {
    use super::is_normalized;
    use crate::jsonb::{JsonbOptions, normalize};

    /// `true` must mean `normalize` gives the text back; for these, `false` is expected
    /// exactly where the model changes or rejects the text, or the shortcut declines.
    #[test]
    fn agrees_with_the_model() {
        let cases: &[(&str, bool)] = &[
            ("{}", true),
            ("[]", true),
            ("0", true),
            ("-0", false),
            ("-0.00", false),
            ("0.00", true),
            ("-0.01", true),
            ("1.50", true),
            ("01", false),
            ("1e2", false),
            ("1.", false),
            ("-", false),
            ("", false),
            (" {}", false),
            ("{} ", false),
            ("true", true),
            ("tru", false),
            ("nul", false),
            ("null", true),
            ("false", true),
            (r#""a""#, true),
            (r#""a\"b\\c\n\t\r\b\f""#, true),
            (r#""\/""#, false),
            (r#""\u001f\u0001""#, true),
            (r#""\u001F""#, false),
            (r#""\u0000""#, false),
            (r#""\u000a""#, false),
            (r#""\u0020""#, false),
            (r#""\u00e9""#, false),
            ("\"\u{e9}\u{fffe}\"", true),
            ("\"a\nb\"", false),
            (r#"{"a": 1}"#, true),
            (r#"{"a":1}"#, false),
            (r#"{"a" : 1}"#, false),
            (r#"{"a": 1,"b": 2}"#, false),
            (r#"{"a": 1, "b": 2}"#, true),
            (r#"{"b": 1, "a": 2}"#, false),
            (r#"{"a": 1, "a": 2}"#, false),
            (r#"{"b": 1, "aa": 2}"#, true),
            (r#"{"aa": 1, "b": 2}"#, false),
            (r#"{"a\n": 1}"#, true),
            (r#"{"a": 1, "\n": 2}"#, false),
            (r#"{"\n": 1, "a": 2}"#, true),
            (r#"{"\t": 1, "\n": 2}"#, true),
            (r#"{"\n": 1, "\t": 2}"#, false),
            (r#"{"\t": 1, "\t": 2}"#, false),
            (r#"{"\n": 1, "\n": 2}"#, false),
            (
                r#"{"\u0001": 1, "\u0002": 2, "a\u001f": 3, "a\\": 4}"#,
                true,
            ),
            (r#"{"\u0002": 1, "\u0001": 2}"#, false),
            (r#"{"\"": 1, "\\": 2, "aa": 3}"#, true),
            (r#"{"\\": 1, "\"": 2}"#, false),
            (r#"{"\/": 1}"#, false),
            (r#"{"a": {"a": [], "b": [1, 2, {}]}}"#, true),
            (r#"{"a": {"b": [1, 2, {}], "a": []}}"#, false),
            (r#"{"b": {"a": 1}, "aa": {"b": 2}}"#, true),
            (r#"{"a": [1, 2,], "b": 1}"#, false),
            ("[1, 2", false),
            ("[1, 2]]", false),
            ("[1, 2] [1]", false),
            ("[1,2]", false),
            (r"[1 ]", false),
            (r"[1a]", false),
            (r"[1.5e3]", false),
            (r"[true, false, null]", true),
            (r#"{"": 1, "a": 2}"#, true),
            (r#"{"a": 2, "": 1}"#, false),
        ];
        for &(text, expected) in cases {
            let fast = is_normalized(text.as_bytes());
            assert_eq!(fast, expected, "{text:?}");
            let model = normalize(text.as_bytes(), &JsonbOptions::default());
            if fast {
                assert_eq!(model.as_deref(), Ok(text), "{text:?}");
            } else {
                assert_ne!(model.as_deref(), Ok(text), "{text:?}");
            }
        }
    }

    #[test]
    fn declines_what_it_does_not_test() {
        // 1,001 containers open around an empty one: declined; 1,000 are tested.
        let deep = format!("{}{}", "[".repeat(1002), "]".repeat(1002));
        assert!(!is_normalized(deep.as_bytes()));
        let ok = format!("{}{}", "[".repeat(1001), "]".repeat(1001));
        assert!(is_normalized(ok.as_bytes()));
        let long = format!("[1.{}]", "5".repeat(2000));
        assert!(!is_normalized(long.as_bytes()));
        assert!(!is_normalized(b"[\xff]"));
        assert!(!is_normalized(b"\"\xc3\""));
        let big = format!("\"{}\"", "a".repeat(1 << 20));
        assert!(!is_normalized(big.as_bytes()));
    }
}
