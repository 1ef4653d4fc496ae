//! Benchmark (not a test): `pg scan` rows/s against raw binary COPY read by the same client, and peak RSS.
//!
//! `cargo run --release -p equijson-pg --example scan_bench -- [ROWS...] [--samples N] [--size S]`
//! (default: 1000000 rows, 3 samples). For each row count: an ephemeral cluster, a seeded
//! contacts table (`doc jsonb`), then interleaved samples of
//!   raw:  `COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)`, every tuple parsed;
//!   scan: `pg scan --column doc --dto contact` with every path (the catalogue DTO
//!   declares them all), one connection;
//!   scan --jobs 2: the same on two connections (the machine has two cores);
//!   scan --paths direct,jsonb: only those two paths, one connection, and with --jobs 2;
//!   binary: the `equijson` binary's own `pg scan --dto contact --paths direct,jsonb`,
//!   timed over its whole process (start-up, connecting, counting, the JSON report).
//! Each scan sample runs in a child process so that its peak RSS is its own. A raw COPY
//! runs before the first scan of a sample and after each scan; each scan's ratio is to the
//! mean of the raw COPYs just before and after it (the load of a shared machine drifts),
//! then the median over the samples.
//! A second table gives CPU per row: the server's (all its processes, from /proc) for the
//! raw COPY, for the scan's own COPY query (key and value) drained unchecked, and during
//! the scans; and each scan process's own (every thread).

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    reason = "a benchmark prints rates"
)]

use std::fmt::Write as _;
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
    println!("load average at the start: {}", load_average());
    let mut table = Vec::new();
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
        let mut m = Measured::default();
        let mut rss = 0u64;
        let me = i32::try_from(std::process::id())?;
        // Raw COPY of the column: its rate, and the CPU per row of the server and of this
        // process (which does nothing else meanwhile).
        let raw_copy_measured = |m: &mut Measured,
                                 client: &mut postgres::Client|
         -> Result<f64, Box<dyn std::error::Error>> {
            let (server, own) = (server_cpu_secs(postmaster), cpu_secs(me, false));
            let raw = raw_copy(client, RAW_SQL, n)?;
            m.raw.push(raw);
            m.raw_server
                .push(per_row(server_cpu_secs(postmaster) - server, n));
            m.raw_client.push(per_row(cpu_secs(me, false) - own, n));
            Ok(raw)
        };
        for s in 0..samples {
            let raw = raw_copy_measured(&mut m, &mut client)?;
            let before = server_cpu_secs(postmaster);
            let drained = raw_copy(&mut client, SCAN_SQL, n)?;
            m.scan_query.push(drained);
            m.scan_query_server
                .push(per_row(server_cpu_secs(postmaster) - before, n));
            let mut line =
                format!("sample {s}: raw {raw:.0} rows/s, scan query drained {drained:.0}");
            // Each scan is held against the mean of the raw COPYs just before and just
            // after it: the machine's load drifts less within that window.
            let mut raw_before = raw;
            for (i, (how, paths, jobs)) in SCANS.iter().enumerate() {
                let before = server_cpu_secs(postmaster);
                let (rate, peak, cpu) = match how {
                    How::Library => spawn_scan(&url, *jobs, paths)?,
                    How::Binary => spawn_binary_scan(&url, *jobs, paths, n)?,
                };
                // The server's CPU over the scan alone: read before the raw COPY that
                // follows it (until session 7 it was read after, and so counted that raw
                // COPY's server CPU too: about 1.6 µs a row too much).
                m.servers[i].push(per_row(server_cpu_secs(postmaster) - before, n));
                let raw_after = raw_copy_measured(&mut m, &mut client)?;
                let raw = f64::midpoint(raw_before, raw_after);
                raw_before = raw_after;
                m.scans[i].push(rate);
                m.ratios[i].push(rate / raw);
                m.clients[i].push(per_row(cpu, n));
                rss = rss.max(peak);
                let _ = write!(
                    line,
                    ", {}{paths} --jobs {jobs} {rate:.0} ({:.1}%)",
                    how.prefix(),
                    100.0 * rate / raw
                );
            }
            eprintln!("{line}, rss {} MiB, load {}", rss >> 20, load_average());
        }
        table.push((n, avg, rss));
        costs.push(m);
    }
    println!("load average at the end: {}", load_average());
    print_tables(&table, &mut costs);
    Ok(())
}

