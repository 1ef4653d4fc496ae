//! `equijson_canonical(jsonb)`: RFC 8785 inside PostgreSQL, installed from plain SQL.
//!
//! The SQL lives in `crates/equijson-pg/sql/equijson_canonical.sql` (schema `public`);
//! [`install`] runs it in one transaction with `public.` replaced by the chosen schema.

use std::fmt::Write as _;

use postgres::Client;

use crate::connect::{PgError, classify};

/// The SQL file as shipped (functions in schema `public`).
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

/// The SQL text with its functions in `schema` instead of `public`.
#[must_use]
pub fn sql_for_schema(schema: &str) -> String {
    if schema == "public" {
        return SQL.to_owned();
    }
    SQL.replace(
        "public.equijson_",
        &format!("{}.equijson_", quote_ident(schema)),
    )
}

/// Installs (or replaces) the functions in `schema`, creating the schema if needed, in one
/// transaction: either every function is there afterwards or nothing changed.
///
/// # Errors
/// [`PgError`] when the server refuses (permissions, a name taken by something else).
pub fn install(client: &mut Client, schema: &str) -> Result<(), PgError> {
    if schema.is_empty() {
        return Err(PgError::Usage("the schema name is empty".to_owned()));
    }
    let mut tx = client.transaction().map_err(|e| classify(&e, None))?;
    tx.batch_execute(&format!(
        "CREATE SCHEMA IF NOT EXISTS {};\n{}",
        quote_ident(schema),
        sql_for_schema(schema)
    ))
    .map_err(|e| classify(&e, None))?;
    tx.commit().map_err(|e| classify(&e, None))
}

/// Drops the functions from `schema` (those present; the schema itself stays), in one
/// transaction.
///
/// # Errors
/// [`PgError`] when the server refuses (permissions, other objects depending on them).
pub fn uninstall(client: &mut Client, schema: &str) -> Result<(), PgError> {
    let mut tx = client.transaction().map_err(|e| classify(&e, None))?;
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
            "SELECT to_regprocedure(format('%I.equijson_canonical(jsonb)', $1::text)) IS NOT NULL",
            &[&schema],
        )
        .map_err(|e| classify(&e, None))?;
    row.try_get(0).map_err(|e| classify(&e, None))
}
