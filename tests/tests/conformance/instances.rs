//! Several instances on one PostgreSQL, each a process of its own, against
//! the rig's anvil behind a counting proxy: one instance indexes each
//! chain, so the index's upstream requests do not grow with the number of
//! instances; when the leader is killed (`SIGKILL`), another takes the
//! chain over within the lease; no alert is lost or doubled on the way.

use std::time::{Duration, Instant};

use anyhow::{ensure, Context as _};
use riskintel_client::types::AlertKind;
use riskintel_tests::instances::{write_config, Instance};
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::{Backend, TestDatabase};

use crate::market::{all_alerts, fresh_chain, launch, market_config, on_chain, wait_for};

/// The lease the instances run with.
const LEASE: Duration = Duration::from_millis(1_500);

/// The instance leading `eth`'s index, as `instance`'s health says.
async fn leader(instance: &Instance) -> anyhow::Result<Option<String>> {
    let health = instance.anonymous().health_get().await?.into_inner();
    let eth = health
        .chains
        .iter()
        .find(|c| c.chain == "eth")
        .context("eth")?;
    Ok(eth.market_index_leader.clone())
}

/// Wait until `instance`'s health names a leader of `eth` for which
/// `accept` holds; the leader.
async fn wait_for_leader(
    instance: &Instance,
    within: Duration,
    accept: impl Fn(&str) -> bool,
) -> anyhow::Result<String> {
    let deadline = Instant::now() + within;
    loop {
        if let Some(name) = leader(instance).await?.filter(|n| accept(n)) {
            return Ok(name);
        }
        ensure!(
            Instant::now() < deadline,
            "no new leader of eth within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Upstream requests the instances make in `window` while the chain is quiet.
async fn quiet_requests(proxy: &riskintel_tests::latency::LatencyProxy) -> u64 {
    // Past the start-up reads of any instance just started.
    tokio::time::sleep(Duration::from_secs(1)).await;
    proxy.reset();
    tokio::time::sleep(Duration::from_secs(4)).await;
    proxy.count()
}

conformance!(instances_elect_one_indexer_per_chain_and_take_over_when_it_dies);
pub async fn instances_elect_one_indexer_per_chain_and_take_over_when_it_dies(
    backend: Backend,
) -> anyhow::Result<()> {
    // SQLite serves one instance: nothing to elect.
    if backend != Backend::Postgres {
        return Ok(());
    }
    let (_anvil, chain) = fresh_chain(31570).await?;
    let proxy = latency_proxy(chain.url.clone(), Duration::ZERO).await?;
    let mut proxied = chain.clone();
    proxied.url = proxy.url.clone();
    let mut config = market_config(&proxied);
    config.market.lease_ms = LEASE.as_millis() as u64;
    config.metrics_listen = String::new();
    config.log_level = "warn".into();
    let database = TestDatabase::create(Backend::Postgres).await?;
    let dir = std::env::temp_dir().join(format!("riskintel-instances-{}", std::process::id()));
    let file = write_config(&dir, &config)?;
    let spawn = |name: &str| Instance::spawn(name, &file, &database.url);

    // One instance: it leads, and its index's requests are the baseline.
    let mut instances = vec![spawn("first")?];
    let key = instances[0].owner_key.clone().context("the owner key")?;
    wait_for_leader(&instances[0], LEASE * 2, |n| n == "first").await?;
    let alone = quiet_requests(&proxy).await;
    ensure!(alone > 0, "the index made no request");

    // Two more: one leader still, and as many requests (±10 %).
    instances.push(spawn("second")?);
    instances.push(spawn("third")?);
    for instance in &instances {
        let named = leader(instance).await?;
        ensure!(named.as_deref() == Some("first"), "{:?} leads", named);
    }
    let three = quiet_requests(&proxy).await;
    ensure!(
        three.abs_diff(alone) * 10 <= alone,
        "three instances made {three} upstream requests where one made {alone}"
    );

    // An alert raised while all three run, once.
    let client = instances[1].client(&key);
    let (before, _) = on_chain(&chain, |node, chain| {
        launch(node, chain, "MintableToken", "ONE")
    })
    .await?;
    wait_for(&client, AlertKind::NewToken, before).await?;

    // Kill the leader: another takes the chain over within the lease, and
    // what happens on chain meanwhile is indexed once.
    instances[0].kill()?;
    let killed = Instant::now();
    let launching = {
        let chain = chain.clone();
        tokio::spawn(async move {
            on_chain(&chain, |node, chain| {
                launch(node, chain, "MintableToken", "TWO")
            })
            .await
        })
    };
    let successor = wait_for_leader(&instances[1], LEASE * 3, |n| n != "first").await?;
    let took = killed.elapsed();
    // Within the lease, and the third of one a standby may wait to ask again.
    ensure!(
        took <= LEASE + LEASE / 3 + Duration::from_millis(500),
        "{successor} took over {took:?} after the leader died (lease {LEASE:?})"
    );
    let (after, _) = launching.await??;
    wait_for(&client, AlertKind::NewToken, after).await?;
    // Every alert once: none lost, none doubled.
    let alerts = all_alerts(&client).await?;
    for token in [before, after] {
        let address = token.to_checksum(None);
        let raised = (alerts.iter())
            .filter(|a| a.kind == AlertKind::NewToken && a.address == address)
            .count();
        ensure!(raised == 1, "{raised} new-token alerts for {address}");
    }
    // The survivors' requests are as few as ever with the new leader.
    let survivors = quiet_requests(&proxy).await;
    ensure!(
        survivors.abs_diff(alone) * 10 <= alone,
        "after the failover, {survivors} upstream requests where one instance made {alone}"
    );
    drop(instances);
    let _ = std::fs::remove_dir_all(&dir);
    database.drop_database().await
}
