//! Tests that need PostgreSQL on a machine without it: skipped with a line that says so, or,
//! under `EQUIJSON_REQUIRE_PG=1` (which `just test` and `just verify` set), failed.
//!
//! Included by `#[path]` from the PostgreSQL tests of `equijson-pg` and `equijson-cli`.
#![allow(dead_code, reason = "each test file uses the part it needs")]

use std::io::Write as _;

use equijson_pg::cluster::{ClusterError, EphemeralCluster, server_bindir};

/// Every variable that names a server or fills one in (equijson's, and libpq's that
/// `Target` reads): tests remove them from a child's environment, so that the environment
/// they run in never decides which server they touch.
pub(crate) const CONNECTION_VARS: &[&str] = &[
    "DATABASE_URL",
    "EQUIJSON_DATABASE_URL",
    "EQUIJSON_ARGV_PASSWORD",
    "PGHOST",
    "PGHOSTADDR",
    "PGPORT",
    "PGDATABASE",
    "PGUSER",
    "PGPASSWORD",
    "PGPASSFILE",
    "PGSERVICE",
    "PGSERVICEFILE",
    "PGSYSCONFDIR",
    "PGSSLMODE",
    "PGSSLROOTCERT",
    "PGCONNECT_TIMEOUT",
    "PGAPPNAME",
];

/// The environment variable that turns a skip into a failure (`1`).
pub(crate) const REQUIRE_ENV: &str = "EQUIJSON_REQUIRE_PG";

/// Whether skipping is refused: `EQUIJSON_REQUIRE_PG` is set to anything but `""` or `0`.
pub(crate) fn skipping_refused() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Skips `test` for `why`: prints `skipped: TEST: WHY` on the terminal (past the test
/// harness's output capture, so plain `cargo test` shows it); under `EQUIJSON_REQUIRE_PG=1`
/// panics instead.
pub(crate) fn skip(test: &str, why: &str) {
    assert!(
        !skipping_refused(),
        "{test}: {why}; {REQUIRE_ENV}=1 (set by `just test` and `just verify`) refuses to skip"
    );
    // Straight to the process's stderr: libtest captures only `print!`/`eprint!`.
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {why}");
}

/// `true` when PostgreSQL's server binaries are there; without them, [`skip`]s `test` and
/// returns `false`. Any other problem (`EQUIJSON_PG_BINDIR` naming a directory without them)
/// panics: a broken installation is a failure, not a skip.
pub(crate) fn server_or_skip(test: &str) -> bool {
    match server_bindir() {
        Ok(_) => true,
        Err(ClusterError::NotFound) => {
            skip(
                test,
                "no PostgreSQL server binaries (initdb, pg_ctl, postgres) found on PATH, in \
                 `pg_config --bindir` or /usr/lib/postgresql/*/bin; install postgresql \
                 (`bash scripts/setup.sh`) or set EQUIJSON_PG_BINDIR",
            );
            false
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

/// A new ephemeral cluster, or `None` (after [`server_or_skip`]'s line) on a machine
/// without PostgreSQL.
pub(crate) fn cluster_or_skip(test: &str) -> Option<EphemeralCluster> {
    server_or_skip(test)
        .then(|| EphemeralCluster::start().unwrap_or_else(|e| panic!("{test}: start cluster: {e}")))
}
