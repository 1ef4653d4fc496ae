//! Checks of what a live PostgreSQL server returned, and the reports of the live runner (pure; no I/O).
//!
//! The rest of this crate fetches rows and round-trips values; everything it concludes
//! from them is decided here, from `equijson-check`'s decode reports and jsonb model.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "row counts and rates are shown, not computed on; ids stay far below 2^63"
)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use equijson::untrusted::escape;
use equijson_check::decode::{Input, Report};
use equijson_check::diff::DiffStyle;
use equijson_check::jsonb::{self, JsonbOptions};

pub use crate::live_checks::{KEY_SETTINGS, MergeError, Mismatch, ScanSource};
pub use crate::live_class::LiveClass;

/// The SQL type of a scanned column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnKind {
    /// `json`: the input text, verbatim.
    Json,
    /// `jsonb`: binary form `0x01` + the normalized text.
    Jsonb,
    /// `text` / `varchar`: JSON stored as a string.
    Text,
}

impl ColumnKind {
    /// From the server's type name (`json`, `jsonb`, `text`, `character varying`, ...).
    #[must_use]
    pub fn from_type_name(name: &str) -> Option<Self> {
        match name {
            "json" => Some(Self::Json),
            "jsonb" => Some(Self::Jsonb),
            "text" | "character varying" | "varchar" | "character" | "bpchar" | "name" => {
                Some(Self::Text)
            }
            _ => None,
        }
    }
}

/// One thing found on one row or case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveFinding {
    /// A decode finding's [`equijson_check::decode::Class`], or what the jsonb model and
    /// the server disagree on (see [`LiveClass`]; serialized by its name, e.g.
    /// `value-split`, `model-text`).
    pub class: LiveClass,
    /// Accepted by the DTO (or by `--accept`); `declared` in earlier versions, read as this.
    #[serde(alias = "declared")]
    pub accepted: bool,
    /// JSON pointer of the first difference (`""`: the whole value).
    pub pointer: String,
    /// What differs (values redacted unless shown on purpose).
    pub description: String,
}

/// How much a check says about what it finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Describe {
    /// Classes and flags only, no descriptions (fast: most rows of a scan need no more).
    No,
    /// Descriptions with values replaced by kinds and lengths.
    Redacted,
    /// Descriptions with values.
    Values,
}

impl Describe {
    fn show_values(self) -> bool {
        self == Self::Values
    }
}

/// Converts a decode report into findings (one per finding of the report).
#[must_use]
pub fn decode_findings(report: &Report, describe: Describe) -> Vec<LiveFinding> {
    let show_values = describe.show_values();
    let render = |lines: usize| {
        if describe == Describe::No {
            return String::new();
        }
        let text = report.render(DiffStyle {
            redact: !show_values,
            ..DiffStyle::default()
        });
        // The per-path outcome lines repeat the value once per path (a DTO's own BEFORE
        // and AFTER functions too); keep the verdict and findings.
        let is_outcome = |l: &str| {
            use equijson_check::decode::DecodePath;
            let t = l.trim_start();
            l.starts_with("  ")
                && DecodePath::ALL
                    .iter()
                    .chain(&[DecodePath::Before, DecodePath::After])
                    .any(|p| t.starts_with(p.name()) && t[p.name().len()..].starts_with(' '))
        };
        // A row's findings are accepted one by one: the report's verdict (about all of
        // them) is left out, so an accepted finding never reads "verdict: divergent".
        text.lines()
            .filter(|l| lines == 4 || !(is_outcome(l) || l.starts_with("verdict: ")))
            .take(lines)
            .collect::<Vec<_>>()
            .join("\n")
    };
    if report.verdict() == equijson_check::decode::Verdict::Rejected {
        // Every path rejects the value alike: not a split, but a row the DTO cannot read.
        let text = render(4);
        return vec![LiveFinding {
            class: LiveClass::Rejected,
            accepted: true,
            pointer: String::new(),
            description: text,
        }];
    }
    if report.findings.is_empty() {
        return Vec::new();
    }
    let description = render(8);
    report
        .findings
        .iter()
        .map(|f| LiveFinding {
            class: LiveClass::Decode(f.class),
            accepted: f.accepted,
            pointer: f.pointer().to_owned(),
            description: description.clone(),
        })
        .collect()
}

