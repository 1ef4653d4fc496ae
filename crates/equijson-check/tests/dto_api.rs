//! The `Dto` declaration: accepted findings that add up (table and properties), the paths
//! a DTO declares, its own BEFORE/AFTER decode functions, documents generated from the type,
//! and the test one-liner's failure message and replay.

#![allow(
    clippy::needless_pass_by_value,
    reason = "test code: quickcheck passes cases by value"
)]

use std::collections::BTreeMap;

use equijson_check::decode::{Accept, Class, DecodePath, PathResult, Verdict, accepted};
use equijson_check::dto::{Dto, Refactor};
use equijson_check::generate::{Gen, Json};
use quickcheck::{Arbitrary, QuickCheck};
use serde::{Deserialize, Serialize};

// ------------------------------------------------------------------ the algebra, as a table

const PATHS: [DecodePath; 7] = [
    DecodePath::Dom,
    DecodePath::Direct,
    DecodePath::Borrow,
    DecodePath::JsonbWire,
    DecodePath::Canonical,
    DecodePath::Before,
    DecodePath::After,
];
const CLASSES: [Class; 3] = [Class::ErrorSplit, Class::ValueSplit, Class::RoundTripLoss];

fn class_named(s: &str) -> Class {
    CLASSES
        .into_iter()
        .find(|c| c.name() == s)
        .unwrap_or_else(|| panic!("no class {s:?}"))
}

fn paths_named(s: &str) -> Vec<DecodePath> {
    if s == "*" {
        return Vec::new();
    }
    s.split(',')
        .map(|n| {
            PATHS
                .into_iter()
                .find(|p| p.name() == n)
                .unwrap_or_else(|| panic!("no path {n:?}"))
        })
        .collect()
}

/// `Accept` entries with `only` lists that live for the test.
fn entries(spec: &[(Class, Vec<DecodePath>)]) -> Vec<Accept> {
    spec.iter()
        .map(|(class, only)| Accept {
            class: *class,
            only: Box::leak(only.clone().into_boxed_slice()),
            reason: "test",
        })
        .collect()
}

#[test]
fn the_algebra_table_holds() {
    let table = include_str!("data/dto/accept_algebra.tsv");
    let mut rows = 0;
    for (i, line) in table
        .lines()
        .enumerate()
        .skip_while(|(_, l)| l.starts_with('#'))
        .skip(1)
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [given, finding, expect] = cols[..] else {
            panic!("accept_algebra.tsv:{}: three columns expected", i + 1)
        };
        let spec: Vec<(Class, Vec<DecodePath>)> = given
            .split(';')
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (c, p) = e.split_once(':').expect("class:paths");
                (class_named(c), paths_named(p))
            })
            .collect();
        let (c, p) = finding.split_once(':').expect("class:paths");
        let got = accepted(&entries(&spec), class_named(c), &paths_named(p));
        assert_eq!(got, expect == "yes", "accept_algebra.tsv:{}: {line}", i + 1);
        rows += 1;
    }
    assert!(rows >= 10, "only {rows} rows");
}

// ------------------------------------------------------------ the algebra, as properties

/// A random list of entries and a random finding.
#[derive(Debug, Clone)]
struct Case {
    spec: Vec<(Class, Vec<DecodePath>)>,
    more: Vec<(Class, Vec<DecodePath>)>,
    class: Class,
    side: Vec<DecodePath>,
}

fn subset(g: &mut quickcheck::Gen) -> Vec<DecodePath> {
    PATHS
        .into_iter()
        .filter(|_| u8::arbitrary(g) % 3 == 0)
        .collect()
}

fn entry_list(g: &mut quickcheck::Gen) -> Vec<(Class, Vec<DecodePath>)> {
    (0..usize::arbitrary(g) % 5)
        .map(|_| (*g.choose(&CLASSES).unwrap_or(&Class::ErrorSplit), subset(g)))
        .collect()
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let mut side = subset(g);
        if side.is_empty() {
            side.push(*g.choose(&PATHS).unwrap_or(&DecodePath::Dom));
        }
        Self {
            spec: entry_list(g),
            more: entry_list(g),
            class: *g.choose(&CLASSES).unwrap_or(&Class::ErrorSplit),
            side,
        }
    }
}

fn quickcheck(prop: fn(Case) -> bool) {
    QuickCheck::new().tests(2000).quickcheck(prop);
}

