//! What makes scan reports comparable ([`ScanSource`]) and the checks `report merge` runs: each report consistent in itself, all of one snapshot of one table read with the same settings.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::live::{EXAMPLES_PER_CLASS, LiveClass, ScanReport};

/// Why `report merge` ([`ScanReport::merge_labeled`]) refuses its reports. The messages
/// name the reports by their labels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No reports were given.
    #[error("no reports to merge")]
    NoReports,
    /// A report is not consistent in itself (edited or truncated).
    #[error("{label} is not a consistent scan report (edited or truncated?): {}", problems.join("; "))]
    Inconsistent {
        /// The report's label (its file name).
        label: String,
        /// What does not hold, one item each.
        problems: Vec<String>,
    },
    /// Two reports cannot add up: `what` says in which respect, `message` names both.
    #[error("{message}")]
    Mismatch {
        /// In which respect they differ.
        what: Mismatch,
        /// The reason, naming both labels and both values.
        message: String,
    },
}

/// In which respect two reports that cannot be merged differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    /// Another table, column or DTO, or other decode paths checked.
    Scan,
    /// Decoded by programs whose `serde_json` reads numbers differently.
    SerdeJsonNumbers,
    /// Another shard count, or sharded and unsharded.
    ShardCount,
    /// Cut differently (`--key`, `--where`, `--limit`).
    Slicing,
    /// A report does not say which snapshot of which table it read (an older equijson).
    NoSource,
    /// Another cluster, database, table (oid, relfilenode) or server major version.
    Table,
    /// A key-changing setting differs ([`KEY_SETTINGS`]).
    Setting,
    /// Another snapshot.
    Snapshot,
}

impl MergeError {
    pub(crate) fn mismatch(what: Mismatch, message: String) -> Self {
        Self::Mismatch { what, message }
    }
}

/// Where, when and how a scan read its rows: recorded by the scan inside its transaction,
/// compared by `report merge` so that only shards of one snapshot of one table, read with
/// the same key-changing settings, add up to a complete report.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ScanSource {
    /// The cluster's `system_identifier` (`pg_control_system()`), when the role may read it.
    #[serde(default)]
    pub system_identifier: Option<String>,
    /// `current_database()`.
    pub database: String,
    /// The table's oid.
    pub table_oid: u32,
    /// The table's `relfilenode` (changes when the table is rewritten: `TRUNCATE`,
    /// `VACUUM FULL`, `CLUSTER`, some `ALTER TABLE`s).
    pub relfilenode: u32,
    /// The server's major version (`hashtext`, which key shards use, is stable within one).
    pub server_major: u32,
    /// The transaction's snapshot, `pg_current_snapshot()` (`xmin:xmax:xip,...`): two scans
    /// with the same snapshot of the same cluster see exactly the same rows.
    pub snapshot: String,
    /// The snapshot id given with `--snapshot` (`pg_export_snapshot()`), when one was.
    #[serde(default)]
    pub exported_snapshot: Option<String>,
    /// When the scan's transaction started (UTC, ISO 8601).
    pub started_at: String,
    /// Session settings on which the text of a key (`key::text`) or a value depends:
    /// `TimeZone`, `DateStyle`, `IntervalStyle`, `extra_float_digits`, `lc_*`,
    /// `client_encoding`, `bytea_output`...
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
}

/// The settings a scan records in [`ScanSource::settings`].
pub const KEY_SETTINGS: &[&str] = &[
    "TimeZone",
    "DateStyle",
    "IntervalStyle",
    "extra_float_digits",
    "lc_collate",
    "lc_ctype",
    "lc_messages",
    "lc_monetary",
    "lc_numeric",
    "lc_time",
    "client_encoding",
    "server_encoding",
    "bytea_output",
    "standard_conforming_strings",
];

