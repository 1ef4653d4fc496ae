//! The decode check and the live row check share work between decode paths; these tests
//! hold them to the reference implementation (every path computed on its own) over
//! thousands of generated documents of every catalogue DTO, the `value` generator's
//! arbitrary documents, the data tables' edge cases, and documents that diverge.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_check::decode::{DecodePath, Input, Report, Verdict, keep_paths};
use equijson_check::dto::{DtoSpec, catalogue};
use equijson_check::generate::Style;
use equijson_check::jsonb::{JsonbOptions, is_normalized, normalize};
use equijson_check::props::{PropsConfig, case};
use equijson_pg::live::{ColumnKind, Describe, LiveClass, check_row_with};

#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

const CANONICAL_TSV: &str = include_str!("../../../tests/data/canonical.tsv");
const ERRORS_TSV: &str = include_str!("../../../tests/data/errors.tsv");
const JSONB_NORMALIZE_TSV: &str = include_str!("../../../tests/data/jsonb/normalize.tsv");
const JSONB_ERRORS_TSV: &str = include_str!("../../../tests/data/jsonb/errors.tsv");

/// The rows of a data table: its lines but comments and blank ones, split at TABs.
fn rows(table: &str) -> impl Iterator<Item = Vec<&str>> {
    table
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
}

/// Generated documents of `spec`'s shape: seeded spellings (whitespace, escapes, member
/// order, number spellings) and their jsonb text, at several sizes.
fn generated(spec: &'static DtoSpec, seed: u64, cases: u64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for size in [1usize, 3, 8] {
        let mut cfg = PropsConfig::new(seed, cases, Some(spec));
        cfg.size = size;
        for i in 0..cases {
            let (tree, style) = case(&cfg, i);
            let text = tree.render(Style::Seeded(style)).into_bytes();
            if let Ok(t) = normalize(&text, &JsonbOptions::default()) {
                out.push(t.into_bytes());
            }
            out.push(tree.render(Style::Compact).into_bytes());
            out.push(text);
        }
    }
    out
}

/// Edge cases from the data tables (the inputs in their first column) and a few by hand.
fn edge_cases() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = [
        "", " ", "null", "[", "{", "{}", "[]", "0", "-0", "-0.0", "1.0", "1e400", "-1e400",
        "123456789012345678901234567890", "9007199254740993", "18446744073709551616",
        r#"{"a":1,"a":2}"#, r#"{"a":"\u0000"}"#, r#"{"a":"\ud800"}"#, r#"{"\ud83d\ude02":1,"\ue000":2}"#,
        r#"{"id":"x","display_name":"y","updated_at":"z"}"#,
        r#"{"id":"x","display_name":"y","updated_at":"z","extra":[1,2,{"b":null}]}"#,
        r#"{"email":[{"email":"e","type":"work","is_primary":true,"is_primary":false}],"id":"x","display_name":"y","updated_at":"z"}"#,
        r#"{"id":"x","display_name":"y","address":[{"street":"s","city":"c","postal_code":"p","country":"SE","type":"home","is_primary":true,"lat":1.0,"lng":-1.50}],"updated_at":"z"}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    for table in [
        CANONICAL_TSV,
        ERRORS_TSV,
        JSONB_NORMALIZE_TSV,
        JSONB_ERRORS_TSV,
    ] {
        // The tables' own notation, decoded as their own tests decode it.
        out.extend(rows(table).map(|row| unescape(row[0])));
    }
    for spec in catalogue() {
        out.push(spec.sample.as_bytes().to_vec());
    }
    out
}

fn value_spec() -> &'static DtoSpec {
    equijson_check::dto::find("value").expect("value DTO")
}

/// A scanned row: column type, binary form, text form.
type Row<'a> = (ColumnKind, &'a [u8], Option<&'a [u8]>);

#[derive(Default)]
struct Tally {
    compared: usize,
    /// Inputs the jsonb shortcut recognised (checked with `Input::jsonb_unchanged` too).
    unchanged: usize,
    verdicts: [usize; 4],
}

impl Tally {
    fn add(&mut self, r: &Report) {
        self.compared += 1;
        self.verdicts[match r.verdict() {
            Verdict::Equivalent => 0,
            Verdict::Rejected => 1,
            Verdict::Accepted => 2,
            Verdict::Divergent => 3,
        }] += 1;
    }
}

