//! `ledger-entry`: a payment ledger line written the way many services first write it:
//! `i128` minor units, an `f32` exchange rate and a borrowed `&str` memo. Each of those
//! decodes differently through `serde_json`'s paths; this DTO is the catalogue's example
//! of real divergence (its property check is expected to fail and shrink).

use serde::{Deserialize, Serialize};

use super::{DtoSpec, text, tree};
use crate::decode::{Accept, BorrowedDto, check_borrowed};
use crate::generate::{Gen, Json};

/// One ledger line, borrowing its text from the input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerEntry<'a> {
    /// Account code.
    pub account: String,
    /// Amount in minor units (cents); may exceed 64 bits for some currencies' aggregates.
    pub amount_minor: i128,
    /// Exchange rate to the book currency.
    pub fx_rate: f32,
    /// Free-text memo, borrowed from the input buffer.
    pub memo: &'a str,
}

/// The [`BorrowedDto`] family of [`LedgerEntry`].
#[derive(Debug)]
pub struct LedgerEntryFamily;

impl BorrowedDto for LedgerEntryFamily {
    type Of<'de> = LedgerEntry<'de>;
}

const ACCEPTS: &[Accept] = &[];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "ledger-entry",
    summary: "i128 amount, f32 rate, borrowed &str memo: the divergent example",
    accepts: ACCEPTS,
    check: |input| check_borrowed::<LedgerEntryFamily>(input, ACCEPTS),
    check_input: |input| crate::decode::check_borrowed_input::<LedgerEntryFamily>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| {
        crate::decode::keep_paths(
            crate::decode::check_borrowed_input::<LedgerEntryFamily>(input, ACCEPTS),
            input.text,
            paths,
            ACCEPTS,
        )
    },
    check_reference: |input| {
        crate::decode::reference::check_borrowed::<LedgerEntryFamily>(input, ACCEPTS)
    },
    generate,
    sample: r#"{"account":"4000-sales","amount_minor":18446744073709551616,"fx_rate":1.0000000596046448,"memo":"Q4 true-up"}"#,
};

/// A ledger line with values across the types' ranges.
pub(super) fn generate(g: &mut Gen) -> Json {
    let amount: i128 = match g.rng().below(3) {
        0 => i128::from(g.rng().below(1_000_000)),
        1 => i128::from(g.rng().next_u64() >> 1) * i128::from(g.rng().next_u64() >> 1),
        _ => -i128::from(g.rng().below(1 << 40)),
    };
    let memo = text(g, 12);
    let mut doc = tree(&LedgerEntry {
        account: format!("{}-{}", g.rng().range(1000, 9999), text(g, 5)),
        amount_minor: 0,
        fx_rate: 1.0,
        memo: &memo,
    });
    // serde_json's Value cannot hold integers beyond 64 bits or f32 spellings exactly:
    // write those two numbers as text.
    if let Json::Object(members) = &mut doc {
        for (k, v) in members.iter_mut() {
            match k.as_str() {
                "amount_minor" => *v = Json::Number(amount.to_string()),
                "fx_rate" => {
                    #[allow(clippy::cast_precision_loss, reason = "any double will do")]
                    let rate = 0.5 + (g.rng().below(1 << 30) as f64) / f64::from(1u32 << 29);
                    *v = Json::Number(format!("{rate:.17}"));
                }
                _ => {}
            }
        }
    }
    doc
}