#[test]
fn entries_add_up() {
    // Whatever either list accepts path by path, the two lists together accept.
    quickcheck(|c: Case| {
        let a = entries(&c.spec);
        let b = entries(&c.more);
        let both: Vec<Accept> = a.iter().chain(&b).copied().collect();
        let each = c
            .side
            .iter()
            .all(|p| accepted(&a, c.class, &[*p]) || accepted(&b, c.class, &[*p]));
        !each || accepted(&both, c.class, &c.side)
    });
}

#[test]
fn a_finding_is_accepted_iff_each_of_its_paths_is() {
    quickcheck(|c: Case| {
        let a = entries(&c.spec);
        accepted(&a, c.class, &c.side) == c.side.iter().all(|p| accepted(&a, c.class, &[*p]))
    });
}

#[test]
fn order_does_not_matter_and_more_entries_never_withdraw() {
    quickcheck(|c: Case| {
        let a = entries(&c.spec);
        let mut reversed = a.clone();
        reversed.reverse();
        let more: Vec<Accept> = a.iter().chain(&entries(&c.more)).copied().collect();
        let before = accepted(&a, c.class, &c.side);
        before == accepted(&reversed, c.class, &c.side)
            && (!before || accepted(&more, c.class, &c.side))
    });
}

#[test]
fn acceptance_is_sound_and_extends_single_entries() {
    quickcheck(|c: Case| {
        let a = entries(&c.spec);
        let got = accepted(&a, c.class, &c.side);
        // Sound: every path of the finding is granted by an entry of its class.
        let sound = c.side.iter().all(|p| {
            a.iter()
                .any(|e| e.class == c.class && (e.only.is_empty() || e.only.contains(p)))
        });
        // What one entry accepted alone (the rule before entries added up) still is.
        let single = a.iter().any(|e| {
            e.class == c.class && (e.only.is_empty() || c.side.iter().all(|p| e.only.contains(p)))
        });
        got == sound && (!single || got)
    });
}

// ------------------------------------------------------------------- paths and functions

#[derive(Serialize, Deserialize)]
struct Quota {
    bytes: u128,
}

impl Dto for Quota {
    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }
}

#[test]
fn findings_of_paths_the_service_does_not_use_are_not_reported_unless_asked() {
    let doc = br#"{"bytes":36893488147419103232}"#;
    let used = equijson_check::dto::check::<Quota>(doc);
    let names: Vec<&str> = used.outcomes.iter().map(|(p, _)| p.name()).collect();
    assert_eq!(names, ["direct", "jsonb"]);
    assert_eq!(used.verdict(), Verdict::Equivalent);
    // Through `Value` the integer becomes a double: dom and borrow reject it.
    let all = equijson_check::dto::check_all_paths::<Quota>(doc);
    assert_eq!(all.verdict(), Verdict::Divergent);
    let f = &all.findings[0];
    assert_eq!(f.class, Class::ErrorSplit);
    let failing: Vec<DecodePath> = f.errors.iter().map(|(p, _)| *p).collect();
    assert!(failing.contains(&DecodePath::Dom) && failing.contains(&DecodePath::Borrow));
}

#[derive(Serialize, Deserialize)]
struct Reading {
    value: f64,
}

/// BEFORE: reads the value as written; AFTER: a "fast path" that truncates to 6 decimals.
impl Dto for Reading {
    fn paths() -> &'static [DecodePath] {
        &[]
    }
    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "unknown members are dropped",
            },
            Accept {
                class: Class::DuplicateName,
                only: &[],
                reason: "documents with a repeated name are refused before decoding",
            },
        ]
    }
    fn examples() -> &'static [&'static str] {
        &[r#"{"value":15.509858803567319}"#]
    }
    fn refactor() -> Option<Refactor<Self>> {
        Some(Refactor {
            before: |b| serde_json::from_slice(b).map_err(|e| e.to_string()),
            after: |b| {
                let r: Self = serde_json::from_slice(b).map_err(|e| e.to_string())?;
                Ok(Self {
                    value: (r.value * 1e6).trunc() / 1e6,
                })
            },
        })
    }
}

