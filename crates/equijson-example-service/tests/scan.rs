//! The service's own binary scans a live table of its documents (an ephemeral PostgreSQL
//! cluster): the planted rows are reported by key with their class, clean rows are not,
//! and the BEFORE/AFTER refactor of the batch decoder finds its planted difference.

#[path = "../../equijson-pg/tests/shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use equijson_check::decode::Verdict;
use equijson_check::dto::Dto;
use equijson_check::props::{PropsConfig, case_text};
use equijson_example_service::{
    AuditBatch, AuditEvent, BATCH_EXAMPLE, LOGIN_EXAMPLE, TRANSFER_EXAMPLE,
};
use equijson_pg::cluster::EphemeralCluster;

/// A 17-digit double that `serde_json` without `float_roundtrip` reads one unit off.
const PLANTED_FLOAT: &str = r#"{"id":"ev-f","actor":7,"action":{"type":"logout"},"tags":[],"latency_ms":15.509858803567319}"#;
/// A member name twice (jsonb and `Value` keep the last, the typed decode refuses it).
const PLANTED_DUPLICATE: &str = r#"{"id":"ev-d","actor":7,"action":{"type":"logout"},"tags":["a"],"tags":["b"],"latency_ms":2.5}"#;
/// An actor beyond u64 (the `Option<u64>` field): no path reads it.
const PLANTED_BIG: &str = r#"{"id":"ev-b","actor":18446744073709551616,"action":{"type":"logout"},"tags":[],"latency_ms":2.5}"#;
/// A batch whose second event repeats a name: BEFORE (through `Value`) keeps the last,
/// AFTER (typed) refuses it.
const PLANTED_BATCH: &str = r#"[{"id":"ev-1","actor":1,"action":{"type":"logout"},"tags":[],"latency_ms":1.0},{"id":"ev-2","actor":2,"action":{"type":"logout"},"tags":["a"],"latency_ms":1.0,"tags":["b"]}]"#;

/// A row's findings by key: class, accepted, description.
type Found = BTreeMap<String, Vec<(String, bool, String)>>;

/// Generated documents of `T` (the cases `props` checks) that `T`'s own check finds
/// nothing in: the clean rows.
fn clean_documents<T: Dto>(seed: u64, want: usize) -> Vec<String> {
    let cfg = PropsConfig::new(seed, 4000, Some(equijson_check::dto::spec::<T>()));
    let clean: Vec<String> = (0..cfg.cases)
        .map(|case| case_text(&cfg, case))
        .filter(|text| {
            let r = equijson_check::dto::check::<T>(text.as_bytes());
            r.findings.is_empty() && r.verdict() == Verdict::Equivalent
        })
        .take(want)
        .collect();
    assert_eq!(clean.len(), want, "too few clean generated documents");
    clean
}

/// Creates `name (id text primary key, doc json)` with the rows `(key, document)`.
fn table(cluster: &EphemeralCluster, name: &str, rows: &[(String, String)]) {
    let mut c = cluster.config().connect(postgres::NoTls).expect("connect");
    c.batch_execute(&format!(
        "CREATE TABLE {name} (id text PRIMARY KEY, doc json NOT NULL)"
    ))
    .expect("create table");
    let insert = format!("INSERT INTO {name} VALUES ($1, CAST($2::text AS json))");
    for (key, doc) in rows {
        c.execute(&insert, &[key, doc]).expect("insert row");
    }
}

