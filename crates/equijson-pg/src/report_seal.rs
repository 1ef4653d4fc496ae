//! The digest a scan report carries: SHA-256 (or HMAC-SHA-256 with `EQUIJSON_REPORT_KEY`) of its canonical JSON, written by the tool and checked by `report merge`.
//!
//! The plain `sha256:` digest detects accidental edits and truncation only: anyone who
//! edits a report can recompute it. `hmac-sha256:` needs the key (the value of
//! [`REPORT_KEY_ENV`] when the report was written), so an edit is detected even by
//! someone who recomputes hashes, as long as the key stays secret.

use crate::live::ScanReport;
use sha2::{Digest as _, Sha256};

/// The environment variable holding the key of `hmac-sha256:` report digests.
pub const REPORT_KEY_ENV: &str = "EQUIJSON_REPORT_KEY";

/// The report key from [`REPORT_KEY_ENV`] (unset or empty: none).
#[must_use]
pub fn key_from_env() -> Option<Vec<u8>> {
    std::env::var_os(REPORT_KEY_ENV)
        .filter(|k| !k.is_empty())
        .map(|k| k.as_encoded_bytes().to_vec())
}

/// The canonical JSON (RFC 8785) of `report` without its `digest` field: what is hashed.
///
/// # Errors
/// When the report does not serialize (it always does).
pub fn canonical_body(report: &ScanReport) -> Result<Vec<u8>, String> {
    let mut value = serde_json::to_value(report).map_err(|e| e.to_string())?;
    if let Some(map) = value.as_object_mut() {
        map.remove("digest");
    }
    let text = serde_json::to_vec(&value).map_err(|e| e.to_string())?;
    equijson::canonicalize(&text).map_err(|e| e.to_string())
}

/// The digest of `report` (its `digest` field ignored): `hmac-sha256:HEX` with `key`,
/// else `sha256:HEX`.
///
/// # Errors
/// As [`canonical_body`].
pub fn digest(report: &ScanReport, key: Option<&[u8]>) -> Result<String, String> {
    let body = canonical_body(report)?;
    Ok(match key {
        Some(k) => format!("hmac-sha256:{}", hex(&hmac_sha256(k, &body))),
        None => format!("sha256:{}", hex(&Sha256::digest(&body))),
    })
}

/// Sets `report.digest` (keyed when `key` is given).
///
/// # Errors
/// As [`canonical_body`].
pub fn seal(report: &mut ScanReport, key: Option<&[u8]>) -> Result<(), String> {
    report.digest = Some(digest(report, key)?);
    Ok(())
}

/// Checks `report.digest`: present, of the kind `key` calls for (with a key, only an
/// `hmac-sha256:` digest made with it is accepted), and equal to the report's.
///
/// # Errors
/// Why it does not hold.
pub fn verify(report: &ScanReport, key: Option<&[u8]>) -> Result<(), String> {
    let Some(found) = &report.digest else {
        return Err("it carries no digest (written by hand, or by an older equijson)".into());
    };
    match (found.split_once(':').map(|(kind, _)| kind), key) {
        (Some("hmac-sha256"), None) => {
            return Err(format!(
                "it is signed (hmac-sha256): set {REPORT_KEY_ENV} to the key it was written with"
            ));
        }
        (Some("sha256"), Some(_)) => {
            return Err(format!(
                "it is not signed ({REPORT_KEY_ENV} is set, the report has a plain sha256 digest)"
            ));
        }
        (Some("hmac-sha256" | "sha256"), _) => {}
        _ => return Err("its digest is of no known kind".into()),
    }
    let want = digest(report, key)?;
    if constant_time_eq(want.as_bytes(), found.as_bytes()) {
        Ok(())
    } else {
        Err(if key.is_some() {
            "its digest does not match: the report was edited, or signed with another key".into()
        } else {
            "its digest does not match: the report was edited after it was written".into()
        })
    }
}

/// HMAC-SHA-256 (RFC 2104).
#[must_use]
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.map(|b| b ^ byte);
    let mut inner = Sha256::new();
    inner.update(pad(0x36));
    inner.update(message);
    let mut outer = Sha256::new();
    outer.update(pad(0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::{hex, hmac_sha256};

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231 test cases 1, 2 and 6 (a key longer than the block).
        let cases: [(&[u8], &[u8], &str); 3] = [
            (
                &[0x0b; 20],
                b"Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            ),
            (
                b"Jefe",
                b"what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            ),
            (
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            ),
        ];
        for (key, msg, want) in cases {
            assert_eq!(hex(&hmac_sha256(key, msg)), want);
        }
    }
}
