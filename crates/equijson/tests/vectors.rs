//! The RFC 8785 reference vectors (`tests/data/jcs`, see `VECTORS.md` there), byte for byte.
//!
//! For every `input/NAME.json`, [`equijson::canonicalize`] must give exactly the bytes of
//! `output/NAME.json` and the bytes spelled in hex by `outhex/NAME.txt`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use std::path::{Path, PathBuf};

fn jcs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcs")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Decodes `outhex` text: hex byte pairs separated by any whitespace.
fn decode_hex(text: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(text).expect("outhex files are ASCII");
    text.split_ascii_whitespace()
        .flat_map(|word| {
            assert!(word.len() % 2 == 0, "odd hex word {word:?}");
            (0..word.len()).step_by(2).map(move |i| {
                u8::from_str_radix(&word[i..i + 2], 16).unwrap_or_else(|e| panic!("{word:?}: {e}"))
            })
        })
        .collect()
}

/// `NAME`s of the vectors, sorted.
fn vector_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(jcs_dir().join("input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn all_rfc8785_vectors_byte_for_byte() {
    let names = vector_names();
    assert!(
        names.len() >= 6,
        "expected the six RFC 8785 vectors, found {names:?}"
    );
    for name in [
        "arrays",
        "french",
        "structures",
        "unicode",
        "values",
        "weird",
    ] {
        assert!(names.iter().any(|n| n == name), "vector {name} is missing");
    }
    let dir = jcs_dir();
    for name in &names {
        let input = read(&dir.join("input").join(format!("{name}.json")));
        let want = read(&dir.join("output").join(format!("{name}.json")));
        let want_hex = decode_hex(&read(&dir.join("outhex").join(format!("{name}.txt"))));
        // The two expected spellings agree with each other (guards against a damaged file).
        assert_eq!(want, want_hex, "{name}: output/ and outhex/ disagree");

        let got =
            equijson::canonicalize(&input).unwrap_or_else(|e| panic!("{name}: rejected: {e}"));
        assert!(
            got == want,
            "{name}:\n got  {}\n want {}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        // Canonical output is a fixed point and also what the reusable entry points write.
        assert_eq!(
            equijson::canonicalize(&got).unwrap(),
            want,
            "{name}: not idempotent"
        );
        assert_eq!(
            equijson::Document::parse(&input)
                .unwrap()
                .to_canonical_vec(),
            want,
            "{name}: Document"
        );
        let mut c = equijson::Canonicalizer::new(equijson::Options::default());
        let mut out = Vec::new();
        c.canonicalize_into(&input, &mut out).unwrap();
        assert_eq!(out, want, "{name}: Canonicalizer");
    }
}

#[test]
fn hex_decoder() {
    assert_eq!(decode_hex(b"7b 22\n61 22 3a\r\n31 7d\n"), br#"{"a":1}"#);
    assert_eq!(decode_hex(b"7B22"), b"{\"");
}