/// `example-service pg scan` of `table`'s `doc` column with `dto`, every finding written
/// to a file: the output and the findings by key (class and accepted).
fn scan(cluster: &EphemeralCluster, table: &str, dto: &str) -> (Output, Found) {
    // One directory per table: the tests run in parallel and each removes its own.
    let dir = std::env::temp_dir().join(format!(
        "equijson-example-service-scan-{}-{table}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file: PathBuf = dir.join(format!("{table}.jsonl"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_example-service"));
    for var in pg_or_skip::CONNECTION_VARS {
        cmd.env_remove(var);
    }
    let file_arg = file.to_string_lossy().into_owned();
    let o = cmd
        .args([
            "pg",
            "scan",
            "--table",
            table,
            "--column",
            "doc",
            "--key",
            "id",
            "--dto",
            dto,
            "--findings",
            &file_arg,
            "--format",
            "json",
        ])
        .env("DATABASE_URL", cluster.connection_string())
        .stdin(Stdio::null())
        .output()
        .expect("run example-service");
    let mut by_key = Found::new();
    let written = std::fs::read_to_string(&file).unwrap_or_default();
    for line in written.lines() {
        let f: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        by_key
            .entry(f["key"].as_str().expect("key").to_owned())
            .or_default()
            .push((
                f["class"].as_str().expect("class").to_owned(),
                f["accepted"].as_bool().expect("accepted"),
                f["description"].as_str().unwrap_or_default().to_owned(),
            ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    (o, by_key)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The classes of `key`'s findings, `!` marking one not accepted.
fn classes(found: &Found, key: &str) -> BTreeSet<String> {
    found
        .get(key)
        .map(|fs| {
            fs.iter()
                .map(|(c, accepted, _)| {
                    if *accepted {
                        c.clone()
                    } else {
                        format!("!{c}")
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_service_binary_reports_the_planted_event_rows_by_key_and_exits_1() {
    let test = "the_service_binary_reports_the_planted_event_rows_by_key_and_exits_1";
    let Some(cluster) = pg_or_skip::cluster_or_skip(test) else {
        return;
    };
    let clean = clean_documents::<AuditEvent>(11, 40);
    let mut rows: Vec<(String, String)> = vec![
        ("login-example".into(), LOGIN_EXAMPLE.into()),
        ("transfer-example".into(), TRANSFER_EXAMPLE.into()),
        ("planted-float".into(), PLANTED_FLOAT.into()),
        ("planted-duplicate".into(), PLANTED_DUPLICATE.into()),
        ("planted-big".into(), PLANTED_BIG.into()),
    ];
    rows.extend(
        clean
            .iter()
            .enumerate()
            .map(|(i, d)| (format!("clean-{i:02}"), d.clone())),
    );
    table(&cluster, "events", &rows);
    let (o, found) = scan(&cluster, "events", "audit-event");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    assert_eq!(report["dto"], "audit-event", "{report}");
    assert_eq!(report["complete"], true, "{report}");
    assert_eq!(report["rows_read"], rows.len(), "{report}");

    // The 17-digit double: a float misread, which the service declares (a measurement).
    assert!(
        classes(&found, "planted-float").contains("float-misread"),
        "{found:?}"
    );
    // The repeated name: not accepted, and the paths split on it (the exit status 1).
    let dup = classes(&found, "planted-duplicate");
    assert!(dup.contains("!duplicate-name"), "{found:?}");
    assert!(dup.contains("!error-split"), "{found:?}");
    // The actor beyond u64: no path of the service reads the row.
    assert_eq!(
        classes(&found, "planted-big"),
        BTreeSet::from(["rejected".to_owned()]),
        "{found:?}"
    );
    // Clean rows are not reported; every row reported is one the DTO's own check
    // finds something in.
    for (key, doc) in &rows {
        let r = equijson_check::dto::check::<AuditEvent>(doc.as_bytes());
        let expected = !r.findings.is_empty() || r.verdict() == Verdict::Rejected;
        assert_eq!(found.contains_key(key), expected, "{key}: {doc}\n{found:?}");
    }
    assert!(found.keys().all(|k| !k.starts_with("clean-")), "{found:?}");
}

#[test]
fn the_scan_runs_the_before_after_refactor_on_live_rows() {
    let test = "the_scan_runs_the_before_after_refactor_on_live_rows";
    let Some(cluster) = pg_or_skip::cluster_or_skip(test) else {
        return;
    };
    let clean = clean_documents::<AuditBatch>(5, 20);
    let mut rows: Vec<(String, String)> = vec![
        ("batch-example".into(), BATCH_EXAMPLE.into()),
        ("planted-batch".into(), PLANTED_BATCH.into()),
    ];
    rows.extend(
        clean
            .iter()
            .enumerate()
            .map(|(i, d)| (format!("clean-{i:02}"), d.clone())),
    );
    table(&cluster, "batches", &rows);
    let (o, found) = scan(&cluster, "batches", "audit-batch");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let split = found
        .get("planted-batch")
        .and_then(|fs| fs.iter().find(|(c, d, _)| c == "error-split" && !d))
        .unwrap_or_else(|| panic!("no error split on the planted batch: {found:?}"));
    // The split is between the service's own functions: BEFORE decodes, AFTER refuses.
    assert!(
        split.2.contains("decoded by before; rejected by:") && split.2.contains("after: "),
        "{}",
        split.2
    );
    // As for the built-in paths, a finding's description leaves out the per-path outcome
    // lines (they repeat the row) and keeps what the paths disagree about.
    assert!(
        !split
            .2
            .lines()
            .any(|l| l.starts_with("  before ") || l.starts_with("  after ")),
        "{}",
        split.2
    );
    assert!(
        classes(&found, "planted-batch").contains("!duplicate-name"),
        "{found:?}"
    );
    assert!(found.keys().all(|k| !k.starts_with("clean-")), "{found:?}");
}

#[test]
fn the_service_binary_round_trips_its_own_documents_with_the_props_digest() {
    let test = "the_service_binary_round_trips_its_own_documents_with_the_props_digest";
    let Some(cluster) = pg_or_skip::cluster_or_skip(test) else {
        return;
    };
    let run = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_example-service"));
        for var in pg_or_skip::CONNECTION_VARS {
            cmd.env_remove(var);
        }
        cmd.args(args)
            .env("DATABASE_URL", cluster.connection_string())
            .stdin(Stdio::null())
            .output()
            .expect("run example-service")
    };
    let gen_args = ["--dto", "settings", "--seed", "7", "--cases", "120"];
    let rt = run(&[&["pg", "roundtrip"][..], &gen_args].concat());
    assert_eq!(rt.status.code(), Some(0), "{}", text(&rt));
    let props = run(&[&["props"][..], &gen_args].concat());
    assert_eq!(props.status.code(), Some(0), "{}", text(&props));
    let digest = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("digest: ").map(str::to_owned))
            .unwrap_or_else(|| panic!("no digest: {}", text(o)))
    };
    // The server saw the settings documents the service's generator wrote (the same
    // cases as `props`), not generic JSON.
    assert_eq!(digest(&rt), digest(&props));
    let out = String::from_utf8_lossy(&rt.stdout);
    assert!(out.starts_with("dto: settings\n"), "{out}");
}
