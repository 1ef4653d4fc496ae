//! Start-up: `equijson canon FILE` on a tiny document against the anchor, a minimal
//! `serde_json_canonicalizer` command (`examples/anchor_canon.rs`), as whole processes.
//!
//! `just bench-startup [--runs N]` builds both (release profile) and runs them in turn,
//! A B A B ..., N times each after a warm-up (default 400), each with its output read from
//! a pipe; it prints the median, fastest and slowest wall time of each and the median of the
//! ratios pair by pair (robust to the machine's speed drifting during the run). Both must
//! write the same canonical bytes, else the run fails. `EQUIJSON_BIN` names the binary
//! (default `target/release/equijson`), `EQUIJSON_ANCHOR_BIN` the anchor (default
//! `target/release/examples/anchor_canon`).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark printing its table"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use equijson_bench::stats::Stats;

/// The tiny document: every kind of value, a member order to change, a number to rewrite.
const TINY: &[u8] = br#"{"b":[1,2.50,"x\u00e9",false],"a":{"z":null,"y":true}}"#;

/// Runs `bin ARGS`, reading its output: wall seconds and the output, `Err` on failure.
fn run_once(bin: &Path, args: &[&Path]) -> Result<(f64, Vec<u8>), String> {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{}: cannot run: {e}", bin.display()))?;
    let wall = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!("{} {args:?}: {}", bin.display(), out.status));
    }
    Ok((wall, out.stdout))
}

fn runs_arg() -> Result<usize, String> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.as_slice() {
        [] => Ok(400),
        [flag, n] if flag == "--runs" => n
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("--runs: expected a positive count, got {n:?}")),
        _ => Err(format!("usage: startup [--runs N] (got {args:?})")),
    }
}

fn bin_path(var: &str, default: &str) -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .ok_or("no workspace root above the bench crate")?;
    let bin = std::env::var_os(var).map_or_else(|| root.join(default), PathBuf::from);
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "{} not found: run `just bench-startup` (or set {var})",
            bin.display()
        ))
    }
}

fn micros(s: &Stats) -> String {
    format!(
        "{:>8.0} {:>8.0} {:>8.0}",
        s.median * 1e6,
        s.fastest * 1e6,
        s.slowest * 1e6
    )
}

fn run() -> Result<(), String> {
    let runs = runs_arg()?;
    let ours = bin_path("EQUIJSON_BIN", "target/release/equijson")?;
    let anchor = bin_path(
        "EQUIJSON_ANCHOR_BIN",
        "target/release/examples/anchor_canon",
    )?;
    let dir = std::env::temp_dir().join(format!("equijson-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let doc = dir.join("tiny.json");
    std::fs::write(&doc, TINY).map_err(|e| format!("{}: {e}", doc.display()))?;
    let canon = Path::new("canon");

    let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    // The first 10 pairs warm the page cache and are not counted.
    for i in 0..runs + 10 {
        let (ta, out_a) = run_once(&ours, &[canon, &doc])?;
        let (tb, out_b) = run_once(&anchor, &[&doc])?;
        if out_a != out_b {
            return Err(format!(
                "the outputs differ: equijson {:?}, anchor {:?}",
                String::from_utf8_lossy(&out_a),
                String::from_utf8_lossy(&out_b)
            ));
        }
        if i >= 10 {
            a.push(ta);
            b.push(tb);
            ratio.push(ta / tb);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (Some(sa), Some(sb), Some(sr)) = (Stats::of(&a), Stats::of(&b), Stats::of(&ratio)) else {
        return Err("no samples".into());
    };
    println!(
        "start-up on a {}-byte document, {runs} runs each, in turn (wall clock, µs)",
        TINY.len()
    );
    println!(
        "{:<44} {:>8} {:>8} {:>8}",
        "", "median", "fastest", "slowest"
    );
    println!(
        "{:<44} {}",
        format!("A equijson canon ({})", ours.display()),
        micros(&sa)
    );
    println!(
        "{:<44} {}",
        "B anchor_canon (serde_json_canonicalizer)",
        micros(&sb)
    );
    println!(
        "A/B pair by pair: median {:.3}, fastest {:.3}, slowest {:.3}",
        sr.median, sr.fastest, sr.slowest
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
