//! Portable property-based generation: the same `(seed, case)` gives the same input on
//! every target, with quickcheck-style shrinking of failures.

pub mod edges;
mod json;
mod rng;
pub mod trace;
pub mod typed;

pub use json::{EDGE_NUMBERS, Json, Style};
pub use rng::{Rng, splitmix64};

/// A source of random test inputs with a size parameter (as quickcheck's `Gen`), driven by
/// the portable [`Rng`].
#[derive(Debug, Clone)]
pub struct Gen {
    rng: Rng,
    size: usize,
}

impl Gen {
    /// A generator for one case; `size` bounds collection lengths (arrays, objects,
    /// repeated DTO fields).
    #[must_use]
    pub fn new(seed: u64, size: usize) -> Self {
        Self {
            rng: Rng::new(seed),
            size,
        }
    }

    /// The generator for case number `case` of a run started with `seed`: every case has
    /// its own independent stream, so a case can be replayed alone.
    #[must_use]
    pub fn for_case(seed: u64, case: u64, size: usize) -> Self {
        let mut x = seed ^ case.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Self::new(splitmix64(&mut x), size)
    }

    /// The random number generator.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The size parameter.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// A length for a repeated DTO field: uniform in `0..=size/2 + extra`.
    pub fn length(&mut self, extra: usize) -> usize {
        let max = self.size / 2 + extra;
        self.rng.index(max + 1)
    }
}

/// Shrinks a failing input: repeatedly moves to the first smaller candidate that still
/// fails, until none does or `max_steps` candidates were tried. Returns the smallest
/// failing input found and how many shrink steps were taken.
pub fn shrink<T: Clone>(
    failing: T,
    candidates: impl Fn(&T) -> Vec<T>,
    mut still_fails: impl FnMut(&T) -> bool,
    max_steps: usize,
) -> (T, usize) {
    let mut current = failing;
    let mut steps = 0;
    let mut tried = 0;
    'outer: loop {
        for c in candidates(&current) {
            tried += 1;
            if tried > max_steps {
                break 'outer;
            }
            if still_fails(&c) {
                current = c;
                steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    (current, steps)
}
