//! The service's DTOs through equijson's test one-liner, as a user's `#[test]`s.

use equijson::decode::{Class, DecodePath};
use equijson_example_service::{AuditBatch, AuditEvent, SETTINGS_EXAMPLE, Settings};

#[test]
fn settings_decode_the_same_way_on_the_paths_the_service_uses() {
    equijson::props::check_dto::<Settings>();
}

#[test]
fn a_quota_beyond_2_64_splits_only_paths_the_service_does_not_use() {
    let used = equijson::dto::check::<Settings>(SETTINGS_EXAMPLE.as_bytes());
    assert!(!used.is_divergent(), "{}", used.render(Default::default()));
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
        (Class::ValueSplit, &[DecodePath::Canonical][..], "/quota_bytes")
    );
}

#[test]
fn audit_events_with_a_duplicate_name_split_direct_from_jsonb() {
    // The text reader refuses a repeated member; jsonb keeps the last one.
    let message = equijson::props::try_check_dto::<AuditEvent>().expect_err("a finding");
    assert!(message.contains("error-split"), "{message}");
    assert!(message.contains("duplicate field"), "{message}");
    assert!(message.contains("replay: EQUIJSON_SEED="), "{message}");
}

#[test]
#[should_panic(expected = "decoded by before; rejected by:\n  after: ")]
fn the_batch_refactor_changes_what_duplicate_names_do() {
    // BEFORE went through `Value` (the last of two equal names wins); AFTER reads the
    // type straight from the bytes, which refuses the repeated name.
    equijson::props::check_dto::<AuditBatch>();
}
