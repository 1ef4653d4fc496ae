//! `pg scan`: stream a column of a live table through binary COPY in a read-only transaction and check every row.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    reason = "row counts and rates are shown, not computed on; ids stay far below 2^63"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufReader, Read};
use std::ops::Range;
use std::sync::{Condvar, Mutex, mpsc};
use std::time::Instant;

use crate::findings::FindingsSink;
use crate::live::{self, CheckedRow, ColumnKind, LiveClass, ScanReport};
use equijson_check::decode::{DecodePath, Input, Report};
use postgres::Client;

use crate::connect::{ConnectConfig, PgError, classify, connect};

/// Opens the read-only, repeatable-read transaction the whole scan runs in (the count at
/// start and the rows streamed see one snapshot). READ ONLY does not stop everything a
/// `--where` could call (another connection, a program, a signal): that is why it is
/// vetted first ([`vet_where`]).
pub const BEGIN: &str = "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY";
/// Ends that transaction: always rolled back, so that nothing a `--where` expression did
/// that READ ONLY does not forbid (`lo_create()`, for one) is kept.
pub const END: &str = "ROLLBACK";
/// The type of a column, or no row when it does not exist: for a domain, the type it is
/// over (its values travel in that type's format). `$1`: the table's oid.
pub const COLUMN_TYPE: &str = "WITH RECURSIVE ty(oid, base) AS (\
     SELECT t.oid, t.typbasetype FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t \
     ON t.oid OPERATOR(pg_catalog.=) a.atttypid \
     WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2::pg_catalog.name \
     AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped \
     UNION ALL SELECT t.oid, t.typbasetype FROM ty JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) ty.base) \
     SELECT pg_catalog.format_type(oid, NULL) FROM ty WHERE base OPERATOR(pg_catalog.=) 0::pg_catalog.oid";

/// What to scan.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// Table name, optionally `schema.table` (each part quoted as an identifier; a name
    /// containing `.` must be given with its schema).
    pub table: String,
    /// Column holding the JSON (json, jsonb or text).
    pub column: String,
    /// Column naming each row in reports (any type, shown as text); else the row number.
    pub key: Option<String>,
    /// A filter (`--where`), run inside the read-only transaction, after the server
    /// vetted it ([`vet_where`]) unless `where_unchecked`. The session's `search_path` is
    /// `pg_catalog, pg_temp`: name your own functions with their schema.
    pub where_sql: Option<String>,
    /// At most this many rows.
    pub limit: Option<u64>,
    /// Shard `(k, n)`, 1-based: rows whose key hash (or, without a key, heap block number)
    /// is `k - 1` modulo `n` (rows with a NULL key are in shard 1). Shards `1..=n` cover
    /// every row exactly once.
    pub shard: Option<(u32, u32)>,
    /// Show values in findings (default: redacted to kinds and lengths).
    pub show_values: bool,
    /// Threads checking rows while the connection streams them (0: one per core).
    pub threads: usize,
    /// A snapshot exported by another transaction on the same server
    /// (`pg_export_snapshot()`), read instead of a fresh one, so that several scans see
    /// exactly the same data. `scan_parallel` sets it for its connections.
    pub snapshot: Option<String>,
    /// Run `where_sql` without vetting it (`--where-unchecked`): by default the scan
    /// refuses an expression that calls a volatile function or one outside `pg_catalog`,
    /// or reads a view or a foreign table ([`crate::session::check_where`]).
    pub where_unchecked: bool,
    /// Scan a view or a foreign table (`--allow-view`): their definitions run their
    /// owner's functions as the scanning role, so by default only tables and
    /// materialized views are scanned.
    pub allow_view: bool,
    /// Where every finding goes, with its row key (`--findings FILE`: JSON Lines, see
    /// [`FindingsSink`]); the report keeps only a few examples per class. Every finding is
    /// then described (redacted unless `show_values`), not only the examples. Clones of
    /// these options (the jobs of [`scan_parallel`]) share the one sink.
    pub findings: Option<FindingsSink>,
    /// The decode paths the check runs (`--paths`, else the DTO's declared ones; empty:
    /// every built-in path), recorded in the report. The scan reads and computes only
    /// what they need: without [`DecodePath::JsonbWire`] no jsonb model runs and a json
    /// column's server-side `::jsonb` cast is not fetched. The check given to the scan
    /// must run these paths ([`equijson_check::dto::DtoSpec::check_paths`]).
    pub paths: Vec<DecodePath>,
}

impl ScanOptions {
    /// Whether the jsonb path is checked, so the jsonb model is held against the server.
    #[must_use]
    pub fn jsonb_model(&self) -> bool {
        self.paths.is_empty() || self.paths.contains(&DecodePath::JsonbWire)
    }
}

/// `SET TRANSACTION SNAPSHOT` for an exported snapshot id (hex digits and `-` only, as
/// `pg_export_snapshot()` writes them; anything else is refused before it reaches SQL).
///
/// # Errors
/// [`PgError::Usage`] for an id that is not of that form.
pub fn set_snapshot_sql(id: &str) -> Result<String, PgError> {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
        return Err(PgError::Usage(format!(
            "snapshot {id:?}: expected an id from pg_export_snapshot(), e.g. 00000003-0000001B-1"
        )));
    }
    Ok(format!("SET TRANSACTION SNAPSHOT '{id}'"))
}

/// Exports the snapshot of a new read-only repeatable-read transaction on `client`, which
/// must stay open while others import it.
///
/// # Errors
/// [`PgError`] from the server.
pub fn export_snapshot(client: &mut Client) -> Result<String, PgError> {
    client
        .batch_execute(BEGIN)
        .map_err(|e| classify(&e, None))?;
    client
        .query_one("SELECT pg_catalog.pg_export_snapshot()", &[])
        .map(|r| r.get(0))
        .map_err(|e| classify(&e, None))
}

