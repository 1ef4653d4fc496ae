//! Round trips and scans against a real ephemeral PostgreSQL cluster.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::collections::HashMap;
use std::sync::Mutex;

use equijson_check::decode::{Class, Input, check_input};
use equijson_check::props::PropsConfig;
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::{PgError, connect};
use equijson_pg::live::LiveClass;
use equijson_pg::roundtrip::{RoundtripOptions, Session, roundtrip_dto};
use equijson_pg::scan::{ScanOptions, scan_with};
use equijson_pg::seed::seed_contacts;
use postgres::error::SqlState;

fn start() -> (EphemeralCluster, postgres::Client) {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let client = connect(cluster.config()).expect("connect");
    (cluster, client)
}

#[test]
fn roundtrip_digest_matches_props_and_model_matches_server() {
    if !pg_or_skip::server_or_skip("roundtrip_digest_matches_props_and_model_matches_server") {
        return;
    }
    let (_cluster, mut client) = start();
    for (dto, seed) in [("value", 11u64), ("contact", 12)] {
        let spec = equijson_check::dto::find(dto).expect("dto");
        let r = roundtrip_dto(
            &mut client,
            spec,
            RoundtripOptions {
                seed,
                cases: 150,
                size: 6,
            },
            &mut |_, _| {},
        )
        .expect("roundtrip");
        let props = equijson_check::props::run(&PropsConfig::new(seed, 150, Some(spec)), |_, _| {});
        assert_eq!(r.digest, props.digest, "{dto}");
        assert_eq!(r.failed, 0, "{}", r.render());
        assert_eq!(r.passed, 150);
    }
}

