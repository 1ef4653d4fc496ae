//! Generated JSON documents: a tree that keeps number spellings, rendered to text in
//! many equivalent ways, and shrunk towards small counterexamples.

use std::fmt::Write as _;

use super::Gen;

/// A JSON value as generated. Numbers keep their spelling (`1.0`, `1e0` and `1` are
/// different texts for the same number), members keep their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written (must match the JSON grammar).
    Number(String),
    /// A string (any Unicode scalar values).
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object; names are unique.
    Object(Vec<(String, Json)>),
}

/// Number spellings that stress canonicalization: zeros, subnormals, the double range
/// limits, 2^53 ± 1, integers beyond 64 bits, exponents, spellings of the same value.
pub const EDGE_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "0.0",
    "-0.0",
    "0e10",
    "1",
    "-1",
    "1.0",
    "1e0",
    "10e-1",
    "0.1e1",
    "1E+0",
    "5e-324",
    "-5e-324",
    "4.9406564584124654e-324",
    "2.2250738585072009e-308",
    "2.2250738585072014e-308",
    "1.7976931348623157e308",
    "-1.7976931348623157e+308",
    "1e308",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "170141183460469231731687303715884105727",
    "1e21",
    "1e20",
    "999999999999999999999",
    "1e-7",
    "0.000001",
    "0.0000001",
    "123456789012345678901234567890",
    "0.1",
    "0.30000000000000004",
    "1E+2",
    "100e-2",
    "1e-400",
    "-1e-400",
    "3.141592653589793238462643",
    "43.420273000000009",
    "1.5e300",
    "0.00000000000000000000000000001",
];

/// Characters that stress ordering and escaping: astral vs U+E000..U+FFFF (UTF-16 order
/// differs from code-point order there), controls, quotes, separators, noncharacters.
const EDGE_CHARS: &[char] = &[
    'a',
    'b',
    'z',
    'A',
    '0',
    ' ',
    '"',
    '\\',
    '/',
    '\u{0}',
    '\u{8}',
    '\t',
    '\n',
    '\u{c}',
    '\r',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    'é',
    'ö',
    '€',
    '\u{2028}',
    '\u{2029}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{fb33}',
    '\u{feff}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{10000}',
    '\u{1f600}',
    '\u{1f602}',
    '\u{10ffff}',
    '\u{301}',
    'Å',
];

impl Gen {
    /// A random character, mostly from the edge classes.
    pub fn char(&mut self) -> char {
        let r = self.rng();
        match r.below(10) {
            0..=5 => EDGE_CHARS[r.index(EDGE_CHARS.len())],
            6 | 7 => char::from(b'a' + r.below(26) as u8),
            8 => char::from_u32(r.range(0x80, 0xFFFF) as u32).unwrap_or('\u{fffd}'),
            _ => char::from_u32(r.range(0x1_0000, 0x10_FFFF) as u32).unwrap_or('\u{1f600}'),
        }
    }

    /// A random string of up to `max` characters.
    pub fn string(&mut self, max: usize) -> String {
        let len = self.rng().index(max + 1);
        (0..len).map(|_| self.char()).collect()
    }

    /// A member name: short, from a small alphabet so that names share prefixes and
    /// compare deep, with astral and U+E000..U+FFFF characters at the same positions.
    pub fn key(&mut self) -> String {
        const ALPHABET: &[char] = &[
            'a',
            'b',
            'é',
            '\u{e000}',
            '\u{fb33}',
            '\u{ffff}',
            '\u{10000}',
            '\u{1f602}',
            '\n',
            '"',
        ];
        let len = self.rng().index(4);
        (0..len)
            .map(|_| ALPHABET[self.rng().index(ALPHABET.len())])
            .collect()
    }

