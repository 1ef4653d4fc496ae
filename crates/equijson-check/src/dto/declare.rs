//! One declaration of a user's DTO: the [`Dto`] trait, whose defaults need nothing but
//! the type, and the check and the [`DtoSpec`] made from it.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::DtoSpec;
use crate::decode::{Accept, DecodePath, Input, PathResult, Report, classify_outcomes, located};
use crate::generate::{Gen, Json};

/// A DTO of yours, declared once for every consumer (checks, property runs, the test
/// one-liner).
///
/// Every method has a default: `impl equijson_check::dto::Dto for MyDto {}` is a complete
/// declaration (all built-in paths, nothing accepted, documents generated from the
/// type's traced serde shape).
///
/// ```
/// use equijson_check::decode::{Accept, Class, DecodePath};
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Order { id: u64, total: f64 }
///
/// impl equijson_check::dto::Dto for Order {
///     fn paths() -> &'static [DecodePath] { &[DecodePath::Direct, DecodePath::JsonbWire] }
///     fn accepts() -> &'static [Accept] {
///         &[Accept { class: Class::RoundTripLoss, only: &[], reason: "unknown keys are dropped" }]
///     }
///     fn examples() -> &'static [&'static str] { &[r#"{"id":1,"total":9.5}"#] }
/// }
///
/// let report = equijson_check::dto::check::<Order>(br#"{"id":1,"total":9.5}"#);
/// assert!(!report.is_divergent());
/// ```
pub trait Dto: DeserializeOwned + Serialize + 'static {
    /// The name in reports (default: the type's name without its module path).
    #[must_use]
    fn name() -> &'static str {
        let full = std::any::type_name::<Self>();
        let base = full.split('<').next().unwrap_or(full);
        base.rsplit("::").next().unwrap_or(base)
    }

    /// The built-in paths your service decodes with (default: all of them). Only these
    /// run, so findings of other paths are not reported unless a check asks for all paths
    /// ([`check_all_paths`]).
    #[must_use]
    fn paths() -> &'static [DecodePath] {
        &DecodePath::ALL
    }

    /// The findings your service accepts; entries add up (see [`crate::decode::accepted`]).
    #[must_use]
    fn accepts() -> &'static [Accept] {
        &[]
    }

    /// Example documents: the generator mutates them, and uses them where the type's
    /// shape cannot be traced (`#[serde(flatten)]`, internally tagged or untagged enums,
    /// `serde_json::Value` fields).
    #[must_use]
    fn examples() -> &'static [&'static str] {
        &[]
    }

    /// A generated document (default: from the traced shape and the examples, see
    /// [`crate::generate::typed::document`]).
    fn generate(g: &mut Gen) -> Json {
        crate::generate::typed::document::<Self>(g, Self::examples())
    }

    /// Your own decode function before and after a refactor: both become paths
    /// ([`DecodePath::Before`], [`DecodePath::After`]) compared like the built-in ones.
    #[must_use]
    fn refactor() -> Option<Refactor<Self>> {
        None
    }
}

/// A decode function of yours: bytes to the DTO, or an error message.
pub type DecodeFn<T> = fn(&[u8]) -> Result<T, String>;

/// The BEFORE and AFTER of a refactored decode function.
#[derive(Debug, Clone, Copy)]
pub struct Refactor<T> {
    /// The function as it was.
    pub before: DecodeFn<T>,
    /// The function as it is now.
    pub after: DecodeFn<T>,
}

/// Decodes `input` through the paths `T` declares (and its BEFORE and AFTER functions)
/// and classifies the results with `T`'s accepted findings.
#[must_use]
pub fn check<T: Dto>(input: &[u8]) -> Report {
    check_with::<T>(&Input::new(input), false)
}

/// [`check`] through every built-in path (`all_paths`), not only those `T` declares.
#[must_use]
pub fn check_all_paths<T: Dto>(input: &[u8]) -> Report {
    check_with::<T>(&Input::new(input), true)
}

