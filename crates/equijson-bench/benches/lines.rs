//! The `equijson` command against the library in-process: JSON Lines (lines/s) and one
//! large document (MB/s).
//!
//! `cargo build --release -p equijson-cli && cargo bench -p equijson-bench --bench lines [-- --quick]`
//! (`just bench-cli` does both). `EQUIJSON_BIN` names the binary (default
//! `target/release/equijson`); `EQUIJSON_BIN_BEFORE` optionally names an older build to
//! measure alongside ("before").
//!
//! - JSON Lines: 200,000 generated events of about 300 bytes (members out of order, nested
//!   objects, escapes, non-ASCII). In-process: `Canonicalizer::canonicalize_into` per line
//!   (the plain per-document path), and `serde_json` parsing each line into a `Value` and
//!   writing it back (not canonical: a reference point). The CLI: `equijson canon --lines
//!   FILE` and `--check --lines`, wall time of the whole process, output to /dev/null.
//!   Target: the CLI at least 500,000 lines/s.
//! - One ~100 MB document (twitter, citm and canada repeated in an array): the library
//!   in-process (input in memory, output buffer reused) against `equijson canon FILE`
//!   (process start, reading, writing to /dev/null). Target: the CLI at least 80% of the
//!   library's MB/s.
//!
//! Samples are interleaved round-robin; medians are shown.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    clippy::too_many_lines,
    reason = "a benchmark whose product is a report printed to the terminal"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use equijson::{Canonicalizer, Options};
use equijson_bench::stats::Stats;
use equijson_bench::synth;

fn median(v: &[f64]) -> f64 {
    Stats::of(v).map_or(0.0, |s| s.median)
}

/// Seconds for one run of `bin ARGS` with stdout to /dev/null; `None` when it fails.
fn time_cli(bin: &Path, args: &[&str]) -> Option<f64> {
    let t = Instant::now();
    let status = Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .ok()?;
    let s = t.elapsed().as_secs_f64();
    if status.success() {
        Some(s)
    } else {
        eprintln!("{} {args:?} failed: {status}", bin.display());
        None
    }
}

