//! Decode-equivalence: one JSON text decoded into a DTO through every path a Rust service
//! uses, compared by canonical JSON, with every disagreement classified.
//!
//! Two results agree iff the canonical serializations of the decoded values are
//! byte-identical, so DTOs need no `PartialEq`. The comparison form is RFC 8785 with one
//! change: integers keep all their digits (integer-typed values, and integer literals of
//! the input for the round-trip check), where RFC 8785 rounds them to doubles. Otherwise
//! `9007199254740993` read exactly by one path and rounded to `9007199254740992` by
//! another would compare equal.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::diff::{Change, DiffStyle, cut, diff_texts, unencodable_change};

mod algebra;
pub(crate) mod located;
mod numbers;
mod paths;
mod record;
pub mod reference;
mod same_text;

pub use algebra::accepted;
pub use numbers::{MISREAD_FIX, Misread, PROBES, SerdeJsonNumbers, misread, serde_json_numbers};
pub use paths::{check_input_paths, keep_paths, parse_paths};

/// A way of turning JSON text into a typed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DecodePath {
    /// `serde_json::from_slice::<Value>` then `serde_json::from_value::<T>(v.clone())`.
    Dom,
    /// `serde_json::from_slice::<T>` straight from the text.
    Direct,
    /// `T::deserialize(&value)` on the parsed `Value`, without cloning it.
    Borrow,
    /// PostgreSQL's binary jsonb (`0x01` + jsonb text, as the server normalizes it) -> `T`.
    JsonbWire,
    /// The RFC 8785 canonical form of the text -> `T`.
    Canonical,
    /// The user's own decode function as it was (see [`crate::dto::Dto::refactor`]).
    Before,
    /// The user's own decode function as it is now (see [`crate::dto::Dto::refactor`]).
    After,
}

impl DecodePath {
    /// Every built-in path, in report order (the user's [`DecodePath::Before`] and
    /// [`DecodePath::After`] come after them when a DTO declares them).
    pub const ALL: [Self; 5] = [
        Self::Dom,
        Self::Direct,
        Self::Borrow,
        Self::JsonbWire,
        Self::Canonical,
    ];

    /// Short name used in reports and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Dom => "dom",
            Self::Direct => "direct",
            Self::Borrow => "borrow",
            Self::JsonbWire => "jsonb",
            Self::Canonical => "canonical",
            Self::Before => "before",
            Self::After => "after",
        }
    }

    /// The path named `name` ([`DecodePath::name`]), built-in or the user's own.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .chain([Self::Before, Self::After])
            .find(|p| p.name() == name)
    }

    /// What the path does, in one line.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Dom => "from_slice::<Value> then from_value::<T>(v.clone())",
            Self::Direct => "from_slice::<T>",
            Self::Borrow => "T::deserialize(&Value)",
            Self::JsonbWire => "PostgreSQL binary jsonb (0x01 + normalized text) -> T",
            Self::Canonical => "RFC 8785 canonical text -> T",
            Self::Before => "the user's decode function before the refactor",
            Self::After => "the user's decode function after the refactor",
        }
    }
}

impl fmt::Display for DecodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one path made of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathResult {
    /// Decoded; the canonical JSON of the decoded value.
    Decoded(Vec<u8>),
    /// Decoded, but the value has no canonical form (e.g. an `f32` that became infinite).
    Unencodable {
        /// Why (the serializer's message).
        message: String,
        /// Where in the value (RFC 6901).
        pointer: String,
    },
    /// The path rejected the input.
    Failed(String),
    /// The path cannot be used with this DTO (e.g. the DOM path for borrowing types).
    NotApplicable(&'static str),
}

impl PathResult {
    /// The result of a decode: the comparison form of the value, or the error's message.
    pub fn of<T: Serialize, E: fmt::Display>(r: Result<T, E>) -> Self {
        match r {
            Ok(v) => match equijson::to_comparison_vec(&v) {
                Ok(bytes) => Self::Decoded(bytes),
                Err(e) => Self::Unencodable {
                    message: e.message(),
                    pointer: e.pointer().unwrap_or_default().to_owned(),
                },
            },
            Err(e) => Self::Failed(e.to_string()),
        }
    }

    /// Whether the path produced a value.
    #[must_use]
    pub fn is_decoded(&self) -> bool {
        matches!(self, Self::Decoded(_) | Self::Unencodable { .. })
    }

    /// A key that is equal for results that agree (a decoded value's bytes are borrowed).
    fn value_key(&self) -> Option<std::borrow::Cow<'_, [u8]>> {
        match self {
            Self::Decoded(b) => Some(std::borrow::Cow::Borrowed(b)),
            Self::Unencodable { message, pointer } => Some(
                [
                    b"\0unencodable ",
                    pointer.as_bytes(),
                    b": ",
                    message.as_bytes(),
                ]
                .concat()
                .into(),
            ),
            _ => None,
        }
    }
}

