//! `equijson pg install-sql|uninstall-sql` and `pg scan --sql-canonical`, end to end against real PostgreSQL.

#[path = "../../equijson-pg/tests/shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::process::{Command, Output, Stdio};

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::seed::seed_contacts;

fn run_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_equijson"));
    c.args(args).stdin(Stdio::null());
    for v in pg_or_skip::CONNECTION_VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run equijson")
}

fn run(args: &[&str], url: Option<&str>) -> Output {
    match url {
        Some(u) => run_with(args, &[("DATABASE_URL", u)]),
        None => run_with(args, &[]),
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn install_scan_uninstall() {
    // Without a server: a usage error, and --print needs none.
    let o = run(&["pg", "install-sql"], None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    for way in [
        "--database-url",
        "EQUIJSON_DATABASE_URL",
        "PGHOST",
        "PGSERVICE",
    ] {
        assert!(text(&o).contains(way), "{way}: {}", text(&o));
    }
    // PGUSER and PGPORT alone name no server: still no server (never an ephemeral one).
    let o = run_with(
        &["pg", "uninstall-sql"],
        &[("PGUSER", "nobody"), ("PGPORT", "1")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no server given"), "{}", text(&o));
    let o = run(&["pg", "install-sql", "--print", "--schema", "u"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"u\".equijson_canonical(doc jsonb)"));

    if !pg_or_skip::server_or_skip("install_scan_uninstall") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let url = cluster.connection_string();
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    seed_contacts(&mut client, "contacts", 200, 5, 4, true).expect("seed");

    // Scanning before installing says how to install.
    let scan = [
        "pg",
        "scan",
        "--table",
        "contacts",
        "--column",
        "doc",
        "--key",
        "id",
        "--dto",
        "contact",
        "--sql-canonical=util",
    ];
    let o = run(&scan, Some(&url));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("install-sql --schema util"),
        "{}",
        text(&o)
    );

    for _ in 0..2 {
        let o = run(&["pg", "install-sql", "--schema", "util"], Some(&url));
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
    let row = client
        .query_one(
            "SELECT util.equijson_canonical('{\"b\":[1.0,1e21],\"a\":1e-400}')",
            &[],
        )
        .expect("call");
    assert_eq!(row.get::<_, String>(0), r#"{"a":0,"b":[1,1e+21]}"#);

    let o = run(&[&scan[..], &["--format", "json"]].concat(), Some(&url));
    let out = text(&o);
    assert!(!out.contains("sql-canonical"), "{out}");
    assert!(
        out.contains("\"complete\": true") || out.contains("\"complete\":true"),
        "{out}"
    );

    // A function that sorts members by jsonb's order is caught on every row that has
    // members in a different order (every row through the level-by-level function).
    client
        .batch_execute(
            "CREATE OR REPLACE FUNCTION util.equijson_utf16_key(name text) RETURNS text \
             LANGUAGE sql IMMUTABLE AS $$ SELECT lpad(length(name)::text, 5, '0') || name $$; \
             CREATE OR REPLACE FUNCTION util.equijson_canonical(doc jsonb) RETURNS text \
             LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT util.equijson_canonical_levels(doc) $$",
        )
        .expect("sabotage");
    let o = run(&scan, Some(&url));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("sql-canonical: 2"), "{}", text(&o));

    let o = run(&["pg", "uninstall-sql", "--schema", "util"], Some(&url));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let gone: bool = client
        .query_one(
            "SELECT to_regprocedure('util.equijson_canonical(jsonb)') IS NULL",
            &[],
        )
        .expect("catalog")
        .get(0);
    assert!(gone);
}

#[test]
fn hostile_names_schemas_and_where_at_the_command_line() {
    // --print: a schema name cannot end a body or a statement; control characters refused.
    let o = run(
        &[
            "pg",
            "install-sql",
            "--print",
            "--schema",
            "x$fn$; create table t (); --",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let sql = String::from_utf8_lossy(&o.stdout);
    assert!(
        sql.contains("as $fn1$") && !sql.contains("as $fn$"),
        "{sql}"
    );
    assert!(sql.contains("set search_path = pg_catalog, pg_temp"));
    let o = run(&["pg", "install-sql", "--print", "--schema", "a\nb"], None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    let cluster = EphemeralCluster::start().expect("start cluster");
    let url = cluster.connection_string();
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    seed_contacts(&mut client, "contacts", 50, 5, 4, false).expect("seed");
    client
        .batch_execute("CREATE ROLE other; CREATE SCHEMA theirs AUTHORIZATION other")
        .expect("another role's schema");
    let o = run(&["pg", "install-sql", "--schema", "theirs"], Some(&url));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--allow-other-owner") && text(&o).contains("other"),
        "{}",
        text(&o)
    );
    let o = run(
        &[
            "pg",
            "install-sql",
            "--schema",
            "theirs",
            "--allow-other-owner",
        ],
        Some(&url),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let scan = |extra: &[&str]| {
        let base = ["pg", "scan", "--table", "contacts", "--column", "doc"];
        run(&[&base[..], extra].concat(), Some(&url))
    };
    let o = scan(&["--where", "random() < 0.5"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("random()") && text(&o).contains("--where-unchecked"),
        "{}",
        text(&o)
    );
    let o = scan(&["--where", "random() < 2", "--where-unchecked"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = scan(&["--where", "id > 10"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let long = "c".repeat(64);
    let o = run(
        &["pg", "scan", "--table", &long, "--column", "doc"],
        Some(&url),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("63"), "{}", text(&o));
}

/// A way to name the server: (schema to install into, extra arguments, environment).
type Way<'a> = (&'a str, Vec<&'a str>, Vec<(&'a str, &'a str)>);

/// `key=value` pairs of a libpq connection string without quoting.
fn params(conn: &str) -> Vec<(String, String)> {
    conn.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn installed_in(client: &mut postgres::Client, schema: &str) -> bool {
    client
        .query_one(
            "SELECT to_regprocedure(format('%I.equijson_canonical(jsonb)', $1::text)) IS NOT NULL",
            &[&schema],
        )
        .expect("catalog")
        .get(0)
}

#[test]
fn install_and_uninstall_take_the_server_as_scan_does() {
    // Before: only --database-url and DATABASE_URL; EQUIJSON_DATABASE_URL,
    // --database-url-file, libpq's variables and service files were "no server".
    if !pg_or_skip::server_or_skip("install_and_uninstall_take_the_server_as_scan_does") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let url = cluster.connection_string();
    let p = params(&url);
    let get = |k: &str| {
        p.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .expect(k)
    };
    let (host, port, user) = (get("host"), get("port"), get("user"));
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");

    let dir = std::env::temp_dir().join(format!("equijson-pg-sql-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let url_file = dir.join("url");
    std::fs::write(&url_file, format!("{url}\n")).expect("url file");
    let url_file = url_file.to_string_lossy().into_owned();
    // A service file with a setting equijson ignores, named with a terminal escape and a
    // line feed: the warning is printed, escaped.
    let services = dir.join("services.conf");
    std::fs::write(
        &services,
        format!(
            "[eqtest]\nhost={host}\nport={port}\nuser={user}\ndbname=postgres\n\
             gss\u{1b}[2J\u{202e}mode=disable\n"
        ),
    )
    .expect("service file");
    let services = services.to_string_lossy().into_owned();

    let ways: Vec<Way<'_>> = vec![
        (
            "env_url",
            vec![],
            vec![("EQUIJSON_DATABASE_URL", url.as_str())],
        ),
        (
            "url_file",
            vec!["--database-url-file", url_file.as_str()],
            vec![],
        ),
        (
            "libpq_vars",
            vec![],
            vec![
                ("PGHOST", host.as_str()),
                ("PGPORT", port.as_str()),
                ("PGUSER", user.as_str()),
                ("PGDATABASE", "postgres"),
            ],
        ),
        (
            "service",
            vec![],
            vec![
                ("PGSERVICEFILE", services.as_str()),
                ("PGSERVICE", "eqtest"),
            ],
        ),
    ];
    for (schema, extra, env) in &ways {
        let install = [&["pg", "install-sql", "--schema", schema][..], extra].concat();
        let o = run_with(&install, env);
        assert_eq!(o.status.code(), Some(0), "{schema}: {}", text(&o));
        assert!(installed_in(&mut client, schema), "{schema}: {}", text(&o));
        if *schema == "service" {
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("warning:") && err.contains("\\u{1b}") && err.contains("\\u{202e}"),
                "{err}"
            );
            assert!(
                !err.contains('\u{1b}') && !err.contains('\u{202e}'),
                "{err:?}"
            );
        }
        let uninstall = [&["pg", "uninstall-sql", "--schema", schema][..], extra].concat();
        let o = run_with(&uninstall, env);
        assert_eq!(o.status.code(), Some(0), "{schema}: {}", text(&o));
        assert!(!installed_in(&mut client, schema), "{schema}: {}", text(&o));
    }

    // A server error naming another role: the role's name is someone else's text, escaped.
    client
        .batch_execute(
            "CREATE ROLE \"evil\u{1b}[2J\nverdict: ok\"; \
             CREATE SCHEMA hostile AUTHORIZATION \"evil\u{1b}[2J\nverdict: ok\"",
        )
        .expect("a hostile role's schema");
    let o = run_with(
        &["pg", "install-sql", "--schema", "hostile"],
        &[("EQUIJSON_DATABASE_URL", url.as_str())],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("evil\\u{1b}[2J\\u{a}verdict"), "{err}");
    assert!(
        !err.contains('\u{1b}') && !err.lines().any(|l| l.starts_with("verdict")),
        "{err:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
