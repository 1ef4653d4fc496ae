//! One vocabulary of error kinds: the npm package's `ErrorKind` type and the kinds its
//! JavaScript throws are the core's [`equijson::ErrorKind::NAMES`] plus the JS-only ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test"
)]

use std::collections::BTreeSet;

const INDEX_D_TS: &str = include_str!("../../../npm/src/index.d.ts");
const API_JS: &str = include_str!("../../../npm/src/api.js");

/// The kinds only JavaScript raises: values with no JSON form, and the environment.
const JS_ONLY: [&str; 4] = ["UnsupportedType", "Cycle", "WasmBlocked", "NotInitialized"];

/// The string literals of `export type ErrorKind = | '...' | ...;`.
fn declared_kinds() -> Vec<String> {
    let start = INDEX_D_TS
        .find("export type ErrorKind =")
        .expect("index.d.ts declares ErrorKind");
    let body = &INDEX_D_TS[start..];
    let body = &body[..body.find(';').expect("the union ends with ';'")];
    body.split('|')
        .skip(1)
        .map(|alt| alt.trim().trim_matches('\'').to_owned())
        .collect()
}

/// The first argument of every `fail('...'` and `new EquijsonError('...'` in api.js.
fn thrown_kinds() -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    for call in ["fail(", "new EquijsonError("] {
        for (at, _) in API_JS.match_indices(call) {
            let rest = API_JS[at + call.len()..].trim_start();
            if let Some(lit) = rest.strip_prefix('\'') {
                kinds.insert(lit[..lit.find('\'').unwrap()].to_owned());
            }
        }
    }
    kinds
}

#[test]
fn the_declared_kinds_are_the_core_names_and_the_js_only_ones() {
    let declared = declared_kinds();
    let set: BTreeSet<&str> = declared.iter().map(String::as_str).collect();
    assert_eq!(
        set.len(),
        declared.len(),
        "a kind declared twice: {declared:?}"
    );
    let want: BTreeSet<&str> = equijson::ErrorKind::NAMES
        .iter()
        .copied()
        .chain(JS_ONLY)
        .collect();
    assert_eq!(set, want, "npm/src/index.d.ts ErrorKind");
}

#[test]
fn javascript_throws_only_declared_kinds() {
    let thrown = thrown_kinds();
    // The JS side raises each of its own kinds, and some of the core's.
    for k in JS_ONLY {
        assert!(thrown.contains(k), "api.js never throws {k}");
    }
    let declared = declared_kinds();
    for k in &thrown {
        assert!(declared.contains(k), "api.js throws undeclared kind {k:?}");
    }
}
