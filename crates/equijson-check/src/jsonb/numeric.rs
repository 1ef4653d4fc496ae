//! PostgreSQL's `numeric_in` followed by `numeric_out`, on JSON number tokens, without floats.
//!
//! `numeric` keeps the exact decimal value and its display scale (`dscale`, the number of
//! digits after the point). `numeric_in` (`set_var_from_str`) counts the written fraction
//! digits, subtracts the exponent (never below zero) and moves the point; `numeric_out`
//! prints plain notation with exactly `dscale` fraction digits. Limits (PostgreSQL 15,
//! `make_result` and `set_var_from_str`), all failing with 22003
//! `value overflows numeric format`:
//! - an exponent of magnitude `INT_MAX / 2` (1,073,741,823) or more, even on zero
//!   (PostgreSQL 16 and later: more than `INT_MAX / 2`, so `0e1073741823` is `0`);
//! - a `dscale` above 16,383 (`NUMERIC_DSCALE_MAX`), even on zero (`0e-16384`);
//! - a base-10000 weight above 32,767: a first significant digit worth 10^131072 or more.

/// `INT_MAX / 2`: exponents at or beyond this (PostgreSQL 16 and later: beyond it) are
/// rejected before anything else.
const EXPONENT_LIMIT: i64 = 1_073_741_823;
/// `NUMERIC_DSCALE_MAX`.
const MAX_DSCALE: i64 = 0x3FFF;
/// Largest decimal weight whose base-10000 weight (`floor(w / 4)`) fits `int16`.
const MAX_DECIMAL_WEIGHT: i64 = 4 * 32_767 + 3;

/// The number would not fit PostgreSQL's `numeric` storage format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Overflow;

