//! Token-analysis benchmark on the anvil rig (run by `cargo xtask bench`):
//! - a cold analysis with 0 and 20 ms of latency added to every upstream
//!   request: wall time, upstream requests, and sequential round trips;
//! - 200 concurrent cold requests for one token: upstream requests made;
//! - cached `analyze` requests per second next to `GET /v1/health`.
//!
//! Numbers are printed, not asserted.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use riskintel_server::clock::SystemClock;
use riskintel_server::config::Config;
use riskintel_tests::bench;
use riskintel_tests::latency::{latency_proxy, LatencyProxy};
use riskintel_tests::rig::{self, RigChain};

async fn start_server(
    chain: &RigChain,
    proxy: &LatencyProxy,
    dir: &std::path::Path,
    name: &str,
) -> anyhow::Result<(riskintel_server::RunningServer, String)> {
    start_server_with(chain, proxy, dir, name, true).await
}

async fn start_server_with(
    chain: &RigChain,
    proxy: &LatencyProxy,
    dir: &std::path::Path,
    name: &str,
    simulate_trades: bool,
) -> anyhow::Result<(riskintel_server::RunningServer, String)> {
    let mut served = chain.clone();
    served.url = proxy.url.clone();
    let database_url = format!("sqlite://{}", dir.join(format!("{name}.db")).display());
    let mut config = bench::config(database_url, &served);
    config.analysis.simulate_trades = simulate_trades;
    launch(config).await
}

/// Start a server (system clock, quiet logs); it and its owner key.
async fn launch(config: Config) -> anyhow::Result<(riskintel_server::RunningServer, String)> {
    let (server, key) = bench::start(config, true).await?;
    Ok((server, key.context("owner key")?))
}

async fn analyze(http: &reqwest::Client, base: &str, key: &str, token: &str) -> anyhow::Result<()> {
    let response = http
        .get(format!("{base}/v1/token/eth/{token}/analyze"))
        .header("x-api-key", key)
        .send()
        .await?;
    anyhow::ensure!(
        response.status() == 200,
        "analyze answered {}",
        response.status()
    );
    Ok(())
}

