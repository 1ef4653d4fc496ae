//! Messages on stderr in the `FILE:LINE:COL: error: MESSAGE` form editors understand.

use std::sync::OnceLock;

use crate::exit::Status;

/// The binary's name, set once by `Cli::main` before anything is printed. A global rather
/// than a parameter: every message on stderr starts with it, including those of helpers
/// (standard output failing, the secret-argument re-exec) that run outside a subcommand's
/// context, and it never changes once the process has started.
static BIN: OnceLock<String> = OnceLock::new();

/// Names the binary in every message from now on (the first call wins).
pub(crate) fn set_bin(name: &str) {
    let _ = BIN.set(name.to_owned());
}

/// The name messages on stderr start with (`NAME: error: ...`): the binary's as set by
/// [`set_bin`], `equijson` before that.
pub(crate) fn bin() -> &'static str {
    BIN.get().map_or("equijson", String::as_str)
}

/// A message of a library that names the tool `equijson: ...`, naming this binary instead.
pub(crate) fn renamed(message: &str) -> String {
    message
        .strip_prefix("equijson: ")
        .map_or_else(|| message.to_owned(), |rest| format!("{}: {rest}", bin()))
}

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
    eprintln!(
        "{}: error: cannot write to standard output: {e}",
        crate::messages::bin()
    );
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
