//! The class of a live finding: a decode finding's [`Class`], or what the server did.
//!
//! Reports, examples and `--findings` lines spell a class by its name (`value-split`,
//! `model-text`, ...), exactly as before the class was an enum: [`LiveClass::name`] is
//! that spelling, and serde reads and writes it.

use std::cmp::Ordering;
use std::fmt;

use equijson_check::decode::Class;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What one live finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiveClass {
    /// The decode paths disagree: `error-split`, `value-split`, `round-trip-loss`,
    /// `float-misread`, `duplicate-name` ([`Class::name`]).
    Decode(Class),
    /// `rejected`: every decode path rejects the value alike (counted, accepted, not a
    /// divergence).
    Rejected,
    /// `model-text`: the jsonb model normalizes the value to another text than the server's.
    ModelText,
    /// `model-binary`: the model's binary jsonb form differs from the server's.
    ModelBinary,
    /// `model-accepts`: the server rejects a value the model accepts.
    ModelAccepts,
    /// `model-rejects`: the model rejects a value the server stores.
    ModelRejects,
    /// `model-sqlstate`: both reject, with different SQLSTATEs.
    ModelSqlstate,
    /// `text-binary`: canonical(text form) differed from canonical(binary form). Written by
    /// earlier versions' scans (which read both forms of a jsonb value), read in their
    /// reports; no longer found (a scan reads one form).
    TextBinary,
    /// `json-not-verbatim`: a `json` value did not come back as sent.
    JsonNotVerbatim,
    /// `json-rejected`: `json` rejects a value `jsonb` accepts (round trips).
    JsonRejected,
    /// `bad-wire`: an unreadable binary value.
    BadWire,
    /// `sql-canonical`: the SQL canonicalizer's output differs from equijson's
    /// ([`crate::sql_scan`]).
    SqlCanonical,
}

impl LiveClass {
    /// Every class: the decode classes in [`Class::ALL`] order, then the others.
    pub const ALL: [Self; 16] = [
        Self::Decode(Class::DuplicateName),
        Self::Decode(Class::ErrorSplit),
        Self::Decode(Class::ValueSplit),
        Self::Decode(Class::FloatMisread),
        Self::Decode(Class::RoundTripLoss),
        Self::Rejected,
        Self::ModelText,
        Self::ModelBinary,
        Self::ModelAccepts,
        Self::ModelRejects,
        Self::ModelSqlstate,
        Self::TextBinary,
        Self::JsonNotVerbatim,
        Self::JsonRejected,
        Self::BadWire,
        Self::SqlCanonical,
    ];

    /// The name reports spell it with (`value-split`, `model-text`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Decode(c) => c.name(),
            Self::Rejected => "rejected",
            Self::ModelText => "model-text",
            Self::ModelBinary => "model-binary",
            Self::ModelAccepts => "model-accepts",
            Self::ModelRejects => "model-rejects",
            Self::ModelSqlstate => "model-sqlstate",
            Self::TextBinary => "text-binary",
            Self::JsonNotVerbatim => "json-not-verbatim",
            Self::JsonRejected => "json-rejected",
            Self::BadWire => "bad-wire",
            Self::SqlCanonical => "sql-canonical",
        }
    }

    /// The class named `name` (as [`LiveClass::name`] gives it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The decode class, for a decode finding.
    #[must_use]
    pub fn decode(self) -> Option<Class> {
        match self {
            Self::Decode(c) => Some(c),
            _ => None,
        }
    }

    /// Whether the jsonb model and the server disagree (the `model-*` classes).
    #[must_use]
    pub fn is_model(self) -> bool {
        matches!(
            self,
            Self::ModelText
                | Self::ModelBinary
                | Self::ModelAccepts
                | Self::ModelRejects
                | Self::ModelSqlstate
        )
    }
}

impl From<Class> for LiveClass {
    fn from(c: Class) -> Self {
        Self::Decode(c)
    }
}

impl PartialEq<Class> for LiveClass {
    fn eq(&self, other: &Class) -> bool {
        *self == Self::Decode(*other)
    }
}

/// By name, so that a report's `classes` keep the order they had as strings.
impl Ord for LiveClass {
    fn cmp(&self, other: &Self) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for LiveClass {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for LiveClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for LiveClass {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for LiveClass {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = LiveClass;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a finding class name such as \"value-split\" or \"model-text\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<LiveClass, E> {
                LiveClass::from_name(v).ok_or_else(|| {
                    E::custom(format_args!(
                        "unknown finding class {v:?} (known: {})",
                        LiveClass::ALL.map(LiveClass::name).join(", ")
                    ))
                })
            }
        }
        d.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_names_are_distinct() {
        let mut names: Vec<&str> = LiveClass::ALL.iter().map(|c| c.name()).collect();
        for c in LiveClass::ALL {
            assert_eq!(LiveClass::from_name(c.name()), Some(c));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LiveClass::ALL.len());
        for c in Class::ALL {
            assert!(LiveClass::ALL.contains(&LiveClass::Decode(c)), "{c}");
        }
        assert_eq!(LiveClass::from_name("declared"), None);
    }
}
