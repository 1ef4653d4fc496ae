//! The allocation gate: allocations, bytes and time per decode of a contact row into
//! `equijson_check::dto::Contact`, for every decode path a service uses, with a counting global
//! allocator.
//!
//! `cargo bench -p equijson-bench --bench decode_allocs [-- --quick] [--rows N]`
//!
//! Each path starts from its input representation (text, jsonb wire bytes, canonical text,
//! decoded value), prepared before anything is counted or timed. Allocation counts come
//! from whole passes over the corpus between two snapshots of the allocator's counters;
//! ns/op is the median of many samples taken round-robin over the paths, with the order
//! rotated each round, so machine noise lands on all of them alike. The gate: the direct
//! path (`from_slice::<Contact>`) must make fewer than half the allocations of the DOM path
//! (`from_slice::<Value>` + `from_value(v.clone())`). The exit status is 0 whatever the
//! verdict (this is a report), and non-zero only if the corpus cannot be set up.
//! `--quick` (or `EQUIJSON_BENCH_QUICK=1`) is a smoke mode with few, short samples.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark whose product is a report printed to the terminal"
)]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use equijson_bench::counting_alloc::{AllocStats, CountingAlloc};
use equijson_bench::decode_paths::{Corpus, DEFAULT_ROWS, GEN_SIZE, JsonbSource, Path, Row, SEED};
use equijson_bench::stats::Stats;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc::new();

/// Environment variable that turns on the quick smoke mode (any value but `0` or empty).
const QUICK_ENV: &str = "EQUIJSON_BENCH_QUICK";

/// Counted passes over the corpus per path (after one uncounted warm-up pass).
const ALLOC_PASSES: u64 = 3;

struct Config {
    quick: bool,
    /// Generated rows (the catalogue sample comes on top).
    rows: usize,
    /// Warm-up time per path, also used to size the samples.
    warmup: Duration,
    /// Each sample runs enough passes over the corpus to last at least this long.
    sample_time: Duration,
    /// Number of samples per path.
    samples: usize,
}

impl Config {
    /// Reads the options; `Ok(None)` after printing the usage for `--help`.
    fn from_env() -> Result<Option<Self>, String> {
        let mut quick = std::env::var_os(QUICK_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        let mut rows = DEFAULT_ROWS;
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                // cargo passes `--bench` to every bench target.
                "--bench" => {}
                "--quick" => quick = true,
                "--rows" => {
                    let n = args.next().ok_or("--rows needs a number")?;
                    rows = n.parse().map_err(|e| format!("--rows {n}: {e}"))?;
                }
                "-h" | "--help" => {
                    println!(
                        "usage: cargo bench -p equijson-bench --bench decode_allocs \
                         [-- [--quick] [--rows N]]\n\
                         N generated contact rows (default {DEFAULT_ROWS}) plus the catalogue \
                         sample; {QUICK_ENV}=1 is the same as --quick"
                    );
                    return Ok(None);
                }
                other => eprintln!("note: ignoring unknown argument {other}"),
            }
        }
        Ok(Some(if quick {
            Self {
                quick,
                rows,
                warmup: Duration::from_millis(20),
                sample_time: Duration::from_millis(5),
                samples: 7,
            }
        } else {
            Self {
                quick,
                rows,
                warmup: Duration::from_millis(200),
                sample_time: Duration::from_millis(20),
                samples: 61,
            }
        }))
    }
}

fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(Some(config)) => config,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let corpus = match Corpus::generate(config.rows) {
        Ok(corpus) => corpus,
        Err(e) => {
            eprintln!("error: cannot set up the contact corpus: {e}");
            return ExitCode::FAILURE;
        }
    };

    print_header(&config, &corpus);
    let load_before = load_average();
    let counts: Vec<Counted> = Path::ALL.iter().map(|&p| count(p, &corpus.rows)).collect();
    let sample_counts: Option<Vec<Counted>> = corpus.has_sample.then(|| {
        Path::ALL
            .iter()
            .map(|&p| count(p, &corpus.rows[..1]))
            .collect()
    });
    let timings = measure(&config, &corpus.rows);
    let load_after = load_average();

    print_table(&corpus, &counts, &timings);
    if let Some(sample_counts) = &sample_counts {
        print_sample_table(&corpus.rows[0], sample_counts);
    }
    println!(
        "- load average (1/5/15 min) before measuring: {}; after: {}",
        load_before.as_deref().unwrap_or("unknown"),
        load_after.as_deref().unwrap_or("unknown"),
    );
    println!();
    print_verdict(&corpus, &counts);
    ExitCode::SUCCESS
}

