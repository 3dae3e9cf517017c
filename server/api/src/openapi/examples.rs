//! Examples in the document: every operation's request and answer as a
//! real server gave them (`openapi/examples.json`, recorded by
//! `cargo xtask openapi examples` from the partners' TypeScript smoke
//! script against the test rig: rig tokens, rig wallets, secrets masked),
//! and the error envelope of every shared error response.

use serde_json::{json, Map, Value};

use crate::ErrorCode;

/// The recorded examples: operation id → `{request?, response, content_type}`.
const RECORDED: &str = include_str!("../../../../openapi/examples.json");

/// A message each error code's example carries (what the server says in
/// such a case).
fn message(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadRequest => {
            "the API key must travel in the x-api-key header, never in the URL"
        }
        ErrorCode::Unauthorized => "no API key: send one in the x-api-key header",
        ErrorCode::PaymentRequired => "the free plan's 1,000 requests of this month are used up",
        ErrorCode::Forbidden => "this key lacks the wallet:read scope",
        ErrorCode::PremiumRequired => "wallet analysis needs the Pro or Pro+ plan",
        ErrorCode::NotFound => "no token at 0x6B175474E89094C44Da98b954EedeAC495271d0F on eth",
        ErrorCode::Conflict => "a key named \"ci\" exists already",
        ErrorCode::ValidationError => {
            "address: \"0x1234\" must be 0x followed by 40 hexadecimal digits"
        }
        ErrorCode::RateLimited => {
            "60 requests a minute on the free plan: retry after the time in Retry-After"
        }
        ErrorCode::InternalError => "an unexpected error; the request id is in x-request-id",
        ErrorCode::UpstreamError => "the eth node answered an error: execution reverted",
        ErrorCode::UpstreamUnavailable => "the eth node did not answer within its deadline",
    }
}

/// The envelope of `code`, as a documented example.
pub(super) fn error_example(code: ErrorCode) -> Value {
    json!({
        "error": {
            "code": code.as_str(),
            "message": message(code),
            "docs_url": format!("http://127.0.0.1:8080/docs/errors#{}", code.anchor()),
        }
    })
}

/// Put the recorded examples on their operations.
pub(super) fn add_recorded(paths: &mut Map<String, Value>) {
    let recorded: Map<String, Value> =
        serde_json::from_str(RECORDED).expect("openapi/examples.json is a JSON object");
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for operation in item.values_mut() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            let Some(example) = recorded.get(id) else {
                continue;
            };
            if let Some(request) = example.get("request") {
                if let Some(content) = operation
                    .pointer_mut("/requestBody/content/application~1json")
                    .and_then(Value::as_object_mut)
                {
                    content.insert("example".into(), request.clone());
                }
            }
            let Some(responses) = operation["responses"].as_object_mut() else {
                continue;
            };
            let status = ["200", "201", "202"]
                .into_iter()
                .find(|status| responses.contains_key(*status));
            let Some(contents) = status
                .and_then(|status| responses.get_mut(status))
                .and_then(|r| r.get_mut("content"))
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            for content in contents.values_mut().filter_map(Value::as_object_mut) {
                content.insert("example".into(), example["response"].clone());
            }
        }
    }
}
