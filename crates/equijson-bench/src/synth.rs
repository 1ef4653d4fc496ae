//! Deterministic large inputs for the memory, JSON Lines and CLI benchmarks.

use std::fmt::Write as _;

/// A small xorshift generator: the inputs must be the same on every run.
#[derive(Debug, Clone)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from a non-zero seed.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `[1,27,3,...]`: an array of integers below 100, about `size` bytes.
#[must_use]
pub fn small_integers(size: usize) -> Vec<u8> {
    let mut r = Xorshift::new(1);
    let mut out = Vec::with_capacity(size + 8);
    out.push(b'[');
    while out.len() < size {
        if out.len() > 1 {
            out.push(b',');
        }
        let n = r.below(100);
        if n >= 10 {
            out.push(b'0' + (n / 10) as u8);
        }
        out.push(b'0' + (n % 10) as u8);
    }
    out.push(b']');
    out
}

/// `[1e20,1e20,...]`: about `size` bytes, whose canonical form is 4.4 times longer.
#[must_use]
pub fn big_exponents(size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 8);
    out.push(b'[');
    while out.len() < size {
        if out.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(b"1e20");
    }
    out.push(b']');
    out
}

/// A realistic document of about `size` bytes: an array repeating the given corpus
/// documents (tweets, a catalogue, a `GeoJSON` map), pretty-printed as they come.
#[must_use]
pub fn realistic(corpus: &[&[u8]], size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + corpus.iter().map(|c| c.len()).max().unwrap_or(0));
    out.push(b'[');
    let mut i = 0;
    while out.len() < size && !corpus.is_empty() {
        if out.len() > 1 {
            out.extend_from_slice(b",\n");
        }
        out.extend_from_slice(corpus[i % corpus.len()]);
        i += 1;
    }
    out.push(b']');
    out
}

/// One JSON Lines record of about 300 bytes: an event with members out of order, nested
/// objects, strings with escapes and non-ASCII text, integers and decimals.
pub fn event_line(r: &mut Xorshift, out: &mut String) {
    const WORDS: [&str; 8] = [
        "alpha",
        "Zürich",
        "größe",
        "naïve",
        "δέλτα",
        "quote\\\"d",
        "tab\\t",
        "plain",
    ];
    let id = r.next_u64() % 10_000_000_000;
    let user = r.below(100_000);
    let amount = r.below(1_000_000);
    let _ = write!(
        out,
        r#"{{"type":"payment.captured","id":"evt_{id:010}","created":{},"livemode":{},"data":{{"object":{{"id":"pi_{user}","amount":{amount},"currency":"eur","fee":{}.{:02},"customer":{{"name":"{} {}","email":"user{user}@example.com","tags":["{}","{}"]}},"metadata":{{"order":"{}","note":null}}}}}},"api_version":"2024-06-20"}}"#,
        1_700_000_000 + r.below(100_000_000),
        r.below(2) == 1,
        r.below(1000),
        r.below(100),
        WORDS[r.below(8) as usize],
        WORDS[r.below(8) as usize],
        WORDS[r.below(8) as usize],
        WORDS[r.below(8) as usize],
        r.below(1_000_000),
    );
    out.push('\n');
}

/// `count` JSON Lines records from [`event_line`].
#[must_use]
pub fn event_lines(count: usize) -> Vec<u8> {
    let mut r = Xorshift::new(42);
    let mut s = String::with_capacity(count * 320);
    for _ in 0..count {
        event_line(&mut r, &mut s);
    }
    s.into_bytes()
}
