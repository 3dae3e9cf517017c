//! Signed webhooks, with a local receiver: matching alerts arrive signed
//! (verified with the receivers' recipe), failed deliveries are retried on
//! the back-off schedule and survive a restart, two instances deliver each
//! event once, secrets rotate with a grace period, a subscription failing
//! for a day is disabled and its failed events can be redelivered, targets on private networks are refused, and
//! subscriptions are managed and paged.

use std::time::Duration;

use anyhow::{ensure, Context as _};
use riskintel_api::{AlertKind, Plan, RiskLabel, Severity};
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::clock::Clock;
use riskintel_server::config::Config;
use riskintel_server::store::AlertRow;
use riskintel_server::webhooks::signing;
use riskintel_tests::receiver::{Received, Receiver};
use riskintel_tests::{arg, err, metric, ok, within, Backend, TestServer};

const TOKEN: &str = "0x6B175474E89094C44Da98b954EedeAC495271d0F";

/// Deliveries to 127.0.0.1 allowed, looked for every 20 ms, secrets sealed.
pub(crate) fn config() -> Config {
    let mut config = Config {
        chains: Default::default(),
        ..Config::default()
    };
    config.market.enabled = false;
    config.webhooks.allow_private_targets = true;
    config.webhooks.poll_ms = 20;
    config.webhooks.timeout_ms = 2_000;
    config.webhooks.secrets_key = riskintel_server::webhooks::SealingKey("5e".repeat(32));
    config
}

pub(crate) fn alert(server: &TestServer, key: &str, chain: &str, severity: Severity) -> AlertRow {
    let rank = riskintel_server::feed::alerts::severity_rank(severity);
    AlertRow {
        id: 0,
        event_key: key.into(),
        chain: riskintel_api::ChainId::parse(chain).expect("a chain"),
        token: TOKEN.into(),
        kind: AlertKind::HoneypotDetected,
        severity,
        severity_rank: rank,
        title: format!("alert {key}"),
        detail: "d".into(),
        score_before: Some(20.0),
        label_before: Some(RiskLabel::Safe),
        score_after: Some(100.0),
        label_after: Some(RiskLabel::Critical),
        block: 7,
        observed_at: server.clock.now_seconds(),
    }
}

pub(crate) async fn raise(server: &TestServer, row: &AlertRow) -> anyhow::Result<i64> {
    server
        .store()
        .alert_insert(row)
        .await?
        .context("a new alert")
}

pub(crate) fn subscription(url: &str) -> types::WebhookCreate {
    types::WebhookCreate {
        url: arg(url),
        chains: None,
        kinds: None,
        min_severity: None,
        tokens: None,
    }
}

/// Wait until the receiver has `count` requests.
pub(crate) async fn received(receiver: &Receiver, count: usize) -> anyhow::Result<Vec<Received>> {
    within(
        Duration::from_secs(10),
        &format!("{count} deliveries"),
        || async { Ok(receiver.received().len() >= count) },
    )
    .await?;
    Ok(receiver.received())
}

pub(crate) async fn deliveries(
    client: &riskintel_client::Client,
    webhook: &str,
) -> anyhow::Result<Vec<types::WebhookDelivery>> {
    Ok(ok(client
        .webhook_delivery_list(&arg(webhook), None, None)
        .await)?
    .into_inner()
    .items)
}

