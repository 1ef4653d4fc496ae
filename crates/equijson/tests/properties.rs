//! Property tests (quickcheck) of `equijson::canonicalize`.
//!
//! A generated [`Val`] is a JSON document with unique member names, rich in the cases
//! RFC 8785 gets wrong most often: supplementary-plane names next to U+E000..U+FFFF
//! names, names sharing a prefix, escapes of every kind, `-0`, subnormals, 2^53 ± 1,
//! extreme exponents and many spellings of one number. It is rendered to text in
//! randomly different ways (whitespace, escaping, member order, number spelling).
//!
//! Properties:
//! - a. idempotence: `canonicalize(canonicalize(x)) == canonicalize(x)`;
//! - b. two renderings of one document canonicalize to the same bytes;
//! - c. agreement with [`reference`], a deliberately simple canonicalizer written here
//!   from RFC 8785 and ECMA-262 over a `serde_json::Value` (it never calls equijson),
//!   and with `to_canonical_vec` of that `Value`;
//! - d. no panic on arbitrary bytes and on mutated documents; errors are well located;
//!   and equijson and `serde_json` agree on what is valid, except for duplicate names.
//!
//! 2,000 cases per property by default; `QUICKCHECK_TESTS=N` overrides (and
//! `QUICKCHECK_GENERATOR_SIZE` the length of arbitrary byte strings).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "test code: quickcheck passes cases by value; `u64 as f64` is the correctly rounded conversion the reference wants"
)]

use std::fmt;
use std::fmt::Write as _;

use equijson::ErrorKind;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

// ---- configuration -----------------------------------------------------------------------------

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn tests() -> u64 {
    env_number("QUICKCHECK_TESTS", 2000)
}

thread_local! {
    /// Property evaluations on this thread, to prove the configured number of cases ran.
    static CASES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_case() {
    CASES.with(|c| c.set(c.get() + 1));
}

/// Runs `prop` on `tests()` cases and checks that they really ran.
fn check<A: Arbitrary + fmt::Debug>(prop: fn(A) -> TestResult) {
    let tests = tests();
    let size = env_number("QUICKCHECK_GENERATOR_SIZE", 100) as usize;
    CASES.with(|c| c.set(0));
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests.saturating_mul(10))
        .rng(Gen::new(size))
        .quickcheck(prop);
    let ran = CASES.with(std::cell::Cell::get);
    assert!(ran >= tests, "only {ran} of {tests} cases ran");
}

// ---- a small seeded RNG, so a rendering is reproducible from its seed --------------------------

#[path = "shared/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

// ---- the document model ----------------------------------------------------------------------

/// A decimal `(-1)^neg × digits × 10^exp`; `digits` has no leading zeros ("0" for zero).
#[derive(Clone, PartialEq, Eq)]
struct Decimal {
    neg: bool,
    digits: String,
    exp: i32,
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}e{}",
            if self.neg { "-" } else { "" },
            self.digits,
            self.exp
        )
    }
}

