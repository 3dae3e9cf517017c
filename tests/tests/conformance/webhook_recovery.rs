//! Recovering from a receiver's outage: the events that failed since a
//! time are queued again in one request, once the subscription is enabled,
//! and only those; the delivery log keeps finished events 30 days.

use std::time::Duration;

use anyhow::{ensure, Context as _};
use riskintel_api::Severity;
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::clock::Clock;
use riskintel_tests::receiver::Receiver;
use riskintel_tests::{arg, err, ok, within, Backend, TestServer};

use crate::webhooks::{alert, config, deliveries, raise, received, subscription};

conformance!(webhook_failed_events_are_recovered_since_a_time);
pub async fn webhook_failed_events_are_recovered_since_a_time(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, config()).await?;
    let client = server.client(&server.owner_key());
    let receiver = Receiver::start(&[], 500).await?;
    let id = ok(client.webhook_create(&subscription(&receiver.url)).await)?
        .into_inner()
        .webhook
        .id;
    // One alert, then two an hour later, all refused by the receiver.
    let early = raise(&server, &alert(&server, "o1", "eth", Severity::High)).await?;
    let start = server.clock.now();
    server.clock.advance(chrono::Duration::hours(1));
    let later = [
        raise(&server, &alert(&server, "o2", "eth", Severity::High)).await?,
        raise(&server, &alert(&server, "o3", "eth", Severity::High)).await?,
    ];
    received(&receiver, 3).await?;
    // A day later the subscription is disabled, its events failed.
    server.clock.advance(chrono::Duration::hours(25));
    within(Duration::from_secs(10), "disabled", || async {
        Ok(ok(client.webhook_get(&arg(&id)).await)?.into_inner().state
            == types::WebhookState::Disabled)
    })
    .await?;
    let recover = |since: chrono::DateTime<chrono::Utc>| types::WebhookRecover { since };
    let half_hour_in = start + chrono::Duration::minutes(30);
    err(
        client
            .webhook_recover(&arg(&id), &recover(half_hour_in))
            .await,
        409,
        ErrorCode::Conflict,
        true,
    )?;

    // Enabled, the receiver back: the events since half an hour in are
    // queued again, the earlier one is not.
    ok(client.webhook_enable(&arg(&id)).await)?;
    receiver.answer(&[], 200);
    let before = receiver.received().len();
    let recovered = ok(client
        .webhook_recover(&arg(&id), &recover(half_hour_in))
        .await)?
    .into_inner();
    ensure!(recovered.queued == 2, "{recovered:?}");
    let all = received(&receiver, before + 2).await?;
    let mut resent: Vec<String> = all[before..]
        .iter()
        .map(|r| {
            r.json()["data"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    resent.sort();
    let mut expected: Vec<String> = later.iter().map(i64::to_string).collect();
    expected.sort();
    ensure!(resent == expected, "{resent:?}");
    within(Duration::from_secs(5), "both delivered", || async {
        let log = deliveries(&client, &id).await?;
        Ok(log
            .iter()
            .filter(|d| d.state == types::DeliveryState::Delivered)
            .count()
            == 2)
    })
    .await?;
    let log = deliveries(&client, &id).await?;
    let first = log
        .iter()
        .find(|d| d.alert_id.as_deref() == Some(early.to_string().as_str()))
        .context("the early event")?;
    ensure!(first.state == types::DeliveryState::Failed, "{first:?}");

    // From the start: only the one still failed; the delivered stay so.
    let recovered = ok(client.webhook_recover(&arg(&id), &recover(start)).await)?.into_inner();
    ensure!(recovered.queued == 1, "{recovered:?}");
    let all = received(&receiver, before + 3).await?;
    ensure!(all[before + 2].json()["data"]["id"] == early.to_string());
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(receiver.received().len() == before + 3);

    // Times far outside any database's range are answered, not refused.
    for far in ["+262142-12-31T23:59:59Z", "-262143-01-01T00:00:00Z"] {
        let body = serde_json::json!({ "since": far });
        let answer = reqwest::Client::new()
            .post(format!("{}/v1/webhooks/{id}/recover", server.base_url))
            .header("x-api-key", server.owner_key())
            .json(&body)
            .send()
            .await?;
        ensure!(answer.status() == 202, "{far}: {}", answer.status());
        let recovery: serde_json::Value = answer.json().await?;
        ensure!(recovery["queued"] == 0, "{far}: {recovery}");
    }

    // The log keeps finished events 30 days.
    server.clock.advance(chrono::Duration::days(29));
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(deliveries(&client, &id).await?.len() == 3);
    server.clock.advance(chrono::Duration::days(2));
    within(Duration::from_secs(5), "the log pruned", || async {
        Ok(deliveries(&client, &id).await?.is_empty())
    })
    .await?;
    server.stop().await
}
