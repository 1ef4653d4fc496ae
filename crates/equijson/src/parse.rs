//! The strict I-JSON parser: bytes in, events out, no recursion.
//!
//! The parser checks the grammar, UTF-8, escapes and nesting; it keeps its container
//! stack on the heap, so hostile nesting costs memory bounded by the limit, never the
//! call stack. What a value *means* (number policies, duplicate keys) is decided by the
//! [`Sink`] it feeds.

use crate::byte_runs::{plain_prefix, whitespace_run};
use crate::error::{Error, ErrorKind};
use crate::options::{Noncharacters, Options};

/// A failure inside the parser or a sink: what, and at which byte offset.
#[derive(Debug)]
pub(crate) struct Fault {
    pub(crate) kind: ErrorKind,
    pub(crate) offset: usize,
}

impl Fault {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }
}

/// A decoded string handed to a sink.
#[derive(Clone, Copy)]
pub(crate) struct Str<'a> {
    /// The unescaped content, valid UTF-8.
    pub(crate) bytes: &'a [u8],
    /// Whether the source had escapes. Without escapes the JCS form is the source itself,
    /// because raw `"`, `\` and control characters cannot occur in valid JSON strings.
    pub(crate) escaped: bool,
    /// Byte offset of the opening quote.
    pub(crate) offset: usize,
}