impl Decimal {
    /// Reads JSON number text.
    fn parse(text: &str) -> Self {
        let (neg, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (
                &rest[..i],
                rest[i + 1..]
                    .trim_start_matches('+')
                    .parse::<i32>()
                    .unwrap(),
            ),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all = format!("{int}{frac}");
        let significant = all.trim_start_matches('0');
        if significant.is_empty() {
            return Self {
                neg,
                digits: "0".to_owned(),
                exp: 0,
            };
        }
        // Normal form: no trailing zeros either, so equal values compare equal.
        let digits = significant.trim_end_matches('0');
        let exp = exp - frac.len() as i32 + (significant.len() - digits.len()) as i32;
        Self {
            neg,
            digits: digits.to_owned(),
            exp,
        }
    }

    fn is_zero(&self) -> bool {
        self.digits == "0"
    }

    /// One of several JSON spellings of exactly this decimal value.
    fn spell(&self, r: &mut Rng) -> String {
        let mut s = String::new();
        if self.neg {
            s.push('-');
        }
        let e_char = if r.chance(50) { 'e' } else { 'E' };
        let write_exp = |s: &mut String, r: &mut Rng, e: i32| {
            s.push(e_char);
            if e < 0 {
                s.push('-');
            } else if r.chance(40) {
                s.push('+');
            }
            if r.chance(10) {
                s.push_str("00");
            }
            let _ = write!(s, "{}", e.unsigned_abs());
        };
        if self.is_zero() {
            s.push('0');
            if r.chance(40) {
                s.push('.');
                s.push_str(&"0".repeat(1 + r.below(4)));
            }
            if r.chance(40) {
                let e = r.range_i32(-400, 400);
                write_exp(&mut s, r, e);
            }
            return s;
        }
        let d = &self.digits;
        let len = d.len() as i32;
        match r.below(6) {
            // 123e-2
            0 => {
                s.push_str(d);
                if self.exp != 0 || r.chance(30) {
                    write_exp(&mut s, r, self.exp);
                }
            }
            // 1.23e0
            1 => {
                s.push_str(&d[..1]);
                if len > 1 {
                    s.push('.');
                    s.push_str(&d[1..]);
                }
                write_exp(&mut s, r, self.exp + len - 1);
            }
            // 0.123e1, 0.000123e4
            2 => {
                let zeros = r.below(4);
                s.push_str("0.");
                s.push_str(&"0".repeat(zeros));
                s.push_str(d);
                write_exp(&mut s, r, self.exp + len + zeros as i32);
            }
            // 12300e-4
            3 => {
                let zeros = 1 + r.below(5);
                s.push_str(d);
                s.push_str(&"0".repeat(zeros));
                write_exp(&mut s, r, self.exp - zeros as i32);
            }
            // plain positional notation, maybe with trailing fraction zeros: 1.2300
            _ if (-60..=60).contains(&self.exp) => {
                let point = len + self.exp; // digits before the decimal point
                if point <= 0 {
                    s.push_str("0.");
                    s.push_str(&"0".repeat((-point) as usize));
                    s.push_str(d);
                } else if point >= len {
                    s.push_str(d);
                    s.push_str(&"0".repeat((point - len) as usize));
                } else {
                    s.push_str(&d[..point as usize]);
                    s.push('.');
                    s.push_str(&d[point as usize..]);
                }
                if r.chance(30) {
                    if !s.contains('.') {
                        s.push('.');
                    }
                    s.push_str(&"0".repeat(1 + r.below(3)));
                }
            }
            _ => {
                s.push_str(d);
                write_exp(&mut s, r, self.exp);
            }
        }
        s
    }
}

/// A JSON value; object members have unique names.
#[derive(Clone)]
enum Val {
    Null,
    Bool(bool),
    Num(Decimal),
    Str(String),
    Arr(Vec<Val>),
    Obj(Vec<(String, Val)>),
}

impl fmt::Debug for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Num(d) => write!(f, "{d:?}"),
            Self::Str(s) => write!(f, "{s:?}"),
            Self::Arr(a) => f.debug_list().entries(a).finish(),
            Self::Obj(m) => f
                .debug_map()
                .entries(m.iter().map(|(k, v)| (k, v)))
                .finish(),
        }
    }
}

// ---- generation ----------------------------------------------------------------------------------

/// Characters for names and strings: every escape class and the UTF-16 ordering hot spots.
const SPECIAL_CHARS: &[char] = &[
    '"',
    '\\',
    '/',
    '\u{0}',
    '\u{8}',
    '\t',
    '\n',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1f}',
    '\u{7f}',
    ' ',
    'é',
    '\u{80}',
    '\u{7ff}',
    '\u{800}',
    '\u{2028}',
    '\u{2029}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{e001}',
    '\u{fb33}',
    '\u{feff}',
    '\u{fdd0}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{10000}',
    '\u{1f600}',
    '\u{1f602}',
    '\u{1f64f}',
    '\u{1d11e}',
    '\u{10fffd}',
    '\u{10ffff}',
];
const PLAIN_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_-";
/// Name prefixes, so names often differ only after a common prefix.
const KEY_PREFIXES: &[&str] = &[
    "",
    "",
    "k",
    "key",
    "a\u{e000}",
    "\u{1f600}",
    "\u{fb33}",
    "id",
    "\u{10000}x",
];

