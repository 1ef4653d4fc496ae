//! A hostile table owner, database owner and low-privileged user against `pg scan`, `--where`, `install-sql` and `roundtrip` on an ephemeral cluster.
//!
//! Every attack first runs against what the tool used to do (its old SQL on an unpinned
//! session, or the option that turns the guard off) and must leave its marker there: so
//! the attack is real. Then the tool runs and the marker must be absent. Markers are files
//! the server writes into its data directory (`COPY ... TO`, as the scanning superuser)
//! or objects a `--where` would drop, create or kill.

use std::path::PathBuf;

use equijson_pg::canonical_sql::{FUNCTIONS, InstallOptions, install, install_with};
use equijson_pg::cluster::{EphemeralCluster, SUPERUSER};
use equijson_pg::connect::{PgError, connect};
use equijson_pg::live::ScanReport;
use equijson_pg::scan::{ScanOptions, scan_parallel};
use postgres::Client;

/// A cluster with an attacker role `mallory`, `public` writable by everyone (as on
/// PostgreSQL 13 and 14, and on databases upgraded from them) and a database `mallorydb`
/// that mallory owns, whose `search_path` she set to put `public` before `pg_catalog`.
struct Lab {
    cluster: EphemeralCluster,
}

/// Mallory's marker: a file `mark-TAG` in the data directory `dir`, written with the
/// rights of whoever calls it (only a superuser or `pg_write_server_files` can write it).
fn mark_fn(dir: &std::path::Path) -> String {
    format!(
        "CREATE FUNCTION public.equijson_test_mark(tag text) RETURNS boolean
         LANGUAGE plpgsql AS $m$
         BEGIN
           EXECUTE pg_catalog.format('COPY (SELECT 1) TO %L',
             '{}/mark-' OPERATOR(pg_catalog.||) tag);
           RETURN true;
         EXCEPTION WHEN others THEN RETURN true;
         END $m$",
        dir.display()
    )
}

impl Lab {
    fn new() -> Self {
        let cluster = EphemeralCluster::start().expect("start cluster");
        let mut admin = connect(cluster.config()).expect("connect");
        admin
            .batch_execute(
                "CREATE ROLE mallory LOGIN; CREATE ROLE auditor LOGIN;
                 GRANT pg_write_server_files TO auditor;
                 GRANT CREATE ON SCHEMA public TO PUBLIC;
                 GRANT CREATE ON DATABASE postgres TO mallory;",
            )
            .expect("roles");
        admin
            .batch_execute("CREATE DATABASE mallorydb OWNER mallory")
            .expect("mallorydb");
        let lab = Self { cluster };
        for db in ["postgres", "mallorydb"] {
            let mut m = lab.client("mallory", db);
            m.batch_execute(&mark_fn(lab.cluster.data_dir()))
                .expect("mark function");
            m.batch_execute(
                "CREATE TABLE public.docs (id bigint PRIMARY KEY, doc jsonb, raw json, txt text);
                 INSERT INTO public.docs
                 SELECT i, pg_catalog.jsonb_build_object('i', i, 'n', 9007199254740993.5),
                        pg_catalog.format('{\"i\": %s, \"n\": 1e2}', i)::json, 'x' || i
                 FROM pg_catalog.generate_series(1, 200) i;
                 GRANT SELECT ON public.docs TO PUBLIC;",
            )
            .expect("docs");
        }
        lab.client("mallory", "mallorydb")
            .batch_execute("ALTER DATABASE mallorydb SET search_path = public, pg_catalog")
            .expect("hostile search_path");
        lab
    }

    fn config(&self, user: &str, db: &str) -> postgres::Config {
        let mut c = self.cluster.config();
        c.user(user).dbname(db);
        c
    }

    fn client(&self, user: &str, db: &str) -> Client {
        connect(self.config(user, db)).expect("connect")
    }

    fn mark_path(&self, tag: &str) -> PathBuf {
        self.cluster.data_dir().join(format!("mark-{tag}"))
    }

