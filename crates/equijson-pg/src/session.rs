//! What every session of the tool does before running SQL on a server it does not trust: pinned `search_path`, names resolved once, `--where` vetted.
//!
//! Anyone who can create objects in a schema on the scanning role's `search_path` (`public`
//! on PostgreSQL 13 and 14 by default) could otherwise shadow the operators and functions
//! the tool's SQL names, and run their code with the scanning role's rights. So:
//!
//! - [`pin`] sets `search_path = pg_catalog, pg_temp` for the session (functions and
//!   operators are then only found in `pg_catalog`; `pg_temp` never supplies them), and
//!   `row_security = off`, so that a row-level security policy (its functions are the table
//!   owner's code, run as the scanning role) makes the query fail instead of running.
//! - [`resolve_table`] resolves the table name the user gave once, with the role's own
//!   default `search_path` (as `psql` would), and returns it schema-qualified and quoted.
//! - [`check_where`] asks the server which functions, operators, relations and types a
//!   `--where` expression uses (its own parse tree of it), without running it, and
//!   refuses the ones that could act. Allowed: functions and operators of `pg_catalog`
//!   that are not `VOLATILE`, except the `*_to_xml` functions (they read relations named
//!   at run time); the scanned table, relations of `pg_catalog`, tables and materialized
//!   views (not views or foreign tables, whose definitions run their owner's code); types
//!   other than domains with constraints outside `pg_catalog`.

use postgres::Client;
use postgres::error::SqlState;

use crate::connect::{PgError, classify};

/// The session settings every connection the tool opens for a scan, a round trip, a
/// snapshot holder or `install-sql` runs first.
pub const PIN: &str = "SET search_path = pg_catalog, pg_temp; SET row_security = off";

/// [`PIN`]'s `search_path` for the current transaction only (`install-sql`, which runs on a
/// connection its caller may go on using).
pub const PIN_LOCAL: &str = "SET LOCAL search_path = pg_catalog, pg_temp";

/// PostgreSQL's longest identifier in bytes (`NAMEDATALEN - 1`); longer names are
/// truncated by the server, so the tool refuses them instead.
pub const MAX_IDENT_BYTES: usize = 63;

/// Pins the session (see [`PIN`]).
///
/// # Errors
/// [`PgError`] from the server.
pub fn pin(client: &mut Client) -> Result<(), PgError> {
    client.batch_execute(PIN).map_err(|e| classify(&e, None))
}

/// The settings [`pin`] changes, as they were before: [`Saved::restore`] puts them back on a
/// connection its owner goes on using.
#[derive(Debug, Clone)]
pub struct Saved {
    search_path: String,
    row_security: String,
}

/// Saves the session's `search_path` and `row_security`, then pins it.
///
/// # Errors
/// [`PgError`] from the server.
pub fn pin_saving(client: &mut Client) -> Result<Saved, PgError> {
    let row = client
        .query_one(
            "SELECT pg_catalog.current_setting('search_path'), \
             pg_catalog.current_setting('row_security')",
            &[],
        )
        .map_err(|e| classify(&e, None))?;
    let saved = Saved {
        search_path: row.get(0),
        row_security: row.get(1),
    };
    pin(client)?;
    Ok(saved)
}

impl Saved {
    /// Puts the saved settings back (for the session).
    ///
    /// # Errors
    /// [`PgError`] from the server.
    pub fn restore(&self, client: &mut Client) -> Result<(), PgError> {
        client
            .execute(
                "SELECT pg_catalog.set_config('search_path', $1, false), \
                 pg_catalog.set_config('row_security', $2, false)",
                &[&self.search_path, &self.row_security],
            )
            .map(|_| ())
            .map_err(|e| classify(&e, None))
    }
}

/// Refuses an identifier longer than [`MAX_IDENT_BYTES`] (the server would silently use
/// its first 63 bytes: another object) or empty.
///
/// # Errors
/// [`PgError::Usage`] saying which name and why.
pub fn check_ident(what: &str, name: &str) -> Result<(), PgError> {
    if name.is_empty() {
        return Err(PgError::Usage(format!("{what}: the name is empty")));
    }
    if name.len() > MAX_IDENT_BYTES {
        return Err(PgError::Usage(format!(
            "{what} {:?}...: {} bytes, PostgreSQL names hold at most {MAX_IDENT_BYTES} \
             (it would silently use the first {MAX_IDENT_BYTES}, another name)",
            name.chars().take(20).collect::<String>(),
            name.len()
        )));
    }
    Ok(())
}