/// Quotes an identifier: `"` doubled, the whole wrapped in `"`.
#[must_use]
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Quotes a table name given as `table` or `schema.table` (split at the first `.` that
/// is not inside the table part: `a.b` is schema `a`, table `b`).
#[must_use]
pub fn quote_table(name: &str) -> String {
    match name.split_once('.') {
        Some((schema, table))
            if !schema.is_empty() && !table.is_empty() && !schema.contains('"') =>
        {
            format!("{}.{}", quote_ident(schema), quote_ident(table))
        }
        _ => quote_ident(name),
    }
}

/// Why a `--shard K/N` spec (held in each variant) does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/`.
    #[error("shard {0:?}: expected K/N, e.g. 1/4")]
    NotKOverN(String),
    /// K is not a number.
    #[error("shard {0:?}: K is not a number")]
    BadK(String),
    /// N is not a number.
    #[error("shard {0:?}: N is not a number")]
    BadN(String),
    /// Not 1 <= K <= N.
    #[error("shard {0:?}: need 1 <= K <= N")]
    OutOfRange(String),
}

/// Parses `K/N` (1 <= K <= N).
///
/// # Errors
/// [`ShardError`]: what is wrong, with the spec.
pub fn parse_shard(s: &str) -> Result<(u32, u32), ShardError> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| ShardError::NotKOverN(s.to_owned()))?;
    let k: u32 = k
        .trim()
        .parse()
        .map_err(|_| ShardError::BadK(s.to_owned()))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| ShardError::BadN(s.to_owned()))?;
    if n == 0 || k == 0 || k > n {
        return Err(ShardError::OutOfRange(s.to_owned()));
    }
    Ok((k, n))
}

struct Plan {
    kind: ColumnKind,
    /// Fields per row: key and value, and for a json column checked against the jsonb
    /// model the server's `::jsonb::text` of the value.
    fields: usize,
    /// Whether the jsonb model is held against the server.
    model: bool,
    /// The table's oid, resolved once (the session's `search_path` is pinned, so the
    /// name must not be looked up again).
    table_oid: u32,
    count_sql: String,
    copy_sql: String,
}

/// Checks the names in `opts` (each at most 63 bytes) before anything reaches the server.
///
/// # Errors
/// [`PgError::Usage`] naming the offending name.
pub fn check_names(opts: &ScanOptions) -> Result<(), PgError> {
    match opts.table.split_once('.') {
        Some((schema, table))
            if !schema.is_empty() && !table.is_empty() && !schema.contains('"') =>
        {
            crate::session::check_ident("--table schema", schema)?;
            crate::session::check_ident("--table", table)?;
        }
        _ => crate::session::check_ident("--table", &opts.table)?,
    }
    crate::session::check_ident("--column", &opts.column)?;
    if let Some(k) = &opts.key {
        crate::session::check_ident("--key", k)?;
    }
    Ok(())
}

/// Resolves and checks the table of `opts` on a pinned session inside the scan's
/// transaction: it must exist and be a table or materialized view (or, with
/// `allow_view`, any relation).
///
/// # Errors
/// [`PgError::NoTable`], or [`PgError::Usage`] for a view not allowed.
pub fn table_of(client: &mut Client, opts: &ScanOptions) -> Result<crate::session::Table, PgError> {
    check_names(opts)?;
    let table = crate::session::resolve_table(client, &quote_table(&opts.table))?
        .ok_or_else(|| PgError::NoTable(opts.table.clone()))?;
    if !opts.allow_view && !matches!(table.relkind, 'r' | 'p' | 'm') {
        return Err(PgError::Usage(format!(
            "{} is {}: reading it runs its owner's definition as your role; scan the \
             underlying table, or pass --allow-view",
            table.qualified,
            match table.relkind {
                'v' => "a view",
                'f' => "a foreign table",
                _ => "not a table",
            }
        )));
    }
    Ok(table)
}

/// The server's jsonb text of a json column's value, to hold the model against, or NULL
/// where the cast might fail (a failing cast would abort the whole COPY).
///
/// Always left out: 10,000 or more brackets (the stack limit is a hard error, even for
/// `pg_input_is_valid`), texts of 128 MiB or more (jsonb holds at most 256 MiB), texts of
/// 512 KiB or more holding an exponent (`1e-9999` prints 10,002 bytes, 1,250 times its 8,
/// and no value may exceed 1 GiB), and, in a database not in UTF-8, `\u` escapes above
/// U+007F (the encoding may not hold them). From PostgreSQL 16, `pg_input_is_valid` asks
/// `jsonb_in` about the rest (soft errors); before, rows are left out conservatively: any
/// `\u0000` or surrogate escape, 5-digit exponents, and runs of 255 or more digits
/// (numeric allows 131,072 digits before the point and 16,383 after: shorter runs with a
/// 4-digit exponent stay within both).
fn json_as_jsonb(col: &str, server_major: u32, utf8: bool) -> String {
    let t = format!("{col}::pg_catalog.text");
    let mut safe = format!(
        "pg_catalog.octet_length({t}) OPERATOR(pg_catalog.<) 134217728 \
         AND (pg_catalog.octet_length({t}) OPERATOR(pg_catalog.<) 524288 \
         OR {t} OPERATOR(pg_catalog.!~) '[0-9][eE]') \
         AND pg_catalog.length({t}) OPERATOR(pg_catalog.-) \
         pg_catalog.length(pg_catalog.translate({t}, '[{{', '')) OPERATOR(pg_catalog.<) 10000"
    );
    if !utf8 {
        let _ = write!(
            safe,
            " AND {t} OPERATOR(pg_catalog.!~*) '\\\\u(00[89a-f]|0[1-9a-f]|[1-9a-f])'"
        );
    }
    if server_major >= 16 {
        let _ = write!(safe, " AND pg_catalog.pg_input_is_valid({t}, 'jsonb')");
    } else {
        let _ = write!(
            safe,
            " AND {t} OPERATOR(pg_catalog.!~*) '\\\\u(0000|d[89a-f])' \
             AND {t} OPERATOR(pg_catalog.!~) '[0-9][eE][+-]?[0-9]{{5}}' \
             AND (pg_catalog.length({t}) OPERATOR(pg_catalog.<) 255 \
             OR {t} OPERATOR(pg_catalog.!~) '[0-9]{{255}}')"
        );
    }
    format!("CASE WHEN {safe} THEN {col}::pg_catalog.jsonb::pg_catalog.text END")
}

