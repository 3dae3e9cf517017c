//! The webhook outbox: an alert is queued, in the transaction recording it,
//! for exactly the active subscriptions of paid accounts whose filters it
//! passes, once each; the log is pruned of old finished events only.

use riskintel_api::{DeliveryState, Plan, Severity, WebhookEventType, WebhookState};
use riskintel_server::store::{Account, EventRow, SubscriptionRow};
use riskintel_tests::Backend;

use super::{account, alert, close, open, t};

/// A subscription of `account_id` with these filters (empty: all).
fn subscription(
    id: &str,
    account_id: &str,
    chains: &[&str],
    kinds: &[&str],
    tokens: &[&str],
    min_rank: i64,
) -> SubscriptionRow {
    let list = |items: &[&str]| serde_json::to_string(items).unwrap();
    SubscriptionRow {
        id: format!("wh_{id:0>12}"),
        account_id: account_id.into(),
        url: "http://127.0.0.1:9/h".into(),
        chains: list(chains),
        kinds: list(kinds),
        tokens: list(tokens),
        min_severity: Severity::Info,
        min_severity_rank: min_rank,
        secret: "whsec_x".into(),
        previous_secret: None,
        previous_valid_until: None,
        secret_rotated_at: None,
        state: WebhookState::Active,
        disabled_reason: None,
        failing_since: None,
        created_at: t(0, 0),
    }
}

pub(super) async fn alerts_are_queued_for_the_subscriptions_they_match(backend: Backend) {
    let (store, db) = open(backend).await;
    store
        .account_insert(&Account {
            plan: Plan::Pro,
            ..account("acct_pro")
        })
        .await
        .unwrap();
    store.account_insert(&account("acct_free")).await.unwrap();
    let mut disabled = subscription("disabled", "acct_pro", &[], &[], &[], 0);
    disabled.state = WebhookState::Disabled;
    let subscriptions = [
        subscription("all", "acct_pro", &[], &[], &[], 0),
        subscription("eth", "acct_pro", &["eth", "base"], &[], &[], 0),
        subscription("removed", "acct_pro", &[], &["liquidity_removed"], &[], 0),
        subscription("token", "acct_pro", &[], &[], &["0xOther", "0xToken"], 0),
        subscription("other", "acct_pro", &[], &[], &["0xOther"], 0),
        // SQLite's LIKE ignores case; the address must still match exactly.
        subscription("uppercase", "acct_pro", &[], &[], &["0XTOKEN"], 0),
        subscription("critical", "acct_pro", &[], &[], &[], 4),
        disabled,
        subscription("free", "acct_free", &[], &[], &[], 0),
    ];
    for s in &subscriptions {
        assert!(store.webhook_insert(s, 20).await.unwrap());
    }
    let queued = async |name: &str| {
        let id = format!("wh_{name:0>12}");
        store
            .webhook_events(&id, None, 10)
            .await
            .unwrap()
            .iter()
            .map(|e| e.alert_id.unwrap())
            .collect::<Vec<_>>()
    };

    let high = store
        .alert_insert(&alert("a1", "eth", "honeypot_detected", 3, 1))
        .await
        .unwrap()
        .unwrap();
    let critical = store
        .alert_insert(&alert("a2", "bsc", "liquidity_removed", 4, 2))
        .await
        .unwrap()
        .unwrap();
    // The same alert again is not recorded, nor queued, twice.
    assert!(store
        .alert_insert(&alert("a2", "bsc", "liquidity_removed", 4, 2))
        .await
        .unwrap()
        .is_none());

    assert_eq!(queued("all").await, [critical, high]);
    assert_eq!(queued("eth").await, [high]);
    assert_eq!(queued("removed").await, [critical]);
    assert_eq!(queued("token").await, [critical, high]);
    assert_eq!(queued("critical").await, [critical]);
    for none in ["other", "uppercase", "disabled", "free"] {
        assert_eq!(queued(none).await, [] as [i64; 0], "{none}");
    }
    close(store, db).await;
}

fn event(id: &str, state: DeliveryState, minute: u32) -> EventRow {
    EventRow {
        event_id: format!("evt_ping_{id:0>12}"),
        subscription_id: format!("wh_{:0>12}", "all"),
        event_type: WebhookEventType::Ping,
        alert_id: None,
        body: Some("{}".into()),
        created_at: t(minute, 0),
        state,
        attempts: 1,
        next_attempt_at: t(minute, 0),
        claim: None,
        claimed_until: None,
        last_status: None,
        last_error: None,
        delivered_at: None,
        redelivered_at: None,
    }
}

pub(super) async fn the_delivery_log_is_pruned_of_old_finished_events(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_free")).await.unwrap();
    let row = subscription("all", "acct_free", &[], &[], &[], 0);
    assert!(store.webhook_insert(&row, 20).await.unwrap());
    let mut redelivered = event("redelivered", DeliveryState::Failed, 1);
    redelivered.redelivered_at = Some(t(30, 0));
    for e in [
        event("olddelivered", DeliveryState::Delivered, 1),
        event("oldfailed", DeliveryState::Failed, 2),
        event("oldpending", DeliveryState::Pending, 3),
        event("newdelivered", DeliveryState::Delivered, 40),
        redelivered,
    ] {
        store.webhook_event_insert(&e).await.unwrap();
    }
    assert_eq!(store.webhook_prune(t(20, 0)).await.unwrap(), 2);
    let mut left: Vec<String> = store
        .webhook_events(&row.id, None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|e| {
            e.event_id
                .trim_start_matches("evt_ping_")
                .trim_start_matches('0')
                .to_string()
        })
        .collect();
    left.sort();
    assert_eq!(left, ["newdelivered", "oldpending", "redelivered"]);
    assert_eq!(store.webhook_prune(t(20, 0)).await.unwrap(), 0);
    close(store, db).await;
}
