//! `equijson demo`: an ephemeral cluster, a seeded contacts table, round trips, then scans.

use std::io::Write;

use crate::cluster::EphemeralCluster;
use crate::connect::{PgError, connect};
use crate::roundtrip::{RoundtripOptions, roundtrip_dto};
use crate::scan::{ScanOptions, scan_with};
use crate::seed::{TRICKY_CONTACTS, seed_contacts};

/// Rows the demo generates (the tricky ones come on top).
pub const DEMO_ROWS: u64 = 3000;
/// Seed of the demo (rows and round trip cases).
pub const DEMO_SEED: u64 = 2026;

/// Runs the demo, writing a readable report to `out`. Returns whether everything found
/// is accepted by the DTO (the demo's exit 0).
///
/// # Errors
/// [`PgError`] when the cluster cannot start or the server fails.
pub fn run(out: &mut dyn Write) -> Result<bool, PgError> {
    let w = |out: &mut dyn Write, s: &str| {
        let _ = out.write_all(s.as_bytes());
        let _ = out.flush();
    };
    w(
        out,
        "### 0. An ephemeral PostgreSQL cluster (initdb, private socket, removed at exit)\n",
    );
    let cluster = EphemeralCluster::start()?;
    let config = cluster.config();
    let mut client = connect(&config)?;
    let version: String = client
        .query_one("SELECT version()", &[])
        .map_err(|e| crate::connect::classify(&e, None))?
        .get(0);
    w(
        out,
        &format!("{}\nserver: {version}\n\n", cluster.describe()),
    );

    let mut ok = true;
    w(
        out,
        "### 1. Round trips: generated documents through json and jsonb, text and binary, and back\n",
    );
    for dto in ["contact", "value"] {
        let spec = equijson_check::dto::find(dto)
            .ok_or_else(|| PgError::Usage(format!("no DTO {dto}")))?;
        let opts = RoundtripOptions {
            seed: DEMO_SEED,
            cases: 300,
            size: 6,
        };
        let r = roundtrip_dto(&mut client, spec, opts, &mut |_, _| {})?;
        ok &= r.failed == 0;
        w(
            out,
            &format!(
                "-- equijson pg roundtrip --seed {DEMO_SEED} --cases 300 --dto {dto}\n{}\n",
                r.render()
            ),
        );
    }

    w(
        out,
        "### 2. A contacts table: generated rows plus tricky ones\n",
    );
    let rows = seed_contacts(&mut client, "contacts", DEMO_ROWS, DEMO_SEED, 6, true)?;
    w(
        out,
        &format!(
            "contacts(id bigint, doc jsonb, raw json): {rows} rows, {} hand-written: duplicate member names, \
             integers beyond 64 bits, 1.0 vs 1, astral keys, escaped strings\n\n",
            TRICKY_CONTACTS.len()
        ),
    );

    w(
        out,
        "### 3. Scans: every row through every decode path, the jsonb model against the server\n",
    );
    let spec = equijson_check::dto::find("contact")
        .ok_or_else(|| PgError::Usage("no contact DTO".into()))?;
    for column in ["doc", "raw"] {
        let opts = ScanOptions {
            table: "contacts".into(),
            column: column.into(),
            key: Some("id".into()),
            ..ScanOptions::default()
        };
        let report = scan_with(
            &config,
            &opts,
            spec.name,
            &|b| (spec.check_input)(b),
            &mut |_, _| {},
        )?;
        if !report.complete {
            // Ctrl-C stopped the server under the scan: exit 130 is the outcome, not a report.
            crate::cluster::wait_for_signal_exit();
        }
        ok &= report.complete && report.divergences == 0;
        w(
            out,
            &format!(
                "-- equijson pg scan --table contacts --column {column} --key id --dto contact\n{}\n",
                report.render()
            ),
        );
    }
    w(
        out,
        if ok {
            "### result: every finding is accepted by the DTO (exit 0)\n"
        } else {
            "### result: unaccepted divergences found (exit 1)\n"
        },
    );
    drop(client);
    drop(cluster);
    Ok(ok)
}