/// The kinds of disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Some paths decode the input, others reject it.
    ErrorSplit,
    /// All paths decode it, to different values.
    ValueSplit,
    /// Decoding then encoding does not give the input back (dropped unknown fields,
    /// defaults filled in, numbers coerced).
    RoundTripLoss,
    /// A path read a number to another double than the correctly rounded one
    /// (`serde_json` without `float_roundtrip`); see [`Finding::misreads`].
    FloatMisread,
    /// An object of the input has two members of the same name: readers disagree on it
    /// (serde's `Value` and jsonb keep the last, derived structs reject it, other
    /// parsers keep the first), so it is a divergence unless accepted; see [`Finding::at`].
    DuplicateName,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Self; 5] = [
        Self::DuplicateName,
        Self::ErrorSplit,
        Self::ValueSplit,
        Self::FloatMisread,
        Self::RoundTripLoss,
    ];

    /// Short name: `error-split`, `value-split`, `round-trip-loss`, `float-misread`,
    /// `duplicate-name`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::ErrorSplit => "error-split",
            Self::ValueSplit => "value-split",
            Self::RoundTripLoss => "round-trip-loss",
            Self::FloatMisread => "float-misread",
            Self::DuplicateName => "duplicate-name",
        }
    }

    /// The class named `name` (as [`Class::name`] gives it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One classified disagreement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Which kind.
    pub class: Class,
    /// Accepted: by the DTO's declaration ([`Accept`]), or by the caller
    /// ([`Report::accept`], e.g. the CLI's `--accept`; then [`Finding::by_caller`] is set).
    pub accepted: bool,
    /// Accepted by the caller ([`Report::accept`]), not by the DTO: reports label it so.
    pub by_caller: bool,
    /// Paths that decoded / were compared (baseline first for value splits).
    pub paths: Vec<DecodePath>,
    /// Error messages of failing paths (error splits).
    pub errors: Vec<(DecodePath, String)>,
    /// The other side of the comparison (value splits: the differing path group).
    pub against: Vec<DecodePath>,
    /// JSON-pointer changes from the baseline to the other side.
    pub changes: Vec<Change>,
    /// Numbers read to another double than the correctly rounded one (float misreads).
    pub misreads: Vec<Misread>,
    /// The place the finding is about when it is not a change: for a duplicate name, the
    /// JSON pointer of the later member (`/a/b` for `{"a":{"b":1,"b":2}}`).
    pub at: Option<String>,
}

impl Finding {
    /// The JSON pointer a report names for this finding: [`Finding::at`], else the first
    /// misread's or change's (`""` when none).
    #[must_use]
    pub fn pointer(&self) -> &str {
        self.at
            .as_deref()
            .or_else(|| self.misreads.first().map(|m| m.pointer.as_str()))
            .or_else(|| self.changes.first().map(|c| c.pointer.as_str()))
            .unwrap_or_default()
    }
}

/// Everything one check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Per-path results, in [`DecodePath::ALL`] order.
    pub outcomes: Vec<(DecodePath, PathResult)>,
    /// The canonical form of the input itself, or why it has none.
    pub input_canonical: Result<Vec<u8>, String>,
    /// Disagreements, most severe first.
    pub findings: Vec<Finding>,
}

/// Overall outcome of a [`Report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every applicable path decoded the same value, and it round-trips.
    Equivalent,
    /// Every applicable path rejected the input (consistently invalid for this DTO).
    Rejected,
    /// Disagreements exist, all declared acceptable by the DTO.
    Accepted,
    /// At least one disagreement the DTO does not accept.
    Divergent,
}

impl Verdict {
    /// Lower-case name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Equivalent => "equivalent",
            Self::Rejected => "rejected",
            Self::Accepted => "accepted",
            Self::Divergent => "divergent",
        }
    }
}

