//! TLS for connections to a given server: libpq's `sslmode` and `sslrootcert`, on rustls.
//!
//! | `sslmode` | encrypted | certificate checked | name checked |
//! |---|---|---|---|
//! | `disable` | no | - | - |
//! | `allow`, `prefer` (default) | if the server offers TLS | no | no |
//! | `require` | yes | no (yes, as `verify-ca`, when `sslrootcert` is given) | no |
//! | `verify-ca` | yes | yes | no |
//! | `verify-full` | yes | yes | yes |
//!
//! As in libpq, Unix-domain sockets never use TLS, `allow` is treated as `prefer`, and the
//! trusted roots are the PEM file `sslrootcert` (default `~/.postgresql/root.crt`), or the
//! operating system's store with `sslrootcert=system`. Client certificates (`sslcert`,
//! `sslkey`) are not supported and are refused with a clear error rather than ignored.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};

pub use crate::settings_error::{ConnStringError, TlsConfigError, TlsParamError};

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SslMode {
    /// No TLS.
    Disable,
    /// TLS when the server offers it, without checking the certificate (libpq tries
    /// plaintext first; here it is the same as [`SslMode::Prefer`]).
    Allow,
    /// TLS when the server offers it, without checking the certificate (the default).
    #[default]
    Prefer,
    /// TLS or fail; the certificate is checked only when a root file is named.
    Require,
    /// TLS, certificate chain checked against the trusted roots.
    VerifyCa,
    /// TLS, chain checked and the host name must match the certificate.
    VerifyFull,
}

/// An `sslmode` value libpq does not know (held); the message lists the accepted ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid sslmode {0:?}: expected disable, allow, prefer, require, verify-ca or verify-full"
)]
pub struct InvalidSslMode(pub String);

impl SslMode {
    /// Parses a libpq `sslmode` value.
    ///
    /// # Errors
    /// [`InvalidSslMode`] (its message lists the accepted values) when `s` is none of them.
    pub fn parse(s: &str) -> Result<Self, InvalidSslMode> {
        Ok(match s {
            "disable" => Self::Disable,
            "allow" => Self::Allow,
            "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            other => return Err(InvalidSslMode(other.to_owned())),
        })
    }

    /// The libpq spelling.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Disable => "disable",
            Self::Allow => "allow",
            Self::Prefer => "prefer",
            Self::Require => "require",
            Self::VerifyCa => "verify-ca",
            Self::VerifyFull => "verify-full",
        }
    }
}

/// Where trusted root certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCerts {
    /// A PEM file of one or more certificates.
    File(PathBuf),
    /// The operating system's store (`sslrootcert=system`).
    System,
}

/// The TLS part of a connection's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TlsSettings {
    /// `sslmode`.
    pub mode: SslMode,
    /// `sslrootcert`, when given.
    pub root_cert: Option<RootCerts>,
}

impl TlsSettings {
    /// Whether the server's certificate chain is checked.
    #[must_use]
    pub fn verifies_chain(&self) -> bool {
        match self.mode {
            SslMode::VerifyCa | SslMode::VerifyFull => true,
            SslMode::Require => self.root_cert.is_some(),
            _ => false,
        }
    }

