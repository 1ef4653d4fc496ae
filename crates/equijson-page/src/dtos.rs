//! The bound DTOs as the page lists them, and one text decoded into one of them through
//! every path it uses (the playground, a failure's per-path table).

use equijson_check::diff::DiffStyle;
use equijson_check::dto::DtoSpec;
use wasm_bindgen::prelude::*;

use crate::bind::bound;
use crate::text::{canonical_json, jsonb_json, serde_json_numbers, utf8};

/// The bound DTO named `name` (the default one for `None` or `""`).
pub(crate) fn lookup(name: Option<&str>) -> Result<&'static DtoSpec, JsError> {
    bound()
        .and_then(|b| b.resolve(name))
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The DTOs this page is built for, as JSON: `[{"name", "summary", "sample", "accepts": [...]}]`.
///
/// # Errors
/// A JS `Error` when the module has no binding (its crate has no `equijson_page::bind!`).
#[wasm_bindgen]
pub fn dtos() -> Result<String, JsError> {
    let binding = bound().map_err(|e| JsError::new(&e.to_string()))?;
    let list: Vec<serde_json::Value> = binding
        .dtos()
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
    Ok(serde_json::Value::Array(list).to_string())
}

/// The DTO a run uses when none is named: `equijson props`'s default (`value`) on the
/// project's own page, the first bound one on yours.
///
/// # Errors
/// A JS `Error` when the module has no binding.
#[wasm_bindgen(js_name = defaultDto)]
pub fn default_dto() -> Result<String, JsError> {
    lookup(None).map(|d| d.name.to_owned())
}

/// The native program that replays the page's runs (`PROGRAM props --seed ...`):
/// `equijson` for the built-in catalogue, your binary for your DTOs.
///
/// # Errors
/// A JS `Error` when the module has no binding.
#[wasm_bindgen(js_name = replayCommand)]
pub fn replay_command() -> Result<String, JsError> {
    bound()
        .map(|b| b.command().to_owned())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Decodes `text` into the DTO `dto` through every path; the report as JSON text.
///
/// # Errors
/// A JS `Error` for an unknown DTO name (naming the known ones) or a string with unpaired
/// surrogates.
#[wasm_bindgen]
pub fn decode(dto: &str, text: &js_sys::JsString, redact: bool) -> Result<String, JsError> {
    let spec = lookup(Some(dto))?;
    let text = utf8(text)?;
    let report = (spec.check)(text.as_bytes());
    let style = DiffStyle {
        redact,
        ..DiffStyle::default()
    };
    Ok(serde_json::json!({
        "dto": spec.name,
        "serde_json_numbers": serde_json_numbers(),
        "verdict": report.verdict().name(),
        "text": report.render(style),
    })
    .to_string())
}

/// Everything the playground shows for one text, as JSON text: `canonical` and `jsonb`
/// (as [`crate::canonical_result`] and [`crate::jsonb_result`]) and `decode`, the per-path
/// report for `dto` (`verdict`, `outcomes`, `findings`, `text`).
///
/// # Errors
/// A JS `Error` for an unknown DTO name (naming the known ones).
#[wasm_bindgen]
pub fn analyze(text: &js_sys::JsString, dto: &str) -> Result<String, JsError> {
    let spec = lookup(Some(dto))?;
    let decode = match utf8(text) {
        Ok(t) => report_json(&(spec.check)(t.as_bytes())),
        Err(_) => serde_json::Value::Null,
    };
    Ok(serde_json::json!({
        "dto": spec.name,
        "canonical": canonical_json(text),
        "jsonb": jsonb_json(text),
        "decode": decode,
    })
    .to_string())
}

/// A decode report as the page renders it: per-path outcomes and findings.
pub(crate) fn report_json(report: &equijson_check::decode::Report) -> serde_json::Value {
    use equijson_check::decode::PathResult;
    let outcomes: Vec<serde_json::Value> = report
        .outcomes
        .iter()
        .map(|(path, r)| {
            let (state, value) = match r {
                PathResult::Decoded(b) => ("ok", String::from_utf8_lossy(b).into_owned()),
                PathResult::Unencodable { message, pointer } => {
                    ("unencodable", format!("at {pointer:?}: {message}"))
                }
                PathResult::Failed(m) => ("error", m.clone()),
                PathResult::NotApplicable(why) => ("n/a", (*why).to_owned()),
            };
            serde_json::json!({
                "path": path.name(),
                "describe": path.describe(),
                "state": state,
                "value": value,
            })
        })
        .collect();
    let findings: Vec<serde_json::Value> = report
        .findings
        .iter()
        .map(|f| {
            serde_json::json!({
                "class": f.class.name(),
                "accepted": f.accepted,
                "paths": f.paths.iter().map(|p| p.name()).collect::<Vec<_>>(),
                "against": f.against.iter().map(|p| p.name()).collect::<Vec<_>>(),
                "errors": f.errors.iter().map(|(p, m)| serde_json::json!([p.name(), m])).collect::<Vec<_>>(),
                "changes": f.changes.iter().map(|c| c.display(DiffStyle::default())).collect::<Vec<_>>(),
                "misreads": f.misreads.iter().map(|m| m.describe(false)).collect::<Vec<_>>(),
                "pointer": f.pointer(),
            })
        })
        .collect();
    serde_json::json!({
        "serde_json_numbers": serde_json_numbers(),
        "verdict": report.verdict().name(),
        "outcomes": outcomes,
        "findings": findings,
        "text": report.render(DiffStyle::default()),
    })
}
