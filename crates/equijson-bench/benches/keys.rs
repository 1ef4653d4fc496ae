//! Sorting member names: one object of 1,000,000 members with shuffled ASCII names against
//! the same with non-ASCII names (Latin-1, Greek, CJK, U+E000..U+FFFF and supplementary
//! characters, where UTF-16 order differs from UTF-8 order).
//!
//! `cargo bench -p equijson-bench --bench keys [-- --quick]`. Medians of interleaved
//! samples; the figure to watch is the time ratio non-ASCII / ASCII.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    reason = "a benchmark whose product is a report printed to the terminal"
)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use equijson::{Canonicalizer, Options};
use equijson_bench::stats::Stats;
use equijson_bench::synth::Xorshift;

/// `{"name":0,...}` with `count` distinct names drawn from `alphabet`, in random order.
fn object(count: usize, alphabet: &[char], seed: u64) -> Vec<u8> {
    let mut r = Xorshift::new(seed);
    let mut names = std::collections::HashSet::with_capacity(count);
    let mut s = String::from("{");
    while names.len() < count {
        let mut name = String::new();
        for _ in 0..6 {
            name.push(alphabet[r.below(alphabet.len() as u64) as usize]);
        }
        if names.insert(name.clone()) {
            if names.len() > 1 {
                s.push(',');
            }
            let _ = write!(s, "\"{name}\":{}", names.len());
        }
    }
    s.push('}');
    s.into_bytes()
}

fn main() -> ExitCode {
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("EQUIJSON_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0");
    let count = if quick { 100_000 } else { 1_000_000 };
    let rounds = if quick { 3 } else { 9 };
    let ascii: Vec<char> = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
    let wide: Vec<char> = [
        'é', 'ß', 'ø', 'λ', 'Ω', 'ж', '中', '文', '字', '\u{e000}', '\u{fb33}', '\u{ff21}', '😂',
        '𝄞', '🚀', 'a',
    ]
    .into_iter()
    .collect();
    let cases = [
        ("ASCII names", object(count, &ascii, 1)),
        ("non-ASCII names", object(count, &wide, 2)),
    ];
    let mut c = Canonicalizer::new(Options::default());
    let mut out = Vec::new();
    let mut secs = vec![Vec::new(); cases.len()];
    for _ in 0..rounds {
        for (i, (_, input)) in cases.iter().enumerate() {
            out.clear();
            let t = Instant::now();
            if c.canonicalize_into(input, &mut out).is_err() {
                eprintln!("error: generated object is invalid");
                return ExitCode::FAILURE;
            }
            secs[i].push(t.elapsed().as_secs_f64());
            black_box(&out);
        }
    }
    println!("# One object of {count} members, names of 6 characters, median of {rounds}\n");
    println!("| names | input MB | ms | members/s |");
    println!("|---|---:|---:|---:|");
    let med: Vec<f64> = secs
        .iter()
        .map(|s| Stats::of(s).map_or(0.0, |s| s.median))
        .collect();
    for (i, (name, input)) in cases.iter().enumerate() {
        println!(
            "| {name} | {:.1} | {:.1} | {:.0} |",
            input.len() as f64 / 1e6,
            med[i] * 1e3,
            count as f64 / med[i]
        );
    }
    println!("\nnon-ASCII / ASCII time: {:.2}x", med[1] / med[0]);
    ExitCode::SUCCESS
}
