//! Property checks over generated documents: the same `(seed, cases, dto)` runs the same
//! cases and gives the same digest on every target, natively and in WebAssembly.

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::diff::DiffStyle;
use crate::dto::{self, DtoSpec};
use crate::generate::{Gen, Json, Style, shrink};

pub mod regressions;
mod signature;
mod user;

pub use user::{
    DEFAULT_CASES, DEFAULT_SEED, EnvConfig, EnvError, PropsFailure, check_dto, judge,
    nothing_checked, run_dto, try_check_dto, try_check_dto_with,
};

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct PropsConfig {
    /// Seed of the whole run; case `i` uses its own stream derived from it.
    pub seed: u64,
    /// Number of cases.
    pub cases: u64,
    /// The DTO whose documents are generated; `None` means any JSON (`value`).
    pub dto: Option<&'static DtoSpec>,
    /// Size parameter of the generator.
    pub size: usize,
    /// Most candidates tried while shrinking a failure.
    pub max_shrink: usize,
    /// Describe failures without values (pointers, kinds and lengths only).
    pub redact: bool,
}

impl PropsConfig {
    /// `cases` cases from `seed` for `dto` with default size and shrink budget.
    #[must_use]
    pub fn new(seed: u64, cases: u64, dto: Option<&'static DtoSpec>) -> Self {
        Self {
            seed,
            cases,
            dto,
            size: 6,
            max_shrink: 20_000,
            redact: false,
        }
    }

    /// The name of the DTO this run exercises (`value` when none was chosen).
    #[must_use]
    pub fn dto_name(&self) -> &'static str {
        self.spec().name
    }

    fn spec(&self) -> &'static DtoSpec {
        match self.dto {
            Some(d) => d,
            None => dto::find("value").unwrap_or(&dto::catalogue()[0]),
        }
    }
}

/// The properties checked on every case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    /// canonicalize(canonicalize(x)) == canonicalize(x).
    Idempotent,
    /// Two spellings of the same document (member order, whitespace, escapes) have the
    /// same canonical form.
    PermutationInvariant,
    /// Every decode path agrees, or the disagreement is declared by the DTO.
    PathsAgree,
}

impl Property {
    /// Short name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Idempotent => "canonical idempotence",
            Self::PermutationInvariant => "permutation invariance",
            Self::PathsAgree => "decode paths agree",
        }
    }
}

/// A failing case, shrunk.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Case number (replay with the same seed).
    pub case: u64,
    /// The property that failed.
    pub property: Property,
    /// The generated document as first found.
    pub original: String,
    /// The smallest failing document found by shrinking.
    pub shrunk: String,
    /// Shrink steps taken.
    pub steps: usize,
    /// What went wrong on the shrunk document (a decode report or a diff).
    pub detail: String,
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct PropsOutcome {
    /// The DTO that was exercised.
    pub dto: &'static str,
    /// Cases run.
    pub cases: u64,
    /// Cases on which every property held.
    pub passed: u64,
    /// Cases on which some property failed.
    pub failed: u64,
    /// Passed cases that every decode path rejected: they check nothing about decoding
    /// (a run whose cases are all rejected tests the generator, not the DTO).
    pub rejected: u64,
    /// SHA-256 (hex) over the canonical form of every case, in order: the portable
    /// fingerprint of what was generated.
    pub digest: String,
    /// The first failure, shrunk.
    pub first_failure: Option<Failure>,
}