#[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
fn per(total: u64, n: u64) -> f64 {
    total as f64 / n.max(1) as f64
}

fn rows_u64(rows: &[Row]) -> u64 {
    rows.len() as u64
}

fn print_header(config: &Config, corpus: &Corpus) {
    println!("# equijson allocation gate: decoding contact rows into dto::Contact\n");
    let (text, canonical, wire) = corpus.mean_bytes();
    println!(
        "- corpus: the catalogue's sample contact + {} generated (Gen::for_case({SEED:#x}, i, \
         {GEN_SIZE}), rendered Style::Compact); mean row size {:.1} bytes over all {} rows",
        config.rows, corpus.mean_generated_bytes, corpus.generated,
    );
    println!(
        "- measured: {} rows{}; mean bytes per row: text {text:.1}, canonical {canonical:.1}, \
         jsonb wire {wire:.1}",
        corpus.rows.len(),
        if corpus.has_sample {
            " (sample included)"
        } else {
            " (the sample row was excluded)"
        },
    );
    if !corpus.excluded.is_empty() {
        println!(
            "- excluded: {} row(s) that some path cannot decode, e.g.:",
            corpus.excluded.len()
        );
        for e in corpus.excluded.iter().take(3) {
            println!("  - {}", e.reason);
        }
    }
    match &corpus.jsonb {
        JsonbSource::ToWire => {
            println!(
                "- jsonb input: equijson_check::jsonb::to_wire (the PostgreSQL normalization model)"
            );
        }
        JsonbSource::StandIn {
            failed,
            first_error,
        } => println!(
            "- jsonb input: STAND-IN wire bytes 0x01 + row text, because \
             equijson_check::jsonb::to_wire failed on {failed} of {} rows (first error: {first_error:?}); \
             the jsonb path measures wire_text + from_slice of the unnormalized text",
            corpus.generated,
        ),
    }
    if corpus.disagreements.is_empty() {
        println!("- check: every path decodes every measured row to the same Contact as direct");
    } else {
        println!(
            "- check: {} (path, row) pair(s) decode to a different Contact than direct, e.g. {:?} \
             (measured anyway)",
            corpus.disagreements.len(),
            &corpus.disagreements[..corpus.disagreements.len().min(5)],
        );
    }
    println!(
        "- mode: {}; allocations from {ALLOC_PASSES} counted passes after 1 warm-up pass; \
         time: {} samples per path, each >= {} ms of whole passes, after {} ms warm-up; \
         round-robin, rotated order",
        if config.quick {
            "QUICK (smoke test, times are rough)"
        } else {
            "full"
        },
        config.samples,
        config.sample_time.as_millis(),
        config.warmup.as_millis(),
    );
    println!(
        "- op = one row; ns/op includes the counting allocator's overhead (relaxed atomic adds \
         per allocation), on every path alike"
    );
    if let Ok(n) = std::thread::available_parallelism() {
        println!("- available parallelism: {n}");
    }
    if cfg!(debug_assertions) {
        println!("- WARNING: built with debug assertions; times are not representative");
    }
    println!();
}

/// The first three fields of `/proc/loadavg`, where there is one.
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}

/// Allocation counts of one path over the corpus.
struct Counted {
    /// Totals over all counted passes.
    total: AllocStats,
    /// Operations counted (rows x passes).
    ops: u64,
    /// Whether every counted pass made exactly the same calls.
    deterministic: bool,
    error: Option<String>,
}