conformance!(webhooks_deliver_matching_alerts_signed_and_retry);
pub async fn webhooks_deliver_matching_alerts_signed_and_retry(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, config()).await?;
    let client = server.client(&server.owner_key());
    // Two failures, then success.
    let receiver = Receiver::start(&[500, 503], 204).await?;
    let mut create = subscription(&receiver.url);
    create.chains = Some(vec![types::ChainId::Eth]);
    create.min_severity = Some(types::Severity::High);
    let created = ok(client.webhook_create(&create).await)?.into_inner();
    let (secret, id) = (created.secret.clone(), created.webhook.id.clone());
    ensure!(
        secret.starts_with("whsec_") && secret.len() == 6 + 64,
        "{secret}"
    );
    ensure!(created.webhook.state == types::WebhookState::Active);

    // Only the alert that matches (eth, high or worse) is sent.
    let raised = std::time::Instant::now();
    let alert_id = raise(&server, &alert(&server, "a1", "eth", Severity::Critical)).await?;
    raise(&server, &alert(&server, "a2", "bsc", Severity::Critical)).await?;
    raise(&server, &alert(&server, "a3", "eth", Severity::Low)).await?;
    let first = received(&receiver, 1).await?;
    let latency = first[0].at - raised;
    within(Duration::from_secs(5), "the attempt recorded", || async {
        Ok(deliveries(&client, &id).await?[0].attempts == 1)
    })
    .await?;
    let log = deliveries(&client, &id).await?;
    ensure!(log.len() == 1, "{log:?}");
    let entry = &log[0];
    ensure!(
        entry.state == types::DeliveryState::Pending
            && entry.attempts == 1
            && entry.last_status == Some(500)
            && entry.alert_id.as_deref() == Some(alert_id.to_string().as_str()),
        "{entry:?}"
    );
    // The first retry waits 30 s (and up to a tenth more).
    let wait = entry.next_attempt_at.context("a retry")? - server.clock.now();
    ensure!((30..=34).contains(&wait.num_seconds()), "{wait}");

    server.clock.advance(chrono::Duration::seconds(29));
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(receiver.received().len() == 1, "retried early");
    server.clock.advance(chrono::Duration::seconds(6));
    received(&receiver, 2).await?;
    // The receiver has answered; the second retry is scheduled (60 s from
    // the clock then) only once the worker records the failure: wait for
    // it, or the clock could move before and the retry fall after it.
    within(
        Duration::from_secs(5),
        "the second attempt recorded",
        || async { Ok(deliveries(&client, &id).await?[0].attempts == 2) },
    )
    .await?;
    // The second retry waits 60 s.
    server.clock.advance(chrono::Duration::seconds(67));
    let all = received(&receiver, 3).await?;
    within(Duration::from_secs(5), "recorded as delivered", || async {
        Ok(deliveries(&client, &id).await?[0].state == types::DeliveryState::Delivered)
    })
    .await?;
    let entry = &deliveries(&client, &id).await?[0];
    ensure!(
        entry.attempts == 3 && entry.last_status == Some(204) && entry.next_attempt_at.is_none()
    );
    ensure!(
        entry.delivered_at.is_some() && entry.last_error.is_none(),
        "{entry:?}"
    );

    // Every attempt: the same event, signed over its exact body.
    let now = server.clock.now().timestamp();
    for request in &all {
        ensure!(request.path == "/hook");
        ensure!(request.header("content-type") == "application/json");
        ensure!(request.header("riskintel-event-id") == entry.event_id);
        ensure!(
            request.body == all[0].body,
            "the body changed between attempts"
        );
        signing::verify(
            &secret,
            request.header("riskintel-signature"),
            &request.body,
            now,
        )
        .map_err(|e| anyhow::anyhow!("signature: {e}"))?;
        ensure!(signing::verify(
            "whsec_other",
            request.header("riskintel-signature"),
            &request.body,
            now
        )
        .is_err());
    }
    let event = all[0].json();
    ensure!(
        event["id"] == entry.event_id.as_str() && event["type"] == "risk_alert",
        "{event}"
    );
    ensure!(event["webhook_id"] == id.as_str(), "{event}");
    ensure!(
        event["data"]["id"] == alert_id.to_string().as_str()
            && event["data"]["kind"] == "honeypot_detected"
            && event["data"]["address"] == TOKEN,
        "{event}"
    );
    let subscription = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    ensure!(subscription.failing_since.is_none(), "{subscription:?}");

    // A test event: signed, delivered, logged.
    receiver.answer(&[], 200);
    let ping = ok(client.webhook_test_send(&arg(&id)).await)?;
    ensure!(ping.status() == 202);
    let ping = ping.into_inner().event_id;
    let all = received(&receiver, 4).await?;
    let body = all[3].json();
    ensure!(
        body["type"] == "ping" && body["id"] == ping.as_str() && body["data"].is_null(),
        "{body}"
    );
    signing::verify(
        &secret,
        all[3].header("riskintel-signature"),
        &all[3].body,
        now,
    )
    .map_err(|e| anyhow::anyhow!("ping signature: {e}"))?;
    within(
        Duration::from_secs(5),
        "the ping logged as delivered",
        || async {
            let log = deliveries(&client, &id).await?;
            Ok(log
                .iter()
                .any(|d| d.event_id == ping && d.state == types::DeliveryState::Delivered))
        },
    )
    .await?;

    // The log pages, newest first: the ping, then the alert.
    let first_page = ok(client
        .webhook_delivery_list(&arg(&id), std::num::NonZeroU32::new(1), None)
        .await)?
    .into_inner();
    let token = first_page.next_page.clone().context("a second page")?;
    let second_page = ok(client
        .webhook_delivery_list(&arg(&id), std::num::NonZeroU32::new(1), Some(&token))
        .await)?
    .into_inner();
    ensure!(
        first_page.items[0].event_id == ping
            && second_page.items.len() == 1
            && second_page.items[0].event_id == entry.event_id
            && second_page.next_page.is_none(),
        "{first_page:?} {second_page:?}"
    );
    // Nothing else arrives: the other alerts did not match.
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(receiver.received().len() == 4);
    let metrics = server.metrics().await?;
    let retries = metric(
        &metrics,
        "riskintel_webhook_deliveries_total",
        &[("outcome", "retry")],
    );
    ensure!(retries.unwrap_or_default() >= 2.0, "{retries:?}");
    ensure!(
        !server.log_text().contains(&secret[6..]),
        "the secret reached the log"
    );
    eprintln!("webhook delivery latency (alert recorded → receiver, poll 20 ms): {latency:?}");
    server.stop().await
}

