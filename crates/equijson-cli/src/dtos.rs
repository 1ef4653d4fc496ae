//! `equijson dtos`: the DTO catalogue, and `--dto` name checking for other subcommands.

use std::fmt::Write as _;

use clap::Args;

use crate::exit::Status;

/// List the DTO catalogue (names for --dto).
#[derive(Args, Debug)]
pub(crate) struct DtosArgs {
    /// Also print each DTO's sample document.
    #[arg(long)]
    samples: bool,

    /// Print only the sample document of this DTO (e.g. to pipe into `equijson decode`).
    #[arg(long, value_name = "NAME", value_parser = dto_name, conflicts_with = "samples")]
    sample: Option<String>,
}

/// Runs `equijson dtos`.
pub(crate) fn run(args: &DtosArgs) -> Status {
    let mut out = String::new();
    if let Some(name) = &args.sample {
        if let Some(d) = equijson_check::dto::find(name) {
            let _ = writeln!(out, "{}", d.sample);
        }
        return crate::messages::emit(&out, Status::Success);
    }
    for d in equijson_check::dto::catalogue() {
        let _ = writeln!(out, "{:<14} {}", d.name, d.summary);
        for a in d.accepts {
            let only: Vec<&str> = a.only.iter().map(|p| p.name()).collect();
            let scope = if only.is_empty() {
                String::new()
            } else {
                format!(" ({})", only.join(", "))
            };
            let _ = writeln!(out, "{:<14}   accepts {}{scope}: {}", "", a.class, a.reason);
        }
        if args.samples {
            let _ = writeln!(out, "{:<14}   sample: {}", "", d.sample);
        }
    }
    crate::messages::emit(&out, Status::Success)
}

/// clap value parser: a registered DTO name.
pub(crate) fn dto_name(s: &str) -> Result<String, String> {
    if equijson_check::dto::find(s).is_some() {
        Ok(s.to_owned())
    } else {
        let names: Vec<&str> = equijson_check::dto::catalogue()
            .iter()
            .map(|d| d.name)
            .collect();
        Err(format!("unknown DTO (known: {})", names.join(", ")))
    }
}
