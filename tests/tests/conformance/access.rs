//! Access rules, walked from the server's own table: every metered
//! operation answers 401 without a key, 403 `FORBIDDEN` to a key without
//! its scope, 403 `PREMIUM_REQUIRED` to a free account where premium, each
//! with the rate-limit headers; and the query form's 404 is metered too.
//! Raw HTTP, because one loop calls every operation.

use anyhow::{ensure, Context as _};
use riskintel_api::{Plan, Scope};
use riskintel_client::types;
use riskintel_server::http::access::OPERATIONS;
use riskintel_tests::{arg, check_request_id, operations, rate_limit, Backend, TestServer};

/// A request for the operation's path with sample values in its variables.
fn request(
    http: &reqwest::Client,
    base: &str,
    method: &str,
    template: &str,
    key: Option<&str>,
) -> reqwest::RequestBuilder {
    let path = template
        .replace("{chain}", "eth")
        .replace("{address}", "0x6B175474E89094C44Da98b954EedeAC495271d0F")
        .replace("{keyId}", "zzzzzzzzzzzz")
        .replace("{webhookId}", "wh_zzzzzzzzzzzz")
        .replace("{eventId}", "evt_ping_zzzzzzzzzzzz")
        .replace("{reportId}", "rep_zzzzzzzzzzzz");
    let query = if template == "/v1/token/analyze" {
        "?chain=eth&address=0x6B175474E89094C44Da98b954EedeAC495271d0F"
    } else {
        ""
    };
    let url = format!("{base}{path}{query}");
    let body = if template == "/v1/tokens/analyze" {
        serde_json::json!({"items": [{"chain": "eth", "address": "0x6B175474E89094C44Da98b954EedeAC495271d0F"}]})
    } else if template == "/v1/webhooks/{webhookId}/recover" {
        serde_json::json!({"since": "2026-01-01T00:00:00Z"})
    } else if template == "/v1/token/{chain}/{address}/reports" {
        serde_json::json!({"kind": "false_positive", "reason": "walker"})
    } else if template == "/v1/webhooks" {
        serde_json::json!({"url": "https://hooks.invalid/walker"})
    } else if template == "/v1/tx/simulate" {
        let dai = "0x6B175474E89094C44Da98b954EedeAC495271d0F";
        serde_json::json!({"chain": "eth", "from": dai, "to": dai})
    } else if template == "/v1/addresses/screen" {
        serde_json::json!({"items": [{"chain": "eth", "address": "0x6B175474E89094C44Da98b954EedeAC495271d0F"}]})
    } else if template == "/v1/signature/scan" {
        let dai = "0x6B175474E89094C44Da98b954EedeAC495271d0F";
        serde_json::json!({"chain": "eth", "signer": dai, "message": "walker"})
    } else {
        serde_json::json!({"name": "walker"})
    };
    let builder = match method {
        "POST" => http.post(&url).json(&body),
        "PATCH" => http.patch(&url).json(&body),
        "DELETE" => http.delete(&url),
        _ => http.get(&url),
    };
    match key {
        Some(key) => builder.header("x-api-key", key),
        None => builder,
    }
}

/// An error answer: its status, code, envelope and headers.
async fn expect_error(
    response: reqwest::Response,
    status: u16,
    code: &str,
    what: &str,
) -> anyhow::Result<String> {
    ensure!(
        response.status().as_u16() == status,
        "{what}: status {} instead of {status}",
        response.status()
    );
    check_request_id(response.headers())?;
    rate_limit(response.headers()).with_context(|| format!("{what}: rate-limit headers"))?;
    let svg = riskintel_tests::header(response.headers(), "content-type")
        .is_ok_and(|t| t.starts_with("image/svg+xml"));
    if svg {
        // The badge answers its errors as badges: the message is its title.
        ensure!(what.contains("/badge"), "{what}: an SVG error");
        let text = response.text().await?;
        let document = roxmltree::Document::parse(&text).with_context(|| what.to_string())?;
        let title = document
            .descendants()
            .find(|n| n.has_tag_name("title"))
            .and_then(|n| n.text())
            .unwrap_or_default();
        ensure!(title.starts_with("Risk unknown: "), "{what}: {text}");
        return Ok(title.to_string());
    }
    let body: serde_json::Value = response.json().await?;
    ensure!(body["error"]["code"] == code, "{what}: {body}");
    Ok(body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string())
}

