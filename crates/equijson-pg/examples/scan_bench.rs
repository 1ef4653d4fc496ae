//! Benchmark (not a test): `pg scan` rows/s against raw binary COPY read by the same client, and peak RSS.
//!
//! `cargo run --release -p equijson-pg --example scan_bench -- [ROWS...] [--samples N] [--size S]`
//! (default: 1000000 rows, 3 samples). For each row count: an ephemeral cluster, a seeded
//! contacts table (`doc jsonb`), then interleaved samples of
//!   raw:  `COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)`, every tuple parsed;
//!   scan: `pg scan --column doc --dto contact` with every check on, one connection;
//!   scan --jobs 2: the same on two connections (the machine has two cores).
//! Each scan sample runs in a child process so that its peak RSS is its own.
//! A second table gives CPU per row: the server's (all its processes, from /proc) for the
//! raw COPY, for the scan's own COPY query (key, value and the value's text) drained
//! unchecked, and during the scan; and the scan process's own (every thread).

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    reason = "a benchmark prints rates"
)]

use std::io::{BufReader, Read};
use std::process::Command;
use std::time::Instant;

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::scan::{ScanOptions, scan_parallel};
use equijson_pg::seed::seed_contacts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child-scan") {
        return child_scan(&args[1..]);
    }
    let mut rows = Vec::new();
    let mut samples = 3usize;
    let mut size = 3usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--samples" => samples = it.next().ok_or("--samples N")?.parse()?,
            "--size" => size = it.next().ok_or("--size S")?.parse()?,
            n => rows.push(n.parse::<u64>()?),
        }
    }
    if rows.is_empty() {
        rows.push(1_000_000);
    }
    println!(
        "| rows | avg doc bytes | raw COPY rows/s | scan rows/s (1 conn) | scan / raw | scan rows/s (--jobs 2) | jobs 2 / raw | scan peak RSS |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut costs = Vec::new();
    for n in rows {
        let cluster = EphemeralCluster::start()?;
        eprintln!("{}", cluster.describe());
        let mut client = cluster.config().connect(postgres::NoTls)?;
        let t = Instant::now();
        seed_contacts(&mut client, "contacts", n, 42, size, false)?;
        client.batch_execute("VACUUM ANALYZE contacts")?;
        let avg: f64 = client
            .query_one(
                "SELECT avg(octet_length(doc::text))::float8 FROM contacts",
                &[],
            )?
            .get(0);
        eprintln!(
            "seeded {n} rows (avg {avg:.0} bytes) in {:.1}s",
            t.elapsed().as_secs_f64()
        );
        let url = cluster.connection_string();
        let backend: i32 = client.query_one("SELECT pg_backend_pid()", &[])?.get(0);
        let postmaster = parent_pid(backend).ok_or("no postmaster pid")?;
        let (mut raw, mut one, mut two, mut rss) = (Vec::new(), Vec::new(), Vec::new(), 0u64);
        let mut cost = Cost::default();
        for s in 0..samples {
            let before = server_cpu_secs(postmaster);
            raw.push(raw_copy(&mut client, RAW_SQL, n)?);
            cost.raw_server
                .push(per_row(server_cpu_secs(postmaster) - before, n));
            let before = server_cpu_secs(postmaster);
            let drained = raw_copy(&mut client, SCAN_SQL, n)?;
            cost.scan_query.push(drained);
            cost.scan_query_server
                .push(per_row(server_cpu_secs(postmaster) - before, n));
            let before = server_cpu_secs(postmaster);
            let (r1, m1, cpu1) = spawn_scan(&url, 1)?;
            cost.scan_server
                .push(per_row(server_cpu_secs(postmaster) - before, n));
            cost.scan_client.push(per_row(cpu1, n));
            let (r2, m2, _) = spawn_scan(&url, 2)?;
            one.push(r1);
            two.push(r2);
            rss = rss.max(m1).max(m2);
            eprintln!(
                "sample {s}: raw {:.0} rows/s, scan query drained {drained:.0} rows/s, scan {r1:.0} rows/s, scan --jobs 2 {r2:.0} rows/s, rss {} MiB",
                raw[s],
                m1.max(m2) >> 20
            );
        }
        costs.push((n, cost));
        let (r, o, t2) = (median(&mut raw), median(&mut one), median(&mut two));
        println!(
            "| {n} | {avg:.0} | {r:.0} | {o:.0} | {:.1}% | {t2:.0} | {:.1}% | {:.1} MiB |",
            100.0 * o / r,
            100.0 * t2 / r,
            rss as f64 / 1_048_576.0
        );
    }
    println!();
    println!(
        "| rows | server CPU µs/row, raw COPY | scan's COPY drained rows/s | server CPU µs/row, scan's COPY | server CPU µs/row during scan | client CPU µs/row, scan (all threads) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for (n, mut c) in costs {
        println!(
            "| {n} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2} |",
            median(&mut c.raw_server),
            median(&mut c.scan_query),
            median(&mut c.scan_query_server),
            median(&mut c.scan_server),
            median(&mut c.scan_client)
        );
    }
    Ok(())
}

/// The competitor: the column alone.
const RAW_SQL: &str = "COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)";
/// What `pg scan` asks the server for (key, value, the value's text form), drained unchecked.
const SCAN_SQL: &str =
    "COPY (SELECT NULL::text, doc, doc::text FROM contacts) TO STDOUT (FORMAT binary)";

