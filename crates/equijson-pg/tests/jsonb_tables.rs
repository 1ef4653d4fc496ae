//! The recorded jsonb tables (`tests/data/jsonb/*.tsv`, observed on PostgreSQL 15.18) replayed
//! against the live server, whatever its version (`EQUIJSON_PG_BINDIR`, `just pg-versions`):
//! the jsonb model must predict its text, binary form and SQLSTATEs, except for the version
//! differences listed in `VERSION_DIFFERENCES`, each of which must still occur.

use std::path::PathBuf;

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::connect;
use equijson_pg::roundtrip::Session;

/// Inputs on which a server version answers otherwise than the recorded 15.18 (and so than
/// the model): (first major, last major, input, finding class). Observed with the binaries
/// pinned in `tests/pg-versions/`.
const VERSION_DIFFERENCES: &[(u32, u32, &str, &str)] = &[
    // 15 checks the written exponent of a zero against numeric's range (22003); 16 and
    // later store `0` (PGlite's 18 too, see web/test/pglite-tables.test.mjs).
    (16, u32::MAX, "0e1073741823", "model-rejects"),
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
    let num: String = client
        .query_one("SHOW server_version_num", &[])
        .expect("version")
        .get(0);
    let major = num.parse::<u32>().expect("server_version_num") / 10_000;
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
            .any(|(lo, hi, i, _)| (*lo..=*hi).contains(&major) && *i == input);
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

/// Every UTF-8 row of both tables through `pg roundtrip`'s session (text and binary
/// parameters): the model's text, binary form and SQLSTATE against the server's.
#[test]
fn recorded_jsonb_tables_on_this_server_version() {
    let cluster = EphemeralCluster::start().expect("start cluster");
    let mut client = connect(cluster.config()).expect("connect");
    let num: String = client
        .query_one("SHOW server_version_num", &[])
        .expect("version")
        .get(0);
    let major = num.parse::<u32>().expect("server_version_num") / 10_000;
    let value = equijson::dto::find("value").expect("value DTO");
    let mut inputs = rows("normalize.tsv");
    inputs.extend(rows("errors.tsv"));
    // A text parameter carries only UTF-8 (the session sends the rest lossily).
    inputs.retain(|i| std::str::from_utf8(i).is_ok());
    assert!(inputs.len() > 550, "{}", inputs.len());
    let mut session = Session::new(&mut client).expect("session");
    let mut unexpected = Vec::new();
    let mut seen = Vec::new();
    for input in &inputs {
        let outcome = session
            .check_text(input, &|b| (value.check)(b))
            .expect("server");
        for f in outcome
            .findings
            .iter()
            .filter(|f| f.class.starts_with("model-"))
        {
            let known = VERSION_DIFFERENCES.iter().find(|(lo, hi, i, c)| {
                (*lo..=*hi).contains(&major) && i.as_bytes() == input.as_slice() && *c == f.class
            });
            match known {
                Some(k) => seen.push(k.2),
                None => unexpected.push(format!("{}: {}", f.class, f.description)),
            }
        }
    }
    assert!(
        unexpected.is_empty(),
        "PostgreSQL {major} ({}) differs from the recorded 15.18 tables:\n{}",
        cluster.version(),
        unexpected.join("\n")
    );
    for (lo, hi, input, class) in VERSION_DIFFERENCES {
        if (*lo..=*hi).contains(&major) {
            assert!(
                seen.contains(input),
                "PostgreSQL {major}: the listed difference {input} ({class}) no longer occurs"
            );
        }
    }
}
