//! Batch analysis: a list of tokens on mixed chains in one call, each item
//! answered in order with its analysis or its own error; duplicates are
//! analysed once; premium and scope rules; size limits; every item counted
//! in the rate window, every analysed item in the usage.

use anyhow::{ensure, Context as _};
use riskintel_api::Plan;
use riskintel_client::types::{self, ErrorCode, Scope};
use riskintel_server::chains::Chain;
use riskintel_server::config::Config;
use riskintel_tests::{arg, err, ok, rate_limit, rig, Backend, TestServer};

fn item(chain: &str, address: &str) -> types::BatchItem {
    types::BatchItem {
        chain: chain.into(),
        address: address.into(),
    }
}

fn batch(items: Vec<types::BatchItem>) -> types::BatchAnalysisRequest {
    types::BatchAnalysisRequest { items, fresh: None }
}

/// The rig's two chains, and `base` on a node that refuses connections.
fn config() -> anyhow::Result<Config> {
    let rig = rig::shared()?;
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &rig.a), ("bsc", &rig.b)]),
        ..Config::default()
    };
    let mut dead = config.chains["eth"].clone();
    dead.rpc_url = "http://127.0.0.1:1".into();
    config.chains.insert("base".into(), dead);
    config.market.enabled = false;
    config.analysis.rpc_retries = 0;
    Ok(config)
}

conformance!(batch_analysis_answers_a_list_in_order);
pub async fn batch_analysis_answers_a_list_in_order(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let server = TestServer::start_with(backend, config()?).await?;
    let client = server.client(&server.owner_key());
    let (plain, on_b) = (rig.a.token("plain"), rig.b.token("plain"));
    let holder = rig::holder(3).to_checksum(None);
    let asked = vec![
        item("eth", &plain),
        item("bsc", &on_b),
        item("eth", "0x1234"),
        item("doge", &plain),
        item("eth", &holder),
        item("base", &plain),
        item("eth", &plain),
    ];
    let before = ok(client.billing_status_get().await)?
        .into_inner()
        .requests_used;
    let answer = ok(client.token_batch_analyze(&batch(asked.clone())).await)?;
    let (_, remaining, _) = rate_limit(answer.headers())?;
    let answer = answer.into_inner();
    // In order, each with its own status and, on error, its own envelope.
    let statuses: Vec<u16> = answer.results.iter().map(|r| r.status).collect();
    ensure!(
        statuses == [200, 200, 422, 422, 404, 503, 200],
        "{statuses:?}"
    );
    for (entry, item) in answer.results.iter().zip(&asked) {
        ensure!(
            entry.chain == item.chain && entry.address == item.address,
            "{entry:?}"
        );
        ensure!(
            entry.analysis.is_some() == (entry.status == 200)
                && entry.error.is_some() != (entry.status == 200),
            "{entry:?}"
        );
    }
    let first = answer.results[0].analysis.as_ref().context("an analysis")?;
    let again = answer.results[6].analysis.as_ref().context("an analysis")?;
    ensure!(first.chain == "eth" && first.address == plain && first.cached_at == again.cached_at);
    ensure!(answer.results[1]
        .analysis
        .as_ref()
        .is_some_and(|a| a.chain == "bsc"));
    let codes: Vec<Option<ErrorCode>> = answer
        .results
        .iter()
        .map(|r| r.error.as_ref().map(|e| e.code))
        .collect();
    ensure!(
        codes[2] == Some(ErrorCode::ValidationError)
            && codes[3] == Some(ErrorCode::ValidationError)
            && codes[4] == Some(ErrorCode::NotFound)
            && codes[5] == Some(ErrorCode::UpstreamUnavailable),
        "{codes:?}"
    );
    ensure!(answer.analysed == 3 && answer.failed == 4, "{answer:?}");
    // The rate window counted the seven items; the usage the three analysed
    // (and the billing reads around them).
    ensure!(remaining == 6_000 - 1 - 7, "remaining {remaining}");
    let after = ok(client.billing_status_get().await)?
        .into_inner()
        .requests_used;
    ensure!(after == before + 1 + 3, "usage {before} → {after}");

    // A single analysis shares the batch's cache entry.
    let single = ok(client.token_analyze(arg("eth"), &arg(&plain), None).await)?.into_inner();
    ensure!(single.cached_at == first.cached_at);

    // Size limits: none, and one past 100, are refused with 422.
    err(
        client.token_batch_analyze(&batch(Vec::new())).await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    let too_many = serde_json::json!({
        "items": vec![serde_json::json!({ "chain": "eth", "address": plain }); 101]
    });
    let refused = server
        .raw_err(
            &server.owner_key(),
            "/v1/tokens/analyze",
            Some(too_many),
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(refused.error.message.contains("101"), "{refused:?}");

    // Premium, and the token:read scope.
    let free = server.account("free-batch", Plan::Free).await?;
    err(
        server
            .client(&free.key.key)
            .token_batch_analyze(&batch(vec![item("eth", &plain)]))
            .await,
        403,
        ErrorCode::PremiumRequired,
        true,
    )?;
    let market_only = ok(client
        .api_key_create(&types::ApiKeyCreate {
            name: arg("market-only"),
            scopes: Some(vec![Scope::MarketRead]),
            expires_at: None,
        })
        .await)?
    .into_inner();
    err(
        server
            .client(&market_only.key)
            .token_batch_analyze(&batch(vec![item("eth", &plain)]))
            .await,
        403,
        ErrorCode::Forbidden,
        true,
    )?;
    server.stop().await
}

conformance!(batch_duplicates_are_analysed_once);
pub async fn batch_duplicates_are_analysed_once(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let proxy = rig.a.token("proxy");
    // One analysis alone, on a server of its own: its upstream requests.
    let single = TestServer::start_with(backend, config()?).await?;
    ok(single
        .client(&single.owner_key())
        .token_analyze(arg("eth"), &arg(&proxy), None)
        .await)?;
    let one = single.upstream_requests(Chain::Eth);
    single.stop().await?;

    let server = TestServer::start_with(backend, config()?).await?;
    let client = server.client(&server.owner_key());
    let answer = ok(client
        .token_batch_analyze(&batch(vec![item("eth", &proxy); 25]))
        .await)?
    .into_inner();
    ensure!(answer.analysed == 25, "{answer:?}");
    let many = server.upstream_requests(Chain::Eth);
    ensure!(
        many == one,
        "25 copies cost {many} upstream requests, one alone {one}"
    );
    server.stop().await
}
