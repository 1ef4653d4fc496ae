//! How the `serde_json` of this build reads numbers, found at run time, and the numbers
//! it reads to another double than the correctly rounded one (`float-misread`).
//!
//! Cargo unifies features across a build: whether `serde_json` rounds doubles correctly
//! (`float_roundtrip`) depends on every crate of the program, not on this one. The decode
//! paths run whatever the build has; [`serde_json_numbers`] says which, so that a report
//! from a default build and one from a `float_roundtrip` build can be told apart. The
//! correctly rounded double of a number is the core parser's ([`equijson::Document`]).

use std::fmt;
use std::sync::OnceLock;

use super::{Class, DecodePath, Finding};
use crate::diff::Change;

/// The probe numbers: shortest forms of doubles that `serde_json` without
/// `float_roundtrip` (1.0.154) reads to a neighbouring double.
pub const PROBES: [&str; 2] = ["15.509858803567319", "122.65352088450729"];

/// The number modes of the `serde_json` linked into this program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SerdeJsonNumbers {
    /// Doubles are read correctly rounded (the `float_roundtrip` feature): every probe
    /// reads as the core parser's double.
    pub float_roundtrip: bool,
    /// `serde_json::Value` keeps a number's text (`arbitrary_precision`).
    pub arbitrary_precision: bool,
    /// `serde_json::Value` objects keep member order (`preserve_order`).
    pub preserve_order: bool,
}

