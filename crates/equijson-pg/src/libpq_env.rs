//! libpq's environment for connections: `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGPASSFILE` / `~/.pgpass`, `PGSERVICE` / `pg_service.conf`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`, `PGSSLMODE`, `PGSSLROOTCERT`, with libpq's precedence.
//!
//! A setting comes from the first of: the connection string (or URL), the service named
//! by its `service=` (else `PGSERVICE`) in `PGSERVICEFILE` (default `~/.pg_service.conf`)
//! or else `PGSYSCONFDIR/pg_service.conf`, the environment variable, the default. When no
//! password is set by then, the password file (`passfile=`, else `PGPASSFILE`, else
//! `~/.pgpass`) is searched as libpq does: lines `host:port:database:user:password`, `*`
//! matching anything, `\` escaping `:` and `\`, the first matching line winning, and the
//! file ignored with a warning unless it is a plain file without group or world access
//! (mode 0600 or less).

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

pub use crate::settings_error::{ConnStringError, PassfileWarning, ServiceError};

/// A source of environment variables (the process's, or a table in tests).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process environment, empty values counting as unset (as libpq does).
#[must_use]
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Environment variables and the connection parameter each stands for, in libpq's order.
pub const ENV_PARAMS: &[(&str, &str)] = &[
    ("PGHOST", "host"),
    ("PGHOSTADDR", "hostaddr"),
    ("PGPORT", "port"),
    ("PGDATABASE", "dbname"),
    ("PGUSER", "user"),
    ("PGPASSWORD", "password"),
    ("PGPASSFILE", "passfile"),
    ("PGCONNECT_TIMEOUT", "connect_timeout"),
    ("PGAPPNAME", "application_name"),
    ("PGSSLMODE", "sslmode"),
    ("PGSSLROOTCERT", "sslrootcert"),
];

/// Whether the environment names a server or database (`PGHOST`, `PGHOSTADDR`,
/// `PGDATABASE` or `PGSERVICE`): then, without a URL, that server is used rather than an
/// ephemeral cluster. `PGUSER`, `PGPORT` or `PGPASSWORD` alone only fill in a URL's gaps.
#[must_use]
pub fn names_a_server(env: Env<'_>) -> bool {
    ["PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE"]
        .iter()
        .any(|v| env(v).is_some())
}

/// The settings of service `name`: from `PGSERVICEFILE` (else `~/.pg_service.conf`), else
/// from `PGSYSCONFDIR/pg_service.conf` (else `/etc/postgresql-common/pg_service.conf`).
///
/// # Errors
/// [`ServiceError`]: no file defines the service, or a file cannot be read or parsed (the
/// message names the file and line, never a value).
pub fn service(name: &str, env: Env<'_>) -> Result<Vec<(String, String)>, ServiceError> {
    let user_file = env("PGSERVICEFILE")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| Path::new(&h).join(".pg_service.conf")));
    let sys_file =
        Path::new(&env("PGSYSCONFDIR").unwrap_or_else(|| "/etc/postgresql-common".to_owned()))
            .join("pg_service.conf");
    for file in user_file.iter().chain(std::iter::once(&sys_file)) {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(source) => {
                return Err(ServiceError::Read {
                    file: file.clone(),
                    source,
                });
            }
        };
        if let Some(found) = service_in(&text, name).map_err(|line| ServiceError::Syntax {
            file: file.clone(),
            line,
        })? {
            return Ok(found);
        }
    }
    Err(ServiceError::NotFound {
        name: name.to_owned(),
        files: user_file.into_iter().chain([sys_file]).collect(),
    })
}

/// The `key=value` lines of section `[name]` of a service file; `Err(line)` for a line
/// that is neither a section, a setting, a comment nor blank.
///
/// # Errors
/// The 1-based number of the first bad line inside the section.
pub fn service_in(text: &str, name: &str) -> Result<Option<Vec<(String, String)>>, usize> {
    let mut inside = false;
    let mut found = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if inside {
                break;
            }
            inside = section == name;
            if inside {
                found = Some(Vec::new());
            }
            continue;
        }
        if !inside {
            continue;
        }
        let (k, v) = line.split_once('=').ok_or(i + 1)?;
        if let Some(f) = found.as_mut() {
            f.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    Ok(found)
}

/// One field of a password file line: its text (escapes removed) and whether it was `*`.
fn pgpass_fields(line: &str) -> Vec<(String, bool)> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut raw = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                    raw.push('\\');
                    raw.push(n);
                }
            }
            // The password ends at the next unescaped `:` too, as in libpq.
            ':' if fields.len() == 4 => break,
            ':' => {
                fields.push((std::mem::take(&mut cur), raw == "*"));
                raw.clear();
            }
            c => {
                cur.push(c);
                raw.push(c);
            }
        }
    }
    fields.push((cur, false));
    fields
}

