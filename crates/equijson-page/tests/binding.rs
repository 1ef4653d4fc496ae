//! The binding a page is built for, natively: which DTOs it holds, which one a run without
//! `dto=` uses, and the errors that replace any fallback to another DTO.
#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed expectation should abort the test"
)]

use equijson_page::{BindError, Binding};

#[derive(serde::Serialize, serde::Deserialize)]
struct Order {
    id: u64,
}
impl equijson_check::dto::Dto for Order {}

#[derive(serde::Serialize, serde::Deserialize)]
struct Invoice {
    total: f64,
}
impl equijson_check::dto::Dto for Invoice {}

/// A second type whose default name (`Order`) is taken.
mod billing {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub(crate) struct Order {
        pub(crate) sku: String,
    }
    impl equijson_check::dto::Dto for Order {}
}

fn names(b: &Binding) -> Vec<&'static str> {
    b.dtos().iter().map(|d| d.name).collect()
}

#[test]
fn the_catalogue_binding_is_the_cli_catalogue_with_its_default() {
    let b = Binding::catalogue();
    let cli: Vec<&str> = equijson_check::dto::catalogue()
        .iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names(&b), cli);
    assert_eq!(b.command(), "equijson");
    // `equijson props` without --dto runs `value`; so does the page without dto=.
    let native = equijson_check::props::PropsConfig::new(0, 0, None).dto_name();
    assert_eq!(b.resolve(None).unwrap().name, native);
    assert_eq!(b.resolve(Some("")).unwrap().name, native);
    assert_eq!(b.resolve(Some("contact")).unwrap().name, "contact");
    b.validate().unwrap();
}

#[test]
fn a_user_binding_holds_its_dtos_in_order_the_first_by_default() {
    let b = Binding::new("my-service").dto::<Order>().dto::<Invoice>();
    assert_eq!(names(&b), ["Order", "Invoice"]);
    assert_eq!(b.command(), "my-service");
    assert_eq!(b.resolve(None).unwrap().name, "Order");
    // The spec run is the DTO's own: its check decodes into the type.
    let spec = b.find("Invoice").unwrap();
    assert!(std::ptr::eq(spec, equijson_check::dto::spec::<Invoice>()));
    assert_eq!(
        b.clone().default_dto("Invoice").resolve(None).unwrap().name,
        "Invoice"
    );
    b.validate().unwrap();
}

#[test]
fn an_unknown_dto_is_an_error_naming_the_known_ones_not_a_fallback() {
    let b = Binding::new("my-service").dto::<Order>().dto::<Invoice>();
    let e = b.find("contact").unwrap_err();
    assert_eq!(
        e,
        BindError::UnknownDto {
            name: "contact".into(),
            known: "Order, Invoice".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "unknown DTO \"contact\": this page knows Order, Invoice"
    );
    // The catalogue's names are not in a user's page.
    assert!(b.resolve(Some("value")).is_err());
}

#[test]
fn bindings_that_cannot_work_are_refused() {
    assert_eq!(Binding::new("x").validate(), Err(BindError::Empty));
    assert_eq!(
        Binding::new("x")
            .dto::<Order>()
            .dto::<billing::Order>()
            .validate(),
        Err(BindError::Duplicate("Order"))
    );
    let e = Binding::new("x")
        .dto::<Order>()
        .default_dto("Invoice")
        .validate()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the default DTO \"Invoice\" is not bound (bound: Order)"
    );
}

#[test]
fn a_module_installs_one_binding() {
    // The only test here that installs: the binding is per process, as per wasm module.
    assert_eq!(equijson_page::bound().unwrap_err(), BindError::Unbound);
    assert_eq!(
        equijson_page::install(Binding::new("x")),
        Err(BindError::Empty)
    );
    assert_eq!(equijson_page::bound().unwrap_err(), BindError::Unbound);
    equijson_page::install(Binding::new("my-service").dto::<Order>()).unwrap();
    assert_eq!(names(equijson_page::bound().unwrap()), ["Order"]);
    assert_eq!(
        equijson_page::install(Binding::catalogue()),
        Err(BindError::AlreadyBound)
    );
    assert_eq!(names(equijson_page::bound().unwrap()), ["Order"]);
}
