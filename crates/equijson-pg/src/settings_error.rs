//! Typed errors of reading connection settings: the connection string's syntax, its TLS
//! parameters, the service file, the password file, the TLS client configuration.
//!
//! None of them holds a value of the connection string (a key is shown only when it is
//! one of libpq's keywords), so their messages never show a password. Each converts into
//! [`PgError`](crate::connect::PgError) with the message it had as a string.

use std::path::PathBuf;

use crate::tls::InvalidSslMode;

/// A connection string (URL or libpq `key=value` string) that cannot be split into
/// parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnStringError {
    /// A `%` of a URL parameter not followed by two hex digits.
    #[error("invalid percent-encoding at byte {at} of a URL parameter")]
    PercentEncoding {
        /// Byte offset of the `%` in the parameter.
        at: usize,
    },
    /// A URL parameter whose percent-decoded bytes are not UTF-8.
    #[error("a URL parameter is not UTF-8 after percent-decoding")]
    PercentDecodedNotUtf8,
    /// A word of a `key=value` string without its `=`.
    #[error(
        "missing `=` after {key} in the connection string (a value with spaces must be quoted: key='a b')"
    )]
    MissingEquals {
        /// The key as shown: `` `host` `` for a libpq keyword, else a placeholder (a word
        /// of a password written unquoted would otherwise be echoed).
        key: String,
    },
    /// A `'` opening a value that never closes.
    #[error("unterminated quoted value of {key}")]
    UnterminatedQuote {
        /// The key as shown (see [`ConnStringError::MissingEquals`]).
        key: String,
    },
    /// A value whose bytes are not UTF-8.
    #[error("the value of {key} is not UTF-8")]
    ValueNotUtf8 {
        /// The key as shown (see [`ConnStringError::MissingEquals`]).
        key: String,
    },
}

/// Why [`split_tls_params`](crate::tls::split_tls_params) refused a connection string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlsParamError {
    /// `sslmode` is none of libpq's values.
    #[error(transparent)]
    SslMode(#[from] InvalidSslMode),
    /// A client-certificate parameter (`sslcert`, `sslkey`, `sslpassword`, `sslcrl`,
    /// `sslcrldir`): not supported, refused rather than ignored.
    #[error("{0} is not supported: equijson does not present client certificates")]
    ClientCertificate(String),
    /// The string cannot be split into parameters.
    #[error(transparent)]
    Syntax(#[from] ConnStringError),
}

/// Why [`TlsSettings::client_config`](crate::tls::TlsSettings::client_config) cannot build
/// a TLS client configuration.
#[derive(Debug, thiserror::Error)]
pub enum TlsConfigError {
    /// rustls refused the protocol versions.
    #[error("TLS setup: {0}")]
    Protocols(#[source] rustls::Error),
    /// rustls could not build the certificate verifier.
    #[error("TLS setup: {0}")]
    Verifier(#[source] rustls::client::VerifierBuilderError),
    /// `sslrootcert=system` and the operating system's store has no usable certificate.
    #[error("sslrootcert=system: no usable certificate in the system store")]
    NoSystemRoots,
    /// A `verify-*` mode without `sslrootcert`, and no home directory for the default file.
    #[error(
        "sslmode requires a root certificate: set sslrootcert=PATH (PEM) or sslrootcert=system"
    )]
    NoRootFile,
    /// A `verify-*` mode without `sslrootcert`, and no `~/.postgresql/root.crt`.
    #[error(
        "root certificate file {} does not exist: set sslrootcert=PATH (PEM) or sslrootcert=system",
        path.display()
    )]
    DefaultRootFileMissing {
        /// The default file looked for.
        path: PathBuf,
    },
    /// The root certificate file cannot be read.
    #[error("sslrootcert {}: {source}", path.display())]
    ReadRootFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The root certificate file is not valid PEM.
    #[error("sslrootcert {}: {source}", path.display())]
    Pem {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said.
        source: rustls::pki_types::pem::Error,
    },
    /// A certificate of the root certificate file cannot be used as a trust anchor.
    #[error("sslrootcert {}: {source}", path.display())]
    RootCertificate {
        /// The file.
        path: PathBuf,
        /// What rustls said.
        source: rustls::Error,
    },
    /// The root certificate file holds no PEM certificate.
    #[error("sslrootcert {}: no PEM certificate in the file", path.display())]
    NoPemCertificate {
        /// The file.
        path: PathBuf,
    },
}

/// Why [`service`](crate::libpq_env::service) found no settings for a service.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// A service file exists but cannot be read.
    #[error("service file {}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of the service's section is neither a setting, a comment nor blank.
    #[error("service file {}: line {line}: syntax error", file.display())]
    Syntax {
        /// The file.
        file: PathBuf,
        /// The 1-based line number.
        line: usize,
    },
    /// No file defines the service.
    #[error(
        "definition of service {name:?} not found (looked in {})",
        shown_files(files)
    )]
    NotFound {
        /// The service's name.
        name: String,
        /// The files looked in, in order.
        files: Vec<PathBuf>,
    },
}

fn shown_files(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a password file is not used ([`password_from_file`](crate::libpq_env::password_from_file)):
/// a warning to show, not an error.
#[derive(Debug, thiserror::Error)]
pub enum PassfileWarning {
    /// It cannot be read.
    #[error("password file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is a directory or another kind of file.
    #[error("password file {} is not a plain file; it is not used", path.display())]
    NotAPlainFile {
        /// The file.
        path: PathBuf,
    },
    /// Its permissions give group or world access.
    #[error(
        "password file {} has group or world access; permissions should be u=rw (0600) or less; it is not used",
        path.display()
    )]
    GroupOrWorldAccess {
        /// The file.
        path: PathBuf,
    },
}
