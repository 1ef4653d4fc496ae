//! Scan reports checked for consistency and comparability before `report merge` adds them, and untrusted text escaped in the human report.

use equijson_check::decode::Class;
use equijson_pg::live::{
    Example, LiveClass, LiveFinding, MergeError, Mismatch, ScanReport, ScanSource,
};

/// A report as a shard scan writes it: 10 rows, one divergent, two accepted.
fn shard(k: u32, n: u32) -> ScanReport {
    let mut r = ScanReport::new("t", "doc", "value");
    r.shard = Some([k, n]);
    r.source = Some(ScanSource {
        system_identifier: Some("7300000000000000001".into()),
        database: "postgres".into(),
        table_oid: 16384,
        relfilenode: 16384,
        server_major: 15,
        snapshot: "750:750:".into(),
        exported_snapshot: None,
        started_at: "2026-12-01T00:00:00.000000Z".into(),
        settings: [("TimeZone".to_owned(), "UTC".to_owned())].into(),
    });
    let finding = |class: LiveClass, accepted: bool| LiveFinding {
        class,
        accepted,
        pointer: String::new(),
        description: String::new(),
    };
    for i in 0..10 {
        let f = match i {
            3 => vec![finding(LiveClass::Decode(Class::ValueSplit), false)],
            5 | 7 => vec![finding(LiveClass::Rejected, true)],
            _ => Vec::new(),
        };
        r.record(&format!("{k}-{i}"), f);
    }
    r.rows_total = 10;
    r.complete = true;
    r
}

#[test]
fn a_report_as_written_is_consistent() {
    assert_eq!(shard(1, 3).problems(), Vec::<String>::new());
    let merged = ScanReport::merge(&[shard(1, 2), shard(2, 2)]).expect("merge");
    assert!(merged.complete, "{merged:?}");
    assert_eq!(merged.problems(), Vec::<String>::new());
}

#[test]
fn hand_edits_are_inconsistent() {
    type Edit = fn(&mut ScanReport);
    // (what the edit does, the edit, a word of the problem found)
    let table: &[(&str, Edit, &str)] = &[
        (
            "rows_read lowered",
            |r| r.rows_read = 5,
            "rows_read 5 != rows_total 10",
        ),
        (
            "rows_total lowered",
            |r| r.rows_total = 9,
            "exceeds rows_total",
        ),
        ("shard 4/3", |r| r.shard = Some([4, 3]), "shard 4/3"),
        ("shard 0/3", |r| r.shard = Some([0, 3]), "shard 0/3"),
        ("shard 1/0", |r| r.shard = Some([1, 0]), "shard 1/0"),
        (
            "error with complete",
            |r| r.error = Some("lost".into()),
            "beside an error",
        ),
        (
            "divergences zeroed",
            |r| r.divergences = 0,
            "unaccepted example",
        ),
        (
            "an unaccepted example added",
            |r| {
                r.examples.push(Example {
                    class: LiveClass::Rejected,
                    key: "x".into(),
                    pointer: String::new(),
                    accepted: false,
                    description: String::new(),
                });
            },
            "unaccepted examples on 2 rows",
        ),
        (
            "a class count zeroed",
            |r| {
                r.classes.insert(LiveClass::Decode(Class::ValueSplit), 0);
            },
            "classes counts 0",
        ),
        ("accepted inflated", |r| r.accepted = 50, "exceed rows_read"),
        (
            "model_checked inflated",
            |r| r.model_checked = 11,
            "model_checked 11",
        ),
        ("classes emptied", |r| r.classes.clear(), "cannot cover"),
        (
            "divergences overflow",
            |r| r.divergences = u64::MAX,
            "exceed rows_read",
        ),
    ];
    for (what, edit, word) in table {
        let mut r = shard(2, 3);
        edit(&mut r);
        let p = r.problems();
        assert!(p.iter().any(|m| m.contains(word)), "{what}: {p:?}");
        // And merge refuses it, naming the report.
        let e =
            ScanReport::merge_labeled(&[("a.json", &shard(1, 3)), ("b.json", &r)]).expect_err(what);
        assert!(
            matches!(&e, MergeError::Inconsistent { label, problems } if label == "b.json" && *problems == p),
            "{what}: {e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("b.json") && e.contains("not a consistent"),
            "{what}: {e}"
        );
    }
}

