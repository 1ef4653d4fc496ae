//! `pg roundtrip`: generated documents through json and jsonb columns of a temporary table and back.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "row counts and rates are shown, not computed on; ids stay far below 2^63"
)]

use std::collections::BTreeMap;

use crate::live::{self, Example, LiveClass, LiveFinding, ServerJsonb};
use equijson_check::decode::Report;
use equijson_check::decode::Verdict;
use equijson_check::dto::{Dto, DtoSpec};
use equijson_check::generate::Style;
use equijson_check::jsonb::JsonbOptions;
use equijson_check::props::{CaseDigest, PropsConfig};
use postgres::Client;
use serde::Serialize;

use crate::connect::{PgError, classify, server_major};
use crate::wire::{JsonParam, Raw};

/// The temporary table (session-private; every statement names it `pg_temp.`, so a user
/// table of the same name is never touched, whatever `search_path` says).
pub const CREATE_TABLE: &str = "CREATE TEMPORARY TABLE IF NOT EXISTS equijson_roundtrip \
     (id bigint PRIMARY KEY, json_text json, jsonb_text jsonb, json_binary json, jsonb_binary jsonb)";
const INSERT: &str = "INSERT INTO pg_temp.equijson_roundtrip (id) VALUES ($1)";
const SET_JSON_TEXT: &str =
    "UPDATE pg_temp.equijson_roundtrip SET json_text = $2::text::json WHERE id = $1";
const SET_JSONB_TEXT: &str =
    "UPDATE pg_temp.equijson_roundtrip SET jsonb_text = $2::text::jsonb WHERE id = $1";
const SET_JSON_BINARY: &str =
    "UPDATE pg_temp.equijson_roundtrip SET json_binary = $2 WHERE id = $1";
const SET_JSONB_BINARY: &str =
    "UPDATE pg_temp.equijson_roundtrip SET jsonb_binary = $2 WHERE id = $1";
const SELECT: &str = "SELECT json_text, jsonb_text, json_binary, jsonb_binary FROM pg_temp.equijson_roundtrip WHERE id = $1";

/// The outcome of a round trip run.
#[derive(Debug, Clone, Serialize)]
pub struct RoundtripReport {
    /// The DTO.
    pub dto: String,
    /// The seed.
    pub seed: u64,
    /// Cases run.
    pub cases: u64,
    /// Cases with no finding the DTO does not declare.
    pub passed: u64,
    /// Passed cases that every decode path rejected as sent (before the server saw them):
    /// they check nothing about decoding. [`RoundtripReport::judge`] fails a run where this
    /// equals `cases`.
    pub rejected: u64,
    /// Cases with at least one.
    pub failed: u64,
    /// Cases the server and the model both rejected for jsonb, by SQLSTATE.
    pub rejections: BTreeMap<String, u64>,
    /// Findings per class.
    pub classes: BTreeMap<LiveClass, u64>,
    /// The first few findings per class (key: the case number).
    pub examples: Vec<Example>,
    /// Same as `equijson props` for the same seed, cases, DTO and size.
    pub digest: String,
    /// How the decode paths' `serde_json` read numbers (probed at run time; see
    /// [`equijson_check::decode::SerdeJsonNumbers`]).
    pub serde_json_numbers: String,
}

/// Round trip options.
#[derive(Debug, Clone, Copy)]
pub struct RoundtripOptions {
    /// Seed of the generator (as `equijson props --seed`).
    pub seed: u64,
    /// Number of cases.
    pub cases: u64,
    /// Generator size parameter (as `equijson props --size`).
    pub size: usize,
}

