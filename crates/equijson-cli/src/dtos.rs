//! `equijson dtos`: the DTO catalogue, and `--dto` name checking for other subcommands.

use clap::Args;

use crate::exit::Status;

/// List the DTOs that `--dto` accepts.
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
    if let Some(name) = &args.sample {
        if let Some(d) = equijson::dto::find(name) {
            println!("{}", d.sample);
        }
        return Status::Success;
    }
    for d in equijson::dto::catalogue() {
        println!("{:<14} {}", d.name, d.summary);
        for a in d.accepts {
            let only: Vec<&str> = a.only.iter().map(|p| p.name()).collect();
            let scope = if only.is_empty() {
                String::new()
            } else {
                format!(" ({})", only.join(", "))
            };
            println!("{:<14}   accepts {}{scope}: {}", "", a.class, a.reason);
        }
        if args.samples {
            println!("{:<14}   sample: {}", "", d.sample);
        }
    }
    Status::Success
}

/// clap value parser: a registered DTO name.
pub(crate) fn dto_name(s: &str) -> Result<String, String> {
    if equijson::dto::find(s).is_some() {
        Ok(s.to_owned())
    } else {
        let names: Vec<&str> = equijson::dto::catalogue().iter().map(|d| d.name).collect();
        Err(format!("unknown DTO (known: {})", names.join(", ")))
    }
}
