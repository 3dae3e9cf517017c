//! Counting: requests per account in fixed one-minute windows, and
//! requests answered 2xx per account in each billing period.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{SqlStore, StoreError};
use crate::on_db;

/// Rate windows and monthly usage.
#[async_trait]
pub trait UsageStore {
    /// Count one request in the account's window starting at `window_start`;
    /// returns the window's count including it.
    async fn rate_window_hit(
        &self,
        account_id: &str,
        window_start: DateTime<Utc>,
    ) -> Result<i64, StoreError>;
    /// Forget windows that started before `before`.
    async fn rate_window_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError>;
    /// Count one request in the period unless the count has reached `cap`;
    /// returns the new count, or None when the cap was reached.
    async fn usage_reserve(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        cap: Option<i64>,
    ) -> Result<Option<i64>, StoreError>;
    /// Take back one reserved request (the answer was not 2xx).
    async fn usage_release(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Requests counted in the period.
    async fn usage_get(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<i64, StoreError>;
    /// Set the period's count (operators' corrections and tests).
    async fn usage_set(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        requests: i64,
    ) -> Result<(), StoreError>;
}

#[async_trait]
impl UsageStore for SqlStore {
    async fn rate_window_hit(
        &self,
        account_id: &str,
        window_start: DateTime<Utc>,
    ) -> Result<i64, StoreError> {
        let (count,): (i64,) = on_db!(self.writer(), p => sqlx::query_as(
            "INSERT INTO rate_windows (account_id, window_start, requests) VALUES ($1, $2, 1) \
             ON CONFLICT (account_id, window_start) DO UPDATE SET requests = rate_windows.requests + 1 RETURNING requests",
        )
        .bind(account_id)
        .bind(window_start)
        .fetch_one(p)
        .await)?;
        Ok(count)
    }

    async fn rate_window_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        Ok(
            on_db!(self.writer(), p => sqlx::query("DELETE FROM rate_windows WHERE window_start < $1")
            .bind(before)
            .execute(p)
            .await
            .map(|d| d.rows_affected()))?,
        )
    }

    async fn usage_reserve(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        cap: Option<i64>,
    ) -> Result<Option<i64>, StoreError> {
        // One statement: the check and the increment cannot be split by a
        // concurrent request, so the cap is never overshot.
        let row: Option<(i64,)> = on_db!(self.writer(), p => sqlx::query_as(
            "INSERT INTO monthly_usage (account_id, period_start, requests) VALUES ($1, $2, 1) \
             ON CONFLICT (account_id, period_start) DO UPDATE SET requests = monthly_usage.requests + 1 \
             WHERE monthly_usage.requests < $3 RETURNING requests",
        )
        .bind(account_id)
        .bind(period_start)
        .bind(cap.unwrap_or(i64::MAX))
        .fetch_optional(p)
        .await)?;
        Ok(row.map(|(count,)| count))
    }

    async fn usage_release(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "UPDATE monthly_usage SET requests = requests - 1 WHERE account_id = $1 AND period_start = $2 AND requests > 0",
        )
        .bind(account_id)
        .bind(period_start)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn usage_get(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<i64, StoreError> {
        let row: Option<(i64,)> = on_db!(self.pool(), p => sqlx::query_as(
            "SELECT requests FROM monthly_usage WHERE account_id = $1 AND period_start = $2",
        )
        .bind(account_id)
        .bind(period_start)
        .fetch_optional(p)
        .await)?;
        Ok(row.map_or(0, |(count,)| count))
    }

    async fn usage_set(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        requests: i64,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO monthly_usage (account_id, period_start, requests) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, period_start) DO UPDATE SET requests = $3",
        )
        .bind(account_id)
        .bind(period_start)
        .bind(requests)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }
}
