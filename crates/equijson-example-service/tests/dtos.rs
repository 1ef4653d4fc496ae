//! The service's DTOs through equijson's test one-liner, as a user's `#[test]`s.

use equijson::ErrorKind;
use equijson_check::decode::{Class, DecodePath};
use equijson_check::dto::Dto;
use equijson_check::props::EnvConfig;
use equijson_example_service::{AuditBatch, AuditEvent, SETTINGS_EXAMPLE, Settings};

#[test]
fn settings_decode_the_same_way_on_the_paths_the_service_uses() {
    equijson_check::props::check_dto::<Settings>();
}

#[test]
fn a_quota_beyond_2_64_splits_only_paths_the_service_does_not_use() {
    let used = equijson_check::dto::check::<Settings>(SETTINGS_EXAMPLE.as_bytes());
    assert!(
        !used.is_divergent(),
        "{}",
        used.render(equijson_check::diff::DiffStyle::default())
    );
    let all = equijson_check::dto::check_all_paths::<Settings>(SETTINGS_EXAMPLE.as_bytes());
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

/// Whether `text` repeats a member name (the canonicalizer refuses it for that reason).
fn repeats_a_name(text: &str) -> bool {
    matches!(
        equijson::canonicalize(text.as_bytes()).map_err(|e| e.kind().clone()),
        Err(ErrorKind::DuplicateKey(_))
    )
}

/// How many cases of a property run for `T` (seed and cases from the environment) repeat a
/// member name (a finding of its own, first) and split the paths beside it: `decoded`
/// decodes, `failing` refuses.
fn planted<T: Dto>(decoded: DecodePath, failing: DecodePath) -> usize {
    let env = EnvConfig::from_env().expect("EQUIJSON_SEED / EQUIJSON_CASES");
    let cfg = equijson_check::props::PropsConfig::new(
        env.seed,
        env.cases,
        Some(equijson_check::dto::spec::<T>()),
    );
    (0..env.cases)
        .filter(|&case| {
            let text = equijson_check::props::case_text(&cfg, case);
            if !repeats_a_name(&text) {
                return false;
            }
            let report = equijson_check::dto::check::<T>(text.as_bytes());
            report
                .findings
                .first()
                .is_some_and(|f| f.class == Class::DuplicateName && !f.accepted)
                && report.findings.iter().any(|f| {
                    !f.accepted
                        && f.class == Class::ErrorSplit
                        && f.paths == [decoded]
                        && f.errors.iter().map(|(p, _)| *p).eq([failing])
                })
        })
        .count()
}

#[test]
fn audit_events_with_a_repeated_name_split_direct_from_jsonb() {
    // The text reader refuses a repeated member (or takes the first `type` tag); jsonb
    // keeps the last one.
    let n = planted::<AuditEvent>(DecodePath::JsonbWire, DecodePath::Direct);
    assert!(
        n >= 3,
        "only {n} cases with a repeated name split direct from jsonb"
    );
}

#[test]
fn the_batch_refactor_changes_what_repeated_names_do() {
    // BEFORE went through `Value` (the last of two equal names wins); AFTER reads the
    // type straight from the bytes, which refuses the repeated name or keeps the first.
    let n = planted::<AuditBatch>(DecodePath::Before, DecodePath::After);
    assert!(
        n >= 3,
        "only {n} cases with a repeated name split BEFORE from AFTER"
    );
}

#[test]
#[should_panic(expected = "repeats a name of its object")]
fn the_one_liner_fails_on_the_batch_refactor() {
    equijson_check::props::check_dto::<AuditBatch>();
}

#[test]
fn the_audit_event_is_traced_through_its_flattened_extras() {
    use equijson_check::generate::trace::{Shape, shape_of};
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
            let mut g = equijson_check::generate::Gen::for_case(3, case, 6);
            let text =
                AuditEvent::generate(&mut g).render(equijson_check::generate::Style::Compact);
            equijson_check::dto::check::<AuditEvent>(text.as_bytes()).verdict()
                != equijson_check::decode::Verdict::Rejected
        })
        .count();
    assert!(
        decoded >= 100,
        "only {decoded} of 200 generated events decode"
    );
}
