//! The part of the post-processing step that makes the document as precise
//! as the server: the chain ids as an enum, address and key-id patterns,
//! page-size bounds, the error statuses each operation can return, and
//! schemas every generator reads the same way.

use serde_json::{json, Map, Value};

use crate::operation::Operation;
use riskintel_types::ChainId;
use riskintel_types::ErrorCode;

/// The chain ids, in the order the service lists them ([`ChainId::ALL`]).
pub fn chain_ids() -> Vec<&'static str> {
    ChainId::ALL.iter().map(|c| c.id()).collect()
}

/// The largest page a list answers (dropshot's `page_max_nitems`).
pub const PAGE_MAX: u32 = 100;

/// A token or wallet address: 0x and 40 hex digits (EVM chains) or 32 to 44
/// base58 characters (`sol`).
pub const ADDRESS_PATTERN: &str = "^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$";

/// A key id: 12 of `[a-z0-9]`.
pub const KEY_ID_PATTERN: &str = "^[a-z0-9]{12}$";

/// A webhook subscription id: `wh_` and 12 of `[a-z0-9]`.
pub const WEBHOOK_ID_PATTERN: &str = "^wh_[a-z0-9]{12}$";

/// A webhook event id: `evt_`, the alert id, `ping` or `report`, `_` and 12 of `[a-z0-9]`.
pub const EVENT_ID_PATTERN: &str = "^evt_([0-9]{1,19}|ping|report)_[a-z0-9]{12}$";

/// Text a database can store: any characters but NUL.
pub const NO_NUL_PATTERN: &str = "^[^\\u0000]*$";

/// A report id: `rep_` and 12 of `[a-z0-9]`.
pub const REPORT_ID_PATTERN: &str = "^rep_[a-z0-9]{12}$";

/// A key name: 1 to 64 characters, no control characters, not beginning or
/// ending with white space.
pub const KEY_NAME_PATTERN: &str =
    "^[^\\s\\u0000-\\u001f\\u007f-\\u009f]([^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f])?$";

/// The error statuses of every authenticated operation: a malformed request
/// or a key in the URL, no valid key, the free quota used up, a missing
/// scope or plan, the rate limit, an internal error, the database not
/// answering in time.
const AUTHENTICATED: [u16; 7] = [400, 401, 402, 403, 429, 500, 503];

/// The error statuses `operation` can return beyond [`AUTHENTICATED`].
fn own_statuses(operation: Operation) -> &'static [u16] {
    use Operation as O;
    match operation {
        O::HealthGet => &[500],
        O::ErrorReferenceGet | O::DocsGet | O::DocsScriptGet | O::OpenapiGet => &[],
        O::BillingStatusGet | O::ApiKeyList | O::WebhookList => &[],
        O::ApiKeyCreate | O::WebhookCreate => &[409, 422],
        O::ApiKeyGet | O::ApiKeyRotate => &[404],
        O::ApiKeyDelete => &[404, 409],
        O::TokenMetaGet
        | O::TokenAnalyze
        | O::TokenAnalyzeQuery
        | O::TokenExplanationGet
        | O::TokenBadgeGet
        | O::TokenSentimentGet => &[404, 422, 502],
        O::WalletAnalyze | O::TxSimulate | O::SignatureScan => &[422, 502],
        O::TokenBatchAnalyze | O::AddressScreen | O::AddressBatchScreen => &[422],
        O::MarketOverviewGet | O::MarketTopTokensList | O::FeedRiskAlertsList => &[422],
        O::WebhookGet | O::WebhookDelete | O::WebhookSecretRotate | O::WebhookEnable => &[404],
        O::WebhookUpdate => &[404, 422],
        O::WebhookDeliveryList => &[404],
        O::WebhookTestSend | O::WebhookRedeliver | O::WebhookRecover => &[404, 409],
        O::ReportCreate => &[404, 409, 422],
        O::ReportList => &[],
        O::ReportGet => &[404],
    }
}

/// The name of the shared response of `status`.
fn response_name(status: u16) -> &'static str {
    match status {
        400 => "BadRequest",
        401 => "Unauthorized",
        402 => "PaymentRequired",
        403 => "Forbidden",
        404 => "NotFound",
        409 => "Conflict",
        422 => "ValidationError",
        429 => "RateLimited",
        500 => "InternalError",
        502 => "UpstreamError",
        _ => "UpstreamUnavailable",
    }
}

