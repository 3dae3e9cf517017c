//! Address screening as stored: the sanctions lists (a row per list, an
//! entry per listed address), replaced a version at a time with the alerts
//! that tell of the change; and the reads the service's own record of
//! addresses is built from (analyses in the order they were made, alerts of
//! liquidity removed, approvals that were spent by their spender).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::ChainId;

use super::alerts::insert_alert;
use super::outbox::alert_event_id;
use super::webhooks::{SubscriptionRow, SUBSCRIPTION_COLUMNS};
use super::{AlertRow, SqlStore, StoreError};
use crate::db::on_db;

/// A list as loaded.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ScreeningListRow {
    /// Its name (`ofac_sdn`, or an operator's).
    pub name: String,
    /// Where it was read from (a URL or a file).
    pub source: String,
    /// Its version.
    pub version: String,
    /// The publication date it gives.
    pub published: Option<String>,
    /// Addresses it lists.
    pub entries: i64,
    /// When this version was loaded.
    pub loaded_at: DateTime<Utc>,
    /// When its source was last read successfully.
    pub checked_at: DateTime<Utc>,
}

/// One listed address.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ScreeningEntryRow {
    /// The address as matched (`0x` addresses lower-case).
    pub address: String,
    /// What it is listed for: a currency code, a chain id or `any`.
    pub listed_for: String,
    /// The list's id of the entry.
    pub entry_id: String,
    /// Who is listed, or why.
    pub name: String,
    /// When the entry was first loaded.
    pub listed_at: DateTime<Utc>,
}

/// A stored analysis, as the service's record of addresses reads it.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AnalysedToken {
    /// Its chain.
    pub chain: ChainId,
    /// The token, as the API writes it.
    pub address: String,
    /// The analysis as JSON.
    pub result: String,
    /// When it was made.
    pub analysed_at: DateTime<Utc>,
}

/// Which token's analysis was made when (without the analysis).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AnalysedKey {
    /// Its chain.
    pub chain: ChainId,
    /// The token, as the API writes it.
    pub address: String,
    /// When it was made.
    pub analysed_at: DateTime<Utc>,
}

/// A liquidity-removed alert, as the service's record of addresses reads it.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RemovedLiquidity {
    /// The alert's id.
    pub id: i64,
    /// Its chain.
    pub chain: ChainId,
    /// The token, as the API writes it.
    pub token: String,
    /// When it was observed.
    pub observed_at: DateTime<Utc>,
}

/// An address tokens reached from wallets that had approved it to spend them.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SpentApprovals {
    /// Its chain.
    pub chain: ChainId,
    /// The spender (lower-case hex).
    pub spender: String,
    /// How many wallets.
    pub wallets: i64,
    /// How many tokens.
    pub tokens: i64,
    /// Some of the wallets (the smallest address).
    pub example: String,
}

