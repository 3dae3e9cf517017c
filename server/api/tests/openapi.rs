//! The checked-in document must be exactly what the trait generates.

#[test]
fn openapi_document_is_current() {
    expectorate::assert_contents(
        "../../openapi/riskintel.json",
        &riskintel_api::openapi_document(),
    );
}
