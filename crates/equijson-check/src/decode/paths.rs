//! Decoding through a chosen set of paths only: the work the other paths need (the `Value`
//! parse, the jsonb model, the RFC 8785 form) is not done.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::same_text::Compared;
use super::{
    Accepts, Class, DecodePath, Finding, Input, PathResult, Report, Results, canonical_forms,
    canonical_path, classify_outcomes, classify_parsed, comparison_form, located, numbers,
    same_text,
};

/// Parses a list of path names as [`DecodePath::name`] spells them (`direct,jsonb`,
/// separated by commas, spaces allowed), in report order, each once.
///
/// # Errors
/// The unknown name, with the known ones; an empty list.
pub fn parse_paths(list: &str) -> Result<Vec<DecodePath>, String> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let path = DecodePath::from_name(name).ok_or_else(|| {
            format!(
                "unknown decode path {name:?}: expected some of {}",
                DecodePath::ALL
                    .iter()
                    .chain(&[DecodePath::Before, DecodePath::After])
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        if !out.contains(&path) {
            out.push(path);
        }
    }
    if out.is_empty() {
        return Err("no decode path named".to_owned());
    }
    out.sort_unstable();
    Ok(out)
}

/// [`super::check_input`] through `paths` only: the report [`super::check_input`] gives
/// with every path, with the outcomes of the other paths left out before classifying
/// (so their findings are not reported), and without their work: no `Value` parse unless
/// `dom` or `borrow` is chosen, no jsonb model unless `jsonb` is (and the caller did not
/// hand its result in), no RFC 8785 form unless `canonical` is. The input's comparison
/// form is always computed: the round-trip check and duplicate member names need it.
/// [`DecodePath::Before`] and [`DecodePath::After`] are not built-in: they are ignored
/// here (see [`crate::dto::Dto::refactor`]).
#[must_use]
pub fn check_input_paths<T: DeserializeOwned + Serialize>(
    input: &Input<'_>,
    paths: &[DecodePath],
    accepts: Accepts,
) -> Report {
    let want = |p: DecodePath| paths.contains(&p);
    if DecodePath::ALL.iter().all(|&p| want(p)) {
        return super::check_input::<T>(input, accepts);
    }
    let text = input.text;
    if input.jsonb_unchanged && direct_or_jsonb_only(paths) {
        return direct_and_jsonb::<T>(input, paths, accepts);
    }
    // What the jsonb path decodes: the input itself (`None`), another text, or nothing.
    let computed;
    let jsonb_text: Option<Result<&[u8], String>> =
        if !want(DecodePath::JsonbWire) || input.jsonb_unchanged {
            None
        } else {
            let model = if let Some(m) = input.jsonb {
                m
            } else {
                computed = crate::jsonb::normalize(text, &crate::jsonb::JsonbOptions::default());
                &computed
            };
            match model {
                Ok(t) if t.as_bytes() == text => None,
                Ok(t) => Some(Ok(t.as_bytes())),
                Err(e) => Some(Err(format!("PostgreSQL would reject it as jsonb: {e}"))),
            }
        };
    let forms = want(DecodePath::Canonical).then(|| canonical_forms(text));
    // Values decoded: when one at most, there is nothing to share and nothing is recorded.
    let decodes = usize::from(want(DecodePath::Dom))
        + usize::from(want(DecodePath::Borrow))
        + usize::from(
            want(DecodePath::Direct)
                || (want(DecodePath::JsonbWire) && jsonb_text.is_none())
                || matches!(&forms, Some((Ok(c), _)) if c == text),
        )
        + usize::from(matches!(jsonb_text, Some(Ok(_))))
        + usize::from(matches!(&forms, Some((Ok(c), _)) if c != text));
    let mut res = if decodes <= 1 {
        Results::once()
    } else {
        Results::for_text(text)
    };
    let mut outcomes: Vec<(DecodePath, PathResult)> = Vec::with_capacity(paths.len());
    if want(DecodePath::Dom) || want(DecodePath::Borrow) {
        let (dom, borrow) = match serde_json::from_slice::<serde_json::Value>(text) {
            Ok(v) => {
                let borrow = want(DecodePath::Borrow).then(|| res.of(T::deserialize(&v)));
                let dom = want(DecodePath::Dom).then(|| res.of(serde_json::from_value::<T>(v)));
                (dom, borrow)
            }
            Err(e) => {
                let m = format!("parsing into Value: {e}");
                let failed = || Some(PathResult::Failed(m.clone()));
                (
                    want(DecodePath::Dom).then(failed).flatten(),
                    want(DecodePath::Borrow).then(failed).flatten(),
                )
            }
        };
        outcomes.extend(dom.map(|r| (DecodePath::Dom, r)));
        outcomes.extend(borrow.map(|r| (DecodePath::Borrow, r)));
    }
    // The direct path's result, decoded once: the jsonb and canonical paths reuse it when
    // their text is the input itself.
    let mut direct: Option<PathResult> = None;
    let mut direct_of = |res: &mut Results| {
        direct
            .get_or_insert_with(|| res.of(serde_json::from_slice::<T>(text)))
            .clone()
    };
    if want(DecodePath::Direct) {
        outcomes.push((DecodePath::Direct, direct_of(&mut res)));
    }
    if want(DecodePath::JsonbWire) {
        let jsonb = match jsonb_text {
            None => direct_of(&mut res),
            Some(Ok(t)) => located::in_text(
                res.of(serde_json::from_slice::<T>(t)),
                t,
                text,
                located::JSONB_TEXT,
            ),
            Some(Err(m)) => PathResult::Failed(m),
        };
        outcomes.push((DecodePath::JsonbWire, jsonb));
    }
    let comparison = if let Some((rfc, comparison)) = forms {
        let direct = match &rfc {
            Ok(c) if c == text => direct_of(&mut res),
            // Not used by `canonical_path` when the form differs from the input.
            _ => PathResult::NotApplicable(""),
        };
        let canonical = canonical_path(text, rfc, &direct, &mut |t| {
            res.of(serde_json::from_slice::<T>(t))
        });
        outcomes.push((DecodePath::Canonical, canonical));
        comparison
    } else {
        comparison_form(text)
    };
    // Report order: the order of `DecodePath::ALL`.
    outcomes.sort_by_key(|(p, _)| *p);
    classify_outcomes(text, comparison, outcomes, accepts)
}

/// Whether `paths` names `direct` or `jsonb` or both, and nothing else.
fn direct_or_jsonb_only(paths: &[DecodePath]) -> bool {
    !paths.is_empty()
        && paths
            .iter()
            .all(|p| matches!(p, DecodePath::Direct | DecodePath::JsonbWire))
}

/// [`check_input_paths`] for `direct` and `jsonb` (or one of them) on a text that is its
/// own jsonb text: one decode, both paths its result (the same bytes decode the same way).
/// With [`Input::findings_only`], the value is written as jsonb text and compared with the
/// text ([`same_text::compare`]): the same text has no finding, and another gives the
/// round-trip changes of the two comparison forms without making either.
fn direct_and_jsonb<T: DeserializeOwned + Serialize>(
    input: &Input<'_>,
    paths: &[DecodePath],
    accepts: Accepts,
) -> Report {
    let text = input.text;
    // `from_str` on text known to be UTF-8 is `from_slice` without checking each string's
    // UTF-8 again (serde_json's `StrRead` is its `SliceRead` minus that check): the same
    // result, value or error.
    let decoded = match std::str::from_utf8(text) {
        Ok(s) => serde_json::from_str::<T>(s),
        Err(_) => serde_json::from_slice::<T>(text),
    };
    if input.findings_only {
        if let Ok(v) = &decoded {
            match same_text::compare(v, text) {
                Compared::Same => return bare_report(paths, Vec::new(), text, accepts),
                Compared::Changes(changes) => {
                    return bare_report(paths, changes, text, accepts);
                }
                Compared::Unknown => {}
            }
        }
    }
    let result = PathResult::of(decoded);
    // Report order, each path once.
    let outcomes = DecodePath::ALL
        .into_iter()
        .filter(|p| paths.contains(p))
        .map(|p| (p, result.clone()))
        .collect();
    // The input parsed once: its comparison form written from the document, and the
    // round-trip diff reads the same document (a text without one gets the comparison
    // form's own error).
    let doc = equijson::Document::parse_with(text, &equijson::Options::comparison()).ok();
    let comparison = match &doc {
        Some(d) => Ok(d.to_canonical_vec()),
        None => comparison_form(text),
    };
    classify_parsed(text, comparison, doc.as_ref(), outcomes, accepts)
}

/// The report of a value decoded alike by every path in `paths` whose round trip has
/// `changes` (as the comparison forms' diff gives them), read for its findings and verdict
/// only ([`Input::findings_only`]): each path's outcome a [`PathResult::Decoded`] with an
/// empty form, `input_canonical` empty (neither form was made), and the findings
/// [`super::classify_parsed`] gives for one group of paths: a round-trip loss when there are
/// changes, its misread numbers split off as it splits them.
fn bare_report(
    paths: &[DecodePath],
    changes: Vec<crate::diff::Change>,
    text: &[u8],
    accepts: Accepts,
) -> Report {
    let chosen: Vec<DecodePath> = DecodePath::ALL
        .into_iter()
        .filter(|p| paths.contains(p))
        .collect();
    let mut findings = Vec::new();
    if !changes.is_empty() {
        findings.push(Finding {
            class: Class::RoundTripLoss,
            accepted: super::accepted(accepts, Class::RoundTripLoss, &chosen),
            by_caller: false,
            paths: chosen.clone(),
            errors: Vec::new(),
            against: Vec::new(),
            changes,
            misreads: Vec::new(),
            at: None,
        });
        findings = numbers::split_misreads(findings, text, &|c, other| {
            super::accepted(accepts, c, other)
        });
    }
    Report {
        outcomes: chosen
            .into_iter()
            .map(|p| (p, PathResult::Decoded(Vec::new())))
            .collect(),
        input_canonical: Ok(Vec::new()),
        findings,
    }
}

/// `report` (of `text`, every path run) with only the outcomes of `paths` kept, classified
/// again with `accepts`: what [`check_input_paths`] gives, for checks that cannot skip
/// work (borrowing DTOs).
#[must_use]
pub fn keep_paths(report: Report, text: &[u8], paths: &[DecodePath], accepts: Accepts) -> Report {
    if DecodePath::ALL.iter().all(|p| paths.contains(p)) {
        return report;
    }
    let outcomes = report
        .outcomes
        .into_iter()
        .filter(|(p, _)| paths.contains(p))
        .collect();
    classify_outcomes(text, comparison_form(text), outcomes, accepts)
}