conformance!(webhook_deliveries_survive_a_restart_and_two_instances_deliver_once);
pub async fn webhook_deliveries_survive_a_restart_and_two_instances_deliver_once(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, config()).await?;
    let client = server.client(&server.owner_key());
    let receiver = Receiver::start(&[500], 200).await?;
    let id = ok(client.webhook_create(&subscription(&receiver.url)).await)?
        .into_inner()
        .webhook
        .id;
    raise(&server, &alert(&server, "r1", "eth", Severity::High)).await?;
    received(&receiver, 1).await?;
    // Stopped while the event waits for its retry; nothing is lost.
    let key = server.owner_key();
    let clock = server.clock.clone();
    let saved = server.config.clone();
    let database = server.stop_keeping_database().await?;
    let server = TestServer::start_on(database, clock.clone(), saved.clone()).await?;
    let client = server.client(&key);
    server.clock.advance(chrono::Duration::seconds(40));
    let all = received(&receiver, 2).await?;
    ensure!(all[0].header("riskintel-event-id") == all[1].header("riskintel-event-id"));
    within(
        Duration::from_secs(5),
        "delivered after the restart",
        || async {
            Ok(deliveries(&client, &id).await?[0].state == types::DeliveryState::Delivered)
        },
    )
    .await?;

    // Two instances on one database: each of 20 alerts is delivered once.
    let other = server.another_instance().await?;
    for n in 0..20 {
        raise(
            &server,
            &alert(&server, &format!("m{n}"), "eth", Severity::High),
        )
        .await?;
    }
    let all = received(&receiver, 22).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let all = if receiver.received().len() > all.len() {
        receiver.received()
    } else {
        all
    };
    let mut ids: Vec<&str> = all[2..]
        .iter()
        .map(|r| r.header("riskintel-event-id"))
        .collect();
    ids.sort();
    ids.dedup();
    ensure!(
        ids.len() == 20 && all.len() == 22,
        "{} requests, {} events",
        all.len(),
        ids.len()
    );
    other.stop().await?;

    // An instance without the sealing key cannot sign: the event waits,
    // with the reason, and neither counts an attempt nor marks the
    // subscription failing; with the key back, it is delivered.
    let database = server.stop_keeping_database().await?;
    let mut keyless = saved.clone();
    keyless.webhooks.secrets_key = Default::default();
    let server = TestServer::start_on(database, clock.clone(), keyless).await?;
    let client = server.client(&key);
    let ping = ok(client.webhook_test_send(&arg(&id)).await)?
        .into_inner()
        .event_id;
    let waiting = || async {
        let log = deliveries(&client, &id).await?;
        let entry = log.into_iter().find(|d| d.event_id == ping);
        anyhow::Ok(entry.filter(|d| {
            d.last_error
                .as_deref()
                .is_some_and(|e| e.contains("secrets_key"))
        }))
    };
    within(Duration::from_secs(5), "the event put off", || async {
        Ok(waiting().await?.is_some())
    })
    .await?;
    let entry = waiting().await?.context("the event")?;
    ensure!(
        entry.state == types::DeliveryState::Pending && entry.attempts == 0,
        "{entry:?}"
    );
    let view = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    ensure!(
        view.failing_since.is_none() && view.state == types::WebhookState::Active,
        "{view:?}"
    );
    ensure!(receiver.received().len() == 22);
    // A subscription made meanwhile has its secret stored as issued ...
    let plain = ok(client.webhook_create(&subscription(&receiver.url)).await)?.into_inner();
    let stored = |server: &TestServer| {
        let store = server.store();
        let id = plain.webhook.id.clone();
        async move { anyhow::Ok(store.webhook(None, &id).await?.context("stored")?.secret) }
    };
    ensure!(stored(&server).await? == plain.secret);
    let database = server.stop_keeping_database().await?;
    let server = TestServer::start_on(database, clock, saved).await?;
    // ... and sealed when an instance with the key starts.
    let sealed = stored(&server).await?;
    ensure!(
        sealed.starts_with("sealed:v1:") && !sealed.contains(&plain.secret[6..]),
        "{sealed}"
    );
    server.clock.advance(chrono::Duration::seconds(35));
    let all = received(&receiver, 23).await?;
    ensure!(all[22].header("riskintel-event-id") == ping);
    let client = server.client(&key);
    ok(client.webhook_test_send(&arg(&plain.webhook.id)).await)?;
    let all = received(&receiver, 24).await?;
    signing::verify(
        &plain.secret,
        all[23].header("riskintel-signature"),
        &all[23].body,
        server.clock.now().timestamp(),
    )
    .map_err(|e| anyhow::anyhow!("the sealed secret signs: {e}"))?;
    server.stop().await
}