/// Runs the round trip for a catalogue DTO (its own generator and accepted findings).
///
/// # Errors
/// [`PgError`] when the server cannot be used (not for rejected values: those are checked).
pub fn roundtrip_dto(
    client: &mut Client,
    spec: &'static DtoSpec,
    opts: RoundtripOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<RoundtripReport, PgError> {
    let mut cfg = PropsConfig::new(opts.seed, opts.cases, Some(spec));
    cfg.size = opts.size;
    run(client, &cfg, spec.name, &|b| (spec.check)(b), progress)
}

/// Runs the round trip for your DTO `T`: documents from `T`'s generator
/// ([`Dto::generate`]: its traced shape and examples, or your own), checked through the
/// paths `T` declares with its accepted findings. The cases and the digest are those of
/// `equijson_check::props::run_dto::<T>` for the same seed, cases and size.
///
/// Hold the outcome to [`RoundtripReport::judge`]: a run whose every case no decode path
/// accepts checked nothing, and `judge` says so.
///
/// # Errors
/// [`PgError`] when the server cannot be used.
pub fn roundtrip<T: Dto>(
    client: &mut Client,
    opts: RoundtripOptions,
) -> Result<RoundtripReport, PgError> {
    roundtrip_dto(
        client,
        equijson_check::dto::spec::<T>(),
        opts,
        &mut |_, _| {},
    )
}

fn run(
    client: &mut Client,
    cfg: &PropsConfig,
    dto: &str,
    check: &dyn Fn(&[u8]) -> Report,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<RoundtripReport, PgError> {
    let mut session = Session::new(client)?;
    let mut report = RoundtripReport {
        dto: dto.to_owned(),
        seed: cfg.seed,
        cases: cfg.cases,
        passed: 0,
        rejected: 0,
        failed: 0,
        rejections: BTreeMap::new(),
        classes: BTreeMap::new(),
        examples: Vec::new(),
        digest: String::new(),
        serde_json_numbers: equijson_check::decode::serde_json_numbers().describe(),
    };
    let mut digest = CaseDigest::new();
    for i in 0..cfg.cases {
        let (tree, style) = equijson_check::props::case(cfg, i);
        let text = tree.render(Style::Seeded(style));
        digest.add(text.as_bytes());
        let outcome = session.check_text(text.as_bytes(), check)?;
        if let Some(code) = outcome.rejected {
            *report.rejections.entry(code).or_insert(0) += 1;
        }
        if outcome.findings.iter().any(|f| !f.accepted) {
            report.failed += 1;
        } else {
            report.passed += 1;
            // As `props` counts them: the document as generated, no path decoding it.
            if check(text.as_bytes()).verdict() == Verdict::Rejected {
                report.rejected += 1;
            }
        }
        for f in outcome.findings {
            *report.classes.entry(f.class).or_insert(0) += 1;
            let same = report
                .examples
                .iter()
                .filter(|e| e.class == f.class && e.accepted == f.accepted)
                .count();
            if same < live::EXAMPLES_PER_CLASS {
                report.examples.push(Example {
                    class: f.class,
                    key: format!("case {i}"),
                    pointer: f.pointer,
                    accepted: f.accepted,
                    description: f.description,
                });
            }
        }
        progress(i + 1, report.failed);
    }
    report.digest = digest.finish();
    Ok(report)
}

/// What one value did on its way through the server.
#[derive(Debug, Clone)]
pub struct ValueOutcome {
    /// Everything found (model misses, decode findings, json not verbatim).
    pub findings: Vec<LiveFinding>,
    /// The SQLSTATE with which the server rejected it as jsonb (text input), if it did.
    pub rejected: Option<String>,
}

/// A connection with the temporary table and prepared statements of a round trip.
pub struct Session<'c> {
    client: &'c mut Client,
    stmts: Vec<postgres::Statement>,
    next_id: i64,
    /// The caller's session settings, put back when the session ends.
    saved: crate::session::Saved,
    /// The jsonb model, following the server's major version.
    model: JsonbOptions,
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // Best effort: a connection that broke has no settings left to put back.
        let _ = self.saved.restore(self.client);
    }
}

impl<'c> Session<'c> {
    /// Pins the session ([`crate::session::pin`]: `search_path = pg_catalog, pg_temp`,
    /// put back as it was when the session is dropped), creates (or empties) the
    /// temporary table and prepares the statements.
    ///
    /// # Errors
    /// [`PgError`] when the server cannot be used.
    pub fn new(client: &'c mut Client) -> Result<Self, PgError> {
        let saved = crate::session::pin_saving(client)?;
        match Self::prepare(client) {
            Ok((stmts, model)) => Ok(Self {
                client,
                stmts,
                next_id: 0,
                saved,
                model,
            }),
            Err(e) => {
                let _ = saved.restore(client);
                Err(e)
            }
        }
    }

