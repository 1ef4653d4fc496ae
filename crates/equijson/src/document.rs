//! `Document`: a parsed JSON value as a flat tape, members kept in canonical order.
//!
//! Nodes live in one vector, strings and canonical number text in one byte arena, so
//! building, cloning, comparing and dropping never recurse, whatever the nesting. Each
//! object records the RFC 8785 order of its members when it is closed (an index
//! permutation, only when the input order differs), so writing the canonical form is
//! one linear pass.

use crate::error::{ErrorKind, Result};
use crate::number::{self, NumberPolicy};
use crate::options::Options;
use crate::parse::{self, Fault, Sink, Str};
use crate::string::{order_members, write_escaped};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    Null,
    False,
    True,
    /// `a..a+b` in the arena: canonical number text.
    Number,
    /// `a..a+b` in the arena: unescaped UTF-8.
    String,
    /// Like `String`; `c` = input offset (or member ordinal when serializing).
    Key,
    /// `a` = element count, `b` = index of the node after the subtree.
    Array,
    /// `a` = member count, `b` = index after the subtree, `c` = start of the member order in
    /// `perm`, or [`IN_ORDER`] when the members already are in canonical order.
    Object,
}

const IN_ORDER: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    tag: Tag,
    /// Strings and keys: the source had escapes, so the JCS form must be recomputed.
    escaped: bool,
    a: u32,
    b: u32,
    c: u32,
}

impl Node {
    const fn new(tag: Tag) -> Self {
        Self {
            tag,
            escaped: false,
            a: 0,
            b: 0,
            c: 0,
        }
    }
}

/// A parsed JSON document whose objects know their RFC 8785 member order.
///
/// Numbers are held in canonical (ECMAScript) form, strings unescaped. Cloning, equality
/// and dropping are flat operations, safe at any nesting depth.
#[derive(Debug, Clone, Default)]
pub struct Document {
    nodes: Vec<Node>,
    arena: Vec<u8>,
    /// Member orders of objects not already in canonical order: key node indices.
    perm: Vec<u32>,
}

/// Documents are equal when their canonical forms are: the same value, however spelled.
impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.to_canonical_vec() == other.to_canonical_vec()
    }
}

impl Eq for Document {}

/// The kind of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// Lower-case name: `null`, `boolean`, `number`, `string`, `array`, `object`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "boolean",
            Self::Number => "number",
            Self::String => "string",
            Self::Array => "array",
            Self::Object => "object",
        }
    }
}

impl Document {
    /// Parses `input` with the default (strict RFC 8785) [`Options`].
    ///
    /// # Errors
    /// Any syntax, encoding or policy violation, with its position.
    pub fn parse(input: &[u8]) -> Result<Self> {
        Self::parse_with(input, &Options::default())
    }

    /// Parses `input` with the given policies.
    ///
    /// # Errors
    /// Any syntax, encoding or policy violation, with its position.
    pub fn parse_with(input: &[u8], options: &Options) -> Result<Self> {
        let mut b = Builder::new(options.number_policy());
        b.reserve_for(input.len());
        parse::parse(input, options, &mut b)?;
        Ok(b.finish())
    }

