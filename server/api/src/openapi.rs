//! The published OpenAPI document.
//!
//! It is generated from the trait's stub description, then passes through
//! exactly one post-processing step, [`add_what_dropshot_cannot_express`].

use serde_json::{json, Value};

use crate::risk_intel_api_mod;

/// Title of the published document.
pub const OPENAPI_TITLE: &str = "Risk Intelligence Service API";
/// Version of the published interface.
pub const OPENAPI_VERSION: semver::Version = semver::Version::new(1, 0, 0);

const DESCRIPTION: &str = "Risk scores, explanations and badges for tokens on eight chains \
(eth, bsc, sol, base, arb, poly, avax, ftm), market intelligence, a risk-alert feed, \
billing status and API-key management.\n\n\
Every operation except `GET /v1/health` needs an API key in the `x-api-key` header; a key \
in the URL query string is refused with 400. Every authenticated response, success or \
error, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; \
429 and 503 answers also carry `Retry-After`. Every error body is the envelope \
`{\"error\": {\"code\", \"message\", \"docs_url\"}}`, except 404 and 405 for paths and \
methods the API does not have, which keep the HTTP framework's own body \
(`{\"request_id\", \"message\"}`).";

/// The OpenAPI document of the API, as published in `openapi/riskintel.json`.
pub fn openapi_document() -> String {
    let description = risk_intel_api_mod::stub_api_description()
        .expect("the API description is valid");
    let mut openapi = description.openapi(OPENAPI_TITLE, OPENAPI_VERSION);
    openapi.description(DESCRIPTION);
    let mut document = openapi.json().expect("the OpenAPI document serialises");
    add_what_dropshot_cannot_express(&mut document);
    let mut text = serde_json::to_string_pretty(&document).expect("JSON serialises");
    text.push('\n');
    text
}

/// The one post-processing step: dropshot has no way to declare an API-key
/// security scheme, nor headers on its shared error response. This adds
/// the `apiKey` scheme (header `x-api-key`), applies it to every operation
/// except the health check, and declares the rate-limit and `Retry-After`
/// headers on the error response.
fn add_what_dropshot_cannot_express(document: &mut Value) {
    let components = document
        .as_object_mut()
        .expect("document is an object")
        .entry("components")
        .or_insert_with(|| json!({}));
    components["securitySchemes"] = json!({
        "apiKey": {
            "type": "apiKey",
            "in": "header",
            "name": "x-api-key",
            "description": "An API key, `ri_live_<id>.<64 hex>`. Send it in this header only, never in the URL."
        }
    });
    if let Some(error) = components.pointer_mut("/responses/ApiError") {
        error["description"] = json!("An error, in the error envelope.");
        error["headers"] = json!({
            "X-RateLimit-Limit": header_doc("Maximum requests allowed in the current one-minute window (authenticated requests; for failed authentication, the client IP's limit)."),
            "X-RateLimit-Remaining": header_doc("Requests left in the current window."),
            "X-RateLimit-Reset": header_doc("Unix time (seconds) at which the current window ends."),
            "Retry-After": header_doc("Seconds to wait before retrying; sent with 429 and 503."),
        });
    }
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else { continue };
            for (_, operation) in item.iter_mut() {
                if path != "/v1/health" {
                    operation["security"] = json!([{ "apiKey": [] }]);
                }
            }
        }
    }
}

fn header_doc(description: &str) -> Value {
    json!({ "description": description, "schema": { "type": "string" } })
}