#[test]
fn rejections_carry_the_predicted_sqlstate() {
    if !pg_or_skip::server_or_skip("rejections_carry_the_predicted_sqlstate") {
        return;
    }
    let (_cluster, mut client) = start();
    let mut session = Session::new(&mut client).expect("session");
    let value = |b: &[u8]| equijson_check::decode::check::<serde_json::Value>(b, &[]);
    // (input, SQLSTATE the server and the model give for jsonb, None when accepted)
    let table: &[(&str, Option<&str>)] = &[
        (r#"{"a":"\u0000"}"#, Some("22P05")),
        (r#"["\ud800"]"#, Some("22P02")),
        (r#""\udc00x""#, Some("22P02")),
        ("1e131072", Some("22003")),
        ("[1e-16384]", Some("22003")),
        (r#"{"b":1,"aa":2,"a":3,"a":4}"#, None),
        ("[1.0, 1e2, 100e-2, -0, -0.0, 1e-7]", None),
        (r#"{"\ud83d\ude02":1,"\ue000":2}"#, None),
        ("123456789012345678901234567890", None),
        (r#""\u00e9\/\u2028\u007f""#, None),
    ];
    for (input, want) in table {
        let out = session
            .check_text(input.as_bytes(), &value)
            .expect("server usable");
        assert_eq!(out.rejected.as_deref(), *want, "{input}");
        let unaccepted: Vec<_> = out
            .findings
            .iter()
            .filter(|f| !f.accepted && f.class.is_model() || f.class.name().starts_with("json"))
            .collect();
        assert!(unaccepted.is_empty(), "{input}: {unaccepted:#?}");
    }
}

#[test]
fn a_model_miss_is_reported_not_hidden() {
    // The model is the thing under test; feed the comparison a server answer that differs
    // from what the model predicts and check that it is a finding.
    let server = equijson_pg::live::ServerJsonb::Stored {
        binary: b"\x01{\"a\": 1}".to_vec(),
        text: b"{\"a\": 1}".to_vec(),
    };
    let f = equijson_pg::live::compare_jsonb(br#"{"a":2}"#, "text", &server);
    assert!(f.iter().any(|f| f.class == LiveClass::ModelText), "{f:?}");
    let rejected = equijson_pg::live::ServerJsonb::Rejected {
        code: "22P02".into(),
        message: "x".into(),
    };
    assert_eq!(
        equijson_pg::live::compare_jsonb(br#"{"a":2}"#, "text", &rejected)[0].class,
        LiveClass::ModelAccepts
    );
    assert_eq!(
        equijson_pg::live::compare_jsonb(br#""\u0000""#, "text", &rejected)[0].class,
        LiveClass::ModelSqlstate
    );
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one seeded table, several scans of it"
)]
fn scan_reads_every_row_and_shards_cover_each_row_once() {
    let (cluster, mut client) = start();
    let rows = seed_contacts(&mut client, "contacts", 1500, 5, 4, true).expect("seed");
    client
        .batch_execute("DELETE FROM contacts WHERE id % 7 = 3")
        .expect("holes");
    let remaining: i64 = client
        .query_one("SELECT count(*) FROM contacts", &[])
        .expect("count")
        .get(0);
    assert!(remaining > 1000 && (remaining as u64) < rows);
    let spec = equijson_check::dto::find("contact").expect("contact");
    let config = cluster.config();
    let full = ScanOptions {
        table: "contacts".into(),
        column: "doc".into(),
        key: Some("id".into()),
        ..Default::default()
    };
    let report = scan_with(
        &config,
        &full,
        "contact",
        &|b| (spec.check_input)(b),
        &mut |_, _| {},
    )
    .expect("scan");
    assert!(report.complete, "{}", report.render());
    assert_eq!(report.rows_total, remaining as u64);
    assert_eq!(report.rows_read, remaining as u64);
    assert_eq!(report.divergences, 0, "{}", report.render());
    let non_null: i64 = client
        .query_one("SELECT count(doc) FROM contacts", &[])
        .expect("count")
        .get(0);
    assert_eq!(report.model_checked, non_null as u64);
    // json: the model is held against the server's own cast where the cast is safe.
    let raw = ScanOptions {
        column: "raw".into(),
        ..full.clone()
    };
    let report = scan_with(
        &config,
        &raw,
        "contact",
        &|b| (spec.check_input)(b),
        &mut |_, _| {},
    )
    .expect("scan raw");
    assert!(
        report.complete && report.divergences == 0,
        "{}",
        report.render()
    );
    assert!(
        report.model_checked > report.rows_read / 2,
        "{}",
        report.render()
    );
    assert!(
        report.model_checked < report.rows_read,
        "surrogate escapes are left out: {}",
        report.render()
    );
    assert!(
        !report.classes.keys().any(|c| c.is_model()),
        "{}",
        report.render()
    );

    // Every value seen by every shard, by key hash and by heap block.
    for key in [Some("id"), None] {
        let seen: Mutex<HashMap<Vec<u8>, u32>> = Mutex::new(HashMap::new());
        let record = |b: &Input<'_>| {
            *seen
                .lock()
                .expect("lock")
                .entry(b.text.to_vec())
                .or_insert(0) += 1;
            check_input::<serde_json::Value>(b, &[])
        };
        let n = 3;
        let mut reports = Vec::new();
        // Shards merge only when they read one snapshot: export one and hold it.
        let mut holder = connect(cluster.config()).expect("connect");
        let snapshot = equijson_pg::scan::export_snapshot(&mut holder).expect("export");
        for k in 1..=n {
            let o = ScanOptions {
                column: "raw".into(),
                key: key.map(str::to_owned),
                shard: Some((k, n)),
                snapshot: Some(snapshot.clone()),
                ..full.clone()
            };
            reports.push(scan_with(&config, &o, "value", &record, &mut |_, _| {}).expect("shard"));
        }
        let merged = equijson_pg::live::ScanReport::merge(&reports).expect("merge");
        assert!(merged.complete);
        assert_eq!(merged.rows_read, remaining as u64, "key {key:?}");
        let seen = seen.into_inner().expect("lock");
        let ids: Vec<i64> = client
            .query("SELECT id FROM contacts", &[])
            .expect("ids")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(ids.len() as u64, remaining as u64);
        // raw texts are distinct per row (they carry the uuid), so each must be seen exactly once.
        assert_eq!(seen.len() as u64, remaining as u64, "key {key:?}");
        assert!(
            seen.values().all(|c| *c == 1),
            "key {key:?}: a row was read by two shards"
        );
        // A missing shard makes the merge incomplete.
        let partial = equijson_pg::live::ScanReport::merge(&reports[..2]).expect("merge");
        assert!(!partial.complete);
    }
}

#[test]
fn scan_errors_are_clear() {
    if !pg_or_skip::server_or_skip("scan_errors_are_clear") {
        return;
    }
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE t (id int PRIMARY KEY, j jsonb, n int, s text); INSERT INTO t VALUES (1, '{}', 1, '[]');\
             CREATE TABLE \"x\"\"; drop table t; --\" (j jsonb);\
             CREATE FUNCTION wipe() RETURNS boolean LANGUAGE sql AS 'DELETE FROM public.t RETURNING true';",
        )
        .expect("setup");
    let config = cluster.config();
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let run = |table: &str, column: &str, where_sql: Option<&str>| {
        let o = ScanOptions {
            table: table.into(),
            column: column.into(),
            where_sql: where_sql.map(str::to_owned),
            ..Default::default()
        };
        scan_with(&config, &o, "value", &value, &mut |_, _| {})
    };
    let missing = run("nope", "j", None);
    assert!(matches!(missing, Err(PgError::NoTable(_))));
    assert_eq!(
        missing.as_ref().err().and_then(PgError::sqlstate),
        Some(&SqlState::UNDEFINED_TABLE)
    );
    // A statement the server refuses keeps the server's SQLSTATE, to match on.
    let bad_where = run("t", "j", Some("nosuch = 1"));
    assert!(
        matches!(&bad_where, Err(PgError::Server { code: Some(c), message })
            if *c == SqlState::UNDEFINED_COLUMN && message.starts_with("--where: ")
                && message.contains("nosuch")),
        "{bad_where:?}"
    );
    assert!(matches!(
        run("t\"; drop table t; --", "j", None),
        Err(PgError::NoTable(_))
    ));
    // A table with that very name exists and is scanned as a name, not as SQL.
    let odd = run("x\"; drop table t; --", "j", None).expect("odd name is a name");
    assert!(odd.complete);
    let no_column = run("t", "missing", None);
    assert!(matches!(no_column, Err(PgError::NoColumn { .. })));
    assert_eq!(
        no_column.as_ref().err().and_then(PgError::sqlstate),
        Some(&SqlState::UNDEFINED_COLUMN)
    );
    assert!(
        matches!(run("t", "n", None), Err(PgError::WrongType { ref found, .. }) if found == "integer")
    );
    assert!(run("t", "s", None).expect("text column").complete);
    // --where cannot write: a function outside pg_catalog is refused before it runs, and
    // run unchecked it meets the read-only transaction. (The session's search_path is
    // pg_catalog, pg_temp: the user's functions are named with their schema.)
    let refused = run("t", "j", Some("public.wipe()"));
    assert!(
        matches!(&refused, Err(PgError::Usage(m)) if m.contains("wipe()")),
        "{:?}",
        refused.map(|r| r.render())
    );
    let o = ScanOptions {
        table: "t".into(),
        column: "j".into(),
        where_sql: Some("public.wipe()".into()),
        where_unchecked: true,
        ..Default::default()
    };
    let wrote = scan_with(&config, &o, "value", &value, &mut |_, _| {});
    assert!(
        matches!(&wrote, Err(e @ PgError::Server { message, .. })
            if message.contains("read-only")
                && e.sqlstate() == Some(&SqlState::READ_ONLY_SQL_TRANSACTION)),
        "{:?}",
        wrote.map(|r| r.render())
    );
    let still: i64 = client
        .query_one("SELECT count(*) FROM t", &[])
        .expect("count")
        .get(0);
    assert_eq!(still, 1);
}

#[test]
fn statement_timeout_mid_scan_is_incomplete() {
    if !pg_or_skip::server_or_skip("statement_timeout_mid_scan_is_incomplete") {
        return;
    }
    let (cluster, mut client) = start();
    seed_contacts(&mut client, "contacts", 400, 9, 2, false).expect("seed");
    let mut config = cluster.config();
    config.options("-c statement_timeout=700");
    let o = ScanOptions {
        table: "contacts".into(),
        column: "doc".into(),
        // Slow only inside the COPY (not in the count at start), so the timeout hits mid-stream.
        where_sql: Some(
            "pg_sleep(CASE WHEN current_query() LIKE 'COPY%' THEN 0.005 ELSE 0 END) IS NOT NULL"
                .into(),
        ),
        // pg_sleep is volatile: a vetted --where refuses it.
        where_unchecked: true,
        ..Default::default()
    };
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let report = scan_with(&config, &o, "value", &value, &mut |_, _| {})
        .expect("the count at start is fast");
    assert_eq!(report.rows_total, 400);
    assert!(!report.complete, "{}", report.render());
    assert!(report.rows_read < 400);
    let error = report.error.as_deref().unwrap_or("");
    assert!(
        error.contains("57014") && error.contains("of 400 rows"),
        "{error}"
    );
}

#[test]
fn json_rows_are_held_against_the_servers_jsonb_text() {
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let kind = equijson_pg::live::ColumnKind::Json;
    let ok = equijson_pg::live::check_row(
        kind,
        br#"{"b":1,"a":2,"a":3}"#,
        Some(br#"{"a": 3, "b": 1}"#),
        &value,
        equijson_pg::live::Describe::Redacted,
    );
    assert!(!ok.iter().any(|f| f.class.is_model()), "{ok:?}");
    let miss = equijson_pg::live::check_row(
        kind,
        br#"{"a":1.0}"#,
        Some(br#"{"a": 1}"#),
        &value,
        equijson_pg::live::Describe::Redacted,
    );
    assert!(
        miss.iter()
            .any(|f| f.class == LiveClass::ModelText && !f.accepted),
        "{miss:?}"
    );
}

#[test]
fn scans_read_an_exported_snapshot_and_jobs_share_one() {
    if !pg_or_skip::server_or_skip("scans_read_an_exported_snapshot_and_jobs_share_one") {
        return;
    }
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE t (id int PRIMARY KEY, doc jsonb);\
             INSERT INTO t SELECT i, jsonb_build_object('n', i) FROM generate_series(1, 300) i;",
        )
        .expect("setup");
    let config = cluster.config();
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    // A transaction holds the snapshot open; then the table changes, committed.
    let mut holder = connect(&config).expect("connect");
    let id = equijson_pg::scan::export_snapshot(&mut holder).expect("export");
    client
        .batch_execute(
            "INSERT INTO t SELECT i, jsonb_build_object('n', i) FROM generate_series(301, 450) i;\
             DELETE FROM t WHERE id <= 20;",
        )
        .expect("change");
    let opts = |snapshot: Option<&str>| ScanOptions {
        table: "t".into(),
        column: "doc".into(),
        key: Some("id".into()),
        snapshot: snapshot.map(str::to_owned),
        ..Default::default()
    };
    let seen = scan_with(&config, &opts(Some(&id)), "value", &value, &mut |_, _| {})
        .expect("scan in the snapshot");
    assert!(seen.complete, "{}", seen.render());
    assert_eq!((seen.rows_total, seen.rows_read), (300, 300));
    let now = scan_with(&config, &opts(None), "value", &value, &mut |_, _| {}).expect("scan now");
    assert_eq!((now.rows_total, now.rows_read), (430, 430));
    // Jobs given the snapshot each import it: the slices add up to the snapshot's table.
    let jobs =
        equijson_pg::scan::scan_parallel(&config, &opts(Some(&id)), 3, "value", &value, &|_, _| {})
            .expect("jobs in the snapshot");
    assert!(jobs.complete, "{}", jobs.render());
    assert_eq!((jobs.rows_total, jobs.rows_read), (300, 300));
    // Without one, the jobs export their own and all read it.
    let own =
        equijson_pg::scan::scan_parallel(&config, &opts(None), 3, "value", &value, &|_, _| {})
            .expect("jobs");
    assert!(own.complete, "{}", own.render());
    assert_eq!((own.rows_total, own.rows_read), (430, 430));
    // Ids that are not snapshot ids never reach SQL; unknown ones are the server's error.
    let bad = scan_with(
        &config,
        &opts(Some("1'; DROP TABLE t; --")),
        "value",
        &value,
        &mut |_, _| {},
    );
    assert!(
        matches!(bad, Err(PgError::Usage(ref m)) if m.contains("snapshot")),
        "{bad:?}"
    );
    let unknown = scan_with(
        &config,
        &opts(Some("00000009-00000009-1")),
        "value",
        &value,
        &mut |_, _| {},
    );
    assert!(
        matches!(unknown, Err(PgError::Server { ref message, .. }) if message.contains("snapshot")),
        "{unknown:?}"
    );
    let count: i64 = client
        .query_one("SELECT count(*) FROM t", &[])
        .expect("count")
        .get(0);
    assert_eq!(count, 430);
    holder.batch_execute("COMMIT").expect("commit");
}

/// What a report says about the rows, without its timings.
fn findings_of(r: &equijson_pg::live::ScanReport) -> String {
    let mut r = r.clone();
    r.elapsed_secs = 0.0;
    r.rows_per_sec = 0.0;
    r.peak_rss_bytes = 0;
    if let Some(s) = r.source.as_mut() {
        s.started_at.clear();
    }
    serde_json::to_string_pretty(&r).expect("json")
}

#[test]
fn checker_threads_give_the_single_thread_report() {
    if !pg_or_skip::server_or_skip("checker_threads_give_the_single_thread_report") {
        return;
    }
    let (cluster, mut client) = start();
    // Many rows with accepted findings (more than the examples kept per class), and the
    // tricky rows that diverge, in jsonb and json, keyed and by row number.
    seed_contacts(&mut client, "contacts", 3000, 5, 3, true).expect("seed");
    let config = cluster.config();
    let spec = equijson_check::dto::find("contact").expect("contact");
    for column in ["doc", "raw"] {
        for key in [Some("id"), None] {
            let run = |threads: usize| {
                let o = ScanOptions {
                    table: "contacts".into(),
                    column: column.into(),
                    key: key.map(str::to_owned),
                    threads,
                    ..Default::default()
                };
                scan_with(&config, &o, spec.name, &spec.check_input, &mut |_, _| {}).expect("scan")
            };
            let one = run(1);
            assert!(one.complete && one.accepted > 100, "{}", one.render());
            for threads in [2, 5] {
                assert_eq!(
                    findings_of(&run(threads)),
                    findings_of(&one),
                    "{column} {key:?} {threads}"
                );
            }
        }
    }
}

#[test]
fn a_panicking_check_is_raised_not_hung() {
    if !pg_or_skip::server_or_skip("a_panicking_check_is_raised_not_hung") {
        return;
    }
    let (cluster, mut client) = start();
    seed_contacts(&mut client, "contacts", 2000, 3, 2, false).expect("seed");
    let config = cluster.config();
    let n = std::sync::atomic::AtomicU64::new(0);
    let check = |b: &Input<'_>| {
        assert!(
            n.fetch_add(1, std::sync::atomic::Ordering::Relaxed) != 700,
            "a check that panics"
        );
        check_input::<serde_json::Value>(b, &[])
    };
    let o = ScanOptions {
        table: "contacts".into(),
        column: "doc".into(),
        threads: 2,
        ..Default::default()
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        scan_with(&config, &o, "value", &check, &mut |_, _| {})
    }));
    assert!(outcome.is_err(), "the panic reaches the caller");
}

#[test]
fn huge_values_are_scanned_whole() {
    if !pg_or_skip::server_or_skip("huge_values_are_scanned_whole") {
        return;
    }
    // Rows larger than a pool batch's share hold back more of the pool (bounded memory);
    // every row is still read and checked, in order.
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE big (id int PRIMARY KEY, doc jsonb);\
             INSERT INTO big SELECT i, jsonb_build_object('i', i, 's', repeat('x', \
                CASE i WHEN 2 THEN 5000000 WHEN 4 THEN 9000000 ELSE 10 END)) \
             FROM generate_series(1, 6) i;",
        )
        .expect("setup");
    let config = cluster.config();
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let o = ScanOptions {
        table: "big".into(),
        column: "doc".into(),
        key: Some("id".into()),
        threads: 2,
        ..Default::default()
    };
    let report = scan_with(&config, &o, "value", &value, &mut |_, _| {}).expect("scan");
    assert!(report.complete, "{}", report.render());
    assert_eq!(
        (report.rows_total, report.rows_read, report.model_checked),
        (6, 6, 6)
    );
    assert_eq!(
        report.divergences + report.accepted,
        0,
        "{}",
        report.render()
    );
}

#[test]
fn nothing_a_where_expression_does_is_kept() {
    if !pg_or_skip::server_or_skip("nothing_a_where_expression_does_is_kept") {
        return;
    }
    // PostgreSQL 15 allows lo_create() in a READ ONLY transaction; the scan used to end
    // with COMMIT, which kept one large object per row and per pass (count and COPY).
    let (cluster, mut client) = start();
    client
        .batch_execute("CREATE TABLE t (id int, j jsonb); INSERT INTO t SELECT g, '{}' FROM generate_series(1, 20) g;")
        .expect("setup");
    let o = ScanOptions {
        table: "t".into(),
        column: "j".into(),
        where_sql: Some("lo_create(0) > 0".into()),
        // lo_create is volatile: a vetted --where refuses it (see tests/hostile.rs); this
        // is about what an unchecked one leaves behind.
        where_unchecked: true,
        ..Default::default()
    };
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let report = scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {}).expect("scan");
    assert!(
        report.complete && report.rows_read == 20,
        "{}",
        report.render()
    );
    let kept: i64 = client
        .query_one("SELECT count(*) FROM pg_largeobject_metadata", &[])
        .expect("count")
        .get(0);
    assert_eq!(kept, 0, "large objects created by --where were committed");
}

#[test]
fn roundtrip_never_touches_a_user_table_of_the_same_name() {
    if !pg_or_skip::server_or_skip("roundtrip_never_touches_a_user_table_of_the_same_name") {
        return;
    }
    // With pg_temp after public in search_path, the unqualified name used to resolve to
    // the user's table: the round trip truncated it and wrote its cases there.
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut admin = connect(cluster.config()).expect("connect");
    admin
        .batch_execute(
            "CREATE TABLE public.equijson_roundtrip (id bigint PRIMARY KEY, json_text json, \
             jsonb_text jsonb, json_binary json, jsonb_binary jsonb); \
             INSERT INTO public.equijson_roundtrip (id) VALUES (4242);",
        )
        .expect("user table");
    let mut config = cluster.config();
    config.options("-c search_path=public,pg_temp");
    let mut client = connect(config).expect("connect");
    let spec = equijson_check::dto::find("value").expect("dto");
    let opts = RoundtripOptions {
        seed: 3,
        cases: 20,
        size: 4,
    };
    let r = roundtrip_dto(&mut client, spec, opts, &mut |_, _| {}).expect("roundtrip");
    assert_eq!(r.passed + r.failed, 20);
    let ids: Vec<i64> = admin
        .query("SELECT id FROM public.equijson_roundtrip", &[])
        .expect("read user table")
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(ids, [4242]);
}

#[test]
fn rows_with_a_null_key_are_in_exactly_one_shard() {
    if !pg_or_skip::server_or_skip("rows_with_a_null_key_are_in_exactly_one_shard") {
        return;
    }
    // hashtext(NULL) is NULL: such rows used to be in no shard at all, and --jobs (which
    // shards) skipped them while reporting the scan complete.
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE nk (k text, j jsonb); \
             INSERT INTO nk SELECT CASE WHEN g % 3 = 0 THEN NULL ELSE g::text END, '{}' \
             FROM generate_series(1, 300) g;",
        )
        .expect("setup");
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let mut sum = 0;
    for k in 1..=4 {
        let o = ScanOptions {
            table: "nk".into(),
            column: "j".into(),
            key: Some("k".into()),
            shard: Some((k, 4)),
            ..Default::default()
        };
        let r = scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {}).expect("scan");
        assert!(r.complete);
        sum += r.rows_read;
    }
    assert_eq!(sum, 300);
    let o = ScanOptions {
        table: "nk".into(),
        column: "j".into(),
        key: Some("k".into()),
        ..Default::default()
    };
    let r = equijson_pg::scan::scan_parallel(cluster.config(), &o, 3, "value", &value, &|_, _| {})
        .expect("jobs");
    assert_eq!((r.rows_total, r.rows_read), (300, 300), "{}", r.render());
}

