//! HTTP conventions a client relies on: a page with nothing after it has no
//! `next_page`, and numbers read cleanly (no binary-float noise, no -0).

use std::num::NonZeroU32;

use anyhow::{ensure, Context as _};
use riskintel_client::types;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, err, header, ok, Backend, TestServer};
use serde_json::Value;

use super::solana::sol_config;

/// Every decimal in `value` that reads with more than 12 significant
/// digits, or as a negative zero, with its path.
fn noisy(value: &Value, path: &str, found: &mut Vec<String>) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let text = n.to_string();
            let digits: String = text
                .split(['e', 'E'])
                .next()
                .unwrap_or_default()
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            let significant = digits.trim_start_matches('0').trim_end_matches('0').len();
            if significant > 12 || text.starts_with("-0.0") && n.as_f64() == Some(0.0) {
                found.push(format!("{path} = {text}"));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                noisy(item, &format!("{path}[{i}]"), found);
            }
        }
        Value::Object(fields) => {
            for (k, v) in fields {
                noisy(v, &format!("{path}.{k}"), found);
            }
        }
        _ => {}
    }
}

/// The JSON answered at `url`, asked with `key`.
async fn json_of(http: &reqwest::Client, url: &str, key: &str) -> anyhow::Result<Value> {
    Ok(http
        .get(url)
        .header("x-api-key", key)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?)
}

