//! Disputed verdicts as stored: users' reports and the operator's answers
//! to them, and the operator's overrides of tokens' labels. An answer
//! queues its webhook events, and a change of an override records its
//! alert, in the same transaction.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::{ChainId, ReportKind, ReportStatus, RiskLabel};

use super::alerts::insert_alert;
use super::outbox::{alert_event_id, insert_event, EVENT_COLUMNS};
use super::webhooks::{SubscriptionRow, SUBSCRIPTION_COLUMNS};
use super::{AlertRow, EventRow, SqlStore, StoreError};
use crate::db::on_db;

/// A report as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ReportRow {
    /// `rep_` and 12 of `[a-z0-9]`.
    pub id: String,
    /// The reporting account.
    pub account_id: String,
    /// The token's chain.
    pub chain: ChainId,
    /// The token, as the API writes it.
    pub token: String,
    /// What the reporter believes is wrong.
    pub kind: ReportKind,
    /// Why, as given.
    pub reason: String,
    /// How to reach the reporter, as given.
    pub contact: Option<String>,
    /// The score shown when it was made.
    pub score: f64,
    /// The label shown when it was made.
    pub label: RiskLabel,
    /// Open, accepted or rejected.
    pub status: ReportStatus,
    /// The operator's answer.
    pub answer: Option<String>,
    /// When the operator answered.
    pub answered_at: Option<DateTime<Utc>>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

/// An override as stored: one per token.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct OverrideRow {
    /// The token's chain.
    pub chain: ChainId,
    /// The token, as the API writes it.
    pub token: String,
    /// The label shown.
    pub label: RiskLabel,
    /// Why.
    pub reason: String,
    /// Who set it.
    pub set_by: String,
    /// When.
    pub set_at: DateTime<Utc>,
    /// When it stops applying (None: when removed).
    pub expires_at: Option<DateTime<Utc>>,
}

impl OverrideRow {
    /// Whether it applies at `now`.
    pub fn in_force(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_none_or(|at| at > now)
    }
}

/// Why a report was not recorded.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportRefusal {
    /// The account holds an open report of the token.
    Duplicate,
    /// The account made `limit` reports since the window began; the oldest
    /// of them was made at this time.
    Limited(DateTime<Utc>),
}

const REPORT_COLUMNS: &str = "id, account_id, chain, token, kind, reason, contact, score, label, \
    status, answer, answered_at, created_at";

const OVERRIDE_COLUMNS: &str = "chain, token, label, reason, set_by, set_at, expires_at";

