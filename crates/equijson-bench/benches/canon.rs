//! Throughput of JSON text -> RFC 8785 canonical bytes: equijson against `serde_jcs`,
//! `serde_json_canonicalizer` and two `serde_json` reference points, all in one run.
//!
//! `cargo bench -p equijson-bench --bench canon [-- --quick] [FILE-FILTER...]`
//!
//! MB/s is 10^6 bytes of *input* per second, from the median of many timed samples.
//! Samples are taken round-robin over every (file, implementation) pair, with the
//! implementation order rotated each round, so machine noise lands on all of them alike.
//! `--quick` (or `EQUIJSON_BENCH_QUICK=1`) is a smoke mode with few, short samples.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark whose product is a report printed to the terminal"
)]

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use equijson_bench::stats::Stats;
use equijson_bench::{
    DATA_DIR_ENV, FILES, Implementation, Input, Runner, context, first_difference,
};

/// Environment variable that turns on the quick smoke mode (any value but `0` or empty).
const QUICK_ENV: &str = "EQUIJSON_BENCH_QUICK";

/// The speed-up over the faster JCS crate that equijson is held to, on every file.
const TARGET_VS_JCS: f64 = 2.0;
/// The speed-up over a `serde_json` `Value` round trip that equijson is held to, on every file.
const TARGET_VS_ROUND_TRIP: f64 = 1.0;

struct Config {
    quick: bool,
    /// Substrings selecting files; empty means all.
    filters: Vec<String>,
    /// Warm-up time per (file, implementation), also used to size the samples.
    warmup: Duration,
    /// Each sample runs enough iterations to last at least this long.
    sample_time: Duration,
    /// Number of samples per (file, implementation).
    samples: usize,
}

impl Config {
    /// Reads the options; `None` after printing the usage for `--help`.
    fn from_env() -> Option<Self> {
        let mut quick = std::env::var_os(QUICK_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        let mut filters = Vec::new();
        for arg in std::env::args().skip(1) {
            match arg.as_str() {
                // cargo passes `--bench` to every bench target.
                "--bench" => {}
                "--quick" => quick = true,
                "-h" | "--help" => {
                    println!(
                        "usage: cargo bench -p equijson-bench --bench canon [-- [--quick] [FILE-FILTER...]]\n\
                         files come from ${DATA_DIR_ENV} (default <workspace>/../shared/bench-data); \
                         {QUICK_ENV}=1 is the same as --quick"
                    );
                    return None;
                }
                flag if flag.starts_with('-') => eprintln!("note: ignoring unknown option {flag}"),
                filter => filters.push(filter.to_owned()),
            }
        }
        Some(if quick {
            Self {
                quick,
                filters,
                warmup: Duration::from_millis(20),
                sample_time: Duration::from_millis(10),
                samples: 5,
            }
        } else {
            Self {
                quick,
                filters,
                warmup: Duration::from_millis(300),
                sample_time: Duration::from_millis(50),
                samples: 31,
            }
        })
    }
}

/// Timings of one implementation on one file.
struct Cell {
    runner: Runner,
    iters_per_sample: u32,
    /// Seconds per iteration, one entry per sample.
    per_iter: Vec<f64>,
    error: Option<String>,
}

impl Cell {
    /// Median, fastest and slowest seconds per iteration.
    fn stats(&self) -> Option<Stats> {
        if self.error.is_some() {
            return None;
        }
        Stats::of(&self.per_iter)
    }
}

fn main() -> ExitCode {
    let Some(config) = Config::from_env() else {
        return ExitCode::SUCCESS;
    };
    let names: Vec<&str> = FILES
        .iter()
        .copied()
        .filter(|f| {
            config.filters.is_empty() || config.filters.iter().any(|p| f.contains(p.as_str()))
        })
        .collect();
    if names.is_empty() {
        eprintln!(
            "error: no file matches {:?}; the files are {FILES:?}",
            config.filters
        );
        return ExitCode::FAILURE;
    }
    let inputs = match equijson_bench::load(&names) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };

    print_header(&config, &inputs);
    let agree = check_outputs(&inputs);
    let cells = measure(&config, &inputs);
    print_tables(&inputs, &cells);
    print_verdict(&inputs, &cells, agree);
    if inputs.len() < FILES.len() {
        println!(
            "    (only {} of {} files measured: the verdict covers those)",
            inputs.len(),
            FILES.len()
        );
    }
    ExitCode::SUCCESS
}

