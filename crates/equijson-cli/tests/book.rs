//! The shell examples of the book (`docs/src`), the front page and the crates' READMEs, held
//! to the built `equijson`: every subcommand and `--option` an example uses exists (its
//! `--help` lists it), and every example with a `# -> OUTPUT` comment prints that output.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_equijson");

#[path = "../../equijson/tests/shared/repo_docs.rs"]
mod repo_docs;
use repo_docs::documents;

/// One command line of an `sh` code block: where it is, the command, and its trailing comment.
struct ShLine {
    at: String,
    command: String,
    comment: String,
}

/// The lines of every `sh` code block of `text`, with their 0-based line numbers. Fences may
/// be indented (a block inside a list item): the fence's indentation is taken off each line
/// of the block, and the block ends at a fence of the same character, at least as long.
fn sh_block_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    // (is it `sh`, the fence's indentation, its character, its length)
    let mut open = None::<(bool, usize, char, usize)>;
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let fence = ['`', '~'].into_iter().find_map(|c| {
            let n = body.chars().take_while(|&x| x == c).count();
            (n >= 3).then_some((c, n))
        });
        match (open, fence) {
            (None, Some((c, n))) => {
                let info = body[n..].trim();
                open = Some((info == "sh", indent, c, n));
            }
            (Some((_, _, oc, on)), Some((c, n)))
                if c == oc && n >= on && body[n..].trim().is_empty() =>
            {
                open = None;
            }
            (Some((true, fence_indent, _, _)), _) => {
                let strip = indent.min(fence_indent);
                out.push((i, &line[strip..]));
            }
            _ => {}
        }
    }
    out
}

/// The command lines of every `sh` code block (continuation lines joined), with their comments.
fn sh_lines() -> Vec<ShLine> {
    let mut out = Vec::new();
    for (path, text) in documents() {
        let mut pending = String::new();
        for (i, line) in sh_block_lines(&text) {
            if let Some(head) = line.strip_suffix('\\') {
                pending.push_str(head);
                continue;
            }
            pending.push_str(line);
            let full = std::mem::take(&mut pending);
            let (command, comment) = split_comment(&full);
            if !command.trim().is_empty() {
                out.push(ShLine {
                    at: format!("{}:{}", path.display(), i + 1),
                    command: command.trim().to_owned(),
                    comment: comment.trim().to_owned(),
                });
            }
        }
    }
    out
}

/// The command and its comment: the first `#` outside quotes that starts a word.
fn split_comment(line: &str) -> (&str, &str) {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => return (&line[..i], &line[i + 1..]),
            _ => {}
        }
        prev = c;
    }
    (line, "")
}

/// The words of a command (quotes kept out of the way: a quoted word is one word), split
/// into the commands of a pipeline or list (`|`, `&&`, `;`); redirections dropped.
fn commands(line: &str) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    let flush = |word: &mut String, in_word: &mut bool, out: &mut Vec<Vec<String>>| {
        if *in_word {
            out.last_mut()
                .expect("one command")
                .push(std::mem::take(word));
            *in_word = false;
        }
    };
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => word.push(c),
            (None, '|' | ';' | '&') => {
                flush(&mut word, &mut in_word, &mut out);
                if out.last().is_some_and(|c| !c.is_empty()) {
                    out.push(Vec::new());
                }
            }
            (None, c) if c.is_whitespace() => flush(&mut word, &mut in_word, &mut out),
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    flush(&mut word, &mut in_word, &mut out);
    for cmd in &mut out {
        // `> file`, `2> file`, `< file`: the operator and its target are not arguments.
        let mut kept = Vec::new();
        let mut skip_next = false;
        for w in cmd.drain(..) {
            if skip_next {
                skip_next = false;
            } else if matches!(w.as_str(), ">" | ">>" | "<" | "2>") {
                skip_next = true;
            } else if !w.starts_with('>') && !w.starts_with('<') {
                kept.push(w);
            }
        }
        *cmd = kept;
    }
    out.retain(|c| !c.is_empty());
    out
}

