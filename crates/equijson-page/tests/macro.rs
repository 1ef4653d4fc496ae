//! `bind!` in a crate of its own (this test binary stands for a user's page crate): its
//! start function installs the DTOs it names, with the replay command it names or
//! `equijson`.
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

#[derive(serde::Serialize, serde::Deserialize)]
struct Order {
    id: u64,
}
impl equijson_check::dto::Dto for Order {
    fn name() -> &'static str {
        "order"
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Invoice {
    total: f64,
}
impl equijson_check::dto::Dto for Invoice {}

equijson_page::bind!(Order, Invoice,);

#[test]
fn the_start_function_installs_the_named_dtos() {
    assert_eq!(
        equijson_page::bound().unwrap_err(),
        equijson_page::BindError::Unbound
    );
    // What the module's start runs in the browser, before any export is called.
    __equijson_page_start().unwrap();
    let b = equijson_page::bound().unwrap();
    let names: Vec<&str> = b.dtos().iter().map(|d| d.name).collect();
    assert_eq!(names, ["order", "Invoice"]);
    assert_eq!(b.command(), "equijson");
    assert_eq!(b.resolve(None).unwrap().name, "order");
    assert!(std::ptr::eq(
        b.find("Invoice").unwrap(),
        equijson_check::dto::spec::<Invoice>()
    ));
}