/// Reads a seed written in decimal or as `0x`-hex (how the CLI and the wasm binding take it).
#[must_use]
pub fn parse_seed(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The text of case `case`: its document tree and the seed of its spelling.
#[must_use]
pub fn case(cfg: &PropsConfig, case: u64) -> (Json, u64) {
    let mut g = Gen::for_case(cfg.seed, case, cfg.size);
    let tree = (cfg.spec().generate)(&mut g);
    let style = g.rng().next_u64();
    (tree, style)
}

/// The `digest:` of a run: SHA-256 over the canonical form of every case, in order (a
/// case that does not canonicalize contributes `!` and its text), each followed by `\n`.
#[derive(Debug, Clone, Default)]
pub struct CaseDigest(Sha256);

impl CaseDigest {
    /// An empty digest.
    #[must_use]
    pub fn new() -> Self {
        Self(Sha256::new())
    }

    /// Adds the next case's text.
    pub fn add(&mut self, text: &[u8]) {
        if let Ok(c) = equijson::canonicalize(text) {
            self.0.update(&c);
        } else {
            self.0.update(b"!");
            self.0.update(text);
        }
        self.0.update(b"\n");
    }

    /// The digest in lower-case hex.
    #[must_use]
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .fold(String::with_capacity(64), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
    }
}

/// The text of case `case` exactly as the properties see it and the digest hashes it
/// (the document in its seeded spelling).
#[must_use]
pub fn case_text(cfg: &PropsConfig, case: u64) -> String {
    let (tree, style) = self::case(cfg, case);
    tree.render(Style::Seeded(style))
}

/// Case `case` of `cfg` alone: its failure, shrunk (as a run of `cfg` reports it), or
/// `None` when every property holds. Replays a saved case ([`regressions`]).
#[must_use]
pub fn check_one(cfg: &PropsConfig, case: u64) -> Option<Failure> {
    let spec = cfg.spec();
    let (tree, style) = self::case(cfg, case);
    let property = check_case(spec, &tree, style).0?;
    Some(shrink_failure(cfg, spec, case, property, tree, style))
}

/// Runs the properties; `progress(done, failed)` is called after every case.
pub fn run(cfg: &PropsConfig, mut progress: impl FnMut(u64, u64)) -> PropsOutcome {
    let mut state = PropsRun::new(*cfg);
    while !state.is_finished() {
        state.step(1);
        progress(state.done(), state.failed());
    }
    state.finish()
}

/// A run that advances in steps, for callers that report progress or yield between
/// chunks (a Web Worker); [`run`] is this in a loop. Same cases, same digest.
#[derive(Debug, Clone)]
pub struct PropsRun {
    cfg: PropsConfig,
    spec: &'static DtoSpec,
    digest: CaseDigest,
    next: u64,
    passed: u64,
    failed: u64,
    rejected: u64,
    first_failure: Option<Failure>,
}

impl PropsRun {
    /// A run of `cfg`, nothing done yet.
    #[must_use]
    pub fn new(cfg: PropsConfig) -> Self {
        Self {
            spec: cfg.spec(),
            cfg,
            digest: CaseDigest::new(),
            next: 0,
            passed: 0,
            failed: 0,
            rejected: 0,
            first_failure: None,
        }
    }

    /// Runs up to `max` more cases; returns how many ran.
    pub fn step(&mut self, max: u64) -> u64 {
        let end = self.cfg.cases.min(self.next.saturating_add(max));
        let ran = end - self.next;
        for i in self.next..end {
            let (tree, style) = case(&self.cfg, i);
            let text = tree.render(Style::Seeded(style));
            self.digest.add(text.as_bytes());
            let (failing, rejected) = check_case(self.spec, &tree, style);
            match failing {
                None => {
                    self.passed += 1;
                    self.rejected += u64::from(rejected);
                }
                Some(property) => {
                    self.failed += 1;
                    if self.first_failure.is_none() {
                        self.first_failure = Some(shrink_failure(
                            &self.cfg, self.spec, i, property, tree, style,
                        ));
                    }
                }
            }
        }
        self.next = end;
        ran
    }

    /// Cases run so far.
    #[must_use]
    pub fn done(&self) -> u64 {
        self.next
    }

    /// Cases failed so far.
    #[must_use]
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// Whether every case has run.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.next >= self.cfg.cases
    }

    /// The outcome of the cases run so far (all of them once [`PropsRun::is_finished`]).
    #[must_use]
    pub fn finish(self) -> PropsOutcome {
        let digest = self.digest.finish();
        PropsOutcome {
            dto: self.spec.name,
            cases: self.next,
            passed: self.passed,
            failed: self.failed,
            rejected: self.rejected,
            digest,
            first_failure: self.first_failure,
        }
    }
}

/// What a failure looks like, so that shrinking keeps the same failure and does not wander
/// off to a different one: the property and, for decode disagreements, the first
/// unaccepted finding's class, paths and place (see [`signature::first_unaccepted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Signature {
    property: Property,
    finding: Option<Vec<signature::FindingSignature>>,
}

fn signature_of(spec: &DtoSpec, property: Property, text: &str) -> Signature {
    let finding = (property == Property::PathsAgree)
        .then(|| signature::first_unaccepted(&(spec.check)(text.as_bytes())))
        .flatten();
    Signature { property, finding }
}

/// The first property that fails on a document spelled with `style`, if any.
fn failing_property(spec: &DtoSpec, tree: &Json, style: u64) -> Option<Property> {
    check_case(spec, tree, style).0
}

