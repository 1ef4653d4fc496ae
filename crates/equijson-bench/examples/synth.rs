//! Writes a generated benchmark input to standard output.
//!
//! `synth lines COUNT` (JSON Lines events), `synth small MB`, `synth exp MB` (arrays of
//! `1e20`), `synth realistic MB` (the corpus repeated in an array).
#![allow(clippy::print_stderr, reason = "usage message")]

use std::io::Write;
use std::process::ExitCode;

use equijson_bench::synth;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(0);
    let bytes = match args.first().map(String::as_str) {
        Some("lines") => synth::event_lines(n),
        Some("small") => synth::small_integers(n << 20),
        Some("exp") => synth::big_exponents(n << 20),
        Some("realistic") => match equijson_bench::load(&equijson_bench::FILES) {
            Ok(c) => {
                let docs: Vec<&[u8]> = c.iter().map(|d| d.bytes.as_slice()).collect();
                synth::realistic(&docs, n << 20)
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("usage: synth lines COUNT | small MB | exp MB | realistic MB");
            return ExitCode::FAILURE;
        }
    };
    if std::io::stdout().lock().write_all(&bytes).is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
