//! The recorded jsonb tables (`tests/data/jsonb/*.tsv`, observed on PostgreSQL 15.18) replayed
//! against the live server, whatever its version (`EQUIJSON_PG_BINDIR`, `just pg-versions`):
//! the server words every recorded error as 15.18 did except for the version differences
//! listed in `VERSION_DIFFERENCES`, and the jsonb model, told the server's major version,
//! predicts its text, binary form and SQLSTATEs (`versions.tsv`: where versions differ).

use std::path::PathBuf;

use equijson::jsonb::JsonbOptions;
use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::connect;
use equijson_pg::roundtrip::{Session, server_major};

/// Inputs of the recorded error table on which a server version answers otherwise than
/// 15.18: (first major, last major, input). Observed with the binaries pinned in
/// `tests/pg-versions/`; `versions.tsv` holds these differences for the model.
const VERSION_DIFFERENCES: &[(u32, u32, &str)] = &[
    // 15 checks the written exponent of a zero against numeric's range (22003); 16 and
    // later store `0` (PGlite's 18 too, see web/test/pglite-tables.test.mjs).
    (16, u32::MAX, "0e1073741823"),
];

fn rows(name: &str) -> Vec<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/jsonb")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("jsonb table");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| decode(l.split('\t').next().expect("input column")))
        .collect()
}

/// The tables' notation: `\xHH` one raw byte, `\u{H..}` one character; other backslashes literal.
fn decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex2 = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && hex2(i + 2) && hex2(i + 3) {
            out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).expect("hex"));
            i += 4;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'u') && b.get(i + 2) == Some(&b'{') {
            let end = i + s[i..].find('}').expect("closing brace");
            let c = char::from_u32(u32::from_str_radix(&s[i + 3..end], 16).expect("hex"))
                .expect("scalar value");
            out.extend_from_slice(c.to_string().as_bytes());
            i = end + 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// The error table's SQLSTATE and message, row by row (13, 14, 16 and 17 word every
/// recorded error as 15.18 does; only `VERSION_DIFFERENCES` stores instead).
#[test]
fn recorded_error_messages_on_this_server_version() {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jsonb/errors.tsv");
    let text = std::fs::read_to_string(&path).expect("errors.tsv");
    let mut checked = 0;
    let mut unexpected = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut f = line.split('\t');
        let (Some(input), Some(code), Some(message)) = (f.next(), f.next(), f.next()) else {
            panic!("bad row {line}");
        };
        let Ok(input) = String::from_utf8(decode(input)) else {
            continue;
        };
        checked += 1;
        let got = match client.query_one("SELECT $1::text::jsonb::text", &[&input]) {
            Ok(row) => format!("stored {:.80}", row.get::<_, String>(0)),
            Err(e) => match e.as_db_error() {
                Some(db) => format!("{} {}", db.code().code(), db.message()),
                None => format!("? {e}"),
            },
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
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let value = equijson::dto::find("value").expect("value DTO");
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
                .filter(|f| f.class.starts_with("model-"))
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
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let major = server_major(&mut client).expect("version");
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jsonb/versions.tsv");
    let text = std::fs::read_to_string(&path).expect("versions.tsv");
    let model = JsonbOptions::new().pg_major(major);
    let mut checked = 0;
    let mut unexpected = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let [input, old, new] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("bad row {line}");
        };
        let want = if major >= 16 { new } else { old };
        let got = match client.query_one("SELECT $1::text::jsonb::text", &[&input]) {
            Ok(row) => format!("text {}", row.get::<_, String>(0)),
            Err(e) => match e.as_db_error() {
                Some(db) => format!("error {}", db.code().code()),
                None => format!("? {e}"),
            },
        };
        let modelled = match equijson::jsonb::normalize(input.as_bytes(), &model) {
            Ok(t) => format!("text {t}"),
            Err(e) => format!("error {}", e.code()),
        };
        if got != want || modelled != want {
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