    /// The top-level value.
    #[must_use]
    pub fn root(&self) -> ValueRef<'_> {
        ValueRef { doc: self, idx: 0 }
    }

    /// The RFC 8785 canonical bytes.
    #[must_use]
    pub fn to_canonical_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.arena.len() + self.nodes.len() * 4);
        self.write_canonical(&mut out);
        out
    }

    /// Appends the RFC 8785 canonical bytes to `out`.
    pub fn write_canonical(&self, out: &mut Vec<u8>) {
        if !self.nodes.is_empty() {
            // Usually enough: the arena plus a few bytes of syntax per node.
            out.reserve(self.arena.len() + self.nodes.len() * 4);
            self.write_from(0, out);
        }
    }

    fn bytes(&self, n: &Node) -> &[u8] {
        &self.arena[n.a as usize..(n.a + n.b) as usize]
    }

    /// Index of the node after the subtree rooted at `idx`.
    fn skip(&self, idx: u32) -> u32 {
        let n = &self.nodes[idx as usize];
        match n.tag {
            Tag::Array | Tag::Object => n.b,
            _ => idx + 1,
        }
    }

    /// Key node indices of an object's members in canonical order.
    fn member_keys(&self, idx: u32) -> MemberKeys<'_> {
        let n = &self.nodes[idx as usize];
        if n.c == IN_ORDER {
            MemberKeys::InOrder {
                doc: self,
                next: idx + 1,
                left: n.a,
            }
        } else {
            let start = n.c as usize;
            MemberKeys::Sorted(self.perm[start..start + n.a as usize].iter())
        }
    }

    fn write_string(&self, n: &Node, out: &mut Vec<u8>) {
        let s = self.bytes(n);
        if n.escaped {
            write_escaped(s, out);
        } else {
            out.reserve(s.len() + 2);
            out.push(b'"');
            out.extend_from_slice(s);
            out.push(b'"');
        }
    }

    /// Writes the subtree at `root` canonically, iteratively.
    fn write_from(&self, root: u32, out: &mut Vec<u8>) {
        enum Frame<'d> {
            Array { next: u32, left: u32 },
            Object { keys: MemberKeys<'d> },
        }
        let mut stack: Vec<(Frame<'_>, bool)> = Vec::new();
        let mut pending = Some(root);
        loop {
            if let Some(idx) = pending.take() {
                let n = &self.nodes[idx as usize];
                match n.tag {
                    Tag::Null => out.extend_from_slice(b"null"),
                    Tag::False => out.extend_from_slice(b"false"),
                    Tag::True => out.extend_from_slice(b"true"),
                    Tag::Number => out.extend_from_slice(self.bytes(n)),
                    Tag::String | Tag::Key => self.write_string(n, out),
                    Tag::Array => {
                        out.push(b'[');
                        stack.push((
                            Frame::Array {
                                next: idx + 1,
                                left: n.a,
                            },
                            true,
                        ));
                    }
                    Tag::Object => {
                        out.push(b'{');
                        stack.push((
                            Frame::Object {
                                keys: self.member_keys(idx),
                            },
                            true,
                        ));
                    }
                }
            }
            let Some((frame, first)) = stack.last_mut() else {
                return;
            };
            let next = match frame {
                Frame::Array { next, left } => {
                    if *left == 0 {
                        None
                    } else {
                        *left -= 1;
                        let idx = *next;
                        *next = self.skip(idx);
                        Some((idx, None))
                    }
                }
                Frame::Object { keys } => keys.next().map(|k| (k + 1, Some(k))),
            };
            if let Some((value, key)) = next {
                if !std::mem::replace(first, false) {
                    out.push(b',');
                }
                if let Some(k) = key {
                    self.write_string(&self.nodes[k as usize], out);
                    out.push(b':');
                }
                pending = Some(value);
            } else {
                out.push(if matches!(frame, Frame::Array { .. }) {
                    b']'
                } else {
                    b'}'
                });
                stack.pop();
            }
        }
    }
}

/// Iterates an object's key node indices in canonical order.
#[derive(Clone)]
enum MemberKeys<'d> {
    InOrder {
        doc: &'d Document,
        next: u32,
        left: u32,
    },
    Sorted(std::slice::Iter<'d, u32>),
}

impl Iterator for MemberKeys<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        match self {
            Self::InOrder { doc, next, left } => {
                if *left == 0 {
                    return None;
                }
                *left -= 1;
                let k = *next;
                *next = doc.skip(k + 1);
                Some(k)
            }
            Self::Sorted(it) => it.next().copied(),
        }
    }
}

/// A borrowed view of one value inside a [`Document`].
#[derive(Clone, Copy)]
pub struct ValueRef<'d> {
    doc: &'d Document,
    idx: u32,
}

