//! Regression tests for the decode divergences of `serde_json` 1.0.154, through equijson's
//! decode-equivalence engine ([`check`] / [`check_borrowed`]), in the `serde_json` number mode
//! of the build ([`float_roundtrip`]): the workspace builds `serde_json` with its default
//! features; `tests/float-roundtrip-user` includes this file and runs it with
//! `float_roundtrip`.
//!
//! - `tests/data/divergences/cases.tsv`: one row per divergence (and a few controls): the
//!   DTO, the input, what each [`DecodePath`] makes of it, the finding classes, the verdict,
//!   error-message substrings and the JSON pointers the diffs must name. The notation is
//!   explained at the top of the file. DTOs are defined below and registered by name in
//!   [`registry`].
//! - The other tests cover [`Accept`] scoping, the verdicts for equivalent and rejected
//!   input, redacted rendering and the samples of the DTO catalogue.
//!
//! The jsonb path (PostgreSQL's binary jsonb, through the core's jsonb model) is checked
//! like every other path: its column of `cases.tsv`, its outcomes and its findings.
//!
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use equijson_check::decode::reference;
use equijson_check::decode::{
    Accept, BorrowedDto, Class, DecodePath, Input, PathResult, Report, Verdict, check,
    check_borrowed, check_input_paths, keep_paths, serde_json_numbers,
};
use equijson_check::diff::{Change, DiffStyle};
use serde::{Deserialize, Serialize};
use serde_json::Value;

const CASES_TSV: &str = include_str!("../../../tests/data/divergences/cases.tsv");

// ------------------------------------------------------------------------------- DTOs

#[derive(Serialize, Deserialize)]
struct Plain {
    a: u32,
}

#[derive(Serialize, Deserialize)]
struct Text {
    a: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u32,
}

#[derive(Serialize, Deserialize)]
struct Wide {
    a: i128,
}

#[derive(Serialize, Deserialize)]
struct WideU {
    a: u128,
}

#[derive(Serialize, Deserialize)]
struct Count {
    a: u64,
}

#[derive(Serialize, Deserialize)]
struct Ratio {
    a: f32,
}

#[derive(Serialize, Deserialize)]
struct Measure {
    a: f64,
}

#[derive(Serialize, Deserialize)]
struct FlatRest {
    a: u32,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Serialize, Deserialize)]
struct InnerB {
    b: u64,
}

#[derive(Serialize, Deserialize)]
struct FlatInner {
    a: u32,
    #[serde(flatten)]
    inner: InnerB,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FlatStrict {
    a: u32,
    #[serde(flatten)]
    inner: InnerB,
}

#[derive(Serialize, Deserialize)]
struct FlatWide {
    a: i128,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    A { a: u32 },
    B { b: u32 },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type")]
enum Internal {
    A { v: u64 },
    B { v: i128 },
    C { v: f32 },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(u64),
    B(i128),
    C(f32),
}

#[derive(Serialize, Deserialize)]
enum External {
    A,
    B(u32),
    C { x: u32 },
    D(i128),
    F(f32),
}

/// The DTO of the redaction test: a secret, a rate, unknown members ignored.
#[derive(Serialize, Deserialize)]
struct Credentials {
    token: String,
    rate: f32,
}

// Borrowing DTOs and their `BorrowedDto` families.

#[derive(Serialize, Deserialize)]
struct Memo<'a> {
    a: &'a str,
}

#[derive(Serialize, Deserialize)]
struct MaybeMemo<'a> {
    #[serde(borrow)]
    a: Option<&'a str>,
}

#[derive(Serialize, Deserialize)]
struct RawBytes<'a> {
    a: &'a [u8],
}

#[derive(Serialize, Deserialize)]
struct InnerMemo<'a> {
    b: &'a str,
}

#[derive(Serialize, Deserialize)]
struct FlatMemo<'a> {
    #[serde(borrow, flatten)]
    inner: InnerMemo<'a>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type")]
enum TaggedMemo<'a> {
    S {
        #[serde(borrow)]
        s: &'a str,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum EitherStr<'a> {
    B(&'a str),
    S(String),
}

#[derive(Serialize, Deserialize)]
struct CowMemo<'a> {
    #[serde(borrow)]
    a: Cow<'a, str>,
}

macro_rules! family {
    ($($family:ident => $ty:ty;)*) => {$(
        struct $family;
        impl BorrowedDto for $family {
            type Of<'de> = $ty;
        }
    )*};
}

family! {
    MemoF => Memo<'de>;
    MaybeMemoF => MaybeMemo<'de>;
    RawBytesF => RawBytes<'de>;
    FlatMemoF => FlatMemo<'de>;
    TaggedMemoF => TaggedMemo<'de>;
    EitherStrF => EitherStr<'de>;
    CowMemoF => CowMemo<'de>;
    BorrowedKeysF => BTreeMap<&'de str, u32>;
}

type CheckFn = fn(&[u8]) -> Report;

/// The DTOs of the table, by the name its `dto` column uses. No DTO accepts anything.
fn registry() -> &'static [(&'static str, CheckFn)] {
    &[
        ("Plain", |i| check::<Plain>(i, &[])),
        ("Text", |i| check::<Text>(i, &[])),
        ("Strict", |i| check::<Strict>(i, &[])),
        ("Wide", |i| check::<Wide>(i, &[])),
        ("WideU", |i| check::<WideU>(i, &[])),
        ("Count", |i| check::<Count>(i, &[])),
        ("Ratio", |i| check::<Ratio>(i, &[])),
        ("Measure", |i| check::<Measure>(i, &[])),
        ("FlatRest", |i| check::<FlatRest>(i, &[])),
        ("FlatInner", |i| check::<FlatInner>(i, &[])),
        ("FlatStrict", |i| check::<FlatStrict>(i, &[])),
        ("FlatWide", |i| check::<FlatWide>(i, &[])),
        ("Untagged", |i| check::<Untagged>(i, &[])),
        ("Internal", |i| check::<Internal>(i, &[])),
        ("Adjacent", |i| check::<Adjacent>(i, &[])),
        ("External", |i| check::<External>(i, &[])),
        ("BTreeMap<String,u32>", |i| {
            check::<BTreeMap<String, u32>>(i, &[])
        }),
        ("BTreeMap<u32,u32>", |i| check::<BTreeMap<u32, u32>>(i, &[])),
        ("BTreeMap<bool,u32>", |i| {
            check::<BTreeMap<bool, u32>>(i, &[])
        }),
        ("BTreeMap<i128,u32>", |i| {
            check::<BTreeMap<i128, u32>>(i, &[])
        }),
        ("BTreeMap<String,f32>", |i| {
            check::<BTreeMap<String, f32>>(i, &[])
        }),
        ("Vec<i128>", |i| check::<Vec<i128>>(i, &[])),
        ("Vec<f32>", |i| check::<Vec<f32>>(i, &[])),
        ("f32", |i| check::<f32>(i, &[])),
        ("Option<f32>", |i| check::<Option<f32>>(i, &[])),
        ("Memo", |i| check_borrowed::<MemoF>(i, &[])),
        ("MaybeMemo", |i| check_borrowed::<MaybeMemoF>(i, &[])),
        ("RawBytes", |i| check_borrowed::<RawBytesF>(i, &[])),
        ("FlatMemo", |i| check_borrowed::<FlatMemoF>(i, &[])),
        ("TaggedMemo", |i| check_borrowed::<TaggedMemoF>(i, &[])),
        ("EitherStr", |i| check_borrowed::<EitherStrF>(i, &[])),
        ("CowMemo", |i| check_borrowed::<CowMemoF>(i, &[])),
        ("BTreeMap<&str,u32>", |i| {
            check_borrowed::<BorrowedKeysF>(i, &[])
        }),
    ]
}

