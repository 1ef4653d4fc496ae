//! `equijson_canonical(jsonb)`: RFC 8785 inside PostgreSQL, installed from plain SQL.
//!
//! The SQL lives in `crates/equijson-pg/sql/equijson_canonical.sql` (schema `public`);
//! [`install`] runs it in one transaction with `public.` replaced by the chosen schema.

use std::fmt::Write as _;

use postgres::Client;

use crate::connect::{PgError, classify};

/// The SQL file as shipped (functions in schema `public`, each with
/// `SET search_path = pg_catalog, pg_temp`).
pub const SQL: &str = include_str!("../sql/equijson_canonical.sql");

/// Every function the SQL file creates, with its argument types (for `DROP FUNCTION`).
pub const FUNCTIONS: &[&str] = &[
    "equijson_canonical_checked(text)",
    "equijson_canonical(jsonb)",
    "equijson_canonical_split(jsonb)",
    "equijson_canonical_levels(jsonb)",
    "equijson_scalar(jsonb)",
    "equijson_number(text)",
    "equijson_number_slow(numeric)",
    "equijson_utf16_key(text)",
];

/// `name` as a quoted SQL identifier (`"my schema"`, embedded quotes doubled).
#[must_use]
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Refuses a schema name the SQL cannot carry safely: empty, over 63 bytes (the server
/// would truncate it: another schema), or holding a control character (a line break
/// would end the `--` comments the text keeps).
///
/// # Errors
/// [`PgError::Usage`] saying why.
pub fn check_schema(schema: &str) -> Result<(), PgError> {
    crate::session::check_ident("--schema", schema)?;
    if schema.chars().any(char::is_control) {
        return Err(PgError::Usage(format!(
            "--schema {schema:?}: control characters are not allowed in the schema name"
        )));
    }
    Ok(())
}

/// The SQL text with its functions in `schema` instead of `public`: every occurrence is
/// the quoted identifier (`"a""b"`), comments keep `public.`, and the functions' bodies
/// are dollar-quoted with a tag the schema name does not contain, so no schema name can
/// end a body or a statement. Schema names with control characters are refused by
/// [`check_schema`] (and by [`install`]); here they would only be quoted.
#[must_use]
pub fn sql_for_schema(schema: &str) -> String {
    let quoted = quote_ident(schema);
    let mut tag = "$fn$".to_owned();
    let mut n = 0u32;
    while quoted.contains(&tag) || (n > 0 && SQL.contains(&tag)) {
        n += 1;
        tag = format!("$fn{n}$");
    }
    let mut out = String::with_capacity(SQL.len() + 1024);
    for line in SQL.split_inclusive('\n') {
        if line.trim_start().starts_with("--") {
            out.push_str(line);
            continue;
        }
        // The tag first: the schema name may itself hold `$fn$`.
        let line = if n > 0 {
            line.replace("$fn$", &tag)
        } else {
            line.to_owned()
        };
        out.push_str(&line.replace("public.equijson_", &format!("{quoted}.equijson_")));
    }
    out
}

/// How [`install`] treats objects of other roles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InstallOptions {
    /// Install into a schema another role owns, and replace functions of the same names
    /// another role owns (`--allow-other-owner`). Off: both are refused, because the
    /// owner of the schema (or of a function) could change the functions afterwards.
    pub allow_other_owner: bool,
}

/// Schema owner and whether the installing role may trust it: itself, a superuser, or
/// `pg_database_owner` when the installing role owns the database. No row: no schema.
const SCHEMA_OWNER: &str = "\
SELECT pg_catalog.pg_get_userbyid(n.nspowner)::pg_catalog.text,
       n.nspowner OPERATOR(pg_catalog.=) u.oid
       OR o.rolsuper
       OR (o.rolname OPERATOR(pg_catalog.=) 'pg_database_owner'
           AND d.datdba OPERATOR(pg_catalog.=) u.oid)
FROM pg_catalog.pg_namespace n
JOIN pg_catalog.pg_roles o ON o.oid OPERATOR(pg_catalog.=) n.nspowner
JOIN pg_catalog.pg_roles u ON u.rolname OPERATOR(pg_catalog.=) CURRENT_USER
JOIN pg_catalog.pg_database d ON d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()
WHERE n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name";

/// Functions of the names install-sql creates, in the schema, owned by another role.
const FOREIGN_FUNCTIONS: &str = "\
SELECT pg_catalog.format('%s (owner %s)', p.oid::pg_catalog.regprocedure,
                         pg_catalog.pg_get_userbyid(p.proowner))
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
WHERE n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name
  AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])
  AND p.proowner OPERATOR(pg_catalog.<>) (SELECT r.oid FROM pg_catalog.pg_roles r
                                          WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)
ORDER BY 1";

/// The names of [`FUNCTIONS`], without argument types.
fn function_names() -> Vec<String> {
    FUNCTIONS
        .iter()
        .map(|f| f.split('(').next().unwrap_or(f).to_owned())
        .collect()
}