/// Receives the parse events of one document.
pub(crate) trait Sink {
    fn null(&mut self);
    fn boolean(&mut self, v: bool);
    /// A number matching the JSON grammar, and whether it has an exponent part;
    /// `offset` is where it starts.
    fn number(&mut self, text: &str, has_exponent: bool, offset: usize) -> Result<(), Fault>;
    fn string(&mut self, s: Str<'_>) -> Result<(), Fault>;
    fn begin_array(&mut self);
    fn end_array(&mut self);
    fn begin_object(&mut self);
    fn key(&mut self, s: Str<'_>) -> Result<(), Fault>;
    fn end_object(&mut self) -> Result<(), Fault>;
    /// After a fault at `offset`: an earlier fault the sink can see in what is still open
    /// (a duplicate name in an unclosed object), so that the first error is reported.
    fn earlier_fault(&mut self, offset: usize) -> Option<Fault> {
        let _ = offset;
        None
    }
}

/// The parser's own buffers (container stack, unescaping scratch), kept between documents
/// by callers that parse many, so that a short document costs no allocation.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    stack: Vec<bool>,
    scratch: Vec<u8>,
}

/// Parses one JSON text into `sink`.
///
/// # Errors
/// The first violation of the grammar, UTF-8, escape rules, nesting limit, or a sink policy.
pub(crate) fn parse<S: Sink>(input: &[u8], options: &Options, sink: &mut S) -> Result<(), Error> {
    parse_reusing(input, options, sink, &mut Buffers::default())
}

/// [`parse`] with buffers kept from an earlier document.
///
/// # Errors
/// As [`parse`].
pub(crate) fn parse_reusing<S: Sink>(
    input: &[u8],
    options: &Options,
    sink: &mut S,
    buffers: &mut Buffers,
) -> Result<(), Error> {
    if u32::try_from(input.len()).is_err() {
        return Err(Error::new(ErrorKind::InputTooLarge, None));
    }
    let mut stack = std::mem::take(&mut buffers.stack);
    stack.clear();
    let mut scratch = std::mem::take(&mut buffers.scratch);
    scratch.clear();
    let mut p = Parser {
        input,
        text: std::str::from_utf8(input).ok(),
        pos: 0,
        stack,
        scratch,
        max_depth: options.max_depth,
        reject_nonchars: options.noncharacters == Noncharacters::Reject,
    };
    let result = p.run(sink);
    // Keep ordinary buffers for the next document; let an unusually large one go.
    if p.stack.capacity() <= 1 << 16 {
        buffers.stack = std::mem::take(&mut p.stack);
    }
    if p.scratch.capacity() <= 1 << 20 {
        buffers.scratch = std::mem::take(&mut p.scratch);
    }
    result.map_err(|f| {
        let f = sink.earlier_fault(f.offset).unwrap_or(f);
        let member = matches!(f.kind, ErrorKind::DuplicateKey(_))
            .then(|| member_pointer(input, options, f.offset))
            .flatten();
        Error::at(f.kind, input, f.offset).with_member(member)
    })
}

/// The JSON pointer of the object member whose name starts at byte `at` (a duplicate
/// name just reported), found by walking the text again up to there: errors are rare, and
/// the hot path keeps no path. A plain walk rather than another instantiation of the
/// parser keeps the wasm builds small; the text before `at` was already accepted by the
/// parser, and names are decoded by the parser's own string scanner.
#[cold]
fn member_pointer(input: &[u8], options: &Options, at: usize) -> Option<String> {
    /// An open container: the current member's name (objects, with whether a name is
    /// due next) or the number of elements begun so far (arrays).
    enum Step {
        Member(String, bool),
        Elements(usize),
    }
    fn begin_value(open: &mut [Step]) {
        if let Some(Step::Elements(n)) = open.last_mut() {
            *n += 1;
        }
    }
    let mut p = Parser {
        input,
        text: std::str::from_utf8(input).ok(),
        pos: 0,
        stack: Vec::new(),
        scratch: Vec::new(),
        max_depth: options.max_depth,
        reject_nonchars: options.noncharacters == Noncharacters::Reject,
    };
    let mut open: Vec<Step> = Vec::new();
    while p.pos <= at {
        let &b = input.get(p.pos)?;
        match b {
            b'"' => {
                let key_due = matches!(open.last(), Some(Step::Member(_, true)));
                let offset = p.pos;
                let name = std::str::from_utf8(p.string().ok()?.bytes).ok()?.to_owned();
                if !key_due {
                    begin_value(&mut open);
                } else if offset == at {
                    let mut pointer = String::new();
                    for step in &open[..open.len() - 1] {
                        match step {
                            Step::Member(m, _) => crate::pointer::push_token(&mut pointer, m),
                            Step::Elements(n) => crate::pointer::push_token(
                                &mut pointer,
                                &n.saturating_sub(1).to_string(),
                            ),
                        }
                    }
                    crate::pointer::push_token(&mut pointer, &name);
                    return Some(pointer);
                } else if let Some(Step::Member(m, due)) = open.last_mut() {
                    *m = name;
                    *due = false;
                }
            }
            b'[' | b'{' => {
                begin_value(&mut open);
                open.push(if b == b'{' {
                    Step::Member(String::new(), true)
                } else {
                    Step::Elements(0)
                });
                p.pos += 1;
            }
            b']' | b'}' => {
                open.pop();
                p.pos += 1;
            }
            b',' => {
                if let Some(Step::Member(_, due)) = open.last_mut() {
                    *due = true;
                }
                p.pos += 1;
            }
            b':' | b' ' | b'\t' | b'\n' | b'\r' => p.pos += 1,
            _ => {
                // A number or a literal: up to the next delimiter.
                begin_value(&mut open);
                p.pos += input[p.pos..]
                    .iter()
                    .position(|c| matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(input.len() - p.pos)
                    .max(1);
            }
        }
    }
    None
}

struct Parser<'a> {
    input: &'a [u8],
    /// The whole input when it is valid UTF-8 (checked once up front, which is faster
    /// than checking string by string); `None` sends every string through its own check,
    /// which also finds where the bad bytes are.
    text: Option<&'a str>,
    pos: usize,
    /// Open containers: `true` for an object.
    stack: Vec<bool>,
    /// Unescaped string content when the source has escapes.
    scratch: Vec<u8>,
    max_depth: usize,
    reject_nonchars: bool,
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

impl<'a> Parser<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        // Most tokens follow one another directly: one byte decides that.
        let pos = self.pos;
        if let Some(b' ' | b'\n' | b'\t' | b'\r') = self.input.get(pos) {
            self.pos = pos + 1 + whitespace_run(self.input.get(pos + 1..).unwrap_or_default());
        }
    }

