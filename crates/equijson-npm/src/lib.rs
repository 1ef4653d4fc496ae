//! The slim WebAssembly binding behind the npm package `equijson`: the RFC 8785 canonicalizer only.
//!
//! The hot path passes only numbers across the boundary. JavaScript asks for an input
//! buffer inside wasm memory ([`input_buffer`]), encodes its string straight into it with
//! `TextEncoder.encodeInto`, calls [`canonicalize`] with the length, and decodes the
//! output in place (`TextDecoder` over a view of wasm memory, [`output_ptr`] and
//! [`output_len`]). The buffers live in one thread-local `State` and are reused, so a
//! document costs no allocation across the boundary and no copy other than the
//! encoding and decoding the strings need anyway. Errors are read back by getters.
//!
//! The package's JavaScript (`npm/src/api.js`) is the only intended caller; nothing here
//! is a public API of its own.

#![forbid(unsafe_code)]

use std::cell::Cell;
use std::fmt::Write as _;

mod transcode;
use transcode::{is_ascii, utf8_to_utf16, utf16_to_utf8};

use equijson::{Canonicalizer, Error, InexactNumbers, NegativeZero, Noncharacters};
use equijson::{Location, Options};
use sha2::{Digest, Sha256};
use wasm_bindgen::prelude::*;

/// Option bit: reject `-0` ([`NegativeZero::Reject`]).
pub const REJECT_NEGATIVE_ZERO: u32 = 1;
/// Option bit: reject numbers a double cannot carry ([`InexactNumbers::Reject`]).
pub const REJECT_INEXACT: u32 = 2;
/// Option bit: reject Unicode noncharacters ([`Noncharacters::Reject`]).
pub const REJECT_NONCHARACTERS: u32 = 4;

/// What one call needs between the JavaScript steps: buffers, the canonicalizer for
/// the current options, and the last error.
struct State {
    canon: Canonicalizer,
    /// The option bits and depth `canon` was built for.
    key: (u32, u32),
    input: Vec<u8>,
    /// A string's UTF-16 code units as Node writes them (`Buffer#write(s, 'utf16le')`, a
    /// plain copy), transcoded here into `input` by [`from_utf16`].
    input16: Vec<u16>,
    output: Vec<u8>,
    /// The output as UTF-16 code units, for strings (`TextDecoder('utf-16le')` and Node's
    /// `Buffer#toString('utf16le')` copy these, much faster than decoding UTF-8).
    output16: Vec<u16>,
    error: Option<Error>,
}

impl State {
    fn new() -> Self {
        Self {
            canon: Canonicalizer::new(options(0, default_depth())),
            key: (0, default_depth()),
            input: Vec::new(),
            input16: Vec::new(),
            output: Vec::new(),
            output16: Vec::new(),
            error: None,
        }
    }