fn split_lines(text: &[u8]) -> Vec<&[u8]> {
    text.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick")
        || std::env::var_os("EQUIJSON_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0");
    let rounds = if quick { 3 } else { 11 };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map_or_else(PathBuf::new, Path::to_path_buf);
    let bin = std::env::var_os("EQUIJSON_BIN")
        .map_or_else(|| root.join("target/release/equijson"), PathBuf::from);
    if !bin.exists() {
        eprintln!(
            "error: {} not found: build it with `cargo build --release -p equijson-cli` (or set EQUIJSON_BIN)",
            bin.display()
        );
        return ExitCode::FAILURE;
    }
    let before = std::env::var_os("EQUIJSON_BIN_BEFORE")
        .map(PathBuf::from)
        .filter(|p| p.exists());

    let dir = std::env::temp_dir().join(format!("equijson-cli-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let ok = run(&dir, &bin, before.as_deref(), rounds, quick);
    std::fs::remove_dir_all(&dir).ok();
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run(dir: &Path, bin: &Path, before: Option<&Path>, rounds: usize, quick: bool) -> bool {
    // ---- JSON Lines ----
    let count = if quick { 50_000 } else { 200_000 };
    let text = synth::event_lines(count);
    let path = dir.join("events.jsonl");
    if std::fs::write(&path, &text).is_err() {
        return false;
    }
    let lines = split_lines(&text);
    let p = path.to_string_lossy().into_owned();
    println!(
        "# JSON Lines: {} lines, {:.0} bytes per line on average, median of {rounds} rounds\n",
        lines.len(),
        text.len() as f64 / lines.len() as f64
    );
    let mut c = Canonicalizer::new(Options::default());
    let mut out = Vec::new();
    let mut names: Vec<&str> = vec![
        "library: Canonicalizer::canonicalize_into per line",
        "library: serde_json Value per line (parse + write, not canonical)",
        "CLI: equijson canon --lines",
        "CLI: equijson canon --check --lines",
    ];
    if before.is_some() {
        names.push("CLI before: equijson canon FILE per line (no --lines)");
    }
    let mut secs: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for _ in 0..rounds {
        let t = Instant::now();
        out.clear();
        for l in &lines {
            if c.canonicalize_into(l, &mut out).is_err() {
                eprintln!("error: a generated line is invalid");
                return false;
            }
            out.push(b'\n');
            if out.len() > 1 << 18 {
                black_box(&out);
                out.clear();
            }
        }
        secs[0].push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        out.clear();
        for l in &lines {
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(l) else {
                return false;
            };
            if serde_json::to_writer(&mut out, &v).is_err() {
                return false;
            }
            out.push(b'\n');
            if out.len() > 1 << 18 {
                black_box(&out);
                out.clear();
            }
        }
        secs[1].push(t.elapsed().as_secs_f64());
        let Some(s) = time_cli(bin, &["canon", "--lines", &p]) else {
            return false;
        };
        secs[2].push(s);
        let Some(s) = time_cli(bin, &["canon", "--check", "--lines", &p]) else {
            return false;
        };
        secs[3].push(s);
    }
    // Before --lines existed, a stream had to be split and each line canonicalized by
    // its own process: time 1,000 lines that way and scale (only with EQUIJSON_BIN_BEFORE).
    if let Some(old) = before {
        let sample = 200.min(lines.len());
        let mut files = Vec::new();
        for (i, l) in lines.iter().take(sample).enumerate() {
            let f = dir.join(format!("line{i}.json"));
            if std::fs::write(&f, l).is_err() {
                return false;
            }
            files.push(f.to_string_lossy().into_owned());
        }
        for _ in 0..rounds.min(3) {
            let t = Instant::now();
            for f in &files {
                if time_cli(old, &["canon", f]).is_none() {
                    return false;
                }
            }
            secs[4].push(t.elapsed().as_secs_f64() * lines.len() as f64 / sample as f64);
        }
    }
    println!("| path | lines/s | MB/s |");
    println!("|---|---:|---:|");
    let mut cli_rate = 0.0;
    for (i, name) in names.iter().enumerate() {
        let s = median(&secs[i]);
        let rate = lines.len() as f64 / s;
        if i == 2 {
            cli_rate = rate;
        }
        println!(
            "| {name} | {rate:.0} | {:.1} |",
            text.len() as f64 / s / 1e6
        );
    }
    let lines_pass = cli_rate >= 500_000.0;
    println!(
        "\ncanon --lines: {cli_rate:.0} lines/s (target 500,000): {}\n",
        if lines_pass { "PASS" } else { "FAIL" }
    );

    // ---- one large document ----
    let corpus = match equijson_bench::load(&equijson_bench::FILES) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return false;
        }
    };
    let docs: Vec<&[u8]> = corpus.iter().map(|c| c.bytes.as_slice()).collect();
    let size = if quick { 20 << 20 } else { 100 << 20 };
    let doc = synth::realistic(&docs, size);
    let path = dir.join("large.json");
    if std::fs::write(&path, &doc).is_err() {
        return false;
    }
    let p = path.to_string_lossy().into_owned();
    let mut names = vec![
        "library in-process: canonicalize_into (output buffer reused)",
        "library in-process: canonicalize (new output each time)",
        "CLI: equijson canon FILE > /dev/null",
        "CLI: equijson canon --check FILE",
    ];
    if before.is_some() {
        names.push("CLI before: equijson canon FILE > /dev/null");
        names.push("CLI before: equijson canon --check FILE");
    }
    let mut secs: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut out = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        out.clear();
        if c.canonicalize_into(&doc, &mut out).is_err() {
            return false;
        }
        black_box(&out);
        secs[0].push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let Ok(fresh) = c.canonicalize(&doc) else {
            return false;
        };
        drop(black_box(fresh));
        secs[1].push(t.elapsed().as_secs_f64());
        let mut cli = vec![
            (bin, vec!["canon", p.as_str()], 2),
            (bin, vec!["canon", "--check", p.as_str()], 3),
        ];
        if let Some(old) = before {
            cli.push((old, vec!["canon", p.as_str()], 4));
            cli.push((old, vec!["canon", "--check", p.as_str()], 5));
        }
        for (b, a, slot) in cli {
            let Some(s) = time_cli(b, &a) else {
                return false;
            };
            secs[slot].push(s);
        }
    }
    println!(
        "# One document of {:.1} MB (canonical form {:.1} MB), median of {rounds} rounds\n",
        doc.len() as f64 / 1e6,
        out.len() as f64 / 1e6
    );
    println!("| path | MB/s | vs library (reused buffer) |");
    println!("|---|---:|---:|");
    let lib = doc.len() as f64 / median(&secs[0]) / 1e6;
    let mut cli = 0.0;
    for (i, name) in names.iter().enumerate() {
        let mbs = doc.len() as f64 / median(&secs[i]) / 1e6;
        if i == 2 {
            cli = mbs;
        }
        println!("| {name} | {mbs:.1} | {:.0}% |", 100.0 * mbs / lib);
    }
    let cli_pass = cli >= 0.8 * lib;
    println!(
        "\nCLI at {:.0}% of the library (target 80%): {}",
        100.0 * cli / lib,
        if cli_pass { "PASS" } else { "FAIL" }
    );
    println!(
        "\n==> VERDICT: {}",
        if lines_pass && cli_pass {
            "PASS"
        } else {
            "FAIL"
        }
    );
    true
}
