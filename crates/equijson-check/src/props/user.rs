//! Property runs for a user's [`Dto`], and the one-liner for a `#[test]`:
//! `equijson_check::props::check_dto::<MyDto>()`, seeded, replayable from the environment.

use std::fmt::Write as _;

use super::{Failure, PropsConfig, PropsOutcome, regressions, run};
use crate::dto::{Dto, spec};

/// The seed of a run when `EQUIJSON_SEED` is not set: runs are reproducible by default.
pub const DEFAULT_SEED: u64 = 0x00E9_0150_0000_0017;
/// The case count when `EQUIJSON_CASES` is not set.
pub const DEFAULT_CASES: u64 = 256;

/// An `EQUIJSON_SEED` or `EQUIJSON_CASES` that is set but not a number (the value held).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvError {
    /// `EQUIJSON_SEED` is not a decimal or `0x`-hex `u64`.
    Seed(String),
    /// `EQUIJSON_CASES` is not a case count.
    Cases(String),
}

impl std::fmt::Display for EnvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Seed(s) => write!(f, "EQUIJSON_SEED={s:?} is not a decimal or 0x-hex u64"),
            Self::Cases(c) => write!(f, "EQUIJSON_CASES={c:?} is not a case count"),
        }
    }
}

impl std::error::Error for EnvError {}

/// Why a property run of a DTO failed ([`try_check_dto`], [`judge`]); its message is the
/// one [`check_dto`] panics with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropsFailure {
    /// The `EQUIJSON_*` variables cannot be read.
    Env(EnvError),
    /// A case failed: `message` names the shrunk case, its finding and the command that
    /// replays it.
    CaseFailed {
        /// The number of the first failing case.
        case: u64,
        /// The whole account.
        message: String,
    },
    /// Every case was rejected by every decode path, so nothing was checked
    /// ([`nothing_checked`]), with the replay line.
    NothingChecked {
        /// The whole account.
        message: String,
    },
    /// A case saved by an earlier run ([`regressions`]) fails again.
    SavedCaseFailed {
        /// Its line in the file of saved cases.
        line: usize,
        /// Its number in the run that found it.
        case: u64,
        /// The whole account (the file and line, then as [`PropsFailure::CaseFailed`]).
        message: String,
    },
    /// The file of saved cases cannot be read, or a line of it is malformed.
    Saved(regressions::RegressionsError),
}

impl std::fmt::Display for PropsFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Env(e) => e.fmt(f),
            Self::Saved(e) => e.fmt(f),
            Self::CaseFailed { message, .. }
            | Self::NothingChecked { message }
            | Self::SavedCaseFailed { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for PropsFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Env(e) => Some(e),
            Self::Saved(e) => Some(e),
            _ => None,
        }
    }
}

impl From<regressions::RegressionsError> for PropsFailure {
    fn from(e: regressions::RegressionsError) -> Self {
        Self::Saved(e)
    }
}

impl From<EnvError> for PropsFailure {
    fn from(e: EnvError) -> Self {
        Self::Env(e)
    }
}

/// A run's seed and case count, from `EQUIJSON_SEED` (decimal or `0x`-hex) and
/// `EQUIJSON_CASES`, or the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvConfig {
    /// Seed of the run.
    pub seed: u64,
    /// Number of cases.
    pub cases: u64,
}

impl EnvConfig {
    /// Reads the environment (a variable set to the empty string counts as unset).
    ///
    /// # Errors
    /// [`EnvError`]: a variable that is set but not a number, named with its value.
    pub fn from_env() -> Result<Self, EnvError> {
        Self::from_vars(
            std::env::var("EQUIJSON_SEED")
                .ok()
                .as_deref()
                .filter(|s| !s.is_empty()),
            std::env::var("EQUIJSON_CASES")
                .ok()
                .as_deref()
                .filter(|s| !s.is_empty()),
        )
    }

    /// The configuration given the two variables' values.
    ///
    /// # Errors
    /// As [`EnvConfig::from_env`].
    pub fn from_vars(seed: Option<&str>, cases: Option<&str>) -> Result<Self, EnvError> {
        let seed = match seed {
            Some(s) => super::parse_seed(s.trim()).ok_or_else(|| EnvError::Seed(s.to_owned()))?,
            None => DEFAULT_SEED,
        };
        let cases = match cases {
            Some(c) => c
                .trim()
                .parse()
                .map_err(|_| EnvError::Cases(c.to_owned()))?,
            None => DEFAULT_CASES,
        };
        Ok(Self { seed, cases })
    }
}

