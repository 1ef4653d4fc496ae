//! Table-driven tests of what the parser rejects and accepts.
//!
//! - `tests/data/errors.tsv`: rejected inputs with the exact [`ErrorKind`], byte offset,
//!   line, column and (optionally) Display text. The notation is explained at the top of
//!   the file.
//! - `tests/data/canonical.tsv`: accepted inputs and their exact canonical bytes.
//! - Deep nesting (a million levels) is built in code below, run on a thread with a
//!   deliberately small stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use equijson::{
    Canonicalizer, Document, ErrorKind, InexactNumbers, NegativeZero, Noncharacters, Options,
};

const ERRORS_TSV: &str = include_str!("../../../tests/data/errors.tsv");
const CANONICAL_TSV: &str = include_str!("../../../tests/data/canonical.tsv");

#[path = "shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

/// Shows bytes for a failure message: valid UTF-8 as a Rust string literal, else hex-escaped.
fn show(bytes: &[u8]) -> String {
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        let _ = write!(s, "{}", chunk.valid().escape_debug());
        for b in chunk.invalid() {
            let _ = write!(s, "\\x{b:02X}");
        }
    }
    if s.len() > 120 {
        let mut cut = 120;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    format!("\"{s}\"")
}

fn parse_options(spec: &str) -> Options {
    let mut o = Options::default();
    if spec == "default" {
        return o;
    }
    for part in spec.split(',') {
        o = match part.trim() {
            "reject-negative-zero" => o.negative_zero(NegativeZero::Reject),
            "reject-inexact" => o.inexact_numbers(InexactNumbers::Reject),
            "reject-noncharacters" => o.noncharacters(Noncharacters::Reject),
            p if p.starts_with("max-depth=") => {
                o.max_depth(p["max-depth=".len()..].parse().unwrap())
            }
            other => panic!("unknown option {other:?} in table"),
        };
    }
    o
}

/// The table spelling of an error kind: `Variant` or `Variant(payload)`.
fn kind_repr(k: &ErrorKind) -> String {
    match k {
        ErrorKind::UnexpectedEof { expected } => format!("UnexpectedEof({expected})"),
        ErrorKind::UnexpectedCharacter { found, expected } => {
            format!(
                "UnexpectedCharacter(U+{:04X}, {expected})",
                u32::from(*found)
            )
        }
        ErrorKind::ControlCharacterInString(b) => format!("ControlCharacterInString(0x{b:02X})"),
        ErrorKind::LoneSurrogate(u) => format!("LoneSurrogate(U+{u:04X})"),
        ErrorKind::Noncharacter(c) => format!("Noncharacter(U+{:04X})", u32::from(*c)),
        ErrorKind::InvalidNumber(why) => format!("InvalidNumber({why})"),
        ErrorKind::InvalidLiteral(word) => format!("InvalidLiteral({word})"),
        ErrorKind::InexactNumber { written, becomes } => {
            format!("InexactNumber({written} -> {becomes})")
        }
        ErrorKind::DuplicateKey(name) => format!("DuplicateKey({name})"),
        ErrorKind::NestingTooDeep { limit } => format!("NestingTooDeep({limit})"),
        // Unit variants (TrailingComma, InvalidUtf8, ...) and any added later.
        other => format!("{other:?}"),
    }
}

/// Kinds that only a non-default policy produces: the same input must pass by default.
fn is_policy_kind(k: &ErrorKind) -> bool {
    matches!(
        k,
        ErrorKind::NegativeZero
            | ErrorKind::InexactNumber { .. }
            | ErrorKind::Noncharacter(_)
            | ErrorKind::NestingTooDeep { .. }
    )
}

/// Data lines of a table: (1-based line number in the file, fields).
fn rows(table: &str) -> Vec<(usize, Vec<&str>)> {
    table
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            (
                i + 1,
                l.strip_suffix('\r').unwrap_or(l).split('\t').collect(),
            )
        })
        .collect()
}

/// One canonicalizer per options spelling, reused across rows to check it resets between calls.
#[derive(Default)]
struct Reused(BTreeMap<String, Canonicalizer>);

impl Reused {
    fn get(&mut self, spec: &str) -> &mut Canonicalizer {
        self.0
            .entry(spec.to_owned())
            .or_insert_with(|| Canonicalizer::new(parse_options(spec)))
    }
}

