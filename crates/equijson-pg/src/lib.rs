//! Live PostgreSQL runner for equijson: ephemeral clusters, json/jsonb round trips and row scans.
//!
//! # Ephemeral clusters
//!
//! [`cluster::EphemeralCluster::start`] runs `initdb` into a temporary directory and
//! starts the server with `pg_ctl` on a private unix socket and a free `127.0.0.1` port
//! (as an unprivileged OS user when the process is root). Dropping the value stops the
//! server and deletes its files; Ctrl-C, SIGTERM and SIGHUP do the same before exiting;
//! and if the process dies without doing so (SIGKILL, a crash), a watchdog process does.
//!
//! ```no_run
//! use equijson_pg::cluster::EphemeralCluster;
//! let cluster = EphemeralCluster::start()?;          // initdb + pg_ctl start
//! println!("{}", cluster.describe());                // version, bindir, socket, port
//! let mut client = cluster.config().connect(postgres::NoTls)?; // unix socket, trust
//! let url = cluster.connection_string();             // for other processes / DATABASE_URL
//! # let _ = (&mut client, url);
//! drop(cluster);                                     // pg_ctl stop, files removed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Connecting to a given server
//!
//! [`connect::Target::from_url_or_env`] takes `--database-url`, else
//! `EQUIJSON_DATABASE_URL`, else `DATABASE_URL`, else libpq's environment when it names a
//! server, else starts an ephemeral cluster; what a URL leaves unset comes from libpq's
//! environment, service file and password file ([`libpq_env`]). [`connect::connect`]
//! classifies failures (unreachable, bad credentials) and never shows the password. TLS
//! follows libpq's `sslmode` and `sslrootcert` (`verify-full` included), on rustls: see
//! [`tls`].

#![forbid(unsafe_code)]

pub mod canonical_sql;
pub mod cluster;
pub mod connect;
pub mod demo;
pub mod findings;
pub mod libpq_env;
pub mod live;
mod live_checks;
mod live_class;
pub mod report_seal;
pub mod roundtrip;
pub mod scan;
pub mod seed;
pub mod session;
mod settings_error;
pub mod sql_scan;
pub mod tls;
mod watchdog;
pub mod wire;

pub use crate::findings::{FindingsError, FindingsSink, RowFinding};
pub use crate::live::{LiveClass, ScanReport};
pub use cluster::{ClusterError, EphemeralCluster};
pub use connect::{ConnectConfig, PgError, Target};
/// The `postgres` client crate this runner is built on (its `Client` is what
/// [`connect::connect`] returns).
pub use postgres;
pub use roundtrip::{RoundtripFailure, RoundtripOptions, RoundtripReport, roundtrip};
pub use scan::{ScanOptions, scan, scan_spec};
