//! WebAssembly bindings over `equijson` and `equijson-check`: a thin layer, all logic lives in those crates.
//!
//! JavaScript calls `await init()` once (wasm-bindgen's generated loader), then these
//! functions. Results that have structure are returned as JSON text for `JSON.parse`.

#![forbid(unsafe_code)]

use equijson_check::diff::DiffStyle;
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
    let list: Vec<serde_json::Value> = equijson_check::dto::catalogue()
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
    let spec = equijson_check::dto::find(dto)
        .ok_or_else(|| JsError::new(&format!("unknown DTO {dto:?}")))?;
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

/// Runs the property checks; the outcome as JSON text:
/// `{"dto","seed","cases","passed","rejected","failed","digest","failure":null|{...}}`
/// (`rejected`: passed cases every decode path rejected).
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
    let cfg = config(seed, cases, dto.as_deref(), size)?;
    let out = equijson_check::props::run(&cfg, |_, _| {});
    Ok(outcome_json(cfg.seed, out))
}

fn outcome_json(seed: u64, out: equijson_check::props::PropsOutcome) -> String {
    let failure = out.first_failure.map(|f| {
        let report = (out_spec(out.dto).check)(f.shrunk.as_bytes());
        serde_json::json!({
            "case": f.case,
            "property": f.property.name(),
            "original": f.original,
            "shrunk": f.shrunk,
            "steps": f.steps,
            "detail": f.detail,
            "report": report_json(&report),
        })
    });
    serde_json::json!({
        "dto": out.dto,
        "serde_json_numbers": serde_json_numbers(),
        "seed": seed.to_string(),
        "cases": out.cases,
        "passed": out.passed,
        "rejected": out.rejected,
        "failed": out.failed,
        "digest": out.digest,
        "failure": failure,
    })
    .to_string()
}

fn out_spec(name: &str) -> &'static equijson_check::dto::DtoSpec {
    equijson_check::dto::find(name).unwrap_or(&equijson_check::dto::catalogue()[0])
}

/// The run configuration from the arguments JavaScript passes.
fn config(
    seed: &str,
    cases: u32,
    dto: Option<&str>,
    size: Option<u32>,
) -> Result<equijson_check::props::PropsConfig, JsError> {
    let seed = equijson_check::props::parse_seed(seed)
        .ok_or_else(|| JsError::new(&format!("bad seed {seed:?}")))?;
    let spec = match dto {
        None | Some("") => None,
        Some(name) => Some(
            equijson_check::dto::find(name)
                .ok_or_else(|| JsError::new(&format!("unknown DTO {name:?}")))?,
        ),
    };
    let mut cfg = equijson_check::props::PropsConfig::new(seed, u64::from(cases), spec);
    if let Some(size) = size {
        if size > 32 {
            return Err(JsError::new(&format!("size {size} is above 32")));
        }
        cfg.size = size as usize;
    }
    Ok(cfg)
}

/// A property run that advances in steps, so a Web Worker can report progress and stay
/// responsive between chunks. Same cases and digest as [`props`] and `equijson props`.
#[wasm_bindgen]
pub struct PropsRunner {
    seed: u64,
    run: Option<equijson_check::props::PropsRun>,
}

#[wasm_bindgen]
impl PropsRunner {
    /// A run of `cases` cases from `seed` (decimal or `0x`-hex) for `dto` (empty: `value`).
    ///
    /// # Errors
    /// A JS `Error` for a malformed seed, an unknown DTO or a size above 32.
    #[wasm_bindgen(constructor)]
    #[allow(
        clippy::needless_pass_by_value,
        reason = "wasm-bindgen passes optional strings by value"
    )]
    pub fn new(
        seed: &str,
        cases: u32,
        dto: Option<String>,
        size: Option<u32>,
    ) -> Result<PropsRunner, JsError> {
        let cfg = config(seed, cases, dto.as_deref(), size)?;
        Ok(Self {
            seed: cfg.seed,
            run: Some(equijson_check::props::PropsRun::new(cfg)),
        })
    }

    /// Runs up to `max` more cases; returns how many ran.
    pub fn step(&mut self, max: u32) -> u32 {
        self.run
            .as_mut()
            .map_or(0, |r| r.step(u64::from(max)) as u32)
    }

    /// Cases run so far.
    #[must_use]
    pub fn done(&self) -> u32 {
        self.run.as_ref().map_or(0, |r| r.done() as u32)
    }

    /// Cases failed so far.
    #[must_use]
    pub fn failed(&self) -> u32 {
        self.run.as_ref().map_or(0, |r| r.failed() as u32)
    }

    /// Whether every case has run.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.run
            .as_ref()
            .is_none_or(equijson_check::props::PropsRun::is_finished)
    }

    /// The outcome as JSON text (as [`props`] returns it, plus the shrunk case's
    /// per-path `report`); the runner is spent afterwards.
    ///
    /// # Errors
    /// A JS `Error` when called twice.
    pub fn finish(&mut self) -> Result<String, JsError> {
        let run = self
            .run
            .take()
            .ok_or_else(|| JsError::new("the run was already finished"))?;
        Ok(outcome_json(self.seed, run.finish()))
    }
}

