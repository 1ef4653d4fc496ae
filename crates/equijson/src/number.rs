//! Numbers: JSON number text to the ECMAScript `Number::toString` form JCS requires.
//!
//! A number is reduced to its significant digits `s` (no leading or trailing
//! zeros, `k` of them) and the exponent `n` with value `0.s × 10^n`, the
//! quantities ECMAScript's algorithm (ECMA-262, Number::toString) is stated in.
//! Numbers of at most 15 significant digits inside the normal double range are
//! laid out straight from their digits: any such decimal maps to a distinct
//! double and is that double's shortest representation, so no float needs to
//! be formed. Everything else goes through an exact decimal-to-double parse
//! and Ryū's shortest round-trip digits.

use crate::error::ErrorKind;
use crate::options::{InexactNumbers, NegativeZero};

/// The digits of a decimal: value = `0.digits × 10^n`, no leading/trailing zeros.
struct Decimal {
    neg: bool,
    /// Up to 17 significant digits (ASCII); `k` may exceed what is stored.
    digits: [u8; 17],
    /// Number of significant digits; 0 means the value is zero.
    k: usize,
    /// Decimal exponent in the `0.s × 10^n` convention (saturated far beyond any double).
    n: i64,
}

/// Exponents are saturated here: far past what any double can reach, small enough not to overflow.
const EXP_CLAMP: i64 = 1_000_000_000;

impl Decimal {
    /// Reads a number that already matches the JSON grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    /// Also accepts Ryū's output, which is a subset of that grammar.
    fn read(text: &[u8]) -> Self {
        let mut i = 0;
        let neg = text.first() == Some(&b'-');
        if neg {
            i = 1;
        }
        let int_start = i;
        while i < text.len() && text[i].is_ascii_digit() {
            i += 1;
        }
        let int_end = i;
        let (frac_start, frac_end) = if i < text.len() && text[i] == b'.' {
            i += 1;
            let s = i;
            while i < text.len() && text[i].is_ascii_digit() {
                i += 1;
            }
            (s, i)
        } else {
            (i, i)
        };
        let mut exp: i64 = 0;
        if i < text.len() && (text[i] == b'e' || text[i] == b'E') {
            i += 1;
            let exp_neg = match text.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            for &b in &text[i..] {
                exp = (exp * 10 + i64::from(b - b'0')).min(EXP_CLAMP);
            }
            if exp_neg {
                exp = -exp;
            }
        }

        // Significant digits are the integer digits then the fraction digits.
        let digit_at = |j: usize| -> u8 {
            let int_len = int_end - int_start;
            if j < int_len { text[int_start + j] } else { text[frac_start + (j - int_len)] }
        };
        let total = (int_end - int_start) + (frac_end - frac_start);
        let Some(first) = (0..total).find(|&j| digit_at(j) != b'0') else {
            return Self { neg, digits: [0; 17], k: 0, n: 0 };
        };
        let last = (first..total).rev().find(|&j| digit_at(j) != b'0').unwrap_or(first);
        let k = last - first + 1;
        let mut digits = [0u8; 17];
        for (slot, j) in digits.iter_mut().zip(first..=last) {
            *slot = digit_at(j);
        }
        let int_len = (int_end - int_start) as i64;
        let n = (int_len - first as i64).saturating_add(exp).clamp(-EXP_CLAMP, EXP_CLAMP);
        Self { neg, digits, k, n }
    }

    fn is_zero(&self) -> bool {
        self.k == 0
    }

    fn digits(&self) -> &[u8] {
        &self.digits[..self.k.min(17)]
    }

    /// Same decimal value (sign ignored): same digits and exponent.
    fn same_magnitude(&self, other: &Self) -> bool {
        self.k == other.k && self.k <= 17 && self.n == other.n && self.digits() == other.digits()
    }
}

/// Writes the ECMAScript layout of `0.digits × 10^n` (digits non-empty, n in double range).
fn layout(neg: bool, digits: &[u8], n: i64, out: &mut Vec<u8>) {
    let k = digits.len() as i64;
    if neg {
        out.push(b'-');
    }
    if k <= n && n <= 21 {
        out.extend_from_slice(digits);
        out.resize(out.len() + (n - k) as usize, b'0');
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.extend_from_slice(int);
        out.push(b'.');
        out.extend_from_slice(frac);
    } else if -6 < n && n <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-n) as usize, b'0');
        out.extend_from_slice(digits);
    } else {
        out.push(digits[0]);
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        let e = n - 1;
        out.push(if e < 0 { b'-' } else { b'+' });
        let mut buf = itoa_buf();
        out.extend_from_slice(write_u64(e.unsigned_abs(), &mut buf));
    }
}

fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

/// Decimal digits of `v` in the tail of `buf`.
fn write_u64(mut v: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[i..]
}

