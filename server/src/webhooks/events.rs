//! Events with no alert behind them (test events, answered reports):
//! their body made once when queued, and kept.

use chrono::{DateTime, Utc};
use riskintel_api::{DeliveryState, WebhookEvent, WebhookEventType};

use riskintel_store::EventRow;

/// A new event with no alert behind it (a test event, an answered report),
/// for one subscription, due now: its body made now and kept, so every
/// attempt sends the same. Its id is `evt_<what>_` and 12 of `[a-z0-9]`.
pub fn kept_event(
    what: &str,
    subscription_id: String,
    event_type: WebhookEventType,
    report: Option<riskintel_api::Report>,
    now: DateTime<Utc>,
) -> EventRow {
    let event_id = format!("evt_{what}_{}", crate::keys::new_key_id());
    let body = WebhookEvent {
        id: event_id.clone(),
        event_type,
        created_at: now,
        webhook_id: subscription_id.clone(),
        data: None,
        report,
    };
    EventRow {
        event_id,
        subscription_id,
        event_type,
        alert_id: None,
        body: Some(serde_json::to_string(&body).expect("an event serialises")),
        created_at: now,
        state: DeliveryState::Pending,
        attempts: 0,
        next_attempt_at: now,
        claim: None,
        claimed_until: None,
        last_status: None,
        last_error: None,
        delivered_at: None,
        redelivered_at: None,
    }
}
