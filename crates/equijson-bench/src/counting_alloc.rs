//! A counting global allocator: [`std::alloc::System`] plus relaxed atomic counters of
//! allocations, reallocations, deallocations and bytes, read by snapshotting before and
//! after the code being measured.
//!
//! Install it in a bench or example binary (never in this library, so that the other
//! targets keep the plain system allocator):
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: equijson_bench::counting_alloc::CountingAlloc =
//!     equijson_bench::counting_alloc::CountingAlloc::new();
//!
//! let before = ALLOC.snapshot();
//! work();
//! let used = ALLOC.snapshot().since(before);
//! ```
//!
//! The counters are process-wide: measure on one thread with nothing else running.
// The one place in the workspace's bench crate that needs `unsafe`: implementing
// `GlobalAlloc` is an `unsafe impl`, and forwarding to `System` calls its unsafe methods.
// Every block only forwards the caller's arguments unchanged.
#![allow(
    unsafe_code,
    reason = "a GlobalAlloc implementation; every unsafe block forwards to System unchanged"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// [`System`], counting what passes through it.
///
/// A `realloc` counts as one reallocation, its new size as allocated bytes and its old
/// size as deallocated bytes (it is not counted in `allocs` or `deallocs`).
#[derive(Debug)]
pub struct CountingAlloc {
    allocs: AtomicU64,
    reallocs: AtomicU64,
    deallocs: AtomicU64,
    bytes_allocated: AtomicU64,
    bytes_deallocated: AtomicU64,
}

impl CountingAlloc {
    /// An allocator with all counters at zero.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            allocs: AtomicU64::new(0),
            reallocs: AtomicU64::new(0),
            deallocs: AtomicU64::new(0),
            bytes_allocated: AtomicU64::new(0),
            bytes_deallocated: AtomicU64::new(0),
        }
    }

    /// The counters now (totals since the process started).
    #[must_use]
    pub fn snapshot(&self) -> AllocStats {
        AllocStats {
            allocs: self.allocs.load(Relaxed),
            reallocs: self.reallocs.load(Relaxed),
            deallocs: self.deallocs.load(Relaxed),
            bytes_allocated: self.bytes_allocated.load(Relaxed),
            bytes_deallocated: self.bytes_deallocated.load(Relaxed),
        }
    }

    fn count_alloc(&self, size: usize) {
        self.allocs.fetch_add(1, Relaxed);
        self.bytes_allocated.fetch_add(size as u64, Relaxed);
    }
}

impl Default for CountingAlloc {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: every method forwards its arguments unchanged to `System`, which implements
// `GlobalAlloc` correctly, and returns `System`'s result; the counting has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which is `System`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            self.count_alloc(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            self.count_alloc(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, i.e. by `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        self.deallocs.fetch_add(1, Relaxed);
        self.bytes_deallocated
            .fetch_add(layout.size() as u64, Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller upholds the
        // size requirements of `GlobalAlloc::realloc`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            self.reallocs.fetch_add(1, Relaxed);
            self.bytes_allocated.fetch_add(new_size as u64, Relaxed);
            self.bytes_deallocated
                .fetch_add(layout.size() as u64, Relaxed);
        }
        new
    }
}

/// Counter values: a [`CountingAlloc::snapshot`], or the difference of two.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Calls to `alloc` and `alloc_zeroed` that succeeded.
    pub allocs: u64,
    /// Calls to `realloc` that succeeded.
    pub reallocs: u64,
    /// Calls to `dealloc`.
    pub deallocs: u64,
    /// Bytes requested by allocations, plus the new size of every reallocation.
    pub bytes_allocated: u64,
    /// Bytes released by deallocations, plus the old size of every reallocation.
    pub bytes_deallocated: u64,
}

impl AllocStats {
    /// What happened between `earlier` and `self` (both snapshots of one allocator).
    #[must_use]
    pub fn since(self, earlier: Self) -> Self {
        Self {
            allocs: self.allocs.wrapping_sub(earlier.allocs),
            reallocs: self.reallocs.wrapping_sub(earlier.reallocs),
            deallocs: self.deallocs.wrapping_sub(earlier.deallocs),
            bytes_allocated: self.bytes_allocated.wrapping_sub(earlier.bytes_allocated),
            bytes_deallocated: self
                .bytes_deallocated
                .wrapping_sub(earlier.bytes_deallocated),
        }
    }

    /// Bytes still allocated at the end of the interval that were not at its start
    /// (negative if more was released than acquired).
    #[must_use]
    pub fn net_bytes(self) -> i128 {
        i128::from(self.bytes_allocated) - i128::from(self.bytes_deallocated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_subtracts_every_counter() {
        let a = AllocStats {
            allocs: 1,
            reallocs: 2,
            deallocs: 3,
            bytes_allocated: 40,
            bytes_deallocated: 50,
        };
        let b = AllocStats {
            allocs: 4,
            reallocs: 4,
            deallocs: 4,
            bytes_allocated: 100,
            bytes_deallocated: 60,
        };
        let d = b.since(a);
        assert_eq!(
            d,
            AllocStats {
                allocs: 3,
                reallocs: 2,
                deallocs: 1,
                bytes_allocated: 60,
                bytes_deallocated: 10,
            }
        );
        assert_eq!(d.net_bytes(), 50);
    }

    #[test]
    fn counts_what_passes_through() {
        let a = CountingAlloc::new();
        let layout = Layout::from_size_align(24, 8).expect("valid layout");
        // SAFETY: a non-zero-size layout; the pointer is checked, grown, then freed with
        // the layout it was last (re)allocated with.
        unsafe {
            let p = a.alloc(layout);
            assert!(!p.is_null());
            let q = a.realloc(p, layout, 48);
            assert!(!q.is_null());
            a.dealloc(q, Layout::from_size_align(48, 8).expect("valid layout"));
        }
        assert_eq!(
            a.snapshot(),
            AllocStats {
                allocs: 1,
                reallocs: 1,
                deallocs: 1,
                bytes_allocated: 24 + 48,
                bytes_deallocated: 24 + 48,
            }
        );
    }
}
