//! Counting: requests per account in fixed one-minute windows (counted in
//! memory by each instance, published here), and
//! requests answered 2xx per account in each billing period.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{SqlStore, StoreError};

/// Values bound in one statement at most: SQLite finds each bound
/// parameter by a walk of the statement's list of them, so binding costs
/// grow with the square of a statement's parameters (a publish of 3,000
/// accounts' counts in three statements of 2,000 took 5 % of a busy
/// server's CPU); more, shorter statements cost less.
const PARAMETERS: usize = 256;
use crate::db::on_db;

/// Rate windows and monthly usage.
#[async_trait]
pub trait UsageStore {
    /// Publish this instance's counts for the window starting at
    /// `window_start` (account, requests), in one statement per thousand
    /// accounts.
    async fn rate_counts_publish(
        &self,
        instance: &str,
        window_start: DateTime<Utc>,
        counts: &[(String, i64)],
    ) -> Result<(), StoreError>;
    /// The other instances' latest counts for the window, summed per account.
    async fn rate_counts_others(
        &self,
        instance: &str,
        window_start: DateTime<Utc>,
    ) -> Result<Vec<(String, i64)>, StoreError>;
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
    /// Add each (account, period) its count and record each key's last use
    /// (never moving it back), in one transaction; the new totals, in the
    /// order of `counts`.
    async fn usage_add(
        &self,
        counts: &[((String, DateTime<Utc>), i64)],
        key_uses: &[(String, DateTime<Utc>)],
    ) -> Result<Vec<i64>, StoreError>;
    /// The totals of these (account, period) pairs, in the same order (0
    /// where nothing is counted).
    async fn usage_totals(&self, keys: &[(String, DateTime<Utc>)]) -> Result<Vec<i64>, StoreError>;
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
    async fn rate_counts_publish(
        &self,
        instance: &str,
        window_start: DateTime<Utc>,
        counts: &[(String, i64)],
    ) -> Result<(), StoreError> {
        for chunk in counts.chunks(PARAMETERS / 2 - 1) {
            // Placeholders only; every value is bound.
            let rows: Vec<String> = (0..chunk.len())
                .map(|i| format!("($1, ${}, $2, ${})", 2 * i + 3, 2 * i + 4))
                .collect();
            let sql = format!(
                "INSERT INTO rate_counts (instance, account_id, window_start, requests) VALUES {} \
                 ON CONFLICT (instance, account_id, window_start) DO UPDATE SET requests = excluded.requests",
                rows.join(", ")
            );
            on_db!(self.writer(), p => {
                let mut query = sqlx::query(&sql).bind(instance).bind(window_start);
                for (account, requests) in chunk {
                    query = query.bind(account).bind(requests);
                }
                query.execute(p).await.map(|_| ())
            })?;
        }
        Ok(())
    }

    async fn rate_counts_others(
        &self,
        instance: &str,
        window_start: DateTime<Utc>,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT account_id, CAST(SUM(requests) AS BIGINT) FROM rate_counts \
             WHERE window_start = $1 AND instance <> $2 GROUP BY account_id",
        )
        .bind(window_start)
        .bind(instance)
        .fetch_all(p)
        .await)?)
    }

    async fn rate_window_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        Ok(
            on_db!(self.writer(), p => sqlx::query("DELETE FROM rate_counts WHERE window_start < $1")
            .bind(before)
            .execute(p)
            .await
            .map(|d| d.rows_affected()))?,
        )
    }

    async fn usage_add(
        &self,
        counts: &[((String, DateTime<Utc>), i64)],
        key_uses: &[(String, DateTime<Utc>)],
    ) -> Result<Vec<i64>, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            // One statement per chunk of rows; placeholders only, every value bound.
            let mut found = std::collections::HashMap::new();
            for chunk in counts.chunks(PARAMETERS / 3) {
                let rows: Vec<String> = (0..chunk.len())
                    .map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3))
                    .collect();
                let sql = format!(
                    "INSERT INTO monthly_usage (account_id, period_start, requests) VALUES {} \
                     ON CONFLICT (account_id, period_start) \
                     DO UPDATE SET requests = monthly_usage.requests + excluded.requests \
                     RETURNING account_id, period_start, requests",
                    rows.join(", ")
                );
                let mut query = sqlx::query_as::<_, (String, DateTime<Utc>, i64)>(&sql);
                for ((account, period), add) in chunk {
                    query = query.bind(account).bind(period).bind(add);
                }
                for (account, period, total) in query.fetch_all(&mut *tx).await? {
                    found.insert((account, period), total);
                }
            }
            let totals = counts
                .iter()
                .map(|(key, _)| found.get(key).copied().unwrap_or(0))
                .collect();
            for (key, at) in key_uses {
                sqlx::query(
                    "UPDATE api_keys SET last_used_at = $1 \
                     WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)",
                )
                .bind(at)
                .bind(key)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(totals)
        })
    }

    async fn usage_totals(&self, keys: &[(String, DateTime<Utc>)]) -> Result<Vec<i64>, StoreError> {
        let mut found: std::collections::HashMap<(String, DateTime<Utc>), i64> =
            std::collections::HashMap::new();
        let mut periods: Vec<DateTime<Utc>> = keys.iter().map(|k| k.1).collect();
        periods.sort();
        periods.dedup();
        for period in periods {
            let accounts: Vec<&String> = keys
                .iter()
                .filter(|k| k.1 == period)
                .map(|k| &k.0)
                .collect();
            for chunk in accounts.chunks(PARAMETERS - 1) {
                // Placeholders only; every value is bound.
                let placeholders: Vec<String> =
                    (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
                let sql = format!(
                    "SELECT account_id, requests FROM monthly_usage WHERE period_start = $1 AND account_id IN ({})",
                    placeholders.join(", ")
                );
                let rows: Vec<(String, i64)> = on_db!(self.pool(), p => {
                    let mut query = sqlx::query_as(&sql).bind(period);
                    for account in chunk {
                        query = query.bind(*account);
                    }
                    query.fetch_all(p).await
                })?;
                for (account, requests) in rows {
                    found.insert((account, period), requests);
                }
            }
        }
        Ok(keys
            .iter()
            .map(|k| found.get(k).copied().unwrap_or(0))
            .collect())
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
