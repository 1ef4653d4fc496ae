//! `equijson pg scan --paths`: only the chosen decode paths are checked and reported, and
//! the report says which; end to end against real PostgreSQL.

#[path = "../../equijson-pg/tests/shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::process::{Command, Output, Stdio};

use equijson_pg::cluster::EphemeralCluster;

fn run(args: &[&str], url: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_equijson"));
    c.args(args).stdin(Stdio::null());
    for v in pg_or_skip::CONNECTION_VARS {
        c.env_remove(v);
    }
    c.env("DATABASE_URL", url).output().expect("run equijson")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// An article batch (the `articles` DTO, which accepts nothing) with `id` and `score`.
fn article(id: &str, score: &str) -> String {
    format!(
        r#"[{{"id":{id},"slug":"a","title":"t","body":"","tags":[],"author":{{"id":1,"name":"n"}},"published_at":null,"word_count":1,"score":{score}}}]"#
    )
}

#[test]
fn only_the_chosen_paths_are_checked_and_reported() {
    if !pg_or_skip::server_or_skip("only_the_chosen_paths_are_checked_and_reported") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let url = cluster.connection_string();
    let mut client = cluster.config().connect(postgres::NoTls).expect("connect");
    // Row 2: an id beyond 2^53, which only the canonical path (RFC 8785 numbers are
    // doubles) reads as another value. Row 3: the largest double, which jsonb writes out
    // as a 309-digit integer that serde_json rejects as out of range: direct and jsonb
    // differ. Row 1 is clean.
    let rows = [
        (1, article("1", "1.5")),
        (2, article("12345678901234567890", "1.5")),
        (3, article("3", "1.7976931348623157e308")),
    ];
    client
        .batch_execute("CREATE TABLE t (id int PRIMARY KEY, doc json)")
        .expect("table");
    for (id, doc) in &rows {
        client
            .execute("INSERT INTO t VALUES ($1, $2::text::json)", &[id, doc])
            .expect("insert");
    }
    let scan = |extra: &[&str]| {
        let mut args = vec![
            "pg", "scan", "--table", "t", "--column", "doc", "--key", "id", "--dto", "articles",
            "--format", "json",
        ];
        args.extend_from_slice(extra);
        let o = run(&args, &url);
        let report: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
        (o, report)
    };
    let keys = |report: &serde_json::Value, class: &str| -> Vec<String> {
        report["examples"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| e["class"] == class)
                    .filter_map(|e| e["key"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };

    // The DTO declares every path: both planted rows diverge.
    let (o, all) = scan(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(all["divergences"], 2, "{all}");
    assert_eq!(keys(&all, "value-split"), ["2"], "{all}");
    assert_eq!(keys(&all, "float-misread"), ["3"], "{all}");
    assert_eq!(
        all["paths"],
        serde_json::json!(["dom", "direct", "borrow", "jsonb", "canonical"])
    );
    let (_, every) = scan(&["--all-paths"]);
    assert_eq!(every["classes"], all["classes"], "{every}");

    // direct and jsonb only: the canonical path's split is not run, so not reported; the
    // direct-vs-jsonb difference is.
    let (o, chosen) = scan(&["--paths", "direct,jsonb"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(chosen["paths"], serde_json::json!(["direct", "jsonb"]));
    assert_eq!(chosen["divergences"], 1, "{chosen}");
    assert_eq!(keys(&chosen, "float-misread"), ["3"], "{chosen}");
    assert!(chosen["classes"].get("value-split").is_none(), "{chosen}");
    assert_eq!(chosen["model_checked"], 3, "{chosen}");
    // The human report says which paths were checked.
    let o = run(
        &[
            "pg",
            "scan",
            "--table",
            "t",
            "--column",
            "doc",
            "--dto",
            "articles",
            "--paths",
            "jsonb, direct",
        ],
        &url,
    );
    assert!(text(&o).contains("paths: direct, jsonb\n"), "{}", text(&o));

    // Without jsonb the model is not run (no cast read), and the float row is clean too.
    let (o, direct) = scan(&["--paths", "direct,dom"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(direct["model_checked"], 0, "{direct}");
    assert_eq!(direct["divergences"], 0, "{direct}");

    // Unknown names, and functions the DTO does not declare, are usage errors.
    for bad in ["direct,jsonbb", "before"] {
        let o = run(
            &[
                "pg", "scan", "--table", "t", "--column", "doc", "--dto", "articles", "--paths",
                bad,
            ],
            &url,
        );
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o));
        let want = if bad == "before" {
            "declares no decode functions"
        } else {
            "unknown decode path \"jsonbb\""
        };
        assert!(text(&o).contains(want), "{bad}: {}", text(&o));
    }
}