#[test]
fn a_domain_over_jsonb_or_json_is_scanned_as_its_base_type() {
    if !pg_or_skip::server_or_skip("a_domain_over_jsonb_or_json_is_scanned_as_its_base_type") {
        return;
    }
    // A domain column used to be refused as "a column of another type".
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE DOMAIN doc AS jsonb CHECK (VALUE IS NOT NULL); CREATE DOMAIN doc2 AS doc; \
             CREATE DOMAIN raw AS json; CREATE DOMAIN num AS int; \
             CREATE TABLE d (id int, a doc, b doc2, c raw, n num); \
             INSERT INTO d VALUES (1, '{\"x\":1}', '[1.0]', '{\"y\":1,\"y\":2}', 1);",
        )
        .expect("setup");
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let run = |column: &str| {
        let o = ScanOptions {
            table: "d".into(),
            column: column.into(),
            ..Default::default()
        };
        scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {})
    };
    // c (json) keeps `{"y":1,"y":2}`: a duplicate-name divergence (no DTO declares it).
    for (column, kind, divergences) in [
        ("a", equijson_pg::live::ColumnKind::Jsonb, 0),
        ("b", equijson_pg::live::ColumnKind::Jsonb, 0),
        ("c", equijson_pg::live::ColumnKind::Json, 1),
    ] {
        let r = run(column).expect("domain column");
        assert_eq!(r.column_type, Some(kind), "{column}");
        assert!(
            r.complete && r.rows_read == 1 && r.divergences == divergences,
            "{}",
            r.render()
        );
        assert_eq!(
            r.classes
                .contains_key(&LiveClass::Decode(Class::DuplicateName)),
            divergences == 1,
            "{}",
            r.render()
        );
        assert_eq!(r.model_checked, 1, "{column}");
    }
    assert!(
        matches!(run("n"), Err(PgError::WrongType { ref found, .. }) if found == "integer"),
        "a domain over int is still another type"
    );
}

