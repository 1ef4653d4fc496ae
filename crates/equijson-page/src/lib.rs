//! The reviewers' page's WebAssembly binding, as a library: a small cdylib crate of yours
//! turns it into the binding of a page for your DTOs with one macro, [`bind!`].
//!
//! `my-page/src/lib.rs` (`crate-type = ["cdylib"]`), built into a static folder by
//! `web/build.mjs --binding my-page --out DIR`, is one line (see [`bind!`]):
//! `equijson_page::bind!(bin = "my-service"; my_service::AuditEvent, my_service::Settings);`
//!
//! Every function JavaScript calls is exported from here (wasm-bindgen exports of a
//! dependency reach the cdylib that links it); the macro adds the module's start function,
//! which installs the [`Binding`]. JavaScript calls `await init()` once (wasm-bindgen's
//! generated loader), then these functions. Results that have structure are returned as
//! JSON text for `JSON.parse`.

#![forbid(unsafe_code)]

mod bind;
mod dtos;
mod runs;
mod text;

pub use bind::{BindError, Binding, bound, install};
pub use dtos::{analyze, decode, default_dto, dtos, replay_command};
pub use runs::{PropsRunner, case_texts, props};
pub use text::{
    canonical_result, canonicalize, canonicalize_bytes, jsonb_result, serde_json_numbers,
};

/// What [`bind!`] expands to refers to (so your page crate needs no dependency of its own
/// on wasm-bindgen or equijson-check).
#[doc(hidden)]
pub mod __private {
    pub use equijson_check;
    pub use wasm_bindgen;
}

/// Makes this cdylib the binding of a reviewers' page for your DTOs: the module's start
/// function installs them (types implementing `equijson_check::dto::Dto`).
///
/// ```
/// mod my_service {
///     #[derive(serde::Serialize, serde::Deserialize)]
///     pub struct AuditEvent { pub id: String, pub latency_ms: f64 }
///     impl equijson_check::dto::Dto for AuditEvent {}
///
///     #[derive(serde::Serialize, serde::Deserialize)]
///     pub struct Settings { pub tenant: String }
///     impl equijson_check::dto::Dto for Settings {}
/// }
///
/// // The page shows `my-service props --seed S --cases N --dto NAME` as the native replay.
/// equijson_page::bind!(bin = "my-service"; my_service::AuditEvent, my_service::Settings);
/// # fn main() {
/// # __equijson_page_start().unwrap();
/// # let names: Vec<_> = equijson_page::bound().unwrap().dtos().iter().map(|d| d.name).collect();
/// # assert_eq!(names, ["AuditEvent", "Settings"]);
/// # }
/// ```
///
/// The other forms: `bind!(A, B)` (the replay shown is `equijson props ...`) and
/// `bind!(binding = expr)` with any [`Binding`], e.g. `Binding::catalogue()` (the project's
/// own page, `crates/equijson-catalogue-page`).
///
/// Without `bin`, the command shown is `equijson`, which replays only the built-in
/// catalogue: name the binary you build with `equijson_cli::main_with`. A binding with no
/// DTO, two DTOs of one name, or a second `bind!` makes the page's `init()` throw with the
/// reason.
#[macro_export]
macro_rules! bind {
    (binding = $binding:expr $(,)?) => {
        /// Installs this page's DTOs when the module starts (made by `equijson_page::bind!`).
        ///
        /// # Errors
        /// A JS `Error` for a binding with no DTO or two DTOs of one name.
        #[$crate::__private::wasm_bindgen::prelude::wasm_bindgen(
            start,
            wasm_bindgen = $crate::__private::wasm_bindgen
        )]
        pub fn __equijson_page_start()
        -> ::core::result::Result<(), $crate::__private::wasm_bindgen::JsError> {
            $crate::install($binding)
                .map_err(|e| $crate::__private::wasm_bindgen::JsError::new(&e.to_string()))
        }
    };
    (bin = $bin:literal; $($dto:ty),+ $(,)?) => {
        $crate::bind!(binding = $crate::Binding::new($bin)$(.dto::<$dto>())+);
    };
    ($($dto:ty),+ $(,)?) => {
        $crate::bind!(bin = "equijson"; $($dto),+);
    };
}
