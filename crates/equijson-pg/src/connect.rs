//! Where to connect: `--database-url`, `DATABASE_URL`, or an ephemeral cluster; errors that never show the password.

use std::fmt::Write as _;

use postgres::error::SqlState;
use postgres::{Client, NoTls};

use crate::cluster::{ClusterError, EphemeralCluster};
use crate::tls::{RootCerts, SslMode, TlsSettings, split_tls_params};

/// The environment variable read when no URL is given.
pub const DATABASE_URL_ENV: &str = "DATABASE_URL";

/// Errors of the live runner. Messages never contain the connection password.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    /// The connection URL / string could not be parsed.
    #[error("invalid database URL: {0}")]
    BadUrl(String),
    /// The ephemeral cluster could not be started.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The server could not be reached (refused, unknown host, timeout, socket missing).
    #[error("cannot connect to {target}: {message}")]
    Unreachable {
        /// The server, without the password.
        target: String,
        /// Why.
        message: String,
    },
    /// The server rejected the credentials.
    #[error("authentication failed for {target}: {message}")]
    Auth {
        /// The server, without the password.
        target: String,
        /// The server's message.
        message: String,
    },
    /// The table does not exist (or is not visible).
    #[error("table {0} does not exist")]
    NoTable(String),
    /// The column does not exist in the table.
    #[error("column {column} does not exist in table {table}")]
    NoColumn {
        /// The table.
        table: String,
        /// The missing column.
        column: String,
    },
    /// The column has a type the runner cannot read as JSON.
    #[error("column {column} of {table} has type {found}; expected json, jsonb or text")]
    WrongType {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// Its type as the server names it.
        found: String,
    },
    /// The connection was lost or the server stopped while working.
    #[error("connection lost: {0}")]
    Lost(String),
    /// A statement ran past `statement_timeout` or was cancelled.
    #[error("statement cancelled: {0}")]
    Cancelled(String),
    /// Any other server or protocol error.
    #[error("{0}")]
    Server(String),
    /// Invalid arguments (shard spec, key, ...).
    #[error("{0}")]
    Usage(String),
    /// The TLS settings cannot be used (root certificate file missing or unreadable).
    #[error("TLS: {0}")]
    Tls(String),
}

/// Connection settings: the driver's, plus the TLS settings it cannot hold itself
/// (`sslmode=verify-ca|verify-full`, `sslrootcert`; see [`crate::tls`]).
///
/// Parse one from a `postgresql://` URL or a libpq `key=value` string, or convert a
/// `postgres::Config` (its `sslmode` is kept: `disable`, `prefer` or `require`).
#[derive(Clone)]
pub struct ConnectConfig {
    pg: postgres::Config,
    tls: TlsSettings,
}

impl std::fmt::Debug for ConnectConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectConfig")
            .field("server", &describe_config(&self.pg))
            .field("tls", &self.tls)
            .finish()
    }
}

impl ConnectConfig {
    /// Driver settings with explicit TLS settings (the driver's `sslmode` is set to match).
    #[must_use]
    pub fn new(mut pg: postgres::Config, tls: TlsSettings) -> Self {
        pg.ssl_mode(tls.driver_mode());
        Self { pg, tls }
    }

    /// The driver's settings.
    #[must_use]
    pub fn pg(&self) -> &postgres::Config {
        &self.pg
    }

    /// The driver's settings, to change (e.g. a statement timeout in `options`).
    pub fn pg_mut(&mut self) -> &mut postgres::Config {
        &mut self.pg
    }

    /// The TLS settings.
    #[must_use]
    pub fn tls(&self) -> &TlsSettings {
        &self.tls
    }

    /// The password, when one is set (to scrub it from messages).
    #[must_use]
    pub fn password(&self) -> Option<String> {
        self.pg
            .get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned())
    }
}

impl From<postgres::Config> for ConnectConfig {
    fn from(pg: postgres::Config) -> Self {
        let mode = match pg.get_ssl_mode() {
            postgres::config::SslMode::Disable => SslMode::Disable,
            postgres::config::SslMode::Require => SslMode::Require,
            _ => SslMode::Prefer,
        };
        Self::new(
            pg,
            TlsSettings {
                mode,
                root_cert: None,
            },
        )
    }
}

