//! Where to connect: `--database-url`, `DATABASE_URL`, or an ephemeral cluster; errors that never show the password.

use std::fmt::Write as _;

/// The server's error codes, as [`PgError::sqlstate`] gives them (re-exported from `postgres`).
pub use postgres::error::SqlState;
use postgres::{Client, NoTls};

use crate::cluster::{ClusterError, EphemeralCluster};
use crate::libpq_env;
use crate::tls::{RootCerts, SslMode, TlsSettings, split_tls_params};

/// The environment variable read when no URL is given (after [`EQUIJSON_DATABASE_URL_ENV`]).
pub const DATABASE_URL_ENV: &str = "DATABASE_URL";
/// Read first when no URL is given: equijson's own, so that a `DATABASE_URL` meant for
/// another program in the same environment is not used by mistake.
pub const EQUIJSON_DATABASE_URL_ENV: &str = "EQUIJSON_DATABASE_URL";
/// The password taken out of a `--database-url` on the command line (see
/// [`crate::libpq_env::without_password`]): it counts as written in the URL (before a
/// service file, `PGPASSWORD` and the password file), and is never on the command line.
pub const ARGV_PASSWORD_ENV: &str = "EQUIJSON_ARGV_PASSWORD";

/// Errors of the live runner. Messages never contain the connection password.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    /// The connection URL / string could not be parsed.
    #[error("invalid database URL: {0}")]
    BadUrl(String),
    /// The ephemeral cluster could not be started.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The server could not be reached (refused, unknown host, timeout, socket missing),
    /// or refused the connection (`code`: e.g. `3D000` no such database, `53300` too many
    /// connections).
    #[error("cannot connect to {target}: {message}{}", sqlstate_suffix(code.as_ref()))]
    Unreachable {
        /// The server, without the password.
        target: String,
        /// The server's SQLSTATE when it answered.
        code: Option<SqlState>,
        /// Why.
        message: String,
    },
    /// The server rejected the credentials.
    #[error("authentication failed for {target}: {message}{}", sqlstate_suffix(code.as_ref()))]
    Auth {
        /// The server, without the password.
        target: String,
        /// The server's SQLSTATE (`28P01`, `28000`) when it gave one.
        code: Option<SqlState>,
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
    /// Any other server or protocol error. `code` is the server's SQLSTATE (`None` for an
    /// error the runner met itself); shown after the message as `(SQLSTATE 42P01)`.
    #[error("{message}{}", sqlstate_suffix(code.as_ref()))]
    Server {
        /// The server's SQLSTATE, to match on (`SqlState::UNDEFINED_COLUMN`, ...).
        code: Option<SqlState>,
        /// The server's message with its detail, without the password.
        message: String,
    },
    /// Invalid arguments (shard spec, key, ...).
    #[error("{0}")]
    Usage(String),
    /// The TLS settings cannot be used (root certificate file missing or unreadable).
    #[error("TLS: {0}")]
    Tls(String),
}

/// ` (SQLSTATE XXXXX)` after a message, or nothing.
fn sqlstate_suffix(code: Option<&SqlState>) -> String {
    code.map_or_else(String::new, |c| format!(" (SQLSTATE {})", c.code()))
}

impl PgError {
    /// An error of the runner's own (no SQLSTATE) in the `Server` kind.
    #[must_use]
    pub fn server(message: impl Into<String>) -> Self {
        Self::Server {
            code: None,
            message: message.into(),
        }
    }