async fn throughput(
    http: &reqwest::Client,
    url: &str,
    keys: &[String],
    seconds: u64,
) -> anyhow::Result<f64> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let done = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for task in 0..32 {
        let key = (!keys.is_empty()).then(|| keys[task % keys.len()].clone());
        let (http, url, done) = (http.clone(), url.to_string(), done.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                let mut request = http.get(&url);
                if let Some(key) = &key {
                    request = request.header("x-api-key", key);
                }
                if let Ok(response) = request.send().await {
                    if response.status() == 200 && response.bytes().await.is_ok() {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await?;
    }
    Ok(done.load(Ordering::Relaxed) as f64 / seconds as f64)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (anvil, chain) = rig::own_scenario(31400).await?;
    let dir = std::env::temp_dir().join(format!("riskintel-token-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let http = reqwest::Client::new();
    let token = chain.token("plain");

    // Median of several cold analyses (each on a fresh database), per setting.
    let mut medians = std::collections::BTreeMap::new();
    for simulate_trades in [false, true] {
        for delay in [0u64, 20] {
            let mut walls = Vec::new();
            let mut requests = 0;
            let mut round_trips = 0;
            for run in 0..5 {
                let proxy = latency_proxy(anvil.url.clone(), Duration::from_millis(delay)).await?;
                let name = format!("cold-{simulate_trades}-{delay}-{run}");
                let (server, key) =
                    start_server_with(&chain, &proxy, &dir, &name, simulate_trades).await?;
                let base = format!("http://{}", server.local_addr);
                let started = Instant::now();
                analyze(&http, &base, &key, &token).await?;
                walls.push(started.elapsed().as_secs_f64() * 1000.0);
                requests = proxy.requests.load(Ordering::Relaxed);
                round_trips = proxy.round_trips();
                server.close().await?;
            }
            walls.sort_by(f64::total_cmp);
            let median = walls[walls.len() / 2];
            medians.insert((simulate_trades, delay), median);
            println!(
                "cold analysis, simulation {}, +{delay} ms per upstream request: {median:.1} ms wall (median of 5), {requests} upstream HTTP requests, {round_trips} sequential round trips",
                if simulate_trades { "on " } else { "off" }
            );
        }
    }
    for simulate_trades in [false, true] {
        let added = medians[&(simulate_trades, 20)] - medians[&(simulate_trades, 0)];
        println!(
            "simulation {}: sequential upstream round trips ≈ {:.1} (added wall time {added:.0} ms / 20 ms)",
            if simulate_trades { "on " } else { "off" },
            added / 20.0
        );
    }
    println!(
        "simulation adds {:.1} ms at +0 ms and {:.1} ms at +20 ms to a cold analysis",
        medians[&(true, 0)] - medians[&(false, 0)],
        medians[&(true, 20)] - medians[&(false, 20)]
    );

    let proxy = latency_proxy(anvil.url.clone(), Duration::from_millis(20)).await?;
    let (server, key) = start_server(&chain, &proxy, &dir, "concurrent").await?;
    let base = format!("http://{}", server.local_addr);
    let started = Instant::now();
    let answers =
        futures::future::join_all((0..200).map(|_| analyze(&http, &base, &key, &token))).await;
    let failures = answers.iter().filter(|a| a.is_err()).count();
    println!(
        "200 concurrent cold requests for one token: {} upstream HTTP requests, {:.1} ms wall, {failures} failed",
        proxy.requests.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64() * 1000.0
    );

    // Per-account limits (6,000 a minute on Pro+) would cap the measurement:
    // one account per connection.
    let clock: Arc<dyn riskintel_server::clock::Clock> = Arc::new(SystemClock);
    let mut keys = Vec::new();
    for n in 0..32 {
        let account = riskintel_server::accounts::create_account(
            &server.store,
            &clock,
            &format!("bench-{n}"),
            riskintel_api::Plan::ProPlus,
        )
        .await?;
        keys.push(account.key.key);
    }
    let seconds = 5;
    let health = throughput(&http, &format!("{base}/v1/health"), &[], seconds).await?;
    let cached = throughput(
        &http,
        &format!("{base}/v1/token/eth/{token}/analyze"),
        &keys,
        seconds,
    )
    .await?;
    println!("GET /v1/health: {health:.0} requests/s; cached GET …/analyze: {cached:.0} requests/s (32 connections, in-process client, same run)");
    server.close().await?;
    drop(anvil);
    market_bench(&dir).await?;
    solana_bench(&dir).await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The market index: logs per second on a backlog of swaps, and the lag
/// from a `PairCreated` to its `new_token` alert.
async fn market_bench(dir: &std::path::Path) -> anyhow::Result<()> {
    const SWAPS: usize = 300;
    let (anvil, chain, token) = tokio::task::spawn_blocking(|| -> anyhow::Result<_> {
        let anvil = rig::Anvil::start(31401)?;
        let chain = rig::deploy_base(&anvil.url, 31401, 0)?;
        let node = rig::Node::new(&anvil.url);
        let args = [
            rig::Arg::Str("Bench".into()),
            rig::Arg::Str("BNCH".into()),
            rig::Arg::Uint(rig::e18(1_000_000)),
        ];
        let token = node.deploy(chain.deployer, "PlainToken", &args)?;
        rig::add_pool(
            &node,
            chain.deployer,
            chain.factory,
            token,
            rig::e18(400_000),
            chain.weth,
            rig::e18(100),
            chain.deployer,
        )?;
        let accounts = node.accounts()?;
        for i in 0..SWAPS {
            rig::buy(
                &node,
                &chain,
                accounts[3 + i % 8],
                token,
                rig::e18(1) / alloy_primitives::U256::from(100),
            )?;
        }
        Ok((anvil, chain, token))
    })
    .await??;
    let mut config = bench::config(
        format!("sqlite://{}", dir.join("market.db").display()),
        &chain,
    );
    config.market.enabled = true;
    config.market.poll_interval_ms = 50;
    config.market.backfill_blocks = 1_000_000;
    config.market.max_blocks_per_poll = 100_000;
    let started = Instant::now();
    let (server, key) = launch(config).await?;
    let base = format!("http://{}", server.local_addr);
    let http = reqwest::Client::new();
    let sentiment = format!("{base}/v1/token/eth/{}/sentiment", token.to_checksum(None));
    loop {
        let body: serde_json::Value = http
            .get(&sentiment)
            .header("x-api-key", &key)
            .send()
            .await?
            .json()
            .await?;
        if body["windows"][1]["buys"].as_u64() == Some(SWAPS as u64) {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(120),
            "the index did not catch up: {body}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let took = started.elapsed().as_secs_f64();
    // Each swap through the router emits Transfer, Deposit, Sync and Swap; the index reads Swap and Sync.
    println!(
        "market index backlog: {SWAPS} swaps ({} Swap+Sync logs) indexed in {:.2} s from start: {:.0} logs/s",
        2 * SWAPS,
        took,
        (2 * SWAPS) as f64 / took
    );
    let mut lags = Vec::new();
    for i in 0..5 {
        let url = chain.url.clone();
        let deployer = chain.deployer;
        let (weth, factory) = (chain.weth, chain.factory);
        let (token, created) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
            let node = rig::Node::new(&url);
            let args = [
                rig::Arg::Str(format!("Lag {i}")),
                rig::Arg::Str(format!("LAG{i}")),
                rig::Arg::Uint(rig::e18(1_000_000)),
            ];
            let token = node.deploy(deployer, "PlainToken", &args)?;
            rig::add_pool(
                &node,
                deployer,
                factory,
                token,
                rig::e18(400_000),
                weth,
                rig::e18(10),
                deployer,
            )?;
            Ok((token, Instant::now()))
        })
        .await??;
        let address = token.to_checksum(None);
        lags.push(bench::new_token_lag(&http, &base, &key, &address, created).await?);
    }
    lags.sort_by(f64::total_cmp);
    println!(
        "PairCreated → new_token alert (poll every 50 ms, analysis included): median {:.0} ms, max {:.0} ms over {} pairs",
        lags[lags.len() / 2],
        lags[lags.len() - 1],
        lags.len()
    );
    server.close().await?;
    drop(anvil);
    Ok(())
}

/// A cold Solana analysis against the local node, with 0 and 20 ms added per upstream request.
async fn solana_bench(dir: &std::path::Path) -> anyhow::Result<()> {
    let fixture = riskintel_tests::solana_node::Fixture::load()?;
    let node = riskintel_tests::solana_node::start(fixture.clone()).await?;
    let http = reqwest::Client::new();
    let mut walls = Vec::new();
    for delay in [0u64, 20] {
        let mut runs = Vec::new();
        let (mut requests, mut round_trips) = (0, 0);
        for run in 0..5 {
            let proxy = latency_proxy(node.clone(), Duration::from_millis(delay)).await?;
            let mut chains = std::collections::BTreeMap::new();
            chains.insert(
                "sol".to_string(),
                riskintel_tests::solana_node::chain_config(&fixture, &proxy.url),
            );
            let mut config = Config {
                listen: "127.0.0.1:0".into(),
                metrics_listen: "127.0.0.1:0".into(),
                database_url: format!(
                    "sqlite://{}",
                    dir.join(format!("sol-{delay}-{run}.db")).display()
                ),
                log_level: "warn".into(),
                chains,
                ..Config::default()
            };
            config.market.enabled = false;
            let (server, key) = launch(config).await?;
            let url = format!(
                "http://{}/v1/token/sol/{}/analyze",
                server.local_addr,
                fixture.named("whale")
            );
            let started = Instant::now();
            let response = http.get(&url).header("x-api-key", &key).send().await?;
            anyhow::ensure!(
                response.status() == 200,
                "sol analyze answered {}",
                response.status()
            );
            runs.push(started.elapsed().as_secs_f64() * 1000.0);
            requests = proxy.requests.load(Ordering::Relaxed);
            round_trips = proxy.round_trips();
            server.close().await?;
        }
        runs.sort_by(f64::total_cmp);
        let median = runs[runs.len() / 2];
        walls.push(median);
        println!("cold sol analysis (2,500 signatures paged), +{delay} ms per upstream request: {median:.1} ms wall (median of 5), {requests} upstream HTTP requests, {round_trips} sequential round trips");
    }
    println!(
        "sol: sequential upstream round trips ≈ {:.1}",
        (walls[1] - walls[0]) / 20.0
    );
    Ok(())
}