#[test]
fn a_bad_where_is_named_in_the_error_and_runs_nothing_else() {
    if !pg_or_skip::server_or_skip("a_bad_where_is_named_in_the_error_and_runs_nothing_else") {
        return;
    }
    let (cluster, mut client) = start();
    client
        .batch_execute("CREATE TABLE t (id int, j jsonb); INSERT INTO t VALUES (1, '{}');")
        .expect("setup");
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    for (where_sql, code) in [
        ("true; DROP TABLE t", "42601"),
        ("id = 1) ; DROP TABLE t; --", "42601"),
        ("nosuch = 1", "42703"),
    ] {
        let o = ScanOptions {
            table: "t".into(),
            column: "j".into(),
            where_sql: Some(where_sql.into()),
            ..Default::default()
        };
        let e = scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {})
            .expect_err("bad --where");
        let m = e.to_string();
        assert!(
            m.contains("--where") && m.contains(code),
            "{where_sql}: {m}"
        );
    }
    let n: i64 = client
        .query_one("SELECT count(*) FROM t", &[])
        .expect("t is still there")
        .get(0);
    assert_eq!(n, 1);
}

#[test]
fn json_numbers_the_cast_cannot_hold_do_not_abort_the_scan() {
    if !pg_or_skip::server_or_skip("json_numbers_the_cast_cannot_hold_do_not_abort_the_scan") {
        return;
    }
    // A json value whose number overflows numeric (more than 131,072 digits before the
    // point, or 16,383 after, counting a 4-digit exponent) made the guarded ::jsonb cast
    // fail: the COPY aborted and the table could never be scanned (exit 2).
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE ln (id int, r json); INSERT INTO ln VALUES (1, '[1]'), \
             (2, ('[' || repeat('9', 140000) || ']')::json), \
             (3, ('[0.' || repeat('9', 17000) || ']')::json), \
             (4, ('[1.' || repeat('1', 7000) || 'e-9999]')::json), \
             (5, ('[' || repeat('9', 254) || '.' || repeat('9', 254) || 'e9999]')::json), \
             (6, '[2]');",
        )
        .expect("setup");
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    let o = ScanOptions {
        table: "ln".into(),
        column: "r".into(),
        key: Some("id".into()),
        ..Default::default()
    };
    let r = scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {}).expect("scan");
    assert!(r.complete, "{}", r.render());
    assert_eq!(r.rows_read, 6);
    // Rows 1, 5 and 6 are held against the server's jsonb (row 5 fits numeric).
    assert_eq!(r.model_checked, 3, "{}", r.render());
    // Rows 3 and 4 decode everywhere, but the model says jsonb would reject them (22003):
    // findings with their keys, not an aborted scan.
    let split: Vec<&str> = r
        .examples
        .iter()
        .filter(|e| e.class == Class::ErrorSplit)
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(split, ["3", "4"], "{}", r.render());
}

