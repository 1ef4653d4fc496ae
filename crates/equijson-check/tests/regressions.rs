//! Saved failures of the test one-liner (as proptest's `proptest-regressions/`): a failure
//! is written to the file, replayed first by every later run, and a malformed file is an
//! error naming its line.

use std::path::PathBuf;

use equijson_check::decode::{Accept, Class, DecodePath};
use equijson_check::dto::{Dto, Refactor};
use equijson_check::props::{EnvConfig, run_dto, try_check_dto_with};
use serde::{Deserialize, Serialize};

/// BEFORE reads the value as written; AFTER truncates it to 6 decimals: a difference that
/// some generated values show and others (`1.5`) do not.
#[derive(Serialize, Deserialize)]
struct Reading {
    value: f64,
}

impl Dto for Reading {
    fn name() -> &'static str {
        "saved-reading"
    }
    fn paths() -> &'static [DecodePath] {
        &[]
    }
    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "unknown members are dropped",
            },
            Accept {
                class: Class::DuplicateName,
                only: &[],
                reason: "documents with a repeated name are refused before decoding",
            },
        ]
    }
    fn refactor() -> Option<Refactor<Self>> {
        Some(Refactor {
            before: |b| serde_json::from_slice(b).map_err(|e| e.to_string()),
            after: |b| {
                let r: Self = serde_json::from_slice(b).map_err(|e| e.to_string())?;
                Ok(Self {
                    value: (r.value * 1e6).trunc() / 1e6,
                })
            },
        })
    }
}

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "equijson-regressions-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A seed whose one case fails (`fails`) or passes having been decoded (`!fails`).
fn one_case_seed(fails: bool) -> u64 {
    (0..500)
        .find(|&seed| {
            let o = run_dto::<Reading>(seed, 1);
            if fails {
                o.failed == 1
            } else {
                o.passed == 1 && o.rejected == 0
            }
        })
        .unwrap_or_else(|| panic!("no seed in 0..500 whose one case fails={fails}"))
}

/// The message without its first line and without the `saved:` line.
fn body(message: &str) -> Vec<&str> {
    message
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("saved: "))
        .collect()
}

#[test]
fn a_failure_is_saved_and_replayed_first_by_a_run_that_alone_would_pass() {
    let dir = temp_dir("replay");
    let file = dir.join("saved-reading.txt");
    let (failing, passing) = (one_case_seed(true), one_case_seed(false));

    // A run that fails writes its case, with a header saying to commit the file.
    let first = try_check_dto_with::<Reading>(
        EnvConfig {
            seed: failing,
            cases: 1,
        },
        Some(&file),
    )
    .expect_err("the seed's case fails")
    .to_string();
    let text = std::fs::read_to_string(&file).expect("the failure is saved");
    assert!(text.starts_with("# "), "{text}");
    assert!(text.contains("Commit this file"), "{text}");
    let cases: Vec<&str> = text.lines().filter(|l| l.starts_with("cc ")).collect();
    assert_eq!(cases.len(), 1, "one case a line, one case saved:\n{text}");
    assert!(
        cases[0].starts_with(&format!(
            "cc seed={failing:#x} case=0 size=6 # fails: decode paths agree; shrinks to {{"
        )),
        "{text}"
    );
    let line = text.lines().position(|l| l.starts_with("cc ")).unwrap_or(0) + 1;
    assert!(
        first.contains(&format!("saved: {}:{line} ", file.display())),
        "{first}"
    );

    // Alone, the other seed passes; with the saved case it fails at once, the same way.
    let alone = run_dto::<Reading>(passing, 1);
    assert!(alone.first_failure.is_none());
    let again = try_check_dto_with::<Reading>(
        EnvConfig {
            seed: passing,
            cases: 1,
        },
        Some(&file),
    )
    .expect_err("the saved case is replayed and fails again");
    assert!(
        matches!(again, equijson_check::props::PropsFailure::SavedCaseFailed { line: l, case: 0, .. } if l == line),
        "{again:?}"
    );
    let again = again.to_string();
    assert!(
        again.starts_with(&format!(
            "equijson: saved-reading: the case saved at {}:{line} (case 0 of seed {failing:#x}) fails again: decode paths agree\n",
            file.display()
        )),
        "{again}"
    );
    assert_eq!(body(&again), body(&first));
    // Nothing new was written: the replay stopped the run.
    assert_eq!(std::fs::read_to_string(&file).expect("still there"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_case_that_passes_is_kept() {
    let dir = temp_dir("kept");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("saved-reading.txt");
    let passing = one_case_seed(false);
    let text = format!("# a case that passes now\ncc seed={passing:#x} case=0 size=6\n");
    std::fs::write(&file, &text).expect("write");
    let outcome = try_check_dto_with::<Reading>(
        EnvConfig {
            seed: passing,
            cases: 1,
        },
        Some(&file),
    )
    .expect("the saved case passes, and so does the run");
    assert_eq!(outcome.passed, 1);
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_file_is_an_error_naming_its_line() {
    let dir = temp_dir("malformed");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("saved-reading.txt");
    std::fs::write(
        &file,
        "# header\ncc seed=0x1 case=0 size=6\n\ncc seed=0x1 case=zero size=6\n",
    )
    .expect("write");
    let e = try_check_dto_with::<Reading>(EnvConfig { seed: 1, cases: 1 }, Some(&file))
        .expect_err("the file is malformed");
    assert!(
        matches!(
            &e,
            equijson_check::props::PropsFailure::Saved(
                equijson_check::props::regressions::RegressionsError::Malformed { line: 4, .. }
            )
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!("{}:4: case=\"zero\" is not a number", file.display())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_file_nothing_is_written() {
    let failing = one_case_seed(true);
    let e = try_check_dto_with::<Reading>(
        EnvConfig {
            seed: failing,
            cases: 1,
        },
        None,
    )
    .expect_err("the case fails")
    .to_string();
    assert!(!e.contains("saved: "), "{e}");
}
