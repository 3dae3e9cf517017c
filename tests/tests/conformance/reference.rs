//! The API reference served by the binary: `/openapi.json` is the checked-in
//! document, `/docs` the reference page with its script served beside it
//! (nothing from another host), all without a key, each with an `ETag`
//! that a revalidation answers with 304.

use anyhow::ensure;
use riskintel_tests::{header, Backend, TestServer};

pub async fn the_reference_and_the_document_are_served(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let http = reqwest::Client::new();
    let checked_in: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../openapi/riskintel.json"
    ))?)?;
    for (path, kind) in [
        ("/openapi.json", "application/json"),
        ("/docs", "text/html"),
        ("/docs/scalar.js", "text/javascript"),
    ] {
        let url = format!("{}{path}", server.base_url);
        let answer = http.get(&url).send().await?;
        ensure!(answer.status() == 200, "{path}: {}", answer.status());
        ensure!(
            header(answer.headers(), "content-type")?.starts_with(kind),
            "{path}"
        );
        let etag = header(answer.headers(), "etag")?.to_string();
        ensure!(
            header(answer.headers(), "cache-control")?.contains("public"),
            "{path}"
        );
        let body = answer.bytes().await?;
        match path {
            "/openapi.json" => ensure!(
                serde_json::from_slice::<serde_json::Value>(&body)? == checked_in,
                "the served document is not openapi/riskintel.json"
            ),
            "/docs" => {
                let html = std::str::from_utf8(&body)?;
                ensure!(html.contains("docs/scalar.js") && html.contains("openapi.json"));
                ensure!(
                    !html.contains("https://") && !html.contains("http://"),
                    "{html}"
                );
            }
            _ => ensure!(body.len() > 1_000_000, "the bundle is {} bytes", body.len()),
        }
        let again = http.get(&url).header("if-none-match", &etag).send().await?;
        ensure!(
            again.status() == 304,
            "{path} revalidated: {}",
            again.status()
        );
        ensure!(header(again.headers(), "etag")? == etag);
        let changed = http
            .get(&url)
            .header("if-none-match", "\"other\"")
            .send()
            .await?;
        ensure!(
            changed.status() == 200,
            "{path} with another tag: {}",
            changed.status()
        );
    }
    server.stop().await
}
conformance!(the_reference_and_the_document_are_served);