/// Prints the rates table and the CPU table: medians of each row count's samples.
fn print_tables(table: &[(u64, f64, u64)], costs: &mut [Measured]) {
    println!();
    print!("| rows | avg doc bytes | raw COPY rows/s |");
    for (how, paths, jobs) in SCANS {
        print!(" {}`{paths}` --jobs {jobs} rows/s (vs raw) |", how.prefix());
    }
    println!(" scan peak RSS |");
    println!("|---:|---:|---:|{}---:|", "---:|".repeat(SCANS.len()));
    for ((n, avg, rss), m) in table.iter().zip(costs.iter_mut()) {
        print!("| {n} | {avg:.0} | {:.0} |", median(&mut m.raw));
        for i in 0..SCANS.len() {
            print!(
                " {:.0} ({:.1}%) |",
                median(&mut m.scans[i]),
                100.0 * median(&mut m.ratios[i])
            );
        }
        println!(" {:.1} MiB |", *rss as f64 / 1_048_576.0);
    }
    println!();
    print!(
        "| rows | raw COPY: server / client CPU µs/row | scan's COPY drained rows/s | server CPU µs/row, scan's COPY |"
    );
    for (how, paths, jobs) in SCANS {
        print!(
            " {}`{paths}` --jobs {jobs}: server / client CPU µs/row |",
            how.prefix()
        );
    }
    println!();
    println!("|---:|---:|---:|---:|{}", "---:|".repeat(SCANS.len()));
    for ((n, _, _), m) in table.iter().zip(costs.iter_mut()) {
        print!(
            "| {n} | {:.2} / {:.2} | {:.0} | {:.2} |",
            median(&mut m.raw_server),
            median(&mut m.raw_client),
            median(&mut m.scan_query),
            median(&mut m.scan_query_server)
        );
        for i in 0..SCANS.len() {
            print!(
                " {:.2} / {:.2} |",
                median(&mut m.servers[i]),
                median(&mut m.clients[i])
            );
        }
        println!();
    }
}

/// How a scan is run.
#[derive(Clone, Copy)]
enum How {
    /// `scan_parallel` in a child process of this bench (the rate the scan reports).
    Library,
    /// The `equijson` binary itself, `pg scan ... --format json`: the rate is the rows over
    /// the whole process's wall time (start-up, connecting, counting, the report).
    Binary,
}

impl How {
    fn prefix(self) -> &'static str {
        match self {
            Self::Library => "",
            Self::Binary => "binary ",
        }
    }
}

/// The scans measured: how, `--paths` (`all`: every path) and `--jobs`.
const SCANS: [(How, &str, u32); 5] = [
    (How::Library, "all", 1),
    (How::Library, "all", 2),
    (How::Library, "direct,jsonb", 1),
    (How::Library, "direct,jsonb", 2),
    (How::Binary, "direct,jsonb", 1),
];

/// The system's load averages (1, 5, 15 minutes), as `/proc/loadavg` gives them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".to_owned(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// The competitor: the column alone.
const RAW_SQL: &str = "COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)";
/// What `pg scan` asks the server for on a jsonb column (key, value), drained unchecked.
const SCAN_SQL: &str = "COPY (SELECT NULL::text, doc FROM contacts) TO STDOUT (FORMAT binary)";