    fn run<S: Sink>(&mut self, sink: &mut S) -> Result<(), Fault> {
        if self.input.starts_with(b"\xEF\xBB\xBF") {
            return Err(Fault::new(ErrorKind::ByteOrderMark, 0));
        }
        'value: loop {
            self.skip_ws();
            let Some(b) = self.peek() else {
                return Err(self.eof("a value"));
            };
            match b {
                b'{' => {
                    self.open(true)?;
                    sink.begin_object();
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        self.stack.pop();
                        sink.end_object()?;
                    } else {
                        self.member_key(sink)?;
                        continue 'value;
                    }
                }
                b'[' => {
                    self.open(false)?;
                    sink.begin_array();
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        self.stack.pop();
                        sink.end_array();
                    } else {
                        continue 'value;
                    }
                }
                b'"' => {
                    let s = self.string()?;
                    sink.string(s)?;
                }
                b'-' | b'0'..=b'9' => {
                    let start = self.pos;
                    let (text, has_exponent) = self.number()?;
                    sink.number(text, has_exponent, start)?;
                }
                b't' => self.literal(b"true", "`true`", || sink.boolean(true))?,
                b'f' => self.literal(b"false", "`false`", || sink.boolean(false))?,
                b'n' => self.literal(b"null", "`null`", || sink.null())?,
                _ => return Err(self.unexpected_value()),
            }
            // A value is complete: close containers / move to the next element.
            loop {
                self.skip_ws();
                let Some(&is_object) = self.stack.last() else {
                    if self.pos < self.input.len() {
                        return Err(Fault::new(ErrorKind::TrailingCharacters, self.pos));
                    }
                    return Ok(());
                };
                let close = if is_object { b'}' } else { b']' };
                match self.peek() {
                    Some(b',') => {
                        let comma = self.pos;
                        self.pos += 1;
                        self.skip_ws();
                        if self.peek() == Some(close) {
                            return Err(Fault::new(ErrorKind::TrailingComma, comma));
                        }
                        if is_object {
                            self.member_key(sink)?;
                        }
                        continue 'value;
                    }
                    Some(c) if c == close => {
                        self.pos += 1;
                        self.stack.pop();
                        if is_object {
                            sink.end_object()?;
                        } else {
                            sink.end_array();
                        }
                    }
                    _ if is_object => return Err(self.unexpected("',' or '}'")),
                    _ => return Err(self.unexpected("',' or ']'")),
                }
            }
        }
    }

    fn open(&mut self, object: bool) -> Result<(), Fault> {
        if self.stack.len() >= self.max_depth {
            return Err(Fault::new(
                ErrorKind::NestingTooDeep {
                    limit: self.max_depth,
                },
                self.pos,
            ));
        }
        self.stack.push(object);
        self.pos += 1;
        Ok(())
    }

    /// Parses `"name"` `:` of an object member (whitespace before the name already skipped).
    fn member_key<S: Sink>(&mut self, sink: &mut S) -> Result<(), Fault> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a member name in double quotes"));
        }
        let s = self.string()?;
        sink.key(s)?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("':'"));
        }
        self.pos += 1;
        Ok(())
    }

    fn literal(
        &mut self,
        word: &'static [u8],
        name: &'static str,
        emit: impl FnOnce(),
    ) -> Result<(), Fault> {
        if self.input[self.pos..].starts_with(word) {
            self.pos += word.len();
            // `truex`, `nullify`: a word that merely starts like a literal.
            if self.peek().is_some_and(is_word_byte) {
                return Err(self.bad_word(self.pos - word.len()));
            }
            emit();
            return Ok(());
        }
        let rest = &self.input[self.pos..];
        if word.starts_with(rest) {
            // Input ends inside the literal: a truncated document.
            self.pos = self.input.len();
            return Err(self.eof(name));
        }
        Err(self.bad_word(self.pos))
    }

    /// `NaN`, `Infinity`, `undefined`, `True`...: report the whole word.
    #[cold]
    fn bad_word(&self, start: usize) -> Fault {
        let end = self.input[start..]
            .iter()
            .position(|&b| !is_word_byte(b))
            .map_or(self.input.len(), |n| start + n);
        if end == start {
            return self.unexpected_at(start, "a value");
        }
        let mut word = String::from_utf8_lossy(&self.input[start..end]).into_owned();
        if word.len() > 40 {
            word.truncate(40);
            word.push_str("...");
        }
        Fault::new(ErrorKind::InvalidLiteral(word), start)
    }

    #[cold]
    fn unexpected_value(&self) -> Fault {
        match self.peek() {
            Some(b'\'') => self.unexpected("a value (strings take double quotes)"),
            Some(b'+' | b'.') => Fault::new(
                ErrorKind::InvalidNumber("a number starts with '-' or a digit"),
                self.pos,
            ),
            Some(b) if is_word_byte(b) => self.bad_word(self.pos),
            _ => self.unexpected("a value"),
        }
    }

    #[cold]
    fn eof(&self, expected: &'static str) -> Fault {
        Fault::new(ErrorKind::UnexpectedEof { expected }, self.input.len())
    }

    #[cold]
    fn unexpected(&self, expected: &'static str) -> Fault {
        self.unexpected_at(self.pos, expected)
    }

    #[cold]
    fn unexpected_at(&self, at: usize, expected: &'static str) -> Fault {
        let rest = &self.input[at..];
        if rest.is_empty() {
            return self.eof(expected);
        }
        if rest.starts_with(b"\xEF\xBB\xBF") {
            return Fault::new(ErrorKind::ByteOrderMark, at);
        }
        let take = rest.len().min(4);
        let found = match std::str::from_utf8(&rest[..take]) {
            Ok(s) => s.chars().next(),
            Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&rest[..e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next()),
            Err(_) => None,
        };
        match found {
            Some(found) => Fault::new(ErrorKind::UnexpectedCharacter { found, expected }, at),
            None => Fault::new(ErrorKind::InvalidUtf8, at),
        }
    }

    /// Scans a number, checking the grammar; leaves `pos` after it.
    fn number(&mut self) -> Result<(&'a str, bool), Fault> {
        let input = self.input;
        let start = self.pos;
        if input[self.pos] == b'-' {
            self.pos += 1;
        }
        match input.get(self.pos) {
            Some(b'0') => {
                self.pos += 1;
                if input.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    return Err(Fault::new(
                        ErrorKind::InvalidNumber("leading zeros are not allowed"),
                        self.pos - 1,
                    ));
                }
            }
            Some(b'1'..=b'9') => {
                self.pos += 1;
                self.digits();
            }
            Some(_) => {
                return Err(Fault::new(
                    ErrorKind::InvalidNumber("expected a digit after '-'"),
                    self.pos,
                ));
            }
            None => return Err(self.eof("a digit")),
        }
        if input.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !input.get(self.pos).is_some_and(u8::is_ascii_digit) {
                return Err(self.number_fault("expected a digit after the decimal point"));
            }
            self.digits();
        }
        let has_exponent = matches!(input.get(self.pos), Some(b'e' | b'E'));
        if has_exponent {
            self.pos += 1;
            if let Some(b'+' | b'-') = input.get(self.pos) {
                self.pos += 1;
            }
            if !input.get(self.pos).is_some_and(u8::is_ascii_digit) {
                return Err(self.number_fault("expected a digit in the exponent"));
            }
            self.digits();
        }
        // Numbers are ASCII: a slice of the validated text, or of bytes that are ASCII.
        let text = match self.text {
            Some(t) => t.get(start..self.pos),
            None => std::str::from_utf8(&input[start..self.pos]).ok(),
        }
        .unwrap_or("0");
        Ok((text, has_exponent))
    }

    #[cold]
    fn number_fault(&self, why: &'static str) -> Fault {
        if self.pos >= self.input.len() {
            self.eof("a digit")
        } else {
            Fault::new(ErrorKind::InvalidNumber(why), self.pos)
        }
    }

    #[inline]
    fn digits(&mut self) {
        self.pos += digit_run(&self.input[self.pos..]);
    }

    /// Scans a string starting at the opening quote; leaves `pos` after the closing quote.
    fn string(&mut self) -> Result<Str<'_>, Fault> {
        let input = self.input;
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        // The plain bytes up to the closing quote, an escape or a control character.
        let (plain, non_ascii) = plain_prefix(&input[start..]);
        self.pos = start + plain;
        match input.get(self.pos) {
            Some(b'"') => {
                let bytes = &input[start..self.pos];
                if non_ascii && (self.text.is_none() || self.reject_nonchars) {
                    self.check_utf8(start, bytes)?;
                }
                self.pos += 1;
                Ok(Str {
                    bytes,
                    escaped: false,
                    offset: open,
                })
            }
            Some(b'\\') => self.escaped_string(open, start, non_ascii),
            Some(&b) => {
                let fault = Fault::new(ErrorKind::ControlCharacterInString(b), self.pos);
                Err(self.string_fault(start, fault))
            }
            None => Err(self.string_fault(start, self.eof("'\"' to close the string"))),
        }
    }

    /// A fault found inside a string, unless the raw bytes before it (from `from`) hold an
    /// earlier one: bad UTF-8 or a rejected noncharacter is checked only at the closing
    /// quote on the fast path, so on the error path it is checked here.
    #[cold]
    fn string_fault(&self, from: usize, fault: Fault) -> Fault {
        let end = fault.offset.min(self.input.len());
        match self.check_utf8(from, &self.input[from.min(end)..end]) {
            Err(earlier) if earlier.offset < fault.offset => earlier,
            _ => fault,
        }
    }

    /// Validates raw string bytes starting at `offset`; applies the noncharacter policy.
    fn check_utf8(&self, offset: usize, bytes: &[u8]) -> Result<(), Fault> {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                if self.reject_nonchars {
                    if let Some((i, c)) = s
                        .char_indices()
                        .find(|&(_, c)| crate::string::is_noncharacter(c as u32))
                    {
                        return Err(Fault::new(ErrorKind::Noncharacter(c), offset + i));
                    }
                }
                Ok(())
            }
            Err(e) => {
                let at = e.valid_up_to();
                // A rejected noncharacter before the bad bytes comes first.
                if self.reject_nonchars {
                    self.check_utf8(offset, &bytes[..at])?;
                }
                let bad = &bytes[at..];
                // ED A0..BF xx is a surrogate encoded as if it were a character (CESU-8/WTF-8).
                if bad.len() >= 3
                    && bad[0] == 0xED
                    && (0xA0..=0xBF).contains(&bad[1])
                    && (0x80..=0xBF).contains(&bad[2])
                {
                    let unit = 0xD000 | (u16::from(bad[1] & 0x3F) << 6) | u16::from(bad[2] & 0x3F);
                    return Err(Fault::new(ErrorKind::LoneSurrogate(unit), offset + at));
                }
                Err(Fault::new(ErrorKind::InvalidUtf8, offset + at))
            }
        }
    }

    /// The slow path for strings with escapes: unescape into the scratch buffer.
    /// `pos` is at the first backslash; `start..pos` (plain bytes, non-ASCII or not as
    /// `first_non_ascii` says) is the first run.
    fn escaped_string(
        &mut self,
        open: usize,
        start: usize,
        first_non_ascii: bool,
    ) -> Result<Str<'_>, Fault> {
        let input = self.input;
        self.scratch.clear();
        let mut chunk_start = start;
        let mut first = first_non_ascii;
        loop {
            let (plain, non_ascii) = plain_prefix(input.get(self.pos..).unwrap_or_default());
            // Regression: the first run was scanned by `string`, its non-ASCII bytes count.
            let non_ascii = non_ascii || std::mem::take(&mut first);
            self.pos += plain;
            let Some(&b) = input.get(self.pos) else {
                return Err(self.string_fault(chunk_start, self.eof("'\"' to close the string")));
            };
            match b {
                b'"' | b'\\' => {
                    // `chunk` is the plain run just scanned (an escape ends each run).
                    let chunk = &input[chunk_start..self.pos];
                    if (self.text.is_none() || self.reject_nonchars) && non_ascii {
                        self.check_utf8(chunk_start, chunk)?;
                    }
                    self.scratch.extend_from_slice(chunk);
                    if b == b'"' {
                        self.pos += 1;
                        return Ok(Str {
                            bytes: &self.scratch,
                            escaped: true,
                            offset: open,
                        });
                    }
                    self.escape()?;
                    chunk_start = self.pos;
                }
                _ => {
                    let fault = Fault::new(ErrorKind::ControlCharacterInString(b), self.pos);
                    return Err(self.string_fault(chunk_start, fault));
                }
            }
        }
    }

    /// Decodes one escape at `pos` (the backslash) into the scratch buffer.
    fn escape(&mut self) -> Result<(), Fault> {
        let at = self.pos;
        let Some(&e) = self.input.get(at + 1) else {
            return Err(self.eof("an escape sequence"));
        };
        self.pos += 2;
        let c = match e {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(at),
            _ => return Err(Fault::new(ErrorKind::InvalidEscape, at)),
        };
        self.scratch.push(c);
        Ok(())
    }

    fn hex4(&mut self, at: usize) -> Result<u16, Fault> {
        let Some(h) = self.input.get(self.pos..self.pos + 4) else {
            if self.input[self.pos..].iter().all(u8::is_ascii_hexdigit) {
                return Err(self.eof("four hex digits"));
            }
            return Err(Fault::new(ErrorKind::InvalidEscape, at));
        };
        let mut v: u16 = 0;
        for &d in h {
            let digit = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(Fault::new(ErrorKind::InvalidEscape, at)),
            };
            v = (v << 4) | u16::from(digit);
        }
        self.pos += 4;
        Ok(v)
    }

    /// `\uXXXX` (pos is after the `u`), pairing surrogates.
    fn unicode_escape(&mut self, at: usize) -> Result<(), Fault> {
        let unit = self.hex4(at)?;
        let code = match unit {
            0xD800..=0xDBFF => {
                if self.pos >= self.input.len() || self.input[self.pos..] == *b"\\" {
                    return Err(self.eof("a low surrogate escape"));
                }
                if self.input.get(self.pos..self.pos + 2) != Some(b"\\u") {
                    return Err(Fault::new(ErrorKind::LoneSurrogate(unit), at));
                }
                let second_at = self.pos;
                self.pos += 2;
                let low = self.hex4(second_at)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(Fault::new(ErrorKind::LoneSurrogate(unit), at));
                }
                0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(Fault::new(ErrorKind::LoneSurrogate(unit), at)),
            _ => u32::from(unit),
        };
        let Some(c) = char::from_u32(code) else {
            return Err(Fault::new(ErrorKind::InvalidEscape, at));
        };
        if self.reject_nonchars && crate::string::is_noncharacter(code) {
            return Err(Fault::new(ErrorKind::Noncharacter(c), at));
        }
        let mut buf = [0u8; 4];
        self.scratch
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }
}