conformance!(webhook_secrets_rotate_and_failing_subscriptions_are_disabled);
pub async fn webhook_secrets_rotate_and_failing_subscriptions_are_disabled(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, config()).await?;
    let client = server.client(&server.owner_key());
    let receiver = Receiver::start(&[], 200).await?;
    let created = ok(client.webhook_create(&subscription(&receiver.url)).await)?.into_inner();
    let (old, id) = (created.secret, created.webhook.id);
    let rotated = ok(client.webhook_secret_rotate(&arg(&id)).await)?.into_inner();
    let new = rotated.secret;
    ensure!(new != old && new.starts_with("whsec_"));
    let until = rotated
        .webhook
        .previous_secret_valid_until
        .context("a grace period")?;
    ensure!(
        until - server.clock.now() == chrono::Duration::hours(24),
        "{until}"
    );
    ensure!(rotated.webhook.secret_rotated_at.is_some());
    // Both are stored sealed, neither as issued.
    let stored = server
        .store()
        .webhook(None, &id)
        .await?
        .context("the subscription")?;
    let previous = stored.previous_secret.clone().unwrap_or_default();
    for (sealed, issued) in [(&stored.secret, &new), (&previous, &old)] {
        ensure!(
            sealed.starts_with("sealed:v1:") && !sealed.contains(&issued[6..]),
            "{sealed}"
        );
    }

    // During the grace period both secrets verify.
    ok(client.webhook_test_send(&arg(&id)).await)?;
    let all = received(&receiver, 1).await?;
    let now = server.clock.now().timestamp();
    let header = all[0].header("riskintel-signature");
    ensure!(header.matches("v1=").count() == 2, "{header}");
    for secret in [&new, &old] {
        signing::verify(secret, header, &all[0].body, now)
            .map_err(|e| anyhow::anyhow!("during the grace: {e}"))?;
    }
    // After it, only the new one.
    server.clock.advance(chrono::Duration::hours(25));
    ok(client.webhook_test_send(&arg(&id)).await)?;
    let all = received(&receiver, 2).await?;
    let now = server.clock.now().timestamp();
    let header = all[1].header("riskintel-signature");
    ensure!(header.matches("v1=").count() == 1, "{header}");
    signing::verify(&new, header, &all[1].body, now).map_err(|e| anyhow::anyhow!("{e}"))?;
    ensure!(signing::verify(&old, header, &all[1].body, now).is_err());
    let view = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    ensure!(view.previous_secret_valid_until.is_none(), "{view:?}");

    // A receiver that keeps failing: after a day of failures the
    // subscription is disabled, with the reason, and its events failed.
    receiver.answer(&[], 500);
    raise(&server, &alert(&server, "d1", "eth", Severity::High)).await?;
    received(&receiver, 3).await?;
    // The receiver has answered; the worker records the failure just after.
    let mut failing = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    for _ in 0..100 {
        if failing.failing_since.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        failing = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    }
    ensure!(failing.failing_since.is_some() && failing.state == types::WebhookState::Active);
    server.clock.advance(chrono::Duration::hours(25));
    within(Duration::from_secs(10), "disabled", || async {
        Ok(ok(client.webhook_get(&arg(&id)).await)?.into_inner().state
            == types::WebhookState::Disabled)
    })
    .await?;
    let disabled = ok(client.webhook_get(&arg(&id)).await)?.into_inner();
    let reason = disabled.disabled_reason.clone().unwrap_or_default();
    ensure!(reason.contains("500"), "{reason}");
    let log = deliveries(&client, &id).await?;
    let d1 = log
        .iter()
        .find(|d| d.alert_id.is_some())
        .context("the alert's delivery")?;
    ensure!(
        d1.state == types::DeliveryState::Failed && d1.attempts == 2,
        "{log:?}"
    );
    let refused = err(
        client.webhook_test_send(&arg(&id)).await,
        409,
        ErrorCode::Conflict,
        true,
    )?;
    ensure!(refused.error.message.contains("disabled"), "{refused:?}");
    err(
        client
            .webhook_redeliver(&arg(&id), &arg(&d1.event_id))
            .await,
        409,
        ErrorCode::Conflict,
        true,
    )?;
    // Disabled: new alerts are not sent.
    raise(&server, &alert(&server, "d2", "eth", Severity::High)).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(
        receiver.received().len() == 4,
        "{}",
        receiver.received().len()
    );
    // Enabled again: the next alert is.
    receiver.answer(&[], 200);
    let enabled = ok(client.webhook_enable(&arg(&id)).await)?.into_inner();
    ensure!(enabled.state == types::WebhookState::Active && enabled.disabled_reason.is_none());

    // The failed event is sent again on request, with its id, and retried
    // from then on although it is two days old.
    err(
        client
            .webhook_redeliver(&arg(&id), &arg("evt_ping_zzzzzzzzzzzz"))
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    receiver.answer(&[503], 200);
    let queued = ok(client
        .webhook_redeliver(&arg(&id), &arg(&d1.event_id))
        .await)?
    .into_inner();
    ensure!(
        queued.event_id == d1.event_id
            && queued.state == types::DeliveryState::Pending
            && queued.attempts == 0
            && queued.redelivered_at.is_some(),
        "{queued:?}"
    );
    let all = received(&receiver, 5).await?;
    ensure!(all[4].header("riskintel-event-id") == d1.event_id);
    let entry = |log: Vec<types::WebhookDelivery>| {
        log.into_iter()
            .find(|d| d.event_id == d1.event_id)
            .context("the redelivered event")
    };
    within(
        Duration::from_secs(5),
        "the failed attempt recorded",
        || async { Ok(entry(deliveries(&client, &id).await?)?.attempts == 1) },
    )
    .await?;
    let retrying = entry(deliveries(&client, &id).await?)?;
    ensure!(
        retrying.state == types::DeliveryState::Pending && retrying.last_status == Some(503),
        "{retrying:?}"
    );
    // Asked again while pending: left as it is.
    let same = ok(client
        .webhook_redeliver(&arg(&id), &arg(&d1.event_id))
        .await)?
    .into_inner();
    ensure!(
        same.attempts == 1 && same.next_attempt_at == retrying.next_attempt_at,
        "{same:?}"
    );
    server.clock.advance(chrono::Duration::seconds(35));
    let all = received(&receiver, 6).await?;
    ensure!(
        all[5].header("riskintel-event-id") == d1.event_id
            && all[5].json()["data"]["title"] == "alert d1",
        "{}",
        all[5].json()
    );
    within(
        Duration::from_secs(5),
        "the redelivery recorded",
        || async {
            let d = entry(deliveries(&client, &id).await?)?;
            Ok(d.state == types::DeliveryState::Delivered && d.attempts == 2)
        },
    )
    .await?;

    raise(&server, &alert(&server, "d3", "eth", Severity::High)).await?;
    let all = received(&receiver, 7).await?;
    ensure!(
        all[6].json()["data"]["title"] == "alert d3",
        "{}",
        all[6].json()
    );
    // An account moved to Free keeps its subscriptions but gets nothing.
    let owner = server.owner.as_ref().context("owner")?.account.id.clone();
    server.store().account_set_plan(&owner, Plan::Free).await?;
    raise(&server, &alert(&server, "d4", "eth", Severity::High)).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(
        receiver.received().len() == 7,
        "{}",
        receiver.received().len()
    );
    server.stop().await
}

