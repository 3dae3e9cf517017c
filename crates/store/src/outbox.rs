//! The webhook outbox: one row per event and subscription, and its
//! delivery log. Events are queued in the transaction that records their
//! alert ([`enqueue_alert`], called by `alert_insert`), claimed by one
//! instance at a time, and their attempts recorded only under the claim
//! that made them.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::{DeliveryState, WebhookEventType};

use super::{SqlStore, StoreError};
use crate::db::on_db;

/// An event queued for one subscription: the outbox row, and its delivery log.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct EventRow {
    /// `evt_…`, unique.
    pub event_id: String,
    /// Its subscription.
    pub subscription_id: String,
    /// What it is.
    pub event_type: WebhookEventType,
    /// Its alert (`risk_alert`).
    pub alert_id: Option<i64>,
    /// Its body, kept for events that have no alert to make it from.
    pub body: Option<String>,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
    /// Pending, delivered or failed.
    pub state: DeliveryState,
    /// Attempts made.
    pub attempts: i64,
    /// When the next attempt is due (pending).
    pub next_attempt_at: DateTime<Utc>,
    /// The claim of the instance delivering it.
    pub claim: Option<String>,
    /// Until when that claim holds.
    pub claimed_until: Option<DateTime<Utc>>,
    /// The last attempt's HTTP status.
    pub last_status: Option<i64>,
    /// The last attempt's failure.
    pub last_error: Option<String>,
    /// When it was delivered.
    pub delivered_at: Option<DateTime<Utc>>,
    /// When it was last queued again on request; its attempts count, and
    /// its retries last, from then.
    pub redelivered_at: Option<DateTime<Utc>>,
}

impl EventRow {
    /// When its attempts started: its creation, or its last redelivery.
    pub fn attempts_since(&self) -> DateTime<Utc> {
        self.redelivered_at.unwrap_or(self.created_at)
    }
}

/// How one attempt went.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Answered 2xx with this status.
    Delivered(u16),
    /// Failed: the status if there was an answer, what went wrong, and when
    /// to try again (None: never, the event has failed).
    Failed {
        /// The answer's status.
        status: Option<u16>,
        /// What went wrong.
        error: String,
        /// The next attempt.
        retry_at: Option<DateTime<Utc>>,
    },
}

/// One attempt to record.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The event.
    pub event_id: String,
    /// Its subscription.
    pub subscription_id: String,
    /// The claim it was made under (a stale claim records nothing).
    pub claim: String,
    /// When it ended.
    pub at: DateTime<Utc>,
    /// How it went.
    pub outcome: Outcome,
    /// A failure disables the subscription when it has failed since this
    /// time or earlier.
    pub disable_if_failing_since: DateTime<Utc>,
}

pub(crate) const EVENT_COLUMNS: &str =
    "event_id, subscription_id, event_type, alert_id, body, created_at, \
    state, attempts, next_attempt_at, claim, claimed_until, last_status, last_error, delivered_at, \
    redelivered_at";

/// Queues the events of subscription `$2`, if active, again at `$1`: pending,
/// due then, attempts and retries counted from then, the last attempt
/// forgotten. The caller adds which events.
const REQUEUE: &str = "UPDATE webhook_events SET state = 'pending', attempts = 0, \
    next_attempt_at = $1, redelivered_at = $1, delivered_at = NULL, last_status = NULL, \
    last_error = NULL WHERE subscription_id = $2 \
    AND subscription_id IN (SELECT id FROM webhook_subscriptions WHERE state = 'active')";

/// The event id of `alert_id` for `subscription_id`: the same wherever and
/// however often it is computed.
pub fn alert_event_id(alert_id: i64, subscription_id: &str) -> String {
    format!(
        "evt_{alert_id}_{}",
        subscription_id.trim_start_matches("wh_")
    )
}

