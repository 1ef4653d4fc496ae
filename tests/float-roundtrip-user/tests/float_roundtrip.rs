//! Under `float_roundtrip` the probe reports it, and the numbers a default build misreads
//! decode to their correctly rounded doubles: no `float-misread` finding.

use equijson_check::decode::{Class, PROBES, Verdict, check, misread, serde_json_numbers};
use float_roundtrip_user::Measure;

#[test]
fn the_probe_reports_float_roundtrip() {
    let mode = serde_json_numbers();
    assert!(mode.float_roundtrip, "{mode}");
    assert_eq!(mode.describe(), "float_roundtrip (correctly rounded)");
}

#[test]
fn no_float_misread_under_float_roundtrip() {
    for n in PROBES.into_iter().chain(["0.1", "5e-324", "1.7976931348623157e308"]) {
        assert_eq!(misread(n), None, "{n}");
        let input = format!(r#"{{"a":{n}}}"#);
        let report = check::<Measure>(input.as_bytes(), &[]);
        assert!(
            report.findings.iter().all(|f| f.class != Class::FloatMisread),
            "{n}: {report:?}"
        );
        assert_eq!(report.verdict(), Verdict::Equivalent, "{n}: {report:?}");
    }
}
