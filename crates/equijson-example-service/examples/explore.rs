use equijson_example_service::*;
fn main() {
    for (name, o) in [
        ("event", equijson::props::run_dto::<AuditEvent>(1, 300)),
        ("settings", equijson::props::run_dto::<Settings>(1, 300)),
        ("batch", equijson::props::run_dto::<AuditBatch>(1, 300)),
    ] {
        println!("== {name}: passed {} failed {} rejected {}", o.passed, o.failed, o.rejected);
        if let Some(f) = o.first_failure { println!("case {} {:?}\norig {}\nshrunk {}\n{}", f.case, f.property, f.original, f.shrunk, f.detail); }
    }
    println!("{:?}", equijson::generate::trace::shape_of::<Settings>());
    println!("{:?}", equijson::generate::trace::shape_of::<AuditEvent>());
}
