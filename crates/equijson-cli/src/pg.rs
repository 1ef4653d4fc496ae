//! `equijson pg roundtrip|scan` and `equijson demo`: thin shells over `equijson-pg`.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "row counts and rates are shown, not computed on; ids stay far below 2^63"
)]

use std::io::{IsTerminal, Write as _};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use equijson::untrusted::escape;
use equijson_pg::connect::{PgError, SqlState, Target};
use equijson_pg::findings::FindingsSink;
use equijson_pg::live::ScanReport;
use equijson_pg::report_seal;
use equijson_pg::roundtrip::{RoundtripOptions, roundtrip_dto};
use equijson_pg::scan::{ScanOptions, parse_shard, scan_parallel};

use crate::exit::Status;

const PG_HELP: &str = "\
Connection: --database-url URL (postgresql://user@host:port/db or libpq key=value) or
--database-url-file FILE, else EQUIJSON_DATABASE_URL, else DATABASE_URL, else libpq's
environment when PGHOST, PGHOSTADDR, PGDATABASE or PGSERVICE is set, else an ephemeral
cluster (install-sql and uninstall-sql choose the same way but never an ephemeral
cluster: no server given is an error, exit 2). Missing settings come from libpq's environment as in psql: a service file
(service=NAME / PGSERVICE, PGSERVICEFILE or ~/.pg_service.conf, PGSYSCONFDIR), PGHOST,
PGPORT, PGUSER, PGDATABASE, PGPASSWORD, the password file (PGPASSFILE or ~/.pgpass, mode
0600 or it is ignored), PGCONNECT_TIMEOUT, PGAPPNAME. A password written in --database-url
is readable by every local user (ps): equijson warns and moves it out of its arguments;
prefer PGPASSWORD, ~/.pgpass or --database-url-file. The ephemeral cluster: initdb +
pg_ctl from EQUIJSON_PG_BINDIR, else PATH or `pg_config --bindir`, a temporary data
directory, a private unix socket and a free port, run as an unprivileged user when started
as root; removed at exit, on Ctrl-C, and by a watchdog process if equijson is killed.
TLS as libpq: sslmode=disable|allow|prefer (default)|require|verify-ca|verify-full and
sslrootcert=PATH.pem|system in the URL (or PGSSLMODE / PGSSLROOTCERT); verify-* check the
server certificate against sslrootcert (default ~/.postgresql/root.crt). Unix sockets never
use TLS. The server, version and TLS used are printed on stderr. The password is never
printed.

Exit codes:
  0  nothing diverges
  1  something diverges (a finding neither the DTO nor --accept accepts)
  2  usage, connection or server error, or an incomplete scan (complete: false)";

/// Check decode equivalence against live PostgreSQL (round trips, table scans).
#[derive(Args, Debug)]
#[command(after_help = PG_HELP)]
pub(crate) struct PgArgs {
    #[command(subcommand)]
    command: PgCommand,
}

#[derive(Subcommand, Debug)]
enum PgCommand {
    /// Round-trip generated documents through json and jsonb columns of a temporary table.
    Roundtrip(RoundtripArgs),
    /// Stream a json, jsonb or text column of a table and check every row.
    Scan(Box<ScanArgs>),
    /// Install the SQL canonicalizer `equijson_canonical(jsonb)` (RFC 8785, plain SQL) into a schema.
    InstallSql(crate::pg_sql::InstallArgs),
    /// Remove the functions install-sql created.
    UninstallSql(crate::pg_sql::UninstallArgs),
}

#[derive(Args, Debug, Clone)]
pub(crate) struct ConnArgs {
    /// Server to use (else `EQUIJSON_DATABASE_URL`, `DATABASE_URL`, libpq's `PGHOST` /
    /// `PGDATABASE` / `PGSERVICE`, else an ephemeral cluster, except for install-sql and
    /// uninstall-sql). Put no password here: use `PGPASSWORD`, `~/.pgpass` or
    /// `--database-url-file`.
    #[arg(long, value_name = "URL", global = true)]
    pub(crate) database_url: Option<String>,
    /// Read the URL from the first line of FILE (keeps a password off the command line).
    #[arg(long, value_name = "FILE", global = true)]
    pub(crate) database_url_file: Option<std::path::PathBuf>,
}

