//! Differential suite: `equijson_canonical(jsonb)` on a real ephemeral cluster against
//! `equijson::canonicalize` of the server's jsonb text, byte for byte.
//!
//! Inputs: the RFC 8785 vectors, the ECMAScript number KAT (100,000 doubles, two spellings
//! each, through jsonb), generated documents of every DTO (>= 20,000), the hand-written
//! table `tests/data/sql-canonical.tsv`, and nesting far beyond what recursion allows.
//!
//! `EQUIJSON_SQL_CANONICAL_QUICK=1` (`just pg-versions-quick`, for each major version in
//! `just verify`) runs a tenth of the KAT (its first 10,000 doubles, the fixed patterns
//! and the subnormal ramp among them) and of the generated documents, and probes the
//! parser's nesting limit at 12,000 levels only.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::fmt::Write as _;
use std::path::PathBuf;

use equijson_check::props::PropsConfig;
use equijson_pg::canonical_sql;
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::connect;

/// The reduced workload (see the module docs).
fn quick() -> bool {
    std::env::var_os("EQUIJSON_SQL_CANONICAL_QUICK").is_some_and(|v| !v.is_empty() && v != "0")
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What the server did with one document.
#[derive(Debug)]
enum Outcome {
    /// jsonb rejected the text (SQLSTATE).
    Rejected(String),
    /// Stored: the jsonb text and the function's result (text or SQLSTATE).
    Stored {
        jsonb: String,
        canonical: Result<String, String>,
    },
}

fn sqlstate(e: &postgres::Error) -> String {
    e.code()
        .map_or_else(|| format!("?{e}"), |c| c.code().to_owned())
}

const BATCH: &str = "SELECT x.d::text, public.equijson_canonical(x.d) \
     FROM unnest($1::text[]) WITH ORDINALITY u(t, i), LATERAL (SELECT u.t::jsonb AS d) x ORDER BY u.i";

/// Runs documents through the server in batches; a batch that fails is split until the
/// failing document is alone, so every document gets its own outcome.
fn run(client: &mut postgres::Client, docs: &[String]) -> Vec<Outcome> {
    let mut out = Vec::with_capacity(docs.len());
    for chunk in docs.chunks(500) {
        run_chunk(client, chunk, &mut out);
    }
    out
}

fn run_chunk(client: &mut postgres::Client, docs: &[String], out: &mut Vec<Outcome>) {
    let params: Vec<&str> = docs.iter().map(String::as_str).collect();
    match client.query(BATCH, &[&params]) {
        Ok(rows) => {
            assert_eq!(rows.len(), docs.len());
            for row in rows {
                out.push(Outcome::Stored {
                    jsonb: row.get(0),
                    canonical: Ok(row.get(1)),
                });
            }
        }
        Err(_) if docs.len() > 1 => {
            let (a, b) = docs.split_at(docs.len() / 2);
            run_chunk(client, a, out);
            run_chunk(client, b, out);
        }
        Err(_) => {
            let doc = docs[0].as_str();
            match client.query_one("SELECT $1::text::jsonb::text", &[&doc]) {
                Err(e) => out.push(Outcome::Rejected(sqlstate(&e))),
                Ok(row) => {
                    let canonical = client
                        .query_one("SELECT public.equijson_canonical($1::text::jsonb)", &[&doc])
                        .map(|r| r.get::<_, String>(0))
                        .map_err(|e| sqlstate(&e));
                    out.push(Outcome::Stored {
                        jsonb: row.get(0),
                        canonical,
                    });
                }
            }
        }
    }
}

/// Compares the function with the Rust core on every stored document; returns
/// (stored, rejected) counts and panics with the first differences.
fn compare(label: &str, docs: &[String], outcomes: &[Outcome]) -> (usize, usize) {
    let opts = equijson::Options::default().max_depth(1_000_000);
    let mut diffs = Vec::new();
    let (mut stored, mut rejected) = (0, 0);
    for (doc, outcome) in docs.iter().zip(outcomes) {
        match outcome {
            Outcome::Rejected(_) => rejected += 1,
            Outcome::Stored { jsonb, canonical } => {
                stored += 1;
                let core = equijson::canonicalize_with(jsonb.as_bytes(), &opts)
                    .map(|b| String::from_utf8(b).expect("canonical text is UTF-8"));
                let agree = match (&core, canonical) {
                    (Ok(a), Ok(b)) => a == b,
                    // The core rejects a number beyond the doubles; SQL must raise 22003.
                    (Err(_), Err(state)) => state == "22003",
                    _ => false,
                };
                if !agree {
                    diffs.push(format!(
                        "input {doc:.300}\n  jsonb {jsonb:.300}\n  core  {:.300}\n  sql   {:.300}",
                        format!("{core:?}"),
                        format!("{canonical:?}")
                    ));
                }
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{label}: {} of {} documents differ; first ones:\n{}",
        diffs.len(),
        docs.len(),
        diffs.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
    (stored, rejected)
}

fn start() -> (EphemeralCluster, postgres::Client) {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    canonical_sql::install(&mut client, "public").expect("install");
    (cluster, client)
}

#[test]
fn rfc8785_vectors() {
    if !pg_or_skip::server_or_skip("rfc8785_vectors") {
        return;
    }
    let (_cluster, mut client) = start();
    let dir = repo().join("tests/data/jcs");
    let mut names: Vec<String> = std::fs::read_dir(dir.join("input"))
        .expect("vector dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 6);
    let docs: Vec<String> = names
        .iter()
        .map(|n| std::fs::read_to_string(dir.join("input").join(n)).expect("input"))
        .collect();
    let outcomes = run(&mut client, &docs);
    compare("rfc8785", &docs, &outcomes);
    for (name, outcome) in names.iter().zip(&outcomes) {
        let expected = std::fs::read(dir.join("output").join(name)).expect("output");
        match outcome {
            Outcome::Stored {
                canonical: Ok(c), ..
            } => assert_eq!(
                c.as_bytes(),
                expected.as_slice(),
                "{name}: SQL differs from the published output"
            ),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn edge_case_table() {
    if !pg_or_skip::server_or_skip("edge_case_table") {
        return;
    }
    let (_cluster, mut client) = start();
    let table = std::fs::read_to_string(repo().join("tests/data/sql-canonical.tsv"))
        .expect("tests/data/sql-canonical.tsv");
    let rows: Vec<(&str, &str, &str)> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            match (f.next(), f.next(), f.next(), f.next()) {
                (Some(a), Some(b), Some(c), None) => (a, b, c),
                _ => panic!("malformed row: {l}"),
            }
        })
        .collect();
    assert!(rows.len() >= 30);
    let docs: Vec<String> = rows.iter().map(|r| r.1.to_owned()).collect();
    let outcomes = run(&mut client, &docs);
    compare("edge cases", &docs, &outcomes);
    for ((name, _, expected), outcome) in rows.iter().zip(&outcomes) {
        let got = match outcome {
            Outcome::Stored {
                canonical: Ok(c), ..
            } => c.clone(),
            Outcome::Stored {
                canonical: Err(code),
                ..
            } => format!("!{code}"),
            Outcome::Rejected(code) => format!("rejected by jsonb: {code}"),
        };
        assert_eq!(&got, expected, "{name}");
    }
}

#[test]
fn overflow_error_is_clear() {
    if !pg_or_skip::server_or_skip("overflow_error_is_clear") {
        return;
    }
    let (_cluster, mut client) = start();
    let e = client
        .query_one("SELECT public.equijson_canonical('{\"a\":[1e400]}')", &[])
        .expect_err("1e400 must fail");
    let db = e.as_db_error().expect("server error");
    assert_eq!(db.code().code(), "22003");
    assert!(
        db.message().contains("overflows an IEEE 754 double"),
        "{}",
        db.message()
    );
    assert!(db.message().contains("401 characters"), "{}", db.message());
    // NULL in, NULL out.
    let row = client
        .query_one("SELECT public.equijson_canonical(NULL)", &[])
        .expect("null");
    assert_eq!(row.get::<_, Option<String>>(0), None);
}

// The KAT stream (see `tests/data/jcs/VECTORS.md`), shared with the core's KAT.
#[path = "../../equijson/tests/shared/kat_patterns.rs"]
mod kat_patterns;
use kat_patterns::kat_patterns;

#[test]
fn number_kat_100k_through_jsonb() {
    if !pg_or_skip::server_or_skip("number_kat_100k_through_jsonb") {
        return;
    }
    let (_cluster, mut client) = start();
    // 250 doubles per array: hundreds of changed numbers, so the split path.
    number_kat(&mut client, 250);
    // 16 doubles per array: at most 32 changed numbers, so the padding path.
    number_kat(&mut client, 16);
}

/// Each double in two spellings: its ECMAScript text and 17 significant digits (which
/// needs rounding to the nearest double), `per_doc` doubles per jsonb array.
fn number_kat(client: &mut postgres::Client, per_doc: usize) {
    let mut docs = Vec::new();
    let mut expected = Vec::new();
    let mut doc = String::from("[");
    let mut exp = String::from("[");
    let count = if quick() { 10_000 } else { 100_000 };
    for (i, bits) in kat_patterns().take(count).enumerate() {
        let f = f64::from_bits(bits);
        let es = equijson::format_f64(f).expect("finite");
        if i % per_doc != 0 {
            doc.push(',');
            exp.push(',');
        }
        let _ = write!(doc, "{es},{f:.16e}");
        let _ = write!(exp, "{es},{es}");
        if i % per_doc == per_doc - 1 {
            docs.push(std::mem::replace(&mut doc, String::from("[")) + "]");
            expected.push(std::mem::replace(&mut exp, String::from("[")) + "]");
        }
    }
    assert_eq!(docs.len(), count / per_doc);
    let outcomes = run(client, &docs);
    let (stored, _) = compare("number KAT", &docs, &outcomes);
    assert_eq!(stored, docs.len());
    // And against the ECMAScript texts themselves, element by element.
    for (outcome, want) in outcomes.iter().zip(&expected) {
        match outcome {
            Outcome::Stored {
                canonical: Ok(c), ..
            } => {
                if c != want {
                    let g: Vec<&str> = c.trim_matches(['[', ']']).split(',').collect();
                    let w: Vec<&str> = want.trim_matches(['[', ']']).split(',').collect();
                    let bad = g.iter().zip(&w).find(|(a, b)| a != b);
                    panic!("KAT differs ({per_doc} per document): sql {bad:?}");
                }
            }
            other => panic!("KAT batch failed: {other:?}"),
        }
    }
}

#[test]
fn generated_documents_of_every_dto() {
    if !pg_or_skip::server_or_skip("generated_documents_of_every_dto") {
        return;
    }
    let (_cluster, mut client) = start();
    let mut total = 0;
    for spec in equijson_check::dto::catalogue() {
        let cases = if spec.name == "value" { 6_000 } else { 3_000 } / if quick() { 10 } else { 1 };
        let cfg = PropsConfig::new(0x5e1_c0de, cases, Some(spec));
        let docs: Vec<String> = (0..cases)
            .map(|i| {
                let (tree, style) = equijson_check::props::case(&cfg, i);
                tree.render(equijson_check::generate::Style::Seeded(style))
            })
            .collect();
        let outcomes = run(&mut client, &docs);
        let (stored, rejected) = compare(spec.name, &docs, &outcomes);
        assert!(
            stored * 10 >= docs.len() * 9,
            "{}: only {stored} of {} stored ({rejected} rejected)",
            spec.name,
            docs.len()
        );
        total += stored;
    }
    assert!(total >= if quick() { 2_000 } else { 20_000 }, "{total}");
}

#[test]
fn deep_nesting_has_no_stack_limit() {
    if !pg_or_skip::server_or_skip("deep_nesting_has_no_stack_limit") {
        return;
    }
    let (_cluster, mut client) = start();
    // jsonb's own parser stops near 13,000-14,500 levels at the default max_stack_depth; a
    // recursive function would stop near 650. Build deeper values inside the server.
    // (Quick: a fifth of the depths, all still past the 1,000 brackets of the level path.)
    let n = if quick() { 2_000 } else { 10_000 };
    let docs: Vec<String> = vec![
        format!("{}1{}", "[".repeat(n), "]".repeat(n)),
        format!("{}{{}}{}", "{\"a\":".repeat(n / 2), "}".repeat(n / 2)),
        format!(
            "{}{}",
            "[{\"b\":2.50,\"a\":[".repeat(n / 5),
            "]}]".repeat(n / 5)
        ),
    ];
    let outcomes = run(&mut client, &docs);
    let (stored, _) = compare("deep", &docs, &outcomes);
    assert_eq!(stored, 3);
    // Near the parser's own limit: whatever depth jsonb accepts, the function handles.
    let mut deepest = 0;
    let depths: &[usize] = if quick() {
        &[12_000]
    } else {
        &[12_000, 13_000, 14_000]
    };
    for &depth in depths {
        let doc = vec![format!("{}\"x\"{}", "[".repeat(depth), "]".repeat(depth))];
        let outcomes = run(&mut client, &doc);
        match &outcomes[0] {
            Outcome::Rejected(code) => assert_eq!(code, "54001", "depth {depth}"),
            Outcome::Stored { .. } => {
                compare("deepest", &doc, &outcomes);
                deepest = depth;
            }
        }
    }
    assert!(deepest >= 12_000, "{deepest}");
}

#[test]
fn install_is_idempotent_and_schema_aware() {
    if !pg_or_skip::server_or_skip("install_is_idempotent_and_schema_aware") {
        return;
    }
    let (_cluster, mut client) = start();
    canonical_sql::install(&mut client, "public").expect("again");
    canonical_sql::install(&mut client, "My \"Schema\"").expect("schema");
    assert!(canonical_sql::installed(&mut client, "My \"Schema\"").expect("catalog"));
    // The schema copy works with an empty search_path: no unqualified references.
    client
        .batch_execute("SET search_path = ''")
        .expect("search_path");
    let row = client
        .query_one(
            "SELECT \"My \"\"Schema\"\"\".equijson_canonical('{\"b\":[1.0,1e21],\"a\":1e-400}')",
            &[],
        )
        .expect("schema copy");
    assert_eq!(row.get::<_, String>(0), r#"{"a":0,"b":[1,1e+21]}"#);
    canonical_sql::uninstall(&mut client, "My \"Schema\"").expect("uninstall");
    assert!(!canonical_sql::installed(&mut client, "My \"Schema\"").expect("catalog"));
    assert!(canonical_sql::installed(&mut client, "public").expect("catalog"));
    canonical_sql::uninstall(&mut client, "My \"Schema\"").expect("uninstall twice");
}

#[test]
fn scan_pass_finds_a_sabotaged_function() {
    use equijson_pg::scan::ScanOptions;
    use equijson_pg::sql_scan;
    if !pg_or_skip::server_or_skip("scan_pass_finds_a_sabotaged_function") {
        return;
    }
    let (cluster, mut client) = start();
    client
        .batch_execute(
            "CREATE TABLE docs (id int, j json); INSERT INTO docs VALUES \
             (1, '{\"b\":1,\"a\":[1.0,1e21]}'), (2, '[1e400]'), (3, '[\"\\u0000\"]'), \
             (4, '{\"a\":1,\"a\":{\"\\ud83d\\ude02\":1,\"\\ue000\":2}}'), (5, NULL), (6, '\"x\"')",
        )
        .expect("table");
    let opts = ScanOptions {
        table: "docs".into(),
        column: "j".into(),
        key: Some("id".into()),
        ..Default::default()
    };
    let config = cluster.config();
    let mut report = equijson_pg::live::ScanReport::new("docs", "j", "value");
    let pass = sql_scan::compare(&config, &opts, "public", &mut report).expect("pass");
    assert_eq!((pass.rows, pass.rejected, pass.differing), (5, 1, 0));
    assert_eq!(report.divergences, 0);
    // A function that sorts by the database's code-point order instead of UTF-16 order.
    client
        .batch_execute(
            "CREATE OR REPLACE FUNCTION public.equijson_utf16_key(name text) RETURNS text \
             LANGUAGE sql IMMUTABLE AS $$ SELECT name $$",
        )
        .expect("sabotage");
    let mut report = equijson_pg::live::ScanReport::new("docs", "j", "value");
    let pass = sql_scan::compare(&config, &opts, "public", &mut report).expect("pass");
    assert_eq!(pass.differing, 1);
    assert_eq!(report.classes.get(&sql_scan::CLASS), Some(&1));
    assert_eq!(report.examples[0].key, "4");
    assert!(sql_scan::compare(&config, &opts, "elsewhere", &mut report).is_err());
}

/// Which documents the entry point's padding path takes itself and which it hands to
/// `equijson_canonical_split`: the split path is replaced by a marker, so a document that
/// reaches it returns `split` instead of its canonical text.
#[test]
fn padding_path_routing() {
    if !pg_or_skip::server_or_skip("padding_path_routing") {
        return;
    }
    let (_cluster, mut client) = start();
    let numbers_33 = format!("[{}]", vec!["1.50"; 33].join(","));
    let numbers_32 = format!("[{}]", vec!["1.50"; 32].join(","));
    let deep = |d: usize| {
        format!(
            "{{\"b\":{}1{},\"a\":0}}",
            "[".repeat(d - 1),
            "]".repeat(d - 1)
        )
    };
    let long_name = |n: usize| format!("{{\"{}\":1,\"b\":2,\"a\":3}}", "a".repeat(n));
    let padded: Vec<String> = vec![
        r#"{"b":1,"a":2,"ab":3,"":4,"a!":5,"~":6}"#.into(),
        r#"{"b":["x","y z"," "],"a":[["s"],{"k":"v"}],"c":"x: y, z"}"#.into(),
        r#"{"b":[1.50,12345678901234567,1e21,0.0000001,-0.0],"a":"1.50"}"#.into(),
        r#"{"b":"\u00e9\ud83d\ude02\n\"\\","a":null,"c":[true,false,null]}"#.into(),
        numbers_32,
        deep(18),
        long_name(14),
        long_name(62),
        long_name(254),
        "[]".into(),
        "{}".into(),
    ];
    let split: Vec<String> = vec![
        r#"{"a b":1}"#.into(),
        r#"{"a\nb":1}"#.into(),
        r#"{"a\"b":1}"#.into(),
        r#"{"\u00e9":1}"#.into(),
        r#"{"a ":1}"#.into(),
        r#"{"a":":b"}"#.into(),
        r#"[":b"]"#.into(),
        r#"{"a":"x\":y"}"#.into(),
        "{\"a\":\"\u{f8fe}\"}".into(),
        "[\"\u{f8ff}\"]".into(),
        numbers_33,
        deep(19),
        long_name(255),
    ];
    let outcomes = run(&mut client, &padded);
    compare("padding path", &padded, &outcomes);
    let split_outcomes = run(&mut client, &split);
    compare("split path", &split, &split_outcomes);
    client
        .batch_execute(
            "CREATE OR REPLACE FUNCTION public.equijson_canonical_split(doc jsonb) RETURNS text \
             LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT 'split'::text $$",
        )
        .expect("marker");
    for (doc, want_split) in padded
        .iter()
        .map(|d| (d, false))
        .chain(split.iter().map(|d| (d, true)))
    {
        let got: String = client
            .query_one("SELECT public.equijson_canonical($1::text::jsonb)", &[doc])
            .expect("call")
            .get(0);
        assert_eq!(got == "split", want_split, "{doc:.120} -> {got:.120}");
    }
}
