//! The page build as the book shows it: the example page's build command is the one `just
//! verify` runs (`web-e2e-example`), and every `build.mjs` / `just web-build-for` line of
//! the docs and of the example workflow passes only options `web/build.mjs` takes.
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use std::path::Path;

/// What the book shows and `just web-e2e-example` runs.
const EXAMPLE_BUILD: &str =
    "just web-build-for crates/equijson-example-page --out target/web-example";

const JUSTFILE: &str = include_str!("../../../justfile");
const BUILD_MJS: &str = include_str!("../../../web/build.mjs");

/// The documents that show page builds, by repository path.
const DOCS: [(&str, &str); 4] = [
    (
        "docs/src/your-dtos.md",
        include_str!("../../../docs/src/your-dtos.md"),
    ),
    ("docs/src/web.md", include_str!("../../../docs/src/web.md")),
    ("README.md", include_str!("../../../README.md")),
    (
        "examples/github-actions/page-for-pull-request.yml",
        include_str!("../../../examples/github-actions/page-for-pull-request.yml"),
    ),
];

/// The lines of `doc` that build a page (in a Markdown file: in its `sh` blocks), comments
/// removed: the command's words.
fn build_lines(doc: &str) -> Vec<Vec<&str>> {
    let markdown = doc.contains("```");
    let mut in_sh = false;
    doc.lines()
        .filter(|l| {
            if let Some(info) = l.strip_prefix("```") {
                in_sh = !in_sh && info.trim() == "sh";
                return false;
            }
            in_sh || !markdown
        })
        .map(|l| l.split(" #").next().unwrap_or(l).trim())
        .map(|l| l.strip_prefix("run: ").unwrap_or(l))
        .filter(|l| l.starts_with("just web-build-for ") || l.contains("build.mjs --"))
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// The options build.mjs accepts (its `known` list).
fn known_options() -> Vec<&'static str> {
    let list = BUILD_MJS
        .split_once("const known = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("build.mjs lists its options in `const known = [...]`");
    list.split(',')
        .map(|o| o.trim().trim_matches('\''))
        .filter(|o| !o.is_empty())
        .collect()
}

#[test]
fn the_books_example_build_is_the_one_verify_runs() {
    let words: Vec<&str> = EXAMPLE_BUILD.split_whitespace().collect();
    let quoted: Vec<String> = words[2..].iter().map(|w| format!("\"{w}\"")).collect();
    let dependency = format!("(web-build-for {})", quoted.join(" "));
    assert!(
        JUSTFILE.contains(&format!("web-e2e-example *ARGS: {dependency}")),
        "the justfile's web-e2e-example no longer builds with {dependency}"
    );
    for (path, text) in &DOCS[..2] {
        assert!(
            build_lines(text).contains(&words),
            "{path} no longer shows `{EXAMPLE_BUILD}`"
        );
    }
}

#[test]
fn every_page_build_shown_uses_options_build_mjs_takes() {
    let known = known_options();
    assert_eq!(known, ["--binding", "--out", "--no-opt"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut seen = 0;
    for (path, text) in DOCS {
        for words in build_lines(text) {
            seen += 1;
            for (i, w) in words.iter().enumerate() {
                if w.starts_with("--") {
                    assert!(
                        known.contains(w),
                        "{path}: `{}`: {w} is not an option of build.mjs",
                        words.join(" ")
                    );
                }
                // A binding of this repository named by its directory exists.
                let binding = words.get(i.wrapping_sub(1)) == Some(&"--binding")
                    || (words[..2] == ["just", "web-build-for"] && i == 2);
                if binding && w.starts_with("crates/") {
                    assert!(
                        root.join(w).join("Cargo.toml").is_file(),
                        "{path}: `{}`: no crate at {w}",
                        words.join(" ")
                    );
                }
            }
        }
    }
    assert!(seen >= 5, "only {seen} page builds found in the docs");
}
