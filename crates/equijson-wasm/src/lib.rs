//! WebAssembly bindings over the `equijson` core: a thin layer, all logic lives in the core.
//!
//! JavaScript calls `await init()` once (wasm-bindgen's generated loader), then these
//! functions. Results that have structure are returned as JSON text for `JSON.parse`.

#![forbid(unsafe_code)]

use equijson::diff::DiffStyle;
use wasm_bindgen::prelude::*;

/// The RFC 8785 canonical form of a JSON text.
///
/// A JavaScript string may hold unpaired surrogates, which converting it to UTF-8 would
/// silently replace with U+FFFD; such a string is rejected instead, like an unpaired
/// surrogate escape in the text.
///
/// # Errors
/// A JS `Error` whose message is `LINE:COL: what` for invalid input.
#[wasm_bindgen]
pub fn canonicalize(text: &js_sys::JsString) -> Result<String, JsError> {
    let text = utf8(text)?;
    let bytes =
        equijson::canonicalize(text.as_bytes()).map_err(|e| JsError::new(&e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| JsError::new(&e.to_string()))
}

/// The string as UTF-8, refusing unpaired surrogates instead of replacing them.
fn utf8(text: &js_sys::JsString) -> Result<String, JsError> {
    if !text.is_valid_utf16() {
        let units: Vec<u16> = text.iter().collect();
        let at = char::decode_utf16(units.iter().copied())
            .take_while(Result::is_ok)
            .map(|c| c.map_or(1, char::len_utf16))
            .sum::<usize>();
        return Err(JsError::new(&format!(
            "unpaired surrogate U+{:04X} at UTF-16 index {at} of the string",
            units.get(at).copied().unwrap_or(0)
        )));
    }
    Ok(String::from(text))
}

/// The RFC 8785 canonical form of JSON given as UTF-8 bytes (a `Uint8Array`).
///
/// # Errors
/// A JS `Error` whose message is `LINE:COL: what` for invalid input.
#[wasm_bindgen(js_name = canonicalizeBytes)]
pub fn canonicalize_bytes(bytes: &[u8]) -> Result<Vec<u8>, JsError> {
    equijson::canonicalize(bytes).map_err(|e| JsError::new(&e.to_string()))
}

/// The catalogue of DTOs, as JSON: `[{"name", "summary", "sample", "accepts": [...]}]`.
#[wasm_bindgen]
#[must_use]
pub fn dtos() -> String {
    let list: Vec<serde_json::Value> = equijson::dto::catalogue()
        .iter()
        .map(|d| {
            let accepts: Vec<serde_json::Value> = d
                .accepts
                .iter()
                .map(|a| {
                    serde_json::json!({
                        "class": a.class.name(),
                        "only": a.only.iter().map(|p| p.name()).collect::<Vec<_>>(),
                        "reason": a.reason,
                    })
                })
                .collect();
            serde_json::json!({ "name": d.name, "summary": d.summary, "sample": d.sample, "accepts": accepts })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Decodes `text` into the DTO `dto` through every path; the report as JSON text.
///
/// # Errors
/// A JS `Error` for an unknown DTO name or a string with unpaired surrogates.
#[wasm_bindgen]
pub fn decode(dto: &str, text: &js_sys::JsString, redact: bool) -> Result<String, JsError> {
    let spec =
        equijson::dto::find(dto).ok_or_else(|| JsError::new(&format!("unknown DTO {dto:?}")))?;
    let text = utf8(text)?;
    let report = (spec.check)(text.as_bytes());
    let style = DiffStyle {
        redact,
        ..DiffStyle::default()
    };
    Ok(serde_json::json!({
        "dto": spec.name,
        "verdict": report.verdict().name(),
        "text": report.render(style),
    })
    .to_string())
}

/// Runs the property checks; the outcome as JSON text:
/// `{"dto","seed","cases","passed","failed","digest","failure":null|{...}}`.
///
/// `seed` is a decimal or `0x`-hex string (JavaScript numbers cannot hold every u64).
///
/// # Errors
/// A JS `Error` for a malformed seed or an unknown DTO name.
#[wasm_bindgen]
#[allow(
    clippy::needless_pass_by_value,
    reason = "wasm-bindgen passes optional strings by value"
)]
pub fn props(
    seed: &str,
    cases: u32,
    dto: Option<String>,
    size: Option<u32>,
) -> Result<String, JsError> {
    let seed = equijson::props::parse_seed(seed)
        .ok_or_else(|| JsError::new(&format!("bad seed {seed:?}")))?;
    let spec = match dto.as_deref() {
        None | Some("") => None,
        Some(name) => Some(
            equijson::dto::find(name)
                .ok_or_else(|| JsError::new(&format!("unknown DTO {name:?}")))?,
        ),
    };
    let mut cfg = equijson::props::PropsConfig::new(seed, u64::from(cases), spec);
    if let Some(size) = size {
        cfg.size = size as usize;
    }
    let out = equijson::props::run(&cfg, |_, _| {});
    let failure = out.first_failure.map(|f| {
        serde_json::json!({
            "case": f.case,
            "property": f.property.name(),
            "original": f.original,
            "shrunk": f.shrunk,
            "steps": f.steps,
            "detail": f.detail,
        })
    });
    Ok(serde_json::json!({
        "dto": out.dto,
        "seed": seed.to_string(),
        "cases": out.cases,
        "passed": out.passed,
        "failed": out.failed,
        "digest": out.digest,
        "failure": failure,
    })
    .to_string())
}
