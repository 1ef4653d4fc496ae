//! Saved failures (as proptest's `proptest-regressions/`): a failing case's seed, number and
//! size go to `equijson-regressions/<dto>.txt`, and every later run replays them first.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{Failure, PropsConfig, check_one};

/// The environment variable that places the saved failures: unset or empty for
/// `equijson-regressions/` in the crate's directory (`CARGO_MANIFEST_DIR`, which
/// `cargo test` sets; the current directory otherwise), `off` to neither read nor write
/// them, anything else for that directory.
pub const REGRESSIONS_ENV: &str = "EQUIJSON_REGRESSIONS";

/// The directory's name in the crate's directory when [`REGRESSIONS_ENV`] is unset.
pub const REGRESSIONS_DIR: &str = "equijson-regressions";

const HEADER: &str = "\
# Failures found by equijson's property checks for the DTO named below, one case a line:
# its seed, its number and the generator's size (the shrunk document follows as a comment).
# Every run of `equijson_check::props::check_dto` (and `props --regressions DIR`) replays
# these cases before generating new ones. Commit this file to the repository, so that
# every run (yours, your colleagues', CI) checks them; set EQUIJSON_REGRESSIONS=off to
# neither read nor write it.
";

/// Why a file of saved cases cannot be used; the message names the file (and the line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegressionsError {
    /// The file exists but cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// A line is not `cc seed=SEED case=N size=N` (optionally followed by a `#` comment).
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line's number (from 1).
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file's directory cannot be created.
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// The file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
}

impl std::fmt::Display for RegressionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Read { path, reason } => write!(f, "{}: cannot read: {reason}", path.display()),
            Self::Malformed {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            Self::CreateDir { path, reason } => {
                write!(f, "{}: cannot create: {reason}", path.display())
            }
            Self::Write { path, reason } => write!(f, "{}: cannot write: {reason}", path.display()),
        }
    }
}

impl std::error::Error for RegressionsError {}

/// One saved case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavedCase {
    /// Line number in the file (from 1).
    pub line: usize,
    /// Seed of the run that found it.
    pub seed: u64,
    /// The case's number in that run.
    pub case: u64,
    /// The generator's size in that run.
    pub size: usize,
}

impl SavedCase {
    /// The configuration that generates this case again (`cfg`'s DTO, shrink budget and
    /// redaction; this case's seed and size).
    #[must_use]
    pub fn config(&self, cfg: &PropsConfig) -> PropsConfig {
        PropsConfig {
            seed: self.seed,
            cases: self.case.saturating_add(1),
            size: self.size,
            ..*cfg
        }
    }
}

/// Replays `saved` for `cfg`'s DTO (each case regenerated from its seed, number and
/// size): the first that fails again, with its failure; `None` when every one passes.
#[must_use]
pub fn first_failing(cfg: &PropsConfig, saved: &[SavedCase]) -> Option<(SavedCase, Failure)> {
    saved
        .iter()
        .find_map(|s| check_one(&s.config(cfg), s.case).map(|f| (*s, f)))
}

/// Where a DTO's failures are saved, from [`REGRESSIONS_ENV`]; `None` when it says `off`.
#[must_use]
pub fn file_for(dto: &str) -> Option<PathBuf> {
    file_from(
        std::env::var_os(REGRESSIONS_ENV),
        std::env::var_os("CARGO_MANIFEST_DIR"),
        dto,
    )
}

/// [`file_for`] given the variable's value and the crate's directory.
fn file_from(var: Option<OsString>, manifest_dir: Option<OsString>, dto: &str) -> Option<PathBuf> {
    let dir = match var.filter(|v| !v.is_empty()) {
        Some(v) if v.eq_ignore_ascii_case("off") => return None,
        Some(v) => PathBuf::from(v),
        None => manifest_dir
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
            .join(REGRESSIONS_DIR),
    };
    Some(file_in(&dir, dto))
}

/// The file of `dto`'s failures in `dir`: `<dir>/<dto>.txt`, with characters other than
/// ASCII letters, digits, `-`, `_` and `.` of the name written as `_`.
#[must_use]
pub fn file_in(dir: &Path, dto: &str) -> PathBuf {
    let name: String = dto
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{}.txt", name.trim_start_matches('.')))
}

/// The cases saved in `path` (none when it does not exist).
///
/// # Errors
/// An unreadable file, or a line that is not `cc seed=S case=N size=N` (optionally
/// followed by a `#` comment), named as `FILE:LINE: ...`.
pub fn load(path: &Path) -> Result<Vec<SavedCase>, RegressionsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(RegressionsError::Read {
                path: path.to_owned(),
                reason: e.to_string(),
            });
        }
    };
    parse(&text).map_err(|(line, message)| RegressionsError::Malformed {
        path: path.to_owned(),
        line,
        message,
    })
}

/// The cases of a file's text.
///
/// # Errors
/// The first malformed line's number and what is wrong with it.
pub fn parse(text: &str) -> Result<Vec<SavedCase>, (usize, String)> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split_once('#').map_or(raw, |(b, _)| b).trim();
        if body.is_empty() {
            continue;
        }
        cases.push(parse_line(body, line).map_err(|m| (line, m))?);
    }
    Ok(cases)
}

