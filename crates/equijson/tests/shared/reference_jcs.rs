//! An RFC 8785 writer over a `serde_json::Value`, written from the RFC and ECMA-262 and never
//! calling equijson: the oracle of `tests/properties.rs` and `tests/entry_points.rs`, which
//! include this file by `#[path]`.

#![allow(
    clippy::unwrap_used,
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "test oracle: `u64 as f64` is the correctly rounded conversion it wants; digit counts are small"
)]

use std::fmt::Write as _;

/// RFC 8785 §3.2 over a parsed value: members by UTF-16 code units, strings escaped
/// minimally, numbers as ECMAScript writes the nearest double.
pub(crate) fn reference_value(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            // Every JSON number is a double; `as f64` rounds to nearest, ties to even.
            let f = if let Some(u) = n.as_u64() {
                u as f64
            } else if let Some(i) = n.as_i64() {
                i as f64
            } else {
                n.as_f64().unwrap()
            };
            out.push_str(&ecmascript_number(f));
        }
        Value::String(s) => reference_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference_value(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference_string(k, out);
                out.push(':');
                reference_value(v, out);
            }
            out.push('}');
        }
    }
}

/// RFC 8785 §3.2.2.2.
pub(crate) fn reference_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// ECMA-262 `Number::toString(x)` for a finite double, steps 1-12, from Rust's shortest digits.
#[allow(
    clippy::many_single_char_names,
    reason = "the names of ECMA-262's algorithm: x, s, k, n, e"
)]
#[must_use]
pub(crate) fn ecmascript_number(x: f64) -> String {
    assert!(x.is_finite());
    // Step 2: +0 and -0 are "0".
    if x == 0.0 {
        return "0".to_owned();
    }
    // Step 3: negative numbers are "-" followed by the string of -x.
    if x < 0.0 {
        return format!("-{}", ecmascript_number(-x));
    }
    // Step 5: integers n, k, s with k as small as possible and s × 10^(n−k) reading back as x.
    let (s, exponent) = shortest_digits(x);
    let k = s.len() as i64;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        // Step 6: the k digits followed by n−k zeros.
        format!("{s}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        // Step 7: the first n digits, a point, the remaining k−n digits.
        format!("{}.{}", &s[..n as usize], &s[n as usize..])
    } else if -6 < n && n <= 0 {
        // Step 8: "0." followed by −n zeros and the k digits.
        format!("0.{}{s}", "0".repeat((-n) as usize))
    } else {
        // Steps 9-12: exponential notation with an explicit exponent sign.
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        if k == 1 {
            format!("{s}e{sign}{}", e.abs())
        } else {
            format!("{}.{}e{sign}{}", &s[..1], &s[1..], e.abs())
        }
    }
}

/// The digits `s` and exponent of step 5, with the choice of ECMA-262's Note 2 (what V8 does):
/// of the shortest digit strings that read back as `x`, the closest to `x`, and on a tie the
/// even one. Rust's `{:e}` gives a shortest, closest string, but on an exact tie it rounds
/// up (`1145908650142299.25` gives `...2993`, V8 `...2992`), so ties are settled here from
/// the exact decimal expansion of `x` (a double has at most 767 significant digits).
fn shortest_digits(x: f64) -> (String, i64) {
    let split = |sci: &str| -> (String, i64) {
        let (m, e) = sci.split_once('e').unwrap();
        (
            m.chars().filter(char::is_ascii_digit).collect(),
            e.parse().unwrap(),
        )
    };
    let (mut s, e) = split(&format!("{x:e}"));
    let (exact, exact_e) = split(&format!("{x:.800e}"));
    let k = s.len();
    let halfway =
        exact_e == e && exact.as_bytes()[k] == b'5' && exact[k + 1..].bytes().all(|b| b == b'0');
    if halfway && (s.as_bytes()[k - 1] - b'0') % 2 == 1 {
        // x lies exactly between `lower` and `lower + 1` (k digits each); `s` is one of them.
        let lower = exact[..k].to_owned();
        let other = if s == lower {
            (lower.parse::<u128>().unwrap() + 1).to_string()
        } else {
            lower
        };
        let reads_back =
            |d: &str| format!("{}.{}e{e}", &d[..1], &d[1..]).parse::<f64>().ok() == Some(x);
        if other.len() == k && reads_back(&other) {
            s = other;
        }
    }
    (s, e)
}

/// Marks a number token wrapped as a string by [`value_read_exactly`] (never in real input:
/// it starts with two control characters and a name), and its spelling in JSON text.
const NUMBER_MARK: &str = "\u{1}\u{2}equijson-reference-number:";
const NUMBER_MARK_JSON: &str = r"\u0001\u0002equijson-reference-number:";

/// `serde_json::from_slice::<Value>` with every number read as `str::parse` reads it
/// (correctly rounded), whatever `serde_json`'s number mode: without `float_roundtrip`
/// `serde_json` reads some doubles one unit in the last place off, and the oracle must not.
/// Valid, finite number tokens go to `serde_json` as marked strings and come back as the
/// number `float_roundtrip` would give; anything else is left for `serde_json` to judge.
pub(crate) fn value_read_exactly(text: &[u8]) -> serde_json::Result<serde_json::Value> {
    let mut wrapped = Vec::with_capacity(text.len() + 16);
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&c) = text.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                wrapped.extend_from_slice(&text[start..i.min(text.len())]);
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while text
                    .get(i)
                    .is_some_and(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    i += 1;
                }
                let token = &text[start..i];
                let finite = std::str::from_utf8(token)
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                    .is_some_and(f64::is_finite);
                if is_json_number(token) && finite {
                    wrapped.push(b'"');
                    wrapped.extend_from_slice(NUMBER_MARK_JSON.as_bytes());
                    wrapped.extend_from_slice(token);
                    wrapped.push(b'"');
                } else {
                    wrapped.extend_from_slice(token);
                }
            }
            _ => {
                wrapped.push(b);
                i += 1;
            }
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(&wrapped)?;
    unmark(&mut value);
    Ok(value)
}

/// RFC 8259's number grammar.
fn is_json_number(t: &[u8]) -> bool {
    let digits = |t: &[u8], i: &mut usize| {
        let s = *i;
        while t.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > s
    };
    let mut i = usize::from(t.first() == Some(&b'-'));
    match t.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(t, &mut i);
        }
        _ => return false,
    }
    if t.get(i) == Some(&b'.') {
        i += 1;
        if !digits(t, &mut i) {
            return false;
        }
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(t.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(t, &mut i) {
            return false;
        }
    }
    i == t.len()
}

/// Marked strings back to numbers: integers that fit as `u64`/`i64` exactly (as `serde_json`
/// holds them), others as the correctly rounded double.
fn unmark(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            if let Some(t) = s.strip_prefix(NUMBER_MARK) {
                let n = if let Ok(u) = t.parse::<u64>() {
                    Some(serde_json::Number::from(u))
                } else if let Ok(i) = t.parse::<i64>() {
                    Some(serde_json::Number::from(i))
                } else {
                    t.parse::<f64>().ok().and_then(serde_json::Number::from_f64)
                };
                if let Some(n) = n {
                    *v = Value::Number(n);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unmark),
        Value::Object(map) => map.values_mut().for_each(unmark),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}