impl Counted {
    fn allocs_per_op(&self) -> f64 {
        per(self.total.allocs, self.ops)
    }
}

/// One warm-up pass, then [`ALLOC_PASSES`] passes between counter snapshots.
fn count(path: Path, rows: &[Row]) -> Counted {
    let mut counted = Counted {
        total: AllocStats::default(),
        ops: 0,
        deterministic: true,
        error: None,
    };
    if let Err(e) = path.run(rows) {
        counted.error = Some(e);
        return counted;
    }
    let mut first: Option<AllocStats> = None;
    for _ in 0..ALLOC_PASSES {
        let before = ALLOC.snapshot();
        let result = path.run(rows);
        let pass = ALLOC.snapshot().since(before);
        if let Err(e) = result {
            counted.error = Some(e);
            return counted;
        }
        counted.deterministic &= first.is_none_or(|f| f == pass);
        first.get_or_insert(pass);
        counted.total = AllocStats {
            allocs: counted.total.allocs + pass.allocs,
            reallocs: counted.total.reallocs + pass.reallocs,
            deallocs: counted.total.deallocs + pass.deallocs,
            bytes_allocated: counted.total.bytes_allocated + pass.bytes_allocated,
            bytes_deallocated: counted.total.bytes_deallocated + pass.bytes_deallocated,
        };
        counted.ops += rows_u64(rows);
    }
    counted
}

/// Timings of one path.
struct Timed {
    passes_per_sample: u32,
    /// Nanoseconds per operation, one entry per sample.
    ns_per_op: Vec<f64>,
    error: Option<String>,
}

impl Timed {
    fn stats(&self) -> Option<Stats> {
        if self.error.is_some() {
            return None;
        }
        Stats::of(&self.ns_per_op)
    }
}

/// Warms up and sizes every path, then takes the samples round-robin.
fn measure(config: &Config, rows: &[Row]) -> Vec<Timed> {
    let mut timed: Vec<Timed> = Path::ALL
        .iter()
        .map(|&p| warm_up(config, p, rows))
        .collect();
    let n = Path::ALL.len();
    for round in 0..config.samples {
        for k in 0..n {
            let i = (k + round) % n;
            let t = &mut timed[i];
            if t.error.is_some() {
                continue;
            }
            match sample(Path::ALL[i], rows, t.passes_per_sample) {
                Ok(elapsed) => {
                    let ops = f64::from(t.passes_per_sample) * per(rows_u64(rows), 1);
                    t.ns_per_op.push(elapsed.as_secs_f64() * 1e9 / ops);
                }
                Err(e) => t.error = Some(e),
            }
        }
    }
    timed
}

/// Runs `path` over the corpus for the warm-up time and picks the passes per sample.
fn warm_up(config: &Config, path: Path, rows: &[Row]) -> Timed {
    let start = Instant::now();
    let mut passes = 0u32;
    let error = loop {
        if let Err(e) = path.run(rows) {
            break Some(e);
        }
        passes += 1;
        if start.elapsed() >= config.warmup {
            break None;
        }
    };
    let per_pass = start.elapsed().as_secs_f64() / f64::from(passes.max(1));
    let passes_per_sample = (config.sample_time.as_secs_f64() / per_pass)
        .ceil()
        .clamp(1.0, 100_000.0) as u32;
    Timed {
        passes_per_sample,
        ns_per_op: Vec::with_capacity(config.samples),
        error,
    }
}

/// Times `passes` back-to-back passes over the corpus.
#[inline(never)]
fn sample(path: Path, rows: &[Row], passes: u32) -> Result<Duration, String> {
    let start = Instant::now();
    for _ in 0..passes {
        path.run(rows)?;
    }
    Ok(start.elapsed())
}

fn index(path: Path) -> usize {
    Path::ALL
        .iter()
        .position(|&p| p == path)
        .unwrap_or_default()
}