    /// The SQLSTATE of this error: the server's for [`PgError::Server`], and for
    /// [`PgError::Auth`] / [`PgError::Unreachable`] when the server answered; `57014` for
    /// [`PgError::Cancelled`]; and
    /// for [`PgError::NoTable`] / [`PgError::NoColumn`], found in the catalog before any
    /// statement could fail, the code PostgreSQL gives that condition (`42P01`, `42703`).
    /// `None` for the rest (URL, cluster, TLS and usage errors, a lost connection).
    #[must_use]
    pub fn sqlstate(&self) -> Option<&SqlState> {
        match self {
            Self::Server { code, .. }
            | Self::Auth { code, .. }
            | Self::Unreachable { code, .. } => code.as_ref(),
            Self::Cancelled(_) => Some(&SqlState::QUERY_CANCELED),
            Self::NoTable(_) => Some(&SqlState::UNDEFINED_TABLE),
            Self::NoColumn { .. } => Some(&SqlState::UNDEFINED_COLUMN),
            _ => None,
        }
    }

    /// Puts `context` before the message of a [`PgError::Server`] (keeping its code);
    /// other kinds are returned unchanged.
    #[must_use]
    pub fn in_context(self, context: &str) -> Self {
        match self {
            Self::Server { code, message } => Self::Server {
                code,
                message: format!("{context}: {message}"),
            },
            e => e,
        }
    }
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
        let bad = |m: String| PgError::BadUrl(scrub_pieces(&m, password.as_deref()));
        let split = split_tls_params(url).map_err(|e| bad(e.to_string()))?;
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
    warnings: Vec<String>,
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
    /// From `url`, else `EQUIJSON_DATABASE_URL`, else `DATABASE_URL`, else libpq's
    /// environment when it names a server (`PGHOST`, `PGHOSTADDR`, `PGDATABASE` or
    /// `PGSERVICE`), else a new [`EphemeralCluster`].
    ///
    /// # Errors
    /// [`PgError::BadUrl`] for an unparsable URL, [`PgError::Cluster`] when no server is
    /// named and the cluster cannot start.
    pub fn from_url_or_env(url: Option<&str>) -> Result<Self, PgError> {
        match Self::given(url)? {
            Some(t) => Ok(t),
            None => Ok(Self::ephemeral(EphemeralCluster::start()?)),
        }
    }

    /// The server the user named, chosen as [`Self::from_url_or_env`] does but without
    /// the ephemeral cluster: `url`, else `EQUIJSON_DATABASE_URL`, else `DATABASE_URL`,
    /// else libpq's environment when it names a server; `None` when nothing names one
    /// (for commands where a throwaway cluster would mean nothing, such as `install-sql`).
    ///
    /// # Errors
    /// [`PgError::BadUrl`] for an unparsable URL or service file.
    pub fn given(url: Option<&str>) -> Result<Option<Self>, PgError> {
        Self::given_with_env(url, &libpq_env::process_env)
    }

    /// [`Self::given`] with the environment read through `env`.
    ///
    /// # Errors
    /// As [`Self::given`].
    pub fn given_with_env(
        url: Option<&str>,
        env: libpq_env::Env<'_>,
    ) -> Result<Option<Self>, PgError> {
        let url = url
            .map(str::to_owned)
            .or_else(|| env(EQUIJSON_DATABASE_URL_ENV))
            .or_else(|| env(DATABASE_URL_ENV));
        match url {
            Some(u) => Self::from_url_with_env(&u, env).map(Some),
            None if libpq_env::names_a_server(env) => Self::from_url_with_env("", env).map(Some),
            None => Ok(None),
        }
    }

    /// From a `postgresql://` URL or a libpq `key=value` string, completed from libpq's
    /// environment as libpq does (see [`crate::libpq_env`]): a service file, `PGHOST`,
    /// `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, the password file, `PGSSLMODE`,
    /// `PGSSLROOTCERT`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`. `sslmode` and `sslrootcert` work
    /// as in libpq (see [`crate::tls`]).
    ///
    /// # Errors
    /// [`PgError::BadUrl`] when it does not parse (the message does not quote the URL or
    /// any part of a password).
    pub fn from_url(url: &str) -> Result<Self, PgError> {
        Self::from_url_with_env(url, &libpq_env::process_env)
    }