conformance!(answers_read_cleanly_and_pages_end);
pub async fn answers_read_cleanly_and_pages_end(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let mut config = sol_config(&fixture, &node);
    config.log_format = riskintel_server::logging::LogFormat::Json;
    let server = TestServer::start_with(backend, config).await?;
    let key = server.owner_key();
    let client = server.client(&key);

    // Three keys: pages of two end after the second; a page of three is the last.
    for name in ["second", "third"] {
        ok(client
            .api_key_create(&types::ApiKeyCreate {
                name: arg(name),
                scopes: None,
                expires_at: None,
            })
            .await)?;
    }
    let first = ok(client.api_key_list(NonZeroU32::new(2), None).await)?.into_inner();
    let token = first.next_page.clone().context("a second page")?;
    let second = ok(client.api_key_list(NonZeroU32::new(2), Some(&token)).await)?.into_inner();
    ensure!(
        first.items.len() == 2 && second.items.len() == 1 && second.next_page.is_none(),
        "{second:?}"
    );
    let all = ok(client.api_key_list(NonZeroU32::new(3), None).await)?.into_inner();
    ensure!(all.items.len() == 3 && all.next_page.is_none(), "{all:?}");
    // A token edited to a time no page starts at is refused, not a 500
    // (PostgreSQL holds no year -262143).
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let mut decoded: Value = serde_json::from_slice(&engine.decode(token.trim_end_matches('='))?)?;
    decoded["page_start"]["created_at"] = Value::from("-262143-01-01T00:00:00Z");
    let edited = engine.encode(serde_json::to_vec(&decoded)?);
    err(
        client.api_key_list(NonZeroU32::new(2), Some(&edited)).await,
        400,
        types::ErrorCode::BadRequest,
        true,
    )?;
    // An empty feed is one page with nothing after it.
    let feed = ok(client
        .feed_risk_alerts_list(None, None, None, None, None, None)
        .await)?
    .into_inner();
    ensure!(feed.next_page.is_none(), "{feed:?}");
    // Times far outside a database's range are answered too.
    for far in ["-262143-01-01T00:00:00Z", "+262142-12-31T23:59:59Z"] {
        let answer = reqwest::Client::new()
            .get(format!("{}/v1/feed/risk-alerts", server.base_url))
            .query(&[("since", far)])
            .header("x-api-key", &key)
            .send()
            .await?;
        ensure!(answer.status() == 200, "since {far}: {}", answer.status());
    }

    // Analyses full of computed figures (depth, TVL, shares, prices) read cleanly.
    let http = reqwest::Client::new();
    let mut found = Vec::new();
    for name in [
        "dlmm_healthy",
        "clmm_healthy",
        "whirl_thin",
        "curve_mid",
        "graduated",
        "whale",
        "launch",
    ] {
        let address = fixture.named(name);
        for view in ["analyze", "meta"] {
            let url = format!("{}/v1/token/sol/{address}/{view}", server.base_url);
            noisy(
                &json_of(&http, &url, &key).await?,
                &format!("{name}/{view}"),
                &mut found,
            );
        }
    }
    let wallet = format!(
        "{}/v1/wallet/sol/{}/analyze",
        server.base_url,
        fixture.named("holder")
    );
    noisy(
        &json_of(&http, &wallet, &key).await?,
        "holder/wallet",
        &mut found,
    );
    ensure!(found.is_empty(), "noisy numbers: {found:?}");

    // Every view of an analysis has its own ETag and is cacheable for as
    // long as the analysis stays cached; If-None-Match answers 304 with no
    // body, still counted and carrying the rate-limit headers.
    let address = fixture.named("launch");
    let mut tags = std::collections::BTreeSet::new();
    for view in ["analyze", "meta", "explanation", "badge"] {
        let url = format!("{}/v1/token/sol/{address}/{view}", server.base_url);
        let first = http.get(&url).header("x-api-key", &key).send().await?;
        ensure!(first.status() == 200, "{view}: {}", first.status());
        let etag = header(first.headers(), "etag")?.to_string();
        let cache = header(first.headers(), "cache-control")?;
        let max_age: u64 = cache
            .strip_prefix("private, max-age=")
            .with_context(|| format!("{view}: {cache}"))?
            .parse()?;
        ensure!(max_age <= 300, "{view}: {cache}");
        tags.insert(etag.clone());
        let remaining: u64 = header(first.headers(), "x-ratelimit-remaining")?.parse()?;
        let again = http
            .get(&url)
            .header("x-api-key", &key)
            .header("if-none-match", format!("W/\"other\", {etag}"))
            .send()
            .await?;
        ensure!(again.status() == 304, "{view}: {}", again.status());
        ensure!(header(again.headers(), "etag")? == etag);
        let after: u64 = header(again.headers(), "x-ratelimit-remaining")?.parse()?;
        ensure!(
            after < remaining,
            "{view}: the 304 is metered ({remaining} → {after})"
        );
        ensure!(again.bytes().await?.is_empty(), "{view}: a 304 has no body");
        // Another tag gets the whole answer.
        let other = http
            .get(&url)
            .header("x-api-key", &key)
            .header("if-none-match", "\"0123\"")
            .send()
            .await?;
        ensure!(other.status() == 200, "{view}: {}", other.status());
    }
    ensure!(tags.len() == 4, "one tag per view: {tags:?}");

    // JSON logs: one object a line; one `answered` line per request with
    // its operation, status, latency, account (never the key) and request
    // id; addresses stay readable, secrets do not appear.
    let log = server.log_text();
    let lines: Vec<Value> = log
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .context("every log line is a JSON object")?;
    let account = &server.owner.as_ref().context("owner")?.account.id;
    let answered = lines
        .iter()
        .find(|l| {
            l["msg"] == "answered" && l["operation"] == "token_meta_get" && l["status"] == "304"
        })
        .with_context(|| format!("an answered line for a 304 meta: {log}"))?;
    ensure!(
        answered["account"] == account.as_str()
            && answered["req_id"].as_str().is_some_and(|id| !id.is_empty())
            && answered["latency_ms"].is_string(),
        "{answered}"
    );
    ensure!(
        log.contains(&address),
        "addresses stay readable in the logs"
    );
    let secret = key.split_once('.').context("key")?.1;
    ensure!(!log.contains(secret), "a secret reached the log");
    server.stop().await
}
