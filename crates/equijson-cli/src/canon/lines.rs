//! `equijson canon --lines`: JSON Lines in, JSON Lines out, one line in memory at a time.

use std::io::{BufRead, BufReader, Read, Write};

use equijson::Canonicalizer;

use super::CanonArgs;
use crate::exit::Status;
use crate::input::{MAX_DOCUMENT, Source};

/// Output is handed to the operating system in chunks of about this size.
const FLUSH_AT: usize = 256 * 1024;

/// Runs `canon --lines` over every source in turn.
pub(crate) fn run(args: &CanonArgs, sources: &[Source]) -> Status {
    let mut canon = Canonicalizer::new(args.options());
    let mut stdout = super::stdout_writer();
    let mut out = Vec::with_capacity(FLUSH_AT + 64 * 1024);
    let mut line = Vec::new();
    let mut status = Status::Success;
    for source in sources {
        let reader: Box<dyn Read> = match source {
            Source::Stdin => Box::new(std::io::stdin().lock()),
            Source::File(p) => match std::fs::File::open(p) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    eprintln!("{}: error: cannot read: {e}", source.name());
                    status = status.max(Status::Environment);
                    continue;
                }
            },
        };
        let mut reader = BufReader::with_capacity(256 * 1024, reader);
        let name = source.name();
        let mut number = 0usize;
        loop {
            line.clear();
            number += 1;
            let read = (&mut reader)
                .take(MAX_DOCUMENT + 1)
                .read_until(b'\n', &mut line);
            match read {
                Err(e) => {
                    eprintln!("{name}:{number}: error: cannot read: {e}");
                    status = status.max(Status::Environment);
                    break;
                }
                Ok(0) => break,
                Ok(_) => {}
            }
            let complete = line.last() == Some(&b'\n');
            if complete {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
            }
            let before = out.len();
            let result = if line.len() as u64 > MAX_DOCUMENT {
                Err(None)
            } else if args.check {
                canon.validate(&line).map_err(Some)
            } else {
                canon.canonicalize_into(&line, &mut out).map_err(Some)
            };
            match result {
                Ok(()) => {
                    if !args.check {
                        out.push(b'\n');
                    }
                }
                Err(e) => {
                    if let Some(e) = e {
                        eprintln!("{}", located(&name, number, &e));
                    } else {
                        eprintln!(
                            "{name}:{number}:1: error: line longer than the {MAX_DOCUMENT}-byte limit of one JSON document"
                        );
                        // The rest of that line is not a document either.
                        if !complete {
                            if let Err(e) = reader.skip_until(b'\n') {
                                eprintln!("{name}:{number}: error: cannot read: {e}");
                                status = status.max(Status::Environment);
                            }
                        }
                    }
                    status = status.max(Status::Invalid);
                    out.truncate(before);
                    if !args.keep_going {
                        if !args.check {
                            out.push(b'\n');
                        }
                        return finish(&mut stdout, &out, status);
                    }
                }
            }
            if out.len() >= FLUSH_AT {
                if let Err(e) = stdout.write_all(&out) {
                    return crate::messages::write_failed(&e, status);
                }
                out.clear();
            }
        }
    }
    finish(&mut stdout, &out, status)
}

/// Writes what is left and flushes.
fn finish(stdout: &mut impl Write, out: &[u8], status: Status) -> Status {
    match stdout.write_all(out).and_then(|()| stdout.flush()) {
        Ok(()) => status,
        Err(e) => crate::messages::write_failed(&e, status),
    }
}

/// `FILE:LINE:COL: error: MESSAGE` with LINE the line of the file and COL the column in it.
fn located(name: &str, number: usize, e: &equijson::Error) -> String {
    match e.column() {
        Some(col) => format!("{name}:{number}:{col}: error: {}", e.message()),
        None => format!("{name}:{number}: error: {e}"),
    }
}
