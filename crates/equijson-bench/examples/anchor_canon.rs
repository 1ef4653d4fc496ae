//! The start-up anchor: a minimal canonicalizer command on `serde_json_canonicalizer`.
//!
//! `anchor_canon FILE` writes the RFC 8785 form of FILE (`serde_json::Value`, then
//! `serde_json_canonicalizer::to_vec`) to standard output, as `equijson canon FILE` does.
//! `just bench-startup` times both on a tiny document; this is the least a Rust command
//! doing the same job pays to start.
#![allow(
    clippy::print_stderr,
    reason = "a command-line tool reporting its errors"
)]

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: anchor_canon FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: error: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let out = serde_json::from_slice::<serde_json::Value>(&text)
        .map_err(|e| e.to_string())
        .and_then(|v| serde_json_canonicalizer::to_vec(&v).map_err(|e| e.to_string()));
    match out {
        Ok(bytes) => {
            if std::io::stdout().lock().write_all(&bytes).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: error: {e}", path.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}