fn print_table(corpus: &Corpus, counts: &[Counted], timings: &[Timed]) {
    println!(
        "## Per decode of one contact row ({} rows; allocations exact, time = median)\n",
        corpus.rows.len()
    );
    println!(
        "| path | allocs/op | reallocs/op | bytes alloc/op | ns/op (median) | ns/op fastest..slowest \
         | samples x passes | allocs vs dom |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let dom = &counts[index(Path::Dom)];
    for ((path, c), t) in Path::ALL.iter().zip(counts).zip(timings) {
        let (allocs, reallocs, bytes, vs_dom) = match &c.error {
            Some(e) => (
                format!("error: {e}"),
                String::new(),
                String::new(),
                String::new(),
            ),
            None => (
                format!(
                    "{:.2}{}",
                    c.allocs_per_op(),
                    if c.deterministic { "" } else { " (varies)" }
                ),
                format!("{:.2}", per(c.total.reallocs, c.ops)),
                format!("{:.0}", per(c.total.bytes_allocated, c.ops)),
                if dom.error.is_none() && dom.total.allocs > 0 {
                    format!("{:.2}x", c.allocs_per_op() / dom.allocs_per_op())
                } else {
                    "n/a".to_owned()
                },
            ),
        };
        let (median, range) = match (t.stats(), &t.error) {
            (Some(s), _) => (
                format!("{:.0}", s.median),
                format!("{:.0}..{:.0}", s.fastest, s.slowest),
            ),
            (None, e) => (
                format!("error: {}", e.as_deref().unwrap_or("no samples")),
                String::new(),
            ),
        };
        println!(
            "| {} | {allocs} | {reallocs} | {bytes} | {median} | {range} | {} x {} | {vs_dom} |",
            path.name(),
            t.ns_per_op.len(),
            t.passes_per_sample,
        );
    }
    println!();
    for path in Path::ALL {
        println!(
            "- {}{}: {}",
            path.name(),
            if path.is_reference() {
                " (reference, not a decode path)"
            } else {
                ""
            },
            path.describe()
        );
    }
    println!();
}

fn print_sample_table(sample: &Row, counts: &[Counted]) {
    println!(
        "## The catalogue sample row alone ({} bytes of text)\n",
        sample.text.len()
    );
    println!("| path | allocs | reallocs | bytes alloc |");
    println!("|---|---:|---:|---:|");
    for (path, c) in Path::ALL.iter().zip(counts) {
        match &c.error {
            Some(e) => println!("| {} | error: {e} | | |", path.name()),
            None => println!(
                "| {} | {:.0} | {:.0} | {:.0} |",
                path.name(),
                c.allocs_per_op(),
                per(c.total.reallocs, c.ops),
                per(c.total.bytes_allocated, c.ops),
            ),
        }
    }
    println!();
}

fn print_verdict(corpus: &Corpus, counts: &[Counted]) {
    let dom = &counts[index(Path::Dom)];
    let direct = &counts[index(Path::Direct)];
    println!(
        "## Gate: the typed direct path needs well under half the allocations of the DOM path \
         (direct_allocs * 2 < dom_allocs, over {} rows)\n",
        corpus.rows.len()
    );
    let failure = match (&dom.error, &direct.error) {
        (Some(e), _) => Some(format!("the dom path failed: {e}")),
        (_, Some(e)) => Some(format!("the direct path failed: {e}")),
        _ if dom.ops != direct.ops => Some("the two paths were counted over different rows".into()),
        _ => None,
    };
    if let Some(why) = failure {
        println!("==> VERDICT: FAIL - {why}");
        return;
    }
    let pass = direct.total.allocs * 2 < dom.total.allocs;
    let ratio = if dom.total.allocs == 0 {
        "n/a (dom made no allocations)".to_owned()
    } else {
        format!(
            "{:.3}",
            per(direct.total.allocs, 1) / per(dom.total.allocs, 1)
        )
    };
    println!(
        "==> VERDICT: {} - direct/dom allocation ratio {ratio} (target < 0.5): direct {:.2} \
         allocs/op vs dom {:.2} allocs/op",
        if pass { "PASS" } else { "FAIL" },
        direct.allocs_per_op(),
        dom.allocs_per_op(),
    );
}
