//! `equijson pg ...`, `report merge` and the ephemeral cluster's teardown, end to end against real PostgreSQL.

#[path = "../../equijson-pg/tests/shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::seed::seed_contacts;

fn run(args: &[&str], url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args(args)
        .env("DATABASE_URL", url)
        .stdin(Stdio::null())
        .output()
        .expect("run equijson")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A transaction holding an exported snapshot open (shards of it merge), and its id.
fn export_snapshot(cluster: &EphemeralCluster) -> (postgres::Client, String) {
    let mut c = cluster.config().connect(postgres::NoTls).expect("connect");
    let id = equijson_pg::scan::export_snapshot(&mut c).expect("export");
    (c, id)
}

fn seeded(rows: u64) -> EphemeralCluster {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    seed_contacts(&mut client, "contacts", rows, 3, 4, true).expect("seed");
    cluster
}

#[test]
fn scan_json_report_has_the_named_fields_and_merge_needs_every_shard() {
    if !pg_or_skip::server_or_skip(
        "scan_json_report_has_the_named_fields_and_merge_needs_every_shard",
    ) {
        return;
    }
    let cluster = seeded(300);
    let url = cluster.connection_string();
    let o = run(
        &[
            "pg", "scan", "--table", "contacts", "--column", "raw", "--key", "id", "--dto",
            "contact", "--format", "json",
        ],
        &url,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json report");
    for field in [
        "rows_total",
        "rows_read",
        "complete",
        "divergences",
        "classes",
        "examples",
        "rows_per_sec",
        "peak_rss_bytes",
    ] {
        assert!(v.get(field).is_some(), "missing {field}: {v}");
    }
    assert_eq!(v["rows_total"], 308);
    assert_eq!(v["rows_read"], 308);
    assert_eq!(v["complete"], true);
    assert!(
        v["classes"]["error-split"].as_u64().unwrap_or(0) >= 1,
        "{v}"
    );
    // Values are redacted by default: the tricky row's names do not appear.
    assert!(!String::from_utf8_lossy(&o.stdout).contains("Second Spelling"));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("PostgreSQL"),
        "server and version printed"
    );

    // The value DTO on the jsonb column finds nothing unaccepted either.
    let o = run(
        &["pg", "scan", "--table", "contacts", "--column", "doc"],
        &url,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // Shards of one exported snapshot, then merge.
    let dir = std::env::temp_dir().join(format!("equijson-pg-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (_holder, snapshot) = export_snapshot(&cluster);
    let mut files = Vec::new();
    for k in 1..=3 {
        let o = run(
            &[
                "pg",
                "scan",
                "--table",
                "contacts",
                "--column",
                "doc",
                "--shard",
                &format!("{k}/3"),
                "--snapshot",
                &snapshot,
                "--format",
                "json",
            ],
            &url,
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let f = dir.join(format!("s{k}.json"));
        std::fs::write(&f, &o.stdout).expect("write");
        files.push(f.to_string_lossy().into_owned());
    }
    let mut args = vec!["report", "merge"];
    args.extend(files.iter().map(String::as_str));
    let o = run(&args, &url);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let m: serde_json::Value = serde_json::from_slice(&o.stdout).expect("merged");
    assert_eq!(m["rows_read"], 308);
    assert_eq!(m["complete"], true);
    let o = run(&["report", "merge", &files[0], &files[2]], &url);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a missing shard is incomplete: {}",
        text(&o)
    );
    let m: serde_json::Value = serde_json::from_slice(&o.stdout).expect("merged");
    assert_eq!(m["complete"], false);
    let _ = std::fs::remove_dir_all(&dir);

    // --jobs gives the same rows as one connection.
    let o = run(
        &[
            "pg", "scan", "--table", "contacts", "--column", "doc", "--jobs", "3", "--format",
            "json",
        ],
        &url,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(j["rows_read"], 308);
}

#[test]
fn environment_errors_exit_2_without_the_password() {
    if !pg_or_skip::server_or_skip("environment_errors_exit_2_without_the_password") {
        return;
    }
    let cluster = seeded(10);
    let url = cluster.connection_string();
    // Each error names what is wrong and the SQLSTATE PostgreSQL gives it: the server's
    // own for a failing statement (the --where check), the condition's for a table or
    // column found missing in the catalog.
    for (args, needles) in [
        (
            vec!["--table", "x\"; drop table contacts; --", "--column", "doc"],
            &["does not exist (SQLSTATE 42P01)"][..],
        ),
        (
            vec!["--table", "contacts", "--column", "nope"],
            &["column nope does not exist", "(SQLSTATE 42703)"][..],
        ),
        (
            vec!["--table", "contacts", "--column", "id"],
            &["has type bigint"][..],
        ),
        (
            vec![
                "--table",
                "contacts",
                "--column",
                "doc",
                "--where",
                "nosuch = 1",
            ],
            &[
                "--where: column \"nosuch\" does not exist",
                "(SQLSTATE 42703)",
            ][..],
        ),
    ] {
        let mut a = vec!["pg", "scan"];
        a.extend(args);
        let o = run(&a, &url);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        for needle in needles {
            assert!(text(&o).contains(needle), "{needle}: {}", text(&o));
        }
    }
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    let n: i64 = client
        .query_one("SELECT count(*) FROM contacts", &[])
        .expect("count")
        .get(0);
    assert_eq!(n, 18, "the injected name dropped nothing");

    let bad = format!(
        "postgresql://equijson:wr0ng-s3cret-pw@127.0.0.1:{}/postgres",
        cluster.port()
    );
    let o = run(
        &["pg", "scan", "--table", "contacts", "--column", "doc"],
        &bad,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains("authentication failed") && said.contains("(SQLSTATE 28P01)"),
        "{said}"
    );
    assert!(!text(&o).contains("wr0ng-s3cret-pw"), "{}", text(&o));

    let good = format!(
        "postgresql://equijson:{}@127.0.0.1:{}/postgres",
        cluster.password(),
        cluster.port()
    );
    let o = run(
        &["pg", "scan", "--table", "contacts", "--column", "doc"],
        &good,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!text(&o).contains(cluster.password()), "{}", text(&o));
    // The server line says how the connection is secured (this server offers no TLS).
    assert!(text(&o).contains("no TLS, sslmode=prefer)"), "{}", text(&o));
    for (params, needle) in [
        (
            "?sslmode=verify-full&sslrootcert=/nonexistent/root.pem",
            "TLS: sslrootcert /nonexistent/root.pem: No such file",
        ),
        ("?sslmode=sometimes", "invalid sslmode \"sometimes\""),
        ("?sslmode=require", "server does not support TLS"),
    ] {
        let o = run(
            &["pg", "scan", "--table", "contacts", "--column", "doc"],
            &format!("{good}{params}"),
        );
        assert_eq!(o.status.code(), Some(2), "{params}: {}", text(&o));
        assert!(text(&o).contains(needle), "{params}: {}", text(&o));
        assert!(!text(&o).contains(cluster.password()), "{}", text(&o));
    }

    let o = run(
        &["pg", "scan", "--table", "contacts", "--column", "doc"],
        "postgresql://u:pw-unreachable-9@127.0.0.1:1/db?connect_timeout=3",
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot connect"), "{}", text(&o));
    assert!(!text(&o).contains("pw-unreachable-9"), "{}", text(&o));
}

#[test]
fn server_stopped_mid_scan_exits_2_with_complete_false() {
    if !pg_or_skip::server_or_skip("server_stopped_mid_scan_exits_2_with_complete_false") {
        return;
    }
    let mut cluster = seeded(30_000);
    let url = cluster.connection_string();
    let child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args([
            "pg", "scan", "--table", "contacts", "--column", "doc", "--dto", "contact", "--format",
            "json",
        ])
        .env("DATABASE_URL", &url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // Wait until the COPY is running on the server, then stop the server.
    let mut watcher = cluster.config().connect(postgres::NoTls).expect("connect");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let n: i64 = watcher
            .query_one("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT%' AND pid <> pg_backend_pid()", &[])
            .expect("activity")
            .get(0);
        if n > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "scan never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    drop(watcher);
    cluster.kill().expect("stop server");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("a report even when incomplete");
    assert_eq!(v["complete"], false, "{v}");
    assert_eq!(v["rows_total"], 30_008);
    assert!(v["rows_read"].as_u64().expect("rows_read") < 30_008, "{v}");
    assert!(
        v["error"].as_str().unwrap_or("").contains("of 30008 rows"),
        "{v}"
    );
}

#[test]
fn ephemeral_cluster_is_removed_on_sigterm_and_sigint() {
    if !pg_or_skip::server_or_skip("ephemeral_cluster_is_removed_on_sigterm_and_sigint") {
        return;
    }
    for signal in ["-TERM", "-INT"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
            .args(["pg", "roundtrip", "--cases", "100000000"])
            .env_remove("DATABASE_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let guard = KillOnDrop(child.id());
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let line = lines.next().expect("a line").expect("utf8");
        assert!(line.contains("ephemeral cluster"), "{line}");
        let socket = line
            .split_once(", socket ")
            .and_then(|(_, s)| s.rsplit_once(" port "))
            .map(|(s, _)| s)
            .expect("socket path");
        let root = std::path::Path::new(socket)
            .parent()
            .expect("root")
            .to_path_buf();
        assert!(
            root.join("data").join("postmaster.pid").exists(),
            "{}",
            root.display()
        );
        std::thread::sleep(Duration::from_millis(500));
        let ok = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(ok.success());
        let status = child.wait().expect("wait");
        std::mem::forget(guard);
        assert_eq!(status.code(), Some(130), "{signal}");
        assert!(!root.exists(), "{signal}: {} left behind", root.display());
        let ps = Command::new("pgrep")
            .args(["-f", &root.to_string_lossy()])
            .output();
        if let Ok(ps) = ps {
            assert!(
                ps.stdout.is_empty(),
                "{signal}: server still running: {}",
                String::from_utf8_lossy(&ps.stdout)
            );
        }
    }
}

/// Sends SIGTERM to a child this test started if the test fails before it exits.
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.to_string()])
            .status();
    }
}

#[test]
fn roundtrip_prints_the_props_digest_and_fails_on_real_divergences() {
    if !pg_or_skip::server_or_skip(
        "roundtrip_prints_the_props_digest_and_fails_on_real_divergences",
    ) {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let url = cluster.connection_string();
    let digest = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find(|l| l.starts_with("digest: "))
            .map(str::to_owned)
    };
    let rt = run(
        &[
            "pg",
            "roundtrip",
            "--seed",
            "3",
            "--cases",
            "60",
            "--dto",
            "contact",
        ],
        &url,
    );
    assert_eq!(rt.status.code(), Some(0), "{}", text(&rt));
    let props = run(
        &["props", "--seed", "3", "--cases", "60", "--dto", "contact"],
        &url,
    );
    assert!(digest(&rt).is_some());
    assert_eq!(digest(&rt), digest(&props));
    // ledger-entry diverges for real (i128, f32, borrowed &str): exit 1, examples shown.
    let rt = run(
        &[
            "pg",
            "roundtrip",
            "--seed",
            "3",
            "--cases",
            "30",
            "--dto",
            "ledger-entry",
        ],
        &url,
    );
    assert_eq!(rt.status.code(), Some(1), "{}", text(&rt));
    assert!(
        String::from_utf8_lossy(&rt.stdout).contains("error-split"),
        "{}",
        text(&rt)
    );
    // --limit cannot be split across --jobs.
    let o = run(
        &[
            "pg", "scan", "--table", "t", "--column", "c", "--jobs", "2", "--limit", "5",
        ],
        &url,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn pg_bindir_env_names_the_server_binaries() {
    // A directory without the binaries: exit 2, naming the variable and the directory.
    let o = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args(["pg", "roundtrip", "--cases", "1"])
        .env_remove("DATABASE_URL")
        .env("EQUIJSON_PG_BINDIR", "/nonexistent/pg/bin")
        .stdin(Stdio::null())
        .output()
        .expect("run equijson");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("EQUIJSON_PG_BINDIR"), "{}", text(&o));
    assert!(text(&o).contains("/nonexistent/pg/bin"), "{}", text(&o));
    if !pg_or_skip::server_or_skip("pg_bindir_env_names_the_server_binaries") {
        return;
    }
    // The directory the default search finds, named explicitly: that server is used.
    let found = EphemeralCluster::start().expect("start cluster");
    let o = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args(["pg", "roundtrip", "--cases", "5"])
        .env_remove("DATABASE_URL")
        .env("EQUIJSON_PG_BINDIR", found.bindir())
        .stdin(Stdio::null())
        .output()
        .expect("run equijson");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let from = format!("from {}", found.bindir().display());
    assert!(text(&o).contains(&from), "{}", text(&o));
}

/// Temporary cluster directories of process `pid` still on disk, and processes naming them.
fn leftovers(pid: u32) -> (Vec<std::path::PathBuf>, String) {
    let prefix = format!("equijson-pg-{pid}-");
    let mut dirs = Vec::new();
    for base in [std::path::PathBuf::from("/tmp"), std::env::temp_dir()] {
        if let Ok(entries) = std::fs::read_dir(&base) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) && !dirs.contains(&e.path())
                {
                    dirs.push(e.path());
                }
            }
        }
    }
    let procs = Command::new("pgrep")
        .args(["-af", &prefix])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    (dirs, procs)
}

#[test]
fn sigint_at_any_moment_of_a_run_leaves_nothing_behind() {
    if !pg_or_skip::server_or_skip("sigint_at_any_moment_of_a_run_leaves_nothing_behind") {
        return;
    }
    // The handler used to remove the directory while `initdb` was still writing into it
    // (a directory was left), and exit while a drop was stopping the server.
    for delay_ms in [
        0u64, 60, 150, 300, 450, 600, 800, 1000, 1200, 1500, 1900, 2400,
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
            .args(["pg", "roundtrip", "--seed", "1", "--cases", "200"])
            .env_remove("DATABASE_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let guard = KillOnDrop(child.id());
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let status = child.wait().expect("wait");
        std::mem::forget(guard);
        // Interrupted (killed by the signal itself when it came before the handler was
        // installed, i.e. before anything was created), or done before the signal came.
        assert!(
            matches!(status.code(), Some(130 | 0))
                || std::os::unix::process::ExitStatusExt::signal(&status) == Some(2),
            "after {delay_ms} ms: {status}"
        );
        // The server's processes may take a moment to go once pg_ctl stop returned.
        let mut left = leftovers(child.id());
        for _ in 0..20 {
            if left.0.is_empty() && left.1.trim().is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
            left = leftovers(child.id());
        }
        assert!(
            left.0.is_empty() && left.1.trim().is_empty(),
            "SIGINT after {delay_ms} ms left {:?} and processes {}",
            left.0,
            left.1
        );
    }
}

#[test]
fn sigint_during_the_demo_scans_prints_no_result() {
    if !pg_or_skip::server_or_skip("sigint_during_the_demo_scans_prints_no_result") {
        return;
    }
    // The scans' incomplete reports used to be printed (and "### result: unaccepted
    // divergences found" after them) once Ctrl-C had stopped the server.
    let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .arg("demo")
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let guard = KillOnDrop(child.id());
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).expect("read") == 0 {
            break;
        }
        seen.push_str(&line);
        if line.starts_with("### 3.") {
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
        }
    }
    let status = child.wait().expect("wait");
    std::mem::forget(guard);
    assert!(seen.contains("### 3."), "{seen}");
    match status.code() {
        Some(130) => assert!(
            !seen.contains("### result") && !seen.contains("complete: false"),
            "{seen}"
        ),
        // The scans finished before the signal arrived: then the result is a real one.
        Some(0) => assert!(seen.contains("### result: every finding"), "{seen}"),
        _ => panic!("{status}: {seen}"),
    }
    let (dirs, procs) = leftovers(child.id());
    assert!(
        dirs.is_empty() && procs.trim().is_empty(),
        "{dirs:?} {procs}"
    );
}

#[test]
fn merge_refuses_shards_cut_differently_and_names_the_files() {
    if !pg_or_skip::server_or_skip("merge_refuses_shards_cut_differently_and_names_the_files") {
        return;
    }
    // Shards by heap block and by key hash, or with different --where, used to merge into
    // a "complete" report although they need not cover each row once.
    let cluster = seeded(200);
    let url = cluster.connection_string();
    let dir = std::env::temp_dir().join(format!("equijson-pg-merge2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (_holder, snapshot) = export_snapshot(&cluster);
    let shard = |name: &str, k: u32, extra: &[&str]| {
        let spec = format!("{k}/2");
        let mut args = vec![
            "pg",
            "scan",
            "--table",
            "contacts",
            "--column",
            "doc",
            "--shard",
            &spec,
            "--snapshot",
            &snapshot,
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let o = run(&args, &url);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let f = dir.join(name);
        std::fs::write(&f, &o.stdout).expect("write");
        f.to_string_lossy().into_owned()
    };
    let key1 = shard("key1.json", 1, &["--key", "id"]);
    let key2 = shard("key2.json", 2, &["--key", "id"]);
    let block2 = shard("block2.json", 2, &[]);
    let where2 = shard("where2.json", 2, &["--key", "id", "--where", "id > 0"]);
    let ok = run(&["report", "merge", &key1, &key2], &url);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
    let m: serde_json::Value = serde_json::from_slice(&ok.stdout).expect("merged");
    assert_eq!(m["rows_read"], 208);
    assert_eq!(m["key_column"], "id");
    for (other, says) in [(&block2, "--key"), (&where2, "--where")] {
        let o = run(&["report", "merge", &key1, other], &url);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(other.as_str()) && err.contains(key1.as_str()) && err.contains(says),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "no merged report: {}", text(&o));
    }
    // A shard given twice: both files named.
    let o = run(&["report", "merge", &key1, &key2, &key2], &url);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("shard 2/2 in {key2}, {key2}")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_do_not_quote_a_password_and_bad_urls_say_why() {
    // clap quotes an argument it cannot place: a URL given without --database-url (or
    // to a command without that option) used to be printed with its password.
    let secret = "Pw0rdInArgv";
    let url = format!("postgresql://me:{secret}@127.0.0.1:1/db");
    let flag = format!("--database-url={url}");
    let key_value = format!("host=127.0.0.1 password={secret}");
    let quoted = format!("host=127.0.0.1 password='two {secret}'");
    for args in [
        vec!["pg", "scan", url.as_str(), "--table", "t", "--column", "c"],
        vec!["pg", "roundtrip", quoted.as_str()],
        vec!["canon", flag.as_str()],
        vec![
            "pg",
            "scan",
            "--database-url",
            key_value.as_str(),
            "--bogus",
        ],
    ] {
        let o = run(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let all = text(&o);
        assert!(!all.contains(secret), "{args:?}: {all}");
        assert!(
            all.contains("error: unexpected argument"),
            "{args:?}: {all}"
        );
    }
    // An unparsable URL says what is wrong with it (it used to say only "invalid
    // connection string"), still without the password.
    for (url, says) in [
        (
            format!("postgresql://me:{secret}@127.0.0.1/db?bogus=1"),
            "unknown option `bogus`",
        ),
        (
            format!("postgresql://me:{secret}@127.0.0.1:abc/db"),
            "option `port`",
        ),
    ] {
        let o = run(
            &[
                "pg",
                "scan",
                "--database-url",
                &url,
                "--table",
                "t",
                "--column",
                "c",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let all = text(&o);
        assert!(all.contains(says) && !all.contains(secret), "{all}");
    }
}

/// Duplicate member names in a `json` (or `text`) column are a divergence by default, with
/// the pointer of the later member; `--accept duplicate-names` declares them. The report
/// states the `serde_json` number mode it decoded under.
#[test]
fn scan_of_json_with_duplicate_names_diverges_unless_accepted() {
    let cluster = seeded(20);
    let url = cluster.connection_string();
    let scan = |extra: &[&str]| {
        let mut args = vec![
            "pg", "scan", "--table", "contacts", "--column", "raw", "--key", "id", "--dto",
            "value", "--format", "json",
        ];
        args.extend_from_slice(extra);
        run(&args, &url)
    };
    let o = scan(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json report");
    assert_eq!(
        v["serde_json_numbers"], "default (fast, not correctly rounded)",
        "{v}"
    );
    // The two hand-written rows with duplicates: a top-level and a nested one.
    assert_eq!(v["classes"]["duplicate-name"], 2, "{v}");
    assert_eq!(v["divergences"], 2, "{v}");
    let pointers: Vec<&str> = v["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .filter(|e| e["class"] == "duplicate-name")
        .map(|e| {
            assert_eq!(e["accepted"], false, "{e}");
            e["pointer"].as_str().expect("pointer")
        })
        .collect();
    assert_eq!(pointers.len(), 2, "{v}");
    assert!(pointers.contains(&"/display_name"), "{pointers:?}");
    assert!(pointers.contains(&"/email/0/is_primary"), "{pointers:?}");

    let o = scan(&["--accept", "duplicate-names"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json report");
    assert_eq!(v["divergences"], 0, "{v}");
    assert_eq!(v["classes"]["duplicate-name"], 2, "{v}");

    // The human report says the mode too.
    let o = run(
        &[
            "pg", "scan", "--table", "contacts", "--column", "doc", "--dto", "contact",
        ],
        &url,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("serde_json numbers: default (fast, not correctly rounded)\n"),
        "{}",
        text(&o)
    );
}

/// A cluster with table `dups`: `divergent` rows with a duplicate member name each (more
/// than the report keeps examples of, 3 per class), between as many clean rows.
fn duplicate_rows(divergent: i64) -> EphemeralCluster {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    client
        .batch_execute("CREATE TABLE dups (id bigint PRIMARY KEY, doc json)")
        .expect("create");
    for i in 1..=divergent {
        client
            .execute(
                "INSERT INTO dups VALUES ($1, $2::text::json), ($1 + 1000, '{\"a\":1}')",
                &[&i, &format!("{{\"a\":1,\"a\":{i}}}")],
            )
            .expect("insert");
    }
    cluster
}

#[test]
fn scan_findings_file_has_every_finding_with_its_key_even_with_jobs() {
    if !pg_or_skip::server_or_skip(
        "scan_findings_file_has_every_finding_with_its_key_even_with_jobs",
    ) {
        return;
    }
    let divergent: i64 = 14;
    let cluster = duplicate_rows(divergent);
    let url = cluster.connection_string();
    let dir = std::env::temp_dir().join(format!("equijson-cli-findings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("findings.jsonl");
    let file_arg = file.to_string_lossy().into_owned();
    for jobs in ["1", "2"] {
        let o = run(
            &[
                "pg",
                "scan",
                "--table",
                "dups",
                "--column",
                "doc",
                "--key",
                "id",
                "--jobs",
                jobs,
                "--format",
                "json",
                "--findings",
                &file_arg,
            ],
            &url,
        );
        assert_eq!(o.status.code(), Some(1), "divergent: {}", text(&o));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report");
        let written = std::fs::read_to_string(&file).expect("the findings file");
        let lines: Vec<serde_json::Value> = written
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect();
        let total: u64 = report["classes"]
            .as_object()
            .expect("classes")
            .values()
            .filter_map(serde_json::Value::as_u64)
            .sum();
        assert_eq!(lines.len() as u64, total, "--jobs {jobs}: {written}");
        let examples = report["examples"].as_array().expect("examples").len();
        assert!(
            examples < lines.len(),
            "--jobs {jobs}: the report keeps fewer"
        );
        let dups: Vec<&serde_json::Value> = lines
            .iter()
            .filter(|l| l["class"] == "duplicate-name")
            .collect();
        let mut keys: Vec<String> = dups
            .iter()
            .map(|l| l["key"].as_str().expect("key").to_owned())
            .collect();
        keys.sort_by_key(|k| k.parse::<i64>().unwrap_or(-1));
        let want: Vec<String> = (1..=divergent).map(|i| i.to_string()).collect();
        assert_eq!(keys, want, "--jobs {jobs}: every divergent key once");
        for l in &dups {
            assert_eq!(l["pointer"], "/a");
            assert_eq!(l["accepted"], false);
            // Redacted: the row's value (the second `a`) is not shown.
            let d = l["description"].as_str().expect("description");
            assert!(!d.contains("\"a\":1,\"a\""), "{d}");
        }
        for l in &lines {
            let k = l["key"].as_str().expect("key");
            assert!(
                k.parse::<i64>().is_ok_and(|k| k <= divergent),
                "a clean row: {l}"
            );
        }
    }
    // A file that cannot be created: exit 2, the file named.
    let bad = dir.join("missing-dir").join("f.jsonl");
    let o = run(
        &[
            "pg",
            "scan",
            "--table",
            "dups",
            "--column",
            "doc",
            "--findings",
            &bad.to_string_lossy(),
        ],
        &url,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("cannot create the findings file"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