    /// A number spelling: edge cases, random integers, decimals and doubles.
    pub fn number(&mut self) -> String {
        let r = self.rng();
        match r.below(6) {
            0 | 1 => EDGE_NUMBERS[r.index(EDGE_NUMBERS.len())].to_owned(),
            2 => {
                let digits = 1 + r.index(25);
                let mut s = if r.coin() {
                    String::from("-")
                } else {
                    String::new()
                };
                s.push(char::from(b'1' + r.below(9) as u8));
                for _ in 1..digits {
                    s.push(char::from(b'0' + r.below(10) as u8));
                }
                s
            }
            3 => format!("{}.{}", r.below(100_000), r.below(1_000_000)),
            4 => {
                let f = f64::from_bits(r.next_u64());
                if f.is_finite() {
                    format!("{f:e}")
                } else {
                    "1.5".to_owned()
                }
            }
            _ => {
                #[allow(
                    clippy::cast_precision_loss,
                    reason = "53 random bits are exact in a double"
                )]
                let f = (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1e6 - 5e5;
                if r.coin() {
                    format!("{f}")
                } else {
                    format!("{f:.17e}")
                }
            }
        }
    }

    /// A random document of at most `depth` levels.
    pub fn json(&mut self, depth: usize) -> Json {
        let scalar_only = depth == 0;
        let pick = self.rng().below(if scalar_only { 5 } else { 8 });
        match pick {
            0 => Json::Null,
            1 => Json::Bool(self.rng().coin()),
            2 | 3 => Json::Number(self.number()),
            4 => Json::String(self.string(8)),
            5 | 6 => {
                let max = self.size();
                let n = self.rng().index(max + 1);
                let mut members: Vec<(String, Json)> = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.key();
                    let v = self.json(depth - 1);
                    if !members.iter().any(|(m, _)| *m == k) {
                        members.push((k, v));
                    }
                }
                Json::Object(members)
            }
            _ => {
                let max = self.size();
                let n = self.rng().index(max + 1);
                Json::Array((0..n).map(|_| self.json(depth - 1)).collect())
            }
        }
    }
}

/// How a document is spelled: whitespace, escapes, member order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No whitespace, minimal escapes, members in tree order.
    Compact,
    /// Spelling chosen by a generator seeded with this value.
    Seeded(u64),
}

impl Json {
    /// Renders the document as JSON text in the given style.
    #[must_use]
    pub fn render(&self, style: Style) -> String {
        let mut out = String::new();
        let mut g = match style {
            Style::Compact => None,
            Style::Seeded(seed) => Some(Gen::new(seed, 1)),
        };
        self.render_into(&mut out, &mut g);
        out
    }