/// Reports and overrides.
#[async_trait]
pub trait DisputeStore {
    /// Record a report, unless its account has an open report of the token
    /// or made `limit` reports since `window_start`.
    async fn report_insert(
        &self,
        row: &ReportRow,
        window_start: DateTime<Utc>,
        limit: i64,
    ) -> Result<Result<(), ReportRefusal>, StoreError>;
    /// Reports newest first (of `account_id`, when given; with `status`,
    /// when given), after `before` (the last one of the previous page).
    async fn reports(
        &self,
        account_id: Option<&str>,
        status: Option<ReportStatus>,
        before: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<ReportRow>, StoreError>;
    /// One report (of `account_id`, when given).
    async fn report(
        &self,
        account_id: Option<&str>,
        id: &str,
    ) -> Result<Option<ReportRow>, StoreError>;
    /// Answer an open report and queue `events` with the answer; false
    /// (and nothing queued) when it is not open.
    async fn report_answer(
        &self,
        answered: &ReportRow,
        events: &[EventRow],
    ) -> Result<bool, StoreError>;
    /// The active subscriptions of an account on a paying plan (those that
    /// receive its events).
    async fn report_subscriptions(
        &self,
        account_id: &str,
    ) -> Result<Vec<SubscriptionRow>, StoreError>;
    /// How many reports there are of each kind and status.
    async fn report_counts(&self) -> Result<Vec<(ReportKind, ReportStatus, i64)>, StoreError>;
    /// Every stored override (some may have expired).
    async fn overrides(&self) -> Result<Vec<OverrideRow>, StoreError>;
    /// The override of one token.
    async fn override_get(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Option<OverrideRow>, StoreError>;
    /// Set a token's override (replacing any) and record `alert`.
    async fn override_set(&self, row: &OverrideRow, alert: &AlertRow) -> Result<(), StoreError>;
    /// Delete the override of a token set at `set_at` and record `alert`;
    /// false (and no alert) when there is no such override.
    async fn override_delete(
        &self,
        chain: ChainId,
        token: &str,
        set_at: DateTime<Utc>,
        alert: &AlertRow,
    ) -> Result<bool, StoreError>;
}

#[async_trait]
impl DisputeStore for SqlStore {
    async fn report_insert(
        &self,
        r: &ReportRow,
        window_start: DateTime<Utc>,
        limit: i64,
    ) -> Result<Result<(), ReportRefusal>, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            // The account's row, written first, is the lock that makes the
            // count and the insert one step for concurrent requests of the
            // account (PostgreSQL holds the row until commit; SQLite has one writer).
            sqlx::query("UPDATE accounts SET name = name WHERE id = $1")
                .bind(&r.account_id)
                .execute(&mut *tx)
                .await?;
            let recent: Vec<(DateTime<Utc>,)> = sqlx::query_as(
                "SELECT created_at FROM reports WHERE account_id = $1 AND created_at > $2 \
                 ORDER BY created_at LIMIT $3",
            )
            .bind(&r.account_id)
            .bind(window_start)
            .bind(limit)
            .fetch_all(&mut *tx)
            .await?;
            if recent.len() as i64 >= limit {
                return Ok(Err(ReportRefusal::Limited(recent[0].0)));
            }
            let inserted = sqlx::query(&format!(
                "INSERT INTO reports ({REPORT_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
            ))
            .bind(&r.id)
            .bind(&r.account_id)
            .bind(r.chain)
            .bind(&r.token)
            .bind(r.kind)
            .bind(&r.reason)
            .bind(&r.contact)
            .bind(r.score)
            .bind(r.label)
            .bind(r.status)
            .bind(&r.answer)
            .bind(r.answered_at)
            .bind(r.created_at)
            .execute(&mut *tx)
            .await;
            match inserted.map_err(StoreError::from) {
                Ok(_) => {}
                Err(StoreError::Conflict(_)) => return Ok(Err(ReportRefusal::Duplicate)),
                Err(other) => return Err(other),
            }
            tx.commit().await?;
            Ok(Ok(()))
        })
    }

    async fn reports(
        &self,
        account_id: Option<&str>,
        status: Option<ReportStatus>,
        before: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<ReportRow>, StoreError> {
        let (at, id) = before.unzip();
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {REPORT_COLUMNS} FROM reports \
             WHERE ($1 IS NULL OR account_id = $1) AND ($2 IS NULL OR status = $2) \
             AND ($3 IS NULL OR created_at < $3 OR (created_at = $3 AND id < $4)) \
             ORDER BY created_at DESC, id DESC LIMIT $5"
        ))
        .bind(account_id)
        .bind(status)
        .bind(at)
        .bind(id)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn report(
        &self,
        account_id: Option<&str>,
        id: &str,
    ) -> Result<Option<ReportRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {REPORT_COLUMNS} FROM reports WHERE id = $1 AND ($2 IS NULL OR account_id = $2)"
        ))
        .bind(id)
        .bind(account_id)
        .fetch_optional(p)
        .await)?)
    }

    async fn report_answer(&self, r: &ReportRow, events: &[EventRow]) -> Result<bool, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            let answered = sqlx::query(
                "UPDATE reports SET status = $1, answer = $2, answered_at = $3 \
                 WHERE id = $4 AND status = 'open'",
            )
            .bind(r.status)
            .bind(&r.answer)
            .bind(r.answered_at)
            .bind(&r.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if answered != 1 {
                return Ok(false);
            }
            for event in events {
                insert_event!(&mut *tx, event).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    async fn report_subscriptions(
        &self,
        account_id: &str,
    ) -> Result<Vec<SubscriptionRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions \
             WHERE account_id = $1 AND state = 'active' \
             AND account_id IN (SELECT id FROM accounts WHERE plan <> 'free') ORDER BY created_at, id"
        ))
        .bind(account_id)
        .fetch_all(p)
        .await)?)
    }

    async fn report_counts(&self) -> Result<Vec<(ReportKind, ReportStatus, i64)>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT kind, status, COUNT(*) FROM reports GROUP BY kind, status",
        )
        .fetch_all(p)
        .await)?)
    }

    async fn overrides(&self) -> Result<Vec<OverrideRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {OVERRIDE_COLUMNS} FROM label_overrides ORDER BY set_at, chain, token"
        ))
        .fetch_all(p)
        .await)?)
    }

    async fn override_get(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Option<OverrideRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {OVERRIDE_COLUMNS} FROM label_overrides WHERE chain = $1 AND token = $2"
        ))
        .bind(chain)
        .bind(token)
        .fetch_optional(p)
        .await)?)
    }

    async fn override_set(&self, o: &OverrideRow, alert: &AlertRow) -> Result<(), StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            sqlx::query(&format!(
                "INSERT INTO label_overrides ({OVERRIDE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (chain, token) DO UPDATE SET label = $3, reason = $4, set_by = $5, \
                 set_at = $6, expires_at = $7"
            ))
            .bind(o.chain)
            .bind(&o.token)
            .bind(o.label)
            .bind(&o.reason)
            .bind(&o.set_by)
            .bind(o.set_at)
            .bind(o.expires_at)
            .execute(&mut *tx)
            .await?;
            insert_alert!(tx, alert);
            tx.commit().await?;
            Ok(())
        })
    }

    async fn override_delete(
        &self,
        chain: ChainId,
        token: &str,
        set_at: DateTime<Utc>,
        alert: &AlertRow,
    ) -> Result<bool, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            let deleted = sqlx::query(
                "DELETE FROM label_overrides WHERE chain = $1 AND token = $2 AND set_at = $3",
            )
            .bind(chain)
            .bind(token)
            .bind(set_at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if deleted != 1 {
                return Ok(false);
            }
            insert_alert!(tx, alert);
            tx.commit().await?;
            Ok(true)
        })
    }
}
