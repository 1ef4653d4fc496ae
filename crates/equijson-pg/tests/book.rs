//! The book's PostgreSQL example ("Your DTOs" › "Scanning your tables with your DTOs", also in
//! this crate's README), compiled and run against an ephemeral cluster, and held to both texts.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

/// The example's lines as `docs/src/your-dtos.md` and `crates/equijson-pg/README.md` show
/// them; `book_scan_example_runs` runs them (keep the two in step).
const SCAN_EXAMPLE: &str = r#"#[derive(serde::Deserialize, serde::Serialize)]
struct Order { id: u64, customer: String, total_cents: u64 }

const ACCEPTS: &[equijson_check::decode::Accept] = &[/* findings your service accepts */];

let target = equijson_pg::Target::from_url_or_env(None)?;      // URL, the environment or ephemeral
let opts = equijson_pg::ScanOptions { table: "orders".into(), column: "doc".into(),
                                      key: Some("id".into()), ..Default::default() };
let report = equijson_pg::scan::<Order>(target.config(), &opts, ACCEPTS)?;
assert!(report.complete && report.divergences == 0, "{}", report.render());

let mut client = equijson_pg::connect::connect(target.config())?;
let rt = equijson_pg::roundtrip::<Order>(&mut client,
    equijson_pg::RoundtripOptions { seed: 1, cases: 1000, size: 6 }, ACCEPTS)?;"#;

#[test]
// The book's own spelling: `..Default::default()`.
#[allow(clippy::default_trait_access)]
fn book_scan_example_runs() -> Result<(), Box<dyn std::error::Error>> {
    // ---- the book's lines ----
    #[derive(serde::Deserialize, serde::Serialize)]
    struct Order {
        id: u64,
        customer: String,
        total_cents: u64,
    }

    const ACCEPTS: &[equijson_check::decode::Accept] = &[/* findings your service accepts */];
    // ---- (not the book's: run only where the example can run) ----

    const TEST: &str = "book_scan_example_runs";
    if std::env::var_os("DATABASE_URL").is_some_and(|v| !v.is_empty()) {
        // The example would scan that server, and this test would create a table in it.
        pg_or_skip::skip(
            TEST,
            "DATABASE_URL is set; this test runs on an ephemeral cluster only",
        );
        return Ok(());
    }
    if !pg_or_skip::server_or_skip(TEST) {
        return Ok(());
    }

    // ---- the book's lines, continued ----
    let target = equijson_pg::Target::from_url_or_env(None)?; // URL, the environment or ephemeral
    // ---- (not the book's: the table the example scans) ----
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
        ACCEPTS,
    )?;
    // ---- end of the book's lines ----

    assert!(
        target.cluster().is_some(),
        "the example ran on an ephemeral cluster"
    );
    assert_eq!(report.rows_read, 2, "{}", report.render());
    assert_eq!(rt.cases, 1000);
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
