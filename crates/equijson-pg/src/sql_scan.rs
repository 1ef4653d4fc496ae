//! `pg scan --sql-canonical`: `equijson_canonical` in the server against the Rust core, row by row.

use postgres::fallible_iterator::FallibleIterator as _;

use crate::live::{EXAMPLES_PER_CLASS, Example, LiveClass, ScanReport};

use crate::canonical_sql::{installed, quote_ident};
use crate::connect::{ConnectConfig, PgError, classify, connect};
use crate::scan::{BEGIN, ScanOptions};

/// The report class of a row where the SQL function and the Rust core disagree.
pub const CLASS: LiveClass = LiveClass::SqlCanonical;

/// What the pass found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SqlCanonicalPass {
    /// Rows compared.
    pub rows: u64,
    /// Rows jsonb rejects (the function and the jsonb model agree that they do).
    pub rejected: u64,
    /// Rows where the function and the core differ.
    pub differing: u64,
}

/// Outcome of one row: `None` when function and core agree, else what differs.
fn compare_row(raw: &[u8], sql: &str, show_values: bool) -> Option<String> {
    let model =
        equijson_check::jsonb::normalize(raw, &equijson_check::jsonb::JsonbOptions::default());
    let jsonb_text = match model {
        Ok(t) => t,
        Err(e) => {
            return (!sql.starts_with('!')).then(|| {
                format!(
                    "jsonb rejects the value ({}), yet equijson_canonical returned text",
                    e.code()
                )
            });
        }
    };
    let opts = equijson::Options::default().max_depth(usize::MAX >> 1);
    match equijson::canonicalize_with(jsonb_text.as_bytes(), &opts) {
        Ok(core) if core == sql.as_bytes() => None,
        Ok(core) => Some(if let Some(code) = sql.strip_prefix('!') {
            format!(
                "equijson_canonical failed with SQLSTATE {code}; the core gives {} bytes",
                core.len()
            )
        } else if show_values {
            format!("sql {sql:?} vs core {:?}", String::from_utf8_lossy(&core))
        } else {
            let at = core
                .iter()
                .zip(sql.as_bytes())
                .take_while(|(a, b)| a == b)
                .count();
            format!(
                "first difference at byte {at} (sql {} bytes, core {} bytes)",
                sql.len(),
                core.len()
            )
        }),
        // Only a number beyond the doubles makes the core refuse jsonb text; SQL must raise 22003.
        Err(e) => (sql != "!22003")
            .then(|| format!("the core refuses ({e}); sql gave {} bytes", sql.len())),
    }
}

/// Reads `opts.column` (with `--where` and `--limit`) and compares
/// `schema.equijson_canonical` with `equijson::canonicalize` of the value's jsonb form on
/// every row; differences are recorded in `report` under class [`CLASS`].
///
/// # Errors
/// [`PgError`] when the functions are not installed, for a shard (not supported here), or
/// when the server fails.
pub fn compare(
    config: impl Into<ConnectConfig>,
    opts: &ScanOptions,
    schema: &str,
    report: &mut ScanReport,
) -> Result<SqlCanonicalPass, PgError> {
    if opts.shard.is_some() {
        return Err(PgError::Usage(
            "--sql-canonical compares the whole selection: it cannot be combined with --shard"
                .into(),
        ));
    }
    crate::scan::check_names(opts)?;
    crate::session::check_ident("--sql-canonical schema", schema)?;
    let mut client = connect(config)?;
    crate::session::pin(&mut client)?;
    crate::scan::vet_where(&mut client, opts)?;
    if !installed(&mut client, schema)? {
        return Err(PgError::Usage(format!(
            "{}.equijson_canonical(jsonb) is not installed: install it with the `pg install-sql --schema {schema}` subcommand",
            quote_ident(schema)
        )));
    }
    let col = quote_ident(&opts.column);
    let key = opts.key.as_deref().map_or_else(
        || "NULL::pg_catalog.text".to_owned(),
        |k| crate::session::key_text(&quote_ident(k)),
    );
    let where_clause = opts
        .where_sql
        .as_deref()
        .map(|w| format!(" WHERE ({w})"))
        .unwrap_or_default();
    let limit = opts
        .limit
        .map(|l| format!(" LIMIT {l}"))
        .unwrap_or_default();
    client
        .batch_execute(BEGIN)
        .map_err(|e| classify(&e, None))?;
    let table = crate::scan::table_of(&mut client, opts)?;
    let sql = format!(
        "SELECT s.k, s.t, {}.equijson_canonical_checked(s.t) FROM \
         (SELECT {key} AS k, {col}::pg_catalog.text AS t FROM {}{where_clause}{limit}) s WHERE s.t IS NOT NULL",
        quote_ident(schema),
        table.qualified
    );
    let mut rows = client
        .query_raw(sql.as_str(), std::iter::empty::<i32>())
        .map_err(|e| classify(&e, None))?;
    let mut pass = SqlCanonicalPass::default();
    while let Some(row) = rows.next().map_err(|e| classify(&e, None))? {
        pass.rows += 1;
        let raw: String = row.try_get(1).map_err(|e| classify(&e, None))?;
        let out: String = row.try_get(2).map_err(|e| classify(&e, None))?;
        if out.starts_with('!')
            && equijson_check::jsonb::normalize(
                raw.as_bytes(),
                &equijson_check::jsonb::JsonbOptions::default(),
            )
            .is_err()
        {
            pass.rejected += 1;
        }
        if let Some(description) = compare_row(raw.as_bytes(), &out, opts.show_values) {
            pass.differing += 1;
            report.divergences += 1;
            *report.classes.entry(CLASS).or_insert(0) += 1;
            let kept = report.examples.iter().filter(|e| e.class == CLASS).count();
            if kept < EXAMPLES_PER_CLASS {
                let k: Option<String> = row.try_get(0).map_err(|e| classify(&e, None))?;
                report.examples.push(Example {
                    class: CLASS,
                    key: k.unwrap_or_else(|| format!("row {}", pass.rows)),
                    pointer: String::new(),
                    accepted: false,
                    description,
                });
            }
        }
    }
    drop(rows);
    let _ = client.batch_execute(crate::scan::END);
    Ok(pass)
}

#[cfg(test)]
mod tests {
    use super::compare_row;

    #[test]
    fn agreement_and_differences() {
        assert_eq!(
            compare_row(br#"{"b":1,"a":2.0}"#, r#"{"a":2,"b":1}"#, false),
            None
        );
        assert!(
            compare_row(br#"{"b":1,"a":2.0}"#, r#"{"b":1,"a":2}"#, false)
                .is_some_and(|d| d.contains("byte 2"))
        );
        assert_eq!(compare_row(b"[1e400]", "!22003", false), None);
        assert!(compare_row(b"[1e400]", "[1]", false).is_some());
        assert_eq!(compare_row(br#"["\u0000"]"#, "!22P05", false), None);
        assert!(compare_row(br#"["\u0000"]"#, "[\"\"]", false).is_some());
    }
}