/// The webhook outbox.
#[async_trait]
pub trait OutboxStore {
    /// Queue an event (a test event) unless its id is queued already.
    async fn webhook_event_insert(&self, event: &EventRow) -> Result<(), StoreError>;
    /// A subscription's events, newest first, before `before`.
    async fn webhook_events(
        &self,
        subscription_id: &str,
        before: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError>;
    /// Claim up to `limit` events due at `now` for `claim` until `until`
    /// (pending, of active subscriptions, not claimed by a live claim).
    async fn webhook_claim(
        &self,
        claim: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError>;
    /// Record an attempt made under a claim; false when the claim was lost.
    async fn webhook_record(&self, attempt: &Attempt) -> Result<bool, StoreError>;
    /// Put off an event claimed under `claim` until `at`, noting `error`,
    /// without counting an attempt (the service, not the receiver, could
    /// not send it); false when the claim was lost.
    async fn webhook_defer(
        &self,
        event_id: &str,
        claim: &str,
        at: DateTime<Utc>,
        error: &str,
    ) -> Result<bool, StoreError>;
    /// Delete the delivered and failed events last queued before `before`; how many.
    async fn webhook_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError>;
    /// Queue again at `now` every failed event of `subscription_id` queued
    /// at or after `since`, unless the subscription is not active; how many.
    async fn webhook_recover(
        &self,
        subscription_id: &str,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<u64, StoreError>;
    /// Queue event `event_id` of `subscription_id` again at `now`, unless
    /// it is pending already (then it is left as it is) or the subscription
    /// is not active; the event as it then is, None when there is no such
    /// event.
    async fn webhook_redeliver(
        &self,
        subscription_id: &str,
        event_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<EventRow>, StoreError>;
}

/// Queue `alert` (just recorded with `alert_id`) for every active
/// subscription it matches, of an account whose plan has webhooks (an
/// account moved to Free keeps its subscriptions, but gets nothing), inside
/// the transaction `tx` recording it. The database narrows the
/// subscriptions down by severity and by the quoted value in each JSON
/// filter (a superset: `LIKE` treats `_` as any character and SQLite's
/// ignores case), and [`SubscriptionRow::matches`] decides.
///
/// [`SubscriptionRow::matches`]: super::SubscriptionRow::matches
macro_rules! enqueue_alert {
    ($tx:expr, $alert:expr, $alert_id:expr) => {{
        let quoted = |value: &str| format!("%\"{value}\"%");
        let subscriptions: Vec<SubscriptionRow> = sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE state = 'active' \
             AND min_severity_rank <= $1 AND (chains = '[]' OR chains LIKE $2) \
             AND (kinds = '[]' OR kinds LIKE $3) AND (tokens = '[]' OR tokens LIKE $4) \
             AND account_id IN (SELECT id FROM accounts WHERE plan <> 'free')"
        ))
        .bind($alert.severity_rank)
        .bind(quoted($alert.chain.id()))
        .bind(quoted(riskintel_types::WireName::wire_name($alert.kind)))
        .bind(quoted(&$alert.token))
        .fetch_all(&mut *$tx)
        .await?;
        for subscription in subscriptions.iter().filter(|s| s.matches($alert)) {
            sqlx::query(
                "INSERT INTO webhook_events (event_id, subscription_id, event_type, alert_id, body, \
                 created_at, state, attempts, next_attempt_at) \
                 VALUES ($1, $2, 'risk_alert', $3, NULL, $4, 'pending', 0, $4) \
                 ON CONFLICT (event_id) DO NOTHING",
            )
            .bind(alert_event_id($alert_id, &subscription.id))
            .bind(&subscription.id)
            .bind($alert_id)
            .bind($alert.observed_at)
            .execute(&mut *$tx)
            .await?;
        }
    }};
}
pub(crate) use enqueue_alert;

/// Queue event `$event` (an [`EventRow`]) on `$executor` (a pool or a
/// transaction) unless its id is queued already: the statement's future.
macro_rules! insert_event {
    ($executor:expr, $event:expr) => {{
        let e: &EventRow = $event;
        sqlx::query(&format!(
            "INSERT INTO webhook_events ({EVENT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
             ON CONFLICT (event_id) DO NOTHING"
        ))
        .bind(&e.event_id)
        .bind(&e.subscription_id)
        .bind(e.event_type)
        .bind(e.alert_id)
        .bind(&e.body)
        .bind(e.created_at)
        .bind(e.state)
        .bind(e.attempts)
        .bind(e.next_attempt_at)
        .bind(&e.claim)
        .bind(e.claimed_until)
        .bind(e.last_status)
        .bind(&e.last_error)
        .bind(e.delivered_at)
        .bind(e.redelivered_at)
        .execute($executor)
    }};
}
pub(crate) use insert_event;

#[async_trait]
impl OutboxStore for SqlStore {
    async fn webhook_event_insert(&self, e: &EventRow) -> Result<(), StoreError> {
        on_db!(self.writer(), p => insert_event!(p, e).await.map(|_| ()))?;
        Ok(())
    }

    async fn webhook_events(
        &self,
        subscription_id: &str,
        before: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let (before_at, before_id) = before.unzip();
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {EVENT_COLUMNS} FROM webhook_events WHERE subscription_id = $1 \
             AND ($2 IS NULL OR created_at < $2 OR (created_at = $2 AND event_id < $3)) \
             ORDER BY created_at DESC, event_id DESC LIMIT $4"
        ))
        .bind(subscription_id)
        .bind(before_at)
        .bind(before_id)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn webhook_claim(
        &self,
        claim: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        // PostgreSQL: instances claiming at once skip each other's rows; the
        // outer conditions are checked again on the row as it is then.
        // SQLite: one writer at a time.
        let skip_locked = match self.writer() {
            super::db::Db::Postgres(_) => "FOR UPDATE OF e SKIP LOCKED",
            super::db::Db::Sqlite(_) => "",
        };
        Ok(on_db!(self.writer(), p => sqlx::query_as(&format!(
            "UPDATE webhook_events SET claim = $1, claimed_until = $2 WHERE event_id IN (\
             SELECT e.event_id FROM webhook_events e JOIN webhook_subscriptions s ON s.id = e.subscription_id \
             WHERE e.state = 'pending' AND e.next_attempt_at <= $3 AND s.state = 'active' \
             AND (e.claimed_until IS NULL OR e.claimed_until <= $3) \
             ORDER BY e.next_attempt_at LIMIT $4 {skip_locked}) \
             AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= $3) \
             RETURNING {EVENT_COLUMNS}"
        ))
        .bind(claim)
        .bind(until)
        .bind(now)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn webhook_record(&self, a: &Attempt) -> Result<bool, StoreError> {
        let (state, status, error, next, delivered_at) = match &a.outcome {
            Outcome::Delivered(status) => (
                DeliveryState::Delivered,
                Some(i64::from(*status)),
                None,
                a.at,
                Some(a.at),
            ),
            Outcome::Failed {
                status,
                error,
                retry_at,
            } => (
                if retry_at.is_some() {
                    DeliveryState::Pending
                } else {
                    DeliveryState::Failed
                },
                status.map(i64::from),
                Some(error.clone()),
                retry_at.unwrap_or(a.at),
                None,
            ),
        };
        let failed = matches!(a.outcome, Outcome::Failed { .. });
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            let recorded = sqlx::query(
                "UPDATE webhook_events SET state = $1, attempts = attempts + 1, last_status = $2, \
                 last_error = $3, next_attempt_at = $4, delivered_at = $5, claim = NULL, \
                 claimed_until = NULL WHERE event_id = $6 AND claim = $7",
            )
            .bind(state)
            .bind(status)
            .bind(&error)
            .bind(next)
            .bind(delivered_at)
            .bind(&a.event_id)
            .bind(&a.claim)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if recorded == 0 {
                return Ok(false);
            }
            if !failed {
                sqlx::query("UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = $1")
                    .bind(&a.subscription_id)
                    .execute(&mut *tx)
                    .await?;
            } else {
                sqlx::query(
                    "UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, $1) WHERE id = $2",
                )
                .bind(a.at)
                .bind(&a.subscription_id)
                .execute(&mut *tx)
                .await?;
                let reason = format!(
                    "every delivery failed since {{since}}; the last: {}",
                    error.clone().unwrap_or_default()
                );
                let since: Option<(Option<DateTime<Utc>>,)> = sqlx::query_as(
                    "SELECT failing_since FROM webhook_subscriptions WHERE id = $1 AND state = 'active'",
                )
                .bind(&a.subscription_id)
                .fetch_optional(&mut *tx)
                .await?;
                if let Some((Some(since),)) = since {
                    if since <= a.disable_if_failing_since {
                        sqlx::query(
                            "UPDATE webhook_subscriptions SET state = 'disabled', disabled_reason = $1 WHERE id = $2",
                        )
                        .bind(reason.replace("{since}", &since.to_rfc3339()))
                        .bind(&a.subscription_id)
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query(
                            "UPDATE webhook_events SET state = 'failed', claim = NULL, claimed_until = NULL, \
                             last_error = COALESCE(last_error, 'the subscription was disabled') \
                             WHERE subscription_id = $1 AND state = 'pending'",
                        )
                        .bind(&a.subscription_id)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
            }
            tx.commit().await?;
            Ok::<_, StoreError>(true)
        })
    }

    async fn webhook_defer(
        &self,
        event_id: &str,
        claim: &str,
        at: DateTime<Utc>,
        error: &str,
    ) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE webhook_events SET next_attempt_at = $1, last_error = $2, claim = NULL, \
             claimed_until = NULL WHERE event_id = $3 AND claim = $4",
        )
        .bind(at)
        .bind(error)
        .bind(event_id)
        .bind(claim)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    async fn webhook_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        Ok(on_db!(self.writer(), p => sqlx::query(
            "DELETE FROM webhook_events WHERE state <> 'pending' \
             AND COALESCE(redelivered_at, created_at) < $1",
        )
        .bind(before)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?)
    }

    async fn webhook_recover(
        &self,
        subscription_id: &str,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<u64, StoreError> {
        Ok(on_db!(self.writer(), p => sqlx::query(&format!(
            "{REQUEUE} AND state = 'failed' AND created_at >= $3"
        ))
        .bind(now)
        .bind(subscription_id)
        .bind(since)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?)
    }

    async fn webhook_redeliver(
        &self,
        subscription_id: &str,
        event_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<EventRow>, StoreError> {
        // A pending event is not touched: it may be claimed and in flight.
        Ok(on_db!(self.writer(), p => {
            let queued: Option<EventRow> = sqlx::query_as(&format!(
                "{REQUEUE} AND event_id = $3 AND state <> 'pending' RETURNING {EVENT_COLUMNS}"
            ))
            .bind(now)
            .bind(subscription_id)
            .bind(event_id)
            .fetch_optional(p)
            .await?;
            match queued {
                Some(event) => Some(event),
                None => sqlx::query_as(&format!(
                    "SELECT {EVENT_COLUMNS} FROM webhook_events WHERE event_id = $1 AND subscription_id = $2"
                ))
                .bind(event_id)
                .bind(subscription_id)
                .fetch_optional(p)
                .await?,
            }
        }))
    }
}
