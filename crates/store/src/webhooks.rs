//! Webhook subscriptions as stored: their URL, filters, signing secret and
//! state. Their events are in the outbox ([`super::outbox`]).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::{Severity, WebhookState};

use super::{AlertRow, SqlStore, StoreError};
use crate::db::on_db;

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
        use riskintel_types::WireName;
        let admits =
            |list: Vec<String>, value: &str| list.is_empty() || list.iter().any(|v| v == value);
        alert.severity_rank >= self.min_severity_rank
            && admits(self.chain_ids(), alert.chain.id())
            && admits(self.kind_names(), alert.kind.wire_name())
            && admits(self.token_addresses(), &alert.token)
    }
}

pub(crate) const SUBSCRIPTION_COLUMNS: &str =
    "id, account_id, url, chains, kinds, tokens, min_severity, \
    min_severity_rank, secret, previous_secret, previous_valid_until, secret_rotated_at, state, \
    disabled_reason, failing_since, created_at";

/// Webhook subscriptions.
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
    /// Subscriptions with a secret (or previous secret) that starts with
    /// `prefix`: stored as issued.
    async fn webhook_unsealed(&self, prefix: &str) -> Result<Vec<SubscriptionRow>, StoreError>;
    /// Store `row`'s secrets in a new form, if they are still those of
    /// `row` as read; whether they were.
    async fn webhook_reseal(
        &self,
        row: &SubscriptionRow,
        secret: &str,
        previous_secret: Option<&str>,
    ) -> Result<bool, StoreError>;
}

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

    async fn webhook_unsealed(&self, prefix: &str) -> Result<Vec<SubscriptionRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions \
             WHERE substr(secret, 1, $2) = $1 OR substr(previous_secret, 1, $2) = $1"
        ))
        .bind(prefix)
        .bind(prefix.len() as i32)
        .fetch_all(p)
        .await)?)
    }

    async fn webhook_reseal(
        &self,
        row: &SubscriptionRow,
        secret: &str,
        previous_secret: Option<&str>,
    ) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE webhook_subscriptions SET secret = $1, previous_secret = $2 WHERE id = $3 \
             AND secret = $4 AND previous_secret IS NOT DISTINCT FROM $5",
        )
        .bind(secret)
        .bind(previous_secret)
        .bind(&row.id)
        .bind(&row.secret)
        .bind(&row.previous_secret)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }
}
