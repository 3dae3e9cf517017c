//! The risk-alert feed: one row per event (a unique event key), listed
//! newest first with keyset pages.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::{AlertKind, ChainId, RiskLabel, Severity};

use super::outbox::alert_event_id;
use super::webhooks::{SubscriptionRow, SUBSCRIPTION_COLUMNS};
use super::{SqlStore, StoreError};
use crate::db::on_db;

/// An alert as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AlertRow {
    /// Id (0 before insertion).
    pub id: i64,
    /// Unique key of the event: one alert per event, across restarts and instances.
    pub event_key: String,
    /// Chain id.
    pub chain: ChainId,
    /// Token (checksummed).
    pub token: String,
    /// Kind.
    pub kind: AlertKind,
    /// Severity.
    pub severity: Severity,
    /// Severity rank (info 0 … critical 4), for filtering.
    pub severity_rank: i64,
    /// Title.
    pub title: String,
    /// Detail.
    pub detail: String,
    /// Score before.
    pub score_before: Option<f64>,
    /// Label before.
    pub label_before: Option<RiskLabel>,
    /// Score after.
    pub score_after: Option<f64>,
    /// Label after.
    pub label_after: Option<RiskLabel>,
    /// Block.
    pub block: i64,
    /// When observed.
    pub observed_at: DateTime<Utc>,
}

/// Filters of an alert listing.
#[derive(Clone, Debug, Default)]
pub struct AlertQuery {
    /// Chain id.
    pub chain: Option<ChainId>,
    /// Minimum severity rank.
    pub min_rank: i64,
    /// Kind.
    pub kind: Option<AlertKind>,
    /// Observed at or after.
    pub since: Option<DateTime<Utc>>,
    /// Ids below this only.
    pub before_id: Option<i64>,
    /// Page size.
    pub limit: i64,
}

/// The alert feed.
#[async_trait]
pub trait AlertStore {
    /// Record an alert unless its event has one, and queue it for the
    /// webhook subscriptions it matches; the new id, or None.
    async fn alert_insert(&self, alert: &AlertRow) -> Result<Option<i64>, StoreError>;
    /// One alert.
    async fn alert(&self, id: i64) -> Result<Option<AlertRow>, StoreError>;
    /// Alerts newest first.
    async fn alerts(&self, query: &AlertQuery) -> Result<Vec<AlertRow>, StoreError>;
}

/// Record alert `$alert` in transaction `$tx` unless its event has one,
/// with its webhook deliveries (an alert is never without them): the new
/// id, or None.
macro_rules! insert_alert {
    ($tx:expr, $alert:expr) => {{
        let a: &AlertRow = $alert;
        let row: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO alerts (event_key, chain, token, kind, severity, severity_rank, title, detail, score_before, \
             label_before, score_after, label_after, block, observed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
             ON CONFLICT (event_key) DO NOTHING RETURNING id",
        )
        .bind(&a.event_key)
        .bind(&a.chain)
        .bind(&a.token)
        .bind(a.kind)
        .bind(a.severity)
        .bind(a.severity_rank)
        .bind(&a.title)
        .bind(&a.detail)
        .bind(a.score_before)
        .bind(a.label_before)
        .bind(a.score_after)
        .bind(a.label_after)
        .bind(a.block)
        .bind(a.observed_at)
        .fetch_optional(&mut *$tx)
        .await?;
        if let Some((id,)) = row {
            $crate::outbox::enqueue_alert!($tx, a, id);
        }
        row.map(|(id,)| id)
    }};
}
pub(crate) use insert_alert;

#[async_trait]
impl AlertStore for SqlStore {
    async fn alert_insert(&self, a: &AlertRow) -> Result<Option<i64>, StoreError> {
        on_db!(self.writer(), p => {
        let mut tx = p.begin().await?;
        let id = insert_alert!(tx, a);
        tx.commit().await?;
        Ok(id)
        })
    }

    async fn alert(&self, id: i64) -> Result<Option<AlertRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT id, event_key, chain, token, kind, severity, severity_rank, title, detail, score_before, label_before, \
             score_after, label_after, block, observed_at FROM alerts WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(p)
        .await)?)
    }

    async fn alerts(&self, q: &AlertQuery) -> Result<Vec<AlertRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT id, event_key, chain, token, kind, severity, severity_rank, title, detail, score_before, label_before, \
             score_after, label_after, block, observed_at FROM alerts \
             WHERE ($1 IS NULL OR chain = $1) AND severity_rank >= $2 AND ($3 IS NULL OR kind = $3) \
             AND ($4 IS NULL OR observed_at >= $4) AND ($5 IS NULL OR id < $5) ORDER BY id DESC LIMIT $6",
        )
        .bind(&q.chain)
        .bind(q.min_rank)
        .bind(q.kind)
        .bind(q.since)
        .bind(q.before_id)
        .bind(q.limit)
        .fetch_all(p)
        .await)?)
    }
}
