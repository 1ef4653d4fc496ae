//! The PostgreSQL `jsonb` model against behaviour observed on a real PostgreSQL 15.18 server.
//!
//! `tests/data/jsonb/normalize.tsv` and `tests/data/jsonb/errors.tsv` hold rows recorded
//! from the server (see their headers); the tests here that are not table-driven state
//! further observed facts (nesting limits, numeric range, binary format) or check that
//! hostile input cannot overflow the stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use std::path::Path;

use equijson_check::jsonb::{
    self, DEFAULT_MAX_DEPTH, JsonbError, JsonbOptions, SqlState, from_wire, normalize, to_wire,
    wire_text,
};

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/jsonb")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

#[path = "../../equijson/tests/shared/test_rng.rs"]
mod test_rng;
use test_rng::Rng;
#[path = "../../equijson/tests/shared/table_notation.rs"]
mod table_notation;
use table_notation::unescape;

/// Data rows: the TAB-separated fields of every line that is not blank or a comment.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect()
}

fn opts() -> JsonbOptions {
    JsonbOptions::default()
}

fn err(input: &[u8]) -> JsonbError {
    normalize(input, &opts()).expect_err("PostgreSQL rejects this")
}

#[test]
fn normalize_table_matches_the_server() {
    let text = data("normalize.tsv");
    let rows = rows(&text);
    assert!(rows.len() > 300, "only {} rows", rows.len());
    for row in rows {
        let [input, expected, size] = row[..] else {
            panic!("bad row {row:?}");
        };
        let input = unescape(input);
        let expected = unescape(expected);
        let got = normalize(&input, &opts()).unwrap_or_else(|e| panic!("{row:?}: {e}"));
        assert_eq!(got.as_bytes(), expected, "{row:?}");
        let size: u64 = size.parse().unwrap();
        assert_eq!(
            jsonb::binary_size(&input, &opts()).unwrap(),
            size,
            "{row:?}"
        );
        let wire = to_wire(&input, &opts()).unwrap();
        assert_eq!(wire[0], 1);
        assert_eq!(&wire[1..], &expected[..], "{row:?}");
        assert_eq!(wire_text(&wire).unwrap(), &expected[..]);
        // jsonb_recv of the input text, and of the normalized text (normalization is idempotent).
        let mut recv = vec![1];
        recv.extend_from_slice(&input);
        assert_eq!(from_wire(&recv, &opts()).unwrap().as_bytes(), expected);
        assert_eq!(from_wire(&wire, &opts()).unwrap().as_bytes(), expected);
    }
}

/// The one-pass shortcut of the live scan (`is_normalized`) on the server's rows: it may
/// say `true` only where the model gives the text back unchanged, never on a text the
/// server rejects, and it must recognise most of the server's own output texts.
#[test]
fn normalized_shortcut_agrees_with_the_model_on_the_server_tables() {
    let text = data("normalize.tsv");
    let (mut outputs, mut recognised) = (0usize, 0usize);
    for row in rows(&text) {
        for (i, field) in row[..2].iter().enumerate() {
            let t = unescape(field);
            let fast = jsonb::is_normalized(&t);
            if fast {
                assert_eq!(normalize(&t, &opts()).unwrap().as_bytes(), t, "{row:?}");
            }
            if i == 1 {
                outputs += 1;
                recognised += usize::from(fast);
            }
        }
    }
    // Declined: names with escapes, `\u` escapes of control characters in names, and
    // the like; everything else the server prints is recognised.
    assert!(recognised * 10 > outputs * 9, "{recognised} of {outputs}");
    let text = data("errors.tsv");
    for row in rows(&text) {
        assert!(!jsonb::is_normalized(&unescape(row[0])), "{row:?}");
    }
}

#[test]
fn error_table_matches_the_server() {
    let text = data("errors.tsv");
    let rows = rows(&text);
    assert!(rows.len() > 250, "only {} rows", rows.len());
    for row in rows {
        let [input, code, message, detail, context] = row[..] else {
            panic!("bad row {row:?}");
        };
        let input = unescape(input);
        let e = err(&input);
        assert_eq!(e.code(), code, "{row:?}: {e}");
        assert_eq!(e.sqlstate().code(), code);
        assert_eq!(e.message(), message, "{row:?}");
        let detail = (!detail.is_empty()).then(|| unescape(detail));
        assert_eq!(e.detail().map(str::as_bytes), detail.as_deref(), "{row:?}");
        let context = (!context.is_empty()).then(|| unescape(context));
        assert_eq!(
            e.context().map(str::as_bytes),
            context.as_deref(),
            "{row:?}"
        );
        assert!(e.offset().is_some_and(|o| o <= input.len()), "{row:?}");
        assert_eq!(to_wire(&input, &opts()).unwrap_err(), e);
    }
}

