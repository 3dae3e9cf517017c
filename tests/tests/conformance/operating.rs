//! What an operator reads: metrics on their own listener, in the
//! Prometheus text format.

use std::time::Duration;

use anyhow::ensure;
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{metric, ok, within, Backend, TestServer};

use super::solana::sol_config;

/// How much the series `name` with `labels` grew from `before` to `after`.
fn grew(before: &str, after: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    metric(after, name, labels).unwrap_or(0.0) - metric(before, name, labels).unwrap_or(0.0)
}

pub async fn metrics_show_requests_upstream_calls_and_the_cache(
    backend: Backend,
) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    // A slow node, so that a second request finds the first one's analysis under way.
    let proxy = latency_proxy(node, Duration::from_millis(150)).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &proxy.url)).await?;
    let client = server.client(&server.owner_key());
    let before = server.metrics().await?;

    let launch = fixture.named("launch");
    let (first, second) = tokio::join!(
        client.token_analyze("sol", &launch, None),
        client.token_analyze("sol", &launch, None)
    );
    ok(first)?;
    ok(second)?;
    ok(client.token_analyze("sol", &launch, None).await)?;
    let refused = server.anonymous().token_analyze("sol", &launch, None).await;
    ensure!(refused.is_err(), "answered without a key");
    server.anonymous().health_get().await?;

    let after = server.metrics().await?;
    let analyze = ("operation", "token_analyze");
    let checks = [
        (
            "answered 200",
            grew(
                &before,
                &after,
                "riskintel_http_requests_total",
                &[analyze, ("status", "200")],
            ),
            3.0,
        ),
        (
            "refused 401",
            grew(
                &before,
                &after,
                "riskintel_http_requests_total",
                &[analyze, ("status", "401")],
            ),
            1.0,
        ),
        (
            "health",
            grew(
                &before,
                &after,
                "riskintel_http_requests_total",
                &[("operation", "health_get")],
            ),
            1.0,
        ),
        (
            "latency observations",
            grew(
                &before,
                &after,
                "riskintel_http_request_duration_seconds_count",
                &[analyze],
            ),
            4.0,
        ),
        (
            "latency under 15 s",
            grew(
                &before,
                &after,
                "riskintel_http_request_duration_seconds_bucket",
                &[analyze, ("le", "15")],
            ),
            4.0,
        ),
        (
            "analyses made",
            grew(
                &before,
                &after,
                "riskintel_analysis_cache_total",
                &[("outcome", "miss")],
            ),
            1.0,
        ),
        (
            "single-flight joins",
            grew(
                &before,
                &after,
                "riskintel_analysis_cache_total",
                &[("outcome", "joined")],
            ),
            1.0,
        ),
        (
            "memory hits",
            grew(
                &before,
                &after,
                "riskintel_analysis_cache_total",
                &[("outcome", "memory_hit")],
            ),
            1.0,
        ),
        (
            "upstream requests",
            grew(
                &before,
                &after,
                "riskintel_upstream_requests_total",
                &[("chain", "sol")],
            ),
            2.0,
        ),
        (
            "upstream calls",
            grew(
                &before,
                &after,
                "riskintel_upstream_calls_total",
                &[("chain", "sol"), ("method", "getAccountInfo")],
            ) + grew(
                &before,
                &after,
                "riskintel_upstream_calls_total",
                &[("chain", "sol"), ("method", "getMultipleAccounts")],
            ),
            1.0,
        ),
        (
            "upstream latency",
            grew(
                &before,
                &after,
                "riskintel_upstream_request_duration_seconds_count",
                &[("chain", "sol")],
            ),
            2.0,
        ),
    ];
    for (what, value, least) in checks {
        ensure!(
            value >= least,
            "{what}: grew by {value}, expected at least {least}\n{after}"
        );
    }
    ensure!(
        metric(&after, "riskintel_open_connections", &[]).is_some(),
        "no connections gauge\n{after}"
    );
    // Usage is written every flush interval; its lag is shown.
    within(Duration::from_secs(10), "the usage flush lag", || async {
        Ok(metric(
            &server.metrics().await?,
            "riskintel_usage_flush_lag_seconds",
            &[],
        )
        .is_some())
    })
    .await?;
    ensure!(
        after.contains("# HELP riskintel_http_requests_total "),
        "no help text\n{after}"
    );

    // Metrics are not part of the public API.
    let public = reqwest::get(format!("{}/metrics", server.base_url)).await?;
    ensure!(
        public.status() == 404,
        "public /metrics: {}",
        public.status()
    );
    server.stop().await
}