/// The texts of cases `start..start+count` of a run, exactly as the properties see them
/// (and as the digest hashes their canonical forms).
///
/// # Errors
/// A JS `Error` for a malformed seed, an unknown DTO or a size above 32.
#[wasm_bindgen(js_name = caseTexts)]
#[allow(
    clippy::needless_pass_by_value,
    reason = "wasm-bindgen passes optional strings by value"
)]
pub fn case_texts(
    seed: &str,
    dto: Option<String>,
    size: Option<u32>,
    start: u32,
    count: u32,
) -> Result<Vec<String>, JsError> {
    let cfg = config(seed, 0, dto.as_deref(), size)?;
    Ok((start..start.saturating_add(count))
        .map(|i| equijson_check::props::case_text(&cfg, u64::from(i)))
        .collect())
}

/// The canonical form of `text` or why there is none, as JSON text:
/// `{"ok":"..."}` or `{"error":{"kind","message","line","column","offset"}}`, where `kind`
/// is [`equijson::ErrorKind::name`] (`"DuplicateKey"`), the names the npm package uses.
#[wasm_bindgen(js_name = canonicalResult)]
#[must_use]
pub fn canonical_result(text: &js_sys::JsString) -> String {
    canonical_json(text).to_string()
}

fn canonical_json(text: &js_sys::JsString) -> serde_json::Value {
    let Ok(utf8) = utf8(text) else {
        return serde_json::json!({ "error": {
            "kind": equijson::ErrorKind::LoneSurrogate(0xD800).name(),
            "message": "the string holds an unpaired surrogate (not valid Unicode text)",
        }});
    };
    match equijson::canonicalize(utf8.as_bytes()) {
        Ok(c) => serde_json::json!({ "ok": String::from_utf8_lossy(&c) }),
        Err(e) => serde_json::json!({ "error": {
            "kind": e.kind().name(),
            "message": e.message(),
            "line": e.line(),
            "column": e.column(),
            "offset": e.offset(),
        }}),
    }
}

/// What PostgreSQL prints for `text::jsonb::text`, predicted by the core's jsonb model, as
/// JSON text: `{"ok":"..."}` or `{"error":{"code","message","detail","line","column"}}`.
#[wasm_bindgen(js_name = jsonbResult)]
#[must_use]
pub fn jsonb_result(text: &js_sys::JsString) -> String {
    jsonb_json(text).to_string()
}

fn jsonb_json(text: &js_sys::JsString) -> serde_json::Value {
    let Ok(utf8) = utf8(text) else {
        return serde_json::json!({ "error": {
            "code": "22P02",
            "message": "the string holds an unpaired surrogate (not valid Unicode text)",
        }});
    };
    let options = equijson_check::jsonb::JsonbOptions::default();
    match equijson_check::jsonb::normalize(utf8.as_bytes(), &options) {
        Ok(t) => serde_json::json!({ "ok": t }),
        Err(e) => {
            let (line, column) = e
                .offset()
                .map(|o| equijson::line_column(utf8.as_bytes(), o))
                .unzip();
            serde_json::json!({ "error": {
                "code": e.code(),
                "message": e.message(),
                "detail": e.detail(),
                "line": line,
                "column": column,
            }})
        }
    }
}

fn report_json(report: &equijson_check::decode::Report) -> serde_json::Value {
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

/// Everything the playground shows for one text, as JSON text: `canonical` and `jsonb`
/// (as [`canonical_result`] and [`jsonb_result`]) and `decode`, the per-path report for
/// `dto` (`verdict`, `outcomes`, `findings`, `text`).
///
/// # Errors
/// A JS `Error` for an unknown DTO name.
#[wasm_bindgen]
pub fn analyze(text: &js_sys::JsString, dto: &str) -> Result<String, JsError> {
    let spec = equijson_check::dto::find(dto)
        .ok_or_else(|| JsError::new(&format!("unknown DTO {dto:?}")))?;
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

/// How this module's `serde_json` reads numbers, probed at run time (the decode paths
/// run it): `default (fast, not correctly rounded)` or `float_roundtrip (correctly rounded)`.
#[wasm_bindgen(js_name = serdeJsonNumbers)]
#[must_use]
pub fn serde_json_numbers() -> String {
    equijson_check::decode::serde_json_numbers().describe()
}

/// The DTO `equijson props` exercises when no `--dto` is given.
#[wasm_bindgen(js_name = defaultDto)]
#[must_use]
pub fn default_dto() -> String {
    equijson_check::props::PropsConfig::new(0, 0, None)
        .dto_name()
        .to_owned()
}
