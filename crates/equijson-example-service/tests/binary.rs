//! The service's own binary (`src/main.rs`, built with `equijson_cli::Cli`): every
//! `equijson` subcommand with the service's DTOs, named after the binary.

use std::process::{Command, Output, Stdio};

use equijson_example_service::SETTINGS_EXAMPLE;

fn service(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_example-service"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn example-service");
    if let Some(mut input) = child.stdin.take() {
        // A command that fails before reading its input closes the pipe: not an error here.
        if let Err(e) = input.write_all(stdin) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    child.wait_with_output().expect("wait for example-service")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The value of the line of `text` that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{text}"))
}

#[test]
fn props_finds_the_before_after_difference_and_its_replay_names_the_binary() {
    let o = service(
        &[
            "props",
            "--dto",
            "audit-batch",
            "--seed",
            "1",
            "--cases",
            "256",
        ],
        b"",
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert_eq!(line(&text, "dto: "), "audit-batch");
    assert!(
        text.contains("error-split: decoded by before; rejected by:\n    after: "),
        "{text}"
    );
    // The replay line is a command of this binary, and replaying it fails the same way.
    let replay = line(&text, "replay: ");
    let words: Vec<&str> = replay.split(' ').collect();
    assert_eq!(words[0], "example-service", "{replay}");
    let again = service(&words[1..], b"");
    let again_text = stdout(&again);
    assert_eq!(again.status.code(), Some(1), "{again_text}");
    assert_eq!(line(&again_text, "shrunk:   "), line(&text, "shrunk:   "));
}

#[test]
fn every_dto_of_the_service_is_listed_and_decodes_by_name() {
    let o = service(&["dtos"], b"");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split(' ').next())
        .collect();
    // The service's own first, then the built-in catalogue.
    assert_eq!(
        &names[..3],
        ["audit-event", "settings", "audit-batch"],
        "{text}"
    );
    assert!(names.contains(&"contact"), "{text}");
    // Each of the service's DTOs says which type it is and the paths it runs.
    assert!(
        text.contains(
            "audit-batch    equijson_example_service::AuditBatch; paths: before, after\n"
        ),
        "{text}"
    );
    let sample = service(&["dtos", "--sample", "settings"], b"");
    assert_eq!(stdout(&sample).trim_end(), SETTINGS_EXAMPLE);
    let o = service(
        &["decode", "--dto", "settings"],
        SETTINGS_EXAMPLE.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(line(&stdout(&o), "dto: "), "settings");
}

#[test]
fn an_unknown_dto_says_which_are_known_and_how_to_add_one() {
    for args in [
        &["props", "--dto", "orders", "--cases", "1"][..],
        &["decode", "--dto", "orders"],
        &["dtos", "--sample", "orders"],
        &[
            "pg", "scan", "--table", "t", "--column", "c", "--dto", "orders",
        ],
        &["pg", "roundtrip", "--dto", "orders"],
    ] {
        let o = service(args, b"{}");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        let first = line(
            &err,
            "example-service: error: unknown DTO \"orders\" for --dto (known: ",
        );
        assert!(
            first.starts_with("audit-event, settings, audit-batch, contact, "),
            "{args:?}: {err}"
        );
        let hint = line(&err, "hint: ");
        for words in [
            "implement `equijson_check::dto::Dto`",
            "equijson_cli::Cli::new().dto::<YourType>()",
            "docs/src/your-dtos.md",
        ] {
            assert!(hint.contains(words), "{args:?}: {err}");
        }
    }
}

#[test]
fn usage_and_help_name_the_binary() {
    let o = service(&["--help"], b"");
    assert!(
        stdout(&o).contains("Usage: example-service <COMMAND>"),
        "{}",
        stdout(&o)
    );
    // The help texts' commands are this binary's too.
    for sub in [
        &["props"][..],
        &["decode"],
        &["pg", "scan"],
        &["pg", "roundtrip"],
    ] {
        let o = service(&[sub, &["--help"]].concat(), b"");
        let help = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{sub:?}");
        assert!(
            help.contains("`example-service ") && !help.contains("`equijson "),
            "{sub:?}: {help}"
        );
    }
    let o = service(&["props", "--no-such-flag"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("Usage: example-service props"),
        "{}",
        stderr(&o)
    );
}

#[cfg(unix)]
#[test]
fn the_binary_is_named_as_it_was_started() {
    // No `.name(..)` in src/main.rs: the name is the file name the binary was started as.
    let dir = std::env::temp_dir().join(format!("example-service-argv0-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let link = dir.join("audit-tool");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_example-service"), &link).expect("symlink");
    let o = Command::new(&link)
        .args([
            "props",
            "--dto",
            "audit-batch",
            "--seed",
            "1",
            "--cases",
            "64",
        ])
        .output()
        .expect("run audit-tool");
    let text = stdout(&o);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(
        line(&text, "replay: ").starts_with("audit-tool props --seed 1 "),
        "{text}"
    );
}

#[test]
fn messages_on_stderr_name_the_binary() {
    // (arguments, standard input, exit status, a line stderr must hold)
    let cases: [(&[&str], &[u8], i32, &str); 3] = [
        // A usage error of the binary's own (not clap's).
        (
            &["canon", "-", "-"],
            b"",
            2,
            "example-service: error: `-` (standard input) can be given only once",
        ),
        // Invalid input: the hint names this binary's command.
        (
            &["canon"],
            b"{\"a\":1}\n{\"a\":2}\n",
            1,
            "<stdin>: hint: a second JSON value follows the first; for JSON Lines (one document per line) use `example-service canon --lines`",
        ),
        // A server that refuses the connection (port 1 on the loopback address).
        (
            &[
                "pg",
                "scan",
                "--table",
                "t",
                "--column",
                "c",
                "--database-url",
                "postgresql://nobody@127.0.0.1:1/nothing?connect_timeout=5",
            ],
            b"",
            2,
            "example-service: error: ",
        ),
    ];
    for (args, input, code, want) in cases {
        let o = service(args, input);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.lines().any(|l| l.starts_with(want)), "{args:?}: {err}");
        assert!(
            !err.lines().any(|l| l.starts_with("equijson:")),
            "{args:?}: {err}"
        );
    }
    // No server given at all.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_example-service"));
    for var in [
        "EQUIJSON_DATABASE_URL",
        "DATABASE_URL",
        "PGHOST",
        "PGHOSTADDR",
        "PGDATABASE",
        "PGSERVICE",
    ] {
        cmd.env_remove(var);
    }
    let o = cmd
        .args(["pg", "install-sql"])
        .output()
        .expect("run example-service");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("example-service: error: no server given: "),
        "{err}"
    );
}

