//! JSON-pointer diffs between two documents: what changed where, short and readable,
//! with a redaction mode that shows only pointers, kinds and lengths.

use std::fmt::{self, Write as _};

use equijson::pointer;
use equijson::{Document, Kind, ValueRef};

/// How one place differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    /// Present only in the new document.
    Added,
    /// Present only in the old document.
    Removed,
    /// Present in both with different values.
    Changed,
}

/// A value as shown in a diff: its kind, size, and canonical text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The value's kind.
    pub kind: Kind,
    /// Characters of a string, elements of an array, members of an object; digits of a
    /// number's canonical text; 0 otherwise.
    pub len: usize,
    /// Canonical JSON text of the value.
    pub text: String,
}

impl Shown {
    pub(crate) fn of(v: ValueRef<'_>) -> Self {
        let len = match v.kind() {
            Kind::String => v.as_str().map_or(0, |s| s.chars().count()),
            Kind::Array | Kind::Object => v.len(),
            Kind::Number => v.number_text().map_or(0, str::len),
            Kind::Null | Kind::Bool => 0,
        };
        Self {
            kind: v.kind(),
            len,
            text: String::from_utf8_lossy(&v.to_canonical_vec()).into_owned(),
        }
    }

    /// `string(5)`, `array(3)`, `number`, `null`...
    #[must_use]
    pub fn redacted(&self) -> String {
        match self.kind {
            Kind::String | Kind::Array | Kind::Object => {
                format!("{}({})", self.kind.name(), self.len)
            }
            k => k.name().to_owned(),
        }
    }
}

/// One difference, located by an RFC 6901 JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Where (`""` is the whole document).
    pub pointer: String,
    /// What happened there.
    pub kind: ChangeKind,
    /// The old value, unless added.
    pub old: Option<Shown>,
    /// The new value, unless removed.
    pub new: Option<Shown>,
}

/// Options for showing changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffStyle {
    /// Show kinds and lengths instead of values (for logs of sensitive data).
    pub redact: bool,
    /// Longest value text shown before it is cut with `…`.
    pub max_value_chars: usize,
}

impl Default for DiffStyle {
    fn default() -> Self {
        Self {
            redact: false,
            max_value_chars: 80,
        }
    }
}

impl Change {
    /// One line: `~ /a/0: 1 -> 2`, `+ /b: "x"`, `- /c: {...}`.
    #[must_use]
    pub fn display(&self, style: DiffStyle) -> String {
        let show = |s: &Option<Shown>| -> String {
            match s {
                None => String::new(),
                Some(s) if style.redact => s.redacted(),
                Some(s) => cut(&s.text, style.max_value_chars),
            }
        };
        let ptr = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        // A changed value with one side missing: that side has no JSON form (e.g. an f32
        // that decoded to infinity).
        let either = |s: &Option<Shown>| {
            if s.is_some() {
                show(s)
            } else {
                "(no JSON form)".to_owned()
            }
        };
        match self.kind {
            ChangeKind::Added => format!("+ {ptr}: {}", show(&self.new)),
            ChangeKind::Removed => format!("- {ptr}: {}", show(&self.old)),
            ChangeKind::Changed => {
                format!("~ {ptr}: {} -> {}", either(&self.old), either(&self.new))
            }
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display(DiffStyle::default()))
    }
}

