//! `serde_json` as the user has it: the workspace's manifests never change how a user's
//! `serde_json` reads numbers, the `equijson` binary says which mode it decoded under, and
//! the `float-misread` class is found under default `serde_json` (this binary) and not under
//! `float_roundtrip` (the separate crate `tests/float-roundtrip-user`, built here).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `serde_json` features that change how a user's program reads JSON when we enable them.
const FORBIDDEN_FEATURES: [&str; 3] = ["float_roundtrip", "arbitrary_precision", "preserve_order"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn equijson(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn equijson");
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait")
}

fn cargo(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run cargo");
    assert!(
        o.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("cargo prints UTF-8")
}

/// The workspace's packages from `cargo metadata --no-deps`.
fn packages() -> Vec<serde_json::Value> {
    let meta: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]))
    .expect("cargo metadata is JSON");
    meta["packages"].as_array().expect("packages").clone()
}

/// A package is published unless its manifest says `publish = false` (metadata: `[]`).
fn is_published(p: &serde_json::Value) -> bool {
    !p["publish"].as_array().is_some_and(Vec::is_empty)
}

/// The text of a manifest without its comments (a `#` outside a string starts one).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut in_string = false;
            let mut end = line.len();
            for (i, c) in line.char_indices() {
                match c {
                    '"' => in_string = !in_string,
                    '#' if !in_string => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            &line[..end]
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_manifest_enables_a_serde_json_feature_users_would_inherit() {
    let mut manifests = vec![root().join("Cargo.toml")];
    for p in packages() {
        manifests.push(PathBuf::from(p["manifest_path"].as_str().expect("path")));
    }
    assert!(manifests.len() >= 4, "{manifests:?}");
    for m in &manifests {
        let text = without_comments(&std::fs::read_to_string(m).expect("read manifest"));
        for f in FORBIDDEN_FEATURES {
            assert!(
                !text.contains(f),
                "{} enables serde_json's `{f}`: Cargo unifies features, so every user of \
                 our crates would read JSON differently from their own service",
                m.display()
            );
        }
    }
}

#[test]
fn published_crates_pin_nothing_with_an_equals_requirement() {
    let published: Vec<_> = packages().into_iter().filter(is_published).collect();
    let names: Vec<&str> = published
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(names.contains(&"equijson"), "{names:?}");
    for p in &published {
        for d in p["dependencies"].as_array().expect("dependencies") {
            // Dev-dependencies are not part of what a user builds.
            if d["kind"].as_str() == Some("dev") {
                continue;
            }
            let req = d["req"].as_str().unwrap_or_default();
            assert!(
                !req.trim_start().starts_with('='),
                "{} pins {} with `{req}`: a user's other requirement on it then cannot \
                 resolve (use a caret requirement; Cargo.lock pins our own builds)",
                p["name"],
                d["name"]
            );
            if d["name"] == "serde_json" {
                for f in d["features"].as_array().expect("features") {
                    assert!(
                        !FORBIDDEN_FEATURES.contains(&f.as_str().unwrap_or_default()),
                        "{} enables serde_json's {f}",
                        p["name"]
                    );
                }
            }
        }
    }
}

#[test]
fn resolved_serde_json_features_of_each_published_crate_are_the_default_ones() {
    for p in packages().into_iter().filter(is_published) {
        let name = p["name"].as_str().expect("name").to_owned();
        // What a user who adds this crate builds: its normal dependencies, features unified.
        let tree = cargo(&[
            "tree",
            "--offline",
            "--locked",
            "-p",
            &name,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p} [{f}]",
        ]);
        for line in tree.lines().filter(|l| l.starts_with("serde_json v")) {
            for f in FORBIDDEN_FEATURES {
                assert!(
                    !line.contains(f),
                    "{name} builds serde_json with `{f}`: {line}"
                );
            }
        }
    }
}

#[test]
fn the_rfc_8785_library_stands_alone() {
    // What a signing or JavaScript-interop user adds with `equijson`: no serde_json, no sha2.
    let tree = cargo(&[
        "tree",
        "--offline",
        "--locked",
        "-p",
        "equijson",
        "-e",
        "normal",
        "--prefix",
        "none",
    ]);
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        names.contains(&"serde") && names.contains(&"zmij"),
        "{tree}"
    );
    for absent in ["serde_json", "sha2", "equijson-check"] {
        assert!(
            !names.contains(&absent),
            "equijson depends on {absent}:\n{tree}"
        );
    }
}

