//! An example service that keeps JSON documents: its DTOs, one decode function before and
//! after a refactor, and their equijson declarations, as a user of equijson writes them.

use std::collections::{BTreeMap, HashMap};

use equijson_check::decode::{Accept, Class, DecodePath};
use equijson_check::dto::{Dto, Refactor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An audit event as the service stores it; members it does not know are kept in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    /// Event id.
    pub id: String,
    /// The acting user, when there is one.
    pub actor: Option<u64>,
    /// What happened.
    pub action: Action,
    /// Labels; absent means none.
    #[serde(default)]
    pub tags: Vec<String>,
    /// How long the action took, in milliseconds.
    pub latency_ms: f64,
    /// Everything else, kept as it came.
    #[serde(flatten)]
    pub extra: HashMap<String, Value>,
}

/// What an audit event records, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// A login from an address.
    Login {
        /// The client's address.
        ip: String,
    },
    /// Money moved.
    Transfer {
        /// Amount in cents.
        amount_cents: u64,
        /// ISO 4217 code.
        currency: String,
    },
    /// A logout.
    Logout,
}

/// A tenant's settings document; unknown members are an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Tenant name.
    pub tenant: String,
    /// Per-feature limits.
    pub limits: BTreeMap<String, i64>,
    /// Storage quota in bytes (beyond 64 bits for the largest tenants).
    pub quota_bytes: u128,
    /// Days to keep events; the service default when absent.
    #[serde(default)]
    pub retention_days: Option<u32>,
}

/// A batch of audit events, as one jsonb array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AuditBatch(pub Vec<AuditEvent>);

/// The batch decoder as it was: through `serde_json::Value` (what `row.get::<_, Value>`
/// then `from_value` did).
///
/// # Errors
/// The document is not a batch of audit events.
pub fn decode_batch_before(bytes: &[u8]) -> Result<Vec<AuditEvent>, serde_json::Error> {
    let value: Value = serde_json::from_slice(bytes)?;
    serde_json::from_value(value)
}

/// The batch decoder after the refactor: typed, straight from the bytes.
///
/// # Errors
/// The document is not a batch of audit events.
pub fn decode_batch_after(bytes: &[u8]) -> Result<Vec<AuditEvent>, serde_json::Error> {
    serde_json::from_slice(bytes)
}

/// A recorded login event.
pub const LOGIN_EXAMPLE: &str = r#"{"id":"ev-1","actor":42,"action":{"type":"login","ip":"192.0.2.7"},"tags":["web"],"latency_ms":15.509858803567319,"trace":"00-4bf92f3577b34da6-01"}"#;
/// A recorded transfer event.
pub const TRANSFER_EXAMPLE: &str = r#"{"id":"ev-2","actor":null,"action":{"type":"transfer","amount_cents":125000,"currency":"EUR"},"latency_ms":1.0}"#;
/// A recorded settings document.
pub const SETTINGS_EXAMPLE: &str = r#"{"tenant":"acme","limits":{"exports":10,"users":250},"quota_bytes":36893488147419103232,"retention_days":30}"#;

impl Dto for AuditEvent {
    fn name() -> &'static str {
        "audit-event"
    }

    fn paths() -> &'static [DecodePath] {
        // The service reads the jsonb column's binary form straight into the type, and the
        // ingest API's request text.
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::ErrorSplit,
                only: &[DecodePath::JsonbWire],
                reason: "what jsonb refuses (\\u0000, numbers beyond numeric) is refused at ingest",
            },
            Accept {
                class: Class::FloatMisread,
                only: &[],
                reason: "latency_ms is a measurement: a misread last digit does not matter",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "a missing `tags` is stored back as [] and a missing `actor` as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[LOGIN_EXAMPLE, TRANSFER_EXAMPLE]
    }
}

impl Dto for Settings {
    fn name() -> &'static str {
        "settings"
    }

    fn paths() -> &'static [DecodePath] {
        &[DecodePath::Direct, DecodePath::JsonbWire]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::ErrorSplit,
                only: &[DecodePath::Direct],
                reason: "settings are read from jsonb, whose numeric turns 1e2 and -0 into \
                         integers; the text reader's stricter refusal is the admin API's validation",
            },
            Accept {
                class: Class::ErrorSplit,
                only: &[DecodePath::JsonbWire],
                reason: "settings come from a jsonb column: what jsonb refuses (\\u0000) never \
                         reaches the service",
            },
            Accept {
                class: Class::DuplicateName,
                only: &[],
                reason: "the admin API refuses a settings document with a repeated name",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "an absent retention_days is stored back as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[SETTINGS_EXAMPLE]
    }
}

impl Dto for AuditBatch {
    fn name() -> &'static str {
        "audit-batch"
    }

    fn paths() -> &'static [DecodePath] {
        // Only the refactor is under test here: BEFORE against AFTER.
        &[]
    }

    fn accepts() -> &'static [Accept] {
        &[
            Accept {
                class: Class::FloatMisread,
                only: &[],
                reason: "latency_ms is a measurement: a misread last digit does not matter",
            },
            Accept {
                class: Class::RoundTripLoss,
                only: &[],
                reason: "a missing `tags` is stored back as [] and a missing `actor` as null",
            },
        ]
    }

    fn examples() -> &'static [&'static str] {
        &[BATCH_EXAMPLE]
    }

    fn refactor() -> Option<Refactor<Self>> {
        Some(Refactor {
            before: |b| decode_batch_before(b).map(Self).map_err(|e| e.to_string()),
            after: |b| decode_batch_after(b).map(Self).map_err(|e| e.to_string()),
        })
    }
}

/// The two event examples as one batch.
pub const BATCH_EXAMPLE: &str = r#"[{"id":"ev-1","actor":42,"action":{"type":"login","ip":"192.0.2.7"},"tags":["web"],"latency_ms":15.509858803567319,"trace":"00-4bf92f3577b34da6-01"},{"id":"ev-2","actor":null,"action":{"type":"transfer","amount_cents":125000,"currency":"EUR"},"latency_ms":1.0}]"#;