/// A user DTO (not in the catalogue) whose service decodes with two paths.
#[derive(serde::Serialize, serde::Deserialize)]
struct Shipment {
    id: u64,
    carrier: String,
    weight_grams: u32,
    note: Option<String>,
}

impl equijson_check::dto::Dto for Shipment {
    fn paths() -> &'static [equijson_check::decode::DecodePath] {
        &[
            equijson_check::decode::DecodePath::Direct,
            equijson_check::decode::DecodePath::JsonbWire,
        ]
    }
    // The DTO's generator leaves `note` out, and it comes back as `"note": null`.
    fn accepts() -> &'static [equijson_check::decode::Accept] {
        &[equijson_check::decode::Accept {
            class: equijson_check::decode::Class::RoundTripLoss,
            only: &[],
            reason: "a missing note is written back as null",
        }]
    }
}

/// A user DTO whose generator makes documents it cannot decode (a string, never an object).
#[derive(serde::Serialize, serde::Deserialize)]
struct NeverDecoded {
    id: u64,
}

impl equijson_check::dto::Dto for NeverDecoded {
    fn generate(g: &mut equijson_check::generate::Gen) -> equijson_check::generate::Json {
        equijson_check::generate::Json::String(format!("case {}", g.rng().next_u64() % 1000))
    }
}