const ROUNDTRIP_HELP: &str = "\
Each generated document (the same cases as `equijson props` with the same --seed, --cases,
--dto and --size) is sent as a text parameter (jsonb_in/json_in) and as a binary parameter
(jsonb_recv/json_recv) into a session-private temporary table, and read back in binary and
text format. Checked per case:
  1. the jsonb model predicts the server's jsonb text and binary form exactly, and its
     rejections with the SQLSTATE (\\u0000 22P05, lone surrogates 22P02, overflow 22003);
  2. the decode paths of the DTO agree on what the server returns (binary and text);
  3. json comes back verbatim.
The `digest:` line equals the one of `equijson props` for the same arguments.";

#[derive(Args, Debug)]
#[command(after_help = ROUNDTRIP_HELP)]
struct RoundtripArgs {
    #[command(flatten)]
    gen_args: crate::gen_args::GenArgs,
    #[command(flatten)]
    conn: ConnArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Human,
    Json,
}

const SCAN_HELP: &str = "\
Streams the column with binary COPY inside a read-only, repeatable-read transaction that
always ends with ROLLBACK (never the whole table in memory). Per row: the decode paths of the DTO (default `value`):
those it declares, or --paths; for jsonb, the jsonb model against the server's own jsonb
text (only when the jsonb path is checked). One form of a jsonb value is read: its binary
form, which is the server's text behind a version byte. Identifiers are quoted (`--table a.b` is schema a, table
b; a bare name is resolved with your role's default search_path; names over 63 bytes are
refused). Values are redacted in reports unless --show-values.