/// Reports of the shared-work check (with and without the jsonb text handed in) against
/// the reference, every catalogue DTO on its own documents, the `value` generator's
/// documents and the edge cases.
#[test]
fn decode_check_gives_the_reference_report() {
    let edge = edge_cases();
    let arbitrary = generated(value_spec(), 7, 300);
    let mut tally = Tally::default();
    for spec in catalogue() {
        let own = generated(spec, 42, 300);
        for input in own.iter().chain(&arbitrary).chain(&edge) {
            let expected = (spec.check_reference)(input);
            let show = || format!("{} on {:?}", spec.name, String::from_utf8_lossy(input));
            assert_eq!((spec.check)(input), expected, "{}", show());
            let model = normalize(input, &JsonbOptions::default());
            assert_eq!(
                (spec.check_input)(&Input::with_jsonb(input, &model)),
                expected,
                "{}",
                show()
            );
            if is_normalized(input) {
                assert_eq!(
                    (spec.check_input)(&Input::jsonb_unchanged(input)),
                    expected,
                    "{}",
                    show()
                );
                tally.unchanged += 1;
            }
            tally.add(&expected);
        }
    }
    // Every verdict occurs: the comparison covers equivalent, rejected, accepted and
    // divergent reports (ledger-entry's sample and duplicate names diverge, for example).
    assert!(tally.compared > 20_000, "{}", tally.compared);
    assert!(tally.unchanged > 5_000, "{}", tally.unchanged);
    assert!(
        tally.verdicts.iter().all(|&n| n > 50),
        "{:?}",
        tally.verdicts
    );
}

/// Every non-empty set of built-in paths: the check through those paths alone
/// (`DtoSpec::check_paths`, which skips the others' work) gives the reference report with
/// the other paths' outcomes left out before classifying, on every catalogue DTO's own
/// documents, the `value` generator's and the edge cases, with and without the jsonb text
/// handed in. Findings of the paths left out are not in it.
#[test]
fn chosen_paths_give_the_reference_report_kept_to_them() {
    let edge = edge_cases();
    let arbitrary = generated(value_spec(), 5, 12);
    let subsets: Vec<Vec<DecodePath>> = (1u32..32)
        .map(|bits| {
            DecodePath::ALL
                .into_iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, p)| p)
                .collect()
        })
        .collect();
    let (mut compared, mut differs) = (0usize, 0usize);
    for spec in catalogue() {
        let own = generated(spec, 17, 12);
        for input in own.iter().chain(&arbitrary).chain(&edge) {
            let every = (spec.check_reference)(input);
            let model = normalize(input, &JsonbOptions::default());
            let unchanged = is_normalized(input);
            for paths in &subsets {
                let expected = keep_paths(every.clone(), input, paths, spec.accepts);
                let show = || {
                    format!(
                        "{} {paths:?} on {:?}",
                        spec.name,
                        String::from_utf8_lossy(input)
                    )
                };
                let got = (spec.check_paths)(&Input::new(input), paths);
                assert_eq!(got, expected, "{}", show());
                assert!(
                    got.outcomes.iter().all(|(p, _)| paths.contains(p)),
                    "{}",
                    show()
                );
                assert_eq!(
                    (spec.check_paths)(&Input::with_jsonb(input, &model), paths),
                    expected,
                    "{}",
                    show()
                );
                if unchanged {
                    assert_eq!(
                        (spec.check_paths)(&Input::jsonb_unchanged(input), paths),
                        expected,
                        "{}",
                        show()
                    );
                }
                compared += 1;
                differs += usize::from(expected.findings != every.findings);
            }
        }
    }
    // Leaving paths out changes the findings often: the comparison is not vacuous.
    assert!(compared > 20_000 && differs > 1_000, "{compared} {differs}");
}

/// One live row as `check_row_with` takes it.
struct LiveRow<'a> {
    kind: ColumnKind,
    binary: &'a [u8],
    text: Option<&'a [u8]>,
    wants: &'a dyn Fn(LiveClass, bool) -> bool,
    describe: Describe,
}

