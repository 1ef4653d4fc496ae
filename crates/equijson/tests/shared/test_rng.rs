//! The one seeded generator of the tests' own randomness (`SplitMix64`): a case is
//! reproducible from its seed, and the stream does not depend on the target's word size.
//!
//! Included by `#[path]` from `tests/entry_points.rs`, `tests/properties.rs`, `tests/jsonb.rs`
//! and `tests/stream.rs`. It is kept
//! apart from `equijson_check::generate::Rng` on purpose: the tests that use it check equijson
//! against references of their own and draw their inputs without equijson's code.
#![allow(dead_code, reason = "each test file uses the part it needs")]

/// `SplitMix64` (Steele, Lea and Flood), from its seed.
#[derive(Clone)]
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `percent`/100.
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (which must not be empty).
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A number in `lo..=hi`.
    pub(crate) fn range_i32(&mut self, lo: i32, hi: i32) -> i32 {
        let span = u64::from(hi.abs_diff(lo)) + 1;
        let step = i64::try_from(self.next() % span).expect("below 2^32");
        i32::try_from(i64::from(lo) + step).expect("within lo..=hi")
    }
}

#[test]
fn splitmix64_known_answers() {
    // The first outputs from seed 0 and seed 1234567 (the published SplitMix64 reference).
    let mut r = Rng(0);
    assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
    let mut r = Rng(1_234_567);
    assert_eq!(r.next(), 6_457_827_717_110_365_317);
    assert_eq!(r.next(), 3_203_168_211_198_807_973);
}
