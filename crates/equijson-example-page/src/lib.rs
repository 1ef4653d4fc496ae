//! The example service's reviewers' page: its three DTOs bound with one macro, replayed
//! natively with its own binary. Built with `just web-build-for crates/equijson-example-page`.

equijson_page::bind!(
    bin = "example-service";
    equijson_example_service::AuditEvent,
    equijson_example_service::Settings,
    equijson_example_service::AuditBatch,
);