fn print_header(config: &Config, inputs: &[Input]) {
    println!("# equijson canonicalization throughput\n");
    println!("- corpus: {}", equijson_bench::data_dir().display());
    for input in inputs {
        println!("  - {}: {} bytes", input.name, input.bytes.len());
    }
    println!(
        "- mode: {}; {} samples per cell, each >= {} ms, after {} ms warm-up; round-robin, rotated order",
        if config.quick {
            "QUICK (smoke test, numbers are rough)"
        } else {
            "full"
        },
        config.samples,
        config.sample_time.as_millis(),
        config.warmup.as_millis(),
    );
    println!("- MB/s = 10^6 input bytes per second, from the median sample; higher is better");
    if let Ok(n) = std::thread::available_parallelism() {
        println!("- available parallelism: {n}");
    }
    if cfg!(debug_assertions) {
        println!("- WARNING: built with debug assertions; numbers are not representative");
    }
    println!();
}

/// Compares equijson's output with `serde_jcs`'s on every file; true if all are byte-identical.
fn check_outputs(inputs: &[Input]) -> bool {
    println!("## Output check (before timing)\n");
    let mut all_agree = true;
    for input in inputs {
        let outputs: Vec<Result<Vec<u8>, String>> = [
            Implementation::Equijson,
            Implementation::SerdeJcs,
            Implementation::JsonCanonicalizer,
        ]
        .iter()
        .map(|imp| imp.output(&input.bytes))
        .collect();
        let [ours, jcs, canonicalizer] = &outputs[..] else {
            unreachable!("three outputs")
        };
        let agree = compare(&input.name, "equijson", ours, "serde_jcs", jcs);
        all_agree &= agree;
        // Informational: whether the two JCS crates agree with each other.
        compare(
            &input.name,
            "serde_json_canonicalizer",
            canonicalizer,
            "serde_jcs",
            jcs,
        );
    }
    println!();
    all_agree
}

/// Prints whether two outputs are identical; returns true if they are.
fn compare(
    file: &str,
    a_name: &str,
    a: &Result<Vec<u8>, String>,
    b_name: &str,
    b: &Result<Vec<u8>, String>,
) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => match first_difference(a, b) {
            None => {
                println!(
                    "- {file}: {a_name} == {b_name} (byte-identical, {} bytes)",
                    a.len()
                );
                true
            }
            Some(at) => {
                println!(
                    "- !!!!! MISMATCH !!!!! {file}: {a_name} ({} bytes) != {b_name} ({} bytes), \
                     first difference at byte {at}",
                    a.len(),
                    b.len()
                );
                println!("    {a_name:>24}: {}", context(a, at, 40));
                println!("    {b_name:>24}: {}", context(b, at, 40));
                false
            }
        },
        (Err(e), _) => {
            println!("- !!!!! ERROR !!!!! {file}: {a_name} failed: {e}");
            false
        }
        (_, Err(e)) => {
            println!("- !!!!! ERROR !!!!! {file}: {b_name} failed: {e}");
            false
        }
    }
}

/// Warms up and sizes every cell, then takes the samples round-robin.
fn measure(config: &Config, inputs: &[Input]) -> Vec<Vec<Cell>> {
    let mut cells: Vec<Vec<Cell>> = inputs
        .iter()
        .map(|input| {
            Implementation::ALL
                .iter()
                .map(|&imp| warm_up(config, Runner::new(imp), &input.bytes))
                .collect()
        })
        .collect();

    let n = Implementation::ALL.len();
    for round in 0..config.samples {
        for (input, row) in inputs.iter().zip(&mut cells) {
            for k in 0..n {
                let cell = &mut row[(k + round) % n];
                if cell.error.is_some() {
                    continue;
                }
                match sample(&mut cell.runner, &input.bytes, cell.iters_per_sample) {
                    Ok(t) => cell
                        .per_iter
                        .push(t.as_secs_f64() / f64::from(cell.iters_per_sample)),
                    Err(e) => cell.error = Some(e),
                }
            }
        }
    }
    cells
}

/// Runs `runner` for the warm-up time and picks the iterations per sample.
fn warm_up(config: &Config, mut runner: Runner, input: &[u8]) -> Cell {
    let start = Instant::now();
    let mut iters = 0u32;
    let error = loop {
        if let Err(e) = runner.run(black_box(input)) {
            break Some(e);
        }
        iters += 1;
        if start.elapsed() >= config.warmup {
            break None;
        }
    };
    let per_iter = start.elapsed().as_secs_f64() / f64::from(iters.max(1));
    let iters_per_sample = (config.sample_time.as_secs_f64() / per_iter)
        .ceil()
        .clamp(1.0, 1_000_000.0) as u32;
    Cell {
        runner,
        iters_per_sample,
        per_iter: Vec::with_capacity(config.samples),
        error,
    }
}

/// Times `iters` back-to-back runs.
#[inline(never)]
fn sample(runner: &mut Runner, input: &[u8], iters: u32) -> Result<Duration, String> {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(runner.run(black_box(input))?);
    }
    Ok(start.elapsed())
}

#[allow(clippy::cast_precision_loss, reason = "file sizes are far below 2^52")]
fn mb(len: usize) -> f64 {
    len as f64 / 1e6
}

fn throughput(input: &Input, seconds: f64) -> f64 {
    mb(input.bytes.len()) / seconds
}

