//! Market intelligence, sentiment and the risk-alert feed, on a fresh anvil
//! per test (these tests change chain state), through the generated client.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy_primitives::{Address, U256};
use anyhow::{bail, ensure, Context as _};
use futures::TryStreamExt;
use riskintel_api::Plan;
use riskintel_client::types::{self, AlertKind, ErrorCode, SentimentLabel};
use riskintel_server::clock::Clock;
use riskintel_server::config::Config;
use riskintel_tests::jsonrpc;
use riskintel_tests::rig::{self, e18, Anvil, Arg, Node, RigChain, DEAD};
use riskintel_tests::{arg, err, ok, Backend, TestServer};

/// A fresh node with the base contracts.
pub async fn fresh_chain(chain_id: u64) -> anyhow::Result<(Anvil, RigChain)> {
    tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let anvil = Anvil::start(chain_id)?;
        let chain = rig::deploy_base(&anvil.url, chain_id, 0)?;
        Ok((anvil, chain))
    })
    .await?
}

pub fn market_config(chain: &RigChain) -> Config {
    let mut config = Config {
        chains: rig::chains_config(&[("eth", chain)]),
        ..Config::default()
    };
    config.market.poll_interval_ms = 100;
    config.market.backfill_blocks = 100_000;
    config
}

/// Run blocking rig work off the runtime.
pub async fn on_chain<T: Send + 'static>(
    chain: &RigChain,
    work: impl FnOnce(&Node, &RigChain) -> anyhow::Result<T> + Send + 'static,
) -> anyhow::Result<T> {
    let chain = chain.clone();
    tokio::task::spawn_blocking(move || work(&Node::new(&chain.url), &chain)).await?
}

/// Deploy `contract` (name, symbol, supply args) with a pool of 400k tokens and 10 WETH (LP to the deployer), and 30 holders.
pub fn launch(
    node: &Node,
    chain: &RigChain,
    contract: &str,
    symbol: &str,
) -> anyhow::Result<(Address, Address)> {
    let args = [
        Arg::Str(format!("{symbol} Token")),
        Arg::Str(symbol.into()),
        Arg::Uint(e18(1_000_000)),
    ];
    let token = node.deploy(chain.deployer, contract, &args)?;
    let pair = rig::add_pool(
        node,
        chain.deployer,
        chain.factory,
        token,
        e18(400_000),
        chain.weth,
        e18(10),
        chain.deployer,
    )?;
    for i in 0..30u64 {
        node.exec(
            chain.deployer,
            token,
            "transfer(address,uint256)",
            &[Arg::Addr(rig::holder(50_000 + i)), Arg::Uint(e18(10_000))],
        )?;
    }
    Ok((token, pair))
}

pub async fn all_alerts(client: &riskintel_client::Client) -> anyhow::Result<Vec<types::Alert>> {
    Ok(client
        .feed_risk_alerts_list_stream(None, None, None, None, None)
        .try_collect()
        .await?)
}

