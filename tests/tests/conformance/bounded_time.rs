//! Time is bounded: a slow or hanging node costs an analysis at most its
//! deadline; once the chain is known down, earlier results are served
//! stale at once; health names the chain; recovery follows the node.

use std::time::{Duration, Instant};

use anyhow::ensure;
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::config::Config;
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::rig;
use riskintel_tests::{err, header, ok, Backend, TestServer};

const DEADLINE_MS: u64 = 2_000;

pub async fn slow_nodes_cost_at_most_the_deadline(backend: Backend) -> anyhow::Result<()> {
    let (mut anvil, chain) = tokio::task::spawn_blocking(|| -> anyhow::Result<_> {
        let anvil = rig::Anvil::start(31341)?;
        let chain = rig::deploy_scenario(&anvil.url, 31341, 0)?;
        Ok((anvil, chain))
    })
    .await??;
    let proxy = latency_proxy(anvil.url.clone(), Duration::ZERO).await?;
    let mut served = chain.clone();
    served.url = proxy.url.clone();
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    config.market.enabled = false;
    // A node slower than the per-request timeout is the case that used to
    // cost three full timeouts.
    config.analysis.deadline_ms = DEADLINE_MS;
    config.analysis.rpc_timeout_ms = 10_000;
    config.analysis.rpc_retries = 2;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let bound = Duration::from_millis(DEADLINE_MS + 1_000);

    let first = ok(client
        .token_analyze("eth", &chain.token("plain"), None)
        .await)?
    .into_inner();
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.status == types::HealthStatus::Ok, "{health:?}");
    ensure!(
        health.chains.len() == 1 && health.chains[0].status == types::NodeStatus::Up,
        "{health:?}"
    );

    // The node now answers after 15 s.
    proxy.set_delay(Duration::from_secs(15));
    let started = Instant::now();
    let cold = err(
        client
            .token_analyze("eth", &chain.token("mintable"), None)
            .await,
        503,
        ErrorCode::UpstreamUnavailable,
        true,
    )?;
    let cold_took = started.elapsed();
    ensure!(cold_took <= bound, "a cold analysis took {cold_took:?}");
    ensure!(header(cold.headers(), "retry-after").is_ok());

    // Sixteen cold analyses at once, queued behind the node's concurrency
    // cap: each within the deadline too.
    let started = Instant::now();
    let answers = futures::future::join_all((0..16).map(|_| {
        let client = client.clone();
        async move {
            let address = format!("{:#x}", rig::random_address());
            let answer = client.token_analyze("eth", &address, None).await;
            (answer.map(|_| ()).map_err(|e| e.status()), Instant::now())
        }
    }))
    .await;
    let slowest = answers
        .iter()
        .map(|(_, at)| at.duration_since(started))
        .max();
    for (answer, at) in &answers {
        let took = at.duration_since(started);
        ensure!(took <= bound, "one of 16 cold analyses took {took:?}");
        ensure!(
            *answer == Err(Some(reqwest::StatusCode::SERVICE_UNAVAILABLE)),
            "{answer:?}"
        );
    }

    // The chain is known down now: an expired cached result is served
    // stale at once, and health says so.
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.status == types::HealthStatus::Degraded, "{health:?}");
    let eth = &health.chains[0];
    ensure!(
        eth.chain == "eth"
            && eth.status == types::NodeStatus::Down
            && eth.down_since.is_some()
            && eth.last_error.is_some(),
        "{eth:?}"
    );
    server.clock.advance(chrono::Duration::seconds(301));
    let started = Instant::now();
    let stale = ok(client
        .token_analyze("eth", &chain.token("plain"), None)
        .await)?
    .into_inner();
    let stale_took = started.elapsed();
    ensure!(
        stale_took <= Duration::from_secs(1),
        "stale answer took {stale_took:?}"
    );
    ensure!(stale.stale && stale.cached_at == first.cached_at);

    // The node heals: a probe gets through (back-off doubles from 1 s) and
    // analyses work again.
    proxy.set_delay(Duration::ZERO);
    let healed = Instant::now();
    loop {
        let answer = client
            .token_analyze("eth", &chain.token("mintable"), None)
            .await;
        if answer.is_ok() {
            break;
        }
        ensure!(
            healed.elapsed() < Duration::from_secs(90),
            "the chain did not recover: {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(
        health.status == types::HealthStatus::Ok
            && health.chains[0].status == types::NodeStatus::Up,
        "{health:?}"
    );
    println!(
        "bounded time ({}): deadline {DEADLINE_MS} ms, node answering after 15 s: cold 503 in {cold_took:?}, \
         slowest of 16 concurrent cold in {slowest:?}, stale once down in {stale_took:?}, recovered {:?} after healing",
        backend.name(),
        healed.elapsed()
    );
    server.stop().await?;
    anvil.stop();
    Ok(())
}