conformance!(webhook_targets_are_guarded_and_subscriptions_managed);
pub async fn webhook_targets_are_guarded_and_subscriptions_managed(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    let client = server.client(&key);
    // Private, loopback and plain-http targets are refused by default.
    for (url, says) in [
        ("http://127.0.0.1:9/hook", "https"),
        ("https://127.0.0.1:9/hook", "internal"),
        ("https://10.0.0.1/hook", "internal"),
        ("https://[::1]/hook", "internal"),
        ("https://169.254.169.254/latest", "internal"),
        ("https://localhost:9/hook", "internal"),
        ("ftp://example.com/hook", "https"),
    ] {
        let refused = err(
            client.webhook_create(&subscription(url)).await,
            422,
            ErrorCode::ValidationError,
            true,
        )?;
        ensure!(refused.error.message.contains(says), "{url}: {refused:?}");
    }
    // Values the document rules out, sent as raw JSON.
    for body in [
        serde_json::json!({"url": "not a url"}),
        serde_json::json!({"url": "https://8.8.8.8/h", "chains": ["doge"]}),
        serde_json::json!({"url": "https://8.8.8.8/h", "tokens": ["0x1234"]}),
    ] {
        server
            .raw_err(
                &key,
                "/v1/webhooks",
                Some(body),
                422,
                ErrorCode::ValidationError,
            )
            .await?;
    }

    // A public target is accepted (nothing is sent until an event), its
    // filters kept in the form alerts carry.
    let mut create = subscription("https://8.8.8.8/hook");
    create.kinds = Some(vec![
        types::AlertKind::LiquidityRemoved,
        types::AlertKind::HoneypotDetected,
    ]);
    create.tokens = Some(vec![arg(TOKEN.to_lowercase())]);
    let first = ok(client.webhook_create(&create).await)?
        .into_inner()
        .webhook;
    ensure!(
        first.tokens == [TOKEN]
            && first.kinds.len() == 2
            && first.min_severity == types::Severity::Info,
        "{first:?}"
    );
    // Changed: what is given replaces, the rest stays; a refused URL changes nothing.
    let change = types::WebhookUpdate {
        url: Some(arg("https://8.8.4.4/other")),
        chains: None,
        kinds: Some(Vec::new()),
        min_severity: Some(types::Severity::High),
        tokens: None,
    };
    let changed = ok(client.webhook_update(&arg(&first.id), &change).await)?.into_inner();
    ensure!(
        changed.url == "https://8.8.4.4/other"
            && changed.kinds.is_empty()
            && changed.min_severity == types::Severity::High
            && changed.tokens == [TOKEN]
            && changed.created_at == first.created_at,
        "{changed:?}"
    );
    let private = types::WebhookUpdate {
        url: Some(arg("https://10.0.0.1/hook")),
        ..change.clone()
    };
    err(
        client.webhook_update(&arg(&first.id), &private).await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    let kept = ok(client.webhook_get(&arg(&first.id)).await)?.into_inner();
    ensure!(kept.url == "https://8.8.4.4/other", "{kept:?}");
    let mut ids = vec![first.id.clone()];
    for n in 0..19 {
        server.clock.advance(chrono::Duration::seconds(1));
        let url = format!("https://8.8.8.8/hook/{n}");
        ids.push(
            ok(client.webhook_create(&subscription(&url)).await)?
                .into_inner()
                .webhook
                .id,
        );
    }
    let full = err(
        client
            .webhook_create(&subscription("https://8.8.8.8/21"))
            .await,
        409,
        ErrorCode::Conflict,
        true,
    )?;
    ensure!(full.error.message.contains("20"), "{full:?}");
    // Pages, oldest first.
    let mut listed = Vec::new();
    let mut page = ok(client
        .webhook_list(std::num::NonZeroU32::new(7), None)
        .await)?
    .into_inner();
    loop {
        listed.extend(page.items.iter().map(|w| w.id.clone()));
        let Some(token) = page.next_page.clone() else {
            break;
        };
        page = ok(client.webhook_list(None, Some(&token)).await)?.into_inner();
    }
    ensure!(listed == ids, "{listed:?}");
    // Another account sees none of them.
    let other = server.account("other", Plan::Pro).await?;
    let stranger = server.client(&other.key.key);
    err(
        stranger.webhook_get(&arg(&first.id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        stranger.webhook_update(&arg(&first.id), &change).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        stranger.webhook_delete(&arg(&first.id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ensure!(ok(stranger.webhook_list(None, None).await)?
        .into_inner()
        .items
        .is_empty());
    // Deleted: gone, and a place is free again.
    ok(client.webhook_delete(&arg(&first.id)).await)?;
    err(
        client.webhook_get(&arg(&first.id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        client
            .webhook_delivery_list(&arg(&first.id), None, None)
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ok(client
        .webhook_create(&subscription("https://8.8.8.8/again"))
        .await)?;
    server
        .raw_err(
            &key,
            "/v1/webhooks/wh_zzzzzzzzzzzz/rotate-secret",
            Some(serde_json::json!({})),
            404,
            ErrorCode::NotFound,
        )
        .await?;
    server.stop().await
}