conformance!(access_rules_hold_for_every_operation);
pub async fn access_rules_hold_for_every_operation(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let http = reqwest::Client::new();
    let routes = operations();
    let free = server.account("free walker", Plan::Free).await?;
    let owner = server.client(&server.owner_key());
    for rule in OPERATIONS {
        let (_, method, template) = routes
            .iter()
            .find(|(id, _, _)| id == rule.operation.id())
            .context("operation in the document")?;
        let what = format!("{method} {template} ({})", rule.operation);

        let response = request(&http, &server.base_url, method, template, None)
            .send()
            .await?;
        expect_error(response, 401, "UNAUTHORIZED", &what).await?;

        // A Pro+ key holding every scope but this operation's.
        let scopes: Vec<types::Scope> = Scope::ALL
            .iter()
            .filter(|s| **s != rule.scope)
            .map(|s| s.as_str().parse().expect("a client scope"))
            .collect();
        let name = format!("without-{}", rule.operation);
        let lacking = ok_key(
            owner
                .api_key_create(&types::ApiKeyCreate {
                    name: arg(name),
                    scopes: Some(scopes),
                    expires_at: None,
                })
                .await,
        )?;
        let response = request(&http, &server.base_url, method, template, Some(&lacking))
            .send()
            .await?;
        let message = expect_error(response, 403, "FORBIDDEN", &what).await?;
        ensure!(message.contains(rule.scope.as_str()), "{what}: {message}");

        if let Some(feature) = rule.premium {
            let response = request(
                &http,
                &server.base_url,
                method,
                template,
                Some(&free.key.key),
            )
            .send()
            .await?;
            let message = expect_error(response, 403, "PREMIUM_REQUIRED", &what).await?;
            ensure!(message.contains(feature), "{what}: {message}");
        }
    }
    // The query form's route with another word than `analyze` is a metered 404.
    let response = http
        .get(format!("{}/v1/token/analyse", server.base_url))
        .header("x-api-key", server.owner_key())
        .send()
        .await?;
    let message = expect_error(response, 404, "NOT_FOUND", "GET /v1/token/analyse").await?;
    ensure!(message.contains("/v1/token/analyze"), "{message}");
    server.stop().await
}

fn ok_key(
    result: Result<
        riskintel_client::ResponseValue<types::ApiKeySecret>,
        riskintel_client::Error<types::ApiError>,
    >,
) -> anyhow::Result<String> {
    Ok(riskintel_tests::ok(result)?.into_inner().key)
}

conformance!(a_database_outage_is_503_on_every_operation);
/// With the database gone, every metered operation answers 503
/// `UPSTREAM_UNAVAILABLE` with `Retry-After` (never 500), and health says
/// `degraded`.
pub async fn a_database_outage_is_503_on_every_operation(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let http = reqwest::Client::new();
    let routes = operations();
    let key = server.owner_key();
    server.store().close().await;
    for rule in OPERATIONS {
        let (_, method, template) = routes
            .iter()
            .find(|(id, _, _)| id == rule.operation.id())
            .context("operation in the document")?;
        let what = format!("{method} {template} ({})", rule.operation);
        let response = request(&http, &server.base_url, method, template, Some(&key))
            .send()
            .await?;
        let retry: u64 = riskintel_tests::header(response.headers(), "retry-after")
            .with_context(|| what.clone())?
            .parse()?;
        ensure!(retry >= 1, "{what}: Retry-After {retry}");
        expect_error(response, 503, "UPSTREAM_UNAVAILABLE", &what).await?;
    }
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.status == types::HealthStatus::Degraded && !health.database.reachable);
    server.stop().await
}
