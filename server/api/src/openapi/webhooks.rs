//! The part of the post-processing step about webhooks: the bounds of a
//! subscription's filters, and the requests the service makes to a
//! subscribed URL, as OpenAPI 3.0 callbacks of the operation that creates
//! it (dropshot describes only requests the service answers).

use serde_json::{json, Map, Value};

use super::precise::{ADDRESS_PATTERN, PAGE_MAX};
use riskintel_types::{WATCHED_TOKENS_MAX, WEBHOOKS_PER_ACCOUNT};

/// Bound the filters of `WebhookCreate` and `WebhookUpdate` as the server does.
pub(super) fn precise_schemas(schemas: &mut Map<String, Value>) {
    debug_assert!(WEBHOOKS_PER_ACCOUNT <= PAGE_MAX as usize);
    for name in ["WebhookCreate", "WebhookUpdate"] {
        let Some(schema) = schemas.get_mut(name) else {
            continue;
        };
        let properties = &mut schema["properties"];
        properties["url"]["maxLength"] = json!(2048);
        properties["chains"]["items"] = json!({ "$ref": "#/components/schemas/ChainId" });
        properties["tokens"]["items"]["pattern"] = json!(ADDRESS_PATTERN);
        properties["tokens"]["maxItems"] = json!(WATCHED_TOKENS_MAX);
    }
}

/// What a receiver gets: one `POST` per event to the subscription's `url`.
pub(super) fn describe_deliveries(paths: &mut Map<String, Value>) {
    let Some(create) = paths
        .get_mut("/v1/webhooks")
        .and_then(|item| item.get_mut("post"))
    else {
        return;
    };
    create["callbacks"] = json!({
        "event": {
            "{$request.body#/url}": {
                "post": {
                    "summary": "An event delivered to the subscribed URL",
                    "description": "Sent for every alert matching the subscription (`risk_alert`), for test events (`ping`), and when the operator answers one of the account's reports (`report_answered`, to every active subscription of the account, on Pro or Pro+). Verify the signature before trusting the body: compute HMAC-SHA256 with the signing secret over `<t>.<raw body>` and compare it, in constant time, with each `v1=` of `Riskintel-Signature`; refuse a `t` more than 5 minutes from now. Answer any 2xx within 10 seconds to acknowledge; anything else, or no answer, is retried with the same event id (30 s, then doubling, at most 6 h apart, for 24 hours). Redirects are not followed.",
                    "operationId": "webhook_event_receive",
                    "parameters": [
                        {
                            "in": "header",
                            "name": "Riskintel-Signature",
                            "required": true,
                            "description": "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">`; during the 24 hours after a rotation of the secret, a second `v1=` signed with the previous secret.",
                            "schema": { "type": "string", "pattern": "^t=[0-9]+(,v1=[0-9a-f]{64})+$" },
                        },
                        {
                            "in": "header",
                            "name": "Riskintel-Event-Id",
                            "required": true,
                            "description": "The event's id, the same on every attempt: store it to handle each event once.",
                            "schema": { "type": "string" },
                        },
                    ],
                    "requestBody": {
                        "required": true,
                        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/WebhookEvent" } } },
                    },
                    "responses": {
                        "2XX": { "description": "Received: the event is not sent again." },
                        "4XX": { "description": "Not received: the event is sent again later (so is it after a redirect, a 5xx, or no answer within 10 seconds)." },
                        "5XX": { "description": "Not received: the event is sent again later." },
                    },
                    "security": [],
                },
            },
        },
    });
}

/// The schema of an event's body, and those it refers to, among the
/// document's schemas (no operation's answer refers to it).
pub(super) fn add_event_schema(schemas: &mut Map<String, Value>) {
    let mut settings = schemars::gen::SchemaSettings::openapi3();
    settings.definitions_path = "#/components/schemas/".into();
    let mut generator = settings.into_generator();
    generator.subschema_for::<crate::WebhookEvent>();
    for (name, schema) in generator.take_definitions() {
        if !schemas.contains_key(&name) {
            let mut schema = serde_json::to_value(schema).expect("a schema serialises");
            references_as_dropshot_writes_them(&mut schema);
            schemas.insert(name, schema);
        }
    }
}

/// A property that is a reference with a description beside it, as
/// dropshot writes it: `allOf: [{$ref}]` and the description (a `$ref`
/// ignores its siblings in OpenAPI 3.0).
fn references_as_dropshot_writes_them(schema: &mut Value) {
    let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for property in properties.values_mut() {
        let Some(map) = property.as_object_mut() else {
            continue;
        };
        if map.len() > 1 {
            if let Some(target) = map.remove("$ref") {
                map.insert("allOf".into(), json!([{ "$ref": target }]));
            }
        }
    }
}
