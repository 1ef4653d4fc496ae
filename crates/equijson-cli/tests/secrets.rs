//! Passwords: libpq's environment and password file work, no piece of a password appears in any output, and a password given on the command line leaves `/proc/PID/cmdline`. Against real PostgreSQL.

use std::io::Read as _;
use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use equijson_pg::cluster::EphemeralCluster;

/// Runs `equijson` with only the environment given (no `DATABASE_URL`, `PG*`, `HOME` of the
/// test runner).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_equijson"));
    cmd.args(args).stdin(Stdio::null());
    for (k, _) in std::env::vars() {
        if k.starts_with("PG") || k.contains("DATABASE_URL") || k.starts_with("EQUIJSON") {
            cmd.env_remove(k);
        }
    }
    cmd.env("HOME", "/nonexistent-home");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run equijson")
}

/// A directory of the test (password files among others), removed even when it fails.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let d = std::env::temp_dir().join(format!("equijson-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("dir");
        Self(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every piece of `password` of three or more characters found in `out`.
fn pieces_in(out: &str, password: &str) -> Vec<String> {
    let chars: Vec<char> = password.chars().collect();
    let mut found = Vec::new();
    for i in 0..chars.len() {
        for j in i + 3..=chars.len() {
            let piece: String = chars[i..j].iter().collect();
            if out.contains(&piece) {
                found.push(piece);
            }
        }
    }
    found
}

fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn kv_quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

fn sql_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn pgpass_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(':', "\\:")
}

/// Passwords with every character that has broken a parser somewhere.
const PASSWORDS: &[&str] = &[
    "Zq@Xv Wj:/Kb%40Yh",
    "Qx'Jz\"Vq\\Wk Pf",
    "Hm:Tn@@Rq//Gz",
    "Bv%zzNc%41Dq=Lw&Ky?",
    " Xp@Qe Zk Vw ",
];

