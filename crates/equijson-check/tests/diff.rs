//! JSON-pointer diffs: locations (with RFC 6901 escaping), kinds of change, order, redaction.
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use equijson_check::diff::{ChangeKind, DiffStyle, diff_texts, render};

fn lines(old: &str, new: &str, style: DiffStyle) -> Vec<String> {
    diff_texts(old.as_bytes(), new.as_bytes())
        .unwrap()
        .iter()
        .map(|c| c.display(style))
        .collect()
}

#[test]
fn equal_documents_have_no_changes_whatever_the_spelling() {
    let d = diff_texts(
        br#"{"b":[1.0,"\u0041"],"a":null}"#,
        br#" { "a" : null , "b" : [ 1 , "A" ] } "#,
    )
    .unwrap();
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn changes_are_located_by_escaped_pointers_in_document_order() {
    let old = r#"{"a/b":1,"m~n":{"x":[1,2,3]},"same":true,"gone":"x"}"#;
    let new = r#"{"a/b":2,"m~n":{"x":[1,5]},"same":true,"new":{"k":1}}"#;
    assert_eq!(
        lines(old, new, DiffStyle::default()),
        [
            "~ /a~1b: 1 -> 2",
            "- /gone: \"x\"",
            "~ /m~0n/x/1: 2 -> 5",
            "- /m~0n/x/2: 3",
            "+ /new: {\"k\":1}",
        ]
    );
}

#[test]
fn kind_changes_and_the_root() {
    let d = diff_texts(b"[1]", br#"{"0":1}"#).unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].pointer, "");
    assert_eq!(d[0].kind, ChangeKind::Changed);
    assert_eq!(
        d[0].display(DiffStyle::default()),
        "~ (root): [1] -> {\"0\":1}"
    );
}

#[test]
fn integers_are_compared_with_all_their_digits() {
    let d = diff_texts(br#"{"id":9007199254740993}"#, br#"{"id":9007199254740992}"#).unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].pointer, "/id");
    // Floats compare as doubles: the same double is no change.
    assert!(
        diff_texts(b"[0.30000000000000004]", b"[0.30000000000000004000]")
            .unwrap()
            .is_empty()
    );
}

#[test]
fn redaction_shows_kinds_and_lengths_only() {
    let old = r#"{"card":"4111111111111111","pin":1234,"tags":["a","b"]}"#;
    let new = r#"{"card":"4000000000000002","pin":9999,"tags":["a"],"note":{"x":1,"y":2}}"#;
    let redacted = lines(
        old,
        new,
        DiffStyle {
            redact: true,
            ..DiffStyle::default()
        },
    );
    assert_eq!(
        redacted,
        [
            "~ /card: string(16) -> string(16)",
            "+ /note: object(2)",
            "~ /pin: number -> number",
            "- /tags/1: string(1)",
        ]
    );
    let all = redacted.join("\n");
    for secret in ["4111", "4000", "1234", "9999"] {
        assert!(!all.contains(secret));
    }
}

#[test]
fn long_values_are_cut_and_long_diffs_summarized() {
    let old = format!(r#"{{"a":"{}"}}"#, "x".repeat(500));
    let d = diff_texts(old.as_bytes(), br#"{"a":"y"}"#).unwrap();
    let line = d[0].display(DiffStyle {
        max_value_chars: 20,
        ..DiffStyle::default()
    });
    assert!(line.chars().count() < 60, "{line}");
    assert!(line.contains('…'));
    let many_old: Vec<u32> = (0..50).collect();
    let many_new: Vec<u32> = (100..150).collect();
    let d = diff_texts(
        serde_json::to_string(&many_old).unwrap().as_bytes(),
        serde_json::to_string(&many_new).unwrap().as_bytes(),
    )
    .unwrap();
    assert_eq!(d.len(), 50);
    let text = render(&d, DiffStyle::default(), 10);
    assert_eq!(text.lines().count(), 11);
    assert!(text.ends_with("… 40 more\n"), "{text}");
}

#[test]
fn deep_documents_do_not_overflow_the_stack() {
    let depth = 200_000;
    let a = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let b = format!("{}2{}", "[".repeat(depth), "]".repeat(depth));
    let options = equijson::Options::default().max_depth(depth + 1);
    let da = equijson::Document::parse_with(a.as_bytes(), &options).unwrap();
    let db = equijson::Document::parse_with(b.as_bytes(), &options).unwrap();
    // On a small stack, to prove the walk is iterative.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || equijson_check::diff::diff(&da, &db))
        .unwrap();
    let d = handle.join().unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].pointer.matches("/0").count(), depth);
}

#[test]
fn unparsable_input_gives_none() {
    assert!(diff_texts(b"{", b"{}").is_none());
}
