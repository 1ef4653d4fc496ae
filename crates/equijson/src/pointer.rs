//! RFC 6901 JSON pointers: building and escaping reference tokens.

/// Appends `/token` to `pointer`, escaping `~` as `~0` and `/` as `~1`.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Splits a pointer into its unescaped reference tokens; `None` if it is malformed
/// (does not start with `/`, or has a `~` not followed by `0` or `1`).
#[must_use]
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|t| {
            let mut out = String::with_capacity(t.len());
            let mut chars = t.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => return None,
                    }
                } else {
                    out.push(c);
                }
            }
            Some(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        let mut p = String::new();
        push_token(&mut p, "a/b");
        push_token(&mut p, "m~n");
        push_token(&mut p, "");
        push_token(&mut p, "0");
        assert_eq!(p, "/a~1b/m~0n//0");
        assert_eq!(tokens(&p).unwrap(), ["a/b", "m~n", "", "0"]);
        assert_eq!(tokens(""), Some(vec![]));
        assert_eq!(tokens("a"), None);
        assert_eq!(tokens("/~2"), None);
        // `~01` is `~1` unescaped, not `/`.
        assert_eq!(tokens("/~01").unwrap(), ["~1"]);
    }
}