    /// The settings `postgres::Config` itself can hold (`disable`, `prefer`, `require`).
    #[must_use]
    pub fn driver_mode(&self) -> postgres::config::SslMode {
        match self.mode {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Allow | SslMode::Prefer => postgres::config::SslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
                postgres::config::SslMode::Require
            }
        }
    }

    /// The rustls client configuration for these settings.
    ///
    /// # Errors
    /// [`TlsConfigError`], naming the root-certificate file when it cannot be read, holds
    /// no certificate, or (for `verify-*` without `sslrootcert`) does not exist.
    pub fn client_config(&self) -> Result<rustls::ClientConfig, TlsConfigError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(TlsConfigError::Protocols)?;
        let config = if self.verifies_chain() {
            let roots = Arc::new(self.roots()?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                .build()
                .map_err(TlsConfigError::Verifier)?;
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Verifier {
                    webpki: Some(webpki),
                    check_name: self.mode == SslMode::VerifyFull,
                    algorithms: provider.signature_verification_algorithms,
                }))
                .with_no_client_auth()
        } else {
            // libpq's prefer/require: encrypted, the certificate not authenticated. The
            // handshake signatures are still checked against the certificate's key.
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Verifier {
                    webpki: None,
                    check_name: false,
                    algorithms: provider.signature_verification_algorithms,
                }))
                .with_no_client_auth()
        };
        Ok(config)
    }

    fn roots(&self) -> Result<RootCertStore, TlsConfigError> {
        let mut store = RootCertStore::empty();
        match &self.root_cert {
            Some(RootCerts::System) => {
                let found = rustls_native_certs::load_native_certs();
                for cert in found.certs {
                    // Unparsable system certificates are skipped, as OpenSSL does.
                    let _ = store.add(cert);
                }
                if store.is_empty() {
                    return Err(TlsConfigError::NoSystemRoots);
                }
            }
            Some(RootCerts::File(path)) => add_pem_file(&mut store, path)?,
            None => {
                let default = default_root_file().ok_or(TlsConfigError::NoRootFile)?;
                if !default.exists() {
                    return Err(TlsConfigError::DefaultRootFileMissing { path: default });
                }
                add_pem_file(&mut store, &default)?;
            }
        }
        Ok(store)
    }
}

fn default_root_file() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| Path::new(&h).join(".postgresql/root.crt"))
}

