//! The parsed value as a flat tape, reduced the way `jsonb` reduces objects; the
//! conversion to the binary format (its stack and size checks) and `jsonb_out`'s text,
//! both without recursion.

/// What a scalar occupies in the binary format.
#[derive(Debug, Clone, Copy)]
enum Data {
    /// `null`, `true`, `false`: nothing beyond the entry.
    Empty,
    /// A string: its decoded bytes.
    String(u32),
    /// A number: its `numeric` datum, aligned to 4 bytes.
    Numeric(u32),
}

/// One tape entry; containers are followed by their subtree. Positions are `u32`: the
/// model refuses inputs of 1 GB or more, which no PostgreSQL value can be.
#[derive(Debug, Clone, Copy)]
enum Node {
    /// A scalar, already in output form (`arena[start..start + len]`), from input byte `at`.
    Scalar {
        start: u32,
        len: u32,
        at: u32,
        data: Data,
    },
    /// An object member name, unescaped (`arena[start..start + len]`).
    Key { start: u32, len: u32 },
    /// `end` is the index after the subtree; `count` the elements.
    Array { end: u32, count: u32, at: u32 },
    /// `perm[perm_start..perm_start + count]` are the key nodes that survive, in order.
    Object {
        end: u32,
        perm_start: u32,
        count: u32,
        at: u32,
    },
}

/// A limit of PostgreSQL's in-memory or binary representation, found while building or converting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Limit {
    /// More than 2^24 elements in one array: the element vector cannot double (XX000).
    ArrayElements,
    /// More than 2^23 members (duplicates included) in one object (XX000).
    ObjectPairs,
    /// A value nested deeper than the conversion's stack allows (54001), at input byte.
    TooDeep(u32),
    /// An array whose binary form exceeds 268,435,455 bytes (54000).
    ArraySize,
    /// An object whose binary form exceeds 268,435,455 bytes (54000).
    ObjectSize,
}

/// `JENTRY_OFFLENMASK`.
const MAX_CONTAINER_LEN: u64 = 0x0FFF_FFFF;
/// Elements one array's `JsonbValue` vector holds before growing past `MaxAllocSize`.
const MAX_ARRAY_ELEMENTS: u32 = 1 << 24;
/// Members one object's `JsonbPair` vector holds before growing past `MaxAllocSize`.
const MAX_OBJECT_PAIRS: u32 = 1 << 23;