fn gen_char(r: &mut Rng) -> char {
    if r.chance(45) {
        r.pick(SPECIAL_CHARS)
    } else {
        char::from(r.pick(PLAIN_CHARS))
    }
}

fn gen_string(r: &mut Rng, max: usize) -> String {
    (0..r.below(max + 1)).map(|_| gen_char(r)).collect()
}

fn gen_key(r: &mut Rng) -> String {
    let mut k = (r.pick(KEY_PREFIXES)).to_owned();
    for _ in 0..r.below(3) {
        k.push(gen_char(r));
    }
    k
}

/// Numbers that matter for JCS; each is re-spelled at render time.
const NUMBER_POOL: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "10",
    "100",
    "0.1",
    "0.2",
    "0.3",
    "0.5",
    "1.5",
    "4.50",
    "2e-3",
    "1E30",
    "56.0",
    "5e-324",
    "-5e-324",
    "1e-320",
    "2.2250738585072009e-308",
    "2.2250738585072014e-308",
    "2.2250738585072011e-308",
    "4.9406564584124654e-324",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "1e308",
    "1.7976931348623157e308",
    "-1.7976931348623157e308",
    "1e21",
    "1e20",
    "999999999999999999999",
    "1e-7",
    "1e-6",
    "0.000001",
    "0.0000001",
    "1e23",
    "123456789012345678901234567890",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "9223372036854775807",
    "3.141592653589793238",
    "333333333.33333329",
    "0.30000000000000004",
    "295147905179352825856",
    "1e-400",
    "-1e-400",
    "4.35",
    "0.1e1",
    "10e-1",
];

fn gen_number(r: &mut Rng) -> Decimal {
    loop {
        let text = gen_number_text(r);
        // Keep to finite doubles: overflow is an error, tested elsewhere.
        if text.parse::<f64>().is_ok_and(f64::is_finite) {
            return Decimal::parse(&text);
        }
    }
}

fn gen_number_text(r: &mut Rng) -> String {
    match r.below(8) {
        // Exact ties: in [2^50, 2^51) doubles are 0.25 apart, so N + 0.25 (and N + 0.75) lies
        // exactly between two shortest 17-digit spellings; ECMAScript takes the even one.
        7 => {
            let n = (1u64 << 50) + (r.next() >> 14);
            let frac = if r.chance(50) { ".25" } else { ".75" };
            format!("{}{n}{frac}", if r.chance(30) { "-" } else { "" })
        }
        0 | 1 => (r.pick(NUMBER_POOL)).to_owned(),
        // Any finite double, by its shortest digits or by 17..=30 correctly rounded digits
        // (a different decimal that rounds to the same double).
        2 => {
            let f = loop {
                let f = f64::from_bits(r.next());
                if f.is_finite() {
                    break f;
                }
            };
            if r.chance(50) {
                format!("{f:e}")
            } else {
                format!("{f:.*e}", 16 + r.below(14))
            }
        }
        // Subnormals.
        3 => {
            let f = f64::from_bits(r.next() & 0x800F_FFFF_FFFF_FFFF);
            format!("{f:e}")
        }
        // Up to 15 significant digits, moderate exponent.
        4 => {
            let digits: String = (0..=r.below(15))
                .map(|_| char::from(b'0' + r.below(10) as u8))
                .collect();
            format!(
                "{}{digits}e{}",
                if r.chance(30) { "-" } else { "" },
                r.range_i32(-30, 30)
            )
        }
        // Integers, often near 2^53 or 2^64.
        5 => {
            let base: i128 = r.pick(&[0, 1 << 53, 1 << 63, 1 << 64, 10_i128.pow(21)]);
            let n = base + i128::from(r.range_i32(-3, 3)) * i128::from(1 + r.below(3) as i32);
            let n = if r.chance(30) { -n } else { n };
            n.to_string()
        }
        // Around the ECMAScript layout boundaries (1e21, 1e-7, 1e-6) and near Number.MAX_VALUE.
        _ => {
            let digits: String = (0..=r.below(17))
                .map(|_| char::from(b'1' + r.below(9) as u8))
                .collect();
            let e = r.pick(&[-7, -6, -5, 0, 20, 21, 22, 307, 308, -308, -323]);
            if digits.len() == 1 {
                format!("{digits}e{e}")
            } else {
                format!("{}.{}e{e}", &digits[..1], &digits[1..])
            }
        }
    }
}