    fn marked(&self, tag: &str) -> bool {
        self.mark_path(tag).exists()
    }

    fn clear(&self, tag: &str) {
        let _ = std::fs::remove_file(self.mark_path(tag));
    }
}

fn opts(table: &str, column: &str) -> ScanOptions {
    ScanOptions {
        table: table.into(),
        column: column.into(),
        ..ScanOptions::default()
    }
}

fn scan(config: &postgres::Config, o: &ScanOptions, jobs: u32) -> Result<ScanReport, PgError> {
    let check = |b: &equijson_check::decode::Input<'_>| {
        equijson_check::decode::check_input::<serde_json::Value>(b, &[])
    };
    scan_parallel(config, o, jobs, "value", &check, &|_, _| {})
}

/// Everything the tool runs on a database: scans of each column kind, with a key, sharded,
/// with `--jobs`, with a vetted `--where`, a round trip. Returns the rows read per scan.
fn every_tool_path(config: &postgres::Config) -> Vec<(String, u64)> {
    let mut read = Vec::new();
    for column in ["doc", "raw", "txt"] {
        for (key, jobs, shard) in [
            (None, 1, None),
            (Some("id"), 3, None),
            (Some("id"), 1, Some((2, 3))),
            (None, 2, None),
        ] {
            let mut o = opts("docs", column);
            o.key = key.map(str::to_owned);
            o.shard = shard;
            o.where_sql = Some("id > 0 AND lower(txt) <> 'y'".into());
            let r = scan(config, &o, jobs).unwrap_or_else(|e| panic!("{column}: {e}"));
            assert!(r.complete, "{column}: {:?}", r.error);
            read.push((
                format!("{column} key={key:?} jobs={jobs} shard={shard:?}"),
                r.rows_read,
            ));
        }
    }
    let mut client = connect(config.clone()).expect("connect");
    let spec = equijson_check::dto::find("value").expect("dto");
    equijson_pg::roundtrip::roundtrip_dto(
        &mut client,
        spec,
        equijson_pg::roundtrip::RoundtripOptions {
            seed: 3,
            cases: 20,
            size: 4,
        },
        &mut |_, _| {},
    )
    .expect("roundtrip");
    read
}

/// One shadowing attack (`tests/data/hostile/shadows.json`): `setup` runs as mallory in
/// `db`; `control` is SQL the tool used to run (unqualified, on an unpinned session) and
/// must fire the marker `tag`.
#[derive(serde::Deserialize)]
struct Shadow {
    tag: String,
    db: String,
    setup: String,
    control: String,
}