/// The password of the first line of a password file matching `host`, `port`,
/// `database` and `user` (`*` matches anything), as libpq reads it.
#[must_use]
pub fn pgpass_lookup(
    text: &str,
    host: &str,
    port: &str,
    database: &str,
    user: &str,
) -> Option<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .find_map(|line| {
            let fields = pgpass_fields(line.trim_end_matches('\r'));
            if fields.len() != 5 {
                return None;
            }
            let matches = fields[..4]
                .iter()
                .zip([host, port, database, user])
                .all(|((text, star), want)| *star || text == want);
            matches.then(|| fields[4].0.clone())
        })
}

/// The password for `host:port/database` as `user` from the password file at `path`:
/// `Ok(None)` when the file does not exist or has no matching line, `Err(warning)` when
/// it is ignored (group or world access, not a plain file) or unreadable.
///
/// # Errors
/// The [`PassfileWarning`] to show; the file is not used.
pub fn password_from_file(
    path: &Path,
    host: &str,
    port: &str,
    database: &str,
    user: &str,
) -> Result<Option<String>, PassfileWarning> {
    let read_error = |source| PassfileWarning::Read {
        path: path.to_owned(),
        source,
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read_error(e)),
    };
    if !meta.is_file() {
        return Err(PassfileWarning::NotAPlainFile {
            path: path.to_owned(),
        });
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(PassfileWarning::GroupOrWorldAccess {
            path: path.to_owned(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(read_error)?;
    Ok(pgpass_lookup(&text, host, port, database, user))
}

/// Takes the parameters `keys` (e.g. `service`, `passfile`, which the driver does not
/// know) out of a URL's query or a `key=value` string: the rest, and what was taken.
///
/// # Errors
/// [`ConnStringError`] when the string cannot be split (the message quotes no value).
pub fn take_params(
    url: &str,
    keys: &[&str],
) -> Result<(String, BTreeMap<String, String>), ConnStringError> {
    let mut taken = BTreeMap::new();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let Some((base, query)) = url.split_once('?') else {
            return Ok((url.to_owned(), taken));
        };
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            if keys.contains(&k) {
                taken.insert(k.to_owned(), crate::tls::percent_decode(v)?);
            } else {
                kept.push(pair);
            }
        }
        let rest = if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        return Ok((rest, taken));
    }
    let mut kept = Vec::new();
    for (k, v, raw) in crate::tls::key_values(url)? {
        if keys.contains(&k.as_str()) {
            taken.insert(k, v);
        } else {
            kept.push(raw);
        }
    }
    Ok((kept.join(" "), taken))
}

/// The connection string `url` without its password (the userinfo's `:password`, a
/// `password=` query parameter or `key=value` pair), or `None` when it has none.
#[must_use]
pub fn without_password(url: &str) -> Option<String> {
    crate::connect::password_in_url(url)?;
    if let Some((scheme, rest)) = url.split_once("://") {
        let (mut head, query) = match rest.split_once('?') {
            Some((h, q)) => (h.to_owned(), Some(q)),
            None => (rest.to_owned(), None),
        };
        // The driver takes the credentials up to the first `@`, the user up to a `:`.
        if let Some(at) = head.find('@')
            && let Some(colon) = head[..at].find(':')
        {
            head.replace_range(colon..at, "");
        }
        let query: Vec<&str> = query
            .map(|q| {
                q.split('&')
                    .filter(|p| !p.is_empty() && !p.starts_with("password="))
                    .collect()
            })
            .unwrap_or_default();
        return Some(if query.is_empty() {
            format!("{scheme}://{head}")
        } else {
            format!("{scheme}://{head}?{}", query.join("&"))
        });
    }
    let pairs = crate::tls::key_values(url).ok()?;
    Some(
        pairs
            .iter()
            .filter(|(k, _, _)| k != "password")
            .map(|(_, _, raw)| *raw)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::{
        ConnStringError, PassfileWarning, ServiceError, password_from_file, pgpass_lookup, service,
        service_in, take_params, without_password,
    };
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn pgpass_lines_match_as_libpq_reads_them() {
        let file = "# comment\n\
                    db.example:5432:app:alice:first\n\
                    *:*:app:bob:p\\:ss\\\\w\n\
                    h\\:odd:5432:*:*:colon host\n\
                    localhost:*:*:*:default:with:colons\n";
        // (host, port, database, user, password found)
        let table: &[(&str, &str, &str, &str, Option<&str>)] = &[
            ("db.example", "5432", "app", "alice", Some("first")),
            ("db.example", "5433", "app", "alice", None),
            ("any", "1", "app", "bob", Some("p:ss\\w")),
            ("h:odd", "5432", "x", "y", Some("colon host")),
            ("localhost", "5432", "d", "u", Some("default")),
            ("*", "5432", "d", "u", None),
        ];
        for (h, p, d, u, want) in table {
            assert_eq!(
                pgpass_lookup(file, h, p, d, u).as_deref(),
                *want,
                "{h} {p} {d} {u}"
            );
        }
    }

    #[test]
    fn service_sections_are_read_to_the_next_section() {
        let text = "[other]\nhost=x\n\n# c\n[mine]\nhost = db\nport=6543\n[later]\nuser=no\n";
        assert_eq!(
            service_in(text, "mine"),
            Ok(Some(vec![
                ("host".into(), "db".into()),
                ("port".into(), "6543".into())
            ]))
        );
        assert_eq!(service_in(text, "missing"), Ok(None));
        assert_eq!(service_in("[mine]\nhost db\n", "mine"), Err(2));
    }

    #[test]
    fn service_errors_are_typed_and_name_the_file() {
        let dir = std::env::temp_dir().join(format!("equijson-svc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let user = dir.join("user.conf");
        std::fs::write(&user, "[mine]\nhost db\n").expect("write");
        let vars = |user: &std::path::Path| {
            let user = user.display().to_string();
            let sys = dir.display().to_string();
            move |name: &str| match name {
                "PGSERVICEFILE" => Some(user.clone()),
                "PGSYSCONFDIR" => Some(sys.clone()),
                _ => None,
            }
        };
        let env = vars(&user);
        let e = service("mine", &env).expect_err("syntax");
        assert!(
            matches!(&e, ServiceError::Syntax { file, line: 2 } if *file == user),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("service file {}: line 2: syntax error", user.display())
        );
        let e = service("other", &env).expect_err("not found");
        let sys = dir.join("pg_service.conf");
        assert!(
            matches!(&e, ServiceError::NotFound { name, files } if name == "other" && *files == [user.clone(), sys.clone()]),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "definition of service \"other\" not found (looked in {}, {})",
                user.display(),
                sys.display()
            )
        );
        // A directory where the file should be: unreadable.
        let env = vars(&dir);
        let e = service("mine", &env).expect_err("a directory");
        assert!(
            matches!(&e, ServiceError::Read { file, .. } if *file == dir),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with(&format!("service file {}: ", dir.display())),
            "{e}"
        );

        // Password files: not a plain file, group or world access.
        let e = password_from_file(&dir, "h", "5432", "d", "u").expect_err("a directory");
        assert!(matches!(e, PassfileWarning::NotAPlainFile { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "password file {} is not a plain file; it is not used",
                dir.display()
            )
        );
        let pass = dir.join("pgpass");
        std::fs::write(&pass, "*:*:*:*:pw\n").expect("write");
        std::fs::set_permissions(&pass, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let e = password_from_file(&pass, "h", "5432", "d", "u").expect_err("0644");
        assert!(
            matches!(e, PassfileWarning::GroupOrWorldAccess { .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "password file {} has group or world access; permissions should be u=rw (0600) \
                 or less; it is not used",
                pass.display()
            )
        );
        std::fs::set_permissions(&pass, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        assert_eq!(
            password_from_file(&pass, "h", "5432", "d", "u").expect("0600"),
            Some("pw".to_owned())
        );
        let _ = std::fs::remove_dir_all(&dir);

        // take_params: the connection string's syntax errors.
        assert_eq!(
            take_params("host='h", &["service"]),
            Err(ConnStringError::UnterminatedQuote {
                key: "`host`".into()
            })
        );
        assert_eq!(
            take_params("postgresql://h/d?service=%4", &["service"]),
            Err(ConnStringError::PercentEncoding { at: 0 })
        );
    }

    #[test]
    fn service_and_passfile_are_taken_out_and_passwords_removed() {
        let (rest, taken) = take_params(
            "postgresql://u@h/d?service=s%20x&application_name=a",
            &["service"],
        )
        .expect("split");
        assert_eq!(rest, "postgresql://u@h/d?application_name=a");
        assert_eq!(taken["service"], "s x");
        let (rest, taken) = take_params(
            "host=h service='my svc' passfile=/p",
            &["service", "passfile"],
        )
        .expect("split");
        assert_eq!((rest.as_str(), taken.len()), ("host=h", 2));
        // (connection string, without its password)
        let table: &[(&str, Option<&str>)] = &[
            (
                "postgresql://me:s%40c@h:5/db",
                Some("postgresql://me@h:5/db"),
            ),
            (
                "postgresql://me:a/b@h/db?password=x&sslmode=require",
                Some("postgresql://me@h/db?sslmode=require"),
            ),
            ("host=h password='a b' user=u", Some("host=h user=u")),
            ("postgresql://me@h/db", None),
            ("host=h user=u", None),
        ];
        for (url, want) in table {
            assert_eq!(without_password(url).as_deref(), *want, "{url}");
        }
    }
}