/// Shortest round-trip digits of a finite, non-zero double, via Ryū.
fn shortest(f: f64) -> Decimal {
    let mut buf = ryu::Buffer::new();
    Decimal::read(buf.format_finite(f).as_bytes())
}

/// Appends the ECMAScript `Number::toString` of a finite double (`-0` is written `0`).
///
/// NaN and infinities must be excluded by the caller.
pub(crate) fn write_f64(f: f64, out: &mut Vec<u8>) {
    debug_assert!(f.is_finite());
    if f == 0.0 {
        out.push(b'0');
        return;
    }
    let d = shortest(f);
    layout(d.neg, d.digits(), d.n, out);
}

/// The ECMAScript `Number::prototype.toString()` text of a finite double, as JCS writes it.
///
/// Returns `None` for NaN and infinities, which JSON cannot represent.
#[must_use]
pub fn format_f64(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let mut out = Vec::with_capacity(24);
    write_f64(f, &mut out);
    // The layout only ever writes ASCII digits, signs, '.', 'e'.
    String::from_utf8(out).ok()
}

/// How numbers are judged while canonicalizing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NumberPolicy {
    pub(crate) negative_zero: NegativeZero,
    pub(crate) inexact: InexactNumbers,
}

/// Appends the canonical (JCS) form of a JSON number `text` (grammar already checked).
///
/// # Errors
/// Overflow to Infinity; `-0` or an inexact number when the policy rejects them.
pub(crate) fn write_canonical(
    text: &[u8],
    policy: NumberPolicy,
    out: &mut Vec<u8>,
) -> Result<(), ErrorKind> {
    let d = Decimal::read(text);
    if d.is_zero() {
        if d.neg && policy.negative_zero == NegativeZero::Reject {
            return Err(ErrorKind::NegativeZero);
        }
        out.push(b'0');
        return Ok(());
    }
    // At most 15 significant digits and a normal-range magnitude: the digits are the
    // shortest representation of their own double, so lay them out directly.
    if d.k <= 15 && (-306..=308).contains(&d.n) {
        layout(d.neg, d.digits(), d.n, out);
        return Ok(());
    }
    // 10^(n-1) <= |value| < 10^n. Beyond 10^309 it is surely Infinity; below 10^-400 surely 0.
    let f = if d.n > 310 {
        f64::INFINITY
    } else if d.n < -400 {
        0.0
    } else {
        // The grammar was checked, so the text is ASCII; std's parse is exact (correctly rounded).
        std::str::from_utf8(text)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    if f.is_infinite() {
        return Err(ErrorKind::NumberOutOfRange);
    }
    if f.is_nan() {
        return Err(ErrorKind::InvalidNumber("not a number"));
    }
    if f == 0.0 {
        // Underflow: ECMAScript reads it as zero, which loses the value.
        if policy.inexact == InexactNumbers::Reject {
            return Err(inexact(text, b"0"));
        }
        if d.neg && policy.negative_zero == NegativeZero::Reject {
            return Err(ErrorKind::NegativeZero);
        }
        out.push(b'0');
        return Ok(());
    }
    let s = shortest(f.abs());
    if policy.inexact == InexactNumbers::Reject && !d.same_magnitude(&s) {
        let mut becomes = Vec::new();
        layout(d.neg, s.digits(), s.n, &mut becomes);
        return Err(inexact(text, &becomes));
    }
    layout(d.neg, s.digits(), s.n, out);
    Ok(())
}

#[cold]
fn inexact(written: &[u8], becomes: &[u8]) -> ErrorKind {
    let mut w = String::from_utf8_lossy(written).into_owned();
    if w.len() > 64 {
        w.truncate(60);
        w.push_str("...");
    }
    ErrorKind::InexactNumber { written: w, becomes: String::from_utf8_lossy(becomes).into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        let mut out = Vec::new();
        let p = NumberPolicy { negative_zero: NegativeZero::Normalize, inexact: InexactNumbers::Round };
        write_canonical(text.as_bytes(), p, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn layouts_follow_ecmascript() {
        for (input, want) in [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0e-5", "0"),
            ("1", "1"),
            ("56.0", "56"),
            ("4.50", "4.5"),
            ("2e-3", "0.002"),
            ("1E30", "1e+30"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("123456789012345678901", "123456789012345680000"),
            ("0.000001", "0.000001"),
            ("0.0000001", "1e-7"),
            ("-1.5e-7", "-1.5e-7"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("5e-324", "5e-324"),
            ("9007199254740993", "9007199254740992"),
            ("0.1", "0.1"),
            ("100e-2", "1"),
            ("1e-400", "0"),
            ("333333333.33333329", "333333333.3333333"),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    #[test]
    fn format_f64_matches_layout() {
        assert_eq!(format_f64(-0.0).as_deref(), Some("0"));
        assert_eq!(format_f64(1e21).as_deref(), Some("1e+21"));
        assert_eq!(format_f64(f64::NAN), None);
    }
}
