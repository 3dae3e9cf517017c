//! Before-signing benchmark on the anvil rig (run by `cargo xtask bench`):
//! a Uniswap V2 buy simulated with `POST /v1/tx/simulate`, with 0 and 20 ms
//! added to every upstream request: the first one (the token's verdict made
//! cold) and 50 more (its verdict cached), wall time p50/p99 and the
//! sequential upstream round trips each took; and a Permit2 signature scan.
//!
//! Numbers are printed; the round trips of a cached-verdict simulation are
//! also checked against the target (2).

use std::time::{Duration, Instant};

use alloy_primitives::U256;
use anyhow::Context as _;
use riskintel_tests::bench::{self, percentile};
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::rig::{self, calldata, e18, random_address, Arg, Node};
use serde_json::{json, Value};

async fn post(http: &reqwest::Client, url: &str, key: &str, body: &Value) -> anyhow::Result<Value> {
    let response = http
        .post(url)
        .header("x-api-key", key)
        .json(body)
        .send()
        .await?;
    anyhow::ensure!(
        response.status() == 200,
        "{url} answered {}",
        response.status()
    );
    Ok(response.json().await?)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (anvil, chain) = rig::own_scenario(31410).await?;
    let dir = std::env::temp_dir().join(format!("riskintel-presign-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let http = reqwest::Client::new();
    let wallet = random_address();
    let node_url = anvil.url.clone();
    tokio::task::spawn_blocking(move || {
        Node::new(&node_url).call(
            "anvil_setBalance",
            json!([wallet, format!("{:#x}", e18(100))]),
        )
    })
    .await??;
    let data = calldata(
        "swapExactETHForTokens(uint256,address[],address,uint256)",
        &[
            Arg::Uint(U256::ZERO),
            Arg::Addrs(vec![chain.weth, chain.tokens["plain"]]),
            Arg::Addr(wallet),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    );
    let swap = json!({"chain": "eth", "from": wallet, "to": chain.router, "value": e18(1).to_string(), "data": format!("0x{}", hex::encode(&data))});
    let now = chrono::Utc::now().timestamp();
    let permit = json!({"chain": "eth", "signer": wallet, "typed_data": {
        "types": {"PermitSingle": []}, "primaryType": "PermitSingle",
        "domain": {"name": "Permit2", "chainId": chain.chain_id, "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3"},
        "message": {"details": {"token": chain.token("plain"), "amount": "1000", "expiration": now + 1800, "nonce": 0}, "spender": "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af", "sigDeadline": now + 1800}}});

    for delay in [0u64, 20] {
        let proxy = latency_proxy(anvil.url.clone(), Duration::from_millis(delay)).await?;
        let mut served = chain.clone();
        served.url = proxy.url.clone();
        let database_url = format!(
            "sqlite://{}",
            dir.join(format!("presign-{delay}.db")).display()
        );
        let (server, key) = bench::start(bench::config(database_url, &served), true).await?;
        let key = key.context("owner key")?;
        let base = format!("http://{}", server.local_addr);
        let simulate = format!("{base}/v1/tx/simulate");

        proxy.reset();
        let started = Instant::now();
        let first = post(&http, &simulate, &key, &swap).await?;
        anyhow::ensure!(first["verdict"] == "benign", "the swap: {first}");
        println!(
            "swap simulation, +{delay} ms per upstream request, verdict made cold: {:.1} ms, {} sequential round trips",
            started.elapsed().as_secs_f64() * 1000.0,
            proxy.round_trips()
        );

        let (mut walls, mut most) = (Vec::new(), 0);
        for _ in 0..50 {
            proxy.reset();
            let started = Instant::now();
            post(&http, &simulate, &key, &swap).await?;
            walls.push(started.elapsed().as_secs_f64() * 1000.0);
            most = most.max(proxy.round_trips());
        }
        walls.sort_by(f64::total_cmp);
        println!(
            "swap simulation, +{delay} ms per upstream request, verdict cached: p50 {:.1} ms, p99 {:.1} ms over 50, at most {most} sequential round trips",
            percentile(&walls, 0.5),
            percentile(&walls, 0.99)
        );
        anyhow::ensure!(
            most <= 2,
            "a swap simulation took {most} round trips (target 2)"
        );

        let mut scans = Vec::new();
        for _ in 0..50 {
            let started = Instant::now();
            post(&http, &format!("{base}/v1/signature/scan"), &key, &permit).await?;
            scans.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        scans.sort_by(f64::total_cmp);
        println!(
            "Permit2 signature scan, +{delay} ms per upstream request: p50 {:.1} ms, p99 {:.1} ms over 50",
            percentile(&scans, 0.5),
            percentile(&scans, 0.99)
        );
        server.close().await?;
    }
    drop(anvil);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
