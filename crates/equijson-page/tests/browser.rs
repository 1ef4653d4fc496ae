//! The binding in a real browser (headless Chromium through wasm-bindgen's test runner and
//! chromedriver, see `just web-wasm-test`): what the reviewers' page calls, checked against the
//! native golden digests and the PostgreSQL-observed jsonb tables.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

// Without this line the runner skips every test here and still exits 0.
wasm_bindgen_test_configure!(run_in_browser);

#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

const DIGESTS: &str = include_str!("../../../tests/data/props-digests.tsv");
const NORMALIZE: &str = include_str!("../../../tests/data/jsonb/normalize.tsv");

fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// The project's page binding (the built-in catalogue), installed once for this test
/// module as `equijson_page::bind!` installs it when a page's module starts.
fn bind_catalogue() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| equijson_page::install(equijson_page::Binding::catalogue()).unwrap());
}

#[wasm_bindgen_test]
fn runs_in_a_browser_window() {
    let global = js_sys::global();
    let document = js_sys::Reflect::get(&global, &JsValue::from_str("document")).unwrap();
    assert!(document.is_object(), "no `document`: not a browser page");
    let ua = js_sys::Reflect::get(&global, &JsValue::from_str("navigator"))
        .and_then(|n| js_sys::Reflect::get(&n, &JsValue::from_str("userAgent")))
        .unwrap()
        .as_string()
        .unwrap();
    assert!(ua.contains("Chrome"), "user agent {ua}");
}

#[wasm_bindgen_test]
fn stepped_runner_gives_the_native_digests() {
    bind_catalogue();
    let mut n = 0;
    for f in rows(DIGESTS) {
        let (seed, cases, dto, size) = (f[0], f[1].parse().unwrap(), f[2], f[3].parse().unwrap());
        let mut r =
            equijson_page::PropsRunner::new(seed, cases, Some(dto.to_owned()), Some(size)).unwrap();
        // Uneven chunks, as the page's worker takes them.
        let mut chunk = 1;
        while !r.finished() {
            let before = r.done();
            let ran = r.step(chunk);
            assert_eq!(r.done(), before + ran);
            chunk = chunk * 3 % 17 + 1;
        }
        let out = json(&r.finish().unwrap());
        assert!(
            r.finish().is_err(),
            "a spent runner refuses to finish twice"
        );
        assert_eq!(out["passed"].to_string(), f[4], "row {f:?}");
        assert_eq!(out["failed"].to_string(), f[5], "row {f:?}");
        assert_eq!(out["digest"], f[6], "row {f:?}");
        if f[5] != "0" {
            // The failure carries the per-path report of the shrunk case.
            let report = &out["failure"]["report"];
            assert_eq!(report["outcomes"].as_array().unwrap().len(), 5);
            assert_eq!(report["verdict"], "divergent");
        }
        n += 1;
    }
    assert!(n >= 6);
}

#[wasm_bindgen_test]
fn case_texts_are_the_digested_cases() {
    bind_catalogue();
    // The digest is SHA-256 over each case's canonical form and "\n"; recompute it in the
    // browser over the texts the page's oracles use: they must be the hashed cases.
    let direct = json(&equijson_page::props("42", 30, Some("contact".into()), None).unwrap());
    let texts = equijson_page::case_texts("42", Some("contact".into()), None, 0, 30).unwrap();
    assert_eq!(texts.len(), 30);
    let again = equijson_page::case_texts("42", Some("contact".into()), None, 10, 5).unwrap();
    assert_eq!(again[..], texts[10..15]);
    let mut joined = Vec::new();
    for t in &texts {
        let c = json(&equijson_page::canonical_result(&t.as_str().into()));
        joined.extend_from_slice(c["ok"].as_str().unwrap().as_bytes());
        joined.push(b'\n');
    }
    let digest = sha256_hex(&joined);
    assert_eq!(direct["digest"], digest);
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[wasm_bindgen_test]
fn jsonb_prediction_matches_the_server_table() {
    let mut n = 0;
    for f in rows(NORMALIZE) {
        // The table's notation, decoded as the native tests decode it. A row whose bytes
        // are not UTF-8 cannot be a JavaScript string: those are for the native tests only.
        let (Ok(input), Ok(expected)) = (
            String::from_utf8(unescape(f[0])),
            String::from_utf8(unescape(f[1])),
        ) else {
            continue;
        };
        let got = json(&equijson_page::jsonb_result(&input.as_str().into()));
        assert_eq!(got["ok"], expected.as_str(), "row {f:?}");
        n += 1;
    }
    assert!(n >= 300, "only {n} rows");
    let e = json(&equijson_page::jsonb_result(&"[1,\n \"\\u0000\"]".into()));
    assert_eq!(e["error"]["code"], "22P05");
    assert_eq!(e["error"]["line"], 2);
}

#[wasm_bindgen_test]
fn playground_analysis_locates_errors() {
    bind_catalogue();
    let r = json(&equijson_page::analyze(&"{\n  \"a\": [1, 2,]\n}".into(), "value").unwrap());
    let e = &r["canonical"]["error"];
    assert_eq!(e["kind"], "TrailingComma");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(13))
    );
    assert_eq!(r["decode"]["verdict"], "rejected");
    let ok = json(&equijson_page::analyze(&"{\"b\":1.0,\"a\":-0}".into(), "value").unwrap());
    assert_eq!(ok["canonical"]["ok"], "{\"a\":0,\"b\":1}");
    assert_eq!(ok["jsonb"]["ok"], "{\"a\": 0, \"b\": 1.0}");
    assert_eq!(ok["decode"]["outcomes"].as_array().unwrap().len(), 5);
    // No fallback to another DTO: the error names the ones the page knows.
    let unknown = equijson_page::analyze(&"1".into(), "no-such-dto").unwrap_err();
    let message = JsValue::from(unknown)
        .dyn_into::<js_sys::Error>()
        .unwrap()
        .message();
    let known: Vec<&str> = equijson_check::dto::catalogue()
        .iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(
        String::from(message),
        format!(
            "unknown DTO \"no-such-dto\": this page knows {}",
            known.join(", ")
        )
    );
    assert_eq!(equijson_page::replay_command().unwrap(), "equijson");
    // The policy classes the page names carry stable kinds.
    for (text, kind) in [
        ("{\"a\":1,\"a\":2}", "DuplicateKey"),
        ("[\"\\ud800\"]", "LoneSurrogate"),
        ("[1e400]", "NumberOutOfRange"),
    ] {
        let c = json(&equijson_page::canonical_result(&text.into()));
        assert_eq!(c["error"]["kind"], kind, "{text}");
    }
    assert_eq!(equijson_page::default_dto().unwrap(), "value");
}
