//! Webhook subscriptions and their outbox. Events are queued in the
//! transaction that records their alert ([`enqueue_alert`], called by
//! `alert_insert`), claimed by one instance at a time, and their attempts
//! recorded only under the claim that made them.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_api::{DeliveryState, Severity, WebhookEventType, WebhookState};

use super::{AlertRow, SqlStore, StoreError};
use crate::on_db;

/// A subscription as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SubscriptionRow {
    /// `wh_` and 12 of `[a-z0-9]`.
    pub id: String,
    /// Its account.
    pub account_id: String,
    /// Where events go.
    pub url: String,
    /// Chain ids, a JSON array (empty: all).
    pub chains: String,
    /// Alert kinds, a JSON array (empty: all).
    pub kinds: String,
    /// Token addresses, a JSON array (empty: all).
    pub tokens: String,
    /// The least severity sent.
    pub min_severity: Severity,
    /// Its rank (info 0 … critical 4).
    pub min_severity_rank: i64,
    /// The signing secret.
    pub secret: String,
    /// The secret the last rotation replaced, signing too until `previous_valid_until`.
    pub previous_secret: Option<String>,
    /// Until when it signs.
    pub previous_valid_until: Option<DateTime<Utc>>,
    /// When the secret was last rotated.
    pub secret_rotated_at: Option<DateTime<Utc>>,
    /// Active or disabled.
    pub state: WebhookState,
    /// Why it was disabled.
    pub disabled_reason: Option<String>,
    /// Since when every delivery has failed.
    pub failing_since: Option<DateTime<Utc>>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
}

impl SubscriptionRow {
    fn list(json: &str) -> Vec<String> {
        serde_json::from_str(json).unwrap_or_default()
    }

    /// Its chain filter.
    pub fn chain_ids(&self) -> Vec<String> {
        Self::list(&self.chains)
    }

    /// Its kind filter, as wire names.
    pub fn kind_names(&self) -> Vec<String> {
        Self::list(&self.kinds)
    }

    /// Its watch-list.
    pub fn token_addresses(&self) -> Vec<String> {
        Self::list(&self.tokens)
    }

    /// Whether `alert` passes its filters.
    pub fn matches(&self, alert: &AlertRow) -> bool {
        use riskintel_api::WireName;
        let admits =
            |list: Vec<String>, value: &str| list.is_empty() || list.iter().any(|v| v == value);
        alert.severity_rank >= self.min_severity_rank
            && admits(self.chain_ids(), &alert.chain)
            && admits(self.kind_names(), alert.kind.wire_name())
            && admits(self.token_addresses(), &alert.token)
    }
}

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

pub(crate) const SUBSCRIPTION_COLUMNS: &str =
    "id, account_id, url, chains, kinds, tokens, min_severity, \
    min_severity_rank, secret, previous_secret, previous_valid_until, secret_rotated_at, state, \
    disabled_reason, failing_since, created_at";

const EVENT_COLUMNS: &str = "event_id, subscription_id, event_type, alert_id, body, created_at, \
    state, attempts, next_attempt_at, claim, claimed_until, last_status, last_error, delivered_at";

/// The event id of `alert_id` for `subscription_id`: the same wherever and
/// however often it is computed.
pub fn alert_event_id(alert_id: i64, subscription_id: &str) -> String {
    format!(
        "evt_{alert_id}_{}",
        subscription_id.trim_start_matches("wh_")
    )
}