impl std::fmt::Debug for ValueRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = Vec::new();
        self.doc.write_from(self.idx, &mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

impl<'d> ValueRef<'d> {
    fn node(&self) -> &'d Node {
        &self.doc.nodes[self.idx as usize]
    }

    /// What kind of value this is.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self.node().tag {
            Tag::Null => Kind::Null,
            Tag::False | Tag::True => Kind::Bool,
            Tag::Number => Kind::Number,
            Tag::String | Tag::Key => Kind::String,
            Tag::Array => Kind::Array,
            Tag::Object => Kind::Object,
        }
    }

    /// The boolean, if this is one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self.node().tag {
            Tag::True => Some(true),
            Tag::False => Some(false),
            _ => None,
        }
    }

    /// The unescaped string, if this is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&'d str> {
        match self.node().tag {
            Tag::String | Tag::Key => std::str::from_utf8(self.doc.bytes(self.node())).ok(),
            _ => None,
        }
    }

    /// The canonical (ECMAScript) text of a number, if this is one.
    #[must_use]
    pub fn number_text(&self) -> Option<&'d str> {
        match self.node().tag {
            Tag::Number => std::str::from_utf8(self.doc.bytes(self.node())).ok(),
            _ => None,
        }
    }

    /// The number as a double, if this is one (exact: canonical text round-trips).
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        self.number_text().and_then(|t| t.parse().ok())
    }

    /// Number of elements or members; 0 for scalars.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.node().tag {
            Tag::Array | Tag::Object => self.node().a as usize,
            _ => 0,
        }
    }

    /// Whether this is an empty array/object, or a scalar.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Elements of an array (empty for anything else).
    pub fn elements(&self) -> impl Iterator<Item = ValueRef<'d>> + 'd {
        let doc = self.doc;
        let (mut next, mut left) = if self.node().tag == Tag::Array {
            (self.idx + 1, self.node().a)
        } else {
            (0, 0)
        };
        std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            left -= 1;
            let idx = next;
            next = doc.skip(idx);
            Some(ValueRef { doc, idx })
        })
    }

    /// Members of an object in canonical (RFC 8785) order (empty for anything else).
    pub fn members(&self) -> impl Iterator<Item = (&'d str, ValueRef<'d>)> + 'd {
        let doc = self.doc;
        let keys = if self.node().tag == Tag::Object {
            doc.member_keys(self.idx)
        } else {
            MemberKeys::InOrder {
                doc,
                next: 0,
                left: 0,
            }
        };
        keys.map(move |k| {
            let key = std::str::from_utf8(doc.bytes(&doc.nodes[k as usize])).unwrap_or_default();
            (key, ValueRef { doc, idx: k + 1 })
        })
    }

    /// The member named `key`, if this is an object that has one.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<ValueRef<'d>> {
        self.members().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The value at an RFC 6901 JSON pointer below this one (`""` is this value).
    #[must_use]
    pub fn pointer(&self, pointer: &str) -> Option<ValueRef<'d>> {
        let mut cur = *self;
        for token in crate::pointer::tokens(pointer)? {
            cur = match cur.kind() {
                Kind::Object => cur.get(&token)?,
                Kind::Array => {
                    // RFC 6901: no leading zeros, no signs.
                    if token.is_empty()
                        || (token.len() > 1 && token.starts_with('0'))
                        || !token.bytes().all(|b| b.is_ascii_digit())
                    {
                        return None;
                    }
                    cur.elements().nth(token.parse().ok()?)?
                }
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Whether two values have the same canonical bytes, comparing scalars in place
    /// (their stored forms are canonical number text and unescaped strings, both of
    /// which the canonical text is a one-to-one function of) and writing out only
    /// containers.
    #[must_use]
    pub fn same_canonical(&self, other: &ValueRef<'_>) -> bool {
        let (a, b) = (self.node(), other.node());
        let string = |t: Tag| matches!(t, Tag::String | Tag::Key);
        match (a.tag, b.tag) {
            (Tag::Array | Tag::Object, _) | (_, Tag::Array | Tag::Object) => {
                self.to_canonical_vec() == other.to_canonical_vec()
            }
            (Tag::Number, Tag::Number) => self.doc.bytes(a) == other.doc.bytes(b),
            (x, y) if string(x) && string(y) => self.doc.bytes(a) == other.doc.bytes(b),
            (x, y) => x == y,
        }
    }

    /// The canonical bytes of this value.
    #[must_use]
    pub fn to_canonical_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.doc.write_from(self.idx, &mut out);
        out
    }
}