/// `s`, or its first `max - 1` characters and `…` when it is longer than `max`.
pub(crate) fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The differences between two documents, in document order. Objects are compared by
/// member name, arrays index by index (extra elements are added/removed at the end).
/// Walks with an explicit stack and builds a pointer only for a change, so any depth is
/// safe and the cost stays linear in the documents' size.
#[must_use]
pub fn diff<'d>(old: &'d Document, new: &'d Document) -> Vec<Change> {
    use std::cmp::Ordering;
    let mut changes = Vec::new();
    // Every visited place: its parent's index in `places` and its token.
    let mut places: Vec<(usize, Token<'d>)> = vec![(0, Token::Root)];
    let mut work = vec![Work::Compare(0, old.root(), new.root())];
    // One container's children, reused from one container to the next.
    let mut children = Vec::new();
    while let Some(item) = work.pop() {
        let (at, a, b) = match item {
            Work::Compare(at, a, b) => (at, a, b),
            Work::Only(at, v, kind) => {
                let shown = Some(Shown::of(v));
                let (old, new) = if kind == ChangeKind::Removed {
                    (shown, None)
                } else {
                    (None, shown)
                };
                changes.push(Change {
                    pointer: pointer_of(&places, at),
                    kind,
                    old,
                    new,
                });
                continue;
            }
        };
        let mut place = |token: Token<'d>| -> usize {
            places.push((at, token));
            places.len() - 1
        };
        match (a.kind(), b.kind()) {
            (Kind::Object, Kind::Object) => {
                // Both iterate in canonical order: a merge join.
                let mut am = a.members().peekable();
                let mut bm = b.members().peekable();
                loop {
                    let step = match (am.peek(), bm.peek()) {
                        (None, None) => break,
                        (Some(_), None) => Ordering::Less,
                        (None, Some(_)) => Ordering::Greater,
                        (Some((ka, _)), Some((kb, _))) => {
                            equijson::cmp_utf16(ka.as_bytes(), kb.as_bytes())
                        }
                    };
                    let (ka, kb) = match step {
                        Ordering::Less => (am.next(), None),
                        Ordering::Greater => (None, bm.next()),
                        Ordering::Equal => (am.next(), bm.next()),
                    };
                    children.push(match (ka, kb) {
                        (Some((k, va)), Some((_, vb))) => {
                            Work::Compare(place(Token::Key(k)), va, vb)
                        }
                        (Some((k, va)), None) => {
                            Work::Only(place(Token::Key(k)), va, ChangeKind::Removed)
                        }
                        (None, Some((k, vb))) => {
                            Work::Only(place(Token::Key(k)), vb, ChangeKind::Added)
                        }
                        (None, None) => break,
                    });
                }
            }
            (Kind::Array, Kind::Array) => {
                let mut ae = a.elements();
                let mut be = b.elements();
                for i in 0usize.. {
                    children.push(match (ae.next(), be.next()) {
                        (None, None) => break,
                        (Some(va), None) => {
                            Work::Only(place(Token::Index(i)), va, ChangeKind::Removed)
                        }
                        (None, Some(vb)) => {
                            Work::Only(place(Token::Index(i)), vb, ChangeKind::Added)
                        }
                        (Some(va), Some(vb)) => Work::Compare(place(Token::Index(i)), va, vb),
                    });
                }
            }
            _ => {
                if !a.same_canonical(&b) {
                    changes.push(Change {
                        pointer: pointer_of(&places, at),
                        kind: ChangeKind::Changed,
                        old: Some(Shown::of(a)),
                        new: Some(Shown::of(b)),
                    });
                }
            }
        }
        // Reversed, so that the stack hands them out in document order.
        work.extend(children.drain(..).rev());
    }
    changes
}

#[derive(Clone, Copy)]
enum Token<'d> {
    Root,
    Key(&'d str),
    Index(usize),
}

enum Work<'d> {
    Compare(usize, ValueRef<'d>, ValueRef<'d>),
    Only(usize, ValueRef<'d>, ChangeKind),
}

/// The RFC 6901 pointer of place `at`, built by walking up to the root.
fn pointer_of(places: &[(usize, Token<'_>)], mut at: usize) -> String {
    let mut tokens = Vec::new();
    while at != 0 {
        let (parent, token) = places[at];
        tokens.push(token);
        at = parent;
    }
    let mut p = String::new();
    for token in tokens.into_iter().rev() {
        match token {
            Token::Key(k) => pointer::push_token(&mut p, k),
            Token::Index(i) => pointer::push_token(&mut p, &i.to_string()),
            Token::Root => {}
        }
    }
    p
}

/// A change at `pointer` where one side has no JSON form: the other side's value there
/// (taken from its canonical text, when it parses and has the pointer) is shown.
#[must_use]
pub fn unencodable_change(pointer: &str, other: Option<&[u8]>, other_is_old: bool) -> Change {
    let shown = other
        .and_then(|bytes| Document::parse_with(bytes, &equijson::Options::comparison()).ok())
        .and_then(|doc| doc.root().pointer(pointer).map(Shown::of));
    let (old, new) = if other_is_old {
        (shown, None)
    } else {
        (None, shown)
    };
    Change {
        pointer: pointer.to_owned(),
        kind: ChangeKind::Changed,
        old,
        new,
    }
}

/// Diffs two JSON texts. `None` if either does not parse. Integers are compared with all
/// their digits (`9007199254740993` differs from `9007199254740992`), other numbers as
/// doubles.
#[must_use]
pub fn diff_texts(old: &[u8], new: &[u8]) -> Option<Vec<Change>> {
    let options = equijson::Options::comparison();
    let a = Document::parse_with(old, &options).ok()?;
    let b = Document::parse_with(new, &options).ok()?;
    Some(diff(&a, &b))
}

/// [`diff_texts`] with the old text already parsed (with the comparison options): `old`
/// must be that text's document, or the document of any text with the same comparison
/// form (a document holds numbers in their canonical text, strings decoded and members in
/// canonical order, so the two diff alike).
pub(crate) fn diff_document_text(old: &Document, new: &[u8]) -> Option<Vec<Change>> {
    let b = Document::parse_with(new, &equijson::Options::comparison()).ok()?;
    Some(diff(old, &b))
}

/// Renders changes one per line, at most `max_lines` (with a `… N more` line).
#[must_use]
pub fn render(changes: &[Change], style: DiffStyle, max_lines: usize) -> String {
    let mut out = String::new();
    for c in changes.iter().take(max_lines) {
        let _ = writeln!(out, "{}", c.display(style));
    }
    if changes.len() > max_lines {
        let _ = writeln!(out, "… {} more", changes.len() - max_lines);
    }
    out
}