/// A table the user named, resolved to one relation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Its `pg_class` oid.
    pub oid: u32,
    /// `"schema"."name"`, quoted from the catalog: the text the tool's SQL uses.
    pub qualified: String,
    /// `pg_class.relkind` (`r` table, `p` partitioned, `m` materialized view, `v` view,
    /// `f` foreign table).
    pub relkind: char,
}

/// Resolves `quoted` (a table name already quoted by [`crate::scan::quote_table`]) with
/// the role's default `search_path` (the session's is pinned), inside the current
/// transaction, and puts the pinned `search_path` back. `None`: no such relation.
///
/// # Errors
/// [`PgError`] from the server.
pub fn resolve_table(client: &mut Client, quoted: &str) -> Result<Option<Table>, PgError> {
    let err = |e: postgres::Error| classify(&e, None);
    // `reset_val` is the role's and database's default, not the pinned value.
    client
        .batch_execute(
            "SELECT pg_catalog.set_config('search_path', s.reset_val, true) \
             FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) 'search_path'",
        )
        .map_err(err)?;
    let found = client.query_one(
        "SELECT pg_catalog.to_regclass($1::pg_catalog.text)::pg_catalog.oid",
        &[&quoted],
    );
    // Pinned again whatever happened (the transaction is aborted on an error anyway).
    let _ = client
        .batch_execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)");
    let oid: Option<u32> = found.map_err(err)?.get(0);
    let Some(oid) = oid else { return Ok(None) };
    let row = client
        .query_one(
            "SELECT n.nspname::pg_catalog.text, c.relname::pg_catalog.text, c.relkind::pg_catalog.text \
             FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n \
             ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1",
            &[&oid],
        )
        .map_err(err)?;
    let schema: String = row.get(0);
    let name: String = row.get(1);
    let kind: String = row.get(2);
    Ok(Some(Table {
        oid,
        qualified: format!(
            "{}.{}",
            crate::scan::quote_ident(&schema),
            crate::scan::quote_ident(&name)
        ),
        relkind: kind.chars().next().unwrap_or('?'),
    }))
}

/// The text of a key value for reports and shard hashing: the type's output function
/// through `format('%s', ...)` (NULL for NULL), never a cast, which a type's owner could define (`CREATE
/// CAST (their_type AS text) WITH FUNCTION ...`). Output functions are built in for every
/// type a non-superuser can create (enum, composite, range, domain, array); base types
/// with their own output functions need a superuser.
#[must_use]
pub fn key_text(quoted_column: &str) -> String {
    format!(
        "CASE WHEN {quoted_column} IS NULL THEN NULL::pg_catalog.text \
         ELSE pg_catalog.format('%s', {quoted_column}) END"
    )
}

/// What in a `--where` expression would be refused (one line each), found by the server
/// without evaluating it: the expression goes into a temporary view (in a transaction
/// the caller rolls back), and the functions, operators, relations and types the
/// server's own parse tree of it names (`pg_rewrite.ev_action`: `:funcid`, `:opfuncid`,
/// `:opno`, `:aggfnoid`, `:relid`, ...) are looked up in the catalog. (`pg_depend` would
/// not do: it records no dependency on built-in objects, `random()` included.)
///
/// Allowed: functions and operators of `pg_catalog` that are not `VOLATILE` (what the
/// expression calls can then not write, signal, connect or run a program), except the
/// `*_to_xml` functions, which read relations named at run time; the scanned table,
/// relations of `pg_catalog`, plain tables and materialized views (not views or foreign
/// tables, whose definitions run their owner's code); types other than domains with
/// constraints outside `pg_catalog`.
const WHERE_REFERENCES: &str = r"
WITH tree AS (
  SELECT r.ev_action::pg_catalog.text AS t FROM pg_catalog.pg_rewrite r
  WHERE r.ev_class OPERATOR(pg_catalog.=) 'pg_temp.equijson_where_check'::pg_catalog.regclass
), f AS (
  SELECT m[2]::pg_catalog.oid AS oid
  FROM tree, pg_catalog.regexp_matches(tree.t,
    ':(funcid|opfuncid|aggfnoid|winfnoid|hashfuncid|negfuncid) ([0-9]+)', 'g') AS m
  UNION
  SELECT o.oprcode::pg_catalog.oid
  FROM tree, pg_catalog.regexp_matches(tree.t, ':opnos? (?:\(o )?([0-9 ]+)', 'g') AS m,
       pg_catalog.unnest(pg_catalog.string_to_array(pg_catalog.btrim(m[1]), ' ')) AS x
  JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) x::pg_catalog.oid
), r AS (
  SELECT DISTINCT m[1]::pg_catalog.oid AS oid
  FROM tree, pg_catalog.regexp_matches(tree.t, ':relid ([0-9]+)', 'g') AS m
), ty AS (
  SELECT DISTINCT m[2]::pg_catalog.oid AS oid
  FROM tree, pg_catalog.regexp_matches(tree.t,
    ':(consttype|resulttype|typeid|funcresulttype|opresulttype) ([0-9]+)', 'g') AS m
)
SELECT pg_catalog.format('function %s (%s)', p.oid::pg_catalog.regprocedure,
  CASE WHEN p.pronamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
       THEN 'not in pg_catalog'
       WHEN p.provolatile OPERATOR(pg_catalog.=) 'v' THEN 'volatile'
       ELSE 'reads relations named at run time' END)