impl Report {
    /// The overall verdict.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        if self.findings.iter().any(|f| !f.accepted) {
            Verdict::Divergent
        } else if !self.findings.is_empty() {
            Verdict::Accepted
        } else if !self.outcomes.iter().any(|(_, r)| r.is_decoded()) {
            Verdict::Rejected
        } else {
            Verdict::Equivalent
        }
    }

    /// Whether any finding is not accepted.
    #[must_use]
    pub fn is_divergent(&self) -> bool {
        self.verdict() == Verdict::Divergent
    }

    /// Accepts every finding of `class` (a caller's declaration on top of the DTO's, such
    /// as `--accept duplicate-names`). Accepting duplicate names accepts the whole report:
    /// what the paths make of such a document (one rejects it, another keeps the first
    /// member) follows from the duplicate.
    pub fn accept(&mut self, class: Class) {
        self.accept_as(class, true);
    }

    /// [`Report::accept`] by the caller (`by_caller`) or by the DTO's declaration.
    fn accept_as(&mut self, class: Class, by_caller: bool) {
        let all = class == Class::DuplicateName
            && self
                .findings
                .iter()
                .any(|f| f.class == Class::DuplicateName);
        for f in &mut self.findings {
            if (all || f.class == class) && !f.accepted {
                f.accepted = true;
                f.by_caller = by_caller;
            }
        }
    }

    /// A multi-line human-readable account.
    #[must_use]
    pub fn render(&self, style: DiffStyle) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(out, "verdict: {}", self.verdict().name());
        for (path, r) in &self.outcomes {
            let line = match r {
                PathResult::Decoded(b) if style.redact => {
                    format!("ok ({} bytes canonical)", b.len())
                }
                PathResult::Decoded(b) => format!(
                    "ok {}",
                    cut(&String::from_utf8_lossy(b), style.max_value_chars)
                ),
                PathResult::Unencodable { message, pointer } => {
                    let p = if pointer.is_empty() {
                        "(root)"
                    } else {
                        pointer
                    };
                    format!(
                        "ok, but no JSON form at {p}: {}",
                        redacted(message, style.redact)
                    )
                }
                PathResult::Failed(m) => format!("error: {}", redacted(m, style.redact)),
                PathResult::NotApplicable(why) => format!("n/a: {why}"),
            };
            let _ = writeln!(out, "  {:<9} {line}", path.name());
        }
        for f in &self.findings {
            let tag = match (f.accepted, f.by_caller) {
                (true, false) => " (accepted by the DTO)",
                (true, true) => " (accepted by the caller)",
                (false, _) => "",
            };
            match f.class {
                Class::ErrorSplit => {
                    let ok: Vec<_> = f.paths.iter().map(|p| p.name()).collect();
                    let _ = writeln!(
                        out,
                        "{}{tag}: decoded by {}; rejected by:",
                        f.class,
                        ok.join(", ")
                    );
                    for (p, m) in &f.errors {
                        let _ = writeln!(out, "  {p}: {}", redacted(m, style.redact));
                    }
                }
                Class::ValueSplit => {
                    let a: Vec<_> = f.paths.iter().map(|p| p.name()).collect();
                    let b: Vec<_> = f.against.iter().map(|p| p.name()).collect();
                    let _ = writeln!(
                        out,
                        "{}{tag}: {} vs {}:",
                        f.class,
                        a.join(", "),
                        b.join(", ")
                    );
                    out.push_str(&indent(&crate::diff::render(&f.changes, style, 20)));
                }
                Class::RoundTripLoss => {
                    let a: Vec<_> = f.paths.iter().map(|p| p.name()).collect();
                    let _ = writeln!(
                        out,
                        "{}{tag}: input vs re-encoded {} value:",
                        f.class,
                        a.join(", ")
                    );
                    out.push_str(&indent(&crate::diff::render(&f.changes, style, 20)));
                }
                Class::FloatMisread => {
                    let a: Vec<_> = f.paths.iter().map(|p| p.name()).collect();
                    let _ = writeln!(
                        out,
                        "{}{tag}: {} read a number to another double than the correctly rounded one:",
                        f.class,
                        a.join(", ")
                    );
                    for m in &f.misreads {
                        let _ = writeln!(out, "  {}", m.describe(style.redact));
                    }
                    let _ = writeln!(out, "  fix: {MISREAD_FIX}");
                }
                Class::DuplicateName => {
                    let at = f.at.as_deref().unwrap_or_default();
                    let at = if at.is_empty() { "(root)" } else { at };
                    let _ = writeln!(
                        out,
                        "{}{tag}: member {at} repeats a name of its object: serde's Value and \
                         jsonb keep the last, a derived struct rejects it, other readers keep \
                         the first (accept with a DTO Accept or --accept duplicate-names)",
                        f.class
                    );
                }
            }
        }
        out
    }
}

/// An error message for a redacted report: quoted parts (`serde_json` quotes the
/// offending value, `"..."` or `` `...` ``) replaced by their length.
fn redacted(message: &str, redact: bool) -> String {
    if !redact {
        return message.to_owned();
    }
    redact_verbatim(message).unwrap_or_else(|| redact_quoted(message))
}