/// Length of the run of ASCII digits at the start of `s`, eight bytes at a time.
#[inline]
fn digit_run(s: &[u8]) -> usize {
    const F0: u64 = LO * 0xF0;
    const X30: u64 = LO * 0x30;
    const X7F: u64 = LO * 0x7F;
    let mut n = 0;
    while let Some(chunk) = s.get(n..n + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte is a digit iff its high nibble is 3 both before and after adding 6.
        // (A carry out of a byte >= 0xFA can only spoil bytes after a non-digit.)
        let not_digit = ((x & F0) ^ X30) | ((x.wrapping_add(LO * 6) & F0) ^ X30);
        // High bit set in every non-zero byte of `not_digit`, without cross-byte carries.
        let flags = (((not_digit & X7F) + X7F) | not_digit) & HI;
        if flags != 0 {
            return n + (flags.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + s[n..].iter().take_while(|b| b.is_ascii_digit()).count()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

#[cfg(test)]
mod tests {
    use super::digit_run;

    #[test]
    fn digit_run_stops_at_the_first_non_digit() {
        for s in [
            "",
            "1",
            "12345678",
            "123456789",
            "1234567890123456",
            "12345678x",
            "1234x5678",
            "0/",
            "9:",
            "99999999\u{ff}",
            "1\u{ff}9",
            "\u{fa}9",
            "12345678901234567,",
        ] {
            let want = s.bytes().take_while(u8::is_ascii_digit).count();
            assert_eq!(digit_run(s.as_bytes()), want, "{s:?}");
        }
        for b in 0..=255u8 {
            for pos in 0..10 {
                let mut v = vec![b'5'; 12];
                v[pos] = b;
                let want = v.iter().take_while(|c| c.is_ascii_digit()).count();
                assert_eq!(digit_run(&v), want, "byte {b:#x} at {pos}");
            }
        }
    }
}
