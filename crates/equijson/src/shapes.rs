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
        (shape.lens.len() == count
            && same_bytes(&shape.names, names)
            && lens.eq(shape.lens.iter().copied()))
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

/// `a == b`, eight bytes at a time (slice equality calls `memcmp`, which in wasm compares
/// byte by byte).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a, b);
    while let (Some((p, xt)), Some((q, yt))) =
        (x.split_first_chunk::<8>(), y.split_first_chunk::<8>())
    {
        if u64::from_ne_bytes(*p) != u64::from_ne_bytes(*q) {
            return false;
        }
        (x, y) = (xt, yt);
    }
    x.iter().zip(y).all(|(p, q)| p == q)
}

#[cfg(test)]
mod tests {
    use super::same_bytes;

    #[test]
    fn same_bytes_is_slice_equality() {
        for len in 0..40_usize {
            let a: Vec<u8> = (0..len).map(|i| i as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            assert!(!same_bytes(&a, &a[..len.saturating_sub(1)]) || len == 0);
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x80;
                assert!(!same_bytes(&a, &b), "{len} {at}");
            }
        }
    }
}
