//! The Library examples of the book (`docs/src/your-dtos.md`) and of the README's front page,
//! compiled and run, and held to the documents' text.

use serde::{Deserialize, Serialize};

/// The example's lines as the book's "Your DTOs" chapter shows them under "## Library";
/// `book_library_example_runs` runs them (keep the two in step: `the_book_shows_this_example`
/// fails when the chapter changes).
const EXAMPLE: &str = r##"let canonical = equijson::canonicalize(br#"{"b": [1.0, 1e21], "a": "\u00e9"}"#)?;
assert_eq!(canonical, "{\"a\":\"é\",\"b\":[1,1e+21]}".as_bytes());

// Typed values, by their canonical bytes:
let bytes = equijson::to_canonical_vec(&my_dto)?;

// Policies:
let opts = equijson::Options::default().negative_zero(equijson::NegativeZero::Reject);
equijson::canonicalize_with(input, &opts)?;

// Many documents, reusing buffers:
let mut c = equijson::Canonicalizer::new(opts);
c.canonicalize_into(row, &mut out)?;

// Decode equivalence for your own DTO:
let report = equijson_check::decode::check::<MyDto>(row, &[]);
if report.is_divergent() { eprintln!("{}", report.render(Default::default())); }"##;

#[derive(Serialize, Deserialize)]
struct MyDto {
    id: u64,
    name: String,
}

/// The front page's shorter Library example (README.md, "## Library"); `front_page_example_runs`
/// runs it and `the_front_page_shows_this_example` holds it to the README's text.
const FRONT_PAGE: &str = r##"let canonical = equijson::canonicalize(br#"{"b": [1.0, 1e21], "a": "\u00e9"}"#)?;
assert_eq!(canonical, "{\"a\":\"é\",\"b\":[1,1e+21]}".as_bytes());

// Decode equivalence for your own DTO:
let report = equijson_check::decode::check::<MyDto>(row, &[]);
if report.is_divergent() { eprintln!("{}", report.render(Default::default())); }"##;

#[test]
// The book's own spelling: `render(Default::default())`.
#[allow(clippy::default_trait_access)]
fn book_library_example_runs() -> Result<(), equijson::Error> {
    let my_dto = MyDto {
        id: 7,
        name: "é".to_owned(),
    };
    let input: &[u8] = br#"{"z": -1.0, "a": 0}"#;
    let row: &[u8] = br#"{ "name": "\u00e9", "id": 7 }"#;
    let mut out = Vec::new();

    // ---- the book's lines ----
    let canonical = equijson::canonicalize(br#"{"b": [1.0, 1e21], "a": "\u00e9"}"#)?;
    assert_eq!(canonical, "{\"a\":\"é\",\"b\":[1,1e+21]}".as_bytes());

    // Typed values, by their canonical bytes:
    let bytes = equijson::to_canonical_vec(&my_dto)?;

    // Policies:
    let opts = equijson::Options::default().negative_zero(equijson::NegativeZero::Reject);
    equijson::canonicalize_with(input, &opts)?;

    // Many documents, reusing buffers:
    let mut c = equijson::Canonicalizer::new(opts);
    c.canonicalize_into(row, &mut out)?;

    // Decode equivalence for your own DTO:
    let report = equijson_check::decode::check::<MyDto>(row, &[]);
    if report.is_divergent() {
        eprintln!("{}", report.render(Default::default()));
    }
    // ---- end of the book's lines ----

    assert_eq!(bytes, "{\"id\":7,\"name\":\"é\"}".as_bytes());
    assert_eq!(out, "{\"id\":7,\"name\":\"é\"}".as_bytes());
    assert!(
        !report.is_divergent(),
        "{}",
        report.render(Default::default())
    );
    // The policy is on: -0 is refused.
    let e = equijson::canonicalize_with(b"[-0]", &opts).err();
    assert_eq!(
        e.map(|e| e.kind().clone()),
        Some(equijson::ErrorKind::NegativeZero)
    );
    Ok(())
}

#[test]
// The README's own spelling: `render(Default::default())`.
#[allow(clippy::default_trait_access)]
fn front_page_example_runs() -> Result<(), equijson::Error> {
    let row: &[u8] = br#"{ "name": "\u00e9", "id": 7, "extra": true }"#;

    // ---- the README's lines ----
    let canonical = equijson::canonicalize(br#"{"b": [1.0, 1e21], "a": "\u00e9"}"#)?;
    assert_eq!(canonical, "{\"a\":\"é\",\"b\":[1,1e+21]}".as_bytes());

    // Decode equivalence for your own DTO:
    let report = equijson_check::decode::check::<MyDto>(row, &[]);
    if report.is_divergent() {
        eprintln!("{}", report.render(Default::default()));
    }
    // ---- end of the README's lines ----

    // The unknown member is dropped on the way back: a round-trip loss the DTO does not
    // declare, so the example's `if` branch is taken here.
    assert!(
        report.is_divergent(),
        "{}",
        report.render(Default::default())
    );
    Ok(())
}

/// The fenced `rust` code block right after `heading` in `doc`.
fn rust_block_after<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    doc.split_once(&format!("{heading}\n\n```rust\n"))
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .map(|(block, _)| block)
}

#[test]
fn the_book_shows_this_example() {
    let chapter = include_str!("../../../docs/src/your-dtos.md");
    assert_eq!(
        rust_block_after(chapter, "## Library"),
        Some(EXAMPLE),
        "docs/src/your-dtos.md's Library example changed: update tests/readme.rs"
    );
}

#[test]
fn the_front_page_shows_this_example() {
    let readme = include_str!("../../../README.md");
    assert_eq!(
        rust_block_after(readme, "## Library"),
        Some(FRONT_PAGE),
        "README.md's Library example changed: update tests/readme.rs"
    );
}

// ------------------------------------------------------------ every example in the docs

#[path = "../../equijson/tests/shared/repo_docs.rs"]
mod repo_docs;
use repo_docs::documents;

/// The fenced code blocks of `doc` whose info string is `lang`, with their first line number.
fn blocks<'a>(doc: &'a str, lang: &str) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize)> = None; // (line, byte offset of the body)
    let mut offset = 0;
    for (i, line) in doc.split_inclusive('\n').enumerate() {
        let fence = line.trim_end().strip_prefix("```");
        match (open, fence) {
            (None, Some(info)) if info.trim() == lang => open = Some((i + 2, offset + line.len())),
            (None, Some(_)) => open = Some((0, 0)),
            (Some((first, start)), Some("")) => {
                if first > 0 {
                    out.push((first, doc[start..offset].trim_end_matches('\n')));
                }
                open = None;
            }
            _ => {}
        }
        offset += line.len();
    }
    out
}