fn gen_val(r: &mut Rng, depth: usize) -> Val {
    let choice = if depth == 0 { r.below(4) } else { r.below(7) };
    match choice {
        0 => {
            if r.chance(50) {
                Val::Null
            } else {
                Val::Bool(r.chance(50))
            }
        }
        1 | 2 => Val::Num(gen_number(r)),
        3 => Val::Str(gen_string(r, 8)),
        4 => Val::Arr((0..r.below(6)).map(|_| gen_val(r, depth - 1)).collect()),
        _ => {
            let mut members: Vec<(String, Val)> = Vec::new();
            for _ in 0..r.below(8) {
                let k = gen_key(r);
                // Unique names (compared as the unescaped text they are).
                if members.iter().all(|(m, _)| *m != k) {
                    members.push((k, gen_val(r, depth - 1)));
                }
            }
            Val::Obj(members)
        }
    }
}

// ---- rendering ------------------------------------------------------------------------------------

fn ws(r: &mut Rng, out: &mut String) {
    if r.chance(35) {
        for _ in 0..=r.below(2) {
            let w: &str = r.pick::<&str>(&[" ", "\n", "\t", "\r\n", "  ", "\r"]);
            out.push_str(w);
        }
    }
}

fn hex4(r: &mut Rng, out: &mut String, unit: u16) {
    if r.chance(50) {
        let _ = write!(out, "\\u{unit:04x}");
    } else {
        let _ = write!(out, "\\u{unit:04X}");
    }
}

fn render_string(r: &mut Rng, s: &str, out: &mut String) {
    out.push('"');
    // Sometimes write the whole string raw where allowed, sometimes escape heavily.
    let escape_rate = r.pick(&[0, 10, 30, 80]);
    for c in s.chars() {
        let must = c == '"' || c == '\\' || c < ' ';
        if !must && !r.chance(escape_rate) {
            out.push(c);
            continue;
        }
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        match short {
            Some(e) if r.chance(60) => out.push_str(e),
            _ => {
                let mut units = [0u16; 2];
                for &u in c.encode_utf16(&mut units).iter() {
                    hex4(r, out, u);
                }
            }
        }
    }
    out.push('"');
}

fn render_val(r: &mut Rng, v: &Val, out: &mut String) {
    match v {
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(d) => out.push_str(&d.spell(r)),
        Val::Str(s) => render_string(r, s, out),
        Val::Arr(items) => {
            out.push('[');
            ws(r, out);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    ws(r, out);
                }
                render_val(r, item, out);
                ws(r, out);
            }
            out.push(']');
        }
        Val::Obj(members) => {
            // A random member order (Fisher-Yates).
            let mut order: Vec<usize> = (0..members.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, r.below(i + 1));
            }
            out.push('{');
            ws(r, out);
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                    ws(r, out);
                }
                let (k, v) = &members[i];
                render_string(r, k, out);
                ws(r, out);
                out.push(':');
                ws(r, out);
                render_val(r, v, out);
                ws(r, out);
            }
            out.push('}');
        }
    }
}

