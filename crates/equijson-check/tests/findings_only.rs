//! `Input::findings_only`: the one-pass round-trip check of `direct` and `jsonb` (a decoded
//! value written as jsonb text and compared with the row's text, the differing places
//! walked) gives the same findings and verdict as making both comparison forms, on
//! generated documents of every catalogue DTO in their jsonb text (the live scan's rows)
//! and in other spellings.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_check::decode::{DecodePath, Input, PathResult, Report, keep_paths};
use equijson_check::dto::catalogue;
use equijson_check::generate::Style;
use equijson_check::jsonb::{JsonbOptions, is_normalized, normalize};
use equijson_check::props::{PropsConfig, case};

const PATH_SETS: [&[DecodePath]; 3] = [
    &[DecodePath::Direct, DecodePath::JsonbWire],
    &[DecodePath::Direct],
    &[DecodePath::JsonbWire],
];

/// Whether `report` is a bare report: the one-pass check decided it, no comparison form made.
fn bare(report: &Report) -> bool {
    report.input_canonical.as_ref().is_ok_and(Vec::is_empty)
        && report
            .outcomes
            .iter()
            .all(|(_, r)| matches!(r, PathResult::Decoded(c) if c.is_empty()))
}

/// How the one-pass check decided a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decided {
    /// It made the comparison forms (the full report).
    Full,
    /// Without them: no finding.
    BareClean,
    /// Without them: findings from the walked places.
    BareFindings,
}

