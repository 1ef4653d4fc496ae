//! `--accept CLASS`: findings the caller declares acceptable on top of the DTO's own.

use clap::ValueEnum;
use equijson_check::decode::{Class, Report};

/// A finding class the command line can accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Acceptable {
    /// Duplicate member names (`duplicate-name`), and what the paths make of such a document.
    DuplicateNames,
    /// Numbers read to another double than the correctly rounded one (`float-misread`).
    FloatMisreads,
}

impl Acceptable {
    fn class(self) -> Class {
        match self {
            Self::DuplicateNames => Class::DuplicateName,
            Self::FloatMisreads => Class::FloatMisread,
        }
    }
}

/// `report` with the findings of the `accepted` classes declared.
pub(crate) fn apply(mut report: Report, accepted: &[Acceptable]) -> Report {
    for a in accepted {
        report.accept(a.class());
    }
    report
}