Every session pins search_path = pg_catalog, pg_temp and row_security = off: no operator
or function another role created runs in it, and a table whose row-level security policy
would apply to you is refused (its policy is the owner's code); so are views and foreign
tables unless --allow-view. --where is vetted by the server before it runs: only
non-volatile functions and operators of pg_catalog, tables and materialized views;
--where-unchecked runs it as written, with all its side effects.

Report fields (--format json uses exactly these names): table, column, column_type, dto,
shard, key_column, where_fingerprint (a hash of --where), limit, rows_total (count at
start), rows_read, complete, divergences, model_checked, accepted, classes, examples
[{class, key, pointer, accepted, description}], rows_per_sec, peak_rss_bytes,
elapsed_secs, error, serde_json_numbers (how this build's serde_json reads numbers, probed
at run time), source (cluster, database, table oid and relfilenode, snapshot, start
time, key-changing settings), digest (sha256, or hmac-sha256 with EQUIJSON_REPORT_KEY).
Duplicate member names in json and text rows are a finding (duplicate-name, with the
pointer of the later member) unless the DTO or --accept duplicate-names accepts them.
complete: true means every row of one snapshot was read exactly once (a scan that reads
another number of rows than it counted, e.g. with a volatile --where, is incomplete).
Shard reports (--shard K/N) add up with `equijson report merge` only when they read one
snapshot: run them with --snapshot ID (from pg_export_snapshot() in a transaction kept
open until every shard started), or on a replica paused at one LSN.
A lost connection, a stopped server or a statement timeout ends the scan with
complete: false and exit 2.
--findings FILE writes every finding (the report keeps 3 examples per class) as JSON Lines,
one object per finding: key (the --key value as text, else `row N`), class, pointer,
description (redacted unless --show-values), accepted. It is streamed (memory does not
grow with the findings); with --jobs the jobs share one writer, each row's lines together.
A write error exits 2.";

#[derive(Args, Debug)]
#[command(after_help = SCAN_HELP)]
struct ScanArgs {
    /// Table (`name` or `schema.name`).
    #[arg(long, value_name = "T")]
    table: String,
    /// Column holding the JSON (json, jsonb or text).
    #[arg(long, value_name = "C")]
    column: String,
    /// Column that names rows in the report (default: row number); --shard hashes it.
    #[arg(long, value_name = "K")]
    key: Option<String>,
    /// The DTO (see `equijson dtos`); default `value`.
    #[arg(long, value_name = "NAME")]
    dto: Option<String>,
    /// Check these decode paths only (comma-separated: dom, direct, borrow, jsonb,
    /// canonical; before, after for a DTO with a refactor) instead of those the DTO
    /// declares: other paths are not run, their findings not reported.
    #[arg(long, value_name = "PATHS", value_delimiter = ',', value_parser = parse_path, conflicts_with = "all_paths")]
    paths: Vec<equijson_check::decode::DecodePath>,
    /// Check every decode path, not only those the DTO declares.
    #[arg(long)]
    all_paths: bool,
    /// Only rows matching this SQL condition (runs in the read-only transaction). Vetted
    /// by the server first: functions and operators must be `pg_catalog`'s and not volatile,
    /// relations tables or materialized views.
    #[arg(long = "where", value_name = "SQL")]
    where_sql: Option<String>,
    /// Run --where without vetting it: the expression is evaluated by your role with all
    /// its side effects (it may call any function you may call).
    #[arg(long, requires = "where_sql")]
    where_unchecked: bool,
    /// Scan a view or a foreign table (its definition runs its owner's code as your role).
    #[arg(long)]
    allow_view: bool,
    /// At most N rows (per shard with --shard; not with --jobs above 1).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Scan slice K of N (by key hash, else heap block); N shards cover every row once.
    /// `auto`: K from `JOB_COMPLETION_INDEX` (0-based, a Kubernetes Indexed Job), N from
    /// `EQUIJSON_SHARD_COUNT`.
    #[arg(long, value_name = "K/N|auto", value_parser = parse_shard_arg)]
    shard: Option<ShardArg>,
    /// Read this exported snapshot (`SELECT pg_export_snapshot()` in a transaction kept
    /// open meanwhile) instead of a fresh one: shards run apart then merge as one snapshot.
    #[arg(long, value_name = "ID")]
    snapshot: Option<String>,
    /// Connections to scan with in parallel (each a sub-shard).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// Report format: human (a progress bar with rate and ETA on a terminal) or json.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Show row values in examples (default: kinds and lengths only).
    #[arg(long)]
    show_values: bool,
    /// Write every finding (not only the report's examples) to FILE as JSON Lines:
    /// {"key","class","pointer","description","accepted"} per finding, streamed.
    #[arg(long, value_name = "FILE")]
    findings: Option<std::path::PathBuf>,
    /// Declare these findings acceptable too (repeatable or comma-separated).
    #[arg(long, value_enum, value_name = "CLASS", value_delimiter = ',')]
    accept: Vec<crate::accept::Acceptable>,
    #[command(flatten)]
    conn: ConnArgs,
    /// Also compare `SCHEMA.equijson_canonical(jsonb)` (see `pg install-sql`) with the Rust
    /// core on every row, as the report class `sql-canonical`.
    #[arg(long, value_name = "SCHEMA", num_args = 0..=1, default_missing_value = "public")]
    sql_canonical: Option<String>,
}

/// Runs `equijson pg ...`.
pub(crate) fn run(args: &PgArgs, ctx: &crate::Ctx) -> Status {
    match &args.command {
        PgCommand::Roundtrip(a) => run_roundtrip(a, ctx),
        PgCommand::Scan(a) => run_scan(a, ctx),
        PgCommand::InstallSql(a) => crate::pg_sql::run_install(a),
        PgCommand::UninstallSql(a) => crate::pg_sql::run_uninstall(a),
    }
}

/// Connects as asked and prints which server is used; `None` (after a message) on failure.
pub(crate) fn open_target(url: Option<&str>) -> Result<Target, Status> {
    let target = Target::from_url_or_env(url).map_err(|e| fail(&e))?;
    for w in target.warnings() {
        eprintln!("{}: warning: {}", crate::messages::bin(), escape(w));
    }
    let mut client = target.connect().map_err(|e| fail(&e))?;
    equijson_pg::session::pin(&mut client).map_err(|e| fail(&e))?;
    let version = client
        .query_one("SELECT pg_catalog.current_setting('server_version')", &[])
        .map_or_else(|_| "unknown".to_owned(), |r| r.get::<_, String>(0));
    match target.cluster() {
        Some(c) => eprintln!(
            "{}: server: {} (server_version {})",
            crate::messages::bin(),
            c.describe(),
            escape(&version)
        ),
        None => eprintln!(
            "{}: server: {} (PostgreSQL {}; {}, sslmode={})",
            crate::messages::bin(),
            escape(&target.describe()),
            escape(&version),
            escape(&equijson_pg::connect::tls_summary(&mut client)),
            target.config().tls().mode.name()
        ),
    }
    Ok(target)
}

fn fail(e: &PgError) -> Status {
    // A Ctrl-C / SIGTERM is stopping the ephemeral server: that, not this error, is the outcome.
    equijson_pg::cluster::wait_for_signal_exit();
    eprintln!("{}: error: {}", crate::messages::bin(), shown_error(e));
    Status::Environment
}

/// An error as shown on stderr. Server messages and names are someone else's text: escaped
/// (no forged lines, no terminal escapes). Only the ephemeral cluster's own tool output
/// (`initdb`, `pg_ctl`, its server log) keeps its lines, each indented under the first.
/// The server's SQLSTATE, when the error has one, ends the line as `(SQLSTATE 42P01)`.
fn shown_error(e: &PgError) -> String {
    let mut text = e.to_string();
    if let Some(code) = e.sqlstate().map(SqlState::code)
        && !text.contains(code)
    {
        text = format!("{text} (SQLSTATE {code})");
    }
    if matches!(e, PgError::Cluster(_)) {
        equijson::untrusted::escape_lines(&text).join("\n  ")
    } else {
        escape(&text).into_owned()
    }
}

fn run_roundtrip(a: &RoundtripArgs, ctx: &crate::Ctx) -> Status {
    let g = &a.gen_args;
    let spec = match ctx.dtos.resolve(g.dto.as_deref(), &ctx.bin) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let target = match open_target(a.conn.database_url.as_deref()) {
        Ok(t) => t,
        Err(s) => return s,
    };
    let mut client = match target.connect() {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let tty = std::io::stderr().is_terminal();
    let started = Instant::now();
    let opts = RoundtripOptions {
        seed: g.seed(),
        cases: g.cases,
        size: usize::from(g.size),
    };
    let result = roundtrip_dto(&mut client, spec, opts, &mut |done, failed| {
        if tty && done % 25 == 0 {
            eprint!("\r{done}/{} cases, {failed} failed", g.cases);
        }
    });
    if tty && started.elapsed().as_millis() > 0 {
        eprint!("\r\x1b[K");
    }
    match result {
        Ok(r) => {
            // A failed case, or a run whose every case no decode path accepted (it
            // checked nothing): exit 1, the latter with the reason on stderr.
            let status = match r.judge() {
                Ok(()) => Status::Success,
                Err(m) => {
                    if r.failed == 0 {
                        eprintln!("{}", escape(&crate::messages::renamed(&m.to_string())));
                    }
                    Status::Invalid
                }
            };
            crate::messages::emit(&r.render(), status)
        }
        Err(e) => fail(&e),
    }
}

fn run_scan(a: &ScanArgs, ctx: &crate::Ctx) -> Status {
    let spec = match ctx.dtos.resolve(a.dto.as_deref(), &ctx.bin) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let target = match open_target(a.conn.database_url.as_deref()) {
        Ok(t) => t,
        Err(s) => return s,
    };
    let shard = match a.shard.map(ShardArg::resolve).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: error: {e}", crate::messages::bin());
            return Status::Environment;
        }
    };
    let findings = match a.findings.as_deref().map(FindingsSink::create).transpose() {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "{}: error: {}",
                crate::messages::bin(),
                escape(&e.to_string())
            );
            return Status::Environment;
        }
    };
    let opts = ScanOptions {
        table: a.table.clone(),
        column: a.column.clone(),
        key: a.key.clone(),
        where_sql: a.where_sql.clone(),
        limit: a.limit,
        shard,
        show_values: a.show_values,
        threads: 0,
        snapshot: a.snapshot.clone(),
        where_unchecked: a.where_unchecked,
        allow_view: a.allow_view,
        findings: findings.clone(),
        paths: match scan_paths(spec, a) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("equijson: error: {e}");
                return Status::Environment;
            }
        },
    };
    let bar = Progress::new(a.format == Format::Human && std::io::stderr().is_terminal());
    let paths = opts.paths.as_slice();
    let check = |b: &equijson_check::decode::Input<'_>| {
        crate::accept::apply((spec.check_paths)(b, paths), &a.accept)
    };
    let result = scan_parallel(
        target.config(),
        &opts,
        a.jobs,
        spec.name,
        &check,
        &|r, t| bar.show(r, t),
    );
    bar.finish();
    if let Some(Err(e)) = findings.as_ref().map(FindingsSink::finish) {
        eprintln!(
            "{}: error: {}",
            crate::messages::bin(),
            escape(&e.to_string())
        );
        return Status::Environment;
    }
    let result = result.and_then(|mut report| {
        if let Some(schema) = &a.sql_canonical {
            if a.format == Format::Human {
                eprintln!(
                    "{}: comparing {schema}.equijson_canonical with the Rust core on every row",
                    crate::messages::bin()
                );
            }
            equijson_pg::sql_scan::compare(target.config(), &opts, schema, &mut report)?;
        }
        Ok(report)
    });
    match result {
        Ok(report) => emit_scan(&report, a.format),
        Err(e) => fail(&e),
    }
}