/// The owned DTOs of the registry through `check_input_paths` (paths chosen by the caller).
type PathsFn = fn(&Input<'_>, &[DecodePath]) -> Report;

fn paths_registry() -> &'static [(&'static str, PathsFn)] {
    &[
        ("Plain", |i, p| check_input_paths::<Plain>(i, p, &[])),
        ("Text", |i, p| check_input_paths::<Text>(i, p, &[])),
        ("Strict", |i, p| check_input_paths::<Strict>(i, p, &[])),
        ("Wide", |i, p| check_input_paths::<Wide>(i, p, &[])),
        ("WideU", |i, p| check_input_paths::<WideU>(i, p, &[])),
        ("Count", |i, p| check_input_paths::<Count>(i, p, &[])),
        ("Ratio", |i, p| check_input_paths::<Ratio>(i, p, &[])),
        ("Measure", |i, p| check_input_paths::<Measure>(i, p, &[])),
        ("FlatRest", |i, p| check_input_paths::<FlatRest>(i, p, &[])),
        ("FlatInner", |i, p| {
            check_input_paths::<FlatInner>(i, p, &[])
        }),
        ("FlatStrict", |i, p| {
            check_input_paths::<FlatStrict>(i, p, &[])
        }),
        ("FlatWide", |i, p| check_input_paths::<FlatWide>(i, p, &[])),
        ("Untagged", |i, p| check_input_paths::<Untagged>(i, p, &[])),
        ("Internal", |i, p| check_input_paths::<Internal>(i, p, &[])),
        ("Adjacent", |i, p| check_input_paths::<Adjacent>(i, p, &[])),
        ("External", |i, p| check_input_paths::<External>(i, p, &[])),
        ("BTreeMap<String,u32>", |i, p| {
            check_input_paths::<BTreeMap<String, u32>>(i, p, &[])
        }),
        ("BTreeMap<u32,u32>", |i, p| {
            check_input_paths::<BTreeMap<u32, u32>>(i, p, &[])
        }),
        ("BTreeMap<i128,u32>", |i, p| {
            check_input_paths::<BTreeMap<i128, u32>>(i, p, &[])
        }),
        ("BTreeMap<String,f32>", |i, p| {
            check_input_paths::<BTreeMap<String, f32>>(i, p, &[])
        }),
        ("BTreeMap<String,f64>", |i, p| {
            check_input_paths::<BTreeMap<String, f64>>(i, p, &[])
        }),
        ("Vec<i128>", |i, p| {
            check_input_paths::<Vec<i128>>(i, p, &[])
        }),
        ("Vec<f64>", |i, p| check_input_paths::<Vec<f64>>(i, p, &[])),
        ("Vec<f32>", |i, p| check_input_paths::<Vec<f32>>(i, p, &[])),
        ("Value", |i, p| check_input_paths::<Value>(i, p, &[])),
    ]
}

/// The same DTOs checked by the reference implementation (every path on its own).
fn reference_registry() -> &'static [(&'static str, CheckFn)] {
    &[
        ("Plain", |i| reference::check::<Plain>(i, &[])),
        ("Text", |i| reference::check::<Text>(i, &[])),
        ("Strict", |i| reference::check::<Strict>(i, &[])),
        ("Wide", |i| reference::check::<Wide>(i, &[])),
        ("WideU", |i| reference::check::<WideU>(i, &[])),
        ("Count", |i| reference::check::<Count>(i, &[])),
        ("Ratio", |i| reference::check::<Ratio>(i, &[])),
        ("Measure", |i| reference::check::<Measure>(i, &[])),
        ("FlatRest", |i| reference::check::<FlatRest>(i, &[])),
        ("FlatInner", |i| reference::check::<FlatInner>(i, &[])),
        ("FlatStrict", |i| reference::check::<FlatStrict>(i, &[])),
        ("FlatWide", |i| reference::check::<FlatWide>(i, &[])),
        ("Untagged", |i| reference::check::<Untagged>(i, &[])),
        ("Internal", |i| reference::check::<Internal>(i, &[])),
        ("Adjacent", |i| reference::check::<Adjacent>(i, &[])),
        ("External", |i| reference::check::<External>(i, &[])),
        ("BTreeMap<String,u32>", |i| {
            reference::check::<BTreeMap<String, u32>>(i, &[])
        }),
        ("BTreeMap<u32,u32>", |i| {
            reference::check::<BTreeMap<u32, u32>>(i, &[])
        }),
        ("BTreeMap<bool,u32>", |i| {
            reference::check::<BTreeMap<bool, u32>>(i, &[])
        }),
        ("BTreeMap<i128,u32>", |i| {
            reference::check::<BTreeMap<i128, u32>>(i, &[])
        }),
        ("BTreeMap<String,f32>", |i| {
            reference::check::<BTreeMap<String, f32>>(i, &[])
        }),
        ("Vec<i128>", |i| reference::check::<Vec<i128>>(i, &[])),
        ("Vec<f32>", |i| reference::check::<Vec<f32>>(i, &[])),
        ("f32", |i| reference::check::<f32>(i, &[])),
        ("Option<f32>", |i| reference::check::<Option<f32>>(i, &[])),
        ("Memo", |i| reference::check_borrowed::<MemoF>(i, &[])),
        ("MaybeMemo", |i| {
            reference::check_borrowed::<MaybeMemoF>(i, &[])
        }),
        ("RawBytes", |i| {
            reference::check_borrowed::<RawBytesF>(i, &[])
        }),
        ("FlatMemo", |i| {
            reference::check_borrowed::<FlatMemoF>(i, &[])
        }),
        ("TaggedMemo", |i| {
            reference::check_borrowed::<TaggedMemoF>(i, &[])
        }),
        ("EitherStr", |i| {
            reference::check_borrowed::<EitherStrF>(i, &[])
        }),
        ("CowMemo", |i| reference::check_borrowed::<CowMemoF>(i, &[])),
        ("BTreeMap<&str,u32>", |i| {
            reference::check_borrowed::<BorrowedKeysF>(i, &[])
        }),
    ]
}

// ------------------------------------------------------------------ jsonb and views

/// Whether this build's `serde_json` reads numbers with `float_roundtrip`: then it reads an
/// f32 from the text directly (so the DOM's text -> f64 -> f32 double-rounds against it,
/// and an f32 out of range is an error); without it every path reads an f64 and casts.
/// Tests of those f32 behaviours return early without it: `tests/float-roundtrip-user`
/// runs them.
fn float_roundtrip() -> bool {
    serde_json_numbers().float_roundtrip
}

/// Whether the row named `case` holds in this build's number mode (`@float_roundtrip`,
/// `@default` or both).
fn in_this_mode(case: &str) -> bool {
    match case.rsplit_once('@') {
        Some((_, "float_roundtrip")) => float_roundtrip(),
        Some((_, "default")) => !float_roundtrip(),
        Some((_, mode)) => panic!("{case}: unknown mode {mode:?}"),
        None => true,
    }
}

