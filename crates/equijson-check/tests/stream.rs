//! The streaming canonicalizer and validator against the tape (`Document`): same bytes, same
//! errors (kind and offset), on generated documents, on mutations of them, and on the
//! pathological nesting that makes the streaming writer fall back to the tape.
#![allow(clippy::unwrap_used, reason = "test code")]

use equijson::{Canonicalizer, Document, Options};
use equijson_check::generate::{Gen, Style};

#[path = "../../equijson/tests/shared/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

/// Canonicalize, validate and the tape agree on `input`: output or error (kind and offset).
fn agree(c: &mut Canonicalizer, input: &[u8]) {
    let tape = Document::parse_with(input, c.options()).map(|d| d.to_canonical_vec());
    let mut out = b"prefix".to_vec();
    let streamed = c
        .canonicalize_into(input, &mut out)
        .map(|()| out[6..].to_vec());
    let validated = c.validate(input);
    let show = String::from_utf8_lossy(input);
    match (&tape, &streamed) {
        (Ok(t), Ok(s)) => {
            assert_eq!(t, s, "{show}");
            assert!(validated.is_ok(), "{show}");
        }
        (Err(t), Err(s)) => {
            assert_eq!(t.kind(), s.kind(), "{show}");
            assert_eq!(t.offset(), s.offset(), "{show}");
            assert_eq!(out, b"prefix", "output left as it was on error");
            let v = validated.unwrap_err();
            assert_eq!(t.kind(), v.kind(), "{show}");
            assert_eq!(t.offset(), v.offset(), "{show}");
        }
        _ => panic!("{show}: tape {tape:?}, stream {streamed:?}"),
    }
}

#[test]
fn stream_matches_tape_on_generated_documents_and_mutations() {
    let mut c = Canonicalizer::new(Options::default());
    for case in 0..3000u64 {
        let mut g = Gen::for_case(7, case, 6);
        let doc = g.json(4);
        let text = doc.render(Style::Seeded(case));
        agree(&mut c, text.as_bytes());
        // Mutations: a byte dropped, a byte changed, a member duplicated.
        let bytes = text.as_bytes();
        if !bytes.is_empty() {
            let at = g.rng().index(bytes.len());
            let mut dropped = bytes.to_vec();
            dropped.remove(at);
            agree(&mut c, &dropped);
            let mut changed = bytes.to_vec();
            changed[at] = b"{}[]\",:1e-\\ a"[g.rng().index(13)];
            agree(&mut c, &changed);
        }
        if let Some(colon) = text.find("\":") {
            if let Some(open) = text[..colon].rfind("{\"") {
                let member_end = text[colon..].find([',', '}']).map(|e| colon + e);
                if let Some(end) = member_end {
                    let member = &text[open + 1..end];
                    let dup = format!("{}{member},{}", &text[..=open], &text[open + 1..]);
                    agree(&mut c, dup.as_bytes());
                }
            }
        }
    }
}

