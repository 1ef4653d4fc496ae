//! Error positions of the paths that decode another text than the input (the jsonb text,
//! the RFC 8785 form): `serde_json`'s `line L column C` points into that text, which a report
//! does not otherwise show, so the message names the text and quotes it around the place.

use super::PathResult;

/// The text the jsonb path decodes.
pub(crate) const JSONB_TEXT: &str = "PostgreSQL's jsonb text of the input";
/// The text the canonical path decodes.
pub(crate) const CANONICAL_TEXT: &str = "the input's RFC 8785 form";

/// Texts up to this many bytes are quoted whole.
const WHOLE: usize = 120;
/// Otherwise, this many bytes before the place and half as many after.
const BEFORE: usize = 48;

/// `result` of decoding `text`, named `what`: a failure's position located in `text`
/// (unless `text` is the input itself, which the report's positions refer to anyway).
pub(crate) fn in_text(result: PathResult, text: &[u8], input: &[u8], what: &str) -> PathResult {
    match result {
        PathResult::Failed(m) if text != input => PathResult::Failed(locate(&m, text, what)),
        other => other,
    }
}

/// `message` with `(line L column C of WHAT, N bytes: "…text⟨here⟩text…")` appended, when
/// it ends in `serde_json`'s `at line L column C`.
fn locate(message: &str, text: &[u8], what: &str) -> String {
    let Some((line, column)) = position(message) else {
        return message.to_owned();
    };
    let Some(at) = offset(text, line, column) else {
        return format!("{message} (in {what}, {} bytes)", text.len());
    };
    let (from, to) = if text.len() <= WHOLE {
        (0, text.len())
    } else {
        (at.saturating_sub(BEFORE), (at + BEFORE / 2).min(text.len()))
    };
    let piece = |a: usize, b: usize| {
        String::from_utf8_lossy(text.get(a..b).unwrap_or_default()).into_owned()
    };
    let excerpt = format!(
        "{}{}⟨here⟩{}{}",
        if from > 0 { "…" } else { "" },
        piece(from, at),
        piece(at, to),
        if to < text.len() { "…" } else { "" }
    );
    format!(
        "{message} (line {line} column {column} of {what}, which this path decodes; {} bytes, there: {excerpt:?})",
        text.len()
    )
}

/// `(line, column)` of a message ending in `at line L column C`.
fn position(message: &str) -> Option<(usize, usize)> {
    let rest = &message[message.rfind(" at line ")? + " at line ".len()..];
    let (line, column) = rest.split_once(" column ")?;
    Some((line.parse().ok()?, column.trim_end().parse().ok()?))
}

/// The byte offset `serde_json`'s `line`/`column` stand for (columns count bytes of the line
/// read so far), moved back to a character boundary.
fn offset(text: &[u8], line: usize, column: usize) -> Option<usize> {
    let start = if line <= 1 {
        0
    } else {
        text.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)?
            .0
            + 1
    };
    let mut at = (start + column).min(text.len());
    while at > start && text.get(at).is_some_and(|b| b & 0xC0 == 0x80) {
        at -= 1;
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::{locate, offset, position};

    #[test]
    fn positions_are_found_and_located() {
        assert_eq!(
            position("number out of range at line 1 column 461"),
            Some((1, 461))
        );
        assert_eq!(position("invalid type: null"), None);
        assert_eq!(offset(b"ab\ncd", 2, 1), Some(4));
        assert_eq!(offset(b"ab\ncd", 3, 1), None);
        // In the middle of a character: moved back to its start.
        assert_eq!(offset("é".as_bytes(), 1, 1), Some(0));
    }

    #[test]
    fn long_texts_are_quoted_around_the_place() {
        let text = format!("{{\"a\": 1{}}}", "0".repeat(400));
        let m = locate(
            "number out of range at line 1 column 407",
            text.as_bytes(),
            "X",
        );
        assert!(m.starts_with("number out of range at line 1 column 407 (line 1 column 407 of X, which this path decodes; 408 bytes, there: \"…"), "{m}");
        assert!(m.ends_with("0⟨here⟩}\")"), "{m}");
        let short = locate("expected value at line 1 column 2", b"[x]", "X");
        assert!(short.ends_with("there: \"[x⟨here⟩]\")"), "{short}");
    }
}
