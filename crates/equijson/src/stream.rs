//! Streaming canonicalization: parse events written straight to the output, objects
//! reordered in place when they close, so memory stays near input plus output.
//!
//! Arrays and scalars go to the output as they are parsed. Each open object remembers,
//! for each member so far, its unescaped name (in one stack arena) and where its
//! `"name":value` starts in the output. When the object closes, members already in
//! RFC 8785 order cost nothing; otherwise the largest member is moved in place
//! (`copy_within`) and only the others go through a scratch buffer, so a document whose
//! top-level object holds one big member and a few small ones needs almost no extra
//! memory. Every byte moved is counted: hostile nesting (an unsorted object inside an
//! unsorted object, ten thousand levels deep) would move the same bytes once per level,
//! so past a budget the caller falls back to the [`Document`](crate::Document) tape, which
//! orders each object once.
//!
//! With `emit` off the same sink only validates: it keeps the member names of the open
//! objects (to find duplicates) and nothing else, O(depth + widest object) beyond the input.

use std::cmp::Ordering;

use crate::error::ErrorKind;
use crate::number::{self, NumberPolicy};
use crate::parse::{Fault, Sink, Str};
use crate::shapes::{self, Shapes};
use crate::string::{cmp_utf16, order_members, write_escaped};

/// One member of an open object.
#[derive(Clone, Copy)]
struct Member {
    /// Where `"name":value` starts in the output (after the comma, if any).
    out: usize,
    /// Unescaped name: `names[name..name + len]` (names come from the input, which is
    /// below 4 GiB, so 32 bits hold their offsets).
    name: u32,
    len: u32,
    /// Input offset of the name (for duplicate errors).
    offset: u32,
}

impl Member {
    fn name(&self) -> std::ops::Range<usize> {
        self.name as usize..(self.name + self.len) as usize
    }
}

/// An open container.
struct Frame {
    object: bool,
    /// No element or member written yet.
    first: bool,
    /// Index of the first member in `Stream::members`.
    members: usize,
    /// Start of this object's names in `Stream::names`.
    names: usize,
    /// Output position just after the opening bracket.
    out: usize,
}

/// Objects up to this many output bytes are reordered through one scratch copy.
const SMALL_REGION: usize = 64 * 1024;

/// The fault kind used to ask the caller for the tape fallback (never reported).
pub(crate) const OVER_BUDGET: ErrorKind = ErrorKind::InputTooLarge;

/// Parse-event sink that writes canonical JSON (or only validates).
pub(crate) struct Stream {
    pub(crate) out: Vec<u8>,
    emit: bool,
    policy: NumberPolicy,
    frames: Vec<Frame>,
    members: Vec<Member>,
    names: Vec<u8>,
    order: Vec<u32>,
    sort_scratch: Vec<(u128, u32)>,
    /// Orders found for recent objects, by their names.
    shapes: Shapes,
    /// Member bytes parked while an object is reordered.
    park: Vec<u8>,
    /// Bytes moved by reordering so far, and how many may be moved before giving up.
    moved: usize,
    budget: usize,
    /// Set when the budget ran out (the fault returned is then not an input error).
    pub(crate) over_budget: bool,
    /// Number text when not emitting (policies still apply).
    number_scratch: Vec<u8>,
}

impl Stream {
    pub(crate) fn new(policy: NumberPolicy) -> Self {
        Self {
            out: Vec::new(),
            emit: true,
            policy,
            frames: Vec::new(),
            members: Vec::new(),
            names: Vec::new(),
            order: Vec::new(),
            sort_scratch: Vec::new(),
            shapes: Shapes::default(),
            park: Vec::new(),
            moved: 0,
            budget: 0,
            over_budget: false,
            number_scratch: Vec::new(),
        }
    }

    /// Prepares for one document of `input_len` bytes, writing (or not) to `self.out`.
    pub(crate) fn reset(&mut self, policy: NumberPolicy, emit: bool, input_len: usize) {
        self.policy = policy;
        self.emit = emit;
        self.frames.clear();
        self.members.clear();
        self.names.clear();
        self.moved = 0;
        // Realistic documents move each byte a few times at most (once per enclosing
        // object that was out of order); beyond this the tape is cheaper.
        self.budget = input_len.saturating_mul(16).saturating_add(1 << 20);
        self.over_budget = false;
    }