#[test]
fn roundtrip_of_a_user_dto_uses_its_generator_and_fails_when_nothing_decodes() {
    if !pg_or_skip::server_or_skip(
        "roundtrip_of_a_user_dto_uses_its_generator_and_fails_when_nothing_decodes",
    ) {
        return;
    }
    let (_cluster, mut client) = start();
    let opts = RoundtripOptions {
        seed: 17,
        cases: 60,
        size: 6,
    };
    let r = equijson_pg::roundtrip::<Shipment>(&mut client, opts).expect("roundtrip");
    // The cases are the DTO's own: the digest of `props` run with Shipment's spec.
    let spec = equijson_check::dto::spec::<Shipment>();
    let props = equijson_check::props::run(&PropsConfig::new(17, 60, Some(spec)), |_, _| {});
    assert_eq!(r.digest, props.digest, "{}", r.render());
    assert_eq!(r.dto, "Shipment");
    // Shipments decode: most cases check something (with the generic generator every
    // case was rejected).
    assert!(r.rejected * 2 < r.cases, "{}", r.render());
    assert!(r.render().contains(&format!("rejected: {}\n", r.rejected)));
    assert_eq!(r.judge(), Ok(()), "{}", r.render());
    // Counted as `props` counts them (props checks the sent text, the round trip what the
    // server gives back: their failures may differ, not what no path decodes).
    assert_eq!(r.rejected, props.rejected, "{}", r.render());

    let r = equijson_pg::roundtrip::<NeverDecoded>(&mut client, opts).expect("roundtrip");
    assert_eq!(
        (r.passed, r.rejected, r.failed),
        (60, 60, 0),
        "{}",
        r.render()
    );
    let failure = r.judge().expect_err("a run that checked nothing fails");
    assert!(
        matches!(
            failure,
            equijson_pg::RoundtripFailure::NothingChecked { .. }
        ),
        "{failure:?}"
    );
    let m = failure.to_string();
    assert!(
        m.contains("NeverDecoded: every one of the 60 cases was rejected by every decode path"),
        "{m}"
    );
}

