//! Property runs: deterministic per seed, the digests recorded in tests/data/props-digests.tsv
//! (which the wasm32 tests reproduce in Node), shrinking, and the catalogue's verdicts.
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use equijson_check::dto;
use equijson_check::generate::{Json, Rng};
use equijson_check::props::{Property, PropsConfig, run};

const DIGESTS: &str = include_str!("../../../tests/data/props-digests.tsv");

fn cfg(seed: u64, cases: u64, dto_name: &str) -> PropsConfig {
    PropsConfig::new(seed, cases, Some(dto::find(dto_name).unwrap()))
}

#[test]
fn recorded_digests_are_reproduced() {
    let mut rows = 0;
    for line in DIGESTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let mut c = cfg(f[0].parse().unwrap(), f[1].parse().unwrap(), f[2]);
        c.size = f[3].parse().unwrap();
        let out = run(&c, |_, _| {});
        assert_eq!(out.passed.to_string(), f[4], "passed, row {line}");
        assert_eq!(out.failed.to_string(), f[5], "failed, row {line}");
        assert_eq!(out.digest, f[6], "digest, row {line}");
        rows += 1;
    }
    assert!(rows >= 6, "only {rows} digest rows");
}

#[test]
fn random_stream_is_recorded() {
    let mut r = Rng::new(0);
    let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
    let want: Vec<u64> = include_str!("../../../tests/data/rng-seed0.txt")
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn same_seed_same_run_other_seed_other_cases() {
    let a = run(&cfg(11, 50, "contact"), |_, _| {});
    let b = run(&cfg(11, 50, "contact"), |_, _| {});
    let c = run(&cfg(12, 50, "contact"), |_, _| {});
    assert_eq!((a.digest.as_str(), a.passed), (b.digest.as_str(), b.passed));
    assert_ne!(a.digest, c.digest);
    // A case can be replayed alone: case i of a run is independent of the cases before it.
    let whole = equijson_check::props::case(&cfg(11, 50, "contact"), 37);
    let alone = equijson_check::props::case(&cfg(11, 38, "contact"), 37);
    assert_eq!(whole, alone);
}

#[test]
fn progress_is_reported_for_every_case() {
    let mut seen = Vec::new();
    let out = run(&cfg(1, 20, "value"), |done, _| seen.push(done));
    assert_eq!(seen, (1..=20).collect::<Vec<u64>>());
    assert_eq!(out.passed + out.failed, 20);
}

#[test]
fn catalogue_dtos_hold_their_properties() {
    for name in ["contact", "drive-policy", "event-context", "value"] {
        let out = run(&cfg(2026, 300, name), |_, _| {});
        let detail = out
            .first_failure
            .as_ref()
            .map(|f| format!("{}\n{}\n{}", f.original, f.shrunk, f.detail));
        assert_eq!(out.failed, 0, "{name}: {detail:?}");
    }
}

/// `articles` reads its ranking score as an f64 and does not declare float misreads: under
/// default `serde_json` (this build) its 17-digit scores fail, shrunk to the misread number.
#[test]
fn articles_fail_on_float_misreads_under_default_serde_json() {
    assert!(!equijson_check::decode::serde_json_numbers().float_roundtrip);
    let out = run(&cfg(2026, 300, "articles"), |_, _| {});
    assert!(out.failed > 0 && out.passed > 0, "{out:?}");
    let f = out.first_failure.unwrap();
    assert_eq!(f.property, Property::PathsAgree);
    assert!(f.detail.contains("float-misread: "), "{}", f.detail);
    assert!(f.detail.contains("float_roundtrip"), "{}", f.detail);
}

#[test]
fn the_divergent_dto_fails_and_shrinks_to_a_small_counterexample() {
    let out = run(&cfg(7, 100, "ledger-entry"), |_, _| {});
    assert!(out.failed > 0);
    let f = out.first_failure.unwrap();
    assert_eq!(f.property, Property::PathsAgree);
    assert!(f.steps > 0);
    assert!(
        f.shrunk.len() < f.original.len(),
        "{} !< {}",
        f.shrunk,
        f.original
    );
    // The shrunk document still diverges, and is a small object.
    let spec = dto::find("ledger-entry").unwrap();
    assert!((spec.check)(f.shrunk.as_bytes()).is_divergent());
    assert!(f.detail.contains("verdict: divergent"), "{}", f.detail);
}

/// A complexity measure under which every candidate must be strictly smaller:
/// null < 0 < 1 < other numbers, shorter texts, fewer values.
fn cost(j: &Json) -> usize {
    match j {
        Json::Null => 1,
        Json::Bool(_) => 2,
        Json::Number(n) => 2 + n.len() + usize::from(n != "0"),
        Json::String(s) => 2 + s.chars().count(),
        Json::Array(items) => 2 + items.iter().map(cost).sum::<usize>(),
        Json::Object(members) => {
            2 + members
                .iter()
                .map(|(k, v)| k.len() + cost(v))
                .sum::<usize>()
        }
    }
}

#[test]
fn shrinking_candidates_are_strictly_smaller() {
    let doc = Json::Object(vec![
        (
            "a".into(),
            Json::Array(vec![
                Json::Number("12.5".into()),
                Json::String("xyz".into()),
            ]),
        ),
        ("b".into(), Json::Bool(true)),
    ]);
    let mut frontier = vec![doc];
    let mut checked = 0;
    // Depth-first over the candidate tree, far enough to reach the leaves.
    while let Some(d) = frontier.pop().filter(|_| checked < 5_000) {
        for c in d.shrink() {
            assert!(cost(&c) < cost(&d), "{c:?} is not smaller than {d:?}");
            checked += 1;
            frontier.push(c);
        }
    }
    assert!(checked > 50, "only {checked} candidates");
    // And shrinking terminates from any number spelling (no 0 <-> 1 cycle).
    let (small, _) = equijson_check::generate::shrink(
        Json::Number("123.456".into()),
        Json::shrink,
        |_| true,
        1000,
    );
    assert_eq!(small, Json::Null);
}

#[test]
fn stepped_run_equals_the_whole_run() {
    for (seed, dto_name) in [(7, "ledger-entry"), (42, "contact"), (1, "value")] {
        let c = cfg(seed, 60, dto_name);
        let whole = run(&c, |_, _| {});
        let mut stepped = equijson_check::props::PropsRun::new(c);
        let mut chunk = 1;
        while !stepped.is_finished() {
            let before = stepped.done();
            assert_eq!(stepped.step(chunk), stepped.done() - before);
            chunk = chunk * 5 % 13 + 1;
        }
        assert_eq!(stepped.step(10), 0, "nothing left to run");
        let out = stepped.finish();
        assert_eq!(
            (out.cases, out.passed, out.failed, &out.digest),
            (whole.cases, whole.passed, whole.failed, &whole.digest)
        );
        assert_eq!(
            out.first_failure.map(|f| f.shrunk),
            whole.first_failure.map(|f| f.shrunk)
        );
    }
}

#[test]
fn case_text_is_what_the_digest_hashes() {
    use sha2::{Digest, Sha256};
    let c = cfg(3, 25, "event-context");
    let mut h = Sha256::new();
    for i in 0..25 {
        h.update(
            equijson::canonicalize(equijson_check::props::case_text(&c, i).as_bytes()).unwrap(),
        );
        h.update(b"\n");
    }
    let hex = h.finalize().iter().fold(String::new(), |mut s, b| {
        use std::fmt::Write as _;
        let _ = write!(s, "{b:02x}");
        s
    });
    assert_eq!(hex, run(&c, |_, _| {}).digest);
    assert_eq!(c.dto_name(), "event-context");
    assert_eq!(PropsConfig::new(0, 0, None).dto_name(), "value");
}

#[test]
fn error_kind_names_name_the_policy_classes() {
    for (text, code) in [
        (&br#"{"a":1,"\u0061":2}"#[..], "DuplicateKey"),
        (br#"["\ud800"]"#, "LoneSurrogate"),
        (b"[1e400]", "NumberOutOfRange"),
        (b"[1,]", "TrailingComma"),
    ] {
        let e = equijson::canonicalize(text).unwrap_err();
        assert_eq!(e.kind().name(), code);
    }
}