impl SerdeJsonNumbers {
    /// Probes this build's `serde_json` (no caching; see [`serde_json_numbers`]).
    #[must_use]
    pub fn probe() -> Self {
        let float_roundtrip = PROBES.iter().all(|p| misread(p).is_none());
        // Beyond u64, a `Value` without arbitrary_precision holds a double (1e23).
        let big = "100000000000000000000001";
        let arbitrary_precision = serde_json::from_str::<serde_json::Value>(big)
            .and_then(|v| serde_json::to_string(&v))
            .is_ok_and(|t| t == big);
        let preserve_order = serde_json::from_str::<serde_json::Value>(r#"{"b":0,"a":0}"#)
            .is_ok_and(|v| v.to_string().starts_with(r#"{"b""#));
        Self {
            float_roundtrip,
            arbitrary_precision,
            preserve_order,
        }
    }

    /// The mode in one phrase: `default (fast, not correctly rounded)` or
    /// `float_roundtrip (correctly rounded)`, then `, arbitrary_precision`,
    /// `, preserve_order` when those are on.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut s = if self.float_roundtrip {
            "float_roundtrip (correctly rounded)".to_owned()
        } else {
            "default (fast, not correctly rounded)".to_owned()
        };
        if self.arbitrary_precision {
            s.push_str(", arbitrary_precision (Value keeps number text)");
        }
        if self.preserve_order {
            s.push_str(", preserve_order");
        }
        s
    }
}

impl fmt::Display for SerdeJsonNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// The number modes of this build's `serde_json`, probed once.
#[must_use]
pub fn serde_json_numbers() -> SerdeJsonNumbers {
    static MODE: OnceLock<SerdeJsonNumbers> = OnceLock::new();
    *MODE.get_or_init(SerdeJsonNumbers::probe)
}

/// A number `serde_json` reads to another double than the correctly rounded one.
#[derive(Debug, Clone, PartialEq)]
pub struct Misread {
    /// Where, in the decoded value (RFC 6901; `""` is the whole value).
    pub pointer: String,
    /// The number as written in the input.
    pub token: String,
    /// The double `serde_json` read.
    pub read: f64,
    /// The correctly rounded double (the core parser's).
    pub correct: f64,
}

impl Eq for Misread {}

/// The fix, as reports state it.
pub const MISREAD_FIX: &str = "enable serde_json's `float_roundtrip` feature (correctly \
     rounded reading), or read exact quantities such as money into a decimal type";

impl Misread {
    /// One line: `/a: 15.509858803567319 read as 15.50985880356732 (0x…74), correctly
    /// rounded 15.509858803567319 (0x…75)`; redacted: the pointer only.
    #[must_use]
    pub fn describe(&self, redact: bool) -> String {
        let at = match self.pointer.as_str() {
            // Out of range: the path failed, so no value says where.
            "" if self.read.is_infinite() => "a number of the text",
            "" => "(root)",
            p => p,
        };
        if redact {
            return format!("{at}: a number read as another double than the correctly rounded one");
        }
        let read = if self.read.is_finite() {
            format!(
                "read as {} ({:#018x})",
                shortest(self.read),
                self.read.to_bits()
            )
        } else {
            "rejected as out of range".to_owned()
        };
        format!(
            "{at}: {} {read}, correctly rounded {} ({:#018x})",
            self.token,
            shortest(self.correct),
            self.correct.to_bits()
        )
    }
}

fn shortest(f: f64) -> String {
    equijson::format_f64(f).unwrap_or_else(|| f.to_string())
}

/// The doubles `serde_json` and the core parser read `token` (a JSON number) as, when
/// they differ: `(serde_json's, correctly rounded)`. A finite number `serde_json` rejects
/// as out of range (without `float_roundtrip`, PostgreSQL's 309-digit text of
/// `1.7976931348623157e308`) reads as an infinity of its sign.
#[must_use]
pub fn misread(token: &str) -> Option<(f64, f64)> {
    let correct =
        equijson::Document::parse_with(token.as_bytes(), &equijson::Options::comparison())
            .ok()?
            .root()
            .as_f64()?;
    let read = match serde_json::from_str::<f64>(token) {
        Ok(read) => read,
        Err(e) if correct.is_finite() && e.to_string().starts_with(OUT_OF_RANGE) => {
            f64::INFINITY.copysign(correct)
        }
        Err(_) => return None,
    };
    // Zeros compare without their sign: the core reads `-0` as the number zero.
    let zeros = (read.to_bits() << 1) == 0 && (correct.to_bits() << 1) == 0;
    (correct.is_finite() && !zeros && read.to_bits() != correct.to_bits())
        .then_some((read, correct))
}

/// `serde_json`'s message for a number beyond the doubles.
const OUT_OF_RANGE: &str = "number out of range";

/// Value splits and round-trip losses whose changes are numbers a path read to another
/// double than the correctly rounded one: those changes become a [`Class::FloatMisread`]
/// finding (the rest stays as it was).
pub(super) fn split_misreads(
    findings: Vec<Finding>,
    input: &[u8],
    accepted: &dyn Fn(Class, &[DecodePath]) -> bool,
) -> Vec<Finding> {
    let mut numbers = None;
    let mut out = Vec::with_capacity(findings.len());
    for mut f in findings {
        if f.class == Class::ErrorSplit {
            out.push(out_of_range(f, input, &mut numbers, accepted));
            continue;
        }
        if !matches!(f.class, Class::ValueSplit | Class::RoundTripLoss) {
            out.push(f);
            continue;
        }
        let mut misreads = Vec::new();
        let mut misread_paths = Vec::new();
        let mut rest = Vec::new();
        for c in std::mem::take(&mut f.changes) {
            match misread_change(&c, f.class, input, &mut numbers) {
                Some((m, on_old_side)) => {
                    // Round trips: the baseline read it; value splits: the side holding it.
                    let paths = if on_old_side || f.class == Class::RoundTripLoss {
                        &f.paths
                    } else {
                        &f.against
                    };
                    for p in paths {
                        if !misread_paths.contains(p) {
                            misread_paths.push(*p);
                        }
                    }
                    misreads.push(m);
                }
                None => rest.push(c),
            }
        }
        let had_misreads = !misreads.is_empty();
        if had_misreads {
            out.push(Finding {
                class: Class::FloatMisread,
                accepted: accepted(Class::FloatMisread, &misread_paths),
                by_caller: false,
                paths: misread_paths,
                errors: Vec::new(),
                against: Vec::new(),
                changes: Vec::new(),
                misreads,
                at: None,
            });
        }
        if !rest.is_empty() || !had_misreads {
            f.changes = rest;
            out.push(f);
        }
    }
    out.sort_by_key(|f| Class::ALL.iter().position(|c| *c == f.class));
    out
}

/// An error split whose failing paths all reject a number as out of range that has a
/// finite correctly rounded double (in one of its spellings): a float misread of those
/// paths (the pointer is not known: the paths failed).
fn out_of_range(
    f: Finding,
    input: &[u8],
    numbers: &mut Option<Vec<Misreadable>>,
    accepted: &dyn Fn(Class, &[DecodePath]) -> bool,
) -> Finding {
    if !f.errors.iter().all(|(_, m)| m.contains(OUT_OF_RANGE)) {
        return f;
    }
    let numbers = numbers.get_or_insert_with(|| misreadable(input));
    let misreads: Vec<Misread> = numbers
        .iter()
        .filter(|m| m.reads.iter().any(|r| r.is_infinite()))
        .map(|m| Misread {
            pointer: String::new(),
            token: m.token.clone(),
            read: f64::INFINITY.copysign(m.correct),
            correct: m.correct,
        })
        .collect();
    if misreads.is_empty() {
        return f;
    }
    let paths: Vec<DecodePath> = f.errors.iter().map(|(p, _)| *p).collect();
    Finding {
        class: Class::FloatMisread,
        accepted: accepted(Class::FloatMisread, &paths),
        by_caller: false,
        paths,
        errors: f.errors,
        against: Vec::new(),
        changes: Vec::new(),
        misreads,
        at: None,
    }
}

/// A number of the input that `serde_json` misreads in one of the spellings the paths
/// decode: the input's own, its RFC 8785 form, PostgreSQL's jsonb text (`4.57e54` is 55
/// digits there).
struct Misreadable {
    token: String,
    correct: f64,
    /// The doubles `serde_json` reads those spellings as, other than the correct one.
    reads: Vec<f64>,
}

/// The input's number tokens that `serde_json` misreads (strings skipped; no validation:
/// the tokens of a text the paths decoded are valid).
fn misreadable(input: &[u8]) -> Vec<Misreadable> {
    let mut out: Vec<Misreadable> = Vec::new();
    let mut i = 0;
    while let Some(&b) = input.get(i) {
        match b {
            b'"' => {
                i += 1;
                while let Some(&c) = input.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while input
                    .get(i)
                    .is_some_and(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    i += 1;
                }
                let Some(token) = input
                    .get(start..i)
                    .and_then(|t| std::str::from_utf8(t).ok())
                else {
                    continue;
                };
                if out.iter().any(|m| m.token == token) {
                    continue;
                }
                let Some(correct) = equijson::Document::parse_with(
                    token.as_bytes(),
                    &equijson::Options::comparison(),
                )
                .ok()
                .and_then(|d| d.root().as_f64()) else {
                    continue;
                };
                let spellings = [
                    Some(token.to_owned()),
                    equijson::format_f64(correct),
                    crate::jsonb::normalize(
                        token.as_bytes(),
                        &crate::jsonb::JsonbOptions::default(),
                    )
                    .ok(),
                ];
                let mut reads: Vec<f64> = Vec::new();
                for (read, _) in spellings.iter().flatten().filter_map(|s| misread(s)) {
                    if !reads.iter().any(|r| r.to_bits() == read.to_bits()) {
                        reads.push(read);
                    }
                }
                if !reads.is_empty() {
                    out.push(Misreadable {
                        token: token.to_owned(),
                        correct,
                        reads,
                    });
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The misread behind change `c` of a finding of `class`, if it is one, and whether the
/// misread double is on the change's old side: both sides are the correctly rounded double
/// of an input number or doubles `serde_json` reads one of its spellings as, and at least
/// one side is a misread.
fn misread_change(
    c: &Change,
    class: Class,
    input: &[u8],
    numbers: &mut Option<Vec<Misreadable>>,
) -> Option<(Misread, bool)> {
    use equijson::Kind;
    let (old, new) = (c.old.as_ref()?, c.new.as_ref()?);
    if old.kind != Kind::Number || new.kind != Kind::Number {
        return None;
    }
    let (o, n) = (old.text.parse::<f64>().ok()?, new.text.parse::<f64>().ok()?);
    let numbers = numbers.get_or_insert_with(|| misreadable(input));
    numbers.iter().find_map(|m| {
        let is_read = |v: f64| m.reads.iter().any(|r| r.to_bits() == v.to_bits());
        let known = |v: f64| is_read(v) || v.to_bits() == m.correct.to_bits();
        let on_old_side = class == Class::ValueSplit && is_read(o);
        if !(known(o) && known(n) && (is_read(n) || on_old_side)) {
            return None;
        }
        if class == Class::RoundTripLoss && o.to_bits() != m.correct.to_bits() {
            return None;
        }
        let read = if is_read(n) { n } else { o };
        Some((
            Misread {
                pointer: c.pointer.clone(),
                token: m.token.clone(),
                read,
                correct: m.correct,
            },
            on_old_side,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::{PROBES, misread, serde_json_numbers};

    #[test]
    fn probes_misread_exactly_when_the_mode_says_so() {
        let mode = serde_json_numbers();
        for p in PROBES {
            assert_eq!(misread(p).is_some(), !mode.float_roundtrip, "{p}");
        }
        // Short numbers are read exactly in every mode.
        for t in ["0", "-0", "1.5", "59.3326", "1e21", "9007199254740993"] {
            assert_eq!(misread(t), None, "{t}");
        }
    }
}
