//! The reference decode check: every path computed on its own, exactly as described,
//! with nothing shared between paths (slower). [`super::check`] must give the same
//! [`Report`] for every input; the tests hold it to that.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Accepts, BorrowedDto, PathResult, Report, classify, input_comparison_form};

/// [`super::check`], computed path by path without sharing anything.
#[must_use]
pub fn check<T: DeserializeOwned + Serialize>(input: &[u8], accepts: Accepts) -> Report {
    let value = serde_json::from_slice::<serde_json::Value>(input);
    let dom = match &value {
        Ok(v) => PathResult::of(serde_json::from_value::<T>(v.clone())),
        Err(e) => PathResult::Failed(format!("parsing into Value: {e}")),
    };
    let direct = PathResult::of(serde_json::from_slice::<T>(input));
    let borrow = match &value {
        Ok(v) => PathResult::of(T::deserialize(v)),
        Err(e) => PathResult::Failed(format!("parsing into Value: {e}")),
    };
    let (jsonb, canonical) = text_paths(input, |t| PathResult::of(serde_json::from_slice::<T>(t)));
    classify(
        input,
        input_comparison_form(input),
        [dom, direct, borrow, jsonb, canonical],
        accepts,
    )
}

/// [`super::check_borrowed`], computed path by path without sharing anything.
#[must_use]
pub fn check_borrowed<F: BorrowedDto>(input: &[u8], accepts: Accepts) -> Report {
    let value = serde_json::from_slice::<serde_json::Value>(input);
    let dom = PathResult::NotApplicable("from_value needs an owned (DeserializeOwned) type");
    let direct = PathResult::of(serde_json::from_slice::<F::Of<'_>>(input));
    let borrow = match &value {
        Ok(v) => PathResult::of(F::Of::deserialize(v)),
        Err(e) => PathResult::Failed(format!("parsing into Value: {e}")),
    };
    let (jsonb, canonical) = text_paths(input, |t| {
        PathResult::of(serde_json::from_slice::<F::Of<'_>>(t))
    });
    classify(
        input,
        input_comparison_form(input),
        [dom, direct, borrow, jsonb, canonical],
        accepts,
    )
}

/// The two paths that decode a transformed text: jsonb wire and canonical.
fn text_paths(input: &[u8], decode: impl Fn(&[u8]) -> PathResult) -> (PathResult, PathResult) {
    let jsonb = match crate::jsonb::to_wire(input, &crate::jsonb::JsonbOptions::default()) {
        Ok(wire) => match crate::jsonb::wire_text(&wire) {
            Ok(text) => {
                super::located::in_text(decode(text), text, input, super::located::JSONB_TEXT)
            }
            Err(e) => PathResult::Failed(format!("jsonb wire: {e}")),
        },
        Err(e) => PathResult::Failed(format!("PostgreSQL would reject it as jsonb: {e}")),
    };
    let canonical = match equijson::canonicalize(input) {
        Ok(c) => super::located::in_text(decode(&c), &c, input, super::located::CANONICAL_TEXT),
        Err(e) => PathResult::Failed(format!("no RFC 8785 form: {e}")),
    };
    (jsonb, canonical)
}
