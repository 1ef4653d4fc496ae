//! PostgreSQL 15's JSON lexer (`src/common/jsonapi.c`), byte for byte in what it accepts
//! and in where it says an error is.
//!
//! Error messages quote "tokens" delimited the way PostgreSQL delimits them (an invalid
//! word runs over every ASCII letter, digit, `_` and every byte >= 0x80), and the CONTEXT
//! line is cut at `token_terminator`, so the lexer keeps the same positions PostgreSQL does.

/// Token types (`JsonTokenType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    ObjectStart,
    ObjectEnd,
    ArrayStart,
    ArrayEnd,
    Comma,
    Colon,
    String,
    Number,
    True,
    False,
    Null,
    End,
}

/// `JsonParseErrorType`, the variants the backend can report for `jsonb_in`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsonError {
    EscapingInvalid,
    EscapingRequired,
    ExpectedEnd,
    ExpectedArrayNext,
    ExpectedColon,
    ExpectedJson,
    ExpectedMore,
    ExpectedObjectFirst,
    ExpectedObjectNext,
    ExpectedString,
    InvalidToken,
    UnicodeCodePointZero,
    UnicodeEscapeFormat,
    UnicodeHighSurrogate,
    UnicodeLowSurrogate,
}

/// `JsonLexContext`: the lexer state PostgreSQL's error reports read.
pub(super) struct Lexer<'a> {
    pub(super) input: &'a [u8],
    /// Start of the current token; `None` at the end of input.
    pub(super) token_start: Option<usize>,
    /// One past the current token (or where a lexing error was detected).
    pub(super) token_terminator: usize,
    pub(super) token_type: Tok,
    /// 1-based; counts `\n` in whitespace between tokens.
    pub(super) line_number: usize,
    pub(super) line_start: usize,
    /// The de-escaped value of the last string token.
    pub(super) strval: Vec<u8>,
    /// Where equijson places a lexing error (the offending byte or escape).
    pub(super) error_at: usize,
}

/// `JSON_ALPHANUMERIC_CHAR`.
fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// `pg_utf_mblen`: the length a UTF-8 lead byte announces (1 for anything else).
pub(super) fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        _ if b & 0xE0 == 0xC0 => 2,
        _ if b & 0xF0 == 0xE0 => 3,
        _ if b & 0xF8 == 0xF0 => 4,
        _ => 1,
    }
}

impl<'a> Lexer<'a> {
    pub(super) fn new(input: &'a [u8]) -> Self {
        Self {
            input,
            token_start: Some(0),
            token_terminator: 0,
            // palloc0: token type 0 is JSON_TOKEN_INVALID; only `End` is ever compared.
            token_type: Tok::Null,
            line_number: 1,
            line_start: 0,
            strval: Vec::new(),
            error_at: 0,
        }
    }