    /// Runs the canonicalizer over the first `len` input bytes; the output (or the
    /// error) is left in the state. `Ok` means success.
    fn run(&mut self, len: u32, flags: u32, max_depth: u32, write: bool) -> bool {
        if self.key != (flags, max_depth) {
            self.canon = Canonicalizer::new(options(flags, max_depth));
            self.key = (flags, max_depth);
        }
        self.output.clear();
        self.error = None;
        let Some(input) = self.input.get(..len as usize) else {
            self.error = Some(internal("input length beyond the input buffer"));
            return false;
        };
        let result = if write {
            self.canon.canonicalize_into(input, &mut self.output)
        } else {
            self.canon.validate(input)
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }
}

thread_local! {
    static STATE: Cell<Option<State>> = const { Cell::new(None) };
}

/// Runs `f` on the state, which is taken out for the call and put back after: if the
/// call traps (an allocation beyond what wasm32 can address aborts), the next call starts
/// from a fresh state instead of finding it half-updated or still borrowed.
fn with_state<T>(f: impl FnOnce(&mut State) -> T) -> T {
    let mut state = take_state();
    let result = f(&mut state);
    put_state(state);
    result
}

// Out of line: one copy of the state's construction and drop glue instead of one per
// exported function (kilobytes of wasm each).
#[inline(never)]
fn take_state() -> State {
    STATE.with(Cell::take).unwrap_or_else(State::new)
}

#[inline(never)]
fn put_state(state: State) {
    STATE.with(|cell| cell.set(Some(state)));
}

fn default_depth() -> u32 {
    u32::try_from(equijson::DEFAULT_MAX_DEPTH).unwrap_or(u32::MAX)
}

fn options(flags: u32, max_depth: u32) -> Options {
    Options::new()
        .max_depth(max_depth as usize)
        .negative_zero(if flags & REJECT_NEGATIVE_ZERO == 0 {
            NegativeZero::Normalize
        } else {
            NegativeZero::Reject
        })
        .inexact_numbers(if flags & REJECT_INEXACT == 0 {
            InexactNumbers::Round
        } else {
            InexactNumbers::Reject
        })
        .noncharacters(if flags & REJECT_NONCHARACTERS == 0 {
            Noncharacters::Allow
        } else {
            Noncharacters::Reject
        })
}

/// An error of the binding itself (a caller bug), reported like any other.
#[cold]
fn internal(msg: &str) -> Error {
    <Error as serde::ser::Error>::custom(msg)
}

/// The WebAssembly memory, for the views JavaScript reads and writes through.
#[wasm_bindgen(js_name = wasmMemory)]
#[must_use]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Makes the input buffer at least `len` bytes long and returns its address. Its
/// content is preserved (a second `encodeInto` pass appends to what the first wrote);
/// the address may change when it grows.
#[wasm_bindgen(js_name = inputBuffer)]
#[must_use]
pub fn input_buffer(len: u32) -> u32 {
    with_state(|s| {
        if s.input.len() < len as usize {
            s.input.resize(len as usize, 0);
        }
        s.input.as_mut_ptr() as usize as u32
    })
}

/// The input buffer's length in bytes (what JavaScript may write at [`input_buffer`]).
#[wasm_bindgen(js_name = inputCapacity)]
#[must_use]
pub fn input_capacity() -> u32 {
    with_state(|s| s.input.len() as u32)
}

/// Address of a buffer for `len` UTF-16 code units (aligned to 2), where JavaScript
/// writes a string's units for [`from_utf16`]; the address may change when it grows.
#[wasm_bindgen(js_name = input16Buffer)]
#[must_use]
pub fn input16_buffer(len: u32) -> u32 {
    with_state(|s| {
        if s.input16.len() < len as usize {
            s.input16.resize(len as usize, 0);
        }
        s.input16.as_mut_ptr() as usize as u32
    })
}

/// Transcodes the first `len` units of the UTF-16 buffer into the input buffer as UTF-8
/// and returns the byte length for [`canonicalize`]; `u32::MAX` when the units hold an
/// unpaired surrogate (JavaScript then reports it with its position) or `len` is beyond
/// the buffer. The input buffer keeps at least `3 * len` bytes (the worst case).
#[wasm_bindgen(js_name = fromUtf16)]
#[must_use]
pub fn from_utf16(len: u32) -> u32 {
    with_state(|s| {
        let Some(src) = s.input16.get(..len as usize) else {
            return u32::MAX;
        };
        let need = src.len().saturating_mul(3);
        if s.input.len() < need {
            s.input.resize(need, 0);
        }
        utf16_to_utf8(src, &mut s.input).map_or(u32::MAX, |n| n as u32)
    })
}

/// Whether the first `len` input bytes hold U+FFFD (`EF BF BD`): what `encodeInto` writes
/// for an unpaired surrogate, so only then does JavaScript check the string itself.
#[wasm_bindgen(js_name = hasReplacement)]
#[must_use]
pub fn has_replacement(len: u32) -> bool {
    with_state(|s| s.input.get(..len as usize).is_some_and(has_fffd))
}

fn has_fffd(bytes: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const FFFD: &[u8] = "\u{FFFD}".as_bytes();
    let mut at = 0;
    // Eight bytes at a time: a SWAR zero-byte test of x ^ 0xEFEF.. finds the chunks that
    // hold an 0xEF (exact for existence); only those are looked at byte by byte.
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk) ^ (LO * 0xEF);
        if x.wrapping_sub(LO) & !x & HI != 0
            && (at..at + 8).any(|i| bytes.get(i..i + 3) == Some(FFFD))
        {
            return true;
        }
        at += 8;
    }
    bytes
        .get(at..)
        .is_some_and(|t| t.windows(3).any(|w| w == FFFD))
}