/// A decode path by its name (`--paths`).
fn parse_path(s: &str) -> Result<equijson_check::decode::DecodePath, String> {
    equijson_check::decode::parse_paths(s)?
        .first()
        .copied()
        .ok_or_else(|| "no decode path named".to_owned())
}

/// The paths a scan checks: `--paths`, `--all-paths` (every built-in path, and the DTO's
/// own functions), else those the DTO declares; in report order.
fn scan_paths(
    spec: &equijson_check::dto::DtoSpec,
    a: &ScanArgs,
) -> Result<Vec<equijson_check::decode::DecodePath>, String> {
    use equijson_check::decode::DecodePath;
    let functions = [DecodePath::Before, DecodePath::After];
    let mut paths: Vec<DecodePath> = if a.all_paths {
        DecodePath::ALL
            .into_iter()
            .chain(functions.into_iter().filter(|p| spec.paths.contains(p)))
            .collect()
    } else if a.paths.is_empty() {
        spec.paths.to_vec()
    } else {
        a.paths.clone()
    };
    if let Some(p) = paths
        .iter()
        .find(|p| functions.contains(p) && !spec.paths.contains(p))
    {
        return Err(format!(
            "--paths {p}: the DTO {} declares no decode functions of its own (Dto::refactor)",
            spec.name
        ));
    }
    paths.sort_unstable();
    paths.dedup();
    Ok(paths)
}

