//! `equijson canon`: write (or check) the RFC 8785 canonical form of documents.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use equijson::{Canonicalizer, InexactNumbers, NegativeZero, Noncharacters, Options};

use crate::exit::Status;
use crate::input::Source;

mod lines;

const AFTER_HELP: &str = "\
Output:
  One FILE: its canonical bytes, with no trailing newline (ready to hash or sign).
  Several FILEs: one canonical document per line, in argument order; a FILE that
  fails gives an empty line, so line N always belongs to FILE N.

  --lines: every input line is one document (JSON Lines / NDJSON); each gives one
  canonical document and a newline, read and written one line at a time. A line
  ends at \\n (a \\r before it is dropped); a blank line is an invalid document.
  By default the first invalid line ends the run: the lines before it are written,
  its own output line is left empty, its error is FILE:LINE:COL (LINE of that file,
  COL within the line), exit 1. With --keep-going every line is read: invalid lines
  are reported and left out of the output (which stays valid JSON Lines), exit 1 if
  any was invalid.

Policies (defaults are strict RFC 8785):
  always errors      duplicate member names (compared after unescaping), unpaired
                     surrogates, invalid UTF-8, numbers that overflow to Infinity,
                     anything outside RFC 8259 JSON (comments, NaN, trailing commas...)
  -0                 written as 0 (--reject-negative-zero refuses it)
  beyond a double    rounded to the nearest double as JCS requires, e.g.
                     9007199254740993 -> 9007199254740992 (--reject-inexact refuses
                     any number whose canonical form denotes a different decimal
                     value than the one written: 0.1 and 1e23 pass, since 0.1 and
                     1e+23 denote what was written; 2^53+1 and the exact decimal
                     expansion of a double, which canonicalizes to fewer digits, fail)

Exit codes:
  0  every document is valid (and was written)
  1  some document is invalid: FILE:LINE:COL: error: MESSAGE on stderr
  2  usage or I/O error (a FILE cannot be read, standard output cannot be written)
A reader that stops early (`| head`) ends the run without an error of its own.

Examples:
  equijson canon doc.json | sha256sum
  equijson canon --check rows/*.json
  equijson canon --lines --keep-going events.jsonl > canonical.jsonl
  printf '{\"b\":1,\"a\":2}' | equijson canon";

/// Write the RFC 8785 (JCS) canonical form of JSON documents.
#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct CanonArgs {
    /// Input files; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Validate only: print nothing on success.
    #[arg(long)]
    check: bool,

    /// JSON Lines: one document per input line, one canonical document per output line.
    #[arg(long)]
    lines: bool,

    /// With --lines: report invalid lines, leave them out of the output and go on.
    #[arg(long, requires = "lines")]
    keep_going: bool,

    /// Reject -0 (and negative numbers that round to zero) instead of writing 0.
    #[arg(long)]
    reject_negative_zero: bool,

    /// Reject a number whose canonical form denotes a different decimal value than the one
    /// written (9007199254740993 -> 9007199254740992, 1e-400 -> 0, the 55-digit expansion
    /// of the double nearest 0.1 -> 0.1); 0.1, 2.50 and 1e23 pass.
    #[arg(long)]
    reject_inexact: bool,

    /// Reject Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF), as I-JSON asks.
    #[arg(long)]
    reject_noncharacters: bool,

    /// Deepest nesting of arrays/objects accepted.
    #[arg(long, value_name = "N", default_value_t = equijson::DEFAULT_MAX_DEPTH)]
    max_depth: usize,
}

impl CanonArgs {
    fn options(&self) -> Options {
        Options::new()
            .max_depth(self.max_depth)
            .negative_zero(if self.reject_negative_zero {
                NegativeZero::Reject
            } else {
                NegativeZero::Normalize
            })
            .inexact_numbers(if self.reject_inexact {
                InexactNumbers::Reject
            } else {
                InexactNumbers::Round
            })
            .noncharacters(if self.reject_noncharacters {
                Noncharacters::Reject
            } else {
                Noncharacters::Allow
            })
    }
}

/// Runs `equijson canon`.
pub(crate) fn run(args: &CanonArgs) -> Status {
    let sources: Vec<Source> = if args.files.is_empty() {
        vec![Source::Stdin]
    } else {
        args.files.iter().map(|f| Source::from_arg(f)).collect()
    };
    if sources
        .iter()
        .filter(|s| matches!(s, Source::Stdin))
        .count()
        > 1
    {
        eprintln!(
            "{}: error: `-` (standard input) can be given only once",
            crate::messages::bin()
        );
        return Status::Environment;
    }
    if args.lines {
        return lines::run(args, &sources);
    }
    let several = sources.len() > 1;
    let mut canon = Canonicalizer::new(args.options());
    let mut out = stdout_writer();
    let mut status = Status::Success;
    // Input and output buffers are reused from file to file; the output is written with
    // one `write_all` per document (no second buffer in between).
    let mut input = Vec::new();
    let mut buf = Vec::new();
    for source in &sources {
        buf.clear();
        if let Err(e) = source.read_into(&mut input) {
            eprintln!("{e}");
            status = status.max(e.status());
        } else {
            let result = if args.check {
                canon.validate(&input)
            } else {
                canon.canonicalize_into(&input, &mut buf)
            };
            if let Err(e) = result {
                eprintln!("{}", crate::messages::located(&source.name(), &e));
                if let Some(hint) = second_value_hint(&input, &e) {
                    eprintln!("{}: {hint}", source.name());
                }
                status = status.max(Status::Invalid);
            }
        }
        if args.check {
            continue;
        }
        if several {
            buf.push(b'\n');
        }
        if let Err(e) = out.write_all(&buf) {
            return crate::messages::write_failed(&e, status);
        }
    }
    if let Err(e) = out.flush() {
        return crate::messages::write_failed(&e, status);
    }
    status
}

/// Standard output without the line buffering of `std::io::Stdout` (which would search
/// every write for its last newline): documents are written whole, one `write_all` each.
fn stdout_writer() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout().lock())
}

/// When a document is followed by what looks like another JSON value (`{"a":1}\n{"a":2}`),
/// a hint to use `--lines`.
fn second_value_hint(input: &[u8], e: &equijson::Error) -> Option<String> {
    if !matches!(e.kind(), equijson::ErrorKind::TrailingCharacters) {
        return None;
    }
    let next = input.get(e.offset()?)?;
    matches!(next, b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n').then(|| {
        format!(
            "hint: a second JSON value follows the first; for JSON Lines (one document per line) use `{} canon --lines`",
            crate::messages::bin()
        )
    })
}
