//! Keeps connection secrets off the command line: a password in `--database-url` and the URL of `--database-url-file` move into the environment of a re-executed `equijson`.
//!
//! Any local user can read `/proc/PID/cmdline` (what `ps` shows); `/proc/PID/environ` only
//! the same user and root. So when `--database-url` holds a password, `equijson` warns,
//! then replaces itself (`exec`, same pid) with the same command whose URL has no password,
//! the password passed in [`ARGV_PASSWORD_ENV`] (which counts as written in the URL). The
//! password is on the command line only for the moment between start and `exec`; the
//! warning says so. `--database-url-file FILE` is read the same way: its URL goes to
//! `EQUIJSON_DATABASE_URL` of the re-executed command, never to its arguments.

use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;

use equijson_pg::connect::{ARGV_PASSWORD_ENV, ConnectConfig, EQUIJSON_DATABASE_URL_ENV};

/// What the re-executed command gets instead of the secret arguments.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Moved {
    /// The arguments, secrets taken out.
    pub(crate) args: Vec<OsString>,
    /// Environment variables to set.
    pub(crate) env: Vec<(&'static str, String)>,
    /// Warnings to print first.
    pub(crate) warnings: Vec<String>,
}

/// Moves secrets out of `args` (without the program name). `None`: nothing to move.
///
/// # Errors
/// A message (quoting no secret) when `--database-url-file` cannot be read or is combined
/// with `--database-url`.
pub(crate) fn plan(
    args: &[OsString],
    read_file: &dyn Fn(&std::path::Path) -> std::io::Result<String>,
) -> Result<Option<Moved>, String> {
    let mut moved = Moved::default();
    let mut changed = false;
    let mut url_given = false;
    let mut file_given = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--" {
            moved.args.extend(args[i..].iter().cloned());
            break;
        }
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (a.clone().into_owned(), None),
        };
        let value = |i: &mut usize| -> Option<String> {
            inline.clone().or_else(|| {
                *i += 1;
                args.get(*i).map(|v| v.to_string_lossy().into_owned())
            })
        };
        match flag.as_str() {
            "--database-url" => {
                let start = i;
                let Some(url) = value(&mut i) else {
                    moved.args.push(args[start].clone());
                    break;
                };
                url_given = true;
                match strip(&url) {
                    Some((rest, password)) => {
                        changed = true;
                        moved.warnings.push(
                            "--database-url holds a password, which every local user can read \
                             (ps, /proc/PID/cmdline) while a command runs: equijson moves it out \
                             of its arguments at once, but use PGPASSWORD, ~/.pgpass, \
                             --database-url-file FILE or EQUIJSON_DATABASE_URL instead"
                                .to_owned(),
                        );
                        moved.args.push("--database-url".into());
                        moved.args.push(rest.into());
                        moved.env.push((ARGV_PASSWORD_ENV, password));
                    }
                    None => moved
                        .args
                        .extend(args[start..=i.min(args.len() - 1)].iter().cloned()),
                }
            }
            "--database-url-file" => {
                let Some(path) = value(&mut i) else {
                    moved
                        .args
                        .push(args[i - usize::from(inline.is_none())].clone());
                    break;
                };
                file_given = true;
                changed = true;
                let text = read_file(std::path::Path::new(&path))
                    .map_err(|e| format!("--database-url-file {path}: {e}"))?;
                let url = text.lines().next().unwrap_or("").trim().to_owned();
                if url.is_empty() {
                    return Err(format!("--database-url-file {path}: the file is empty"));
                }
                moved.env.push((EQUIJSON_DATABASE_URL_ENV, url));
            }
            _ => moved.args.push(args[i].clone()),
        }
        i += 1;
    }
    if url_given && file_given {
        return Err("give --database-url or --database-url-file, not both".to_owned());
    }
    Ok(changed.then_some(moved))
}