/// Prints a scan report; exit 2 when incomplete, 1 when divergent. A JSON report carries
/// its digest (keyed with `EQUIJSON_REPORT_KEY` when that is set).
pub(crate) fn emit_scan(report: &ScanReport, format: Format) -> Status {
    if !report.complete {
        equijson_pg::cluster::wait_for_signal_exit();
    }
    let status = scan_status(report);
    let mut report = report.clone();
    if let Err(e) = report_seal::seal(&mut report, report_seal::key_from_env().as_deref()) {
        eprintln!("{}: error: {e}", crate::messages::bin());
        return Status::Environment;
    }
    let report = &report;
    let text = match format {
        Format::Human => report.render(),
        Format::Json => match serde_json::to_string_pretty(report) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("{}: error: {e}", crate::messages::bin());
                return Status::Environment;
            }
        },
    };
    if let Some(e) = &report.error {
        eprintln!(
            "{}: error: scan incomplete: {}",
            crate::messages::bin(),
            escape(e)
        );
    }
    crate::messages::emit(&text, status)
}

pub(crate) fn scan_status(report: &ScanReport) -> Status {
    if !report.complete {
        Status::Environment
    } else if report.is_divergent() {
        Status::Invalid
    } else {
        Status::Success
    }
}

/// A progress bar with rate and ETA on a terminal; silent otherwise.
struct Progress {
    on: bool,
    started: Instant,
    last: std::sync::Mutex<Instant>,
}

impl Progress {
    fn new(on: bool) -> Self {
        Self {
            on,
            started: Instant::now(),
            last: std::sync::Mutex::new(Instant::now()),
        }
    }

    fn show(&self, rows: u64, total: u64) {
        if !self.on {
            return;
        }
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if last.elapsed().as_millis() < 200 {
            return;
        }
        *last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = rows as f64 / secs;
        let frac = if total > 0 {
            (rows as f64 / total as f64).min(1.0)
        } else {
            0.0
        };
        let filled = (frac * 30.0) as usize;
        let eta = if rate > 0.0 && total > rows {
            (total - rows) as f64 / rate
        } else {
            0.0
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}{}] {:>3.0}% {rows}/{total} rows  {rate:.0} rows/s  ETA {eta:.0}s\x1b[K",
            "#".repeat(filled),
            ".".repeat(30 - filled),
            frac * 100.0
        );
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.on {
            eprint!("\r\x1b[K");
        }
    }
}

