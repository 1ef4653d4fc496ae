//! The example service's own binary: every `equijson` subcommand, with its DTOs.

use equijson_example_service::{AuditBatch, AuditEvent, Settings};

fn main() -> std::process::ExitCode {
    equijson_cli::Cli::new()
        .dto::<AuditEvent>()
        .dto::<Settings>()
        .dto::<AuditBatch>()
        .main()
}
