//! The `equijson` command: the library's subcommands with the built-in DTO catalogue.

use std::process::ExitCode;

fn main() -> ExitCode {
    equijson_cli::Cli::new().name("equijson").main()
}