/// Make `document` precise (see the module's description).
pub(super) fn make_precise(document: &mut Value) {
    let rate_limit = document
        .pointer("/components/responses/ApiError/headers")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let schemas = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
        .expect("the document has schemas");
    schemas.insert(
        "ChainId".into(),
        json!({
            "description": "A chain the service knows: `eth` (Ethereum), `bsc` (BNB Smart Chain), `sol` (Solana), `base` (Base), `arb` (Arbitrum One), `poly` (Polygon PoS), `avax` (Avalanche C-Chain), `ftm` (Fantom Opera). An instance serves those its operator configured; another answers 422.",
            "type": "string",
            "enum": chain_ids(),
        }),
    );
    if let Some(create) = schemas.get_mut("ApiKeyCreate") {
        let name = &mut create["properties"]["name"];
        name["minLength"] = json!(1);
        name["maxLength"] = json!(64);
        name["pattern"] = json!(KEY_NAME_PATTERN);
        create["properties"]["scopes"]["minItems"] = json!(1);
    }
    if let Some(report) = schemas.get_mut("ReportCreate") {
        let reason = &mut report["properties"]["reason"];
        reason["minLength"] = json!(1);
        reason["maxLength"] = json!(crate::REPORT_REASON_MAX);
        reason["pattern"] = json!(NO_NUL_PATTERN);
        let contact = &mut report["properties"]["contact"];
        contact["maxLength"] = json!(crate::REPORT_CONTACT_MAX);
        contact["pattern"] = json!(NO_NUL_PATTERN);
    }
    for schema in schemas.values_mut() {
        flatten_documented_enum(schema);
    }
    nullable_references_as_any_of(schemas);

    let responses = document
        .pointer_mut("/components/responses")
        .and_then(Value::as_object_mut)
        .expect("the document has responses");
    if let Some(Value::Object(shared)) = responses.remove("ApiError") {
        for status in [400, 401, 402, 403, 404, 409, 422, 429, 500, 502, 503] {
            let meanings: Vec<String> = ErrorCode::ALL
                .iter()
                .filter(|code| code.status() == status)
                .map(|code| format!("`{}`: {}", code.as_str(), code.meaning()))
                .collect();
            let mut response = shared.clone();
            response.insert("description".into(), json!(meanings.join(" ")));
            let code = (ErrorCode::ALL.iter().copied())
                .find(|code| code.status() == status)
                .expect("every shared status has a code");
            if let Some(content) = response
                .get_mut("content")
                .and_then(|c| c.get_mut("application/json"))
                .and_then(Value::as_object_mut)
            {
                content.insert("example".into(), super::examples::error_example(code));
            }
            if !matches!(status, 429 | 503) {
                if let Some(Value::Object(headers)) = response.get_mut("headers") {
                    headers.remove("Retry-After");
                }
            }
            responses.insert(response_name(status).into(), Value::Object(response));
        }
    }

    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for operation in item.values_mut() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            let op = Operation::from_id(id)
                .unwrap_or_else(|| panic!("operation {id:?} is not an Operation"));
            precise_parameters(operation);
            list_error_statuses(operation, op, path != "/v1/health", &rate_limit);
        }
    }
}

/// `chain` takes the enum, `address` and `keyId` their patterns, `limit` its bound.
fn precise_parameters(operation: &mut Value) {
    let Some(parameters) = operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for parameter in parameters {
        let name = parameter["name"].as_str().unwrap_or_default().to_string();
        let schema = &mut parameter["schema"];
        match name.as_str() {
            "chain" => *schema = json!({ "$ref": "#/components/schemas/ChainId" }),
            "address" => {
                schema["pattern"] = json!(ADDRESS_PATTERN);
                let described = parameter["description"].as_str().unwrap_or_default();
                parameter["description"] = json!(format!(
                    "{}{}0x and 40 hex digits on the EVM chains (in one case, or mixed as a \
                     valid EIP-55 checksum), 32 to 44 base58 characters on `sol`; an address \
                     of the other form, or with a wrong checksum, answers 422.",
                    described,
                    if described.is_empty() { "" } else { " " }
                ));
            }
            "keyId" => schema["pattern"] = json!(KEY_ID_PATTERN),
            "webhookId" => schema["pattern"] = json!(WEBHOOK_ID_PATTERN),
            "eventId" => schema["pattern"] = json!(EVENT_ID_PATTERN),
            "reportId" => schema["pattern"] = json!(REPORT_ID_PATTERN),
            "limit" => schema["maximum"] = json!(PAGE_MAX),
            _ => {}
        }
    }
}

