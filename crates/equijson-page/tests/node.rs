//! The core under wasm32, in Node: the RFC 8785 vectors, the portable random stream, and
//! the property-run digests, which must equal the native ones in tests/data/props-digests.tsv,
//! and the error kinds of tests/data/errors.tsv as the page reports them.
//!
//! Run with `just wasm-test` (wasm-bindgen-test-runner as the cargo runner).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use wasm_bindgen_test::wasm_bindgen_test;

const DIGESTS: &str = include_str!("../../../tests/data/props-digests.tsv");
const ERRORS: &str = include_str!("../../../tests/data/errors.tsv");

#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

/// The error of the page's `canonicalResult` for a JavaScript string.
fn page_error(text: &js_sys::JsString) -> serde_json::Value {
    let r: serde_json::Value =
        serde_json::from_str(&equijson_page::canonical_result(text)).unwrap();
    r["error"].clone()
}

/// The page reports every rejected row of errors.tsv with the kind the table names: the
/// core's `ErrorKind::name`, the same name the npm package's `EquijsonError.kind` carries
/// for the same row (`npm/test/cases.cjs` checks the table there).
/// The project's page binding (the built-in catalogue), installed once for this test
/// module as `equijson_page::bind!` installs it when a page's module starts.
fn bind_catalogue() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| equijson_page::install(equijson_page::Binding::catalogue()).unwrap());
}

#[wasm_bindgen_test]
fn error_kinds_are_the_core_names_of_the_table() {
    let mut n = 0;
    for line in ERRORS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        // canonicalResult takes default options, and a JavaScript string (UTF-8 rows only).
        let Ok(text) = String::from_utf8(unescape(f[0])) else {
            continue;
        };
        if f[1] != "default" {
            continue;
        }
        let kind = f[2].split('(').next().unwrap();
        let e = page_error(&text.as_str().into());
        assert_eq!(e["kind"], kind, "row {line}");
        n += 1;
    }
    assert!(n >= 200, "only {n} rows");
}

#[wasm_bindgen_test]
fn pointers_are_32_bit_here() {
    // The point of these tests: the same answers with 32-bit usize.
    assert_eq!(usize::BITS, 32);
}

#[wasm_bindgen_test]
fn property_digests_match_the_native_ones() {
    bind_catalogue();
    let mut rows = 0;
    for line in DIGESTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (seed, cases, dto, size) = (f[0], f[1].parse().unwrap(), f[2], f[3].parse().unwrap());
        let out: serde_json::Value = serde_json::from_str(
            &equijson_page::props(seed, cases, Some(dto.to_owned()), Some(size)).unwrap(),
        )
        .unwrap();
        assert_eq!(out["passed"].to_string(), f[4], "passed, row {line}");
        assert_eq!(out["failed"].to_string(), f[5], "failed, row {line}");
        assert_eq!(out["digest"].as_str().unwrap(), f[6], "digest, row {line}");
        rows += 1;
    }
    assert!(rows >= 6, "only {rows} digest rows");
}

#[wasm_bindgen_test]
fn random_stream_is_the_native_one() {
    let mut r = equijson_check::generate::Rng::new(0);
    let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
    let want: Vec<u64> = include_str!("../../../tests/data/rng-seed0.txt")
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(got, want);
}

#[wasm_bindgen_test]
fn rfc8785_vectors() {
    let cases = [
        (
            include_str!("../../../tests/data/jcs/input/arrays.json"),
            include_str!("../../../tests/data/jcs/output/arrays.json"),
        ),
        (
            include_str!("../../../tests/data/jcs/input/french.json"),
            include_str!("../../../tests/data/jcs/output/french.json"),
        ),
        (
            include_str!("../../../tests/data/jcs/input/structures.json"),
            include_str!("../../../tests/data/jcs/output/structures.json"),
        ),
        (
            include_str!("../../../tests/data/jcs/input/unicode.json"),
            include_str!("../../../tests/data/jcs/output/unicode.json"),
        ),
        (
            include_str!("../../../tests/data/jcs/input/values.json"),
            include_str!("../../../tests/data/jcs/output/values.json"),
        ),
        (
            include_str!("../../../tests/data/jcs/input/weird.json"),
            include_str!("../../../tests/data/jcs/output/weird.json"),
        ),
    ];
    for (input, output) in cases {
        assert_eq!(equijson_page::canonicalize(&input.into()).unwrap(), output);
    }
}

#[wasm_bindgen_test]
fn unpaired_surrogates_in_js_strings_are_refused_not_replaced() {
    // ["a<U+D800>"] with a raw lone surrogate in the JS string (not an escape).
    let units: Vec<u16> = "[\"a"
        .encode_utf16()
        .chain([0xD800])
        .chain("\"]".encode_utf16())
        .collect();
    let s = js_sys::JsString::from_char_code(&units);
    assert!(equijson_page::canonicalize(&s).is_err());
    // The same kind as the npm package gives a lone surrogate in a string.
    assert_eq!(page_error(&s)["kind"], "LoneSurrogate");
    // A well-formed astral character passes.
    let ok: Vec<u16> = "[\""
        .encode_utf16()
        .chain("😂".encode_utf16())
        .chain("\"]".encode_utf16())
        .collect();
    assert_eq!(
        equijson_page::canonicalize(&js_sys::JsString::from_char_code(&ok)).unwrap(),
        "[\"😂\"]"
    );
}

#[wasm_bindgen_test]
fn decode_reports_divergence_of_the_ledger_sample() {
    bind_catalogue();
    let dtos: serde_json::Value = serde_json::from_str(&equijson_page::dtos().unwrap()).unwrap();
    let ledger = dtos
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "ledger-entry")
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(
        &equijson_page::decode(
            "ledger-entry",
            &ledger["sample"].as_str().unwrap().into(),
            false,
        )
        .unwrap(),
    )
    .unwrap();
    assert_ne!(report["verdict"], "equivalent");
}

#[path = "../../equijson/tests/shared/string_cases.rs"]
mod string_cases;

/// String scanning at every offset of the 8- and 16-byte blocks (the SIMD ones when built
/// with `simd128`: `just wasm-test-simd`), against a character-by-character definition.
#[wasm_bindgen_test]
fn strings_at_every_offset() {
    string_cases::check_pieces(34);
    string_cases::check_errors(34);
    string_cases::check_whitespace(40);
}

/// `just wasm-test-simd` sets `EQUIJSON_EXPECT_SIMD` when it compiles: the SIMD blocks
/// above are then really the ones tested (and the scalar ones under `just wasm-test`).
#[wasm_bindgen_test]
fn simd_is_on_exactly_when_expected() {
    assert_eq!(
        cfg!(target_feature = "simd128"),
        option_env!("EQUIJSON_EXPECT_SIMD").is_some()
    );
}
