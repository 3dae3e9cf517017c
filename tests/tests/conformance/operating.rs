//! What an operator reads: metrics on their own listener, in the
//! Prometheus text format.

use std::time::Duration;

use anyhow::ensure;
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, metric, ok, within, Backend, TestServer};

use super::solana::sol_config;

/// How much the series `name` with `labels` grew from `before` to `after`.
fn grew(before: &str, after: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    metric(after, name, labels).unwrap_or(0.0) - metric(before, name, labels).unwrap_or(0.0)
}

conformance!(metrics_show_requests_upstream_calls_and_the_cache);
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
    let mint = arg(&launch);
    let (first, second) = tokio::join!(
        client.token_analyze(arg("sol"), &mint, None),
        client.token_analyze(arg("sol"), &mint, None)
    );
    ok(first)?;
    ok(second)?;
    ok(client.token_analyze(arg("sol"), &arg(&launch), None).await)?;
    let refused = server
        .anonymous()
        .token_analyze(arg("sol"), &arg(&launch), None)
        .await;
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

/// The request ids of the answers of a raw exchange, in order.
fn ids_in(raw: &str) -> Vec<String> {
    raw.split("\r\n")
        .filter_map(|line| line.strip_prefix("x-request-id: "))
        .map(str::to_string)
        .collect()
}

conformance!(request_ids_sent_by_clients_are_kept);
pub async fn request_ids_sent_by_clients_are_kept(backend: Backend) -> anyhow::Result<()> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut config = riskintel_server::config::Config::default();
    config.chains.clear();
    config.log_format = riskintel_server::logging::LogFormat::Json;
    let server = TestServer::start_with(backend, config).await?;
    let key = server.owner_key();
    let http = reqwest::Client::new();
    let url = format!("{}/v1/billing/status", server.base_url);

    // Kept: in the answer and on every log line of the request.
    let answer = http
        .get(&url)
        .header("x-api-key", &key)
        .header("x-request-id", "trace-7.a_B")
        .send()
        .await?;
    ensure!(answer.status() == 200, "{}", answer.status());
    ensure!(riskintel_tests::header(answer.headers(), "x-request-id")? == "trace-7.a_B");
    // Replaced: too long, or not of the allowed characters.
    for sent in ["x".repeat(129), "a/b".to_string(), "a b".to_string()] {
        let answer = http
            .get(&url)
            .header("x-api-key", &key)
            .header("x-request-id", &sent)
            .send()
            .await?;
        let id = riskintel_tests::header(answer.headers(), "x-request-id")?;
        ensure!(id != sent && id.len() == 36, "{sent:?} answered as {id:?}");
    }
    // Pipelined on one connection, each answer has its own request's id.
    let mut stream =
        tokio::net::TcpStream::connect(server.base_url.trim_start_matches("http://")).await?;
    let request = |id: Option<&str>, close: bool| {
        format!(
            "GET /v1/billing/status HTTP/1.1\r\nhost: x\r\nx-api-key: {key}\r\n{}{}\r\n",
            id.map(|i| format!("X-Request-Id: {i}\r\n"))
                .unwrap_or_default(),
            if close { "connection: close\r\n" } else { "" }
        )
    };
    let pipelined =
        request(Some("first"), false) + &request(None, false) + &request(Some("third"), true);
    stream.write_all(pipelined.as_bytes()).await?;
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await?;
    let ids = ids_in(&raw);
    ensure!(
        ids.len() == 3 && ids[0] == "first" && ids[1].len() == 36 && ids[2] == "third",
        "{ids:?}"
    );

    let log = server.log_text();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|l: &serde_json::Value| l["req_id"] == "trace-7.a_B")
        .collect();
    ensure!(
        lines
            .iter()
            .any(|l| l["msg"] == "answered" && l["status"] == "200"),
        "no answered line with the client's id: {log}"
    );
    ensure!(
        !log.contains("hdr_x_request_id") && !log.contains("a/b"),
        "a client's header logged raw: {log}"
    );
    server.stop().await
}

conformance!(metrics_are_drained_without_a_scrape);
/// The recorder keeps every histogram sample until an upkeep drains it:
/// a server nobody scrapes runs the upkeep on its own schedule, so its
/// memory does not grow with every request answered (issue 47).
pub async fn metrics_are_drained_without_a_scrape(backend: Backend) -> anyhow::Result<()> {
    use riskintel_server::telemetry;
    let server = TestServer::start(backend).await?;
    // Samples as many requests leave them, and no scrape.
    for i in 0..10_000u64 {
        telemetry::request_answered("health_get", 200, Duration::from_micros(i % 1_000));
    }
    let before = telemetry::scheduled_upkeeps();
    within(
        telemetry::UPKEEP_EVERY * 5,
        "two scheduled upkeeps of the metrics, with nothing scraping them",
        || async { Ok(telemetry::scheduled_upkeeps() >= before + 2) },
    )
    .await?;
    server.stop().await
}