#[test]
fn duplicates_in_outer_and_inner_objects_report_the_first() {
    // (text, the first duplicate in document order: its name, the byte offset of the later
    // occurrence's opening quote, and that member's JSON pointer). The streaming writer sorts
    // and checks an object when it closes, so an inner object's duplicate is found before an
    // outer one's: these rows hold it to the document order that the tape reports.
    let table: [(&str, &str, usize, &str); 8] = [
        (r#"{"a":1,"a":2,"b":{"c":1,"c":2}}"#, "a", 7, "/a"),
        (r#"{"b":{"c":1,"c":2},"a":1,"a":2}"#, "c", 12, "/b/c"),
        (r#"{"a":1,"a":[{"x":1,"x":2}]}"#, "a", 7, "/a"),
        (r#"{"a":[{"x":1,"x":2}],"a":1}"#, "x", 13, "/a/0/x"),
        (r#"[{"z":1,"y":2,"z":3},{"a":1,"a":1}]"#, "z", 14, "/0/z"),
        (r#"{"a":1,"a":2,"b":[1,}"#, "a", 7, "/a"),
        (r#"{"b":1,"a":2,"b":[1,2]}"#, "b", 13, "/b"),
        (
            r#"{"b":{"d":{"e":1,"e":2},"d":3},"b":4}"#,
            "e",
            17,
            "/b/d/e",
        ),
    ];
    let mut c = Canonicalizer::new(Options::default());
    for (text, name, offset, pointer) in table {
        assert_eq!(
            &text[offset..offset + name.len() + 2],
            format!("\"{name}\"")
        );
        agree(&mut c, text.as_bytes());
        let streamed = c.canonicalize(text.as_bytes()).unwrap_err();
        let validated = c.validate(text.as_bytes()).unwrap_err();
        for e in [&streamed, &validated] {
            assert_eq!(
                e.kind(),
                &equijson::ErrorKind::DuplicateKey(name.to_owned()),
                "{text}"
            );
            assert_eq!(e.offset(), Some(offset), "{text}");
            assert_eq!(e.member_pointer(), Some(pointer), "{text}");
        }
    }
}

#[test]
fn unordered_objects_nested_deep_fall_back_to_the_tape() {
    // Every level out of order: in place, each level would move everything inside it again.
    let depth = 5000;
    let mut text = String::new();
    for _ in 0..depth {
        text.push_str(r#"{"b":"#);
    }
    text.push('1');
    for _ in 0..depth {
        text.push_str(r#","a":[1,2,3,4,5,6,7,8,9,10]}"#);
    }
    let mut c = Canonicalizer::new(Options::default());
    agree(&mut c, text.as_bytes());
    let out = c.canonicalize(text.as_bytes()).unwrap();
    assert!(out.starts_with(br#"{"a":[1,2,3,4,5,6,7,8,9,10],"b":{"a":"#));
}

#[test]
fn the_largest_member_moves_in_place() {
    let big = format!("[{}1]", "1,".repeat(100_000));
    let text = format!(r#"{{"z":1,"m":{big},"b":{{"y":1,"x":2}},"a":"s"}}"#);
    let mut c = Canonicalizer::new(Options::default());
    agree(&mut c, text.as_bytes());
    let out = c.canonicalize(text.as_bytes()).unwrap();
    assert_eq!(
        out,
        format!(r#"{{"a":"s","b":{{"x":2,"y":1}},"m":{big},"z":1}}"#).as_bytes()
    );
}

#[test]
fn large_objects_reorder_like_the_tape() {
    // Objects past the small-object path (64 KiB of output): many members in shuffled
    // order, one much larger than the rest, values that are unordered objects themselves.
    let mut c = Canonicalizer::new(Options::default());
    let mut g = Gen::for_case(11, 0, 4);
    for (case, big_at) in [0usize, 1500, 2999].into_iter().enumerate() {
        let mut members: Vec<String> = (0..3000)
            .map(|i| {
                let name: String = (0..=g.rng().index(6)).map(|_| g.char()).collect();
                let name = format!("{name}{i}");
                let value = if i == big_at {
                    format!("[{}0]", "12345,".repeat(20_000))
                } else {
                    format!(r#"{{"z":{i},"a":"{}"}}"#, "é".repeat(g.rng().index(8)))
                };
                format!("{}:{value}", serde_json::to_string(&name).unwrap())
            })
            .collect();
        // Shuffle deterministically.
        for i in (1..members.len()).rev() {
            let j = g.rng().index(i + 1);
            members.swap(i, j);
        }
        let text = format!("{{{}}}", members.join(","));
        assert!(text.len() > 100_000, "case {case}");
        agree(&mut c, text.as_bytes());
        // And with a duplicate name far from its first occurrence.
        let dup = format!("{{{},{}}}", members.join(","), members[7]);
        agree(&mut c, dup.as_bytes());
    }
}

/// Arrays of records with repeated names, where the order found for one object is reused
/// for the next with the same names: against the tape, with look-alikes that must miss (the
/// same count and name bytes split differently, one name changed, a duplicate name, names
/// in order then out of order), and the cache kept across documents.
#[test]
fn repeated_shapes_reorder_like_the_tape() {
    let alphabet = ["a", "b", "z", "é", "\u{e000}", "😀", "_", "0"];
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut next = move |n: usize| r.below(n);
    let mut c = Canonicalizer::new(Options::default());
    for _ in 0..400 {
        let count = 1 + next(40);
        let mut names: Vec<String> = (0..count)
            .map(|_| {
                (0..=next(5))
                    .map(|_| alphabet[next(alphabet.len())])
                    .collect()
            })
            .collect();
        if next(4) == 0 {
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        }
        let mut records = Vec::new();
        for r in 0..=next(6) {
            let mut these = names.clone();
            match next(6) {
                // One name changed, keeping the byte count: same slot, must not match.
                0 => {
                    let i = next(count);
                    these[i] = these[i].chars().rev().collect::<String>().replace('a', "b");
                }
                // The same bytes split differently.
                1 if count >= 2 => {
                    let i = next(count - 1);
                    if let Some(c) = these[i + 1].chars().next() {
                        these[i].push(c);
                        these[i + 1].remove(0);
                    }
                }
                // A duplicate name (an error, at the later one).
                2 if count >= 2 && r > 0 => {
                    let i = next(count - 1);
                    these[i + 1] = these[i].clone();
                }
                _ => {}
            }
            let members: Vec<String> = these
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let value = if i % 7 == 3 {
                        // Nested: the same names again one level down.
                        let inner: Vec<String> =
                            these.iter().map(|n| format!("\"{n}\":{r}")).collect();
                        format!("{{{}}}", inner.join(","))
                    } else {
                        format!("[{r},\"{i}\"]")
                    };
                    format!("\"{n}\":{value}")
                })
                .collect();
            records.push(format!("{{{}}}", members.join(",")));
        }
        agree(&mut c, format!("[{}]", records.join(",")).as_bytes());
    }
}