impl From<&postgres::Config> for ConnectConfig {
    fn from(pg: &postgres::Config) -> Self {
        Self::from(pg.clone())
    }
}

impl From<&ConnectConfig> for ConnectConfig {
    fn from(c: &ConnectConfig) -> Self {
        c.clone()
    }
}

impl std::str::FromStr for ConnectConfig {
    type Err = PgError;

    /// Parses a URL or `key=value` string, `sslmode` and `sslrootcert` included. The
    /// environment is not read (see [`Target::from_url`] for `PGSSLMODE`).
    fn from_str(url: &str) -> Result<Self, PgError> {
        let password = password_in_url(url);
        let bad = |m: String| PgError::BadUrl(scrub(&m, password.as_deref()));
        let split = split_tls_params(url).map_err(bad)?;
        let pg: postgres::Config = split
            .rest
            .parse()
            .map_err(|e: postgres::Error| bad(error_text(&e)))?;
        Ok(Self::new(
            pg,
            TlsSettings {
                mode: split.mode.unwrap_or_default(),
                root_cert: split.root_cert,
            },
        ))
    }
}

/// The server a runner talks to: a given URL or an ephemeral cluster it owns.
pub struct Target {
    config: ConnectConfig,
    password: Option<String>,
    cluster: Option<EphemeralCluster>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("server", &self.describe())
            .field("cluster", &self.cluster)
            .finish_non_exhaustive()
    }
}

impl Target {
    /// From `url`, else `DATABASE_URL`, else a new [`EphemeralCluster`].
    ///
    /// # Errors
    /// [`PgError::BadUrl`] for an unparsable URL, [`PgError::Cluster`] when no URL is
    /// given and the cluster cannot start.
    pub fn from_url_or_env(url: Option<&str>) -> Result<Self, PgError> {
        let env = std::env::var(DATABASE_URL_ENV)
            .ok()
            .filter(|s| !s.is_empty());
        match url.map(str::to_owned).or(env) {
            Some(u) => Self::from_url(&u),
            None => Ok(Self::ephemeral(EphemeralCluster::start()?)),
        }
    }

    /// From a `postgresql://` URL or a libpq `key=value` string. `sslmode` and
    /// `sslrootcert` work as in libpq (see [`crate::tls`]); when the string sets neither,
    /// `PGSSLMODE` and `PGSSLROOTCERT` are read, as libpq does.
    ///
    /// # Errors
    /// [`PgError::BadUrl`] when it does not parse (the message does not quote the URL).
    pub fn from_url(url: &str) -> Result<Self, PgError> {
        let mut config: ConnectConfig = url.parse()?;
        let explicit = split_tls_params(url).map_err(PgError::BadUrl)?;
        if explicit.mode.is_none()
            && let Some(m) = std::env::var("PGSSLMODE").ok().filter(|m| !m.is_empty())
        {
            let mode =
                SslMode::parse(&m).map_err(|e| PgError::BadUrl(format!("PGSSLMODE: {e}")))?;
            config.tls.mode = mode;
            config.pg.ssl_mode(config.tls.driver_mode());
        }
        if explicit.root_cert.is_none()
            && let Some(r) = std::env::var("PGSSLROOTCERT")
                .ok()
                .filter(|r| !r.is_empty())
        {
            config.tls.root_cert = Some(if r == "system" {
                RootCerts::System
            } else {
                RootCerts::File(r.into())
            });
        }
        if config.pg.get_application_name().is_none() {
            config.pg.application_name("equijson");
        }
        let password = config.password();
        Ok(Self {
            config,
            password,
            cluster: None,
        })
    }

    /// Wraps a started cluster (owned: dropping the target stops it).
    #[must_use]
    pub fn ephemeral(cluster: EphemeralCluster) -> Self {
        Self {
            config: cluster.config().into(),
            password: None,
            cluster: Some(cluster),
        }
    }

    /// From connection settings.
    #[must_use]
    pub fn from_config(config: impl Into<ConnectConfig>) -> Self {
        let config = config.into();
        let password = config.password();
        Self {
            config,
            password,
            cluster: None,
        }
    }

    /// The connection settings.
    #[must_use]
    pub fn config(&self) -> &ConnectConfig {
        &self.config
    }

