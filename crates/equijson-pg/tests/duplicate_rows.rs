//! Duplicate member names in a scanned `json` or `text` row: a `duplicate-name` finding with
//! the pointer of the later member, a divergence unless the DTO accepts them; an accepted
//! finding's description never says "divergent".
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed expectation should abort the test loudly"
)]

use equijson_pg::live::{ColumnKind, Describe, ScanReport, check_row};

#[test]
fn a_scanned_json_row_with_duplicates_diverges_unless_the_dto_declares_them() {
    let row = br#"{"id":"c1","display_name":"A","email":[{"email":"a@b","type":"work","is_primary":true,"type":"home"}],"updated_at":"2026-01-01T00:00:00Z"}"#;
    for kind in [ColumnKind::Json, ColumnKind::Text] {
        let value = equijson_check::dto::find("value").unwrap();
        let findings = check_row(kind, row, None, &value.check_input, Describe::Values);
        let dup = findings
            .iter()
            .find(|f| f.class == equijson_check::decode::Class::DuplicateName)
            .expect("a duplicate-name finding");
        assert!(!dup.accepted);
        assert_eq!(dup.pointer, "/email/0/type");
        let mut report = ScanReport::new("t", "c", "value");
        report.record("1", findings);
        assert_eq!(report.divergences, 1);

        // The contact DTO accepts them: every finding of the row is accepted, and no
        // description of an accepted finding says "divergent".
        let contact = equijson_check::dto::find("contact").unwrap();
        let findings = check_row(kind, row, None, &contact.check_input, Describe::Values);
        assert!(
            findings
                .iter()
                .any(|f| f.class == equijson_check::decode::Class::DuplicateName)
        );
        for f in &findings {
            assert!(f.accepted, "{f:?}");
            assert!(!f.description.contains("divergent"), "{f:?}");
        }
        let mut report = ScanReport::new("t", "c", "contact");
        report.record("1", findings);
        assert_eq!((report.divergences, report.accepted), (0, 1));
        assert!(
            !report.render().contains("divergent"),
            "{}",
            report.render()
        );
    }
}