/// Canonicalizes the first `len` bytes of the input buffer under the given options
/// (`flags` of the `REJECT_*` bits, `max_depth`). `true` on success: the output is at
/// [`output_ptr`] / [`output_len`]; `false`: the error is in the `error_*` getters.
#[wasm_bindgen]
#[must_use]
pub fn canonicalize(len: u32, flags: u32, max_depth: u32) -> bool {
    with_state(|s| s.run(len, flags, max_depth, true))
}

/// Like [`canonicalize`], for a result that becomes a string: 0 on error; 1 when the
/// output is ASCII (read it at [`output_ptr`] as Latin-1, a plain copy for the engine);
/// 2 when it is not, and its UTF-16 code units are at [`output16_ptr`] / [`output16_len`].
#[wasm_bindgen(js_name = canonicalize16)]
#[must_use]
pub fn canonicalize_16(len: u32, flags: u32, max_depth: u32) -> u32 {
    with_state(|s| {
        if !s.run(len, flags, max_depth, true) {
            return 0;
        }
        if is_ascii(&s.output) {
            return 1;
        }
        utf8_to_utf16(&s.output, &mut s.output16);
        2
    })
}

/// Address of the UTF-16 output of the last [`canonicalize_16`] (aligned to 2).
#[wasm_bindgen(js_name = output16Ptr)]
#[must_use]
pub fn output16_ptr() -> u32 {
    with_state(|s| s.output16.as_ptr() as usize as u32)
}

/// Length in code units of the UTF-16 output of the last [`canonicalize_16`].
#[wasm_bindgen(js_name = output16Len)]
#[must_use]
pub fn output16_len() -> u32 {
    with_state(|s| s.output16.len() as u32)
}

/// Like [`canonicalize`] but only validates: no output.
#[wasm_bindgen]
#[must_use]
pub fn validate(len: u32, flags: u32, max_depth: u32) -> bool {
    with_state(|s| s.run(len, flags, max_depth, false))
}

/// Like [`canonicalize`], then replaces the output by the lowercase hex SHA-256 of the
/// canonical bytes (64 ASCII bytes).
#[wasm_bindgen]
#[must_use]
pub fn sha256(len: u32, flags: u32, max_depth: u32) -> bool {
    with_state(|s| {
        if !s.run(len, flags, max_depth, true) {
            return false;
        }
        let digest = Sha256::digest(&s.output);
        s.output.clear();
        let mut hex = String::with_capacity(64);
        for b in digest {
            // Writing to a String cannot fail.
            let _ = write!(hex, "{b:02x}");
        }
        s.output.extend_from_slice(hex.as_bytes());
        true
    })
}

/// Address of the output of the last successful call.
#[wasm_bindgen(js_name = outputPtr)]
#[must_use]
pub fn output_ptr() -> u32 {
    with_state(|s| s.output.as_ptr() as usize as u32)
}

/// Length in bytes of the output of the last successful call.
#[wasm_bindgen(js_name = outputLen)]
#[must_use]
pub fn output_len() -> u32 {
    with_state(|s| s.output.len() as u32)
}

/// Frees the buffers (they are otherwise kept for the next document). WebAssembly
/// memory cannot shrink, but the allocator can reuse what is freed.
#[wasm_bindgen]
pub fn release() {
    with_state(|s| {
        s.input = Vec::new();
        s.input16 = Vec::new();
        s.output = Vec::new();
        s.output16 = Vec::new();
        s.canon = Canonicalizer::new(options(s.key.0, s.key.1));
        s.error = None;
    });
}

/// The last error's kind, [`equijson::ErrorKind::name`] (`"DuplicateKey"`), or `""` when the
/// last call succeeded.
#[wasm_bindgen(js_name = errorKind)]
#[must_use]
pub fn error_kind() -> String {
    with_state(|s| s.error.as_ref().map_or("", |e| e.kind().name()).to_owned())
}

/// The last error's message without its position (`duplicate object key "a"`).
#[wasm_bindgen(js_name = errorMessage)]
#[must_use]
pub fn error_message() -> String {
    with_state(|s| s.error.as_ref().map(Error::message).unwrap_or_default())
}