    fn render_into(&self, out: &mut String, g: &mut Option<Gen>) {
        // Iterative would be safer, but generated trees are shallow by construction.
        ws(out, g);
        match self {
            Self::Null => out.push_str("null"),
            Self::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Self::Number(n) => out.push_str(n),
            Self::String(s) => string(out, s, g),
            Self::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.render_into(out, g);
                }
                ws(out, g);
                out.push(']');
            }
            Self::Object(members) => {
                out.push('{');
                let mut order: Vec<usize> = (0..members.len()).collect();
                if let Some(g) = g.as_mut() {
                    // Fisher-Yates with the portable generator.
                    for i in (1..order.len()).rev() {
                        let j = g.rng().index(i + 1);
                        order.swap(i, j);
                    }
                }
                for (i, &m) in order.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let (k, v) = &members[m];
                    ws(out, g);
                    string(out, k, g);
                    ws(out, g);
                    out.push(':');
                    v.render_into(out, g);
                }
                ws(out, g);
                out.push('}');
            }
        }
        ws(out, g);
    }

    /// Smaller variants of this document, simplest first (for shrinking).
    #[must_use]
    pub fn shrink(&self) -> Vec<Json> {
        let mut out = Vec::new();
        match self {
            Self::Null => {}
            Self::Bool(_) => out.push(Self::Null),
            Self::Number(n) => {
                // Strictly simpler candidates only (0 < 1 < anything else), or shrinking
                // could cycle.
                out.push(Self::Null);
                match n.as_str() {
                    "0" => {}
                    "1" => out.push(Self::Number("0".to_owned())),
                    _ => {
                        out.push(Self::Number("0".to_owned()));
                        out.push(Self::Number("1".to_owned()));
                        if let Some(short) = shorter_number(n) {
                            out.push(Self::Number(short));
                        }
                    }
                }
            }
            Self::String(s) => {
                out.push(Self::Null);
                let chars: Vec<char> = s.chars().collect();
                if !chars.is_empty() {
                    out.push(Self::String(String::new()));
                    for i in 0..chars.len().min(8) {
                        let mut c = chars.clone();
                        c.remove(i);
                        out.push(Self::String(c.into_iter().collect()));
                    }
                }
            }
            Self::Array(items) => {
                out.push(Self::Null);
                if !items.is_empty() {
                    out.push(Self::Array(Vec::new()));
                }
                for i in 0..items.len() {
                    let mut v = items.clone();
                    v.remove(i);
                    out.push(Self::Array(v));
                }
                for (i, item) in items.iter().enumerate() {
                    out.push(item.clone());
                    for smaller in item.shrink() {
                        let mut v = items.clone();
                        v[i] = smaller;
                        out.push(Self::Array(v));
                    }
                }
            }
            Self::Object(members) => {
                out.push(Self::Null);
                if !members.is_empty() {
                    out.push(Self::Object(Vec::new()));
                }
                for i in 0..members.len() {
                    let mut m = members.clone();
                    m.remove(i);
                    out.push(Self::Object(m));
                }
                for (i, (_, value)) in members.iter().enumerate() {
                    out.push(value.clone());
                    for smaller in value.shrink() {
                        let mut m = members.clone();
                        m[i].1 = smaller;
                        out.push(Self::Object(m));
                    }
                }
            }
        }
        out
    }

    /// Number of values in the tree (a size measure for reports).
    #[must_use]
    pub fn weight(&self) -> usize {
        match self {
            Self::Array(items) => 1 + items.iter().map(Self::weight).sum::<usize>(),
            Self::Object(members) => 1 + members.iter().map(|(_, v)| v.weight()).sum::<usize>(),
            _ => 1,
        }
    }
}

impl From<&serde_json::Value> for Json {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Self::Null,
            serde_json::Value::Bool(b) => Self::Bool(*b),
            serde_json::Value::Number(n) => Self::Number(n.to_string()),
            serde_json::Value::String(s) => Self::String(s.clone()),
            serde_json::Value::Array(a) => Self::Array(a.iter().map(Self::from).collect()),
            serde_json::Value::Object(o) => {
                Self::Object(o.iter().map(|(k, v)| (k.clone(), Self::from(v))).collect())
            }
        }
    }
}

/// The number with its last significant digit dropped, when that still is a number.
fn shorter_number(n: &str) -> Option<String> {
    let (mantissa, exp) = match n.find(['e', 'E']) {
        Some(i) => (&n[..i], &n[i..]),
        None => (n, ""),
    };
    let trimmed = mantissa.strip_suffix(|c: char| c.is_ascii_digit())?;
    let trimmed = trimmed.strip_suffix('.').unwrap_or(trimmed);
    if trimmed.is_empty() || trimmed == "-" {
        return None;
    }
    Some(format!("{trimmed}{exp}"))
}

fn ws(out: &mut String, g: &mut Option<Gen>) {
    if let Some(g) = g.as_mut() {
        const WS: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n", "  "];
        out.push_str(WS[g.rng().index(WS.len())]);
    }
}

fn string(out: &mut String, s: &str, g: &mut Option<Gen>) {
    out.push('"');
    for c in s.chars() {
        let escape = match g.as_mut() {
            Some(g) => g.rng().ratio(1, 12),
            None => false,
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            '/' if escape => out.push_str("\\/"),
            c if escape => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04X}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
