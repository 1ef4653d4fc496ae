//! The service's DTOs through equijson's test one-liner, as a user's `#[test]`s.

use equijson::ErrorKind;
use equijson::decode::{Class, DecodePath, Finding};
use equijson::dto::Dto;
use equijson::props::EnvConfig;
use equijson_example_service::{AuditBatch, AuditEvent, SETTINGS_EXAMPLE, Settings};

#[test]
fn settings_decode_the_same_way_on_the_paths_the_service_uses() {
    equijson::props::check_dto::<Settings>();
}

#[test]
fn a_quota_beyond_2_64_splits_only_paths_the_service_does_not_use() {
    let used = equijson::dto::check::<Settings>(SETTINGS_EXAMPLE.as_bytes());
    assert!(
        !used.is_divergent(),
        "{}",
        used.render(equijson::diff::DiffStyle::default())
    );
    let all = equijson::dto::check_all_paths::<Settings>(SETTINGS_EXAMPLE.as_bytes());
    // Through `Value` the integer is a double, which a u128 refuses; RFC 8785 writes that
    // double's digits, which a u128 takes, rounded.
    let f = &all.findings[0];
    assert_eq!(f.class, Class::ErrorSplit);
    let failing: Vec<DecodePath> = f.errors.iter().map(|(p, _)| *p).collect();
    assert_eq!(failing, [DecodePath::Dom, DecodePath::Borrow]);
    let v = &all.findings[1];
    assert_eq!(
        (v.class, v.against.as_slice(), v.changes[0].pointer.as_str()),
        (
            Class::ValueSplit,
            &[DecodePath::Canonical][..],
            "/quota_bytes"
        )
    );
}

/// The first failure of a property run for `T` (seed and cases from the environment),
/// with its shrunk document's first unaccepted finding.
fn first_failure<T: Dto>() -> (String, Finding) {
    let env = EnvConfig::from_env().expect("EQUIJSON_SEED / EQUIJSON_CASES");
    let outcome = equijson::props::run_dto::<T>(env.seed, env.cases);
    let f = outcome.first_failure.expect("a failing case");
    let report = equijson::dto::check::<T>(f.shrunk.as_bytes());
    let finding = report
        .findings
        .into_iter()
        .find(|f| !f.accepted)
        .expect("the shrunk case still fails");
    (f.shrunk, finding)
}

/// Whether `text` repeats a member name (the canonicalizer refuses it for that reason).
fn repeats_a_name(text: &str) -> bool {
    matches!(
        equijson::canonicalize(text.as_bytes()).map_err(|e| e.kind().clone()),
        Err(ErrorKind::DuplicateKey(_))
    )
}

#[test]
fn audit_events_with_a_repeated_name_split_direct_from_jsonb() {
    // The text reader refuses a repeated member (or takes the first `type` tag); jsonb
    // keeps the last one. Among the run's cases, those that repeat a name diverge so.
    let env = EnvConfig::from_env().expect("EQUIJSON_SEED / EQUIJSON_CASES");
    let cfg = equijson::props::PropsConfig::new(
        env.seed,
        env.cases,
        Some(equijson::dto::spec::<AuditEvent>()),
    );
    let mut planted = 0;
    for case in 0..env.cases {
        let text = equijson::props::case_text(&cfg, case);
        if !repeats_a_name(&text) {
            continue;
        }
        let report = equijson::dto::check::<AuditEvent>(text.as_bytes());
        let Some(f) = report.findings.iter().find(|f| !f.accepted) else {
            continue;
        };
        let failing: Vec<DecodePath> = f.errors.iter().map(|(p, _)| *p).collect();
        if f.class == Class::ErrorSplit
            && f.paths == [DecodePath::JsonbWire]
            && failing == [DecodePath::Direct]
        {
            planted += 1;
        }
    }
    assert!(
        planted >= 3,
        "only {planted} cases with a repeated name split direct from jsonb"
    );
}

#[test]
fn the_batch_refactor_changes_what_repeated_names_do() {
    // BEFORE went through `Value` (the last of two equal names wins); AFTER reads the
    // type straight from the bytes, which refuses the repeated name or keeps the first.
    let (shrunk, finding) = first_failure::<AuditBatch>();
    assert!(repeats_a_name(&shrunk), "{shrunk}");
    assert_eq!(finding.class, Class::ErrorSplit);
    assert_eq!(finding.paths, [DecodePath::Before]);
    let failing: Vec<DecodePath> = finding.errors.iter().map(|(p, _)| *p).collect();
    assert_eq!(failing, [DecodePath::After]);
}

#[test]
#[should_panic(expected = "decoded by before; rejected by:\n  after: ")]
fn the_one_liner_fails_on_the_batch_refactor() {
    equijson::props::check_dto::<AuditBatch>();
}

#[test]
fn the_audit_event_is_traced_through_its_flattened_extras() {
    use equijson::generate::trace::{Shape, shape_of};
    // `extra` is flattened: the event is read as a map and its fields are learnt by name
    // until the internally tagged `action`, which tracing cannot see; the examples give
    // `action` and the members after it.
    let Shape::Struct(fields) = shape_of::<AuditEvent>() else {
        panic!("the event is not traced as a struct")
    };
    assert_eq!(fields[0], ("id", Shape::Str));
    assert!(fields.contains(&("action", Shape::Opaque)), "{fields:?}");
    let decoded = (0..200)
        .filter(|&case| {
            let mut g = equijson::generate::Gen::for_case(3, case, 6);
            let text = AuditEvent::generate(&mut g).render(equijson::generate::Style::Compact);
            equijson::dto::check::<AuditEvent>(text.as_bytes()).verdict()
                != equijson::decode::Verdict::Rejected
        })
        .count();
    assert!(
        decoded >= 100,
        "only {decoded} of 200 generated events decode"
    );
}