    /// The temporary table, the prepared statements and the model for this server.
    fn prepare(client: &mut Client) -> Result<(Vec<postgres::Statement>, JsonbOptions), PgError> {
        client
            .batch_execute(CREATE_TABLE)
            .map_err(|e| classify(&e, None))?;
        client
            .batch_execute("TRUNCATE pg_temp.equijson_roundtrip")
            .map_err(|e| classify(&e, None))?;
        let stmts = [
            INSERT,
            SET_JSON_TEXT,
            SET_JSONB_TEXT,
            SET_JSON_BINARY,
            SET_JSONB_BINARY,
            SELECT,
        ]
        .iter()
        .map(|q| client.prepare(q))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| classify(&e, None))?;
        // The model's nesting limit follows the server's stack (`max_stack_depth`, in kB).
        let stack_kb: String = client
            .query_one(
                "SELECT setting FROM pg_catalog.pg_settings \
                 WHERE name OPERATOR(pg_catalog.=) 'max_stack_depth'",
                &[],
            )
            .map_err(|e| classify(&e, None))?
            .get(0);
        let mut model = JsonbOptions::default().pg_major(server_major(client)?);
        if let Ok(kb) = stack_kb.trim().parse::<u64>() {
            model = model.max_stack_depth_kb(kb);
        }
        Ok((stmts, model))
    }

    /// Stores one value into json and jsonb through text and binary parameters, reads it
    /// back in binary and text format and checks it (model, decode paths, json verbatim).
    ///
    /// # Errors
    /// [`PgError`] when the server cannot be used (a rejected value is an outcome, not an error).
    #[allow(
        clippy::too_many_lines,
        reason = "the three checks in sequence read best top to bottom"
    )]
    pub fn check_text(
        &mut self,
        input: &[u8],
        check: &dyn Fn(&[u8]) -> Report,
    ) -> Result<ValueOutcome, PgError> {
        let id = self.next_id;
        self.next_id += 1;
        let text = String::from_utf8_lossy(input).into_owned();
        self.client
            .execute(&self.stmts[0], &[&id])
            .map_err(|e| classify(&e, None))?;
        let rejected = [
            self.store(1, id, &text.as_str())?,
            self.store(2, id, &text.as_str())?,
            self.store(3, id, &JsonParam(input))?,
            self.store(4, id, &JsonParam(input))?,
        ];
        let row = self
            .client
            .query_one(&self.stmts[5], &[&id])
            .map_err(|e| classify(&e, None))?;
        let binary: Vec<Option<Raw>> = (0..4)
            .map(|c| row.try_get::<_, Option<Raw>>(c))
            .collect::<Result<_, _>>()
            .map_err(|e| classify(&e, None))?;
        let text_rows = self
            .client
            .simple_query(&format!(
                "SELECT json_text, jsonb_text, json_binary, jsonb_binary FROM pg_temp.equijson_roundtrip WHERE id = {id}"
            ))
            .map_err(|e| classify(&e, None))?;
        let text_row = text_rows.iter().find_map(|m| match m {
            postgres::SimpleQueryMessage::Row(r) => Some(r),
            _ => None,
        });
        let text_col = |c: usize| {
            text_row
                .and_then(|r| r.get(c))
                .map(|s| s.as_bytes().to_vec())
        };
        let mut findings: Vec<LiveFinding> = Vec::new();
        // 1. jsonb: model vs server, for the text and the binary parameter.
        for (col, via) in [(1usize, "text"), (3, "binary")] {
            let server = match (&rejected[col], &binary[col], text_col(col)) {
                (Some((code, message)), _, _) => ServerJsonb::Rejected {
                    code: code.clone(),
                    message: message.clone(),
                },
                (None, Some(b), Some(t)) => ServerJsonb::Stored {
                    binary: b.0.clone(),
                    text: t,
                },
                _ => ServerJsonb::Rejected {
                    code: "(null)".into(),
                    message: "stored value read back as NULL".into(),
                },
            };
            findings.extend(live::compare_jsonb_with(input, via, &server, &self.model));
            if let ServerJsonb::Stored { binary, text } = &server {
                // 2. The decode paths agree on what the server returns, binary and text.
                for (form, bytes) in [
                    ("binary", equijson_check::jsonb::wire_text(binary).ok()),
                    ("text", Some(text.as_slice())),
                ] {
                    if let Some(b) = bytes {
                        for mut f in live::decode_findings(&check(b), live::Describe::Values) {
                            f.description = format!(
                                "server's jsonb {form} result of a {via} parameter:\n{}",
                                f.description
                            );
                            findings.push(f);
                        }
                    }
                }
            }
        }
        // 3. json comes back verbatim (when the server takes it: json rejects only syntax).
        for (col, via) in [
            (0usize, "json via text parameter"),
            (2, "json via binary parameter"),
        ] {
            match (&rejected[col], &binary[col]) {
                (None, Some(b)) => {
                    findings.extend(live::compare_json(
                        input,
                        &format!("{via}, binary result"),
                        &b.0,
                    ));
                    if let Some(t) = text_col(col) {
                        findings.extend(live::compare_json(
                            input,
                            &format!("{via}, text result"),
                            &t,
                        ));
                    }
                }
                (Some((code, message)), _)
                    if equijson_check::jsonb::normalize(
                        input,
                        &equijson_check::jsonb::JsonbOptions::default(),
                    )
                    .is_ok() =>
                {
                    findings.push(LiveFinding {
                        class: LiveClass::JsonRejected,
                        accepted: false,
                        pointer: String::new(),
                        description: format!("{via}: json rejects {text:?} ({code} {message}) though jsonb accepts it"),
                    });
                }
                _ => {}
            }
        }
        Ok(ValueOutcome {
            findings,
            rejected: rejected[1].as_ref().map(|(c, _)| c.clone()),
        })
    }

    fn store(
        &mut self,
        stmt: usize,
        id: i64,
        param: &(dyn postgres::types::ToSql + Sync),
    ) -> Result<Option<(String, String)>, PgError> {
        match self.client.execute(&self.stmts[stmt], &[&id, param]) {
            Ok(_) => Ok(None),
            Err(e) => match e.as_db_error() {
                // Data errors (22xxx) and limits (54xxx) are the value's; anything else is the server's.
                Some(db)
                    if db.code().code().starts_with("22") || db.code().code().starts_with("54") =>
                {
                    Ok(Some((db.code().code().to_owned(), db.message().to_owned())))
                }
                _ => Err(classify(&e, None)),
            },
        }
    }
}