/// Runs the properties on `cases` documents generated for `T` from `seed` (with `T`'s
/// paths, functions and accepted findings).
#[must_use]
pub fn run_dto<T: Dto>(seed: u64, cases: u64) -> PropsOutcome {
    run(&PropsConfig::new(seed, cases, Some(spec::<T>())), |_, _| {})
}

/// [`check_dto`] without panicking: the outcome when every property held, or the message
/// `check_dto` panics with.
///
/// # Errors
/// [`PropsFailure`]: a saved case that fails again, a failing case (shrunk, with its
/// finding and the command that replays it), a run whose every case was rejected by every
/// path, unreadable `EQUIJSON_*` variables, or an unreadable or malformed file of saved
/// cases (`FILE:LINE`).
pub fn try_check_dto<T: Dto>() -> Result<PropsOutcome, PropsFailure> {
    let env = EnvConfig::from_env()?;
    let file = regressions::file_for(spec::<T>().name);
    try_check_dto_with::<T>(env, file.as_deref())
}

/// [`try_check_dto`] with its configuration given rather than read from the environment:
/// the seed and case count, and the file of saved cases (`None`: none read or written).
/// The cases saved in `saved` are replayed first; a new failure is added to it.
///
/// # Errors
/// As [`try_check_dto`].
pub fn try_check_dto_with<T: Dto>(
    env: EnvConfig,
    saved: Option<&std::path::Path>,
) -> Result<PropsOutcome, PropsFailure> {
    let cfg = PropsConfig::new(env.seed, env.cases, Some(spec::<T>()));
    let command = replay_command();
    if let Some(path) = saved {
        replay_saved(&cfg, path, &command)?;
    }
    let outcome = run(&cfg, |_, _| {});
    match judge(&outcome, env, &command) {
        Ok(()) => Ok(outcome),
        Err(PropsFailure::CaseFailed { case, mut message }) => {
            if let (Some(path), Some(f)) = (saved, &outcome.first_failure) {
                let _ = match regressions::save(path, outcome.dto, &cfg, f) {
                    Ok(line) => write!(
                        message,
                        "\nsaved: {}:{line} (commit it: every run replays this case first; \
                         {}=off saves nothing)",
                        path.display(),
                        regressions::REGRESSIONS_ENV
                    ),
                    Err(e) => write!(message, "\nnot saved: {e}"),
                };
            }
            Err(PropsFailure::CaseFailed { case, message })
        }
        Err(other) => Err(other),
    }
}

/// Replays the cases saved in `path` for `cfg`'s DTO: the first that fails again is the
/// error (as a new failure is reported); those that pass are kept, and said on stderr.
fn replay_saved(
    cfg: &PropsConfig,
    path: &std::path::Path,
    command: &str,
) -> Result<(), PropsFailure> {
    let saved = regressions::load(path)?;
    if let Some((s, f)) = regressions::first_failing(cfg, &saved) {
        let message = format!(
            "equijson: {dto}: the case saved at {file}:{line} (case {case} of seed {seed:#x}) \
             fails again: {property}\n{body}",
            dto = cfg.dto_name(),
            file = path.display(),
            line = s.line,
            case = s.case,
            seed = s.seed,
            property = f.property.name(),
            body = failure_body(&f, s.seed, command),
        );
        return Err(PropsFailure::SavedCaseFailed {
            line: s.line,
            case: s.case,
            message,
        });
    }
    if !saved.is_empty() {
        #[allow(
            clippy::print_stderr,
            reason = "as proptest does: the test harness shows it with the test's output"
        )]
        {
            eprintln!(
                "equijson: {}: the {} case(s) saved in {} pass",
                cfg.dto_name(),
                saved.len(),
                path.display()
            );
        }
    }
    Ok(())
}

/// The test one-liner: runs the properties for `T` and panics with the shrunk case, its
/// finding and the replay command when one fails.
///
/// ```no_run
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Order { id: u64, note: String }
/// impl equijson_check::dto::Dto for Order {}
///
/// #[test]
/// fn order_decodes_the_same_way_everywhere() {
///     equijson_check::props::check_dto::<Order>();
/// }
/// ```
///
/// The seed and the number of cases come from `EQUIJSON_SEED` and `EQUIJSON_CASES`
/// ([`DEFAULT_SEED`], [`DEFAULT_CASES`] when unset). As proptest's `proptest-regressions/`,
/// a failure is saved to `equijson-regressions/<dto>.txt` in the crate's directory (commit
/// it), and every later run replays the saved cases before generating new ones; the
/// variable `EQUIJSON_REGRESSIONS` moves that directory, or with `off` turns this off
/// (see [`regressions`](super::regressions)).
///
/// # Panics
/// As [`try_check_dto`] errs.
pub fn check_dto<T: Dto>() {
    if let Err(m) = try_check_dto::<T>() {
        panic!("{m}");
    }
}

