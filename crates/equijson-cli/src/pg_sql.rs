//! `equijson pg install-sql|uninstall-sql`: the SQL canonicalizer `equijson_canonical(jsonb)`.

use std::io::Write as _;

use clap::Args;
use equijson::untrusted::escape;
use equijson_pg::canonical_sql;
use equijson_pg::connect::{DATABASE_URL_ENV, EQUIJSON_DATABASE_URL_ENV, Target};

use crate::exit::Status;

pub(crate) const INSTALL_HELP: &str = "\
Creates (or replaces) equijson_canonical(jsonb) -> text and its helpers (equijson_scalar,
equijson_number, equijson_number_slow, equijson_utf16_key, equijson_canonical_split,
equijson_canonical_levels) in the schema, creating the schema if needed, in one transaction. Plain SQL and PL/pgSQL: no
extension, no superuser. Every function runs with search_path = pg_catalog, pg_temp and
belongs to your role: a schema or same-named functions owned by another role are refused
unless --allow-other-owner.
Running it again replaces the functions with the same text. --print writes the SQL instead
(the file crates/equijson-pg/sql/equijson_canonical.sql, schema substituted).
The server is chosen as for `pg scan` (see `equijson pg --help`: --database-url,
--database-url-file, EQUIJSON_DATABASE_URL, DATABASE_URL, libpq's PG* variables, service
and password files), but never an ephemeral cluster: without a server, exit 2.

  equijson pg install-sql --database-url postgresql://app@db/prod --schema util
  psql -c \"select util.equijson_canonical('{\\\"b\\\":1,\\\"a\\\":[1.0,1e21]}')\"   -- {\"a\":[1,1e+21],\"b\":1}

Exit codes: 0 installed, 2 usage, connection or server error (nothing changed).";

/// `equijson pg install-sql`.
#[derive(Args, Debug)]
#[command(after_help = INSTALL_HELP)]
pub(crate) struct InstallArgs {
    /// Schema for the functions.
    #[arg(long, value_name = "S", default_value = "public")]
    schema: String,
    /// Write the SQL to stdout instead of installing it.
    #[arg(long)]
    print: bool,
    /// Install into a schema another role owns, or over functions of the same names
    /// another role owns (refused by default: that role could change them afterwards).
    #[arg(long)]
    allow_other_owner: bool,
    #[command(flatten)]
    conn: crate::pg::ConnArgs,
}

/// `equijson pg uninstall-sql`.
#[derive(Args, Debug)]
#[command(
    after_help = "Drops the functions install-sql creates (those present) from the \
schema, in one transaction; the schema itself stays.\n\nExit codes: 0 done, 2 usage, \
connection or server error."
)]
pub(crate) struct UninstallArgs {
    /// Schema the functions are in.
    #[arg(long, value_name = "S", default_value = "public")]
    schema: String,
    #[command(flatten)]
    conn: crate::pg::ConnArgs,
}

/// The server the user named, chosen as `pg scan` chooses it (`--database-url`,
/// `--database-url-file`, `EQUIJSON_DATABASE_URL`, `DATABASE_URL`, libpq's environment and
/// files) but never an ephemeral cluster: installing into a throwaway cluster means nothing.
fn given_server(url: Option<&str>) -> Result<Target, Status> {
    match Target::given(url) {
        Ok(Some(t)) => {
            for w in t.warnings() {
                eprintln!("{}: warning: {}", crate::messages::bin(), escape(w));
            }
            Ok(t)
        }
        Ok(None) => {
            eprintln!(
                "{}: error: no server given: use --database-url, --database-url-file, \
                 {EQUIJSON_DATABASE_URL_ENV}, {DATABASE_URL_ENV} or libpq's PGHOST, PGHOSTADDR, \
                 PGDATABASE or PGSERVICE (or --print to write the SQL)",
                crate::messages::bin()
            );
            Err(Status::Environment)
        }
        Err(e) => {
            eprintln!(
                "{}: error: {}",
                crate::messages::bin(),
                escape(&e.to_string())
            );
            Err(Status::Environment)
        }
    }
}

pub(crate) fn run_install(a: &InstallArgs) -> Status {
    if let Err(e) = canonical_sql::check_schema(&a.schema) {
        eprintln!(
            "{}: error: {}",
            crate::messages::bin(),
            escape(&e.to_string())
        );
        return Status::Environment;
    }
    if a.print {
        let mut out = std::io::stdout().lock();
        let sql = canonical_sql::sql_for_schema(&a.schema);
        return match out.write_all(sql.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => Status::Success,
            Err(e) => {
                eprintln!("{}: error: writing stdout: {e}", crate::messages::bin());
                Status::Environment
            }
        };
    }
    on_given_server(
        a.conn.database_url.as_deref(),
        |c| {
            canonical_sql::install_with(
                c,
                &a.schema,
                canonical_sql::InstallOptions {
                    allow_other_owner: a.allow_other_owner,
                },
            )
        },
        &format!(
            "installed {}.equijson_canonical(jsonb)",
            canonical_sql::quote_ident(&a.schema)
        ),
    )
}

pub(crate) fn run_uninstall(a: &UninstallArgs) -> Status {
    on_given_server(
        a.conn.database_url.as_deref(),
        |c| canonical_sql::uninstall(c, &a.schema),
        &format!(
            "removed the equijson_canonical functions from schema {}",
            canonical_sql::quote_ident(&a.schema)
        ),
    )
}

/// Connects to the server the user named, runs `op`, and reports `done` (with the server)
/// or the error (password scrubbed) on stderr.
fn on_given_server(
    url: Option<&str>,
    op: impl FnOnce(&mut equijson_pg::postgres::Client) -> Result<(), equijson_pg::PgError>,
    done: &str,
) -> Status {
    let target = match given_server(url) {
        Ok(t) => t,
        Err(s) => return s,
    };
    let result = target.connect().and_then(|mut c| op(&mut c));
    match result {
        Ok(()) => {
            eprintln!(
                "{}: {} on {}",
                crate::messages::bin(),
                escape(done),
                escape(&target.describe())
            );
            Status::Success
        }
        Err(e) => {
            eprintln!(
                "{}: error: {}",
                crate::messages::bin(),
                escape(&target.scrub(&e.to_string()))
            );
            Status::Environment
        }
    }
}
