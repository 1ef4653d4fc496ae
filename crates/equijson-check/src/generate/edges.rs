//! Values at the edges, for typed documents: numbers at the limits of each integer type and
//! of doubles, strings with escapes and astral characters, and mutations of a document
//! (duplicate names, unknown fields, missing members, edge values in place of others).

use super::trace::IntKind;
use super::{Gen, Json};

/// Integers around 2^53 (the last integers a double holds exactly).
pub const SAFE_INTEGER_EDGES: &[&str] = &[
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
];

/// Doubles that readers get wrong: 17 significant digits, `1.0`, `-0`, large exponents,
/// subnormals, integers spelled as doubles.
pub const FLOAT_EDGES: &[&str] = &[
    "15.509858803567319",
    "0.30000000000000004",
    "43.420273000000009",
    "1.0",
    "-0",
    "-0.0",
    "1e308",
    "1.7976931348623157e308",
    "2.2250738585072014e-308",
    "5e-324",
    "1e-400",
    "1e400",
    "1E+2",
    "100e-2",
    "9007199254740993.0",
    "123456789012345678901234567890",
];

/// Strings that stress escaping and UTF-16 order: escapes, controls, separators, astral
/// characters, U+E000..U+FFFF, noncharacters, combining marks.
pub const STRING_EDGES: &[&str] = &[
    "",
    "\"",
    "\\",
    "/",
    "\u{0}",
    "\u{1f}",
    "\t\n\r",
    "\u{2028}\u{2029}",
    "é",
    "e\u{301}",
    "\u{1f602}",
    "\u{10000}",
    "\u{10ffff}",
    "\u{e000}",
    "\u{fb33}",
    "\u{feff}",
    "\u{fffe}",
    "a\u{1f600}b\u{ffff}",
];

