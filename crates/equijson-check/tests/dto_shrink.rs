//! The shrinker keeps the original finding: a shrunk case fails with the same class, on
//! the same paths, at the same place (pointers of the changes, or the failing paths'
//! messages) as the case first found.

use std::collections::BTreeMap;

use equijson_check::decode::{Class, Report};
use equijson_check::dto::Dto;
use serde::{Deserialize, Serialize};

/// The issue's settings document, decoded through every path.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    tenant: String,
    limits: BTreeMap<String, i64>,
    quota_bytes: u128,
    #[serde(default)]
    retention_days: Option<u32>,
    #[serde(default)]
    note: Option<String>,
}

impl Dto for Settings {
    fn examples() -> &'static [&'static str] {
        &[
            r#"{"tenant":"acme","limits":{"users":250},"quota_bytes":36893488147419103232,"retention_days":30,"note":"x"}"#,
        ]
    }
}

/// The first unaccepted finding: class, every path named in it, and where.
fn finding(r: &Report) -> Option<(Class, Vec<String>, Vec<String>)> {
    let f = r.findings.iter().find(|f| !f.accepted)?;
    let mut paths: Vec<String> = f
        .paths
        .iter()
        .chain(&f.against)
        .chain(f.errors.iter().map(|(p, _)| p))
        .map(|p| p.name().to_owned())
        .collect();
    paths.sort();
    let mut places: Vec<String> = if f.class == Class::ErrorSplit {
        // The reason, without the position or the value it quotes.
        f.errors
            .iter()
            .map(|(p, m)| {
                let m = m.split(" at line ").next().unwrap_or(m);
                let kept: String = m.split('`').step_by(2).collect::<Vec<_>>().join("_");
                format!("{p}: {kept}")
            })
            .collect()
    } else {
        f.changes.iter().map(|c| c.pointer.clone()).collect()
    };
    places.sort();
    places.dedup();
    Some((f.class, paths, places))
}

#[test]
fn shrunk_cases_keep_the_original_finding() {
    let mut failures = 0;
    for seed in 0..24u64 {
        let outcome = equijson_check::props::run_dto::<Settings>(seed, 40);
        let Some(f) = outcome.first_failure else {
            continue;
        };
        if f.property != equijson_check::props::Property::PathsAgree {
            continue;
        }
        failures += 1;
        let original = finding(&equijson_check::dto::check::<Settings>(
            f.original.as_bytes(),
        ));
        let shrunk = finding(&equijson_check::dto::check::<Settings>(f.shrunk.as_bytes()));
        assert_eq!(
            original, shrunk,
            "seed {seed} case {}: the shrunk case fails differently\noriginal: {}\nshrunk: {}",
            f.case, f.original, f.shrunk
        );
    }
    assert!(
        failures >= 10,
        "only {failures} failing runs: the test checks too little"
    );
}

#[test]
fn a_u128_beyond_2_64_stays_the_cause_after_shrinking() {
    // Regression: a case failing because `quota_bytes` is beyond 2^64 (the Value paths hold
    // it as a double) shrank to one that fails only because optional fields were removed.
    let mut seen = 0;
    for seed in 0..64u64 {
        let outcome = equijson_check::props::run_dto::<Settings>(seed, 40);
        let Some(f) = outcome.first_failure else {
            continue;
        };
        let original = equijson_check::dto::check::<Settings>(f.original.as_bytes());
        let about_quota = |r: &Report| {
            r.findings.iter().find(|f| !f.accepted).is_some_and(|f| {
                f.errors.iter().any(|(_, m)| m.contains("expected u128"))
                    || f.changes.iter().any(|c| c.pointer == "/quota_bytes")
            })
        };
        if !about_quota(&original) {
            continue;
        }
        seen += 1;
        let shrunk = equijson_check::dto::check::<Settings>(f.shrunk.as_bytes());
        assert!(
            about_quota(&shrunk),
            "seed {seed}: shrunk away from quota_bytes\noriginal: {}\nshrunk: {}\n{}",
            f.original,
            f.shrunk,
            shrunk.render(equijson_check::diff::DiffStyle::default())
        );
    }
    assert!(
        seen > 0,
        "no case failed on quota_bytes: the regression is not exercised"
    );
}