fn render(v: &Val, seed: u64) -> String {
    let mut r = Rng(seed);
    let mut out = String::new();
    ws(&mut r, &mut out);
    render_val(&mut r, v, &mut out);
    ws(&mut r, &mut out);
    out
}

// ---- shrinking ------------------------------------------------------------------------------------

fn shrink_val(v: &Val) -> Vec<Val> {
    let mut out = Vec::new();
    match v {
        Val::Null => {}
        Val::Bool(_) => out.push(Val::Null),
        Val::Num(d) => {
            out.push(Val::Null);
            let one = Decimal::parse("1");
            if *d != one {
                out.push(Val::Num(one));
            }
        }
        Val::Str(s) => {
            out.push(Val::Null);
            let chars: Vec<char> = s.chars().collect();
            for i in 0..chars.len() {
                let mut c = chars.clone();
                c.remove(i);
                out.push(Val::Str(c.into_iter().collect()));
            }
        }
        Val::Arr(items) => {
            out.push(Val::Null);
            out.extend(items.iter().cloned());
            for i in 0..items.len() {
                let mut a = items.clone();
                a.remove(i);
                out.push(Val::Arr(a));
            }
            for (i, item) in items.iter().enumerate() {
                for smaller in shrink_val(item) {
                    let mut a = items.clone();
                    a[i] = smaller;
                    out.push(Val::Arr(a));
                }
            }
        }
        Val::Obj(members) => {
            out.push(Val::Null);
            out.extend(members.iter().map(|(_, v)| v.clone()));
            for i in 0..members.len() {
                let mut m = members.clone();
                m.remove(i);
                out.push(Val::Obj(m));
            }
            for (i, (_, value)) in members.iter().enumerate() {
                for smaller in shrink_val(value) {
                    let mut m = members.clone();
                    m[i].1 = smaller;
                    out.push(Val::Obj(m));
                }
            }
        }
    }
    out
}

/// A document and two rendering seeds.
#[derive(Clone)]
struct Case {
    doc: Val,
    seeds: [u64; 2],
}

impl Case {
    fn text(&self, i: usize) -> String {
        render(&self.doc, self.seeds[i])
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "document: {:?}", self.doc)?;
        writeln!(f, "rendering 1: {:?}", self.text(0))?;
        write!(f, "rendering 2: {:?}", self.text(1))
    }
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut r = Rng(u64::arbitrary(g));
        let doc = match r.below(10) {
            0..=4 => gen_val(&mut r, 4).into_object_or_self(&mut r),
            5..=7 => gen_val(&mut r, 4),
            _ => gen_val(&mut r, 0),
        };
        Self {
            doc,
            seeds: [r.next(), r.next()],
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let seeds = self.seeds;
        Box::new(
            shrink_val(&self.doc)
                .into_iter()
                .map(move |doc| Self { doc, seeds }),
        )
    }
}

impl Val {
    /// Wraps a non-object in a one-member object, so most documents are objects.
    fn into_object_or_self(self, r: &mut Rng) -> Self {
        match self {
            Self::Obj(_) => self,
            other => Self::Obj(vec![(gen_key(r), other)]),
        }
    }
}

// ---- the independent reference canonicalizer ------------------------------------------------------

/// RFC 8785 over a `serde_json::Value`, written from the spec and never calling equijson.
fn reference(text: &[u8]) -> Result<Vec<u8>, String> {
    let v = value_read_exactly(text).map_err(|e| e.to_string())?;
    let mut out = String::new();
    reference_value(&v, &mut out);
    Ok(out.into_bytes())
}

#[path = "shared/reference_jcs.rs"]
mod reference_jcs;
use reference_jcs::{ecmascript_number, reference_value, value_read_exactly};

