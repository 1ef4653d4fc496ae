//! End-to-end tests of the `equijson` binary: output framing, messages and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn equijson(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn equijson");
    // A command that fails before reading its input closes the pipe: that is fine here.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by signal")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("equijson-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write temp file");
    path.to_string_lossy().into_owned()
}

#[test]
fn stdin_to_canonical_bytes_without_newline() {
    let o = equijson(
        &["canon"],
        br#"{ "b": [1.0, 1E30, -0], "a": "\u00e9\u0041" }"#,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(o.stdout, "{\"a\":\"éA\",\"b\":[1,1e+30,0]}".as_bytes());
    let dash = equijson(&["canon", "-"], b"[ 1 ]");
    assert_eq!(dash.stdout, b"[1]");
}

#[test]
fn several_files_one_line_each_and_failures_keep_their_line() {
    let a = temp_file("a.json", br#"{"z":1,"y":2}"#);
    let bad = temp_file("bad.json", b"{\n  \"id\": 1,\n  \"id\": 2\n}");
    let b = temp_file("b.json", b"[\"x\"]");
    let o = equijson(&["canon", &a, &bad, &b], b"");
    assert_eq!(code(&o), 1);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"y\":2,\"z\":1}\n\n[\"x\"]\n"
    );
    assert_eq!(
        stderr(&o),
        format!("{bad}:3:3: error: duplicate object key \"id\"\n")
    );
}

#[test]
fn error_message_has_file_line_and_column() {
    let f = temp_file("dup.json", b"{\n  \"id\": 1,   \"id\": 2}");
    let o = equijson(&["canon", &f], b"");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        format!("{f}:2:14: error: duplicate object key \"id\"\n")
    );
    assert!(o.stdout.is_empty());

    let o = equijson(&["canon"], b"[1,\n 2,]");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "<stdin>:2:3: error: trailing comma before the closing bracket\n"
    );
}

#[test]
fn check_prints_nothing_and_sets_exit_code() {
    let o = equijson(&["canon", "--check"], b"{\"a\": 1}");
    assert_eq!((code(&o), o.stdout.len(), o.stderr.len()), (0, 0, 0));
    let o = equijson(&["canon", "--check"], b"{\"a\": NaN}");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "<stdin>:1:7: error: `NaN` is not a JSON value\n"
    );
}

#[test]
fn unreadable_file_is_exit_2_and_other_files_still_run() {
    let good = temp_file("good.json", b"[2, 1]");
    let o = equijson(&["canon", "/nonexistent/equijson.json", &good], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "\n[2,1]\n");
    assert!(
        stderr(&o).starts_with("/nonexistent/equijson.json: error: cannot read:"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_are_exit_2() {
    assert_eq!(code(&equijson(&["canon", "--no-such-flag"], b"")), 2);
    assert_eq!(code(&equijson(&["no-such-command"], b"")), 2);
    assert_eq!(code(&equijson(&["canon", "--max-depth", "many"], b"")), 2);
}

#[test]
fn help_explains_options_and_exit_codes() {
    for args in [&["--help"][..], &["canon", "--help"]] {
        let o = equijson(args, b"");
        assert_eq!(code(&o), 0);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("Exit codes:"), "{text}");
        assert!(text.contains("2  usage"), "{text}");
    }
    let text = String::from_utf8_lossy(&equijson(&["canon", "--help"], b"").stdout).into_owned();
    for flag in [
        "--check",
        "--reject-negative-zero",
        "--reject-inexact",
        "--reject-noncharacters",
        "--max-depth",
        "--lines",
        "--keep-going",
    ] {
        assert!(text.contains(flag), "{flag} missing from help");
    }
    // Escapes in the help text are shown, not sent to the terminal.
    assert!(text.contains(r"ends at \n (a \r before"), "{text}");
    assert!(!text.contains('\r'), "{text}");
}

#[test]
fn policy_flags_reach_the_core() {
    let table: &[(&[&str], &[u8], i32, &str)] = &[
        (&["canon"], b"-0", 0, "0"),
        (&["canon", "--reject-negative-zero"], b"-0", 1, ""),
        (&["canon"], b"9007199254740993", 0, "9007199254740992"),
        (&["canon", "--reject-inexact"], b"9007199254740993", 1, ""),
        (&["canon", "--reject-inexact"], b"0.1", 0, "0.1"),
        (&["canon"], "\"\u{ffff}\"".as_bytes(), 0, "\"\u{ffff}\""),
        (
            &["canon", "--reject-noncharacters"],
            "\"\u{ffff}\"".as_bytes(),
            1,
            "",
        ),
        (&["canon", "--max-depth", "2"], b"[[1]]", 0, "[[1]]"),
        (&["canon", "--max-depth", "2"], b"[[[1]]]", 1, ""),
    ];
    for (args, input, want_code, want_out) in table {
        let o = equijson(args, input);
        assert_eq!(code(&o), *want_code, "{args:?} {}", stderr(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), *want_out, "{args:?}");
        if *want_code == 1 {
            assert!(stderr(&o).starts_with("<stdin>:1:"), "{}", stderr(&o));
        }
    }
}

#[test]
fn hostile_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(1_000_000);
    let o = equijson(&["canon"], deep.as_bytes());
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("nesting too deep"), "{}", stderr(&o));
    // A raised limit must not crash either.
    let ok = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let o = equijson(&["canon", "--max-depth", "1000000"], ok.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(o.stdout, ok.as_bytes());
}

#[test]
fn binary_garbage_is_exit_1_with_a_position() {
    let o = equijson(&["canon"], b"\xEF\xBB\xBF{}");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "<stdin>:1:1: error: byte order mark (U+FEFF) is not allowed\n"
    );
    let o = equijson(&["canon"], b"[\"a\xFFb\"]");
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "<stdin>:1:4: error: invalid UTF-8\n");
}