/// Checks `text` both ways (asserting the same findings and verdict) and says how the
/// one-pass check decided it.
fn same_findings(
    name: &str,
    check: fn(&Input<'_>, &[DecodePath]) -> Report,
    text: &[u8],
    paths: &[DecodePath],
) -> Decided {
    let input = if is_normalized(text) {
        Input::jsonb_unchanged(text)
    } else {
        Input::new(text)
    };
    let full = check(&input, paths);
    let fast = check(&input.for_findings(), paths);
    let shown = String::from_utf8_lossy(text);
    assert_eq!(fast.findings, full.findings, "{name} {paths:?}: {shown}");
    assert_eq!(fast.verdict(), full.verdict(), "{name} {paths:?}: {shown}");
    let paths_of = |r: &Report| r.outcomes.iter().map(|(p, _)| *p).collect::<Vec<_>>();
    assert_eq!(paths_of(&fast), paths_of(&full), "{name}: {shown}");
    if bare(&fast) {
        // Only a text that is its own jsonb text is decided without the forms.
        assert!(input.jsonb_unchanged, "{name}: {shown}");
        if full.findings.is_empty() {
            Decided::BareClean
        } else {
            Decided::BareFindings
        }
    } else {
        // Decided with the forms: the full report itself.
        assert_eq!(fast.outcomes, full.outcomes, "{name}: {shown}");
        assert_eq!(
            fast.input_canonical, full.input_canonical,
            "{name}: {shown}"
        );
        Decided::Full
    }
}

#[test]
fn generated_documents_get_the_same_findings_with_or_without_the_comparison_forms() {
    let mut checked = 0usize;
    let mut clean = 0usize;
    let mut walked = 0usize;
    let mut with_findings = 0usize;
    for spec in catalogue() {
        let mut cfg = PropsConfig::new(7, 300, Some(spec));
        cfg.size = 3;
        for i in 0..cfg.cases {
            let (tree, style) = case(&cfg, i);
            let spelled = tree.render(Style::Seeded(style));
            let mut texts = vec![spelled.clone().into_bytes()];
            if let Ok(jsonb) = normalize(spelled.as_bytes(), &JsonbOptions::default()) {
                texts.push(jsonb.into_bytes());
            }
            for text in &texts {
                for paths in PATH_SETS {
                    checked += 1;
                    match same_findings(spec.name, spec.check_paths, text, paths) {
                        Decided::BareClean => clean += 1,
                        Decided::BareFindings => walked += 1,
                        Decided::Full => {
                            with_findings += usize::from(
                                !(spec.check_paths)(&Input::new(text), paths)
                                    .findings
                                    .is_empty(),
                            );
                        }
                    }
                }
            }
        }
    }
    // No way is vacuous: many rows are proven clean by the one-pass check, many get their
    // findings from the walked places, many with findings take the comparison forms.
    assert!(clean * 4 > checked / 2, "{clean} of {checked} proven clean");
    assert!(walked > 100, "{walked} of {checked} with findings walked");
    assert!(
        with_findings > 100,
        "{with_findings} with findings from the forms"
    );
}

/// The chosen paths' full report of a jsonb text (one decode, `from_str` on the text known
/// to be UTF-8) is the report of every path (`from_slice`, each path on its own text)
/// with only those paths kept.
#[test]
fn direct_and_jsonb_alone_give_every_paths_report_kept_to_them() {
    let mut compared = 0usize;
    for spec in catalogue() {
        let mut cfg = PropsConfig::new(11, 200, Some(spec));
        cfg.size = 3;
        for i in 0..cfg.cases {
            let (tree, style) = case(&cfg, i);
            let spelled = tree.render(Style::Seeded(style));
            let Ok(text) = normalize(spelled.as_bytes(), &JsonbOptions::default()) else {
                continue;
            };
            let text = text.as_bytes();
            assert!(is_normalized(text), "{}: {spelled}", spec.name);
            for paths in PATH_SETS {
                let chosen = (spec.check_paths)(&Input::jsonb_unchanged(text), paths);
                let every = keep_paths((spec.check)(text), text, paths, spec.accepts);
                assert_eq!(chosen, every, "{} {paths:?}: {spelled}", spec.name);
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// A service's own DTO that declares `direct` and `jsonb`, accepting dropped members.
#[derive(serde::Serialize, serde::Deserialize)]
struct Account {
    id: u64,
    owner: String,
    limit: Option<f64>,
    tags: Vec<String>,
}

impl equijson_check::dto::Dto for Account {
    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }
    fn accepts() -> &'static [equijson_check::decode::Accept] {
        &[equijson_check::decode::Accept {
            class: equijson_check::decode::Class::RoundTripLoss,
            only: &[],
            reason: "unknown members are dropped",
        }]
    }
}

/// A declared DTO's jsonb rows take the same route: the report of a text known to be its
/// own jsonb text is the one computed without knowing it, and asking for findings only
/// gives the same findings.
#[test]
fn a_declared_dto_gets_the_same_report_through_the_one_pass_route() {
    use equijson_check::dto::check_paths;
    let docs = [
        r#"{"id": 1, "tags": [], "limit": null, "owner": "a"}"#,
        r#"{"id": 1, "tags": ["x\n"], "limit": 2.5, "owner": "é"}"#,
        r#"{"id": 1, "tags": [], "limit": 1.0, "owner": "a"}"#,
        r#"{"id": 1, "tags": [], "limit": 100, "owner": "a"}"#,
        r#"{"id": 1, "tags": [], "owner": "a", "extra": {"k": [1, 2]}}"#,
        r#"{"id": 18446744073709551616, "tags": [], "owner": "a"}"#,
        r#"{"id": -1, "tags": [], "owner": "a"}"#,
        r#"{"id": 1, "tags": [], "limit": 1e400, "owner": "a"}"#,
        r#"{"id": 1, "owner": "a"}"#,
        r#"{"id":1,"tags":[],"owner":"a","limit":null}"#,
        r#"{"id": 1, "id": 2, "tags": [], "owner": "a"}"#,
    ];
    let (mut clean, mut walked, mut findings) = (0, 0, 0);
    for doc in docs {
        let text = match normalize(doc.as_bytes(), &JsonbOptions::default()) {
            Ok(t) => t.into_bytes(),
            Err(_) => doc.as_bytes().to_vec(),
        };
        let paths = <Account as equijson_check::dto::Dto>::paths();
        let general = check_paths::<Account>(&Input::new(&text), paths);
        if !is_normalized(&text) {
            continue;
        }
        let known = Input::jsonb_unchanged(&text);
        assert_eq!(check_paths::<Account>(&known, paths), general, "{doc}");
        let fast = check_paths::<Account>(&known.for_findings(), paths);
        assert_eq!(fast.findings, general.findings, "{doc}");
        assert_eq!(fast.verdict(), general.verdict(), "{doc}");
        clean += usize::from(bare(&fast) && fast.findings.is_empty());
        walked += usize::from(bare(&fast) && !fast.findings.is_empty());
        findings += usize::from(!general.findings.is_empty());
    }
    assert!(
        clean >= 3 && walked >= 2 && findings >= 2,
        "{clean} proven clean, {walked} walked, {findings} with findings"
    );
}
