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
let report = equijson::decode::check::<MyDto>(row, &[]);
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
let report = equijson::decode::check::<MyDto>(row, &[]);
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
    let report = equijson::decode::check::<MyDto>(row, &[]);
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
    let report = equijson::decode::check::<MyDto>(row, &[]);
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

/// The fenced block that follows `heading` in `doc` (a ```rust block right after it).
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
