//! Messages on stderr in the `FILE:LINE:COL: error: MESSAGE` form editors understand.

use crate::exit::Status;

/// `NAME:LINE:COL: error: MESSAGE` for text positions (columns count characters),
/// `NAME: error: at POINTER: MESSAGE` otherwise.
pub(crate) fn located(name: &str, e: &equijson::Error) -> String {
    match (e.line(), e.column()) {
        (Some(line), Some(col)) => format!("{name}:{line}:{col}: error: {}", e.message()),
        _ => format!("{name}: error: {e}"),
    }
}

/// Standard output failed; `so_far` is the status before. A closed pipe
/// (`equijson canon big.json | head -c 10`) is the reader's choice: no message, and the
/// status so far stands. Anything else (a full disk, a closed descriptor) is exit 2.
pub(crate) fn write_failed(e: &std::io::Error, so_far: Status) -> Status {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return so_far;
    }
    eprintln!("equijson: error: cannot write to standard output: {e}");
    so_far.max(Status::Environment)
}

/// Writes a whole report to standard output; `status` is what the command decided.
pub(crate) fn emit(text: &str, status: Status) -> Status {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) => write_failed(&e, status),
    }
}