/// The URL without its password, and the password (as the driver decodes it); `None`
/// when the URL has no password or does not parse (its error, scrubbed, comes later).
fn strip(url: &str) -> Option<(String, String)> {
    equijson_pg::connect::password_in_url(url).filter(|p| !p.is_empty())?;
    let config: ConnectConfig = url.parse().ok()?;
    let password = config.password()?;
    let rest = equijson_pg::libpq_env::without_password(url)?;
    equijson_pg::connect::password_in_url(&rest)
        .is_none_or(|p| p.is_empty())
        .then_some((rest, password))
}

/// Re-executes `equijson` without secrets in its arguments when there are some; returns
/// only when there is nothing to do (or in the re-executed process).
pub(crate) fn reexec_if_needed() {
    let mut all = std::env::args_os();
    let Some(argv0) = all.next() else { return };
    let args: Vec<OsString> = all.collect();
    let moved = match plan(&args, &|p| std::fs::read_to_string(p)) {
        Ok(Some(m)) => m,
        Ok(None) => return,
        Err(e) => {
            eprintln!("{}: error: {e}", crate::messages::bin());
            std::process::exit(2);
        }
    };
    for w in &moved.warnings {
        eprintln!("{}: warning: {w}", crate::messages::bin());
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!(
                "{}: error: cannot re-execute without the secret arguments: {e}",
                crate::messages::bin()
            );
            std::process::exit(2);
        }
    };
    let mut cmd = std::process::Command::new(exe);
    // The re-executed command has neither a password in a URL nor --database-url-file
    // (`strip` checks the first), so it never comes here again.
    cmd.arg0(argv0).args(&moved.args);
    for (k, v) in &moved.env {
        cmd.env(k, v);
    }
    let e = cmd.exec();
    eprintln!(
        "{}: error: cannot re-execute without the secret arguments: {e}",
        crate::messages::bin()
    );
    std::process::exit(2);
}

#[cfg(test)]
mod tests {
    use super::plan;
    use std::ffi::OsString;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn passwords_and_url_files_leave_the_arguments() {
        let no_file = |_: &std::path::Path| Err(std::io::Error::other("no such file"));
        let m = plan(
            &os(&[
                "pg",
                "scan",
                "--database-url",
                "postgresql://me:p%40ss@h/db",
                "--table",
                "t",
            ]),
            &no_file,
        )
        .expect("plan")
        .expect("moved");
        assert_eq!(
            m.args,
            os(&[
                "pg",
                "scan",
                "--database-url",
                "postgresql://me@h/db",
                "--table",
                "t"
            ])
        );
        assert_eq!(m.env, [("EQUIJSON_ARGV_PASSWORD", "p@ss".to_owned())]);
        let m = plan(
            &os(&["pg", "--database-url=host=h password='a b' user=u"]),
            &no_file,
        )
        .expect("plan")
        .expect("moved");
        assert_eq!(m.args, os(&["pg", "--database-url", "host=h user=u"]));
        assert_eq!(m.env[0].1, "a b");
        // Nothing secret: nothing moves.
        assert_eq!(
            plan(&os(&["pg", "--database-url", "host=h user=u"]), &no_file),
            Ok(None)
        );
        assert_eq!(
            plan(&os(&["canon", "--", "--database-url"]), &no_file),
            Ok(None)
        );
        let file = |_: &std::path::Path| Ok("postgresql://me:pw@h/db\n".to_owned());
        let m = plan(&os(&["pg", "--database-url-file", "/f", "scan"]), &file)
            .expect("plan")
            .expect("moved");
        assert_eq!(m.args, os(&["pg", "scan"]));
        assert_eq!(
            m.env,
            [(
                "EQUIJSON_DATABASE_URL",
                "postgresql://me:pw@h/db".to_owned()
            )]
        );
        let e = plan(&os(&["pg", "--database-url-file=/f"]), &no_file).expect_err("unreadable");
        assert!(e.contains("/f") && e.contains("no such file"), "{e}");
        let e = plan(
            &os(&["--database-url", "h", "--database-url-file", "/f"]),
            &file,
        )
        .expect_err("both");
        assert!(e.contains("not both"), "{e}");
    }
}
