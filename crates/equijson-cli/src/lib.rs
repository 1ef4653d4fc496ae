//! The `equijson` command line as a library: a thin shell over the `equijson`,
//! `equijson-check` and `equijson-pg` crates, which your own binary can run with your DTOs.
//!
//! ```no_run
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Order { id: u64, total_cents: u64 }
//! impl equijson_check::dto::Dto for Order {
//!     fn name() -> &'static str { "order" }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     // `order-tool props --dto order`, `order-tool pg scan --dto order ...`, every subcommand.
//!     equijson_cli::Cli::new().dto::<Order>().main()
//! }
//! ```

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

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use equijson_check::dto::{Dto, DtoSpec};

pub(crate) use dtos::Registry;

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  invalid input, or a check failed (details on stderr as FILE:LINE:COL: error: ...)
  2  usage, I/O or environment error
A crash (exit 101) on any input is a bug: please report it with the input.";

/// Canonical JSON (RFC 8785 / JCS) and decode-equivalence checks.
#[derive(Parser, Debug)]
#[command(name = "equijson", version, after_help = EXIT_CODES, propagate_version = true)]
struct Args {
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
    /// List the DTOs (names for --dto).
    Dtos(dtos::DtosArgs),
    /// Check decode equivalence against live PostgreSQL (round trips, table scans).
    Pg(Box<pg::PgArgs>),
    /// Work with scan reports (merge shard reports).
    Report(report_merge::ReportArgs),
    /// The main job: an ephemeral PostgreSQL, a seeded contacts table, round trips and scans.
    Demo,
}

/// The command line of `equijson`, for a binary of your own with your DTOs.
///
/// Every subcommand of `equijson` (`canon`, `decode`, `props`, `dtos`, `pg scan`,
/// `pg roundtrip`, ..., `report`, `demo`) takes `--dto NAME` for the DTOs you register
/// here (their [`Dto::name`]) beside the built-in catalogue (or instead of it, with
/// [`Cli::without_catalogue`]). Usage, help, the replay lines and every message on stderr
/// (`NAME: error: ...`) name your binary.
///
/// ```no_run
/// # #[derive(serde::Serialize, serde::Deserialize)] struct AuditEvent { id: String }
/// # impl equijson_check::dto::Dto for AuditEvent {}
/// fn main() -> std::process::ExitCode {
///     equijson_cli::Cli::new().dto::<AuditEvent>().main()
/// }
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Cli {
    name: Option<String>,
    version: Option<&'static str>,
    dtos: Registry,
}

impl Cli {
    /// The command line with the built-in DTO catalogue and no DTO of yours yet; the
    /// binary's name comes from how it was started (its file name, without `.exe`).
    pub fn new() -> Self {
        Self::default()
    }

    /// The binary's name in usage, help, replay lines and messages on stderr (default:
    /// the file name it was started as).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The version `--version` prints (e.g. `env!("CARGO_PKG_VERSION")` of your crate;
    /// default: equijson's).
    pub fn version(mut self, version: &'static str) -> Self {
        self.version = Some(version);
        self
    }

    /// Registers the DTO `T` under [`Dto::name`], with its paths (its BEFORE and AFTER
    /// functions too), accepted findings, examples and generator. A DTO registered under
    /// a name already taken (a built-in's, or one registered before) replaces it.
    pub fn dto<T: Dto>(self) -> Self {
        self.spec(equijson_check::dto::spec::<T>())
    }

    /// Registers a DTO given as its [`DtoSpec`] (see [`equijson_check::dto::spec`]).
    pub fn spec(mut self, spec: &'static DtoSpec) -> Self {
        self.dtos.register(spec);
        self
    }

    /// Only the DTOs registered here: the built-in catalogue is left out of `--dto` and
    /// `dtos`. A command run without `--dto` then uses `value` if you registered it, else
    /// the first DTO registered.
    pub fn without_catalogue(mut self) -> Self {
        self.dtos.catalogue = false;
        self
    }

    /// Parses the process's arguments and runs the subcommand; the exit code to return
    /// from `main` (0 success, 1 a failed check, 2 usage, I/O or environment error).
    pub fn main(self) -> ExitCode {
        let bin = self.name.clone().unwrap_or_else(bin_name_from_argv0);
        messages::set_bin(&bin);
        // Before anything else: a password in --database-url leaves the command line.
        argv_secrets::reexec_if_needed();
        let args = match self.parse(&bin) {
            Ok(args) => args,
            Err(e) => usage_error(&e),
        };
        let ctx = Ctx {
            bin,
            dtos: self.dtos,
        };
        let code = match args.command {
            Command::Canon(args) => canon::run(&args),
            Command::Decode(args) => decode::run(&args, &ctx),
            Command::Props(args) => props::run(&args, &ctx),
            Command::Dtos(args) => dtos::run(&args, &ctx),
            Command::Pg(args) => pg::run(&args, &ctx),
            Command::Report(args) => report_merge::run_report(&args),
            Command::Demo => pg::run_demo(),
        };
        code.into()
    }

    /// The arguments, parsed by a command line named `bin` (`equijson`'s own is parsed as
    /// derived, so its start-up does no more than before).
    fn parse(&self, bin: &str) -> Result<Args, clap::Error> {
        if bin == "equijson" && self.version.is_none() {
            return Args::try_parse();
        }
        // clap's names are `&'static str` (without its `string` feature): one leak per process.
        let name: &'static str = Box::leak(bin.to_owned().into_boxed_str());
        let mut cmd = Args::command().name(name).bin_name(name);
        if let Some(v) = self.version {
            cmd = cmd.version(v);
        }
        // Every subcommand's help names this binary too (`equijson dtos` -> `NAME dtos`):
        // the whole tree is built first (deferred subcommands included).
        cmd.build();
        let matches = renamed(cmd, name).try_get_matches()?;
        Args::from_arg_matches(&matches)
    }
}

/// `cmd` and its subcommands with `equijson ` in their help texts replaced by `bin `.
fn renamed(mut cmd: clap::Command, bin: &str) -> clap::Command {
    use clap::builder::StyledStr;
    let swap = |s: Option<&StyledStr>| {
        s.map(|s| StyledStr::from(s.to_string().replace("equijson ", &format!("{bin} "))))
    };
    if let Some(t) = swap(cmd.get_about()) {
        cmd = cmd.about(t);
    }
    if let Some(t) = swap(cmd.get_long_about()) {
        cmd = cmd.long_about(t);
    }
    if let Some(t) = swap(cmd.get_after_help()) {
        cmd = cmd.after_help(t);
    }
    if let Some(t) = swap(cmd.get_after_long_help()) {
        cmd = cmd.after_long_help(t);
    }
    cmd.mut_args(|mut a| {
        if let Some(t) = swap(a.get_help()) {
            a = a.help(t);
        }
        if let Some(t) = swap(a.get_long_help()) {
            a = a.long_help(t);
        }
        a
    })
    .mut_subcommands(|c| renamed(c, bin))
}

/// What the subcommands know of the binary that runs them.
#[derive(Debug)]
pub(crate) struct Ctx {
    /// The binary's name, for replay lines and messages.
    pub(crate) bin: String,
    /// The DTOs `--dto` names.
    pub(crate) dtos: Registry,
}

/// The file name the process was started as, without an extension (`equijson` if none).
fn bin_name_from_argv0() -> String {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "equijson".to_owned())
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
