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

/// Standard output failed. A closed pipe (`equijson canon big.json | head -c 10`) is
/// the reader's choice, not an error worth a message.
pub(crate) fn write_failed(e: &std::io::Error) -> Status {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Status::Success;
    }
    eprintln!("equijson: error: cannot write to standard output: {e}");
    Status::Environment
}