fn shadows() -> Vec<Shadow> {
    #[derive(serde::Deserialize)]
    struct File {
        shadows: Vec<Shadow>,
    }
    let path = data("shadows.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str::<File>(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .shadows
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/hostile")
        .join(name)
}

#[test]
fn shadowed_operators_and_functions_never_run_in_the_tools_sessions() {
    let lab = Lab::new();
    let shadows = shadows();
    assert!(shadows.len() >= 12, "the table lost rows");
    for s in &shadows {
        lab.client("mallory", &s.db)
            .batch_execute(&s.setup)
            .unwrap_or_else(|e| panic!("{}: setup: {e}", s.tag));
        // The attack is real: the tool's old, unqualified SQL on an unpinned session fires it.
        lab.client(SUPERUSER, &s.db)
            .batch_execute(&s.control)
            .unwrap_or_else(|e| panic!("{}: control: {e}", s.tag));
        assert!(
            lab.marked(&s.tag),
            "{}: the control did not fire the shadow",
            s.tag
        );
        lab.clear(&s.tag);
    }
    for db in ["postgres", "mallorydb"] {
        let reads = every_tool_path(&lab.config(SUPERUSER, db));
        for (what, rows) in &reads {
            let want = if what.contains("shard=Some") {
                None
            } else {
                Some(200)
            };
            if let Some(want) = want {
                assert_eq!(*rows, want, "{db}: {what}");
            }
        }
        // The shards of one split add up to the table (a shadowed mod used to hide rows).
        let mut total = 0;
        for k in 1..=3 {
            let mut o = opts("docs", "doc");
            o.key = Some("id".into());
            o.shard = Some((k, 3));
            total += scan(&lab.config(SUPERUSER, db), &o, 1)
                .expect("shard")
                .rows_read;
        }
        assert_eq!(total, 200, "{db}: shards");
    }
    for s in &shadows {
        assert!(
            !lab.marked(&s.tag),
            "{}: a tool session ran the shadow",
            s.tag
        );
    }
}

#[test]
fn a_key_types_cast_to_text_is_not_called() {
    let lab = Lab::new();
    lab.client("mallory", "postgres")
        .batch_execute(
            "CREATE TYPE public.mood AS ENUM ('calm', 'angry');
             CREATE FUNCTION public.mood_text(public.mood) RETURNS text LANGUAGE plpgsql AS
             $f$ BEGIN PERFORM public.equijson_test_mark('cast'); RETURN 'forged'; END $f$;
             CREATE CAST (public.mood AS text) WITH FUNCTION public.mood_text(public.mood);
             CREATE TABLE public.moods (k public.mood, doc jsonb);
             INSERT INTO public.moods VALUES ('calm', '{\"a\": 1}'), ('angry', '[1]');
             GRANT SELECT ON public.moods TO PUBLIC;",
        )
        .expect("setup");
    lab.client(SUPERUSER, "postgres")
        .batch_execute("SELECT k::text FROM public.moods")
        .expect("control");
    assert!(lab.marked("cast"), "the control did not run the cast");
    lab.clear("cast");
    let config = lab.config(SUPERUSER, "postgres");
    for (jobs, shard) in [(1, None), (2, None), (1, Some((1, 2)))] {
        let mut o = opts("moods", "doc");
        o.key = Some("k".into());
        o.shard = shard;
        o.show_values = true;
        let r = scan(&config, &o, jobs).expect("scan");
        assert!(r.complete, "{:?}", r.error);
    }
    assert!(!lab.marked("cast"), "the scan called the owner's cast");
}

#[test]
fn row_security_policies_and_views_of_the_owner_are_not_run() {
    let lab = Lab::new();
    lab.client("mallory", "postgres")
        .batch_execute(
            "CREATE TABLE public.guarded (doc jsonb);
             INSERT INTO public.guarded VALUES ('{}'), ('[]');
             ALTER TABLE public.guarded ENABLE ROW LEVEL SECURITY;
             CREATE POLICY p ON public.guarded USING (public.equijson_test_mark('policy'));
             GRANT SELECT ON public.guarded TO auditor;
             CREATE VIEW public.lens AS SELECT doc FROM public.docs WHERE public.equijson_test_mark('view');
             GRANT SELECT ON public.lens TO PUBLIC;",
        )
        .expect("setup");
    lab.client("auditor", "postgres")
        .batch_execute("SELECT * FROM public.guarded")
        .expect("control policy");
    assert!(lab.marked("policy"), "the control did not run the policy");
    lab.clear("policy");
    lab.client(SUPERUSER, "postgres")
        .batch_execute("SELECT * FROM public.lens")
        .expect("control view");
    assert!(lab.marked("view"), "the control did not run the view");
    lab.clear("view");

    let err = scan(
        &lab.config("auditor", "postgres"),
        &opts("guarded", "doc"),
        1,
    )
    .expect_err("a policy applies: refused");
    assert!(err.to_string().contains("row-level security"), "{err}");
    let err = scan(&lab.config(SUPERUSER, "postgres"), &opts("lens", "doc"), 1)
        .expect_err("a view: refused");
    assert!(err.to_string().contains("--allow-view"), "{err}");
    assert!(!lab.marked("policy") && !lab.marked("view"));
    // Asked for, the view is scanned (and runs its definition).
    let mut o = opts("lens", "doc");
    o.allow_view = true;
    assert_eq!(
        scan(&lab.config(SUPERUSER, "postgres"), &o, 1)
            .expect("view")
            .rows_read,
        200
    );
}

#[test]
fn names_over_63_bytes_are_refused_not_truncated() {
    let lab = Lab::new();
    let short = "t".repeat(63);
    let mut admin = lab.client(SUPERUSER, "postgres");
    admin
        .batch_execute(&format!(
            "CREATE TABLE public.{short} (doc jsonb); INSERT INTO public.{short} VALUES ('1')"
        ))
        .expect("table");
    let config = lab.config(SUPERUSER, "postgres");
    assert_eq!(
        scan(&config, &opts(&short, "doc"), 1)
            .expect("63 bytes")
            .rows_read,
        1
    );
    for (table, column) in [
        (format!("{short}x"), "doc".to_owned()),
        (format!("public.{short}x"), "doc".to_owned()),
        (short.clone(), format!("{}x", "d".repeat(63))),
        // 21 three-byte characters plus one byte: 64 bytes, 22 characters.
        (format!("{}x", "é".repeat(31)) + "é", "doc".to_owned()),
    ] {
        let err = scan(&config, &opts(&table, &column), 1).expect_err("over 63 bytes");
        assert!(
            matches!(&err, PgError::Usage(m) if m.contains("63")),
            "{table}.{column}: {err}"
        );
    }
}

/// One `--where` attack (`tests/data/hostile/where.json`, placeholders filled in).
#[derive(serde::Deserialize)]
struct WhereAttack {
    name: String,
    setup: String,
    #[serde(rename = "where")]
    where_sql: String,
    took_effect: String,
    reset: String,
}

fn where_attacks(lab: &Lab, victim_pid: i32) -> Vec<WhereAttack> {
    #[derive(serde::Deserialize)]
    struct File {
        attacks: Vec<WhereAttack>,
    }
    let path = data("where.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let conn = format!(
        "host={} port={} user={SUPERUSER} dbname=postgres",
        lab.cluster.socket_dir().display(),
        lab.cluster.port()
    );
    let dir = lab.cluster.data_dir().display().to_string();
    let fill = |s: &str| {
        s.replace("{conn}", &conn)
            .replace("{dir}", &dir)
            .replace("{pid}", &victim_pid.to_string())
    };
    serde_json::from_str::<File>(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .attacks
        .into_iter()
        .map(|a| WhereAttack {
            setup: fill(&a.setup),
            where_sql: fill(&a.where_sql),
            took_effect: fill(&a.took_effect),
            reset: fill(&a.reset),
            name: a.name,
        })
        .collect()
}

#[test]
fn where_runs_only_what_cannot_act_unless_told() {
    let lab = Lab::new();
    let mut admin = lab.client(SUPERUSER, "postgres");
    let mut victim = lab.client("auditor", "postgres");
    let pid: i32 = victim
        .query_one("SELECT pg_backend_pid()", &[])
        .expect("pid")
        .get(0);
    let config = lab.config(SUPERUSER, "postgres");
    let attacks = where_attacks(&lab, pid);
    assert!(attacks.len() >= 13, "the table lost rows");
    for a in &attacks {
        if !a.setup.is_empty() {
            admin.batch_execute(&a.setup).expect(&a.name);
        }
        let mut o = opts("docs", "doc");
        o.where_sql = Some(a.where_sql.clone());
        for jobs in [1, 2] {
            let err = scan(&config, &o, jobs).expect_err(&a.name);
            assert!(
                matches!(&err, PgError::Usage(m) if m.contains("--where-unchecked")),
                "{}: {err}",
                a.name
            );
        }
        let took: bool = admin
            .query_one(a.took_effect.as_str(), &[])
            .expect(&a.name)
            .get(0);
        assert!(!took, "{}: took effect although refused", a.name);
        // Told to, the scan runs it: the attack is real (where it leaves a trace).
        o.where_unchecked = true;
        let _ = scan(&config, &o, 1);
        if a.took_effect != "SELECT false" {
            let took: bool = admin
                .query_one(a.took_effect.as_str(), &[])
                .expect(&a.name)
                .get(0);
            assert!(took, "{}: the attack did not work even unchecked", a.name);
        }
        if !a.reset.is_empty() {
            admin.batch_execute(&a.reset).expect(&a.name);
        }
    }
    // A second statement cannot ride along, checked or not.
    for unchecked in [false, true] {
        let mut o = opts("docs", "doc");
        o.where_sql = Some("true); CREATE TABLE public.smuggled (); SELECT (1".into());
        o.where_unchecked = unchecked;
        assert!(scan(&config, &o, 1).is_err());
        let made: bool = admin
            .query_one("SELECT to_regclass('public.smuggled') IS NOT NULL", &[])
            .expect("catalog")
            .get(0);
        assert!(!made, "unchecked={unchecked}: a second statement ran");
    }
    // What a filter needs passes: operators, stable and immutable built-ins, other tables.
    for (w, rows) in [
        ("id > 150", 50),
        ("doc ? 'i' AND (doc->>'i')::int % 2 = 0", 100),
        ("lower(txt) LIKE 'x1%' AND now() > '2000-01-01'", 111),
        ("id IN (SELECT id FROM public.docs WHERE id <= 10)", 10),
        (
            "jsonb_typeof(doc->'n') = 'number' AND length(raw::text) < 100",
            200,
        ),
    ] {
        let mut o = opts("docs", "doc");
        o.where_sql = Some(w.into());
        let r = scan(&config, &o, 1).unwrap_or_else(|e| panic!("{w}: {e}"));
        assert_eq!(r.rows_read, rows, "{w}");
    }
}

#[test]
fn install_sql_functions_are_pinned_and_owned_by_the_installer() {
    let lab = Lab::new();
    // The issue's attack: public.power(numeric, integer) beat pg_catalog.power inside the
    // functions during `pg scan --sql-canonical`.
    lab.client("mallory", "postgres")
        .batch_execute(
            "CREATE FUNCTION public.power(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS
             $f$ BEGIN PERFORM public.equijson_test_mark('power');
             RETURN pg_catalog.power($1, $2::numeric); END $f$;
             CREATE FUNCTION public.jsonb_typeof(jsonb) RETURNS text LANGUAGE plpgsql AS
             $f$ BEGIN PERFORM public.equijson_test_mark('typeof');
             RETURN pg_catalog.jsonb_typeof($1); END $f$;",
        )
        .expect("shadows");
    let mut admin = lab.client(SUPERUSER, "postgres");
    admin
        .batch_execute("SELECT power(2::numeric, 3)")
        .expect("control");
    assert!(lab.marked("power"));
    lab.clear("power");
    install(&mut admin, "eq").expect("install into a new schema");
    let mut o = opts("docs", "doc");
    o.key = Some("id".into());
    let mut report = scan(&lab.config(SUPERUSER, "postgres"), &o, 1).expect("scan");
    let pass =
        equijson_pg::sql_scan::compare(lab.config(SUPERUSER, "postgres"), &o, "eq", &mut report)
            .expect("sql-canonical");
    assert_eq!((pass.rows, pass.differing), (200, 0));
    // Called directly by a session whose search_path puts public first, too.
    let mut hostile = lab.client(SUPERUSER, "postgres");
    hostile
        .batch_execute(
            "SET search_path = public, pg_catalog;
             SELECT eq.equijson_canonical('[9007199254740993.5, {\"b\": 1, \"a\": 2}]');
             SELECT eq.equijson_number_slow(9007199254740993.5)",
        )
        .expect("direct call");
    assert!(
        !lab.marked("power") && !lab.marked("typeof"),
        "an installed function ran a shadow"
    );
    for f in FUNCTIONS {
        let row = admin
            .query_one(
                "SELECT pg_get_userbyid(proowner)::text, coalesce(proconfig, '{}')::text
                 FROM pg_proc WHERE oid = to_regprocedure('eq.' || $1)",
                &[f],
            )
            .expect(f);
        let (owner, config): (String, String) = (row.get(0), row.get(1));
        assert_eq!(owner, SUPERUSER, "{f}");
        assert!(
            config.contains("search_path=pg_catalog, pg_temp"),
            "{f}: {config}"
        );
    }

    // A schema of another role, and functions of another role, are refused unless told.
    lab.client("mallory", "postgres")
        .batch_execute(
            "CREATE SCHEMA shared;
             CREATE FUNCTION public.equijson_canonical(jsonb) RETURNS text LANGUAGE sql AS $f$ SELECT 'mallory' $f$",
        )
        .expect("mallory's objects");
    for schema in ["shared", "public"] {
        let err = install(&mut admin, schema).expect_err(schema);
        assert!(
            matches!(&err, PgError::Usage(m) if m.contains("mallory") && m.contains("--allow-other-owner")),
            "{schema}: {err}"
        );
    }
    let mallorys: String = admin
        .query_one("SELECT public.equijson_canonical('1')", &[])
        .expect("still hers")
        .get(0);
    assert_eq!(mallorys, "mallory", "nothing changed on refusal");
    // Told to, CREATE OR REPLACE replaces the body but the function stays hers: why it is refused.
    install_with(
        &mut admin,
        "public",
        InstallOptions {
            allow_other_owner: true,
        },
    )
    .expect("allowed");
    let owner: String = admin
        .query_one(
            "SELECT pg_get_userbyid(proowner)::text FROM pg_proc WHERE oid = 'public.equijson_canonical(jsonb)'::regprocedure",
            &[],
        )
        .expect("owner")
        .get(0);
    assert_eq!(owner, "mallory");
}

#[test]
fn printed_sql_quotes_every_schema_so_none_ends_a_statement() {
    let lab = Lab::new();
    let mut admin = lab.client(SUPERUSER, "postgres");
    for (i, schema) in [
        "x$fn$; create table public.pwned0 (); --",
        "x\"; create table public.pwned1 (); --",
        "x$fn1$ $fn$ $fn2$'; create table public.pwned2 (); --",
        "x\n; create table public.pwned3 (); --",
    ]
    .iter()
    .enumerate()
    {
        let sql = equijson_pg::canonical_sql::sql_for_schema(schema);
        let mut tx = admin.transaction().expect("tx");
        tx.batch_execute(&format!(
            "CREATE SCHEMA {};",
            equijson_pg::canonical_sql::quote_ident(schema)
        ))
        .expect("schema");
        tx.batch_execute(&sql)
            .unwrap_or_else(|e| panic!("{schema:?}: the printed SQL does not run: {e}"));
        let made: bool = tx
            .query_one(
                "SELECT to_regclass(format('public.pwned%s', $1::int)) IS NOT NULL",
                &[&i32::try_from(i).expect("small")],
            )
            .expect("catalog")
            .get(0);
        assert!(!made, "{schema:?}: the schema name ended a statement");
        let works: String = tx
            .query_one(
                &format!(
                    "SELECT {}.equijson_canonical('{{\"b\": 1, \"a\": [1.0]}}')",
                    equijson_pg::canonical_sql::quote_ident(schema)
                ),
                &[],
            )
            .expect("installed")
            .get(0);
        assert_eq!(works, r#"{"a":[1],"b":1}"#);
        tx.rollback().expect("rollback");
    }
    // install-sql and --print refuse control characters outright.
    assert!(equijson_pg::canonical_sql::check_schema("a\nb").is_err());
    assert!(equijson_pg::canonical_sql::check_schema(&"s".repeat(64)).is_err());
}
