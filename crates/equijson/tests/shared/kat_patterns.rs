//! The 64-bit patterns of the ECMAScript number known-answer test of RFC 8785's reference
//! (see `tests/data/jcs/VECTORS.md`): the static list, a ramp of subnormal-to-normal
//! boundary patterns, then a SHA-256 chain, keeping only finite non-zero doubles.
//!
//! Shared by the core's KAT (`tests/number_kat.rs`) and the PostgreSQL differential suite
//! (`crates/equijson-pg/tests/sql_canonical.rs`), which include this file by `#[path]`.

use sha2::{Digest, Sha256};

const STATIC: &str = include_str!("../../../../tests/data/jcs/numgen-static-u64.txt");

/// The KAT's stream of 64-bit patterns, in order.
pub(crate) fn kat_patterns() -> impl Iterator<Item = u64> {
    let fixed = STATIC
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| u64::from_str_radix(l.trim(), 16).expect("static KAT pattern is hex"));
    let ramp = (0..2000u64).map(|i| 0x0010_0000_0000_0000 + i);
    let mut block = [0u8; 32];
    let chained = std::iter::from_fn(move || {
        block = Sha256::digest(block).into();
        Some(block)
    })
    .flat_map(|b| {
        (0..4).map(move |i| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w)
        })
    })
    .filter(|&bits| {
        let f = f64::from_bits(bits);
        f.is_finite() && f != 0.0
    });
    fixed.chain(ramp).chain(chained)
}