/// `Ok` for a run that passed and checked something; the failure message otherwise.
///
/// # Errors
/// [`PropsFailure::CaseFailed`] with the first failure (shrunk), or
/// [`PropsFailure::NothingChecked`] when every case was rejected.
pub fn judge(outcome: &PropsOutcome, env: EnvConfig, command: &str) -> Result<(), PropsFailure> {
    if let Some(f) = &outcome.first_failure {
        let message = format!(
            "equijson: {dto}: {failed} of {cases} cases failed; the first, case {case}: {property}\n{body}",
            dto = outcome.dto,
            failed = outcome.failed,
            cases = outcome.cases,
            case = f.case,
            property = f.property.name(),
            body = failure_body(f, env.seed, command),
        );
        return Err(PropsFailure::CaseFailed {
            case: f.case,
            message,
        });
    }
    nothing_checked(outcome.dto, outcome.cases, outcome.rejected).map_or(Ok(()), |m| {
        Err(PropsFailure::NothingChecked {
            message: format!(
                "{m}\nreplay: EQUIJSON_SEED={seed:#x} EQUIJSON_CASES={n} {command}",
                seed = env.seed,
                n = outcome.cases
            ),
        })
    })
}

/// A failure's lines after the first: the original and shrunk documents, the finding and
/// the replay line.
fn failure_body(f: &Failure, seed: u64, command: &str) -> String {
    format!(
        "original: {original}\n\
         shrunk ({steps} steps): {shrunk}\n\
         {detail}\n\
         replay: EQUIJSON_SEED={seed:#x} EQUIJSON_CASES={cases_to} {command}",
        original = f.original,
        steps = f.steps,
        shrunk = f.shrunk,
        detail = f.detail.trim_end(),
        cases_to = f.case + 1,
    )
}

/// [`judge`]'s rule for a run that checked nothing: when every one of `cases` (at least
/// one) was rejected by every decode path, the message saying so (without a replay line);
/// `None` otherwise. Other runners (the live round trip) apply the same rule.
#[must_use]
pub fn nothing_checked(dto: &str, cases: u64, rejected: u64) -> Option<String> {
    (cases > 0 && rejected == cases).then(|| {
        format!(
            "equijson: {dto}: every one of the {cases} cases was rejected by every decode path, \
             so nothing was checked: give the DTO examples() or a generate() that makes \
             documents it decodes"
        )
    })
}

/// `cargo test <this test> -- --exact`, named from the test thread (libtest names each
/// test's thread after the test).
fn replay_command() -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => format!("cargo test {name} -- --exact"),
        _ => "cargo test".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_CASES, DEFAULT_SEED, EnvConfig, EnvError};

    #[test]
    fn the_environment_sets_seed_and_cases() {
        assert_eq!(
            EnvConfig::from_vars(None, None),
            Ok(EnvConfig {
                seed: DEFAULT_SEED,
                cases: DEFAULT_CASES
            })
        );
        assert_eq!(
            EnvConfig::from_vars(Some("0x10"), Some(" 7 ")),
            Ok(EnvConfig { seed: 16, cases: 7 })
        );
        // (seed, cases, the error, its message)
        let table: [(Option<&str>, Option<&str>, EnvError, &str); 3] = [
            (
                Some("x"),
                None,
                EnvError::Seed("x".into()),
                "EQUIJSON_SEED=\"x\" is not a decimal or 0x-hex u64",
            ),
            (
                Some("0x"),
                Some("1"),
                EnvError::Seed("0x".into()),
                "EQUIJSON_SEED=\"0x\" is not a decimal or 0x-hex u64",
            ),
            (
                None,
                Some("-1"),
                EnvError::Cases("-1".into()),
                "EQUIJSON_CASES=\"-1\" is not a case count",
            ),
        ];
        for (seed, cases, want, message) in table {
            let e = EnvConfig::from_vars(seed, cases).expect_err(message);
            assert_eq!(e, want);
            assert_eq!(e.to_string(), message);
        }
    }
}
