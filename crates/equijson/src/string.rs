//! Strings: RFC 8785 member-name order (UTF-16 code units) and JCS escaping.

use std::cmp::Ordering;

/// Compares two UTF-8 strings as sequences of UTF-16 code units, the order RFC 8785 sorts
/// member names in.
///
/// UTF-8 byte order is code-point order, which agrees with UTF-16 order except where one
/// side has a supplementary character (U+10000 and up, a surrogate pair `D800..DBFF` in
/// UTF-16) and the other a character in U+E000..U+FFFF at the same place: UTF-16 puts
/// the supplementary character first. So compare bytes, and fix up that one case at the
/// first difference.
#[must_use]
pub fn cmp_utf16(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (Some(&x), Some(&y)) = (a.get(common), b.get(common)) else {
        return a.len().cmp(&b.len());
    };
    // Equal prefixes of valid UTF-8 end on a character boundary unless the difference is in a
    // continuation byte, where both characters share a lead byte and so a length: bytewise is right.
    if is_bmp_high_lead(x) && y >= 0xF0 {
        Ordering::Greater
    } else if x >= 0xF0 && is_bmp_high_lead(y) {
        Ordering::Less
    } else {
        x.cmp(&y)
    }
}

/// Lead byte of a character in U+E000..U+FFFF (`EE` or `EF`). Continuation bytes are
/// `80..BF`, so a differing continuation byte never matches this or `F0..`.
fn is_bmp_high_lead(b: u8) -> bool {
    b == 0xEE || b == 0xEF
}

/// Appends `s` as a JCS string literal: `"` and `\` escaped, `\b \t \n \f \r` by name,
/// other U+0000..U+001F as `\u00xx` (lowercase hex), everything else raw.
pub(crate) fn write_escaped(s: &[u8], out: &mut Vec<u8>) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0A => b"\\n",
            0x0C => b"\\f",
            0x0D => b"\\r",
            0x00..=0x1F => {
                out.extend_from_slice(&s[start..i]);
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xF)],
                ]);
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&s[start..i]);
        out.extend_from_slice(esc);
        start = i + 1;
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

/// Whether `c` is a Unicode noncharacter (U+FDD0..U+FDEF, or the last two code points of a plane).
#[must_use]
pub(crate) fn is_noncharacter(c: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&c) || (c & 0xFFFE) == 0xFFFE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16_cmp(a: &str, b: &str) -> Ordering {
        a.encode_utf16().cmp(b.encode_utf16())
    }

    #[test]
    fn utf16_order_matches_encode_utf16() {
        let samples = [
            "", "a", "b", "ab", "\u{7f}", "\u{80}", "\u{7ff}", "\u{800}", "\u{d7ff}", "\u{e000}",
            "\u{fb33}", "\u{ffff}", "\u{10000}", "\u{1f602}", "\u{10ffff}", "a\u{e000}", "a\u{1f602}",
            "\u{e000}x", "\u{1f602}x", "\u{fffd}",
        ];
        for a in samples {
            for b in samples {
                assert_eq!(cmp_utf16(a.as_bytes(), b.as_bytes()), utf16_cmp(a, b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn escapes_like_jcs() {
        let mut out = Vec::new();
        write_escaped("a\"\\\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}/\u{2028}é".as_bytes(), &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\u{7f}/\u{2028}é\""
        );
    }
}