/// Shards of another scan, program, shard count or slicing are refused by kind, naming
/// both reports; no reports at all is its own refusal.
#[test]
fn shards_of_another_scan_or_cut_are_refused_by_kind() {
    type Edit = fn(&mut ScanReport);
    let table: &[(&str, Edit, Mismatch)] = &[
        ("column", |r| r.column = "other".into(), Mismatch::Scan),
        ("dto", |r| r.dto = "other".into(), Mismatch::Scan),
        (
            "paths",
            |r| r.paths = vec!["direct".into(), "jsonb".into()],
            Mismatch::Scan,
        ),
        (
            "serde_json",
            |r| r.serde_json_numbers.push_str(", built elsewhere"),
            Mismatch::SerdeJsonNumbers,
        ),
        (
            "shard count",
            |r| r.shard = Some([2, 3]),
            Mismatch::ShardCount,
        ),
        (
            "key",
            |r| r.key_column = Some("id".into()),
            Mismatch::Slicing,
        ),
        ("limit", |r| r.limit = Some(5), Mismatch::Slicing),
    ];
    for (what, edit, kind) in table {
        let mut b = shard(2, 2);
        edit(&mut b);
        let e = ScanReport::merge_labeled(&[("one.json", &shard(1, 2)), ("two.json", &b)])
            .expect_err(what);
        assert!(
            matches!(&e, MergeError::Mismatch { what: k, message }
                if k == kind && message.contains("one.json") && message.contains("two.json")),
            "{what}: {e:?}"
        );
    }
    assert!(matches!(ScanReport::merge(&[]), Err(MergeError::NoReports)));
}

#[test]
fn shards_of_other_snapshots_tables_or_settings_are_refused() {
    type Edit = fn(&mut ScanSource);
    // (what differs, the edit, the kind of refusal, words of its message)
    let table: &[(&str, Edit, Mismatch, &[&str])] = &[
        (
            "snapshot",
            |s| s.snapshot = "751:760:755".into(),
            Mismatch::Snapshot,
            &["snapshot", "--snapshot"],
        ),
        (
            "TimeZone",
            |s| {
                s.settings.insert("TimeZone".into(), "Asia/Tokyo".into());
            },
            Mismatch::Setting,
            &["TimeZone=Asia/Tokyo", "TimeZone=UTC"],
        ),
        (
            "DateStyle added",
            |s| {
                s.settings.insert("DateStyle".into(), "SQL, DMY".into());
            },
            Mismatch::Setting,
            &["DateStyle"],
        ),
        (
            "relfilenode",
            |s| s.relfilenode = 16999,
            Mismatch::Table,
            &["relfilenode"],
        ),
        (
            "table oid",
            |s| s.table_oid = 1,
            Mismatch::Table,
            &["table oid"],
        ),
        (
            "cluster",
            |s| s.system_identifier = Some("1".into()),
            Mismatch::Table,
            &["system_identifier"],
        ),
        (
            "database",
            |s| s.database = "other".into(),
            Mismatch::Table,
            &["database"],
        ),
        (
            "major",
            |s| s.server_major = 16,
            Mismatch::Table,
            &["major"],
        ),
    ];
    for (what, edit, kind, words) in table {
        let mut b = shard(2, 2);
        if let Some(s) = b.source.as_mut() {
            edit(s);
        }
        let e = ScanReport::merge_labeled(&[("one.json", &shard(1, 2)), ("two.json", &b)])
            .expect_err(what);
        assert!(
            matches!(&e, MergeError::Mismatch { what: k, .. } if k == kind),
            "{what}: {e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("one.json") && e.contains("two.json"),
            "{what}: {e}"
        );
        for w in *words {
            assert!(e.contains(w), "{what}: {w} in {e}");
        }
    }
    let mut old = shard(2, 2);
    old.source = None;
    let e = ScanReport::merge_labeled(&[("one.json", &shard(1, 2)), ("old.json", &old)])
        .expect_err("no source");
    assert!(
        matches!(
            &e,
            MergeError::Mismatch {
                what: Mismatch::NoSource,
                ..
            }
        ),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("old.json") && e.contains("snapshot"), "{e}");
}

/// The lines a human report starts at column 0.
const HEADERS: &[&str] = &[
    "scan:",
    "serde_json numbers:",
    "rows_total:",
    "rows_read:",
    "complete:",
    "divergences:",
    "model_checked:",
    "accepted:",
    "classes:",
    "examples:",
    "rows/s:",
    "peak RSS:",
    "error:",
];

