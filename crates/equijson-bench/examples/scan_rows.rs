//! Per-row client cost of `pg scan` without a server: seeded contact documents, normalized
//! as the server's jsonb text, run through `live::check_row` (for `perf record`).
//!
//! `cargo run --release -p equijson-bench --example scan_rows -- [ROWS] [ROUNDS] [fast|paths|parts]`
//! (the reference check, every path, and `--paths direct,jsonb`'s check; `fast`: not the reference; `paths`: only `--paths direct,jsonb`'s; `parts`: then the pieces of a row's check timed
//! one by one). Wall and thread CPU time per row are printed.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    reason = "a command-line tool reporting its timing"
)]

use std::hint::black_box;
use std::time::Instant;

use serde::Deserialize as _;

use equijson_check::generate::Style;
use equijson_check::jsonb::{JsonbOptions, normalize};
use equijson_check::props::PropsConfig;
use equijson_pg::live::{ColumnKind, Describe, check_row};

type Check = dyn Fn(&equijson_check::decode::Input<'_>) -> equijson_check::decode::Report;

/// The paths of `pg scan --paths direct,jsonb`.
const DIRECT_JSONB: &[equijson_check::decode::DecodePath] = &[
    equijson_check::decode::DecodePath::Direct,
    equijson_check::decode::DecodePath::JsonbWire,
];

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rows: u64 = args
        .first()
        .map_or(Ok(20_000), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let rounds: u32 = args
        .get(1)
        .map_or(Ok(5), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let spec = equijson_check::dto::find("contact").ok_or("contact")?;
    let mut cfg = PropsConfig::new(42, rows, Some(spec));
    cfg.size = 3;
    let docs: Vec<Vec<u8>> = (0..rows)
        .filter_map(|i| {
            let (tree, style) = equijson_check::props::case(&cfg, i);
            let text = tree.render(Style::Seeded(style));
            normalize(text.as_bytes(), &JsonbOptions::default())
                .ok()
                .map(String::into_bytes)
        })
        .collect();
    let bytes: usize = docs.iter().map(Vec::len).sum();
    println!(
        "{} docs, avg {} bytes",
        docs.len(),
        bytes / docs.len().max(1)
    );
    let wire: Vec<Vec<u8>> = docs.iter().map(|d| [&[1u8][..], d].concat()).collect();
    let reference = |i: &equijson_check::decode::Input<'_>| (spec.check_reference)(i.text);
    let chosen = |i: &equijson_check::decode::Input<'_>| (spec.check_paths)(i, DIRECT_JSONB);
    let checks: [(&str, &Check); 3] = [
        ("reference", &reference),
        ("check_input", &spec.check_input),
        ("check_paths direct,jsonb", &chosen),
    ];
    for _ in 0..rounds {
        for (name, check) in checks {
            let mode = args.get(2).map(String::as_str);
            if (mode == Some("fast") && name == "reference")
                || (mode == Some("paths") && !name.starts_with("check_paths"))
                || mode == Some("findings")
            {
                continue;
            }
            let t = Instant::now();
            let cpu = thread_cpu_secs();
            let mut findings = 0usize;
            for w in &wire {
                findings +=
                    black_box(check_row(ColumnKind::Jsonb, w, None, check, Describe::No)).len();
            }
            let secs = t.elapsed().as_secs_f64();
            let cpu = thread_cpu_secs().zip(cpu).map_or(String::new(), |(b, a)| {
                format!(", cpu {:.2} µs/row", (b - a) * 1e6 / docs.len() as f64)
            });
            println!(
                "{name}: {:.2} µs/row ({findings} findings{cpu})",
                secs * 1e6 / docs.len() as f64
            );
        }
    }
    if args.get(2).map(String::as_str) == Some("findings") {
        // Only the rows with findings, `rounds` times (for `perf record`).
        let row = |w: &[u8]| check_row(ColumnKind::Jsonb, w, None, &chosen, Describe::No).len();
        let dirty: Vec<&Vec<u8>> = wire.iter().filter(|w| row(w) > 0).collect();
        for _ in 0..rounds {
            let t = Instant::now();
            let n: usize = dirty.iter().map(|w| black_box(row(w))).sum();
            println!(
                "check_paths direct,jsonb, {} rows with findings: {:.2} µs/row ({n} findings)",
                dirty.len(),
                t.elapsed().as_secs_f64() * 1e6 / dirty.len().max(1) as f64
            );
        }
    }
    if args.get(2).map(String::as_str) == Some("parts") {
        // The chosen paths' check on clean rows (the one-pass round-trip check) and on
        // rows with findings (both comparison forms, the diff) apart.
        let row = |w: &[u8]| check_row(ColumnKind::Jsonb, w, None, &chosen, Describe::No).len();
        let (dirty, clean): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
            wire.iter().cloned().partition(|w| row(w) > 0);
        time(
            "check_paths direct,jsonb, rows without findings",
            &clean,
            &row,
        );
        time("check_paths direct,jsonb, rows with findings", &dirty, &row);
        parts(&docs);
    }
    Ok(())
}

/// CPU time of this thread (user + system), on Linux: less disturbed than wall time when
/// other processes compete for the cores. `/proc/thread-self/stat` counts in `USER_HZ` ticks
/// (100 per second on Linux), so use runs of a second or more.
fn thread_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn time(name: &str, docs: &[Vec<u8>], f: &dyn Fn(&[u8]) -> usize) {
    let t = Instant::now();
    let mut n = 0usize;
    for d in docs {
        n += black_box(f(d));
    }
    println!(
        "  {name}: {:.2} µs/row ({n})",
        t.elapsed().as_secs_f64() * 1e6 / docs.len() as f64
    );
}

fn parts(docs: &[Vec<u8>]) {
    use equijson_check::dto::Contact;
    let o = JsonbOptions::default();
    time("jsonb normalize", docs, &|d| {
        normalize(d, &o).map_or(0, |s| s.len())
    });
    time("jsonb is_normalized (the scan's shortcut)", docs, &|d| {
        usize::from(equijson_check::jsonb::is_normalized(d))
    });
    time("from_slice Value", docs, &|d| {
        serde_json::from_slice::<serde_json::Value>(d).map_or(0, |_| 1)
    });
    time("from_slice Value + T::deserialize(&v)", docs, &|d| {
        let v: serde_json::Value = serde_json::from_slice(d).unwrap_or_default();
        Contact::deserialize(&v).map_or(0, |_| 1)
    });
    time("from_slice Value + from_value(v)", docs, &|d| {
        let v: serde_json::Value = serde_json::from_slice(d).unwrap_or_default();
        serde_json::from_value::<Contact>(v).map_or(0, |_| 1)
    });
    time("from_slice Contact", docs, &|d| {
        serde_json::from_slice::<Contact>(d).map_or(0, |_| 1)
    });
    time("canonicalize", docs, &|d| {
        equijson::canonicalize(d).map_or(0, |c| c.len())
    });
    time("from_slice Contact + to_canonical_vec", docs, &|d| {
        serde_json::from_slice::<Contact>(d)
            .ok()
            .and_then(|c| equijson::to_canonical_vec(&c).ok())
            .map_or(0, |c| c.len())
    });
    time("from_slice Contact + serde_json::to_vec", docs, &|d| {
        serde_json::from_slice::<Contact>(d)
            .ok()
            .and_then(|c| serde_json::to_vec(&c).ok())
            .map_or(0, |c| c.len())
    });
}