/// Checks every row of an error table; returns the failures.
fn check_error_rows(file: &str, table: &str) -> (usize, Vec<String>) {
    let rows = rows(table);
    let mut reused = Reused::default();
    let mut failures = Vec::new();
    for (n, f) in &rows {
        assert!(
            f.len() == 6 || f.len() == 7,
            "{file}:{n}: expected 6 or 7 TAB-separated fields, found {}",
            f.len()
        );
        let input = unescape(f[0]);
        let spec = f[1];
        let opts = parse_options(spec);
        let want_kind = String::from_utf8(unescape(f[2])).unwrap();
        let want: [usize; 3] = [
            f[3].parse().unwrap(),
            f[4].parse().unwrap(),
            f[5].parse().unwrap(),
        ];
        let want_display = f.get(6).map(|d| String::from_utf8(unescape(d)).unwrap());
        let ctx = format!("{file}:{n}: {} [{spec}]", show(&input));

        let err = match equijson::canonicalize_with(&input, &opts) {
            Ok(out) => {
                failures.push(format!(
                    "{ctx}: accepted, gave {}; want {want_kind}",
                    show(&out)
                ));
                continue;
            }
            Err(e) => e,
        };
        let got_kind = kind_repr(err.kind());
        let got = [
            err.offset().unwrap_or(usize::MAX),
            err.line().unwrap_or(0),
            err.column().unwrap_or(0),
        ];
        if got_kind != want_kind || got != want {
            failures.push(format!(
                "{ctx}:\n      got  {got_kind} at offset {} line {} col {}\n      want {want_kind} at offset {} line {} col {}",
                got[0], got[1], got[2], want[0], want[1], want[2]
            ));
            continue;
        }
        let display = err.to_string();
        let prefixed = format!("{}:{}: {}", got[1], got[2], err.message());
        if display != prefixed {
            failures.push(format!(
                "{ctx}: Display {display:?} is not LINE:COL: message ({prefixed:?})"
            ));
        }
        if let Some(d) = want_display {
            if display != d {
                failures.push(format!(
                    "{ctx}:\n      got  Display {display:?}\n      want Display {d:?}"
                ));
            }
        }
        if err.pointer().is_some() {
            failures.push(format!("{ctx}: a text error must not carry a JSON pointer"));
        }
        // Every entry point reports the very same error.
        match equijson::validate(&input, &opts) {
            Err(e) if e == err => {}
            other => failures.push(format!(
                "{ctx}: validate gave {other:?}, canonicalize gave {err:?}"
            )),
        }
        match Document::parse_with(&input, &opts) {
            Err(e) if e == err => {}
            other => failures.push(format!("{ctx}: Document::parse_with gave {other:?}")),
        }
        let mut out = b"prefix".to_vec();
        match reused.get(spec).canonicalize_into(&input, &mut out) {
            Err(e) if e == err => {}
            other => failures.push(format!("{ctx}: reused Canonicalizer gave {other:?}")),
        }
        if out != b"prefix" {
            failures.push(format!(
                "{ctx}: canonicalize_into wrote {} on error",
                show(&out)
            ));
        }
        // Policy errors are policy errors: the defaults accept the same text, or reject it
        // only for something found later in it.
        if is_policy_kind(err.kind()) {
            if let Err(e) = equijson::canonicalize(&input) {
                if e.offset() <= err.offset() {
                    failures.push(format!(
                        "{ctx}: {got_kind} is a policy error, but the defaults reject it too: {e}"
                    ));
                }
            }
        }
    }
    (rows.len(), failures)
}