/// Why a round-trip run failed ([`RoundtripReport::judge`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundtripFailure {
    /// Cases failed.
    #[error("equijson: {dto}: {failed} of {cases} round-trip cases failed (seed {seed:#x})")]
    CasesFailed {
        /// The DTO.
        dto: String,
        /// Cases that failed.
        failed: u64,
        /// Cases run.
        cases: u64,
        /// The run's seed.
        seed: u64,
    },
    /// Every case was rejected by every decode path: nothing was checked (`message`:
    /// [`equijson_check::props::nothing_checked`]'s).
    #[error("{message} (round trip, seed {seed:#x})")]
    NothingChecked {
        /// What the shared rule says.
        message: String,
        /// The run's seed.
        seed: u64,
    },
}

impl RoundtripReport {
    /// `Ok` for a run that passed and checked something; the failure otherwise: how many
    /// cases failed, or ([`equijson_check::props::nothing_checked`], the rule of
    /// `props::judge`) that every case was rejected by every decode path.
    ///
    /// # Errors
    /// [`RoundtripFailure`], as above.
    pub fn judge(&self) -> Result<(), RoundtripFailure> {
        if self.failed > 0 {
            return Err(RoundtripFailure::CasesFailed {
                dto: self.dto.clone(),
                failed: self.failed,
                cases: self.cases,
                seed: self.seed,
            });
        }
        equijson_check::props::nothing_checked(&self.dto, self.cases, self.rejected).map_or(
            Ok(()),
            |message| {
                Err(RoundtripFailure::NothingChecked {
                    message,
                    seed: self.seed,
                })
            },
        )
    }

    /// A readable account; the `digest:` line matches `equijson props`.
    #[must_use]
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(s, "dto: {}", self.dto);
        let _ = writeln!(s, "serde_json numbers: {}", self.serde_json_numbers);
        let _ = writeln!(s, "seed: {}", self.seed);
        let _ = writeln!(s, "cases: {}", self.cases);
        let _ = writeln!(s, "passed: {}", self.passed);
        let _ = writeln!(s, "rejected: {}", self.rejected);
        let _ = writeln!(s, "failed: {}", self.failed);
        let rej: Vec<String> = self
            .rejections
            .iter()
            .map(|(c, n)| format!("{}: {n}", equijson::untrusted::escape(c)))
            .collect();
        let _ = writeln!(
            s,
            "jsonb rejections (server and model agree): {}",
            if rej.is_empty() {
                "none".to_owned()
            } else {
                rej.join(", ")
            }
        );
        if self.classes.is_empty() {
            let _ = writeln!(s, "classes: none");
        } else {
            let _ = writeln!(s, "classes:");
            for (c, n) in &self.classes {
                let _ = writeln!(s, "  {c}: {n}");
            }
        }
        for e in self.examples.iter().filter(|e| !e.accepted) {
            let _ = writeln!(s, "  - {} at {} pointer {:?}", e.class, e.key, e.pointer);
            for line in equijson::untrusted::escape_lines(&e.description) {
                let _ = writeln!(s, "      {line}");
            }
        }
        let _ = writeln!(s, "digest: {}", self.digest);
        s
    }
}