FROM f JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) f.oid
WHERE p.pronamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
   OR p.provolatile OPERATOR(pg_catalog.=) 'v'
   OR p.proname::pg_catalog.text OPERATOR(pg_catalog.~) '^(table|schema|database|cursor|query)_to_xml'
UNION ALL
SELECT pg_catalog.format('relation %s (%s)', c.oid::pg_catalog.regclass,
  CASE c.relkind WHEN 'v' THEN 'a view' WHEN 'f' THEN 'a foreign table' ELSE 'not a table' END)
FROM r JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) r.oid
WHERE c.oid OPERATOR(pg_catalog.<>) $1
  AND c.oid OPERATOR(pg_catalog.<>) 'pg_temp.equijson_where_check'::pg_catalog.regclass
  AND c.relnamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
  AND c.relkind::pg_catalog.text OPERATOR(pg_catalog.<>) ALL (ARRAY['r', 'p', 'm'])
UNION ALL
SELECT pg_catalog.format('type %s (a domain with constraints)', t.oid::pg_catalog.regtype)
FROM ty JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) ty.oid
WHERE t.typtype OPERATOR(pg_catalog.=) 'd'
  AND t.typnamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
  AND EXISTS (SELECT FROM pg_catalog.pg_constraint k WHERE k.contypid OPERATOR(pg_catalog.=) t.oid)
ORDER BY 1";

/// Vets a `--where` expression for `table` (the rules are in the module docs) inside
/// the current read-write transaction, which the caller rolls back: it creates the
/// temporary view (one statement through the extended protocol: a `;` in the expression
/// cannot start another) and reads its dependencies.
///
/// # Errors
/// [`PgError::Usage`] listing what is refused (or that a read-only server cannot vet it);
/// [`PgError`] from the server for an expression that does not parse.
pub fn check_where(client: &mut Client, table: &Table, where_sql: &str) -> Result<(), PgError> {
    client
        .execute(
            format!(
                "CREATE TEMPORARY VIEW equijson_where_check AS SELECT 1 AS one FROM {} WHERE ({where_sql})",
                table.qualified
            )
            .as_str(),
            &[],
        )
        .map_err(|e| match classify(&e, None) {
            PgError::Server {
                code: Some(c), ..
            } if c == SqlState::READ_ONLY_SQL_TRANSACTION => PgError::Usage(
                "--where cannot be vetted on a read-only server (a standby): the check \
                 needs a temporary view; pass --where-unchecked to run it unvetted"
                    .into(),
            ),
            e => e.in_context("--where"),
        })?;
    let refused: Vec<String> = client
        .query(WHERE_REFERENCES, &[&table.oid])
        .map_err(|e| classify(&e, None))?
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect();
    if refused.is_empty() {
        return Ok(());
    }
    Err(PgError::Usage(format!(
        "--where uses what a scan does not run unasked: {}. Only non-volatile functions and \
         operators of pg_catalog, tables and materialized views are allowed; pass \
         --where-unchecked to run the expression anyway (with all its side effects, as the \
         scanning role)",
        refused.join("; ")
    )))
}

#[cfg(test)]
mod tests {
    use super::{MAX_IDENT_BYTES, check_ident, key_text};
    use crate::connect::PgError;

    #[test]
    fn names_over_63_bytes_are_refused() {
        assert!(check_ident("--table", &"t".repeat(MAX_IDENT_BYTES)).is_ok());
        for name in ["t".repeat(64), "é".repeat(32), String::new()] {
            assert!(
                matches!(check_ident("--table", &name), Err(PgError::Usage(m)) if m.contains("--table")),
                "{name}"
            );
        }
    }

    #[test]
    fn keys_are_printed_by_their_output_function_not_a_cast() {
        let sql = key_text("\"k\"");
        assert!(sql.contains("pg_catalog.format('%s', \"k\")"), "{sql}");
        assert!(
            !sql.contains("::text") && !sql.contains("::pg_catalog.text)"),
            "{sql}"
        );
    }
}
