//! `contact`: a CRM contact row whose `email`, `phone` and `address` columns are JSONB arrays.

use serde::{Deserialize, Serialize};

use super::{DtoSpec, measure, text, tree};
use crate::decode::{Accept, Class, check};
use crate::generate::{Gen, Json};

/// A contact with its JSONB arrays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    /// UUID text.
    pub id: String,
    /// Name as shown.
    pub display_name: String,
    /// Email addresses (`[{"email":..,"type":"work","is_primary":true}]`).
    #[serde(default)]
    pub email: Vec<EmailAddress>,
    /// Phone numbers.
    #[serde(default)]
    pub phone: Vec<PhoneNumber>,
    /// Postal addresses.
    #[serde(default)]
    pub address: Vec<PostalAddress>,
    /// RFC 3339 timestamp text.
    pub updated_at: String,
}

/// What an address/number is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContactKind {
    /// Work.
    Work,
    /// Home.
    Home,
    /// Mobile.
    Mobile,
    /// Anything else.
    Other,
}

/// One entry of the `email` array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailAddress {
    /// The address.
    pub email: String,
    /// Its use.
    #[serde(rename = "type")]
    pub kind: ContactKind,
    /// Whether it is the preferred one.
    pub is_primary: bool,
}

/// One entry of the `phone` array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhoneNumber {
    /// E.164 text.
    pub number: String,
    /// Its use.
    #[serde(rename = "type")]
    pub kind: ContactKind,
    /// Whether it is the preferred one.
    pub is_primary: bool,
    /// Extension, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension: Option<String>,
}

/// One entry of the `address` array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostalAddress {
    /// Street and number.
    pub street: String,
    /// City.
    pub city: String,
    /// Postal code.
    pub postal_code: String,
    /// ISO 3166-1 alpha-2.
    pub country: String,
    /// Its use.
    #[serde(rename = "type")]
    pub kind: ContactKind,
    /// Whether it is the preferred one.
    pub is_primary: bool,
    /// Latitude, when geocoded.
    pub lat: Option<f64>,
    /// Longitude, when geocoded.
    pub lng: Option<f64>,
}

const ACCEPTS: &[Accept] = &[
    Accept {
        class: Class::RoundTripLoss,
        only: &[],
        reason: "the contact DTO ignores keys it does not know and fills in missing arrays as []",
    },
    Accept {
        class: Class::FloatMisread,
        only: &[],
        reason: "lat/lng are geocodes: a misread moves a point by less than a nanometre, and the service neither hashes nor compares them",
    },
    Accept {
        class: Class::DuplicateName,
        only: &[],
        reason: "legacy CRM rows repeat a member; the service reads them through serde_json::Value and jsonb, which both keep the last",
    },
];

pub(super) const SPEC: DtoSpec = DtoSpec {
    name: "contact",
    summary: "CRM contact row: email/phone/address JSONB arrays (unknown keys ignored)",
    accepts: ACCEPTS,
    check: |input| check::<Contact>(input, ACCEPTS),
    check_input: |input| crate::decode::check_input::<Contact>(input, ACCEPTS),
    paths: &crate::decode::DecodePath::ALL,
    check_paths: |input, paths| crate::decode::check_input_paths::<Contact>(input, paths, ACCEPTS),
    check_reference: |input| crate::decode::reference::check::<Contact>(input, ACCEPTS),
    generate,
    sample: r#"{"id":"0b5e2c1e-8f3a-4d7e-9a43-2f1f3c9d7a10","display_name":"Zoë Ångström","email":[{"email":"zoe@example.com","type":"work","is_primary":true},{"email":"z.a+home@example.org","type":"home","is_primary":false}],"phone":[{"number":"+46701234567","type":"mobile","is_primary":true}],"address":[{"street":"Drottninggatan 1","city":"Stockholm","postal_code":"111 51","country":"SE","type":"work","is_primary":true,"lat":59.3326,"lng":18.0649}],"updated_at":"2026-11-30T07:23:42Z"}"#,
};

fn kind(g: &mut Gen) -> ContactKind {
    [
        ContactKind::Work,
        ContactKind::Home,
        ContactKind::Mobile,
        ContactKind::Other,
    ][g.rng().index(4)]
}

fn uuid(g: &mut Gen) -> String {
    let a = g.rng().next_u64();
    let b = g.rng().next_u64();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xFFFF,
        a & 0xFFF,
        0x8000 | ((b >> 48) & 0x3FFF),
        b & 0xFFFF_FFFF_FFFF
    )
}

/// A contact document, sometimes with keys the DTO does not know.
pub(super) fn generate(g: &mut Gen) -> Json {
    let n = |g: &mut Gen| g.length(0);
    let email = (0..n(g))
        .map(|i| EmailAddress {
            email: format!("{}@example.com", text(g, 6)),
            kind: kind(g),
            is_primary: i == 0,
        })
        .collect();
    let phone = (0..n(g))
        .map(|i| PhoneNumber {
            number: format!("+{}", g.rng().range(10_000_000, 999_999_999_999)),
            kind: kind(g),
            is_primary: i == 0,
            extension: g.rng().coin().then(|| g.rng().below(10_000).to_string()),
        })
        .collect();
    let address = (0..n(g))
        .map(|i| PostalAddress {
            street: text(g, 12),
            city: text(g, 8),
            postal_code: g.rng().below(100_000).to_string(),
            country: ["SE", "DE", "JP", "BR", "US"][g.rng().index(5)].to_owned(),
            kind: kind(g),
            is_primary: i == 0,
            lat: g.rng().coin().then(|| measure(g, 90.0)),
            lng: g.rng().coin().then(|| measure(g, 180.0)),
        })
        .collect();
    let contact = Contact {
        id: uuid(g),
        display_name: text(g, 10),
        email,
        phone,
        address,
        updated_at: format!(
            "2026-{:02}-{:02}T{:02}:00:00Z",
            1 + g.rng().below(12),
            1 + g.rng().below(28),
            g.rng().below(24)
        ),
    };
    let mut doc = tree(&contact);
    if let Json::Object(members) = &mut doc {
        if g.rng().ratio(1, 4) {
            members.push((
                "legacy_crm_id".to_owned(),
                Json::Number(g.rng().below(1 << 40).to_string()),
            ));
        }
    }
    doc
}