#[test]
#[allow(
    clippy::unreadable_literal,
    clippy::excessive_precision,
    reason = "numbers spelled as in the spec; N.25 is exact, and its shortest spelling is the point"
)]
fn reference_number_layout() {
    for (x, want) in [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123e-20, "1.23e-18"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (9007199254740992.0, "9007199254740992"),
        (295147905179352830000.0, "295147905179352830000"),
        (333333333.3333333, "333333333.3333333"),
        (4.35, "4.35"),
        (0.1 + 0.2, "0.30000000000000004"),
        // Exact ties between two shortest candidates go to the even one (V8 agrees).
        (1145908650142299.25, "1145908650142299.2"),
        (1844674407370955.25, "1844674407370955.2"),
    ] {
        assert_eq!(ecmascript_number(x), want, "{x:e}");
    }
}

#[test]
fn generator_sanity() {
    // Every spelling reads back as the same decimal, and renderings are valid JSON for serde_json.
    let mut r = Rng(7);
    for _ in 0..2000 {
        let d = gen_number(&mut r);
        let spelled = d.spell(&mut r);
        assert_eq!(Decimal::parse(&spelled), d, "{spelled}");
    }
    for seed in 0..300 {
        let mut r = Rng(seed);
        let doc = gen_val(&mut r, 4);
        let text = render(&doc, seed);
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
}

// ---- properties a-c --------------------------------------------------------------------------------

fn canonical(text: &str) -> Result<Vec<u8>, TestResult> {
    equijson::canonicalize(text.as_bytes()).map_err(|e| {
        TestResult::error(format!(
            "valid document rejected: {e} ({:?})\ninput: {text:?}",
            e.kind()
        ))
    })
}

fn show(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}

fn prop_idempotent(c: Case) -> TestResult {
    count_case();
    let once = match canonical(&c.text(0)) {
        Ok(v) => v,
        Err(t) => return t,
    };
    match equijson::canonicalize(&once) {
        Ok(twice) if twice == once => TestResult::passed(),
        other => TestResult::error(format!("once: {}\ntwice: {other:?}", show(&once))),
    }
}

fn prop_rendering_invariant(c: Case) -> TestResult {
    count_case();
    let (a, b) = match (canonical(&c.text(0)), canonical(&c.text(1))) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(t), _) | (_, Err(t)) => return t,
    };
    if a == b {
        TestResult::passed()
    } else {
        TestResult::error(format!(
            "rendering 1 gives {}\nrendering 2 gives {}",
            show(&a),
            show(&b)
        ))
    }
}

fn prop_matches_reference(c: Case) -> TestResult {
    count_case();
    let text = c.text(0);
    let got = match canonical(&text) {
        Ok(v) => v,
        Err(t) => return t,
    };
    let want = match reference(text.as_bytes()) {
        Ok(v) => v,
        Err(e) => return TestResult::error(format!("serde_json rejects the generated text: {e}")),
    };
    if got != want {
        return TestResult::error(format!(
            "equijson:  {}\nreference: {}",
            show(&got),
            show(&want)
        ));
    }
    // The serializer path agrees too.
    let value = value_read_exactly(text.as_bytes()).unwrap();
    match equijson::to_canonical_vec(&value) {
        Ok(v) if v == want => TestResult::passed(),
        other => TestResult::error(format!(
            "to_canonical_vec(Value): {other:?}\nreference: {}",
            show(&want)
        )),
    }
}

#[test]
fn a_canonicalize_is_idempotent() {
    check(prop_idempotent as fn(Case) -> TestResult);
}

#[test]
fn b_renderings_of_one_document_agree() {
    check(prop_rendering_invariant as fn(Case) -> TestResult);
}