/// Vets `opts.where_sql` (unless `where_unchecked`) on a pinned session outside any
/// transaction: in a read-write transaction rolled back at once, as
/// [`crate::session::check_where`] says.
///
/// # Errors
/// [`PgError::Usage`] for what is refused, [`PgError`] from the server.
pub fn vet_where(client: &mut Client, opts: &ScanOptions) -> Result<(), PgError> {
    let Some(w) = opts.where_sql.as_deref().filter(|_| !opts.where_unchecked) else {
        return Ok(());
    };
    client
        .batch_execute("BEGIN")
        .map_err(|e| classify(&e, None))?;
    let result = table_of(client, opts).and_then(|t| crate::session::check_where(client, &t, w));
    let _ = client.batch_execute("ROLLBACK");
    result
}

/// A range of heap blocks `[start, end)` (`end` `None`: to the end of the table): one job's
/// part of a whole-table scan with `--jobs` ([`scan_parallel`]), read with a TID range
/// scan (PostgreSQL 14 and later; before, a filter) so that each job reads its blocks only.
type Blocks = (u64, Option<u64>);

fn plan(client: &mut Client, opts: &ScanOptions, blocks: Option<Blocks>) -> Result<Plan, PgError> {
    let resolved = table_of(client, opts)?;
    let server_major = crate::connect::server_major(client)?;
    let utf8 = client
        .query_one(
            "SELECT pg_catalog.current_setting('server_encoding') OPERATOR(pg_catalog.=) 'UTF8'",
            &[],
        )
        .map_err(|e| classify(&e, None))?
        .get::<_, bool>(0);
    let table = resolved.qualified.clone();
    let type_of = |client: &mut Client, col: &str| -> Result<String, PgError> {
        let rows = client
            .query(COLUMN_TYPE, &[&resolved.oid, &col])
            .map_err(|e| classify(&e, None))?;
        rows.first()
            .map(|r| r.get::<_, String>(0))
            .ok_or_else(|| PgError::NoColumn {
                table: opts.table.clone(),
                column: col.to_owned(),
            })
    };
    let found = type_of(client, &opts.column)?;
    let kind = ColumnKind::from_type_name(&found).ok_or_else(|| PgError::WrongType {
        table: opts.table.clone(),
        column: opts.column.clone(),
        found,
    })?;
    if let Some(k) = &opts.key {
        type_of(client, k)?;
    }
    let col = quote_ident(&opts.column);
    let key_expr = opts.key.as_deref().map(quote_ident);
    let mut conds = Vec::new();
    if let Some(w) = &opts.where_sql {
        conds.push(format!("({w})"));
    }
    if let Some((k, n)) = opts.shard {
        let bucket = match &key_expr {
            // hashtext is stable across runs and servers of one major version. A NULL key
            // hashes to NULL, which no shard's condition holds for: those rows go to bucket 0.
            // The key's text is its type's output (never a cast its owner may define).
            Some(key) => format!(
                "pg_catalog.mod(COALESCE(pg_catalog.hashtext({})::pg_catalog.int8 \
                 OPERATOR(pg_catalog.+) 2147483648, 0), {n})",
                crate::session::key_text(key)
            ),
            // Every row lives in exactly one heap block.
            None => format!(
                "pg_catalog.mod((ctid::pg_catalog.text::pg_catalog.point)[0]::pg_catalog.int8, {n})"
            ),
        };
        conds.push(format!("{bucket} OPERATOR(pg_catalog.=) {}", k - 1));
    }
    if let Some((start, end)) = blocks {
        conds.push(format!(
            "ctid OPERATOR(pg_catalog.>=) '({start},0)'::pg_catalog.tid"
        ));
        if let Some(end) = end {
            conds.push(format!(
                "ctid OPERATOR(pg_catalog.<) '({end},0)'::pg_catalog.tid"
            ));
        }
    }
    let where_clause = if conds.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", conds.join(" AND "))
    };
    let limit = opts
        .limit
        .map(|l| format!(" LIMIT {l}"))
        .unwrap_or_default();
    let key_sel = key_expr.as_deref().map_or_else(
        || "NULL::pg_catalog.text".to_owned(),
        crate::session::key_text,
    );
    // One form of the value: its binary form. A jsonb value's is `jsonb_out`'s text behind
    // a version byte, so its text form would be the same bytes again (and twice the
    // server's work); json and text values are their text. Only a json column checked
    // against the jsonb model also needs the server's cast of the value to jsonb.
    let model = opts.jsonb_model();
    let text_sel = match kind {
        ColumnKind::Json if model => Some(json_as_jsonb(&col, server_major, utf8)),
        _ => None,
    };
    let fields = if text_sel.is_some() { 3 } else { 2 };
    let text_sel = text_sel.map(|t| format!(", {t}")).unwrap_or_default();
    Ok(Plan {
        kind,
        fields,
        model,
        table_oid: resolved.oid,
        count_sql: format!(
            "SELECT pg_catalog.count(*) FROM (SELECT 1 FROM {table}{where_clause}{limit}) AS s"
        ),
        copy_sql: format!(
            "COPY (SELECT {key_sel}, {col}{text_sel} FROM {table}{where_clause}{limit}) TO STDOUT (FORMAT binary)"
        ),
    })
}