    /// The ephemeral cluster, when this target owns one.
    #[must_use]
    pub fn cluster(&self) -> Option<&EphemeralCluster> {
        self.cluster.as_ref()
    }

    /// The ephemeral cluster, mutably (to stop it in tests).
    pub fn cluster_mut(&mut self) -> Option<&mut EphemeralCluster> {
        self.cluster.as_mut()
    }

    /// `host:port/dbname as user`, never the password.
    #[must_use]
    pub fn describe(&self) -> String {
        describe_config(&self.config.pg)
    }

    /// Opens a connection.
    ///
    /// # Errors
    /// [`PgError::Unreachable`] or [`PgError::Auth`], never quoting the password.
    pub fn connect(&self) -> Result<Client, PgError> {
        connect(&self.config)
    }

    /// Replaces the password, wherever it occurs in `message`, by `***`.
    #[must_use]
    pub fn scrub(&self, message: &str) -> String {
        scrub(message, self.password.as_deref())
    }
}

/// Describes connection settings without the password: `host:port/dbname as user`.
#[must_use]
pub fn describe_config(config: &postgres::Config) -> String {
    let mut s = String::new();
    for (i, host) in config.get_hosts().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        match host {
            postgres::config::Host::Tcp(h) => s.push_str(h),
            postgres::config::Host::Unix(p) => s.push_str(&p.display().to_string()),
        }
    }
    if s.is_empty() {
        s.push_str("localhost");
    }
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let _ = write!(
        s,
        ":{port}/{}",
        config.get_dbname().unwrap_or("(default database)")
    );
    if let Some(u) = config.get_user() {
        let _ = write!(s, " as {u}");
    }
    s
}

/// Connects with `config`: TLS as its `sslmode` says (never over a Unix-domain socket).
///
/// # Errors
/// [`PgError::Unreachable`] or [`PgError::Auth`], never quoting the password;
/// [`PgError::Tls`] when the trusted roots cannot be loaded.
pub fn connect(config: impl Into<ConnectConfig>) -> Result<Client, PgError> {
    let ConnectConfig {
        pg: mut config,
        tls,
    } = config.into();
    let password = config
        .get_password()
        .map(|p| String::from_utf8_lossy(p).into_owned());
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    let all_unix = config
        .get_hosts()
        .iter()
        .all(|h| matches!(h, postgres::config::Host::Unix(_)));
    let result = if tls.mode == SslMode::Disable || all_unix {
        // libpq never uses TLS on a Unix-domain socket, whatever sslmode says.
        config.ssl_mode(postgres::config::SslMode::Disable);
        config.connect(NoTls)
    } else {
        let rustls = tls.client_config().map_err(PgError::Tls)?;
        config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(rustls))
    };
    result.map_err(|e| {
        let target = describe_config(&config);
        let message = scrub(&error_text(&e), password.as_deref());
        match e.code() {
            Some(c)
                if *c == SqlState::INVALID_PASSWORD
                    || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                PgError::Auth { target, message }
            }
            _ if message.contains("password") => PgError::Auth { target, message },
            _ => PgError::Unreachable { target, message },
        }
    })
}

/// How a connection is secured, as the server sees it: `TLSv1.3 TLS_AES_256_GCM_SHA384`,
/// or `no TLS`.
#[must_use]
pub fn tls_summary(client: &mut Client) -> String {
    client
        .query_opt(
            "SELECT version, cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl",
            &[],
        )
        .ok()
        .flatten()
        .map_or_else(
            || "no TLS".to_owned(),
            |r| {
                let version: Option<String> = r.get(0);
                let cipher: Option<String> = r.get(1);
                format!(
                    "{} {}",
                    version.unwrap_or_default(),
                    cipher.unwrap_or_default()
                )
            },
        )
}

/// The full text of a driver error: the server's message with detail, or the chain of causes.
#[must_use]
pub fn error_text(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut s = format!("{}: {}", db.code().code(), db.message());
        if let Some(d) = db.detail() {
            let _ = write!(s, " ({d})");
        }
        return s;
    }
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(cause) = src {
        let text = cause.to_string();
        if !s.contains(&text) {
            let _ = write!(s, ": {text}");
        }
        src = cause.source();
    }
    s
}

