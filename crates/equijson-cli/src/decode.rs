//! `equijson decode`: run every decode path on one document and classify the result.

use clap::Args;
use equijson_check::decode::Verdict;
use equijson_check::diff::DiffStyle;

use crate::exit::Status;
use crate::input::Source;

const AFTER_HELP: &str = "\
Decode paths (all run on the same input):
  dom        from_slice::<Value> then from_value::<T>(v.clone())
  direct     from_slice::<T>
  borrow     T::deserialize(&Value), no clone
  jsonb      PostgreSQL binary jsonb (0x01 + the text the server normalizes it to) -> T
  canonical  the RFC 8785 form of the input -> T
Results are compared by the canonical JSON of the decoded values. Findings:
  duplicate-name   an object repeats a member name (readers disagree: last, first, error)
  error-split      some paths decode the input, others reject it
  value-split      all decode it, to different values (JSON-pointer diff shown)
  float-misread    serde_json read a number to another double than the correctly rounded
                   one (no `float_roundtrip` feature): the number, both doubles, the fix
  round-trip-loss  re-encoding the decoded value does not give the input back
A DTO may accept a finding (see `equijson dtos`), and so may --accept: the report
labels each accepted finding \"(accepted by the DTO)\" or \"(accepted by the caller)\".
The `serde_json numbers:` line says how this build's serde_json reads numbers (probed at
run time): `default (fast, not correctly rounded)` or `float_roundtrip (correctly rounded)`.

Exit codes:
  0  equivalent, or only findings the DTO or --accept accepts
  1  an unaccepted finding, or every path rejects the input
  2  usage or I/O error";

/// Decode one document into a DTO through every path and classify disagreements.
#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct DecodeArgs {
    /// The DTO to decode into (see `equijson dtos`).
    #[arg(long, value_name = "NAME")]
    dto: String,

    /// Input file; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<std::path::PathBuf>,

    /// Show JSON pointers, kinds and lengths, but no values.
    #[arg(long)]
    redact: bool,

    /// Declare these findings acceptable too (repeatable or comma-separated).
    #[arg(long, value_enum, value_name = "CLASS", value_delimiter = ',')]
    accept: Vec<crate::accept::Acceptable>,
}

/// Runs `equijson decode`.
pub(crate) fn run(args: &DecodeArgs, ctx: &crate::Ctx) -> Status {
    let spec = match ctx.dtos.resolve(Some(&args.dto), &ctx.bin) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let source = args.file.as_deref().map_or(Source::Stdin, Source::from_arg);
    let input = match source.read() {
        Ok(input) => input,
        Err(e) => {
            eprintln!("{e}");
            return Status::Environment;
        }
    };
    let report = crate::accept::apply((spec.check)(&input), &args.accept);
    let style = DiffStyle {
        redact: args.redact,
        ..DiffStyle::default()
    };
    let mut out = format!(
        "dto: {}\nserde_json numbers: {}\n",
        spec.name,
        equijson_check::decode::serde_json_numbers()
    );
    out.push_str(&report.render(style));
    let status = match report.verdict() {
        Verdict::Equivalent | Verdict::Accepted => Status::Success,
        Verdict::Rejected | Verdict::Divergent => Status::Invalid,
    };
    crate::messages::emit(&out, status)
}