fn finding(class: LiveClass, description: String) -> LiveFinding {
    LiveFinding {
        class,
        accepted: false,
        pointer: String::new(),
        description,
    }
}

fn shown(bytes: &[u8], show_values: bool) -> String {
    if show_values {
        let s = String::from_utf8_lossy(bytes);
        let mut cut: String = s.chars().take(200).collect();
        if cut.len() < s.len() {
            cut.push('…');
        }
        format!("{cut:?}")
    } else {
        format!("<{} bytes>", bytes.len())
    }
}

/// Checks one scanned value.
///
/// `binary` is the value as the server sent it in binary format (jsonb: `0x01` + text;
/// json and text: the text). `text` is, for a `json` column, the server's
/// `::jsonb::text` of the value where it was safe to cast (`None` elsewhere); for jsonb
/// and text columns it is not used (pass `None`): a jsonb value's binary form already is
/// `jsonb_out`'s text behind a version byte, so its text form would be the same bytes
/// again. `check` runs the decode paths of the DTO (given the jsonb model's text of the
/// value when the check computed it, so that it is not computed twice). Checked: the
/// binary form is readable (version 1, then the text); for jsonb, the model, fed the
/// server's own jsonb text, predicts exactly that text; for json, the model predicts the
/// server's cast; the decode paths agree on the value.
pub fn check_row(
    kind: ColumnKind,
    binary: &[u8],
    text: Option<&[u8]>,
    check: &dyn Fn(&Input<'_>) -> Report,
    describe: Describe,
) -> Vec<LiveFinding> {
    check_row_with(kind, binary, text, check, &|_, _| true, describe)
}

/// Like [`check_row`], describing decode findings (the slow part) only when `wants(class,
/// accepted)` says one of them is still needed as an example; `check` runs once.
pub fn check_row_with(
    kind: ColumnKind,
    binary: &[u8],
    text: Option<&[u8]>,
    check: &dyn Fn(&Input<'_>) -> Report,
    wants: &dyn Fn(LiveClass, bool) -> bool,
    describe: Describe,
) -> Vec<LiveFinding> {
    check_row_unfinished(kind, binary, text, check, describe).finish(wants, describe)
}

/// A row checked, its decode findings not yet described: [`check_row_unfinished`] does the
/// work (on any thread), then [`CheckedRow::finish`], called in row order, describes the
/// decode findings still wanted as examples. Together they give exactly what
/// [`check_row_with`] gives.
#[derive(Debug, Clone, Default)]
pub struct CheckedRow {
    /// The findings; decode findings undescribed.
    findings: Vec<LiveFinding>,
    /// Where the decode findings start in `findings`.
    decode_from: usize,
    /// The decode report, kept when it has findings that may need describing.
    report: Option<Report>,
}

impl CheckedRow {
    /// Whether the row has no finding at all.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The row's findings, its decode findings described (as `describe` says) when
    /// `wants(class, accepted)` asks for one of them.
    #[must_use]
    pub fn finish(
        self,
        wants: &dyn Fn(LiveClass, bool) -> bool,
        describe: Describe,
    ) -> Vec<LiveFinding> {
        let Self {
            mut findings,
            decode_from,
            report,
        } = self;
        let Some(report) = report else {
            return findings;
        };
        if describe != Describe::No
            && findings
                .get(decode_from..)
                .is_some_and(|d| d.iter().any(|f| wants(f.class, f.accepted)))
        {
            findings.truncate(decode_from);
            findings.extend(decode_findings(&report, describe));
        }
        findings
    }
}

/// The work of [`check_row_with`], without deciding which decode findings to describe.
pub fn check_row_unfinished(
    kind: ColumnKind,
    binary: &[u8],
    text: Option<&[u8]>,
    check: &dyn Fn(&Input<'_>) -> Report,
    describe: Describe,
) -> CheckedRow {
    check_row_unfinished_model(kind, binary, text, true, check, describe)
}

/// [`check_row_unfinished`] with the jsonb model's checks on or off: `model` off (when the
/// jsonb decode path is not among the paths checked, `pg scan --paths` without `jsonb`)
/// skips the model against the server's text and hands `check` the bare text, so that
/// nothing the chosen paths do not need is computed.
pub fn check_row_unfinished_model(
    kind: ColumnKind,
    binary: &[u8],
    text: Option<&[u8]>,
    model: bool,
    check: &dyn Fn(&Input<'_>) -> Report,
    describe: Describe,
) -> CheckedRow {
    let show_values = describe.show_values();
    let mut out = Vec::new();
    let value: &[u8] = match kind {
        ColumnKind::Jsonb => match jsonb::wire_text(binary) {
            Ok(t) => t,
            Err(e) => {
                out.push(finding(
                    LiveClass::BadWire,
                    format!("binary jsonb value unreadable: {}", e.message()),
                ));
                return CheckedRow {
                    findings: out,
                    ..CheckedRow::default()
                };
            }
        },
        ColumnKind::Json | ColumnKind::Text => binary,
    };
    // The model's text of the value, when computed here; the decode check reuses it.
    let mut model_text = None;
    // The usual jsonb row: the server's text is already in the model's output form, as a
    // one-pass test shows without running the model (which would give it back unchanged).
    let unchanged = model && kind != ColumnKind::Text && jsonb::is_normalized(value);
    // Every text the model is held against here is one the server already holds as jsonb
    // (a stored value, or its own cast): its depth was accepted, whatever the server's
    // `max_stack_depth` was then, so the model's nesting limit does not apply.
    let accepted = JsonbOptions::default().server_accepted();
    if model && kind == ColumnKind::Jsonb && !unchanged {
        let model = model_text.insert(jsonb::normalize(value, &accepted));
        match model {
            Ok(model) if model.as_bytes() == value => {}
            Ok(model) => out.push(finding(
                LiveClass::ModelText,
                format!(
                    "server jsonb text {} but the model normalizes it to {}",
                    shown(value, show_values),
                    shown(model.as_bytes(), show_values)
                ),
            )),
            Err(e) => out.push(finding(
                LiveClass::ModelRejects,
                format!(
                    "the model rejects the server's own jsonb text {} ({} {})",
                    shown(value, show_values),
                    e.code(),
                    e.message()
                ),
            )),
        }
    }
    if model && kind == ColumnKind::Json {
        // For json, `text` is the server's own `value::jsonb::text` (fetched only where the
        // cast cannot fail): the model must predict it exactly.
        if let Some(server) = text.filter(|&s| !(unchanged && s == value)) {
            let model = model_text.insert(jsonb::normalize(value, &accepted));
            match model {
                Ok(model) if model.as_bytes() == server => {}
                Ok(model) => out.push(finding(
                    LiveClass::ModelText,
                    format!(
                        "json {}: server's jsonb text {}, the model's {}",
                        shown(value, show_values),
                        shown(server, show_values),
                        shown(model.as_bytes(), show_values)
                    ),
                )),
                Err(e) => out.push(finding(
                    LiveClass::ModelRejects,
                    format!(
                        "json {}: the server casts it to jsonb {}, the model rejects it ({} {})",
                        shown(value, show_values),
                        shown(server, show_values),
                        e.code(),
                        e.message()
                    ),
                )),
            }
        }
    }
    // Only the report's findings (and verdict) are read below: a clean report may come
    // back without its comparison forms (`Input::findings_only`).
    let report = check(
        &match &model_text {
            Some(m) => Input::with_jsonb(value, m),
            None if unchanged => Input::jsonb_unchanged(value),
            None => Input::new(value),
        }
        .for_findings(),
    );
    let decode_from = out.len();
    out.extend(decode_findings(&report, Describe::No));
    let keep = describe != Describe::No && out.len() > decode_from;
    CheckedRow {
        findings: out,
        decode_from,
        report: keep.then_some(report),
    }
}

/// What the server did with one value sent as jsonb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerJsonb {
    /// Stored; read back in binary (`0x01` + text) and text format.
    Stored {
        /// Binary result.
        binary: Vec<u8>,
        /// Text result.
        text: Vec<u8>,
    },
    /// Rejected with this SQLSTATE and message.
    Rejected {
        /// The SQLSTATE, e.g. `22P05`.
        code: String,
        /// The server's message.
        message: String,
    },
}

/// Compares the jsonb model's prediction for `input` with what the server did, when the
/// value was sent `via` (`"text"` or `"binary"`). Any miss is a finding that shows the input.
#[must_use]
pub fn compare_jsonb(input: &[u8], via: &str, server: &ServerJsonb) -> Vec<LiveFinding> {
    compare_jsonb_with(input, via, server, &JsonbOptions::default())
}

/// [`compare_jsonb`] with the model's settings given, e.g. the server's major version
/// ([`JsonbOptions::pg_major`]).
#[must_use]
pub fn compare_jsonb_with(
    input: &[u8],
    via: &str,
    server: &ServerJsonb,
    options: &JsonbOptions,
) -> Vec<LiveFinding> {
    let model = jsonb::normalize(input, options);
    let input_shown = format!("{:?}", String::from_utf8_lossy(input));
    match (model, server) {
        (Ok(expected), ServerJsonb::Stored { binary, text }) => {
            let mut out = Vec::new();
            if text.as_slice() != expected.as_bytes() {
                out.push(finding(
                    LiveClass::ModelText,
                    format!(
                        "{via} parameter {input_shown}: server text {:?}, model {expected:?}",
                        String::from_utf8_lossy(text)
                    ),
                ));
            }
            let mut wire = Vec::with_capacity(expected.len() + 1);
            wire.push(1);
            wire.extend_from_slice(expected.as_bytes());
            if *binary != wire {
                out.push(finding(
                    LiveClass::ModelBinary,
                    format!(
                        "{via} parameter {input_shown}: server binary {:?}, model {:?}",
                        String::from_utf8_lossy(binary),
                        String::from_utf8_lossy(&wire)
                    ),
                ));
            }
            out
        }
        (Ok(expected), ServerJsonb::Rejected { code, message }) => vec![finding(
            LiveClass::ModelAccepts,
            format!(
                "{via} parameter {input_shown}: server rejects ({code} {message}), model accepts as {expected:?}"
            ),
        )],
        (Err(e), ServerJsonb::Stored { text, .. }) => vec![finding(
            LiveClass::ModelRejects,
            format!(
                "{via} parameter {input_shown}: server stores {:?}, model rejects ({} {})",
                String::from_utf8_lossy(text),
                e.code(),
                e.message()
            ),
        )],
        (Err(e), ServerJsonb::Rejected { code, message }) if e.code() != code => vec![finding(
            LiveClass::ModelSqlstate,
            format!(
                "{via} parameter {input_shown}: server rejects with {code} ({message}), model with {} ({})",
                e.code(),
                e.message()
            ),
        )],
        (Err(_), ServerJsonb::Rejected { .. }) => Vec::new(),
    }
}

/// `json` must come back verbatim: compares what the server returned with the input.
#[must_use]
pub fn compare_json(input: &[u8], via: &str, returned: &[u8]) -> Option<LiveFinding> {
    (returned != input).then(|| {
        finding(
            LiveClass::JsonNotVerbatim,
            format!(
                "{via}: sent {:?}, got {:?}",
                String::from_utf8_lossy(input),
                String::from_utf8_lossy(returned)
            ),
        )
    })
}

/// One example of a class, as listed in reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The class (serialized by its name, e.g. `value-split`).
    pub class: LiveClass,
    /// The row key (`--key`, else the row number), or the case number.
    pub key: String,
    /// JSON pointer of the first difference.
    pub pointer: String,
    /// Whether the DTO (or `--accept`) accepts it (`declared` in reports of earlier
    /// versions, read as this).
    #[serde(alias = "declared")]
    pub accepted: bool,
    /// What differs (values redacted unless `--show-values`).
    pub description: String,
}

/// How many examples a report keeps per class.
pub const EXAMPLES_PER_CLASS: usize = 3;

/// The report of a scan (or of one shard of it); serialized with exactly these names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanReport {
    /// Table scanned.
    pub table: String,
    /// Column scanned.
    pub column: String,
    /// Its type.
    pub column_type: Option<ColumnKind>,
    /// The DTO the rows were decoded into.
    pub dto: String,
    /// The decode paths checked ([`equijson_check::decode::DecodePath::name`]s): the DTO's
    /// declared paths, or `--paths`. Findings of other paths are not reported; the jsonb
    /// model runs only when `jsonb` is among them. Empty in reports that did not say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Shard `[k, n]` (1-based k) when the scan was one slice of the table.
    pub shard: Option<[u32; 2]>,
    /// The key column (`--key`): it names the rows, and shards are buckets of its hash;
    /// without one, rows are numbered and shards are buckets of heap blocks. Shard reports
    /// merge only when this is the same.
    #[serde(default)]
    pub key_column: Option<String>,
    /// A fingerprint of the `--where` condition ([`where_fingerprint`]; not the SQL, which
    /// may quote values). Shard reports merge only when this is the same.
    #[serde(default)]
    pub where_fingerprint: Option<String>,
    /// `--limit`, when given (per shard). Shard reports merge only when this is the same.
    #[serde(default)]
    pub limit: Option<u64>,
    /// Rows matching the scan when it started (`count(*)`, with `--where`, shard and limit).
    pub rows_total: u64,
    /// Rows read and checked.
    pub rows_read: u64,
    /// Whether every row was read (false after a lost connection, a stopped server, a
    /// statement timeout, or for a merge missing shards).
    pub complete: bool,
    /// Rows with at least one finding the DTO (or `--accept`) does not declare.
    pub divergences: u64,
    /// Rows whose value the jsonb model was held against the server's own jsonb text
    /// (every non-NULL jsonb row; json rows the server could safely cast), when the jsonb
    /// path is among the paths checked (else 0: the model is not run).
    #[serde(default)]
    pub model_checked: u64,
    /// Rows whose findings are all accepted, or consistent rejections (`declared` in
    /// reports of earlier versions, read as this).
    #[serde(alias = "declared")]
    pub accepted: u64,
    /// Findings per class (accepted ones included).
    pub classes: BTreeMap<LiveClass, u64>,
    /// The first few findings per class.
    pub examples: Vec<Example>,
    /// Rows per second over the scan.
    pub rows_per_sec: f64,
    /// Peak resident set size of the process, in bytes (0 when unknown).
    pub peak_rss_bytes: u64,
    /// Seconds the scan took.
    pub elapsed_secs: f64,
    /// Why the scan stopped early, when it did (password never included).
    pub error: Option<String>,
    /// Which snapshot of which table was read, when and with which settings (what makes
    /// shard reports comparable; see [`ScanSource`]).
    #[serde(default)]
    pub source: Option<ScanSource>,
    /// `sha256:HEX` of the canonical JSON (RFC 8785) of the report without this field, or
    /// `hmac-sha256:HEX` keyed with `EQUIJSON_REPORT_KEY`: written by the tool, checked by
    /// `report merge`.
    #[serde(default)]
    pub digest: Option<String>,
    /// How the decode paths' `serde_json` read numbers
    /// ([`equijson_check::decode::SerdeJsonNumbers::describe`], probed at run time), e.g.
    /// `default (fast, not correctly rounded)`. Shard reports merge only when this is the same.
    #[serde(default)]
    pub serde_json_numbers: String,
}

/// A fingerprint of a `--where` condition (FNV-1a, 64 bits, in hex), so that shard
/// reports can be checked for the same filter without the report quoting it. It tells
/// filters apart; it does not keep a short condition secret.
#[must_use]
pub fn where_fingerprint(sql: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in sql.trim().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl ScanReport {
    /// An empty report for `table.column` decoded as `dto`.
    #[must_use]
    pub fn new(table: &str, column: &str, dto: &str) -> Self {
        Self {
            table: table.to_owned(),
            column: column.to_owned(),
            column_type: None,
            dto: dto.to_owned(),
            paths: Vec::new(),
            shard: None,
            key_column: None,
            where_fingerprint: None,
            limit: None,
            rows_total: 0,
            rows_read: 0,
            complete: false,
            divergences: 0,
            model_checked: 0,
            accepted: 0,
            classes: BTreeMap::new(),
            examples: Vec::new(),
            rows_per_sec: 0.0,
            peak_rss_bytes: 0,
            elapsed_secs: 0.0,
            error: None,
            source: None,
            digest: None,
            serde_json_numbers: equijson_check::decode::serde_json_numbers().describe(),
        }
    }

    /// Records one row's findings.
    pub fn record(&mut self, key: &str, findings: Vec<LiveFinding>) {
        self.record_with(|| key.to_owned(), findings);
    }

    /// Records one row's findings; the key is only formed when there are findings.
    pub fn record_with(&mut self, key: impl FnOnce() -> String, findings: Vec<LiveFinding>) {
        self.rows_read += 1;
        if findings.is_empty() {
            return;
        }
        let key = key();
        let key = key.as_str();
        if findings.iter().any(|f| !f.accepted) {
            self.divergences += 1;
        } else {
            self.accepted += 1;
        }
        for f in findings {
            *self.classes.entry(f.class).or_insert(0) += 1;
            self.push_example(Example {
                class: f.class,
                key: key.to_owned(),
                pointer: f.pointer,
                accepted: f.accepted,
                description: f.description,
            });
        }
    }

    /// Whether a finding of this class would still be kept as an example.
    #[must_use]
    pub fn wants_example(&self, class: LiveClass, accepted: bool) -> bool {
        self.examples
            .iter()
            .filter(|x| x.class == class && x.accepted == accepted)
            .count()
            < EXAMPLES_PER_CLASS
    }

    fn push_example(&mut self, e: Example) {
        let same = self
            .examples
            .iter()
            .filter(|x| x.class == e.class && x.accepted == e.accepted)
            .count();
        if same < EXAMPLES_PER_CLASS {
            self.examples.push(e);
        }
    }

    /// Whether something diverges (exit 1) — only meaningful when complete.
    #[must_use]
    pub fn is_divergent(&self) -> bool {
        self.divergences > 0
    }

    /// Adds shard reports into one. `complete` only when every input is complete, they are
    /// shards `1..=n` of the same `n` of one table and column, each present exactly once.
    ///
    /// # Errors
    /// As [`Self::merge_labeled`] (reports named `report 1`, `report 2`, ...).
    pub fn merge(reports: &[ScanReport]) -> Result<ScanReport, MergeError> {
        let labels: Vec<String> = (1..=reports.len()).map(|i| format!("report {i}")).collect();
        let labeled: Vec<(&str, &ScanReport)> =
            labels.iter().map(String::as_str).zip(reports).collect();
        Self::merge_labeled(&labeled)
    }

    /// [`Self::merge`] with a label per report (a file name) for the messages.
    ///
    /// # Errors
    /// When the reports are of different tables, columns or DTOs, mix shard counts, or
    /// were sliced differently (key column, `--where`, `--limit`): the message names the
    /// first report and the one that differs.
    pub fn merge_labeled(reports: &[(&str, &ScanReport)]) -> Result<ScanReport, MergeError> {
        let Some(&(first_label, first)) = reports.first() else {
            return Err(MergeError::NoReports);
        };
        let mut out = ScanReport::new(&first.table, &first.column, &first.dto);
        out.paths.clone_from(&first.paths);
        out.column_type = first.column_type;
        out.key_column.clone_from(&first.key_column);
        out.where_fingerprint.clone_from(&first.where_fingerprint);
        out.limit = first.limit;
        out.source.clone_from(&first.source);
        out.serde_json_numbers.clone_from(&first.serde_json_numbers);
        let n = first.shard.map(|s| s[1]);
        let mut seen = BTreeMap::new();
        let mut complete = true;
        let mut errors = Vec::new();
        for &(label, r) in reports {
            let problems = r.problems();
            if !problems.is_empty() {
                return Err(MergeError::Inconsistent {
                    label: label.to_owned(),
                    problems,
                });
            }
            Self::check_mergeable((first_label, first), (label, r))?;
            if n.is_some() {
                Self::check_same_source((first_label, first), (label, r))?;
            }
            if let Some([k, _]) = r.shard {
                seen.entry(k).or_insert_with(Vec::new).push(label);
            }
            complete &= r.complete;
            if let Some(e) = &r.error {
                errors.push(e.clone());
            }
            out.rows_total += r.rows_total;
            out.rows_read += r.rows_read;
            out.divergences += r.divergences;
            out.model_checked += r.model_checked;
            out.accepted += r.accepted;
            out.elapsed_secs = out.elapsed_secs.max(r.elapsed_secs);
            out.peak_rss_bytes = out.peak_rss_bytes.max(r.peak_rss_bytes);
            for (c, k) in &r.classes {
                *out.classes.entry(*c).or_insert(0) += k;
            }
            for e in &r.examples {
                out.push_example(e.clone());
            }
        }
        match n {
            Some(n) => {
                let missing: Vec<u32> = (1..=n).filter(|k| !seen.contains_key(k)).collect();
                let doubled: Vec<String> = seen
                    .iter()
                    .filter(|(_, ls)| ls.len() > 1)
                    .map(|(k, ls)| format!("shard {k}/{n} in {}", ls.join(", ")))
                    .collect();
                if !missing.is_empty() {
                    errors.push(format!("shards missing: {missing:?} of {n}"));
                }
                if !doubled.is_empty() {
                    errors.push(format!(
                        "shards given more than once: {}",
                        doubled.join("; ")
                    ));
                }
                complete &= missing.is_empty() && doubled.is_empty();
            }
            None if reports.len() > 1 => {
                errors.push(
                    "unsharded reports merged: rows may be counted more than once".to_owned(),
                );
                complete = false;
            }
            None => {}
        }
        out.complete = complete;
        out.error = (!errors.is_empty()).then(|| errors.join("; "));
        out.rows_per_sec = if out.elapsed_secs > 0.0 {
            out.rows_read as f64 / out.elapsed_secs
        } else {
            0.0
        };
        Ok(out)
    }

    /// Why `r` (named `label`) cannot be merged with `first`, if it cannot: another table,
    /// column or DTO, another shard count, or shards cut differently.
    fn check_mergeable(
        (first_label, first): (&str, &ScanReport),
        (label, r): (&str, &ScanReport),
    ) -> Result<(), MergeError> {
        let shard_of = |r: &ScanReport| {
            r.shard
                .map_or_else(|| "unsharded".to_owned(), |[k, n]| format!("shard {k}/{n}"))
        };
        let slicing = |r: &ScanReport| {
            format!(
                "{}, {}, {}",
                r.key_column.as_deref().map_or_else(
                    || "no --key (heap blocks)".to_owned(),
                    |k| format!("--key {k}")
                ),
                r.where_fingerprint
                    .as_deref()
                    .map_or_else(|| "no --where".to_owned(), |w| format!("--where #{w}")),
                r.limit
                    .map_or_else(|| "no --limit".to_owned(), |l| format!("--limit {l}"))
            )
        };
        if r.table != first.table || r.column != first.column || r.dto != first.dto {
            return Err(MergeError::mismatch(
                Mismatch::Scan,
                format!(
                    "cannot merge {label} (a scan of {}.{} as {}) with {first_label} (a scan of {}.{} as {})",
                    r.table, r.column, r.dto, first.table, first.column, first.dto
                ),
            ));
        }
        if r.paths != first.paths {
            let shown = |r: &ScanReport| {
                if r.paths.is_empty() {
                    "paths not recorded".to_owned()
                } else {
                    format!("paths {}", r.paths.join(","))
                }
            };
            return Err(MergeError::mismatch(
                Mismatch::Scan,
                format!(
                    "cannot merge {label} ({}) with {first_label} ({}): the rows were checked \
                 through different decode paths",
                    shown(r),
                    shown(first)
                ),
            ));
        }
        if r.serde_json_numbers != first.serde_json_numbers {
            return Err(MergeError::mismatch(
                Mismatch::SerdeJsonNumbers,
                format!(
                    "cannot merge {label} (serde_json numbers: {}) with {first_label} (serde_json \
                 numbers: {}): the rows were decoded by differently built programs",
                    r.serde_json_numbers, first.serde_json_numbers
                ),
            ));
        }
        if r.shard.map(|s| s[1]) != first.shard.map(|s| s[1]) {
            return Err(MergeError::mismatch(
                Mismatch::ShardCount,
                format!(
                    "cannot merge {label} ({}) with {first_label} ({}): different shard counts \
                 (or sharded and unsharded)",
                    shard_of(r),
                    shard_of(first)
                ),
            ));
        }
        if r.key_column != first.key_column
            || r.where_fingerprint != first.where_fingerprint
            || r.limit != first.limit
        {
            return Err(MergeError::mismatch(
                Mismatch::Slicing,
                format!(
                    "cannot merge {label} ({}) with {first_label} ({}): the shards were cut \
                 differently, so they need not cover each row once",
                    slicing(r),
                    slicing(first)
                ),
            ));
        }
        Ok(())
    }

    /// A readable multi-line account.
    #[must_use]
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let shard = self
            .shard
            .map(|[k, n]| format!(" (shard {k}/{n})"))
            .unwrap_or_default();
        let ty = self
            .column_type
            .map(|t| format!(" ({t:?})").to_lowercase())
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "scan: {}.{}{ty} as {}{shard}",
            escape(&self.table),
            escape(&self.column),
            escape(&self.dto)
        );
        if !self.paths.is_empty() {
            let _ = writeln!(s, "paths: {}", escape(&self.paths.join(", ")));
        }
        let _ = writeln!(s, "serde_json numbers: {}", self.serde_json_numbers);
        let _ = writeln!(s, "rows_total: {}", self.rows_total);
        let _ = writeln!(s, "rows_read: {}", self.rows_read);
        let _ = writeln!(s, "complete: {}", self.complete);
        let _ = writeln!(s, "divergences: {}", self.divergences);
        let _ = writeln!(
            s,
            "model_checked: {} (rows whose jsonb the model predicted exactly as the server wrote it, or a finding says otherwise)",
            self.model_checked
        );
        let _ = writeln!(
            s,
            "accepted: {} (rows whose findings the DTO or --accept accepts, or that every path rejects alike)",
            self.accepted
        );
        if self.classes.is_empty() {
            let _ = writeln!(s, "classes: none");
        } else {
            let _ = writeln!(s, "classes:");
            for (c, n) in &self.classes {
                let _ = writeln!(s, "  {c}: {n}");
            }
        }
        if !self.examples.is_empty() {
            let _ = writeln!(s, "examples:");
            for e in &self.examples {
                let tag = if e.accepted { " (accepted)" } else { "" };
                // The key is the row's own text (`--key`): escaped so that it cannot
                // forge a line of the report or drive the terminal.
                let _ = writeln!(
                    s,
                    "  - {}{tag} at key {} pointer {}",
                    e.class,
                    escape(&e.key),
                    escape(&format!("{:?}", e.pointer))
                );
                for line in equijson::untrusted::escape_lines(&e.description) {
                    let _ = writeln!(s, "      {line}");
                }
            }
        }
        let _ = writeln!(s, "rows/s: {:.0}", self.rows_per_sec);
        let _ = writeln!(
            s,
            "peak RSS: {:.1} MiB",
            self.peak_rss_bytes as f64 / (1024.0 * 1024.0)
        );
        if let Some(e) = &self.error {
            let _ = writeln!(s, "error: {}", escape(e));
        }
        s
    }
}
