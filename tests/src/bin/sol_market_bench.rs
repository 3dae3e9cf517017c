//! The Solana market index benchmark (run by `cargo xtask bench`), on the
//! local test node: how many transactions a second the index reads and
//! stores from a backlog of a Raydium CPMM pool's swaps, and the lag from a
//! pool's opening to its token's `new_token` alert. Numbers are printed,
//! not asserted.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use riskintel_server::config::Config;
use riskintel_tests::bench;
use riskintel_tests::solana_node::{self, Fixture};
use serde_json::Value;

/// Swaps in the backlog (three pages of the program's signatures).
const BACKLOG: usize = 2_500;
const CPMM: &str = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C";

async fn get(http: &reqwest::Client, url: &str, key: &str) -> anyhow::Result<Value> {
    Ok(http
        .get(url)
        .header("x-api-key", key)
        .send()
        .await?
        .json()
        .await?)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("riskintel-sol-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let fixture = Fixture::load()?;
    let node = solana_node::start_node(fixture.clone()).await?;
    let mint = fixture.named("amm_cpmm");
    let history = node.transactions_of(CPMM);
    let open = (history.iter())
        .find(|tx| {
            tx["transaction"]["signatures"][0]
                .as_str()
                .is_some_and(|s| s.starts_with("cpmmOpen"))
        })
        .context("the CPMM pool's opening in the fixture")?;
    // The backlog: the fixture's first swap (a buy) again and again, after the pull.
    node.add_copies(CPMM, "cpmmSwap", "benchSwap", BACKLOG, 26_000)?;

    let mut chains = std::collections::BTreeMap::new();
    chains.insert(
        "sol".to_string(),
        solana_node::chain_config(&fixture, &node.url),
    );
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        metrics_listen: "127.0.0.1:0".into(),
        database_url: format!("sqlite://{}", dir.join("sol-market.db").display()),
        log_level: "warn".into(),
        chains,
        ..Config::default()
    };
    config.market.enabled = true;
    config.market.poll_interval_ms = 50;
    config.market.backfill_blocks = 1_000_000;
    config.market.max_blocks_per_poll = 200;
    let started = Instant::now();
    let (server, key) = bench::start(config, true).await?;
    let key = key.context("owner key")?;
    let base = format!("http://{}", server.local_addr);
    let http = reqwest::Client::new();
    // The fixture's own four buys, and the backlog's.
    let wanted = 4 + BACKLOG as u64;
    loop {
        let body = get(
            &http,
            &format!("{base}/v1/token/sol/{mint}/sentiment"),
            &key,
        )
        .await?;
        if body["windows"][1]["buys"].as_u64() == Some(wanted) {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(300),
            "the index did not catch up: {body}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let took = started.elapsed().as_secs_f64();
    let read = BACKLOG + history.len();
    println!(
        "sol market index backlog: {read} CPMM transactions ({BACKLOG} swaps) read, decoded and stored in {took:.2} s from start: {:.0} transactions/s (200 a poll, every 50 ms; new tokens' analyses included)",
        read as f64 / took
    );

    // New pools at the head: the opening of a copy of the mint, each.
    let mut lags = Vec::new();
    for n in 0..5 {
        let copy = bs58::encode([n as u8 + 1; 32]).into_string();
        node.copy_account(&mint, &copy)?;
        let text = open.to_string().replace(&mint, &copy);
        let tx: Value = serde_json::from_str(&text)?;
        let created = Instant::now();
        node.add_transaction(solana_node::renamed(
            &tx,
            &solana_node::signature("benchOpen", n),
            29_000 + n as u64,
        ))?;
        lags.push(bench::new_token_lag(&http, &base, &key, &copy, created).await?);
    }
    lags.sort_by(f64::total_cmp);
    println!(
        "sol pool opened → new_token alert (poll every 50 ms, analysis included): median {:.0} ms, max {:.0} ms over {} pools",
        lags[lags.len() / 2],
        lags[lags.len() - 1],
        lags.len()
    );
    server.close().await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
