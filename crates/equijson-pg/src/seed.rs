//! Seeded contact tables for the demo, the tests and the benchmark (COPY FROM STDIN).

use std::io::Write as _;

use equijson_check::generate::Style;
use equijson_check::jsonb::{JsonbOptions, normalize};
use equijson_check::props::PropsConfig;
use postgres::Client;

use crate::connect::{PgError, classify};
use crate::scan::quote_table;

/// Hand-written rows that trip decoders: duplicate member names (kept by `json`, resolved to
/// the last by `jsonb`), integers beyond 64 bits, `1.0` against `1`, astral and
/// U+E000..U+FFFF member names (JCS and jsonb order them differently), escaped strings.
pub const TRICKY_CONTACTS: &[&str] = &[
    r#"{"id":"c0000000-0000-4000-8000-000000000001","display_name":"First Spelling","display_name":"Second Spelling","email":[],"updated_at":"2026-01-01T00:00:00Z"}"#,
    r#"{"id":"c0000000-0000-4000-8000-000000000002","display_name":"Big Integer","legacy_crm_id":123456789012345678901234567890,"updated_at":"2026-01-02T00:00:00Z"}"#,
    r#"{"id":"c0000000-0000-4000-8000-000000000003","display_name":"One Point Oh","address":[{"street":"1 Main St","city":"Springfield","postal_code":"00001","country":"US","type":"home","is_primary":true,"lat":1.0,"lng":-1.50}],"updated_at":"2026-01-03T00:00:00Z"}"#,
    r#"{"id":"c0000000-0000-4000-8000-000000000004","display_name":"Astral Keys","tags":{"\ud83d\ude02":1,"\ue000":2,"a":3,"aa":4,"b":5},"updated_at":"2026-01-04T00:00:00Z"}"#,
    r#"{"id":"c0000000-0000-4000-8000-000000000005","display_name":"Zo\u00eb \"Z\" \\ \/ \ud83d\ude02\t","email":[{"email":"zo\u00eb@example.com","type":"work","is_primary":true}],"updated_at":"2026-01-05T00:00:00Z"}"#,
    r#"{"id":"c0000000-0000-4000-8000-000000000006","display_name":"Nine Quadrillion","legacy_crm_id":9007199254740993,"score":1e2,"ratio":100e-2,"updated_at":"2026-01-06T00:00:00Z"}"#,
    r#"{"email":[{"email":"dup@example.com","type":"work","is_primary":true,"is_primary":false}],"id":"c0000000-0000-4000-8000-000000000007","display_name":"Duplicate Nested","updated_at":"2026-01-07T00:00:00Z"}"#,
    "{ \"id\" : \"c0000000-0000-4000-8000-000000000008\" ,\n  \"display_name\" : \"Whitespace\\r\\nand escapes\\u0041\",\n  \"updated_at\" : \"2026-01-08T00:00:00Z\" }",
];

/// Creates `table (id bigint PRIMARY KEY, doc jsonb, raw json)` and fills it with `rows`
/// generated contact documents (the `contact` DTO's generator at `seed` and `size`; the
/// same text in both columns, `doc` NULL where jsonb would reject it), then the
/// [`TRICKY_CONTACTS`] when `tricky`. Returns the number of rows written.
///
/// # Errors
/// [`PgError`] from the server.
pub fn seed_contacts(
    client: &mut Client,
    table: &str,
    rows: u64,
    seed: u64,
    size: usize,
    tricky: bool,
) -> Result<u64, PgError> {
    let t = quote_table(table);
    client
        .batch_execute(&format!("DROP TABLE IF EXISTS {t}; CREATE TABLE {t} (id bigint PRIMARY KEY, doc jsonb, raw json)"))
        .map_err(|e| classify(&e, None))?;
    let spec = equijson_check::dto::find("contact")
        .ok_or_else(|| PgError::Usage("no contact DTO".into()))?;
    let mut cfg = PropsConfig::new(seed, rows, Some(spec));
    cfg.size = size;
    let mut w = client
        .copy_in(&format!("COPY {t} (id, doc, raw) FROM STDIN"))
        .map_err(|e| classify(&e, None))?;
    let mut line = Vec::with_capacity(1024);
    let opts = JsonbOptions::default();
    let tricky_rows: &[&str] = if tricky { TRICKY_CONTACTS } else { &[] };
    let mut written = 0u64;
    let io = |e: std::io::Error| PgError::Lost(e.to_string());
    for i in 0..rows {
        let (tree, style) = equijson_check::props::case(&cfg, i);
        let text = tree.render(Style::Seeded(style));
        copy_line(
            &mut line,
            i,
            &text,
            normalize(text.as_bytes(), &opts).is_ok(),
        );
        w.write_all(&line).map_err(io)?;
        written += 1;
    }
    for (j, text) in tricky_rows.iter().enumerate() {
        copy_line(
            &mut line,
            rows + j as u64,
            text,
            normalize(text.as_bytes(), &opts).is_ok(),
        );
        w.write_all(&line).map_err(io)?;
        written += 1;
    }
    w.finish().map_err(|e| classify(&e, None))?;
    client
        .batch_execute(&format!("ANALYZE {t}"))
        .map_err(|e| classify(&e, None))?;
    Ok(written)
}

/// One line of text-format COPY: `id \t doc \t raw \n`, with COPY's escapes.
fn copy_line(line: &mut Vec<u8>, id: u64, text: &str, jsonb_ok: bool) {
    line.clear();
    let _ = write!(line, "{id}\t");
    if jsonb_ok {
        escape(line, text);
    } else {
        line.extend_from_slice(b"\\N");
    }
    line.push(b'\t');
    escape(line, text);
    line.push(b'\n');
}

fn escape(out: &mut Vec<u8>, text: &str) {
    for &b in text.as_bytes() {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.push(b),
        }
    }
}