/// A way to give the password: its name, the arguments, the environment.
type Form<'a> = (&'a str, Vec<&'a str>, Vec<(&'a str, &'a str)>);
/// A connection case: name, arguments, environment, exit status, words of the output.
type Case<'a> = (
    &'a str,
    Vec<&'a str>,
    Vec<(&'static str, String)>,
    i32,
    &'a str,
);

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "every password through every form and every failure, in one cluster"
)]
fn no_piece_of_a_password_appears_in_any_output() {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut admin = cluster.config().connect(postgres::NoTls).expect("connect");
    admin
        .batch_execute("CREATE TABLE t (id int, doc jsonb); INSERT INTO t VALUES (1, '{}')")
        .expect("table");
    let port = cluster.port().to_string();
    let guard = TempDir::new("secrets");
    let dir = &guard.0;
    let scan = ["pg", "scan", "--table", "t", "--column", "doc"];
    for pw in PASSWORDS {
        // (case, database, port, does the role have this password, expected to connect)
        let cases: [(&str, &str, &str, bool, bool); 4] = [
            ("bad host", "postgres", "1", false, false),
            ("bad password", "postgres", &port, false, false),
            ("bad db", "no_such_db", &port, true, false),
            ("good", "postgres", &port, true, true),
        ];
        for (case, db, p, role_has_it, works) in cases {
            let role_pw = if role_has_it {
                (*pw).to_owned()
            } else {
                "other-Secret-9".to_owned()
            };
            admin
                .batch_execute(&format!(
                    "ALTER ROLE equijson PASSWORD {}",
                    sql_literal(&role_pw)
                ))
                .expect("alter role");
            let pgpass = dir.join("pgpass");
            std::fs::write(
                &pgpass,
                format!("127.0.0.1:{p}:{db}:equijson:{}\n", pgpass_escape(pw)),
            )
            .expect("pgpass");
            std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o600))
                .expect("chmod");
            let url = format!(
                "postgresql://equijson:{}@127.0.0.1:{p}/{db}",
                percent_encode(pw)
            );
            let kv = format!(
                "host=127.0.0.1 port={p} dbname={db} user=equijson password={}",
                kv_quote(pw)
            );
            let bare = format!("postgresql://equijson@127.0.0.1:{p}/{db}");
            let url_file = dir.join("url");
            std::fs::write(&url_file, format!("{url}\n")).expect("url file");
            let url_file = url_file.to_string_lossy().into_owned();
            let pgpass = pgpass.to_string_lossy().into_owned();
            // (form, arguments, environment)
            let forms: Vec<Form<'_>> = vec![
                ("url", vec!["--database-url", url.as_str()], vec![]),
                ("key=value", vec!["--database-url", kv.as_str()], vec![]),
                ("DATABASE_URL", vec![], vec![("DATABASE_URL", url.as_str())]),
                (
                    "url file",
                    vec!["--database-url-file", url_file.as_str()],
                    vec![],
                ),
                (
                    "PGPASSWORD",
                    vec!["--database-url", bare.as_str()],
                    vec![("PGPASSWORD", *pw)],
                ),
                (
                    "pgpass",
                    vec!["--database-url", bare.as_str()],
                    vec![("PGPASSFILE", pgpass.as_str())],
                ),
            ];
            for (form, conn, env) in &forms {
                let mut args = scan.to_vec();
                args.extend(conn.iter().copied());
                let o = run_env(&args, env);
                let all = text(&o);
                let want = if works { 0 } else { 2 };
                assert_eq!(
                    o.status.code(),
                    Some(want),
                    "{case} via {form} with {pw:?}: {all}"
                );
                let leaked = pieces_in(&all, pw);
                assert!(
                    leaked.is_empty(),
                    "{case} via {form}: {leaked:?} of {pw:?} in {all}"
                );
            }
        }
        // Unparsable URLs: the password is in the string the parser refuses.
        for bad in [
            format!(
                "postgresql://equijson:{}@127.0.0.1:{port}/postgres?bogus=1",
                percent_encode(pw)
            ),
            format!(
                "postgresql://equijson:{}@127.0.0.1:abc/postgres",
                percent_encode(pw)
            ),
            format!("postgresql://equijson:{pw}@127.0.0.1:{port}/postgres"),
            format!("host=127.0.0.1 password={pw} port={port}"),
            format!("host=127.0.0.1 password={} port=abc", kv_quote(pw)),
            format!("host=127.0.0.1 password='{pw}"),
        ] {
            let mut args = scan.to_vec();
            args.extend(["--database-url", &bad]);
            let o = run_env(&args, &[]);
            let all = text(&o);
            let leaked = pieces_in(&all, pw);
            assert!(leaked.is_empty(), "{bad:?}: {leaked:?} in {all}");
            assert!(o.status.code().is_some_and(|c| c == 2 || c == 0), "{all}");
        }
        // Help and usage errors with the password in a URL.
        let url = format!(
            "postgresql://equijson:{}@127.0.0.1:{port}/postgres",
            percent_encode(pw)
        );
        for extra in [&["--help"][..], &["--no-such-flag"][..]] {
            let mut args = scan.to_vec();
            args.extend(["--database-url", url.as_str()]);
            args.extend(extra);
            let o = run_env(&args, &[]);
            let all = text(&o);
            let leaked = pieces_in(&all, pw);
            assert!(leaked.is_empty(), "{extra:?}: {leaked:?} in {all}");
        }
    }
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one table of cases against one cluster"
)]
fn libpq_environment_and_password_file_work_as_in_libpq() {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut admin = cluster.config().connect(postgres::NoTls).expect("connect");
    admin
        .batch_execute(
            "CREATE TABLE t (id int, doc jsonb); INSERT INTO t VALUES (1, '{}'); \
             ALTER ROLE equijson PASSWORD 'env-Secret-1'",
        )
        .expect("table");
    let port = cluster.port().to_string();
    let guard = TempDir::new("libpq");
    let dir = &guard.0;
    let file = |name: &str, body: &str, mode: u32| {
        let f = dir.join(name);
        std::fs::write(&f, body).expect("write");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).expect("chmod");
        f.to_string_lossy().into_owned()
    };
    let good = file(
        "good",
        &format!("# comment\n*:{port}:*:equijson:env-Secret-1\n"),
        0o600,
    );
    let open = file(
        "open",
        &format!("*:{port}:*:equijson:env-Secret-1\n"),
        0o644,
    );
    let escaped = file(
        "escaped",
        &format!(
            "127.0.0.1:{port}:postgres:nobody:wrong\n127.0.0.1:{port}:post*:equijson:wrong\n127.0.0.1\\:{port}:*:*:*:wrong\n*:*:postgres:equijson:env-Secret-1\n"
        ),
        0o600,
    );
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("home");
    std::fs::write(home.join(".pgpass"), "*:*:*:*:env-Secret-1\n").expect("pgpass");
    std::fs::set_permissions(home.join(".pgpass"), std::fs::Permissions::from_mode(0o600))
        .expect("chmod");
    let home = home.to_string_lossy().into_owned();
    let service = file(
        "services",
        &format!(
            "[other]\nport=1\n[mine]\nhost=127.0.0.1\nport={port}\nuser=equijson\ndbname=postgres\n"
        ),
        0o644,
    );
    let sysconf = dir.join("sysconf");
    std::fs::create_dir_all(&sysconf).expect("sysconf");
    std::fs::write(
        sysconf.join("pg_service.conf"),
        format!("[sys]\nhost=127.0.0.1\nport={port}\nuser=equijson\ndbname=postgres\npassword=env-Secret-1\n"),
    )
    .expect("system service file");
    let sysconf = sysconf.to_string_lossy().into_owned();
    let scan = ["pg", "scan", "--table", "t", "--column", "doc"];
    let tcp = [
        ("PGHOST", "127.0.0.1"),
        ("PGPORT", port.as_str()),
        ("PGUSER", "equijson"),
        ("PGDATABASE", "postgres"),
    ];
    let with = |extra: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        tcp.iter()
            .map(|(k, v)| (*k, (*v).to_owned()))
            .chain(extra.iter().map(|(k, v)| (*k, (*v).to_owned())))
            .collect()
    };
    let e = |k: &'static str, v: &str| (k, v.to_owned());
    let url_db_wins = format!("host=127.0.0.1 port={port} dbname=postgres user=equijson");
    // (case, extra arguments, environment, exit, words of the output)
    let pw = "env-Secret-1";
    let cases: Vec<Case<'_>> = vec![
        (
            "PG* and PGPASSWORD, no URL",
            vec![],
            with(&[("PGPASSWORD", pw)]),
            0,
            "127.0.0.1",
        ),
        (
            "wrong PGPASSWORD",
            vec![],
            with(&[("PGPASSWORD", "nope")]),
            2,
            "authentication failed",
        ),
        (
            "PGPASSFILE 0600",
            vec![],
            with(&[("PGPASSFILE", good.as_str())]),
            0,
            "rows_read: 1",
        ),
        (
            "PGPASSFILE 0644 ignored",
            vec![],
            with(&[("PGPASSFILE", open.as_str())]),
            2,
            "group or world access",
        ),
        (
            "escapes and wildcards",
            vec![],
            with(&[("PGPASSFILE", escaped.as_str())]),
            0,
            "rows_read: 1",
        ),
        (
            "~/.pgpass",
            vec![],
            with(&[("HOME", home.as_str())]),
            0,
            "rows_read: 1",
        ),
        (
            "PGSERVICE",
            vec![],
            vec![
                e("PGSERVICE", "mine"),
                e("PGSERVICEFILE", &service),
                e("PGPASSWORD", pw),
            ],
            0,
            "rows_read: 1",
        ),
        (
            "service= in the string",
            vec!["--database-url", "service=mine"],
            vec![e("PGSERVICEFILE", &service), e("PGPASSWORD", pw)],
            0,
            "rows_read: 1",
        ),
        (
            "PGSYSCONFDIR/pg_service.conf",
            vec![],
            vec![e("PGSERVICE", "sys"), e("PGSYSCONFDIR", &sysconf)],
            0,
            "rows_read: 1",
        ),
        (
            "unknown service",
            vec!["--database-url", "service=nope"],
            vec![e("PGSERVICEFILE", &service)],
            2,
            "service \"nope\" not found",
        ),
        (
            "the URL wins over PGDATABASE",
            vec!["--database-url", url_db_wins.as_str()],
            vec![e("PGDATABASE", "no_such_db"), e("PGPASSWORD", pw)],
            0,
            "rows_read: 1",
        ),
        (
            "PGCONNECT_TIMEOUT bad",
            vec![],
            with(&[("PGCONNECT_TIMEOUT", "soon")]),
            2,
            "connect_timeout",
        ),
    ];
    for (case, extra, env, code, says) in &cases {
        let mut args = scan.to_vec();
        args.extend(extra.iter().copied());
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let o = run_env(&args, &env);
        let all = text(&o);
        assert_eq!(o.status.code(), Some(*code), "{case}: {all}");
        assert!(all.contains(says), "{case}: {says:?} in {all}");
    }
}