/// What the scan's transaction reads: the cluster, database, table (oid, relfilenode),
/// snapshot, start time and key-changing settings (see [`crate::live::ScanSource`]).
/// Every name is schema-qualified, so nothing on the `search_path` can stand in for it.
/// `$1`: the table's oid, as resolved once ([`crate::session::resolve_table`]).
pub const SOURCE: &str = "SELECT \
     CASE WHEN pg_catalog.has_function_privilege('pg_catalog.pg_control_system()', 'EXECUTE') \
          THEN (SELECT s.system_identifier::pg_catalog.text FROM pg_catalog.pg_control_system() s) END, \
     pg_catalog.current_database()::pg_catalog.text, c.oid, pg_catalog.pg_relation_filenode(c.oid), \
     pg_catalog.int4div(pg_catalog.current_setting('server_version_num')::pg_catalog.int4, 10000), \
     pg_catalog.pg_current_snapshot()::pg_catalog.text, \
     pg_catalog.to_char(pg_catalog.timezone('UTC', pg_catalog.transaction_timestamp()), 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') \
     FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1";
/// The settings of [`crate::live::KEY_SETTINGS`] that exist on the server. `$1`: names.
pub const SETTINGS: &str = "SELECT name::pg_catalog.text, setting::pg_catalog.text FROM pg_catalog.pg_settings \
     WHERE name OPERATOR(pg_catalog.=) ANY($1::pg_catalog.text[])";

/// Reads [`crate::live::ScanSource`] inside the scan's transaction.
fn read_source(
    client: &mut Client,
    opts: &ScanOptions,
    table_oid: u32,
) -> Result<crate::live::ScanSource, postgres::Error> {
    let row = client.query_one(SOURCE, &[&table_oid])?;
    let names: Vec<&str> = crate::live::KEY_SETTINGS.to_vec();
    let settings = client
        .query(SETTINGS, &[&names])?
        .iter()
        .map(|r| (r.get::<_, String>(0), r.get::<_, String>(1)))
        .collect();
    Ok(crate::live::ScanSource {
        system_identifier: row.get(0),
        database: row.get(1),
        table_oid: row.get(2),
        relfilenode: row.get::<_, Option<u32>>(3).unwrap_or(0),
        server_major: u32::try_from(row.get::<_, i32>(4)).unwrap_or(0),
        snapshot: row.get(5),
        exported_snapshot: opts.snapshot.clone(),
        started_at: row.get(6),
        settings,
    })
}

/// `complete` means every counted row was read once: a scan that read more or fewer rows
/// than it counted in the same snapshot (a volatile `--where` such as `random() < 0.5`
/// selects other rows each time it runs) is not complete, and says why.
fn check_counted(report: &mut ScanReport) {
    if report.rows_read != report.rows_total {
        report.complete = false;
        report.error = Some(format!(
            "read {} rows but counted {} in the same snapshot: the rows read are not the rows \
             counted (a volatile --where, e.g. random(), selects different rows each time)",
            report.rows_read, report.rows_total
        ));
    }
}

