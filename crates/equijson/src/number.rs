//! Numbers: JSON number text to the ECMAScript `Number::toString` form JCS requires.
//!
//! A number is reduced to its significant digits `s` (no leading or trailing
//! zeros, `k` of them) and the exponent `n` with value `0.s × 10^n`, the
//! quantities ECMAScript's algorithm (ECMA-262, `Number::toString`) is stated in.
//! Numbers of at most 15 significant digits inside the normal double range are
//! laid out straight from their digits: any such decimal maps to a distinct
//! double and is that double's shortest representation, so no float needs to
//! be formed. Everything else goes through an exact decimal-to-double parse
//! and the shortest round-trip digits (zmij).

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

fn count_digits(s: &[u8]) -> usize {
    s.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// `s` without trailing `0` digits.
fn trim_zeros(s: &[u8]) -> &[u8] {
    let keep = s.iter().rposition(|&b| b != b'0').map_or(0, |p| p + 1);
    &s[..keep]
}

/// Lengths are bounded by the 4 GiB input limit, far inside `i64`.
fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Exponents are saturated here: far past what any double can reach, small enough not to overflow.
/// (Digit counts alone reach 4·10^9 in a 4 GiB input, so the clamp is far above that.)
const EXP_CLAMP: i64 = 1 << 40;

impl Decimal {
    /// Reads a number that already matches the JSON grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    /// Also accepts the shortest-digits formatter's output, a subset of that grammar.
    /// Finds the part boundaries first, then copies the significant digits in at most two
    /// slices: no per-digit branching on digit values.
    fn read(text: &[u8]) -> Self {
        let neg = text.first() == Some(&b'-');
        let int_start = usize::from(neg);
        let int_end = int_start + count_digits(&text[int_start..]);
        let (frac_start, frac_end) = if text.get(int_end) == Some(&b'.') {
            (
                int_end + 1,
                int_end + 1 + count_digits(&text[int_end + 1..]),
            )
        } else {
            (int_end, int_end)
        };
        let int = &text[int_start..int_end];
        let frac = &text[frac_start..frac_end];
        let mut d = Self {
            neg,
            digits: [0; 17],
            k: 0,
            n: 0,
        };

        // The first significant digit and the exponent of the point relative to it.
        let (head, point): (&[u8], i64) = match int.iter().position(|&b| b != b'0') {
            Some(p) => (&int[p..], to_i64(int.len() - p)),
            None => match frac.iter().position(|&b| b != b'0') {
                Some(p) => (&[], -to_i64(p)),
                None => return d, // zero
            },
        };
        // Digits from the first significant one to the last non-zero one.
        let tail: &[u8] = if head.is_empty() {
            let p = frac.iter().position(|&b| b != b'0').unwrap_or(0);
            trim_zeros(&frac[p..])
        } else {
            trim_zeros(frac)
        };
        let head = if tail.is_empty() {
            trim_zeros(head)
        } else {
            head
        };
        d.k = head.len() + tail.len();
        let h = head.len().min(17);
        d.digits[..h].copy_from_slice(&head[..h]);
        let t = tail.len().min(17 - h);
        d.digits[h..h + t].copy_from_slice(&tail[..t]);

        let mut exp: i64 = 0;
        let mut i = frac_end;
        if let Some(b'e' | b'E') = text.get(i) {
            i += 1;
            let exp_neg = text.get(i) == Some(&b'-');
            if matches!(text.get(i), Some(b'-' | b'+')) {
                i += 1;
            }
            for &b in &text[i..] {
                exp = (exp * 10 + i64::from(b.wrapping_sub(b'0'))).min(EXP_CLAMP);
            }
            if exp_neg {
                exp = -exp;
            }
        }
        d.n = point.saturating_add(exp).clamp(-EXP_CLAMP, EXP_CLAMP);
        d
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
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
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

/// Shortest round-trip digits of a finite, non-zero double.
fn shortest(f: f64) -> Decimal {
    let mut buf = zmij::Buffer::new();
    Decimal::read(buf.format_finite(f).as_bytes())
}

/// Appends the ECMAScript `Number::toString` of a finite double (`-0` is written `0`).
///
/// zmij writes the shortest round-trip digits, in plain notation for magnitudes in
/// [1e-5, 1e16) (integers with a `.0` suffix) and as `d.ddde±x` otherwise. ECMAScript's
/// plain range is [1e-6, 1e21) without `.0`, so the text is used as it is, or with the
/// `.0` cut, except in the two bands where only one of them uses an exponent.
#[allow(
    clippy::many_single_char_names,
    reason = "f, s, e, x, d follow the number's parts"
)]
pub(crate) fn write_f64(f: f64, out: &mut Vec<u8>) {
    debug_assert!(f.is_finite());
    if f == 0.0 {
        out.push(b'0');
        return;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(f).as_bytes();
    // An exponent is at most `e-324`: look for the `e` in the last five bytes only.
    let tail = s.len().saturating_sub(5);
    match s[tail..].iter().position(|&b| b == b'e') {
        None => out.extend_from_slice(s.strip_suffix(b".0").unwrap_or(s)),
        Some(e) => {
            let exp = &s[tail + e + 1..];
            let (neg_exp, digits) = match exp.split_first() {
                Some((b'-', d)) => (true, d),
                Some((b'+', d)) => (false, d),
                _ => (false, exp),
            };
            let magnitude = digits
                .iter()
                .fold(0i64, |a, &b| a * 10 + i64::from(b.wrapping_sub(b'0')));
            let x = if neg_exp { -magnitude } else { magnitude };
            if x <= -7 || x >= 21 {
                out.extend_from_slice(s);
            } else {
                let d = Decimal::read(s);
                layout(d.neg, d.digits(), d.n, out);
            }
        }
    }
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
    /// Write integer literals with all their digits (the decode engine's comparison form).
    pub(crate) exact_integers: bool,
}

/// Appends the canonical (JCS) form of a JSON number `text` (grammar already checked).
///
/// # Errors
/// Overflow to Infinity; `-0` or an inexact number when the policy rejects them.
pub(crate) fn write_canonical(
    text: &str,
    has_exponent: bool,
    policy: NumberPolicy,
    out: &mut Vec<u8>,
) -> Result<(), ErrorKind> {
    // A long plain number (more than 15 digits: `%.17g` output is common) cannot take the
    // digit-layout path below; under the default policy it goes straight to the double.
    if !has_exponent && policy.exact_integers && !text.contains('.') {
        // Comparison form: an integer literal exactly as written (JSON has no leading zeros).
        out.extend_from_slice(if text == "-0" { b"0" } else { text.as_bytes() });
        return Ok(());
    }
    if !has_exponent && text.len() <= 15 && text != "-0" && !text.contains('.') {
        // An integer of at most 15 digits is already in canonical form (JSON forbids
        // leading zeros; ECMAScript writes integers below 10^21 in full).
        out.extend_from_slice(text.as_bytes());
        return Ok(());
    }
    if text.len() > 17 && !has_exponent && policy.inexact == InexactNumbers::Round {
        let f = to_f64(text, 0, false)?;
        return finish(f, text.starts_with('-'), policy, out);
    }
    let d = Decimal::read(text.as_bytes());
    if d.is_zero() {
        return zero(d.neg, policy, out);
    }
    // At most 15 significant digits and a normal-range magnitude: the digits are the
    // shortest representation of their own double, so lay them out directly.
    if d.k <= 15 && (-306..=308).contains(&d.n) {
        layout(d.neg, d.digits(), d.n, out);
        return Ok(());
    }
    let f = to_f64(text, d.n, has_exponent)?;
    if policy.inexact == InexactNumbers::Reject {
        if f == 0.0 {
            return Err(inexact(text, "0"));
        }
        let s = shortest(f.abs());
        if !d.same_magnitude(&s) {
            let mut becomes = Vec::new();
            layout(d.neg, s.digits(), s.n, &mut becomes);
            return Err(inexact(text, &String::from_utf8_lossy(&becomes)));
        }
    }
    finish(f, d.neg, policy, out)
}

fn finish(f: f64, neg: bool, policy: NumberPolicy, out: &mut Vec<u8>) -> Result<(), ErrorKind> {
    if f == 0.0 {
        // Underflow (or a long spelling of zero): ECMAScript reads it as zero.
        return zero(neg, policy, out);
    }
    write_f64(f, out);
    Ok(())
}

/// Zero, after the negative-zero policy.
fn zero(neg: bool, policy: NumberPolicy, out: &mut Vec<u8>) -> Result<(), ErrorKind> {
    if neg && policy.negative_zero == NegativeZero::Reject {
        return Err(ErrorKind::NegativeZero);
    }
    out.push(b'0');
    Ok(())
}

/// The correctly rounded double of a grammar-checked number; errors when it overflows.
/// `n` (the decimal exponent, when known) short-cuts magnitudes no double can hold.
fn to_f64(text: &str, n: i64, has_exponent: bool) -> Result<f64, ErrorKind> {
    // 10^(n-1) <= |value| < 10^n. Beyond 10^309 it is surely Infinity; below 10^-400 surely 0.
    let f = if n > 310 {
        f64::INFINITY
    } else if n < -400 {
        0.0
    } else if has_exponent && exponent_digits(text) > 4 {
        // A huge written exponent balanced by a huge run of digits: std's parser does not
        // read exponents that large, so hand it the same value with a small one.
        reduced(text, n).parse::<f64>().unwrap_or(f64::NAN)
    } else {
        // std's parse is correctly rounded (and accepts every JSON number).
        text.parse::<f64>().unwrap_or(f64::NAN)
    };
    if f.is_infinite() {
        return Err(ErrorKind::NumberOutOfRange);
    }
    if f.is_nan() {
        return Err(ErrorKind::InvalidNumber("not a number"));
    }
    Ok(f)
}

/// Digits in the exponent part of a JSON number (0 without one).
fn exponent_digits(text: &str) -> usize {
    text.find(['e', 'E'])
        .map_or(0, |e| text[e + 1..].trim_start_matches(['+', '-']).len())
}

/// The same value as `0.DIGITS e n` with a small exponent: the first 800 significant
/// digits (more than the 767 a double's correct rounding can need) and, when non-zero
/// digits follow, one sticky `1`.
#[cold]
fn reduced(text: &str, n: i64) -> String {
    let mantissa = &text[..text.find(['e', 'E']).unwrap_or(text.len())];
    let mut out = String::from(if text.starts_with('-') { "-0." } else { "0." });
    let mut digits = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0');
    for b in digits.by_ref().take(800) {
        out.push(char::from(b));
    }
    if digits.any(|b| b != b'0') {
        out.push('1');
    }
    out.push('e');
    out.push_str(&n.to_string());
    out
}

#[cold]
fn inexact(written: &str, becomes: &str) -> ErrorKind {
    let mut w = written.to_owned();
    if w.len() > 64 {
        w.truncate(60); // ASCII: any byte index is a char boundary
        w.push_str("...");
    }
    ErrorKind::InexactNumber {
        written: w,
        becomes: becomes.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        let mut out = Vec::new();
        let p = NumberPolicy {
            negative_zero: NegativeZero::Normalize,
            exact_integers: false,
            inexact: InexactNumbers::Round,
        };
        let has_exponent = text.contains(['e', 'E']);
        write_canonical(text, has_exponent, p, &mut out).unwrap();
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
    fn long_spellings_agree_with_the_double_path() {
        // 17-digit spellings of many doubles, some with a short shortest form, some not.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = match i % 4 {
                0 => f64::from_bits(x),
                1 => f64::from(x as u32) / 1e6,
                2 => f64::from((x % 1_000_000_000) as u32) / 1e7 - 50.0,
                _ => f64::from(x as u16) * 0.1,
            };
            if !f.is_finite() {
                continue;
            }
            for text in [format!("{f:.16e}"), format!("{f:.17e}"), format!("{f:.20}")] {
                let want = format_f64(text.parse().unwrap()).unwrap();
                assert_eq!(canon(&text), want, "{text} ({f:e})");
            }
        }
        assert_eq!(canon("43.420273000000009"), "43.42027300000001");
        assert_eq!(canon("43.420273000000000001"), "43.420273");
        assert_eq!(canon("9.9999999999999995e22"), "1e+23");
    }

    #[test]
    fn huge_exponents_balanced_by_huge_digit_runs() {
        // Regression: std's parser ignores exponents this large and gave Infinity / 0.
        let big = format!("1234567890123456{}e-700000", "0".repeat(700_000));
        assert_eq!(canon(&big), "1234567890123456");
        let small = format!("0.{}1234567890123456e700000", "0".repeat(700_000));
        assert_eq!(canon(&small), "0.1234567890123456");
        // A sticky digit far beyond the 800 kept ones still rounds up a halfway case:
        // 2^53 + 1 is halfway between two doubles; anything above it rounds up.
        let halfway = format!("9007199254740993{}1e-20001", "0".repeat(20_000));
        assert_eq!(canon(&halfway), "9007199254740994");
        let exactly = format!("9007199254740993{}e-20000", "0".repeat(20_000));
        assert_eq!(canon(&exactly), "9007199254740992", "ties go to even");
    }

    #[test]
    fn format_f64_matches_layout() {
        assert_eq!(format_f64(-0.0).as_deref(), Some("0"));
        assert_eq!(format_f64(1e21).as_deref(), Some("1e+21"));
        assert_eq!(format_f64(f64::NAN), None);
    }
}
