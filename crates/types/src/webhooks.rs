//! Signed webhooks: `/v1/webhooks`. A subscription names an `https` URL and
//! filters; every alert of the feed that matches is POSTed to it, signed.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Alert, AlertKind, Report, Severity};

/// The most subscriptions one account may hold.
pub const WEBHOOKS_PER_ACCOUNT: usize = 20;

/// The most token addresses one subscription may watch.
pub const WATCHED_TOKENS_MAX: usize = 100;

/// A request to subscribe a URL to the alert feed.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookCreate {
    /// Where events are POSTed: an `https` URL whose host is, and resolves
    /// to, a public address (an operator may allow private and loopback
    /// targets, and plain `http` to them, for testing).
    pub url: String,
    /// Only alerts on these chains; omitted or empty for every chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains: Option<Vec<String>>,
    /// Only alerts of these kinds; omitted or empty for every kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kinds: Option<Vec<AlertKind>>,
    /// Only alerts at least this severe; omitted for every severity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_severity: Option<Severity>,
    /// Only alerts about these token addresses (a watch-list, at most 100, on
    /// any chain); omitted or empty for every token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<String>>,
}

/// Changes to a subscription: each field given replaces the subscription's
/// (an empty list: all), each field omitted stays as it is. The secret, the
/// state and the delivery log are not changed.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct WebhookUpdate {
    /// A new target, checked as on creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Only alerts on these chains; empty for every chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains: Option<Vec<String>>,
    /// Only alerts of these kinds; empty for every kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kinds: Option<Vec<AlertKind>>,
    /// Only alerts at least this severe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_severity: Option<Severity>,
    /// Only alerts about these token addresses (at most 100); empty for every token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<String>>,
}

/// Whether a subscription receives events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookState {
    /// Matching alerts are delivered.
    Active,
    /// Deliveries failed for longer than the service retries (about 24 hours)
    /// and the subscription was stopped; `disabled_reason` says why. Events
    /// are no longer queued for it.
    Disabled,
}

/// A webhook subscription. Its signing secret is never part of it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Webhook {
    /// The subscription id, `wh_` and 12 of `[a-z0-9]`.
    pub id: String,
    /// Where events are POSTed.
    pub url: String,
    /// Chains whose alerts are sent; empty for every chain.
    pub chains: Vec<String>,
    /// Kinds of alerts sent; empty for every kind.
    pub kinds: Vec<AlertKind>,
    /// The least severity of the alerts sent.
    pub min_severity: Severity,
    /// Token addresses whose alerts are sent; empty for every token.
    pub tokens: Vec<String>,
    /// Whether events are delivered.
    pub state: WebhookState,
    /// Why the subscription was disabled (its last failure and since when); null while active.
    pub disabled_reason: Option<String>,
    /// Since when every delivery has failed; null when the last one succeeded or none failed.
    pub failing_since: Option<DateTime<Utc>>,
    /// When the subscription was created.
    pub created_at: DateTime<Utc>,
    /// When the signing secret was last rotated; null if never.
    pub secret_rotated_at: Option<DateTime<Utc>>,
    /// Until when deliveries are also signed with the secret replaced by the
    /// last rotation (a second `v1=`); null when they are not.
    pub previous_secret_valid_until: Option<DateTime<Utc>>,
}

/// A newly issued signing secret, shown this once, and the subscription.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookSecret {
    /// The signing secret, `whsec_` and 64 hex: the HMAC-SHA256 key of the
    /// `Riskintel-Signature` header. It cannot be shown again.
    pub secret: String,
    /// The subscription.
    pub webhook: Webhook,
}

/// Path of one subscription.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct WebhookPath {
    /// The subscription id.
    #[serde(rename = "webhookId")]
    pub webhook_id: String,
}

/// Which failed events to send again.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookRecover {
    /// Every event queued at or after this time that failed is sent again.
    pub since: DateTime<Utc>,
}

/// Failed events queued again.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookRecovery {
    /// How many events were queued again.
    pub queued: u64,
}

/// Path of one event in a subscription's delivery log.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct WebhookDeliveryPath {
    /// The subscription id.
    #[serde(rename = "webhookId")]
    pub webhook_id: String,
    /// The event id (`Riskintel-Event-Id`).
    #[serde(rename = "eventId")]
    pub event_id: String,
}

/// Where a listing of subscriptions resumes: the last one of the previous page.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookPageSelector {
    /// Creation time of the last subscription listed.
    pub created_at: DateTime<Utc>,
    /// Id of the last subscription listed.
    pub id: String,
}

/// What an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookEventType {
    /// An alert of the feed that matches the subscription (`data` is the alert).
    RiskAlert,
    /// A test event asked for with `POST /v1/webhooks/{webhookId}/test` (no `data`).
    Ping,
    /// The operator answered one of the account's reports (`report` is the
    /// report with its answer). Sent to every active subscription of the
    /// reporting account (on Pro or Pro+), whatever its filters (they
    /// choose alerts).
    ReportAnswered,
}

/// The body of every delivery (`application/json`), signed in the
/// `Riskintel-Signature` header.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookEvent {
    /// The event id, also sent as `Riskintel-Event-Id`: the same on every
    /// attempt, so a receiver that stores it handles each event once.
    pub id: String,
    /// What the event is.
    #[serde(rename = "type")]
    pub event_type: WebhookEventType,
    /// When the event was raised.
    pub created_at: DateTime<Utc>,
    /// The subscription it was delivered to.
    pub webhook_id: String,
    /// The alert, as the feed lists it (`risk_alert`); null otherwise.
    pub data: Option<Alert>,
    /// The answered report (`report_answered`); null otherwise.
    #[serde(default)]
    pub report: Option<Report>,
}

/// A test event queued for delivery.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookTestEvent {
    /// The `ping` event's id; its delivery shows in the delivery log.
    pub event_id: String,
}

/// How an event's delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    /// Not delivered yet: waiting for its first attempt or a retry (`next_attempt_at`).
    Pending,
    /// The receiver answered 2xx.
    Delivered,
    /// Every attempt failed for longer than the service retries, or the
    /// subscription was disabled; no more attempts.
    Failed,
}

/// One event's delivery to a subscription.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookDelivery {
    /// The event id (`Riskintel-Event-Id`).
    pub event_id: String,
    /// What the event is.
    pub event_type: WebhookEventType,
    /// The alert's id, for a `risk_alert`.
    pub alert_id: Option<String>,
    /// How the delivery stands.
    pub state: DeliveryState,
    /// Attempts made so far (since the last redelivery, if any).
    pub attempts: u32,
    /// The HTTP status of the last attempt; null when none was made or it got no answer.
    pub last_status: Option<u16>,
    /// What went wrong with the last attempt (no answer, a timeout, a refused
    /// target, or the status); null when none failed.
    pub last_error: Option<String>,
    /// When the event was queued.
    pub created_at: DateTime<Utc>,
    /// When the next attempt is due, while pending.
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When the receiver accepted it.
    pub delivered_at: Option<DateTime<Utc>>,
    /// When it was last queued again with `redeliver`; null if never.
    pub redelivered_at: Option<DateTime<Utc>>,
}

/// Where a delivery log page resumes: the last event of the previous page.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WebhookDeliveryPageSelector {
    /// When the last event listed was queued.
    pub created_at: DateTime<Utc>,
    /// Its id.
    pub event_id: String,
}