fn outcome(r: &Report, path: DecodePath) -> &PathResult {
    &r.outcomes
        .iter()
        .find(|(p, _)| *p == path)
        .expect("every path has an outcome")
        .1
}

/// A finding as seen with or without the jsonb path.
#[derive(Debug)]
struct View {
    class: Class,
    accepted: bool,
    /// Decoded paths (error splits), the baseline (value splits, round trips).
    side: Vec<DecodePath>,
    /// Failing paths (error splits), the differing paths (value splits); empty otherwise.
    other: Vec<DecodePath>,
    changes: Vec<Change>,
    /// Where: the changes', the misreads' and the duplicate's pointers.
    pointers: Vec<String>,
}

/// The report's findings; `without_jsonb` drops the jsonb path from every finding, and
/// the findings that only it made.
fn views(r: &Report, without_jsonb: bool) -> Vec<View> {
    let keep = |ps: &[DecodePath]| -> Vec<DecodePath> {
        ps.iter()
            .copied()
            .filter(|&p| !(without_jsonb && p == DecodePath::JsonbWire))
            .collect()
    };
    r.findings
        .iter()
        .filter_map(|f| {
            let (side, other) = match f.class {
                Class::ErrorSplit => {
                    let failing: Vec<DecodePath> = f.errors.iter().map(|(p, _)| *p).collect();
                    (keep(&f.paths), keep(&failing))
                }
                Class::ValueSplit => (keep(&f.paths), keep(&f.against)),
                Class::RoundTripLoss | Class::FloatMisread => (keep(&f.paths), Vec::new()),
                // About the input, not a path.
                Class::DuplicateName => (Vec::new(), Vec::new()),
            };
            let gone = match f.class {
                Class::DuplicateName => false,
                Class::RoundTripLoss | Class::FloatMisread => side.is_empty(),
                Class::ErrorSplit | Class::ValueSplit => side.is_empty() || other.is_empty(),
            };
            (!gone).then(|| View {
                class: f.class,
                accepted: f.accepted,
                side,
                other,
                changes: f.changes.clone(),
                pointers: f
                    .changes
                    .iter()
                    .map(|c| c.pointer.clone())
                    .chain(f.misreads.iter().map(|m| m.pointer.clone()))
                    .chain(f.at.clone())
                    .collect(),
            })
        })
        .collect()
}

/// The verdict [`Report::verdict`] would give for these views.
fn verdict_of(r: &Report, views: &[View], without_jsonb: bool) -> Verdict {
    if views.iter().any(|v| !v.accepted) {
        Verdict::Divergent
    } else if !views.is_empty() {
        Verdict::Accepted
    } else if r
        .outcomes
        .iter()
        .any(|(p, o)| o.is_decoded() && !(without_jsonb && *p == DecodePath::JsonbWire))
    {
        Verdict::Equivalent
    } else {
        Verdict::Rejected
    }
}

fn classes_of(views: &[View]) -> BTreeSet<Class> {
    views.iter().map(|v| v.class).collect()
}

// -------------------------------------------------------------------------- the table

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    Err,
    Unencodable,
    NotApplicable,
}