    /// [`Self::from_url`] with the environment read through `env`.
    ///
    /// # Errors
    /// As [`Self::from_url`].
    pub fn from_url_with_env(url: &str, env: libpq_env::Env<'_>) -> Result<Self, PgError> {
        let written = password_in_url(url);
        let bad = |m: String| PgError::BadUrl(scrub_pieces(&m, written.as_deref()));
        check_url_shape(url).map_err(bad)?;
        let (rest, taken) = libpq_env::take_params(url, &["service", "passfile"])
            .map_err(|e| bad(e.to_string()))?;
        let explicit = split_tls_params(&rest).map_err(|e| bad(e.to_string()))?;
        let mut config = rest.parse::<ConnectConfig>().map_err(|e| match e {
            PgError::BadUrl(m) => bad(m),
            e => e,
        })?;
        let mut fill = Fill {
            config: &mut config,
            explicit_mode: explicit.mode.is_some(),
            explicit_root: explicit.root_cert.is_some(),
            passfile: taken.get("passfile").cloned(),
            warnings: Vec::new(),
        };
        if let Some(p) = env(ARGV_PASSWORD_ENV) {
            fill.set("password", &p)?;
        }
        if let Some(name) = taken.get("service").cloned().or_else(|| env("PGSERVICE")) {
            for (k, v) in
                libpq_env::service(&name, env).map_err(|e| PgError::BadUrl(e.to_string()))?
            {
                fill.set(&k, &v)?;
            }
        }
        for (var, key) in libpq_env::ENV_PARAMS {
            if let Some(v) = env(var) {
                fill.set(key, &v).map_err(|e| match e {
                    PgError::BadUrl(m) => PgError::BadUrl(format!("{var}: {m}")),
                    e => e,
                })?;
            }
        }
        fill.defaults(env);
        let warnings = std::mem::take(&mut fill.warnings);
        if config.pg.get_application_name().is_none() {
            config.pg.application_name("equijson");
        }
        let password = config.password();
        Ok(Self {
            config,
            password,
            cluster: None,
            warnings,
        })
    }

    /// Warnings met while reading the settings (a password file ignored for its
    /// permissions, a service file setting not supported), for the caller to show.
    #[must_use]
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Wraps a started cluster (owned: dropping the target stops it).
    #[must_use]
    pub fn ephemeral(cluster: EphemeralCluster) -> Self {
        Self {
            config: cluster.config().into(),
            password: None,
            cluster: Some(cluster),
            warnings: Vec::new(),
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
            warnings: Vec::new(),
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
        let rustls = tls
            .client_config()
            .map_err(|e| PgError::Tls(e.to_string()))?;
        config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(rustls))
    };
    result.map_err(|e| {
        let target = describe_config(&config);
        let message = scrub(&message_text(&e), password.as_deref());
        let code = e.code().cloned();
        match &code {
            Some(c)
                if *c == SqlState::INVALID_PASSWORD
                    || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                PgError::Auth {
                    target,
                    code,
                    message,
                }
            }
            _ if message.contains("password") => PgError::Auth {
                target,
                code,
                message,
            },
            _ => PgError::Unreachable {
                target,
                code,
                message,
            },
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
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), message_text(e)),
        None => message_text(e),
    }
}