/// The model's answer in `versions.tsv`'s notation: `text <jsonb text>` or `error <SQLSTATE>`.
fn answer(input: &[u8], options: &JsonbOptions) -> String {
    match normalize(input, options) {
        Ok(t) => format!("text {t}"),
        Err(e) => format!("error {}", e.code()),
    }
}

/// `JsonbOptions::pg_major`: where servers differ (observed on 15.18 and 16.14), the model
/// answers as the version it is told; 15 is the default.
#[test]
fn version_table_matches_each_server_version() {
    let text = data("versions.tsv");
    let rows = rows(&text);
    assert!(rows.len() > 15, "only {} rows", rows.len());
    let mut differing = 0;
    for row in rows {
        let [input, old, new] = row[..] else {
            panic!("bad row {row:?}");
        };
        let input = unescape(input);
        assert_eq!(answer(&input, &opts()), old, "default, {row:?}");
        for major in [13, 14, 15] {
            let o = JsonbOptions::new().pg_major(major);
            assert_eq!(answer(&input, &o), old, "{major}, {row:?}");
        }
        for major in [16, 17, 18] {
            let o = JsonbOptions::new().pg_major(major);
            assert_eq!(answer(&input, &o), new, "{major}, {row:?}");
        }
        differing += usize::from(old != new);
    }
    assert!(differing >= 10, "{differing}");
}

#[test]
fn empty_and_blank_input() {
    // Observed: '' and ' ' give 22P02 "The input string ended unexpectedly."
    for input in [&b""[..], b" ", b"\t\n\r "] {
        let e = err(input);
        assert_eq!(e.code(), "22P02");
        assert_eq!(e.detail(), Some("The input string ended unexpectedly."));
        assert_eq!(e.offset(), Some(input.len()));
    }
    assert_eq!(err(b"").context(), Some("JSON data, line 1: "));
    assert_eq!(err(b"\t\n\r ").context(), Some("JSON data, line 2: \r "));
}

