//! Canonical forms and jsonb predictions of one text: what the page's playground and its
//! oracles ask of the core, independent of the bound DTOs.

use wasm_bindgen::prelude::*;

/// The RFC 8785 canonical form of a JSON text.
///
/// A JavaScript string may hold unpaired surrogates, which converting it to UTF-8 would
/// silently replace with U+FFFD; such a string is rejected instead, like an unpaired
/// surrogate escape in the text.
///
/// # Errors
/// A JS `Error` whose message is `LINE:COL: what` for invalid input.
#[wasm_bindgen]
pub fn canonicalize(text: &js_sys::JsString) -> Result<String, JsError> {
    let text = utf8(text)?;
    let bytes =
        equijson::canonicalize(text.as_bytes()).map_err(|e| JsError::new(&e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| JsError::new(&e.to_string()))
}

/// The string as UTF-8, refusing unpaired surrogates instead of replacing them.
pub(crate) fn utf8(text: &js_sys::JsString) -> Result<String, JsError> {
    if !text.is_valid_utf16() {
        let units: Vec<u16> = text.iter().collect();
        let at = char::decode_utf16(units.iter().copied())
            .take_while(Result::is_ok)
            .map(|c| c.map_or(1, char::len_utf16))
            .sum::<usize>();
        return Err(JsError::new(&format!(
            "unpaired surrogate U+{:04X} at UTF-16 index {at} of the string",
            units.get(at).copied().unwrap_or(0)
        )));
    }
    Ok(String::from(text))
}

/// The RFC 8785 canonical form of JSON given as UTF-8 bytes (a `Uint8Array`).
///
/// # Errors
/// A JS `Error` whose message is `LINE:COL: what` for invalid input.
#[wasm_bindgen(js_name = canonicalizeBytes)]
pub fn canonicalize_bytes(bytes: &[u8]) -> Result<Vec<u8>, JsError> {
    equijson::canonicalize(bytes).map_err(|e| JsError::new(&e.to_string()))
}

/// The canonical form of `text` or why there is none, as JSON text:
/// `{"ok":"..."}` or `{"error":{"kind","message","line","column","offset"}}`, where `kind`
/// is [`equijson::ErrorKind::name`] (`"DuplicateKey"`), the names the npm package uses.
#[wasm_bindgen(js_name = canonicalResult)]
#[must_use]
pub fn canonical_result(text: &js_sys::JsString) -> String {
    canonical_json(text).to_string()
}

pub(crate) fn canonical_json(text: &js_sys::JsString) -> serde_json::Value {
    let Ok(utf8) = utf8(text) else {
        return serde_json::json!({ "error": {
            "kind": equijson::ErrorKind::LoneSurrogate(0xD800).name(),
            "message": "the string holds an unpaired surrogate (not valid Unicode text)",
        }});
    };
    match equijson::canonicalize(utf8.as_bytes()) {
        Ok(c) => serde_json::json!({ "ok": String::from_utf8_lossy(&c) }),
        Err(e) => serde_json::json!({ "error": {
            "kind": e.kind().name(),
            "message": e.message(),
            "line": e.line(),
            "column": e.column(),
            "offset": e.offset(),
        }}),
    }
}

/// What PostgreSQL prints for `text::jsonb::text`, predicted by the core's jsonb model, as
/// JSON text: `{"ok":"..."}` or `{"error":{"code","message","detail","line","column"}}`.
#[wasm_bindgen(js_name = jsonbResult)]
#[must_use]
pub fn jsonb_result(text: &js_sys::JsString) -> String {
    jsonb_json(text).to_string()
}

pub(crate) fn jsonb_json(text: &js_sys::JsString) -> serde_json::Value {
    let Ok(utf8) = utf8(text) else {
        return serde_json::json!({ "error": {
            "code": "22P02",
            "message": "the string holds an unpaired surrogate (not valid Unicode text)",
        }});
    };
    let options = equijson_check::jsonb::JsonbOptions::default();
    match equijson_check::jsonb::normalize(utf8.as_bytes(), &options) {
        Ok(t) => serde_json::json!({ "ok": t }),
        Err(e) => {
            let (line, column) = e
                .offset()
                .map(|o| equijson::line_column(utf8.as_bytes(), o))
                .unzip();
            serde_json::json!({ "error": {
                "code": e.code(),
                "message": e.message(),
                "detail": e.detail(),
                "line": line,
                "column": column,
            }})
        }
    }
}

/// How this module's `serde_json` reads numbers, probed at run time (the decode paths
/// run it): `default (fast, not correctly rounded)` or `float_roundtrip (correctly rounded)`.
#[wasm_bindgen(js_name = serdeJsonNumbers)]
#[must_use]
pub fn serde_json_numbers() -> String {
    equijson_check::decode::serde_json_numbers().describe()
}
