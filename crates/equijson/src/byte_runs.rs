//! Where a run of plain string bytes ends: eight bytes at a time (SWAR), or sixteen with
//! WebAssembly SIMD when the crate is built for wasm32 with `simd128`; and where a run of
//! whitespace ends.
//!
//! A byte is *plain* inside a JSON string, and in a canonical string literal, unless it is
//! `"`, `\` or below 0x20: those end a run (close the string, start an escape, or are an
//! error / must be escaped). Both versions give the same answer for every input; the tests
//! compare them against a byte-by-byte definition (natively, and in wasm through
//! `just wasm-test-simd`).

/// Whether `b` ends a plain run.
#[inline]
pub(crate) fn is_stop(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The length of the longest prefix of `s` without a stop byte, and whether that prefix
/// holds a byte of 0x80 or more (non-ASCII).
#[inline]
pub(crate) fn plain_prefix(s: &[u8]) -> (usize, bool) {
    let mut i = 0;
    let mut high = false;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    while let Some(chunk) = s.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let (stops, non_ascii) = simd::masks(chunk);
        if stops != 0 {
            let plain = stops.trailing_zeros();
            high |= non_ascii & ((1 << plain) - 1) != 0;
            return (i + plain as usize, high);
        }
        high |= non_ascii != 0;
        i += 16;
    }
    while let Some(chunk) = s.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let stops = stop_mask(x);
        if stops != 0 {
            // The lowest flag is exact: the bytes before it are plain.
            let plain = stops.trailing_zeros() / 8;
            let before = x & ((1u64 << (plain * 8)) - 1);
            high |= before & HI != 0;
            return (i + plain as usize, high);
        }
        high |= x & HI != 0;
        i += 8;
    }
    while let Some(&b) = s.get(i) {
        if is_stop(b) {
            break;
        }
        high |= b >= 0x80;
        i += 1;
    }
    (i, high)
}

/// The length of the run of JSON whitespace (space, `\n`, `\t`, `\r`) at the start of `s`.
/// (Out of line in the SIMD build: the parser calls it from many places, and the wasm must
/// stay small.)
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), inline(never))]
#[cfg_attr(not(all(target_arch = "wasm32", target_feature = "simd128")), inline)]
pub(crate) fn whitespace_run(s: &[u8]) -> usize {
    let mut i = 0;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    while let Some(chunk) = s.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let other = simd::non_whitespace(chunk);
        if other != 0 {
            return i + other.trailing_zeros() as usize;
        }
        i += 16;
    }
    loop {
        // Indentation eight spaces at a time: pretty-printed documents are mostly that.
        while s.get(i..i + 8) == Some(b"        ") {
            i += 8;
        }
        match s.get(i) {
            Some(b' ' | b'\n' | b'\t' | b'\r') => i += 1,
            _ => return i,
        }
    }
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// High bits flagging bytes of `x` that are `"`, `\` or below 0x20 (SWAR). Zero iff there
/// is none; the lowest flag (little-endian: the first byte in the input) is exact, since
/// no borrow reaches it from a lower byte.
#[inline]
fn stop_mask(x: u64) -> u64 {
    let lt20 = x.wrapping_sub(LO * 0x20) & !x;
    let q = x ^ (LO * u64::from(b'"'));
    let bs = x ^ (LO * u64::from(b'\\'));
    let zq = q.wrapping_sub(LO) & !q;
    let zb = bs.wrapping_sub(LO) & !bs;
    (lt20 | zq | zb) & HI
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::{
        u8x16, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_or,
    };

    /// Sixteen bytes as a vector (the lane-wise constructor over consecutive bytes
    /// compiles to one `v128.load`).
    #[inline]
    fn load(c: &[u8; 16]) -> v128 {
        u8x16(
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13],
            c[14], c[15],
        )
    }

    /// Bit i set for byte i when it is not JSON whitespace.
    #[inline]
    pub(super) fn non_whitespace(c: &[u8; 16]) -> u32 {
        let v = load(c);
        let ws = v128_or(
            v128_or(
                u8x16_eq(v, u8x16_splat(b' ')),
                u8x16_eq(v, u8x16_splat(b'\n')),
            ),
            v128_or(
                u8x16_eq(v, u8x16_splat(b'\t')),
                u8x16_eq(v, u8x16_splat(b'\r')),
            ),
        );
        u32::from(!u8x16_bitmask(ws))
    }

    /// Bit i set for byte i: stop bytes, and bytes of 0x80 or more.
    #[inline]
    pub(super) fn masks(c: &[u8; 16]) -> (u32, u32) {
        let v = load(c);
        let stops = v128_or(
            v128_or(
                u8x16_eq(v, u8x16_splat(b'"')),
                u8x16_eq(v, u8x16_splat(b'\\')),
            ),
            u8x16_lt(v, u8x16_splat(0x20)),
        );
        (u32::from(u8x16_bitmask(stops)), u32::from(u8x16_bitmask(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: byte by byte.
    fn reference(s: &[u8]) -> (usize, bool) {
        let n = s.iter().position(|&b| is_stop(b)).unwrap_or(s.len());
        (n, s[..n].iter().any(|&b| b >= 0x80))
    }

    #[test]
    fn whitespace_run_matches_the_byte_by_byte_definition() {
        for b in 0..=255u8 {
            for len in 0..40 {
                for at in 0..=len {
                    for ws in [b' ', b'\n', b'\t', b'\r'] {
                        let mut s = vec![b' '; len];
                        if len > 0 {
                            s[at / 2] = ws;
                        }
                        s.insert(at, b);
                        let want = s
                            .iter()
                            .position(|c| !matches!(c, b' ' | b'\n' | b'\t' | b'\r'))
                            .unwrap_or(s.len());
                        assert_eq!(whitespace_run(&s), want, "{s:x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn plain_prefix_matches_the_byte_by_byte_definition() {
        // Every byte value as the stop candidate, at every position of 0..40 plain bytes,
        // with and without a non-ASCII byte before or after it: covers every lane of the
        // 16- and 8-byte blocks and the tails.
        for b in 0..=255u8 {
            for len in 0..40 {
                for at in 0..=len {
                    for high in [None, Some(0), Some(at / 2), Some(len)] {
                        let mut s = vec![b'a'; len];
                        if let Some(h) = high {
                            if h < len {
                                s[h] = 0xC3;
                            }
                        }
                        s.insert(at, b);
                        assert_eq!(plain_prefix(&s), reference(&s), "{s:x?}");
                    }
                }
            }
        }
    }
}
