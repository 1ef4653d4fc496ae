//! Exit statuses shared by every subcommand.

use std::process::ExitCode;

/// How a subcommand ended; the worst outcome across inputs wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    /// Exit 0.
    Success,
    /// Exit 1: invalid input or a failed check.
    Invalid,
    /// Exit 2: usage, I/O or environment error.
    Environment,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> Self {
        match s {
            Status::Success => Self::SUCCESS,
            Status::Invalid => Self::from(1),
            Status::Environment => Self::from(2),
        }
    }
}
