//! The checked-in document must be exactly what the trait generates.

#[test]
fn openapi_document_is_current() {
    expectorate::assert_contents(
        "../../openapi/riskintel.json",
        &riskintel_api::openapi_document(),
    );
}

/// A request body's optional field carries no `"default": null`: generators
/// (openapi-typescript with default options) read a default as "always
/// present" and make the field required.
#[test]
fn optional_request_fields_have_no_null_default() {
    let document: serde_json::Value =
        serde_json::from_str(&riskintel_api::openapi_document()).expect("JSON");
    let schemas = &document["components"]["schemas"];
    let mut found = Vec::new();
    for item in document["paths"].as_object().expect("paths").values() {
        for operation in item.as_object().expect("path item").values() {
            let Some(reference) = operation
                .pointer("/requestBody/content/application~1json/schema/$ref")
                .and_then(|r| r.as_str())
            else {
                continue;
            };
            let name = reference.rsplit('/').next().expect("a name");
            for (field, schema) in schemas[name]["properties"]
                .as_object()
                .into_iter()
                .flatten()
            {
                if schema.get("default") == Some(&serde_json::Value::Null) {
                    found.push(format!("{name}.{field}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "null defaults: {found:?}");
}

/// Every JSON object in `value` with its JSON pointer.
fn objects<'a>(
    value: &'a serde_json::Value,
    path: String,
    found: &mut Vec<(String, &'a serde_json::Map<String, serde_json::Value>)>,
) {
    match value {
        serde_json::Value::Object(map) => {
            found.push((path.clone(), map));
            for (key, child) in map {
                objects(child, format!("{path}/{key}"), found);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                objects(item, format!("{path}/{i}"), found);
            }
        }
        _ => {}
    }
}

/// The document is as precise as the server: every `chain` parameter is the
/// `ChainId` enum of the eight ids, every `address` has its pattern, page
/// sizes their bound, every operation lists its own error statuses (no
/// `4XX`/`5XX` ranges) with the envelope, and `nullable` never stands
/// without a `type` beside it.
#[test]
fn the_document_is_as_precise_as_the_server() {
    let document: serde_json::Value =
        serde_json::from_str(&riskintel_api::openapi_document()).expect("JSON");
    assert_eq!(
        document["components"]["schemas"]["ChainId"]["enum"],
        serde_json::json!(["eth", "bsc", "sol", "base", "arb", "poly", "avax", "ftm"])
    );
    let mut problems = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let id = operation["operationId"].as_str().unwrap_or(method);
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let schema = &parameter["schema"];
                match parameter["name"].as_str() {
                    Some("chain") if schema["$ref"] != "#/components/schemas/ChainId" => {
                        problems.push(format!("{id}: chain is not ChainId"))
                    }
                    Some("address") if !schema["pattern"].is_string() => {
                        problems.push(format!("{id}: address has no pattern"))
                    }
                    Some("limit") if schema["maximum"] != 100 => {
                        problems.push(format!("{id}: limit has no maximum"))
                    }
                    _ => {}
                }
            }
            let responses = operation["responses"].as_object().expect("responses");
            if responses.keys().any(|status| status.ends_with("XX")) {
                problems.push(format!("{id} {path}: a status range"));
            }
            let errors: Vec<&String> = responses
                .keys()
                .filter(|status| status.starts_with('4') || status.starts_with('5'))
                .collect();
            if errors.is_empty() {
                problems.push(format!("{id}: no error status"));
            }
            if path != "/v1/health"
                && !["400", "401", "429", "500"]
                    .iter()
                    .all(|s| responses.contains_key(*s))
            {
                problems.push(format!(
                    "{id}: misses a status every authenticated operation has"
                ));
            }
        }
    }
    let mut all = Vec::new();
    objects(&document, String::new(), &mut all);
    for (pointer, object) in all {
        if object.get("nullable") == Some(&serde_json::json!(true)) && !object.contains_key("type")
        {
            problems.push(format!("{pointer}: nullable without a type"));
        }
    }
    let create = &document["components"]["schemas"]["ApiKeyCreate"]["properties"]["name"];
    if create["maxLength"] != 64 || create["minLength"] != 1 || !create["pattern"].is_string() {
        problems.push("ApiKeyCreate.name is not bounded".into());
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
