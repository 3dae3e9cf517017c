//! The Solana index watches tracked mints: a mint whose authorities are
//! handed on and whose transfer fee is raised is re-analysed within a poll
//! (the scheduled re-analysis is an hour away), raising `ownership_changed`,
//! `authority_changed` and `fee_changed` once, with two instances watching,
//! and delivered to a webhook; a pool drained of its SOL raises
//! `liquidity_removed` once at the next re-analysis.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::ensure;
use futures::TryStreamExt as _;
use riskintel_client::types::{self, AlertKind};

use riskintel_tests::receiver::Receiver;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, ok, within, Backend, TestServer};

use super::solana::sol_config;
use super::webhooks::{received, subscription};

async fn alerts_of(
    client: &riskintel_client::Client,
    mint: &str,
) -> anyhow::Result<Vec<types::Alert>> {
    let all: Vec<types::Alert> = client
        .feed_risk_alerts_list_stream(None, None, None, None, None)
        .try_collect()
        .await?;
    Ok(all.into_iter().filter(|a| a.address == mint).collect())
}

fn count(alerts: &[types::Alert]) -> BTreeMap<String, usize> {
    let mut n = BTreeMap::new();
    for a in alerts {
        *n.entry(a.kind.to_string()).or_default() += 1;
    }
    n
}

conformance!(solana_mint_changes_raise_their_alerts_once);
pub async fn solana_mint_changes_raise_their_alerts_once(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start_node(fixture.clone()).await?;
    let mut config = sol_config(&fixture, &node.url);
    config.market.enabled = true;
    config.market.poll_interval_ms = 100;
    config.market.reanalyse_interval_seconds = 3_600;
    let webhooks = super::webhooks::config();
    config.webhooks = webhooks.webhooks;
    let server = TestServer::start_with(backend, config).await?;
    let other = server.another_instance().await?;
    let client = server.client(&server.owner_key());
    let receiver = Receiver::start(&[], 200).await?;
    let mut hook = subscription(&receiver.url);
    hook.kinds = Some(vec![AlertKind::FeeChanged]);
    ok(client.webhook_create(&hook).await)?;

    // Analysed by a user: tracked, and its mint watched from the next poll.
    let (powers, pool) = (fixture.named("change_powers"), fixture.named("change_pool"));
    for mint in [&powers, &pool] {
        ok(client.token_analyze(arg("sol"), &arg(mint), None).await)?;
    }
    let before = ok(client.token_analyze(arg("sol"), &arg(&powers), None).await)?.into_inner();
    ensure!(before.meta.transfer_tax == Some(0.01), "{:?}", before.meta);
    tokio::time::sleep(Duration::from_millis(1_000)).await;

    node.apply("change_powers")?;
    let wanted = ["authority_changed", "fee_changed", "ownership_changed"];
    let seen = within(
        Duration::from_secs(20),
        "the mint's change alerts",
        || async {
            let n = count(&alerts_of(&client, &powers).await?);
            Ok(wanted.iter().all(|k| n.contains_key(*k)))
        },
    )
    .await;
    if let Err(e) = seen {
        anyhow::bail!("{e}: {:?}", alerts_of(&client, &powers).await?);
    }
    // A few more polls of both instances: still one of each.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let alerts = alerts_of(&client, &powers).await?;
    let n = count(&alerts);
    ensure!(wanted.iter().all(|k| n[*k] == 1), "{n:?}");
    let heir = fixture.named("change_powers_heir");
    let of = |kind: &str| alerts.iter().find(|a| a.kind.to_string() == kind).cloned();
    let fee = of("fee_changed").expect("checked");
    ensure!(
        fee.detail.contains("1.00%")
            && fee.detail.contains("20.00%")
            && fee.severity == types::Severity::High,
        "{fee:?}"
    );
    let owner = of("ownership_changed").expect("checked");
    ensure!(owner.detail.contains(&heir), "{owner:?}");
    let authority = of("authority_changed").expect("checked");
    ensure!(
        authority.title.contains("freeze authority"),
        "{authority:?}"
    );
    // The webhook got the fee change.
    let got = received(&receiver, 1).await?;
    ensure!(
        got[0].json()["data"]["alert"]["kind"] == "fee_changed"
            || got[0].json().to_string().contains("fee_changed"),
        "{}",
        got[0].json()
    );
    other.stop().await?;

    // The pool drained: the next re-analysis (due at once here) says so, once.
    node.apply("change_pool")?;
    let key = server.owner_key();
    let (mut config, clock) = (server.config.clone(), server.clock.clone());
    let database = server.stop_keeping_database().await?;
    clock.advance(chrono::Duration::seconds(3_601));
    config.market.reanalyse_interval_seconds = 1;
    let server = TestServer::start_on(database, clock, config).await?;
    let client = server.client(&key);
    within(Duration::from_secs(20), "liquidity_removed", || async {
        Ok(count(&alerts_of(&client, &pool).await?).contains_key("liquidity_removed"))
    })
    .await?;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let n = count(&alerts_of(&client, &pool).await?);
    ensure!(n["liquidity_removed"] == 1, "{n:?}");
    server.stop().await
}