impl Outcome {
    fn of(r: &PathResult) -> Self {
        match r {
            PathResult::Decoded(_) => Self::Ok,
            PathResult::Failed(_) => Self::Err,
            PathResult::Unencodable { .. } => Self::Unencodable,
            PathResult::NotApplicable(_) => Self::NotApplicable,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Expect {
    /// `*`: not checked.
    Any,
    /// The outcome, and optionally a path whose result this one equals exactly.
    Is(Outcome, Option<DecodePath>),
}

#[derive(Debug)]
struct Row {
    line: usize,
    case: String,
    dto: String,
    input: Vec<u8>,
    paths: [Expect; 5],
    classes: BTreeSet<Class>,
    verdict: Verdict,
    messages: Vec<(DecodePath, String)>,
    pointers: Vec<(Class, String)>,
}

fn path_named(name: &str) -> DecodePath {
    DecodePath::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .unwrap_or_else(|| panic!("no path {name:?}"))
}

fn class_named(name: &str) -> Class {
    Class::from_name(name).unwrap_or_else(|| panic!("no class {name:?}"))
}

fn verdict_named(name: &str) -> Verdict {
    [
        Verdict::Equivalent,
        Verdict::Rejected,
        Verdict::Accepted,
        Verdict::Divergent,
    ]
    .into_iter()
    .find(|v| v.name() == name)
    .unwrap_or_else(|| panic!("no verdict {name:?}"))
}

fn expect_named(field: &str) -> Expect {
    let (kind, same) = match field.split_once('=') {
        Some((k, p)) => (k, Some(path_named(p))),
        None => (field, None),
    };
    let outcome = match kind {
        "*" => return Expect::Any,
        "ok" => Outcome::Ok,
        "err" => Outcome::Err,
        "unencodable" => Outcome::Unencodable,
        "n/a" => Outcome::NotApplicable,
        _ => panic!("bad outcome {field:?}"),
    };
    Expect::Is(outcome, same)
}

/// `path:text;path:text` or `-`, with `parse` applied to the part before the colon.
fn pairs<K>(field: &str, parse: fn(&str) -> K) -> Vec<(K, String)> {
    if field == "-" {
        return Vec::new();
    }
    field
        .split(';')
        .map(|item| {
            let (k, v) = item
                .split_once(':')
                .unwrap_or_else(|| panic!("bad item {item:?}"));
            let v = if v == "(root)" { "" } else { v };
            (parse(k), v.to_owned())
        })
        .collect()
}

#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
/// The input notation, shared with the other tables: `\xHH` is one raw byte, `\R{N}{text}`
/// is `text` N times; every other byte (JSON escapes included) stands for itself.
use table_notation::unescape;

fn rows() -> Vec<Row> {
    CASES_TSV
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .filter(|(_, l)| in_this_mode(l.split('\t').next().unwrap_or_default()))
        .map(|(n, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                f.len(),
                12,
                "cases.tsv line {}: 12 columns expected, got {}",
                n + 1,
                f.len()
            );
            Row {
                line: n + 1,
                case: f[0].to_owned(),
                dto: f[1].to_owned(),
                input: unescape(f[2]),
                paths: [f[3], f[4], f[5], f[6], f[7]].map(expect_named),
                classes: if f[8] == "-" {
                    BTreeSet::new()
                } else {
                    f[8].split(',').map(class_named).collect()
                },
                verdict: verdict_named(f[9]),
                messages: pairs(f[10], path_named),
                pointers: pairs(f[11], class_named),
            }
        })
        .collect()
}

fn show_input(input: &[u8]) -> String {
    let s = String::from_utf8_lossy(input);
    if s.chars().count() > 70 {
        format!("{}…", s.chars().take(70).collect::<String>())
    } else {
        s.into_owned()
    }
}

/// Checks one row; returns what did not hold.
fn check_row(row: &Row, report: &Report) -> Vec<String> {
    let mut bad = Vec::new();
    let order: Vec<DecodePath> = report.outcomes.iter().map(|(p, _)| *p).collect();
    if order != DecodePath::ALL {
        bad.push(format!("outcomes not in DecodePath::ALL order: {order:?}"));
    }
    check_outcomes(row, report, &mut bad);
    let projected = views(report, true);
    check_findings(row, report, &projected, &mut bad);
    check_jsonb_findings(row, report, &mut bad);
    // The harness's verdict rule is the engine's.
    if report.verdict() != verdict_of(report, &views(report, false), false) {
        bad.push("Report::verdict disagrees with verdict_of".to_owned());
    }
    check_pointers(row, report, &projected, &mut bad);
    bad
}

/// Per-path outcomes and messages.
fn check_outcomes(row: &Row, report: &Report, bad: &mut Vec<String>) {
    for (path, expect) in DecodePath::ALL.into_iter().zip(row.paths) {
        let Expect::Is(want, same) = expect else {
            continue;
        };
        let got = outcome(report, path);
        if Outcome::of(got) != want {
            bad.push(format!("{path}: expected {want:?}, got {got:?}"));
        }
        if let Some(other) = same {
            if got != outcome(report, other) {
                bad.push(format!(
                    "{path}: expected the same result as {other}, got {got:?} vs {:?}",
                    outcome(report, other)
                ));
            }
        }
    }
    for (path, needle) in &row.messages {
        match outcome(report, *path) {
            PathResult::Failed(m) | PathResult::Unencodable { message: m, .. }
                if m.contains(needle.as_str()) => {}
            other => bad.push(format!(
                "{path}: expected a message containing {needle:?}, got {other:?}"
            )),
        }
    }
}

/// Classes and verdict among dom, direct, borrow and canonical.
fn check_findings(row: &Row, report: &Report, projected: &[View], bad: &mut Vec<String>) {
    let classes = classes_of(projected);
    if classes != row.classes {
        bad.push(format!(
            "classes (without jsonb): expected {:?}, got {classes:?}",
            row.classes
        ));
    }
    let verdict = verdict_of(report, projected, true);
    if verdict != row.verdict {
        bad.push(format!(
            "verdict (without jsonb): expected {:?}, got {verdict:?}",
            row.verdict
        ));
    }
    if projected.iter().any(|v| v.accepted) {
        bad.push("a finding is accepted, but no table DTO accepts anything".to_owned());
    }
}

/// With the jsonb path: a failing jsonb adds an error split when another path decodes;
/// a jsonb that decodes like another path (`ok=PATH`) adds nothing.
fn check_jsonb_findings(row: &Row, report: &Report, bad: &mut Vec<String>) {
    let Expect::Is(want, same) = row.paths[3] else {
        return;
    };
    let others_decoded = report
        .outcomes
        .iter()
        .any(|(p, o)| *p != DecodePath::JsonbWire && o.is_decoded());
    let mut expected = row.classes.clone();
    let comparable = match want {
        Outcome::Err | Outcome::NotApplicable => {
            if others_decoded {
                expected.insert(Class::ErrorSplit);
            }
            true
        }
        Outcome::Ok | Outcome::Unencodable => same.is_some() && others_decoded,
    };
    if !comparable {
        return;
    }
    let got = classes_of(&views(report, false));
    if got != expected {
        bad.push(format!(
            "classes (with jsonb): expected {expected:?}, got {got:?}"
        ));
    }
    let want_verdict = if !expected.is_empty() {
        Verdict::Divergent
    } else if report.outcomes.iter().any(|(_, o)| o.is_decoded()) {
        Verdict::Equivalent
    } else {
        Verdict::Rejected
    };
    if report.verdict() != want_verdict {
        bad.push(format!(
            "verdict (with jsonb): expected {want_verdict:?}, got {:?}",
            report.verdict()
        ));
    }
}

/// The pointers the row names, and a pointer for every value split and round trip
/// (unless a side has no canonical form: `bug_value_split_against_unencodable_has_no_pointer`).
fn check_pointers(row: &Row, report: &Report, projected: &[View], bad: &mut Vec<String>) {
    for (class, pointer) in &row.pointers {
        let found = projected
            .iter()
            .filter(|v| v.class == *class)
            .any(|v| v.pointers.iter().any(|p| p == pointer));
        if !found {
            let seen: Vec<(Class, Vec<&str>)> = projected
                .iter()
                .map(|v| (v.class, v.pointers.iter().map(String::as_str).collect()))
                .collect();
            bad.push(format!(
                "no {class} change at {pointer:?}; changes: {seen:?}"
            ));
        }
    }
    for v in projected {
        let unencodable_side = v
            .side
            .iter()
            .chain(&v.other)
            .any(|p| matches!(outcome(report, *p), PathResult::Unencodable { .. }));
        if v.class != Class::ErrorSplit && v.pointers.is_empty() && !unencodable_side {
            bad.push(format!(
                "{} between {:?} and {:?} has no changes",
                v.class, v.side, v.other
            ));
        }
    }
}

#[test]
fn table_of_divergences() {
    let registry = registry();
    let rows = rows();
    assert!(rows.len() >= 25, "only {} rows in cases.tsv", rows.len());
    let mut names = BTreeSet::new();
    let mut failures = String::new();
    for row in &rows {
        assert!(
            names.insert(row.case.as_str()),
            "cases.tsv line {}: duplicate case {:?}",
            row.line,
            row.case
        );
        let check = registry
            .iter()
            .find(|(n, _)| *n == row.dto)
            .unwrap_or_else(|| {
                panic!(
                    "cases.tsv line {}: no DTO {:?} in the registry",
                    row.line, row.dto
                )
            })
            .1;
        let report = check(&row.input);
        let bad = check_row(row, &report);
        if !bad.is_empty() {
            let _ = writeln!(
                failures,
                "\n--- line {} {} ({}, input {}):\n  {}\n{}",
                row.line,
                row.case,
                row.dto,
                show_input(&row.input),
                bad.join("\n  "),
                report.render(DiffStyle::default())
            );
        }
    }
    assert!(
        failures.is_empty(),
        "cases.tsv rows that do not hold:{failures}"
    );
}

/// The one-pass round-trip check (`Input::findings_only`, the live scan's) gives the
/// findings and verdict of the full check, for every input of the table (as written and as
/// its jsonb text) through every owned DTO above and the paths `direct` and `jsonb` (rows
/// proven clean and rows whose findings come from the walked places, both without the
/// comparison forms, among them); the full check is the report of every path kept to the
/// chosen ones.
#[test]
fn findings_only_gives_the_findings_of_the_full_check() {
    use equijson_check::jsonb::{JsonbOptions, is_normalized, normalize};
    let path_sets: [&[DecodePath]; 3] = [
        &[DecodePath::Direct, DecodePath::JsonbWire],
        &[DecodePath::Direct],
        &[DecodePath::JsonbWire],
    ];
    let (mut proven, mut walked, mut with_findings, mut checked) = (0usize, 0usize, 0usize, 0usize);
    for row in rows() {
        let mut texts = vec![row.input.clone()];
        if let Ok(t) = normalize(&row.input, &JsonbOptions::default()) {
            texts.push(t.into_bytes());
        }
        for text in &texts {
            let input = if is_normalized(text) {
                Input::jsonb_unchanged(text)
            } else {
                Input::new(text)
            };
            for (dto, check) in paths_registry() {
                for paths in path_sets {
                    checked += 1;
                    let full = check(&input, paths);
                    let fast = check(&input.for_findings(), paths);
                    let at = format!("line {} {dto} {paths:?}: {}", row.line, show_input(text));
                    // Every path (`from_slice`), kept to these: the chosen paths' report.
                    if let Some((_, every)) = registry().iter().find(|(n, _)| n == dto) {
                        let every = keep_paths(every(text), text, paths, &[]);
                        assert_eq!(full, every, "{at}");
                    }
                    assert_eq!(fast.findings, full.findings, "{at}");
                    assert_eq!(fast.verdict(), full.verdict(), "{at}");
                    let bare = fast.input_canonical.as_ref().is_ok_and(Vec::is_empty)
                        && fast
                            .outcomes
                            .iter()
                            .all(|(_, r)| matches!(r, PathResult::Decoded(c) if c.is_empty()));
                    if bare {
                        // Decided without the forms: proven clean, or the walked places.
                        assert!(input.jsonb_unchanged, "{at}");
                        if full.findings.is_empty() {
                            proven += 1;
                        } else {
                            walked += 1;
                        }
                    } else {
                        assert_eq!(fast.outcomes, full.outcomes, "{at}");
                        assert_eq!(fast.input_canonical, full.input_canonical, "{at}");
                        with_findings += usize::from(!full.findings.is_empty());
                    }
                }
            }
        }
    }
    // No side is vacuous.
    assert!(proven > 50, "{proven} of {checked} proven clean");
    assert!(walked > 50, "{walked} of {checked} with walked findings");
    assert!(
        with_findings > 50,
        "{with_findings} of {checked} with findings"
    );
}

#[test]
fn every_registered_dto_is_used_by_the_table() {
    let rows = rows();
    for (name, _) in registry() {
        assert!(
            rows.iter().any(|r| r.dto == *name),
            "DTO {name} is registered but no row uses it"
        );
    }
}

#[test]
fn table_notation() {
    assert_eq!(unescape(r"a\xFFb"), b"a\xFFb");
    assert_eq!(unescape(r"\R{3}{[}0\R{3}{]}"), b"[[[0]]]");
    assert_eq!(unescape(r#"{"\u0031":"a\nb"}"#), br#"{"\u0031":"a\nb"}"#);
}

// ----------------------------------------------------------------- findings in detail

#[test]
fn error_split_lists_decoding_and_failing_paths_with_messages() {
    let r = check::<Plain>(br#"{"a":1,"a":2}"#, &[]);
    assert!(
        r.input_canonical
            .as_ref()
            .is_err_and(|e| e.contains("duplicate object key \"a\""))
    );
    let v = views(&r, true);
    assert_eq!(v.len(), 2, "{v:?}");
    // The duplicate itself comes first, with the pointer of the later member.
    assert_eq!(v[0].class, Class::DuplicateName);
    assert_eq!(v[0].pointers, ["/a"]);
    assert_eq!(v[1].class, Class::ErrorSplit);
    assert_eq!(v[1].side, [DecodePath::Dom, DecodePath::Borrow]);
    assert_eq!(v[1].other, [DecodePath::Direct, DecodePath::Canonical]);
    let f = &r.findings[1];
    let direct = f
        .errors
        .iter()
        .find(|(p, _)| *p == DecodePath::Direct)
        .unwrap();
    assert!(direct.1.starts_with("duplicate field `a`"), "{direct:?}");
    assert_eq!(
        outcome(&r, DecodePath::Dom),
        &PathResult::Decoded(br#"{"a":2}"#.to_vec())
    );
    assert_eq!(
        outcome(&r, DecodePath::Borrow),
        outcome(&r, DecodePath::Dom)
    );
    // PostgreSQL keeps the last value, as the DOM does.
    assert_eq!(
        outcome(&r, DecodePath::JsonbWire),
        outcome(&r, DecodePath::Dom)
    );
    assert_eq!(
        f.paths,
        [DecodePath::Dom, DecodePath::Borrow, DecodePath::JsonbWire]
    );
}

#[test]
fn f32_value_split_points_at_the_field() {
    if !float_roundtrip() {
        return;
    }
    let r = check::<Ratio>(br#"{"a":1.0000000596046448}"#, &[]);
    assert_eq!(
        outcome(&r, DecodePath::Dom),
        &PathResult::Decoded(br#"{"a":1}"#.to_vec())
    );
    assert_eq!(
        outcome(&r, DecodePath::Direct),
        &PathResult::Decoded(br#"{"a":1.0000001}"#.to_vec())
    );
    let v = views(&r, true);
    let split: Vec<&View> = v.iter().filter(|v| v.class == Class::ValueSplit).collect();
    assert_eq!(split.len(), 1, "{v:?}");
    assert_eq!(split[0].side, [DecodePath::Dom, DecodePath::Borrow]);
    assert_eq!(split[0].other, [DecodePath::Direct, DecodePath::Canonical]);
    assert_eq!(split[0].changes.len(), 1);
    let c = &split[0].changes[0];
    assert_eq!(c.pointer, "/a");
    assert_eq!(c.old.as_ref().unwrap().text, "1");
    assert_eq!(c.new.as_ref().unwrap().text, "1.0000001");
    // The baseline (DOM) lost the input's digits.
    let rt: Vec<&View> = v
        .iter()
        .filter(|v| v.class == Class::RoundTripLoss)
        .collect();
    assert_eq!(rt.len(), 1);
    assert_eq!(rt[0].side, [DecodePath::Dom, DecodePath::Borrow]);
    assert_eq!(rt[0].changes[0].pointer, "/a");
    assert_eq!(
        rt[0].changes[0].old.as_ref().unwrap().text,
        "1.0000000596046448"
    );
}

#[test]
fn infinite_f32_is_unencodable_not_failed() {
    if !float_roundtrip() {
        return;
    }
    let r = check::<Ratio>(br#"{"a":1e39}"#, &[]);
    for path in [DecodePath::Dom, DecodePath::Borrow] {
        match outcome(&r, path) {
            PathResult::Unencodable { pointer, .. } => assert_eq!(pointer, "/a"),
            other => panic!("{path}: {other:?}"),
        }
    }
    let v = views(&r, true);
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0].side, [DecodePath::Dom, DecodePath::Borrow]);
    assert_eq!(v[0].other, [DecodePath::Direct, DecodePath::Canonical]);
    // The infinite value also fails the round trip, at the member that has no JSON form.
    assert_eq!(v[1].class, Class::RoundTripLoss);
    assert_eq!(v[1].changes.len(), 1);
    assert_eq!(v[1].changes[0].pointer, "/a");
    assert!(v[1].changes[0].new.is_none());
}

// -------------------------------------------------------------------------- accepting

const DUP: &[u8] = br#"{"a":1,"a":2}"#;
const DOUBLE_ROUNDING: &[u8] = br#"{"a":1.0000000596046448}"#;

const fn accept(class: Class, only: &'static [DecodePath], reason: &'static str) -> Accept {
    Accept {
        class,
        only,
        reason,
    }
}

/// Until the jsonb model lands its path fails on everything: accept that, alone.
const JSONB_SPLIT: Accept = accept(Class::ErrorSplit, &[DecodePath::JsonbWire], "jsonb only");
const JSONB_ONLY: &[Accept] = &[JSONB_SPLIT];
const FAILING_PATHS: &[Accept] = &[accept(
    Class::ErrorSplit,
    &[
        DecodePath::Direct,
        DecodePath::JsonbWire,
        DecodePath::Canonical,
    ],
    "duplicates are rejected on purpose",
)];
const ANY_ERROR_SPLIT: &[Accept] = &[accept(Class::ErrorSplit, &[], "any")];
const VALUE_SPLITS_ONLY: &[Accept] = &[accept(Class::ValueSplit, &[], "wrong class")];
/// The value split's other side is direct *and* canonical (and jsonb).
const DIRECT_VALUE_SPLIT: &[Accept] = &[
    JSONB_SPLIT,
    accept(Class::ValueSplit, &[DecodePath::Direct], "direct only"),
    accept(Class::RoundTripLoss, &[], "f32 precision"),
];
/// Round trips are scoped by the baseline's paths (here dom and borrow).
const DIRECT_ROUND_TRIP: &[Accept] = &[
    JSONB_SPLIT,
    accept(Class::ValueSplit, &[], "any"),
    accept(Class::RoundTripLoss, &[DecodePath::Direct], "direct only"),
];
const F32_FROM_TEXT: &[Accept] = &[
    JSONB_SPLIT,
    accept(
        Class::ValueSplit,
        &[
            DecodePath::Direct,
            DecodePath::JsonbWire,
            DecodePath::Canonical,
        ],
        "f32 parsed from text",
    ),
    accept(
        Class::RoundTripLoss,
        &[DecodePath::Dom, DecodePath::Borrow],
        "f32",
    ),
];

#[test]
fn accept_is_scoped_to_the_failing_paths() {
    let r = check::<Plain>(DUP, JSONB_ONLY);
    let split = r
        .findings
        .iter()
        .find(|f| f.class == Class::ErrorSplit)
        .unwrap();
    assert!(split.errors.iter().any(|(p, _)| *p == DecodePath::Direct));
    assert!(
        !split.accepted,
        "an Accept for jsonb only must not accept a failing direct path"
    );
    assert_eq!(r.verdict(), Verdict::Divergent);
    assert!(
        !r.render(DiffStyle::default())
            .contains("accepted by the DTO")
    );

    // An error-split Accept does not accept the duplicate names themselves.
    let r = check::<Plain>(DUP, FAILING_PATHS);
    assert!(
        r.findings
            .iter()
            .all(|f| f.accepted != (f.class == Class::DuplicateName)),
        "{:?}",
        r.findings
    );
    assert_eq!(r.verdict(), Verdict::Divergent);
    assert!(
        r.render(DiffStyle::default())
            .contains("error-split (accepted by the DTO)")
    );

    let split_accepted = |r: &Report| {
        r.findings
            .iter()
            .any(|f| f.class == Class::ErrorSplit && f.accepted)
    };
    assert!(split_accepted(&check::<Plain>(DUP, ANY_ERROR_SPLIT)));
    assert!(!split_accepted(&check::<Plain>(DUP, VALUE_SPLITS_ONLY)));
}

#[test]
fn accept_for_jsonb_covers_a_jsonb_only_error_split() {
    // Every path but jsonb decodes it (PostgreSQL rejects \u0000; the stub rejects all).
    let r = check::<Text>(br#"{"a":"\u0000"}"#, JSONB_ONLY);
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.class, Class::ErrorSplit);
    assert_eq!(
        f.errors.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [DecodePath::JsonbWire]
    );
    assert!(f.accepted);
    assert_eq!(r.verdict(), Verdict::Accepted);
    assert!(!r.is_divergent());
}

#[test]
fn accept_is_scoped_per_class_for_value_splits_and_round_trips() {
    if !float_roundtrip() {
        return;
    }
    let accepted = |r: &Report| -> BTreeMap<Class, bool> {
        r.findings.iter().map(|f| (f.class, f.accepted)).collect()
    };

    let r = check::<Ratio>(DOUBLE_ROUNDING, DIRECT_VALUE_SPLIT);
    assert_eq!(
        accepted(&r).get(&Class::ValueSplit),
        Some(&false),
        "{:?}",
        r.findings
    );
    assert_eq!(accepted(&r).get(&Class::RoundTripLoss), Some(&true));
    assert_eq!(r.verdict(), Verdict::Divergent);

    let r = check::<Ratio>(DOUBLE_ROUNDING, DIRECT_ROUND_TRIP);
    assert_eq!(accepted(&r).get(&Class::ValueSplit), Some(&true));
    assert_eq!(accepted(&r).get(&Class::RoundTripLoss), Some(&false));
    assert_eq!(r.verdict(), Verdict::Divergent);

    let r = check::<Ratio>(DOUBLE_ROUNDING, F32_FROM_TEXT);
    assert!(r.findings.iter().all(|f| f.accepted), "{:?}", r.findings);
    assert_eq!(r.verdict(), Verdict::Accepted);
    let text = r.render(DiffStyle::default());
    assert!(text.contains("value-split (accepted by the DTO)"), "{text}");
    assert!(
        text.contains("round-trip-loss (accepted by the DTO)"),
        "{text}"
    );
}

// ------------------------------------------------------------------ verdicts, rendering

#[test]
fn no_divergence_is_equivalent() {
    for (input, check) in [
        (&br#"{"a":7}"#[..], (|i| check::<Plain>(i, &[])) as CheckFn),
        (br#"{"a":"caf\u00e9 \"x\""}"#, |i| check::<Text>(i, &[])),
        (br#"{"a":0.1}"#, |i| check::<Measure>(i, &[])),
        (br#"{"a":"plain"}"#, |i| check_borrowed::<MemoF>(i, &[])),
        (br#"[{"k":[1,2.5,"x",null,true]}]"#, |i| {
            check::<Value>(i, &[])
        }),
    ] {
        let r = check(input);
        let shown = show_input(input);
        let mut results = r
            .outcomes
            .iter()
            .filter(|(p, o)| {
                *p != DecodePath::JsonbWire && !matches!(o, PathResult::NotApplicable(_))
            })
            .map(|(_, o)| o);
        let first = results.next().unwrap();
        assert!(
            matches!(first, PathResult::Decoded(_)),
            "{shown}: {:?}",
            r.outcomes
        );
        assert!(
            results.all(|o| o == first),
            "{shown}: paths disagree: {:?}",
            r.outcomes
        );
        assert!(r.findings.is_empty(), "{shown}: {:?}", r.findings);
        assert_eq!(r.verdict(), Verdict::Equivalent, "{shown}");
    }
}

#[test]
fn rejected_by_every_path_is_rejected() {
    for input in [
        &br#"{"a":"x"}"#[..],
        br#"{"a":-1}"#,
        b"[1,",
        b"",
        br#"{"a":1,"z":1e400,"b":2}"#,
    ] {
        let r = check::<Strict>(input, &[]);
        let shown = show_input(input);
        assert!(
            r.outcomes
                .iter()
                .all(|(_, o)| matches!(o, PathResult::Failed(_))),
            "{shown}: {:?}",
            r.outcomes
        );
        assert!(r.findings.is_empty(), "{shown}: {:?}", r.findings);
        assert_eq!(r.verdict(), Verdict::Rejected, "{shown}");
        assert!(!r.is_divergent());
        assert!(
            r.render(DiffStyle::default())
                .starts_with("verdict: rejected\n")
        );
    }
}

#[test]
fn redacted_render_shows_pointers_not_values() {
    let input =
        br#"{"token":"sk_live_7Hq2xSECRET","rate":1.0000000596046448,"comment":"pin 4921 SECRET"}"#;
    let r = check::<Credentials>(input, &[]);
    let classes = classes_of(&views(&r, true));
    // The f32 rate splits the paths only where serde_json reads f32 from the text.
    let split = float_roundtrip();
    let mut expected = BTreeSet::from([Class::RoundTripLoss]);
    if split {
        expected.insert(Class::ValueSplit);
    }
    assert_eq!(classes, expected);

    let plain = r.render(DiffStyle::default());
    assert!(
        plain.contains("sk_live_7Hq2xSECRET"),
        "the unredacted report shows values:\n{plain}"
    );
    assert!(plain.contains("1.0000000596046448"), "{plain}");

    let redacted = r.render(DiffStyle {
        redact: true,
        max_value_chars: 80,
    });
    for secret in [
        "sk_live_7Hq2xSECRET",
        "SECRET",
        "4921",
        "1.0000001",
        "1.0000000596046448",
    ] {
        assert!(
            !redacted.contains(secret),
            "redacted report shows {secret:?}:\n{redacted}"
        );
    }
    for shown in [
        "~ /rate: number -> number",
        "- /comment: string(15)",
        if split {
            "value-split"
        } else {
            "round-trip-loss"
        },
        "round-trip-loss",
    ] {
        assert!(
            redacted.contains(shown),
            "redacted report lacks {shown:?}:\n{redacted}"
        );
    }
    assert!(
        redacted.contains("ok (") && redacted.contains(" bytes canonical)"),
        "{redacted}"
    );
}

// ------------------------------------------------------------------------ catalogue

#[test]
fn catalogue_samples_have_their_documented_verdicts() {
    let expected = [
        ("contact", Verdict::Equivalent),
        ("drive-policy", Verdict::Equivalent),
        ("event-context", Verdict::Equivalent),
        ("articles", Verdict::Equivalent),
        ("ledger-entry", Verdict::Divergent),
        // The sample's 9007199254740993 comes back rounded from the canonical path, a
        // value split the `value` DTO declares acceptable.
        ("value", Verdict::Accepted),
    ];
    let catalogue = equijson_check::dto::catalogue();
    assert_eq!(catalogue.len(), expected.len());
    for spec in catalogue {
        let want = expected
            .iter()
            .find(|(n, _)| *n == spec.name)
            .unwrap_or_else(|| panic!("catalogue DTO {} has no expected verdict here", spec.name))
            .1;
        let r = (spec.check)(spec.sample.as_bytes());
        let got = r.verdict();
        assert_eq!(
            got,
            want,
            "{}:\n{}",
            spec.name,
            r.render(DiffStyle::default())
        );
        assert!(
            spec.accepts.iter().all(|a| !a.reason.is_empty()),
            "{}",
            spec.name
        );
    }
}

/// `ledger-entry` is the catalogue's divergent example: the i128 amount beyond 64 bits is
/// exact on the direct path and fails on the DOM-based borrow path; the f32 rate does not
/// round-trip.
#[test]
fn ledger_entry_sample_diverges() {
    let spec = equijson_check::dto::find("ledger-entry").unwrap();
    let r = (spec.check)(spec.sample.as_bytes());
    assert_eq!(
        r,
        check_borrowed::<equijson_check::dto::LedgerEntryFamily>(spec.sample.as_bytes(), &[])
    );
    assert!(matches!(
        outcome(&r, DecodePath::Dom),
        PathResult::NotApplicable(_)
    ));
    match outcome(&r, DecodePath::Direct) {
        PathResult::Decoded(b) => {
            // Read from the text as an f32 with float_roundtrip; as an f64, then cast, without.
            let rate = if float_roundtrip() {
                r#""fx_rate":1.0000001"#
            } else {
                r#""fx_rate":1,"#
            };
            assert!(String::from_utf8_lossy(b).contains(rate), "{b:?}");
        }
        other => panic!("direct: {other:?}"),
    }
    assert!(
        matches!(outcome(&r, DecodePath::Borrow), PathResult::Failed(m) if m.contains("expected i128"))
    );
    assert_eq!(
        outcome(&r, DecodePath::JsonbWire),
        outcome(&r, DecodePath::Direct)
    );
    let v = views(&r, true);
    assert_eq!(
        classes_of(&v),
        BTreeSet::from([Class::ErrorSplit, Class::ValueSplit, Class::RoundTripLoss])
    );
    let split = v.iter().find(|v| v.class == Class::ErrorSplit).unwrap();
    assert_eq!(split.other, [DecodePath::Borrow]);
    // The canonical path reads the amount as 18446744073709552000 (a double).
    let values = v.iter().find(|v| v.class == Class::ValueSplit).unwrap();
    assert_eq!(values.other, [DecodePath::Canonical]);
    assert!(
        values.changes.iter().any(|c| c.pointer == "/amount_minor"),
        "{:?}",
        values.changes
    );
    let rt = v.iter().find(|v| v.class == Class::RoundTripLoss).unwrap();
    assert_eq!(
        rt.changes
            .iter()
            .map(|c| c.pointer.as_str())
            .collect::<Vec<_>>(),
        ["/fx_rate"]
    );
    assert_eq!(r.verdict(), Verdict::Divergent);
}

/// A memo with escapes cannot be borrowed from any text, and the borrow path fails on the
/// amount: every path rejects such a ledger line (`Rejected`, not `Divergent`), so the
/// sample must keep its memo free of escapes.
#[test]
fn ledger_entry_with_escaped_memo_is_rejected_by_every_path() {
    let spec = equijson_check::dto::find("ledger-entry").unwrap();
    let input = br#"{"account":"4000-sales","amount_minor":170141183460469231731687303715884105727,"fx_rate":1.0000000596046448,"memo":"Q4 \"true-up\"\nsee ticket"}"#;
    let r = (spec.check)(input);
    assert!(
        matches!(outcome(&r, DecodePath::Direct), PathResult::Failed(m) if m.contains("expected a borrowed string"))
    );
    assert!(
        matches!(outcome(&r, DecodePath::Borrow), PathResult::Failed(m) if m.contains("expected i128"))
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.verdict(), Verdict::Rejected);
}

// ---------------------------------------------------------------------- known bugs

#[test]
fn regression_integers_beyond_2_pow_53_are_compared_exactly() {
    // The canonical path reads 9007199254740992; every other path 9007199254740993.
    let r = check::<Count>(br#"{"a":9007199254740993}"#, &[]);
    let split = r.findings.iter().find(|f| f.class == Class::ValueSplit);
    let split =
        split.unwrap_or_else(|| panic!("no value split:\n{}", r.render(DiffStyle::default())));
    assert!(
        split.against.contains(&DecodePath::Canonical)
            || split.paths.contains(&DecodePath::Canonical)
    );
    assert!(split.changes.iter().any(|c| c.pointer == "/a"));

    // Direct: 18446744073709551617; canonical: 18446744073709552000.
    let r = check::<WideU>(br#"{"a":18446744073709551617}"#, &[]);
    assert!(
        r.findings.iter().any(|f| f.class == Class::ValueSplit),
        "no value split:\n{}",
        r.render(DiffStyle::default())
    );

    // The ledger-entry sample: direct reads 18446744073709551616, canonical
    // 18446744073709552000, and both are reported as one value.
    let spec = equijson_check::dto::find("ledger-entry").unwrap();
    let r = (spec.check)(spec.sample.as_bytes());
    assert!(
        r.findings.iter().any(|f| f.class == Class::ValueSplit),
        "no value split:\n{}",
        r.render(DiffStyle::default())
    );
}

#[test]
fn regression_value_split_against_unencodable_has_a_pointer() {
    if !float_roundtrip() {
        return;
    }
    // DOM: f64 lands on the halfway point above f32::MAX and the cast gives infinity;
    // direct: f32::MAX.
    let r = check::<Ratio>(br#"{"a":340282356779733661637539395458142568447}"#, &[]);
    let split = r
        .findings
        .iter()
        .find(|f| f.class == Class::ValueSplit)
        .unwrap();
    assert!(
        split.changes.iter().any(|c| c.pointer == "/a"),
        "{:?}",
        split.changes
    );
}

#[test]
fn regression_redacted_render_hides_values_in_error_messages() {
    let r = check_borrowed::<MemoF>(br#"{"a":"sk_live_7Hq2xSECRET\n"}"#, &[]);
    let redacted = r.render(DiffStyle {
        redact: true,
        max_value_chars: 80,
    });
    assert!(!redacted.contains("sk_live_7Hq2xSECRET"), "{redacted}");
}

/// PostgreSQL's DETAIL quotes a string token with its own quote and escapes inside the
/// message's quotes (`Token ""secret" is invalid.`): a redacted report showed `secret`
/// between two quoted parts. Each row: input, the redacted jsonb line's DETAIL.
#[test]
fn regression_redacted_render_hides_string_tokens_in_postgres_details() {
    let rows: &[(&[u8], &str)] = &[
        (br#"{"s": "secret"#, "Token <7 chars> is invalid."),
        (br#"{"s": " secret"#, "Token <8 chars> is invalid."),
        (
            br#"{"s": "x"  "secret"}"#,
            "Expected <1 chars> or <1 chars>, but found <8 chars>.",
        ),
        (
            br#"{"a":1, "b" "secret"}"#,
            "Expected <1 chars>, but found <8 chars>.",
        ),
        (
            br#"[1 "sec\" ret"]"#,
            "Expected <1 chars> or <1 chars>, but found <11 chars>.",
        ),
        (
            br#""x" "secret" "#,
            "Expected end of input, but found <8 chars>.",
        ),
        (
            br#"["\"" "secret"]"#,
            "Expected <1 chars> or <1 chars>, but found <8 chars>.",
        ),
        (
            br#"{"s": "\qsecret"}"#,
            "Escape sequence <2 chars> is invalid.",
        ),
        (b"[1, secret]", "Token <6 chars> is invalid."),
    ];
    let style = DiffStyle {
        redact: true,
        max_value_chars: 80,
    };
    for (input, detail) in rows {
        let text = String::from_utf8_lossy(input);
        let r = equijson_check::decode::check::<Value>(input, &[]);
        let redacted = r.render(style);
        // Every token holds `ret` (`secret`, `sec\" ret`); no other text of a report does.
        assert!(!redacted.contains("ret"), "{text}:\n{redacted}");
        let jsonb = redacted
            .lines()
            .find(|l| l.trim_start().starts_with("jsonb"))
            .unwrap_or("");
        assert!(
            jsonb.contains(detail),
            "{text}: {detail:?} not in\n{redacted}"
        );
        // Unredacted, the same line names the token (an invalid escape's is the one letter).
        let plain = r.render(DiffStyle {
            redact: false,
            ..style
        });
        assert!(
            plain.contains("ret") || detail.starts_with("Escape"),
            "{text}"
        );
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ContactKind {
    Work,
    Home,
}

#[derive(Serialize, Deserialize)]
struct TypedContact {
    kind: ContactKind,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StrictContact {
    kind: String,
}

/// serde quotes an unknown variant (a value) or field between backticks without escaping
/// one inside it: a redacted report showed `cret x` after ``unknown variant `se`` .
#[test]
fn regression_redacted_render_hides_unknown_variants_with_backticks() {
    let style = DiffStyle {
        redact: true,
        max_value_chars: 80,
    };
    let variant = check::<TypedContact>(br#"{"kind":"se`cret x"}"#, &[]).render(style);
    assert!(!variant.contains("cret"), "{variant}");
    assert!(
        variant.contains("unknown variant <9 chars>, expected <4 chars> or <4 chars>"),
        "{variant}"
    );
    let field = check::<StrictContact>(br#"{"kind":"a","se`cret x":1}"#, &[]).render(style);
    assert!(!field.contains("cret"), "{field}");
    assert!(
        field.contains("unknown field <9 chars>, expected <4 chars>"),
        "{field}"
    );
    // Without backticks inside, the same as before.
    let plain = check::<TypedContact>(br#"{"kind":"secret"}"#, &[]).render(style);
    assert!(!plain.contains("secret"), "{plain}");
    assert!(
        plain.contains("unknown variant <6 chars>, expected"),
        "{plain}"
    );
}

/// The decode check shares work between paths (one `Value` parse, the jsonb text reused
/// when it is the input itself, each distinct decoded value serialized once): it must give
/// the reference implementation's report, to the byte, for every input of the table with
/// every DTO of the table (owned, borrowed, untagged, flattened, `f32`, `i128`, maps), for
/// the input's jsonb text, and with the jsonb model's text handed in as the live scan does.
#[test]
fn shared_work_gives_the_reference_report_for_every_table_input_and_dto() {
    use equijson_check::decode::Input;
    use equijson_check::jsonb::{JsonbOptions, normalize};
    let rows = rows();
    let mut inputs: Vec<Vec<u8>> = rows.iter().map(|r| r.input.clone()).collect();
    for r in &rows {
        if let Ok(t) = normalize(&r.input, &JsonbOptions::default()) {
            inputs.push(t.into_bytes());
        }
    }
    let mut compared = 0usize;
    let mut divergent = 0usize;
    for ((name, fast), (ref_name, reference)) in registry().iter().zip(reference_registry()) {
        assert_eq!(name, ref_name);
        for input in &inputs {
            let expected = reference(input);
            assert_eq!(fast(input), expected, "{name} on {}", show_input(input));
            divergent += usize::from(expected.is_divergent());
            compared += 1;
        }
    }
    // With the model's text handed in (the live scan's call), through the catalogue's hook.
    for spec in equijson_check::dto::catalogue() {
        for input in &inputs {
            let model = normalize(input, &JsonbOptions::default());
            let expected = (spec.check_reference)(input);
            assert_eq!(
                (spec.check_input)(&Input::with_jsonb(input, &model)),
                expected,
                "{} on {}",
                spec.name,
                show_input(input)
            );
            assert_eq!(
                (spec.check)(input),
                expected,
                "{} on {}",
                spec.name,
                show_input(input)
            );
            compared += 1;
        }
    }
    assert!(
        compared > 4000 && divergent > 100,
        "{compared} compared, {divergent} divergent"
    );
}