/// `equijson ARGS... --help`: its text, or a panic with what it printed.
fn help(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .arg("--help")
        .output()
        .expect("run equijson");
    assert!(
        out.status.success(),
        "equijson {} --help: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a `--help` text lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// Whether `help` lists `flag` as a word (`--lines`, not the start of `--lines-max`).
fn lists_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(i, _)| {
        let after = help[i + flag.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn every_equijson_subcommand_and_option_in_the_docs_exists() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for line in sh_lines() {
        for cmd in commands(&line.command) {
            if cmd[0] != "equijson" {
                continue; // `npx equijson` is the npm package's bin (its own tests)
            }
            // The subcommand path: words that the help of the path so far lists.
            let mut path: Vec<&str> = Vec::new();
            for w in &cmd[1..] {
                let listed = subcommands(&help(&path));
                if listed.iter().any(|s| s == w) {
                    path.push(w);
                } else {
                    break;
                }
            }
            let text = help(&path);
            for w in &cmd[1..] {
                let w = w.trim_start_matches('[').trim_end_matches(']');
                if let Some(flag) = w
                    .strip_prefix("--")
                    .map(|f| f.split('=').next().unwrap_or(f))
                {
                    checked += 1;
                    if !lists_flag(&text, &format!("--{flag}")) {
                        bad.push(format!(
                            "{}: `equijson {}` has no option --{flag} (in `{}`)",
                            line.at,
                            path.join(" "),
                            line.command
                        ));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        checked >= 30,
        "only {checked} options found: is the parse broken?"
    );
}

#[test]
fn every_example_with_its_output_prints_it() {
    // `CMD   # -> OUTPUT`: run CMD with this build's `equijson` first on PATH.
    let bin_dir = Path::new(BIN).parent().expect("the binary's directory");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let mut ran = 0;
    for line in sh_lines() {
        let Some(want) = line.comment.strip_prefix("-> ") else {
            continue;
        };
        ran += 1;
        let out = Command::new("sh")
            .arg("-c")
            .arg(&line.command)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        assert!(
            out.status.success(),
            "{}: `{}` failed: {}",
            line.at,
            line.command,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim_end(),
            want.trim(),
            "{}: `{}` prints something else than the docs say",
            line.at,
            line.command
        );
    }
    assert!(
        ran >= 3,
        "only {ran} examples with `# ->` found: is the parse broken?"
    );
}

#[test]
fn the_parser_of_this_test_splits_commands_and_comments() {
    let (cmd, comment) = split_comment(r##"printf '{"a":"#"}' | equijson canon   # -> {"a":"#"}"##);
    assert_eq!(cmd.trim(), r##"printf '{"a":"#"}' | equijson canon"##);
    assert_eq!(comment.trim(), r##"-> {"a":"#"}"##);
    assert_eq!(
        commands(r#"equijson canon a.json > out.json && equijson pg scan --where "id < 3""#),
        [
            vec!["equijson", "canon", "a.json"],
            vec!["equijson", "pg", "scan", "--where", "id < 3"],
        ]
    );
}

#[test]
fn the_parser_of_this_test_reads_indented_fences() {
    // (document, the sh lines it holds)
    let table: &[(&str, &[&str])] = &[
        ("```sh\nequijson a\n```\n", &["equijson a"]),
        (
            "```text\nequijson a\n```\n```sh\nequijson b\n```",
            &["equijson b"],
        ),
        // Inside a list item: the fence's indentation comes off, deeper indentation stays.
        (
            "1. step:\n\n   ```sh\n   equijson a \\\n     --x\n   ```\n\n   text\n",
            &["equijson a \\", "  --x"],
        ),
        (
            "- x\n\n    ~~~sh\n    equijson c\n    ~~~\nequijson d\n",
            &["equijson c"],
        ),
        // A longer fence holds a shorter one; another character does not close it.
        (
            "````sh\nequijson a\n```\n~~~\n````\nequijson z\n",
            &["equijson a", "```", "~~~"],
        ),
        ("```sh\n```\n```rust\nequijson r\n```\n", &[]),
    ];
    for (doc, want) in table {
        let got: Vec<&str> = sh_block_lines(doc).into_iter().map(|(_, l)| l).collect();
        assert_eq!(got, *want, "{doc:?}");
    }
    // The indented example of the sharding chapter is among the checked lines.
    assert!(
        sh_lines().iter().any(|l| l.at.ends_with("sharding.md:57")
            && l.command.starts_with("equijson pg scan --table orders")),
        "docs/src/postgresql/sharding.md's indented example is not read"
    );
}