impl ScanReport {
    /// What is inconsistent in this report on its own (empty when nothing is): a shard
    /// outside `1..=n`, `complete` with an error or with fewer or more rows read than
    /// counted, more rows with findings than rows read, examples the counts do not
    /// account for (an unaccepted example beside `divergences: 0`, say). A report written
    /// by the tool is always consistent; these catch hand edits and truncated files.
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if let Some([k, n]) = self.shard
            && (n == 0 || k == 0 || k > n)
        {
            p.push(format!("shard {k}/{n} is not one of 1/{n}..{n}/{n}"));
        }
        if self.complete && self.error.is_some() {
            p.push("complete: true beside an error".to_owned());
        }
        if self.complete && self.rows_read != self.rows_total {
            p.push(format!(
                "complete: true but rows_read {} != rows_total {}",
                self.rows_read, self.rows_total
            ));
        }
        if self.rows_read > self.rows_total {
            p.push(format!(
                "rows_read {} exceeds rows_total {}",
                self.rows_read, self.rows_total
            ));
        }
        let with_findings = self.divergences.checked_add(self.accepted);
        if with_findings.is_none_or(|w| w > self.rows_read) {
            p.push(format!(
                "divergences {} + accepted {} exceed rows_read {}",
                self.divergences, self.accepted, self.rows_read
            ));
        }
        if self.model_checked > self.rows_read {
            p.push(format!(
                "model_checked {} exceeds rows_read {}",
                self.model_checked, self.rows_read
            ));
        }
        let findings: u64 = self
            .classes
            .values()
            .fold(0u64, |a, &b| a.saturating_add(b));
        if findings < with_findings.unwrap_or(u64::MAX) {
            p.push(format!(
                "{findings} findings in classes cannot cover {} rows with findings",
                with_findings.unwrap_or(u64::MAX)
            ));
        }
        let mut per_class: BTreeMap<(LiveClass, bool), u64> = BTreeMap::new();
        for e in &self.examples {
            *per_class.entry((e.class, e.accepted)).or_insert(0) += 1;
        }
        for (&(class, accepted), &n) in &per_class {
            let counted = self.classes.get(&class).copied().unwrap_or(0);
            let class = class.name();
            if n > counted {
                p.push(format!(
                    "{n} examples of class {class:?} but classes counts {counted}"
                ));
            }
            if n > EXAMPLES_PER_CLASS as u64 {
                p.push(format!(
                    "{n} {} examples of class {class:?}, more than the {EXAMPLES_PER_CLASS} a report keeps",
                    if accepted { "accepted" } else { "unaccepted" }
                ));
            }
        }
        let unaccepted_rows: BTreeSet<&str> = self
            .examples
            .iter()
            .filter(|e| !e.accepted)
            .map(|e| e.key.as_str())
            .collect();
        if unaccepted_rows.len() as u64 > self.divergences {
            p.push(format!(
                "unaccepted examples on {} rows beside divergences: {}",
                unaccepted_rows.len(),
                self.divergences
            ));
        }
        if self.divergences > 0 && unaccepted_rows.is_empty() {
            p.push(format!(
                "divergences: {} without an unaccepted example",
                self.divergences
            ));
        }
        p
    }

    /// Why shard reports `a` and `b` (named by their labels) do not describe one snapshot
    /// of one table read the same way, if they do not.
    ///
    /// # Errors
    /// The reason, naming both labels.
    pub fn check_same_source(
        (la, a): (&str, &ScanReport),
        (lb, b): (&str, &ScanReport),
    ) -> Result<(), MergeError> {
        let (Some(sa), Some(sb)) = (&a.source, &b.source) else {
            let which = if a.source.is_none() { la } else { lb };
            return Err(MergeError::mismatch(
                Mismatch::NoSource,
                format!(
                    "{which} does not say which snapshot of which table it read (a report from \
                 an older equijson?): shards cannot be shown to add up"
                ),
            ));
        };
        let differ = |what: &str, x: &dyn std::fmt::Display, y: &dyn std::fmt::Display| {
            let kind = match what {
                "snapshot" => Mismatch::Snapshot,
                "setting" => Mismatch::Setting,
                _ => Mismatch::Table,
            };
            Err(MergeError::mismatch(
                kind,
                format!(
                    "cannot merge {lb} ({what} {y}) with {la} ({what} {x}): {}",
                    match what {
                        "snapshot" =>
                            "the shards read different snapshots (different times), so rows \
                         inserted, deleted or moved in between are missed or counted twice; \
                         run every shard with one exported snapshot (--snapshot ID), or on \
                         a replica paused at one LSN",
                        "setting" =>
                            "the key's text, which the shards hash, depends on it: the shards \
                         need not cover each row once",
                        _ => "not the same table",
                    }
                ),
            ))
        };
        if sa.system_identifier != sb.system_identifier {
            return differ(
                "system_identifier",
                &sa.system_identifier.as_deref().unwrap_or("unknown"),
                &sb.system_identifier.as_deref().unwrap_or("unknown"),
            );
        }
        if sa.database != sb.database {
            return differ("database", &sa.database, &sb.database);
        }
        if sa.table_oid != sb.table_oid {
            return differ("table oid", &sa.table_oid, &sb.table_oid);
        }
        if sa.relfilenode != sb.relfilenode {
            return differ("relfilenode", &sa.relfilenode, &sb.relfilenode);
        }
        if sa.server_major != sb.server_major {
            return differ("server major version", &sa.server_major, &sb.server_major);
        }
        let names: BTreeSet<&String> = sa.settings.keys().chain(sb.settings.keys()).collect();
        for name in names {
            let (x, y) = (sa.settings.get(name), sb.settings.get(name));
            if x != y {
                return differ(
                    "setting",
                    &format!("{name}={}", x.map_or("unset", String::as_str)),
                    &format!("{name}={}", y.map_or("unset", String::as_str)),
                );
            }
        }
        if sa.snapshot != sb.snapshot {
            return differ(
                "snapshot",
                &format!("{} at {}", sa.snapshot, sa.started_at),
                &format!("{} at {}", sb.snapshot, sb.started_at),
            );
        }
        Ok(())
    }
}
