//! UTF-16 to UTF-8 (strings in) and UTF-8 to UTF-16 (strings out), ASCII runs in blocks.
//!
//! Built with `simd128` (the npm build) the ASCII blocks use WebAssembly SIMD; elsewhere the
//! same blocks are done word by word. Both give the same result (tested natively, and in
//! wasm by the npm package's tests, which compare against JavaScript's own conversions).

/// Writes the UTF-8 of `src` at the start of `dst` (at least three bytes per unit) and
/// returns its length; `None` for an unpaired surrogate. Runs of sixteen ASCII units
/// are narrowed at once.
pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    let mut o = 0;
    let mut rest = src;
    loop {
        while let (Some((chunk, tail)), Some(d)) = (
            rest.split_first_chunk::<16>(),
            dst.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<16>),
        ) {
            if !block::narrow_ascii(chunk, d) {
                break;
            }
            o += 16;
            rest = tail;
        }
        // Unit by unit until the next ASCII one (CJK text stays here).
        loop {
            let Some((&u, tail)) = rest.split_first() else {
                return Some(o);
            };
            rest = tail;
            match u {
                0..=0x7F => {
                    *dst.get_mut(o)? = u as u8;
                    o += 1;
                    break;
                }
                0x80..=0x7FF => {
                    dst.get_mut(o..o + 2)?
                        .copy_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
                    o += 2;
                }
                0xD800..=0xDBFF => {
                    let (&v, tail) = rest.split_first()?;
                    if !(0xDC00..=0xDFFF).contains(&v) {
                        return None;
                    }
                    rest = tail;
                    let c = 0x1_0000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(v) - 0xDC00);
                    dst.get_mut(o..o + 4)?.copy_from_slice(&[
                        0xF0 | (c >> 18) as u8,
                        0x80 | ((c >> 12) & 0x3F) as u8,
                        0x80 | ((c >> 6) & 0x3F) as u8,
                        0x80 | (c & 0x3F) as u8,
                    ]);
                    o += 4;
                }
                0xDC00..=0xDFFF => return None,
                _ => {
                    dst.get_mut(o..o + 3)?.copy_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                    o += 3;
                }
            }
        }
    }
}

/// Replaces `dst` by the UTF-16 code units of `src`, which is valid UTF-8 (the canonical
/// writer's output); ASCII runs are widened 16 bytes at a time. A truncated sequence
/// (impossible for valid UTF-8) becomes U+FFFD rather than a panic.
pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut Vec<u16>) {
    dst.clear();
    // UTF-16 never needs more units than UTF-8 has bytes. Written through a slice and a
    // local index (pushing would reload the vector's length around every store).
    dst.resize(src.len(), 0);
    let n = utf8_to_utf16_in(src, dst);
    dst.truncate(n);
}

/// [`utf8_to_utf16`] into `dst` (at least `src.len()` units); returns the units written.
fn utf8_to_utf16_in(src: &[u8], dst: &mut [u16]) -> usize {
    let mut o = 0;
    let mut rest = src;
    loop {
        while let (Some((chunk, tail)), Some(d)) = (
            rest.split_first_chunk::<16>(),
            dst.get_mut(o..).and_then(<[u16]>::first_chunk_mut::<16>),
        ) {
            if !block::widen_ascii(chunk, d) {
                break;
            }
            o += 16;
            rest = tail;
        }
        // Character by character until the next ASCII byte (CJK text stays here).
        loop {
            let (unit, tail, ascii) = match *rest {
                [] => return o,
                [b, ref tail @ ..] if b < 0x80 => (u16::from(b), tail, true),
                [b, c1, c2, ref tail @ ..] if b & 0xF0 == 0xE0 => (
                    (u16::from(b & 0x0F) << 12)
                        | (u16::from(c1 & 0x3F) << 6)
                        | u16::from(c2 & 0x3F),
                    tail,
                    false,
                ),
                [b, c1, ref tail @ ..] if b & 0xE0 == 0xC0 => (
                    (u16::from(b & 0x1F) << 6) | u16::from(c1 & 0x3F),
                    tail,
                    false,
                ),
                [b, c1, c2, c3, ref tail @ ..] if b & 0xF8 == 0xF0 => {
                    let cp = (u32::from(b & 0x07) << 18)
                        | (u32::from(c1 & 0x3F) << 12)
                        | (u32::from(c2 & 0x3F) << 6)
                        | u32::from(c3 & 0x3F);
                    let c = cp.wrapping_sub(0x1_0000);
                    let Some(d) = dst.get_mut(o) else {
                        return o;
                    };
                    *d = 0xD800 | ((c >> 10) & 0x3FF) as u16;
                    o += 1;
                    (0xDC00 | (c & 0x3FF) as u16, tail, false)
                }
                // Not UTF-8 (the canonical writer never makes this): U+FFFD, no panic.
                [_, ref tail @ ..] => (0xFFFD, tail, false),
            };
            let Some(d) = dst.get_mut(o) else {
                return o;
            };
            *d = unit;
            o += 1;
            rest = tail;
            if ascii {
                break;
            }
        }
    }
}