/// [`check`] given what the caller already computed about the text; with `all_paths`,
/// findings of every built-in path are reported.
#[must_use]
pub fn check_with<T: Dto>(input: &Input<'_>, all_paths: bool) -> Report {
    let functions = [DecodePath::Before, DecodePath::After];
    if all_paths {
        let every: Vec<DecodePath> = DecodePath::ALL.into_iter().chain(functions).collect();
        return check_paths::<T>(input, &every);
    }
    let declared: Vec<DecodePath> = T::paths().iter().copied().chain(functions).collect();
    check_paths::<T>(input, &declared)
}

/// The paths `T` declares: [`Dto::paths`] in report order, then [`DecodePath::Before`] and
/// [`DecodePath::After`] when `T` declares a [`Dto::refactor`].
#[must_use]
pub fn declared_paths<T: Dto>() -> Vec<DecodePath> {
    let mut paths: Vec<DecodePath> = DecodePath::ALL
        .into_iter()
        .filter(|p| T::paths().contains(p))
        .collect();
    if T::refactor().is_some() {
        paths.extend([DecodePath::Before, DecodePath::After]);
    }
    paths
}

/// [`check`] through `paths` instead of those `T` declares: the built-in ones named, and
/// `T`'s own BEFORE and AFTER functions when [`DecodePath::Before`] or [`DecodePath::After`]
/// is named (and `T` declares them). Only the work of these paths is done.
#[must_use]
pub fn check_paths<T: Dto>(input: &Input<'_>, paths: &[DecodePath]) -> Report {
    if DecodePath::ALL.iter().all(|p| paths.contains(p)) {
        return restrict::<T>(
            crate::decode::check_input::<T>(input, &[]),
            input.text,
            paths,
        );
    }
    // `direct` and `jsonb` alone on a text that is its own jsonb text: the catalogue's
    // route, one decode and the one-pass round-trip check (`Input::findings_only`); the
    // outcomes and classification below would be the same.
    if input.jsonb_unchanged
        && !paths.is_empty()
        && paths
            .iter()
            .all(|p| matches!(p, DecodePath::Direct | DecodePath::JsonbWire))
    {
        return crate::decode::check_input_paths::<T>(input, paths, T::accepts());
    }
    // Only the chosen paths are run: the same report as running every path and keeping
    // the chosen ones (tests/dto_api.rs holds the two equal).
    let text = input.text;
    let value = || {
        serde_json::from_slice::<serde_json::Value>(text)
            .map_err(|e| format!("parsing into Value: {e}"))
    };
    let mut outcomes = Vec::with_capacity(paths.len());
    for &path in DecodePath::ALL.iter().filter(|p| paths.contains(p)) {
        let result = match path {
            DecodePath::Dom => match value() {
                Ok(v) => PathResult::of(serde_json::from_value::<T>(v)),
                Err(m) => PathResult::Failed(m),
            },
            DecodePath::Borrow => match value() {
                Ok(v) => PathResult::of(T::deserialize(&v)),
                Err(m) => PathResult::Failed(m),
            },
            DecodePath::JsonbWire => jsonb_path::<T>(input),
            DecodePath::Canonical => match equijson::canonicalize(text) {
                Ok(c) if c == text => PathResult::of(serde_json::from_slice::<T>(text)),
                Ok(c) => located::in_text(
                    PathResult::of(serde_json::from_slice::<T>(&c)),
                    &c,
                    text,
                    located::CANONICAL_TEXT,
                ),
                Err(e) => PathResult::Failed(format!("no RFC 8785 form: {e}")),
            },
            DecodePath::Direct => PathResult::of(serde_json::from_slice::<T>(text)),
            // Not built-in paths (`ALL` does not hold them): `with_functions` adds them.
            DecodePath::Before | DecodePath::After => continue,
        };
        outcomes.push((path, result));
    }
    with_functions::<T>(outcomes, text, paths)
}