/// Integer spellings at and just beyond the limits of `kind`, 2^53 ± 1, and integers
/// spelled as doubles (`1.0`, `1e2`).
#[must_use]
pub fn integer_edges(kind: IntKind) -> Vec<String> {
    let (min, max): (i128, u128) = match kind {
        IntKind::U8 => (0, u8::MAX.into()),
        IntKind::U16 => (0, u16::MAX.into()),
        IntKind::U32 => (0, u32::MAX.into()),
        IntKind::U64 => (0, u64::MAX.into()),
        IntKind::U128 => (0, u128::MAX),
        IntKind::I8 => (i8::MIN.into(), i8::MAX as u128),
        IntKind::I16 => (i16::MIN.into(), i16::MAX as u128),
        IntKind::I32 => (i32::MIN.into(), i32::MAX as u128),
        IntKind::I64 => (i64::MIN.into(), i64::MAX as u128),
        IntKind::I128 => (i128::MIN, i128::MAX as u128),
    };
    let mut out = vec![
        "0".to_owned(),
        "1".to_owned(),
        "-0".to_owned(),
        "1.0".to_owned(),
        "1e2".to_owned(),
        min.to_string(),
        max.to_string(),
        format!("{max}0"),
    ];
    if let Some(below) = min.checked_sub(1) {
        out.push(below.to_string());
    } else {
        out.push(format!("{min}0"));
    }
    out.push(
        max.checked_add(1)
            .map_or_else(|| format!("{max}1"), |m| m.to_string()),
    );
    // 2^64 and the 64-bit limits, for the wide types.
    out.extend(
        [
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    out.extend(SAFE_INTEGER_EDGES.iter().map(|s| (*s).to_owned()));
    out
}

/// An integer for `kind`: an edge (one time in three) or a value in its range.
pub fn integer(g: &mut Gen, kind: IntKind) -> String {
    if g.rng().below(3) == 0 {
        let edges = integer_edges(kind);
        return edges[g.rng().index(edges.len())].clone();
    }
    let x = g.rng().next_u64();
    let signed = matches!(
        kind,
        IntKind::I8 | IntKind::I16 | IntKind::I32 | IntKind::I64 | IntKind::I128
    );
    let bits = match kind {
        IntKind::U8 | IntKind::I8 => 7,
        IntKind::U16 | IntKind::I16 => 15,
        IntKind::U32 | IntKind::I32 => 31,
        _ => 63,
    };
    let magnitude = x >> (64 - bits + g.rng().index(bits as usize) as u32).min(63);
    if signed && g.rng().coin() {
        format!("-{magnitude}")
    } else {
        magnitude.to_string()
    }
}

/// A double: an edge (one time in three), a random double written with 17 significant
/// digits, or a short decimal.
pub fn float(g: &mut Gen) -> String {
    match g.rng().below(3) {
        0 => FLOAT_EDGES[g.rng().index(FLOAT_EDGES.len())].to_owned(),
        1 => {
            #[allow(
                clippy::cast_precision_loss,
                reason = "53 random bits are exact in a double"
            )]
            let f = (g.rng().next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0;
            format!("{f:.15e}")
        }
        _ => format!("{}.{}", g.rng().below(1000), g.rng().below(100)),
    }
}

/// A string: an edge (one time in three) or random text with edge characters.
pub fn string(g: &mut Gen) -> String {
    if g.rng().below(3) == 0 {
        STRING_EDGES[g.rng().index(STRING_EDGES.len())].to_owned()
    } else {
        g.string(8)
    }
}

/// `doc` with one random mutation: an edge number or string in place of a value, a
/// duplicated member name, an unknown member, a member removed, or `null` in place of a
/// value. Kinds are kept where they can be (numbers by numbers, strings by strings).
pub fn mutate(doc: &Json, g: &mut Gen) -> Json {
    let mut out = doc.clone();
    let count = out.weight();
    let target = g.rng().index(count);
    let pick = g.rng().below(6);
    let mut seen = 0;
    mutate_at(&mut out, target, &mut seen, pick, g);
    out
}

fn mutate_at(node: &mut Json, target: usize, seen: &mut usize, pick: u64, g: &mut Gen) -> bool {
    if *seen == target {
        apply(node, pick, g);
        return true;
    }
    *seen += 1;
    match node {
        Json::Array(items) => items
            .iter_mut()
            .any(|v| mutate_at(v, target, seen, pick, g)),
        Json::Object(members) => members
            .iter_mut()
            .any(|(_, v)| mutate_at(v, target, seen, pick, g)),
        _ => false,
    }
}

fn apply(node: &mut Json, pick: u64, g: &mut Gen) {
    match node {
        Json::Number(n) => {
            *n = match pick % 3 {
                0 => FLOAT_EDGES[g.rng().index(FLOAT_EDGES.len())].to_owned(),
                1 => {
                    let e = integer_edges(IntKind::U128);
                    e[g.rng().index(e.len())].clone()
                }
                _ => {
                    let e = integer_edges(IntKind::I64);
                    e[g.rng().index(e.len())].clone()
                }
            };
        }
        Json::String(s) => *s = string(g),
        Json::Object(members) if !members.is_empty() => {
            let i = g.rng().index(members.len());
            match pick {
                0 | 1 => {
                    // A duplicate name: the last one wins in serde_json and jsonb, the
                    // first one elsewhere.
                    let (k, v) = members[i].clone();
                    let v = match v {
                        Json::Number(_) => Json::Number(float(g)),
                        Json::String(_) => Json::String(string(g)),
                        other => other,
                    };
                    members.push((k, v));
                }
                2 => {
                    members.remove(i);
                }
                3 => {
                    let v = members[i].1.clone();
                    members[i].1 = mutate(&v, g);
                }
                _ => members.push((format!("unknown_{}", g.rng().below(100)), Json::Null)),
            }
        }
        Json::Array(items) if !items.is_empty() => {
            let i = g.rng().index(items.len());
            if pick % 2 == 0 {
                let v = items[i].clone();
                items[i] = mutate(&v, g);
            } else {
                items.remove(i);
            }
        }
        other => {
            if pick == 0 {
                *other = Json::Null;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{IntKind, integer_edges};

    #[test]
    fn integer_edges_straddle_each_limit() {
        let u64s = integer_edges(IntKind::U64);
        for s in ["18446744073709551615", "18446744073709551616", "-1"] {
            assert!(u64s.iter().any(|e| e == s), "{s} missing: {u64s:?}");
        }
        let i64s = integer_edges(IntKind::I64);
        for s in [
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775808",
        ] {
            assert!(i64s.iter().any(|e| e == s), "{s} missing: {i64s:?}");
        }
        let u128s = integer_edges(IntKind::U128);
        assert!(u128s.iter().any(|e| e == &u128::MAX.to_string()));
        assert!(
            u128s.iter().any(|e| e.parse::<u128>().is_err()
                && !e.starts_with('-')
                && !e.contains(['.', 'e']))
        );
    }
}
