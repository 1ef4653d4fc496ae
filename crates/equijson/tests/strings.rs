//! String scanning and escaping at every offset: escapes of every class, raw non-ASCII and
//! string errors against a character-by-character definition (the same cases run in wasm32,
//! with and without SIMD: `just wasm-test`, `just wasm-test-simd`).

#[path = "shared/string_cases.rs"]
mod string_cases;

#[test]
fn every_escape_class_at_every_offset() {
    string_cases::check_pieces(40);
}

#[test]
fn string_errors_at_every_offset() {
    string_cases::check_errors(40);
}

#[test]
fn reference_literal_is_rfc8785() {
    // The expectation itself, against RFC 8785's own example (section 3.2.2.2).
    assert_eq!(
        string_cases::jcs_literal("\u{20ac}$\u{f}\nA'B\"\\\\\"/"),
        "\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\""
    );
}

#[test]
fn whitespace_of_every_length_between_tokens() {
    string_cases::check_whitespace(40);
}