/// Poll the feed until an alert of `kind` for `token` appears.
pub async fn wait_for(
    client: &riskintel_client::Client,
    kind: AlertKind,
    token: Address,
) -> anyhow::Result<types::Alert> {
    let address = token.to_checksum(None);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(alert) = all_alerts(client)
            .await?
            .into_iter()
            .find(|a| a.kind == kind && a.address == address)
        {
            return Ok(alert);
        }
        if Instant::now() > deadline {
            bail!("no {kind:?} alert for {address} within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

conformance!(market_alerts_follow_the_chain);
pub async fn market_alerts_follow_the_chain(backend: Backend) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31500).await?;
    let mut config = market_config(&chain);
    // The webhook worker polls once a minute here: an alert the index
    // raises must reach the receiver because the index wakes it.
    config.webhooks.allow_private_targets = true;
    config.webhooks.poll_ms = 60_000;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let receiver = riskintel_tests::receiver::Receiver::start(&[], 200).await?;
    let subscribed = ok(client
        .webhook_create(&types::WebhookCreate {
            url: riskintel_tests::arg(&receiver.url),
            chains: Some(vec![types::ChainId::Eth]),
            kinds: Some(vec![types::AlertKind::HoneypotDetected]),
            min_severity: None,
            tokens: None,
        })
        .await)?
    .into_inner();

    // A new pair makes a new token: an alert with its first label, and a row in top tokens.
    let (token, pair) = on_chain(&chain, |node, chain| {
        launch(node, chain, "MintableToken", "NEWT")
    })
    .await?;
    let new = wait_for(&client, AlertKind::NewToken, token).await?;
    ensure!(
        new.label_after.is_some() && new.score_after.is_some() && new.label_before.is_none(),
        "{new:?}"
    );
    ensure!(new.chain == "eth" && new.block > 0);
    // The index's lag is a metric too.
    let metrics = server.metrics().await?;
    ensure!(
        riskintel_tests::metric(
            &metrics,
            "riskintel_market_index_lag_blocks",
            &[("chain", "eth")]
        )
        .is_some(),
        "no index lag metric\n{metrics}"
    );
    let top: Vec<types::TopToken> = client
        .market_top_tokens_list_stream(None, None, None, None)
        .try_collect()
        .await?;
    let row = top
        .iter()
        .find(|t| t.address == token.to_checksum(None))
        .context("new token in top tokens")?;
    ensure!(
        row.symbol == "NEWT" && row.liquidity_usd == Some(60_000.0),
        "{row:?}"
    );

    // New tokens are minted.
    on_chain(&chain, move |node, chain| {
        node.exec(
            chain.deployer,
            token,
            "mint(address,uint256)",
            &[Arg::Addr(chain.deployer), Arg::Uint(e18(500_000))],
        )
    })
    .await?;
    let minted = wait_for(&client, AlertKind::SupplyMinted, token).await?;
    ensure!(minted.detail.contains("50.0%"), "{}", minted.detail);

    // A honeypot appears.
    let honeypot = on_chain(&chain, |node, chain| {
        // Created, armed, then given liquidity, as such launches go.
        let args = [
            Arg::Str("Trap Token".into()),
            Arg::Str("TRAP".into()),
            Arg::Uint(e18(1_000_000)),
        ];
        let token = node.deploy(chain.deployer, "SellRevertToken", &args)?;
        node.exec(
            chain.deployer,
            chain.factory,
            "createPair(address,address)",
            &[Arg::Addr(token), Arg::Addr(chain.weth)],
        )?;
        let pair = node.view_word(
            chain.factory,
            "getPair(address,address)",
            &[Arg::Addr(token), Arg::Addr(chain.weth)],
        )?;
        let pair = Address::from_slice(&pair.to_be_bytes::<32>()[12..]);
        node.exec(
            chain.deployer,
            token,
            "setPair(address)",
            &[Arg::Addr(pair)],
        )?;
        node.exec(
            chain.deployer,
            token,
            "transfer(address,uint256)",
            &[Arg::Addr(pair), Arg::Uint(e18(400_000))],
        )?;
        node.exec(
            chain.deployer,
            chain.weth,
            "transfer(address,uint256)",
            &[Arg::Addr(pair), Arg::Uint(e18(10))],
        )?;
        node.exec(
            chain.deployer,
            pair,
            "mint(address)",
            &[Arg::Addr(chain.deployer)],
        )?;
        Ok(token)
    })
    .await?;
    let detected = wait_for(&client, AlertKind::HoneypotDetected, honeypot).await?;
    ensure!(
        detected.severity == types::Severity::Critical
            && detected.label_after == Some(types::RiskLabel::Critical)
    );
    // Pushed to the subscribed receiver, signed, and only that kind.
    riskintel_tests::within(std::time::Duration::from_secs(5), "the webhook", || async {
        Ok(!receiver.received().is_empty())
    })
    .await?;
    let pushed = &receiver.received()[0];
    ensure!(
        pushed.json()["data"]["id"] == detected.id.as_str()
            && pushed.json()["data"]["kind"] == "honeypot_detected",
        "{}",
        pushed.json()
    );
    riskintel_server::webhooks::signing::verify(
        &subscribed.secret,
        pushed.header("riskintel-signature"),
        &pushed.body,
        server.clock.now().timestamp(),
    )
    .map_err(|e| anyhow::anyhow!("signature: {e}"))?;

    // The owner changes.
    let stranger = rig::random_address();
    on_chain(&chain, move |node, chain| {
        node.exec(
            chain.deployer,
            token,
            "transferOwnership(address)",
            &[Arg::Addr(stranger)],
        )
    })
    .await?;
    let owner = wait_for(&client, AlertKind::OwnershipChanged, token).await?;
    ensure!(
        owner.detail.contains(&stranger.to_checksum(None)),
        "{}",
        owner.detail
    );

    // Liquidity is pulled: 90% of the LP tokens burned for their reserves.
    on_chain(&chain, move |node, chain| {
        let lp = node.view_word(pair, "balanceOf(address)", &[Arg::Addr(chain.deployer)])?;
        node.exec(
            chain.deployer,
            pair,
            "transfer(address,uint256)",
            &[
                Arg::Addr(pair),
                Arg::Uint(lp * U256::from(9) / U256::from(10)),
            ],
        )?;
        node.exec(
            chain.deployer,
            pair,
            "burn(address)",
            &[Arg::Addr(chain.deployer)],
        )
    })
    .await?;
    let removed = wait_for(&client, AlertKind::LiquidityRemoved, token).await?;
    ensure!(
        removed.detail.contains("90.0%") || removed.detail.contains("lost 9"),
        "{}",
        removed.detail
    );

    // A proxy is upgraded.
    let (proxy, new_logic) = on_chain(&chain, |node, chain| {
        let logic = node.deploy(chain.deployer, "UpgradeableTokenLogic", &[])?;
        let init = rig::calldata(
            "initialize(string,string,uint256,address)",
            &[
                Arg::Str("Proxied".into()),
                Arg::Str("PXY".into()),
                Arg::Uint(e18(1_000_000)),
                Arg::Addr(chain.deployer),
            ],
        );
        let proxy = node.deploy(
            chain.deployer,
            "TestProxy",
            &[
                Arg::Addr(logic),
                Arg::Addr(chain.proxy_admin),
                Arg::Bytes(init),
            ],
        )?;
        rig::add_pool(
            node,
            chain.deployer,
            chain.factory,
            proxy,
            e18(400_000),
            chain.weth,
            e18(10),
            DEAD.parse()?,
        )?;
        let new_logic = node.deploy(chain.deployer, "UpgradeableTokenLogic", &[])?;
        Ok((proxy, new_logic))
    })
    .await?;
    wait_for(&client, AlertKind::NewToken, proxy).await?;
    on_chain(&chain, move |node, chain| {
        node.exec(
            chain.proxy_admin,
            proxy,
            "upgradeTo(address)",
            &[Arg::Addr(new_logic)],
        )
    })
    .await?;
    let upgraded = wait_for(&client, AlertKind::ProxyUpgraded, proxy).await?;
    ensure!(
        upgraded.detail.contains(&new_logic.to_checksum(None)),
        "{}",
        upgraded.detail
    );

    // Filters.
    let proxies: Vec<types::Alert> = client
        .feed_risk_alerts_list_stream(None, Some(AlertKind::ProxyUpgraded), None, None, None)
        .try_collect()
        .await?;
    ensure!(proxies.iter().all(|a| a.kind == AlertKind::ProxyUpgraded) && !proxies.is_empty());
    let severe: Vec<types::Alert> = client
        .feed_risk_alerts_list_stream(None, None, None, Some(types::Severity::High), None)
        .try_collect()
        .await?;
    ensure!(severe.iter().all(|a| a.severity >= types::Severity::High));
    let future = server.clock.now_seconds() + chrono::Duration::hours(1);
    let none: Vec<types::Alert> = client
        .feed_risk_alerts_list_stream(None, None, None, None, Some(&future))
        .try_collect()
        .await?;
    ensure!(none.is_empty(), "nothing is newer than the future");
    server
        .raw_err(
            &server.owner_key(),
            "/v1/feed/risk-alerts?chain=doge",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;

    // The overview counts it all.
    let overview = ok(client.market_overview_get(None).await)?.into_inner();
    ensure!(
        overview.chains.len() == 1 && overview.total.tokens_tracked >= 2,
        "{overview:?}"
    );
    ensure!(overview.total.alerts_24h >= 5 && overview.total.new_tokens_24h >= 2);
    let eth = &overview.chains[0];
    ensure!(
        eth.chain == "eth"
            && eth
                .native_price_usd
                .is_some_and(|p| (p - 3000.0).abs() < 1.0),
        "{eth:?}"
    );
    let labels = &eth.labels;
    ensure!(labels.safe + labels.caution + labels.risky + labels.critical == eth.tokens_tracked);
    let severities = &eth.alerts_24h_by_severity;
    ensure!(
        eth.indexed
            && eth.index_lag.is_some()
            && severities.info
                + severities.low
                + severities.medium
                + severities.high
                + severities.critical
                == eth.alerts_24h
            && overview.total.indexed
            && overview.total.index_lag.is_none(),
        "{eth:?}"
    );
    ok(client.market_overview_get(Some(arg("eth"))).await)?;
    server
        .raw_err(
            &server.owner_key(),
            "/v1/market/overview?chain=doge",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    server.stop().await
}

conformance!(market_sentiment_follows_swap_flow);
pub async fn market_sentiment_follows_swap_flow(backend: Backend) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31501).await?;
    let server = TestServer::start_with(backend, market_config(&chain)).await?;
    let client = server.client(&server.owner_key());
    let (bought, sold) = on_chain(&chain, |node, chain| {
        let (bought, _) = launch(node, chain, "PlainToken", "BULL")?;
        let (sold, _) = launch(node, chain, "PlainToken", "BEAR")?;
        let accounts = node.accounts()?;
        for trader in &accounts[3..9] {
            node.exec(
                chain.deployer,
                sold,
                "transfer(address,uint256)",
                &[Arg::Addr(*trader), Arg::Uint(e18(5_000))],
            )?;
        }
        Ok((bought, sold))
    })
    .await?;
    wait_for(&client, AlertKind::NewToken, bought).await?;
    wait_for(&client, AlertKind::NewToken, sold).await?;
    let quiet = ok(client
        .token_sentiment_get(arg("eth"), &arg(&bought.to_checksum(None)))
        .await)?
    .into_inner();
    ensure!(
        quiet.label == SentimentLabel::InsufficientData
            && quiet.score.is_none()
            && quiet.reason.is_some(),
        "{quiet:?}"
    );

    on_chain(&chain, move |node, chain| {
        let accounts = node.accounts()?;
        for trader in &accounts[3..9] {
            rig::buy(node, chain, *trader, bought, e18(1) / U256::from(10))?;
            rig::sell(node, chain, *trader, sold, e18(4_000))?;
        }
        Ok(())
    })
    .await?;
    let deadline = Instant::now() + Duration::from_secs(30);
    let (bull, bear) = loop {
        let bull = ok(client
            .token_sentiment_get(arg("eth"), &arg(&bought.to_checksum(None)))
            .await)?
        .into_inner();
        let bear = ok(client
            .token_sentiment_get(arg("eth"), &arg(&sold.to_checksum(None)))
            .await)?
        .into_inner();
        if bull.windows[1].buys >= 6 && bear.windows[1].sells >= 6 {
            break (bull, bear);
        }
        ensure!(
            Instant::now() < deadline,
            "swaps not indexed: {bull:?} {bear:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    ensure!(
        bull.label == SentimentLabel::Bullish && bull.score.is_some_and(|s| s > 50.0),
        "{bull:?}"
    );
    let day = &bull.windows[1];
    ensure!(
        day.buys == 6 && day.sells == 0 && day.unique_buyers == 6 && day.net_flow_usd > 0.0,
        "{day:?}"
    );
    ensure!(
        (day.buy_volume_usd - 6.0 * 300.0).abs() < 1.0,
        "6 buys of 0.1 WETH at $3,000: {}",
        day.buy_volume_usd
    );
    ensure!(
        day.price_change.is_some_and(|c| c > 0.0),
        "buying pushed the price up"
    );
    ensure!(
        bear.label == SentimentLabel::Bearish && bear.score.is_some_and(|s| s < -50.0),
        "{bear:?}"
    );
    ensure!(bear.windows[1].price_change.is_some_and(|c| c < 0.0));
    let components = bull.components.context("components")?;
    ensure!(components.volume_imbalance == 1.0 && components.count_imbalance == 1.0);
    // Top tokens sorted by volume put the traded tokens first.
    let by_volume: Vec<types::TopToken> = client
        .market_top_tokens_list_stream(None, None, None, Some(types::TopTokensSort::Volume24h))
        .try_collect()
        .await?;
    ensure!(
        by_volume.len() >= 2
            && by_volume[0].volume_24h_usd >= by_volume[1].volume_24h_usd
            && by_volume[0].volume_24h_usd > 0.0
    );

    // Premium features.
    let free = server.account("free", Plan::Free).await?;
    let free_client = server.client(&free.key.key);
    err(
        free_client
            .token_sentiment_get(arg("eth"), &arg(&bought.to_checksum(None)))
            .await,
        403,
        ErrorCode::PremiumRequired,
        true,
    )?;
    err(
        free_client
            .feed_risk_alerts_list(None, None, None, None, None, None)
            .await,
        403,
        ErrorCode::PremiumRequired,
        true,
    )?;
    ok(free_client.market_overview_get(None).await)?;
    server.stop().await
}

conformance!(market_feed_pages_are_stable_and_survive_restarts);
pub async fn market_feed_pages_are_stable_and_survive_restarts(
    backend: Backend,
) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31502).await?;
    let server = TestServer::start_with(backend, market_config(&chain)).await?;
    let client = server.client(&server.owner_key());
    let first = on_chain(&chain, |node, chain| {
        (0..4)
            .map(|i| launch(node, chain, "PlainToken", &format!("PG{i}")).map(|t| t.0))
            .collect::<anyhow::Result<Vec<_>>>()
    })
    .await?;
    for token in &first {
        wait_for(&client, AlertKind::NewToken, *token).await?;
    }
    // Page through with two per page while more tokens appear.
    let start: Vec<types::Alert> = all_alerts(&client).await?;
    let mut seen = Vec::new();
    let mut page = ok(client
        .feed_risk_alerts_list(None, None, std::num::NonZeroU32::new(2), None, None, None)
        .await)?
    .into_inner();
    let more = {
        let chain = chain.clone();
        tokio::task::spawn_blocking(move || {
            let node = Node::new(&chain.url);
            (0..3)
                .map(|i| launch(&node, &chain, "PlainToken", &format!("MID{i}")).map(|t| t.0))
                .collect::<anyhow::Result<Vec<_>>>()
        })
    };
    loop {
        seen.extend(page.items.iter().map(|a| a.id.clone()));
        let Some(token) = page.next_page.clone() else {
            break;
        };
        tokio::time::sleep(Duration::from_millis(150)).await;
        page = ok(client
            .feed_risk_alerts_list(
                None,
                None,
                std::num::NonZeroU32::new(2),
                None,
                Some(&token),
                None,
            )
            .await)?
        .into_inner();
    }
    let unique: BTreeSet<_> = seen.iter().cloned().collect();
    ensure!(
        unique.len() == seen.len(),
        "an alert was repeated across pages: {seen:?}"
    );
    let expected: BTreeSet<_> = start.iter().map(|a| a.id.clone()).collect();
    ensure!(
        expected.is_subset(&unique),
        "an alert present at the start was skipped"
    );
    let mid = more.await??;

    // Restart mid-stream, then more tokens.
    let key = server.owner_key();
    let config = server.config.clone();
    let clock = server.clock.clone();
    let database = server.stop_keeping_database().await?;
    let later = on_chain(&chain, |node, chain| {
        (0..2)
            .map(|i| launch(node, chain, "PlainToken", &format!("AFT{i}")).map(|t| t.0))
            .collect::<anyhow::Result<Vec<_>>>()
    })
    .await?;
    let server = TestServer::start_on(database, clock, config).await?;
    let client = server.client(&key);
    for token in mid.iter().chain(&later) {
        wait_for(&client, AlertKind::NewToken, *token).await?;
    }
    let alerts = all_alerts(&client).await?;
    let mut per_event: BTreeMap<(String, String), usize> = BTreeMap::new();
    for a in &alerts {
        *per_event
            .entry((format!("{:?}", a.kind), a.address.clone()))
            .or_default() += 1;
    }
    ensure!(
        per_event.values().all(|n| *n == 1),
        "duplicate alerts: {per_event:?}"
    );
    for token in first.iter().chain(&mid).chain(&later) {
        ensure!(
            per_event.contains_key(&("NewToken".to_string(), token.to_checksum(None))),
            "no new_token alert for {token}"
        );
    }
    let ids: Vec<i64> = alerts.iter().map(|a| a.id.parse().unwrap()).collect();
    ensure!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
    server.stop().await
}