#[test]
fn error_table() {
    let (n, failures) = check_error_rows("errors.tsv", ERRORS_TSV);
    assert!(n >= 250, "errors.tsv has only {n} rows");
    assert!(
        failures.is_empty(),
        "{} of {n} rows failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

#[test]
fn canonical_table() {
    let rows = rows(CANONICAL_TSV);
    assert!(
        rows.len() >= 120,
        "canonical.tsv has only {} rows",
        rows.len()
    );
    let mut reused = Reused::default();
    let mut failures = Vec::new();
    for (n, f) in &rows {
        assert_eq!(
            f.len(),
            3,
            "canonical.tsv:{n}: expected 3 TAB-separated fields"
        );
        let input = unescape(f[0]);
        let spec = f[1];
        let opts = parse_options(spec);
        let want = unescape(f[2]);
        let ctx = format!("canonical.tsv:{n}: {} [{spec}]", show(&input));
        let got = match equijson::canonicalize_with(&input, &opts) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!(
                    "{ctx}: rejected: {e} ({:?}); want {}",
                    e.kind(),
                    show(&want)
                ));
                continue;
            }
        };
        if got != want {
            failures.push(format!(
                "{ctx}:\n      got  {}\n      want {}",
                show(&got),
                show(&want)
            ));
            continue;
        }
        // The canonical form is a fixed point, under the same and the default options.
        for o in [opts, Options::default()] {
            match equijson::canonicalize_with(&want, &o) {
                Ok(again) if again == want => {}
                other => failures.push(format!(
                    "{ctx}: canonical form not a fixed point: {other:?}"
                )),
            }
        }
        if let Err(e) = equijson::validate(&input, &opts) {
            failures.push(format!("{ctx}: validate rejects: {e}"));
        }
        let doc = Document::parse_with(&input, &opts).unwrap();
        if doc.to_canonical_vec() != want || doc.root().to_canonical_vec() != want {
            failures.push(format!("{ctx}: Document writes a different form"));
        }
        let mut out = b"prefix:".to_vec();
        match reused.get(spec).canonicalize_into(&input, &mut out) {
            Ok(()) if out.strip_prefix(b"prefix:") == Some(&want[..]) => {}
            other => failures.push(format!(
                "{ctx}: reused Canonicalizer gave {other:?}, {}",
                show(&out)
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n  {}",
        failures.len(),
        rows.len(),
        failures.join("\n  ")
    );
}

#[test]
fn table_notation() {
    assert_eq!(unescape(r"a\x00\xFF"), b"a\x00\xFF");
    assert_eq!(unescape(r#""\ud800""#), br#""\ud800""#);
    assert_eq!(unescape(r#""\x""#), br#""\x""#);
    assert_eq!(
        unescape(r"\u{FEFF}\u{1F602}"),
        "\u{FEFF}\u{1F602}".as_bytes()
    );
    assert_eq!(unescape(r"\x5Cu{41}"), br"\u{41}");
}

// ---- deep nesting -----------------------------------------------------------------------------

/// Runs `f` on a thread with a small stack (256 KiB): recursion over a million levels
/// could not fit, so passing proves the code paths are iterative.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .name("small-stack".into())
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

const MILLION: usize = 1_000_000;

fn nested(depth: usize, open: &[u8], middle: &[u8], close: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(depth * (open.len() + close.len()) + middle.len());
    for _ in 0..depth {
        v.extend_from_slice(open);
    }
    v.extend_from_slice(middle);
    for _ in 0..depth {
        v.extend_from_slice(close);
    }
    v
}

#[test]
fn million_open_brackets_stop_at_the_default_limit() {
    on_small_stack(|| {
        let input = vec![b'['; MILLION];
        let e = equijson::canonicalize(&input).unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::NestingTooDeep {
                limit: equijson::DEFAULT_MAX_DEPTH
            }
        );
        assert_eq!(equijson::DEFAULT_MAX_DEPTH, 10_000);
        assert_eq!(
            (e.offset(), e.line(), e.column()),
            (Some(10_000), Some(1), Some(10_001))
        );
        assert_eq!(
            e.to_string(),
            "1:10001: nesting too deep: more than 10000 levels of arrays/objects"
        );
        assert_eq!(
            equijson::validate(&input, &Options::default()).unwrap_err(),
            e
        );

        // A well-formed million-deep array is rejected the same way.
        let input = nested(MILLION, b"[", b"", b"]");
        let e = equijson::canonicalize(&input).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NestingTooDeep { limit: 10_000 });
        assert_eq!(e.offset(), Some(10_000));

        // Objects count too: the 10,001st `{` is at 5 * 10,000.
        let input = nested(MILLION, br#"{"a":"#, b"1", b"}");
        let e = equijson::canonicalize(&input).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NestingTooDeep { limit: 10_000 });
        assert_eq!(e.offset(), Some(50_000));
    });
}

#[test]
fn million_deep_array_canonicalizes_with_a_raised_limit() {
    on_small_stack(|| {
        let input = nested(MILLION, b"[", b"", b"]");
        let opts = Options::default().max_depth(2 * MILLION);
        let out = equijson::canonicalize_with(&input, &opts).unwrap();
        assert!(
            out == input,
            "a million-deep [[...]] is its own canonical form"
        );

        // Whitespace and an element at the bottom; document clone, compare and drop are flat.
        let input = nested(MILLION, b"[ ", b"1.0", b" ]");
        let doc = Document::parse_with(&input, &opts).unwrap();
        let copy = doc.clone();
        assert!(copy == doc);
        let out = copy.to_canonical_vec();
        assert_eq!(out.len(), 2 * MILLION + 1);
        assert!(out == nested(MILLION, b"[", b"1", b"]"));
        drop(copy);
        drop(doc);
        equijson::validate(&input, &opts).unwrap();
    });
}

#[test]
fn million_deep_objects_canonicalize_with_a_raised_limit() {
    on_small_stack(|| {
        let opts = Options::default().max_depth(2 * MILLION);
        let input = nested(MILLION, br#"{"a":"#, b"1", b"}");
        let out = equijson::canonicalize_with(&input, &opts).unwrap();
        assert!(
            out == input,
            "a million-deep {{\"a\":...}} is its own canonical form"
        );

        // Sorting happens at every level: two members per object, given in reverse order.
        let depth = 200_000;
        let input = nested(depth, br#"{"b":0,"a":"#, b"null", b"}");
        let want = {
            let mut v = Vec::new();
            for _ in 0..depth {
                v.extend_from_slice(br#"{"a":"#);
            }
            v.extend_from_slice(b"null");
            for _ in 0..depth {
                v.extend_from_slice(br#","b":0}"#);
            }
            v
        };
        assert!(equijson::canonicalize_with(&input, &opts).unwrap() == want);

        // A duplicate at the very bottom is still found, at the later name.
        let input = nested(depth, br#"{"a":"#, br#"{"k":1,"k":2}"#, b"}");
        let e = equijson::canonicalize_with(&input, &opts).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::DuplicateKey("k".into()));
        assert_eq!(e.offset(), Some(depth * 5 + 7));
    });
}

#[test]
fn default_limit_is_inclusive() {
    on_small_stack(|| {
        let limit = equijson::DEFAULT_MAX_DEPTH;
        for (open, close) in [(&b"["[..], &b"]"[..]), (br#"{"a":"#, b"}")] {
            let ok = nested(limit, open, b"0", close);
            assert!(equijson::canonicalize(&ok).unwrap() == ok);
            let deep = nested(limit + 1, open, b"0", close);
            let e = equijson::canonicalize(&deep).unwrap_err();
            assert_eq!(e.kind(), &ErrorKind::NestingTooDeep { limit });
            assert_eq!(e.offset(), Some(limit * open.len()));
        }
        // Mixed: arrays and objects share one depth count.
        let mixed = nested(limit / 2, br#"[{"x":"#, b"0", b"}]");
        assert!(equijson::canonicalize(&mixed).unwrap() == mixed);
        let e =
            equijson::canonicalize(&nested(limit / 2, br#"[{"x":"#, b"[0]", b"}]")).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NestingTooDeep { limit });
    });
}

#[test]
fn deep_input_with_an_error_at_the_bottom() {
    on_small_stack(|| {
        let opts = Options::default().max_depth(2 * MILLION);
        let input = nested(MILLION, b"[", b"1,", b"]");
        let e = equijson::canonicalize_with(&input, &opts).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::TrailingComma);
        assert_eq!(e.offset(), Some(MILLION + 1));
        // Truncated after a million opening brackets.
        let input = vec![b'['; MILLION];
        let e = equijson::canonicalize_with(&input, &opts).unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::UnexpectedEof {
                expected: "a value"
            }
        );
        assert_eq!(e.offset(), Some(MILLION));
    });
}

/// Regression: a duplicate name below the top level was reported by position and name
/// only; the error now carries the later member's JSON pointer, and names it.
#[test]
fn duplicate_names_carry_their_member_pointer() {
    for (input, pointer, message) in [
        (r#"{"a":1,"a":2}"#, "/a", r#"duplicate object key "a""#),
        (
            r#"{"x":[{"y":1},{"~/":1,"~/":2}]}"#,
            "/x/1/~0~1",
            r#"duplicate object key "~/" at "/x/1/~0~1""#,
        ),
        (
            r#"[{"a":{"b":1,"b":2}"#,
            "/0/a/b",
            r#"duplicate object key "b" at "/0/a/b""#,
        ),
    ] {
        let e = equijson::canonicalize(input.as_bytes()).unwrap_err();
        assert_eq!(e.member_pointer(), Some(pointer), "{input}");
        assert_eq!(e.pointer(), None, "a text error keeps no value pointer");
        assert_eq!(e.message(), message, "{input}");
        let v = equijson::validate(input.as_bytes(), &equijson::Options::default());
        assert_eq!(v.unwrap_err(), e, "validate agrees on {input}");
        let d = equijson::Document::parse(input.as_bytes()).unwrap_err();
        assert_eq!(d, e, "Document::parse agrees on {input}");
    }
    // Not a duplicate: no member pointer.
    let e = equijson::canonicalize(b"[1,]").unwrap_err();
    assert_eq!(e.member_pointer(), None);
}