fn add_pem_file(store: &mut RootCertStore, path: &Path) -> Result<(), TlsConfigError> {
    let bytes = std::fs::read(path).map_err(|source| TlsConfigError::ReadRootFile {
        path: path.to_owned(),
        source,
    })?;
    let mut n = 0usize;
    for cert in CertificateDer::pem_slice_iter(&bytes) {
        let cert = cert.map_err(|source| TlsConfigError::Pem {
            path: path.to_owned(),
            source,
        })?;
        store
            .add(cert)
            .map_err(|source| TlsConfigError::RootCertificate {
                path: path.to_owned(),
                source,
            })?;
        n += 1;
    }
    if n == 0 {
        return Err(TlsConfigError::NoPemCertificate {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// Checks the chain (and the name) as the mode asks; always checks handshake signatures.
#[derive(Debug)]
struct Verifier {
    webpki: Option<Arc<WebPkiServerVerifier>>,
    check_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(webpki) = &self.webpki else {
            return Ok(ServerCertVerified::assertion());
        };
        match webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.check_name => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The `ssl*` parameters taken out of a connection string, and the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitUrl {
    /// The connection string without the TLS parameters this module handles.
    pub rest: String,
    /// `sslmode` when given.
    pub mode: Option<SslMode>,
    /// `sslrootcert` when given.
    pub root_cert: Option<RootCerts>,
}

const UNSUPPORTED: &[&str] = &["sslcert", "sslkey", "sslpassword", "sslcrl", "sslcrldir"];

/// Takes `sslmode` and `sslrootcert` out of a `postgresql://` URL (query parameters) or a
/// libpq `key=value` string, so that the rest can go to the driver.
///
/// # Errors
/// [`TlsParamError`]: an invalid `sslmode`, a client-certificate parameter (not
/// supported), or a string that cannot be split.
pub fn split_tls_params(url: &str) -> Result<SplitUrl, TlsParamError> {
    let mut mode = None;
    let mut root_cert = None;
    let mut take = |key: &str, value: &str| -> Result<bool, TlsParamError> {
        match key {
            "sslmode" => {
                mode = Some(SslMode::parse(value)?);
                Ok(true)
            }
            "sslrootcert" => {
                root_cert = Some(if value == "system" {
                    RootCerts::System
                } else {
                    RootCerts::File(PathBuf::from(value))
                });
                Ok(true)
            }
            k if UNSUPPORTED.contains(&k) => Err(TlsParamError::ClientCertificate(k.to_owned())),
            _ => Ok(false),
        }
    };
    let rest = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        match url.split_once('?') {
            None => url.to_owned(),
            Some((base, query)) => {
                let mut kept = Vec::new();
                for pair in query.split('&').filter(|p| !p.is_empty()) {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    let v = percent_decode(v)?;
                    if !take(&percent_decode(k)?, &v)? {
                        kept.push(pair);
                    }
                }
                if kept.is_empty() {
                    base.to_owned()
                } else {
                    format!("{base}?{}", kept.join("&"))
                }
            }
        }
    } else {
        let mut kept = Vec::new();
        for (k, v, raw) in key_values(url)? {
            if !take(&k, &v)? {
                kept.push(raw);
            }
        }
        kept.join(" ")
    };
    Ok(SplitUrl {
        rest,
        mode,
        root_cert,
    })
}

pub(crate) fn percent_decode(s: &str) -> Result<String, ConnStringError> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(ConnStringError::PercentEncoding { at: i })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| ConnStringError::PercentDecodedNotUtf8)
}

/// A key named in a message: quoted when it is one of libpq's keywords, else not shown
/// (a word of a password written unquoted with a space would otherwise be echoed).
fn shown_key(key: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "service",
        "connect_timeout",
        "application_name",
        "options",
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "sslpassword",
        "sslcrl",
        "sslcrldir",
        "target_session_attrs",
        "keepalives",
        "keepalives_idle",
        "channel_binding",
        "load_balance_hosts",
    ];
    if KEYWORDS.contains(&key) {
        format!("`{key}`")
    } else {
        "a word that is no connection keyword".to_owned()
    }
}

/// `key=value` pairs of a libpq string (values may be single-quoted with `\` escapes),
/// with each pair's original text.
pub(crate) fn key_values(s: &str) -> Result<Vec<(String, String, &str)>, ConnStringError> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            return Ok(out);
        }
        let start = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = s[start..i].to_owned();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            return Err(ConnStringError::MissingEquals {
                key: shown_key(&key),
            });
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = Vec::new();
        if b.get(i) == Some(&b'\'') {
            i += 1;
            loop {
                match b.get(i) {
                    None => {
                        return Err(ConnStringError::UnterminatedQuote {
                            key: shown_key(&key),
                        });
                    }
                    Some(b'\'') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => {
                        if let Some(&c) = b.get(i + 1) {
                            value.push(c);
                        }
                        i += 2;
                    }
                    Some(&c) => {
                        value.push(c);
                        i += 1;
                    }
                }
            }
        } else {
            while i < b.len() && !b[i].is_ascii_whitespace() {
                if b[i] == b'\\' && i + 1 < b.len() {
                    i += 1;
                }
                value.push(b[i]);
                i += 1;
            }
        }
        let value = String::from_utf8(value).map_err(|_| ConnStringError::ValueNotUtf8 {
            key: shown_key(&key),
        })?;
        out.push((key, value, &s[start..i]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_parameters_are_taken_out() {
        let s = split_tls_params(
            "postgresql://u:p@db.example:5432/app?sslmode=verify-full&application_name=x&sslrootcert=%2Ftmp%2Fca.pem",
        )
        .expect("split");
        assert_eq!(
            s.rest,
            "postgresql://u:p@db.example:5432/app?application_name=x"
        );
        assert_eq!(s.mode, Some(SslMode::VerifyFull));
        assert_eq!(s.root_cert, Some(RootCerts::File("/tmp/ca.pem".into())));
        let s = split_tls_params("postgres://h/db?sslmode=require").expect("split");
        assert_eq!(s.rest, "postgres://h/db");
        assert_eq!(s.mode, Some(SslMode::Require));
        let s = split_tls_params("postgres://h/db").expect("split");
        assert_eq!((s.rest.as_str(), s.mode), ("postgres://h/db", None));
    }

    #[test]
    fn key_value_parameters_are_taken_out() {
        let s = split_tls_params(
            "host=h  sslmode=verify-ca password='a b\\'c' sslrootcert=system dbname=d",
        )
        .expect("split");
        assert_eq!(s.rest, "host=h password='a b\\'c' dbname=d");
        assert_eq!(s.mode, Some(SslMode::VerifyCa));
        assert_eq!(s.root_cert, Some(RootCerts::System));
    }

    #[test]
    fn bad_values_and_client_certificates_are_refused() {
        // (connection string, the typed error, its message as it was when a string)
        let table: [(&str, TlsParamError, &str); 6] = [
            (
                "host=h sslmode=maybe",
                TlsParamError::SslMode(InvalidSslMode("maybe".into())),
                "invalid sslmode \"maybe\": expected disable, allow, prefer, require, verify-ca or verify-full",
            ),
            (
                "postgres://h/d?sslcert=/c.pem",
                TlsParamError::ClientCertificate("sslcert".into()),
                "sslcert is not supported: equijson does not present client certificates",
            ),
            (
                "host='h",
                ConnStringError::UnterminatedQuote {
                    key: "`host`".into(),
                }
                .into(),
                "unterminated quoted value of `host`",
            ),
            (
                "postgres://h/d?sslmode=%zz",
                ConnStringError::PercentEncoding { at: 0 }.into(),
                "invalid percent-encoding at byte 0 of a URL parameter",
            ),
            (
                "postgres://h/d?x=%ff",
                ConnStringError::PercentDecodedNotUtf8.into(),
                "a URL parameter is not UTF-8 after percent-decoding",
            ),
            (
                "host=h secret dbname=d",
                ConnStringError::MissingEquals {
                    key: "a word that is no connection keyword".into(),
                }
                .into(),
                "missing `=` after a word that is no connection keyword in the connection \
                 string (a value with spaces must be quoted: key='a b')",
            ),
        ];
        for (url, want, message) in table {
            let e = split_tls_params(url).expect_err(url);
            assert_eq!(e, want, "{url}");
            assert_eq!(e.to_string(), message, "{url}");
        }
    }

    #[test]
    fn modes_map_to_the_driver_and_to_verification() {
        for (mode, verifies) in [
            (SslMode::Disable, false),
            (SslMode::Allow, false),
            (SslMode::Prefer, false),
            (SslMode::Require, false),
            (SslMode::VerifyCa, true),
            (SslMode::VerifyFull, true),
        ] {
            let t = TlsSettings {
                mode,
                root_cert: None,
            };
            assert_eq!(t.verifies_chain(), verifies, "{mode:?}");
            assert_eq!(SslMode::parse(mode.name()), Ok(mode));
        }
        for bad in ["Require", "verify_full", ""] {
            let e = SslMode::parse(bad).expect_err(bad);
            assert_eq!(e, InvalidSslMode(bad.to_owned()));
            assert!(e.to_string().contains("verify-full"), "{e}");
        }
        let t = TlsSettings {
            mode: SslMode::Require,
            root_cert: Some(RootCerts::System),
        };
        assert!(t.verifies_chain());
    }

    #[test]
    fn missing_root_file_is_named() {
        let t = TlsSettings {
            mode: SslMode::VerifyFull,
            root_cert: Some(RootCerts::File("/nonexistent/ca.pem".into())),
        };
        let e = t.client_config().expect_err("no file");
        assert!(
            matches!(&e, TlsConfigError::ReadRootFile { path, source }
                if path.as_path() == Path::new("/nonexistent/ca.pem")
                    && source.kind() == std::io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("sslrootcert /nonexistent/ca.pem: "),
            "{e}"
        );
        // A file without a PEM certificate, and a default root file missing.
        let dir = std::env::temp_dir().join(format!("equijson-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").expect("write");
        let t = TlsSettings {
            mode: SslMode::VerifyCa,
            root_cert: Some(RootCerts::File(empty.clone())),
        };
        let e = t.client_config().expect_err("no PEM");
        assert_eq!(
            e.to_string(),
            format!(
                "sslrootcert {}: no PEM certificate in the file",
                empty.display()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
