//! String literals with every escape class, raw non-ASCII, and every string error, at every
//! offset of a run of plain bytes and of the document: the blocks the string scanner works
//! in (8 bytes, 16 with wasm SIMD) see each case in each lane and across block boundaries.
//!
//! Shared by the native test (`tests/strings.rs`) and the wasm32 tests in Node
//! (`crates/equijson-page/tests/node.rs`, with and without `simd128`). The expected output
//! comes from [`jcs_literal`], written here character by character from RFC 8785, not
//! from the core.

use equijson::{ErrorKind, canonicalize};

/// Source escapes and raw characters, with the character each stands for.
const PIECES: &[(&str, &str)] = &[
    ("\\\"", "\""),
    ("\\\\", "\\"),
    ("\\/", "/"),
    ("\\b", "\u{8}"),
    ("\\f", "\u{c}"),
    ("\\n", "\n"),
    ("\\r", "\r"),
    ("\\t", "\t"),
    ("\\u0000", "\u{0}"),
    ("\\u001F", "\u{1f}"),
    ("\\u001f", "\u{1f}"),
    ("\\u0020", " "),
    ("\\u007f", "\u{7f}"),
    ("\\u00e9", "é"),
    ("\\u20AC", "€"),
    ("\\uD83D\\uDE00", "😀"),
    ("/", "/"),
    ("\u{7f}", "\u{7f}"),
    ("é", "é"),
    ("€", "€"),
    ("\u{2028}", "\u{2028}"),
    ("😀", "😀"),
    ("\u{ffff}", "\u{ffff}"),
];

