//! Duplicate member names are a divergence (`duplicate-name`, with the pointer of the later
//! member) unless a DTO or the caller accepts them; then the whole report is accepted.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_check::decode::{Accept, Class, Report, Verdict, check, reference};
use equijson_check::diff::DiffStyle;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize, Deserialize)]
struct Email {
    email: String,
    #[serde(rename = "type")]
    kind: String,
}

const ACCEPT_DUPLICATES: &[Accept] = &[Accept {
    class: Class::DuplicateName,
    only: &[],
    reason: "the writer repeats members; every reader of this service keeps the last",
}];

/// (input, pointer of the later duplicate)
const CASES: [(&str, &str); 5] = [
    (r#"{"type":"work","email":"a@b","type":"home"}"#, "/type"),
    (r#"{"a":{"b":1,"b":2}}"#, "/a/b"),
    (r#"[{"x":1},{"x":1,"x":2}]"#, "/1/x"),
    (r#"{"a/b":{"~":0,"~":1}}"#, "/a~1b/~0"),
    (r#"{"":1,"":2}"#, "/"),
];

fn classes(r: &Report) -> Vec<Class> {
    r.findings.iter().map(|f| f.class).collect()
}

#[test]
fn duplicate_names_are_a_divergence_with_the_pointer_of_the_later_member() {
    for (input, pointer) in CASES {
        let report = check::<Value>(input.as_bytes(), &[]);
        assert_eq!(report, reference::check::<Value>(input.as_bytes(), &[]));
        assert_eq!(
            classes(&report).first(),
            Some(&Class::DuplicateName),
            "{input}"
        );
        let f = &report.findings[0];
        assert_eq!(f.at.as_deref(), Some(pointer), "{input}");
        assert_eq!(f.pointer(), pointer);
        assert!(!f.accepted);
        assert_eq!(report.verdict(), Verdict::Divergent, "{input}");
        let text = report.render(DiffStyle::default());
        assert!(
            text.contains(&format!("duplicate-name: member {pointer} repeats a name")),
            "{text}"
        );
    }
}

#[test]
fn a_struct_dto_sees_them_too() {
    let input = CASES[0].0.as_bytes();
    let report = check::<Email>(input, &[]);
    assert_eq!(
        classes(&report),
        [Class::DuplicateName, Class::ErrorSplit],
        "{report:?}"
    );
    assert_eq!(report.verdict(), Verdict::Divergent);
}

#[test]
fn accepting_duplicate_names_accepts_what_follows_from_them() {
    let input = CASES[0].0.as_bytes();
    let by_dto = check::<Email>(input, ACCEPT_DUPLICATES);
    assert_eq!(by_dto.verdict(), Verdict::Accepted, "{by_dto:?}");
    assert!(by_dto.findings.iter().all(|f| f.accepted));
    assert_eq!(by_dto, reference::check::<Email>(input, ACCEPT_DUPLICATES));
    let mut by_caller = check::<Email>(input, &[]);
    by_caller.accept(Class::DuplicateName);
    assert_eq!(by_caller.verdict(), Verdict::Accepted);
    // The same findings, accepted by someone else: each says who.
    assert!(by_dto.findings.iter().all(|f| !f.by_caller));
    assert!(by_caller.findings.iter().all(|f| f.accepted && f.by_caller));
    let mut relabeled = by_caller.clone();
    for f in &mut relabeled.findings {
        f.by_caller = false;
    }
    assert_eq!(relabeled, by_dto);
    let dto_text = by_dto.render(DiffStyle::default());
    let caller_text = by_caller.render(DiffStyle::default());
    assert!(
        dto_text.contains("duplicate-name (accepted by the DTO)"),
        "{dto_text}"
    );
    assert!(!dto_text.contains("accepted by the caller"), "{dto_text}");
    assert!(
        caller_text.contains("duplicate-name (accepted by the caller)"),
        "{caller_text}"
    );
    assert!(
        !caller_text.contains("accepted by the DTO"),
        "{caller_text}"
    );
    // What the DTO accepted stays the DTO's when the caller accepts the class too.
    let mut both = by_dto.clone();
    both.accept(Class::DuplicateName);
    assert_eq!(both, by_dto);
    // Accepting them changes nothing for a document without duplicates.
    let mut clean = check::<Email>(br#"{"type":"work","email":"a@b","x":1}"#, &[]);
    let before = clean.clone();
    clean.accept(Class::DuplicateName);
    assert_eq!(clean, before);
    assert!(!classes(&clean).contains(&Class::DuplicateName));
}