/// Checks that an arena length still fits the u32 offsets of nodes.
fn arena_offset(len: usize) -> std::result::Result<(), ErrorKind> {
    u32::try_from(len)
        .map(|_| ())
        .map_err(|_| ErrorKind::InputTooLarge)
}

/// An open container while building.
struct Open {
    node: u32,
    object: bool,
    count: u32,
    /// Where this object's key indices start in `Builder::keys`.
    keys_start: u32,
}

/// Builds a [`Document`] from parse (or serialize) events.
pub(crate) struct Builder {
    doc: Document,
    open: Vec<Open>,
    /// Key node indices of all open objects, innermost last.
    keys: Vec<u32>,
    sort_scratch: Vec<(u128, u32)>,
    policy: NumberPolicy,
}

impl Builder {
    pub(crate) fn new(policy: NumberPolicy) -> Self {
        Self {
            doc: Document::default(),
            open: Vec::new(),
            keys: Vec::new(),
            sort_scratch: Vec::new(),
            policy,
        }
    }

    fn reserve_for(&mut self, input_len: usize) {
        self.doc.nodes.reserve(input_len / 16);
        self.doc.arena.reserve(input_len / 2);
    }

    pub(crate) fn finish(self) -> Document {
        self.doc
    }

    /// Clears the document for reuse, keeping allocations.
    pub(crate) fn reset(&mut self, policy: NumberPolicy) {
        self.doc.nodes.clear();
        self.doc.arena.clear();
        self.doc.perm.clear();
        self.open.clear();
        self.keys.clear();
        self.policy = policy;
    }

    /// Bytes held by the builder's buffers (allocated, not only used).
    pub(crate) fn retained_bytes(&self) -> usize {
        self.doc.nodes.capacity() * std::mem::size_of::<Node>()
            + self.doc.arena.capacity()
            + self.doc.perm.capacity() * 4
            + self.open.capacity() * std::mem::size_of::<Open>()
            + self.keys.capacity() * 4
            + self.sort_scratch.capacity() * std::mem::size_of::<(u128, u32)>()
    }

    pub(crate) fn document(&self) -> &Document {
        &self.doc
    }

    fn push(&mut self, node: Node) {
        if let Some(top) = self.open.last_mut() {
            if !top.object {
                top.count += 1;
            }
        }
        self.doc.nodes.push(node);
    }

    fn push_bytes(&mut self, tag: Tag, s: Str<'_>, c: u32) -> std::result::Result<u32, ErrorKind> {
        // Arena offsets are u32: canonical number text can be several times longer than
        // its input (`1e20` is 21 digits), so check rather than trust the input limit.
        arena_offset(self.doc.arena.len() + s.bytes.len())?;
        let a = self.doc.arena.len() as u32;
        self.doc.arena.extend_from_slice(s.bytes);
        let idx = self.doc.nodes.len() as u32;
        let node = Node {
            tag,
            escaped: s.escaped,
            a,
            b: s.bytes.len() as u32,
            c,
        };
        if tag == Tag::Key {
            self.doc.nodes.push(node);
        } else {
            self.push(node);
        }
        Ok(idx)
    }

