//! The operator's overrides of labels, through the generated client and
//! the operator's command line, on two instances: every view shows the
//! override beside the engine's own verdict, an expiry and a removal
//! bring the engine's label back at once, and each change raises one
//! alert, delivered once.

use std::time::Duration;

use anyhow::{ensure, Context as _};
use riskintel_client::types;
use riskintel_server::clock::Clock;
use riskintel_tests::receiver::Receiver;
use riskintel_tests::rig::{self, random_address};
use riskintel_tests::{arg, header, ok, within, Backend, TestServer};

use super::disputes::{disputes_config, CollectAll as _};
use super::webhooks::{received, subscription};

/// The label (and override) every view shows for one token.
#[derive(Debug)]
struct Shown {
    #[allow(dead_code)] // names the view in failure messages
    view: &'static str,
    label: types::RiskLabel,
    label_override: Option<types::LabelOverride>,
}

/// What every view of `client`'s server shows for `token` (held by `wallet`).
async fn every_view(
    server: &TestServer,
    key: &str,
    client: &riskintel_client::Client,
    token: &str,
    wallet: &str,
) -> anyhow::Result<(Vec<Shown>, String, String)> {
    let mut shown = Vec::new();
    let a = ok(client.token_analyze(arg("eth"), &arg(token), None).await)?.into_inner();
    shown.push(Shown {
        view: "analysis",
        label: a.label,
        label_override: a.override_,
    });
    let q = ok(client
        .token_analyze_query(&arg(token), arg("eth"), None)
        .await)?
    .into_inner();
    shown.push(Shown {
        view: "query",
        label: q.label,
        label_override: q.override_,
    });
    let batch = types::BatchAnalysisRequest {
        items: vec![types::BatchItem {
            chain: "eth".into(),
            address: token.into(),
        }],
        fresh: None,
    };
    let b = ok(client.token_batch_analyze(&batch).await)?.into_inner();
    let item = b.results[0]
        .analysis
        .clone()
        .context("the batch's analysis")?;
    shown.push(Shown {
        view: "batch",
        label: item.label,
        label_override: item.override_,
    });
    let e = ok(client
        .token_explanation_get(arg("eth"), &arg(token), None)
        .await)?
    .into_inner();
    shown.push(Shown {
        view: "explanation",
        label: e.label,
        label_override: e.override_,
    });
    let w = ok(client.wallet_analyze(arg("eth"), &arg(wallet)).await)?.into_inner();
    let holding = w
        .holdings
        .iter()
        .find(|h| h.token == token)
        .context("the holding")?;
    let risk = holding.risk.clone().context("the holding's risk")?;
    shown.push(Shown {
        view: "wallet",
        label: risk.label,
        label_override: risk.override_,
    });
    let top = ok(client
        .market_top_tokens_list(Some(types::ChainId::Eth), None, None, None, None)
        .await)?
    .into_inner();
    let row = top
        .items
        .iter()
        .find(|t| t.address == token)
        .context("the top token")?;
    shown.push(Shown {
        view: "top tokens",
        label: row.label,
        label_override: row.override_.clone(),
    });
    let badge = reqwest::Client::new()
        .get(format!("{}/v1/token/eth/{token}/badge", server.base_url))
        .header("x-api-key", key)
        .send()
        .await?
        .text()
        .await?;
    Ok((shown, e.summary, badge))
}

/// Every view shows `label`, with `computed` as the engine's label when an override is in force.
fn all_show(shown: &[Shown], label: types::RiskLabel, computed: Option<types::RiskLabel>) -> bool {
    shown.iter().all(|s| {
        s.label == label
            && s.label_override
                .as_ref()
                .map(|o| (o.label, o.computed_label))
                == computed.map(|c| (label, c))
    })
}

/// The `override_changed` alerts recorded.
async fn override_alerts(
    server: &TestServer,
) -> anyhow::Result<Vec<riskintel_server::store::AlertRow>> {
    Ok(server
        .store()
        .alerts(&riskintel_server::store::AlertQuery {
            kind: Some(riskintel_api::AlertKind::OverrideChanged),
            limit: 100,
            ..Default::default()
        })
        .await?)
}

