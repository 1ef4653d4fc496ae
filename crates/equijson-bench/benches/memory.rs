//! Peak resident memory of canonicalization and of `--check`, before (the `Document` tape,
//! the path `Canonicalizer` took until the streaming writer) and after (the streaming
//! writer and the validating pass), on realistic documents, arrays of small integers
//! and arrays of `1e20`.
//!
//! `cargo bench -p equijson-bench --bench memory [-- --quick] [-- --size MB]`
//!
//! Each measurement runs in a fresh child process (this same binary), which reads the
//! input file, does one operation and reports `VmHWM` (peak resident set) from
//! `/proc/self/status`, minus the `VmRSS` it had before reading the input. Three runs per
//! cell, interleaved; the median is shown. Targets: canonicalization at most
//! 1.5 x input + output; the check at most the input plus a little (O(depth + widest
//! object), shown as "beyond input").
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    clippy::too_many_lines,
    reason = "a benchmark whose product is a report printed to the terminal"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use equijson::{Canonicalizer, Document, Options};
use equijson_bench::stats::Stats;
use equijson_bench::synth;

const MODES: [&str; 4] = ["tape canon", "stream canon", "tape check", "stream check"];

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// The child: one operation on one file; prints `peak_bytes output_bytes`.
fn child(mode: &str, file: &Path) -> ExitCode {
    let baseline = status_kb("VmRSS:");
    let Ok(input) = std::fs::read(file) else {
        eprintln!("cannot read {}", file.display());
        return ExitCode::FAILURE;
    };
    let options = Options::default();
    let mut out = Vec::new();
    let ok = match mode {
        "tape canon" => Document::parse_with(&input, &options)
            .map(|d| d.write_canonical(&mut out))
            .is_ok(),
        "stream canon" => Canonicalizer::new(options)
            .canonicalize_into(&input, &mut out)
            .is_ok(),
        "tape check" => Document::parse_with(&input, &options).is_ok(),
        "stream check" => Canonicalizer::new(options).validate(&input).is_ok(),
        _ => false,
    };
    if !ok {
        eprintln!("{mode} failed on {}", file.display());
        return ExitCode::FAILURE;
    }
    let peak = status_kb("VmHWM:").saturating_sub(baseline) * 1024;
    println!("{peak} {}", out.len());
    std::hint::black_box((&input, &out));
    ExitCode::SUCCESS
}

fn run_child(mode: &str, file: &Path) -> Option<(f64, f64)> {
    let exe = std::env::current_exe().ok()?;
    let o = Command::new(exe)
        .arg("--child")
        .arg(mode)
        .arg(file)
        .output()
        .ok()?;
    if !o.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&o.stderr));
        return None;
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some((it.next()??, it.next()??))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        return match (args.get(1), args.get(2)) {
            (Some(mode), Some(file)) => child(mode, Path::new(file)),
            _ => ExitCode::FAILURE,
        };
    }
    let quick = args.iter().any(|a| a == "--quick")
        || std::env::var_os("EQUIJSON_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0");
    let mb: usize = args
        .iter()
        .position(|a| a == "--size")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 8 } else { 64 });
    let size = mb << 20;
    let runs = if quick { 1 } else { 3 };

    let corpus = match equijson_bench::load(&equijson_bench::FILES) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let docs: Vec<&[u8]> = corpus.iter().map(|c| c.bytes.as_slice()).collect();
    let dir = std::env::temp_dir().join(format!("equijson-memory-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let cases: Vec<(&str, PathBuf, Vec<u8>)> = vec![
        (
            "realistic (twitter, citm, canada repeated)",
            dir.join("realistic.json"),
            synth::realistic(&docs, size),
        ),
        (
            "small integers [1,27,3,...]",
            dir.join("small.json"),
            synth::small_integers(size),
        ),
        (
            "[1e20,1e20,...]",
            dir.join("exp.json"),
            synth::big_exponents(size),
        ),
    ];
    for (_, path, bytes) in &cases {
        if let Err(e) = std::fs::write(path, bytes) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }

    println!(
        "# Peak RSS (VmHWM above the process before reading), median of {runs} fresh processes\n"
    );
    println!("| input | size MB | output MB | path | peak MB | peak / input | target | |");
    println!("|---|---:|---:|---|---:|---:|---:|---|");
    let mut all_pass = true;
    for (name, path, bytes) in &cases {
        let input = bytes.len() as f64;
        let mut peaks: Vec<Vec<f64>> = vec![Vec::new(); MODES.len()];
        let mut output: f64 = 0.0;
        for _ in 0..runs {
            for (m, mode) in MODES.iter().enumerate() {
                let Some((peak, out)) = run_child(mode, path) else {
                    return ExitCode::FAILURE;
                };
                peaks[m].push(peak);
                output = output.max(out);
            }
        }
        for (m, mode) in MODES.iter().enumerate() {
            let peak = Stats::of(&peaks[m]).map_or(0.0, |s| s.median);
            let (target, limit) = if mode.ends_with("canon") {
                ("1.5 in + out", 1.5 * input + output)
            } else {
                // O(depth + widest object): a few MB at most for these inputs.
                ("in + 4 MB", input + 4.0 * 1_048_576.0)
            };
            let pass = peak <= limit;
            if mode.starts_with("stream") {
                all_pass &= pass;
            }
            println!(
                "| {name} | {:.1} | {:.1} | {mode} | {:.1} | {:.2}x | {target} = {:.1} MB | {} |",
                input / 1e6,
                if mode.ends_with("canon") {
                    output / 1e6
                } else {
                    0.0
                },
                peak / 1e6,
                peak / input,
                limit / 1e6,
                if pass { "ok" } else { "over" },
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "\n==> VERDICT: {}",
        if all_pass {
            "PASS - the streaming paths meet their memory targets"
        } else {
            "FAIL - a streaming path is over its memory target"
        }
    );
    ExitCode::SUCCESS
}