#[test]
fn before_and_after_are_paths_compared_like_the_built_in_ones() {
    let r = equijson_check::dto::check::<Reading>(br#"{"value":15.509858803567319}"#);
    let names: Vec<&str> = r.outcomes.iter().map(|(p, _)| p.name()).collect();
    assert_eq!(names, ["before", "after"]);
    let f = &r.findings[0];
    assert_eq!(
        (f.class, f.paths.as_slice(), f.against.as_slice()),
        (
            Class::ValueSplit,
            &[DecodePath::Before][..],
            &[DecodePath::After][..]
        )
    );
    assert_eq!(f.changes[0].pointer, "/value");
    assert!(!equijson_check::dto::check::<Reading>(br#"{"value":1.5}"#).is_divergent());
    // In a property run the planted difference is found and shrunk to that member.
    let outcome = equijson_check::props::run_dto::<Reading>(1, 50);
    let failure = outcome.first_failure.expect("the truncation is found");
    let shrunk = equijson_check::dto::check::<Reading>(failure.shrunk.as_bytes());
    assert_eq!(shrunk.findings[0].class, Class::ValueSplit);
    assert_eq!(shrunk.findings[0].changes[0].pointer, "/value");
}

// ----------------------------------------------------------------- generated documents

#[derive(Serialize, Deserialize)]
enum Unit {
    Bytes,
    Items(u32),
}

#[derive(Serialize, Deserialize)]
struct Limits {
    id: u64,
    label: String,
    unit: Unit,
    cap: Option<i64>,
    per_user: BTreeMap<String, u64>,
}

impl Dto for Limits {}

#[test]
fn documents_come_from_the_traced_type_with_values_at_the_edges() {
    let mut decoded = 0;
    let mut texts = Vec::new();
    for case in 0..400 {
        let mut g = Gen::for_case(7, case, 6);
        let text = Limits::generate(&mut g).render(equijson_check::generate::Style::Compact);
        if equijson_check::dto::check::<Limits>(text.as_bytes())
            .outcomes
            .iter()
            .any(|(_, r)| matches!(r, PathResult::Decoded(_)))
        {
            decoded += 1;
        }
        texts.push(text);
    }
    assert!(
        decoded >= 100,
        "only {decoded} of 400 documents decode: not the type's shape"
    );
    let all = texts.join("\n");
    for needle in [
        r#""id":18446744073709551616"#,
        r#""id":9007199254740993"#,
        r#""cap":-9223372036854775809"#,
        r#""unit":"Bytes""#,
        r#""unit":{"Items":"#,
        "\u{1f602}",
        r#""unknown_"#,
    ] {
        assert!(all.contains(needle), "no generated document has {needle}");
    }
    assert!(
        texts.iter().any(|t| !t.contains(r#""cap""#)),
        "the optional member is never left out"
    );
}

#[test]
fn example_documents_are_mutated_with_duplicate_names() {
    let example = r#"{"id":1,"label":"a","unit":"Bytes","per_user":{}}"#;
    let doc = equijson_check::generate::typed::parse(example).expect("the example parses");
    let mut dup = false;
    for case in 0..200 {
        let mut g = Gen::for_case(3, case, 6);
        if let Json::Object(m) = equijson_check::generate::edges::mutate(&doc, &mut g) {
            dup |= m
                .iter()
                .enumerate()
                .any(|(i, (k, _))| m[..i].iter().any(|(j, _)| j == k));
        }
    }
    assert!(dup, "no mutation duplicated a member name");
}

// ---------------------------------------------------------------------- the one-liner

/// Documents that no path decodes: its generator does not make this DTO.
#[derive(Serialize, Deserialize)]
struct Never {
    id: u64,
}

impl Dto for Never {
    fn generate(g: &mut Gen) -> Json {
        Json::String(g.string(3))
    }
}

#[test]
fn a_run_whose_every_case_is_rejected_fails() {
    let env = equijson_check::props::EnvConfig { seed: 5, cases: 30 };
    let outcome = equijson_check::props::run_dto::<Never>(env.seed, env.cases);
    assert_eq!((outcome.passed, outcome.rejected), (30, 30));
    let e = equijson_check::props::judge(&outcome, env, "cargo test x").expect_err("all rejected");
    assert!(
        matches!(
            e,
            equijson_check::props::PropsFailure::NothingChecked { .. }
        ),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("every one of the 30 cases was rejected"), "{e}");
    assert!(
        e.ends_with("\nreplay: EQUIJSON_SEED=0x5 EQUIJSON_CASES=30 cargo test x"),
        "{e}"
    );
}

#[test]
fn a_failure_names_the_shrunk_case_its_finding_and_the_replay_command() {
    // `Reading`'s AFTER truncates: the one-liner fails. The cases saved by earlier runs
    // (`equijson-regressions/Reading.txt`) are left out: this is the first finding.
    let env = equijson_check::props::EnvConfig::from_env().expect("EQUIJSON_* variables");
    let failure = equijson_check::props::try_check_dto_with::<Reading>(env, None)
        .expect_err("the truncation is found");
    let equijson_check::props::PropsFailure::CaseFailed { case, .. } = &failure else {
        panic!("not a failed case: {failure:?}");
    };
    let case = *case;
    let e = failure.to_string();
    assert!(e.contains("shrunk ("), "{e}");
    assert!(e.contains("value-split"), "{e}");
    assert!(
        e.contains("cargo test a_failure_names_the_shrunk_case_its_finding_and_the_replay_command -- --exact"),
        "{e}"
    );
    // The replay line's seed and case count reproduce the same case.
    let replay = e
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect("a replay line");
    let var = |name: &str| {
        replay
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .expect("the variable")
            .to_owned()
    };
    let env = equijson_check::props::EnvConfig::from_vars(
        Some(&var("EQUIJSON_SEED=")),
        Some(&var("EQUIJSON_CASES=")),
    )
    .expect("the replay line's variables parse");
    let again = equijson_check::props::run_dto::<Reading>(env.seed, env.cases);
    let f = again.first_failure.expect("the replay fails");
    assert_eq!(f.case + 1, env.cases);
    assert_eq!(f.case, case);
    assert!(
        e.contains(&format!("shrunk ({} steps): {}", f.steps, f.shrunk)),
        "{e}"
    );
}

#[test]
#[should_panic(expected = "value-split")]
fn the_one_liner_panics_on_a_finding() {
    equijson_check::props::check_dto::<Reading>();
}

// ------------------------------------------------- where tracing cannot see: the examples

#[derive(Serialize, Deserialize)]
#[serde(tag = "type")]
enum Event {
    Login { ip: String },
    Logout,
}

#[derive(Serialize, Deserialize)]
struct Audit {
    id: String,
    event: Event,
    #[serde(flatten)]
    extra: BTreeMap<String, serde_json::Value>,
}

impl Dto for Audit {
    fn examples() -> &'static [&'static str] {
        &[r#"{"id":"a","event":{"type":"Login","ip":"192.0.2.1"},"trace":"x"}"#]
    }
}

#[test]
fn flattened_structs_are_traced_and_tagged_enums_come_from_the_examples() {
    use equijson_check::generate::trace::Shape;
    // A flattened struct asks for a map: its field names are learnt from the errors of the
    // visitor (`missing field`), the internally tagged enum stays opaque.
    assert_eq!(
        equijson_check::generate::trace::shape_of::<Audit>(),
        Shape::Struct(vec![("id", Shape::Str), ("event", Shape::Opaque)])
    );
    let decoded = (0..200)
        .filter(|&case| {
            let mut g = Gen::for_case(11, case, 6);
            let text = Audit::generate(&mut g).render(equijson_check::generate::Style::Compact);
            equijson_check::dto::check::<Audit>(text.as_bytes()).verdict() != Verdict::Rejected
        })
        .count();
    assert!(decoded >= 50, "only {decoded} of 200 documents decode");
}

// ------------------------------------------- only the declared paths run, same report

#[derive(Serialize, Deserialize)]
struct Mixed {
    n: u64,
    x: f64,
    s: String,
    o: Option<i32>,
}

impl Dto for Mixed {
    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Dom, DecodePath::Borrow, DecodePath::Canonical]
    }
    fn accepts() -> &'static [Accept] {
        &[Accept {
            class: Class::RoundTripLoss,
            only: &[],
            reason: "test",
        }]
    }
}

/// The report of every path, kept to `T`'s paths and classified again.
fn kept<T: Dto>(text: &[u8]) -> equijson_check::decode::Report {
    let all = equijson_check::dto::check_all_paths::<T>(text);
    let outcomes: Vec<_> = all
        .outcomes
        .into_iter()
        .filter(|(p, _)| T::paths().contains(p))
        .collect();
    equijson_check::decode::classify_outcomes(
        text,
        equijson_check::decode::input_comparison_form(text),
        outcomes,
        T::accepts(),
    )
}

#[test]
fn running_only_the_declared_paths_gives_the_report_of_every_path_kept_to_them() {
    for case in 0..300 {
        for (text, ok) in [
            {
                let mut g = Gen::for_case(21, case, 6);
                let t =
                    Mixed::generate(&mut g).render(equijson_check::generate::Style::Seeded(case));
                let same = equijson_check::dto::check::<Mixed>(t.as_bytes())
                    == kept::<Mixed>(t.as_bytes());
                (t, same)
            },
            {
                let mut g = Gen::for_case(22, case, 6);
                let t =
                    Quota::generate(&mut g).render(equijson_check::generate::Style::Seeded(case));
                let same = equijson_check::dto::check::<Quota>(t.as_bytes())
                    == kept::<Quota>(t.as_bytes());
                (t, same)
            },
        ] {
            assert!(ok, "case {case}: {text}");
        }
    }
}