/// Messages that quote a piece of the input verbatim, with no escaping of its own, so that
/// its quotes do not delimit it: PostgreSQL's DETAIL keeps a string token's opening quote
/// and escapes (`Token ""secret" is invalid.`, `Expected ",", but found ""secret"".`),
/// serde names an unknown variant or field between backticks it may itself contain
/// (``unknown variant `se`cret`, expected ...``). Each form ends at a fixed text: the
/// piece is everything up to its last occurrence, and goes whole.
fn redact_verbatim(message: &str) -> Option<String> {
    const FORMS: [(&str, &str); 7] = [
        ("Token \"", "\" is invalid."),
        ("Escape sequence \"", "\" is invalid."),
        (", but found \"", "\"."),
        ("unknown variant `", "`, expected "),
        ("unknown variant `", "`, there are no variants"),
        ("unknown field `", "`, expected "),
        ("unknown field `", "`, there are no fields"),
    ];
    FORMS.iter().find_map(|(open, close)| {
        let start = message.find(open)?;
        let from = start + open.len();
        let end = from + message.get(from..)?.rfind(close)?;
        let token = message.get(from..end)?;
        // The opening quote and the closing one go with the token.
        let before = message.get(..from - 1)?;
        let after = message.get(end + 1..)?;
        Some(format!(
            "{}<{} chars>{}",
            redact_quoted(before),
            token.chars().count(),
            redact_quoted(after)
        ))
    })
}

