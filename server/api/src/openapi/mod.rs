//! The published OpenAPI document.
//!
//! It is generated from the trait's stub description, then passes through
//! exactly one post-processing step, [`add_what_dropshot_cannot_express`].

use serde_json::{json, Value};

use crate::risk_intel_api_mod;

mod examples;
pub mod precise;
mod webhooks;

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
    let description =
        risk_intel_api_mod::stub_api_description().expect("the API description is valid");
    let mut openapi = description.openapi(OPENAPI_TITLE, OPENAPI_VERSION);
    openapi
        .description(DESCRIPTION)
        .license("Apache-2.0", "https://www.apache.org/licenses/LICENSE-2.0");
    let mut document = openapi.json().expect("the OpenAPI document serialises");
    add_what_dropshot_cannot_express(&mut document);
    let mut text = serde_json::to_string_pretty(&document).expect("JSON serialises");
    text.push('\n');
    text
}

/// The one post-processing step, for what dropshot cannot express:
/// - a `servers` entry (the local default address);
/// - the `apiKey` security scheme (header `x-api-key`), applied to every
///   operation except the health check;
/// - the rate-limit and `Retry-After` headers on the shared error response;
/// - the query form of token analysis: the router holds it as
///   `/v1/token/{chain}` (a literal `analyze` cannot sit beside the
///   `{chain}` variable), so it is published as `/v1/token/analyze` with
///   required `chain` and `address` query parameters, as the handler reads
///   them;
/// - the badge's `image/svg+xml` content type, for its errors too;
/// - the conditional answers of an analysis's views (`ETag`,
///   `Cache-Control`, 304 on `If-None-Match`);
/// - the requests a webhook receives, as callbacks of the operation that
///   subscribes it, and the bounds of its filters ([`webhooks`]);
/// - every operation's recorded request and answer, and each error
///   response's envelope ([`examples`]);
/// - what makes the document as precise as the server ([`precise`]).
fn add_what_dropshot_cannot_express(document: &mut Value) {
    document["servers"] = json!([{
        "url": "http://127.0.0.1:8080",
        "description": "A local instance as `riskintel serve` starts it; replace with your deployment's address."
    }]);
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
        let mut headers = rate_limit_headers();
        headers["X-RateLimit-Limit"] = header_doc(
            "Maximum requests allowed in the current one-minute window (authenticated requests; \
             for failed authentication, the client IP's limit).",
        );
        headers["Retry-After"] =
            header_doc("Seconds to wait before retrying; sent with 429 and 503.");
        error["headers"] = headers;
    }
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        if let Some(mut item) = paths.remove("/v1/token/{chain}") {
            if let Some(params) = item
                .pointer_mut("/get/parameters")
                .and_then(Value::as_array_mut)
            {
                params.retain(|p| p["in"] != "path");
                params.splice(
                    0..0,
                    [
                        query_param("chain", "Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`."),
                        query_param("address", "Token address (0x-prefixed hex on EVM chains, base58 on `sol`)."),
                    ],
                );
            }
            paths.insert("/v1/token/analyze".to_string(), item);
        }
        if let Some(responses) = paths
            .get_mut("/v1/token/{chain}/{address}/badge")
            .and_then(|item| item.pointer_mut("/get/responses"))
        {
            let svg = json!({ "image/svg+xml": { "schema": { "type": "string" } } });
            responses["200"]["content"] = svg.clone();
            responses["200"]["headers"] = rate_limit_headers();
            // Errors too are badges, so a page embedding one never shows a broken image.
            let mut headers = rate_limit_headers();
            headers["Retry-After"] =
                header_doc("Seconds to wait before retrying; sent with 429 and 503.");
            for status in ["4XX", "5XX"] {
                responses[status] = json!({
                    "description": "An error, as a grey badge saying what went wrong (`not a token`, `bad address`, `no access`, `over limit`, `unavailable`) with the error's message as its title.",
                    "content": svg.clone(),
                    "headers": headers.clone(),
                });
            }
        }
        // The views of an analysis are conditional: ETag, Cache-Control, 304.
        for view in [
            "/v1/token/analyze",
            "/v1/token/{chain}/{address}/analyze",
            "/v1/token/{chain}/{address}/meta",
            "/v1/token/{chain}/{address}/explanation",
            "/v1/token/{chain}/{address}/badge",
        ] {
            let Some(get) = paths.get_mut(view).and_then(|item| item.get_mut("get")) else {
                continue;
            };
            let description = get["description"].as_str().unwrap_or_default().to_string();
            get["description"] = json!(format!(
                "{description}\n\nConditional: a success carries an `ETag` (from the analysis and \
                 this view) and `Cache-Control: private, max-age=<seconds the analysis stays \
                 cached>`; a request whose `If-None-Match` names the ETag is answered \
                 304 Not Modified, with no body, still counted and with the rate-limit headers."
            )
            .trim_start()
            .to_string());
            if let Some(headers) = get.pointer_mut("/responses/200/headers") {
                headers["ETag"] = header_doc("The entity tag of this view of the analysis.");
                headers["Cache-Control"] = header_doc(
                    "`private, max-age=<seconds the analysis stays cached>` (0 once stale).",
                );
            }
        }
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (_, operation) in item.iter_mut() {
                operation["security"] = if path == "/v1/health" {
                    json!([])
                } else {
                    json!([{ "apiKey": [] }])
                };
            }
        }
    }
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        webhooks::describe_deliveries(paths);
        examples::add_recorded(paths);
    }
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        webhooks::add_event_schema(schemas);
        webhooks::precise_schemas(schemas);
    }
    precise::make_precise(document);
}

fn rate_limit_headers() -> Value {
    json!({
        "X-RateLimit-Limit": header_doc("Maximum requests allowed in the current one-minute window."),
        "X-RateLimit-Remaining": header_doc("Requests left in the current window."),
        "X-RateLimit-Reset": header_doc("Unix time (seconds) at which the current window ends."),
    })
}

fn query_param(name: &str, description: &str) -> Value {
    json!({ "in": "query", "name": name, "description": description, "required": true, "schema": { "type": "string" } })
}

fn header_doc(description: &str) -> Value {
    json!({ "description": description, "schema": { "type": "string" } })
}
