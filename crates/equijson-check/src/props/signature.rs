//! What identifies a failure while it is shrunk: the first unaccepted finding's class, its
//! paths, and where it is (the pointers of its changes, or the failing paths' messages
//! without positions and quoted values), so that a shrunk case fails the same way and
//! not merely on the same paths.

use crate::decode::{Class, DecodePath, Report};

/// The identity of a finding, for shrinking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FindingSignature {
    class: Class,
    paths: Vec<DecodePath>,
    /// Value splits and round-trip losses: the changes' pointers and kinds; error splits:
    /// each failing path's message with positions and quoted values left out.
    places: Vec<String>,
}

/// The signature of `report`'s first unaccepted finding; after a duplicate-name finding
/// (a fact of the input, on no path), also of the first unaccepted finding between paths,
/// so that shrinking keeps what the paths made of the repeated name.
pub(crate) fn first_unaccepted(report: &Report) -> Option<Vec<FindingSignature>> {
    let mut unaccepted = report.findings.iter().filter(|f| !f.accepted);
    let first = unaccepted.next()?;
    let mut out = vec![signature(first)];
    if first.class == Class::DuplicateName {
        if let Some(f) = unaccepted.find(|f| f.class != Class::DuplicateName) {
            out.push(signature(f));
        }
    }
    Some(out)
}

fn signature(f: &crate::decode::Finding) -> FindingSignature {
    let mut paths = f.paths.clone();
    paths.extend(f.against.iter().copied());
    paths.extend(f.errors.iter().map(|(p, _)| *p));
    let mut places: Vec<String> = if f.class == Class::ErrorSplit {
        f.errors
            .iter()
            .map(|(p, m)| format!("{p}: {}", without_values(m)))
            .collect()
    } else {
        f.changes
            .iter()
            .map(|c| format!("{} {:?}", c.pointer, c.kind))
            .collect()
    };
    places.extend(f.at.clone());
    places.sort();
    places.dedup();
    FindingSignature {
        class: f.class,
        paths,
        places,
    }
}

/// `message` without its position (` at line L column C`, `line L, column C`) and with
/// every quoted part (`` `...` ``, `"..."`) replaced by `_` (the type names stay:
/// `expected u128` and `expected u32` are different findings).
pub(crate) fn without_values(message: &str) -> String {
    let message = message.find(" at line ").map_or(message, |i| &message[..i]);
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' => {
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
                out.push('_');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::without_values;

    #[test]
    fn messages_lose_positions_and_values_only() {
        assert_eq!(
            without_values(
                "invalid type: floating point `1.8e19`, expected u128 at line 1 column 40"
            ),
            without_values("invalid type: floating point `2e20`, expected u128 at line 3 column 2"),
        );
        assert_ne!(
            without_values("invalid type: floating point `1.8e19`, expected u128"),
            without_values("missing field `note`"),
        );
        assert_ne!(
            without_values("invalid type: floating point `1.8e19`, expected u128"),
            without_values("invalid type: floating point `-0.0`, expected u32"),
        );
    }
}