/// Medians of per-row costs, in µs.
#[derive(Default)]
struct Cost {
    raw_server: Vec<f64>,
    scan_query: Vec<f64>,
    scan_query_server: Vec<f64>,
    scan_server: Vec<f64>,
    scan_client: Vec<f64>,
}

fn per_row(secs: f64, rows: u64) -> f64 {
    secs * 1e6 / rows as f64
}

/// Field `i` (1-based, as in proc(5)) of `/proc/PID/stat`.
fn stat_fields(pid: i32) -> Option<Vec<u64>> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name in parentheses: field 3 onwards.
    let rest = &s[s.rfind(')')? + 2..];
    let mut v = vec![0, 0];
    v.extend(
        rest.split_whitespace()
            .map(|f| f.parse::<u64>().unwrap_or(0)),
    );
    Some(v)
}

fn parent_pid(pid: i32) -> Option<i32> {
    stat_fields(pid).and_then(|f| i32::try_from(*f.get(3)?).ok())
}

/// CPU seconds of a process (user + system), with its waited-for children if `reaped`.
fn cpu_secs(pid: i32, reaped: bool) -> f64 {
    let ticks = clock_ticks();
    stat_fields(pid).map_or(0.0, |f| {
        let own = f.get(13).copied().unwrap_or(0) + f.get(14).copied().unwrap_or(0);
        let children = if reaped {
            f.get(15).copied().unwrap_or(0) + f.get(16).copied().unwrap_or(0)
        } else {
            0
        };
        (own + children) as f64 / ticks
    })
}

/// CPU seconds of the whole server: the postmaster, the backends it has reaped, and the
/// processes still running under it.
fn server_cpu_secs(postmaster: i32) -> f64 {
    let mut total = cpu_secs(postmaster, true);
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            if let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<i32>().ok())
                && parent_pid(pid) == Some(postmaster)
            {
                total += cpu_secs(pid, false);
            }
        }
    }
    total
}

fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Raw binary COPY of the column, every tuple's fields parsed (lengths walked), rows/s.
fn raw_copy(
    client: &mut postgres::Client,
    sql: &str,
    expect: u64,
) -> Result<f64, Box<dyn std::error::Error>> {
    let t = Instant::now();
    let reader = client.copy_out(sql)?;
    let mut r = BufReader::with_capacity(256 * 1024, reader);
    let mut header = [0u8; 19];
    r.read_exact(&mut header)?;
    let mut rows = 0u64;
    let mut buf = Vec::new();
    let mut bytes = 0u64;
    loop {
        let mut n = [0u8; 2];
        r.read_exact(&mut n)?;
        let fields = i16::from_be_bytes(n);
        if fields < 0 {
            break;
        }
        for _ in 0..fields {
            let mut len = [0u8; 4];
            r.read_exact(&mut len)?;
            let len = i32::from_be_bytes(len);
            if len > 0 {
                buf.clear();
                (&mut r).take(len as u64).read_to_end(&mut buf)?;
                bytes += buf.len() as u64;
            }
        }
        rows += 1;
    }
    std::io::copy(&mut r, &mut std::io::sink())?;
    assert_eq!(rows, expect, "raw COPY read every row");
    std::hint::black_box(bytes);
    Ok(rows as f64 / t.elapsed().as_secs_f64())
}

/// Runs one scan in a child process: (rows/s, peak RSS bytes, CPU seconds of the scan).
fn spawn_scan(url: &str, jobs: u32) -> Result<(f64, u64, f64), Box<dyn std::error::Error>> {
    let out = Command::new(std::env::current_exe()?)
        .args(["--child-scan", url, &jobs.to_string()])
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "child scan failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let text = String::from_utf8(out.stdout)?;
    let mut parts = text.split_whitespace();
    let rate: f64 = parts.next().ok_or("no rate")?.parse()?;
    let rss: u64 = parts.next().ok_or("no rss")?.parse()?;
    let cpu: f64 = parts.next().ok_or("no cpu")?.parse()?;
    Ok((rate, rss, cpu))
}

fn child_scan(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = args.first().ok_or("url")?;
    let jobs: u32 = args.get(1).ok_or("jobs")?.parse()?;
    let config: postgres::Config = url.parse()?;
    let cpu_before = cpu_secs(i32::try_from(std::process::id())?, false);
    let spec = equijson_check::dto::find("contact").ok_or("contact")?;
    let opts = ScanOptions {
        table: "contacts".into(),
        column: "doc".into(),
        // Checker threads per connection (default: one per core).
        threads: std::env::var("SCAN_THREADS")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0),
        ..ScanOptions::default()
    };
    let report = scan_parallel(
        &config,
        &opts,
        jobs,
        spec.name,
        &|b| (spec.check_input)(b),
        &|_, _| {},
    )?;
    if !report.complete || report.divergences != 0 {
        return Err(format!("scan not clean:\n{}", report.render()).into());
    }
    let cpu = cpu_secs(i32::try_from(std::process::id())?, false) - cpu_before;
    println!("{} {} {cpu}", report.rows_per_sec, report.peak_rss_bytes);
    Ok(())
}