/// Installs (or replaces) the functions in `schema`, creating the schema if needed, in one
/// transaction with a pinned `search_path` ([`crate::session::PIN_LOCAL`]): either every function is there afterwards, created
/// by and belonging to the installing role, or nothing changed.
///
/// Refused (unless `options.allow_other_owner`): a schema another role owns (other than
/// a superuser, or `pg_database_owner` for the database's owner), and functions of the
/// same names another role owns (`CREATE OR REPLACE` would keep them theirs).
///
/// # Errors
/// [`PgError::Usage`] for what is refused; [`PgError`] when the server refuses
/// (permissions, a name taken by something else).
pub fn install(client: &mut Client, schema: &str) -> Result<(), PgError> {
    install_with(client, schema, InstallOptions::default())
}

/// [`install`] with [`InstallOptions`].
///
/// # Errors
/// As [`install`].
pub fn install_with(
    client: &mut Client,
    schema: &str,
    options: InstallOptions,
) -> Result<(), PgError> {
    check_schema(schema)?;
    let err = |e: postgres::Error| classify(&e, None);
    let mut tx = client.transaction().map_err(err)?;
    tx.batch_execute(crate::session::PIN_LOCAL).map_err(err)?;
    let owner = tx.query_opt(SCHEMA_OWNER, &[&schema]).map_err(err)?;
    let create_schema = match owner {
        None => format!("CREATE SCHEMA {};\n", quote_ident(schema)),
        Some(row) => {
            let (who, trusted): (String, bool) = (row.get(0), row.get(1));
            if !trusted && !options.allow_other_owner {
                return Err(PgError::Usage(format!(
                    "schema {} belongs to role {who}, who could replace or wrap the functions \
                     after you install them; use a schema of your own, or pass \
                     --allow-other-owner",
                    quote_ident(schema)
                )));
            }
            String::new()
        }
    };
    let names = function_names();
    let foreign: Vec<String> = tx
        .query(FOREIGN_FUNCTIONS, &[&schema, &names])
        .map_err(err)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if !foreign.is_empty() && !options.allow_other_owner {
        return Err(PgError::Usage(format!(
            "schema {} already holds functions of these names owned by another role: {} \
             (CREATE OR REPLACE would leave them theirs); drop them, use another schema, or \
             pass --allow-other-owner",
            quote_ident(schema),
            foreign.join(", ")
        )));
    }
    tx.batch_execute(&format!("{create_schema}{}", sql_for_schema(schema)))
        .map_err(err)?;
    tx.commit().map_err(err)
}

/// Drops the functions from `schema` (those present; the schema itself stays), in one
/// transaction.
///
/// # Errors
/// [`PgError`] when the server refuses (permissions, other objects depending on them).
pub fn uninstall(client: &mut Client, schema: &str) -> Result<(), PgError> {
    check_schema(schema)?;
    let mut tx = client.transaction().map_err(|e| classify(&e, None))?;
    tx.batch_execute(crate::session::PIN_LOCAL)
        .map_err(|e| classify(&e, None))?;
    let mut drops = String::new();
    for f in FUNCTIONS {
        let _ = writeln!(
            drops,
            "DROP FUNCTION IF EXISTS {}.{f};",
            quote_ident(schema)
        );
    }
    tx.batch_execute(&drops).map_err(|e| classify(&e, None))?;
    tx.commit().map_err(|e| classify(&e, None))
}

/// Whether `schema.equijson_canonical(jsonb)` exists.
///
/// # Errors
/// [`PgError`] when the catalog cannot be read.
pub fn installed(client: &mut Client, schema: &str) -> Result<bool, PgError> {
    let row = client
        .query_one(
            "SELECT pg_catalog.to_regprocedure(pg_catalog.format(\
             '%I.equijson_canonical(pg_catalog.jsonb)', $1::pg_catalog.text)) IS NOT NULL",
            &[&schema],
        )
        .map_err(|e| classify(&e, None))?;
    row.try_get(0).map_err(|e| classify(&e, None))
}

#[cfg(test)]
mod tests {
    use super::{SQL, check_schema, sql_for_schema};

    #[test]
    fn a_schema_name_never_ends_a_body() {
        for schema in ["x$fn$y", "x$fn$ $fn1$ $fn2$", "a\"b", "plain"] {
            let sql = sql_for_schema(schema);
            let tag = if schema.contains("$fn$") {
                (1..100)
                    .map(|n| format!("$fn{n}$"))
                    .find(|t| !schema.contains(t.as_str()))
                    .unwrap_or_default()
            } else {
                "$fn$".to_owned()
            };
            // Every body opens and closes with a tag absent from the quoted name.
            assert_eq!(
                sql.matches(tag.as_str()).count(),
                SQL.matches("$fn$").count(),
                "{schema}"
            );
            assert!(
                !super::quote_ident(schema).contains(tag.as_str()),
                "{schema}"
            );
        }
        // Comments keep `public.`: a line break in a name could not reach them anyway.
        assert!(
            sql_for_schema("s").contains("--   select sha256(convert_to(public.equijson_canonical")
        );
        assert!(check_schema("a\nb").is_err() && check_schema(&"s".repeat(64)).is_err());
        assert!(check_schema("util").is_ok());
    }
}