fn parse_line(body: &str, line: usize) -> Result<SavedCase, String> {
    let expected = "expected `cc seed=SEED case=N size=N`";
    let mut words = body.split_whitespace();
    if words.next() != Some("cc") {
        return Err(format!("{expected}, found {body:?}"));
    }
    let (mut seed, mut case, mut size) = (None, None, None);
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{expected}: {word:?} is not KEY=VALUE"))?;
        let bad = || format!("{key}={value:?} is not a number");
        match key {
            "seed" => seed = Some(super::parse_seed(value).ok_or_else(bad)?),
            "case" => case = Some(value.parse().map_err(|_| bad())?),
            "size" => size = Some(value.parse().map_err(|_| bad())?),
            _ => return Err(format!("{expected}: unknown key {key:?}")),
        }
    }
    match (seed, case, size) {
        (Some(seed), Some(case), Some(size)) => Ok(SavedCase {
            line,
            seed,
            case,
            size,
        }),
        _ => Err(format!("{expected}, found {body:?}")),
    }
}

/// Appends `failure` (found by `cfg`) to `path`, creating the file (with a header saying
/// to commit it) and its directory; a case already saved is not written twice. Returns
/// the case's line number.
///
/// # Errors
/// The file cannot be read, created or written (with its path).
pub fn save(
    path: &Path,
    dto: &str,
    cfg: &PropsConfig,
    failure: &Failure,
) -> Result<usize, RegressionsError> {
    let saved = load(path)?;
    if let Some(s) = saved
        .iter()
        .find(|s| (s.seed, s.case, s.size) == (cfg.seed, failure.case, cfg.size))
    {
        return Ok(s.line);
    }
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(RegressionsError::Read {
                path: path.to_owned(),
                reason: e.to_string(),
            });
        }
    };
    let mut text = existing.clone();
    if text.is_empty() {
        text.push_str(HEADER);
        let _ = writeln!(text, "# dto: {}", one_line(dto));
    } else if !text.ends_with('\n') {
        text.push('\n');
    }
    let _ = writeln!(
        text,
        "cc seed={:#x} case={} size={} # fails: {}; shrinks to {}",
        cfg.seed,
        failure.case,
        cfg.size,
        failure.property.name(),
        one_line(&failure.shrunk)
    );
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| RegressionsError::CreateDir {
            path: dir.to_owned(),
            reason: e.to_string(),
        })?;
    }
    std::fs::write(path, &text).map_err(|e| RegressionsError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    Ok(text.lines().count())
}

/// `text` on one line: as is, or as a JSON string literal when it has a line break.
fn one_line(text: &str) -> String {
    if text.contains(['\n', '\r']) {
        serde_json::to_string(text).unwrap_or_else(|_| text.escape_debug().to_string())
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::{SavedCase, file_from, file_in, parse};

    #[test]
    fn the_variable_places_the_files_or_turns_them_off() {
        let crate_dir = Some("/src/app".into());
        let default = Some(PathBuf::from("/src/app/equijson-regressions/order.txt"));
        assert_eq!(file_from(None, crate_dir.clone(), "order"), default);
        assert_eq!(
            file_from(Some("".into()), crate_dir.clone(), "order"),
            default
        );
        assert_eq!(
            file_from(Some("off".into()), crate_dir.clone(), "order"),
            None
        );
        assert_eq!(
            file_from(Some("OFF".into()), crate_dir.clone(), "order"),
            None
        );
        assert_eq!(
            file_from(Some("saved/here".into()), crate_dir, "order"),
            Some(PathBuf::from("saved/here/order.txt"))
        );
        assert_eq!(
            file_from(None, None, "order"),
            Some(PathBuf::from("./equijson-regressions/order.txt"))
        );
    }

    #[test]
    fn lines_parse_and_a_malformed_line_is_named() {
        let text =
            "# header\n\ncc seed=0x10 case=3 size=6 # paths-agree\ncc case=1 seed=7 size=2\n";
        assert_eq!(
            parse(text),
            Ok(vec![
                SavedCase {
                    line: 3,
                    seed: 16,
                    case: 3,
                    size: 6
                },
                SavedCase {
                    line: 4,
                    seed: 7,
                    case: 1,
                    size: 2
                },
            ])
        );
        for (bad, why) in [
            (
                "cc seed=0x10 case=3",
                "expected `cc seed=SEED case=N size=N`",
            ),
            ("cc seed=x case=3 size=1", "seed=\"x\" is not a number"),
            (
                "cc seed=1 case=3 size=1 extra",
                "\"extra\" is not KEY=VALUE",
            ),
            ("cc seed=1 case=3 size=1 when=now", "unknown key \"when\""),
            ("seed=1 case=3 size=1", "expected `cc"),
        ] {
            let (line, m) =
                parse(&format!("# ok\ncc seed=1 case=0 size=1\n{bad}\n")).expect_err(bad);
            assert_eq!(line, 3, "{bad}");
            assert!(m.contains(why), "{bad}: {m}");
        }
    }

    #[test]
    fn a_dto_name_is_a_file_name() {
        let dir = std::path::Path::new("d");
        assert_eq!(file_in(dir, "audit-batch"), dir.join("audit-batch.txt"));
        assert_eq!(file_in(dir, "../a b/c"), dir.join("_a_b_c.txt"));
    }
}