#[test]
fn documented_examples() {
    let n = |s: &str| normalize(s.as_bytes(), &opts()).unwrap();
    assert_eq!(n(r#"{"b":1,"aa":2,"a":3}"#), r#"{"a": 3, "b": 1, "aa": 2}"#);
    assert_eq!(n(r#"{"a":1,"a":{"x":2}}"#), r#"{"a": {"x": 2}}"#);
    assert_eq!(n("[ ]"), "[]");
    assert_eq!(n("{ }"), "{}");
    for (input, want) in [
        ("1.0", "1.0"),
        ("1e2", "100"),
        ("100e-2", "1.00"),
        ("1e-7", "0.0000001"),
        ("-0", "0"),
        ("-0.0", "0.0"),
        ("1.5e1", "15"),
        ("1.50e1", "15.0"),
        ("0e-5", "0.00000"),
    ] {
        assert_eq!(n(input), want, "{input}");
    }
    assert_eq!(
        n(r#""\b\f\n\r\t\u001f\u007f\u2028\/""#),
        "\"\\b\\f\\n\\r\\t\\u001f\u{7f}\u{2028}/\""
    );
    assert_eq!(
        n("\"\u{FFFF}\u{1FFFF}\u{FDD0}\""),
        "\"\u{FFFF}\u{1FFFF}\u{FDD0}\""
    );
}

/// Observed: the numeric range limits and the long plain-notation outputs.
#[test]
fn numeric_range() {
    let n = |s: &str| normalize(s.as_bytes(), &opts());
    let big = n("1e131071").unwrap();
    assert_eq!(big.len(), 131_072);
    assert!(big.starts_with('1') && big[1..].bytes().all(|b| b == b'0'));
    assert_eq!(n("9999e131068").unwrap().len(), 131_072);
    assert_eq!(n("99999e131067").unwrap().len(), 131_072);
    let small = n("1e-16383").unwrap();
    assert_eq!(small.len(), 16_385);
    assert!(small.starts_with("0.0000") && small.ends_with("0001"));
    assert_eq!(n("1.5e-16382").unwrap().len(), 16_385);
    assert_eq!(n("0e-16383").unwrap().len(), 16_385);
    assert_eq!(n("1e1001").unwrap().len(), 1002);
    assert_eq!(n("0e1073741822").unwrap(), "0");
    for bad in [
        "1e131072",
        "1e-16384",
        "1.5e-16383",
        "0e-16384",
        "0.0e-16383",
        "0e1073741823",
        "0e-1073741822",
        "0e99999999999999999999999",
        "1e-1073741822",
    ] {
        let e = n(bad).unwrap_err();
        assert_eq!(e.sqlstate(), SqlState::NumericValueOutOfRange, "{bad}");
        assert_eq!(e.message(), "value overflows numeric format");
        assert_eq!((e.detail(), e.context(), e.offset()), (None, None, Some(0)));
    }
    // The number is converted only after the next token is lexed (observed).
    assert_eq!(err(b"[1e131072 x]").code(), "22P02");
    assert_eq!(err(b"[1e131072 \"\\u0000\"]").code(), "22P05");
    assert_eq!(err(b"[1e131072, x]").code(), "22003");
    assert_eq!(err(b"[1e131072 2]").code(), "22003");
}

fn nest(open: &str, mid: &str, close: &str, n: usize) -> Vec<u8> {
    format!("{}{mid}{}", open.repeat(n), close.repeat(n)).into_bytes()
}

/// Observed nesting limits for a value bound as a parameter, default `max_stack_depth`.
#[test]
fn nesting_limits() {
    let ok = |doc: &[u8]| normalize(doc, &opts()).map(|_| ());
    let too_deep = |doc: &[u8]| {
        let e = normalize(doc, &opts()).unwrap_err();
        assert_eq!(e.code(), "54001", "{e}");
        assert_eq!(e.message(), "stack depth limit exceeded");
        assert!(e.hint().is_some_and(|h| h.contains("max_stack_depth")));
    };
    assert_eq!(DEFAULT_MAX_DEPTH, 14_554);
    ok(&nest("[", "", "]", 14_554)).unwrap();
    too_deep(&nest("[", "", "]", 14_555));
    ok(&nest("[", "1", "]", 14_553)).unwrap();
    too_deep(&nest("[", "1", "]", 14_554));
    ok(&nest("{\"a\":", "1", "}", 13_099)).unwrap();
    too_deep(&nest("{\"a\":", "1", "}", 13_100));
    ok(&nest("{\"a\":", "{}", "}", 13_098)).unwrap();
    too_deep(&nest("{\"a\":", "{}", "}", 13_099));
    ok(&nest("[{\"a\":", "1", "}]", 6_894)).unwrap();
    too_deep(&nest("[{\"a\":", "1", "}]", 6_895));
    // Mixed chains (observed): 14000 arrays then at most 499 objects around a scalar.
    let chain = |arrays: usize, objects: usize| {
        format!(
            "{}{}1{}{}",
            "[".repeat(arrays),
            "{\"k\":".repeat(objects),
            "}".repeat(objects),
            "]".repeat(arrays)
        )
        .into_bytes()
    };
    ok(&chain(14_000, 499)).unwrap();
    too_deep(&chain(14_000, 500));
    ok(&chain(14_540, 13)).unwrap();
    too_deep(&chain(14_540, 14));
    // The conversion's check sees only what survives duplicate removal (observed).
    let deep_a = format!("{{\"a\":{}1{}", "[".repeat(14_553), "]".repeat(14_553));
    ok(format!("{deep_a},\"a\":1}}").as_bytes()).unwrap();
    too_deep(format!("{deep_a}}}").as_bytes());
    // A syntax error after too-deep values: the parse error wins (observed).
    let mut doc = nest("[", "1", "]", 14_554);
    doc.push(b'x');
    assert_eq!(err(&doc).code(), "22P02");
    // Too deep while parsing wins over a later syntax error (observed).
    let mut doc = "[".repeat(14_555).into_bytes();
    doc.push(b'x');
    assert_eq!(err(&doc).code(), "54001");
    assert_eq!(err(&doc).offset(), Some(14_554));
}

#[test]
fn max_depth_is_an_option() {
    let three = JsonbOptions::new().max_depth(3);
    assert_eq!(normalize(b"[[[]]]", &three).unwrap(), "[[[]]]");
    assert_eq!(normalize(b"[[[1]]]", &three).unwrap_err().code(), "54001");
    assert_eq!(normalize(b"[[[[]]]]", &three).unwrap_err().code(), "54001");
    assert_eq!(normalize(b"[[1]]", &three).unwrap(), "[[1]]");
    let none = JsonbOptions::new().max_depth(0);
    assert_eq!(normalize(b"1", &none).unwrap_err().code(), "54001");
}

/// A million levels: no stack overflow, whatever the limit.
#[test]
fn million_deep_input_does_not_overflow_the_stack() {
    const N: usize = 1_000_000;
    let unlimited = JsonbOptions::new().max_depth(usize::MAX);
    let arrays = nest("[", "", "]", N);
    assert_eq!(err(&arrays).code(), "54001");
    let text = normalize(&arrays, &unlimited).unwrap();
    assert_eq!(text.as_bytes(), &arrays[..]);
    // Varlena header, then per level a 4-byte header and (but for the innermost) one entry.
    assert_eq!(
        jsonb::binary_size(&arrays, &unlimited).unwrap(),
        8 * N as u64
    );

    let objects = nest("{\"a\":", "1", "}", N);
    assert_eq!(err(&objects).code(), "54001");
    let text = normalize(&objects, &unlimited).unwrap();
    assert_eq!(text.len(), objects.len() + N);

    let unclosed = "[".repeat(N).into_bytes();
    assert_eq!(err(&unclosed).code(), "54001");
    let e = normalize(&unclosed, &unlimited).unwrap_err();
    assert_eq!(e.detail(), Some("The input string ended unexpectedly."));
    assert_eq!(e.offset(), Some(N));

    let mixed = nest("[{\"a\":", "[1,2]", "}]", N / 2);
    assert_eq!(err(&mixed).code(), "54001");
    assert!(normalize(&mixed, &unlimited).is_ok());

    let garbage = format!("{}1,]", "{\"a\":[".repeat(N / 2)).into_bytes();
    assert_eq!(
        normalize(&garbage, &unlimited).unwrap_err().detail(),
        Some("Expected JSON value, but found \"]\".")
    );
}

#[test]
fn no_panics_on_mutated_input() {
    let seeds: &[&[u8]] = &[
        br#"{"a":[1,-0.0,1e5,"\u00e9\ud83d\ude00"],"b":{"c":null,"a":true},"a":false}"#,
        b"[\"\\u0000\", 1e131072, \"\\ud800\", 01, tru, \"\x01\"]",
        "{\"\u{1F600}\":\"\\n\\t\",\"\":[[],{}]}".as_bytes(),
    ];
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    for seed in seeds {
        for _ in 0..3000 {
            let x = r.next();
            let mut doc = seed.to_vec();
            let at = (x % (doc.len() as u64 + 1)) as usize;
            match (x >> 32) % 4 {
                0 => doc.truncate(at),
                1 if at < doc.len() => {
                    doc.remove(at);
                }
                _ => doc.insert(at, (x >> 40) as u8),
            }
            if let Err(e) = normalize(&doc, &opts()) {
                assert!(e.offset().is_none_or(|o| o <= doc.len()));
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn error_offsets() {
    let at = |s: &[u8]| err(s).offset().unwrap();
    assert_eq!(at(b"[1, 2,]"), 6);
    assert_eq!(at(b"[1 2]"), 3);
    assert_eq!(at(b"  NaN"), 2);
    assert_eq!(at(b"[\"ab\\x\"]"), 4);
    assert_eq!(at(b"[\"a\\u0000\"]"), 3);
    assert_eq!(at(b"[\"ab\x01\"]"), 4);
    assert_eq!(at(b"[\"a\xff\"]"), 3);
    assert_eq!(at(b"[1,\x00]"), 3);
    assert_eq!(at(b"[0, 1e131072]"), 4);
    assert_eq!(at(b"[1, 2"), 5);
    let e = err(b"[\"a\xff\"]");
    assert_eq!(e.sqlstate(), SqlState::CharacterNotInRepertoire);
    assert_eq!(
        e.message(),
        "invalid byte sequence for encoding \"UTF8\": 0xff"
    );
    assert_eq!(
        e.to_string(),
        "invalid byte sequence for encoding \"UTF8\": 0xff (SQLSTATE 22021, at byte 3)"
    );
    assert_eq!(
        err(b"NaN").to_string(),
        "invalid input syntax for type json: Token \"NaN\" is invalid. (SQLSTATE 22P02, at byte 0)"
    );
}

/// Observed with binary-format parameters (`jsonb_recv`) and results (`jsonb_send`).
#[test]
fn binary_format() {
    assert_eq!(to_wire(b"[1,2]", &opts()).unwrap(), b"\x01[1, 2]");
    assert_eq!(
        to_wire(b" {\"b\":1, \"a\":2} ", &opts()).unwrap(),
        b"\x01{\"a\": 2, \"b\": 1}"
    );
    assert_eq!(wire_text(b"\x01[1, 2]").unwrap(), b"[1, 2]");
    assert_eq!(wire_text(b"\x01").unwrap(), b"");

    let e = wire_text(b"").unwrap_err();
    assert_eq!(
        (e.code(), e.message()),
        ("08P01", "insufficient data left in message")
    );
    for (bytes, n) in [
        (&b"\x02[1]"[..], 2),
        (b"\x00[1]", 0),
        (b"\x02", 2),
        (b"\xff{}", 255),
    ] {
        let e = wire_text(bytes).unwrap_err();
        assert_eq!(e.code(), "XX000");
        assert_eq!(e.message(), format!("unsupported jsonb version number {n}"));
        assert_eq!(from_wire(bytes, &opts()).unwrap_err(), e);
    }
    assert_eq!(from_wire(b"\x01[1,  2]", &opts()).unwrap(), "[1, 2]");
    assert_eq!(
        from_wire(b"\x01", &opts()).unwrap_err().detail(),
        Some("The input string ended unexpectedly.")
    );
    assert_eq!(from_wire(b"\x01\xff", &opts()).unwrap_err().code(), "22021");
    assert_eq!(from_wire(b"\x01\x00", &opts()).unwrap_err().code(), "22021");
}

/// Observed size limits (each needs a quarter-gigabyte input: run with `--ignored`).
#[test]
#[ignore = "allocates about 1.5 GB"]
fn size_limits() {
    let doc = |pre: &str, len: usize, post: &str| {
        let mut d = pre.as_bytes().to_vec();
        d.resize(d.len() + len, b'a');
        d.extend_from_slice(post.as_bytes());
        d
    };
    let size = |d: &[u8]| jsonb::binary_size(d, &opts());
    assert_eq!(size(&doc("\"", 268_435_447, "\"")).unwrap(), 268_435_459);
    let e = size(&doc("\"", 268_435_448, "\"")).unwrap_err();
    assert_eq!(
        (e.code(), e.message()),
        (
            "54000",
            "total size of jsonb array elements exceeds the maximum of 268435455 bytes"
        )
    );
    let e = size(&doc("\"", 268_435_456, "\"")).unwrap_err();
    assert_eq!(e.message(), "string too long to represent as jsonb string");
    assert_eq!(
        e.detail(),
        Some("Due to an implementation restriction, jsonb strings cannot exceed 268435455 bytes.")
    );
    assert_eq!(
        size(&doc("{\"k\":\"", 268_435_442, "\"}")).unwrap(),
        268_435_459
    );
    let e = size(&doc("{\"k\":\"", 268_435_443, "\"}")).unwrap_err();
    assert_eq!(
        e.message(),
        "total size of jsonb object elements exceeds the maximum of 268435455 bytes"
    );
    assert_eq!(
        size(&doc("[[\"", 268_435_439, "\"]]")).unwrap(),
        268_435_459
    );
    assert_eq!(
        size(&doc("[[\"", 268_435_440, "\"]]")).unwrap_err().code(),
        "54000"
    );
    assert_eq!(
        size(&doc("[1,\"", 268_435_435, "\"]")).unwrap(),
        268_435_459
    );
    assert_eq!(
        size(&doc("[1,\"", 268_435_436, "\"]")).unwrap_err().code(),
        "54000"
    );
}

/// Observed element-count limits: the in-memory vectors cannot grow past `MaxAllocSize`.
#[test]
#[ignore = "builds 34-50 MB inputs; slow in debug builds"]
fn element_count_limits() {
    let array = |n: usize| {
        let mut s = b"[0".to_vec();
        s.extend(std::iter::repeat_n(&b",0"[..], n - 1).flatten());
        s.push(b']');
        s
    };
    let object = |n: usize| {
        let mut s = b"{\"a\":0".to_vec();
        s.extend(std::iter::repeat_n(&b",\"a\":0"[..], n - 1).flatten());
        s.push(b'}');
        s
    };
    assert_eq!(
        normalize(&array(1 << 24), &opts()).unwrap().len(),
        50_331_648
    );
    let e = err(&array((1 << 24) + 1));
    assert_eq!(
        (e.code(), e.message()),
        ("XX000", "invalid memory alloc request size 1073741824")
    );
    assert_eq!(normalize(&object(1 << 23), &opts()).unwrap(), "{\"a\": 0}");
    let e = err(&object((1 << 23) + 1));
    assert_eq!(
        (e.code(), e.message()),
        ("XX000", "invalid memory alloc request size 1207959552")
    );
}