/// Two renderings of one document parse to equal [`equijson::Document`]s.
fn prop_documents_equal(c: Case) -> TestResult {
    count_case();
    let (first, second) = (c.text(0), c.text(1));
    match (
        equijson::Document::parse(first.as_bytes()),
        equijson::Document::parse(second.as_bytes()),
    ) {
        (Ok(d1), Ok(d2)) if d1 == d2 => TestResult::passed(),
        (Ok(d1), Ok(d2)) => TestResult::error(format!(
            "Documents differ although both canonicalize to {} / {}",
            show(&d1.to_canonical_vec()),
            show(&d2.to_canonical_vec())
        )),
        other => TestResult::error(format!("rejected: {other:?}")),
    }
}

#[test]
fn b_documents_of_two_renderings_are_equal() {
    // The smallest case: the same object, once with a leading space.
    let x = equijson::Document::parse(br#"{"a":1}"#).unwrap();
    let y = equijson::Document::parse(br#" {"a":1}"#).unwrap();
    assert_eq!(x.to_canonical_vec(), y.to_canonical_vec());
    assert!(
        x == y,
        "{{\"a\":1}} and  {{\"a\":1}} parse to unequal Documents"
    );
    check(prop_documents_equal as fn(Case) -> TestResult);
}

#[test]
fn c_agrees_with_the_reference_canonicalizer() {
    check(prop_matches_reference as fn(Case) -> TestResult);
}

// ---- property d: hostile input ------------------------------------------------------------------------

/// Checks one arbitrary input: no panic (quickcheck reports panics), sane error positions,
/// idempotent output, and agreement with `serde_json` about validity.
#[allow(
    clippy::naive_bytecount,
    reason = "small inputs; no bytecount dependency"
)]
fn check_any_input(input: &[u8]) -> TestResult {
    match equijson::canonicalize(input) {
        Err(e) => {
            let (Some(offset), Some(line), Some(column)) = (e.offset(), e.line(), e.column())
            else {
                return TestResult::error(format!("error without a text location: {e:?}"));
            };
            if offset > input.len() || line < 1 || column < 1 {
                return TestResult::error(format!(
                    "bad location {offset}/{line}:{column} for {} bytes",
                    input.len()
                ));
            }
            let before = &input[..offset];
            let want_line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if line != want_line || column > offset - line_start + 1 {
                return TestResult::error(format!(
                    "offset {offset} is not at line {line} column {column}"
                ));
            }
            if e.to_string() != format!("{line}:{column}: {}", e.message()) || e.pointer().is_some()
            {
                return TestResult::error(format!("bad Display {:?}", e.to_string()));
            }
            if equijson::validate(input, &equijson::Options::default())
                .err()
                .as_ref()
                != Some(&e)
            {
                return TestResult::error("validate disagrees with canonicalize".to_owned());
            }
            // serde_json may accept what RFC 8785 forbids only for duplicate names.
            if serde_json::from_slice::<serde_json::Value>(input).is_ok()
                && !matches!(e.kind(), ErrorKind::DuplicateKey(_))
            {
                return TestResult::error(format!(
                    "equijson rejects ({e}) what serde_json accepts"
                ));
            }
            TestResult::passed()
        }
        Ok(out) => {
            if equijson::canonicalize(&out).as_ref() != Ok(&out) {
                return TestResult::error(format!("output {} is not a fixed point", show(&out)));
            }
            match reference(input) {
                Ok(want) if want == out => TestResult::passed(),
                Ok(want) => TestResult::error(format!(
                    "equijson:  {}\nreference: {}",
                    show(&out),
                    show(&want)
                )),
                Err(err) => {
                    TestResult::error(format!("equijson accepts what serde_json rejects: {err}"))
                }
            }
        }
    }
}

/// Bytes: fully random, or a soup of JSON fragments that reaches deeper parser states.
#[derive(Clone)]
struct Bytes(Vec<u8>);

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&show(&self.0))
    }
}