    /// Appends a number whose canonical text is produced by `write`.
    pub(crate) fn number_with(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>) -> std::result::Result<(), ErrorKind>,
    ) -> std::result::Result<(), ErrorKind> {
        let a = self.doc.arena.len();
        if let Err(e) = write(&mut self.doc.arena).and_then(|()| arena_offset(self.doc.arena.len()))
        {
            self.doc.arena.truncate(a);
            return Err(e);
        }
        let b = (self.doc.arena.len() - a) as u32;
        self.push(Node {
            tag: Tag::Number,
            escaped: false,
            a: a as u32,
            b,
            c: 0,
        });
        Ok(())
    }

    fn begin(&mut self, tag: Tag) {
        let idx = self.doc.nodes.len() as u32;
        self.push(Node::new(tag));
        self.open.push(Open {
            node: idx,
            object: tag == Tag::Object,
            count: 0,
            keys_start: self.keys.len() as u32,
        });
    }

    /// Closes the innermost container, which must be an array.
    pub(crate) fn close_array(&mut self) {
        if let Some(o) = self.open.pop() {
            let end = self.doc.nodes.len() as u32;
            let n = &mut self.doc.nodes[o.node as usize];
            n.a = o.count;
            n.b = end;
        }
    }

    /// Closes the innermost object: orders its members and rejects duplicate names.
    ///
    /// On a duplicate, returns the kind and the key node of the later occurrence.
    pub(crate) fn close_object(&mut self) -> std::result::Result<(), (ErrorKind, u32)> {
        let Some(o) = self.open.pop() else {
            return Ok(());
        };
        let start = o.keys_start as usize;
        let doc = &self.doc;
        let keys = &mut self.keys[start..];
        let c = match order_members(
            keys,
            |k| doc.bytes(&doc.nodes[k as usize]),
            &mut self.sort_scratch,
        ) {
            Ok(true) => IN_ORDER,
            Ok(false) => {
                let c = self.doc.perm.len() as u32;
                self.doc.perm.extend_from_slice(keys);
                c
            }
            Err(dup) => {
                let name =
                    String::from_utf8_lossy(doc.bytes(&doc.nodes[dup as usize])).into_owned();
                // Leave the enclosing objects' names as they were, for `earlier_fault`.
                self.keys.truncate(start);
                return Err((ErrorKind::DuplicateKey(name), dup));
            }
        };
        self.keys.truncate(start);
        let end = self.doc.nodes.len() as u32;
        let n = &mut self.doc.nodes[o.node as usize];
        n.a = o.count;
        n.b = end;
        n.c = c;
        Ok(())
    }

    /// The `c` field of a key node (input offset when parsing).
    pub(crate) fn key_tag(&self, key: u32) -> u32 {
        self.doc.nodes[key as usize].c
    }

    pub(crate) fn null(&mut self) {
        self.push(Node::new(Tag::Null));
    }

    pub(crate) fn boolean(&mut self, v: bool) {
        self.push(Node::new(if v { Tag::True } else { Tag::False }));
    }

    pub(crate) fn string_value(&mut self, s: Str<'_>) -> std::result::Result<(), ErrorKind> {
        self.push_bytes(Tag::String, s, 0).map(|_| ())
    }

    pub(crate) fn key_value(&mut self, s: Str<'_>, tag: u32) -> std::result::Result<(), ErrorKind> {
        let idx = self.push_bytes(Tag::Key, s, tag)?;
        self.keys.push(idx);
        if let Some(top) = self.open.last_mut() {
            top.count += 1;
        }
        Ok(())
    }

    pub(crate) fn begin_array_node(&mut self) {
        self.begin(Tag::Array);
    }

    pub(crate) fn begin_object_node(&mut self) {
        self.begin(Tag::Object);
    }

    /// An RFC 6901 pointer to the value being built now (for serializer errors).
    ///
    /// `pending`: the failing value was not pushed yet, so in an innermost array it is
    /// the element after the last one counted.
    pub(crate) fn current_pointer(&self, pending: bool) -> String {
        let mut p = String::new();
        let last = self.open.len().saturating_sub(1);
        for (i, o) in self.open.iter().enumerate() {
            if o.object {
                if o.count > 0 {
                    let k = self.keys[(o.keys_start + o.count - 1) as usize];
                    let name = String::from_utf8_lossy(self.doc.bytes(&self.doc.nodes[k as usize]));
                    crate::pointer::push_token(&mut p, &name);
                }
            } else {
                let index = if pending && i == last {
                    o.count
                } else {
                    o.count.saturating_sub(1)
                };
                crate::pointer::push_token(&mut p, &index.to_string());
            }
        }
        p
    }

    /// A pointer to the innermost open container itself (for errors about a map key).
    pub(crate) fn container_pointer(&self) -> String {
        let mut p = self.current_pointer(false);
        if let Some(top) = self.open.last() {
            if top.object && top.count > 0 {
                if let Some(slash) = p.rfind('/') {
                    p.truncate(slash);
                }
            }
        }
        p
    }

    /// How many containers are open.
    pub(crate) fn depth(&self) -> usize {
        self.open.len()
    }

    pub(crate) fn policy(&self) -> NumberPolicy {
        self.policy
    }
}

