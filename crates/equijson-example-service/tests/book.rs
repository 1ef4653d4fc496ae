//! The "Your DTOs" chapter's declaration examples (`docs/src/your-dtos.md`), compiled and
//! run here, and held to the chapter's text (`crates/equijson/tests/readme.rs` fails on a
//! rust block of the book that no test holds).

use equijson_check::decode::{Accept, Class, DecodePath};
use equijson_check::dto::{Dto, Refactor};
use equijson_example_service::{AuditEvent, decode_batch_after, decode_batch_before};

const FIRST_RUN: &str = r"#[derive(serde::Serialize, serde::Deserialize)]
struct Order { id: u64, customer: String, total_cents: u64 }

impl equijson_check::dto::Dto for Order {}

#[test]
fn orders_decode_the_same_way_everywhere() {
    equijson_check::props::check_dto::<Order>();
}";

#[derive(serde::Serialize, serde::Deserialize)]
struct Order {
    id: u64,
    customer: String,
    total_cents: u64,
}

impl equijson_check::dto::Dto for Order {}

#[test]
#[should_panic(expected = "decode paths agree")]
fn orders_decode_the_same_way_everywhere() {
    equijson_check::props::check_dto::<Order>();
}

const DECLARATION: &str = r##"use equijson_check::decode::{Accept, Class, DecodePath};
use equijson_check::dto::Dto;

impl Dto for Settings {
    // The service reads the jsonb column's binary form and the admin API's request text.
    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::ErrorSplit,
                only: &[DecodePath::Direct],
                reason: "the admin API refuses 1e2 for an integer; jsonb reads it as 100",
            },
            Accept {
                class: Class::ErrorSplit,
                only: &[DecodePath::JsonbWire],
                reason: "what jsonb refuses (\\u0000) never reaches the service",
            },
            Accept {
                class: Class::DuplicateName,
                only: &[],
                reason: "the admin API refuses a settings document with a repeated name",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "an absent retention_days is stored back as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[r#"{"tenant":"acme","limits":{"users":250},"quota_bytes":36893488147419103232}"#]
    }
}

#[test]
fn settings_decode_the_same_way() {
    equijson_check::props::check_dto::<Settings>();
}"##;

mod declaration {
    use std::collections::BTreeMap;

    use equijson_check::decode::{Accept, Class, DecodePath};
    use equijson_check::dto::Dto;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct Settings {
        tenant: String,
        limits: BTreeMap<String, i64>,
        quota_bytes: u128,
        #[serde(default)]
        retention_days: Option<u32>,
    }

    impl Dto for Settings {
        // The service reads the jsonb column's binary form and the admin API's request text.
        fn paths() -> &'static [DecodePath] {
            &[DecodePath::Direct, DecodePath::JsonbWire]
        }

        fn accepts() -> &'static [Accept] {
            &[
                Accept {
                    class: Class::ErrorSplit,
                    only: &[DecodePath::Direct],
                    reason: "the admin API refuses 1e2 for an integer; jsonb reads it as 100",
                },
                Accept {
                    class: Class::ErrorSplit,
                    only: &[DecodePath::JsonbWire],
                    reason: "what jsonb refuses (\\u0000) never reaches the service",
                },
                Accept {
                    class: Class::DuplicateName,
                    only: &[],
                    reason: "the admin API refuses a settings document with a repeated name",
                },
                Accept {
                    class: Class::RoundTripLoss,
                    only: &[],
                    reason: "an absent retention_days is stored back as null",
                },
            ]
        }

        fn examples() -> &'static [&'static str] {
            &[r#"{"tenant":"acme","limits":{"users":250},"quota_bytes":36893488147419103232}"#]
        }
    }

    #[test]
    fn settings_decode_the_same_way() {
        equijson_check::props::check_dto::<Settings>();
    }
}

const REFACTOR: &str = r#"#[derive(serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
struct AuditBatch(Vec<AuditEvent>);

impl Dto for AuditBatch {
    // Only the refactor is under test: BEFORE against AFTER.
    fn paths() -> &'static [DecodePath] {
        &[]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::FloatMisread,
                only: &[],
                reason: "latency_ms is a measurement: a misread last digit does not matter",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "absent tags come back as [], absent actors as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[equijson_example_service::BATCH_EXAMPLE]
    }

    fn refactor() -> Option<Refactor<Self>> {
        Some(Refactor {
            // from_slice::<Value> then from_value::<Vec<AuditEvent>>
            before: |b| decode_batch_before(b).map(Self).map_err(|e| e.to_string()),
            // from_slice::<Vec<AuditEvent>>
            after: |b| decode_batch_after(b).map(Self).map_err(|e| e.to_string()),
        })
    }
}

let outcome = equijson_check::props::run_dto::<AuditBatch>(1, 256);
let failure = outcome.first_failure.expect("BEFORE and AFTER differ");
println!("{}\n{}", failure.shrunk, failure.detail);"#;

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
struct AuditBatch(Vec<AuditEvent>);

