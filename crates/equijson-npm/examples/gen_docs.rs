//! Writes documents from the core's portable generators, for the npm package's tests
//! (`npm/test/native.test.mjs` compares the package with the native `equijson canon`).
//!
//! `cargo run -p equijson-npm --example gen_docs -- SEED COUNT SIZE OUT_DIR` writes
//! `OUT_DIR/doc-NNNN.json`: any JSON (edge characters, astral names, escapes, spellings
//! of numbers), each spelled with random whitespace, escapes and member order.

#![allow(
    clippy::print_stderr,
    reason = "a command-line helper reports its errors on stderr"
)]

use std::process::ExitCode;

use equijson_check::generate::{Gen, Style};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [seed, count, size, dir] => seed
            .parse::<u64>()
            .ok()
            .zip(count.parse::<u64>().ok())
            .zip(size.parse::<usize>().ok())
            .map(|((seed, count), size)| (seed, count, size, dir)),
        _ => None,
    };
    let Some((seed, count, size, dir)) = parsed else {
        eprintln!("usage: gen_docs SEED COUNT SIZE OUT_DIR");
        return ExitCode::from(2);
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("gen_docs: cannot create {dir}: {e}");
        return ExitCode::from(2);
    }
    for case in 0..count {
        let mut g = Gen::for_case(seed, case, size);
        let tree = g.json(4);
        let style = g.rng().next_u64();
        let path = format!("{dir}/doc-{case:04}.json");
        if let Err(e) = std::fs::write(&path, tree.render(Style::Seeded(style))) {
            eprintln!("gen_docs: cannot write {path}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
