//! The repository's Markdown documents, for the tests that hold the docs' examples to the code
//! (included with `#[path]` by `equijson-check`'s `readme.rs` and `equijson-cli`'s `book.rs`).

use std::path::{Path, PathBuf};

/// The repository's documents: the book's pages, the front page, the crates' READMEs.
pub(crate) fn documents() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root");
    let mut paths = Vec::new();
    walk(&root.join("docs/src"), &mut paths);
    paths.push(root.join("README.md"));
    for krate in ["equijson", "equijson-check", "equijson-cli", "equijson-pg"] {
        paths.push(root.join("crates").join(krate).join("README.md"));
    }
    paths
        .into_iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()));
            (p, text)
        })
        .collect()
}
