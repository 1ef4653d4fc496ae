//! What a scan asks the server for, seen by the server itself (`pg_stat_activity`): one
//! form of a jsonb value (no `::text` beside the binary form), and a json column's cast to
//! jsonb only when the jsonb path, which the model is held for, is checked.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test loudly"
)]

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::sync::Mutex;

use equijson_check::decode::{DecodePath, Input};
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::connect;
use equijson_pg::live::ScanReport;
use equijson_pg::scan::{ScanOptions, scan_with};

const ROWS: i64 = 600;

/// Scans `column` of `t` with `paths` (empty: all), every row slowed by the server so that
/// the COPY is still running when the first batch is recorded; returns the report and the
/// COPY statement the server was running then, as `pg_stat_activity` shows it.
fn scan_and_watch(
    cluster: &EphemeralCluster,
    column: &str,
    paths: &[DecodePath],
) -> (ScanReport, String) {
    let config = cluster.config();
    let mut watcher = connect(&config).expect("connect");
    let o = ScanOptions {
        table: "t".into(),
        column: column.into(),
        key: Some("id".into()),
        // 1 ms a row, only inside the COPY (not in the count at start).
        where_sql: Some(
            "pg_sleep(CASE WHEN current_query() LIKE 'COPY%' THEN 0.001 ELSE 0 END) IS NOT NULL"
                .into(),
        ),
        where_unchecked: true,
        threads: 1,
        paths: paths.to_vec(),
        ..ScanOptions::default()
    };
    let spec = equijson_check::dto::find("contact").expect("contact");
    let seen: Mutex<Option<String>> = Mutex::new(None);
    let check = |i: &Input<'_>| {
        if paths.is_empty() {
            (spec.check_input)(i)
        } else {
            (spec.check_paths)(i, paths)
        }
    };
    let report = scan_with(&config, &o, "contact", &check, &mut |_, _| {
        let mut seen = seen.lock().unwrap();
        if seen.is_none() {
            *seen = watcher
                .query(
                    "SELECT query FROM pg_stat_activity WHERE query LIKE 'COPY%' \
                     AND pid <> pg_backend_pid()",
                    &[],
                )
                .expect("pg_stat_activity")
                .first()
                .map(|r| r.get(0));
        }
    })
    .expect("scan");
    assert!(report.complete, "{}", report.render());
    assert_eq!(report.rows_read, ROWS as u64);
    let query = seen
        .into_inner()
        .unwrap()
        .expect("the COPY was seen running");
    (report, query)
}