const FRAGMENTS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\"",
    b"\\",
    b"\"a\"",
    b"\"k\":",
    b"0",
    b"-",
    b"1",
    b"9",
    b".",
    b"e",
    b"E+",
    b"1e400",
    b"-0",
    b"true",
    b"false",
    b"null",
    b"nul",
    b"tru",
    b" ",
    b"\n",
    b"\t",
    b"\r",
    b"\\u",
    b"d800",
    b"dc00",
    b"\\ud83d\\ude02",
    b"\\u0000",
    b"\\n",
    b"\\/",
    b"\xFF",
    b"\xC3",
    b"\xA9",
    b"\xED\xA0\x80",
    b"\xEF\xBB\xBF",
    b"\xEF\xBF\xBF",
    b"\xF0\x9F\x98\x82",
    b"\x00",
    b"\x1F",
    b"\x7F",
    b"'",
    b"NaN",
    b"0x",
    b"00",
];

impl Arbitrary for Bytes {
    fn arbitrary(g: &mut Gen) -> Self {
        if bool::arbitrary(g) {
            return Self(Vec::<u8>::arbitrary(g));
        }
        let mut r = Rng(u64::arbitrary(g));
        let mut v = Vec::new();
        for _ in 0..r.below(g.size().max(1)) {
            let frag: &[u8] = r.pick::<&[u8]>(FRAGMENTS);
            v.extend_from_slice(frag);
        }
        Self(v)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Self))
    }
}

/// A valid document rendered, then damaged by a few random edits.
#[derive(Clone)]
struct Mutated {
    case: Case,
    seed: u64,
}

impl Mutated {
    fn bytes(&self) -> Vec<u8> {
        let mut v = self.case.text(0).into_bytes();
        let mut r = Rng(self.seed);
        for _ in 0..=r.below(3) {
            let len = v.len();
            match r.below(7) {
                // Overwrite a byte with anything.
                0 if len > 0 => {
                    let i = r.below(len);
                    v[i] = r.next() as u8;
                }
                // Flip one bit.
                1 if len > 0 => {
                    let i = r.below(len);
                    v[i] ^= 1 << r.below(8);
                }
                // Truncate.
                2 => v.truncate(r.below(len + 1)),
                // Insert a fragment.
                3 => {
                    let i = r.below(len + 1);
                    let frag = r.pick(FRAGMENTS);
                    v.splice(i..i, frag.iter().copied());
                }
                // Delete a range.
                4 if len > 0 => {
                    let i = r.below(len);
                    let j = (i + 1 + r.below(4)).min(len);
                    v.drain(i..j);
                }
                // Duplicate a range (often creates duplicate names).
                5 if len > 0 => {
                    let i = r.below(len);
                    let j = (i + 1 + r.below(16)).min(len);
                    let copy: Vec<u8> = v[i..j].to_vec();
                    let at = r.below(len + 1);
                    v.splice(at..at, copy);
                }
                // Swap two bytes.
                _ if len > 1 => {
                    let (i, j) = (r.below(len), r.below(len));
                    v.swap(i, j);
                }
                _ => {}
            }
        }
        v
    }
}

impl fmt::Debug for Mutated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}\nmutated: {}", self.case, show(&self.bytes()))
    }
}

impl Arbitrary for Mutated {
    fn arbitrary(g: &mut Gen) -> Self {
        Self {
            case: Case::arbitrary(g),
            seed: u64::arbitrary(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let seed = self.seed;
        Box::new(self.case.shrink().map(move |case| Self { case, seed }))
    }
}

fn prop_arbitrary_bytes(b: Bytes) -> TestResult {
    count_case();
    check_any_input(&b.0)
}

fn prop_mutated_documents(m: Mutated) -> TestResult {
    count_case();
    check_any_input(&m.bytes())
}

#[test]
fn d_arbitrary_bytes_never_panic() {
    check(prop_arbitrary_bytes as fn(Bytes) -> TestResult);
}

#[test]
fn d_mutated_documents_never_panic() {
    check(prop_mutated_documents as fn(Mutated) -> TestResult);
}
