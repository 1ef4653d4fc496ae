//! PostgreSQL 15's recursive-descent JSON parser (`pg_parse_json` with `jsonb_in`'s
//! semantic actions), as a loop over an explicit stack.
//!
//! The order of events is PostgreSQL's, because it decides which error wins: a scalar's
//! semantic action (number conversion, string length check) runs only after the *next*
//! token has been lexed; an object key's after the `:` and the first token of its value;
//! a container's stack check before anything inside it is lexed. The conversion of the
//! parsed value into the binary format (with its own stack checks) runs only after the
//! whole text parsed.

use super::lex::{JsonError, Lexer, Tok};
use super::numeric;
use super::tape::{Limit, Tape};
use super::{JsonbError, JsonbOptions};

/// Stack cost of an array / object level while parsing, in 16-byte units
/// (`parse_array` + `parse_array_element`: 144 bytes; `parse_object` +
/// `parse_object_field`: 160 bytes, measured on PostgreSQL 15.18, x86-64).
const ARRAY_COST: u64 = 9;
const OBJECT_COST: u64 = 10;
/// Slack between the parse-time budget and `9 × (max_depth − 1)`, in the same units.
const PARSE_SLACK: u64 = 5;

/// `JSENTRY_OFFLENMASK`: the longest string a jsonb value can hold.
const MAX_STRING_LEN: usize = 0x0FFF_FFFF;

/// A scalar whose semantic action waits for the next token.
#[derive(Clone, Copy)]
enum Pending {
    /// A number token: `token_start..token_end`.
    Number(usize, usize),
    /// A string value (in `Parser::value`), starting at byte `at`.
    String(usize),
    Literal(&'static [u8], usize),
    /// An object key (in `Parser::key`) starting at `at`: checked after the value's first token.
    Key(usize),
}

struct Parser<'a> {
    lex: Lexer<'a>,
    tape: Tape,
    /// Open containers: `true` for an object.
    stack: Vec<bool>,
    /// Parse-time stack use of the open containers.
    cost: u64,
    budget: u64,
    /// Scratch copies of the last string token and the pending key.
    value: Vec<u8>,
    key: Vec<u8>,
    /// Exponents up to `INT_MAX / 2` inclusive (PostgreSQL 16 and later), not below it.
    exponent_limit_inclusive: bool,
}

/// Parses `input` (already checked to be UTF-8 without NUL bytes) into a tape, then runs
/// the checks of the conversion to the binary format; returns the tape and the datum size.
pub(super) fn parse(input: &[u8], options: JsonbOptions) -> Result<(Tape, u64), JsonbError> {
    let max_depth = u64::try_from(options.max_depth).unwrap_or(u64::MAX);
    let mut p = Parser {
        lex: Lexer::new(input),
        tape: Tape::for_input(input.len()),
        stack: Vec::with_capacity(16),
        cost: 0,
        budget: max_depth
            .saturating_sub(1)
            .saturating_mul(ARRAY_COST)
            .saturating_add(PARSE_SLACK),
        value: Vec::with_capacity(64),
        key: Vec::with_capacity(64),
        exponent_limit_inclusive: options.exponent_limit_inclusive(),
    };
    if options.max_depth == 0 {
        p.budget = 0;
    }
    p.run()?;
    let size = p
        .tape
        .convert(options.max_depth.saturating_sub(1))
        .map_err(|limit| JsonbError::limit(limit, None))?;
    Ok((p.tape, size))
}