/// Replace the `4XX` and `5XX` ranges with the statuses the operation can
/// actually return, each the shared response of its status (the badge's
/// keep their SVG bodies).
fn list_error_statuses(
    operation: &mut Value,
    op: Operation,
    authenticated: bool,
    rate_limit: &Value,
) {
    let Some(responses) = operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let badge = responses.remove("4XX");
    responses.remove("5XX");
    let mut statuses: Vec<u16> = own_statuses(op).to_vec();
    if authenticated {
        statuses.extend(AUTHENTICATED);
    }
    statuses.sort_unstable();
    statuses.dedup();
    for status in statuses {
        let response = match &badge {
            Some(svg) if op == Operation::TokenBadgeGet => {
                let mut svg = svg.clone();
                if !matches!(status, 429 | 503) {
                    if let Some(Value::Object(headers)) = svg.get_mut("headers") {
                        headers.remove("Retry-After");
                    }
                }
                svg
            }
            _ => json!({ "$ref": format!("#/components/responses/{}", response_name(status)) }),
        };
        responses.insert(status.to_string(), response);
    }
    if responses.contains_key("200") && op.is_conditional() {
        responses.insert(
            "304".into(),
            json!({
                "description": "Not Modified: the `If-None-Match` header names this view's current ETag. No body; still counted, with the rate-limit headers.",
                "headers": rate_limit_only(rate_limit),
            }),
        );
    }
}

fn rate_limit_only(headers: &Value) -> Value {
    let mut headers = headers.clone();
    if let Some(headers) = headers.as_object_mut() {
        headers.remove("Retry-After");
    }
    headers
}

/// An enum whose values carry their own descriptions comes out of schemars
/// as a `oneOf` of one-value enums, which generators turn into one type per
/// value; it becomes one string enum, the values' descriptions listed in its
/// own.
fn flatten_documented_enum(schema: &mut Value) {
    let Some(variants) = schema.get("oneOf").and_then(Value::as_array) else {
        return;
    };
    let mut values = Vec::new();
    let mut lines = Vec::new();
    for variant in variants {
        match (
            variant.get("type"),
            variant.get("enum").and_then(Value::as_array),
        ) {
            (Some(kind), Some(one)) if kind == "string" && one.len() == 1 => {
                let value = one[0].as_str().unwrap_or_default().to_string();
                let described = variant.get("description").and_then(Value::as_str);
                lines.push(match described {
                    Some(text) => format!("- `{value}`: {}", text.replace('\n', " ")),
                    None => format!("- `{value}`"),
                });
                values.push(json!(value));
            }
            _ => return,
        }
    }
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    object.remove("oneOf");
    let described = object
        .get("description")
        .and_then(Value::as_str)
        .map(|d| format!("{d}\n\n"))
        .unwrap_or_default();
    object.insert(
        "description".into(),
        json!(format!("{described}{}", lines.join("\n"))),
    );
    object.insert("type".into(), json!("string"));
    object.insert("enum".into(), Value::Array(values));
}

/// A nullable reference (`allOf` of one `$ref` beside `nullable`, as
/// schemars writes an `Option` of a named type) becomes `anyOf` the
/// reference or `enum: [null]`: OpenAPI 3.0 wants a `type` beside
/// `nullable`, and generators read a `type` beside `allOf` as not nullable
/// at all; this form reads as "the type or null" in every generator tried
/// (progenitor, openapi-typescript, openapi-python-client).
fn nullable_references_as_any_of(schemas: &mut Map<String, Value>) {
    let named: std::collections::BTreeSet<String> = schemas
        .keys()
        .map(|name| format!("#/components/schemas/{name}"))
        .collect();
    fn walk(value: &mut Value, named: &std::collections::BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                let target = map
                    .get("allOf")
                    .and_then(Value::as_array)
                    .filter(|all| all.len() == 1)
                    .and_then(|all| all[0].get("$ref"))
                    .and_then(Value::as_str)
                    .filter(|target| named.contains(*target))
                    .map(str::to_string);
                let nullable = map.get("nullable") == Some(&json!(true));
                if let (Some(target), true, false) = (target, nullable, map.contains_key("type")) {
                    map.remove("allOf");
                    map.remove("nullable");
                    map.insert(
                        "anyOf".into(),
                        json!([{ "$ref": target }, { "enum": [null] }]),
                    );
                }
                for child in map.values_mut() {
                    walk(child, named);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| walk(item, named)),
            _ => {}
        }
    }
    for schema in schemas.values_mut() {
        walk(schema, &named);
    }
}
