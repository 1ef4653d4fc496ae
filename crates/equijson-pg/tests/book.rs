//! The book's PostgreSQL example ("Your DTOs" › "Scanning your tables with your DTOs", also in
//! this crate's README), compiled and run against an ephemeral cluster, and held to both texts.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

/// The example's lines as `docs/src/your-dtos.md` and `crates/equijson-pg/README.md` show
/// them; `book_scan_example_runs` runs them (keep the two in step).
const SCAN_EXAMPLE: &str = r#"#[derive(serde::Deserialize, serde::Serialize)]
struct Order { id: u64, customer: String, total_cents: u64 }
impl equijson_check::dto::Dto for Order {}                    // every method has a default

const ACCEPTS: &[equijson_check::decode::Accept] = &[/* findings your service accepts */];

let target = equijson_pg::Target::from_url_or_env(None)?;      // URL, the environment or ephemeral
let opts = equijson_pg::ScanOptions { table: "orders".into(), column: "doc".into(),
                                      key: Some("id".into()), ..Default::default() };
let report = equijson_pg::scan::<Order>(target.config(), &opts, ACCEPTS)?;
assert!(report.complete && report.divergences == 0, "{}", report.render());

let mut client = equijson_pg::connect::connect(target.config())?;
let rt = equijson_pg::roundtrip::<Order>(&mut client,
    equijson_pg::RoundtripOptions { seed: 1, cases: 1000, size: 6 })?; // Order's generator"#;

/// Set for the child process that runs the book's lines.
const CHILD_ENV: &str = "EQUIJSON_BOOK_CHILD";

#[test]
fn book_scan_example_runs() {
    const TEST: &str = "book_scan_example_runs";
    // Every variable `Target` reads to name a server is removed for the child.
    for (var, _) in equijson_pg::libpq_env::ENV_PARAMS {
        assert!(
            pg_or_skip::CONNECTION_VARS.contains(var),
            "{var} is missing from CONNECTION_VARS"
        );
    }
    if !pg_or_skip::server_or_skip(TEST) {
        return;
    }
    // The example takes its server from the environment (`from_url_or_env`), and this
    // test creates a table in it: run it in a child without any variable that names a
    // server, so that it always runs, on an ephemeral cluster, whatever this process's
    // environment says.
    let mut child = std::process::Command::new(std::env::current_exe().expect("test binary"));
    child.args([
        "--exact",
        "book_scan_example_child",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    for v in pg_or_skip::CONNECTION_VARS {
        child.env_remove(v);
    }
    let out = child.env(CHILD_ENV, "1").output().expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("BOOK EXAMPLE RAN"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Run only as a child of [`book_scan_example_runs`], which removes every variable that
/// names a server; anywhere else it refuses to start.
#[test]
#[ignore = "a child process of book_scan_example_runs"]
// The book's own spelling: `..Default::default()`.
#[allow(clippy::default_trait_access)]
fn book_scan_example_child() -> Result<(), Box<dyn std::error::Error>> {
    // ---- the book's lines ----
    #[derive(serde::Deserialize, serde::Serialize)]
    struct Order {
        id: u64,
        customer: String,
        total_cents: u64,
    }
    impl equijson_check::dto::Dto for Order {} // every method has a default

    const ACCEPTS: &[equijson_check::decode::Accept] = &[/* findings your service accepts */];
    // ---- (not the book's: never against a server the environment names) ----
    assert!(
        std::env::var_os(CHILD_ENV).is_some(),
        "run by book_scan_example_runs only"
    );
    for v in pg_or_skip::CONNECTION_VARS {
        assert!(std::env::var_os(v).is_none(), "{v} is set");
    }

    // ---- the book's lines, continued ----
    let target = equijson_pg::Target::from_url_or_env(None)?; // URL, the environment or ephemeral
    // ---- (not the book's: the table the example scans, on the ephemeral cluster only) ----
    assert!(
        target.cluster().is_some(),
        "the example runs on an ephemeral cluster"
    );
    equijson_pg::connect::connect(target.config())?.batch_execute(
        r#"CREATE TABLE orders (id bigint PRIMARY KEY, doc jsonb);
           INSERT INTO orders VALUES
             (1, '{"id":1,"customer":"Ada","total_cents":1250}'),
             (2, '{"id":2,"customer":"Grace","total_cents":99}')"#,
    )?;
    // ---- the book's lines, continued ----
    let opts = equijson_pg::ScanOptions {
        table: "orders".into(),
        column: "doc".into(),
        key: Some("id".into()),
        ..Default::default()
    };
    let report = equijson_pg::scan::<Order>(target.config(), &opts, ACCEPTS)?;
    assert!(
        report.complete && report.divergences == 0,
        "{}",
        report.render()
    );

    let mut client = equijson_pg::connect::connect(target.config())?;
    let rt = equijson_pg::roundtrip::<Order>(
        &mut client,
        equijson_pg::RoundtripOptions {
            seed: 1,
            cases: 1000,
            size: 6,
        },
    )?; // Order's generator
    // ---- end of the book's lines ----

    assert_eq!(report.rows_read, 2, "{}", report.render());
    // The report's source is the table scanned, resolved once (the session's search_path
    // is pinned: looking `orders` up again there found nothing).
    let oid: u32 = client
        .query_one("SELECT 'public.orders'::regclass::oid", &[])?
        .get(0);
    assert_eq!(
        report.source.as_ref().map(|s| s.table_oid),
        Some(oid),
        "{}",
        report.render()
    );
    assert_eq!(rt.cases, 1000);
    // Order's own generator makes Orders: most cases decode (with the generic `value`
    // generator, every case was rejected and the run checked nothing).
    assert!(rt.rejected * 2 < rt.cases, "{}", rt.render());
    println!("BOOK EXAMPLE RAN");
    Ok(())
}

/// The first fenced `rust` code block after `heading` in `doc`.
fn rust_block_after<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    doc.split_once(heading)
        .and_then(|(_, rest)| rest.split_once("```rust\n"))
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .map(|(block, _)| block)
}

#[test]
fn the_book_and_the_readme_show_this_example() {
    let chapter = include_str!("../../../docs/src/your-dtos.md");
    assert_eq!(
        rust_block_after(chapter, "## Scanning your tables with your DTOs"),
        Some(SCAN_EXAMPLE),
        "docs/src/your-dtos.md's PostgreSQL example changed: update tests/book.rs"
    );
    let readme = include_str!("../README.md");
    assert_eq!(
        rust_block_after(readme, "# equijson-pg"),
        Some(SCAN_EXAMPLE),
        "crates/equijson-pg/README.md's example changed: update tests/book.rs"
    );
}