/// The last error's position: `[offset, line, column]` (byte offset, 1-based line,
/// 1-based column in characters), or empty when it has none.
#[wasm_bindgen(js_name = errorPosition)]
#[must_use]
pub fn error_position() -> Vec<u32> {
    with_state(|s| match s.error.as_ref().and_then(Error::location) {
        Some(&Location::Text {
            offset,
            line,
            column,
        }) => vec![offset as u32, line as u32, column as u32],
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, flags: u32) -> Result<String, (String, String, Vec<u32>)> {
        let ptr = input_buffer(text.len() as u32);
        assert_ne!(ptr, 0);
        with_state(|s| s.input[..text.len()].copy_from_slice(text.as_bytes()));
        if canonicalize(text.len() as u32, flags, default_depth()) {
            Ok(with_state(|s| {
                String::from_utf8(s.output.clone()).unwrap_or_default()
            }))
        } else {
            Err((error_kind(), error_message(), error_position()))
        }
    }

    #[test]
    fn canonicalizes_and_reuses_buffers() {
        assert_eq!(
            run(r#"{"b":1,"a":[1.0]}"#, 0).as_deref(),
            Ok(r#"{"a":[1],"b":1}"#)
        );
        assert_eq!(run("[-0]", 0).as_deref(), Ok("[0]"));
        // The longer input before does not leak into a shorter one.
        assert_eq!(run("1", 0).as_deref(), Ok("1"));
    }

    #[test]
    fn errors_have_kind_message_and_position() {
        let e = run("{\"a\":1,\n \"a\":2}", 0).unwrap_err();
        assert_eq!(e.0, "DuplicateKey");
        assert_eq!(e.1, "duplicate object key \"a\"");
        assert_eq!(e.2, vec![9, 2, 2]);
        assert_eq!(
            run("[-0]", REJECT_NEGATIVE_ZERO).unwrap_err().0,
            "NegativeZero"
        );
        assert_eq!(
            run("9007199254740993", REJECT_INEXACT).unwrap_err().0,
            "InexactNumber"
        );
        assert_eq!(
            run("\"\u{FFFF}\"", REJECT_NONCHARACTERS).unwrap_err().0,
            "Noncharacter"
        );
        // A success clears the error.
        assert!(run("[]", 0).is_ok());
        assert_eq!(error_kind(), "");
    }

    #[test]
    fn length_beyond_the_buffer_is_an_error_not_a_panic() {
        release();
        assert!(!canonicalize(10, 0, default_depth()));
        assert_eq!(error_kind(), "Custom");
    }

    #[test]
    fn from_utf16_fills_the_input_buffer() {
        // Through the exported functions, with the buffers grown and reused.
        let long = "x".repeat(1000);
        for text in ["", "a", "{\"a\":1}", "é€😀x", long.as_str(), "ü"] {
            let units: Vec<u16> = text.encode_utf16().collect();
            let _ = input16_buffer(units.len() as u32);
            with_state(|s| s.input16[..units.len()].copy_from_slice(&units));
            let n = from_utf16(units.len() as u32);
            assert_eq!(
                with_state(|s| s.input[..n as usize].to_vec()),
                text.as_bytes()
            );
        }
        assert_eq!(from_utf16(u32::MAX), u32::MAX);
    }

    #[test]
    fn replacement_characters_are_found_anywhere() {
        assert!(!has_fffd(b""));
        assert!(!has_fffd(
            "\u{FFFC}\u{FFFE}\u{FF01}abc\u{EFBF}".repeat(9).as_bytes()
        ));
        for pad in 0..20 {
            for tail in 0..12 {
                let s = format!("{}\u{FFFD}{}", "x".repeat(pad), "\u{FF01}".repeat(tail));
                assert!(has_fffd(s.as_bytes()), "{pad} {tail}");
                assert!(!has_fffd(s.replace('\u{FFFD}', "\u{FFFE}").as_bytes()));
            }
        }
    }

    #[test]
    fn digest_is_of_the_canonical_bytes() {
        let text = r#"{"b":1,"a":2}"#;
        let _ = input_buffer(text.len() as u32);
        with_state(|s| s.input[..text.len()].copy_from_slice(text.as_bytes()));
        assert!(sha256(text.len() as u32, 0, default_depth()));
        let hex = with_state(|s| String::from_utf8(s.output.clone()).unwrap_or_default());
        // `printf '{"a":2,"b":1}' | sha256sum`
        let want = "d3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772";
        assert_eq!(hex, want);
    }
}
