//! The recorded jsonb tables (`tests/data/jsonb/*.tsv`, observed on PostgreSQL 15.18) replayed
//! against the live server, whatever its version (`EQUIJSON_PG_BINDIR`, `just pg-versions`):
//! the server words every recorded error as 15.18 did except for the version differences
//! listed in `VERSION_DIFFERENCES`, and the jsonb model, told the server's major version,
//! predicts its text, binary form and SQLSTATEs (`versions.tsv`: where versions differ).

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::path::PathBuf;

use equijson_check::jsonb::JsonbOptions;
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::{connect, server_major};
use equijson_pg::roundtrip::Session;

/// Inputs of the recorded error table on which a server version answers otherwise than
/// 15.18: (first major, last major, input). Observed with the binaries pinned in
/// `tests/pg-versions/`; `versions.tsv` holds these differences for the model.
const VERSION_DIFFERENCES: &[(u32, u32, &str)] = &[
    // 15 checks the written exponent of a zero against numeric's range (22003); 16 and
    // later store `0` (PGlite's 18 too, see web/test/pglite-tables.test.mjs).
    (16, u32::MAX, "0e1073741823"),
];

#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

/// The TAB-separated fields of every data line (not blank, not a comment) of a jsonb table.
fn table(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/jsonb")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("jsonb table");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// A table's inputs (its first column), decoded.
fn rows(name: &str) -> Vec<Vec<u8>> {
    table(name).iter().map(|f| unescape(&f[0])).collect()
}

/// What the server makes of `input` cast to jsonb: its text, or the error's SQLSTATE and
/// message.
fn server_jsonb(client: &mut postgres::Client, input: &str) -> Result<String, (String, String)> {
    match client.query_one("SELECT $1::text::jsonb::text", &[&input]) {
        Ok(row) => Ok(row.get(0)),
        Err(e) => Err(match e.as_db_error() {
            Some(db) => (db.code().code().to_owned(), db.message().to_owned()),
            None => ("?".to_owned(), e.to_string()),
        }),
    }
}

/// The error table's SQLSTATE and message, row by row (13, 14, 16 and 17 word every
/// recorded error as 15.18 does; only `VERSION_DIFFERENCES` stores instead).
#[test]
fn recorded_error_messages_on_this_server_version() {
    if !pg_or_skip::server_or_skip("recorded_error_messages_on_this_server_version") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let mut checked = 0;
    let mut unexpected = Vec::new();
    for row in table("errors.tsv") {
        let [input, code, message, ..] = &row[..] else {
            panic!("bad row {row:?}");
        };
        let Ok(input) = String::from_utf8(unescape(input)) else {
            continue;
        };
        checked += 1;
        let got = match server_jsonb(&mut client, &input) {
            Ok(text) => format!("stored {text:.80}"),
            Err((code, message)) => format!("{code} {message}"),
        };
        let want = format!("{code} {message}");
        if got == want {
            continue;
        }
        let known = VERSION_DIFFERENCES
            .iter()
            .any(|(lo, hi, i)| (*lo..=*hi).contains(&major) && *i == input);
        if !known {
            unexpected.push(format!("{input:.80}: recorded {want}, got {got}"));
        }
    }
    assert!(checked > 250, "{checked}");
    assert!(
        unexpected.is_empty(),
        "PostgreSQL {major} ({}) words errors otherwise than the recorded 15.18 table:\n{}",
        cluster.version(),
        unexpected.join("\n")
    );
}

/// Every UTF-8 row of the tables through `pg roundtrip`'s session (text and binary
/// parameters): the model's text, binary form and SQLSTATE against the server's. The
/// session's model follows the server's major version, so no version differs from it.
#[test]
fn recorded_jsonb_tables_on_this_server_version() {
    if !pg_or_skip::server_or_skip("recorded_jsonb_tables_on_this_server_version") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let value = equijson_check::dto::find("value").expect("value DTO");
    let mut inputs = rows("normalize.tsv");
    inputs.extend(rows("errors.tsv"));
    inputs.extend(rows("versions.tsv"));
    // A text parameter carries only UTF-8 (the session sends the rest lossily).
    inputs.retain(|i| std::str::from_utf8(i).is_ok());
    assert!(inputs.len() > 570, "{}", inputs.len());
    let mut session = Session::new(&mut client).expect("session");
    let mut unexpected = Vec::new();
    for input in &inputs {
        let outcome = session
            .check_text(input, &|b| (value.check)(b))
            .expect("server");
        unexpected.extend(
            outcome
                .findings
                .iter()
                .filter(|f| f.class.is_model())
                .map(|f| format!("{}: {}", f.class, f.description)),
        );
    }
    assert!(
        unexpected.is_empty(),
        "PostgreSQL {major} ({}) differs from the model told its version:\n{}",
        cluster.version(),
        unexpected.join("\n")
    );
}

/// `versions.tsv` (observed on 15.18 and 16.14): this server answers as the column for its
/// major version says, and so does the model told that version.
#[test]
fn version_table_on_this_server_version() {
    if !pg_or_skip::server_or_skip("version_table_on_this_server_version") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let model = JsonbOptions::new().pg_major(major);
    let mut checked = 0;
    let mut unexpected = Vec::new();
    for row in table("versions.tsv") {
        let [input, old, new] = &row[..] else {
            panic!("bad row {row:?}");
        };
        let want = if major >= 16 { new } else { old };
        let got = match server_jsonb(&mut client, input) {
            Ok(text) => format!("text {text}"),
            Err((code, _)) => format!("error {code}"),
        };
        let modelled = match equijson_check::jsonb::normalize(input.as_bytes(), &model) {
            Ok(t) => format!("text {t}"),
            Err(e) => format!("error {}", e.code()),
        };
        if got != *want || modelled != *want {
            unexpected.push(format!(
                "{input}: recorded {want}, server {got}, model {modelled}"
            ));
        }
        checked += 1;
    }
    assert!(checked > 15, "{checked}");
    assert!(
        unexpected.is_empty(),
        "PostgreSQL {major} ({}):\n{}",
        cluster.version(),
        unexpected.join("\n")
    );
}