/// The first property that fails, and whether every decode path rejected the document.
fn check_case(spec: &DtoSpec, tree: &Json, style: u64) -> (Option<Property>, bool) {
    let text = tree.render(Style::Seeded(style));
    let canonical = equijson::canonicalize(text.as_bytes());
    if let Ok(c) = &canonical {
        if equijson::canonicalize(c).as_ref().ok() != Some(c) {
            return (Some(Property::Idempotent), false);
        }
    }
    let other = tree.render(Style::Seeded(style.rotate_left(17) ^ 0x5DEE_CE66_D1CE_4E5B));
    let same = match (&canonical, equijson::canonicalize(other.as_bytes())) {
        (Ok(a), Ok(b)) => *a == b,
        // With a repeated name, the error found first (that name, or another error in a
        // member the order puts first) depends on the order.
        (Err(a), Err(b)) => a.kind() == b.kind() || repeats_a_name(tree),
        _ => false,
    };
    if !same {
        return (Some(Property::PermutationInvariant), false);
    }
    match (spec.check)(text.as_bytes()).verdict() {
        crate::decode::Verdict::Divergent => (Some(Property::PathsAgree), false),
        crate::decode::Verdict::Rejected => (None, true),
        _ => (None, false),
    }
}

fn shrink_failure(
    cfg: &PropsConfig,
    spec: &DtoSpec,
    case: u64,
    property: Property,
    tree: Json,
    style: u64,
) -> Failure {
    let original = tree.render(Style::Seeded(style));
    let wanted = signature_of(spec, property, &original);
    let fails = |t: &Json| {
        failing_property(spec, t, style) == Some(property)
            && signature_of(spec, property, &t.render(Style::Seeded(style))) == wanted
    };
    let (small, steps) = shrink(tree, Json::shrink, fails, cfg.max_shrink);
    // Prefer the plain spelling when it shows the same failure.
    let compact = small.render(Style::Compact);
    let shrunk = if failing_property_text(spec, &compact) == Some(property)
        && signature_of(spec, property, &compact) == wanted
    {
        compact
    } else {
        small.render(Style::Seeded(style))
    };
    let detail = if cfg.redact {
        match property {
            Property::PathsAgree => (spec.check)(shrunk.as_bytes()).render(DiffStyle {
                redact: true,
                ..DiffStyle::default()
            }),
            p => format!("{} fails (details withheld by --redact)", p.name()),
        }
    } else {
        describe(spec, property, &shrunk, &small, style)
    };
    Failure {
        case,
        property,
        original,
        shrunk,
        steps,
        detail,
    }
}

/// Whether an object of `tree` has a name twice (mutations of example documents do).
fn repeats_a_name(tree: &Json) -> bool {
    match tree {
        Json::Array(items) => items.iter().any(repeats_a_name),
        Json::Object(members) => {
            members
                .iter()
                .enumerate()
                .any(|(i, (k, _))| members[..i].iter().any(|(j, _)| j == k))
                || members.iter().any(|(_, v)| repeats_a_name(v))
        }
        _ => false,
    }
}

/// Like `failing_property` for a fixed text (only the text-level properties).
fn failing_property_text(spec: &DtoSpec, text: &str) -> Option<Property> {
    if let Ok(c) = equijson::canonicalize(text.as_bytes()) {
        if equijson::canonicalize(&c).as_ref().ok() != Some(&c) {
            return Some(Property::Idempotent);
        }
    }
    (spec.check)(text.as_bytes())
        .is_divergent()
        .then_some(Property::PathsAgree)
}

fn describe(spec: &DtoSpec, property: Property, text: &str, tree: &Json, style: u64) -> String {
    match property {
        Property::PathsAgree => (spec.check)(text.as_bytes()).render(DiffStyle::default()),
        Property::Idempotent => match equijson::canonicalize(text.as_bytes()) {
            Ok(c) => format!(
                "canonical: {}\ncanonical of that: {:?}",
                String::from_utf8_lossy(&c),
                equijson::canonicalize(&c).map(|d| String::from_utf8_lossy(&d).into_owned())
            ),
            Err(e) => format!("canonicalize: {e}"),
        },
        Property::PermutationInvariant => {
            let other = tree.render(Style::Seeded(style.rotate_left(17) ^ 0x5DEE_CE66_D1CE_4E5B));
            format!(
                "spelling A: {text}\nspelling B: {other}\ncanonical A: {:?}\ncanonical B: {:?}",
                equijson::canonicalize(text.as_bytes())
                    .map(|c| String::from_utf8_lossy(&c).into_owned()),
                equijson::canonicalize(other.as_bytes())
                    .map(|c| String::from_utf8_lossy(&c).into_owned()),
            )
        }
    }
}
