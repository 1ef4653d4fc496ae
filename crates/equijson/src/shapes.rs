//! Member orders of recently sorted objects, looked up by their names: arrays of records
//! repeat the same member names in the same order, and the order found for the first
//! record then serves the others without sorting again.
//!
//! The order of an object's members is a function of its names (in input order) alone, so
//! an entry whose names equal, byte for byte and length for length, those of the object
//! being closed holds exactly the order sorting would find. Only objects without duplicate
//! names are stored (a duplicate is an error anyway).

/// Objects with fewer members are cheap to sort: not cached.
pub(crate) const MIN_MEMBERS: usize = 12;
/// Objects with more members, or longer names, are not cached (bounded memory).
const MAX_MEMBERS: usize = 256;
const MAX_NAME_BYTES: usize = 4096;
/// Entries (a power of two): direct-mapped by member count and name bytes.
const SLOTS: usize = 32;

/// One object's names and the order sorting found for them.
#[derive(Default)]
struct Shape {
    /// Name lengths, in input order.
    lens: Vec<u32>,
    /// The names, concatenated in input order.
    names: Vec<u8>,
    /// Member indices in canonical order.
    order: Vec<u32>,
}

/// The cache: a few recent shapes.
#[derive(Default)]
pub(crate) struct Shapes {
    slots: Vec<Shape>,
}

/// Where a shape of `count` names of `bytes` bytes in all lives.
fn slot(count: usize, bytes: usize) -> usize {
    (count.wrapping_mul(0x9E37_79B9) ^ bytes.wrapping_mul(0x85EB_CA6B)) >> 7 & (SLOTS - 1)
}

impl Shapes {
    /// The canonical order of an object whose names have lengths `lens` and are `names`
    /// concatenated, if a recent object had the same names.
    pub(crate) fn get(
        &self,
        lens: impl ExactSizeIterator<Item = u32>,
        names: &[u8],
    ) -> Option<&[u32]> {
        let count = lens.len();
        let shape = self.slots.get(slot(count, names.len()))?;
        (shape.lens.len() == count && shape.names == names && lens.eq(shape.lens.iter().copied()))
            .then_some(shape.order.as_slice())
    }

    /// Remembers the order sorting found for an object's names.
    pub(crate) fn put(
        &mut self,
        lens: impl ExactSizeIterator<Item = u32>,
        names: &[u8],
        order: &[u32],
    ) {
        let count = lens.len();
        if !(MIN_MEMBERS..=MAX_MEMBERS).contains(&count) || names.len() > MAX_NAME_BYTES {
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Shape::default);
        }
        let Some(shape) = self.slots.get_mut(slot(count, names.len())) else {
            return;
        };
        shape.lens.clear();
        shape.lens.extend(lens);
        shape.names.clear();
        shape.names.extend_from_slice(names);
        shape.order.clear();
        shape.order.extend_from_slice(order);
    }
}