/// Replace the blocks since `snapshot` with a longer chain launching another
/// token, "SURV" (at another address: a contract deployed first moves the nonce); that token.
fn reorganise(
    node: &Node,
    chain: &RigChain,
    snapshot: &serde_json::Value,
) -> anyhow::Result<Address> {
    node.call("evm_revert", serde_json::json!([snapshot]))?;
    node.deploy(chain.deployer, "NotAToken", &[])?;
    let (token, _) = launch(node, chain, "PlainToken", "SURV")?;
    for _ in 0..5 {
        node.call("evm_mine", serde_json::json!([]))?;
    }
    Ok(token)
}

conformance!(market_index_survives_a_reorganisation);
pub async fn market_index_survives_a_reorganisation(backend: Backend) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31503).await?;
    let mut config = market_config(&chain);
    // The test's re-organisation replaces about 40 blocks.
    config.market.reorg_depth = 200;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let snapshot = on_chain(&chain, |node, _| {
        node.call("evm_snapshot", serde_json::json!([]))
    })
    .await?;
    let (orphan, _) = on_chain(&chain, |node, chain| {
        launch(node, chain, "PlainToken", "ORPH")
    })
    .await?;
    wait_for(&client, AlertKind::NewToken, orphan).await?;
    // The blocks the index read are replaced by others.
    let survivor = on_chain(&chain, move |node, chain| {
        reorganise(node, chain, &snapshot)
    })
    .await?;
    ensure!(survivor != orphan);
    let alert = wait_for(&client, AlertKind::NewToken, survivor).await?;
    ensure!(alert.detail.contains("SURV"), "{}", alert.detail);
    server.stop().await
}