/// Quoted parts of `message` replaced by their length.
fn redact_quoted(message: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        // The parser's own messages quote one character: `unexpected character 'x'`.
        if c == '\'' {
            let mut ahead = chars.clone();
            if let (Some(_), Some('\'')) = (ahead.next(), ahead.next()) {
                chars.next();
                chars.next();
                out.push_str("<1 chars>");
                continue;
            }
        }
        if c == '"' || c == '`' {
            let mut n = 0usize;
            let mut closed = false;
            while let Some(d) = chars.next() {
                if d == '\\' && c == '"' {
                    chars.next();
                    n += 1;
                } else if d == c {
                    closed = true;
                    break;
                } else {
                    n += 1;
                }
            }
            let _ = write!(out, "<{n} chars>");
            if !closed {
                break;
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn indent(s: &str) -> String {
    use std::fmt::Write as _;
    s.lines().fold(String::new(), |mut out, l| {
        let _ = writeln!(out, "  {l}");
        out
    })
}

/// A disagreement a DTO declares acceptable, with the reason shown in reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accept {
    /// The class accepted.
    pub class: Class,
    /// The paths this entry grants for its class (error splits: the failing paths; value
    /// splits: the paths that differ from the baseline; round-trip losses: the baseline's
    /// paths). Empty: every path. Entries add up: a finding is accepted when every path on
    /// its side is granted by some entry of its class (see [`accepted`]).
    pub only: &'static [DecodePath],
    /// Why this is acceptable for this DTO.
    pub reason: &'static str,
}

/// Which disagreements a DTO declares acceptable.
pub type Accepts = &'static [Accept];

/// A DTO family whose values may borrow from the input (`&'de str` fields).
///
/// Owned DTOs do not need this: use [`check`]. For a borrowing DTO `Memo<'de>`, declare
/// `struct MemoFamily; impl BorrowedDto for MemoFamily { type Of<'de> = Memo<'de>; }` and
/// use [`check_borrowed`]; the DOM path is then not applicable (`from_value` needs an owned
/// type).
pub trait BorrowedDto {
    /// The DTO at lifetime `'de`.
    type Of<'de>: Deserialize<'de> + Serialize;
}

/// Decodes `input` into `T` through every [`DecodePath`] and classifies the results.
#[must_use]
pub fn check<T: DeserializeOwned + Serialize>(input: &[u8], accepts: Accepts) -> Report {
    check_input::<T>(&Input::new(input), accepts)
}

/// Like [`check`], for DTOs that borrow from the input.
#[must_use]
pub fn check_borrowed<F: BorrowedDto>(input: &[u8], accepts: Accepts) -> Report {
    check_borrowed_input::<F>(&Input::new(input), accepts)
}

/// A text to check, with what the caller already computed about it.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The JSON text.
    pub text: &'a [u8],
    /// `jsonb::normalize(text, &JsonbOptions::default())` when the caller has it already
    /// (the live scan computes it for the model check); the jsonb path then reuses it.
    /// It must be exactly that result: the report is then the same as without it.
    pub jsonb: Option<&'a Result<String, crate::jsonb::JsonbError>>,
    /// The caller knows that `jsonb::normalize(text, &JsonbOptions::default())` is
    /// `Ok(text)` (see [`crate::jsonb::is_normalized`]); the jsonb path then is the
    /// direct path, as it is when `jsonb` holds a text equal to `text`.
    pub jsonb_unchanged: bool,
    /// The caller reads only the report's findings and verdict (the live scan). A check
    /// may then skip the work only the outcomes' comparison forms need: when the paths
    /// checked are `direct` and `jsonb` (or one of them) and the text is its own jsonb
    /// text, the decoded value is written as jsonb text and compared with it. The same
    /// text has no finding; another is walked side by side with it, and the places whose
    /// bytes differ give the round-trip changes (exactly the diff of the two comparison
    /// forms). Such a report holds each path as [`PathResult::Decoded`] with an empty form
    /// and an empty `input_canonical` (the forms were not made), and the findings and
    /// verdict of the full report. Any other row (a value not written as jsonb text, a
    /// place the walk cannot tell, a decode error) gets the full report.
    pub findings_only: bool,
}

impl<'a> Input<'a> {
    /// A text, nothing computed yet.
    #[must_use]
    pub fn new(text: &'a [u8]) -> Self {
        Self {
            text,
            jsonb: None,
            jsonb_unchanged: false,
            findings_only: false,
        }
    }

    /// A text and its `jsonb::normalize` result (with the default options).
    #[must_use]
    pub fn with_jsonb(text: &'a [u8], jsonb: &'a Result<String, crate::jsonb::JsonbError>) -> Self {
        Self {
            text,
            jsonb: Some(jsonb),
            jsonb_unchanged: false,
            findings_only: false,
        }
    }

    /// A text that is its own `jsonb::normalize` result: only when
    /// [`crate::jsonb::is_normalized`] says so (or the model was run and gave `text` back).
    #[must_use]
    pub fn jsonb_unchanged(text: &'a [u8]) -> Self {
        Self {
            text,
            jsonb: None,
            jsonb_unchanged: true,
            findings_only: false,
        }
    }

    /// This input, its report read for the findings and verdict only (see
    /// [`Input::findings_only`]).
    #[must_use]
    pub fn for_findings(self) -> Self {
        Self {
            findings_only: true,
            ..self
        }
    }
}

/// [`check`] with what the caller already knows about the text: the same [`Report`].
///
/// Each distinct piece of work is done once: the `Value` is parsed once and moved into
/// `from_value` after `T::deserialize(&value)` has borrowed it (the clone the DOM path
/// names is equal to it, so the result is the same); a path whose text is byte-identical
/// to the input (jsonb text already normalized, input already canonical) reuses the direct
/// path's result, since the same bytes decode the same way; and a decoded value is put in
/// the comparison form only when no earlier path decoded a value that makes exactly the
/// same serializer calls (compared by a recording: no formatting, no sorting).
#[must_use]
pub fn check_input<T: DeserializeOwned + Serialize>(input: &Input<'_>, accepts: Accepts) -> Report {
    let text = input.text;
    let mut res = Results::for_text(text);
    let (dom, borrow) = match serde_json::from_slice::<serde_json::Value>(text) {
        Ok(v) => {
            let borrow = res.of(T::deserialize(&v));
            let dom = res.of(serde_json::from_value::<T>(v));
            (dom, borrow)
        }
        Err(e) => {
            let m = format!("parsing into Value: {e}");
            (PathResult::Failed(m.clone()), PathResult::Failed(m))
        }
    };
    let direct = res.of(serde_json::from_slice::<T>(text));
    let (rfc, comparison) = canonical_forms(text);
    let (jsonb, canonical) = text_paths(input, rfc, &direct, |t| {
        res.of(serde_json::from_slice::<T>(t))
    });
    classify(
        text,
        comparison,
        [dom, direct, borrow, jsonb, canonical],
        accepts,
    )
}

/// [`check_borrowed`] with what the caller already knows about the text: the same [`Report`].
#[must_use]
pub fn check_borrowed_input<F: BorrowedDto>(input: &Input<'_>, accepts: Accepts) -> Report {
    let text = input.text;
    let mut res = Results::for_text(text);
    let dom = PathResult::NotApplicable("from_value needs an owned (DeserializeOwned) type");
    let direct = res.of(serde_json::from_slice::<F::Of<'_>>(text));
    let borrow = match serde_json::from_slice::<serde_json::Value>(text) {
        Ok(v) => res.of(F::Of::deserialize(&v)),
        Err(e) => PathResult::Failed(format!("parsing into Value: {e}")),
    };
    let (rfc, comparison) = canonical_forms(text);
    let (jsonb, canonical) = text_paths(input, rfc, &direct, |t| {
        res.of(serde_json::from_slice::<F::Of<'_>>(t))
    });
    classify(
        text,
        comparison,
        [dom, direct, borrow, jsonb, canonical],
        accepts,
    )
}

/// Path results of decoded values, each distinct value (by its serializer calls) put in
/// the comparison form once.
#[derive(Default)]
struct Results {
    /// Recording of a value -> its result.
    known: Vec<(Vec<u8>, PathResult)>,
    scratch: Vec<u8>,
    /// Only one value will be decoded: nothing to share, so nothing is recorded.
    once: bool,
}

impl Results {
    /// For a check that decodes one value at most (the recording would be compared with
    /// nothing).
    fn once() -> Self {
        Self {
            once: true,
            ..Self::default()
        }
    }

    /// Room for a recording of a value decoded from `text` (usually a little shorter).
    fn for_text(text: &[u8]) -> Self {
        Self {
            known: Vec::with_capacity(2),
            scratch: Vec::with_capacity(text.len().saturating_add(64)),
            once: false,
        }
    }

    fn of<T: Serialize, E: fmt::Display>(&mut self, r: Result<T, E>) -> PathResult {
        let v = match r {
            Ok(v) => v,
            Err(e) => return PathResult::Failed(e.to_string()),
        };
        if self.once || !record::record(&v, &mut self.scratch) {
            return PathResult::of::<T, E>(Ok(v));
        }
        if let Some((_, known)) = self.known.iter().find(|(k, _)| *k == self.scratch) {
            return known.clone();
        }
        let result = PathResult::of::<T, E>(Ok(v));
        let room = self.scratch.capacity();
        let recording = std::mem::replace(&mut self.scratch, Vec::with_capacity(room));
        self.known.push((recording, result.clone()));
        result
    }
}

/// The two paths that decode a transformed text: jsonb wire and canonical. A text that is
/// the input itself decodes as the direct path did.
fn text_paths(
    input: &Input<'_>,
    rfc: equijson::Result<Vec<u8>>,
    direct: &PathResult,
    mut decode: impl FnMut(&[u8]) -> PathResult,
) -> (PathResult, PathResult) {
    if input.jsonb_unchanged {
        let canonical = canonical_path(input.text, rfc, direct, &mut decode);
        return (direct.clone(), canonical);
    }
    let computed;
    let model = if let Some(m) = input.jsonb {
        m
    } else {
        computed = crate::jsonb::normalize(input.text, &crate::jsonb::JsonbOptions::default());
        &computed
    };
    // `jsonb::to_wire` is `0x01` + this text, and `wire_text` gives the text back.
    let jsonb = match model {
        Ok(t) if t.as_bytes() == input.text => direct.clone(),
        Ok(t) => located::in_text(
            decode(t.as_bytes()),
            t.as_bytes(),
            input.text,
            located::JSONB_TEXT,
        ),
        Err(e) => PathResult::Failed(format!("PostgreSQL would reject it as jsonb: {e}")),
    };
    let canonical = canonical_path(input.text, rfc, direct, &mut decode);
    (jsonb, canonical)
}

/// The canonical path: the RFC 8785 form decoded (the direct path's result when it is
/// the input itself).
fn canonical_path(
    text: &[u8],
    rfc: equijson::Result<Vec<u8>>,
    direct: &PathResult,
    decode: &mut impl FnMut(&[u8]) -> PathResult,
) -> PathResult {
    match rfc {
        Ok(c) if c == text => direct.clone(),
        Ok(c) => located::in_text(decode(&c), &c, text, located::CANONICAL_TEXT),
        Err(e) => PathResult::Failed(format!("no RFC 8785 form: {e}")),
    }
}

/// The input's RFC 8785 form and its comparison form, from one canonicalization when they
/// are sure to be the same bytes.
///
/// The two differ only in how integer literals (no `.`, no exponent) are written: the
/// comparison form keeps their digits, RFC 8785 writes the double they round to, which is
/// the literal itself when it has at most 15 characters (`-0` becomes `0` in both). Every
/// integer literal of the input appears verbatim among the comparison form's all-digit
/// number tokens, so when none of those is longer than 15 characters the RFC 8785 form is
/// the same text (and cannot fail where the comparison form did not).
fn canonical_forms(input: &[u8]) -> (equijson::Result<Vec<u8>>, equijson::Result<Vec<u8>>) {
    match comparison_form(input) {
        Ok(c) if short_integer_tokens(&c) => (Ok(c.clone()), Ok(c)),
        Ok(c) => (equijson::canonicalize(input), Ok(c)),
        Err(e) => (equijson::canonicalize(input), Err(e)),
    }
}

/// [`input_comparison_form`] with a canonicalizer kept per thread (its buffers stay
/// allocated between checks).
fn comparison_form(input: &[u8]) -> equijson::Result<Vec<u8>> {
    thread_local! {
        static COMPARISON: std::cell::RefCell<equijson::Canonicalizer> =
            std::cell::RefCell::new(equijson::Canonicalizer::new(equijson::Options::comparison()));
    }
    COMPARISON.with(|c| match c.try_borrow_mut() {
        Ok(mut c) => c.canonicalize(input),
        // Only if a check runs inside another's canonicalization (it cannot): a fresh one.
        Err(_) => equijson::canonicalize_with(input, &equijson::Options::comparison()),
    })
}

/// Whether every number token of canonical JSON `text` that is made of digits and `-`
/// only has at most 15 characters (strings skipped; canonical escapes are `\x` pairs and
/// `\u00xx`, whose characters are never `"` or `\`).
fn short_integer_tokens(text: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => {
                i += 1;
                while let Some(&c) = text.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                let mut integer = true;
                while let Some(&c) = text.get(i) {
                    match c {
                        b'-' | b'0'..=b'9' => {}
                        b'.' | b'e' | b'E' | b'+' => integer = false,
                        _ => break,
                    }
                    i += 1;
                }
                if integer && i - start > 15 {
                    return false;
                }
            }
            _ => i += 1,
        }
    }
    true
}

/// JSON-pointer changes from one decoded result to another.
fn changes_between(old: &PathResult, new: &PathResult) -> Vec<Change> {
    match (old, new) {
        (PathResult::Decoded(a), PathResult::Decoded(b)) => diff_texts(a, b).unwrap_or_default(),
        (PathResult::Decoded(a), PathResult::Unencodable { pointer, .. }) => {
            vec![unencodable_change(pointer, Some(a), true)]
        }
        (PathResult::Unencodable { pointer, .. }, PathResult::Decoded(b)) => {
            vec![unencodable_change(pointer, Some(b), false)]
        }
        (
            PathResult::Unencodable { pointer: p, .. },
            PathResult::Unencodable { pointer: q, .. },
        ) => {
            let mut v = vec![unencodable_change(p, None, true)];
            if q != p {
                v.push(unencodable_change(q, None, false));
            }
            v
        }
        _ => Vec::new(),
    }
}

/// The comparison form of the input (see the module documentation), or why it has none.
/// The comparison form of `input` (see the module documentation).
///
/// # Errors
/// Why `input` has none (the first error of the text).
pub fn input_comparison_form(input: &[u8]) -> equijson::Result<Vec<u8>> {
    equijson::canonicalize_with(input, &equijson::Options::comparison())
}

/// Paths that decoded the same value: its key, the result, the paths.
type Group<'a> = (std::borrow::Cow<'a, [u8]>, &'a PathResult, Vec<DecodePath>);

/// Classifies the paths' results for `input`, whose comparison form (or why it has none)
/// is `comparison`.
pub(crate) fn classify(
    input: &[u8],
    comparison: equijson::Result<Vec<u8>>,
    results: [PathResult; 5],
    accepts: Accepts,
) -> Report {
    classify_outcomes(
        input,
        comparison,
        DecodePath::ALL.into_iter().zip(results).collect(),
        accepts,
    )
}

/// Classifies the results of any set of paths (in report order) for `input`, whose
/// comparison form (or why it has none) is `comparison`, with `accepts`: the report
/// [`check`] gives when the paths are all of [`DecodePath::ALL`].
#[must_use]
pub fn classify_outcomes(
    input: &[u8],
    comparison: equijson::Result<Vec<u8>>,
    outcomes: Vec<(DecodePath, PathResult)>,
    accepts: &[Accept],
) -> Report {
    classify_parsed(input, comparison, None, outcomes, accepts)
}

/// [`classify_outcomes`] given the input's document when the caller parsed it (with the
/// comparison options; `comparison` is then its canonical form): the round-trip diff
/// reads it instead of parsing the comparison form again. The same report.
pub(crate) fn classify_parsed(
    input: &[u8],
    comparison: equijson::Result<Vec<u8>>,
    input_doc: Option<&equijson::Document>,
    outcomes: Vec<(DecodePath, PathResult)>,
    accepts: &[Accept],
) -> Report {
    // A duplicate member name is the comparison form's error (the first error of the text).
    let duplicate = match &comparison {
        Err(e) if matches!(e.kind(), equijson::ErrorKind::DuplicateKey(_)) => {
            Some(e.member_pointer().unwrap_or_default().to_owned())
        }
        _ => None,
    };
    let input_canonical = comparison.map_err(|e| e.to_string());
    let mut findings: Vec<Finding> = Vec::new();
    let applicable: Vec<&(DecodePath, PathResult)> = outcomes
        .iter()
        .filter(|(_, r)| !matches!(r, PathResult::NotApplicable(_)))
        .collect();
    let decoded: Vec<&(DecodePath, PathResult)> = applicable
        .iter()
        .copied()
        .filter(|(_, r)| r.is_decoded())
        .collect();
    let failed: Vec<(DecodePath, String)> = applicable
        .iter()
        .filter_map(|(p, r)| match r {
            PathResult::Failed(m) => Some((*p, m.clone())),
            _ => None,
        })
        .collect();
    let accepted = |c: Class, other: &[DecodePath]| accepted(accepts, c, other);

    if !decoded.is_empty() && !failed.is_empty() {
        let failing: Vec<DecodePath> = failed.iter().map(|(p, _)| *p).collect();
        findings.push(Finding {
            class: Class::ErrorSplit,
            accepted: accepted(Class::ErrorSplit, &failing),
            by_caller: false,
            paths: decoded.iter().map(|(p, _)| *p).collect(),
            errors: failed,
            against: Vec::new(),
            changes: Vec::new(),
            misreads: Vec::new(),
            at: None,
        });
    }

    // Group decoded paths by value; the first group (in path order) is the baseline.
    let mut groups: Vec<Group<'_>> = Vec::new();
    for (p, r) in &decoded {
        if let Some(key) = r.value_key() {
            match groups.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, paths)) => paths.push(*p),
                None => groups.push((key, r, vec![*p])),
            }
        }
    }
    if let Some(((_, base, base_paths), rest)) = groups.split_first() {
        for (_, other, other_paths) in rest {
            findings.push(Finding {
                class: Class::ValueSplit,
                accepted: accepted(Class::ValueSplit, other_paths),
                by_caller: false,
                paths: base_paths.clone(),
                errors: Vec::new(),
                against: other_paths.clone(),
                changes: changes_between(base, other),
                misreads: Vec::new(),
                at: None,
            });
        }
        // Round trip: the baseline value re-encoded against the input's comparison form.
        if let Ok(input_c) = &input_canonical {
            let changes = match base {
                PathResult::Decoded(b) if b != input_c => match input_doc {
                    Some(doc) => crate::diff::diff_document_text(doc, b),
                    None => diff_texts(input_c, b),
                }
                .unwrap_or_default(),
                PathResult::Unencodable { pointer, .. } => {
                    vec![unencodable_change(pointer, Some(input_c), true)]
                }
                _ => Vec::new(),
            };
            if !changes.is_empty() || matches!(base, PathResult::Decoded(b) if b != input_c) {
                findings.push(Finding {
                    class: Class::RoundTripLoss,
                    accepted: accepted(Class::RoundTripLoss, base_paths),
                    by_caller: false,
                    paths: base_paths.clone(),
                    errors: Vec::new(),
                    against: Vec::new(),
                    changes,
                    misreads: Vec::new(),
                    at: None,
                });
            }
        }
    }
    let findings = numbers::split_misreads(findings, input, &accepted);
    with_duplicate(
        Report {
            outcomes,
            input_canonical,
            findings,
        },
        duplicate,
        accepted(Class::DuplicateName, &[]),
    )
}