/// Appends the `numeric_out` text of a JSON number token that the lexer accepted
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`); returns the size of the stored
/// `numeric` datum (`VARSIZE`), which the jsonb binary format embeds.
///
/// # Errors
/// [`Overflow`] where PostgreSQL raises 22003. `limit_inclusive`: the exponent may be
/// `INT_MAX / 2` itself (PostgreSQL 16 and later).
pub(super) fn append_numeric(
    token: &[u8],
    limit_inclusive: bool,
    out: &mut Vec<u8>,
) -> Result<u32, Overflow> {
    let neg = token.first() == Some(&b'-');
    let body = if neg { &token[1..] } else { token };
    let int_len = body.iter().take_while(|b| b.is_ascii_digit()).count();
    let int = &body[..int_len];
    let mut rest = &body[int_len..];
    let frac: &[u8] = if let Some(after) = rest.strip_prefix(b".") {
        let n = after.iter().take_while(|b| b.is_ascii_digit()).count();
        rest = &after[n..];
        &after[..n]
    } else {
        &[]
    };
    let exponent = match rest.split_first() {
        Some((b'e' | b'E', e)) => parse_exponent(e, limit_inclusive)?,
        _ => 0,
    };
    let frac_len = to_i64(frac.len());
    let dscale = (frac_len - exponent).max(0);
    if dscale > MAX_DSCALE {
        return Err(Overflow);
    }
    // The digits as written, with the point after `point` of them (may lie outside).
    let digits = Digits { int, frac };
    let Some(first) = digits.first_nonzero() else {
        // Zero: weight forced to 0, sign dropped, the scale kept.
        out.push(b'0');
        if dscale > 0 {
            out.push(b'.');
            out.resize(out.len() + dscale as usize, b'0');
        }
        return Ok(datum_size(dscale, 0, 0));
    };
    let point = to_i64(int.len()) + exponent;
    // Decimal weight of the first significant digit (10^weight is its place value).
    let weight = point - 1 - to_i64(first);
    if weight > MAX_DECIMAL_WEIGHT {
        return Err(Overflow);
    }
    // Base-10000 digits from the group of the first significant digit to that of the last.
    let last = digits.last_nonzero().unwrap_or(first);
    let last_weight = point - 1 - to_i64(last);
    let size = datum_size(
        dscale,
        weight.div_euclid(4),
        weight.div_euclid(4) - last_weight.div_euclid(4) + 1,
    );
    if neg {
        out.push(b'-');
    }
    if weight < 0 {
        out.push(b'0');
    } else {
        // Positions first..point, zeros past the written digits.
        for pos in to_i64(first)..point {
            out.push(digits.at(pos));
        }
    }
    if dscale > 0 {
        out.push(b'.');
        for pos in point..point + dscale {
            out.push(digits.at(pos));
        }
    }
    Ok(size)
}

/// `VARSIZE` of a `numeric` as `make_result` builds it: the short header (2 bytes) when
/// `dscale <= 63` and the base-10000 weight is within -64..=63, else the long one (4).
fn datum_size(dscale: i64, weight: i64, ndigits: i64) -> u32 {
    let header = if dscale <= 63 && (-64..=63).contains(&weight) {
        6
    } else {
        8
    };
    u32::try_from(header + 2 * ndigits).unwrap_or(u32::MAX)
}

/// The written mantissa digits, `int` then `frac`, addressed by position.
struct Digits<'a> {
    int: &'a [u8],
    frac: &'a [u8],
}

impl Digits<'_> {
    fn first_nonzero(&self) -> Option<usize> {
        self.int.iter().chain(self.frac).position(|&b| b != b'0')
    }

    fn last_nonzero(&self) -> Option<usize> {
        match self.frac.iter().rposition(|&b| b != b'0') {
            Some(p) => Some(self.int.len() + p),
            None => self.int.iter().rposition(|&b| b != b'0'),
        }
    }

    /// The digit at `pos` (0 = first written digit); `0` outside the written ones.
    fn at(&self, pos: i64) -> u8 {
        let Ok(pos) = usize::try_from(pos) else {
            return b'0';
        };
        if pos < self.int.len() {
            self.int[pos]
        } else {
            self.frac.get(pos - self.int.len()).copied().unwrap_or(b'0')
        }
    }
}

/// `strtol` on the exponent digits, then PostgreSQL's `INT_MAX / 2` bound.
fn parse_exponent(text: &[u8], limit_inclusive: bool) -> Result<i64, Overflow> {
    let (neg, digits) = match text.split_first() {
        Some((b'-', d)) => (true, d),
        Some((b'+', d)) => (false, d),
        _ => (false, text),
    };
    let mut value: i64 = 0;
    for &d in digits {
        value = value * 10 + i64::from(d.wrapping_sub(b'0'));
        if value > EXPONENT_LIMIT || (value == EXPONENT_LIMIT && !limit_inclusive) {
            return Err(Overflow);
        }
    }
    Ok(if neg { -value } else { value })
}

/// Lengths are bounded by the input size, far inside `i64`.
fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(token: &str) -> Result<String, Overflow> {
        let mut out = Vec::new();
        let _size = append_numeric(token.as_bytes(), false, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn scale_is_kept() {
        for (input, want) in [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "0.0"),
            ("1.0", "1.0"),
            ("1e2", "100"),
            ("100e-2", "1.00"),
            ("1e-7", "0.0000001"),
            ("1.5e1", "15"),
            ("1.50e1", "15.0"),
            ("0e-5", "0.00000"),
            ("0.000e3", "0"),
            ("-12.345e1", "-123.45"),
            ("-0.00123", "-0.00123"),
            ("123.456e-5", "0.00123456"),
            ("9e+0", "9"),
        ] {
            assert_eq!(show(input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn datum_sizes() {
        let size = |t: &str| append_numeric(t.as_bytes(), false, &mut Vec::new()).unwrap();
        assert_eq!(size("0"), 6);
        assert_eq!(size("1"), 8);
        assert_eq!(size("12345"), 10);
        assert_eq!(size("10000"), 8);
        assert_eq!(size("1.5"), 10);
        assert_eq!(size("0.0001"), 8);
        assert_eq!(size("1e252"), 8);
        assert_eq!(size("1e256"), 10);
        assert_eq!(size("0.0"), 6);
        assert_eq!(size("0e-64"), 8);
        assert_eq!(size("1e-64"), 10);
    }

    #[test]
    fn limits() {
        assert!(show("1e131071").is_ok());
        assert!(show("99999e131067").is_ok());
        assert_eq!(show("1e131072"), Err(Overflow));
        assert!(show("1e-16383").is_ok());
        assert_eq!(show("1e-16384"), Err(Overflow));
        assert_eq!(show("0e-16384"), Err(Overflow));
        assert_eq!(show("0e1073741822").unwrap(), "0");
        assert_eq!(show("0e1073741823"), Err(Overflow));
        assert_eq!(show("0e-1073741823"), Err(Overflow));
        assert_eq!(show("1e99999999999999999999999999"), Err(Overflow));
    }

    #[test]
    fn exponent_limit_of_sixteen_and_later() {
        let v16 = |t: &str| {
            let mut out = Vec::new();
            append_numeric(t.as_bytes(), true, &mut out).map(|_| String::from_utf8(out).unwrap())
        };
        assert_eq!(v16("0e1073741823").unwrap(), "0");
        assert_eq!(v16("-0.00E+001073741823").unwrap(), "0");
        assert_eq!(v16("0e1073741824"), Err(Overflow));
        assert_eq!(v16("0e-1073741823"), Err(Overflow));
        assert_eq!(v16("1e1073741823"), Err(Overflow));
        assert_eq!(v16("1e99999999999999999999999999"), Err(Overflow));
    }
}
