//! The binding of the project's own reviewers' page (`just web-build`): the built-in DTO
//! catalogue, replayed with `equijson props`. A page for your DTOs is the same one line
//! with your types (see `crates/equijson-example-page`).

equijson_page::bind!(binding = equijson_page::Binding::catalogue());