/// `report` with the duplicate-name finding first when the input has one (`at`: the
/// pointer of the later member), every finding accepted when the DTO accepts it.
fn with_duplicate(mut report: Report, at: Option<String>, accept: bool) -> Report {
    if let Some(at) = at {
        report.findings.insert(
            0,
            Finding {
                class: Class::DuplicateName,
                accepted: false,
                by_caller: false,
                paths: Vec::new(),
                errors: Vec::new(),
                against: Vec::new(),
                changes: Vec::new(),
                misreads: Vec::new(),
                at: Some(at),
            },
        );
        if accept {
            report.accept_as(Class::DuplicateName, false);
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::{canonical_forms, input_comparison_form, short_integer_tokens};

    #[test]
    fn one_canonicalization_gives_both_forms_exactly() {
        let inputs = [
            "0",
            "-0",
            "[-0,-0.0,0e0]",
            "123456789012345",
            "-12345678901234",
            "1234567890123456",
            "-123456789012345",
            "12345678901234567890",
            "9007199254740993",
            "1e20",
            "100000000000000000000",
            "1.5e300",
            "1e400",
            r#"{"n":123456789012345678901234567890}"#,
            r#"{"s":"12345678901234567890"}"#,
            r#"{"s":"a\"12345678901234567890","n":1}"#,
            r#"{"s":"\\","n":1234567890123456789}"#,
            r#"["\u0001 1234567890123456789", 2]"#,
            r#"{"b":[1.0,2.50,-3e-7],"a":{"c":-0}}"#,
            "[1,2",
            "",
            "tru",
            r#"{"a":1,"a":2}"#,
        ];
        for input in inputs {
            let (rfc, comparison) = canonical_forms(input.as_bytes());
            let rfc_alone = equijson::canonicalize(input.as_bytes());
            assert_eq!(rfc.as_ref().ok(), rfc_alone.as_ref().ok(), "{input}");
            assert_eq!(
                rfc.as_ref().err().map(ToString::to_string),
                rfc_alone.as_ref().err().map(ToString::to_string),
                "{input}"
            );
            assert_eq!(
                comparison,
                input_comparison_form(input.as_bytes()),
                "{input}"
            );
        }
    }

    #[test]
    fn long_integer_tokens_are_found_outside_strings_only() {
        assert!(short_integer_tokens(br#"{"a":"12345678901234567890"}"#));
        assert!(short_integer_tokens(br#"{"a":"\"12345678901234567890"}"#));
        assert!(short_integer_tokens(
            b"[123456789012345,-12345678901234,1.2345678901234567]"
        ));
        assert!(!short_integer_tokens(br"[1234567890123456]"));
        assert!(!short_integer_tokens(br#"{"a\\":1234567890123456}"#));
        assert!(!short_integer_tokens(br"[-123456789012345]"));
    }
}