impl LiveRow<'_> {
    /// Asserts that the row checked with `check` has the findings it has with `reference`
    /// (`what` names the row in the failure); returns whether it has any.
    fn same_findings(
        &self,
        reference: &dyn Fn(&Input<'_>) -> Report,
        check: &dyn Fn(&Input<'_>) -> Report,
        what: &dyn Fn() -> String,
    ) -> bool {
        let row = |c: &dyn Fn(&Input<'_>) -> Report| {
            check_row_with(
                self.kind,
                self.binary,
                self.text,
                c,
                self.wants,
                self.describe,
            )
        };
        let expected = row(reference);
        assert_eq!(row(check), expected, "{}", what());
        !expected.is_empty()
    }
}

/// The live row check (model, text form, decode paths, descriptions) with the shared-work
/// check against the same with the reference check: the same findings, for jsonb, json
/// and text columns, redacted, with values and undescribed, examples wanted or not.
#[test]
fn live_row_check_gives_the_reference_findings() {
    let edge = edge_cases();
    let mut compared = 0usize;
    let mut with_findings = 0usize;
    let all = |_: LiveClass, _: bool| true;
    let unaccepted = |_: LiveClass, accepted: bool| !accepted;
    for spec in catalogue() {
        let docs = generated(spec, 9, 60);
        let reference = |i: &Input<'_>| (spec.check_reference)(i.text);
        for doc in docs.iter().chain(&edge) {
            let model = normalize(doc, &JsonbOptions::default());
            let wire = [&[1u8][..], doc].concat();
            let server_text = model.as_ref().ok().map(String::as_bytes);
            let rows: [Row<'_>; 4] = [
                (ColumnKind::Jsonb, &wire, Some(doc)),
                (ColumnKind::Json, doc, server_text),
                (ColumnKind::Json, doc, None),
                (ColumnKind::Text, doc, None),
            ];
            for (kind, binary, text) in rows {
                for describe in [Describe::No, Describe::Redacted, Describe::Values] {
                    for wants in [&all as &dyn Fn(LiveClass, bool) -> bool, &unaccepted] {
                        let row = LiveRow {
                            kind,
                            binary,
                            text,
                            wants,
                            describe,
                        };
                        let found = row.same_findings(&reference, &spec.check_input, &|| {
                            format!("{} {kind:?} {:?}", spec.name, String::from_utf8_lossy(doc))
                        });
                        compared += 1;
                        with_findings += usize::from(found);
                    }
                }
            }
        }
    }
    assert!(
        compared > 10_000 && with_findings > 1_000,
        "{compared} rows, {with_findings} with findings"
    );
}

/// The live row check through `direct` and `jsonb` (or one of them), the scan's one-pass
/// route (`Input::findings_only`: the value's jsonb writing walked against the row's text),
/// against the reference check kept to those paths: the same findings with the same
/// descriptions (redacted, with values, undescribed) for jsonb columns, on generated
/// documents of every catalogue DTO (their jsonb texts, where most rows with findings are
/// decided by the walk) and the edge cases.
#[test]
fn live_row_check_through_direct_and_jsonb_gives_the_reference_findings() {
    let edge = edge_cases();
    let path_sets: [&[DecodePath]; 3] = [
        &[DecodePath::Direct, DecodePath::JsonbWire],
        &[DecodePath::Direct],
        &[DecodePath::JsonbWire],
    ];
    let (mut compared, mut with_findings) = (0usize, 0usize);
    let all = |_: LiveClass, _: bool| true;
    for spec in catalogue() {
        let docs = generated(spec, 23, 60);
        for doc in docs.iter().chain(&edge) {
            let wire = [&[1u8][..], doc].concat();
            for paths in path_sets {
                let reference = |i: &Input<'_>| {
                    keep_paths((spec.check_reference)(i.text), i.text, paths, spec.accepts)
                };
                let chosen = |i: &Input<'_>| (spec.check_paths)(i, paths);
                for describe in [Describe::No, Describe::Redacted, Describe::Values] {
                    let row = LiveRow {
                        kind: ColumnKind::Jsonb,
                        binary: &wire,
                        text: None,
                        wants: &all,
                        describe,
                    };
                    let found = row.same_findings(&reference, &chosen, &|| {
                        format!("{} {paths:?} {:?}", spec.name, String::from_utf8_lossy(doc))
                    });
                    compared += 1;
                    with_findings += usize::from(found);
                }
            }
        }
    }
    assert!(
        compared > 10_000 && with_findings > 1_000,
        "{compared} rows, {with_findings} with findings"
    );
}