    /// Releases scratch memory beyond `keep` bytes (after an unusually large document).
    pub(crate) fn shrink_scratch(&mut self, keep: usize) {
        if self.park.capacity() > keep {
            self.park = Vec::new();
        }
        if self.names.capacity() > keep {
            self.names = Vec::new();
        }
        if self.members.capacity() * std::mem::size_of::<Member>() > keep {
            self.members = Vec::new();
        }
        if self.sort_scratch.capacity() * std::mem::size_of::<(u128, u32)>() > keep {
            self.sort_scratch = Vec::new();
            self.order = Vec::new();
        }
    }

    /// Before a value: the comma in an array.
    #[inline]
    fn value_start(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if !f.object {
                if f.first {
                    f.first = false;
                } else if self.emit {
                    self.out.push(b',');
                }
            }
        }
    }

    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if self.emit {
            self.out.extend_from_slice(bytes);
        }
    }

    fn write_str(&mut self, s: Str<'_>) {
        if !self.emit {
            return;
        }
        if s.escaped {
            write_escaped(s.bytes, &mut self.out);
        } else {
            self.out.reserve(s.bytes.len() + 2);
            self.out.push(b'"');
            self.out.extend_from_slice(s.bytes);
            self.out.push(b'"');
        }
    }

    fn begin(&mut self, object: bool) {
        self.value_start();
        self.push(if object { b"{" } else { b"[" });
        self.frames.push(Frame {
            object,
            first: true,
            members: self.members.len(),
            names: self.names.len(),
            out: self.out.len(),
        });
    }

    /// Puts the canonical order of the closing object's members into `self.order`;
    /// `Ok(false)` when they already are in that order (nothing to move).
    fn find_order(&mut self, frame: &Frame) -> Result<bool, Fault> {
        let members = &self.members[frame.members..];
        let count = members.len();
        let names = &self.names;
        let lens = || members.iter().map(|m| m.len);
        let cached = count >= shapes::MIN_MEMBERS;
        let known = if cached {
            // Members in order (strictly: no duplicates) are checked first, cheaply.
            if members
                .windows(2)
                .all(|w| cmp_utf16(&names[w[0].name()], &names[w[1].name()]) == Ordering::Less)
            {
                return Ok(false);
            }
            self.shapes.get(lens(), &names[frame.names..])
        } else {
            None
        };
        if let Some(order) = known {
            // Same names in the same order as an object sorted before: same order.
            self.order.clear();
            self.order.extend_from_slice(order);
        } else {
            self.order.clear();
            self.order.extend(0..count as u32);
            let name = |i: u32| {
                let m = &members[i as usize];
                &names[m.name()]
            };
            match order_members(&mut self.order, name, &mut self.sort_scratch) {
                Ok(true) => return Ok(false),
                Ok(false) => {
                    if cached {
                        self.shapes.put(lens(), &names[frame.names..], &self.order);
                    }
                }
                Err(dup) => {
                    let m = members[dup as usize];
                    let name = String::from_utf8_lossy(&self.names[m.name()]);
                    return Err(Fault::new(
                        ErrorKind::DuplicateKey(name.into_owned()),
                        m.offset as usize,
                    ));
                }
            }
        }
        Ok(true)
    }

    /// Puts the members of the object that is closing into canonical order in the output.
    fn reorder(&mut self, frame: &Frame) -> Result<(), Fault> {
        if !self.find_order(frame)? || !self.emit {
            return Ok(());
        }
        let members = &self.members[frame.members..];
        let count = members.len();
        let end = self.out.len();
        let region = end - frame.out;
        self.moved += region;
        if self.moved > self.budget {
            self.over_budget = true;
            return Err(Fault::new(OVER_BUDGET, 0));
        }
        // Member i spans out[start(i)..stop(i)], without the comma between members.
        let start = |i: usize| members[i].out;
        let stop = |i: usize| {
            if i + 1 < count {
                members[i + 1].out - 1
            } else {
                end
            }
        };
        if region <= SMALL_REGION {
            // Small: park the whole object, copy its members back in order.
            self.park.clear();
            self.park.extend_from_slice(&self.out[frame.out..end]);
            let mut pos = frame.out;
            for (n, &i) in self.order.iter().enumerate() {
                let i = i as usize;
                let (from, len) = (start(i) - frame.out, stop(i) - start(i));
                self.out[pos..pos + len].copy_from_slice(&self.park[from..from + len]);
                pos += len;
                if n + 1 < count {
                    self.out[pos] = b',';
                    pos += 1;
                }
            }
            return Ok(());
        }
        // The largest member moves in place; the others are parked.
        let big = (0..count)
            .max_by_key(|&i| stop(i) - start(i))
            .unwrap_or_default();
        // Park everything but the big member, in two copies: what precedes it and what
        // follows it (commas included), so a member's place in the park follows from its
        // place in the output.
        let (big_start, big_stop) = (start(big), stop(big));
        self.park.clear();
        self.park.extend_from_slice(&self.out[frame.out..big_start]);
        self.park.extend_from_slice(&self.out[big_stop..end]);
        let parked = |i: usize| {
            if i < big {
                start(i) - frame.out
            } else {
                start(i) - frame.out - (big_stop - big_start)
            }
        };
        // Where the big member lands: after the members sorted before it, with commas.
        let mut at = frame.out;
        for &i in &self.order {
            let i = i as usize;
            if i == big {
                break;
            }
            at += stop(i) - start(i) + 1;
        }
        self.out.copy_within(big_start..big_stop, at);
        let mut pos = frame.out;
        for (n, &i) in self.order.iter().enumerate() {
            let i = i as usize;
            let len = stop(i) - start(i);
            if i != big {
                let from = parked(i);
                self.out[pos..pos + len].copy_from_slice(&self.park[from..from + len]);
            }
            pos += len;
            if n + 1 < count {
                self.out[pos] = b',';
                pos += 1;
            }
        }
        debug_assert_eq!(pos, end);
        Ok(())
    }
}