#[test]
fn dtos_lists_the_catalogue_and_prints_samples() {
    let o = equijson(&["dtos"], b"");
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    for name in [
        "contact",
        "drive-policy",
        "event-context",
        "articles",
        "ledger-entry",
        "value",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{text}"
        );
    }
    let sample = equijson(&["dtos", "--sample", "contact"], b"");
    assert_eq!(code(&sample), 0);
    assert!(sample.stdout.starts_with(b"{\"id\""));
    assert_eq!(code(&equijson(&["dtos", "--sample", "nope"], b"")), 2);
}

#[test]
fn decode_classifies_and_sets_the_exit_code() {
    // Every path agrees on a contact sample: exit 0.
    let sample = equijson(&["dtos", "--sample", "contact"], b"").stdout;
    let o = equijson(&["decode", "--dto", "contact"], &sample);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stdout));
    assert!(String::from_utf8_lossy(&o.stdout).contains("verdict: equivalent"));

    // Duplicate keys: direct errors, DOM keeps the last value. Exit 1, both messages shown.
    let dup = br#"{"account":"a","amount_minor":1,"fx_rate":0.5,"memo":"m","memo":"n"}"#;
    let o = equijson(&["decode", "--dto", "ledger-entry"], dup);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 1, "{out}");
    assert!(out.contains("verdict: divergent"), "{out}");
    assert!(out.contains("error-split"), "{out}");
    assert!(out.contains("duplicate field `memo`"), "{out}");

    // Not JSON at all: every path rejects it. Exit 1, verdict rejected.
    let o = equijson(&["decode", "--dto", "articles"], b"[1,");
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stdout).contains("verdict: rejected"));

    // Unknown DTO and unreadable file: exit 2.
    assert_eq!(code(&equijson(&["decode", "--dto", "nope"], b"{}")), 2);
    assert_eq!(
        code(&equijson(
            &["decode", "--dto", "value", "/nonexistent/x.json"],
            b""
        )),
        2
    );
}