/// Runs `equijson demo`.
pub(crate) fn run_demo() -> Status {
    let mut out = std::io::stdout().lock();
    match equijson_pg::demo::run(&mut out) {
        Ok(true) => Status::Success,
        Ok(false) => Status::Invalid,
        Err(e) => fail(&e),
    }
}

/// `--shard`: `K/N`, or `auto` (from the environment of a Kubernetes Indexed Job).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShardArg {
    Fixed(u32, u32),
    Auto,
}

/// The 0-based shard index of a Kubernetes Indexed Job.
pub(crate) const SHARD_INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
/// The number of shards, for `--shard auto` (set it to the Job's `completions`).
pub(crate) const SHARD_COUNT_ENV: &str = "EQUIJSON_SHARD_COUNT";

fn parse_shard_arg(s: &str) -> Result<ShardArg, String> {
    if s.trim() == "auto" {
        return Ok(ShardArg::Auto);
    }
    parse_shard(s)
        .map(|(k, n)| ShardArg::Fixed(k, n))
        .map_err(|e| e.to_string())
}

impl ShardArg {
    fn resolve(self) -> Result<(u32, u32), String> {
        match self {
            Self::Fixed(k, n) => Ok((k, n)),
            Self::Auto => shard_from(
                std::env::var(SHARD_INDEX_ENV).ok().as_deref(),
                std::env::var(SHARD_COUNT_ENV).ok().as_deref(),
            ),
        }
    }
}

/// `--shard auto`: shard `index + 1` of `count`.
fn shard_from(index: Option<&str>, count: Option<&str>) -> Result<(u32, u32), String> {
    let index = index.filter(|s| !s.trim().is_empty()).ok_or_else(|| {
        format!(
            "--shard auto: {SHARD_INDEX_ENV} is not set (Kubernetes sets it in the pods of an \
             Indexed Job, 0-based; elsewhere give --shard K/N)"
        )
    })?;
    let count = count.filter(|s| !s.trim().is_empty()).ok_or_else(|| {
        format!(
            "--shard auto: {SHARD_COUNT_ENV} is not set (set it to the Job's completions, \
             the number of shards)"
        )
    })?;
    let index: u32 = index
        .trim()
        .parse()
        .map_err(|_| format!("--shard auto: {SHARD_INDEX_ENV}={index:?} is not a number from 0"))?;
    let count: u32 = count
        .trim()
        .parse()
        .map_err(|_| format!("--shard auto: {SHARD_COUNT_ENV}={count:?} is not a number from 1"))?;
    if count == 0 || index >= count {
        return Err(format!(
            "--shard auto: {SHARD_INDEX_ENV}={index} is not below {SHARD_COUNT_ENV}={count}"
        ));
    }
    Ok((index + 1, count))
}

#[cfg(test)]
mod tests {
    use super::shard_from;

    /// `JOB_COMPLETION_INDEX`, `EQUIJSON_SHARD_COUNT`, `Ok((k, n))` or a word of the error.
    type Row = (
        Option<&'static str>,
        Option<&'static str>,
        Result<(u32, u32), &'static str>,
    );

    #[test]
    fn auto_shard_reads_the_index_and_count_or_says_what_is_missing() {
        let table: &[Row] = &[
            (Some("0"), Some("3"), Ok((1, 3))),
            (Some("2"), Some("3"), Ok((3, 3))),
            (Some(" 1 "), Some("2"), Ok((2, 2))),
            (Some("3"), Some("3"), Err("not below")),
            (Some("0"), Some("0"), Err("not below")),
            (None, Some("3"), Err("JOB_COMPLETION_INDEX is not set")),
            (Some(""), Some("3"), Err("JOB_COMPLETION_INDEX is not set")),
            (Some("0"), None, Err("EQUIJSON_SHARD_COUNT is not set")),
            (Some("-1"), Some("3"), Err("not a number")),
            (Some("0"), Some("x"), Err("not a number")),
        ];
        for (index, count, want) in table {
            let got = shard_from(*index, *count);
            match want {
                Ok(w) => assert_eq!(got.as_ref(), Ok(w), "{index:?} {count:?}"),
                Err(word) => assert!(
                    got.as_ref().is_err_and(|e| e.contains(word)),
                    "{index:?} {count:?}: {got:?}"
                ),
            }
        }
    }
}
