//! `equijson props`: seeded property checks with shrinking and a portable digest.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use clap::Args;
use equijson_check::props::{PropsConfig, run as run_props};

use equijson::untrusted::escape;

use crate::exit::Status;

const AFTER_HELP: &str = "\
Every case is a document generated for the DTO (any JSON without --dto), spelled with
random whitespace, escapes and member order. Properties checked on each case:
  canonical idempotence    canonicalize(canonicalize(x)) == canonicalize(x)
  permutation invariance   two spellings of one document canonicalize identically
  decode paths agree       see `equijson decode --help`; DTO-accepted findings pass
`rejected:` counts the passed cases every decode path rejected: they check nothing about
decoding (a run where it equals `cases:` tests the generator, not the DTO).
The same --seed, --cases, --dto and --size give the same cases and the same digest on
every platform (native and WebAssembly): `digest:` is the SHA-256 over the canonical form
of every case, in order. The first failure is shrunk to a small counterexample.

Exit codes:
  0  every case passed
  1  some case failed (the shrunk counterexample is printed)
  2  usage error";

/// Run seeded property checks over generated documents (portable digest, shrinking).
#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct PropsArgs {
    #[command(flatten)]
    gen_args: crate::gen_args::GenArgs,

    /// Show JSON pointers, kinds and lengths in diffs, but no values.
    #[arg(long)]
    redact: bool,

    /// Output format: human, or json (one object with the counts, `rejected` included,
    /// the digest and the failure).
    #[arg(long, value_enum, default_value_t = crate::pg::Format::Human)]
    format: crate::pg::Format,

    /// Saved failures (as proptest's `proptest-regressions/`): replay the cases saved in
    /// DIR/<dto>.txt first (exit 1 at the first that fails again), and save a new failure
    /// there. The files `check_dto` writes (`equijson-regressions/` in a crate).
    #[arg(long, value_name = "DIR")]
    regressions: Option<std::path::PathBuf>,
}

/// Runs `equijson props`.
pub(crate) fn run(args: &PropsArgs, ctx: &crate::Ctx) -> Status {
    let g = &args.gen_args;
    let dto = match ctx.dtos.resolve(g.dto.as_deref(), &ctx.bin) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let seed = g.seed();
    let mut cfg = PropsConfig::new(seed, g.cases, Some(dto));
    cfg.size = usize::from(g.size);
    cfg.redact = args.redact;
    let saved = args
        .regressions
        .as_deref()
        .map(|dir| equijson_check::props::regressions::file_in(dir, dto.name));
    if let Some(path) = &saved {
        if let Err(status) = replay_saved(&cfg, path, ctx) {
            return status;
        }
    }
    let show_progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last = started;
    let outcome = run_props(&cfg, |done, failed| {
        if show_progress && last.elapsed() > Duration::from_millis(500) {
            last = Instant::now();
            eprint!("\r{done}/{} cases, {failed} failed", g.cases);
        }
    });
    if show_progress && started.elapsed() > Duration::from_millis(500) {
        eprintln!();
    }
    if let (Some(path), Some(f)) = (&saved, &outcome.first_failure) {
        let bin = crate::messages::bin();
        match equijson_check::props::regressions::save(path, outcome.dto, &cfg, f) {
            Ok(line) => eprintln!("{bin}: saved: {}:{line}", path.display()),
            Err(e) => eprintln!("{bin}: warning: not saved: {}", escape(&e.to_string())),
        }
    }
    if args.format == crate::pg::Format::Json {
        return emit_json(seed, &outcome);
    }
    let mut out = String::new();
    let _ = writeln!(out, "dto: {}", outcome.dto);
    let _ = writeln!(
        out,
        "serde_json numbers: {}",
        equijson_check::decode::serde_json_numbers()
    );
    let _ = writeln!(out, "seed: {seed}");
    let _ = writeln!(out, "cases: {}", outcome.cases);
    let _ = writeln!(out, "passed: {}", outcome.passed);
    let _ = writeln!(out, "rejected: {}", outcome.rejected);
    let _ = writeln!(out, "failed: {}", outcome.failed);
    let _ = writeln!(out, "digest: {}", outcome.digest);
    let Some(f) = outcome.first_failure else {
        return crate::messages::emit(&out, Status::Success);
    };
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "first failure: case {} ({}), shrunk in {} steps",
        f.case,
        f.property.name(),
        f.steps
    );
    let _ = writeln!(out, "original: {}", one_line(&f.original));
    let _ = writeln!(out, "shrunk:   {}", one_line(&f.shrunk));
    for line in f.detail.lines() {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "replay: {} props --seed {seed} --cases {} --size {}{}",
        ctx.bin,
        f.case + 1,
        g.size,
        g.dto
            .as_deref()
            .map(|d| format!(" --dto {d}"))
            .unwrap_or_default()
    );
    crate::messages::emit(&out, Status::Invalid)
}

/// Replays the cases saved in `path`: `Err(1)` at the first that fails again (said on
/// stderr with the command that shows it), `Err(2)` for a file that cannot be read.
fn replay_saved(cfg: &PropsConfig, path: &std::path::Path, ctx: &crate::Ctx) -> Result<(), Status> {
    let bin = crate::messages::bin();
    let saved = equijson_check::props::regressions::load(path).map_err(|e| {
        eprintln!("{bin}: error: {}", escape(&e.to_string()));
        Status::Environment
    })?;
    if let Some((s, f)) = equijson_check::props::regressions::first_failing(cfg, &saved) {
        eprintln!(
            "{bin}: the case saved at {}:{} fails again: {}; shrunk: {}\nreplay: {} props --seed {:#x} --cases {} --size {} --dto {}",
            path.display(),
            s.line,
            f.property.name(),
            escape(&one_line(&f.shrunk)),
            ctx.bin,
            s.seed,
            s.case + 1,
            s.size,
            cfg.dto_name()
        );
        return Err(Status::Invalid);
    }
    if !saved.is_empty() {
        eprintln!(
            "{bin}: the {} case(s) saved in {} pass",
            saved.len(),
            path.display()
        );
    }
    Ok(())
}

/// The outcome as one JSON object (the names of the human output; the seed as decimal
/// text, since JSON numbers in JavaScript cannot hold every u64); exit as the human form.
fn emit_json(seed: u64, outcome: &equijson_check::props::PropsOutcome) -> Status {
    let failure = outcome.first_failure.as_ref().map(|f| {
        serde_json::json!({
            "case": f.case,
            "property": f.property.name(),
            "original": f.original,
            "shrunk": f.shrunk,
            "steps": f.steps,
            "detail": f.detail,
        })
    });
    let v = serde_json::json!({
        "dto": outcome.dto,
        "serde_json_numbers": equijson_check::decode::serde_json_numbers().describe(),
        "seed": seed.to_string(),
        "cases": outcome.cases,
        "passed": outcome.passed,
        "rejected": outcome.rejected,
        "failed": outcome.failed,
        "digest": outcome.digest,
        "failure": failure,
    });
    let status = if outcome.first_failure.is_some() {
        Status::Invalid
    } else {
        Status::Success
    };
    crate::messages::emit(&format!("{v}\n"), status)
}

/// The document as is when it fits one line, else as a JSON string literal (marked so).
fn one_line(doc: &str) -> String {
    if doc.contains(['\n', '\r']) {
        let literal = equijson::to_canonical_string(doc).unwrap_or_else(|_| format!("{doc:?}"));
        format!("{literal} (a JSON string holding the document: it spans lines)")
    } else {
        doc.to_owned()
    }
}