conformance!(overrides_show_beside_the_engines_verdict_everywhere);
pub async fn overrides_show_beside_the_engines_verdict_everywhere(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, disputes_config()?).await?;
    let other = server.another_instance().await?;
    let rig = rig::shared()?;
    let plain = rig.a.tokens["plain"];
    let token = plain.to_checksum(None);
    let wallet = random_address();
    let url = rig.a.url.clone();
    tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        let node = rig::Node::new(&url);
        let source = rig::holder(1_000);
        node.impersonate(source)?;
        node.exec(
            source,
            plain,
            "transfer(address,uint256)",
            &[rig::Arg::Addr(wallet), rig::Arg::Uint(rig::e18(10))],
        )?;
        Ok(())
    })
    .await??;
    let wallet = wallet.to_checksum(None);
    let key = server.owner_key();
    let (a, b) = (server.client(&key), other.client(&key));
    let engine = ok(a.token_analyze(arg("eth"), &arg(&token), None).await)?.into_inner();
    ensure!(engine.override_.is_none());
    ensure!(
        engine.label != types::RiskLabel::Critical,
        "{:?}",
        engine.label
    );
    server
        .store()
        .tracked_token_add(&riskintel_server::store::TrackedToken {
            chain: riskintel_api::ChainId::Eth,
            token: token.clone(),
            source: riskintel_server::store::TrackedSource::Analysed,
            first_seen_block: 1,
            added_at: server.clock.now_seconds(),
            last_analysed_at: None,
        })
        .await?;
    let (before, _, badge_before) = every_view(&server, &key, &a, &token, &wallet).await?;
    ensure!(all_show(&before, engine.label, None), "{before:?}");
    ensure!(!badge_before.contains("override"));
    let etag = |client_base: &str| {
        let url = format!("{client_base}/v1/token/eth/{token}/analyze");
        let key = key.clone();
        async move {
            let answer = reqwest::Client::new()
                .get(url)
                .header("x-api-key", key)
                .send()
                .await?;
            anyhow::Ok(header(answer.headers(), "etag")?.to_string())
        }
    };
    let etag_before = etag(&server.base_url).await?;
    let receiver = Receiver::start(&[], 204).await?;
    let mut hook = subscription(&receiver.url);
    hook.kinds = Some(vec![types::AlertKind::OverrideChanged]);
    ok(a.webhook_create(&hook).await)?;

    // Set from the command line (the address in any case), in force for an hour.
    server
        .operator(&[
            "overrides",
            "set",
            "--chain",
            "eth",
            "--address",
            &token.to_lowercase(),
            "--label",
            "critical",
            "--reason",
            "Its owner drains holders off-chain",
            "--expires",
            "1h",
            "--by",
            "ops@riskintel",
        ])
        .await?;
    for (name, (instance, client)) in [("first", (&server, &a)), ("second", (&other, &b))] {
        within(
            Duration::from_secs(5),
            &format!("the {name} instance shows the override"),
            || async {
                let (shown, _, _) = every_view(instance, &key, client, &token, &wallet).await?;
                Ok(all_show(
                    &shown,
                    types::RiskLabel::Critical,
                    Some(engine.label),
                ))
            },
        )
        .await?;
    }
    let (shown, summary, badge) = every_view(&other, &key, &b, &token, &wallet).await?;
    let o = shown[0].label_override.clone().context("the override")?;
    ensure!(o.reason == "Its owner drains holders off-chain" && o.set_by == "ops@riskintel");
    ensure!(o.set_at == server.clock.now_seconds());
    ensure!(o.expires_at == Some(server.clock.now_seconds() + chrono::Duration::hours(1)));
    ensure!(
        summary.contains("The operator has set its label to critical"),
        "{summary}"
    );
    ensure!(
        badge.contains("critical") && badge.contains("(override)"),
        "{badge}"
    );
    // The engine's own verdict stays: score and signals as computed.
    let overridden = ok(b.token_analyze(arg("eth"), &arg(&token), None).await)?.into_inner();
    ensure!(overridden.score == engine.score);
    ensure!(serde_json::to_value(&overridden.signals)? == serde_json::to_value(&engine.signals)?);
    ensure!(
        etag(&other.base_url).await? != etag_before,
        "the ETag changes with the override"
    );
    // The engine's stored result never carries it.
    let stored = (server.store())
        .analysis_get(riskintel_api::ChainId::Eth, &token)
        .await?;
    let stored: serde_json::Value =
        serde_json::from_str(&stored.context("a stored analysis")?.result)?;
    ensure!(
        stored["override"].is_null() && stored["label"] == serde_json::to_value(engine.label)?,
        "{stored}"
    );
    // A wallet's exposure counts the token under the label shown.
    let exposed = ok(b.wallet_analyze(arg("eth"), &arg(&wallet)).await)?.into_inner();
    let held = (exposed.holdings.iter())
        .find(|h| h.token == token)
        .context("the holding")?;
    let value = held.value_usd.context("a priced holding")?;
    ensure!(
        value > 0.0 && exposed.exposure.critical_value_usd == value,
        "{:?}",
        exposed.exposure
    );
    // Meta carries no label: unchanged.
    ok(b.token_meta_get(arg("eth"), &arg(&token), None).await)?;

    // One alert, one delivery, whatever the instances.
    let alerts = override_alerts(&server).await?;
    ensure!(alerts.len() == 1, "{alerts:?}");
    ensure!(
        serde_json::to_value(alerts[0].label_before)? == serde_json::to_value(engine.label)?,
        "{alerts:?}"
    );
    ensure!(alerts[0].label_after == Some(riskintel_api::RiskLabel::Critical));
    ensure!(alerts[0].severity == riskintel_api::Severity::Critical);
    let delivered = received(&receiver, 1).await?;
    ensure!(delivered[0].json()["data"]["kind"] == "override_changed");
    let listed: Vec<types::Alert> = a
        .feed_risk_alerts_list_stream(
            None,
            Some(types::AlertKind::OverrideChanged),
            None,
            None,
            None,
        )
        .try_collect_all()
        .await?;
    ensure!(
        listed.len() == 1 && listed[0].address == token,
        "{listed:?}"
    );

    // An hour later it has expired: the engine's label at once, one alert of its end.
    server.clock.advance(chrono::Duration::minutes(61));
    for (instance, client) in [(&server, &a), (&other, &b)] {
        let (shown, _, _) = every_view(instance, &key, client, &token, &wallet).await?;
        ensure!(all_show(&shown, engine.label, None), "{shown:?}");
    }
    within(Duration::from_secs(5), "the expiry's alert", || async {
        Ok(override_alerts(&server).await?.len() == 2)
    })
    .await?;
    received(&receiver, 2).await?;

    // Set again until removed, then removed: the engine's label, two more alerts.
    server
        .operator(&[
            "overrides",
            "set",
            "--chain",
            "eth",
            "--address",
            &token,
            "--label",
            "risky",
            "--reason",
            "watch",
        ])
        .await?;
    within(Duration::from_secs(5), "the new override", || async {
        let (shown, _, _) = every_view(&other, &key, &b, &token, &wallet).await?;
        Ok(all_show(
            &shown,
            types::RiskLabel::Risky,
            Some(engine.label),
        ))
    })
    .await?;
    server
        .operator(&["overrides", "remove", "--chain", "eth", "--address", &token])
        .await?;
    within(Duration::from_secs(5), "the removal", || async {
        let (shown, _, _) = every_view(&other, &key, &b, &token, &wallet).await?;
        Ok(all_show(&shown, engine.label, None))
    })
    .await?;
    let removed_twice = server
        .operator(&["overrides", "remove", "--chain", "eth", "--address", &token])
        .await;
    ensure!(removed_twice.is_err(), "removing nothing is an error");
    let alerts = override_alerts(&server).await?;
    ensure!(alerts.len() == 4, "{alerts:?}");
    let delivered = received(&receiver, 4).await?;
    let ids: std::collections::BTreeSet<String> = delivered
        .iter()
        .map(|d| d.header("riskintel-event-id").to_string())
        .collect();
    ensure!(
        ids.len() == delivered.len(),
        "each alert delivered once: {ids:?}"
    );

    // Bad overrides are refused before anything is stored: a malformed
    // address, an unknown label, an empty reason, an expiry in the past.
    for (address, label, reason, expires) in [
        ("0x12", "safe", "r", "1h"),
        (token.as_str(), "fine", "r", "1h"),
        (token.as_str(), "safe", "", "1h"),
        (token.as_str(), "safe", "r", "2020-01-01T00:00:00Z"),
    ] {
        let args = [
            "overrides",
            "set",
            "--chain",
            "eth",
            "--address",
            address,
            "--label",
            label,
            "--reason",
            reason,
            "--expires",
            expires,
        ];
        ensure!(server.operator(&args).await.is_err(), "{args:?}");
    }
    ensure!(override_alerts(&server).await?.len() == 4);
    Ok(())
}