/// The value being built by the parser's semantic actions.
#[derive(Debug, Default)]
pub(super) struct Tape {
    nodes: Vec<Node>,
    arena: Vec<u8>,
    perm: Vec<u32>,
    /// Open containers: node index and elements (arrays) or members (objects) so far.
    open: Vec<(usize, u32)>,
    /// Scratch for sorting members.
    members: Vec<u32>,
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Tape {
    /// An empty tape with room for a typical document of `len` input bytes (one
    /// allocation per buffer instead of repeated doubling; capped for huge inputs).
    pub(super) fn for_input(len: usize) -> Self {
        let len = len.min(1 << 20);
        Self {
            nodes: Vec::with_capacity(len / 8 + 4),
            arena: Vec::with_capacity(len + 16),
            perm: Vec::with_capacity(len / 16 + 4),
            open: Vec::with_capacity(16),
            members: Vec::with_capacity(32),
        }
    }

    /// Counts one more element of the innermost open array (`appendElement`).
    fn add_element(&mut self) -> Result<(), Limit> {
        if let Some((idx, count)) = self.open.last_mut() {
            if matches!(self.nodes[*idx], Node::Array { .. }) {
                if *count >= MAX_ARRAY_ELEMENTS {
                    return Err(Limit::ArrayElements);
                }
                *count += 1;
            }
        }
        Ok(())
    }

    /// Appends a string scalar (decoded bytes), escaped for output.
    pub(super) fn string(&mut self, value: &[u8], at: usize) -> Result<(), Limit> {
        self.add_element()?;
        let start = self.arena.len();
        escape_into(value, &mut self.arena);
        self.push_scalar(start, at, Data::String(to_u32(value.len())));
        Ok(())
    }

    /// Appends a number, rendered by `render`, which returns its datum size.
    pub(super) fn number<E>(
        &mut self,
        at: usize,
        render: impl FnOnce(&mut Vec<u8>) -> Result<u32, E>,
    ) -> Result<Result<(), Limit>, E> {
        let start = self.arena.len();
        let size = match render(&mut self.arena) {
            Ok(size) => size,
            Err(e) => {
                self.arena.truncate(start);
                return Err(e);
            }
        };
        if let Err(limit) = self.add_element() {
            return Ok(Err(limit));
        }
        self.push_scalar(start, at, Data::Numeric(size));
        Ok(Ok(()))
    }

    /// Appends `true`, `false` or `null`.
    pub(super) fn literal(&mut self, word: &[u8], at: usize) -> Result<(), Limit> {
        self.add_element()?;
        let start = self.arena.len();
        self.arena.extend_from_slice(word);
        self.push_scalar(start, at, Data::Empty);
        Ok(())
    }

    fn push_scalar(&mut self, start: usize, at: usize, data: Data) {
        self.nodes.push(Node::Scalar {
            start: to_u32(start),
            len: to_u32(self.arena.len() - start),
            at: to_u32(at),
            data,
        });
    }

    /// Appends an object member name (decoded bytes) (`appendKey`).
    pub(super) fn key(&mut self, name: &[u8]) -> Result<(), Limit> {
        if let Some((_, count)) = self.open.last_mut() {
            if *count >= MAX_OBJECT_PAIRS {
                return Err(Limit::ObjectPairs);
            }
            *count += 1;
        }
        let start = self.arena.len();
        self.arena.extend_from_slice(name);
        self.nodes.push(Node::Key {
            start: to_u32(start),
            len: to_u32(name.len()),
        });
        Ok(())
    }

    pub(super) fn begin_array(&mut self, at: usize) {
        self.open.push((self.nodes.len(), 0));
        self.nodes.push(Node::Array {
            end: 0,
            count: 0,
            at: to_u32(at),
        });
    }

    pub(super) fn begin_object(&mut self, at: usize) {
        self.open.push((self.nodes.len(), 0));
        self.nodes.push(Node::Object {
            end: 0,
            perm_start: 0,
            count: 0,
            at: to_u32(at),
        });
    }

    /// Closes the innermost open array; it becomes an element of its parent now.
    pub(super) fn end_array(&mut self) -> Result<(), Limit> {
        if let Some((idx, count)) = self.open.pop() {
            if let Node::Array { at, .. } = self.nodes[idx] {
                self.nodes[idx] = Node::Array {
                    end: to_u32(self.nodes.len()),
                    count,
                    at,
                };
            }
        }
        self.add_element()
    }

    /// Closes the innermost open object: keys ordered by byte length, then bytewise;
    /// of equal keys the last one written wins (`uniqueifyJsonbObject`).
    pub(super) fn end_object(&mut self) -> Result<(), Limit> {
        let Some((idx, _)) = self.open.pop() else {
            return Ok(());
        };
        let end = self.nodes.len();
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        let mut i = idx + 1;
        while i < end {
            members.push(to_u32(i));
            i = self.skip(i + 1);
        }
        // Stable sort with later members first among equals, so dedup keeps the last.
        members.reverse();
        members.sort_by(|&a, &b| super::name_order(self.key_bytes(a), self.key_bytes(b)));
        members.dedup_by(|a, b| self.key_bytes(*a) == self.key_bytes(*b));
        let perm_start = to_u32(self.perm.len());
        self.perm.extend_from_slice(&members);
        if let Node::Object { at, .. } = self.nodes[idx] {
            self.nodes[idx] = Node::Object {
                end: to_u32(end),
                perm_start,
                count: to_u32(members.len()),
                at,
            };
        }
        self.members = members;
        self.add_element()
    }

    fn key_bytes(&self, idx: u32) -> &[u8] {
        match self.nodes[idx as usize] {
            Node::Key { start, len } => &self.arena[start as usize..(start + len) as usize],
            _ => &[],
        }
    }

    /// Index of the node after the subtree at `idx`.
    fn skip(&self, idx: usize) -> usize {
        match self.nodes.get(idx) {
            Some(Node::Array { end, .. } | Node::Object { end, .. }) => *end as usize,
            _ => idx + 1,
        }
    }

    /// `convertToJsonb`: walks the value in binary-format order (array elements in order;
    /// object names, then values, in key order) with the conversion's stack check
    /// (`max_value_depth`: a top-level scalar counts as depth 1, being stored as the one
    /// element of an array) and its size checks. Returns the datum size (`VARSIZE`).
    pub(super) fn convert(&self, max_value_depth: usize) -> Result<u64, Limit> {
        let Some(&root) = self.nodes.first() else {
            return Ok(0);
        };
        if let Node::Scalar { at, data, .. } = root {
            return convert_raw_scalar(at, data, max_value_depth);
        }
        let mut pos: u64 = 4; // the varlena header
        let mut stack: Vec<Frame> = Vec::new();
        let mut pending = Some(0);
        loop {
            // The length the finished value adds to its parent's entry.
            let mut done: Option<u64> = None;
            if let Some(idx) = pending.take() {
                let (at, frame) = match self.nodes[idx] {
                    Node::Scalar { at, data, .. } => {
                        done = Some(scalar_len(data, &mut pos));
                        (at, None)
                    }
                    Node::Array { end, count, at } => (
                        at,
                        Some(Frame::open(&mut pos, false, idx + 1, end as usize, count)),
                    ),
                    Node::Object {
                        perm_start,
                        count,
                        at,
                        ..
                    } => {
                        let (start, end) = (perm_start as usize, (perm_start + count) as usize);
                        (at, Some(Frame::open(&mut pos, true, start, end, count)))
                    }
                    Node::Key { .. } => (0, None),
                };
                if stack.len() > max_value_depth {
                    return Err(Limit::TooDeep(at));
                }
                stack.extend(frame);
            }
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(pos);
                };
                let limit = if frame.object {
                    Limit::ObjectSize
                } else {
                    Limit::ArraySize
                };
                if let Some(len) = done.take() {
                    frame.total += len;
                    if frame.total > MAX_CONTAINER_LEN {
                        return Err(limit);
                    }
                }
                if frame.object && !frame.values {
                    // All names first, in key order.
                    for &key in &self.perm[frame.next..frame.end] {
                        let len = u64::from(self.key_bytes(key).len() as u32);
                        pos += len;
                        frame.total += len;
                        if frame.total > MAX_CONTAINER_LEN {
                            return Err(limit);
                        }
                    }
                    frame.values = true;
                }
                if frame.next < frame.end {
                    let idx = if frame.object {
                        self.perm[frame.next] as usize + 1
                    } else {
                        frame.next
                    };
                    frame.next = if frame.object {
                        frame.next + 1
                    } else {
                        self.skip(frame.next)
                    };
                    pending = Some(idx);
                    break;
                }
                let total = pos - frame.base;
                if total > MAX_CONTAINER_LEN {
                    return Err(limit);
                }
                stack.pop();
                done = Some(total);
            }
        }
    }

    /// `jsonb_out`: `", "` and `": "` separators, keys re-escaped.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        enum Frame {
            Array {
                next: usize,
                end: usize,
                first: bool,
            },
            Object {
                pos: usize,
                end: usize,
                first: bool,
            },
        }
        if self.nodes.is_empty() {
            return;
        }
        out.reserve(self.arena.len() + 4 * self.nodes.len());
        let mut stack: Vec<Frame> = Vec::new();
        let mut pending = Some(0);
        loop {
            if let Some(idx) = pending.take() {
                match self.nodes[idx] {
                    Node::Scalar { start, len, .. } => {
                        out.extend_from_slice(&self.arena[start as usize..(start + len) as usize]);
                    }
                    Node::Key { .. } => escape_into(self.key_bytes(to_u32(idx)), out),
                    Node::Array { end, .. } if end as usize == idx + 1 => {
                        out.extend_from_slice(b"[]");
                    }
                    Node::Array { end, .. } => {
                        out.push(b'[');
                        stack.push(Frame::Array {
                            next: idx + 1,
                            end: end as usize,
                            first: true,
                        });
                    }
                    Node::Object { count: 0, .. } => out.extend_from_slice(b"{}"),
                    Node::Object {
                        perm_start, count, ..
                    } => {
                        out.push(b'{');
                        stack.push(Frame::Object {
                            pos: perm_start as usize,
                            end: (perm_start + count) as usize,
                            first: true,
                        });
                    }
                }
            }
            match stack.last_mut() {
                None => return,
                Some(Frame::Array { next, end, first }) => {
                    if *next < *end {
                        if !std::mem::replace(first, false) {
                            out.extend_from_slice(b", ");
                        }
                        pending = Some(*next);
                        *next = self.skip(*next);
                    } else {
                        out.push(b']');
                        stack.pop();
                    }
                }
                Some(Frame::Object { pos, end, first }) => {
                    if *pos < *end {
                        if !std::mem::replace(first, false) {
                            out.extend_from_slice(b", ");
                        }
                        let key = self.perm[*pos];
                        *pos += 1;
                        escape_into(self.key_bytes(key), out);
                        out.extend_from_slice(b": ");
                        pending = Some(key as usize + 1);
                    } else {
                        out.push(b'}');
                        stack.pop();
                    }
                }
            }
        }
    }
}

