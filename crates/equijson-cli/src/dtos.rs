//! `equijson dtos`: the DTOs `--dto` names (the built-in catalogue and the binary's own),
//! and the lookup of `--dto NAME` for the other subcommands.

use std::fmt::Write as _;

use clap::Args;
use equijson_check::dto::DtoSpec;

use crate::Ctx;
use crate::exit::Status;

/// List the DTOs (names for --dto).
#[derive(Args, Debug)]
pub(crate) struct DtosArgs {
    /// Also print each DTO's sample document.
    #[arg(long)]
    samples: bool,

    /// Print only the sample document of this DTO (e.g. to pipe into `equijson decode`).
    #[arg(long, value_name = "NAME", conflicts_with = "samples")]
    sample: Option<String>,
}

/// Runs `equijson dtos`.
pub(crate) fn run(args: &DtosArgs, ctx: &Ctx) -> Status {
    let mut out = String::new();
    if let Some(name) = &args.sample {
        let d = match ctx.dtos.resolve(Some(name), &ctx.bin) {
            Ok(d) => d,
            Err(s) => return s,
        };
        let _ = writeln!(out, "{}", d.sample);
        return crate::messages::emit(&out, Status::Success);
    }
    for d in ctx.dtos.all() {
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

/// The DTOs a binary knows: its own, registered by [`crate::Cli::dto`], and the built-in
/// catalogue unless left out. Held by the command line and handed to each subcommand (no
/// global state); built without allocating when the binary registers none, so `equijson`'s
/// start-up does no more work than before.
#[derive(Debug, Clone)]
pub(crate) struct Registry {
    /// The binary's own DTOs, in registration order (a later one replaces an earlier one
    /// of the same name).
    own: Vec<&'static DtoSpec>,
    /// Whether the built-in catalogue is known too.
    pub(crate) catalogue: bool,
}

impl Default for Registry {
    fn default() -> Self {
        Self {
            own: Vec::new(),
            catalogue: true,
        }
    }
}

impl Registry {
    /// Adds `spec`, replacing a DTO of the same name registered before.
    pub(crate) fn register(&mut self, spec: &'static DtoSpec) {
        self.own.retain(|d| d.name != spec.name);
        self.own.push(spec);
    }

    /// Every known DTO: the binary's own first, then the built-ins they do not replace.
    pub(crate) fn all(&self) -> impl Iterator<Item = &'static DtoSpec> + '_ {
        let builtin: &'static [DtoSpec] = if self.catalogue {
            equijson_check::dto::catalogue()
        } else {
            &[]
        };
        self.own.iter().copied().chain(
            builtin
                .iter()
                .filter(|b| !self.own.iter().any(|d| d.name == b.name)),
        )
    }

    /// The DTO named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<&'static DtoSpec> {
        self.all().find(|d| d.name == name)
    }

    /// The DTO of a command run without `--dto`: `value` (any JSON) when known, else the
    /// first registered.
    fn fallback(&self) -> Option<&'static DtoSpec> {
        self.find("value").or_else(|| self.all().next())
    }

    /// The DTO `--dto` names (`None`: the default), or the message that says which are
    /// known and how to add one.
    pub(crate) fn lookup(&self, name: Option<&str>, bin: &str) -> Result<&'static DtoSpec, String> {
        let found = match name {
            Some(n) => self.find(n),
            None => self.fallback(),
        };
        found.ok_or_else(|| self.unknown(name.unwrap_or(""), bin))
    }

    /// [`Registry::lookup`], the message printed (exit 2) when the name is unknown.
    pub(crate) fn resolve(
        &self,
        name: Option<&str>,
        bin: &str,
    ) -> Result<&'static DtoSpec, Status> {
        self.lookup(name, bin).map_err(|m| {
            eprintln!("{bin}: error: {m}");
            Status::Environment
        })
    }

    /// An unknown name: the names known, and how a DTO of one's own is added.
    fn unknown(&self, name: &str, bin: &str) -> String {
        let names: Vec<&str> = self.all().map(|d| d.name).collect();
        let known = if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        };
        format!(
            "unknown DTO {} for --dto (known: {known}; `{bin} dtos` lists them)\n\
             hint: to add yours, implement `equijson_check::dto::Dto` for it and register it in \
             your binary's main: `equijson_cli::Cli::new().dto::<YourType>().main()` \
             (docs/src/your-dtos.md, \"Your own binary\")",
            equijson::untrusted::escape(&format!("{name:?}"))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Registry;

    fn names(r: &Registry) -> Vec<&'static str> {
        r.all().map(|d| d.name).collect()
    }

    #[test]
    fn own_dtos_come_first_and_replace_a_builtin_of_their_name() {
        let builtin = equijson_check::dto::catalogue();
        let contact = equijson_check::dto::find("contact").expect("contact");
        let value = equijson_check::dto::find("value").expect("value");
        let mut r = Registry::default();
        assert_eq!(names(&r).len(), builtin.len());
        assert_eq!(r.lookup(None, "t").map(|d| d.name), Ok("value"));
        // `value` registered again (as a user might, under a built-in's name): listed once, first.
        r.register(value);
        let listed = names(&r);
        assert_eq!(listed[0], "value");
        assert_eq!(listed.iter().filter(|n| **n == "value").count(), 1);
        assert_eq!(listed.len(), builtin.len());
        r.register(contact);
        r.register(value);
        assert_eq!(&names(&r)[..2], ["contact", "value"]);
        r.catalogue = false;
        assert_eq!(names(&r), ["contact", "value"]);
        assert!(r.find("ledger-entry").is_none());
    }

    #[test]
    fn without_the_catalogue_the_default_is_the_first_registered() {
        let mut r = Registry {
            catalogue: false,
            ..Registry::default()
        };
        let err = r.lookup(None, "tool").expect_err("nothing registered");
        assert!(err.contains("known: none"), "{err}");
        r.register(equijson_check::dto::find("articles").expect("articles"));
        assert_eq!(r.lookup(None, "tool").map(|d| d.name), Ok("articles"));
    }

    #[test]
    fn an_unknown_name_says_what_is_known_and_how_to_add_one() {
        let r = Registry::default();
        let err = r
            .lookup(Some("orders\n"), "order-tool")
            .expect_err("unknown");
        assert!(
            err.starts_with(r#"unknown DTO "orders\n" for --dto (known: contact, "#),
            "{err}"
        );
        assert!(err.contains("`order-tool dtos` lists them"), "{err}");
        assert!(
            err.contains("implement `equijson_check::dto::Dto`"),
            "{err}"
        );
        assert!(
            err.contains("equijson_cli::Cli::new().dto::<YourType>()"),
            "{err}"
        );
        assert!(err.contains("docs/src/your-dtos.md"), "{err}");
        assert_eq!(err.lines().count(), 2, "{err}");
    }
}
