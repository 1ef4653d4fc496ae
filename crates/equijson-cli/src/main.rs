//! The `equijson` command line: a thin shell over the `equijson`, `equijson-check` and `equijson-pg` crates.

#![forbid(unsafe_code)]
// A command-line tool talks on stdout and stderr by design.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod accept;
mod argv_secrets;
mod canon;
mod decode;
mod dtos;
mod exit;
mod gen_args;
mod input;
mod messages;
mod pg;
mod pg_sql;
mod props;
mod report_merge;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  invalid input, or a check failed (details on stderr as FILE:LINE:COL: error: ...)
  2  usage, I/O or environment error
A crash (exit 101) on any input is a bug: please report it with the input.";

/// Canonical JSON (RFC 8785 / JCS) and decode-equivalence checks.
#[derive(Parser, Debug)]
#[command(name = "equijson", version, after_help = EXIT_CODES, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// `defer`: a subcommand's arguments are built only when that subcommand runs (or its help
// is asked for), not on every start-up (`just bench-startup`).
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Write the RFC 8785 (JCS) canonical form of JSON documents.
    Canon(canon::CanonArgs),
    /// Decode one document into a DTO through every path and classify disagreements.
    Decode(decode::DecodeArgs),
    /// Run seeded property checks over generated documents (portable digest, shrinking).
    Props(props::PropsArgs),
    /// List the DTO catalogue (names for --dto).
    Dtos(dtos::DtosArgs),
    /// Check decode equivalence against live PostgreSQL (round trips, table scans).
    Pg(Box<pg::PgArgs>),
    /// Work with scan reports (merge shard reports).
    Report(report_merge::ReportArgs),
    /// The main job: an ephemeral PostgreSQL, a seeded contacts table, round trips and scans.
    Demo,
}

fn main() -> ExitCode {
    // Before anything else: a password in --database-url leaves the command line.
    argv_secrets::reexec_if_needed();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => usage_error(&e),
    };
    let code = match cli.command {
        Command::Canon(args) => canon::run(&args),
        Command::Decode(args) => decode::run(&args),
        Command::Props(args) => props::run(&args),
        Command::Dtos(args) => dtos::run(&args),
        Command::Pg(args) => pg::run(&args),
        Command::Report(args) => report_merge::run_report(&args),
        Command::Demo => pg::run_demo(),
    };
    code.into()
}

/// Reports a command-line error as clap does, except that a password written in any
/// argument (a connection URL given where it does not belong, say) is replaced by `***`:
/// clap quotes the argument it could not place.
fn usage_error(e: &clap::Error) -> ! {
    let secrets: Vec<String> = std::env::args_os()
        .filter_map(|a| equijson_pg::connect::password_in_url(&a.to_string_lossy()))
        .filter(|p| !p.is_empty())
        .collect();
    if secrets.is_empty() {
        e.exit();
    }
    let mut text = e.render().to_string();
    for p in &secrets {
        text = equijson_pg::connect::scrub_pieces(&text, Some(p));
    }
    if e.use_stderr() {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    std::process::exit(e.exit_code());
}