/// A container being converted.
struct Frame {
    /// Buffer position where it starts (before alignment padding).
    base: u64,
    /// Entry lengths of its children so far.
    total: u64,
    object: bool,
    /// Arrays: next node index and end; objects: position in `perm` and its end.
    next: usize,
    end: usize,
    /// Objects: the names are done, values are being converted.
    values: bool,
}

impl Frame {
    /// Pads to 4 bytes, reserves the header and the entries (two per object member).
    fn open(pos: &mut u64, object: bool, next: usize, end: usize, count: u32) -> Self {
        let base = *pos;
        let entries = if object { 2 } else { 1 } * u64::from(count);
        *pos = align4(*pos) + 4 + 4 * entries;
        Self {
            base,
            total: 0,
            object,
            next,
            end,
            values: false,
        }
    }
}

/// A top-level scalar is stored as the one element of an array flagged as scalar.
fn convert_raw_scalar(at: u32, data: Data, max_value_depth: usize) -> Result<u64, Limit> {
    if max_value_depth < 1 {
        return Err(Limit::TooDeep(at));
    }
    let mut pos = 4 + 4 + 4; // varlena header, array header, one entry
    let len = scalar_len(data, &mut pos);
    if len > MAX_CONTAINER_LEN || pos - 4 > MAX_CONTAINER_LEN {
        return Err(Limit::ArraySize);
    }
    Ok(pos)
}

fn align4(pos: u64) -> u64 {
    (pos + 3) & !3
}

/// `convertJsonbScalar`: appends the scalar's data at `pos`; returns its entry length.
fn scalar_len(data: Data, pos: &mut u64) -> u64 {
    match data {
        Data::Empty => 0,
        Data::String(len) => {
            *pos += u64::from(len);
            u64::from(len)
        }
        Data::Numeric(size) => {
            let start = *pos;
            *pos = align4(*pos) + u64::from(size);
            *pos - start
        }
    }
}

/// `escape_json`: `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other controls as `\u00xx`, the rest raw.
pub(super) fn escape_into(s: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut plain = 0;
    for (i, &b) in s.iter().enumerate() {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x0C => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x00..=0x1F => 0,
            _ => continue,
        };
        out.extend_from_slice(&s[plain..i]);
        plain = i + 1;
        if short == 0 {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xF)]);
        } else {
            out.push(b'\\');
            out.push(short);
        }
    }
    out.extend_from_slice(&s[plain..]);
    out.push(b'"');
}
