//! The README's "Library" example, compiled and run, and held to the README's text.

use serde::{Deserialize, Serialize};

/// The example's lines as the README shows them; `readme_library_example_runs` runs them
/// (keep the two in step: `the_readme_shows_this_example` fails when the README changes).
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
// NOTE (serde-user): the README still spells the validator `equijson::decode`; since the
// split it is `equijson_check::decode` (as run below). README.md is not edited on this
// branch: the integrator updates it and this text together.

#[derive(Serialize, Deserialize)]
struct MyDto {
    id: u64,
    name: String,
}

#[test]
// The README's own spelling: `render(Default::default())`.
#[allow(clippy::default_trait_access)]
fn readme_library_example_runs() -> Result<(), equijson::Error> {
    let my_dto = MyDto {
        id: 7,
        name: "é".to_owned(),
    };
    let input: &[u8] = br#"{"z": -1.0, "a": 0}"#;
    let row: &[u8] = br#"{ "name": "\u00e9", "id": 7 }"#;
    let mut out = Vec::new();

    // ---- the README's lines ----
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
    // ---- end of the README's lines ----

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
fn the_readme_shows_this_example() {
    let readme = include_str!("../../../README.md");
    let block = readme
        .split_once("## Library\n\n```rust\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .map(|(block, _)| block);
    assert_eq!(
        block,
        Some(EXAMPLE),
        "README.md's Library example changed: update tests/readme.rs"
    );
}
