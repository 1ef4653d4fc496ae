//! `equijson report merge`: adds shard reports of `pg scan --shard K/N` into one.

use clap::{Args, Subcommand};
use equijson::untrusted::escape;
use equijson_pg::live::ScanReport;
use equijson_pg::report_seal;

use crate::exit::Status;
use crate::pg::{Format, emit_scan};

/// Work with scan reports (merge shard reports).
#[derive(Args, Debug)]
pub(crate) struct ReportArgs {
    #[command(subcommand)]
    command: ReportCommand,
}

#[derive(Subcommand, Debug)]
enum ReportCommand {
    /// Add shard reports (`pg scan --shard K/N --format json`) into one. The result is
    /// complete only if every shard is complete and shards 1..N are each present once;
    /// reports of another table, column or DTO, cut differently (--key, --where,
    /// --limit), of another snapshot, cluster, table identity or key-changing setting
    /// (`TimeZone`, `DateStyle`, ...), inconsistent in themselves, or whose digest does not
    /// match (with `EQUIJSON_REPORT_KEY` set: not signed with it) are refused naming the
    /// files. Exit 0, 1 or 2 as `pg scan`.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Report files (JSON from `pg scan --shard K/N --format json`), one per shard.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
}

/// Runs `equijson report ...`.
pub(crate) fn run_report(args: &ReportArgs) -> Status {
    let ReportCommand::Merge(m) = &args.command;
    let key = report_seal::key_from_env();
    let mut reports: Vec<(String, ScanReport)> = Vec::new();
    for f in &m.files {
        let text = match std::fs::read(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: error: {e}", f.display());
                return Status::Environment;
            }
        };
        match serde_json::from_slice::<ScanReport>(&text) {
            Ok(r) => {
                // The file's text, not `r`: serde_json may misread its f64 fields.
                if let Err(e) = report_seal::verify_text(&text, key.as_deref()) {
                    eprintln!("{}: error: refused: {e}", f.display());
                    return Status::Environment;
                }
                reports.push((f.display().to_string(), r));
            }
            Err(e) => {
                // serde quotes the file's text: escaped.
                eprintln!(
                    "{}:{}:{}: error: not a scan report: {}",
                    f.display(),
                    e.line(),
                    e.column(),
                    escape(&e.to_string())
                );
                return Status::Environment;
            }
        }
    }
    let labeled: Vec<(&str, &ScanReport)> = reports.iter().map(|(f, r)| (f.as_str(), r)).collect();
    match ScanReport::merge_labeled(&labeled) {
        Ok(r) => emit_scan(&r, m.format),
        Err(e) => {
            eprintln!(
                "{}: error: {}",
                crate::messages::bin(),
                escape(&e.to_string())
            );
            Status::Environment
        }
    }
}