impl Sink for Stream {
    fn null(&mut self) {
        self.value_start();
        self.push(b"null");
    }

    fn boolean(&mut self, v: bool) {
        self.value_start();
        self.push(if v { b"true" } else { b"false" });
    }

    fn number(&mut self, text: &str, has_exponent: bool, offset: usize) -> Result<(), Fault> {
        self.value_start();
        let out = if self.emit {
            &mut self.out
        } else {
            self.number_scratch.clear();
            &mut self.number_scratch
        };
        let before = out.len();
        number::write_canonical(text, has_exponent, self.policy, out).map_err(|kind| {
            out.truncate(before);
            Fault::new(kind, offset)
        })
    }

    fn string(&mut self, s: Str<'_>) -> Result<(), Fault> {
        self.value_start();
        self.write_str(s);
        Ok(())
    }

    fn begin_array(&mut self) {
        self.begin(false);
    }

    fn end_array(&mut self) {
        self.frames.pop();
        self.push(b"]");
    }

    fn begin_object(&mut self) {
        self.begin(true);
    }

    fn key(&mut self, s: Str<'_>) -> Result<(), Fault> {
        let Some(f) = self.frames.last_mut() else {
            return Ok(());
        };
        if f.first {
            f.first = false;
        } else if self.emit {
            self.out.push(b',');
        }
        self.members.push(Member {
            name: self.names.len() as u32,
            len: s.bytes.len() as u32,
            out: self.out.len(),
            offset: s.offset as u32,
        });
        self.names.extend_from_slice(s.bytes);
        self.write_str(s);
        self.push(b":");
        Ok(())
    }

    fn end_object(&mut self) -> Result<(), Fault> {
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        let result = self.reorder(&frame);
        self.members.truncate(frame.members);
        self.names.truncate(frame.names);
        result?;
        self.push(b"}");
        Ok(())
    }

    fn earlier_fault(&mut self, offset: usize) -> Option<Fault> {
        if self.over_budget {
            return None;
        }
        // The earliest duplicate name among the members the open objects have so far.
        let mut best: Option<Fault> = None;
        for (i, f) in self.frames.iter().enumerate().filter(|(_, f)| f.object) {
            let end = self.frames[i + 1..]
                .iter()
                .find(|inner| inner.object)
                .map_or(self.members.len(), |inner| inner.members);
            let members = &self.members[f.members..end];
            let names = &self.names;
            let mut order: Vec<u32> = (0..members.len() as u32).collect();
            let name = |i: u32| {
                let m = &members[i as usize];
                &names[m.name()]
            };
            if let Err(dup) = order_members(&mut order, name, &mut self.sort_scratch) {
                let m = members[dup as usize];
                let at = m.offset as usize;
                if at < offset && best.as_ref().is_none_or(|b| at < b.offset) {
                    let name = String::from_utf8_lossy(&names[m.name()]);
                    best = Some(Fault::new(ErrorKind::DuplicateKey(name.into_owned()), at));
                }
            }
        }
        best
    }
}
