//! Escaping of untrusted text (row keys, server messages, names) for human-readable output.
//!
//! A string written by someone else must not be able to forge a line of a report, move
//! the cursor, clear the screen or reorder what a terminal shows. [`escape`] replaces every
//! character that could do so by a visible `\u{..}` escape (the Rust notation): C0 and C1
//! control characters (line feed, carriage return, ESC, NUL ...), DEL, the Unicode line and
//! paragraph separators U+2028 / U+2029, the bidirectional controls (U+061C, U+200E,
//! U+200F, U+202A..U+202E, U+2066..U+2069) and the byte order mark U+FEFF. Everything else
//! is kept as is, so ordinary keys and messages read unchanged.

use std::borrow::Cow;

/// Whether `c` is shown escaped by [`escape`].
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `s` with every character [`is_unsafe`] says could change how a terminal shows the
/// output written as `\u{hex}`; borrowed when there is none.
///
/// ```
/// use equijson::untrusted::escape;
/// assert_eq!(escape("id 7"), "id 7");
/// assert_eq!(escape("7\nverdict: ok\u{1b}[2J"), "7\\u{a}verdict: ok\\u{1b}[2J");
/// ```
#[must_use]
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape`] for text that is multi-line by design (a finding's description): the lines
/// split at `\n` are each escaped (a `\r`, a lone ESC or U+2028 inside a line is escaped),
/// and returned for the caller to indent.
#[must_use]
pub fn escape_lines(s: &str) -> Vec<Cow<'_, str>> {
    s.split('\n').map(escape).collect()
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_lines, is_unsafe};

    #[test]
    fn every_dangerous_character_is_escaped_and_nothing_else() {
        for c in (0u32..0x11_0000).filter_map(char::from_u32) {
            let s = c.to_string();
            let e = escape(&s);
            if is_unsafe(c) {
                assert_eq!(e, format!("\\u{{{:x}}}", u32::from(c)));
                assert!(e.chars().all(|c| c.is_ascii_graphic()), "{e}");
            } else {
                assert_eq!(e, s);
            }
        }
        for c in [
            '\n', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{2028}', '\u{202e}',
        ] {
            assert!(is_unsafe(c), "{c:?}");
        }
    }

    #[test]
    fn lines_are_split_only_at_line_feeds() {
        assert_eq!(escape_lines("a\r\nb\u{2028}c"), ["a\\u{d}", "b\\u{2028}c"]);
    }
}