/// Median MB/s of each implementation on one file (`None` where it failed).
fn medians(input: &Input, row: &[Cell]) -> Vec<Option<f64>> {
    row.iter()
        .map(|c| c.stats().map(|s| throughput(input, s.median)))
        .collect()
}

fn index(imp: Implementation) -> usize {
    Implementation::ALL
        .iter()
        .position(|&i| i == imp)
        .unwrap_or_default()
}

/// equijson / faster JCS crate, equijson / `serde_json` round trip (from medians).
fn ratios(mbps: &[Option<f64>]) -> (Option<f64>, Option<f64>) {
    let ours = mbps[index(Implementation::Equijson)];
    let jcs = mbps[index(Implementation::SerdeJcs)];
    let canonicalizer = mbps[index(Implementation::JsonCanonicalizer)];
    let best_jcs = match (jcs, canonicalizer) {
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    };
    let rt = mbps[index(Implementation::SerdeJsonRoundTrip)];
    (
        ours.zip(best_jcs).map(|(o, b)| o / b),
        ours.zip(rt).map(|(o, r)| o / r),
    )
}

fn fmt_opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "error".to_owned(), f)
}

/// A markdown table row.
fn row<S: AsRef<str>>(cells: &[S]) -> String {
    let inner: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
    format!("| {} |", inner.join(" | "))
}

fn print_tables(inputs: &[Input], cells: &[Vec<Cell>]) {
    println!("## Median throughput (MB/s)\n");
    let mut header = vec!["file"];
    header.extend(Implementation::ALL.iter().map(|imp| imp.name()));
    header.extend(["equijson / best JCS", "equijson / serde_json RT"]);
    println!("{}", row(&header));
    let mut rule = vec!["---"];
    rule.extend(std::iter::repeat_n("---:", header.len() - 1));
    println!("{}", row(&rule));
    for (input, cells) in inputs.iter().zip(cells) {
        let mbps = medians(input, cells);
        let (vs_jcs, vs_rt) = ratios(&mbps);
        let mut line = vec![input.name.clone()];
        line.extend(mbps.iter().map(|v| fmt_opt(*v, |x| format!("{x:.1}"))));
        line.push(fmt_opt(vs_jcs, |x| format!("{x:.2}x")));
        line.push(fmt_opt(vs_rt, |x| format!("{x:.2}x")));
        println!("{}", row(&line));
    }

    println!("\n## Spread: MB/s of slowest / median / fastest sample (iterations per sample)\n");
    println!("| file | implementation | slowest | median | fastest | spread | iters/sample |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (input, row) in inputs.iter().zip(cells) {
        for (imp, cell) in Implementation::ALL.iter().zip(row) {
            match (cell.stats(), &cell.error) {
                (Some(s), _) => println!(
                    "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1}% | {} |",
                    input.name,
                    imp.name(),
                    throughput(input, s.slowest),
                    throughput(input, s.median),
                    throughput(input, s.fastest),
                    (s.slowest - s.fastest) / s.median * 100.0,
                    cell.iters_per_sample,
                ),
                (None, e) => println!(
                    "| {} | {} | error: {} | | | | |",
                    input.name,
                    imp.name(),
                    e.as_deref().unwrap_or("no samples")
                ),
            }
        }
    }
    println!();
}

fn print_verdict(inputs: &[Input], cells: &[Vec<Cell>], outputs_agree: bool) {
    println!(
        "## Targets: equijson >= {TARGET_VS_JCS:.1}x the faster JCS crate and >= \
         {TARGET_VS_ROUND_TRIP:.1}x the serde_json Value round trip, on every file\n"
    );
    let mut failed = Vec::new();
    let verdict = |ok: bool| if ok { "PASS" } else { "FAIL" };
    for (input, row) in inputs.iter().zip(cells) {
        let (vs_jcs, vs_rt) = ratios(&medians(input, row));
        for (what, ratio, target) in [
            ("vs best JCS", vs_jcs, TARGET_VS_JCS),
            ("vs serde_json RT", vs_rt, TARGET_VS_ROUND_TRIP),
        ] {
            let ok = ratio.is_some_and(|r| r >= target);
            println!(
                "- {:<18} {:<17} {:>7}  (target {target:.1}x)  {}",
                input.name,
                what,
                fmt_opt(ratio, |x| format!("{x:.2}x")),
                verdict(ok)
            );
            if !ok {
                failed.push(format!("{} {what}", input.name));
            }
        }
    }
    if !outputs_agree {
        failed.push("equijson output differs from serde_jcs (see the output check)".to_owned());
    }
    println!();
    if failed.is_empty() {
        println!("==> VERDICT: PASS - all targets met, outputs byte-identical to serde_jcs");
    } else {
        println!(
            "==> VERDICT: FAIL - {} check(s) missed: {}",
            failed.len(),
            failed.join("; ")
        );
    }
}