conformance!(market_index_survives_a_reorganisation_during_a_poll);
/// The re-organisation lands between the index's check of the block before
/// its cursor and its read of the logs after it: a proxy in front of the node,
/// once armed, replaces the blocks just before it forwards the index's
/// `PairCreated` query. The replaced blocks lie below the cursor, so only a
/// check after the read can notice them.
pub async fn market_index_survives_a_reorganisation_during_a_poll(
    backend: Backend,
) -> anyhow::Result<()> {
    let pair_created =
        alloy_primitives::keccak256("PairCreated(address,address,address,uint256)").to_string();
    let (_anvil, chain) = fresh_chain(31504).await?;
    let snapshot = on_chain(&chain, |node, _| {
        node.call("evm_snapshot", serde_json::json!([]))
    })
    .await?;
    let (orphan, _) = on_chain(&chain, |node, chain| {
        launch(node, chain, "PlainToken", "ORPH")
    })
    .await?;

    // Armed: the survivor's chain, to be built inside the proxy. Fired: its token.
    let armed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let survivor: Arc<std::sync::Mutex<Option<Address>>> = Arc::default();
    let upstream = chain.url.clone();
    let http = reqwest::Client::new();
    let node_error =
        |e: &dyn std::fmt::Display| serde_json::json!({"code": -32000, "message": e.to_string()});
    let handler: jsonrpc::Handler = {
        let (armed, survivor, chain) = (armed.clone(), survivor.clone(), chain.clone());
        Arc::new(move |method: String, params: serde_json::Value| {
            let (armed, survivor, chain, upstream, http, snapshot, pair_created) = (
                armed.clone(),
                survivor.clone(),
                chain.clone(),
                upstream.clone(),
                http.clone(),
                snapshot.clone(),
                pair_created.clone(),
            );
            Box::pin(async move {
                let index_query = method == "eth_getLogs"
                    && params[0]["address"].is_array()
                    && (params[0]["topics"][0] == pair_created
                        || params[0]["topics"][0]
                            .as_array()
                            .is_some_and(|any| any.contains(&serde_json::json!(pair_created))));
                if index_query && armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
                    let token = on_chain(&chain, move |node, chain| {
                        reorganise(node, chain, &snapshot)
                    })
                    .await
                    .map_err(|e| node_error(&e))?;
                    *survivor.lock().unwrap() = Some(token);
                }
                let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
                let answer: serde_json::Value =
                    async { http.post(&upstream).json(&body).send().await?.json().await }
                        .await
                        .map_err(|e: reqwest::Error| node_error(&e))?;
                match answer.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(answer["result"].clone()),
                }
            })
        })
    };
    let proxied = RigChain {
        url: jsonrpc::serve(handler).await?,
        ..chain.clone()
    };
    let mut config = market_config(&proxied);
    config.market.reorg_depth = 200;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    wait_for(&client, AlertKind::NewToken, orphan).await?;

    // One more block on the old chain makes the index read logs again.
    armed.store(true, std::sync::atomic::Ordering::SeqCst);
    on_chain(&chain, |node, _| {
        node.call("evm_mine", serde_json::json!([]))
    })
    .await?;
    let deadline = Instant::now() + Duration::from_secs(30);
    let survivor = loop {
        if let Some(token) = *survivor.lock().unwrap() {
            break token;
        }
        ensure!(
            Instant::now() < deadline,
            "the index never read logs after the new block"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    ensure!(survivor != orphan);
    let alert = wait_for(&client, AlertKind::NewToken, survivor).await?;
    ensure!(alert.detail.contains("SURV"), "{}", alert.detail);
    server.stop().await
}