/// Scans with the decode check of a catalogue DTO or any `check` function.
///
/// Errors before the first row (unreachable server, credentials, missing table or
/// column, wrong type, bad `--where`) are `Err`. Once streaming has begun, a lost
/// connection, a stopped server or a statement timeout gives `Ok` with `complete: false`
/// and `error` saying why and how far it got: never a silent partial.
///
/// # Errors
/// See above.
pub fn scan_with(
    config: impl Into<ConnectConfig>,
    opts: &ScanOptions,
    dto: &str,
    check: &(dyn Fn(&Input<'_>) -> Report + Sync),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<ScanReport, PgError> {
    scan_blocks(&config.into(), opts, None, dto, check, progress)
}

/// [`scan_with`], reading only `blocks` when given (one job of [`scan_parallel`]).
fn scan_blocks(
    config: &ConnectConfig,
    opts: &ScanOptions,
    blocks: Option<Blocks>,
    dto: &str,
    check: &(dyn Fn(&Input<'_>) -> Report + Sync),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<ScanReport, PgError> {
    let password = config.password();
    let scrub = |e: &postgres::Error| classify(e, password.as_deref());
    let set_snapshot = opts.snapshot.as_deref().map(set_snapshot_sql).transpose()?;
    check_names(opts)?;
    let mut client = connect(config)?;
    crate::session::pin(&mut client)?;
    vet_where(&mut client, opts)?;
    client.batch_execute(BEGIN).map_err(|e| scrub(&e))?;
    if let Some(sql) = &set_snapshot {
        client.batch_execute(sql).map_err(|e| scrub(&e))?;
    }
    let plan = plan(&mut client, opts, blocks)?;
    let mut report = ScanReport::new(&opts.table, &opts.column, dto);
    report.column_type = Some(plan.kind);
    report.paths = if opts.paths.is_empty() {
        DecodePath::ALL
            .iter()
            .map(|p| p.name().to_owned())
            .collect()
    } else {
        opts.paths.iter().map(|p| p.name().to_owned()).collect()
    };
    report.shard = opts.shard.map(|(k, n)| [k, n]);
    report.key_column.clone_from(&opts.key);
    report.where_fingerprint = opts.where_sql.as_deref().map(live::where_fingerprint);
    report.limit = opts.limit;
    let total: i64 = client
        .query_one(plan.count_sql.as_str(), &[])
        .map_err(|e| match scrub(&e) {
            // The first statement that runs the condition: say where the error comes from.
            e if opts.where_sql.is_some() => {
                e.in_context("counting the rows to scan (with --where)")
            }
            e => e,
        })?
        .get(0);
    report.rows_total = total.max(0) as u64;
    report.source = Some(read_source(&mut client, opts, plan.table_oid).map_err(|e| scrub(&e))?);
    let started = Instant::now();
    let result = stream(
        &mut client,
        &plan,
        opts,
        check,
        &mut report,
        progress,
        started,
    );
    report.elapsed_secs = started.elapsed().as_secs_f64();
    report.rows_per_sec = if report.elapsed_secs > 0.0 {
        report.rows_read as f64 / report.elapsed_secs
    } else {
        0.0
    };
    report.peak_rss_bytes = peak_rss_bytes();
    match result {
        Ok(()) => {
            // ROLLBACK, not COMMIT: whatever `--where` managed to do despite READ ONLY
            // (e.g. `lo_create`, which PostgreSQL allows there) is discarded.
            let _ = client.batch_execute(END);
            report.complete = true;
            check_counted(&mut report);
        }
        Err(e) => {
            let e = match e {
                StreamError::Pg(e) => scrub(&e),
                StreamError::Io(e) => io_to_pg(&e, password.as_deref()),
                StreamError::Format(m) => PgError::server(m),
            };
            report.complete = false;
            report.error = Some(format!(
                "{e} (after {} of {} rows)",
                report.rows_read, report.rows_total
            ));
        }
    }
    Ok(report)
}

/// Scans a table with your DTO `T` (all decode paths, `accepts` accepted).
///
/// ```no_run
/// #[derive(serde::Deserialize, serde::Serialize)]
/// struct Order { id: u64, total: String }
/// // A URL or key=value string; sslmode=verify-full and sslrootcert work as in libpq.
/// let config: equijson_pg::connect::ConnectConfig = "host=/tmp user=me dbname=shop".parse()?;
/// let opts = equijson_pg::scan::ScanOptions { table: "orders".into(), column: "doc".into(), ..Default::default() };
/// let report = equijson_pg::scan::<Order>(&config, &opts, &[])?;
/// assert!(report.complete && report.divergences == 0, "{}", report.render());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`scan_with`].
pub fn scan<T: serde::de::DeserializeOwned + serde::Serialize>(
    config: impl Into<ConnectConfig>,
    opts: &ScanOptions,
    accepts: equijson_check::decode::Accepts,
) -> Result<ScanReport, PgError> {
    let name = std::any::type_name::<T>();
    scan_with(
        config,
        opts,
        name,
        &|b| equijson_check::decode::check_input::<T>(b, accepts),
        &mut |_, _| {},
    )
}

/// Scans with a DTO's spec (yours: [`equijson_check::dto::spec`]`::<T>()`; or one of the
/// catalogue's) on `jobs` connections: through the paths `opts.paths` names, else those
/// the DTO declares ([`equijson_check::dto::DtoSpec::paths`]), doing only their work
/// ([`equijson_check::dto::DtoSpec::check_paths`]); the report's `paths` lists them.
///
/// # Errors
/// As [`scan_parallel`].
pub fn scan_spec(
    config: impl Into<ConnectConfig>,
    opts: &ScanOptions,
    jobs: u32,
    spec: &equijson_check::dto::DtoSpec,
) -> Result<ScanReport, PgError> {
    let mut o = opts.clone();
    if o.paths.is_empty() {
        o.paths = spec.paths.to_vec();
    }
    let paths = o.paths.clone();
    scan_parallel(
        config,
        &o,
        jobs,
        spec.name,
        &|i| (spec.check_paths)(i, &paths),
        &|_, _| {},
    )
}

/// Runs `jobs` scans in parallel on `jobs` connections, each one shard of the requested
/// slice, all reading one snapshot (exported by a transaction held open meanwhile, unless
/// `opts.snapshot` names one), and merges their reports (one report, `complete` only if all are).
///
/// # Errors
/// As [`scan_with`]; the first error of any job.
pub fn scan_parallel(
    config: impl Into<ConnectConfig>,
    opts: &ScanOptions,
    jobs: u32,
    dto: &str,
    check: &(dyn Fn(&Input<'_>) -> Report + Sync),
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<ScanReport, PgError> {
    let config = &config.into();
    if jobs <= 1 {
        return scan_with(config, opts, dto, check, &mut |r, t| progress(r, t));
    }
    if opts.limit.is_some() {
        // A limit per sub-shard would not be the limit asked for.
        return Err(PgError::Usage(
            "--limit cannot be combined with --jobs above 1".into(),
        ));
    }
    let (k0, n0) = opts.shard.unwrap_or((1, 1));
    let n = n0
        .checked_mul(jobs)
        .ok_or_else(|| PgError::Usage("shard count times --jobs overflows".into()))?;
    // One snapshot for every job: exported by a transaction held open until all are done
    // (unless the caller gave one), so the slices add up to one consistent table.
    let mut holder = None;
    let snapshot = if let Some(id) = &opts.snapshot {
        id.clone()
    } else {
        let password = config.password();
        let mut client = connect(config)?;
        crate::session::pin(&mut client)?;
        let id = export_snapshot(&mut client).map_err(|e| match e {
            PgError::Server { code, message } => PgError::Server {
                code,
                message: crate::connect::scrub(&message, password.as_deref()),
            },
            e => e,
        })?;
        holder = Some(client);
        id
    };
    // The whole of a table: each job reads a range of its heap blocks (so the server reads
    // each block once, and no row computes a shard expression). A shard, or a relation
    // without heap blocks of its own: buckets of the shard's expression.
    let blocks = if opts.shard.is_none() {
        table_blocks(config, opts)?
    } else {
        None
    };
    let done = std::sync::atomic::AtomicU64::new(0);
    let totals = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<Result<ScanReport, PgError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let mut o = opts.clone();
                let range = blocks.map(|b| {
                    let at = |j: u32| b * u64::from(j) / u64::from(jobs);
                    (at(j), (j + 1 < jobs).then(|| at(j + 1)))
                });
                // Shard k of n0, split j ways: buckets (k-1) + n0*j of n0*jobs.
                o.shard = range.is_none().then_some((k0 + n0 * j, n));
                o.snapshot = Some(snapshot.clone());
                let done = &done;
                let totals = &totals;
                s.spawn(move || {
                    let mut last_total = 0;
                    let mut last = 0;
                    scan_blocks(config, &o, range, dto, check, &mut |r, t| {
                        if t != last_total {
                            totals.fetch_add(t - last_total, std::sync::atomic::Ordering::Relaxed);
                            last_total = t;
                        }
                        let all = done.fetch_add(r - last, std::sync::atomic::Ordering::Relaxed)
                            + (r - last);
                        last = r;
                        progress(all, totals.load(std::sync::atomic::Ordering::Relaxed));
                    })
                    .map(|mut r| {
                        // Block ranges cover the table once, as shards 1..=jobs do.
                        if range.is_some() {
                            r.shard = Some([j + 1, jobs]);
                        }
                        r
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(PgError::server("scan worker panicked")))
            })
            .collect()
    });
    if let Some(mut client) = holder {
        let _ = client.batch_execute(END);
    }
    let mut reports = Vec::new();
    for r in results {
        reports.push(r?);
    }
    let mut merged = ScanReport::merge(&reports).map_err(|e| PgError::Usage(e.to_string()))?;
    merged.shard = opts.shard.map(|(k, n)| [k, n]);
    merged.error = reports
        .iter()
        .filter_map(|r| r.error.clone())
        .reduce(|a, b| format!("{a}; {b}"));
    merged.peak_rss_bytes = peak_rss_bytes();
    Ok(merged)
}

/// The heap blocks of the table `opts` names, when it is a table or materialized view
/// (else `None`: no blocks of its own to split).
fn table_blocks(config: &ConnectConfig, opts: &ScanOptions) -> Result<Option<u64>, PgError> {
    let mut client = connect(config)?;
    crate::session::pin(&mut client)?;
    client
        .batch_execute("BEGIN")
        .map_err(|e| classify(&e, None))?;
    let table = table_of(&mut client, opts)?;
    let blocks = if matches!(table.relkind, 'r' | 'm') {
        let n: i64 = client
            .query_one(
                "SELECT pg_catalog.pg_relation_size($1::pg_catalog.oid) OPERATOR(pg_catalog./) \
                 pg_catalog.current_setting('block_size')::pg_catalog.int8",
                &[&table.oid],
            )
            .map_err(|e| classify(&e, None))?
            .get(0);
        u64::try_from(n).ok()
    } else {
        None
    };
    let _ = client.batch_execute("ROLLBACK");
    Ok(blocks)
}

enum StreamError {
    Pg(postgres::Error),
    Io(std::io::Error),
    Format(String),
}

/// Rows read from the COPY stream, handed from the reader to the checkers and, checked, to
/// the recorder: the fields of every row in one buffer.
#[derive(Default)]
struct Batch {
    /// Position of the batch in the stream (the recorder records batches in this order).
    seq: u64,
    buf: Vec<u8>,
    /// Per row: key, value and (json columns checked against the model) the server's jsonb
    /// text, as ranges of `buf` (`None`: SQL NULL, or not read).
    rows: Vec<[Option<Range<usize>>; 3]>,
    /// Per row, what the check found (filled by a checker).
    checked: Vec<CheckedRow>,
    /// Bytes of the budget this batch holds while it is in flight.
    charged: usize,
}

impl Batch {
    fn field(&self, r: Option<&Range<usize>>) -> Option<&[u8]> {
        r.and_then(|r| self.buf.get(r.clone()))
    }

    /// What the batch costs the budget: its bytes plus a fixed amount per row (so that
    /// rows of NULLs count too).
    fn cost(&self) -> usize {
        self.buf.len() + self.rows.len() * ROW_OVERHEAD
    }
}

/// Rows per batch, and bytes after which a batch is handed on.
const BATCH_ROWS: usize = 256;
const BATCH_BYTES: usize = 256 * 1024;
/// Bytes of batches in flight (read, not yet recorded) per checker thread: the budget.
const BUDGET_PER_CHECKER: usize = 1 << 20;
/// What a row costs the budget besides its field bytes (its ranges and its findings slot).
const ROW_OVERHEAD: usize = 128;
/// Spare batches kept for reuse per checker, and the buffer capacity a kept one may have.
const SPARE_PER_CHECKER: usize = 3;
const KEEP_BUFFER: usize = 2 * BATCH_BYTES;

/// The byte budget of batches in flight.
///
/// The reader takes a batch's cost from it before handing the batch on; the recorder gives
/// it back once the batch is recorded. A batch larger than the whole budget is let through
/// when nothing else is in flight, so a row of any size passes (alone), and the reader
/// only ever waits for batches it has already handed on: the scan never waits on itself.
struct Budget {
    state: Mutex<BudgetState>,
    freed: Condvar,
    cap: usize,
}

#[derive(Default)]
struct BudgetState {
    used: usize,
    closed: bool,
}

impl Budget {
    fn new(cap: usize) -> Self {
        Self {
            state: Mutex::new(BudgetState::default()),
            freed: Condvar::new(),
            cap,
        }
    }

    /// Takes `n` bytes, waiting while others are in flight and `n` does not fit; `false`
    /// once the budget is closed (the recorder stopped).
    fn take(&self, n: usize) -> bool {
        let Ok(mut st) = self.state.lock() else {
            return false;
        };
        while !st.closed && st.used > 0 && st.used.saturating_add(n) > self.cap {
            st = match self.freed.wait(st) {
                Ok(st) => st,
                Err(_) => return false,
            };
        }
        if st.closed {
            return false;
        }
        st.used = st.used.saturating_add(n);
        true
    }

    fn give(&self, n: usize) {
        if let Ok(mut st) = self.state.lock() {
            st.used = st.used.saturating_sub(n);
        }
        self.freed.notify_all();
    }

    fn close(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.closed = true;
        }
        self.freed.notify_all();
    }
}

enum Done {
    Checked(Batch),
    /// A check panicked on this batch; the payload is re-raised by the scan.
    Panicked(Box<dyn std::any::Any + Send>),
    /// The reader is done: `batches` were sent, then the stream ended with `result`.
    End {
        batches: u64,
        result: Result<(), StreamError>,
    },
}

/// Checker threads for a scan: `threads`, else one per core.
fn checker_count(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// Streams the COPY: a reader thread parses frames into batches, checker threads check
/// them, and this thread records them in row order (so the report, its examples included,
/// is the one a single thread would write).
///
/// Memory: with `c` checkers, `L` the largest row's bytes on the wire (its two or three fields)
/// and `B = max(c MiB, L + 256 KiB + 128 × 256)`, the rows buffered at any time take at
/// most `B` in flight plus one batch being read (`L + 256 KiB + 32 KiB`) plus kept spare
/// buffers (`3c × 512 KiB`); checking a batch takes memory proportional to that batch.
/// Nothing depends on the number of rows.
#[allow(
    clippy::too_many_lines,
    reason = "reader, checkers and recorder read best side by side"
)]
fn stream(
    client: &mut Client,
    plan: &Plan,
    opts: &ScanOptions,
    check: &(dyn Fn(&Input<'_>) -> Report + Sync),
    report: &mut ScanReport,
    progress: &mut dyn FnMut(u64, u64),
    started: Instant,
) -> Result<(), StreamError> {
    let reader = client
        .copy_out(plan.copy_sql.as_str())
        .map_err(StreamError::Pg)?;
    let describe = if opts.show_values {
        live::Describe::Values
    } else {
        live::Describe::Redacted
    };
    let (kind, model, fields) = (plan.kind, plan.model, plan.fields);
    let checkers = checker_count(opts.threads);
    let budget = Budget::new(checkers.saturating_mul(BUDGET_PER_CHECKER));
    let spare_max = checkers.saturating_mul(SPARE_PER_CHECKER);
    // The budget, not the channels, bounds what is in flight, so no send ever waits:
    // work and results go through unbounded channels, spares are offered with `try_send`.
    let (spare_tx, spare_rx) = mpsc::sync_channel::<Batch>(spare_max.max(1));
    let (work_tx, work_rx) = mpsc::channel::<Batch>();
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let budget = &budget;
    std::thread::scope(|s| {
        let reader_done = done_tx.clone();
        s.spawn(move || {
            let mut batches = 0u64;
            let result = read_batches(reader, fields, budget, &spare_rx, &work_tx, &mut batches);
            drop(work_tx);
            let _ = reader_done.send(Done::End { batches, result });
        });
        for _ in 0..checkers {
            let done = done_tx.clone();
            let work_rx = &work_rx;
            s.spawn(move || {
                loop {
                    let next = work_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok(mut batch)) = next else { break };
                    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        check_batch(&mut batch, kind, model, check, describe);
                    }));
                    let msg = match checked {
                        Ok(()) => Done::Checked(batch),
                        Err(payload) => Done::Panicked(payload),
                    };
                    if done.send(msg).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The recorder: batches in stream order.
        let mut pending: BTreeMap<u64, Batch> = BTreeMap::new();
        let mut next_seq = 0u64;
        let mut end: Option<(u64, Result<(), StreamError>)> = None;
        let mut panicked = None;
        let mut last_progress = started;
        let total = report.rows_total;
        loop {
            if let Some((batches, _)) = &end
                && next_seq == *batches
            {
                break;
            }
            match done_rx.recv() {
                Ok(Done::Checked(batch)) => {
                    pending.insert(batch.seq, batch);
                }
                Ok(Done::Panicked(payload)) => {
                    panicked = Some(payload);
                    break;
                }
                Ok(Done::End { batches, result }) => end = Some((batches, result)),
                // Every sender is gone with batches missing: only after a panic.
                Err(_) => break,
            }
            while let Some(mut batch) = pending.remove(&next_seq) {
                next_seq += 1;
                record_batch(
                    &mut batch,
                    kind,
                    model,
                    report,
                    describe,
                    opts.findings.as_ref(),
                );
                if last_progress.elapsed().as_millis() >= 200 {
                    last_progress = Instant::now();
                    progress(report.rows_read, total);
                }
                budget.give(std::mem::take(&mut batch.charged));
                // Keep a few small buffers for reuse (never waiting: a full spare
                // channel drops the batch); let the large ones go.
                if batch.buf.capacity() <= KEEP_BUFFER {
                    let _ = spare_tx.try_send(batch);
                }
            }
        }
        // Unblocks a reader waiting for the budget (after a panic); it then stops.
        budget.close();
        drop(done_rx);
        drop(spare_tx);
        if let Some(payload) = panicked {
            std::panic::resume_unwind(payload);
        }
        progress(report.rows_read, total);
        match end {
            Some((_, result)) => result,
            None => Err(StreamError::Format(
                "scan stopped before the end of the COPY".into(),
            )),
        }
    })
}

/// Reads the COPY stream into batches (spare ones reused, new ones made when none is
/// spare), charges each to the budget and sends it to `work`, to the stream's end.
fn read_batches(
    reader: postgres::CopyOutReader<'_>,
    fields: usize,
    budget: &Budget,
    spare: &mpsc::Receiver<Batch>,
    work: &mpsc::Sender<Batch>,
    batches: &mut u64,
) -> Result<(), StreamError> {
    let mut r = BufReader::with_capacity(256 * 1024, reader);
    let mut header = [0u8; 19];
    r.read_exact(&mut header).map_err(StreamError::Io)?;
    if &header[..11] != b"PGCOPY\n\xff\r\n\0" {
        return Err(StreamError::Format("binary COPY: bad signature".into()));
    }
    let ext = u32::from_be_bytes([header[15], header[16], header[17], header[18]]);
    std::io::copy(&mut (&mut r).take(u64::from(ext)), &mut std::io::sink())
        .map_err(StreamError::Io)?;
    // The recorder stopped (a check panicked): stop reading.
    let stopped = || StreamError::Format("scan stopped".into());
    let fresh = || {
        let mut b = spare.try_recv().unwrap_or_default();
        b.buf.clear();
        b.rows.clear();
        b
    };
    let mut send = |mut full: Batch| -> Result<(), StreamError> {
        let cost = full.cost();
        if !budget.take(cost) {
            return Err(stopped());
        }
        full.charged = cost;
        full.seq = *batches;
        *batches += 1;
        work.send(full).map_err(|_| stopped())
    };
    let mut batch = fresh();
    let result = loop {
        let mut n = [0u8; 2];
        if let Err(e) = r.read_exact(&mut n) {
            break Err(StreamError::Io(e));
        }
        let count = i16::from_be_bytes(n);
        if count == -1 {
            break Ok(());
        }
        if usize::try_from(count).ok() != Some(fields) {
            break Err(StreamError::Format(format!(
                "binary COPY: {count} fields in a row, expected {fields}"
            )));
        }
        let mark = batch.buf.len();
        match read_row(&mut r, fields, &mut batch.buf) {
            Ok(row) => batch.rows.push(row),
            Err(e) => {
                // Only whole rows are checked.
                batch.buf.truncate(mark);
                break Err(e);
            }
        }
        if batch.rows.len() >= BATCH_ROWS || batch.buf.len() >= BATCH_BYTES {
            send(std::mem::replace(&mut batch, fresh()))?;
        }
    };
    if !batch.rows.is_empty() {
        send(batch)?;
    }
    result?;
    // The stream must end where the server ends it: drain to the end of the COPY.
    std::io::copy(&mut r, &mut std::io::sink()).map_err(StreamError::Io)?;
    Ok(())
}

/// Reads the `fields` fields (2 or 3) of one row into `buf`; a third not read is `None`.
fn read_row(
    r: &mut impl Read,
    fields: usize,
    buf: &mut Vec<u8>,
) -> Result<[Option<Range<usize>>; 3], StreamError> {
    let mut row: [Option<Range<usize>>; 3] = [None, None, None];
    for f in row.iter_mut().take(fields) {
        let mut len = [0u8; 4];
        r.read_exact(&mut len).map_err(StreamError::Io)?;
        let len = i32::from_be_bytes(len);
        if len >= 0 {
            let at = buf.len();
            let len = len as usize;
            buf.resize(at + len, 0);
            r.read_exact(&mut buf[at..]).map_err(StreamError::Io)?;
            *f = Some(at..at + len);
        }
    }
    Ok(row)
}

/// Checks every row of a batch (a checker thread's work).
fn check_batch(
    batch: &mut Batch,
    kind: ColumnKind,
    model: bool,
    check: &(dyn Fn(&Input<'_>) -> Report + Sync),
    describe: live::Describe,
) {
    let mut checked = std::mem::take(&mut batch.checked);
    checked.clear();
    for row in &batch.rows {
        checked.push(match batch.field(row[1].as_ref()) {
            Some(value) => live::check_row_unfinished_model(
                kind,
                value,
                batch.field(row[2].as_ref()),
                model,
                check,
                describe,
            ),
            None => CheckedRow::default(),
        });
    }
    batch.checked = checked;
}

/// Records a checked batch into the report, in row order, and sends every finding with
/// its row key to `sink`.
fn record_batch(
    batch: &mut Batch,
    kind: ColumnKind,
    model: bool,
    report: &mut ScanReport,
    describe: live::Describe,
    sink: Option<&FindingsSink>,
) {
    let checked = std::mem::take(&mut batch.checked);
    for (row, c) in batch.rows.iter().zip(checked) {
        let value = batch.field(row[1].as_ref());
        if model
            && value.is_some()
            && (kind == ColumnKind::Jsonb || (kind == ColumnKind::Json && row[2].is_some()))
        {
            report.model_checked += 1;
        }
        let findings = match value {
            Some(_) if !c.is_clean() => {
                // The sink takes every finding: describe them all.
                let wants = |class: LiveClass, accepted: bool| {
                    sink.is_some() || report.wants_example(class, accepted)
                };
                c.finish(&wants, describe)
            }
            _ => Vec::new(),
        };
        let n = report.rows_read + 1;
        let key = || match batch.field(row[0].as_ref()) {
            Some(k) => String::from_utf8_lossy(k).into_owned(),
            None => format!("row {n}"),
        };
        match sink {
            Some(sink) if !findings.is_empty() => {
                let key = key();
                sink.row(&key, &findings);
                report.record_with(|| key, findings);
            }
            _ => report.record_with(key, findings),
        }
    }
}

fn io_to_pg(e: &std::io::Error, password: Option<&str>) -> PgError {
    if let Some(inner) = e
        .get_ref()
        .and_then(|i| i.downcast_ref::<postgres::Error>())
    {
        return classify(inner, password);
    }
    PgError::Lost(crate::connect::scrub(&e.to_string(), password))
}

/// Peak resident set size of this process (`VmHWM`), in bytes; 0 when unknown.
#[must_use]
pub fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::{Budget, ShardError, parse_shard};

    #[test]
    fn shard_specs_parse_or_say_what_is_wrong() {
        type Want = fn(String) -> ShardError;
        let ok: &[(&str, (u32, u32))] = &[("1/4", (1, 4)), (" 4 / 4 ", (4, 4)), ("1/1", (1, 1))];
        for (spec, want) in ok {
            assert_eq!(parse_shard(spec), Ok(*want), "{spec}");
        }
        let bad: &[(&str, Want)] = &[
            ("3", ShardError::NotKOverN),
            ("x/4", ShardError::BadK),
            ("-1/4", ShardError::BadK),
            ("1/", ShardError::BadN),
            ("0/4", ShardError::OutOfRange),
            ("5/4", ShardError::OutOfRange),
            ("0/0", ShardError::OutOfRange),
        ];
        for (spec, want) in bad {
            let e = parse_shard(spec).expect_err(spec);
            assert_eq!(e, want((*spec).to_owned()));
            assert!(e.to_string().contains(&format!("{spec:?}")), "{e}");
        }
    }

    #[test]
    fn a_batch_larger_than_the_budget_passes_alone_and_others_wait_for_it() {
        let budget = Budget::new(100);
        // Alone, anything passes: a row larger than the budget is never stuck.
        assert!(budget.take(1_000));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| budget.take(10));
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(
                !waiter.is_finished(),
                "took while the big batch was in flight"
            );
            budget.give(1_000);
            assert!(waiter.join().unwrap_or(false));
        });
        budget.give(10);
        // Closing wakes a waiting reader, which then stops.
        assert!(budget.take(95));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| budget.take(10));
            budget.close();
            assert!(!waiter.join().unwrap_or(true));
        });
    }
}