#[test]
fn decode_redacts_values() {
    let doc = br#"{"account":"sk_live_SECRET","amount_minor":18446744073709551616,"fx_rate":1.0000000596046448,"memo":"sk_live_SECRET"}"#;
    let o = equijson(&["decode", "--dto", "ledger-entry", "--redact"], doc);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 1);
    assert!(!out.contains("sk_live_SECRET"), "{out}");
    assert!(!out.contains("18446744073709551616"), "{out}");
    assert!(out.contains("/fx_rate"), "{out}");
    // A string value the jsonb path's PostgreSQL DETAIL quotes verbatim (missing comma).
    let o = equijson(
        &["decode", "--dto", "value", "--redact"],
        br#"{"memo": "a"  "sk_live_SECRET"}"#,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 1);
    assert!(!out.contains("sk_live_SECRET"), "{out}");
    assert!(out.contains("but found <16 chars>."), "{out}");
}

#[test]
fn props_prints_counts_and_a_digest_and_is_deterministic() {
    let run = |seed: &str| {
        equijson(
            &["props", "--seed", seed, "--cases", "40", "--dto", "contact"],
            b"",
        )
    };
    let a = run("5");
    assert_eq!(code(&a), 0, "{}", String::from_utf8_lossy(&a.stdout));
    let text = String::from_utf8_lossy(&a.stdout).into_owned();
    for line in [
        "dto: contact",
        "seed: 5",
        "cases: 40",
        "passed: 40",
        "failed: 0",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing:\n{text}");
    }
    // `rejected:` stands beside `passed:` and counts passed cases no path decoded: the
    // contact generator makes contacts, so fewer than all of them.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("passed: "))
        .unwrap();
    let rejected: u64 = lines[at + 1]
        .strip_prefix("rejected: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `rejected: N` after `passed:`:\n{text}"));
    assert!(rejected < 40, "{text}");
    let digest = text
        .lines()
        .find_map(|l| l.strip_prefix("digest: "))
        .unwrap();
    assert_eq!(digest.len(), 64);
    assert!(digest.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(run("5").stdout, a.stdout);
    assert_ne!(run("0x5").stdout, run("6").stdout);
    assert_eq!(
        run("0x5").stdout,
        a.stdout.as_slice(),
        "hex and decimal seeds are the same seed"
    );
}

#[test]
fn props_json_carries_the_counts_of_the_human_output() {
    let args = ["props", "--seed", "5", "--cases", "40", "--dto", "contact"];
    let human = equijson(&args, b"");
    let human = String::from_utf8_lossy(&human.stdout).into_owned();
    let field = |name: &str| {
        human
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name}: in\n{human}"))
            .to_owned()
    };
    let o = equijson(&[&args[..], &["--format", "json"]].concat(), b"");
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    for name in ["cases", "passed", "rejected", "failed"] {
        assert_eq!(v[name].to_string(), field(name), "{name}: {v}");
    }
    assert_eq!(v["digest"], field("digest").as_str());
    assert_eq!(v["seed"], "5");
    assert_eq!(v["failure"], serde_json::Value::Null);
    // A failing run: exit 1 and the shrunk case in `failure`.
    let o = equijson(
        &[
            "props",
            "--seed",
            "7",
            "--cases",
            "50",
            "--dto",
            "ledger-entry",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert!(v["failure"]["shrunk"].is_string(), "{v}");
}

#[test]
fn props_failure_prints_the_shrunk_counterexample_and_exits_1() {
    let o = equijson(
        &[
            "props",
            "--seed",
            "7",
            "--cases",
            "50",
            "--dto",
            "ledger-entry",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 1, "{text}");
    assert!(text.contains("first failure: case "), "{text}");
    let shrunk = text
        .lines()
        .find_map(|l| l.strip_prefix("shrunk:   "))
        .unwrap();
    let original = text
        .lines()
        .find_map(|l| l.strip_prefix("original: "))
        .unwrap();
    assert!(shrunk.len() <= original.len(), "{text}");
    assert!(text.contains("replay: equijson props --seed 7"), "{text}");
    // The shrunk document, fed to `decode`, diverges too.
    let o = equijson(&["decode", "--dto", "ledger-entry"], shrunk.as_bytes());
    assert_eq!(code(&o), 1);
    assert_eq!(code(&equijson(&["props", "--seed", "x"], b"")), 2);
}

#[test]
fn a_full_disk_is_exit_2_not_a_crash() {
    // Regression: `println!` panicked (exit 101) when standard output could not be written.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not on this platform
    };
    for args in [
        &["dtos"][..],
        &["props", "--seed", "1", "--cases", "3"],
        &["canon", "-"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full.try_clone().expect("dup /dev/full"))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // Commands that do not read stdin may exit before this write: ignore a closed pipe.
        let _ = child.stdin.take().expect("stdin").write_all(b"[1]");
        let o = child.wait_with_output().expect("wait");
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn stdin_twice_and_oversized_props_are_usage_errors() {
    let o = equijson(&["canon", "-", "-"], b"[1]");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("only once"), "{}", stderr(&o));
    assert_eq!(code(&equijson(&["props", "--size", "33"], b"")), 2);
}

#[test]
fn lines_canonicalizes_each_line_and_stops_at_the_first_invalid_one() {
    let input = b"{\"b\":1,\"a\":2}\n[1.0, 1e21]\r\n{\"x\":1,,}\n\"z\"\n";
    let o = equijson(&["canon", "--lines"], input);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    // Lines before the failure, then its empty line; nothing after it.
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"a\":2,\"b\":1}\n[1,1e+21]\n\n"
    );
    assert_eq!(
        stderr(&o),
        "<stdin>:3:8: error: unexpected character ',', expected a member name in double quotes\n"
    );
}

#[test]
fn lines_keep_going_skips_invalid_lines_and_reports_each() {
    let input = b"1\n{\"a\":1,\"a\":2}\n\n[\"\\ud800\"]\n  {\"\xc3\xa9\":0.10}  \n2";
    let o = equijson(&["canon", "--lines", "--keep-going"], input);
    assert_eq!(code(&o), 1);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "1\n{\"\u{e9}\":0.1}\n2\n"
    );
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with("<stdin>:2:8: error: duplicate object key \"a\""),
        "{err}"
    );
    assert!(lines[1].starts_with("<stdin>:3:1: error:"), "{err}");
    assert!(
        lines[2].starts_with("<stdin>:4:3: error: unpaired surrogate"),
        "{err}"
    );
    // All valid: exit 0, and the last line needs no newline.
    let o = equijson(&["canon", "--lines", "--keep-going"], b"{}\n[]");
    assert_eq!(code(&o), 0);
    assert_eq!(o.stdout, b"{}\n[]\n");
}

