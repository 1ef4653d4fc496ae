//! `articles`: the body of a bulk insert, an array of article objects.

use serde::{Deserialize, Serialize};

use super::{DtoSpec, measure, text, tree};
use crate::decode::{Accept, check};
use crate::generate::{Gen, Json};

/// A bulk-insert request body.
pub type ArticleBatch = Vec<Article>;

/// One article.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Article {
    /// Row id (a sequence).
    pub id: u64,
    /// URL slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Body text.
    pub body: String,
    /// Tags.
    pub tags: Vec<String>,
    /// The author.
    pub author: ArticleAuthor,
    /// Publication time, RFC 3339 text; `null` for drafts.
    pub published_at: Option<String>,
    /// Word count.
    pub word_count: u32,
    /// Ranking score.
    pub score: f64,
}

/// An article's author.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArticleAuthor {
    /// Author id.
    pub id: u64,
    /// Display name.
    pub name: String,
}

const ACCEPTS: &[Accept] = &[];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "articles",
    summary: "bulk-insert body: an array of article objects",
    accepts: ACCEPTS,
    check: |input| check::<ArticleBatch>(input, ACCEPTS),
    check_input: |input| crate::decode::check_input::<ArticleBatch>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| {
        crate::decode::check_input_paths::<ArticleBatch>(input, paths, ACCEPTS)
    },
    check_reference: |input| crate::decode::reference::check::<ArticleBatch>(input, ACCEPTS),
    generate,
    sample: r#"[{"id":1001,"slug":"jcs-in-practice","title":"JCS in practice","body":"Canonical JSON: \"sorted\" keys, ECMAScript numbers.\n","tags":["json","rfc8785"],"author":{"id":7,"name":"Ana Lúcia"},"published_at":"2026-11-02T09:00:00Z","word_count":1834,"score":4.25},{"id":1002,"slug":"draft","title":"Draft ✍️","body":"","tags":[],"author":{"id":8,"name":"李雷"},"published_at":null,"word_count":0,"score":0.0}]"#,
};

/// An array of articles. Ids stay below 2^53, as database sequences do.
pub(super) fn generate(g: &mut Gen) -> Json {
    let n = g.length(0);
    let batch: ArticleBatch = (0..n)
        .map(|_| Article {
            id: g.rng().below(1 << 53),
            slug: text(g, 8),
            title: text(g, 12),
            body: text(g, 40),
            tags: (0..g.length(0)).map(|_| text(g, 6)).collect(),
            author: ArticleAuthor {
                id: g.rng().below(1 << 32),
                name: text(g, 10),
            },
            published_at: g
                .rng()
                .coin()
                .then(|| format!("2026-{:02}-01T00:00:00Z", 1 + g.rng().below(12))),
            word_count: g.rng().below(20_000) as u32,
            score: measure(g, 5.0).abs(),
        })
        .collect();
    tree(&batch)
}