/// Whether every byte is ASCII.
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while let Some((chunk, tail)) = rest.split_first_chunk::<64>() {
        if !block::ascii64(chunk) {
            return false;
        }
        rest = tail;
    }
    rest.is_ascii()
}

/// The blocks with WebAssembly SIMD.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod block {
    use core::arch::wasm32::{
        i64x2_extract_lane, u8x16, u8x16_bitmask, u8x16_shuffle, u16x8, u16x8_extend_high_u8x16,
        u16x8_extend_low_u8x16, u16x8_splat, v128, v128_and, v128_any_true, v128_or,
    };

    // Lane-wise constructors from consecutive elements compile to one `v128.load`, and
    // the stores below of a lane's bytes to `v128.store`/`i64.store`: no `unsafe` needed.
    #[inline]
    fn load8(c: &[u8; 16]) -> v128 {
        u8x16(
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13],
            c[14], c[15],
        )
    }

    #[inline]
    fn load16(c: &[u16; 8]) -> v128 {
        u16x8(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])
    }

    #[inline]
    fn store8(v: v128, d: &mut [u8; 16]) {
        let lo = i64x2_extract_lane::<0>(v) as u64;
        let hi = i64x2_extract_lane::<1>(v) as u64;
        d[..8].copy_from_slice(&lo.to_le_bytes());
        d[8..].copy_from_slice(&hi.to_le_bytes());
    }

    #[inline]
    fn store16(v: v128, d: &mut [u16; 8]) {
        for (k, half) in d.chunks_exact_mut(4).enumerate() {
            let x = if k == 0 {
                i64x2_extract_lane::<0>(v)
            } else {
                i64x2_extract_lane::<1>(v)
            } as u64;
            for (j, u) in half.iter_mut().enumerate() {
                *u = (x >> (16 * j)) as u16;
            }
        }
    }

    /// Narrows sixteen units into `d` when all are ASCII; `false` (and `d` untouched) if not.
    #[inline]
    pub(super) fn narrow_ascii(c: &[u16; 16], d: &mut [u8; 16]) -> bool {
        let (lo, hi) = c.split_at(8);
        let (Ok(lo), Ok(hi)) = (<&[u16; 8]>::try_from(lo), <&[u16; 8]>::try_from(hi)) else {
            return false;
        };
        let (a, b) = (load16(lo), load16(hi));
        if v128_any_true(v128_and(v128_or(a, b), u16x8_splat(0xFF80))) {
            return false;
        }
        // The low byte of each unit.
        let bytes =
            u8x16_shuffle::<0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30>(a, b);
        store8(bytes, d);
        true
    }

    /// Widens sixteen bytes into `d` when all are ASCII; `false` (and `d` untouched) if not.
    #[inline]
    pub(super) fn widen_ascii(c: &[u8; 16], d: &mut [u16; 16]) -> bool {
        let v = load8(c);
        if u8x16_bitmask(v) != 0 {
            return false;
        }
        let (lo, hi) = d.split_at_mut(8);
        let (Ok(lo), Ok(hi)) = (<&mut [u16; 8]>::try_from(lo), <&mut [u16; 8]>::try_from(hi))
        else {
            return false;
        };
        store16(u16x8_extend_low_u8x16(v), lo);
        store16(u16x8_extend_high_u8x16(v), hi);
        true
    }

    /// Whether all 64 bytes are ASCII.
    #[inline]
    pub(super) fn ascii64(c: &[u8; 64]) -> bool {
        let mut acc = u8x16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        for part in c.chunks_exact(16) {
            if let Ok(part) = <&[u8; 16]>::try_from(part) {
                acc = v128_or(acc, load8(part));
            }
        }
        u8x16_bitmask(acc) == 0
    }
}

