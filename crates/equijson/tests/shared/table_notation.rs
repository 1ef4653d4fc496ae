//! The notation of the data tables under `tests/data/` (`errors.tsv`, `canonical.tsv`,
//! `jsonb/*.tsv`, `divergences/cases.tsv`): `\xHH` one raw byte, `\u{H..}` one character,
//! `\R{N}{text}` the text N times.
//!
//! Shared by the core's table tests (`tests/errors.rs`, `tests/jsonb.rs`,
//! `tests/shared_work.rs`, `tests/divergences.rs`), the live jsonb tables
//! (`crates/equijson-pg/tests/jsonb_tables.rs`) and the browser test
//! (`crates/equijson-page/tests/browser.rs`), which include this file by `#[path]`.

/// Decodes the table notation: `\xHH` is one raw byte, `\u{H..}` one character as UTF-8,
/// `\R{N}{text}` is `text` (taken as written) N times; every other byte (including other
/// backslashes, so JSON escapes stay JSON escapes) stands for itself.
pub(crate) fn unescape(field: &str) -> Vec<u8> {
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'x') {
                if let Some(h) = b.get(i + 2..i + 4) {
                    if h.iter().all(u8::is_ascii_hexdigit) {
                        let s = std::str::from_utf8(h).expect("ASCII hex digits");
                        out.push(u8::from_str_radix(s, 16).expect("two hex digits"));
                        i += 4;
                        continue;
                    }
                }
            }
            if b.get(i + 1..i + 3) == Some(b"R{") {
                let bad = || -> ! { panic!("bad \\R{{N}}{{text}} in table field {field:?}") };
                let (count, rest) = field[i + 3..].split_once("}{").unwrap_or_else(|| bad());
                let (text, _) = rest.split_once('}').unwrap_or_else(|| bad());
                let n: usize = count.parse().unwrap_or_else(|_| bad());
                out.extend(text.as_bytes().repeat(n));
                i += 3 + count.len() + 2 + text.len() + 1;
                continue;
            }
            if b.get(i + 1..i + 3) == Some(b"u{") {
                let close = b[i + 3..]
                    .iter()
                    .position(|&c| c == b'}')
                    .unwrap_or_else(|| panic!("unterminated \\u{{ in table field {field:?}"));
                let hex = &field[i + 3..i + 3 + close];
                let c = u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or_else(|| panic!("bad \\u{{{hex}}} in table field {field:?}"));
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                i += 3 + close + 1;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}
