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

/// Puts object members (given as indices, increasing in input order) into RFC 8785 order.
///
/// Returns `Ok(true)` when they already were in order (nothing moved), `Ok(false)` when
/// they were sorted, and `Err(index)` for the later occurrence of a duplicate name (the
/// first such in input order).
pub(crate) fn order_members<'k>(
    members: &mut [u32],
    key: impl Fn(u32) -> &'k [u8],
    scratch: &mut Vec<(u64, u32)>,
) -> Result<bool, u32> {
    if members
        .windows(2)
        .all(|w| cmp_utf16(key(w[0]), key(w[1])) == Ordering::Less)
    {
        return Ok(true);
    }
    // Sort on the first eight bytes as an integer while that decides (ASCII prefixes that
    // differ compare like the strings), on the whole names otherwise. Stable: equal names
    // keep input order, so the second of a pair is the duplicate.
    scratch.clear();
    scratch.extend(members.iter().map(|&m| (prefix(key(m)), m)));
    scratch.sort_by(|a, b| {
        if a.0 != b.0 && (a.0 | b.0) & 0x8080_8080_8080_8080 == 0 {
            a.0.cmp(&b.0)
        } else {
            cmp_utf16(key(a.1), key(b.1))
        }
    });
    for (slot, &(_, m)) in members.iter_mut().zip(scratch.iter()) {
        *slot = m;
    }
    match members
        .windows(2)
        .filter(|w| key(w[0]) == key(w[1]))
        .map(|w| w[1])
        .min()
    {
        Some(dup) => Err(dup),
        None => Ok(false),
    }
}

/// The first eight bytes, big-endian, zero-padded.
fn prefix(s: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = s.len().min(8);
    b[..n].copy_from_slice(&s[..n]);
    u64::from_be_bytes(b)
}

/// Lead byte of a character in U+E000..U+FFFF (`EE` or `EF`). Continuation bytes are
/// `80..BF`, so a differing continuation byte never matches this or `F0..`.
fn is_bmp_high_lead(b: u8) -> bool {
    b == 0xEE || b == 0xEF
}

/// Appends `s` as a JCS string literal: `"` and `\` escaped, `\b \t \n \f \r` by name,
/// other U+0000..U+001F as `\u00xx` (lowercase hex), everything else raw.
pub(crate) fn write_escaped(s: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
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
            "",
            "a",
            "b",
            "ab",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
            "\u{d7ff}",
            "\u{e000}",
            "\u{fb33}",
            "\u{ffff}",
            "\u{10000}",
            "\u{1f602}",
            "\u{10ffff}",
            "a\u{e000}",
            "a\u{1f602}",
            "\u{e000}x",
            "\u{1f602}x",
            "\u{fffd}",
        ];
        for a in samples {
            for b in samples {
                assert_eq!(
                    cmp_utf16(a.as_bytes(), b.as_bytes()),
                    utf16_cmp(a, b),
                    "{a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn escapes_like_jcs() {
        let mut out = Vec::new();
        write_escaped(
            "a\"\\\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}/\u{2028}é".as_bytes(),
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\u{7f}/\u{2028}é\""
        );
    }
}