/// A json column with more divergent rows (a duplicate member name each) than the report
/// keeps examples of, and clean rows between them.
fn duplicate_rows(client: &mut postgres::Client, divergent: u32) {
    client
        .batch_execute("CREATE TABLE dups (id bigint PRIMARY KEY, doc json)")
        .expect("create");
    for i in 1..=divergent {
        client
            .execute(
                "INSERT INTO dups VALUES ($1, $2::text::json), ($1 + 100000, '{\"a\":1}')",
                &[&i64::from(i), &format!("{{\"a\":1,\"a\":{i}}}")],
            )
            .expect("insert");
    }
}

/// Every finding of `report` is one line of `lines`, and the keys are the divergent rows'.
fn assert_every_finding(
    report: &equijson_pg::ScanReport,
    lines: &[equijson_pg::RowFinding],
    divergent: u32,
) {
    let total: u64 = report.classes.values().sum();
    assert_eq!(lines.len() as u64, total, "{}", report.render());
    assert!(
        report.examples.len() < lines.len(),
        "the report keeps fewer: {}",
        report.render()
    );
    let keys: std::collections::BTreeSet<&str> = lines.iter().map(|l| l.key.as_str()).collect();
    let want: Vec<String> = (1..=divergent).map(|i| i.to_string()).collect();
    let want: std::collections::BTreeSet<&str> = want.iter().map(String::as_str).collect();
    assert_eq!(keys, want);
    // Each row's duplicate name once, at its pointer, with its value redacted.
    let dup: Vec<&equijson_pg::RowFinding> = lines
        .iter()
        .filter(|l| l.class == Class::DuplicateName)
        .collect();
    assert_eq!(dup.len(), divergent as usize, "{lines:#?}");
    let dup_keys: std::collections::BTreeSet<&str> = dup.iter().map(|l| l.key.as_str()).collect();
    assert_eq!(dup_keys, want);
    assert!(
        dup.iter().all(|l| l.pointer == "/a" && !l.accepted),
        "{dup:#?}"
    );
}