#[test]
fn check_lines_prints_nothing_and_names_the_line() {
    let file = temp_file("rows.jsonl", b"{\"a\":1}\n{\"a\":01}\n{\"b\":-0}\n");
    let o = equijson(&["canon", "--check", "--lines", &file], b"");
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).starts_with(&format!("{file}:2:6: error:")),
        "{}",
        stderr(&o)
    );
    let o = equijson(
        &[
            "canon",
            "--check",
            "--lines",
            "--reject-negative-zero",
            "--keep-going",
            &file,
        ],
        b"",
    );
    assert_eq!(stderr(&o).lines().count(), 2, "{}", stderr(&o));
    let ok = temp_file("ok.jsonl", b"{\"a\":1}\n[1,2]\n");
    assert_eq!(
        code(&equijson(&["canon", "--check", "--lines", &ok], b"")),
        0
    );
}

#[test]
fn lines_over_several_files_and_keep_going_needs_lines() {
    let a = temp_file("a.jsonl", b"{\"y\":1,\"x\":2}\n");
    let b = temp_file("b.jsonl", b"[3]\n[4]\n");
    let o = equijson(&["canon", "--lines", &a, &b], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(o.stdout, b"{\"x\":2,\"y\":1}\n[3]\n[4]\n");
    assert_eq!(code(&equijson(&["canon", "--keep-going"], b"1")), 2);
}

#[test]
fn a_second_value_gets_a_hint_towards_lines() {
    let o = equijson(&["canon"], b"{\"a\":1}\n{\"a\":2}\n");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("use `equijson canon --lines`"),
        "{}",
        stderr(&o)
    );
    // Trailing garbage that is no value gets no such hint.
    let o = equijson(&["canon"], b"{\"a\":1} }");
    assert_eq!(code(&o), 1);
    assert!(!stderr(&o).contains("--lines"), "{}", stderr(&o));
}

