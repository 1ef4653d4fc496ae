//! Strings: RFC 8785 member-name order (UTF-16 code units) and JCS escaping.

use std::cmp::Ordering;

use crate::byte_runs::plain_prefix;

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
    let common = common_prefix(a, b);
    let (Some(&x), Some(&y)) = (a.get(common), b.get(common)) else {
        return a.len().cmp(&b.len());
    };
    // Equal prefixes of valid UTF-8 end on a character boundary unless the difference is in a
    // continuation byte, where both characters share a lead byte and so a length: bytewise is right.
    utf16_key(x).cmp(&utf16_key(y))
}

/// Length of the common prefix, eight bytes at a time.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= len && word(&a[i..]) == word(&b[i..]) {
        i += 8;
    }
    while i < len && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The first eight bytes of `s` (`s.len() >= 8`) as one integer.
#[inline]
fn word(s: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, &c) in w.iter_mut().zip(s) {
        *d = c;
    }
    u64::from_ne_bytes(w)
}

/// A byte with UTF-8 order turned into UTF-16 order: the lead bytes of U+E000..U+FFFF
/// (`EE`, `EF`) move above the supplementary-plane leads (`F0..F4`), to `F5`, `F6` (bytes
/// valid UTF-8 never holds). `EE`/`EF` are never continuation bytes, so every byte can be
/// mapped alike; a continuation byte only differs when both lead bytes are equal.
#[inline]
fn utf16_key(b: u8) -> u8 {
    if b & 0xFE == 0xEE { b + 7 } else { b }
}

/// Puts object members (given as indices, increasing in input order) into RFC 8785 order.
///
/// Returns `Ok(true)` when they already were in order (nothing moved), `Ok(false)` when
/// they were sorted, and `Err(index)` for the later occurrence of a duplicate name (the
/// first such in input order).
pub(crate) fn order_members<'k>(
    members: &mut [u32],
    key: impl Fn(u32) -> &'k [u8],
    scratch: &mut Vec<(u128, u32)>,
) -> Result<bool, u32> {
    if members
        .windows(2)
        .all(|w| cmp_utf16(key(w[0]), key(w[1])) == Ordering::Less)
    {
        return Ok(true);
    }
    if members.len() <= SMALL_OBJECT {
        // Few members: comparing the names directly is cheaper than building keys.
        members.sort_by(|&a, &b| cmp_utf16(key(a), key(b)));
        return match members
            .windows(2)
            .filter(|w| key(w[0]) == key(w[1]))
            .map(|w| w[1])
            .min()
        {
            Some(dup) => Err(dup),
            None => Ok(false),
        };
    }
    // Sort on a precomputed key: the first sixteen bytes, mapped to UTF-16 order (see
    // `utf16_key`), as an integer. Where those differ they decide, for any names, ASCII or
    // not, without touching the names; on a tie the rest of the names decides. Stable:
    // equal names keep input order, so the second of a pair is the duplicate.
    scratch.clear();
    scratch.extend(members.iter().map(|&m| (prefix(key(m)), m)));
    let tie = |a: &(u128, u32), b: &(u128, u32)| {
        let (x, y) = (key(a.1), key(b.1));
        if x.len() >= PREFIX && y.len() >= PREFIX {
            cmp_utf16(&x[PREFIX..], &y[PREFIX..])
        } else {
            cmp_utf16(x, y)
        }
    };
    scratch.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| tie(a, b)));
    // Neighbours with equal keys are the only candidates for duplicates.
    let dup = scratch
        .windows(2)
        .filter(|w| w[0].0 == w[1].0 && tie(&w[0], &w[1]) == Ordering::Equal)
        .map(|w| w[1].1)
        .min();
    for (slot, &(_, m)) in members.iter_mut().zip(scratch.iter()) {
        *slot = m;
    }
    match dup {
        Some(dup) => Err(dup),
        None => Ok(false),
    }
}

/// Objects with at most this many members are sorted without precomputed keys.
const SMALL_OBJECT: usize = 16;

/// Bytes of a name in its precomputed sort key.
const PREFIX: usize = 16;

/// The first [`PREFIX`] bytes in UTF-16 order (`utf16_key`), big-endian, zero-padded:
/// where two prefixes differ, they order their names as RFC 8785 does.
#[inline]
fn prefix(s: &[u8]) -> u128 {
    let mut b = [0u8; PREFIX];
    for (d, &c) in b.iter_mut().zip(s) {
        *d = utf16_key(c);
    }
    u128::from_be_bytes(b)
}

/// Appends `s` as a JCS string literal: `"` and `\` escaped, `\b \t \n \f \r` by name,
/// other U+0000..U+001F as `\u00xx` (lowercase hex), everything else raw.
pub(crate) fn write_escaped(s: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut rest = s;
    loop {
        // Raw up to the next byte to escape.
        let (plain, _) = plain_prefix(rest);
        let (raw, tail) = rest.split_at(plain);
        out.extend_from_slice(raw);
        let Some((&b, tail)) = tail.split_first() else {
            break;
        };
        rest = tail;
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0A => b"\\n",
            0x0C => b"\\f",
            0x0D => b"\\r",
            _ => &[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ],
        };
        out.extend_from_slice(esc);
    }
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
    fn order_members_sorts_like_encode_utf16() {
        // Names built from characters of every UTF-8 length and both sides of the
        // UTF-16/UTF-8 disagreement, long enough to tie on the 8-byte prefix.
        let alphabet = [
            "a",
            "b",
            "\u{0}",
            "\u{7f}",
            "é",
            "\u{7ff}",
            "\u{800}",
            "中",
            "\u{d7ff}",
            "\u{e000}",
            "\u{fb33}",
            "\u{ffff}",
            "\u{10000}",
            "😂",
            "\u{10ffff}",
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut scratch = Vec::new();
        for _ in 0..2000 {
            let count = 1 + next(40);
            let mut names: Vec<String> = Vec::new();
            let shared: String = (0..next(10))
                .map(|_| alphabet[next(alphabet.len())])
                .collect();
            while names.len() < count {
                let tail: String = (0..next(4))
                    .map(|_| alphabet[next(alphabet.len())])
                    .collect();
                let name = format!("{shared}{tail}");
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            let mut order: Vec<u32> = (0..names.len() as u32).collect();
            let r = order_members(&mut order, |i| names[i as usize].as_bytes(), &mut scratch);
            assert!(r.is_ok());
            let got: Vec<&str> = order.iter().map(|&i| names[i as usize].as_str()).collect();
            let mut want: Vec<&str> = names.iter().map(String::as_str).collect();
            want.sort_by(|a, b| utf16_cmp(a, b));
            assert_eq!(got, want);
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
