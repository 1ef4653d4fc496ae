//! `drive-policy`: a file-sharing policy whose unknown keys must survive (flatten map).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{DtoSpec, text, tree};
use crate::decode::{Accept, check};
use crate::generate::{Gen, Json};

/// A drive policy; keys added by newer writers are kept in `extra` and written back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrivePolicy {
    /// Policy identifier.
    pub policy_id: String,
    /// Monotonic version.
    pub version: u32,
    /// Owning team or user.
    pub owner: String,
    /// Days before deletion; `null` keeps forever.
    pub retention_days: Option<u32>,
    /// Whether links may leave the organisation.
    pub allow_external_sharing: bool,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

const ACCEPTS: &[Accept] = &[];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "drive-policy",
    summary: "file-sharing policy that must keep unknown keys (serde flatten map)",
    accepts: ACCEPTS,
    check: |input| check::<DrivePolicy>(input, ACCEPTS),
    check_input: |input| crate::decode::check_input::<DrivePolicy>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| {
        crate::decode::check_input_paths::<DrivePolicy>(input, paths, ACCEPTS)
    },
    check_reference: |input| crate::decode::reference::check::<DrivePolicy>(input, ACCEPTS),
    generate,
    sample: r#"{"policy_id":"pol-finance-2026","version":7,"owner":"team:finance","retention_days":2555,"allow_external_sharing":false,"dlp":{"block":["iban","ssn"],"notify":"secops@example.com"},"labels":["confidential","€-reports"],"review_every_days":90}"#,
};

/// A policy document with a few keys the DTO does not declare.
pub(super) fn generate(g: &mut Gen) -> Json {
    let mut extra = BTreeMap::new();
    for _ in 0..g.length(0) {
        let key = format!("x_{}", text(g, 4));
        let value = match g.rng().below(5) {
            0 => serde_json::Value::from(g.rng().below(1 << 31)),
            1 => serde_json::Value::from(text(g, 8)),
            2 => serde_json::Value::from(g.rng().coin()),
            3 => serde_json::json!({ "enabled": g.rng().coin(), "level": g.rng().below(5) }),
            _ => serde_json::Value::from(vec![text(g, 3), text(g, 3)]),
        };
        extra.insert(key, value);
    }
    let policy = DrivePolicy {
        policy_id: format!("pol-{}", text(g, 8)),
        version: g.rng().below(1000) as u32,
        owner: text(g, 10),
        retention_days: g.rng().coin().then(|| g.rng().below(3650) as u32),
        allow_external_sharing: g.rng().coin(),
        extra,
    };
    tree(&policy)
}
