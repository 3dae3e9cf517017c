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