/// [`error_text`] without the SQLSTATE in front: the server's message with detail, or the
/// chain of causes.
fn message_text(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut s = db.message().to_owned();
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
        Some(c) => PgError::Server {
            code: Some(c.clone()),
            message: scrub(&message_text(e), password),
        },
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

/// [`scrub`], and also every run of three or more characters that is a piece of the
/// password replaced by `***`: for messages about a connection string that holds it (a
/// parser that quotes a word, say one after a space inside an unquoted password, shows
/// nothing of it).
#[must_use]
pub fn scrub_pieces(message: &str, password: Option<&str>) -> String {
    let Some(p) = password.filter(|p| !p.is_empty()) else {
        return message.to_owned();
    };
    let message = message.replace(p, "***");
    let pw: Vec<char> = p.chars().collect();
    if pw.len() < 3 {
        return message;
    }
    let msg: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    while i < msg.len() {
        // The longest piece of the password starting at msg[i].
        let longest = (0..pw.len())
            .map(|start| {
                msg[i..]
                    .iter()
                    .zip(&pw[start..])
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0);
        if longest >= 3 {
            out.push_str("***");
            i += longest;
        } else {
            out.push(msg[i]);
            i += 1;
        }
    }
    out
}

/// Refuses a URL whose user name or password holds an unencoded `@`: the driver (like
/// libpq) ends the credentials at the first `@`, so the rest of the password would be
/// taken for the host and shown in messages.
fn check_url_shape(url: &str) -> Result<(), String> {
    if let Some((_, rest)) = url.split_once("://") {
        let authority = rest.split(['/', '?']).next().unwrap_or(rest);
        let before_query = rest.split('?').next().unwrap_or(rest);
        if authority.matches('@').count() > 1 || before_query.matches('@').count() > 1 {
            return Err(
                "more than one `@` before the host: percent-encode the user name and \
                 password (RFC 3986), or give the password in PGPASSWORD or ~/.pgpass"
                    .to_owned(),
            );
        }
    }
    Ok(())
}

/// Fills the settings a connection string left unset, as libpq does.
struct Fill<'a> {
    config: &'a mut ConnectConfig,
    explicit_mode: bool,
    explicit_root: bool,
    passfile: Option<String>,
    warnings: Vec<String>,
}

impl Fill<'_> {
    /// Sets `key` to `value` unless the connection string (or an earlier source) set it.
    fn set(&mut self, key: &str, value: &str) -> Result<(), PgError> {
        let pg = &mut self.config.pg;
        match key {
            "host" | "hostaddr" if pg.get_hosts().is_empty() => {
                for h in value.split(',').map(str::trim).filter(|h| !h.is_empty()) {
                    if h.starts_with('/') {
                        pg.host_path(h);
                    } else {
                        pg.host(h);
                    }
                }
            }
            "port" if pg.get_ports().is_empty() => {
                for p in value.split(',').map(str::trim) {
                    let port: u16 = p
                        .parse()
                        .map_err(|_| PgError::BadUrl(format!("invalid port {p:?}")))?;
                    pg.port(port);
                }
            }
            "dbname" if pg.get_dbname().is_none() => {
                pg.dbname(value);
            }
            "user" if pg.get_user().is_none() => {
                pg.user(value);
            }
            "password" if pg.get_password().is_none() => {
                pg.password(value);
            }
            "passfile" if self.passfile.is_none() => self.passfile = Some(value.to_owned()),
            "connect_timeout" if pg.get_connect_timeout().is_none() => {
                let secs: u64 = value
                    .trim()
                    .parse()
                    .map_err(|_| PgError::BadUrl(format!("invalid connect_timeout {value:?}")))?;
                // As libpq: 0 means wait forever (here: a year, not the 10 s default of
                // `connect`); below 2 seconds counts as 2.
                let secs = if secs == 0 {
                    365 * 24 * 3600
                } else {
                    secs.max(2)
                };
                pg.connect_timeout(std::time::Duration::from_secs(secs));
            }
            "application_name" if pg.get_application_name().is_none() => {
                pg.application_name(value);
            }
            "sslmode" if !self.explicit_mode => {
                self.config.tls.mode =
                    SslMode::parse(value).map_err(|e| PgError::BadUrl(e.to_string()))?;
                let mode = self.config.tls.driver_mode();
                self.config.pg.ssl_mode(mode);
                self.explicit_mode = true;
            }
            "sslrootcert" if !self.explicit_root => {
                self.config.tls.root_cert = Some(if value == "system" {
                    RootCerts::System
                } else {
                    RootCerts::File(value.into())
                });
                self.explicit_root = true;
            }
            "host" | "hostaddr" | "port" | "dbname" | "user" | "password" | "passfile"
            | "connect_timeout" | "application_name" | "sslmode" | "sslrootcert" => {}
            other => self.warnings.push(format!(
                "service setting `{other}` is not supported by equijson; ignored"
            )),
        }
        Ok(())
    }

    /// libpq's defaults for what is still unset: the local socket directory, the OS user,
    /// and a password from the password file.
    fn defaults(&mut self, env: libpq_env::Env<'_>) {
        let pg = &mut self.config.pg;
        if pg.get_hosts().is_empty() {
            let dir = ["/var/run/postgresql", "/tmp"]
                .into_iter()
                .find(|d| std::path::Path::new(d).is_dir())
                .unwrap_or("/tmp");
            pg.host_path(dir);
        }
        if pg.get_user().is_none()
            && let Some(u) = env("USER").or_else(|| env("LOGNAME"))
        {
            pg.user(&u);
        }
        if pg.get_password().is_some() {
            return;
        }
        let Some(file) = self
            .passfile
            .clone()
            .map(std::path::PathBuf::from)
            .or_else(|| env("HOME").map(|h| std::path::Path::new(&h).join(".pgpass")))
        else {
            return;
        };
        let host = match pg.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            // As libpq: the default socket directory matches `localhost`.
            Some(postgres::config::Host::Unix(p))
                if p == std::path::Path::new("/var/run/postgresql") =>
            {
                "localhost".to_owned()
            }
            Some(postgres::config::Host::Unix(p)) => p.display().to_string(),
            None => "localhost".to_owned(),
        };
        let port = pg.get_ports().first().copied().unwrap_or(5432).to_string();
        let user = pg.get_user().unwrap_or_default().to_owned();
        let db = pg.get_dbname().unwrap_or(user.as_str()).to_owned();
        match libpq_env::password_from_file(&file, &host, &port, &db, &user) {
            Ok(Some(p)) => {
                pg.password(p);
            }
            Ok(None) => {}
            Err(w) => self.warnings.push(w.to_string()),
        }
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
    use super::{PgError, Target, password_in_url, scrub_pieces};

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

    /// What a target connects to: `host:port/db user password app timeout sslmode`.
    fn summary(t: &Target) -> String {
        let pg = t.config().pg();
        format!(
            "{} {} {} {}s {}",
            super::describe_config(pg),
            pg.get_password().map_or_else(
                || "-".to_owned(),
                |p| String::from_utf8_lossy(p).into_owned()
            ),
            pg.get_application_name().unwrap_or("-"),
            pg.get_connect_timeout()
                .map_or(0, std::time::Duration::as_secs),
            t.config().tls().mode.name()
        )
    }

    #[test]
    fn settings_come_from_the_string_then_the_environment_then_defaults() {
        /// Connection string, environment, what it connects to.
        type Row = (
            &'static str,
            &'static [(&'static str, &'static str)],
            &'static str,
        );
        let table: &[Row] = &[
            (
                "",
                &[
                    ("PGHOST", "db1"),
                    ("PGPORT", "6000"),
                    ("PGUSER", "u"),
                    ("PGDATABASE", "d"),
                    ("PGPASSWORD", "envpw"),
                    ("PGAPPNAME", "app"),
                    ("PGCONNECT_TIMEOUT", "7"),
                    ("PGSSLMODE", "require"),
                ],
                "db1:6000/d as u envpw app 7s require",
            ),
            (
                "postgresql://me:urlpw@h:5/x?application_name=mine&sslmode=disable",
                &[
                    ("PGHOST", "db1"),
                    ("PGPORT", "6000"),
                    ("PGUSER", "u"),
                    ("PGDATABASE", "d"),
                    ("PGPASSWORD", "envpw"),
                    ("PGAPPNAME", "app"),
                    ("PGSSLMODE", "require"),
                ],
                "h:5/x as me urlpw mine 0s disable",
            ),
            (
                "host=/run/pg user=k",
                &[
                    ("PGPASSWORD", "envpw"),
                    ("EQUIJSON_ARGV_PASSWORD", "argvpw"),
                ],
                "/run/pg:5432/(default database) as k argvpw equijson 0s prefer",
            ),
            (
                "host=h",
                &[("USER", "osuser"), ("PGCONNECT_TIMEOUT", "1")],
                "h:5432/(default database) as osuser - equijson 2s prefer",
            ),
            (
                "host=h user=u",
                &[("PGCONNECT_TIMEOUT", "0")],
                "h:5432/(default database) as u - equijson 31536000s prefer",
            ),
        ];
        for (url, env, want) in table {
            let env = |name: &str| {
                env.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            };
            let t = Target::from_url_with_env(url, &env).expect(url);
            assert_eq!(summary(&t), *want, "{url}");
        }
    }

    #[test]
    fn a_given_server_comes_from_the_url_then_the_environment_never_a_cluster() {
        /// `--database-url`, environment, what it connects to (`None`: no server named).
        type Row = (
            Option<&'static str>,
            &'static [(&'static str, &'static str)],
            Option<&'static str>,
        );
        let table: &[Row] = &[
            (None, &[], None),
            // PGUSER, PGPORT or PGPASSWORD alone name no server.
            (
                None,
                &[("PGUSER", "u"), ("PGPORT", "6000"), ("PGPASSWORD", "p")],
                None,
            ),
            (
                Some("host=a user=u"),
                &[("EQUIJSON_DATABASE_URL", "host=b user=u")],
                Some("a:5432"),
            ),
            (
                None,
                &[
                    ("EQUIJSON_DATABASE_URL", "host=b user=u"),
                    ("DATABASE_URL", "host=c user=u"),
                ],
                Some("b:5432"),
            ),
            (
                None,
                &[("DATABASE_URL", "host=c user=u"), ("PGHOST", "d")],
                Some("c:5432"),
            ),
            (
                None,
                &[("PGHOST", "d"), ("PGPORT", "6001"), ("PGUSER", "u")],
                Some("d:6001"),
            ),
            (None, &[("PGDATABASE", "db"), ("PGUSER", "u")], Some("/db")),
            (
                None,
                &[("PGHOSTADDR", "127.0.0.2"), ("PGUSER", "u")],
                Some("as u"),
            ),
        ];
        for (url, vars, want) in table {
            let env = |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            };
            let t = Target::given_with_env(*url, &env).expect("parses");
            match (want, &t) {
                (None, None) => {}
                (Some(w), Some(t)) => {
                    assert!(t.cluster().is_none());
                    let s = summary(t);
                    assert!(s.contains(w), "{url:?} {vars:?}: {s} lacks {w}");
                }
                _ => panic!("{url:?}: got {t:?}, want {want:?}"),
            }
        }
        // A service that no file defines is an error, not "no server".
        let env = |name: &str| {
            (name == "PGSERVICE" || name == "PGSERVICEFILE" || name == "PGSYSCONFDIR")
                .then(|| "/nonexistent-equijson-test".to_owned())
        };
        assert!(matches!(
            Target::given_with_env(None, &env),
            Err(PgError::BadUrl(_))
        ));
    }

    #[test]
    fn pieces_of_a_password_are_scrubbed() {
        assert_eq!(
            scrub_pieces(
                "unknown option `cd` near xyz@host and ab cd",
                Some("ab cd@hos")
            ),
            "unknown option `cd` near xyz***t and ***"
        );
        assert_eq!(scrub_pieces("a message", Some("ab")), "a message");
        assert_eq!(scrub_pieces("pw ab here", Some("ab")), "pw *** here");
    }
}