/// Classifies an error met while working (after connecting): lost connection, cancelled
/// statement, or another server error.
#[must_use]
pub fn classify(e: &postgres::Error, password: Option<&str>) -> PgError {
    let text = scrub(&error_text(e), password);
    if e.is_closed() {
        return PgError::Lost(text);
    }
    match e.code() {
        Some(c)
            if *c == SqlState::ADMIN_SHUTDOWN
                || *c == SqlState::CRASH_SHUTDOWN
                || *c == SqlState::CANNOT_CONNECT_NOW
                || c.code().starts_with("08") =>
        {
            PgError::Lost(text)
        }
        Some(c) if *c == SqlState::QUERY_CANCELED => PgError::Cancelled(text),
        Some(_) => PgError::Server(text),
        // No SQLSTATE: an I/O or protocol failure, i.e. the connection is gone.
        None => PgError::Lost(text),
    }
}

/// The password written in a connection URL (`postgresql://user:password@host/...` or a
/// `password=` query parameter) or a `key=value` string (`password=...`, quoted or not), as
/// written (percent-encoding and backslashes kept); `None` when there is none. Used to keep
/// it out of messages.
#[must_use]
pub fn password_in_url(url: &str) -> Option<String> {
    if let Some(rest) = url.split_once("://").map(|(_, r)| r) {
        if let Some(p) = rest
            .split_once('?')
            .and_then(|(_, q)| q.split('&').find_map(|kv| kv.strip_prefix("password=")))
        {
            return Some(p.to_owned());
        }
        let userinfo = rest.split('@').next().filter(|_| rest.contains('@'))?;
        return userinfo.split_once(':').map(|(_, p)| p.to_owned());
    }
    key_value_password(url)
}

/// `password` in a libpq `key = value` string: the value as written, without its quotes.
fn key_value_password(s: &str) -> Option<String> {
    let mut rest = s;
    loop {
        let at = rest.find("password")?;
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let after = rest[at + "password".len()..].trim_start();
        rest = &rest[at + "password".len()..];
        let Some(value) = after.strip_prefix('=').map(str::trim_start) else {
            continue;
        };
        if !before_ok {
            continue;
        }
        if let Some(quoted) = value.strip_prefix('\'') {
            let mut end = quoted.len();
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            return Some(quoted[..end].to_owned());
        }
        let end = value.find(char::is_whitespace).unwrap_or(value.len());
        return Some(value[..end].to_owned());
    }
}

/// Replaces every occurrence of `password` in `message` by `***`.
#[must_use]
pub fn scrub(message: &str, password: Option<&str>) -> String {
    match password {
        Some(p) if !p.is_empty() => message.replace(p, "***"),
        _ => message.to_owned(),
    }
}

/// The server's major version (`server_version_num / 10000`, e.g. 15 for 15.18), which the
/// jsonb model follows.
///
/// # Errors
/// [`PgError`] when the server cannot be asked.
pub fn server_major(client: &mut Client) -> Result<u32, PgError> {
    let num: String = client
        .query_one("SHOW server_version_num", &[])
        .map_err(|e| classify(&e, None))?
        .get(0);
    Ok(num
        .trim()
        .parse::<u32>()
        .map_or(equijson_check::jsonb::RECORDED_PG_MAJOR, |n| n / 10_000))
}

#[cfg(test)]
mod tests {
    use super::password_in_url;

    #[test]
    fn passwords_are_found_in_every_form() {
        // (connection string, password as written in it)
        let table: &[(&str, Option<&str>)] = &[
            ("postgresql://me:s3cret@h:5432/db", Some("s3cret")),
            ("postgresql://me:p%40ss@h/db", Some("p%40ss")),
            ("postgres://me@h/db?sslmode=require&password=q1", Some("q1")),
            ("postgresql://me@h/db", None),
            ("host=h password=plain user=me", Some("plain")),
            ("host=h password = spaced user=me", Some("spaced")),
            ("host=h password='two words' user=me", Some("two words")),
            (r"host=h password='it\'s' user=me", Some(r"it\'s")),
            ("host=h user=me", None),
            ("host=h mypassword=x user=me password=real", Some("real")),
        ];
        for (url, want) in table {
            assert_eq!(password_in_url(url).as_deref(), *want, "{url}");
        }
    }
}