/// An `articles` document whose one score is `score`.
fn article(score: &str) -> String {
    format!(
        r#"[{{"id":1,"slug":"s","title":"t","body":"","tags":[],"author":{{"id":7,"name":"A"}},"published_at":null,"word_count":0,"score":{score}}}]"#
    )
}

#[test]
fn decode_under_default_serde_json_finds_float_misreads() {
    // (number, the double default serde_json 1.0.154 reads it as)
    let cases = [
        ("15.509858803567319", "15.50985880356732"),
        ("122.65352088450729", "122.65352088450727"),
    ];
    for (number, misread) in cases {
        let o = equijson(&["decode", "--dto", "articles"], article(number).as_bytes());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("serde_json numbers: default (fast, not correctly rounded)\n"),
            "{out}"
        );
        assert_eq!(o.status.code(), Some(1), "{out}");
        let correct: f64 = number.parse().expect("number");
        let read: f64 = misread.parse().expect("number");
        assert_ne!(correct.to_bits(), read.to_bits());
        let line = format!(
            "/0/score: {number} read as {misread} ({:#018x}), correctly rounded {number} ({:#018x})",
            read.to_bits(),
            correct.to_bits()
        );
        assert!(out.contains("float-misread: "), "{out}");
        assert!(out.contains(&line), "{line} not in:\n{out}");
        assert!(out.contains("float_roundtrip"), "the fix is named: {out}");
        assert!(out.contains("decimal type"), "{out}");
        // A short number is read exactly: no finding.
        let ok = equijson(&["decode", "--dto", "articles"], article("4.25").as_bytes());
        assert_eq!(ok.status.code(), Some(0));
        // --accept float-misreads accepts them, and the report says who did.
        let accepted = equijson(
            &["decode", "--dto", "articles", "--accept", "float-misreads"],
            article(number).as_bytes(),
        );
        let text = String::from_utf8_lossy(&accepted.stdout);
        assert_eq!(accepted.status.code(), Some(0), "{text}");
        assert!(
            text.contains("float-misread (accepted by the caller)")
                && !text.contains("accepted by the DTO"),
            "{text}"
        );
    }
}

#[test]
fn props_reports_the_serde_json_number_mode() {
    let o = equijson(&["props", "--seed", "1", "--cases", "3"], b"");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("serde_json numbers: default (fast, not correctly rounded)\n"),
        "{out}"
    );
}

#[test]
fn a_float_roundtrip_build_finds_no_float_misread() {
    // Its own workspace, lockfile and target dir: float_roundtrip must not reach ours.
    let dir = root().join("tests/float-roundtrip-user");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join("float-roundtrip-user");
    let o = Command::new(env!("CARGO"))
        .args(["test", "--locked", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("run cargo test on tests/float-roundtrip-user");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{all}");
    assert!(
        all.contains("the_probe_reports_float_roundtrip ... ok"),
        "{all}"
    );
    assert!(
        all.contains("no_float_misread_under_float_roundtrip ... ok"),
        "{all}"
    );
    // The divergence table and its f32 tests, in the mode they were written for.
    for test in [
        "divergences::table_of_divergences ... ok",
        "divergences::f32_value_split_points_at_the_field ... ok",
        "divergences::infinite_f32_is_unencodable_not_failed ... ok",
    ] {
        assert!(all.contains(test), "{test} did not run: {all}");
    }
}