#[test]
fn reject_inexact_judges_the_decimal_the_output_denotes() {
    let table: &[(&[u8], i32, &str)] = &[
        (b"1e23", 0, "1e+23"),
        (b"0.1", 0, "0.1"),
        (b"2.50", 0, "2.5"),
        (b"9007199254740993", 1, ""),
        (
            b"0.1000000000000000055511151231257827021181583404541015625",
            1,
            "",
        ),
    ];
    for (input, want, out) in table {
        let o = equijson(&["canon", "--reject-inexact"], input);
        assert_eq!(code(&o), *want, "{}", String::from_utf8_lossy(input));
        assert_eq!(String::from_utf8_lossy(&o.stdout), *out);
        if *want == 1 {
            assert!(
                stderr(&o).contains("denotes a different value"),
                "{}",
                stderr(&o)
            );
        }
    }
    let help = equijson(&["canon", "--help"], b"");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("denotes a different decimal value"), "{help}");
}

/// Regression: a duplicate member name below the top level is named by its JSON pointer,
/// the same with `--check` and `--lines`.
#[test]
fn nested_duplicate_names_their_pointer() {
    let doc = b"{\n \"users\": [\n  {\"id\": 1},\n  {\"id\": 2, \"id\": 3}\n ]\n}";
    let want = "<stdin>:4:13: error: duplicate object key \"id\" at \"/users/1/id\"\n";
    for args in [&["canon"][..], &["canon", "--check"]] {
        let o = equijson(args, doc);
        assert_eq!(code(&o), 1);
        assert_eq!(stderr(&o), want, "{args:?}");
    }
    let o = equijson(&["canon", "--lines"], b"[1]\n[{\"a\":{\"b\":1,\"b\":2}}]\n");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "<stdin>:2:14: error: duplicate object key \"b\" at \"/0/a/b\"\n"
    );
    assert_eq!(o.stdout, b"[1]\n\n");
}

/// Subcommands build their arguments only when they run (`#[command(defer = true)]`, for
/// start-up time): each one's own `--help` must still open with the description the
/// top-level list gives it, and list its own options.
#[test]
fn each_subcommand_help_opens_with_its_listed_description() {
    let top = equijson(&["--help"], b"");
    assert_eq!(code(&top), 0);
    let text = String::from_utf8_lossy(&top.stdout).into_owned();
    let listed: Vec<(String, String)> = text
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| {
            let (name, about) = l.trim().split_once(' ')?;
            Some((name.to_owned(), about.trim().to_owned()))
        })
        .filter(|(name, _)| name != "help")
        .collect();
    assert!(listed.len() >= 7, "subcommands listed: {listed:?}");
    for (name, about) in &listed {
        let o = equijson(&[name, "--help"], b"");
        assert_eq!(code(&o), 0, "{name} --help: {}", stderr(&o));
        let help = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(help.lines().next(), Some(about.as_str()), "{name} --help");
        assert!(help.contains("Usage: equijson "), "{name} --help:\n{help}");
        assert!(help.contains("-h, --help"), "{name} --help:\n{help}");
    }
    // A deferred subcommand's own options are still parsed and checked.
    let o = equijson(&["canon", "--max-depth", "x"], b"[]");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("--max-depth"), "{}", stderr(&o));
}

#[test]
fn an_unknown_dto_lists_the_catalogue_and_says_how_to_add_one() {
    for args in [
        &["decode", "--dto", "nope"][..],
        &["props", "--dto", "nope", "--cases", "1"],
        &[
            "pg", "scan", "--table", "t", "--column", "c", "--dto", "nope",
        ],
    ] {
        let o = equijson(args, b"{}");
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{args:?}: {err}");
        let names: Vec<&str> = equijson_check::dto::catalogue()
            .iter()
            .map(|d| d.name)
            .collect();
        assert!(
            err.starts_with(&format!(
                "equijson: error: unknown DTO \"nope\" for --dto (known: {}; `equijson dtos` lists them)\nhint: ",
                names.join(", ")
            )),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("implement `equijson_check::dto::Dto`")
                && err.contains("equijson_cli::Cli::new().dto::<YourType>()")
                && err.contains("docs/src/your-dtos.md"),
            "{args:?}: {err}"
        );
    }
}
