//! Contact rows per second through `equijson_canonical(jsonb)` against `doc::text` in the same run.
//!
//! `cargo run --release -p equijson-pg --example sql_canonical_bench -- [--rows N] [--samples K] [--size S] [--workers W]`
//! (`just bench-sql-canonical`). `--workers W` sets `max_parallel_workers_per_gather` for both
//! queries (the server's default, 2, when omitted; 0 measures one backend alone). Uses `DATABASE_URL` if set, else an ephemeral cluster;
//! seeds a `contacts` table with generated contact rows (the `contact` DTO's generator),
//! installs the function, then alternates the two queries K times and prints medians.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its table"
)]
#![allow(
    clippy::cast_precision_loss,
    reason = "rates are shown, not computed on"
)]

use std::time::Instant;

use equijson_pg::canonical_sql;
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::connect;
use equijson_pg::seed::seed_contacts;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rows = 1_000_000u64;
    let mut samples = 3usize;
    let mut size = 3usize;
    let mut workers: Option<u32> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rows" => rows = it.next().ok_or("--rows N")?.parse()?,
            "--samples" => samples = it.next().ok_or("--samples K")?.parse()?,
            "--size" => size = it.next().ok_or("--size S")?.parse()?,
            "--workers" => workers = Some(it.next().ok_or("--workers W")?.parse()?),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let samples = samples.max(1);
    let (_cluster, config) = match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => (None, url.parse::<postgres::Config>()?),
        _ => {
            let c = EphemeralCluster::start()?;
            let cfg = c.config();
            eprintln!("server: {}", c.describe());
            (Some(c), cfg)
        }
    };
    let mut client = connect(&config)?;
    eprintln!("seeding {rows} contact rows...");
    seed_contacts(&mut client, "contacts_sqlbench", rows, 42, size, false)?;
    client.batch_execute("VACUUM ANALYZE contacts_sqlbench")?;
    canonical_sql::install(&mut client, "public")?;
    if let Some(w) = workers {
        client.batch_execute(&format!("SET max_parallel_workers_per_gather = {w}"))?;
    }
    let per_gather: String = client
        .query_one("SHOW max_parallel_workers_per_gather", &[])?
        .get(0);
    let avg: f64 = client
        .query_one(
            "SELECT avg(octet_length(doc::text))::float8 FROM contacts_sqlbench",
            &[],
        )?
        .get(0);
    let queries = [
        (
            "doc::text",
            "SELECT sum(octet_length(doc::text)) FROM contacts_sqlbench",
        ),
        (
            "equijson_canonical(doc)",
            "SELECT sum(octet_length(public.equijson_canonical(doc))) FROM contacts_sqlbench",
        ),
    ];
    let mut rates = vec![Vec::new(); queries.len()];
    for s in 0..samples {
        for (i, (name, q)) in queries.iter().enumerate() {
            let t = Instant::now();
            client.query_one(*q, &[])?;
            let r = rows as f64 / t.elapsed().as_secs_f64();
            eprintln!("sample {}: {name}: {r:.0} rows/s", s + 1);
            rates[i].push(r);
        }
    }
    let base = median(&mut rates[0]);
    let canon = median(&mut rates[1]);
    println!(
        "rows: {rows}, average doc::text size: {avg:.0} bytes, samples: {samples} (medians), \
         max_parallel_workers_per_gather: {per_gather}"
    );
    println!("| query | rows/s | vs doc::text |");
    println!("|---|---:|---:|");
    println!("| `doc::text` | {base:.0} | 1.00x |");
    println!(
        "| `equijson_canonical(doc)` | {canon:.0} | {:.3}x |",
        canon / base
    );
    Ok(())
}