#[test]
fn every_rust_example_in_the_docs_is_compiled_by_a_test() {
    // A rust block counts when a test holds its exact text as a constant (and runs its
    // lines): this file's EXAMPLE and FRONT_PAGE, equijson-pg's tests/book.rs, the
    // example service's tests/book.rs (the declaration examples) and its page crate.
    let tested = [
        include_str!("readme.rs"),
        include_str!("../../equijson-pg/tests/book.rs"),
        include_str!("../../equijson-example-service/tests/book.rs"),
        // The page binding of the example service, whole: built and opened in Chromium by
        // `just web-e2e-example`.
        include_str!("../../equijson-example-page/src/lib.rs"),
    ];
    let mut seen = 0;
    for (path, text) in documents() {
        for (line, block) in blocks(&text, "rust") {
            seen += 1;
            assert!(
                tested.iter().any(|t| t.contains(block)),
                "{}:{line}: a ```rust example no test compiles: add it to crates/equijson-check/tests/readme.rs \
                 (or crates/equijson-pg/tests/book.rs, crates/equijson-example-service/tests/book.rs) as a const and run its lines",
                path.display()
            );
        }
    }
    // The book's two, the front page's and the three crate READMEs' (core, check, pg).
    assert!(
        seen >= 6,
        "only {seen} rust examples found: is the docs walk broken?"
    );
}

/// Undoes the backslash escapes of a JavaScript or SQL-in-JSON literal that the docs use:
/// `\uXXXX` (a BMP character, or a surrogate pair written as two) and `\\`, `\"`, `\'`.
fn js_unescape(s: &str) -> String {
    let mut units: Vec<u16> = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                units.push(u16::from_str_radix(&hex, 16).expect("four hex digits after \\u"));
            }
            Some(other) => units.extend_from_slice(other.encode_utf16(&mut [0; 2])),
            None => panic!("a lone backslash ends {s:?}"),
        }
    }
    String::from_utf16(&units).expect("well-formed UTF-16")
}

#[test]
fn the_sql_and_js_examples_show_what_canonicalization_returns() {
    // `select equijson_canonical('DOC');` followed by `-- OUT` (the function's output equals
    // the core's: crates/equijson-pg/tests/sql_canonical.rs), and
    // `canonicalize('DOC'); // 'OUT'` in the npm examples (the package is the core in wasm).
    let mut checked = 0;
    for (path, text) in documents() {
        let cases = blocks(&text, "sql")
            .into_iter()
            .flat_map(|(line, b)| {
                let lines: Vec<&str> = b.lines().collect();
                lines
                    .windows(2)
                    .enumerate()
                    .filter_map(|(i, w)| {
                        let doc = w[0]
                            .strip_prefix("select equijson_canonical('")?
                            .strip_suffix("');")?;
                        let out = w[1].strip_prefix("-- ")?.split("   ").next()?;
                        // JSON escapes inside an SQL string stay JSON escapes.
                        Some((line + i, doc.to_owned(), out.to_owned()))
                    })
                    .collect::<Vec<_>>()
            })
            .chain(blocks(&text, "js").into_iter().flat_map(|(line, b)| {
                b.lines()
                    .enumerate()
                    .filter_map(|(i, l)| {
                        let (call, comment) = l.split_once("//")?;
                        let doc = call
                            .trim()
                            .strip_prefix("canonicalize('")?
                            .strip_suffix("');")?;
                        let out = comment.trim().strip_prefix('\'')?.strip_suffix('\'')?;
                        Some((line + i, js_unescape(doc), js_unescape(out)))
                    })
                    .collect::<Vec<_>>()
            }))
            .collect::<Vec<_>>();
        for (line, doc, out) in cases {
            checked += 1;
            let got = equijson::canonicalize(doc.as_bytes())
                .unwrap_or_else(|e| panic!("{}:{line}: {doc}: {e}", path.display()));
            assert_eq!(
                String::from_utf8_lossy(&got),
                out,
                "{}:{line}: the example's output is not the canonical form of {doc}",
                path.display()
            );
        }
    }
    assert!(
        checked >= 4,
        "only {checked} SQL/JS examples found: is the parse broken?"
    );
}
