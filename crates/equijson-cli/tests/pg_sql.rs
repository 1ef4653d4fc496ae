//! `equijson pg install-sql|uninstall-sql` and `pg scan --sql-canonical`, end to end against real PostgreSQL.

#[path = "../../equijson-pg/tests/shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::process::{Command, Output, Stdio};

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::seed::seed_contacts;

fn run(args: &[&str], url: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_equijson"));
    c.args(args).stdin(Stdio::null()).env_remove("DATABASE_URL");
    if let Some(u) = url {
        c.env("DATABASE_URL", u);
    }
    c.output().expect("run equijson")
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
    assert!(text(&o).contains("--database-url"), "{}", text(&o));
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
