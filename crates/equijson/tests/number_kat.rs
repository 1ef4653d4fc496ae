//! The ECMAScript number known-answer test of RFC 8785's reference (see tests/data/jcs/VECTORS.md).
//!
//! The stream of doubles is regenerated here and every line `HEX,EXPECTED\n` is written by
//! equijson's own formatter; the SHA-256 of the first N lines must match the published one.
//! `cargo test` checks 100,000 lines; the 1,000,000- and 10,000,000-line checks are
//! `#[ignore]`d and run in release mode by `just verify` (`just kat`).

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

#[path = "shared/kat_patterns.rs"]
mod kat_patterns;
use kat_patterns::kat_patterns as patterns;

fn kat_hash(lines: usize) -> (usize, String) {
    let mut hasher = Sha256::new();
    let mut line = String::with_capacity(64);
    let mut bytes = 0;
    for bits in patterns().take(lines) {
        line.clear();
        let text = equijson::format_f64(f64::from_bits(bits)).expect("KAT doubles are finite");
        let _ = writeln!(line, "{bits:x},{text}");
        bytes += line.len();
        hasher.update(line.as_bytes());
    }
    let hex = hasher.finalize().iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    });
    (bytes, hex)
}

#[test]
fn first_lines_are_known() {
    // Spot checks from the published file, so a failure says which number broke.
    let lines: Vec<String> = patterns()
        .take(6)
        .map(|b| {
            format!(
                "{b:x},{}",
                equijson::format_f64(f64::from_bits(b)).unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(lines[0], "0,0");
    assert_eq!(lines[1], "8000000000000000,0");
    assert_eq!(lines[2], "1,5e-324");
    assert_eq!(lines[3], "8000000000000001,-5e-324");
}

#[test]
fn kat_1k_and_10k() {
    assert_eq!(
        kat_hash(1_000),
        (
            37_967,
            "be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687".into()
        )
    );
    assert_eq!(
        kat_hash(10_000),
        (
            399_022,
            "b9f7a8e75ef22a835685a52ccba7f7d6bdc99e34b010992cbc5864cd12be6892".into()
        )
    );
}

#[test]
fn kat_100k() {
    assert_eq!(
        kat_hash(100_000),
        (
            4_031_728,
            "22776e6d4b49fa294a0d0f349268e5c28808fe7e0cb2bcbe28f63894e494d4c7".into()
        )
    );
}

#[test]
#[ignore = "release-mode check, run by `just kat`"]
fn kat_1m() {
    assert_eq!(
        kat_hash(1_000_000),
        (
            40_357_417,
            "49415fee2c56c77864931bd3624faad425c3c577d6d74e89a83bc725506dad16".into()
        )
    );
}

#[test]
#[ignore = "release-mode check, run by `just kat`"]
fn kat_10m() {
    assert_eq!(
        kat_hash(10_000_000),
        (
            403_630_048,
            "b9f8a44a91d46813b21b9602e72f112613c91408db0b8341fb94603d9db135e0".into()
        )
    );
}

#[test]
#[ignore = "100,000,000 lines (about a minute in release): `just kat-100m`"]
fn kat_100m() {
    assert_eq!(
        kat_hash(100_000_000),
        (
            4_036_326_174,
            "0f7dda6b0837dde083c5d6b896f7d62340c8a2415b0c7121d83145e08a755272".into()
        )
    );
}