#[test]
fn keys_and_names_cannot_forge_lines_or_drive_the_terminal() {
    let hostile = [
        "7\n verdict: ok",
        "\u{1b}[2J\u{1b}[H",
        "a\rcomplete: true",
        "b\u{2028}c",
        "\u{202e}kcab",
        "\u{9b}31m",
    ];
    let mut r = ScanReport::new("t\ncomplete: true", "doc\u{1b}[8m", "value");
    // A class is one of the known ones (see `a_class_name_not_known_is_refused_when_read`):
    // a different one per key, so that each key has its example.
    for (k, class) in hostile.into_iter().zip(LiveClass::ALL) {
        r.record(
            k,
            vec![LiveFinding {
                class,
                accepted: false,
                pointer: format!("/{k}"),
                description: format!("line one {k}\nline two {k}"),
            }],
        );
    }
    r.error = Some("server said \u{1b}]0;owned\u{7}\nverdict: ok".into());
    let text = r.render();
    for c in text.chars() {
        assert!(
            c == '\n' || !equijson::untrusted::is_unsafe(c),
            "{c:?} in {text}"
        );
    }
    // Every line at column 0 is one of the report's own; descriptions stay indented.
    for line in text.lines() {
        assert!(
            line.starts_with(' ') || HEADERS.iter().any(|h| line.starts_with(h)),
            "forged line {line:?} in\n{text}"
        );
    }
    assert_eq!(
        text.lines().filter(|l| l.starts_with("complete:")).count(),
        1,
        "{text}"
    );
    // An example's own line starts with `  - `; a key cannot start another one.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  - ")).count(),
        hostile.len(),
        "{text}"
    );
    assert!(text.contains("at key 7\\u{a} verdict: ok"), "{text}");
    assert!(text.contains("\\u{1b}[2J"), "{text}");
    // Every description line is indented under its example: none escapes to column 0.
    let examples = text.split("examples:\n").nth(1).unwrap_or_default();
    for line in examples.lines().take_while(|l| !l.starts_with("rows/s")) {
        assert!(
            line.starts_with("  - ") || line.starts_with("      "),
            "{line:?}"
        );
    }
}

#[test]
fn a_class_name_not_known_is_refused_when_read() {
    let mut r = shard(1, 1);
    r.examples[0].description = "x".into();
    let text = serde_json::to_string(&r).expect("serialize");
    // Written with the names reports always had.
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["classes"]["value-split"], 1, "{text}");
    assert_eq!(v["classes"]["rejected"], 2, "{text}");
    assert_eq!(v["examples"][0]["class"], "value-split", "{text}");
    assert_eq!(v["accepted"], 2, "{text}");
    assert_eq!(
        serde_json::from_str::<ScanReport>(&text).expect("read back"),
        r
    );
    // A name no class has (a forged one carrying control characters, say) is refused.
    for (from, to) in [
        ("\"value-split\":1", "\"value-split\\u001b[2J\":1"),
        ("\"class\":\"value-split\"", "\"class\":\"valuesplit\""),
    ] {
        let forged = text.replacen(from, to, 1);
        assert_ne!(forged, text, "{from}");
        let e = serde_json::from_str::<ScanReport>(&forged).expect_err(to);
        assert!(e.to_string().contains("unknown finding class"), "{e}");
    }
}

#[test]
fn reports_and_finding_lines_of_earlier_versions_read_declared_as_accepted() {
    let r = shard(1, 1);
    let text = serde_json::to_string(&r).expect("serialize");
    assert!(!text.contains("declared"), "{text}");
    // Earlier versions wrote `declared` for the count and for each example.
    let old = text.replace("\"accepted\":", "\"declared\":");
    assert_ne!(old, text);
    let read: ScanReport = serde_json::from_str(&old).expect("an earlier report");
    assert_eq!(read, r);
    assert_eq!(read.accepted, 2);
    assert!(read.examples.iter().any(|e| e.accepted), "{read:?}");
    // `--findings` lines: the same.
    let line =
        r#"{"key":"7","class":"duplicate-name","pointer":"/a","description":"d","declared":true}"#;
    let f: equijson_pg::RowFinding = serde_json::from_str(line).expect("an earlier line");
    assert_eq!(f.class, Class::DuplicateName);
    assert!(f.accepted);
    assert_eq!(
        serde_json::to_string(&f).expect("serialize"),
        r#"{"key":"7","class":"duplicate-name","pointer":"/a","description":"d","accepted":true}"#
    );
}