impl Parser<'_> {
    fn lex(&mut self) -> Result<Tok, JsonbError> {
        self.lex.lex().map_err(|e| self.json_error(e))
    }

    #[cold]
    fn json_error(&self, e: JsonError) -> JsonbError {
        let at = match e {
            JsonError::ExpectedMore => self.lex.input.len(),
            JsonError::EscapingRequired
            | JsonError::EscapingInvalid
            | JsonError::InvalidToken
            | JsonError::UnicodeCodePointZero
            | JsonError::UnicodeEscapeFormat
            | JsonError::UnicodeHighSurrogate
            | JsonError::UnicodeLowSurrogate => self.lex.error_at,
            _ => self.lex.token_start.unwrap_or(self.lex.input.len()),
        };
        JsonbError::json(e, &self.lex, at)
    }

    /// `report_parse_error`: the input ended, or `ctx` names what was expected.
    #[cold]
    fn parse_error(&self, tok: Tok, ctx: JsonError) -> JsonbError {
        if tok == Tok::End || self.lex.token_start.is_none() {
            self.json_error(JsonError::ExpectedMore)
        } else {
            self.json_error(ctx)
        }
    }

    /// Runs a scalar's or key's semantic action (after the next token was lexed).
    fn finish(&mut self, pending: Pending) -> Result<(), JsonbError> {
        let at_limit = |limit: Limit| JsonbError::limit(limit, None);
        match pending {
            Pending::Number(start, end) => {
                let token = &self.lex.input[start..end];
                let inclusive = self.exponent_limit_inclusive;
                self.tape
                    .number(start, |out| numeric::append_numeric(token, inclusive, out))
                    .map_err(|_| JsonbError::numeric_overflow(start))?
                    .map_err(at_limit)?;
            }
            Pending::String(at) => {
                check_string_len(self.value.len(), at)?;
                self.tape.string(&self.value, at).map_err(at_limit)?;
            }
            Pending::Literal(word, at) => self.tape.literal(word, at).map_err(at_limit)?,
            Pending::Key(at) => {
                check_string_len(self.key.len(), at)?;
                self.tape.key(&self.key).map_err(at_limit)?;
            }
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), JsonbError> {
        let mut tok = self.lex()?;
        // Invariant at the top of 'value: `tok` is the lookahead that must start a value.
        'value: loop {
            let start = self.lex.token_start.unwrap_or(self.lex.input.len());
            match tok {
                Tok::ObjectStart | Tok::ArrayStart => {
                    let object = tok == Tok::ObjectStart;
                    if self.cost > self.budget {
                        return Err(JsonbError::stack_depth(start));
                    }
                    self.cost += if object { OBJECT_COST } else { ARRAY_COST };
                    self.stack.push(object);
                    if object {
                        self.tape.begin_object(start);
                    } else {
                        self.tape.begin_array(start);
                    }
                    tok = self.lex()?;
                    if object {
                        match tok {
                            Tok::String => {
                                tok = self.member_key()?;
                                continue 'value;
                            }
                            Tok::ObjectEnd => {}
                            _ => return Err(self.parse_error(tok, JsonError::ExpectedObjectFirst)),
                        }
                    } else if tok != Tok::ArrayEnd {
                        continue 'value;
                    }
                    // An empty container: fall through to closing it below.
                }
                Tok::String | Tok::Number | Tok::True | Tok::False | Tok::Null => {
                    let pending = match tok {
                        Tok::String => {
                            std::mem::swap(&mut self.value, &mut self.lex.strval);
                            Pending::String(start)
                        }
                        Tok::Number => Pending::Number(start, self.lex.token_terminator),
                        Tok::True => Pending::Literal(b"true", start),
                        Tok::False => Pending::Literal(b"false", start),
                        _ => Pending::Literal(b"null", start),
                    };
                    tok = self.lex()?;
                    self.finish(pending)?;
                }
                _ => return Err(self.parse_error(tok, JsonError::ExpectedJson)),
            }
            // A value is complete; `tok` is the token after it.
            loop {
                let Some(&object) = self.stack.last() else {
                    if tok != Tok::End {
                        return Err(self.parse_error(tok, JsonError::ExpectedEnd));
                    }
                    return Ok(());
                };
                let close = if object {
                    Tok::ObjectEnd
                } else {
                    Tok::ArrayEnd
                };
                if tok == Tok::Comma {
                    tok = self.lex()?;
                    if object {
                        if tok != Tok::String {
                            return Err(self.parse_error(tok, JsonError::ExpectedString));
                        }
                        tok = self.member_key()?;
                    }
                    continue 'value;
                }
                if tok != close {
                    let ctx = if object {
                        JsonError::ExpectedObjectNext
                    } else {
                        JsonError::ExpectedArrayNext
                    };
                    return Err(self.parse_error(tok, ctx));
                }
                tok = self.lex()?;
                self.stack.pop();
                self.cost -= if object { OBJECT_COST } else { ARRAY_COST };
                let closed = if object {
                    self.tape.end_object()
                } else {
                    self.tape.end_array()
                };
                closed.map_err(|limit| JsonbError::limit(limit, None))?;
            }
        }
    }

    /// `parse_object_field` up to its value: the lookahead is a string token (the key).
    /// Returns the value's first token, after the key's semantic action.
    fn member_key(&mut self) -> Result<Tok, JsonbError> {
        let at = self.lex.token_start.unwrap_or(0);
        std::mem::swap(&mut self.key, &mut self.lex.strval);
        let tok = self.lex()?;
        if tok != Tok::Colon {
            return Err(self.parse_error(tok, JsonError::ExpectedColon));
        }
        let tok = self.lex()?;
        self.finish(Pending::Key(at))?;
        Ok(tok)
    }
}

/// `checkStringLen`.
fn check_string_len(len: usize, at: usize) -> Result<(), JsonbError> {
    if len > MAX_STRING_LEN {
        return Err(JsonbError::string_too_long(at));
    }
    Ok(())
}