/// The samples of one row count: rates (rows/s), ratios to the same sample's raw COPY,
/// CPU per row (µs); per scan of [`SCANS`] where indexed.
#[derive(Default)]
struct Measured {
    raw: Vec<f64>,
    raw_server: Vec<f64>,
    raw_client: Vec<f64>,
    scan_query: Vec<f64>,
    scan_query_server: Vec<f64>,
    scans: [Vec<f64>; SCANS.len()],
    ratios: [Vec<f64>; SCANS.len()],
    servers: [Vec<f64>; SCANS.len()],
    clients: [Vec<f64>; SCANS.len()],
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
fn spawn_scan(
    url: &str,
    jobs: u32,
    paths: &str,
) -> Result<(f64, u64, f64), Box<dyn std::error::Error>> {
    let out = Command::new(std::env::current_exe()?)
        .args(["--child-scan", url, &jobs.to_string(), paths])
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

/// Runs `equijson pg scan --dto contact --paths PATHS --jobs JOBS --format json` (the
/// binary named by `EQUIJSON_BIN`, else `equijson` beside this bench's directory, as `just
/// bench-pg` builds it): (rows/s over the process's wall time, its peak RSS, its CPU
/// seconds). The report must say every row was read.
fn spawn_binary_scan(
    url: &str,
    jobs: u32,
    paths: &str,
    rows: u64,
) -> Result<(f64, u64, f64), Box<dyn std::error::Error>> {
    let bin = match std::env::var_os("EQUIJSON_BIN") {
        Some(b) => std::path::PathBuf::from(b),
        None => std::env::current_exe()?
            .parent()
            .and_then(std::path::Path::parent)
            .ok_or("no directory of the bench")?
            .join("equijson"),
    };
    let me = i32::try_from(std::process::id())?;
    // This process's reaped children's CPU: the scan is the only child reaped meanwhile.
    let reaped = || cpu_secs(me, true) - cpu_secs(me, false);
    let cpu_before = reaped();
    let t = Instant::now();
    let out = Command::new(&bin)
        .args(["pg", "scan", "--database-url", url, "--table", "contacts"])
        .args(["--column", "doc", "--dto", "contact", "--paths", paths])
        .args(["--jobs", &jobs.to_string(), "--format", "json"])
        .output()
        .map_err(|e| {
            format!(
                "{}: {e} (build it: cargo build --release -p equijson-cli)",
                bin.display()
            )
        })?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = reaped() - cpu_before;
    if !out.status.success() {
        return Err(format!(
            "{} pg scan failed ({}): {}",
            bin.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    if report["complete"] != serde_json::Value::Bool(true)
        || report["rows_read"].as_u64() != Some(rows)
        || report["divergences"].as_u64() != Some(0)
    {
        return Err(format!("binary scan not complete and clean: {report}").into());
    }
    let rss = report["peak_rss_bytes"].as_u64().unwrap_or(0);
    Ok((rows as f64 / secs, rss, cpu))
}

fn child_scan(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = args.first().ok_or("url")?;
    let jobs: u32 = args.get(1).ok_or("jobs")?.parse()?;
    let config: postgres::Config = url.parse()?;
    let cpu_before = cpu_secs(i32::try_from(std::process::id())?, false);
    let spec = equijson_check::dto::find("contact").ok_or("contact")?;
    let paths = match args.get(2).map(String::as_str) {
        None | Some("all") => spec.paths.to_vec(),
        Some(list) => equijson_check::decode::parse_paths(list)?,
    };
    let opts = ScanOptions {
        paths: paths.clone(),
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
        &|b| (spec.check_paths)(b, &paths),
        &|_, _| {},
    )?;
    if !report.complete || report.divergences != 0 {
        return Err(format!("scan not clean:\n{}", report.render()).into());
    }
    let cpu = cpu_secs(i32::try_from(std::process::id())?, false) - cpu_before;
    println!("{} {} {cpu}", report.rows_per_sec, report.peak_rss_bytes);
    Ok(())
}