#[test]
fn a_password_on_the_command_line_leaves_proc_cmdline() {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut admin = cluster.config().connect(postgres::NoTls).expect("connect");
    let secret = "Qz7-Xv9-Wk3-Jb";
    admin
        .batch_execute(&format!(
            "CREATE TABLE t (id int, doc jsonb); INSERT INTO t VALUES (1, '{{}}'); \
             ALTER ROLE equijson PASSWORD '{secret}'"
        ))
        .expect("table");
    // Hold the scan at its first statement: the table is locked until we have looked.
    let mut locker = cluster.config().connect(postgres::NoTls).expect("connect");
    locker
        .batch_execute("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        .expect("lock");
    let url = format!(
        "postgresql://equijson:{secret}@127.0.0.1:{}/postgres",
        cluster.port()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args([
            "pg",
            "scan",
            "--table",
            "t",
            "--column",
            "doc",
            "--database-url",
            &url,
        ])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    // Wait until the scan waits for the lock (it is connected, so it has its password).
    let started = Instant::now();
    loop {
        let waiting: i64 = admin
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'equijson'",
                &[],
            )
            .expect("activity")
            .get(0);
        if waiting > 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the scan never reached the table"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).expect("cmdline");
    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
    assert!(
        cmdline.contains("--database-url") && cmdline.contains("127.0.0.1"),
        "{cmdline}"
    );
    assert!(pieces_in(&cmdline, secret).is_empty(), "{cmdline}");
    assert_eq!(
        std::fs::metadata(format!("/proc/{pid}/environ"))
            .map_or(1, |m| m.permissions().mode() & 0o077),
        0,
        "the environment holding the password is readable only by its owner"
    );
    locker.batch_execute("COMMIT").expect("unlock");
    let mut err = String::new();
    let status = child.wait().expect("wait");
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_string(&mut out);
    }
    assert_eq!(status.code(), Some(0), "{status}: {out}{err}");
    assert!(
        err.contains("warning: --database-url holds a password"),
        "{err}"
    );
    assert!(pieces_in(&err, secret).is_empty(), "{err}");
}
