//! `float-misread` under the `serde_json` this crate's tests build with: the default
//! features (the workspace enables none; `tests/float-roundtrip-user` covers
//! `float_roundtrip`, where the class is not found).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_check::decode::{
    Accept, Class, DecodePath, Report, Verdict, check, reference, serde_json_numbers,
};
use equijson_check::diff::DiffStyle;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Measure {
    a: f64,
}

#[derive(Serialize, Deserialize)]
struct Ratio {
    a: f32,
}

/// Keeps `a` only: other members are dropped (a round-trip loss of their own).
#[derive(Serialize, Deserialize)]
struct MeasureOnly {
    a: f64,
}

/// (number, the double default `serde_json` 1.0.154 reads it as)
const MISREAD: [(&str, &str); 2] = [
    ("15.509858803567319", "15.50985880356732"),
    ("122.65352088450729", "122.65352088450727"),
];

fn classes(r: &Report) -> Vec<Class> {
    r.findings.iter().map(|f| f.class).collect()
}

#[test]
fn this_build_reads_numbers_as_default_serde_json_does() {
    let mode = serde_json_numbers();
    assert!(
        !mode.float_roundtrip,
        "a crate of the workspace re-enabled float_roundtrip"
    );
    assert!(!mode.arbitrary_precision && !mode.preserve_order, "{mode}");
    assert_eq!(mode.describe(), "default (fast, not correctly rounded)");
}

#[test]
fn a_misread_number_is_a_float_misread_with_both_doubles_and_the_fix() {
    for (number, misread) in MISREAD {
        let input = format!(r#"{{"a":{number}}}"#);
        let report = check::<Measure>(input.as_bytes(), &[]);
        assert_eq!(report, reference::check::<Measure>(input.as_bytes(), &[]));
        assert_eq!(classes(&report), [Class::FloatMisread], "{report:?}");
        assert_eq!(report.verdict(), Verdict::Divergent);
        let f = &report.findings[0];
        assert!(!f.accepted);
        // Every path reads the same spelling with serde_json.
        assert_eq!(f.paths, DecodePath::ALL.to_vec());
        let m = &f.misreads[..];
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].pointer, "/a");
        assert_eq!(m[0].token, number);
        let correct: f64 = number.parse().unwrap();
        let read: f64 = misread.parse().unwrap();
        assert_eq!(m[0].correct.to_bits(), correct.to_bits());
        assert_eq!(m[0].read.to_bits(), read.to_bits());
        assert_eq!(f.pointer(), "/a");
        let text = report.render(DiffStyle::default());
        let line = format!(
            "/a: {number} read as {misread} ({:#018x}), correctly rounded {number} ({:#018x})",
            read.to_bits(),
            correct.to_bits()
        );
        assert!(text.contains(&line), "{line} not in\n{text}");
        assert!(text.contains("`float_roundtrip`"), "{text}");
        assert!(text.contains("decimal type"), "{text}");
        // Redacted: no number.
        let redacted = report.render(DiffStyle {
            redact: true,
            ..DiffStyle::default()
        });
        assert!(!redacted.contains(number) && !redacted.contains(misread));
        assert!(redacted.contains("/a: a number read as another double"));
    }
}

#[test]
fn a_misread_among_other_losses_is_split_out() {
    let (number, _) = MISREAD[0];
    let input = format!(r#"{{"a":{number},"b":1}}"#);
    let report = check::<MeasureOnly>(input.as_bytes(), &[]);
    assert_eq!(
        report,
        reference::check::<MeasureOnly>(input.as_bytes(), &[])
    );
    assert_eq!(
        classes(&report),
        [Class::FloatMisread, Class::RoundTripLoss],
        "{report:?}"
    );
    let loss = &report.findings[1];
    assert_eq!(loss.changes.len(), 1);
    assert_eq!(loss.changes[0].pointer, "/b");
}

#[test]
fn a_dto_may_accept_float_misreads() {
    const ACCEPTS: &[Accept] = &[Accept {
        class: Class::FloatMisread,
        only: &[],
        reason: "a sensor reading",
    }];
    let input = format!(r#"{{"a":{}}}"#, MISREAD[1].0);
    let report = check::<Measure>(input.as_bytes(), ACCEPTS);
    assert_eq!(classes(&report), [Class::FloatMisread]);
    assert_eq!(report.verdict(), Verdict::Accepted);
    // A report's caller may accept them too (`--accept float-misreads`).
    let mut report = check::<Measure>(input.as_bytes(), &[]);
    assert_eq!(report.verdict(), Verdict::Divergent);
    report.accept(Class::FloatMisread);
    assert_eq!(report.verdict(), Verdict::Accepted);
}

#[test]
fn exact_numbers_and_narrowing_are_not_misreads() {
    for n in ["0.1", "59.3326", "4.25", "-0", "1e21", "5e-324"] {
        let report = check::<Measure>(format!(r#"{{"a":{n}}}"#).as_bytes(), &[]);
        assert!(!classes(&report).contains(&Class::FloatMisread), "{n}");
    }
    // An f32 field narrows 16777217: a round-trip loss, not a misread.
    let report = check::<Ratio>(br#"{"a":16777217}"#, &[]);
    assert_eq!(classes(&report), [Class::RoundTripLoss], "{report:?}");
}

#[test]
fn catalogue_value_dto_names_misreads_and_declares_them() {
    let spec = equijson_check::dto::find("value").unwrap();
    let input = format!("[{},1]", MISREAD[0].0);
    let report = (spec.check)(input.as_bytes());
    assert!(
        classes(&report).contains(&Class::FloatMisread),
        "{report:?}"
    );
    assert_eq!(report.verdict(), Verdict::Accepted);
    // articles: a ranking score misread is not declared.
    let spec = equijson_check::dto::find("articles").unwrap();
    let input = format!(
        r#"[{{"id":1,"slug":"s","title":"t","body":"","tags":[],"author":{{"id":7,"name":"A"}},"published_at":null,"word_count":0,"score":{}}}]"#,
        MISREAD[1].0
    );
    let report = (spec.check)(input.as_bytes());
    assert_eq!(classes(&report), [Class::FloatMisread], "{report:?}");
    assert_eq!(report.verdict(), Verdict::Divergent);
}

#[test]
fn a_finite_number_rejected_as_out_of_range_is_a_float_misread() {
    // PostgreSQL's jsonb text of the largest double: 309 digits, which default serde_json
    // rejects as out of range.
    let digits = format!("{:.0}", f64::MAX);
    assert_eq!(digits.len(), 309);
    let input = format!("[{digits}]");
    let report = check::<Vec<f64>>(input.as_bytes(), &[]);
    assert_eq!(report, reference::check::<Vec<f64>>(input.as_bytes(), &[]));
    let f = report
        .findings
        .iter()
        .find(|f| f.class == Class::FloatMisread)
        .unwrap_or_else(|| panic!("{report:?}"));
    assert!(f.paths.contains(&DecodePath::Direct), "{f:?}");
    assert_eq!(f.misreads[0].correct.to_bits(), f64::MAX.to_bits());
    assert!(f.misreads[0].read.is_infinite());
    let text = report.render(DiffStyle::default());
    assert!(
        text.contains("rejected as out of range, correctly rounded 1.7976931348623157e+308"),
        "{text}"
    );
}