/// Sanctions lists and the reads of the service's record of addresses.
#[async_trait]
pub trait ScreeningStore {
    /// Every list loaded.
    async fn screening_lists(&self) -> Result<Vec<ScreeningListRow>, StoreError>;
    /// A list's entries.
    async fn screening_entries(&self, list: &str) -> Result<Vec<ScreeningEntryRow>, StoreError>;
    /// Replace a list (its row and every entry) and record `alerts`, in one transaction.
    async fn screening_replace(
        &self,
        list: &ScreeningListRow,
        entries: &[ScreeningEntryRow],
        alerts: &[AlertRow],
    ) -> Result<(), StoreError>;
    /// Note that a list's source was read at `at` and held the same version.
    async fn screening_checked(&self, list: &str, at: DateTime<Utc>) -> Result<(), StoreError>;
    /// Analyses made after `after` (time, chain, address), oldest first, at most `limit`.
    async fn analyses_after(
        &self,
        after: Option<(DateTime<Utc>, ChainId, String)>,
        limit: i64,
    ) -> Result<Vec<AnalysedToken>, StoreError>;
    /// The tokens analysed at or after `from`, oldest first, at most `limit`
    /// (from the index alone: no analysis is read).
    async fn analyses_since(
        &self,
        from: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<AnalysedKey>, StoreError>;
    /// Liquidity-removed alerts after id `after`, oldest first, at most `limit`.
    async fn liquidity_removed_after(
        &self,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RemovedLiquidity>, StoreError>;
    /// Addresses whose first tokens of a token came from a wallet that had
    /// approved them to spend it (holder index and wallet index), from at
    /// least `min_wallets` wallets.
    async fn spent_approvals(&self, min_wallets: i64) -> Result<Vec<SpentApprovals>, StoreError>;
    /// The earliest block at which the holder index saw `holder` (lower-case
    /// hex, or base58) receive tokens, on any token.
    async fn holder_first_seen(
        &self,
        chain: ChainId,
        holder: &str,
    ) -> Result<Option<i64>, StoreError>;
}

const LIST_COLUMNS: &str = "name, source, version, published, entries, loaded_at, checked_at";
/// Entries per INSERT statement (6 parameters each, under SQLite's limit).
const ROWS_PER_INSERT: usize = 500;

#[async_trait]
impl ScreeningStore for SqlStore {
    async fn screening_lists(&self) -> Result<Vec<ScreeningListRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(&format!(
            "SELECT {LIST_COLUMNS} FROM screening_lists ORDER BY name"
        ))
        .fetch_all(p)
        .await)?)
    }

    async fn screening_entries(&self, list: &str) -> Result<Vec<ScreeningEntryRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT address, listed_for, entry_id, name, listed_at FROM screening_entries \
             WHERE list = $1 ORDER BY address, listed_for, entry_id",
        )
        .bind(list)
        .fetch_all(p)
        .await)?)
    }

    async fn screening_replace(
        &self,
        list: &ScreeningListRow,
        entries: &[ScreeningEntryRow],
        alerts: &[AlertRow],
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            sqlx::query("DELETE FROM screening_entries WHERE list = $1")
                .bind(&list.name)
                .execute(&mut *tx)
                .await?;
            for chunk in entries.chunks(ROWS_PER_INSERT) {
                let values: Vec<String> = (0..chunk.len())
                    .map(|i| {
                        let n = i * 6;
                        format!("(${}, ${}, ${}, ${}, ${}, ${})", n + 1, n + 2, n + 3, n + 4, n + 5, n + 6)
                    })
                    .collect();
                let sql = format!(
                    "INSERT INTO screening_entries (list, address, listed_for, entry_id, name, listed_at) VALUES {}",
                    values.join(", ")
                );
                let mut query = sqlx::query(&sql);
                for e in chunk {
                    query = query
                        .bind(&list.name)
                        .bind(&e.address)
                        .bind(&e.listed_for)
                        .bind(&e.entry_id)
                        .bind(&e.name)
                        .bind(e.listed_at);
                }
                query.execute(&mut *tx).await?;
            }
            sqlx::query(&format!(
                "INSERT INTO screening_lists ({LIST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (name) DO UPDATE SET source = $2, version = $3, published = $4, \
                 entries = $5, loaded_at = $6, checked_at = $7"
            ))
            .bind(&list.name)
            .bind(&list.source)
            .bind(&list.version)
            .bind(&list.published)
            .bind(list.entries)
            .bind(list.loaded_at)
            .bind(list.checked_at)
            .execute(&mut *tx)
            .await?;
            for alert in alerts {
                insert_alert!(tx, alert);
            }
            tx.commit().await?;
            Ok(())
        })
    }

    async fn screening_checked(&self, list: &str, at: DateTime<Utc>) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query("UPDATE screening_lists SET checked_at = $2 WHERE name = $1")
            .bind(list)
            .bind(at)
            .execute(p)
            .await
            .map(|_| ()))?;
        Ok(())
    }

    async fn analyses_after(
        &self,
        after: Option<(DateTime<Utc>, ChainId, String)>,
        limit: i64,
    ) -> Result<Vec<AnalysedToken>, StoreError> {
        let (at, chain, address) =
            after.unwrap_or((DateTime::<Utc>::MIN_UTC, ChainId::Eth, String::new()));
        let at = at.max(DateTime::from_timestamp(0, 0).unwrap_or_default());
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, address, result, analysed_at FROM token_analyses \
             WHERE (analysed_at, chain, address) > ($1, $2, $3) \
             ORDER BY analysed_at, chain, address LIMIT $4",
        )
        .bind(at)
        .bind(chain)
        .bind(address)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn analyses_since(
        &self,
        from: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<AnalysedKey>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, address, analysed_at FROM token_analyses WHERE analysed_at >= $1 \
             ORDER BY analysed_at, chain, address LIMIT $2",
        )
        .bind(from)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn liquidity_removed_after(
        &self,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RemovedLiquidity>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT id, chain, token, observed_at FROM alerts \
             WHERE kind = 'liquidity_removed' AND id > $1 ORDER BY id LIMIT $2",
        )
        .bind(after)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn spent_approvals(&self, min_wallets: i64) -> Result<Vec<SpentApprovals>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT h.chain AS chain, h.holder AS spender, COUNT(DISTINCT c.wallet) AS wallets, \
             COUNT(DISTINCT c.token) AS tokens, MIN(c.wallet) AS example \
             FROM wallet_contacts c JOIN holder_balances h ON h.chain = c.chain AND h.token = c.token \
             AND h.holder = c.spender AND h.first_from = c.wallet \
             WHERE c.kind = 'approval' GROUP BY h.chain, h.holder HAVING COUNT(DISTINCT c.wallet) >= $1 \
             ORDER BY h.chain, h.holder",
        )
        .bind(min_wallets)
        .fetch_all(p)
        .await)?)
    }

    async fn holder_first_seen(
        &self,
        chain: ChainId,
        holder: &str,
    ) -> Result<Option<i64>, StoreError> {
        let row: (Option<i64>,) = on_db!(self.pool(), p => sqlx::query_as(
            "SELECT MIN(first_block) FROM holder_balances WHERE chain = $1 AND holder = $2",
        )
        .bind(chain.id())
        .bind(holder)
        .fetch_one(p)
        .await)?;
        Ok(row.0)
    }
}