/// Every single-byte deletion, a space inserted, and adjacent bytes swapped, at each
/// position of `doc` (capped): texts near the jsonb form that mostly are not in it.
fn mutations(doc: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for i in 0..doc.len().min(400) {
        let mut d = doc.to_vec();
        d.remove(i);
        out.push(d);
        let mut d = doc.to_vec();
        d.insert(i, b' ');
        out.push(d);
        if i + 1 < doc.len() {
            let mut d = doc.to_vec();
            d.swap(i, i + 1);
            out.push(d);
        }
    }
    out
}

/// The jsonb shortcut of the live scan against the model on generated documents of every
/// catalogue DTO and the `value` generator (their jsonb texts, other spellings, and
/// mutations of the jsonb texts): `true` only where the model gives the text back, and
/// `true` for nearly all jsonb texts (else it would save nothing).
#[test]
fn jsonb_shortcut_agrees_with_the_model() {
    let mut specs: Vec<&'static DtoSpec> = catalogue().iter().collect();
    specs.push(value_spec());
    let (mut texts, mut normal, mut recognised, mut mutated) = (0usize, 0usize, 0usize, 0usize);
    for spec in specs {
        for doc in generated(spec, 11, 150).iter().chain(&edge_cases()) {
            let model = normalize(doc, &JsonbOptions::default());
            let same = model.as_ref().is_ok_and(|m| m.as_bytes() == &doc[..]);
            let fast = is_normalized(doc);
            assert!(
                !fast || same,
                "{} {:?}",
                spec.name,
                String::from_utf8_lossy(doc)
            );
            texts += 1;
            normal += usize::from(same);
            recognised += usize::from(fast);
            if same && !fast && std::env::var_os("SHOW_DECLINED").is_some() {
                eprintln!("DECLINED {}", String::from_utf8_lossy(doc));
            }
            if same && doc.len() < 2000 && texts % 7 == 0 {
                for m in mutations(doc) {
                    if is_normalized(&m) {
                        let model = normalize(&m, &JsonbOptions::default());
                        assert_eq!(
                            model.as_ref().map(String::as_bytes),
                            Ok(&m[..]),
                            "{} {:?}",
                            spec.name,
                            String::from_utf8_lossy(&m)
                        );
                    }
                    mutated += 1;
                }
            }
        }
    }
    assert!(
        texts > 5_000 && mutated > 10_000,
        "{texts} texts, {mutated} mutations"
    );
    assert!(
        recognised * 100 > normal * 95,
        "{recognised} of {normal} jsonb texts"
    );
}

/// The edge cases taken from the tables are the inputs the tables document: what
/// `canonical.tsv` (default options) and `jsonb/normalize.tsv` list is accepted, what
/// `errors.tsv` (default options) and `jsonb/errors.tsv` list is rejected. (This file once
/// decoded the tables its own way, turning JSON escapes such as `\n` into raw bytes and
/// leaving `\u{..}` undecoded, so 111 of the tables' 1,131 rows were other documents.)
#[test]
fn table_edge_cases_are_the_documented_inputs() {
    let opts = JsonbOptions::default();
    let mut checked = 0;
    for row in rows(CANONICAL_TSV).filter(|r| r.get(1) == Some(&"default")) {
        let input = unescape(row[0]);
        let want = unescape(row.get(2).copied().unwrap_or_default());
        assert_eq!(
            equijson::canonicalize(&input).as_deref().ok(),
            Some(want.as_slice()),
            "canonical.tsv: {}",
            row[0]
        );
        checked += 1;
    }
    for row in rows(JSONB_NORMALIZE_TSV) {
        let input = unescape(row[0]);
        assert!(
            normalize(&input, &opts).is_ok(),
            "jsonb/normalize.tsv: {}",
            row[0]
        );
        checked += 1;
    }
    for row in rows(ERRORS_TSV).filter(|r| r.get(1) == Some(&"default")) {
        let input = unescape(row[0]);
        assert!(
            equijson::canonicalize(&input).is_err(),
            "errors.tsv: {}",
            row[0]
        );
        checked += 1;
    }
    for row in rows(JSONB_ERRORS_TSV) {
        let input = unescape(row[0]);
        assert!(
            normalize(&input, &opts).is_err(),
            "jsonb/errors.tsv: {}",
            row[0]
        );
        checked += 1;
    }
    assert!(checked > 900, "only {checked} rows read");
}
