//! How [`Accept`] entries add up: a finding is accepted when the union of the grants of
//! its class covers every path on its side.
//!
//! An entry `Accept { class, only, .. }` grants the paths `only` (every path when `only`
//! is empty) for findings of `class`. A finding of class `c` whose side is the set of
//! paths `S` (error split: the failing paths; value split: the paths that differ from the
//! baseline; round-trip loss: the baseline's paths) is accepted iff
//!
//! ```text
//! S ⊆ ⋃ { grant(e) : e ∈ accepts, e.class = c }
//! ```
//!
//! | entries (for one class)             | failing paths of the finding | accepted |
//! |-------------------------------------|------------------------------|----------|
//! | `[Canonical]`                       | {canonical}                  | yes      |
//! | `[Canonical]`                       | {dom, borrow, canonical}     | no       |
//! | `[Canonical]` + `[Dom, Borrow]`     | {dom, borrow, canonical}     | yes      |
//! | `[Dom]` + `[Borrow]`                | {dom, borrow}                | yes      |
//! | `[Dom, Borrow]`                     | {dom, jsonb}                 | no       |
//! | `[]` (any path)                     | any set                      | yes      |
//! | entries of another class only       | any set                      | no       |
//!
//! Consequences (checked by `tests/accept_algebra.rs`): the order of entries does not
//! matter; adding an entry never withdraws an acceptance; a finding is accepted iff each of
//! its paths alone would be; and whatever one entry accepted on its own is still accepted.

use super::{Accept, Class, DecodePath};

/// Whether `accepts` accepts a finding of `class` whose side is `side` (see the module
/// documentation for the algebra).
#[must_use]
pub fn accepted(accepts: &[Accept], class: Class, side: &[DecodePath]) -> bool {
    let mut grants = accepts.iter().filter(|a| a.class == class).peekable();
    if grants.peek().is_none() {
        return false;
    }
    let mut granted: Vec<DecodePath> = Vec::new();
    for a in grants {
        if a.only.is_empty() {
            return true;
        }
        granted.extend_from_slice(a.only);
    }
    side.iter().all(|p| granted.contains(p))
}
