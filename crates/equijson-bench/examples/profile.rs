//! Runs one implementation over one corpus file in a loop, for `perf record` or callgrind.
//!
//! `cargo run --profile profiling -p equijson-bench --example profile -- FILE [ITERATIONS] [IMPLEMENTATION]`
//! (the `profiling` profile is release with line tables, for symbolized profiles)
//!
//! FILE is a corpus name (`canada`, `citm_catalog`, `twitter`, with or without `.json`,
//! read from the benchmark data directory) or a path. IMPLEMENTATION defaults to `equijson`;
//! others: `serde_jcs`, `serde_json_canonicalizer`, `roundtrip`, `ignoredany`.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line tool reporting its timing"
)]

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use equijson_bench::{Implementation, Runner};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: profile FILE [ITERATIONS] [IMPLEMENTATION]";
    let file = args.first().ok_or(usage)?;
    let iterations: u32 = match args.get(1) {
        Some(n) => n
            .parse()
            .map_err(|e| format!("bad iteration count {n:?}: {e}\n{usage}"))?,
        None => 100,
    };
    let implementation = match args.get(2) {
        Some(name) => Implementation::from_arg(name)
            .ok_or_else(|| format!("unknown implementation {name:?}\n{usage}"))?,
        None => Implementation::Equijson,
    };

    let input = if std::path::Path::new(file).is_file() {
        std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?
    } else {
        let has_extension = std::path::Path::new(file)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let name = if has_extension {
            file.clone()
        } else {
            format!("{file}.json")
        };
        equijson_bench::load(&[name.as_str()])?.swap_remove(0).bytes
    };

    let mut runner = Runner::new(implementation);
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(runner.run(black_box(&input))?);
    }
    let seconds = start.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss, reason = "file sizes are far below 2^52")]
    let mb = input.len() as f64 / 1e6 * f64::from(iterations);
    println!(
        "{}: {iterations} iterations of {} bytes in {seconds:.3} s = {:.1} MB/s",
        implementation.name(),
        input.len(),
        mb / seconds
    );
    Ok(())
}