impl Sink for Builder {
    fn null(&mut self) {
        Builder::null(self);
    }

    fn boolean(&mut self, v: bool) {
        Builder::boolean(self, v);
    }

    fn number(
        &mut self,
        text: &str,
        has_exponent: bool,
        offset: usize,
    ) -> std::result::Result<(), Fault> {
        let policy = self.policy;
        self.number_with(|out| number::write_canonical(text, has_exponent, policy, out))
            .map_err(|kind| Fault::new(kind, offset))
    }

    fn string(&mut self, s: Str<'_>) -> std::result::Result<(), Fault> {
        self.string_value(s)
            .map_err(|kind| Fault::new(kind, s.offset))
    }

    fn begin_array(&mut self) {
        self.begin_array_node();
    }

    fn end_array(&mut self) {
        self.close_array();
    }

    fn begin_object(&mut self) {
        self.begin_object_node();
    }

    fn key(&mut self, s: Str<'_>) -> std::result::Result<(), Fault> {
        self.key_value(s, s.offset as u32)
            .map_err(|kind| Fault::new(kind, s.offset))
    }

    fn end_object(&mut self) -> std::result::Result<(), Fault> {
        self.close_object().map_err(|(kind, key)| {
            let offset = self.key_tag(key) as usize;
            Fault::new(kind, offset)
        })
    }

    fn earlier_fault(&mut self, offset: usize) -> Option<Fault> {
        // The earliest duplicate name among the members the open objects have so far.
        let mut best: Option<(usize, u32)> = None;
        let mut scratch = Vec::new();
        for (i, o) in self.open.iter().enumerate().filter(|(_, o)| o.object) {
            let end = self.open[i + 1..]
                .iter()
                .find(|inner| inner.object)
                .map_or(self.keys.len(), |inner| inner.keys_start as usize);
            let mut keys = self.keys[o.keys_start as usize..end].to_vec();
            let doc = &self.doc;
            if let Err(dup) = order_members(
                &mut keys,
                |k| doc.bytes(&doc.nodes[k as usize]),
                &mut scratch,
            ) {
                let at = self.key_tag(dup) as usize;
                if at < offset && best.is_none_or(|(b, _)| at < b) {
                    best = Some((at, dup));
                }
            }
        }
        best.map(|(at, dup)| {
            let name =
                String::from_utf8_lossy(self.doc.bytes(&self.doc.nodes[dup as usize])).into_owned();
            Fault::new(ErrorKind::DuplicateKey(name), at)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Document;
    use crate::Options;

    /// `same_canonical` against comparing the written canonical bytes, on every pair of
    /// values (at any depth) of a set of documents.
    #[test]
    fn same_canonical_is_equality_of_canonical_bytes() {
        let texts = [
            r#"[null, true, false, 0, -0, 1, 1.0, 1e2, 100, 123456789012345678901, "1", "", "a", "\u0061", "\n", "\u000a", [], {}, [1], {"a": 1}, {"a": "1"}, [[]], [{}], "null", "true"]"#,
            r#"{"b": [1, 2], "a": {"x": null}, "c": "\"q\"", "d": 2.50, "e": -0.0}"#,
        ];
        let docs: Vec<Document> = texts
            .iter()
            .map(|t| Document::parse_with(t.as_bytes(), &Options::comparison()))
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        assert_eq!(docs.len(), texts.len());
        let mut values = Vec::new();
        for d in &docs {
            let mut work = vec![d.root()];
            while let Some(v) = work.pop() {
                values.push(v);
                work.extend(v.elements());
                work.extend(v.members().map(|(_, m)| m));
            }
        }
        assert!(values.len() > 30);
        let mut equal = 0;
        for a in &values {
            for b in &values {
                let expected = a.to_canonical_vec() == b.to_canonical_vec();
                assert_eq!(a.same_canonical(b), expected, "{a:?} vs {b:?}");
                equal += usize::from(expected);
            }
        }
        // Pairs with equal canonical text beyond each value with itself (`1`, `1.0`, `100`
        // and `1e2`, `"a"` and `"\u0061"`, ...).
        assert!(equal > values.len() + 10, "{equal}");
    }
}