/// The jsonb path alone: the text PostgreSQL's jsonb gives back, decoded.
fn jsonb_path<T: Dto>(input: &Input<'_>) -> PathResult {
    let decode = |t: &[u8]| PathResult::of(serde_json::from_slice::<T>(t));
    if input.jsonb_unchanged {
        return decode(input.text);
    }
    let computed;
    let model = if let Some(m) = input.jsonb {
        m
    } else {
        computed = crate::jsonb::normalize(input.text, &crate::jsonb::JsonbOptions::default());
        &computed
    };
    match model {
        Ok(t) if t.as_bytes() == input.text => decode(input.text),
        Ok(t) => located::in_text(
            decode(t.as_bytes()),
            t.as_bytes(),
            input.text,
            located::JSONB_TEXT,
        ),
        Err(e) => PathResult::Failed(format!("PostgreSQL would reject it as jsonb: {e}")),
    }
}

fn check_reference<T: Dto>(input: &[u8]) -> Report {
    restrict::<T>(
        crate::decode::reference::check::<T>(input, &[]),
        input,
        &declared_paths::<T>(),
    )
}

/// The report kept to `paths`, with `T`'s own functions' results added (when named),
/// classified again with `T`'s accepted findings.
fn restrict<T: Dto>(report: Report, text: &[u8], paths: &[DecodePath]) -> Report {
    let outcomes: Vec<(DecodePath, PathResult)> = report
        .outcomes
        .into_iter()
        .filter(|(p, _)| paths.contains(p))
        .collect();
    with_functions::<T>(outcomes, text, paths)
}

/// `outcomes` with `T`'s own functions' results added (those `paths` names), classified
/// with `T`'s accepted findings.
fn with_functions<T: Dto>(
    mut outcomes: Vec<(DecodePath, PathResult)>,
    text: &[u8],
    paths: &[DecodePath],
) -> Report {
    if let Some(r) = T::refactor() {
        if paths.contains(&DecodePath::Before) {
            outcomes.push((DecodePath::Before, PathResult::of((r.before)(text))));
        }
        if paths.contains(&DecodePath::After) {
            outcomes.push((DecodePath::After, PathResult::of((r.after)(text))));
        }
    }
    let comparison = crate::decode::input_comparison_form(text);
    classify_outcomes(text, comparison, outcomes, T::accepts())
}

/// `T`'s one-line summary (made once per type, by [`spec`]): its Rust type and the paths
/// it runs, e.g. `my_service::Order; paths: direct, jsonb, before, after`.
fn summary<T: Dto>() -> &'static str {
    let mut paths: Vec<&str> = DecodePath::ALL
        .iter()
        .filter(|p| T::paths().contains(p))
        .map(|p| p.name())
        .collect();
    if T::refactor().is_some() {
        paths.extend([DecodePath::Before.name(), DecodePath::After.name()]);
    }
    let paths = if paths.is_empty() {
        "none".to_owned()
    } else {
        paths.join(", ")
    };
    let text = format!("{}; paths: {paths}", std::any::type_name::<T>());
    Box::leak(text.into_boxed_str())
}

/// The [`DtoSpec`] of `T`, made once per type (its `check` is [`check`]`::<T>`), for the
/// APIs that take a spec ([`crate::props`], the live scan).
#[must_use]
pub fn spec<T: Dto>() -> &'static DtoSpec {
    static SPECS: OnceLock<Mutex<HashMap<TypeId, &'static DtoSpec>>> = OnceLock::new();
    let map = SPECS.get_or_init(Mutex::default);
    let id = TypeId::of::<T>();
    if let Some(s) = map.lock().ok().and_then(|m| m.get(&id).copied()) {
        return s;
    }
    let spec: &'static DtoSpec = Box::leak(Box::new(DtoSpec {
        name: T::name(),
        summary: summary::<T>(),
        accepts: T::accepts(),
        check: check::<T>,
        check_input: |input| check_with::<T>(input, false),
        paths: Box::leak(declared_paths::<T>().into_boxed_slice()),
        check_paths: check_paths::<T>,
        check_reference: check_reference::<T>,
        generate: T::generate,
        sample: T::examples().first().copied().unwrap_or("{}"),
    }));
    if let Ok(mut m) = map.lock() {
        m.insert(id, spec);
    }
    spec
}
