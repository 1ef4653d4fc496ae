//! Property runs of a bound DTO: whole ([`props`]) or in steps ([`PropsRunner`], for the
//! page's Web Worker), and the case texts the page's oracles replay.

use equijson_check::dto::DtoSpec;
use equijson_check::props::{PropsConfig, PropsOutcome, PropsRun};
use wasm_bindgen::prelude::*;

use crate::dtos::{lookup, report_json};
use crate::text::serde_json_numbers;

/// Runs the property checks; the outcome as JSON text:
/// `{"dto","seed","cases","passed","rejected","failed","digest","failure":null|{...}}`
/// (`rejected`: passed cases every decode path rejected).
///
/// `seed` is a decimal or `0x`-hex string (JavaScript numbers cannot hold every u64);
/// `dto` names a bound DTO (none or empty: the binding's default).
///
/// # Errors
/// A JS `Error` for a malformed seed, an unknown DTO name (naming the known ones) or a
/// size above 32.
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
    let (cfg, spec) = config(seed, cases, dto.as_deref(), size)?;
    let out = equijson_check::props::run(&cfg, |_, _| {});
    Ok(outcome_json(cfg.seed, spec, out))
}

fn outcome_json(seed: u64, spec: &DtoSpec, out: PropsOutcome) -> String {
    let failure = out.first_failure.map(|f| {
        let report = (spec.check)(f.shrunk.as_bytes());
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

/// The run configuration from the arguments JavaScript passes, and the DTO it runs.
fn config(
    seed: &str,
    cases: u32,
    dto: Option<&str>,
    size: Option<u32>,
) -> Result<(PropsConfig, &'static DtoSpec), JsError> {
    let seed = equijson_check::props::parse_seed(seed)
        .ok_or_else(|| JsError::new(&format!("bad seed {seed:?}")))?;
    let spec = lookup(dto)?;
    let mut cfg = PropsConfig::new(seed, u64::from(cases), Some(spec));
    if let Some(size) = size {
        if size > 32 {
            return Err(JsError::new(&format!("size {size} is above 32")));
        }
        cfg.size = size as usize;
    }
    Ok((cfg, spec))
}

/// A property run that advances in steps, so a Web Worker can report progress and stay
/// responsive between chunks. Same cases and digest as [`props`] and `equijson props`.
#[wasm_bindgen]
pub struct PropsRunner {
    seed: u64,
    spec: &'static DtoSpec,
    run: Option<PropsRun>,
}

#[wasm_bindgen]
impl PropsRunner {
    /// A run of `cases` cases from `seed` (decimal or `0x`-hex) for the bound DTO `dto`
    /// (none or empty: the binding's default).
    ///
    /// # Errors
    /// A JS `Error` for a malformed seed, an unknown DTO (naming the known ones) or a size
    /// above 32.
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
        let (cfg, spec) = config(seed, cases, dto.as_deref(), size)?;
        Ok(Self {
            seed: cfg.seed,
            spec,
            run: Some(PropsRun::new(cfg)),
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
        self.run.as_ref().is_none_or(PropsRun::is_finished)
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
        Ok(outcome_json(self.seed, self.spec, run.finish()))
    }
}

/// The texts of cases `start..start+count` of a run, exactly as the properties see them
/// (and as the digest hashes their canonical forms).
///
/// # Errors
/// A JS `Error` for a malformed seed, an unknown DTO (naming the known ones) or a size
/// above 32.
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
    let (cfg, _) = config(seed, 0, dto.as_deref(), size)?;
    Ok((start..start.saturating_add(count))
        .map(|i| equijson_check::props::case_text(&cfg, u64::from(i)))
        .collect())
}