impl Dto for AuditBatch {
    // Only the refactor is under test: BEFORE against AFTER.
    fn paths() -> &'static [DecodePath] {
        &[]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::FloatMisread,
                only: &[],
                reason: "latency_ms is a measurement: a misread last digit does not matter",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "absent tags come back as [], absent actors as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[equijson_example_service::BATCH_EXAMPLE]
    }

    fn refactor() -> Option<Refactor<Self>> {
        Some(Refactor {
            // from_slice::<Value> then from_value::<Vec<AuditEvent>>
            before: |b| decode_batch_before(b).map(Self).map_err(|e| e.to_string()),
            // from_slice::<Vec<AuditEvent>>
            after: |b| decode_batch_after(b).map(Self).map_err(|e| e.to_string()),
        })
    }
}

#[test]
#[allow(clippy::print_stdout, reason = "the book's lines")]
fn the_refactor_example_finds_the_difference() {
    // ---- the book's lines ----
    let outcome = equijson_check::props::run_dto::<AuditBatch>(1, 256);
    let failure = outcome.first_failure.expect("BEFORE and AFTER differ");
    println!("{}\n{}", failure.shrunk, failure.detail);
    // ---- end of the book's lines ----
    assert!(
        failure.detail.contains("decoded by before; rejected by:"),
        "{}",
        failure.detail
    );
}

/// The service's own binary, as the book's "Your own binary" shows it: `src/main.rs` holds
/// these lines (`the_binary_is_built_from_the_books_lines`), and `tests/binary.rs` and
/// `tests/scan.rs` run the binary they build.
const OWN_BINARY: &str = r"fn main() -> std::process::ExitCode {
    equijson_cli::Cli::new()
        .dto::<AuditEvent>()
        .dto::<Settings>()
        .dto::<AuditBatch>()
        .main()
}";

#[test]
fn the_binary_is_built_from_the_books_lines() {
    let main = include_str!("../src/main.rs");
    assert!(
        main.contains(&format!("\n{OWN_BINARY}\n")),
        "src/main.rs no longer holds the book's lines: update OWN_BINARY and docs/src/your-dtos.md"
    );
}

/// The `example-service ...` lines of the chapter's `sh` blocks, comments removed.
fn binary_lines(chapter: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in chapter.lines() {
        if let Some(info) = line.strip_prefix("```") {
            in_sh = !in_sh && info.trim() == "sh";
            continue;
        }
        if in_sh && line.starts_with("example-service ") {
            lines.push(line.split(" #").next().unwrap_or(line).trim_end());
        }
    }
    lines
}

#[test]
fn the_books_binary_commands_exist() {
    // Every subcommand and `--option` of the `example-service` lines of the chapter and of
    // the front page is in the built binary's `--help` of that subcommand.
    let chapter = include_str!("../../../docs/src/your-dtos.md");
    let readme = include_str!("../../../README.md");
    let lines = [binary_lines(chapter), binary_lines(readme)].concat();
    assert!(lines.len() >= 3, "{lines:?}");
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let sub: Vec<&str> = words
            .iter()
            .take_while(|w| !w.starts_with('-'))
            .copied()
            .collect();
        let help = std::process::Command::new(env!("CARGO_BIN_EXE_example-service"))
            .args(&sub)
            .arg("--help")
            .output()
            .expect("run example-service --help");
        assert_eq!(help.status.code(), Some(0), "{line}");
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(
            help.contains(&format!("Usage: example-service {}", sub.join(" "))),
            "{line}: {help}"
        );
        for option in words.iter().filter(|w| w.starts_with("--")) {
            assert!(
                help.contains(&format!("{option} ")),
                "{line}: {option} is not in its --help"
            );
        }
    }
}

#[test]
fn the_book_shows_these_examples() {
    let chapter = include_str!("../../../docs/src/your-dtos.md");
    for (name, block) in [
        ("FIRST_RUN", FIRST_RUN),
        ("DECLARATION", DECLARATION),
        ("REFACTOR", REFACTOR),
        ("OWN_BINARY", OWN_BINARY),
    ] {
        assert!(
            chapter.contains(&format!("```rust\n{block}\n```")),
            "docs/src/your-dtos.md no longer shows {name}: update crates/equijson-example-service/tests/book.rs"
        );
    }
}

#[test]
fn the_chapters_saved_failure_is_the_one_the_first_run_saves() {
    // `orders_decode_the_same_way_everywhere` above saves (or finds already saved) this file.
    let chapter = include_str!("../../../docs/src/your-dtos.md");
    let shown = chapter
        .lines()
        .find(|l| l.starts_with("cc seed="))
        .expect("the chapter shows a saved case");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("equijson-regressions");
    let saved = std::fs::read_to_string(dir.join("Order.txt")).expect("Order's saved failures");
    assert!(
        saved.lines().any(|l| l == shown),
        "docs/src/your-dtos.md shows {shown:?}; equijson-regressions/Order.txt holds:\n{saved}"
    );
}