/// The blocks, portably.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod block {
    /// Narrows sixteen units into `d` when all are ASCII; `false` (and `d` untouched) if not.
    #[inline]
    pub(super) fn narrow_ascii(c: &[u16; 16], d: &mut [u8; 16]) -> bool {
        if c.iter().fold(0, |a, &u| a | u) & 0xFF80 != 0 {
            return false;
        }
        *d = c.map(|u| u as u8);
        true
    }

    /// Widens sixteen bytes into `d` when all are ASCII; `false` (and `d` untouched) if not.
    #[inline]
    pub(super) fn widen_ascii(c: &[u8; 16], d: &mut [u16; 16]) -> bool {
        if c.iter().fold(0, |a, &b| a | b) & 0x80 != 0 {
            return false;
        }
        *d = c.map(u16::from);
        true
    }

    /// Whether all 64 bytes are ASCII.
    #[inline]
    pub(super) fn ascii64(c: &[u8; 64]) -> bool {
        c.is_ascii()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts with characters of every UTF-8 length, and ASCII runs around the blocks.
    fn texts() -> Vec<String> {
        let mut v: Vec<String> = [
            "",
            "a",
            "0123456789abcdef",
            "0123456789abcdefé",
            "é0123456789abcdef0123456789abcdef",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{1f602}\u{10ffff}",
            "日本語のテキスト and ASCII, mixed: \u{1F600}\u{E000}\u{FB33}",
            "abcdefghé€😀ijklmnopqrstuvwxyz0123",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        // One non-ASCII character at every position of 0..70 ASCII bytes, in every length.
        for c in ['\u{7f}', 'é', '€', '😀'] {
            for len in 0..70 {
                for at in 0..=len {
                    let mut s = "x".repeat(len);
                    s.insert(at, c);
                    v.push(s);
                }
            }
        }
        v
    }

    #[test]
    fn utf16_output_is_that_of_std() {
        let mut dst = Vec::new();
        for s in texts() {
            let long = s.repeat(37);
            for t in [s.as_str(), long.as_str()] {
                utf8_to_utf16(t.as_bytes(), &mut dst);
                assert_eq!(dst, t.encode_utf16().collect::<Vec<_>>(), "{t:?}");
                assert_eq!(is_ascii(t.as_bytes()), t.is_ascii(), "{t:?}");
            }
        }
        // Truncated input (not valid UTF-8) gives U+FFFD instead of panicking.
        utf8_to_utf16(b"ab\xE6\x97", &mut dst);
        assert_eq!(dst, [0x61, 0x62, 0xFFFD, 0xFFFD]);
    }

    #[test]
    fn utf16_input_is_transcoded_as_std_does() {
        for text in texts() {
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut dst = vec![0; 3 * units.len()];
            let n = utf16_to_utf8(&units, &mut dst);
            assert_eq!(n.map(|n| &dst[..n]), Some(text.as_bytes()), "{text}");
        }
        // Unpaired surrogates anywhere: high at the end, high before a non-low, low alone,
        // reversed pair, inside and after ASCII runs, at every position of a block.
        let mut lone: Vec<Vec<u16>> = vec![
            vec![0x61, 0xD800],
            vec![0xD800, 0x61],
            vec![0xDC00],
            vec![0xDC00, 0xD800],
            vec![0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xDFFF, 0x61],
            vec![0xD83D, 0xDE00, 0xD83D],
        ];
        for unit in [0xD800, 0xDBFF, 0xDC00, 0xDFFF] {
            for len in 0..40 {
                for at in 0..=len {
                    let mut units = vec![u16::from(b'x'); len];
                    units.insert(at, unit);
                    lone.push(units);
                }
            }
        }
        for units in lone {
            let mut dst = vec![0; 3 * units.len()];
            assert_eq!(utf16_to_utf8(&units, &mut dst), None, "{units:x?}");
        }
    }
}