/// Webhook subscriptions and the outbox.
#[async_trait]
pub trait WebhookStore {
    /// Add a subscription unless the account already has `limit`; false then.
    async fn webhook_insert(&self, row: &SubscriptionRow, limit: i64) -> Result<bool, StoreError>;
    /// The account's subscriptions, oldest first, after `after`.
    async fn webhooks(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<SubscriptionRow>, StoreError>;
    /// One subscription (of `account_id`, when given).
    async fn webhook(
        &self,
        account_id: Option<&str>,
        id: &str,
    ) -> Result<Option<SubscriptionRow>, StoreError>;
    /// Write a subscription's URL and filters; whether it still exists.
    async fn webhook_update(&self, row: &SubscriptionRow) -> Result<bool, StoreError>;
    /// Delete a subscription and its events; whether there was one.
    async fn webhook_delete(&self, account_id: &str, id: &str) -> Result<bool, StoreError>;
    /// Replace the signing secret, the old one signing until `previous_valid_until`.
    async fn webhook_rotate(
        &self,
        account_id: &str,
        id: &str,
        secret: &str,
        at: DateTime<Utc>,
        previous_valid_until: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Make a subscription active again, its failures forgotten.
    async fn webhook_enable(&self, account_id: &str, id: &str) -> Result<bool, StoreError>;
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
}

/// Queue `alert` (just recorded with `alert_id`) for every active
/// subscription it matches, of an account whose plan has webhooks (an
/// account moved to Free keeps its subscriptions, but gets nothing), inside
/// the transaction `tx` recording it.
macro_rules! enqueue_alert {
    ($tx:expr, $alert:expr, $alert_id:expr) => {{
        let subscriptions: Vec<SubscriptionRow> = sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE state = 'active' \
             AND account_id IN (SELECT id FROM accounts WHERE plan <> 'free')"
        ))
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

#[async_trait]
impl WebhookStore for SqlStore {
    async fn webhook_insert(&self, r: &SubscriptionRow, limit: i64) -> Result<bool, StoreError> {
        let postgres = matches!(self.writer(), super::db::Db::Postgres(_));
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            if postgres {
                // Creations in one account wait for each other here.
                sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
                    .bind(&r.account_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            }
            let (held,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM webhook_subscriptions WHERE account_id = $1")
                    .bind(&r.account_id)
                    .fetch_one(&mut *tx)
                    .await?;
            if held >= limit {
                return Ok(false);
            }
            sqlx::query(&format!(
                "INSERT INTO webhook_subscriptions ({SUBSCRIPTION_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
            ))
            .bind(&r.id)
            .bind(&r.account_id)
            .bind(&r.url)
            .bind(&r.chains)
            .bind(&r.kinds)
            .bind(&r.tokens)
            .bind(r.min_severity)
            .bind(r.min_severity_rank)
            .bind(&r.secret)
            .bind(&r.previous_secret)
            .bind(r.previous_valid_until)
            .bind(r.secret_rotated_at)
            .bind(r.state)
            .bind(&r.disabled_reason)
            .bind(r.failing_since)
            .bind(r.created_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    async fn webhooks(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<SubscriptionRow>, StoreError> {
        let (after_at, after_id) = after.unzip();
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE account_id = $1 \
             AND ($2 IS NULL OR created_at > $2 OR (created_at = $2 AND id > $3)) \
             ORDER BY created_at, id LIMIT $4"
        ))
        .bind(account_id)
        .bind(after_at)
        .bind(after_id)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn webhook(
        &self,
        account_id: Option<&str>,
        id: &str,
    ) -> Result<Option<SubscriptionRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions \
             WHERE id = $1 AND ($2 IS NULL OR account_id = $2)"
        ))
        .bind(id)
        .bind(account_id)
        .fetch_optional(p)
        .await)?)
    }

    async fn webhook_update(&self, r: &SubscriptionRow) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE webhook_subscriptions SET url = $1, chains = $2, kinds = $3, tokens = $4, \
             min_severity = $5, min_severity_rank = $6 WHERE id = $7 AND account_id = $8",
        )
        .bind(&r.url)
        .bind(&r.chains)
        .bind(&r.kinds)
        .bind(&r.tokens)
        .bind(r.min_severity)
        .bind(r.min_severity_rank)
        .bind(&r.id)
        .bind(&r.account_id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    async fn webhook_delete(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            sqlx::query(
                "DELETE FROM webhook_events WHERE subscription_id IN \
                 (SELECT id FROM webhook_subscriptions WHERE id = $1 AND account_id = $2)",
            )
            .bind(id)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            let done = sqlx::query("DELETE FROM webhook_subscriptions WHERE id = $1 AND account_id = $2")
                .bind(id)
                .bind(account_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok::<_, sqlx::Error>(done)
        })?;
        Ok(done == 1)
    }

    async fn webhook_rotate(
        &self,
        account_id: &str,
        id: &str,
        secret: &str,
        at: DateTime<Utc>,
        previous_valid_until: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE webhook_subscriptions SET previous_secret = secret, secret = $1, \
             secret_rotated_at = $2, previous_valid_until = $3 WHERE id = $4 AND account_id = $5",
        )
        .bind(secret)
        .bind(at)
        .bind(previous_valid_until)
        .bind(id)
        .bind(account_id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    async fn webhook_enable(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE webhook_subscriptions SET state = 'active', disabled_reason = NULL, \
             failing_since = NULL WHERE id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account_id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    async fn webhook_event_insert(&self, e: &EventRow) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(&format!(
            "INSERT INTO webhook_events ({EVENT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
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
        .execute(p)
        .await
        .map(|_| ()))?;
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
}