#[test]
fn a_scan_reads_one_form_of_a_jsonb_value_and_a_json_cast_only_for_the_jsonb_path() {
    if !pg_or_skip::server_or_skip(
        "a_scan_reads_one_form_of_a_jsonb_value_and_a_json_cast_only_for_the_jsonb_path",
    ) {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let doc = r#"{"id":"c","display_name":"A","updated_at":"2026-01-01T00:00:00Z"}"#;
    client
        .batch_execute(&format!(
            "CREATE TABLE t (id int PRIMARY KEY, doc jsonb, raw json);\
             INSERT INTO t SELECT i, '{doc}', '{doc}' FROM generate_series(1, {ROWS}) i;"
        ))
        .expect("setup");

    // jsonb: the binary form alone; the model still checks every row.
    let (report, query) = scan_and_watch(&cluster, "doc", &[]);
    assert!(query.starts_with("COPY (SELECT"), "{query}");
    assert_eq!(query.matches("\"doc\"").count(), 1, "{query}");
    assert!(!query.contains("\"doc\"::"), "{query}");
    assert_eq!(report.model_checked, ROWS as u64, "{}", report.render());
    let all: Vec<&str> = DecodePath::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(report.paths, all);

    // json, every path: the server's cast to jsonb is read for the model.
    let (report, query) = scan_and_watch(&cluster, "raw", &[]);
    assert!(query.contains("pg_catalog.jsonb"), "{query}");
    assert_eq!(report.model_checked, ROWS as u64);

    // json, direct only: no cast, no model.
    let (report, query) = scan_and_watch(&cluster, "raw", &[DecodePath::Direct]);
    assert!(!query.contains("jsonb"), "{query}");
    assert_eq!(query.matches("\"raw\"").count(), 1, "{query}");
    assert_eq!(report.model_checked, 0, "{}", report.render());
    assert_eq!(report.paths, ["direct"]);
    assert!(
        report.render().contains("paths: direct\n"),
        "{}",
        report.render()
    );
}

#[test]
fn jobs_of_a_whole_table_read_block_ranges_that_cover_each_row_once() {
    if !pg_or_skip::server_or_skip(
        "jobs_of_a_whole_table_read_block_ranges_that_cover_each_row_once",
    ) {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    // Every row repeats a member name: each has a finding, which the sink gets with its key.
    // Some rows deleted and others updated, so that blocks have holes and moved rows.
    client
        .batch_execute(
            "CREATE TABLE t (id int PRIMARY KEY, raw json);\
             INSERT INTO t SELECT i, '{\"a\":1,\"a\":2}' FROM generate_series(1, 6000) i;\
             DELETE FROM t WHERE id % 7 = 0;\
             UPDATE t SET raw = '{\"b\":1,\"b\":2}' WHERE id % 11 = 0;",
        )
        .expect("setup");
    let blocks: i64 = client
        .query_one("SELECT pg_relation_size('t') / 8192", &[])
        .expect("size")
        .get(0);
    assert!(blocks > 10, "{blocks} blocks");
    let keys = std::sync::Arc::new(Mutex::new(Vec::<String>::new()));
    let sink_keys = std::sync::Arc::clone(&keys);
    let o = ScanOptions {
        table: "t".into(),
        column: "raw".into(),
        key: Some("id".into()),
        // 0.3 ms a row inside the COPY: the jobs are still reading when progress is shown.
        where_sql: Some(
            "pg_sleep(CASE WHEN current_query() LIKE 'COPY%' THEN 0.0003 ELSE 0 END) IS NOT NULL"
                .into(),
        ),
        where_unchecked: true,
        findings: Some(equijson_pg::FindingsSink::callback(move |f| {
            sink_keys.lock().unwrap().push(f.key.clone());
        })),
        ..ScanOptions::default()
    };
    let spec = equijson_check::dto::find("value").expect("value");
    let watcher = Mutex::new(connect(cluster.config()).expect("connect"));
    let seen = Mutex::new(Vec::<String>::new());
    let report = equijson_pg::scan::scan_parallel(
        cluster.config(),
        &o,
        3,
        "value",
        &|i| (spec.check_input)(i),
        &|_, _| {
            let rows = watcher
                .lock()
                .unwrap()
                .query(
                    "SELECT query FROM pg_stat_activity WHERE query LIKE 'COPY%' \
                     AND pid <> pg_backend_pid()",
                    &[],
                )
                .expect("pg_stat_activity");
            seen.lock()
                .unwrap()
                .extend(rows.iter().map(|r| r.get::<_, String>(0)));
        },
    )
    .expect("scan");
    let expected = 6000 - 6000 / 7;
    assert!(report.complete, "{}", report.render());
    assert_eq!((report.rows_total, report.rows_read), (expected, expected));
    assert_eq!(report.shard, None);
    // Each row has the same two findings (duplicate-name, and the canonical path's
    // error-split): each key twice, every surviving row, none other.
    let mut counts = std::collections::BTreeMap::<u64, usize>::new();
    for k in keys.lock().unwrap().iter() {
        *counts.entry(k.parse().expect("an id")).or_insert(0) += 1;
    }
    let want: Vec<u64> = (1..=6000u64).filter(|i| i % 7 != 0).collect();
    let got: Vec<u64> = counts.keys().copied().collect();
    assert!(got == want, "rows read: {} of {}", got.len(), want.len());
    let twice = counts.iter().find(|&(_, &n)| n != 2);
    assert!(
        twice.is_none(),
        "a row read more or less than once: {twice:?}"
    );
    // The jobs asked for ranges of blocks, not for a shard expression per row.
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty(), "no COPY seen running");
    for q in seen.iter() {
        assert!(q.contains("ctid OPERATOR(pg_catalog.>=)"), "{q}");
        assert!(!q.contains("pg_catalog.mod"), "{q}");
    }
}

/// A DTO whose service decodes with `from_slice` and through jsonb only.
#[derive(serde::Serialize, serde::Deserialize)]
struct Quota {
    bytes: u128,
}

impl equijson_check::dto::Dto for Quota {
    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }
}

#[test]
fn a_scan_checks_the_paths_the_dto_declares_unless_told_otherwise() {
    if !pg_or_skip::server_or_skip("a_scan_checks_the_paths_the_dto_declares_unless_told_otherwise")
    {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    // Beyond 2^64: a u128 reads it from the text, but `Value` holds it as a double, which
    // the dom and borrow paths then refuse as a u128.
    client
        .batch_execute(
            "CREATE TABLE t (id int PRIMARY KEY, doc jsonb);\
             INSERT INTO t VALUES (1, '{\"bytes\":36893488147419103232}'), (2, '{\"bytes\":5}');",
        )
        .expect("setup");
    let spec = equijson_check::dto::spec::<Quota>();
    let o = ScanOptions {
        table: "t".into(),
        column: "doc".into(),
        key: Some("id".into()),
        ..ScanOptions::default()
    };
    let declared = equijson_pg::scan_spec(cluster.config(), &o, 1, spec).expect("scan");
    assert!(declared.complete, "{}", declared.render());
    assert_eq!(declared.paths, ["direct", "jsonb"]);
    assert_eq!(declared.divergences, 0, "{}", declared.render());
    assert_eq!(declared.model_checked, 2);
    let every = ScanOptions {
        paths: DecodePath::ALL.to_vec(),
        ..o
    };
    let all = equijson_pg::scan_spec(cluster.config(), &every, 2, spec).expect("scan");
    assert_eq!(all.paths.len(), 5);
    assert_eq!(all.divergences, 1, "{}", all.render());
    assert_eq!(all.examples[0].key, "1");
    assert_eq!(all.examples[0].class.name(), "error-split");
}
