//! Benchmark (not a test): `pg scan` rows/s against raw binary COPY read by the same client, and peak RSS.
//!
//! `cargo run --release -p equijson-pg --example scan_bench -- [ROWS...] [--samples N] [--size S]`
//! (default: 1000000 rows, 3 samples). For each row count: an ephemeral cluster, a seeded
//! contacts table (`doc jsonb`), then interleaved samples of
//!   raw:  `COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)`, every tuple parsed;
//!   scan: `pg scan --column doc --dto contact` with every check on, one connection;
//!   scan --jobs 2: the same on two connections (the machine has two cores).
//! Each scan sample runs in a child process so that its peak RSS is its own.

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
        let (mut raw, mut one, mut two, mut rss) = (Vec::new(), Vec::new(), Vec::new(), 0u64);
        for s in 0..samples {
            raw.push(raw_copy(&mut client, n)?);
            let (r1, m1) = spawn_scan(&url, 1)?;
            let (r2, m2) = spawn_scan(&url, 2)?;
            one.push(r1);
            two.push(r2);
            rss = rss.max(m1).max(m2);
            eprintln!(
                "sample {s}: raw {:.0} rows/s, scan {r1:.0} rows/s, scan --jobs 2 {r2:.0} rows/s, rss {} MiB",
                raw[s],
                m1.max(m2) >> 20
            );
        }
        let (r, o, t2) = (median(&mut raw), median(&mut one), median(&mut two));
        println!(
            "| {n} | {avg:.0} | {r:.0} | {o:.0} | {:.1}% | {t2:.0} | {:.1}% | {:.1} MiB |",
            100.0 * o / r,
            100.0 * t2 / r,
            rss as f64 / 1_048_576.0
        );
    }
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Raw binary COPY of the column, every tuple's fields parsed (lengths walked), rows/s.
fn raw_copy(client: &mut postgres::Client, expect: u64) -> Result<f64, Box<dyn std::error::Error>> {
    let t = Instant::now();
    let reader = client.copy_out("COPY (SELECT doc FROM contacts) TO STDOUT (FORMAT binary)")?;
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

/// Runs one scan in a child process: (rows/s, peak RSS bytes).
fn spawn_scan(url: &str, jobs: u32) -> Result<(f64, u64), Box<dyn std::error::Error>> {
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
    Ok((rate, rss))
}

fn child_scan(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = args.first().ok_or("url")?;
    let jobs: u32 = args.get(1).ok_or("jobs")?.parse()?;
    let config: postgres::Config = url.parse()?;
    let spec = equijson::dto::find("contact").ok_or("contact")?;
    let opts = ScanOptions {
        table: "contacts".into(),
        column: "doc".into(),
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
    println!("{} {}", report.rows_per_sec, report.peak_rss_bytes);
    Ok(())
}