#[test]
fn findings_sink_gets_every_finding_with_its_row_key() {
    if !pg_or_skip::server_or_skip("findings_sink_gets_every_finding_with_its_row_key") {
        return;
    }
    let (cluster, mut client) = start();
    let divergent = 3 * equijson_pg::live::EXAMPLES_PER_CLASS as u32 + 4;
    duplicate_rows(&mut client, divergent);
    let value = |b: &Input<'_>| check_input::<serde_json::Value>(b, &[]);
    // A library check sees each finding with its row key.
    let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
    let into = std::sync::Arc::clone(&seen);
    let o = ScanOptions {
        table: "dups".into(),
        column: "doc".into(),
        key: Some("id".into()),
        findings: Some(equijson_pg::FindingsSink::callback(move |f| {
            into.lock().expect("lock").push(f.clone());
        })),
        ..Default::default()
    };
    let report = scan_with(cluster.config(), &o, "value", &value, &mut |_, _| {}).expect("scan");
    assert!(report.complete, "{}", report.render());
    assert_eq!(
        report.divergences,
        u64::from(divergent),
        "{}",
        report.render()
    );
    let sink = o.findings.as_ref().expect("sink");
    let lines = seen.lock().expect("lock").clone();
    assert_eq!(sink.finish().expect("flushed"), lines.len() as u64);
    assert_every_finding(&report, &lines, divergent);

    // JSON Lines through one writer shared by two jobs.
    let path = std::env::temp_dir().join(format!("equijson-findings-{}.jsonl", std::process::id()));
    let sink = equijson_pg::FindingsSink::create(&path).expect("create");
    let o = ScanOptions {
        findings: Some(sink.clone()),
        ..o
    };
    let report =
        equijson_pg::scan::scan_parallel(cluster.config(), &o, 2, "value", &value, &|_, _| {})
            .expect("scan");
    let written = sink.finish().expect("flushed");
    let text = std::fs::read_to_string(&path).expect("read the findings file");
    let _ = std::fs::remove_file(&path);
    let lines: Vec<equijson_pg::RowFinding> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a RowFinding per line"))
        .collect();
    assert_eq!(written, lines.len() as u64);
    assert_every_finding(&report, &lines, divergent);
}