    /// `json_lex`: the next token, or the error found while lexing it.
    pub(super) fn lex(&mut self) -> Result<Tok, JsonError> {
        let input = self.input;
        let mut s = self.token_terminator;
        while let Some(&b) = input.get(s) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            s += 1;
            if b == b'\n' {
                self.line_number += 1;
                self.line_start = s;
            }
        }
        self.token_start = Some(s);
        self.error_at = s;
        let Some(&b) = input.get(s) else {
            self.token_start = None;
            self.token_terminator = s;
            self.token_type = Tok::End;
            return Ok(Tok::End);
        };
        let tok = match b {
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                self.token_terminator = s + 1;
                match b {
                    b'{' => Tok::ObjectStart,
                    b'}' => Tok::ObjectEnd,
                    b'[' => Tok::ArrayStart,
                    b']' => Tok::ArrayEnd,
                    b',' => Tok::Comma,
                    _ => Tok::Colon,
                }
            }
            b'"' => {
                self.string(s)?;
                Tok::String
            }
            b'-' => {
                self.number(s + 1)?;
                Tok::Number
            }
            b'0'..=b'9' => {
                self.number(s)?;
                Tok::Number
            }
            _ => {
                let end = s + input[s..].iter().take_while(|&&c| is_alnum(c)).count();
                if end == s {
                    self.token_terminator = s + 1;
                    return Err(JsonError::InvalidToken);
                }
                self.token_terminator = end;
                match &input[s..end] {
                    b"true" => Tok::True,
                    b"null" => Tok::Null,
                    b"false" => Tok::False,
                    _ => return Err(JsonError::InvalidToken),
                }
            }
        };
        self.token_type = tok;
        Ok(tok)
    }

    /// `json_lex_number`; `s` is just after any minus sign.
    fn number(&mut self, mut s: usize) -> Result<(), JsonError> {
        let input = self.input;
        let digit = |i: usize| input.get(i).is_some_and(u8::is_ascii_digit);
        let mut error = false;
        match input.get(s) {
            Some(b'0') => s += 1,
            Some(b'1'..=b'9') => {
                s += 1;
                while digit(s) {
                    s += 1;
                }
            }
            _ => error = true,
        }
        if input.get(s) == Some(&b'.') {
            s += 1;
            if digit(s) {
                while digit(s) {
                    s += 1;
                }
            } else {
                error = true;
            }
        }
        if matches!(input.get(s), Some(b'e' | b'E')) {
            s += 1;
            if matches!(input.get(s), Some(b'+' | b'-')) {
                s += 1;
            }
            if digit(s) {
                while digit(s) {
                    s += 1;
                }
            } else {
                error = true;
            }
        }
        // Trailing letters, digits, `_` and non-ASCII belong to the (bad) token.
        while input.get(s).is_some_and(|&b| is_alnum(b)) {
            error = true;
            s += 1;
        }
        self.token_terminator = s;
        if error {
            return Err(JsonError::InvalidToken);
        }
        Ok(())
    }

    /// `FAIL_AT_CHAR_START`.
    fn fail_at_start(&mut self, s: usize, e: JsonError) -> Result<(), JsonError> {
        self.token_terminator = s;
        self.error_at = s;
        Err(e)
    }

    /// `FAIL_AT_CHAR_END`; `at` is where equijson reports the error.
    fn fail_at_end(&mut self, s: usize, at: usize, e: JsonError) -> Result<(), JsonError> {
        self.token_terminator = s + self.input.get(s).map_or(1, |&b| utf8_len(b));
        self.token_terminator = self.token_terminator.min(self.input.len());
        self.error_at = at;
        Err(e)
    }

    /// `json_lex_string` with de-escaping (`strval`), starting at the opening quote.
    fn string(&mut self, open: usize) -> Result<(), JsonError> {
        let input = self.input;
        self.strval.clear();
        let mut hi_surrogate: Option<u32> = None;
        // Where the pending high surrogate'at escape starts (for equijson'at offset).
        let mut hi_at = open;
        let mut at = open;
        loop {
            at += 1;
            let Some(&byte) = input.get(at) else {
                return self.fail_at_start(at, JsonError::InvalidToken);
            };
            match byte {
                b'"' => break,
                0x00..=0x1F => return self.fail_at_start(at, JsonError::EscapingRequired),
                b'\\' => {
                    let esc = at;
                    at += 1;
                    let Some(&kind) = input.get(at) else {
                        return self.fail_at_start(at, JsonError::InvalidToken);
                    };
                    if kind == b'u' {
                        let mut ch: u32 = 0;
                        for _ in 0..4 {
                            at += 1;
                            let Some(&digit) = input.get(at) else {
                                return self.fail_at_start(at, JsonError::InvalidToken);
                            };
                            let Some(value) = char::from(digit).to_digit(16) else {
                                return self.fail_at_end(at, esc, JsonError::UnicodeEscapeFormat);
                            };
                            ch = ch * 16 + value;
                        }
                        if (0xD800..=0xDBFF).contains(&ch) {
                            if hi_surrogate.is_some() {
                                return self.fail_at_end(at, esc, JsonError::UnicodeHighSurrogate);
                            }
                            hi_surrogate = Some(ch);
                            hi_at = esc;
                            continue;
                        }
                        if (0xDC00..=0xDFFF).contains(&ch) {
                            let Some(hi) = hi_surrogate.take() else {
                                return self.fail_at_end(at, esc, JsonError::UnicodeLowSurrogate);
                            };
                            ch = 0x10000 + ((hi - 0xD800) << 10) + (ch - 0xDC00);
                        }
                        if hi_surrogate.is_some() {
                            return self.fail_at_end(at, hi_at, JsonError::UnicodeLowSurrogate);
                        }
                        if ch == 0 {
                            return self.fail_at_end(at, esc, JsonError::UnicodeCodePointZero);
                        }
                        // Surrogates are paired above, so every value left is a scalar value.
                        let decoded = char::from_u32(ch).unwrap_or(char::REPLACEMENT_CHARACTER);
                        let mut buf = [0u8; 4];
                        self.strval
                            .extend_from_slice(decoded.encode_utf8(&mut buf).as_bytes());
                    } else {
                        if hi_surrogate.is_some() {
                            return self.fail_at_end(at, hi_at, JsonError::UnicodeLowSurrogate);
                        }
                        let decoded = match kind {
                            b'"' | b'\\' | b'/' => kind,
                            b'b' => 0x08,
                            b'f' => 0x0C,
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            _ => {
                                // Only the escape sequence is quoted, not the whole string.
                                self.token_start = Some(at);
                                return self.fail_at_end(at, esc, JsonError::EscapingInvalid);
                            }
                        };
                        self.strval.push(decoded);
                    }
                }
                _ => {
                    if hi_surrogate.is_some() {
                        return self.fail_at_end(at, hi_at, JsonError::UnicodeLowSurrogate);
                    }
                    self.strval.push(byte);
                }
            }
        }
        if hi_surrogate.is_some() {
            self.token_terminator = at + 1;
            self.error_at = hi_at;
            return Err(JsonError::UnicodeLowSurrogate);
        }
        self.token_terminator = at + 1;
        Ok(())
    }

    /// The current token's bytes (`extract_token`).
    pub(super) fn token(&self) -> &'a [u8] {
        let start = self.token_start.unwrap_or(self.token_terminator);
        self.input
            .get(start..self.token_terminator)
            .unwrap_or_default()
    }

    /// `report_json_context`: `JSON data, line N: ...excerpt...`.
    pub(super) fn context(&self) -> String {
        let input = self.input;
        let line_start = self.line_start;
        let end = self.token_terminator.min(input.len()).max(line_start);
        let mut start = line_start;
        while end - start >= 50 {
            start += if input[start] >= 0x80 {
                utf8_len(input[start])
            } else {
                1
            };
        }
        if start - line_start <= 3 {
            start = line_start;
        }
        let prefix = if start > line_start { "..." } else { "" };
        let suffix = match input.get(end) {
            Some(b'\n' | b'\r') | None => "",
            Some(_) => "...",
        };
        format!(
            "JSON data, line {}: {prefix}{}{suffix}",
            self.line_number,
            String::from_utf8_lossy(&input[start..end])
        )
    }
}