#[test]
fn props_saves_a_failure_and_replays_it_first() {
    let dir = std::env::temp_dir().join(format!("example-service-saved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_string_lossy().into_owned();
    let props = |seed: &str, cases: &str, saved: bool| {
        let mut args = vec![
            "props",
            "--dto",
            "audit-batch",
            "--seed",
            seed,
            "--cases",
            cases,
        ];
        if saved {
            args.extend(["--regressions", &dir_arg]);
        }
        service(&args, b"")
    };
    // The first failure of a run is saved, one case a line.
    let first = props("1", "256", true);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let file = dir.join("audit-batch.txt");
    let text = std::fs::read_to_string(&file).expect("the failure is saved");
    let at = text.lines().position(|l| l.starts_with("cc ")).unwrap_or(0) + 1;
    assert!(
        stderr(&first).contains(&format!(
            "example-service: saved: {}:{at}\n",
            file.display()
        )),
        "{}",
        stderr(&first)
    );
    // A seed whose one case passes alone fails with the saved case replayed first.
    let passing = (2..200)
        .map(|s| s.to_string())
        .find(|s| props(s, "1", false).status.code() == Some(0))
        .expect("a seed whose first case passes");
    let again = props(&passing, "1", true);
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!(
            "example-service: the case saved at {}:{at} fails again: ",
            file.display()
        )),
        "{err}"
    );
    // Its replay command shows the same shrunk case as the first run.
    let replay = line(&err, "replay: ");
    let words: Vec<&str> = replay.split(' ').collect();
    assert_eq!(words[0], "example-service", "{replay}");
    let shown = service(&words[1..], b"");
    assert_eq!(
        line(&stdout(&shown), "shrunk:   "),
        line(&stdout(&first), "shrunk:   ")
    );
    // A malformed file is an error naming its line.
    std::fs::write(&file, format!("{text}cc seed=1 case=-1 size=6\n")).expect("write");
    let bad = props("1", "1", true);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        stderr(&bad),
        format!(
            "example-service: error: {}:{}: case=\"-1\" is not a number\n",
            file.display(),
            text.lines().count() + 1
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}