/// The RFC 8785 string literal of `s`, character by character.
pub(crate) fn jcs_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let hex = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(hex[(c as usize) >> 4]));
                out.push(char::from(hex[(c as usize) & 0xF]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Canonicalizes `doc` and compares with `want`, naming the case on failure.
fn expect(doc: &[u8], want: &str) {
    match canonicalize(doc) {
        Ok(got) => assert_eq!(
            String::from_utf8_lossy(&got),
            want,
            "input {:?}",
            String::from_utf8_lossy(doc)
        ),
        Err(e) => panic!("input {:?}: {e}", String::from_utf8_lossy(doc)),
    }
}

/// Checks that `doc` fails with `kind` at byte `offset`.
fn expect_error(doc: &[u8], kind: &ErrorKind, offset: usize) {
    match canonicalize(doc) {
        Ok(out) => panic!(
            "input {:?} gave {:?}, want {kind:?} at {offset}",
            String::from_utf8_lossy(doc),
            String::from_utf8_lossy(&out)
        ),
        Err(e) => {
            assert_eq!(e.kind(), kind, "input {:?}", String::from_utf8_lossy(doc));
            assert_eq!(
                e.location().and_then(|l| match *l {
                    equijson::Location::Text { offset, .. } => Some(offset),
                    _ => None,
                }),
                Some(offset),
                "input {:?}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}

/// Every piece at every offset of 0..`max_len` plain bytes, as a value and as a member
/// name, and the document shifted by 0..3 bytes of whitespace; plus pairs of pieces.
pub(crate) fn check_pieces(max_len: usize) {
    for &(src, text) in PIECES {
        for len in 0..max_len {
            for at in 0..=len {
                let pad: String = (0..len)
                    .map(|i| char::from(b'a' + (i % 26) as u8))
                    .collect();
                let source = format!("{}{src}{}", &pad[..at], &pad[at..]);
                let value = format!("{}{text}{}", &pad[..at], &pad[at..]);
                let lit = jcs_literal(&value);
                for shift in 0..3 {
                    let ws = " ".repeat(shift);
                    expect(
                        format!("{ws}[\"{source}\"]").as_bytes(),
                        &format!("[{lit}]"),
                    );
                }
                expect(
                    format!("{{\"{source}\":\"{source}\"}}").as_bytes(),
                    &format!("{{{lit}:{lit}}}"),
                );
            }
        }
        // Two pieces, so runs between escapes of every length are scanned too.
        for &(src2, text2) in PIECES {
            for gap in [0, 1, 7, 8, 15, 16, 17] {
                let pad = "x".repeat(gap);
                let lit = jcs_literal(&format!("{text}{pad}{text2}"));
                expect(format!("\"{src}{pad}{src2}\"").as_bytes(), &lit);
            }
        }
    }
}

/// String errors at every offset: a raw control character, the end of the input inside a
/// string, invalid UTF-8, an encoded surrogate; each must be reported where it is.
pub(crate) fn check_errors(max_len: usize) {
    for len in 0..max_len {
        for at in 0..=len {
            let pad = "a".repeat(len);
            let (before, after) = pad.split_at(at);
            for ctl in [0x00u8, 0x01, 0x09, 0x0A, 0x1F] {
                let mut doc = format!("[\"{before}").into_bytes();
                let offset = doc.len();
                doc.push(ctl);
                doc.extend_from_slice(format!("{after}\"]").as_bytes());
                expect_error(&doc, &ErrorKind::ControlCharacterInString(ctl), offset);
                // Also after an escape (the slow path) and in a member name.
                let mut doc = format!("[\"\\n{before}").into_bytes();
                let offset = doc.len();
                doc.push(ctl);
                doc.extend_from_slice(format!("{after}\"]").as_bytes());
                expect_error(&doc, &ErrorKind::ControlCharacterInString(ctl), offset);
                let mut doc = format!("{{\"{before}").into_bytes();
                let offset = doc.len();
                doc.push(ctl);
                doc.extend_from_slice(format!("{after}\":1}}").as_bytes());
                expect_error(&doc, &ErrorKind::ControlCharacterInString(ctl), offset);
            }
            // Invalid UTF-8: a lone continuation byte, a truncated sequence, an overlong.
            for bad in [&b"\x80"[..], b"\xE2\x82", b"\xC0\xAF", b"\xFF"] {
                for escaped in [false, true] {
                    let mut doc =
                        format!("[\"{}{before}", if escaped { "\\t" } else { "" }).into_bytes();
                    let offset = doc.len();
                    doc.extend_from_slice(bad);
                    doc.extend_from_slice(format!("{after}\"]").as_bytes());
                    expect_error(&doc, &ErrorKind::InvalidUtf8, offset);
                }
            }
            // Regression: invalid UTF-8 in the run before the first escape of a string.
            for bad in [&b"\x80"[..], b"\xE2\x82", b"\xFF"] {
                for escape in ["\\n", "\\u00e9", "\\\""] {
                    let mut doc = format!("{{\"{before}").into_bytes();
                    let offset = doc.len();
                    doc.extend_from_slice(bad);
                    doc.extend_from_slice(format!("{after}{escape}x\":1}}").as_bytes());
                    expect_error(&doc, &ErrorKind::InvalidUtf8, offset);
                }
            }
            let mut doc = format!("[\"{before}").into_bytes();
            let offset = doc.len();
            doc.extend_from_slice(b"\xED\xA0\x80");
            doc.extend_from_slice(format!("{after}\"]").as_bytes());
            expect_error(&doc, &ErrorKind::LoneSurrogate(0xD800), offset);
        }
        // The input ends inside the string, after `len` plain bytes (and after an escape).
        let pad = "a".repeat(len);
        let doc = format!("[\"{pad}");
        expect_error(
            doc.as_bytes(),
            &ErrorKind::UnexpectedEof {
                expected: "'\"' to close the string",
            },
            doc.len(),
        );
        let doc = format!("[\"\\u00e9{pad}");
        expect_error(
            doc.as_bytes(),
            &ErrorKind::UnexpectedEof {
                expected: "'\"' to close the string",
            },
            doc.len(),
        );
    }
}

/// Whitespace runs of every length and mix between every kind of token (the scanner skips
/// them sixteen bytes at a time with wasm SIMD), and a stray byte right after a run.
pub(crate) fn check_whitespace(max_len: usize) {
    let kinds = [" ", "\n", "\t", "\r", " \n", "\r\n  "];
    for len in 0..max_len {
        for kind in kinds {
            let ws: String = kind.chars().cycle().take(len).collect();
            let doc = format!(
                "{ws}{{{ws}\"a\"{ws}:{ws}[{ws}1{ws},{ws}true{ws}]{ws},{ws}\"b\"{ws}:{ws}null{ws}}}{ws}"
            );
            expect(doc.as_bytes(), "{\"a\":[1,true],\"b\":null}");
            let doc = format!("[1,{ws}#]");
            expect_error(
                doc.as_bytes(),
                &ErrorKind::UnexpectedCharacter {
                    found: '#',
                    expected: "a value",
                },
                3 + ws.len(),
            );
        }
    }
}
