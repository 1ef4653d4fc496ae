//! The DTO catalogue: realistic types of services that keep JSON in PostgreSQL, each with
//! its decode check, its document generator and a sample, registered by name.

mod article;
mod contact;
mod declare;
mod drive_policy;
mod event_context;
mod ledger;
mod value;

pub use article::{Article, ArticleAuthor, ArticleBatch};
pub use contact::{Contact, ContactKind, EmailAddress, PhoneNumber, PostalAddress};
pub use declare::{
    DecodeFn, Dto, Refactor, check, check_all_paths, check_paths, check_with, declared_paths, spec,
};
pub use drive_policy::DrivePolicy;
pub use event_context::{ContextMap, ContextValue, EventContext};
pub use ledger::{LedgerEntry, LedgerEntryFamily};

use crate::decode::{Accepts, DecodePath, Input, Report};
use crate::generate::{Gen, Json};

/// One registered DTO.
#[derive(Clone, Copy)]
pub struct DtoSpec {
    /// Name for `--dto NAME`.
    pub name: &'static str,
    /// What it models, in one line.
    pub summary: &'static str,
    /// Disagreements it declares acceptable (with reasons).
    pub accepts: Accepts,
    /// Decodes a document through every path.
    pub check: fn(&[u8]) -> Report,
    /// [`DtoSpec::check`] given what the caller already computed (the live scan passes the
    /// jsonb model's text): the same report.
    pub check_input: fn(&Input<'_>) -> Report,
    /// The decode paths the service uses ([`Dto::paths`], with [`DecodePath::Before`] and
    /// [`DecodePath::After`] when the DTO declares a [`Dto::refactor`]): what
    /// [`DtoSpec::check`] and [`DtoSpec::check_input`] run. Catalogue DTOs: every built-in
    /// path.
    pub paths: &'static [DecodePath],
    /// [`DtoSpec::check_input`] through the given paths instead (the DTO's
    /// [`DtoSpec::paths`] or others, e.g. `pg scan --paths`): only their work is done and
    /// only their findings reported. A path the DTO has no function for (`before` and
    /// `after` without a refactor) is left out.
    pub check_paths: fn(&Input<'_>, &[DecodePath]) -> Report,
    /// The reference implementation of [`DtoSpec::check`] (every path on its own, nothing
    /// shared; slower): the tests hold `check` to giving the same report.
    pub check_reference: fn(&[u8]) -> Report,
    /// Generates a document of this DTO's shape.
    pub generate: fn(&mut Gen) -> Json,
    /// A representative document.
    pub sample: &'static str,
}

impl std::fmt::Debug for DtoSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DtoSpec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Every registered DTO.
#[must_use]
pub fn catalogue() -> &'static [DtoSpec] {
    &CATALOGUE
}

/// The DTO registered under `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static DtoSpec> {
    CATALOGUE.iter().find(|d| d.name == name)
}

static CATALOGUE: [DtoSpec; 6] = [
    contact::SPEC,
    drive_policy::SPEC,
    event_context::SPEC,
    article::SPEC,
    ledger::SPEC,
    value::SPEC,
];

/// Text without U+0000: PostgreSQL's jsonb cannot store it, so no document read from a
/// jsonb column contains it (the `value` DTO covers that case on purpose).
pub(crate) fn text(g: &mut Gen, max: usize) -> String {
    g.string(max).chars().filter(|&c| c != '\0').collect()
}

/// A serializable value as a generated document tree.
pub(crate) fn tree<T: serde::Serialize>(value: &T) -> Json {
    serde_json::to_value(value).map_or(Json::Null, |v| Json::from(&v))
}

/// A double in a realistic range with a realistic number of digits.
pub(crate) fn measure(g: &mut Gen, scale: f64) -> f64 {
    let r = g.rng();
    #[allow(
        clippy::cast_precision_loss,
        reason = "53 random bits are exact in a double"
    )]
    let unit = (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let x = (unit * 2.0 - 1.0) * scale;
    match r.below(3) {
        0 => (x * 1e6).round() / 1e6,
        1 => (x * 100.0).round() / 100.0,
        _ => x,
    }
}
