//! The Solana market index: pump.fun's new mints, read from the program's
//! signatures and their transactions, become tracked tokens with one
//! `new_token` alert each, in the feed, the overview and top tokens, and
//! stay one after a restart and beside a second instance; their curve
//! trades make their sentiment, each counted once. The AMMs' transactions
//! too: a curve's graduation to PumpSwap and a Raydium CPMM pool's opening
//! make new tokens, the CPMM pool's six swaps its sentiment, and its
//! creator's withdrawal of 95% one `liquidity_removed`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure};
use futures::TryStreamExt as _;
use riskintel_client::types::{self, AlertKind};

use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, ok, within, Backend, TestServer};

use super::solana::sol_config;

const CPMM: &str = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C";

const LAUNCHES: [&str; 5] = [
    "launch_bundle",
    "launch_funded",
    "launch_clean",
    "amm_graduated",
    "amm_cpmm",
];

async fn sol_alerts(client: &riskintel_client::Client) -> anyhow::Result<Vec<types::Alert>> {
    let all: Vec<types::Alert> = client
        .feed_risk_alerts_list_stream(None, None, None, None, None)
        .try_collect()
        .await?;
    Ok(all.into_iter().filter(|a| a.chain == "sol").collect())
}

conformance!(solana_market_index_finds_new_mints);
pub async fn solana_market_index_finds_new_mints(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start_node(fixture.clone()).await?;
    // A busy pool: 1,200 more swaps after the CPMM pool's history, so its
    // opening is more than a page (1,000) behind the newest signature.
    node.add_copies(CPMM, "cpmmSwap", "busySwap", 1_200, 26_000)?;
    let mut config = sol_config(&fixture, &node.url);
    config.market.enabled = true;
    config.market.poll_interval_ms = 100;
    // The launches are older than the index: read them on its first start.
    config.market.backfill_blocks = 100_000;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let mints: Vec<String> = LAUNCHES.iter().map(|n| fixture.named(n)).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let alerts = sol_alerts(&client).await?;
        let found = (mints.iter())
            .filter(|m| {
                alerts
                    .iter()
                    .any(|a| a.kind == AlertKind::NewToken && &a.address == *m)
            })
            .count();
        if found == mints.len() {
            break;
        }
        if Instant::now() > deadline {
            bail!(
                "{found} of {} new_token alerts within 30 s: {alerts:?}",
                mints.len()
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A mint created within `reorg_depth` slots of the head is not final yet.
    let fresh = fixture.named("launch_fresh");
    ensure!(
        !sol_alerts(&client)
            .await?
            .iter()
            .any(|a| a.address == fresh),
        "an alert for a mint {} slots deep",
        5
    );

    // The market views carry them.
    let top: Vec<types::TopToken> = client
        .market_top_tokens_list_stream(None, None, None, None)
        .try_collect()
        .await?;
    ensure!(
        mints
            .iter()
            .all(|m| top.iter().any(|t| &t.address == m && t.chain == "sol")),
        "{top:?}"
    );
    // The overview has Solana's own entry: its counts, SOL's price from the
    // price pools ($150), the index's lag in slots; with `chain` and without.
    let overview = ok(client.market_overview_get(Some(arg("sol"))).await)?.into_inner();
    ensure!(overview.total.new_tokens_24h >= 3, "{overview:?}");
    ensure!(overview.chains.len() == 1, "{overview:?}");
    let sol = &overview.chains[0];
    ensure!(
        sol.chain == "sol"
            && sol.indexed
            && sol.index_lag.is_some()
            && sol.tokens_tracked >= mints.len() as u64
            && sol.tokens_tracked == overview.total.tokens_tracked
            && sol.new_tokens_24h >= 3
            && sol.alerts_24h >= mints.len() as u64
            && sol
                .native_price_usd
                .is_some_and(|p| (p - 150.0).abs() < 1.0),
        "{sol:?}"
    );
    let severities = &sol.alerts_24h_by_severity;
    ensure!(
        severities.info
            + severities.low
            + severities.medium
            + severities.high
            + severities.critical
            == sol.alerts_24h,
        "{sol:?}"
    );
    let labels = &sol.labels;
    ensure!(labels.safe + labels.caution + labels.risky + labels.critical == sol.tokens_tracked);
    let everywhere = ok(client.market_overview_get(None).await)?.into_inner();
    ensure!(
        everywhere
            .chains
            .iter()
            .any(|c| c.chain == "sol" && c.tokens_tracked == sol.tokens_tracked && c.indexed),
        "{everywhere:?}"
    );
    // The curve trades of the bundled launch (seven buys and the creator's
    // sell, read from pump.fun's TradeEvent) make its sentiment.
    let sentiment = ok(client
        .token_sentiment_get(arg("sol"), &arg(&fixture.named("launch_bundle")))
        .await)?
    .into_inner();
    let day = &sentiment.windows[1];
    ensure!(
        day.buys == 7 && day.sells == 1 && sentiment.score.is_some(),
        "{sentiment:?}"
    );

    // The CPMM pool's swaps, read from its own balances: four buys, two
    // sells, and the 1,200 buys of the busy pages after them.
    let cpmm = fixture.named("amm_cpmm");
    let counted = within(Duration::from_secs(30), "the busy pool's swaps", || async {
        let s = ok(client.token_sentiment_get(arg("sol"), &arg(&cpmm)).await)?.into_inner();
        Ok(s.windows[1].buys == 1_204)
    })
    .await;
    let sentiment = ok(client.token_sentiment_get(arg("sol"), &arg(&cpmm)).await)?.into_inner();
    let day = &sentiment.windows[1];
    ensure!(
        counted.is_ok() && day.buys == 1_204 && day.sells == 2 && sentiment.score.is_some(),
        "{sentiment:?}"
    );
    // Its creator took 95% out: liquidity_removed, naming the pool.
    let pool = fixture.named("amm_cpmm_pool");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let alerts = sol_alerts(&client).await?;
        let pulled = alerts
            .iter()
            .find(|a| a.kind == AlertKind::LiquidityRemoved && a.address == cpmm);
        if let Some(a) = pulled {
            ensure!(
                a.detail.contains(&pool) && a.severity == types::Severity::Critical,
                "{a:?}"
            );
            break;
        }
        if Instant::now() > deadline {
            bail!("no liquidity_removed for the CPMM pool: {alerts:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A restart reads on from where it stopped, and a second instance on
    // the same database beside it: still one alert each, each trade once.
    let key = server.owner_key();
    let (config, clock) = (server.config.clone(), server.clock.clone());
    let database = server.stop_keeping_database().await?;
    let server = TestServer::start_on(database, clock, config).await?;
    let other = server.another_instance().await?;
    let client = server.client(&key);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let mut per_event: BTreeMap<(String, String), usize> = BTreeMap::new();
    for a in sol_alerts(&client).await? {
        *per_event
            .entry((format!("{:?}", a.kind), a.address))
            .or_default() += 1;
    }
    ensure!(
        per_event.values().all(|n| *n == 1),
        "duplicate alerts: {per_event:?}"
    );
    let again = ok(client
        .token_sentiment_get(arg("sol"), &arg(&fixture.named("launch_bundle")))
        .await)?
    .into_inner();
    ensure!(
        again.windows[1].buys == 7 && again.windows[1].sells == 1,
        "{again:?}"
    );
    other.stop().await?;
    server.stop().await
}

conformance!(served_chains_not_indexed_say_so);
/// With the market index off, every served chain keeps its overview entry
/// and says it is not indexed (no lag), Solana included.
pub async fn served_chains_not_indexed_say_so(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start_node(fixture.clone()).await?;
    let mut config = sol_config(&fixture, &node.url);
    config.market.enabled = false;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let overview = ok(client.market_overview_get(None).await)?.into_inner();
    ensure!(
        overview.chains.iter().any(|c| c.chain == "sol")
            && overview
                .chains
                .iter()
                .all(|c| !c.indexed && c.index_lag.is_none())
            && !overview.total.indexed,
        "{overview:?}"
    );
    let sol = ok(client.market_overview_get(Some(arg("sol"))).await)?.into_inner();
    ensure!(
        sol.chains.len() == 1 && sol.chains[0].chain == "sol" && !sol.chains[0].indexed,
        "{sol:?}"
    );
    server.stop().await
}
