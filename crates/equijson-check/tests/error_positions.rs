//! Every path's error position points into a text the report shows: the input for the
//! paths that read it, and for the jsonb and canonical paths (which decode PostgreSQL's
//! jsonb text and the RFC 8785 form) the message names that text and quotes it there.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_check::decode::{DecodePath, PathResult, Report, check, reference};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize, Deserialize)]
struct Plain {
    a: u32,
}

/// `(line, column)` of a message that ends in `serde_json`'s `at line L column C` (the first
/// such place: a located message appends its own).
fn position(message: &str) -> Option<(usize, usize)> {
    let rest = &message[message.find(" at line ")? + " at line ".len()..];
    let (line, rest) = rest.split_once(" column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// Whether `(line, column)` (`serde_json`'s: columns count bytes) lies in `text`.
fn lies_in(text: &[u8], (line, column): (usize, usize)) -> bool {
    text.split(|&b| b == b'\n')
        .nth(line - 1)
        .is_some_and(|l| column <= l.len() + 1)
}

fn failures(r: &Report) -> Vec<(DecodePath, &str)> {
    r.outcomes
        .iter()
        .filter_map(|(p, o)| match o {
            PathResult::Failed(m) => Some((*p, m.as_str())),
            _ => None,
        })
        .collect()
}

fn check_positions(input: &[u8], report: &Report) -> usize {
    let mut located = 0;
    for (path, m) in failures(report) {
        let Some(at) = position(m) else { continue };
        match path {
            // The text is the input itself (no suffix): the position is in the input.
            DecodePath::JsonbWire | DecodePath::Canonical
                if !m.contains("which this path decodes") =>
            {
                assert!(lies_in(input, at), "{path}: {m} is not in the input");
            }
            DecodePath::JsonbWire | DecodePath::Canonical => {
                let what = if path == DecodePath::JsonbWire {
                    "PostgreSQL's jsonb text of the input"
                } else {
                    "the input's RFC 8785 form"
                };
                assert!(
                    m.contains(&format!("of {what}, which this path decodes;")),
                    "{path}: {m}"
                );
                assert!(m.contains("⟨here⟩"), "{path}: {m}");
                located += 1;
            }
            _ => assert!(lies_in(input, at), "{path}: {m} is not in the input"),
        }
    }
    located
}

#[test]
fn positions_of_transformed_texts_are_located_in_them() {
    // 1e400 is 401 digits in PostgreSQL's jsonb text: the position is far past the input.
    let long =
        br#"{"id":"c1","display_name":"A","address":[{"lat":1e400,"lng":2}],"updated_at":"2026"}"#;
    let r = check::<Value>(long, &[]);
    assert_eq!(r, reference::check::<Value>(long, &[]));
    assert_eq!(check_positions(long, &r), 1, "{r:?}");
    let jsonb = failures(&r)
        .into_iter()
        .find(|(p, _)| *p == DecodePath::JsonbWire)
        .unwrap()
        .1;
    let (_, column) = position(jsonb).unwrap();
    assert!(column > long.len(), "{jsonb}");
    assert!(jsonb.contains("0⟨here⟩"), "{jsonb}");
    assert!(
        jsonb.contains('…'),
        "a long text is quoted around the place: {jsonb}"
    );

    // The canonical form reorders members: `a` comes first there.
    let reordered = br#"{"b": 1, "a": 1.5}"#;
    let r = check::<Plain>(reordered, &[]);
    assert_eq!(r, reference::check::<Plain>(reordered, &[]));
    assert_eq!(check_positions(reordered, &r), 2, "{r:?}");
    let canonical = failures(&r)
        .into_iter()
        .find(|(p, _)| *p == DecodePath::Canonical)
        .unwrap()
        .1;
    assert!(
        canonical.ends_with(r#"there: "{\"a\":1.5⟨here⟩,\"b\":1}")"#),
        "{canonical}"
    );
}

#[test]
fn positions_in_the_input_are_left_as_they_are() {
    // The canonical form is the input itself: its message is the direct path's; the jsonb
    // text (`{"a": "x"}`) is not, and is named.
    let same = br#"{"a":"x"}"#;
    let r = check::<Plain>(same, &[]);
    assert_eq!(check_positions(same, &r), 1, "{r:?}");
    let failed = failures(&r);
    let of = |path| failed.iter().find(|(p, _)| *p == path).unwrap().1;
    assert_eq!(of(DecodePath::Canonical), of(DecodePath::Direct));
    assert!(of(DecodePath::JsonbWire).contains("PostgreSQL's jsonb text"));
}
